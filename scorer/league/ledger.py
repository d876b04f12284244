"""The ledger: the log of facts, the state caught up with it, and the one way a write goes.

A write (:meth:`Ledger.write`) is: take the lock, catch up with the facts other programs
appended, decide (the store's method reads the state and emits facts, each applied as it is
emitted), append the facts as one commit (the commit point: both copies of the log synced),
release. A method that refuses emits nothing and writes nothing; if the commit cannot be
written, the state is put back as it was. A read (:meth:`Ledger.read`) catches up, without the
lock, and answers from the state: another program's half-written line is not yet a commit.

:class:`FolderLedger` keeps the log in the store's folder (:mod:`scorer.league.log`: the log
kept twice) with a checkpoint (:mod:`scorer.league.checkpoint`) so that opening a large
store reads only the facts after it; :class:`MemoryLedger` keeps it in memory.

What a program mends on its own is said in :attr:`Ledger.notices`: a commit found in one copy
only (a kill between the two appends) written into the other, or a last line cut short by a
crash (a change never acknowledged) dropped. Anything else that is not whole is refused with
:class:`~scorer.league.errors.DamagedFileError` naming the file: ``rummy league restore``
mends it (:mod:`scorer.league.recovery`).
"""

from __future__ import annotations

import errno
import json
import os
import threading
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from filelock import FileLock, Timeout

from scorer.league import checkpoint
from scorer.league import log as _log
from scorer.league.club_server import CLUB_NAME, ClubServer
from scorer.league.errors import DamagedFileError, NewerStoreError, StoreBusyError, StoreError
from scorer.league.facts import BEGINNINGS, FACT_VERSION, Fact, FactError, fact_from_json
from scorer.league.log import (
    COPY_NAME,
    LOG_NAME,
    Commit,
    Head,
    MemoryLog,
    Tail,
    append_synced,
    commit_line,
    continuation_line,
    decode,
    head_of,
    header_line,
    lines_of,
    read_bytes,
    read_tail,
    sealed_files,
    sealed_name,
    unseal,
    write_synced,
)
from scorer.league.standings import ResultTotals
from scorer.league.state import State
from scorer.league.token_book import FolderTokens, MemoryTokens, TokenBook
from scorer.messages import Message
from scorer.oserrors import refusal

#: The environment variable that chooses the data folder.
ENV_VAR: Final = "RUMMY_DB"
#: Seconds to wait for another program's write before giving up.
LOCK_TIMEOUT: Final = 30.0
LOCK_NAME: Final = ".lock"
#: How far each sync with a club server has come (:mod:`scorer.league.sync`); disposable.
SYNC_NAME: Final = "sync.json"
#: The folder of the facts a sync held back, one file per game in conflict.
HELD_NAME: Final = "held"
_ID_LETTERS: Final = frozenset("0123456789abcdefABCDEF-")
#: How many of the last commits' subjects a ledger keeps (:meth:`Ledger.subjects_since`).
RECENT_COMMITS: Final = 256
#: A checkpoint is saved when this many commits have been appended since the last one.
CHECKPOINT_EVERY: Final = 200


def default_location() -> Path:
    """``$RUMMY_DB`` if set, else the per-user data folder (``platformdirs``)."""
    chosen = os.environ.get(ENV_VAR, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("rummy-scorer", appauthor=False)) / "league"


class Ledger:
    """The state of one store's facts, and the writes that add to them."""

    def __init__(self) -> None:
        self.state = State()
        self.position = 0
        self.last_sum = ""
        self.notices: list[Message] = []
        self._mutex = threading.RLock()
        self._batch: list[Fact] | None = None
        #: Who sends the write under way (:meth:`write`'s ``sender``), kept with its commit.
        self._sender: str | None = None
        #: Whether the checkpoint read lacked summaries the state may come to have (``None``:
        #: not yet asked; see :meth:`_summaries_now_at_hand`).
        self._summaries_due: bool | None = None
        self._marks = {}
        self._club: ClubServer | None = None
        self._held: dict[str, list[dict[str, Any]]] = {}
        #: What the last commits seen here were about, oldest first: ``(n, subjects)``, with
        #: ``None`` for a commit that may have changed anything (see :meth:`subjects_since`).
        self._recent: deque[tuple[int, frozenset[str] | None]] = deque(maxlen=RECENT_COMMITS)

    location: Path | None = None
    #: The store's id (named by its log's first line).
    store_id: str = ""
    #: The store's access tokens, kept beside the facts (:mod:`scorer.league.token_book`);
    #: ``None`` where a store keeps none (the app in a browser).
    tokens: TokenBook | None = None

    # -- for subclasses ------------------------------------------------------------------

    def _catch_up(self, *, locked: bool) -> None:
        raise NotImplementedError

    def _append(self, facts: Sequence[Fact]) -> Commit:
        raise NotImplementedError

    @contextmanager
    def _locked(self) -> Iterator[None]:
        yield

    def _written(self, commit: Commit) -> None:
        """Called after a commit is appended (a checkpoint may be due)."""

    def _summaries_now_at_hand(self) -> bool:
        """Whether the checkpoint lacks summaries (of this code version) that the state now
        has for every game: after an update of the code, or a checkpoint saved before any
        standings were read, every fresh open would replay every game until 200 more
        commits; the first commit after a read that summarized them all saves them instead."""
        if self._summaries_due is None:  # once per open: did the checkpoint have them all?
            self._summaries_due = not self.state.every_summary_at_hand(kept_only=True)
        return self._summaries_due and self.state.every_summary_at_hand()

    # -- reading and writing -----------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[State]:
        """The state caught up with every commit (inside a write: the write's own state)."""
        with self._mutex:
            if self._batch is None:
                self._catch_up(locked=False)
            yield self.state

    @contextmanager
    def write(self, *, sender: str | None = None) -> Iterator[State]:
        """One commit: the facts :meth:`emit` applies inside, appended together at the end;
        ``sender``: the name of the club server's token that sent them, kept with the commit."""
        with self._mutex:
            if self._batch is not None:  # a store method calling another: one commit
                yield self.state
                return
            with self._locked():
                self._catch_up(locked=True)
                self._batch = []
                self._sender = sender
                commit = None
                try:
                    with self.state.transaction():
                        yield self.state
                        if self._batch:
                            commit = self._append(self._batch)
                            self._apply_commit(commit)
                finally:
                    self._batch = None
                    self._sender = None
                if commit is not None:
                    self._written(commit)

    def pending(self) -> bool:
        """Whether a write under way has emitted facts not yet committed."""
        return bool(self._batch)

    def emit(self, fact: Fact, *, chained: bool = True) -> Fact:
        """Add ``fact`` to the write under way and apply it to the state at once.

        ``chained``: a fact made here names the last fact about its game or night as its
        ``prev`` (a fact that came from elsewhere keeps its own).
        """
        if self._batch is None:
            raise StoreError(Message("store.internal", text="a fact emitted outside a write"))
        subject = fact.subject
        if chained and subject is not None and fact.kind not in BEGINNINGS:
            fact = replace(fact, prev=self.state.heads.get(subject))
        self.state.apply(fact)
        self._batch.append(fact)
        return fact

    def _apply_commit(self, commit: Commit) -> None:
        self.position, self.last_sum = commit.n, commit.sum
        self._remember(commit)

    def _fold(self, commits: Sequence[Commit]) -> None:
        for commit in commits:
            for fact in commit.facts:
                self.state.apply(fact)
            self._apply_commit(commit)

    def _remember(self, commit: Commit) -> None:
        """Keep what ``commit`` was about: the games and nights its facts name, or ``None``
        when a fact names neither (a league, a player, a token: it may change any screen)."""
        if self._recent and self._recent[-1][0] != commit.n - 1:
            self._recent.clear()  # not the next commit (a store restored, say): start again
        subjects = {fact.subject for fact in commit.facts}
        self._recent.append((commit.n, None if None in subjects else frozenset(s for s in subjects if s)))

    def changed_since(self, token: str) -> frozenset[str] | None:
        """:meth:`subjects_since` the position a token of :meth:`changes` names (``None`` for
        a text that is not one)."""
        position, _, _ = token.partition(":")
        return self.subjects_since(int(position)) if position.isdigit() else None

    def subjects_since(self, position: int) -> frozenset[str] | None:
        """The games and nights the commits after ``position``, up to this ledger's, are about
        (none: nothing new); ``None`` when one of them may have changed anything else, or when
        they are no longer all at hand here (only the last :data:`RECENT_COMMITS` are kept, and
        none before a checkpoint was loaded). Nothing is read: what this process has seen.

        A screen showing one game reads the store again only when that game was named
        (:func:`scorer.ui.live.use_live`): in a club room each save names one table's game.
        """
        with self._mutex:
            if position >= self.position:
                return frozenset()
            after = [(n, subjects) for n, subjects in self._recent if n > position]
            if len(after) != self.position - position or after[0][0] != position + 1:
                return None
            found: set[str] = set()
            for _, subjects in after:
                if subjects is None:
                    return None
                found |= subjects
            return frozenset(found)

    def changes(self) -> str:
        """A token that differs after every commit (the log's position and its last sum)."""
        with self._mutex:
            if self._batch is None:
                self._catch_up(locked=False)
            return f"{self.position}:{self.last_sum}"

    def commits_since(self, position: int) -> list[Commit]:
        """Every commit after commit ``position`` (0: all), in order, up to this ledger's position."""
        raise NotImplementedError

    def facts_since(self, position: int) -> list[Fact]:
        return [f for c in self.commits_since(position) for f in c.facts]

    def subject_facts(self, subject: str) -> list[Fact]:
        """Every fact of one game or night in the log, in order (a choice on a game changed on
        two devices apart reads them: :mod:`scorer.league.joins`)."""
        return [f for f in self.facts_since(0) if f.subject == subject]

    # -- how far a sync has come (scorer.league.sync) ---------------------------------------

    def sync_mark(self, key: str) -> dict[str, int] | None:
        """The mark saved under ``key`` (``None``: none yet)."""
        return self._marks.get(key)

    def save_sync_mark(self, key: str, mark: dict[str, int]) -> None:
        """Save ``mark`` under ``key`` (in memory: for as long as the ledger lives)."""
        self._marks[key] = dict(mark)

    _marks: dict[str, dict[str, int]]

    # -- the club server this store syncs with (scorer.league.club_server) ----------------------

    #: Whether this ledger keeps a club server (a club server's own database keeps none).
    keeps_club: bool = False
    #: Whether each commit writes the summaries of the games it touched beside its facts (the
    #: database's read tables): a write that replays a game to check it keeps its summary too,
    #: so the commit does not replay it again.
    writes_summaries: bool = False

    def club_server(self) -> ClubServer | None:
        """The club server kept (``None``: none)."""
        return self._club

    def save_club_server(self, server: ClubServer | None) -> None:
        """Keep ``server`` (``None``: forget it); in memory: for as long as the ledger lives."""
        self._club = server

    def result_totals(
        self, league_id: str, *, season_id: str | None, ruleset: str | None, position: int
    ) -> tuple[list[ResultTotals], dict[str, int]] | None:
        """The standings' totals from a table of results kept with the facts, where the ledger
        keeps one (:meth:`scorer.league.pg.PgLedger.result_totals`); ``None``: fold the state."""
        return None

    # -- another device's facts of a game in conflict (kept aside, never folded) ------------------

    def held(self, subject: str) -> list[dict[str, Any]]:
        """The facts (as JSON) of ``subject`` a sync held back because it was changed apart."""
        return list(self._held.get(subject, []))

    def may_hold(self, subject: str) -> bool:
        """Whether :meth:`held` may find facts of ``subject`` (False: it finds none), told with
        no read where it can be: a screen that shows a game asks at every change anyone makes.
        In memory: exact."""
        return subject in self._held

    def save_held(self, subject: str, facts: list[dict[str, Any]]) -> None:
        """Keep ``facts`` as those held back of ``subject`` (``[]``: none any more)."""
        if facts:
            self._held[subject] = list(facts)
        else:
            self._held.pop(subject, None)


class MemoryLedger(Ledger):
    """A ledger in memory (tests, previews)."""

    keeps_club = True

    def __init__(self) -> None:
        super().__init__()
        self.log = MemoryLog.new(uuid.uuid4().hex)
        self.store_id = self.log.store
        self.tokens = MemoryTokens()
        header = decode(self.log.lines[0], start=0)
        self.last_sum = header.sum

    def _catch_up(self, *, locked: bool) -> None:
        return

    def _append(self, facts: Sequence[Fact]) -> Commit:
        return self.log.append(facts, sender=self._sender)

    def commits_since(self, position: int) -> list[Commit]:
        commits, _ = self.log.read(0)
        return [c for c in commits if c.n > position]


class FolderLedger(Ledger):
    """A ledger in a folder: ``facts.jsonl`` and its copy, a checkpoint, a lock file."""

    keeps_club = True

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.location = folder
        self.log_path = folder / LOG_NAME
        self.copy_path = folder / COPY_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise refusal(NotADirectoryError(errno.ENOTDIR, "Not a directory", str(folder))) from None
        except OSError as exc:
            raise refusal(exc, path=folder) from None
        if not folder.is_dir():
            raise StoreError(Message("store.not_a_folder", folder=f"'{folder}'"))
        self._lock = FileLock(str(folder / LOCK_NAME), timeout=LOCK_TIMEOUT)
        self.tokens = FolderTokens(folder, locked=self._locked)
        self.store_id = ""
        self.offset = 0  # where the last commit folded ends in the log
        self._identity: tuple[int, int] | None = None  # the log file's inode and device
        self._head = Head("", "", 0)  # the live log's first line
        self._since_checkpoint = 0
        with self._mutex, self._locked():
            self._open()

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self._lock.acquire()
        except Timeout:
            raise StoreBusyError(
                Message("store.busy_for", location=f"'{self.location}'", seconds=f"{LOCK_TIMEOUT:.0f}")
            ) from None
        except OSError as exc:
            raise refusal(exc, path=self.location / LOCK_NAME if self.location else None) from None
        try:
            yield
        finally:
            self._lock.release()

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> None:
        """Load the state (under the lock): the two copies settled, then the checkpoint if it
        is good, then every commit after it."""
        if not self.log_path.exists() and not self.copy_path.exists():
            if any(sealed_files(self.log_path.parent, live) for live in (LOG_NAME, COPY_NAME)):
                # segments and no live file to name them: never a new store over them
                raise DamagedFileError(self.log_path, Message("store.problem_missing"), None)
            from scorer.league.convert import convert_if_needed

            convert_if_needed(self)
            if not self.log_path.exists() and not self.copy_path.exists():
                self._create()
        self._settle()
        try:
            rest = self._load().rest
        except DamagedFileError as exc:  # a segment of this copy damaged or missing: the other has it
            if exc.path == self.log_path:
                raise
            self._settle(force=True)
            rest = self._load().rest
        if rest:  # a last line cut short in both copies: a commit never acknowledged
            self._settle(force=True)
            self._load()

    def _create(self) -> None:
        line, _ = header_line(uuid.uuid4().hex)
        write_synced(self.copy_path, line)
        write_synced(self.log_path, line)

    def _settle(self, *, force: bool = False) -> None:
        """Make the two copies the same again when they are not (under the lock).

        They differ after a program was stopped between its two appends, or a crash cut a
        line short, or a copy was damaged or deleted: :func:`scorer.league.recovery.restore`,
        the one way copies are mended, takes each commit from the copy that has it whole,
        keeps a damaged file aside, and says what it did (:attr:`notices`). What it cannot
        bring back is refused with the file named.
        """
        if not force and _same_copies(self.log_path, self.copy_path):
            return
        from scorer.league.recovery import restore

        for repair in restore(self.location, locked=True) if self.location else []:
            if repair.action == "lost":
                raise DamagedFileError(Path(repair.path), repair.message, None)
            self.notices.append(
                Message("store.mended", path=f"'{Path(repair.path).name}'", what=repair.message)
            )

    def _header(self, data: bytes | None, path: Path) -> Head | None:
        """What a log's first line says; ``None`` when it is not whole."""
        return log_header(data, path)

    def _load(self) -> Tail:
        for _ in range(3):  # the live log replaced while it is read (a seal, a mending): again
            identity = _identity(self.log_path)
            tail = self._load_once()
            if _identity(self.log_path) == identity:
                break
        self._identity = identity
        return tail

    def _load_once(self) -> Tail:
        head = self._header(_first_line(self.log_path), self.log_path)
        if head is None:
            raise DamagedFileError(self.log_path, Message("store.problem_log_head"), None)
        self.store_id, self._head = head.store, head
        self.state, self.position, self.last_sum, self.offset = State(), head.n, head.sum, head.end
        saved = checkpoint.load(self.location, store=head.store) if self.location else None
        folded = False
        if saved is not None and self._checkpoint_fits(saved):
            self.state = saved.state
            self.position, self.last_sum, self.offset = saved.position, saved.sum, saved.offset
        elif head.n:
            self._fold(self._sealed_commits(head))
            self.position, self.last_sum = head.n, head.sum
            folded = True
        self._since_checkpoint = 0
        tail = self._read_tail()
        if folded:
            # no checkpoint of this form (one left by an earlier version, or none): one is
            # saved at the next commit, not every open folding the whole log until 200 more
            self._since_checkpoint = max(self._since_checkpoint, CHECKPOINT_EVERY)
        self._summaries_due = None  # asked at the next commit (see _written)
        return tail

    def _sealed_commits(self, head: Head) -> list[Commit]:
        """Commits 1 to ``head.n`` from this copy's segments, each following the one before;
        a segment missing, damaged or out of step is refused, naming it."""
        assert self.location is not None
        return sealed_commits(self.location, LOG_NAME, head)

    def _checkpoint_fits(self, saved: checkpoint.Saved) -> bool:
        """Whether the commit the checkpoint was saved at is in the log as it says (its line,
        read where the checkpoint says it starts and ends; or, saved right after a seal, the
        live log's first line, which names it)."""
        head = self._head
        if head.n and saved.offset == head.end:
            return saved.position == head.n and saved.sum == head.sum
        if not 0 <= saved.start < saved.offset:
            return False
        data = read_bytes(self.log_path, saved.start) or b""
        line = decode(data[: saved.offset - saved.start], start=saved.start)
        return line.body is not None and line.n == saved.position and line.sum == saved.sum

    # -- catching up -----------------------------------------------------------------------

    def _read_tail(self) -> Tail:
        data = read_bytes(self.log_path, self.offset) or b""
        tail = read_tail(data, start=self.offset, prev=self.last_sum, n=self.position, version=FACT_VERSION)
        self._fold(tail.commits)
        self.offset = tail.end
        self._since_checkpoint += len(tail.commits)
        return tail

    def _catch_up(self, *, locked: bool) -> None:
        try:
            size = os.stat(self.log_path).st_size
        except OSError:
            size = -1
        if self._identity != _identity(self.log_path) or size < self.offset:
            # the log was replaced (mended by a restore, or replaced from a backup) or is gone: load it again
            if not locked:
                if size < 0:
                    return  # a mending or a replacement is under way: the next read sees it
                self._load()
                return
            self._settle()
            self._load()
            return
        if size > self.offset:
            tail = self._read_tail()
            if not locked:
                return  # another program's commit half-written is not a commit yet
            if tail.rest:  # under the lock, bytes after the last commit: a crash's
                self._settle(force=True)
                self._load()
                return
        if locked and not _same_size(self.log_path, self.copy_path):
            self._settle()
            self._load()

    # -- appending -------------------------------------------------------------------------

    def _append(self, facts: Sequence[Fact]) -> Commit:
        line, total = commit_line(self.position + 1, self.last_sum, facts, sender=self._sender)
        for path in (self.log_path, self.copy_path):
            try:
                append_synced(path, line)
            except OSError as exc:
                if path == self.log_path:
                    _cut_back(path, self.offset)  # nothing of it acknowledged: nothing of it kept
                else:
                    _cut_back(self.log_path, self.offset)
                    _cut_back(path, self.offset)
                raise refusal(exc, path=path) from None
        self.offset += len(line)
        self._since_checkpoint += 1
        return Commit(
            n=self.position + 1, sum=total, facts=tuple(facts), end=self.offset, sender=self._sender
        )

    def _written(self, commit: Commit) -> None:
        if self.offset - self._head.end >= _log.SEAL_BYTES:
            self.seal()
        elif self._since_checkpoint >= CHECKPOINT_EVERY or self._summaries_now_at_hand():
            self.save_checkpoint()

    def seal(self) -> None:
        """Seal the live log's commits into a segment of each copy (under the lock, after a
        commit; :mod:`scorer.league.log`), then start each live file again from its
        continuation. In order: both segments written and synced, the checkpoint at the new
        position, the copy's live file, the log's. A crash at any point leaves each copy whole
        (a live file names only segments already written); a failure leaves what was there."""
        if self.location is None or self.offset <= self._head.end:
            return
        head = self._head
        data = read_bytes(self.log_path) or b""
        if len(data) < self.offset:
            return
        start = head.n + 1 if head.n else 0
        lines = data[head.end : self.offset] if head.n else data[: self.offset]
        line, _ = continuation_line(self.store_id, head.v, self.position, self.last_sum)
        try:
            packed = _log.seal(lines)
            for live in (COPY_NAME, LOG_NAME):
                write_synced(self.location / sealed_name(live, start), packed)
            checkpoint.save(
                self.location,
                store=self.store_id,
                position=self.position,
                sum=self.last_sum,
                start=0,
                offset=len(line),
                state=self.state,
            )
            write_synced(self.copy_path, line)
            write_synced(self.log_path, line)
        except OSError:
            return  # the log as it was is whole: the next open settles the copies if they differ
        self._head = Head(self.store_id, self.last_sum, len(line), self.position, head.v)
        self.offset = len(line)
        self._identity = _identity(self.log_path)
        self._since_checkpoint = 0
        self._summaries_due = False

    def save_checkpoint(self) -> None:
        """Save the state at the log's position (a faster start; never a truth of its own)."""
        if self.location is None:
            return
        start = self._line_start()
        try:
            checkpoint.save(
                self.location,
                store=self.store_id,
                position=self.position,
                sum=self.last_sum,
                start=start,
                offset=self.offset,
                state=self.state,
            )
        except OSError:
            return  # a checkpoint is only a faster start: the log has everything
        self._since_checkpoint = 0
        self._summaries_due = False

    def _line_start(self) -> int:
        """Where the last commit's line starts in the log (read back from its end)."""
        step = 1 << 16
        end = self.offset - 1  # its newline
        at = end
        with self.log_path.open("rb") as handle:
            while at > 0:
                begin = max(at - step, 0)
                handle.seek(begin)
                chunk = handle.read(at - begin)
                cut = chunk.rfind(b"\n")
                if cut >= 0:
                    return begin + cut + 1
                at = begin
        return 0

    def sync_mark(self, key: str) -> dict[str, int] | None:
        with self._mutex:
            return _read_marks(self.location / SYNC_NAME, self.store_id).get(key) if self.location else None

    def save_sync_mark(self, key: str, mark: dict[str, int]) -> None:
        """Save ``mark`` in ``sync.json`` (under the store's lock, written whole or not at all:
        a crash leaves the marks before it, and a sync from them only sends again what the
        other side skips by id)."""
        if self.location is None:
            return
        path = self.location / SYNC_NAME
        with self._mutex, self._locked():
            marks = _read_marks(path, self.store_id)
            marks[key] = dict(mark)
            payload = json.dumps({"store": self.store_id, "marks": marks}, ensure_ascii=False, indent=1)
            try:
                write_synced(path, payload.encode("utf-8") + b"\n")
            except OSError as exc:
                raise refusal(exc, path=path) from None

    def club_server(self) -> ClubServer | None:
        if self.location is None:
            return None
        try:
            data = json.loads((self.location / CLUB_NAME).read_bytes())
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise refusal(exc, path=self.location / CLUB_NAME) from None
        except ValueError:
            return None  # damaged: as none, Settings asks for it again
        return ClubServer.from_json(data)

    def save_club_server(self, server: ClubServer | None) -> None:
        """Keep ``server`` in ``club.json`` (under the store's lock, written whole, readable by
        its owner only: it holds the token), or remove the file."""
        if self.location is None:
            return
        path = self.location / CLUB_NAME
        with self._mutex, self._locked():
            try:
                if server is None:
                    path.unlink(missing_ok=True)
                    _log.fsync_folder(self.location)
                else:
                    payload = json.dumps(server.to_json(), ensure_ascii=False, indent=1) + "\n"
                    write_synced(path, payload.encode("utf-8"), mode=0o600)
            except OSError as exc:
                raise refusal(exc, path=path) from None

    def _held_path(self, subject: str) -> Path | None:
        if self.location is None or not subject or any(c not in _ID_LETTERS for c in subject):
            return None  # an id is a uuid: anything else is never a file name
        return self.location / HELD_NAME / f"{subject}.json"

    def held(self, subject: str) -> list[dict[str, Any]]:
        path = self._held_path(subject)
        if path is None:
            return []
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise refusal(exc, path=path) from None
        except ValueError:
            return []  # damaged: the next sync that meets the conflict keeps them again
        facts = data.get("facts") if isinstance(data, dict) else None
        return [f for f in facts if isinstance(f, dict)] if isinstance(facts, list) else []

    def may_hold(self, subject: str) -> bool:
        """Whether ``held/<subject>.json`` is there (a ``stat``, no lock, nothing decoded)."""
        path = self._held_path(subject)
        return path is not None and path.exists()

    def save_held(self, subject: str, facts: list[dict[str, Any]]) -> None:
        """Keep them in ``held/<subject>.json`` (written whole), or remove it."""
        path = self._held_path(subject)
        if path is None:
            return
        with self._mutex, self._locked():
            try:
                if not facts:
                    path.unlink(missing_ok=True)
                    return
                path.parent.mkdir(exist_ok=True)
                payload = json.dumps({"subject": subject, "facts": facts}, ensure_ascii=False)
                write_synced(path, payload.encode("utf-8") + b"\n")
            except OSError as exc:
                raise refusal(exc, path=path) from None

    def subject_facts(self, subject: str) -> list[Fact]:
        """Those of one game or night: only the lines (one commit each) that name it are
        parsed, from the segments and the live log, each line still checked by its checksum
        (the chain of sums was checked when the store read them)."""
        needle = json.dumps(subject, ensure_ascii=False)[1:-1].encode("utf-8")
        with self._mutex:
            data = read_bytes(self.log_path) or b""
            head = self._header(data, self.log_path)
            if head is None:
                raise DamagedFileError(self.log_path, Message("store.problem_log_head"), None)
            assert self.location is not None
            chunks: list[bytes] = []
            for start, path in sealed_files(self.location, LOG_NAME) if head.n else []:
                if start > head.n:
                    break
                try:
                    chunks.append(unseal(path.read_bytes()))
                except (OSError, ValueError) as exc:
                    raise DamagedFileError(
                        path, Message("store.problem_unreadable", why=str(exc)), None
                    ) from None
            chunks.append(data[head.end :])
            by_commit: dict[int, list[Fact]] = {}
            for chunk in chunks:
                for raw in chunk.splitlines(keepends=True):
                    if needle not in raw:
                        continue
                    line = decode(raw, start=0)
                    found = line.body.get("facts") if line.body is not None else None
                    if not isinstance(found, list) or not 0 < line.n <= self.position:
                        continue
                    # a fact names its game or night as a field of its own (a converted
                    # record as its record's id): only those are read as facts
                    named = [f for f in found if isinstance(f, dict) and subject in _named(f)]
                    by_commit.setdefault(line.n, [fact_from_json(f, version=FACT_VERSION) for f in named])
            return [f for n in sorted(by_commit) for f in by_commit[n] if f.subject == subject]

    def commits_since(self, position: int) -> list[Commit]:
        with self._mutex:
            data = read_bytes(self.log_path) or b""
            head = self._header(data, self.log_path)
            if head is None:
                raise DamagedFileError(self.log_path, Message("store.problem_log_head"), None)
            commits = self._sealed_commits(head) if position < head.n else []
            tail = read_tail(data[head.end :], start=head.end, prev=head.sum, n=head.n, version=FACT_VERSION)
            return [c for c in [*commits, *tail.commits] if position < c.n <= self.position]


def _named(raw: dict[str, Any]) -> tuple[Any, ...]:
    """The game and night a fact's JSON names (:func:`~scorer.league.facts.subject_of` reads
    the same fields, once it is a fact)."""
    record = raw.get("record")
    return (raw.get("game"), raw.get("night"), record.get("id") if isinstance(record, dict) else None)


def sealed_commits(folder: Path, live: str, head: Head) -> list[Commit]:
    """Commits 1 to ``head.n`` from the segments of the live log ``live``, each following the
    one before from the store's first line on; a segment missing, damaged or out of step is
    refused with :class:`DamagedFileError` naming it."""
    return [commit for _, commits in _sealed(folder, live, head) for commit in commits]


def _sealed(folder: Path, live: str, head: Head) -> list[tuple[bytes, list[Commit]]]:
    """The segments that hold commits 1 to ``head.n``, in order: each one's lines and commits."""
    found: list[tuple[bytes, list[Commit]]] = []
    if not head.n:
        return found
    prev, n = "", -1
    for start, path in sealed_files(folder, live):
        if start > head.n:
            break  # written by a seal that did not finish: not yet part of this copy
        if start < n + 1:
            continue  # inside a segment already read: one left by a log replaced, never named
        if start != n + 1:
            break
        try:
            data = unseal(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise DamagedFileError(path, Message("store.problem_unreadable", why=str(exc)), None) from None
        at = 0
        if start == 0:
            first = next(lines_of(data), None)
            found_head = head_of(first) if first is not None else None
            if found_head is None or found_head.store != head.store or found_head.n:
                raise DamagedFileError(path, Message("store.problem_log_head"), None)
            prev, n, at = found_head.sum, 0, found_head.end
        tail = read_tail(data[at:], start=at, prev=prev, n=n, version=FACT_VERSION)
        if tail.rest or not tail.commits or tail.commits[-1].n > head.n:
            raise DamagedFileError(path, Message("store.problem_line_checksum"), None)
        found.append((data, tail.commits))
        prev, n = tail.last_sum, tail.commits[-1].n
    if n != head.n or prev != head.sum:
        missing = folder / sealed_name(live, n + 1)
        raise DamagedFileError(missing, Message("store.problem_missing"), None)
    return found


def whole_log(folder: Path) -> bytes:
    """The log of the store in ``folder`` as one unsealed file would hold it: its segments'
    lines followed by the live log's (a backup holds this). A part missing or damaged is
    refused with :class:`DamagedFileError` naming it."""
    path = folder / LOG_NAME
    data = read_bytes(path)
    if data is None:
        raise DamagedFileError(path, Message("store.problem_missing"), None)
    head = log_header(data, path)
    if head is None:
        raise DamagedFileError(path, Message("store.problem_log_head"), None)
    parts = [lines for lines, _ in _sealed(folder, LOG_NAME, head)]
    return b"".join(parts) + data[head.end :] if parts else data


def log_header(data: bytes | None, path: Path) -> Head | None:
    """What a log's first line says (``data``: the log's bytes from its start; a
    :class:`~scorer.league.log.Head`, whose first three fields are the store id, the sum the
    next commit names and where the line ends); ``None`` when it is not whole. A log of a
    newer version is refused, naming ``path``."""
    if not data:
        return None
    cut = data.find(b"\n")
    line = decode(data[: cut + 1] if cut >= 0 else data, start=0)
    head = head_of(line)
    if head is None:
        return None
    if head.v < 0 or head.v > FACT_VERSION:
        version = line.body.get("v") if line.body is not None else None
        raise NewerStoreError(
            Message("store.newer_version", path=f"'{path}'", version=str(version), most=FACT_VERSION)
        )
    return head


def _read_marks(path: Path, store: str) -> dict[str, dict[str, int]]:
    """The sync marks saved in ``path`` for store ``store``; none when the file is missing,
    damaged or another store's (a backup put in place): a sync then starts from the start."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    marks = data.get("marks") if isinstance(data, dict) and data.get("store") == store else None
    if not isinstance(marks, dict):
        return {}
    return {
        str(key): {str(k): v for k, v in mark.items() if isinstance(v, int) and not isinstance(v, bool)}
        for key, mark in marks.items()
        if isinstance(mark, dict)
    }


def _first_line(path: Path) -> bytes:
    """The file's first line with its newline (all of it if it has none; ``b""`` if it is
    missing), read without reading the rest of the log."""
    found = b""
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 16):
                cut = chunk.find(b"\n")
                if cut >= 0:
                    return found + chunk[: cut + 1]
                found += chunk
    except FileNotFoundError:
        return b""
    return found


def _same_size(first: Path, second: Path) -> bool:
    try:
        return os.stat(first).st_size == os.stat(second).st_size
    except OSError:
        return False


def _same_copies(first: Path, second: Path) -> bool:
    """Whether the two copies of the log are the same (their sizes, then their last bytes)."""
    if not _same_size(first, second):
        return False
    size = os.stat(first).st_size
    start = max(size - (1 << 16), 0)
    return read_bytes(first, start) == read_bytes(second, start)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_ino, found.st_dev)


def _cut_back(path: Path, size: int) -> None:
    """Cut a half-appended commit off again (a full disk): the log ends where it did."""
    try:
        with path.open("r+b") as handle:
            handle.truncate(size)
            os.fsync(handle.fileno())
    except OSError:
        return


__all__ = ["FactError", "FolderLedger", "Ledger", "MemoryLedger"]
