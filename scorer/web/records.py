"""The browser's records of the league store: IndexedDB, one record per commit, and the tab's lock.

The object stores of :data:`DB_NAME` and what each record holds are described in
:mod:`scorer.web.browser_store`, whose ledger reads and writes them through :class:`Records`:
:class:`IndexedDb` in the browser, :class:`MemoryRecords` on the host (the tests, the bench).
Apart from the ledger so that the phone build reads what its first screen needs (the tab's
lock, the summary record: :meth:`IndexedDb.first_screen`) before the store, and pydantic, which
its documents build on, are imported (:mod:`scorer.web.first_screen`).

Every JavaScript object is reached through ``pyodide`` at run time: this module imports on the
host too.
"""

from __future__ import annotations

import base64
import importlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from scorer.league.errors import StoreError
from scorer.messages import Message

#: The IndexedDB database of the log's records.
DB_NAME: Final = "rummy-scorer"
#: The earlier layout's database (Emscripten's IDBFS, mounted at this path) and its store.
EARLIER_DB: Final = "/rummy"
EARLIER_STORE: Final = "FILE_DATA"
#: The Web Lock held by the tab that owns the store.
LOCK_NAME: Final = "rummy-scorer-store"

#: The JavaScript half: the records read and written, one transaction per call; the tab lock.
_JS: Final = r"""
(namesText) => {
  const names = JSON.parse(namesText);
  const COMMITS = "commits", META = "meta", BACKUPS = "backups", KEPT = "kept";
  const status = { writes: 0, failures: 0, error: "", pending: 0, last: null };
  let db = null;

  function opened() {
    if (db) return Promise.resolve(db);
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(names.db, 1);
      request.onupgradeneeded = () => {
        for (const name of [COMMITS, META, BACKUPS, KEPT]) {
          if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
        }
      };
      request.onsuccess = () => { db = request.result; resolve(db); };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("IndexedDB is held by an older page of this site"));
    });
  }

  function done(tx, result) {
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(result());
      tx.onabort = () => reject(tx.error || new Error("the IndexedDB transaction was aborted"));
    });
  }

  // The log's first line, the checkpoint, the summary and the commits from the checkpoint's
  // on (all of them when there is none, or fromCheckpoint is false): one read transaction.
  async function load(fromCheckpoint) {
    const tx = (await opened()).transaction([COMMITS, META], "readonly");
    const commits = tx.objectStore(COMMITS), meta = tx.objectStore(META);
    const out = { header: undefined, checkpoint: undefined, first: 1, lines: [], summary: undefined,
                  club: undefined, sync: undefined, held: undefined };
    const head = commits.get(0);
    head.onsuccess = () => { out.header = head.result ? head.result.line : undefined; };
    const club = meta.get("club"), sync = meta.get("sync"), held = meta.get("held");
    held.onsuccess = () => { out.held = held.result ? JSON.stringify(held.result) : undefined; };
    club.onsuccess = () => { out.club = club.result ? JSON.stringify(club.result) : undefined; };
    sync.onsuccess = () => { out.sync = sync.result ? JSON.stringify(sync.result) : undefined; };
    const summary = meta.get("summary");
    summary.onsuccess = () => { out.summary = summary.result ? summary.result.position : undefined; };
    const saved = meta.get("checkpoint");
    saved.onsuccess = () => {
      const found = fromCheckpoint ? saved.result : null;
      if (found) { out.checkpoint = found.body; out.first = found.position; }
      const range = commits.getAll(IDBKeyRange.lowerBound(Math.max(out.first, 1)));
      range.onsuccess = () => { out.lines = range.result.map((value) => value.line); };
    };
    return done(tx, () => out);
  }

  async function lines(first, last) {
    const tx = (await opened()).transaction([COMMITS], "readonly");
    const range = tx.objectStore(COMMITS).getAll(IDBKeyRange.bound(first, last));
    return done(tx, () => range.result.map((value) => value.line));
  }

  function fail(error) {
    status.failures += 1;
    status.error = String(error);
    console.error("Rummy Scorer: the league could not be saved in the browser's storage: " + status.error);
    return status.error;
  }

  // One change (JSON from Python) as one transaction; a promise of "" or of the error's text.
  function write(text) {
    const change = JSON.parse(text);
    status.pending += 1;
    return opened().then((db) => {
      const tx = db.transaction([COMMITS, META, KEPT], "readwrite", { durability: "strict" });
      const commits = tx.objectStore(COMMITS), meta = tx.objectStore(META);
      if (change.keep) tx.objectStore(KEPT).put(change.keep[1], change.keep[0]);
      if (change.clear) commits.clear();
      for (const [n, value] of change.commits) commits.put(value, n);
      for (const [key, value] of change.meta) {
        if (value === null) { meta.delete(key); } else { meta.put(value, key); }
      }
      return done(tx, () => {
        status.writes += 1;
        status.last = { commits: change.commits.map((c) => c[0]), meta: change.meta.map((m) => m[0]),
                        bytes: text.length };
        return "";
      });
    }).catch(fail).finally(() => { status.pending -= 1; });
  }

  function putBackup(name, data) {
    let bytes;  // copied at once: Python's bytes are lent for this call only
    if (data && typeof data.getBuffer === "function") {
      const view = data.getBuffer("u8");
      try { bytes = view.data.slice(); } finally { view.release(); }
    } else {
      bytes = new Uint8Array(data);
    }
    if (!bytes.length) return Promise.resolve(fail(new Error("an empty backup for " + name)));
    return opened().then((db) => {
      const tx = db.transaction([BACKUPS], "readwrite", { durability: "strict" });
      tx.objectStore(BACKUPS).put(bytes, name);
      return done(tx, () => "");
    }).catch(fail);
  }

  async function backups() {
    const tx = (await opened()).transaction([BACKUPS], "readonly");
    const store = tx.objectStore(BACKUPS), keys = store.getAllKeys(), values = store.getAll();
    return done(tx, () => keys.result.map((key, i) => [String(key), values.result[i]]));
  }

  // The earlier layout's records (path, contents or null for a folder); [] when there is none.
  // Opened without a version: a database that is not there is not made (its upgrade aborted).
  function earlier() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(names.earlier);
      request.onupgradeneeded = () => request.transaction.abort();
      request.onerror = (event) => { event.preventDefault(); resolve([]); };
      request.onsuccess = () => {
        const old = request.result;
        if (!old.objectStoreNames.contains(names.earlierStore)) { old.close(); resolve([]); return; }
        const tx = old.transaction([names.earlierStore], "readonly"), found = [];
        const cursor = tx.objectStore(names.earlierStore).openCursor();
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (!at) return;
          const contents = at.value && at.value.contents ? at.value.contents : undefined;
          found.push([String(at.key), contents]);
          at.continue();
        };
        tx.oncomplete = () => { old.close(); resolve(found); };
        tx.onabort = () => {
          old.close();
          reject(tx.error || new Error("the earlier records cannot be read"));
        };
      };
    });
  }

  // Whether the earlier layout's database is there (opened without a version, as earlier() does).
  function hasEarlier() {
    return new Promise((resolve) => {
      const request = indexedDB.open(names.earlier);
      request.onupgradeneeded = () => request.transaction.abort();
      request.onerror = (event) => { event.preventDefault(); resolve(false); };
      request.onsuccess = () => {
        const found = request.result.objectStoreNames.contains(names.earlierStore);
        request.result.close();
        resolve(found);
      };
    });
  }

  // What the first screen needs before the store opens (JSON): the summary record's Home, and
  // whether a store is there at all (the log's first record, or the earlier layout).
  async function firstScreen() {
    const tx = (await opened()).transaction([COMMITS, META], "readonly");
    const head = tx.objectStore(COMMITS).count(0), summary = tx.objectStore(META).get("summary");
    const out = await done(tx, () => ({
      home: summary.result && summary.result.home ? summary.result.home : null,
      stored: head.result > 0,
    }));
    if (!out.stored) out.stored = await hasEarlier();
    return JSON.stringify(out);
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

  return { load, lines, write, putBackup, backups, earlier, claim, firstScreen,
           status: () => JSON.stringify(status) };
}
"""


# -- the records -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loaded:
    """What opening read: the log's first line, the checkpoint's bytes, the commits' lines from
    position ``first`` on, and the position the summary record was made at."""

    header: bytes | None
    checkpoint: bytes | None = None
    first: int = 1
    lines: tuple[bytes, ...] = ()
    summary: int | None = None
    #: The ``club`` record (the club server to sync with) and the ``sync`` record (the sync
    #: marks), as JSON (``None``: none).
    club: str | None = None
    sync: str | None = None
    #: The ``held`` record: the facts a sync held back, by game (another device's version).
    held: str | None = None


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """What the phone's first screen is drawn from before the store opens: the ``home`` part
    of the summary record (:meth:`scorer.ui.screens.home_model.HomeModel.record`; ``None``: the
    record has none, as one an earlier build wrote), and whether a store is there at all (no:
    a new profile, whose Home lists no game)."""

    home: Any = None
    stored: bool = True


@dataclass(slots=True)
class Change:
    """One write: commit records (position, line, sum, previous sum), ``meta`` records (``None``
    deletes one), every commit cleared first (the store replaced from a backup), something
    kept aside."""

    commits: list[tuple[int, bytes, str, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    clear: bool = False
    keep: tuple[str, Any] | None = None

    def json(self) -> str:
        commits = [
            [n, {"line": line.decode("utf-8"), "sum": total, "prev": prev}]
            for n, line, total, prev in self.commits
        ]
        return json.dumps(
            {
                "commits": commits,
                "meta": [[k, v] for k, v in self.meta.items()],
                "clear": self.clear,
                "keep": list(self.keep) if self.keep else None,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def size(self) -> int:
        """The bytes this write sends to IndexedDB (as UTF-8 JSON)."""
        return len(self.json().encode("utf-8"))


class Records:
    """Where the log's records are kept: IndexedDB (:class:`IndexedDb`) or memory."""

    async def first_screen(self) -> FirstScreen:
        """What the first screen needs before the store opens (one short read)."""
        raise NotImplementedError

    async def load(self, *, from_checkpoint: bool = True) -> Loaded:
        raise NotImplementedError

    async def lines(self, first: int, last: int) -> list[bytes]:
        """The commits' lines from position ``first`` to ``last``."""
        raise NotImplementedError

    def lines_now(self, first: int, last: int) -> list[bytes] | None:
        """The same, read at once where the browser lets Python wait; else ``None``."""
        raise NotImplementedError

    async def commit(self, change: Change) -> None:
        """Write ``change`` and wait until it has committed (raises :class:`StoreError`)."""
        raise NotImplementedError

    def write(self, change: Change) -> None:
        """Write ``change``; wait until it has committed where the browser lets Python wait
        (raises :class:`StoreError` if it failed), else return at once."""
        raise NotImplementedError

    async def earlier(self) -> list[tuple[str, bytes | None]]:
        """The earlier layout's records (path, contents; ``None`` for a folder)."""
        raise NotImplementedError

    async def backups(self) -> list[tuple[str, bytes]]:
        raise NotImplementedError

    def put_backup(self, name: str, data: bytes) -> None:
        raise NotImplementedError


class MemoryRecords(Records):
    """The records in memory, as IndexedDB would hold them (tests, the bench)."""

    def __init__(self, earlier: Sequence[tuple[str, bytes | None]] = ()) -> None:
        self.commits: dict[int, dict[str, str]] = {}
        self.meta: dict[str, Any] = {}
        self.kept: dict[str, Any] = {}
        self.saved_backups: dict[str, bytes] = {}
        self.earlier_records = list(earlier)
        #: Every write, in order (what a save sends).
        self.writes: list[Change] = []
        #: The next write fails with this text (a full disk), once.
        self.fail_next: str | None = None
        self.loads = 0

    async def first_screen(self) -> FirstScreen:
        summary = self.meta.get("summary") or {}
        return FirstScreen(home=summary.get("home"), stored=bool(self.commits or self.earlier_records))

    async def load(self, *, from_checkpoint: bool = True) -> Loaded:
        self.loads += 1
        head = self.commits.get(0)
        saved = self.meta.get("checkpoint") if from_checkpoint else None
        first = saved["position"] if saved else 1
        lines = tuple(self._lines(max(first, 1), max(self.commits, default=0)))
        summary = self.meta.get("summary")
        return Loaded(
            header=head["line"].encode("utf-8") if head else None,
            checkpoint=base64.b64decode(saved["body"]) if saved else None,
            first=first,
            lines=lines,
            summary=summary["position"] if summary else None,
            club=json.dumps(self.meta["club"]) if "club" in self.meta else None,
            sync=json.dumps(self.meta["sync"]) if "sync" in self.meta else None,
            held=json.dumps(self.meta["held"]) if "held" in self.meta else None,
        )

    async def lines(self, first: int, last: int) -> list[bytes]:
        return self._lines(first, last)

    def lines_now(self, first: int, last: int) -> list[bytes] | None:
        return self._lines(first, last)

    def _lines(self, first: int, last: int) -> list[bytes]:
        return [self.commits[n]["line"].encode("utf-8") for n in sorted(self.commits) if first <= n <= last]

    async def commit(self, change: Change) -> None:
        self.write(change)

    def write(self, change: Change) -> None:
        if self.fail_next is not None:
            text, self.fail_next = self.fail_next, None
            raise StoreError(_refused(text))
        body = json.loads(change.json())  # what IndexedDB would be given
        self.writes.append(change)
        if body["keep"]:
            self.kept[body["keep"][0]] = body["keep"][1]
        if body["clear"]:
            self.commits.clear()
        for n, value in body["commits"]:
            self.commits[n] = value
        for key, value in body["meta"]:
            if value is None:
                self.meta.pop(key, None)
            else:
                self.meta[key] = value

    async def earlier(self) -> list[tuple[str, bytes | None]]:
        return list(self.earlier_records)

    async def backups(self) -> list[tuple[str, bytes]]:
        return sorted(self.saved_backups.items())

    def put_backup(self, name: str, data: bytes) -> None:
        self.saved_backups[name] = bytes(data)


class IndexedDb(Records):
    """The records in IndexedDB (only in Pyodide)."""

    def __init__(self) -> None:
        code = importlib.import_module("pyodide.code")
        self._ffi: Any = importlib.import_module("pyodide.ffi")
        names = {"db": DB_NAME, "earlier": EARLIER_DB, "earlierStore": EARLIER_STORE}
        self._js: Any = code.run_js(_JS)(json.dumps(names))
        #: Writes the store waited for (acknowledged once in IndexedDB), and did not.
        self.waited = 0
        self.not_waited = 0

    async def claim(self) -> bool:
        """Take the store for this tab; False: another tab of this browser has it."""
        return bool(await self._js.claim(LOCK_NAME))

    def _can_wait(self) -> bool:
        can_run_sync = getattr(self._ffi, "can_run_sync", None)
        return bool(can_run_sync is not None and can_run_sync())

    async def _call(self, promise: Any) -> Any:
        try:
            return await promise
        except Exception as exc:  # a JavaScript error (pyodide.ffi.JsException): IndexedDB refused
            raise StoreError(_refused(str(exc))) from None

    async def first_screen(self) -> FirstScreen:
        found = json.loads(str(await self._call(self._js.firstScreen())))
        return FirstScreen(home=found.get("home"), stored=bool(found.get("stored")))

    async def load(self, *, from_checkpoint: bool = True) -> Loaded:
        found = (await self._call(self._js.load(from_checkpoint))).to_py()
        header, saved, summary, club, sync, held = (
            _given(found.get(key)) for key in ("header", "checkpoint", "summary", "club", "sync", "held")
        )
        return Loaded(
            header=str(header).encode("utf-8") if header is not None else None,
            checkpoint=base64.b64decode(str(saved)) if saved is not None else None,
            first=int(found["first"]),
            lines=tuple(str(line).encode("utf-8") for line in found["lines"]),
            summary=int(summary) if summary is not None else None,
            club=str(club) if club is not None else None,
            sync=str(sync) if sync is not None else None,
            held=str(held) if held is not None else None,
        )

    async def lines(self, first: int, last: int) -> list[bytes]:
        found = (await self._call(self._js.lines(first, last))).to_py()
        return [str(line).encode("utf-8") for line in found]

    def lines_now(self, first: int, last: int) -> list[bytes] | None:
        if not self._can_wait():
            return None
        found = self._ffi.run_sync(self._js.lines(first, last)).to_py()
        return [str(line).encode("utf-8") for line in found]

    async def commit(self, change: Change) -> None:
        error = str(await self._call(self._js.write(change.json())))
        if error:
            raise StoreError(_refused(error))

    def write(self, change: Change) -> None:
        promise = self._js.write(change.json())
        if not self._can_wait():
            self.not_waited += 1
            return
        self.waited += 1
        error = str(self._ffi.run_sync(promise))
        if error:
            raise StoreError(_refused(error))

    async def earlier(self) -> list[tuple[str, bytes | None]]:
        found = await self._call(self._js.earlier())
        return [
            (str(entry[0]), entry[1].to_bytes() if _given(entry[1]) is not None else None) for entry in found
        ]

    async def backups(self) -> list[tuple[str, bytes]]:
        found = await self._call(self._js.backups())
        return [(str(entry[0]), entry[1].to_bytes()) for entry in found]

    def put_backup(self, name: str, data: bytes) -> None:
        promise = self._js.putBackup(name, data)
        if self._can_wait():
            error = str(self._ffi.run_sync(promise))
            if error:
                raise StoreError(_refused(error))

    def status(self) -> dict[str, Any]:
        """Writes made, failed and waited for, the last one's records and bytes, the last error."""
        found: dict[str, Any] = json.loads(str(self._js.status()))
        found.update(waited=self.waited, not_waited=self.not_waited)
        return found


def _given(value: Any) -> Any:
    """``value``, or ``None`` for JavaScript's ``null`` and ``undefined`` as Python sees them."""
    return None if value is None or type(value).__name__ == "JsNull" else value


def _refused(reason: str) -> Message:
    return Message("store.os_said", text=f"the browser's storage refused the change: {reason}")
