"""Files opened with the installed app, handed from the page to Python (issue 28).

The web app manifest's ``file_handlers`` (:func:`scorer.ui.manifest.manifest`) make the
installed app one that opens ``.rummy.json`` and ``.json`` files (Chromium on Android,
ChromeOS, Windows, macOS and Linux, installed apps only). The browser gives the page the files
through ``launchQueue``; Python runs in a worker, which has none, so the page (``boot.js``)
keeps each file in the IndexedDB database :data:`LAUNCH_DB` and says so on the
BroadcastChannel :data:`LAUNCH_CHANNEL`. Here the worker takes them (read and deleted in one
transaction, so a file is imported once) when it starts and whenever the page says, puts them
in the app's inbox (:data:`scorer.ui.screens.opened_files.OPENED`) and opens the Leagues
screen, whose import shows what they add before anything is merged.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from scorer.ui.screens.exchange_model import PickedFile

log = logging.getLogger(__name__)

LAUNCH_DB: Final = "rummy-scorer-launched"
LAUNCH_CHANNEL: Final = "rummy-scorer-launched"

#: The records taken: every file kept, as JSON, and the store emptied, in one transaction.
_TAKE_JS: Final = r"""
(name) => new Promise((resolve, reject) => {
  const request = indexedDB.open(name, 1);
  request.onupgradeneeded = () => request.result.createObjectStore("files", { autoIncrement: true });
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result, tx = db.transaction("files", "readwrite"), files = tx.objectStore("files");
    const all = files.getAll();
    all.onsuccess = () => files.clear();
    tx.oncomplete = () => { db.close(); resolve(JSON.stringify(all.result || [])); };
    tx.onabort = () => { db.close(); reject(tx.error); };
  };
})
"""


def picked(records: str) -> list[PickedFile]:
    """The files kept by the page (their JSON) as the picker would give them.

    >>> [f.name for f in picked('[{"name": "club.rummy.json", "text": "{}"}]')]
    ['club.rummy.json']
    """
    from scorer.ui.screens.exchange_model import PickedFile  # when a file comes: not at the start

    return [
        PickedFile(name=str(r.get("name") or "file.json"), data=str(r.get("text") or "").encode("utf-8"))
        for r in json.loads(records)
        if isinstance(r, dict)
    ]


_kept: list[Any] = []  # the channel's listener proxy (kept alive)


async def take() -> str:
    """The files opened with the app since the last take, as JSON records (only in Pyodide)."""
    code = importlib.import_module("pyodide.code")
    return str(await code.run_js(_TAKE_JS)(LAUNCH_DB))


def listen(receive: Callable[[list[PickedFile]], None], *, run: Callable[[Any], object]) -> None:
    """Call ``receive`` with the files opened with the app: now, and each time the page says
    more were opened. ``run`` starts a coroutine on the app's loop (``page.run_task``)."""

    async def deliver() -> None:
        try:
            records = await take()
        except Exception as exc:  # no IndexedDB here (a private window may refuse it)
            log.warning("files opened with the app could not be read: %s", exc)
            return
        if json.loads(records):
            receive(picked(records))

    run(deliver)
    try:
        js = importlib.import_module("js")
        ffi = importlib.import_module("pyodide.ffi")
        channel = js.BroadcastChannel.new(LAUNCH_CHANNEL)
        heard = ffi.create_proxy(lambda _event: run(deliver))
        channel.addEventListener("message", heard)
        _kept.extend([channel, heard])
    except (ImportError, AttributeError) as exc:  # no BroadcastChannel: the files wait for a start
        log.info("files opened while the app runs wait for its next start: %s", exc)
