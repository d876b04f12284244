"""Where the store's files live and how they are written without ever being lost.

The store is a folder of small JSON files, each one a TinyDB database. TinyDB's own
``JSONStorage`` rewrites its file in place, so a process killed mid-write leaves half a file.
Here every write goes to a temporary file in the same folder, which is flushed and fsynced,
then ``os.replace``-d over the old file, and the folder is fsynced: at any instant the file
on disk is either the old whole version or the new whole version.

A transaction (:meth:`Backend.transaction`) holds the folder's file lock (``filelock``) and
stages every write; at its end the staged files are written in the order they were first
written, so the store decides which file a crash may leave ahead of another. A transaction
that raises writes nothing. Every new version is written whole to its temporary file before
the journal line is appended and before any rename, so a full disk stops a transaction with
nothing changed; whatever the operating system refuses is raised as one message naming the
path and what to do (:mod:`scorer.oserrors`).

Each file is fsynced before its rename; each folder once after the transaction's renames
in it, which a journaling file system commits in the order they were made.

Before a file is replaced its previous version is kept as a backup (``NAME.json.1``, the
newest, to ``NAME.json.<BACKUPS>``); keeping one costs a hard link, not a copy. Shard
indexes are not backed up: they hold nothing their game files do not, and restore rebuilds
them. A file that does not read back as JSON is never written over: reading it raises
:class:`~scorer.league.errors.DamagedFileError` naming it and its newest good backup.
"""

from __future__ import annotations

import errno
import json
import os
import threading
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import Storage

from scorer.league.errors import DamagedFileError, StoreBusyError, StoreError
from scorer.league.journal import Journal, apply, diff, fsync_folder
from scorer.messages import Message
from scorer.oserrors import refusal

Data = dict[str, dict[str, Any]]

#: Previous versions kept of every file.
BACKUPS = 3
#: Seconds to wait for another program's transaction before giving up.
LOCK_TIMEOUT = 30.0
#: The environment variable that chooses the data folder.
ENV_VAR = "RUMMY_DB"
LOCK_NAME = ".lock"
INDEX_NAME = "index"
GENERATION_NAME = ".generation"


def default_location() -> Path:
    """``$RUMMY_DB`` if set, else the per-user data folder (``platformdirs``)."""
    chosen = os.environ.get(ENV_VAR, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_data_dir("rummy-scorer", appauthor=False)) / "league"


class Backend:
    """Named JSON documents (``"index"``, ``"games/ab/index"``) with staged, ordered writes.

    Subclasses say how a document is loaded, stored and removed; this class keeps the cache,
    the staging and the transaction.
    """

    def __init__(self) -> None:
        self._cache: dict[str, Data | None] = {}
        self._staged: dict[str, Data | None] = {}
        self._depth = 0
        self._mutex = threading.RLock()

    # -- for subclasses ---------------------------------------------------------------

    def _load(self, name: str) -> Data | None:
        raise NotImplementedError

    def _store(self, name: str, data: Data) -> None:
        raise NotImplementedError

    def _delete(self, name: str) -> None:
        raise NotImplementedError

    def _check(self, name: str) -> None:
        """Raise if ``name`` may not be written now (checked for every file before any is written)."""

    def _written(self) -> None:
        """Called after the staged documents of a transaction have been written."""

    def _log(self, staged: dict[str, Data | None]) -> None:
        """Called once every staged document has been checked, before any is written."""

    def _prepare(self, staged: dict[str, Data | None]) -> None:
        """Called before :meth:`_log`: do what may fail for want of space, before anything changes."""

    def _discard(self) -> None:
        """Called when a transaction's writes failed: undo what :meth:`_prepare` left."""

    @contextmanager
    def _locked(self) -> Iterator[None]:
        yield

    def _begin(self) -> None:
        """Called with the lock held at the start of an outermost transaction."""

    def _end(self, *, wrote: bool) -> None:
        """Called with the lock held after an outermost transaction's writes."""

    def names(self, folder: str) -> list[str]:
        """The documents directly in ``folder`` (``"games"`` -> ``["games/ab", ...]`` folders too)."""
        raise NotImplementedError

    def changes(self) -> str:
        """A token that differs after every transaction that wrote, in any program (cheap: no lock)."""
        raise NotImplementedError

    location: Path | None = None

    # -- documents ----------------------------------------------------------------------

    def read(self, name: str) -> Data | None:
        """The document's tables, or ``None`` if it does not exist. Do not mutate the result."""
        if name in self._staged:
            return self._staged[name]
        if name not in self._cache:
            self._cache[name] = self._load(name)
        return self._cache[name]

    def write(self, name: str, data: Data) -> None:
        """Stage a document; it is written when the transaction ends."""
        self._require_transaction()
        self._staged[name] = data  # a document keeps the place of its first write

    def delete(self, name: str) -> None:
        self._require_transaction()
        self._staged[name] = None

    def database(self, name: str) -> TinyDB:
        """A TinyDB over one document, reading and writing through this transaction."""
        return TinyDB(storage=_StagedStorage, backend=self, name=name)

    def _require_transaction(self) -> None:
        if self._depth == 0:
            raise StoreError(Message("store.internal", text="a store write outside a transaction"))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the lock; write every staged document at the end, or nothing if it raises.

        A failure the operating system reports (a folder that may not be written, a full disk)
        is raised as :class:`~scorer.oserrors.SystemRefusalError` naming the path.
        """
        with self._mutex:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            try:
                with self._outermost():
                    yield
            except OSError as exc:
                raise refusal(exc, path=self.location) from None

    @contextmanager
    def _outermost(self) -> Iterator[None]:
        """The outermost transaction (the mutex held): the lock, the staging and the writes."""
        with self._locked():
            self._begin()
            self._depth = 1
            try:
                yield
            except BaseException:
                self._staged.clear()
                self._cache.clear()  # TinyDB may have changed cached tables in place
                raise
            finally:
                self._depth = 0
            staged, self._staged = self._staged, {}
            done = False
            try:
                for name in staged:
                    self._check(name)
                if staged:
                    self._prepare(staged)
                    self._log(staged)
                for name, data in staged.items():
                    if data is None:
                        self._delete(name)
                        self._cache[name] = None
                    else:
                        self._store(name, data)
                        self._cache[name] = data
                self._written()
                done = True
            except BaseException:
                self._discard()
                self._cache.clear()
                raise
            finally:
                # A write that failed half-way leaves the marker behind the journal: the
                # next transaction (here or in another program) writes the change again.
                self._end(wrote=bool(staged) and done)


class _StagedStorage(Storage):
    """TinyDB's storage interface over one document of a :class:`Backend`."""

    def __init__(self, *, backend: Backend, name: str) -> None:
        self._backend = backend
        self._name = name

    def read(self) -> Data | None:
        # TinyDB changes the tables and rows it reads in place: give it copies, so that the
        # backend's documents stay as they were read or written (they are cached by identity).
        data = self._backend.read(self._name)
        if data is None:
            return None
        return {table: {key: dict(row) for key, row in rows.items()} for table, rows in data.items()}

    def write(self, data: Data) -> None:
        self._backend.write(self._name, data)


class MemoryBackend(Backend):
    """Documents in memory, kept as JSON text so that nothing is shared with a caller."""

    def __init__(self) -> None:
        super().__init__()
        self._texts: dict[str, str] = {}
        self._writes = 0

    def changes(self) -> str:
        return str(self._writes)

    def _end(self, *, wrote: bool) -> None:
        self._writes += wrote

    def _load(self, name: str) -> Data | None:
        text = self._texts.get(name)
        if text is None:
            return None
        data: Data = json.loads(text)
        return data

    def _store(self, name: str, data: Data) -> None:
        self._texts[name] = json.dumps(data, ensure_ascii=False)

    def _delete(self, name: str) -> None:
        self._texts.pop(name, None)

    def names(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        found = {prefix + n[len(prefix) :].split("/")[0] for n in self._texts if n.startswith(prefix)}
        return sorted(found)


class FolderBackend(Backend):
    """Documents as ``NAME.json`` files in a folder, written crash-safely, under a file lock.

    Between transactions another program may have written; the ``.generation`` file, rewritten
    by every transaction that wrote, tells whether the cached documents are still current.
    """

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.location = folder
        self._generation: str | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file by the folder's name
            raise refusal(NotADirectoryError(errno.ENOTDIR, "Not a directory", str(folder))) from None
        except OSError as exc:
            raise refusal(exc, path=folder) from None
        if not folder.is_dir():
            raise StoreError(Message("store.not_a_folder", folder=f"'{folder}'"))
        self._lock = FileLock(str(folder / LOCK_NAME), timeout=LOCK_TIMEOUT)
        self._stats: dict[str, tuple[int, int, int] | None] = {}
        self._touched: set[Path] = set()
        self._temps: dict[str, Path] = {}
        self._generation_fd: int | None = None
        self.journal = Journal(folder)
        self._journal_size = 0
        #: What the store noticed and mended on its own (a change written again after a kill,
        #: an unacknowledged change dropped): said once, by whoever opened the store.
        self.notices: list[Message] = []

    def path(self, name: str) -> Path:
        assert self.location is not None
        return self.location / f"{name}.json"

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self._lock.acquire()
        except Timeout:
            raise StoreBusyError(
                Message("store.busy_for", location=f"'{self.location}'", seconds=f"{LOCK_TIMEOUT:.0f}")
            ) from None
        try:
            yield
        finally:
            self._lock.release()

    def changes(self) -> str:
        try:
            return os.pread(self._generation_handle(), 64, 0).decode("ascii", "replace")
        except OSError:
            return ""

    def _generation_handle(self) -> int:
        """The ``.generation`` file, opened once: a transaction reads it and a write rewrites it."""
        if self._generation_fd is None:
            assert self.location is not None
            self._generation_fd = os.open(self.location / GENERATION_NAME, os.O_RDWR | os.O_CREAT, 0o644)
            weakref.finalize(self, os.close, self._generation_fd)
        return self._generation_fd

    def _begin(self) -> None:
        try:
            current = os.pread(self._generation_handle(), 64, 0).decode("ascii", "replace")
        except OSError:
            current = ""
        if current != self._generation:
            self._cache.clear()
            self._stats.clear()
            self._generation = current
        recorded = marker_size(current)
        size = self.journal.size()
        if recorded == size and (size > 0 or self.journal.exists()):
            self._journal_size = size
            return
        self._catch_up(recorded, size)

    def _catch_up(self, recorded: int | None, size: int) -> None:
        """Bring the files up to the journal: a kill may have come between the two."""
        if not self.journal.exists():
            if recorded:
                raise DamagedFileError(self.journal.path, MISSING, None, rebuildable=True)
            return  # a new store, or one from before the journal: Documents.prepare starts it
        if recorded is not None and recorded > size:
            raise DamagedFileError(
                self.journal.path,
                Message("store.problem_journal_short", bytes=recorded - size),
                None,
                rebuildable=True,
            )
        if recorded is None:  # the marker was lost: only the last change can be unwritten
            line = self.journal.last_line(size) or b""
            start = size - len(line)
        else:
            start = recorded
        reading = self.journal.read(start)
        if reading.problems:
            _, problem = reading.problems[0]
            raise DamagedFileError(self.journal.path, problem, None, rebuildable=True)
        if reading.torn is not None:
            offset, _ = reading.torn
            self.journal.truncate(offset)
            self.notices.append(Message("store.notice_dropped", path=f"'{self.journal.path}'"))
        for entry in reading.entries:
            if recorded is None or entry.end > recorded:
                self._redo(entry.tx)
                self.notices.append(Message("store.notice_redone", at=str(entry.tx.get("at", "?"))))
        self._journal_size = self.journal.size()
        self._cache.clear()
        self._stats.clear()
        self._write_marker()

    def _redo(self, tx: dict[str, Any]) -> None:
        for name, patch in tx["docs"].items():
            path = self.path(name)
            current: Any = None
            with suppress(FileNotFoundError):
                current, _ = parse_document(path.read_bytes())
            data = apply(current, patch)
            if data is None:
                with suppress(FileNotFoundError):
                    path.unlink()
            else:
                text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                write_atomic(path, text.encode("utf-8"), backup=False, sync_folder=False)
            self._touched.add(path.parent)
        self._written()

    def _log(self, staged: dict[str, Data | None]) -> None:
        docs: dict[str, Any] = {}
        for name, data in staged.items():
            old = self._cache[name] if name in self._cache else self._load(name)
            patch = diff(old, data)
            if patch is not None:
                docs[name] = patch
        if docs:
            self._journal_size = self.journal.append(docs, at=_now())

    def start_journal(self) -> None:
        """Begin the journal of a store that has none yet: one line for each of its files.

        Call inside a transaction, after every document has been brought to the current
        version (staged documents are taken as they will be written).
        """
        assert self.location is not None
        names = [INDEX_NAME, *(n for folder in self.names("games") for n in self.names(folder))]
        docs = {name: data for name in names if (data := self.read(name)) is not None}
        # The staged documents are the journal's first lines; the transaction's own line,
        # appended at its end, then changes nothing they do not already say.
        self._journal_size = self.journal.start_from(docs, at=_now())
        for name in list(self._staged):
            self._cache[name] = self._staged[name]

    def _write_marker(self) -> None:
        token = f"{self._journal_size:016x}{uuid.uuid4().hex}"
        try:
            # Only a hint for other programs, read under the lock: no fsync needed. Every
            # marker has the same length, so rewriting it in place leaves no old bytes.
            os.pwrite(self._generation_handle(), token.encode("ascii"), 0)
            self._generation = token
        except OSError:
            self._generation = None

    def _end(self, *, wrote: bool) -> None:
        if wrote:
            self._write_marker()

    def _stat(self, name: str) -> tuple[int, int, int] | None:
        try:
            found = self.path(name).stat()
        except FileNotFoundError:
            return None
        return (found.st_ino, found.st_size, found.st_mtime_ns)

    def _check(self, name: str) -> None:
        """A file changed on disk since it was read (by hand, a sync tool) is never written over."""
        if name not in self._stats or self._stat(name) == self._stats[name]:
            return
        self._cache.clear()
        self._stats.clear()
        path = self.path(name)
        try:
            problem = json_problem(path.read_bytes())
        except FileNotFoundError:
            problem = None
        if problem is not None:
            raise DamagedFileError(path, problem, newest_good_backup(path), rebuildable=is_rebuildable(name))
        raise StoreError(Message("store.changed_meanwhile", path=f"'{path}'"))

    def _load(self, name: str) -> Data | None:
        path = self.path(name)
        self._stats[name] = self._stat(name)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise refusal(exc, path=path) from None
        data, problem = parse_document(raw)
        if problem is not None:
            raise DamagedFileError(path, problem, newest_good_backup(path), rebuildable=is_rebuildable(name))
        return data

    def _prepare(self, staged: dict[str, Data | None]) -> None:
        # Every new version is written whole and fsynced beside its file before the journal
        # says anything: a full disk stops the transaction here, with nothing changed.
        for name, data in staged.items():
            if data is not None:
                text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                self._temps[name] = write_temp(self.path(name), text.encode("utf-8"))

    def _discard(self) -> None:
        for temp in self._temps.values():
            with suppress(OSError):
                temp.unlink()
        self._temps.clear()

    def _store(self, name: str, data: Data) -> None:
        path = self.path(name)
        # A shard index holds nothing its games do not: restore rebuilds it, so no backups.
        put_in_place(self._temps.pop(name), path, backup=not is_rebuildable(name))
        self._touched.add(path.parent)
        self._stats[name] = self._stat(name)

    def _delete(self, name: str) -> None:
        path = self.path(name)
        with suppress(FileNotFoundError):
            _rotate_backups(path)
            path.unlink()
            self._touched.add(path.parent)
        self._stats[name] = None

    def _written(self) -> None:
        # One fsync per folder after its files: the renames were issued in the store's order,
        # and a journaling file system commits them in that order.
        for folder in sorted(self._touched):
            fsync_folder(folder)
        self._touched.clear()

    def sweep(self) -> None:
        """Remove temporary files left by a program killed mid-write (call with the lock held)."""
        assert self.location is not None
        for temp in [*self.location.glob(".*.tmp"), *self.location.glob("*/*/.*.tmp")]:
            with suppress(OSError):
                temp.unlink()

    def names(self, folder: str) -> list[str]:
        assert self.location is not None
        base = self.location / folder
        found = []
        try:
            entries = list(os.scandir(base))  # a listing's file types need no stat per file
        except (FileNotFoundError, NotADirectoryError):
            return []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                found.append(f"{folder}/{entry.name}")
            elif entry.name.endswith(".json"):
                found.append(f"{folder}/{entry.name[: -len('.json')]}")
        return sorted(found)


def _now() -> str:
    """The current time, ISO-8601 in UTC (as :func:`scorer.league.documents.now`)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def marker_size(marker: str) -> int | None:
    """The journal's size that the ``.generation`` marker records (None: no such marker)."""
    head = marker[:16]
    if len(marker) != 48 or any(c not in "0123456789abcdef" for c in head):
        return None
    return int(head, 16)


def write_marker(folder: Path, size: int) -> None:
    """Say that the files of the store in ``folder`` are up to the journal's first ``size`` bytes."""
    (folder / GENERATION_NAME).write_text(f"{size:016x}{uuid.uuid4().hex}", encoding="ascii")


#: Why a file that should be there cannot be used: it is not.
MISSING = Message("store.problem_missing")


def json_problem(raw: bytes) -> Message | None:
    """Why ``raw`` is not a whole store document, or ``None`` if it is one."""
    return parse_document(raw)[1]


def parse_document(raw: bytes) -> tuple[Data | None, Message | None]:
    """A store document read once: its tables, or why it is not a whole store document."""
    if not raw.strip():
        return None, Message("store.problem_empty")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        return None, Message("store.problem_not_text")
    except json.JSONDecodeError as exc:
        if not raw.rstrip().endswith(b"}"):  # every store file is one JSON object
            return None, Message("store.problem_cut_off")
        return None, Message("store.problem_not_json", why=exc.msg, line=exc.lineno, column=exc.colno)
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        return None, Message("store.problem_not_records")
    return data, None


def is_rebuildable(name: str) -> bool:
    """A shard index (``games/XY/index``): rebuilt from its game files, never backed up."""
    return name.startswith("games/") and name.endswith("/index")


def backup_paths(path: Path) -> list[Path]:
    """The backups of ``path``, newest first."""
    return [path.with_name(f"{path.name}.{n}") for n in range(1, BACKUPS + 1)]


def newest_good_backup(path: Path) -> Path | None:
    for backup in backup_paths(path):
        try:
            raw = backup.read_bytes()
        except OSError:
            continue
        if json_problem(raw) is None:
            return backup
    return None


def _rotate_backups(path: Path) -> None:
    """Shift ``NAME.1`` .. ``NAME.<n>`` by one and keep the current file as ``NAME.1``."""
    backups = backup_paths(path)
    for older, newer in zip(reversed(backups[1:]), reversed(backups[:-1]), strict=True):
        with suppress(FileNotFoundError):
            os.replace(newer, older)
    try:
        os.link(path, backups[0])
    except FileExistsError:
        backups[0].unlink()
        os.link(path, backups[0])
    except (OSError, AttributeError):
        # A file system without hard links (Pyodide's os has no link at all): copy the bytes.
        write_atomic(backups[0], path.read_bytes(), backup=False)


def write_atomic(path: Path, payload: bytes, *, backup: bool = True, sync_folder: bool = True) -> None:
    """Write ``payload`` to ``path`` so that a kill at any instant leaves the old or the new file.

    The previous version becomes the newest backup when ``backup`` is true. With
    ``sync_folder`` false the caller fsyncs the folder itself (once for several files).
    """
    put_in_place(write_temp(path, payload), path, backup=backup)
    if sync_folder:
        fsync_folder(path.parent)


def write_temp(path: Path, payload: bytes) -> Path:
    """``payload`` written whole and fsynced to a new temporary file beside ``path``.

    This is the step that needs disk space: when it fails, the temporary file is gone and
    nothing else changed. :func:`put_in_place` then renames it over ``path``.
    """
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    temp = folder / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:  # the folder refused a new file: name the folder, not the temporary
        raise OSError(exc.errno, exc.strerror, str(folder)) from None
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:  # no room for it: name the file that was being written
        with suppress(OSError):
            temp.unlink()
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        with suppress(OSError):
            temp.unlink()
        raise
    return temp


def put_in_place(temp: Path, path: Path, *, backup: bool) -> None:
    """Rename ``temp`` (from :func:`write_temp`) over ``path``, its previous version kept as a
    backup when ``backup`` is true; the caller fsyncs the folder."""
    try:
        if backup and path.exists():
            _rotate_backups(path)
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            temp.unlink()
        raise
