"""An open Scoreboard in a club room (issue 26): every phone of the process hears of every
save, and only the phones of the saving table read the store again and draw anything.

Through the app's real Flet sessions (tests/session_kit.py: one process, clients that are not
there, every message kept as the web client would receive it), and the store's and the
session's bookkeeping of what each change named, with no Flet session at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from session_kit import Phones, run, texts
from store_deals import rommi_deal
from sync_kit import ClientTransport, play, server_client

from scorer.league import ledger as ledger_module
from scorer.league.store import Store
from scorer.league.sync import sync
from scorer.ui.live import Revision, StoreWatch
from scorer.ui.screens import scoreboard

DEAL = {"hands": {"Anna": "", "Bea": "2C"}, "out": "Anna"}  # Bea 2 points


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")


def _games(store: Store, count: int, *, deals: int = 1) -> list[str]:
    games = [store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id for _ in range(count)]
    for game in games:
        for _ in range(deals):
            store.add_deal(game, DEAL)
    return games


def _said(sent: list[bytes], text: str) -> bool:
    return text in json.dumps(texts(sent), default=str)


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Each call of ``owner.name`` from now on, by its first argument."""
    calls: list[Any] = []
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1] if len(args) > 1 else args[0] if args else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


# -- the store says what each change named -----------------------------------------------------


def test_a_deal_names_its_game_and_nothing_new_names_nothing(store: Store) -> None:
    first, second = _games(store, 2)
    before = store.changes()
    store.add_deal(second, DEAL)
    assert store.changed_since(before) == {second}
    store.add_deal(first, DEAL)
    assert store.changed_since(before) == {first, second}
    assert store.changed_since(store.changes()) == frozenset()


def test_a_change_that_names_no_game_may_have_changed_anything(store: Store) -> None:
    (game,) = _games(store, 1)
    before = store.changes()
    store.create_league("Club")  # a league: a Scoreboard's "Move to" lists it
    store.add_deal(game, DEAL)
    assert store.changed_since(before) is None
    assert store.changed_since("not a token") is None


@pytest.mark.parametrize("kind", ["memory", "folder"])
def test_changes_older_than_those_kept_may_have_changed_anything(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger_module, "RECENT_COMMITS", 3)
    store = Store.memory() if kind == "memory" else Store.open(tmp_path / "league")
    (game,) = _games(store, 1)
    before = store.changes()
    for _ in range(3):
        store.add_deal(game, DEAL)
    assert store.changed_since(before) == {game}
    store.add_deal(game, DEAL)  # the fourth: the first is no longer kept
    assert store.changed_since(before) is None


def test_a_store_opened_from_a_checkpoint_does_not_know_what_changed_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger_module, "CHECKPOINT_EVERY", 1)  # a checkpoint after each commit
    store = Store.open(tmp_path / "league")
    (game,) = _games(store, 1)
    before = store.changes()
    store.add_deal(game, DEAL)
    store.close()
    reopened = Store.open(tmp_path / "league")  # from the checkpoint: no commit seen here
    assert reopened.changed_since(before) is None
    after = reopened.changes()
    reopened.add_deal(game, DEAL)
    assert reopened.changed_since(after) == {game}


def test_another_programs_commit_is_named_once_read(tmp_path: Path) -> None:
    mine = Store.open(tmp_path / "league")
    (game,) = _games(mine, 1)
    before = mine.changes()
    other = Store.open(tmp_path / "league")
    other.add_deal(game, DEAL)
    assert mine.changed_since(before) == frozenset()  # not read yet: nothing known here
    assert mine.changes() != before  # read now
    assert mine.changed_since(before) == {game}


def test_the_store_says_which_games_may_have_facts_held_back(store: Store) -> None:
    first, second = _games(store, 2)
    assert not store.may_hold_facts(first) and not store.may_hold_facts(second)
    ledger: Any = store._ledger
    ledger.save_held(first, [{"id": "f1", "kind": "deal.recorded"}])  # as a sync keeps them
    assert store.may_hold_facts(first) and not store.may_hold_facts(second)
    ledger.save_held(first, [])  # settled: none held any more
    assert not store.may_hold_facts(first)


# -- the session's revision keeps what each notice named ----------------------------------------


def test_a_session_knows_which_games_each_notice_named(store: Store) -> None:
    first, second = _games(store, 2)
    heard: list[str] = []
    watch = StoreWatch(store, publish=heard.append)
    revision = Revision.at(watch.token)
    store.add_deal(second, DEAL)
    assert watch.check()
    revision.notice(heard[-1], watch.what_changed(heard[-1]))
    assert revision.names(0, [second]) and not revision.names(0, [first])
    store.create_league("Club")
    assert watch.check()
    revision.notice(heard[-1], watch.what_changed(heard[-1]))
    assert revision.names(1, [first])  # a league: anything may have changed
    assert watch.what_changed("a token never seen") is None


def test_a_notice_whose_change_is_not_known_concerns_every_screen() -> None:
    revision = Revision.at("a")
    revision.notice("b")  # the app in a browser: no watch to say what changed
    assert revision.names(0, ["any game"])
    for n in range(80):  # more notices than are kept, each naming another game
        revision.notice(f"c{n}", frozenset({"another game"}))
    assert revision.names(1, ["this game"])  # the first ones are gone: read again
    assert not revision.names(revision.number - 10, ["this game"])


# -- the app's sessions -------------------------------------------------------------------------


def test_a_save_at_another_table_is_neither_read_nor_drawn_on_this_scoreboard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = Store.memory()
    mine, theirs = _games(store, 2, deals=3)
    drawn = _counting(monkeypatch, scoreboard, "_table")
    reads = _counting(monkeypatch, Store, "game")

    async def club_room() -> None:
        async with Phones(store) as phones:
            _, phone = await phones.open(f"/game/{mine}")
            _, their_phone = await phones.open(f"/game/{theirs}")
            assert _said(phone.patches, "Bea: 6") and _said(their_phone.patches, "Bea: 6")
            await phones.settle(1.0)
            sent, their_sent = len(phone.patches), len(their_phone.patches)
            drawn.clear()
            reads.clear()
            store.add_deal(theirs, DEAL)  # their table saves (heard by the watch's poll)
            await phones.settle(1.5)
            assert _said(their_phone.patches[their_sent:], "Bea: 8")  # their board shows it
            assert phone.patches[sent:] == []  # nothing changes on this phone,
            assert mine not in reads  # its game is not read again,
            assert len(drawn) == 1  # and only their board is drawn again

    run(club_room())


def test_facts_held_back_are_read_only_for_a_game_that_has_some_and_shown_at_the_next_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = ["Anna", "Bea", "Cecilia"]
    club = Store.memory()
    client = server_client(club)
    league = club.create_league("Club").id
    shared = play(club, league, players, 2)
    table = Store.open(tmp_path / "table")  # a table's own store, synced with the club server
    sync(table, ClientTransport(client), league=league)
    (other,) = _games(table, 1)  # another game on the table's store
    held_reads = _counting(monkeypatch, Store, "held_facts")

    async def apart() -> None:
        async with Phones(table) as phones:
            _, phone = await phones.open(f"/game/{shared}")
            await phones.settle(1.0)
            held_reads.clear()
            table.add_deal(other, DEAL)  # a save at another game: this game holds nothing back
            await phones.settle(1.2)
            assert held_reads == []  # so nothing is read for the notice
            club.add_deal(shared, rommi_deal(tuple(players), 0, [0, 1]), by="Bea's tablet")
            table.add_deal(shared, rommi_deal(tuple(players), 1, [1, 0]), by="Anna's phone")
            await phones.settle(1.2)
            assert sync(table, ClientTransport(client), league=league).conflicts  # the club's held
            sent = len(phone.patches)
            table.add_deal(other, DEAL)  # the next change, whichever game it names
            await phones.settle(1.2)
            assert shared in held_reads
            assert _said(phone.patches[sent:], "Changed on another device too")

    run(apart())


def test_after_changes_elsewhere_a_save_at_this_table_still_shows() -> None:
    store = Store.memory()
    mine, theirs = _games(store, 2)

    async def evening() -> None:
        async with Phones(store) as phones:
            _, phone = await phones.open(f"/game/{mine}")
            await phones.settle(1.0)
            store.create_league("Club")  # names no game: every board reads again, nothing new
            await phones.settle(1.2)
            store.add_deal(theirs, DEAL)  # another table: not read here
            await phones.settle(1.2)
            for total in (4, 6):
                sent = len(phone.patches)
                store.add_deal(mine, DEAL)
                await phones.settle(1.2)
                assert _said(phone.patches[sent:], f"Bea: {total}")

    run(evening())


def test_a_save_at_this_table_is_sent_as_a_patch_not_the_whole_board() -> None:
    store = Store.memory()
    (game,) = _games(store, 1, deals=20)

    async def table() -> None:
        async with Phones(store) as phones:
            _, phone = await phones.open(f"/game/{game}")
            await phones.settle(1.0)
            whole, sent = phone.bytes_patched(), len(phone.patches)
            store.add_deal(game, DEAL)  # another phone of the table saves deal 21
            await phones.settle(1.5)
            assert _said(phone.patches[sent:], "Bea: 42")
            patch = sum(len(m) for m in phone.patches[sent:])
            assert patch < whole / 4, (patch, whole)  # deal 21's row, the totals, the chart

    run(table())


def test_an_idle_scoreboard_sends_the_phone_nothing() -> None:
    store = Store.memory()
    (game,) = _games(store, 1, deals=20)

    async def idle() -> None:
        async with Phones(store) as phones:
            _, phone = await phones.open(f"/game/{game}")
            await phones.settle(1.0)
            sent = len(phone.patches)
            await phones.settle(3.0)  # six polls of the store's changes, nothing changed
            assert phone.patches[sent:] == []

    run(idle())
