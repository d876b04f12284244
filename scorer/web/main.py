"""What the browser runs: the app of ``rummy app``, with its games kept in the browser.

The static build's ``main.py`` calls :func:`run`. Each page (tab) runs its own Python in a
web worker; :func:`main` takes the store for this tab (a second tab of the same browser is told
to close one of them), opens the league's log of facts from IndexedDB
(:mod:`scorer.web.browser_store`: the earlier layout converted on first open) and renders
:func:`scorer.ui.app.app_main` on it. The language is the browser's until the player chooses one
in Settings.
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
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.app import FONT_FAMILY, FONTS, app_main
from scorer.ui.club_sync import ClubSync
from scorer.ui.i18n import Language, system_language, tr
from scorer.web.browser_store import (
    BACKUPS,
    LEAGUE,
    BrowserStore,
    IndexedDb,
    open_ledger,
    put_backups_in_place,
)

if TYPE_CHECKING:
    from scorer.league.club_server import ClubServer
    from scorer.league.sync import Transport
    from scorer.ui.screens.exchange_model import PickedFile

log = logging.getLogger(__name__)
_tasks: set[asyncio.Task[None]] = set()
#: JavaScript proxies of Python functions the browser calls (kept alive).
_kept: list[Any] = []
#: This tab's IndexedDB records, once they hold the store (for :func:`status`).
_records: list[IndexedDb] = []
#: This tab's store once open (for the curious at the browser's console, and the tests).
_opened: list[BrowserStore] = []
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


def _message(page: ft.Page, language: Language, title: str, text: str) -> None:
    page.title = tr("app_title", language)
    page.fonts = dict(FONTS)
    page.theme = ft.Theme(font_family=FONT_FAMILY)
    page.padding = ft.Padding.all(16)
    page.add(
        ft.Text(title, size=20, weight=ft.FontWeight.BOLD),
        ft.Text(text),
    )


async def main(page: ft.Page) -> None:
    began = time.perf_counter()
    language = browser_language()
    records = IndexedDb()
    if not await records.claim():
        _message(page, language, tr("web.other_tab", language), tr("web.other_tab_help", language))
        return
    try:
        Path(LEAGUE).mkdir(parents=True, exist_ok=True)  # in memory: where a backup is made
        ledger = await open_ledger(records, scratch=Path(SCRATCH), location=Path(LEAGUE))
        await put_backups_in_place(records, Path(BACKUPS))
        store = BrowserStore(ledger)
        milestone("the store opened", began)
    except (ScorerError, OSError) as exc:
        _message(page, language, tr("app_title", language), tr("web.storage_failed", language, reason=exc))
        return
    for notice in store.notices:
        log.warning("%s", notice)
    _records.append(records)
    _opened.append(store)
    older = asyncio.create_task(ledger.read_older())  # for an export of facts, a backup
    _tasks.add(older)  # kept: the event loop holds tasks weakly
    older.add_done_callback(_tasks.discard)
    began = time.perf_counter()
    app_main(store, language=language, club=club_sync(store))(page)
    milestone("the first screen made", began)
    listen_for_opened_files(page)


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
    """Start the app in Pyodide (the build's ``main.py``)."""
    milestone("the app imported", _BEGAN)
    ft.run(main)
