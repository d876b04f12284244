"""What the browser runs: the app of ``rummy app``, with its games kept in the browser.

The static build's ``main.py`` calls :func:`run`. Each page (tab) runs its own Python in a
web worker. :func:`run` begins the tab's start at once, while Flet's client is still loading
(:func:`start`): it takes the store for this tab (a second tab of the same browser is told to
close one of them) and reads what the first screen needs from IndexedDB (the summary record's
Home). When the client connects, :func:`main` draws Home from the summary record
(:mod:`scorer.web.first_screen`), then imports the store's modules (pydantic and all that
builds on it, one module a turn of the event loop, so that a tap is heard between them), opens
the league's log of facts (:mod:`scorer.web.browser_store`: the earlier layout converted on
first open) and puts :func:`scorer.ui.app.app_session`'s app in Home's place; at another route
(the game that was open), or with no Home in the record, it waits for the store. The store's
opening is not begun before the client connects: its imports (a few tenths of a second each on
the worker's one thread) held up the connection itself, and Home with it (bench/README.md).
The language is the browser's until the player chooses one in Settings.
"""

# ruff: noqa: E402 (the clock starts before the imports it times)
from __future__ import annotations

import time

#: When this module began to import (the app's imports are most of a phone's wait: bench/web.py).
_BEGAN = time.perf_counter()

import asyncio
import importlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.club_sync import ClubSync
from scorer.ui.i18n import Language, system_language, tr
from scorer.ui.screens.home_model import HomeModel
from scorer.ui.shell import FONT_FAMILY, FONTS, dress_page
from scorer.web.first_screen import Opening, Starting, home_first
from scorer.web.records import FirstScreen, IndexedDb
from scorer.web.startup import BEHIND_FIRST_SCREEN

if TYPE_CHECKING:
    from scorer.league.club_server import ClubServer
    from scorer.league.sync import Transport
    from scorer.ui.screens.exchange_model import PickedFile
    from scorer.web.browser_store import BrowserStore

log = logging.getLogger(__name__)
_tasks: set[asyncio.Task[Any]] = set()
#: JavaScript proxies of Python functions the browser calls (kept alive).
_kept: list[Any] = []
#: This tab's IndexedDB records, once they hold the store (for :func:`status`).
_records: list[IndexedDb] = []
#: This tab's store once open (for the curious at the browser's console, and the tests).
_opened: list[BrowserStore] = []
#: This tab's start (:func:`start`), begun by :func:`run`.
_starting: list[asyncio.Task[Started]] = []
#: Where the converted earlier layout is put back as files, in memory.
SCRATCH = "/tmp/rummy-scratch"


def status() -> str:
    """How this tab's store reaches IndexedDB, as JSON (for tests and the curious, from the
    browser's console: ``pyodide.runPython("from scorer.web import main; main.status()")``)."""
    return json.dumps(_records[0].status() if _records else {"opened": False})


def _browser() -> Any:
    """The browser's JavaScript globals (Pyodide's ``js``); None outside a browser."""
    try:
        return importlib.import_module("js")
    except ImportError:
        return None


def milestone(step: str, since: float) -> None:
    """``Rummy Scorer: STEP in N ms`` on the browser's console (the steps bench/web.py times);
    nothing outside a browser."""
    js = _browser()
    if js is not None:
        js.console.log(f"Rummy Scorer: {step} in {round((time.perf_counter() - since) * 1000)} ms")


def browser_language() -> Language:
    """The browser's language (``navigator.language``), if the app has it."""
    try:
        return system_language(str(_browser().navigator.language))
    except AttributeError:  # outside a browser (None), or a browser that does not say
        return system_language(None)


def _message(title: str, text: str) -> ft.Control:
    return ft.Column(
        controls=[ft.Text(title, size=20, weight=ft.FontWeight.BOLD), ft.Text(text)],
    )


def _show(page: ft.Page, language: Language, message: ft.Control) -> None:
    page.title = tr("app_title", language)
    page.fonts = dict(FONTS)
    page.theme = ft.Theme(font_family=FONT_FAMILY)
    page.padding = ft.Padding.all(16)
    page.add(message)


@dataclass(frozen=True, slots=True)
class Started:
    """This tab's start: whether it holds the store (else another tab does), and what the
    first screen needs."""

    records: IndexedDb
    claimed: bool
    first: FirstScreen | None = None


async def start() -> Started:
    """Take the store for this tab and read what the first screen needs (two short waits for
    IndexedDB, made while Flet's client is still loading)."""
    records = IndexedDb()
    if not await records.claim():
        return Started(records, claimed=False)
    return Started(records, claimed=True, first=await records.first_screen())


async def open_store(records: IndexedDb) -> BrowserStore | str:
    """The store over this tab's records (or why it could not be opened, for the player)."""
    began = time.perf_counter()
    for name in BEHIND_FIRST_SCREEN:
        importlib.import_module(name)
        await asyncio.sleep(0)  # the client's messages are heard between imports
    milestone("the store's modules imported", began)
    from scorer.web.browser_store import BACKUPS, LEAGUE, BrowserStore, open_ledger, put_backups_in_place

    try:
        Path(LEAGUE).mkdir(parents=True, exist_ok=True)  # in memory: where a backup is made
        ledger = await open_ledger(records, scratch=Path(SCRATCH), location=Path(LEAGUE))
        await put_backups_in_place(records, Path(BACKUPS))
        store = BrowserStore(ledger)
        milestone("the store opened", began)
    except (ScorerError, OSError) as exc:
        return str(exc)
    for notice in store.notices:
        log.warning("%s", notice)
    _records.append(records)
    _opened.append(store)
    _keep(asyncio.create_task(ledger.read_older()))  # for an export of facts, a backup
    return store


def _keep(task: asyncio.Task[Any]) -> None:
    _tasks.add(task)  # kept: the event loop holds tasks weakly
    task.add_done_callback(_tasks.discard)


def _home(first: FirstScreen | None) -> HomeModel | None:
    """Home's lists before the store is open: the summary record's, or none for a new profile."""
    if first is None:
        return None
    if not first.stored:
        return HomeModel()
    return HomeModel.from_record(first.home)


async def main(page: ft.Page) -> None:
    began = time.perf_counter()
    language = browser_language()
    if not _starting:  # run() begins it; a session of another kind of start begins it here
        _starting.append(asyncio.ensure_future(start()))
    started = await _starting[0]
    if not started.claimed:
        _show(
            page,
            language,
            _message(tr("web.other_tab", language), tr("web.other_tab_help", language)),
        )
        return
    dress_page(page, language)
    home = _home(started.first)
    if home is not None and home_first(page.route, home):
        opening = Opening()
        page.render(Starting, opening=opening, home=home, language=language)
        milestone("the first screen made", began)  # Home, tappable, before the store is open
        await opening.take_over_after_taps(await _app(page, language, started.records))
        milestone("the app took over", began)
    else:
        app = await _app(page, language, started.records)
        page.render(app)
        milestone("the first screen made", began)
    listen_for_opened_files(page)


async def _app(page: ft.Page, language: Language, records: IndexedDb) -> Callable[[], ft.Control]:
    """The app on the store, once it is open (or the storage's refusal, for the player)."""
    store = await open_store(records)
    if isinstance(store, str):
        failed = _message(tr("app_title", language), tr("web.storage_failed", language, reason=store))
        return lambda: failed
    from scorer.ui.app import app_session

    return app_session(store, language=language, club=club_sync(store))(page)


def listen_for_opened_files(page: ft.Page) -> None:
    """Files opened with the installed app go to the Leagues screen's import, which shows what
    they add first (:mod:`scorer.web.launched`)."""
    from scorer.web.launched import listen

    def opened(files: list[PickedFile]) -> None:
        from scorer.ui.screens.opened_files import OPENED  # when a file comes: not at the start

        OPENED.deliver(files)
        page.navigate("/leagues")

    listen(opened, run=page.run_task)


def _transport(server: ClubServer) -> Transport:
    from scorer.web.browser_transport import browser_transport  # the sync client: only when it syncs

    return browser_transport(server)


def _online() -> bool:
    try:
        return bool(_browser().navigator.onLine)
    except AttributeError:  # a browser that does not say: try
        return True


def club_sync(store: BrowserStore) -> ClubSync:
    """The tab's sync with its club server: on the event loop (a worker has no threads; each
    request waits in the worker, never in the page), while the browser says it is online, and
    soon after it comes back online."""
    club = ClubSync(store, transport_for=_transport, threaded=False, online=_online)
    js = _browser()
    if js is not None:
        try:
            ffi = importlib.import_module("pyodide.ffi")
            heard = ffi.create_proxy(lambda _event: club.came_online())
            _kept.append(heard)  # a proxy lives as long as the listener
            js.addEventListener("online", heard)
        except (ImportError, AttributeError) as exc:  # no online event here: the timer alone
            log.info("the browser's online event is not heard: %s", exc)
    return club


def run() -> None:
    """Start the app in Pyodide (the build's ``main.py``): the store begins to open at once,
    while Flet's client is still loading."""
    milestone("the app imported", _BEGAN)
    ft.run(main)
    _starting.append(asyncio.ensure_future(start()))
