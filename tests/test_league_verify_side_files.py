"""`rummy league verify` and the files a folder store keeps beside its log (scorer/league/recovery.py):
the access tokens (``tokens.json``), the night codes' secret (``codes.key``) and the club server
(``club.json``). Each one there and damaged or unreadable is named, with what is wrong and what
to do, exit 1 as for other damage, in text and in ``--json``; ``restore`` is not promised to mend
them (it does not), and nothing is written. Regressions: a damaged ``tokens.json`` was said to be
"whole".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.league.club_server import CLUB_NAME, ClubServer
from scorer.league.store import Store
from scorer.league.token_book import CODES_KEY_NAME, TOKENS_NAME


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if "--json" in argv else captured.out + captured.err


@pytest.fixture()
def folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A store with a league, a token, the night codes' secret and a club server: all whole."""
    where = tmp_path / "league"
    store = Store.open(where)
    store.create_league("Club")
    assert (
        main(["league", "token", "add", "--name", "Anna's phone", "--role", "scorer", "--db", str(where)])
        == 0
    )
    assert store._ledger.tokens is not None
    store._ledger.tokens.code_secret()
    store._ledger.save_club_server(ClubServer.of("https://club.example.org", "rst_" + "a" * 40, "Club"))
    store.close()
    capsys.readouterr()
    for name in (TOKENS_NAME, CODES_KEY_NAME, CLUB_NAME):
        assert (where / name).is_file()
    assert run(capsys, "league", "verify", "--db", str(where), "--json") == (0, {"problems": []})
    return where


DAMAGE = {
    TOKENS_NAME: [
        (b'{"v": 1, "tokens": [', "Expecting value"),  # cut off
        (b'{"v": 1}', "not a file of tokens"),
        (b'{"v": 9, "tokens": []}', "a file of version 9"),
    ],
    CODES_KEY_NAME: [(b"not hex\n", "not 32 bytes in hex"), (b"abcd\n", "not 32 bytes in hex")],
    CLUB_NAME: [(b'{"url": "https://club.example.org"', "Expecting"), (b"[1, 2]", "not a club server")],
}
CODES = {
    TOKENS_NAME: "store.problem_tokens",
    CODES_KEY_NAME: "store.problem_codes_key",
    CLUB_NAME: "store.problem_club",
}
TO_DO = {
    TOKENS_NAME: "rummy league token add",
    CODES_KEY_NAME: "move it aside",
    CLUB_NAME: "Settings → Club server",
}


@pytest.mark.parametrize(
    ("name", "content", "why"), [(n, c, w) for n, cases in DAMAGE.items() for c, w in cases]
)
def test_each_damaged_side_file_is_named_with_what_is_wrong_and_what_to_do(
    capsys: pytest.CaptureFixture[str], folder: Path, name: str, content: bytes, why: str
) -> None:
    path = folder / name
    path.write_bytes(content)
    status, out = run(capsys, "league", "verify", "--db", str(folder), "--json")
    assert status == 1
    [problem] = out["problems"]
    assert problem["path"] == str(path) and problem["code"] == CODES[name]
    assert why in problem["params"]["why"] and TO_DO[name] in problem["problem"]
    status, text = run(capsys, "league", "verify", "--db", str(folder))
    assert status == 1 and str(path) in text and TO_DO[name] in text
    assert "store is whole" not in text and "rummy league restore" not in text  # restore does not mend it
    assert path.read_bytes() == content  # verify writes nothing


@pytest.mark.parametrize("name", [TOKENS_NAME, CODES_KEY_NAME, CLUB_NAME])
def test_a_side_file_that_cannot_be_read_is_named(
    capsys: pytest.CaptureFixture[str], folder: Path, name: str
) -> None:
    path = folder / name
    path.unlink()
    path.mkdir()  # read as a file: the system refuses (as a file without read permission is)
    status, out = run(capsys, "league", "verify", "--db", str(folder), "--json")
    assert status == 1
    assert [(p["path"], p["code"]) for p in out["problems"]] == [(str(path), CODES[name])]
    assert "directory" in out["problems"][0]["params"]["why"].lower()


def test_missing_side_files_are_no_damage(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    for name in (TOKENS_NAME, CODES_KEY_NAME, CLUB_NAME):
        (folder / name).unlink()  # none made yet: a store that never had tokens or a club server
    assert run(capsys, "league", "verify", "--db", str(folder), "--json") == (0, {"problems": []})


def test_side_damage_beside_a_damaged_log_names_both_and_the_restore_for_the_log(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    from scorer.league.log import LOG_NAME

    (folder / TOKENS_NAME).write_bytes(b"{")
    log = folder / LOG_NAME
    log.write_bytes(log.read_bytes()[:10])
    status, text = run(capsys, "league", "verify", "--db", str(folder))
    assert status == 1
    assert str(folder / TOKENS_NAME) in text and str(log) in text
    assert "'rummy league restore' makes them again" in text
