"""The club server a store syncs with (Settings -> Club server), kept with the store: a folder's
``club.json`` (mode 0600), a store in memory, the browser's IndexedDB ``meta`` records (here over
MemoryRecords, as IndexedDB holds them); the sync marks of the browser's store likewise."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from test_web_records import opened

from scorer.league.club_server import CLUB_NAME, ClubServer, ClubServerError
from scorer.league.store import Store
from scorer.messages import render
from scorer.web.records import MemoryRecords


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")


def test_a_club_server_set_is_read_back_with_its_league_by_id(store: Store) -> None:
    league = store.create_league("Tuesday Club")
    assert store.club_server() is None
    saved = store.set_club_server(
        " https://club.example.org:8443/rummy/ ", " rk_secret_token_7Q2X ", "tuesday club"
    )
    assert saved == ClubServer(
        url="https://club.example.org:8443/rummy", token="rk_secret_token_7Q2X", league=league.id
    )
    assert store.club_server() == saved
    assert saved.tail == "7Q2X"
    assert "rk_secret" not in repr(saved)  # a log line shows only the tail


def test_a_league_not_here_is_kept_as_given_for_the_server(store: Store) -> None:
    saved = store.set_club_server("http://192.168.1.20:8000", "tok12345", "Thursday League")
    assert saved.league == "Thursday League"


def test_forgetting_the_club_server(store: Store) -> None:
    store.create_league("Club")
    store.set_club_server("http://club.test", "tok12345", "Club")
    store.clear_club_server()
    assert store.club_server() is None
    store.clear_club_server()  # forgetting none is no error
    assert store.club_server() is None


@pytest.mark.parametrize(
    "url",
    [
        "club.example.org",
        "ftp://club.example.org",
        "https://",
        "http://club test",
        "https://c.org:port",
        "https://c.org/?t=1",
    ],
)
def test_an_address_that_is_not_http_is_refused_quoting_it(store: Store, url: str) -> None:
    store.create_league("Club")
    with pytest.raises(ClubServerError) as refused:
        store.set_club_server(url, "tok12345", "Club")
    assert repr(url) in str(refused.value)
    assert repr(url) in render(refused.value.message, "fi")
    assert "http://" in render(refused.value.message, "fi")
    assert store.club_server() is None  # nothing kept


@pytest.mark.parametrize("token", ["", "   ", "two words", "line\nbreak"])
def test_a_token_that_is_not_one_word_is_refused(store: Store, token: str) -> None:
    with pytest.raises(ClubServerError, match="token"):
        store.set_club_server("https://club.test", token, "Club")
    assert store.club_server() is None


def test_no_league_is_refused(store: Store) -> None:
    with pytest.raises(ClubServerError, match="league"):
        store.set_club_server("https://club.test", "tok12345", "  ")


def test_the_folder_keeps_it_in_a_file_its_owner_alone_reads(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    store.set_club_server("https://club.test", "tok_secret_1234", "Club")
    path = folder / CLUB_NAME
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert json.loads(path.read_text())["token"] == "tok_secret_1234"
    assert not list(folder.glob(".club.json*"))  # no temporary file left
    store.close()
    again = Store.open(folder)
    assert again.club_server() == ClubServer("https://club.test", "tok_secret_1234", again.leagues()[0].id)
    again.clear_club_server()
    assert not path.exists()


def test_a_damaged_file_is_as_none(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    store = Store.open(folder)
    (folder / CLUB_NAME).write_text("{not json")
    assert store.club_server() is None
    (folder / CLUB_NAME).write_text(json.dumps({"url": "gopher://x", "token": "t", "league": "l"}))
    assert store.club_server() is None


def test_the_browser_keeps_it_and_the_sync_marks_in_its_meta_records(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    league = store.create_league("Club")
    store.set_club_server("https://club.test", "tok_secret_1234", "Club")
    store.save_sync_mark("https://club.test", league.id, sent=7, received=12)
    assert records.meta["club"] == {
        "v": 1,
        "url": "https://club.test",
        "token": "tok_secret_1234",
        "league": league.id,
    }
    assert records.meta["sync"]["marks"] == {f"https://club.test {league.id}": {"sent": 7, "received": 12}}
    again = opened(records, tmp_path / "again")  # the page loaded again
    assert again.club_server() == ClubServer("https://club.test", "tok_secret_1234", league.id)
    assert again.sync_mark("https://club.test", league.id) == (7, 12)
    again.clear_club_server()
    assert "club" not in records.meta
    assert opened(records, tmp_path / "third").club_server() is None


def test_the_browser_drops_another_stores_marks(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    league = store.create_league("Club")
    store.save_sync_mark("https://club.test", league.id, sent=3, received=4)
    records.meta["sync"]["store"] = "another store"  # a backup of another store put in place
    assert opened(records, tmp_path / "again").sync_mark("https://club.test", league.id) == (0, 0)


# -- a game changed apart: the other side's facts, kept aside ---------------------------------


def _apart(tmp_path: Path, phone: Store) -> tuple[str, Store]:
    """A club server and ``phone`` that recorded deal 3 of one game apart, then synced: the game."""
    from store_deals import rommi_deal
    from sync_kit import ClientTransport, play, server_client

    from scorer.league.sync import sync

    server = Store.memory()
    client = server_client(server)
    league = server.create_league("Club").id
    shared = play(server, league, ["Anna", "Bea", "Cecilia"], 2)
    sync(phone, ClientTransport(client, "scorer"), league=league)
    players = ("Anna", "Bea", "Cecilia")
    server.add_deal(shared, rommi_deal(players, 0, [0, 1]), by="Bea's tablet")
    phone.add_deal(shared, rommi_deal(players, 1, [1, 0]), by="Anna's phone")
    report = sync(phone, ClientTransport(client, "scorer"), league=league)
    assert {c.get("game") for c in report.conflicts} == {shared}
    return shared, server


def test_a_sync_keeps_the_other_sides_facts_of_a_game_changed_apart(tmp_path: Path) -> None:
    from scorer.ui.screens.synced_apart_model import their_deals

    folder = tmp_path / "phone"
    phone = Store.open(folder)
    shared, server = _apart(tmp_path, phone)
    held = phone.held_facts(shared)
    assert [f.kind for f in held] == ["deal.recorded"]
    assert held[0].id not in {f.id for f in phone.facts_since(0)}  # aside, never folded in
    theirs = their_deals(phone, shared)
    assert [(d.number, d.change, d.by) for d in theirs] == [(3, "recorded", "Bea's tablet")]
    assert theirs[0].deal == server.game(shared).document["deals"][2]
    assert phone.game(shared).document["deals"][2] != theirs[0].deal  # this side keeps its own
    assert (folder / "held" / f"{shared}.json").is_file()
    assert [f.id for f in Store.open(folder).held_facts(shared)] == [held[0].id]  # kept
    # and the club server keeps the phone's version of it, as the phone keeps the server's
    assert [(d.number, d.by) for d in their_deals(server, shared)] == [(3, "Anna's phone")]


def test_the_browser_keeps_them_in_its_meta_records(tmp_path: Path) -> None:
    records = MemoryRecords()
    phone = opened(records, tmp_path)
    shared, _ = _apart(tmp_path, phone)
    assert list(records.meta["held"]) == [shared]
    again = opened(records, tmp_path / "again")
    assert [f.kind for f in again.held_facts(shared)] == ["deal.recorded"]


def test_held_facts_that_came_in_since_are_left_out(store: Store) -> None:
    from sync_kit import play

    league = store.create_league("Club").id
    game = play(store, league, ["Anna", "Bea"], 1)
    here = [f for f in store.facts_since(0) if f.subject == game]
    store._ledger.save_held(game, [f.to_json() for f in here])  # as if they had come in since
    assert store.held_facts(game) == []
    assert store.held_facts("../../etc/passwd") == []  # never a file name
