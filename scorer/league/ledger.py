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
import os
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from filelock import FileLock, Timeout

from scorer.league import checkpoint
from scorer.league.errors import DamagedFileError, NewerStoreError, StoreBusyError, StoreError
from scorer.league.facts import FACT_VERSION, Fact, FactError
from scorer.league.log import (
    COPY_NAME,
    LOG_NAME,
    Commit,
    MemoryLog,
    append_synced,
    commit_line,
    decode,
    header_line,
    read_bytes,
    read_tail,
    write_synced,
)
from scorer.league.state import State
from scorer.messages import Message
from scorer.oserrors import refusal

#: The environment variable that chooses the data folder.
ENV_VAR: Final = "RUMMY_DB"
#: Seconds to wait for another program's write before giving up.
LOCK_TIMEOUT: Final = 30.0
LOCK_NAME: Final = ".lock"
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

    location: Path | None = None

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

    # -- reading and writing -----------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[State]:
        """The state caught up with every commit (inside a write: the write's own state)."""
        with self._mutex:
            if self._batch is None:
                self._catch_up(locked=False)
            yield self.state

    @contextmanager
    def write(self) -> Iterator[State]:
        """One commit: the facts :meth:`emit` applies inside, appended together at the end."""
        with self._mutex:
            if self._batch is not None:  # a store method calling another: one commit
                yield self.state
                return
            with self._locked():
                self._catch_up(locked=True)
                self._batch = []
                commit = None
                try:
                    with self.state.transaction():
                        yield self.state
                        if self._batch:
                            commit = self._append(self._batch)
                            self._apply_commit(commit)
                finally:
                    self._batch = None
                if commit is not None:
                    self._written(commit)

    def pending(self) -> bool:
        """Whether a write under way has emitted facts not yet committed."""
        return bool(self._batch)

    def emit(self, fact: Fact) -> None:
        """Add ``fact`` to the write under way and apply it to the state at once."""
        if self._batch is None:
            raise StoreError(Message("store.internal", text="a fact emitted outside a write"))
        self.state.apply(fact)
        self._batch.append(fact)

    def _apply_commit(self, commit: Commit) -> None:
        self.position, self.last_sum = commit.n, commit.sum

    def _fold(self, commits: Sequence[Commit]) -> None:
        for commit in commits:
            for fact in commit.facts:
                self.state.apply(fact)
            self.position, self.last_sum = commit.n, commit.sum

    def changes(self) -> str:
        """A token that differs after every commit (the log's position and its last sum)."""
        with self._mutex:
            if self._batch is None:
                self._catch_up(locked=False)
            return f"{self.position}:{self.last_sum}"

    def facts_since(self, position: int) -> list[Fact]:
        raise NotImplementedError


class MemoryLedger(Ledger):
    """A ledger in memory (tests, previews)."""

    def __init__(self) -> None:
        super().__init__()
        self.log = MemoryLog.new(uuid.uuid4().hex)
        header = decode(self.log.lines[0], start=0)
        self.last_sum = header.sum

    def _catch_up(self, *, locked: bool) -> None:
        return

    def _append(self, facts: Sequence[Fact]) -> Commit:
        return self.log.append(facts)

    def facts_since(self, position: int) -> list[Fact]:
        commits, _ = self.log.read(0)
        return [f for c in commits if c.n > position for f in c.facts]


class FolderLedger(Ledger):
    """A ledger in a folder: ``facts.jsonl`` and its copy, a checkpoint, a lock file."""

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
        self.store_id = ""
        self.offset = 0  # where the last commit folded ends in the log
        self._identity: tuple[int, int] | None = None  # the log file's inode and device
        self._since_checkpoint = 0
        self._heal: list[Message] = []  # what the next write mends (found by a read)
        self._loaded = False
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
        """Load the state: from the checkpoint if it is good, then every commit after it."""
        assert self.location is not None
        first, second = read_bytes(self.log_path), read_bytes(self.copy_path)
        if first is None and second is None:
            from scorer.league.convert import convert_if_needed

            convert_if_needed(self)
            first, second = read_bytes(self.log_path), read_bytes(self.copy_path)
            if first is None and second is None:
                self._create()
                first, second = read_bytes(self.log_path), read_bytes(self.copy_path)
        self._load(first, second)

    def _create(self) -> None:
        line, _ = header_line(uuid.uuid4().hex)
        write_synced(self.log_path, line)
        write_synced(self.copy_path, line)

    def _header(self, data: bytes | None, path: Path) -> tuple[str, str, int] | None:
        """The store id, sum and end of a log's first line; ``None`` when it is not whole."""
        if not data:
            return None
        cut = data.find(b"\n")
        line = decode(data[: cut + 1] if cut >= 0 else data, start=0)
        if (
            line.body is None
            or not line.raw.endswith(b"\n")
            or line.n != 0
            or not isinstance(line.body.get("store"), str)
        ):
            return None
        version = line.body.get("v")
        if not isinstance(version, int) or version > FACT_VERSION:
            raise NewerStoreError(
                Message("store.newer_version", path=f"'{path}'", version=str(version), most=FACT_VERSION)
            )
        return str(line.body["store"]), line.sum, line.end

    def _load(self, first: bytes | None, second: bytes | None) -> None:
        head_a = self._header(first, self.log_path)
        head_b = self._header(second, self.copy_path)
        if head_a is None and head_b is None:
            path = self.log_path if first is not None else self.copy_path
            raise DamagedFileError(path, Message("store.problem_log_head"), None)
        if head_a is not None and head_b is not None and head_a[0] != head_b[0]:
            raise DamagedFileError(self.copy_path, Message("store.problem_other_store"), None)
        store_id, head_sum, head_end = head_a or head_b  # type: ignore[misc]
        self.store_id = store_id
        self.state, self.position, self.last_sum, self.offset = State(), 0, head_sum, head_end
        saved = checkpoint.load(self.location, store=store_id) if self.location else None
        if saved is not None and self._checkpoint_fits(saved, first, second):
            self.state = saved.state
            self.position, self.last_sum, self.offset = saved.position, saved.sum, saved.offset
        self._read_tails(first, second)
        self._loaded = True

    def _checkpoint_fits(self, saved: checkpoint.Saved, first: bytes | None, second: bytes | None) -> bool:
        """Whether the commit the checkpoint was saved at is in the log as it says."""
        for data in (first, second):
            if data is None or len(data) < saved.offset:
                continue
            start = data.rfind(b"\n", 0, saved.offset - 1) + 1
            line = decode(data[start : saved.offset], start=start)
            if line.body is not None and line.n == saved.position and line.sum == saved.sum:
                return True
        return False

    def _read_tails(self, first: bytes | None, second: bytes | None) -> None:
        """Fold the commits after :attr:`offset`, from whichever copy has more of them whole."""
        tails = []
        for data in (first, second):
            if data is None or len(data) < self.offset:
                tails.append(None)
                continue
            tails.append(
                read_tail(
                    data[self.offset :],
                    start=self.offset,
                    prev=self.last_sum,
                    n=self.position,
                    version=FACT_VERSION,
                )
            )
        a, b = tails
        present = [t for t in tails if t is not None]
        most = max(len(t.commits) for t in present)
        # of the copies with the most commits, one that ends cleanly or in a line cut short
        best = min((t for t in present if len(t.commits) == most), key=lambda t: b"\n" in t.rest)
        if b"\n" in best.rest:
            # whole lines follow that are not commits, in both copies: damage, not a kill
            # (one cuts the last line short): only restore may decide what is lost
            line = (first if best is a else second or b"")[: best.end].count(b"\n") + 1
            problem = Message("store.problem_line", line=line, problem=Message("store.problem_line_checksum"))
            raise DamagedFileError(self.log_path if best is a else self.copy_path, problem, None)
        for tail, other in ((a, b), (b, a)):
            if tail is None or other is None:
                continue
            common = min(len(tail.commits), len(other.commits))
            if any(
                x.sum != y.sum for x, y in zip(tail.commits[:common], other.commits[:common], strict=True)
            ):
                raise DamagedFileError(self.copy_path, Message("store.problem_copies_differ"), None)
        self._fold(best.commits)
        self.offset = best.end
        self._plan_heal(first, second, a, b, best)
        self._identity = _identity(self.log_path)
        self._since_checkpoint += len(best.commits)

    def _plan_heal(
        self, first: bytes | None, second: bytes | None, a: object, b: object, best: object
    ) -> None:
        """Say what the next write mends: a copy missing or behind, a line cut short."""
        self._heal = []
        for data, tail, path in ((first, a, self.log_path), (second, b, self.copy_path)):
            if data is None:
                self._heal.append(Message("store.heal_missing", path=f"'{path.name}'"))
            elif tail is None or tail is not best and len(tail.commits) < len(best.commits):  # type: ignore[attr-defined]
                self._heal.append(Message("store.heal_behind", path=f"'{path.name}'"))
            elif tail.rest:  # type: ignore[attr-defined]
                self._heal.append(Message("store.heal_torn", path=f"'{path.name}'", bytes=len(tail.rest)))  # type: ignore[attr-defined]

    # -- catching up -----------------------------------------------------------------------

    def _catch_up(self, *, locked: bool) -> None:
        try:
            size = os.stat(self.log_path).st_size
        except OSError:
            size = -1
        if self._identity != _identity(self.log_path) or size < self.offset:
            # the log was replaced (a restore, a backup put back) or is gone: load it again
            self._reload(locked=locked)
        elif size > self.offset:
            data = read_bytes(self.log_path, self.offset) or b""
            tail = read_tail(
                data, start=self.offset, prev=self.last_sum, n=self.position, version=FACT_VERSION
            )
            self._fold(tail.commits)
            self.offset = tail.end
            self._since_checkpoint += len(tail.commits)
            if tail.rest and locked:
                self._reload(locked=True)
        if locked and self._heal:
            self._mend()

    def _reload(self, *, locked: bool) -> None:
        first, second = read_bytes(self.log_path), read_bytes(self.copy_path)
        if first is None and second is None:
            if not locked:
                return
            raise DamagedFileError(self.log_path, Message("store.problem_missing"), None)
        self._load(first, second)

    def _mend(self) -> None:
        """Write both copies as the commits folded have them (under the lock)."""
        first = read_bytes(self.log_path)
        second = read_bytes(self.copy_path)
        good = None
        for data in (first, second):
            if data is not None and len(data) >= self.offset:
                start = data.rfind(b"\n", 0, self.offset - 1) + 1
                line = decode(data[start : self.offset], start=start)
                if (line.body is not None and line.sum == self.last_sum) or self.offset == 0:
                    good = data[: self.offset]
                    break
        if good is None:
            return
        for data, path in ((first, self.log_path), (second, self.copy_path)):
            if data != good:
                if data is not None and not good.startswith(data) and not data.startswith(good):
                    aside = path.with_name(path.name + ".damaged")
                    write_synced(aside, data)
                write_synced(path, good)
        self.notices.extend(self._heal)
        self._heal = []
        self._identity = _identity(self.log_path)

    # -- appending -------------------------------------------------------------------------

    def _append(self, facts: Sequence[Fact]) -> Commit:
        line, total = commit_line(self.position + 1, self.last_sum, facts)
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
        return Commit(n=self.position + 1, sum=total, facts=tuple(facts), end=self.offset)

    def _written(self, commit: Commit) -> None:
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            self.save_checkpoint()

    def save_checkpoint(self) -> None:
        """Save the state at the log's position (a faster start; never a truth of its own)."""
        if self.location is None:
            return
        try:
            checkpoint.save(
                self.location,
                store=self.store_id,
                position=self.position,
                sum=self.last_sum,
                offset=self.offset,
                state=self.state,
            )
        except OSError:
            return  # a checkpoint is only a faster start: the log has everything
        self._since_checkpoint = 0

    def facts_since(self, position: int) -> list[Fact]:
        with self._mutex:
            data = read_bytes(self.log_path) or b""
            head = self._header(data, self.log_path)
            if head is None:
                raise DamagedFileError(self.log_path, Message("store.problem_log_head"), None)
            tail = read_tail(data[head[2] :], start=head[2], prev=head[1], n=0, version=FACT_VERSION)
            return [f for c in tail.commits if c.n > position for f in c.facts]


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
