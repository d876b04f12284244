"""The log of facts: the store's one truth, appended and fsynced, kept twice.

A league folder holds its facts (:mod:`scorer.league.facts`) in ``facts.jsonl`` and, byte for
byte the same, ``facts-copy.jsonl``. One line is one commit: the facts of one store method,
acknowledged together. A commit is appended to the first file and synced, then to the copy
and synced; only then does the method return. So every acknowledged commit is in both files,
and deleting or damaging either file loses nothing: the other one has it
(:mod:`scorer.league.recovery` mends the pair).

A line is ``JSON<TAB>SUM<NEWLINE>``: ``SUM`` is the first 16 hex digits of the SHA-256 of the
JSON text as written. The first line (``n`` 0) names the store (``store``: its id, made when
the store was made) and the facts' version; every later line has its number ``n`` (1, 2, ...)
and ``prev``, the sum of the line before it, so that a damaged, missing, reordered line, or a
line of another store's log, is noticed.

**Sealed segments.** When the live log has grown past :data:`SEAL_BYTES`, its commits are
sealed: written, byte for byte as they were, gzip-compressed, into ``facts.NNNNNNNNN.jsonl.gz``
and, the same, ``facts-copy.NNNNNNNNN.jsonl.gz`` (``NNNNNNNNN``: the number of the first line
it holds; the first segment starts with the store's first line, ``n`` 0). Then each live file
is replaced by one line, the continuation (:func:`continuation_line`: ``n`` 0, the store, the
facts' version, ``sealed``: the last commit sealed, and ``prev``: its sum), and the commits
after it follow it as before. The segments a live file's continuation names, followed by the
lines after it, are exactly the log as it was: one truth, kept twice, in a sixth to a
fourteenth of the bytes. A segment holds only whole commits and is never written again.

>>> log = MemoryLog.new("s1")
>>> commit = log.append([])
>>> commit.n, log.read(0)[0][0].n
(1, 1)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NamedTuple

from scorer.league.facts import FACT_VERSION, Fact, FactError, fact_from_json
from scorer.messages import Message

LOG_NAME: Final = "facts.jsonl"
COPY_NAME: Final = "facts-copy.jsonl"
SUM_LENGTH: Final = 16
#: The live log is sealed into a segment once its commits hold this many bytes.
SEAL_BYTES: Final = 1 << 20
#: gzip's level for a segment (written once; level 6 is zlib's default balance).
SEAL_LEVEL: Final = 6
_SEALED: Final = re.compile(r"(facts|facts-copy)\.([0-9]{9})\.jsonl\.gz")


def checksum(body: bytes | memoryview) -> str:
    return hashlib.sha256(body).hexdigest()[:SUM_LENGTH]


def encode(body: dict[str, Any]) -> tuple[bytes, str]:
    """One log line for ``body`` (newline included) and its sum."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    total = checksum(text)
    return text + b"\t" + total.encode("ascii") + b"\n", total


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a log file as read: where it starts and ends, and what it holds.

    ``body`` is ``None`` when the line is not whole (``problem`` says why).
    """

    start: int
    end: int
    body: dict[str, Any] | None
    sum: str
    problem: Message | None = None
    raw: bytes = b""

    @property
    def n(self) -> int:
        return int(self.body.get("n", -1)) if self.body is not None else -1


def decode(raw: bytes, *, start: int) -> Line:
    """A line of a log file (with its newline, if it has one)."""
    end = start + len(raw)
    text = raw[:-1] if raw.endswith(b"\n") else raw
    body_bytes, tab, total = text.rpartition(b"\t")
    if not tab or len(total) != SUM_LENGTH:
        return Line(start, end, None, "", Message("store.problem_torn_line"), raw)
    if checksum(body_bytes) != total.decode("ascii", "replace"):
        return Line(start, end, None, "", Message("store.problem_line_checksum"), raw)
    try:
        body = json.loads(body_bytes)
    except ValueError:
        return Line(start, end, None, "", Message("store.problem_line_checksum"), raw)
    if not isinstance(body, dict) or not isinstance(body.get("n"), int):
        return Line(start, end, None, "", Message("store.problem_line_checksum"), raw)
    return Line(start, end, body, total.decode("ascii"), None, raw)


@dataclass(frozen=True, slots=True)
class Commit:
    """One acknowledged commit: its number, its sum, its facts, where its line ends, and who
    sent it (the name of the club server's token that sent its facts; ``None``: made here)."""

    n: int
    sum: str
    facts: tuple[Fact, ...]
    end: int = 0
    sender: str | None = None


def commit_of(line: Line, *, version: int) -> Commit:
    """The commit a whole line holds (raises :class:`FactError` for a fact this version cannot read)."""
    assert line.body is not None
    raw = line.body.get("facts")
    if not isinstance(raw, list):
        raise FactError(Message("facts.not_a_fact", found="line"))
    facts = tuple(fact_from_json(f, version=version) for f in raw)
    sender = line.body.get("sender")
    return Commit(
        n=line.n, sum=line.sum, facts=facts, end=line.end, sender=sender if isinstance(sender, str) else None
    )


def commit_line(n: int, prev: str, facts: Sequence[Fact], *, sender: str | None = None) -> tuple[bytes, str]:
    """A commit's line; ``sender`` (the token that sent its facts) is written only when there
    is one, so a log written before senders were kept reads the same."""
    body: dict[str, Any] = {"n": n, "prev": prev, "facts": [f.to_json() for f in facts]}
    if sender is not None:
        body["sender"] = sender
    return encode(body)


def header_line(store: str) -> tuple[bytes, str]:
    return encode({"n": 0, "store": store, "v": FACT_VERSION})


def continuation_line(store: str, version: int, sealed: int, prev: str) -> tuple[bytes, str]:
    """A live log's first line once commits 1 to ``sealed`` are in segments (``prev``: the
    last one's sum, which the next commit names)."""
    return encode({"n": 0, "store": store, "v": version, "sealed": sealed, "prev": prev})


class Head(NamedTuple):
    """What a live log's first line says: the store, the sum the next commit names as its
    ``prev``, where the line ends, the commits sealed before it (0: none), the facts' version."""

    store: str
    sum: str
    end: int
    n: int = 0
    v: int = FACT_VERSION


def head_of(line: Line) -> Head | None:
    """The :class:`Head` of a whole first line (``None``: it is not one)."""
    body = line.body
    if body is None or not line.raw.endswith(b"\n") or line.n != 0 or not isinstance(body.get("store"), str):
        return None
    version = body.get("v")
    sealed = body.get("sealed", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        return Head(str(body["store"]), line.sum, line.end, 0, -1)
    if "sealed" not in body:
        return Head(str(body["store"]), line.sum, line.end, 0, version)
    prev = body.get("prev")
    if not isinstance(sealed, int) or isinstance(sealed, bool) or sealed < 1 or not isinstance(prev, str):
        return None
    return Head(str(body["store"]), prev, line.end, sealed, version)


# -- sealed segments --------------------------------------------------------------------


def sealed_name(live: str, start: int) -> str:
    """The file name of the segment of the live log ``live`` whose first line is ``start``."""
    return f"{live.removesuffix('.jsonl')}.{start:09d}.jsonl.gz"


def sealed_files(folder: Path, live: str) -> list[tuple[int, Path]]:
    """The segments of the live log ``live`` in ``folder``, by their first line, in order."""
    stem = live.removesuffix(".jsonl")
    found: list[tuple[int, Path]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        match = _SEALED.fullmatch(entry.name)
        if match is not None and match.group(1) == stem:
            found.append((int(match.group(2)), folder / entry.name))
    return sorted(found)


def seal(data: bytes) -> bytes:
    """A segment's bytes for the log lines ``data`` (the same bytes every time)."""
    return gzip.compress(data, compresslevel=SEAL_LEVEL, mtime=0)


def unseal(data: bytes) -> bytes:
    """The lines a segment holds; raises :class:`ValueError` when it is not a whole gzip file."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise ValueError(str(exc) or "not a whole gzip file") from None


def lines_of(data: bytes, *, start: int = 0) -> Iterator[Line]:
    """Every line of ``data`` (a file's bytes from ``start``), whole or not."""
    at = 0
    while at < len(data):
        cut = data.find(b"\n", at)
        end = len(data) if cut < 0 else cut + 1
        yield decode(data[at:end], start=start + at)
        at = end


@dataclass(slots=True)
class Tail:
    """What a read of a log from an offset found: whole commits in order, and what follows them."""

    commits: list[Commit] = field(default_factory=list)
    end: int = 0  # where the last whole commit read ends
    rest: bytes = b""  # bytes after it that are not (yet) a whole commit
    last_sum: str = ""


def read_tail(data: bytes, *, start: int, prev: str, n: int, version: int) -> Tail:
    """The whole commits of ``data`` (the log's bytes from offset ``start``), each following
    the one before (sum ``prev``, number ``n``); it stops at the first line that does not."""
    tail = Tail(end=start, last_sum=prev)
    for line in lines_of(data, start=start):
        if line.body is None or not line.raw.endswith(b"\n"):
            break  # a line is a commit only with its newline, the last byte its append writes
        if line.n != n + 1 or line.body.get("prev") != tail.last_sum:
            break
        commit = commit_of(line, version=version)
        tail.commits.append(commit)
        tail.end, tail.last_sum, n = line.end, line.sum, line.n
    tail.rest = data[tail.end - start :]
    return tail


class MemoryLog:
    """A log in memory (tests, previews): the same commits, no files."""

    def __init__(self, store: str, lines: list[bytes]) -> None:
        self.store = store
        self.lines = lines

    @classmethod
    def new(cls, store: str) -> MemoryLog:
        line, _ = header_line(store)
        return cls(store, [line])

    def data(self) -> bytes:
        return b"".join(self.lines)

    def size(self) -> int:
        return sum(len(line) for line in self.lines)

    def read(self, start: int) -> tuple[list[Commit], int]:
        data = self.data()
        header = decode(self.lines[0], start=0)
        tail = read_tail(
            data[len(self.lines[0]) :], start=len(self.lines[0]), prev=header.sum, n=0, version=FACT_VERSION
        )
        return [c for c in tail.commits if c.end > start], tail.end

    def append(self, facts: Sequence[Fact], *, sender: str | None = None) -> Commit:
        last = decode(self.lines[-1], start=0)
        line, total = commit_line(last.n + 1, last.sum, facts, sender=sender)
        self.lines.append(line)
        return Commit(n=last.n + 1, sum=total, facts=tuple(facts), end=self.size(), sender=sender)


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def append_synced(path: Path, payload: bytes) -> None:
    """Append ``payload`` to ``path`` and sync it to disk before returning."""
    handle = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        written = 0
        while written < len(payload):
            written += os.write(handle, payload[written:])
        os.fsync(handle)
    finally:
        os.close(handle)


def write_synced(path: Path, payload: bytes, *, mode: int = 0o644) -> None:
    """Write ``path`` whole (a temporary file synced and renamed over it, the folder synced);
    ``mode``: its permissions (``0o600``: readable by its owner only)."""
    temp = path.with_name(f".{path.name}.tmp")
    temp.unlink(missing_ok=True)  # one left by a crash: made anew, so that it takes ``mode``
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            written = 0
            while written < len(payload):
                written += os.write(handle, payload[written:])
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)  # a full disk leaves no half-written temporary file
        raise
    fsync_folder(path.parent)


def read_bytes(path: Path, start: int = 0) -> bytes | None:
    """The file's bytes from ``start`` (``None``: there is no such file)."""
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            return handle.read()
    except FileNotFoundError:
        return None
