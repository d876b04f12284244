"""`rummy league token add|list|revoke`: the documented contract (docs/cli.md), with --json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.league.store import Store
from scorer.league.tokens import PREFIX


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "league")


def token(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> tuple[int, Any, str]:
    """``rummy league token ARGV --db DB``."""
    return run(capsys, "league", "token", *argv, "--db", db)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, parsed JSON (when --json) or text, and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def test_add_prints_the_token_once_and_json_is_name_role_token(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    status, out, err = token(capsys, db, "add", "--name", "Anna's phone", "--role", "scorer")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == 'token "Anna\'s phone" made (scorer):'
    secret = lines[1]
    assert secret.startswith(PREFIX) and Store.open(db).token_for(secret) is not None
    assert "shown only this once" in lines[2]
    status, out, _ = token(capsys, db, "add", "--name", " Club laptop ", "--role", "DIRECTOR", "--json")
    assert status == 0 and set(out) == {"name", "role", "token"}
    assert out["name"] == "Club laptop" and out["role"] == "director"
    info = Store.open(db).token_for(out["token"])
    assert info is not None and info.name == "Club laptop"


def test_list_shows_the_good_tokens_never_a_secret(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert token(capsys, db, "list")[1].strip() == (
        "no tokens yet ('rummy league token add --name NAME --role ROLE' makes one)"
    )
    assert token(capsys, db, "list", "--json")[1] == []
    secrets = [
        token(capsys, db, "add", "--name", name, "--role", role, "--json")[1]["token"]
        for name, role in (("Anna's phone", "viewer"), ("Bea's phone", "scorer"))
    ]
    status, out, _ = token(capsys, db, "list", "--json")
    assert status == 0
    assert [(t["name"], t["role"]) for t in out] == [("Anna's phone", "viewer"), ("Bea's phone", "scorer")]
    assert all(set(t) == {"name", "role", "created"} for t in out)
    text = token(capsys, db, "list")[1]
    assert "Anna's phone" in text and "viewer" in text and not any(s in text for s in secrets)
    finnish = run(capsys, "--lang", "fi", "league", "token", "list", "--db", db)[1]
    assert "pääsyavain" in finnish and "katsoja" in finnish and "kirjuri" in finnish


def test_revoke_refuses_the_token_from_then_on(capsys: pytest.CaptureFixture[str], db: str) -> None:
    added = token(capsys, db, "add", "--name", "Anna's phone", "--role", "scorer", "--json")
    status, out, _ = token(capsys, db, "revoke", "ANNA'S PHONE", "--json")
    assert status == 0 and set(out) == {"name", "role", "created", "revoked"}
    assert out["name"] == "Anna's phone" and out["revoked"] >= out["created"]
    assert Store.open(db).token_for(added[1]["token"]) is None
    assert token(capsys, db, "list", "--json")[1] == []
    status, out, _ = token(capsys, db, "add", "--name", "Anna's phone", "--role", "viewer")
    assert status == 0  # the name is free again
    status, _, err = token(capsys, db, "revoke", "Anna's phone")
    assert status == 0 and err == ""
    assert token(capsys, db, "revoke", "Anna's phone")[0] == 2  # already revoked


@pytest.mark.parametrize(
    ("argv", "said", "code"),
    [
        (
            ("add", "--name", "Anna's phone", "--role", "admin"),
            "unknown role 'admin'",
            "store.token_role_unknown",
        ),
        (("add", "--name", "  ", "--role", "viewer"), "a token needs a name", "store.needs_name"),
        (("revoke", "Nobody's phone"), 'no token is named "Nobody\'s phone"', "store.token_unknown"),
    ],
)
def test_bad_input_is_exit_2_quoting_it(
    capsys: pytest.CaptureFixture[str], db: str, argv: tuple[str, ...], said: str, code: str
) -> None:
    status, out, err = token(capsys, db, *argv)
    assert status == 2 and said in err and out == ""
    status, out, _ = token(capsys, db, *argv, "--json")
    assert status == 2 and out["code"] == code and said in out["error"]
    assert Store.open(db).tokens() == []


def test_a_name_taken_is_exit_2_and_the_first_token_still_works(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    first = token(capsys, db, "add", "--name", "Anna's phone", "--role", "scorer", "--json")
    status, _, err = token(capsys, db, "add", "--name", "anna's phone", "--role", "viewer")
    assert status == 2 and 'a token named "anna\'s phone" already exists' in err
    info = Store.open(db).token_for(first[1]["token"])
    assert info is not None and info.role.value == "scorer"
