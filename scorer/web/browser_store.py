"""The league store in the browser: the same folder (the log of facts), kept in IndexedDB.

In the browser, Python's files live in memory (Pyodide's file system). The store's folder is
mounted from IndexedDB (Emscripten's IDBFS layout: one record per file or folder, keyed by
path), read back whole when the app starts, and written back after every commit:
:class:`BrowserLedger` is the store's own :class:`~scorer.league.ledger.FolderLedger` (the
log kept twice, the checkpoint), and after each commit the folder's changed files go to
IndexedDB as **one** IndexedDB transaction with ``durability: "strict"``. So IndexedDB always
holds the log as it was after some whole commit, never half of one.

What a flush means here: the store's ``fsync`` calls reach the memory file system and do
nothing. A change is durable when its IndexedDB transaction has committed. Where the browser
lets Python wait for a promise (JavaScript Promise Integration, Chromium 137 and later), the
store method returns only after that commit, as on a disk. Elsewhere it returns at once and
the commit follows a few milliseconds later; a tab killed in between loses that change.

Two tabs of one browser would each hold their own copy of the folder and overwrite each
other's: the first tab takes a Web Lock (``navigator.locks``) for as long as it is open, and
:func:`claim` tells a second tab that it is not the first.

Every JavaScript object is reached through ``pyodide`` at run time: this module imports on the
host too (for tests of what does not need a browser), but only runs in Pyodide.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from pathlib import Path
from typing import Any, Final

from scorer.league.ledger import FolderLedger
from scorer.league.log import Commit
from scorer.league.store import Store

log = logging.getLogger(__name__)

#: Where IndexedDB's folder is mounted (also the IndexedDB database's name).
MOUNT: Final = "/rummy"
#: The league store's folder inside it; its backups go beside it (``league-backups``).
LEAGUE: Final = f"{MOUNT}/league"
#: The Web Lock held by the tab that owns the store.
LOCK_NAME: Final = "rummy-scorer-store"
#: Seconds between flushes that catch writes made outside a store transaction (a repair).
SWEEP_SECONDS: Final = 5.0

#: The JavaScript half: mount, flush (one IndexedDB transaction per call), the tab lock.
_JS: Final = r"""
(FS, mountpoint) => {
  const DB_VERSION = 21, STORE = "FILE_DATA";  // IDBFS's own layout: FS.syncfs(true) reads it
  const status = { flushes: 0, failures: 0, error: "", pending: 0 };
  let db = null, sent = new Map(), sentAt = 0, whole = false;

  function openDb() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(mountpoint, DB_VERSION);
      request.onupgradeneeded = () => {
        const tx = request.transaction;
        const files = request.result.objectStoreNames.contains(STORE)
          ? tx.objectStore(STORE) : request.result.createObjectStore(STORE);
        if (!files.indexNames.contains("timestamp")) {
          files.createIndex("timestamp", "timestamp", { unique: false });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  function walk() {  // path -> stat of every file and folder under the mount point
    const found = new Map(), folders = [mountpoint];
    while (folders.length) {
      const folder = folders.pop();
      for (const name of FS.readdir(folder)) {
        if (name === "." || name === "..") continue;
        const path = folder + "/" + name, stat = FS.lstat(path);
        if (FS.isDir(stat.mode)) { folders.push(path); } else if (!FS.isFile(stat.mode)) { continue; }
        found.set(path, stat);
      }
    }
    return found;
  }

  function syncfs(populate) {
    return new Promise((resolve, reject) => FS.syncfs(populate, (e) => e ? reject(e) : resolve()));
  }

  function remember(found) {
    sent = new Map(Array.from(found, ([path, stat]) => [path, stat.mtime.getTime()]));
  }

  async function mount() {
    FS.mkdirTree(mountpoint);
    FS.mount(FS.filesystems.IDBFS, {}, mountpoint);
    await syncfs(true);
    db = await openDb();
    remember(walk());
    sentAt = Date.now();
  }

  function fail(error) {
    status.failures += 1;
    status.error = String(error);
    whole = true;  // the next flush compares the whole folder with IndexedDB
    return status.error;
  }

  // Called between two store transactions: what the folder holds now is read at once (Python
  // does not run until this returns), then written as one IndexedDB transaction.
  function flush() {
    if (whole) {
      whole = false;
      const found = walk();
      status.pending += 1;
      return syncfs(false).then(
        () => { remember(found); sentAt = Date.now(); status.flushes += 1; return ""; },
        fail).finally(() => { status.pending -= 1; });
    }
    const now = Date.now(), found = walk(), puts = [], removes = [];
    for (const [path, stat] of found) {
      const mtime = stat.mtime.getTime();
      // The same time as when last sent, and older than that send: unchanged. (A write in the
      // same millisecond as the last send is sent again, to be sure.)
      if (sent.get(path) === mtime && mtime < sentAt) continue;
      const entry = { timestamp: stat.mtime, mode: stat.mode };
      if (FS.isFile(stat.mode)) entry.contents = FS.readFile(path);
      puts.push([path, entry]);
    }
    for (const path of sent.keys()) if (!found.has(path)) removes.push(path);
    remember(found);
    sentAt = now;
    if (!puts.length && !removes.length) return Promise.resolve("");
    status.pending += 1;
    return new Promise((resolve) => {
      let tx;
      try {
        tx = db.transaction([STORE], "readwrite", { durability: "strict" });
      } catch (error) {
        resolve(fail(error));
        return;
      }
      const files = tx.objectStore(STORE);
      puts.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (const [path, entry] of puts) files.put(entry, path);
      for (const path of removes) files.delete(path);
      tx.oncomplete = () => { status.flushes += 1; resolve(""); };
      tx.onabort = () => resolve(fail(tx.error || "the IndexedDB transaction was aborted"));
    }).finally(() => { status.pending -= 1; });
  }

  function claim(name) {  // true: this tab holds the lock until it closes
    return new Promise((resolve) => {
      if (!(self.navigator && navigator.locks)) { resolve(true); return; }
      navigator.locks.request(name, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock ? new Promise(() => {}) : undefined;
      });
    });
  }

  return { mount, flush, claim, status: () => JSON.stringify(status) };
}
"""


class BrowserDisk:
    """IndexedDB under the store's folder (only in Pyodide)."""

    def __init__(self, mount: str = MOUNT) -> None:
        code = importlib.import_module("pyodide.code")
        pyodide_js = importlib.import_module("pyodide_js")
        self._ffi: Any = importlib.import_module("pyodide.ffi")
        self._js: Any = code.run_js(_JS)(pyodide_js.FS, mount)
        self.mounted = False
        #: Flushes the store waited for (acknowledged once in IndexedDB), and did not.
        self.waited = 0
        self.not_waited = 0

    async def claim(self) -> bool:
        """Take the store for this tab; False: another tab of this browser has it."""
        return bool(await self._js.claim(LOCK_NAME))

    async def mount(self) -> None:
        """Mount the folder and read it back from IndexedDB."""
        await self._js.mount()
        self.mounted = True

    def flush(self) -> Any:
        """Send the folder's changes to IndexedDB: a promise of ``""``, or of the error's text."""
        return self._js.flush()

    def wait(self, promise: Any) -> bool:
        """Wait for ``promise`` if this browser lets Python block (JSPI); False if it cannot."""
        can_run_sync = getattr(self._ffi, "can_run_sync", None)
        if can_run_sync is None or not can_run_sync():
            self.not_waited += 1
            return False
        self.waited += 1
        error = self._ffi.run_sync(promise)
        if error:
            log.error("the league could not be saved in the browser's storage: %s", error)
        return True

    def status(self) -> dict[str, Any]:
        """Flushes made, failed and waited for, and the last error."""
        found: dict[str, Any] = json.loads(str(self._js.status()))
        found.update(waited=self.waited, not_waited=self.not_waited)
        return found

    async def sweep(self, seconds: float = SWEEP_SECONDS) -> None:
        """Flush now and then: catches files written outside a store transaction (a repair)."""
        while True:
            await asyncio.sleep(seconds)
            await self.flush()


class BrowserLedger(FolderLedger):
    """The store's folder ledger, flushed to IndexedDB after every commit."""

    def __init__(self, folder: Path, disk: BrowserDisk) -> None:
        self._disk = disk
        self._flushing: Any = None
        super().__init__(folder)
        self.flush_now()  # a folder converted or made on opening

    def _written(self, commit: Commit) -> None:
        super()._written(commit)
        self.flush_now()

    def flush_now(self) -> None:
        """Flush what was written (a commit, a backup, a restore) and wait where the browser allows."""
        self._flushing = self._disk.flush()
        self.settle()

    def settle(self) -> None:
        """Wait (where the browser allows) until the last flush has committed."""
        flushing, self._flushing = self._flushing, None
        if flushing is not None:
            self._disk.wait(flushing)


class BrowserStore(Store):
    """The league store over :class:`BrowserLedger`; a backup or restore is flushed too."""

    def __init__(self, ledger: BrowserLedger) -> None:
        super().__init__(ledger)
        self._browser = ledger

    def backup(self, folder: str | Path) -> Path:
        path = super().backup(folder)
        self._browser.flush_now()
        return path

    def restore_backup(self, path: str | Path) -> int:
        written = super().restore_backup(path)
        self._browser.flush_now()
        return written
