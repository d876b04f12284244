"""The Scoreboard's notice of a game changed on another device too: its view-model's three
choices (the same as one server's), each settling the game in one write so that the notice
goes at once and the next sync brings the club server to the same game; a choice the game
refuses is said, in the app's language, and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_deals import rommi_deal
from store_reads import differences
from sync_kit import ClientTransport, league_fact_ids, play, reads, server_client

from scorer.league.store import Store
from scorer.league.sync import sync
from scorer.ui.engine_text import engine_text
from scorer.ui.screens.synced_apart_model import SyncedApart

PLAYERS = ("Anna", "Bea", "Cecilia")


def _apart(tmp_path: Path) -> tuple[Store, Store, object, str, str]:
    """A club server and a table's store, deal 3 of one game recorded on each apart, synced:
    the table holds the club's deal 3 (Anna went out), its own is Bea's."""
    club = Store.memory()
    client = server_client(club)
    league = club.create_league("Club").id
    shared = play(club, league, list(PLAYERS), 2)
    table = Store.open(tmp_path / "table")
    sync(table, ClientTransport(client), league=league)
    club.add_deal(shared, rommi_deal(PLAYERS, 0, [0, 1]), by="Bea's tablet")
    table.add_deal(shared, rommi_deal(PLAYERS, 1, [1, 0]), by="Anna's phone")
    assert sync(table, ClientTransport(client), league=league).conflicts
    return club, table, client, league, shared


def _outs(store: Store, game: str) -> list[str]:
    return [d["out"] for d in store.game(game).document["deals"]][2:]


@pytest.mark.parametrize(
    ("choice", "expected"),
    [("keep_theirs", ["Anna"]), ("save_mine_next", ["Anna", "Bea"]), ("replace_theirs", ["Bea"])],
)
def test_each_choice_settles_the_game_and_the_next_sync_converges(
    tmp_path: Path, choice: str, expected: list[str]
) -> None:
    club, table, client, league, shared = _apart(tmp_path)
    model = SyncedApart(shared)
    model.read(table)
    assert [(d.number, d.change, d.by, d.deal and d.deal["out"]) for d in model.theirs] == [
        (3, "recorded", "Bea's tablet", "Anna")
    ]
    if choice == "replace_theirs":
        model.start_replacing()
        assert model.replacing
        model.why = "  we counted again "
    assert getattr(model, choice)(table, by="Anna's phone") is True
    assert model.theirs == [] and model.error is None and not model.replacing  # the notice goes
    assert _outs(table, shared) == expected
    report = sync(table, ClientTransport(client), league=league)  # type: ignore[arg-type]
    assert report.conflicts == [] and report.not_applied == 0
    assert _outs(club, shared) == expected and club.held_facts(shared) == []
    if choice == "replace_theirs":
        corrected = [e for e in club.events(shared) if e.action == "corrected"]
        assert [(e.deal, e.by, e.why) for e in corrected] == [(3, "Anna's phone", "we counted again")]


def test_a_choice_the_game_refuses_is_said_and_writes_nothing(tmp_path: Path) -> None:
    """The club finished the game by abandoning it: my deal cannot follow theirs."""
    club, table, client, league, shared = _apart(tmp_path)
    club.settle_conflict(shared, "theirs")  # the club's Scoreboard: keep the table's
    club.abandon_game(shared, why="closing time")
    table.add_deal(shared, rommi_deal(PLAYERS, 3, [2, 2]))
    sync(table, ClientTransport(client), league=league)  # type: ignore[arg-type]
    model = SyncedApart(shared)
    model.read(table)
    assert model.theirs
    position = table.position
    assert model.save_mine_next(table) is False
    assert model.error and table.position == position and model.theirs  # still shown, with why
    assert engine_text(model.error, "fi") != engine_text(model.error, "en")  # said in the app's language
    assert model.keep_theirs(table) is True and model.theirs == [] and model.error is None
    # what the club's own choice set aside (the club's first deal 3) is in the table's log too
    report = sync(table, ClientTransport(client), league=league)  # type: ignore[arg-type]
    assert report.conflicts == [] and club.held_facts(shared) == [] and table.held_facts(shared) == []
    assert differences(reads(club), reads(table)) == []
    assert league_fact_ids(club, league) == league_fact_ids(table, league)


def test_no_conflict_no_notice(tmp_path: Path) -> None:
    table = Store.open(tmp_path / "table")
    league = table.create_league("Club").id
    model = SyncedApart(play(table, league, list(PLAYERS), 1))
    model.read(table)
    assert model.theirs == []


def test_both_sides_choosing_apart_shows_their_choice_and_one_more_choice_settles_it(tmp_path: Path) -> None:
    club, table, client, league, shared = _apart(tmp_path)
    club.settle_conflict(shared, "theirs", by="Director")  # the club keeps the table's deal (Bea)
    model = SyncedApart(shared)
    model.read(table)
    assert model.keep_theirs(table, by="Anna's phone")  # the table keeps the club's (Anna)
    report = sync(table, ClientTransport(client), league=league)  # type: ignore[arg-type]
    assert report.conflicts  # two choices apart: a new conflict, said
    model.read(table)  # the notice again: the club's choice, deal 3 as it left it
    assert [(d.number, d.by, d.deal and d.deal["out"]) for d in model.theirs] == [(3, "Director", "Bea")]
    assert model.keep_theirs(table) and model.theirs == []
    assert sync(table, ClientTransport(client), league=league).conflicts == []  # type: ignore[arg-type]
    assert _outs(table, shared) == _outs(club, shared) == ["Bea"]
    assert club.held_facts(shared) == [] and table.held_facts(shared) == []
