"""Home before the store is open (issue 25): the phone build's first screen, from the summary record.

The browser's store writes Home's lists into its summary record with every commit
(:meth:`~scorer.web.browser_store.BrowserStore.summary`); the phone draws Home from them
before the store, and pydantic, are imported (:mod:`scorer.web.first_screen`), then the app
takes its place. Here over records in memory, as IndexedDB holds them, and through a real Flet
session (tests/session_kit.py: a client that is not there, every message kept as the web
client receives it): what a player sees before the store is open, that it is the Home the
app shows once it is, and that a tap made before then goes through to its screen.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import flet as ft
import msgpack
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub
from session_kit import ENCODE, AbsentClient, run, texts

from scorer.ui.app import app_session
from scorer.ui.screens.home_model import HOME_RECORD_GAMES, HomeModel
from scorer.web import main as web_main
from scorer.web.browser_store import BrowserStore, open_ledger
from scorer.web.first_screen import Opening, Starting, home_first
from scorer.web.records import FirstScreen, MemoryRecords

T = TypeVar("T")
DEAL = {"hands": {"Anna": "", "Bea": "2C"}, "out": "Anna"}  # Bea 2 points


def _done(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run to its end on an event loop of its own, on a thread of its own (in the
    whole suite the browser tests' Playwright keeps a loop running on this thread)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


def _opened(records: MemoryRecords, tmp_path: Path) -> BrowserStore:
    return BrowserStore(_done(open_ledger(records, scratch=tmp_path / "scratch")))


def _league(tmp_path: Path) -> tuple[MemoryRecords, BrowserStore]:
    """A phone's store with a game in progress, one finished and one abandoned."""
    records = MemoryRecords()
    store = _opened(records, tmp_path)
    playing = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    store.add_deal(playing, DEAL)
    done = store.start_game(ruleset="gin", players=["Cid", "Dan"], options={"target": 10}).id
    store.add_deal(done, {"knocker": "Cid", "big_gin": True, "deadwood": {"Cid": 0, "Dan": 20}})
    left = store.start_game(ruleset="rommi", players=["Eva", "Fia"]).id
    store.abandon_game(left)
    return records, store


def _first(records: MemoryRecords) -> FirstScreen:
    return _done(records.first_screen())


def _said(sent: list[bytes], text: str) -> bool:
    return text in json.dumps(texts(sent), default=str)


def test_the_summary_record_holds_the_home_the_app_shows(tmp_path: Path) -> None:
    records, store = _league(tmp_path)
    home = HomeModel.from_record(_first(records).home)
    shown = HomeModel.load(store)
    assert home is not None
    assert (home.in_progress, home.finished, home.abandoned) == (
        shown.in_progress,
        shown.finished,
        shown.abandoned,
    )
    assert [len(home.in_progress), len(home.finished), len(home.abandoned)] == [1, 1, 1]
    # and again after the store is opened afresh from its records (the next start)
    again = HomeModel.from_record(_first(records).home)
    assert again is not None and again.in_progress == HomeModel.load(_opened(records, tmp_path)).in_progress


def test_home_waits_for_the_store_when_the_record_cannot_say(tmp_path: Path) -> None:
    records, store = _league(tmp_path)
    for n in range(HOME_RECORD_GAMES):  # more games in progress than the record lists
        store.start_game(ruleset="rommi", players=["Anna", f"P{n}"])
    assert _first(records).home is None
    assert web_main._home(_first(records)) is None
    # a record an earlier build wrote (no Home in it), a damaged one: the same
    assert HomeModel.from_record(None) is None
    assert (
        HomeModel.from_record({"v": 1, "in_progress": [{"id": 3}], "finished": [], "abandoned": []}) is None
    )
    # a new profile (no store at all): Home with no games, at once
    fresh = MemoryRecords()
    assert _first(fresh).stored is False
    empty = web_main._home(_first(fresh))
    assert empty is not None and empty.in_progress == []
    # the game that was open is not Home: it waits for the store
    assert home_first("/", empty) and home_first("/?x=1", empty)
    assert not home_first("/game/abc", empty) and not home_first("/", None)


def _session(route: str) -> tuple[Session, AbsentClient]:
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=2)
    client = AbsentClient(loop=loop, hub=PubSubHub(loop=loop, executor=executor), executor=executor)
    session = Session(client)
    _context_page.set(session.page)
    session.apply_page_patch({"route": route, "width": 400, "height": 800, "web": True})
    client.sent.append(msgpack.packb(session.get_page_patch(), default=ENCODE))
    return session, client


def _button(session: Session, label: str) -> Any:
    found = [c for c in list(session.index.values()) if isinstance(c, ft.FilledButton) and c.content == label]
    assert len(found) == 1, label
    return found[0]


async def _route_changed(session: Session, route: str) -> None:
    """What the web client does when the app asks it to go to ``route``: it goes there and
    tells the page."""
    session.apply_page_patch({"route": route})
    await session.dispatch_event(session.page._i, "route_change", {"route": route})


def _home_of(tmp_path: Path) -> tuple[BrowserStore, HomeModel]:
    """:func:`_league`'s store, and Home as its summary record holds it."""
    records, store = _league(tmp_path)
    home = HomeModel.from_record(_first(records).home)
    assert home is not None
    return store, home


async def _home_first(home: HomeModel) -> tuple[Session, AbsentClient, Opening]:
    """A phone's session showing ``home`` before the store is open."""
    session, client = _session("/")
    opening = Opening()
    session.page.render(Starting, opening=opening, home=home, language="en")
    await asyncio.sleep(0.2)
    return session, client, opening


def test_home_before_the_store_and_a_tap_made_then_goes_through(tmp_path: Path) -> None:
    store, home = _home_of(tmp_path)

    async def phone() -> None:
        session, client, opening = await _home_first(home)
        page = session.page
        # Home as the app draws it: the bar, New game, the games from the record
        for text in ("Rummy Scorer", "New game", "In progress", "Anna, Bea", "Cid, Dan", "Eva, Fia"):
            assert _said(client.sent, text), text
        # The player taps New game before the store is open: the route is followed at once,
        # and the screen says the games are being opened.
        tap = asyncio.ensure_future(session.dispatch_event(_button(session, "New game")._i, "click", None))
        await asyncio.sleep(0.1)
        await _route_changed(session, "/game/new")
        await asyncio.sleep(0.2)
        before = len(client.sent)
        assert _said(client.sent, "Opening the games kept on this device")
        assert not _said(client.sent, "Players")  # New game's own screen is not drawn yet
        # The store is open: the app takes over at the route the player tapped to.
        opening.take_over(app_session(store, language="en")(page))
        await asyncio.sleep(0.5)
        after = client.sent[before:]
        assert _said(after, "Start game") or _said(after, "Players"), "New game's screen"
        assert page.route == "/game/new"
        tap.cancel()
        session.close()

    run(phone())


def test_the_app_takes_over_home_with_the_same_games(tmp_path: Path) -> None:
    store, home = _home_of(tmp_path)

    async def phone() -> None:
        session, _client, opening = await _home_first(home)
        page = session.page
        # a game saved before the store was open in this tab cannot be: nothing writes here,
        # so the app's Home lists what the record did, and its button works as before
        opening.take_over(app_session(store, language="en")(page))
        await asyncio.sleep(0.5)
        assert _button(session, "New game") is not None
        shown = HomeModel.load(store)
        assert [g.players for g in shown.in_progress] == [g.players for g in home.in_progress]
        assert page.route == "/"
        session.close()

    run(phone())


def test_a_tap_sent_while_the_store_opened_is_followed_before_the_app_takes_over(tmp_path: Path) -> None:
    # The phone's tap on Home's New game, sent while the worker was busy opening the store,
    # reaches Python in the browser's next turn (a queued message). The app took Home's place
    # before then, so the tap's button was gone and the tap lost: the player stayed on Home
    # (a browser test of the build saw it: New game's Variant never came).
    store, home = _home_of(tmp_path)

    async def phone() -> None:
        session, client, opening = await _home_first(home)
        page = session.page
        button = _button(session, "New game")._i
        app = app_session(store, language="en")(page)  # the store has just opened
        loop = asyncio.get_running_loop()
        taps: list[asyncio.Task[None]] = []
        loop.call_later(
            0.001, lambda: taps.append(loop.create_task(session.dispatch_event(button, "click", None)))
        )
        await opening.take_over_after_taps(app)
        await asyncio.sleep(0.2)
        # The tap was followed: the app asked the phone to go to New game.
        assert _said(client.sent, "push_route") and _said(client.sent, "/game/new"), "the tap was lost"
        await _route_changed(session, "/game/new")
        await asyncio.sleep(0.5)
        assert _said(client.sent, "Start game") or _said(client.sent, "Players"), "New game's screen"
        for tap in taps:
            tap.cancel()
        session.close()

    run(phone())
