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
import json
import logging
import shutil
import tempfile
import uuid
from collections.abc import Callable, Sequence
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
from scorer.league.state import GameRow, State
from scorer.league.store import Store
from scorer.messages import LANGUAGES, Message
from scorer.ruleset_text import variant_title
from scorer.ui.screens.home_model import RECENT_FINISHED, HomeModel
from scorer.web.records import (
    DB_NAME,
    EARLIER_DB,
    EARLIER_STORE,
    Change,
    Loaded,
    Records,
)

log = logging.getLogger(__name__)

#: The store's folder as the app names it (in memory: a backup is made there), and its backups'.
LEAGUE: Final = "/rummy/league"
BACKUPS: Final = "/rummy/league-backups"
#: The summary record's version (boot.js reads it).
SUMMARY_VERSION: Final = 1
#: The games in progress the summary names (the most recently changed): it stays small.
SUMMARY_GAMES: Final = 8


def _json_or_none(text: str | None) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


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


def _newest(rows: list[GameRow], count: int) -> list[GameRow]:
    """The ``count`` of ``rows`` changed last (Home's order)."""
    return sorted(rows, key=lambda e: (e.changed, e.id), reverse=True)[:count]


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
        others), as the store lists them; and ``home``, Home's lists as Home makes them
        (:meth:`HomeModel.record`), from which the app draws Home before the store is open
        (:mod:`scorer.web.first_screen`)."""
        with self._read() as state:  # as Store.games lists them, building only those listed
            names = state.names()
            rows = state.select(league=None, season=None)
            active = [e for e in rows if e.status == "active"]
            playing = [e for e in active if not state.summary(e).finished]
            infos = [self._info(state, e, names) for e in playing]
            # Home's other lists: the finished and the abandoned games changed last
            done = _newest([e for e in active if state.summary(e).finished], RECENT_FINISHED)
            left = _newest([e for e in rows if e.status == "abandoned"], RECENT_FINISHED)
            others = [self._info(state, e, names) for e in (*done, *left)]
        home = HomeModel()
        home.show([*infos, *others])
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
        return {"leagues": leagues, "games": lines, "more": len(games) - len(lines), "home": home.record()}

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
