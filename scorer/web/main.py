"""What the browser runs: the app of ``rummy app``, with its games kept in the browser.

The static build's ``main.py`` calls :func:`run`. Each page (tab) runs its own Python in a
web worker; :func:`main` takes the store for this tab (a second tab of the same browser is told
to close one of them), mounts the league folder from IndexedDB
(:mod:`scorer.web.browser_store`) and renders :func:`scorer.ui.app.app_main` on it. The
language is the browser's until the player chooses one in Settings.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from pathlib import Path
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.app import FONT_FAMILY, FONTS, app_main
from scorer.ui.i18n import Language, system_language, tr
from scorer.web.browser_store import LEAGUE, BrowserDisk, BrowserLedger, BrowserStore

log = logging.getLogger(__name__)
_tasks: set[asyncio.Task[None]] = set()
#: This tab's IndexedDB folder, once it holds the store (for :func:`status`).
_disk: list[BrowserDisk] = []


def status() -> str:
    """How this tab's store reaches IndexedDB, as JSON (for tests and the curious, from the
    browser's console: ``pyodide.runPython("from scorer.web import main; main.status()")``)."""
    return json.dumps(_disk[0].status() if _disk else {"mounted": False})


def browser_language() -> Language:
    """The browser's language (``navigator.language``), if the app has it."""
    try:
        js: Any = importlib.import_module("js")
        return system_language(str(js.navigator.language))
    except (ImportError, AttributeError):
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
    language = browser_language()
    disk = BrowserDisk()
    if not await disk.claim():
        _message(page, language, tr("web.other_tab", language), tr("web.other_tab_help", language))
        return
    try:
        await disk.mount()
        store = BrowserStore(BrowserLedger(Path(LEAGUE), disk))
    except (ScorerError, OSError) as exc:
        _message(page, language, tr("app_title", language), tr("web.storage_failed", language, reason=exc))
        return
    for notice in store.notices:
        log.warning("%s", notice)
    _disk.append(disk)
    sweep = asyncio.create_task(disk.sweep())
    _tasks.add(sweep)  # kept: the event loop holds tasks weakly
    app_main(store, language=language)(page)


def run() -> None:
    """Start the app in Pyodide (the build's ``main.py``)."""
    ft.run(main)
