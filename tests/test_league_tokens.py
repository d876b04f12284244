"""A club server's access tokens, kept by the store beside its facts (never among them): each
test runs against a store in memory, in a folder and in PostgreSQL."""

from __future__ import annotations

import json
import os
import stat
import string
from pathlib import Path

import pytest
from conftest import reopen

from scorer.league.errors import StoreError, StoreInputError
from scorer.league.pg import SCHEMA_VERSION
from scorer.league.store import Store
from scorer.league.token_book import TOKENS_NAME
from scorer.league.tokens import PREFIX, Role, TokenInfo, digest
from scorer.messages import render


@pytest.fixture()
def store(store_of_each_kind: Store) -> Store:
    return store_of_each_kind


def test_a_new_token_is_shown_once_and_found_by_its_secret(store: Store) -> None:
    info, secret = store.add_token("  Anna's phone ", "scorer")
    assert info.name == "Anna's phone" and info.role is Role.SCORER and info.revoked is None
    assert secret.startswith(PREFIX) and len(secret) >= len(PREFIX) + 43  # 256 bits, URL-safe
    assert set(secret[len(PREFIX) :]) <= set(string.ascii_letters + string.digits + "-_")
    assert store.token_for(secret) == info
    assert store.tokens() == [info]
    _, second = store.add_token("Club laptop", Role.DIRECTOR)
    assert second != secret
    assert [t.name for t in store.tokens()] == ["Anna's phone", "Club laptop"]
    assert store.token_for(second) == TokenInfo("Club laptop", Role.DIRECTOR, store.tokens()[1].created)


def test_tokens_survive_reopening_and_another_program_sees_them(store: Store) -> None:
    info, secret = store.add_token("Anna's phone", "viewer")
    again = reopen(store)
    try:
        assert again.tokens() == [info]
        assert again.token_for(secret) == info
        _, theirs = again.add_token("Bea's phone", "scorer")
        assert store.token_for(theirs) is not None  # made by the other program, known here at once
        again.revoke_token("anna's PHONE")
        assert store.token_for(secret) is None  # revoked there: refused here at the next request
        assert [t.name for t in store.tokens()] == ["Bea's phone"]
    finally:
        if again is not store:
            again.close()


def test_a_wrong_or_empty_or_huge_secret_is_no_token(store: Store) -> None:
    _, secret = store.add_token("Anna's phone", "scorer")
    assert store.token_for(secret[:-1]) is None
    assert store.token_for(secret + "x") is None
    assert store.token_for(secret.upper()) is None
    assert store.token_for("") is None
    assert store.token_for(PREFIX + "x" * 10_000) is None
    assert store.token_for("rst_\udcff") is None  # what a header may decode to: no error


def test_a_revoked_token_is_refused_and_its_name_may_be_given_again(store: Store) -> None:
    info, secret = store.add_token("Anna's phone", "scorer")
    revoked = store.revoke_token("ANNA'S PHONE ")
    assert (revoked.name, revoked.role, revoked.created) == (info.name, info.role, info.created)
    assert revoked.revoked is not None and revoked.revoked >= info.created
    assert store.token_for(secret) is None
    assert store.tokens() == []
    new, new_secret = store.add_token("Anna's phone", "viewer")  # her new phone
    assert store.token_for(new_secret) == new and store.token_for(secret) is None
    assert store.tokens() == [new]


def test_the_store_keeps_no_secret_only_its_digest(store: Store, tmp_path: Path) -> None:
    _, secret = store.add_token("Anna's phone", "director")
    if store.location is not None:
        path = store.location / TOKENS_NAME
        text = path.read_text()
        assert secret not in text and digest(secret) in text
        assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0  # its owner's alone
        assert not list(store.location.glob(f".{TOKENS_NAME}*"))  # no temporary file left
    elif store.address is not None:
        import psycopg

        with psycopg.connect(store.address) as conn:
            rows = conn.execute("SELECT * FROM rummy_tokens").fetchall()
        assert secret not in repr(rows) and digest(secret) in repr(rows)
    # and never among the facts, which every device syncs
    assert all(secret not in json.dumps(f.to_json()) for f in store.facts_since(0))
    assert store.facts_since(0) == [] and store.position == 0


@pytest.mark.parametrize(
    ("name", "role", "code", "quoted"),
    [
        ("", "scorer", "store.needs_name", None),
        ("   ", "viewer", "store.needs_name", None),
        ("Anna\tphone", "viewer", "name.control", "'Anna\\tphone'"),
        ("Anna\u202ephone", "viewer", "name.bidi", "'Anna\\u202ephone'"),
        ("x" * 101, "viewer", "store.name_too_long", "'xxxxxxxxxxxxxxxxxxxx'"),
        ("Anna's phone", "admin", "store.token_role_unknown", "'admin'"),
        ("Anna's phone", "", "store.token_role_unknown", "''"),
    ],
)
def test_a_bad_name_or_role_is_refused_quoting_it_and_nothing_is_kept(
    store: Store, name: str, role: str, code: str, quoted: str | None
) -> None:
    with pytest.raises(StoreInputError) as refused:
        store.add_token(name, role)
    message = refused.value.message
    assert message.code == code
    if quoted is not None:
        assert quoted in str(refused.value)
    assert render(message, "fi") != render(message, "en")
    assert store.tokens() == []


def test_a_name_taken_is_refused_case_and_spacing_aside(store: Store) -> None:
    info, secret = store.add_token("Anna's phone", "scorer")
    with pytest.raises(StoreInputError) as refused:
        store.add_token(" ANNA'S PHONE", "director")
    assert refused.value.message.code == "store.token_exists"
    assert str(refused.value) == (
        'a token named "ANNA\'S PHONE" already exists: revoke it first, or choose another name'
    )
    assert render(refused.value.message, "fi").startswith('pääsyavain nimeltä "ANNA\'S PHONE" on jo')
    assert store.tokens() == [info]  # the first one unchanged, no second made
    assert store.token_for(secret) == info


def test_revoking_a_name_no_token_has_is_refused_quoting_it(store: Store) -> None:
    store.add_token("Anna's phone", "scorer")
    store.revoke_token("Anna's phone")
    for name in ("Bea's phone", "Anna's phone"):  # never made; already revoked
        with pytest.raises(StoreInputError) as refused:
            store.revoke_token(name)
        assert refused.value.message.code == "store.token_unknown"
        assert repr(name) in str(refused.value) and repr(name) in render(refused.value.message, "fi")
    with pytest.raises(StoreInputError, match="needs a name"):
        store.revoke_token(" ")


def test_a_database_of_the_first_schema_gains_the_tokens_table_when_opened(pg_address: str) -> None:
    import psycopg

    Store.open(pg_address).close()
    with psycopg.connect(pg_address) as conn:  # as the version before tokens left it
        conn.execute("DROP TABLE rummy_tokens")
        conn.execute("UPDATE rummy_meta SET value = '1' WHERE key = 'schema'")
    store = Store.open(pg_address)
    try:
        _, secret = store.add_token("Anna's phone", "scorer")
        assert store.token_for(secret) is not None
    finally:
        store.close()
    with psycopg.connect(pg_address) as conn:
        found = conn.execute("SELECT value FROM rummy_meta WHERE key = 'schema'").fetchone()
        assert found == (str(SCHEMA_VERSION),)  # brought up to this version's schema


def test_a_damaged_file_of_tokens_is_refused_naming_it_never_written_over(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    _, secret = store.add_token("Anna's phone", "scorer")
    path = tmp_path / "league" / TOKENS_NAME
    damaged = path.read_bytes()[:40]
    path.write_bytes(damaged)
    with pytest.raises(StoreError) as refused:
        store.token_for(secret)
    assert refused.value.message.code == "store.tokens_damaged" and str(path) in str(refused.value)
    with pytest.raises(StoreError):
        store.add_token("Bea's phone", "viewer")
    assert path.read_bytes() == damaged  # kept as it was, for a person to look at
    path.write_text('{"v": 9, "tokens": []}')
    with pytest.raises(StoreError, match="version 9"):
        Store.open(tmp_path / "league").tokens()


def test_a_store_in_the_browser_makes_no_tokens(tmp_path: Path) -> None:
    from test_web_records import opened

    from scorer.web.records import MemoryRecords

    store = opened(MemoryRecords(), tmp_path)
    with pytest.raises(StoreError) as refused:
        store.add_token("Anna's phone", "scorer")
    assert refused.value.message.code == "store.tokens_not_here"
    assert "club server" in str(refused.value) and "kerhon palvelimen" in render(refused.value.message, "fi")
    with pytest.raises(StoreError):
        store.revoke_token("Anna's phone")
    assert store.tokens() == [] and store.token_for("rst_x") is None
