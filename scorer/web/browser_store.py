"""The league store in the browser: the log of facts kept in IndexedDB, one record per commit.

On a computer the log of facts is a file (:mod:`scorer.league.log`). In the browser it is an
IndexedDB database, :data:`DB_NAME`, of four object stores:

- ``commits``: one record per commit, keyed by its position (0 is the log's first line, which
  names the store). Each value is the commit's line exactly as :mod:`scorer.league.log` writes
  it (``JSON<TAB>SUM\\n``), with its sum and the previous line's sum beside it, so opening
  checks the records with the log's own rules (:func:`~scorer.league.log.read_tail`): each
  whole, each following the one before.
- ``meta``: the ``checkpoint`` (:mod:`scorer.league.checkpoint`'s bytes in base64, with the position and
  sum they were saved at), saved every :data:`~scorer.league.ledger.CHECKPOINT_EVERY` commits
  as the folder store does; the ``summary`` of the league for the page to show while Python
  starts (:meth:`BrowserStore.summary`); ``converted``, when the store came from the earlier
  layout; ``club``, the club server to sync with (Settings -> Club server), ``sync``, how
  far each sync has come (:mod:`scorer.league.sync`), and ``held``, the facts a sync held
  back by game (another device's version of a game changed on both apart).
- ``backups``: the zips of *Settings -> Backups*, one record each (by name), put in the
  backups folder in memory when the app starts.
- ``kept``: what a backup put in place replaced (the log as it was), never deleted.

A commit is **one** IndexedDB transaction with ``durability: "strict"``: its commit record,
the summary and, when due, the checkpoint. So IndexedDB holds the log after some whole commit,
never half of one, and a save sends one line, not the whole log. Where the browser lets Python
wait for a promise (JavaScript Promise Integration, Chromium 137 and later), the store method
returns only after that transaction committed, as on a disk (a failed one is refused and
nothing is kept). Elsewhere it returns at once and the transaction commits a few milliseconds
later; a tab killed in between loses that change.

Opening reads the log's first line, the checkpoint and the commits from the checkpoint's on;
the commits before it are read afterwards, in the background, for what needs the whole log
(an export of facts, a backup). A checkpoint that is damaged or does not fit the commit it
names is ignored and every commit is read.

**The earlier layout** (Emscripten's IDBFS: database ``/rummy``, object store ``FILE_DATA``,
one record per file of the store's folder) converts itself on first open: its files are read
into a folder in memory, opened there by the folder store (which converts a still earlier
layout, mends the log's two copies and drops a line a crash cut short, as on a computer), and
its commits and backups are written as records. The earlier records are never changed or
deleted; a log line says so.

Two tabs of one browser would each hold their own state and write over each other: the first
tab takes a Web Lock (``navigator.locks``) for as long as it is open, and :meth:`IndexedDb.claim`
tells a second tab that it is not the first. Only that tab writes: nothing needs catching up.

Every JavaScript object is reached through ``pyodide`` at run time: this module imports on the
host too, where :class:`MemoryRecords` stands in for IndexedDB (the tests of the ledger).
"""

from __future__ import annotations

import base64
import importlib
import json
import logging
import shutil
import tempfile
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from scorer.league import checkpoint
from scorer.league.backup import list_backups, read_backup, write_backup
from scorer.league.club_server import ClubServer
from scorer.league.errors import DamagedFileError, StoreError
from scorer.league.facts import FACT_VERSION, Fact
from scorer.league.ledger import CHECKPOINT_EVERY, FolderLedger, Ledger, log_header
from scorer.league.log import (
    LOG_NAME,
    Commit,
    Head,
    commit_line,
    commit_of,
    decode,
    header_line,
    lines_of,
    read_tail,
)
from scorer.league.state import State
from scorer.league.store import Store
from scorer.messages import LANGUAGES, Message
from scorer.ruleset_text import variant_title

log = logging.getLogger(__name__)

#: The IndexedDB database of the log's records.
DB_NAME: Final = "rummy-scorer"
#: The earlier layout's database (Emscripten's IDBFS, mounted at this path) and its store.
EARLIER_DB: Final = "/rummy"
EARLIER_STORE: Final = "FILE_DATA"
#: The store's folder as the app names it (in memory: a backup is made there), and its backups'.
LEAGUE: Final = "/rummy/league"
BACKUPS: Final = "/rummy/league-backups"
#: The Web Lock held by the tab that owns the store.
LOCK_NAME: Final = "rummy-scorer-store"
#: The summary record's version (boot.js reads it).
SUMMARY_VERSION: Final = 1
#: The games in progress the summary names (the most recently changed): it stays small.
SUMMARY_GAMES: Final = 8

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

  function claim(name) {  // true: this tab holds the lock until it closes
    return new Promise((resolve) => {
      if (!(self.navigator && navigator.locks)) { resolve(true); return; }
      navigator.locks.request(name, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock ? new Promise(() => {}) : undefined;
      });
    });
  }

  return { load, lines, write, putBackup, backups, earlier, claim, status: () => JSON.stringify(status) };
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


def _json_or_none(text: str | None) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _given(value: Any) -> Any:
    """``value``, or ``None`` for JavaScript's ``null`` and ``undefined`` as Python sees them."""
    return None if value is None or type(value).__name__ == "JsNull" else value


def _refused(reason: str) -> Message:
    return Message("store.os_said", text=f"the browser's storage refused the change: {reason}")


# -- the ledger ------------------------------------------------------------------------------


class CheckpointMisfit(Exception):
    """The checkpoint read does not fit the commit it names: every commit is read instead."""


def _place(n: int) -> Path:
    """How a record is named in a refusal (there is no file)."""
    return Path(f"IndexedDB {DB_NAME}/commits/{n}")


class BrowserLedger(Ledger):
    """The store's ledger over the log's records (:class:`Records`)."""

    def __init__(self, records: Records, loaded: Loaded, *, location: Path | None = None) -> None:
        super().__init__()
        self.records = records
        self.location = location
        #: Makes the summary record (the store's reads; :meth:`BrowserStore.summary`).
        self.summarize: Callable[[], dict[str, Any]] | None = None
        self._header_line = b""
        self._lines: dict[int, bytes] = {}  # the commits read or written since the app started
        self._older: list[bytes] | None = None  # those before them, once read
        self._since_checkpoint = 0
        self.summary_position = loaded.summary
        with self._mutex:
            self._open(loaded)
        self._club = ClubServer.from_json(_json_or_none(loaded.club))
        kept = _json_or_none(loaded.sync)  # another store's marks (a backup put in place): none
        marks = kept.get("marks") if isinstance(kept, dict) and kept.get("store") == self.store_id else None
        self._marks = {
            str(key): {str(k): v for k, v in mark.items() if isinstance(v, int) and not isinstance(v, bool)}
            for key, mark in (marks.items() if isinstance(marks, dict) else ())
            if isinstance(mark, dict)
        }
        held = _json_or_none(loaded.held)
        self._held = {
            str(k): [f for f in v if isinstance(f, dict)]
            for k, v in (held.items() if isinstance(held, dict) else ())
            if isinstance(v, list)
        }

    def _open(self, loaded: Loaded) -> None:
        if loaded.header is None:
            raise DamagedFileError(_place(0), Message("store.problem_log_head"), None)
        head = log_header(loaded.header, _place(0))
        if head is None:
            raise DamagedFileError(_place(0), Message("store.problem_log_head"), None)
        self.store_id, head_sum = head.store, head.sum
        self._header_line = loaded.header
        self.state, self.position, self.last_sum = State(), 0, head_sum
        self._lines, self._older = {}, None
        lines = list(loaded.lines)
        if loaded.first > 1:
            saved = checkpoint.decode(loaded.checkpoint, store=self.store_id) if loaded.checkpoint else None
            line = decode(lines[0], start=0) if lines else None
            if saved is None or line is None or line.n != saved.position or line.sum != saved.sum:
                raise CheckpointMisfit
            self.state, self.position, self.last_sum = saved.state, saved.position, saved.sum
            self._lines[saved.position] = lines.pop(0)
        else:
            self._older = []
        tail = read_tail(b"".join(lines), start=0, prev=self.last_sum, n=self.position, version=FACT_VERSION)
        if tail.rest:
            bad = decode(lines[len(tail.commits)], start=0)
            problem = bad.problem or Message("store.problem_line_gap")
            raise DamagedFileError(_place(self.position + len(tail.commits) + 1), problem, None)
        self._fold(tail.commits)
        for commit, raw in zip(tail.commits, lines, strict=True):
            self._lines[commit.n] = raw
        self._since_checkpoint = len(tail.commits)

    # -- the ledger's part ---------------------------------------------------------------

    keeps_club = True

    def _catch_up(self, *, locked: bool) -> None:
        return  # one tab owns the records (the Web Lock): nobody else appends

    def save_sync_mark(self, key: str, mark: dict[str, int]) -> None:
        """Keep ``mark`` in the ``sync`` meta record (one write; a tab killed before it
        commits syncs again from the marks before it, what it sends again skipped by id)."""
        with self._mutex:
            marks = {**self._marks, key: dict(mark)}
            self.records.write(Change(meta={"sync": {"store": self.store_id, "marks": marks}}))
            self._marks = marks

    def save_held(self, subject: str, facts: list[dict[str, Any]]) -> None:
        """Keep the facts held back of ``subject`` in the ``held`` meta record (one for all)."""
        with self._mutex:
            held = {k: v for k, v in self._held.items() if k != subject}
            if facts:
                held[subject] = list(facts)
            self.records.write(Change(meta={"held": held or None}))
            self._held = held

    def save_club_server(self, server: ClubServer | None) -> None:
        """Keep ``server`` in the ``club`` meta record (``None``: delete it)."""
        with self._mutex:
            self.records.write(Change(meta={"club": server.to_json() if server is not None else None}))
            self._club = server

    def _append(self, facts: Sequence[Fact]) -> Commit:
        n = self.position + 1
        line, total = commit_line(n, self.last_sum, facts)
        change = Change(commits=[(n, line, total, self.last_sum)])
        summary = self._summary(n)
        if summary is not None:
            change.meta["summary"] = summary
        due = self._since_checkpoint + 1 >= CHECKPOINT_EVERY or self._summaries_now_at_hand()
        if due:  # the state already holds this commit's facts: it is the state at n
            body = checkpoint.encode(
                store=self.store_id, position=n, sum=total, start=n, offset=n, state=self.state
            )
            # its bulk is compressed, not text: base64 in the JSON the record is written from
            text = base64.b64encode(body).decode("ascii")
            change.meta["checkpoint"] = {"position": n, "sum": total, "body": text}
        self.records.write(change)  # the commit point; a refusal here leaves nothing applied
        self._lines[n] = line
        self._since_checkpoint = 0 if due else self._since_checkpoint + 1
        if due:
            self._summaries_due = False
        if summary is not None:
            self.summary_position = n
        return Commit(n=n, sum=total, facts=tuple(facts), end=n)

    def _summary(self, position: int) -> dict[str, Any] | None:
        """The summary record for the state as it is (inside the write: with its facts)."""
        if self.summarize is None:
            return None
        try:
            found = self.summarize()
        except Exception:  # the page's summary is a courtesy: it never stops a save
            log.exception("the league's summary for the page could not be made")
            return None
        return {"v": SUMMARY_VERSION, "position": position, **found}

    def write_summary(self) -> None:
        """Write the summary record now (after opening, when it lags the log: a converted store)."""
        with self._mutex:
            summary = self._summary(self.position)
            if summary is not None:
                self.records.write(Change(meta={"summary": summary}))
                self.summary_position = self.position

    # -- the whole log ---------------------------------------------------------------------

    @property
    def first_in_memory(self) -> int:
        return min(self._lines, default=self.position + 1)

    async def read_older(self) -> None:
        """Read the commits before the checkpoint (in the background after opening)."""
        if self._older is not None:
            return
        first = self.first_in_memory
        lines = await self.records.lines(1, first - 1)
        with self._mutex:
            if self._older is None and first == self.first_in_memory:
                self._take_older(lines, first)

    def _take_older(self, lines: list[bytes], first: int) -> None:
        head = log_header(self._header_line, _place(0))
        assert head is not None
        tail = read_tail(b"".join(lines), start=0, prev=head[1], n=0, version=FACT_VERSION)
        nxt = decode(self._lines[first], start=0) if first in self._lines else None
        chained = nxt is None or (nxt.body is not None and nxt.body.get("prev") == tail.last_sum)
        if tail.rest or len(tail.commits) != first - 1 or not chained:
            at = len(tail.commits) + 1
            bad = decode(lines[at - 1], start=0) if at <= len(lines) else None
            problem = (bad.problem if bad else None) or Message("store.problem_line_gap")
            raise DamagedFileError(_place(at), problem, None)
        self._older = lines

    def _all_lines(self) -> list[bytes]:
        """Every commit's line, in order (the whole log but its first line)."""
        if self._older is None:
            first = self.first_in_memory
            lines = self.records.lines_now(1, first - 1)
            if lines is None:
                raise StoreError(
                    Message(
                        "store.internal",
                        text="the league's older changes are still being read from the browser's storage",
                    )
                )
            self._take_older(lines, first)
        assert self._older is not None
        return [*self._older, *(self._lines[n] for n in sorted(self._lines))]

    def log_bytes(self) -> bytes:
        """The log as the folder store's ``facts.jsonl`` holds it."""
        with self._mutex:
            return self._header_line + b"".join(self._all_lines())

    def commits_since(self, position: int) -> list[Commit]:
        """Every commit after ``position`` (a sync's pages; those read in the background
        first when they are older than the ones in memory)."""
        with self._mutex:
            if position + 1 >= self.first_in_memory:
                lines = [self._lines[n] for n in sorted(self._lines) if n > position]
            else:
                lines = self._all_lines()[position:]
            return [commit_of(decode(raw, start=0), version=FACT_VERSION) for raw in lines]

    def facts_since(self, position: int) -> list[Fact]:
        with self._mutex:
            if position + 1 >= self.first_in_memory:
                lines = [self._lines[n] for n in sorted(self._lines) if n > position]
            else:
                lines = self._all_lines()[position:]
            found: list[Fact] = []
            for raw in lines:
                found.extend(commit_of(decode(raw, start=0), version=FACT_VERSION).facts)
            return found

    def replace_log(self, data: bytes, *, keep: str) -> None:
        """Put the log ``data`` (a checked backup) in the records' place, in one transaction;
        the log it replaces is kept (record ``keep`` of ``kept``)."""
        with self._mutex:
            old = self.log_bytes()
            head = log_header(data, Path(LOG_NAME))
            if head is None:
                raise DamagedFileError(Path(LOG_NAME), Message("store.problem_log_head"), None)
            records = _records_of(data, head)
            lines = [raw for _, raw, _, _ in records[1:]]
            before = (self.state, self.position, self.last_sum, self._header_line, self._lines, self._older)
            self._open(Loaded(header=data[: head[2]], lines=tuple(lines)))
            try:
                change = Change(commits=records, meta={"checkpoint": None}, clear=True)
                change.keep = (keep, {"log": old.decode("utf-8"), "at": _now()})
                summary = self._summary(self.position)
                if summary is not None:
                    change.meta["summary"] = summary
                self.records.write(change)
            except BaseException:
                self.state, self.position, self.last_sum, self._header_line, self._lines, self._older = before
                raise
            self._since_checkpoint = len(lines)


def _records_of(data: bytes, head: Head) -> list[tuple[int, bytes, str, str]]:
    """A whole log's bytes (its first line read as ``head``) as the ``commits`` records: each
    line's number, the line, its sum and the sum of the line before it."""
    head_sum, head_end = head.sum, head.end
    records = [(0, data[:head_end], head_sum, "")]
    for line in lines_of(data[head_end:], start=head_end):
        records.append((line.n, line.raw, line.sum, records[-1][2]))
    return records


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- opening, and the earlier layout -----------------------------------------------------------


async def open_ledger(records: Records, *, scratch: Path, location: Path | None = None) -> BrowserLedger:
    """The ledger over ``records``: made when there are none, converted from the earlier layout
    when it is there, read from the checkpoint on (from the start when it does not fit)."""
    loaded = await records.load()
    if loaded.header is None:
        converted = convert_earlier(await records.earlier(), scratch)
        if converted is None:
            line, total = header_line(uuid.uuid4().hex)
            await records.commit(Change(commits=[(0, line, total, "")]))
        else:
            data, backups, info = converted
            head = log_header(data, Path(LOG_NAME))
            assert head is not None  # the folder store wrote it
            change = Change(commits=_records_of(data, head), meta={"converted": info})
            for name, zipped in backups:
                records.put_backup(name, zipped)
            await records.commit(change)
            log.warning(
                "the league was converted from the browser's earlier storage (IndexedDB %r, object store"
                " %r: %d commits, %d backups); those records are kept there as they were",
                EARLIER_DB,
                EARLIER_STORE,
                len(change.commits) - 1,
                len(backups),
            )
        loaded = await records.load()
    try:
        return BrowserLedger(records, loaded, location=location)
    except CheckpointMisfit:
        log.warning("the league's checkpoint does not fit its log: every commit is read")
        return BrowserLedger(records, await records.load(from_checkpoint=False), location=location)


def convert_earlier(
    files: Sequence[tuple[str, bytes | None]], scratch: Path
) -> tuple[bytes, list[tuple[str, bytes]], dict[str, Any]] | None:
    """The log (and backups) of the earlier layout's records, or ``None`` when there is no store.

    The records are put back as files in ``scratch`` and opened by the folder store, which
    converts, mends and says what it did as on a computer (its notices go to the log).
    """
    prefix = f"{EARLIER_DB}/"
    league = f"{LEAGUE}/"
    if not any(path.startswith(league) and data is not None for path, data in files):
        return None
    root = scratch / "earlier"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for path, data in files:
        if not path.startswith(prefix):
            continue
        target = root / path.removeprefix(prefix)
        if data is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    folder = root / Path(LEAGUE).name
    ledger = FolderLedger(folder)
    for notice in ledger.notices:
        log.warning("the earlier storage's league: %s", notice)
    data = (folder / LOG_NAME).read_bytes()
    backups = [(p.name, p.read_bytes()) for p in list_backups(root / Path(BACKUPS).name)]
    info = {"from": f"IndexedDB {EARLIER_DB} {EARLIER_STORE}", "at": _now(), "records": len(files)}
    return data, backups, info


async def put_backups_in_place(records: Records, folder: Path) -> int:
    """The backup zips the records hold, as files in ``folder`` (where Settings lists them)."""
    folder.mkdir(parents=True, exist_ok=True)
    found = await records.backups()
    for name, data in found:
        if Path(name).name == name:
            (folder / name).write_bytes(data)
    return len(found)


# -- the store -------------------------------------------------------------------------------


class BrowserStore(Store):
    """The league store over :class:`BrowserLedger`: a backup is a record too, and replacing
    the store from one replaces the records in one transaction."""

    def __init__(self, ledger: BrowserLedger) -> None:
        super().__init__(ledger)
        self._browser = ledger
        ledger.summarize = self.summary
        if ledger.summary_position != ledger.position:
            ledger.write_summary()

    def summary(self) -> dict[str, Any]:
        """What the page shows while Python starts: the leagues' names and the games in
        progress (the :data:`SUMMARY_GAMES` changed last, newest first; ``more``: how many
        others), as the store lists them."""
        with self._read() as state:  # as Store.games lists them, building only those in progress
            names = state.names()
            rows = state.select(league=None, season=None)
            playing = [e for e in rows if e.status == "active" and not state.summary(e).finished]
            infos = [self._info(state, e, names) for e in playing]
        games = sorted(infos, key=lambda g: (g.changed, g.id), reverse=True)
        lines = []
        for game in games[:SUMMARY_GAMES]:
            seats = game.seats()  # who holds each seat now, with the seat's total, as Home shows
            lines.append(
                {
                    "id": game.id,
                    "ruleset": game.ruleset,
                    "variant": {language: variant_title(game.ruleset, language) for language in LANGUAGES},
                    "players": [name for _, name, _ in seats],
                    "totals": [[name, total] for _, name, total in seats],
                    "deals": game.deals,
                    "changed": game.changed,
                }
            )
        leagues = [league.name for league in self.leagues()]
        return {"leagues": leagues, "games": lines, "more": len(games) - len(lines)}

    def backup(self, folder: str | Path) -> Path:
        """The log in a zip in ``folder`` (as on a computer), kept as a record too."""
        target = Path(folder).expanduser()
        with self._write(), tempfile.TemporaryDirectory(prefix="rummy-backup-") as scratch:
            (Path(scratch) / LOG_NAME).write_bytes(self._browser.log_bytes())
            path = write_backup(Path(scratch), target)
        self._browser.records.put_backup(path.name, path.read_bytes())
        return path

    def replace_from_backup(self, path: str | Path) -> int:
        """Put the store back as the zip has it (checked whole first, as on a computer)."""
        files = read_backup(Path(path).expanduser())
        if LOG_NAME in files:
            data = files[LOG_NAME]
        else:  # a backup of the earlier layout: its files converted to facts first
            from scorer.league.convert import convert_files

            with tempfile.TemporaryDirectory(prefix="rummy-replace-") as scratch:
                data = convert_files(Path(scratch), files)
        with self._write():
            self._browser.replace_log(data, keep=f"replaced-{_now()}")
        self._standings.clear()
        self._ratings.clear()
        self._played.clear()
        return 1
