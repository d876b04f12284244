"""The store's journal: every change, appended and fsynced before it is acknowledged.

The league folder's files (``index.json``, each shard's game list, each game file) are views:
each can be made again from ``journal.jsonl``, and the journal from them. A transaction's
writes are first appended to the journal as one line, then written to the files; a program
killed in between leaves a journal one line ahead of the files, and the next transaction
writes that line's changes again (:meth:`Journal.tail`). A line cut short by a kill is a
change that was never acknowledged: it is dropped, and said so.

A line is one JSON object: ``{"sum": S, "tx": {"seq": N, "prev": P, "at": T, "docs": {...}}}``
where ``S`` is the first 16 hex digits of the SHA-256 of the ``tx`` text exactly as written,
and ``P`` the previous line's sum, so that a damaged, missing or reordered line is noticed.
``docs`` maps each document written to a patch from its previous version (:func:`diff`):
recording a deal writes the deal and the game's new event, not the whole game again.

>>> old = {"game": {"1": {"rev": 1, "deals": [{"a": 1}]}}}
>>> new = {"game": {"1": {"rev": 2, "deals": [{"a": 1}, {"b": 2}]}}}
>>> patch = diff(old, new)
>>> patch
{'d': {'game': {'d': {'1': {'d': {'rev': {'=': 2}, 'deals': {'k': 1, 't': [{'b': 2}]}}}}}}}
>>> apply(old, patch) == new and apply(new, patch) == new
True
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorer.messages import Message

JOURNAL_NAME = "journal.jsonl"

#: The line's fixed start: ``{"sum":"`` + 16 hex digits + ``","tx":``.
_HEAD = b'{"sum":"'
_MID = b'","tx":'
_SUM_LENGTH = 16
_BODY_AT = len(_HEAD) + _SUM_LENGTH + len(_MID)
#: Read backwards in steps of this many bytes to find the last line.
_CHUNK = 1 << 16

Patch = dict[str, Any]


def diff(old: Any, new: Any) -> Patch | None:
    """The patch that makes ``old`` into ``new``, or ``None`` if they are equal.

    A patch sets a value (``{"=": v}``), changes a table's keys (``{"d": {key: patch}, "x":
    [removed keys]}``), or keeps a list's first ``k`` items and sets the rest (``{"k": k, "t":
    [...]}``). Applying a patch to the old value or to the new one gives the new one, so a
    change written twice (after a kill) is the same as once.
    """
    if old == new and type(old) is type(new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {}
        for key, value in new.items():
            if key not in old:
                changed[key] = {"=": value}
            else:
                inner = diff(old[key], value)
                if inner is not None:
                    changed[key] = inner
        removed = [key for key in old if key not in new]
        patch: Patch = {"d": changed}
        if removed:
            patch["x"] = removed
        return patch
    if isinstance(old, list) and isinstance(new, list):
        kept = 0
        for a, b in zip(old, new, strict=False):
            if a != b:
                break
            kept += 1
        if kept:
            return {"k": kept, "t": new[kept:]}
    return {"=": new}


def apply(value: Any, patch: Patch) -> Any:
    """``value`` with ``patch`` applied (a new value; ``value`` is not changed)."""
    if "=" in patch:
        return patch["="]
    if "d" in patch:
        table = dict(value) if isinstance(value, dict) else {}
        for key, inner in patch["d"].items():
            table[key] = apply(table.get(key), inner)
        for key in patch.get("x", ()):
            table.pop(key, None)
        return table
    if "k" in patch:
        items = list(value) if isinstance(value, list) else []
        return [*items[: patch["k"]], *patch["t"]]
    raise ValueError(f"not a journal patch: {sorted(patch)}")


def checksum(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:_SUM_LENGTH]


def encode(tx: Mapping[str, Any]) -> tuple[bytes, str]:
    """One journal line for ``tx`` (newline included) and its sum."""
    body = json.dumps(tx, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    total = checksum(body)
    return _HEAD + total.encode("ascii") + _MID + body + b"}\n", total


def decode(line: bytes) -> tuple[dict[str, Any], str] | None:
    """A line's ``tx`` and sum, or ``None`` when the line is not whole (cut short or damaged)."""
    if not (
        line.startswith(_HEAD) and line.endswith(b"}\n") and line[_BODY_AT - len(_MID) :].startswith(_MID)
    ):
        return None
    total = line[len(_HEAD) : len(_HEAD) + _SUM_LENGTH].decode("ascii", "replace")
    body = line[_BODY_AT:-2]
    if checksum(body) != total:
        return None
    try:
        tx = json.loads(body)
    except ValueError:
        return None
    if not isinstance(tx, dict) or not isinstance(tx.get("docs"), dict):
        return None
    return tx, total


@dataclass(frozen=True, slots=True)
class Entry:
    """One whole journal line: where it ends in the file, its sum and its transaction."""

    end: int
    sum: str
    tx: dict[str, Any]

    @property
    def seq(self) -> int:
        return int(self.tx.get("seq", 0))


@dataclass
class Reading:
    """The journal read from some offset: its whole lines, and what is wrong with the rest."""

    entries: list[Entry] = field(default_factory=list)
    #: Where the last whole line ends: the journal up to here is sound.
    good_end: int = 0
    #: A last line cut short (a change never acknowledged), as ``(offset, length)``.
    torn: tuple[int, int] | None = None
    #: Damage before the last line: ``(line number, problem)``.
    problems: list[tuple[int, Message]] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        return not self.problems


class Journal:
    """The append-only journal file of one league folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / JOURNAL_NAME
        self._last: tuple[int, str, int] | None = None  # (size, sum, seq) after our last append

    def exists(self) -> bool:
        return self.path.exists()

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def append(self, docs: Mapping[str, Patch], *, at: str) -> int:
        """Append one transaction and fsync it; the journal's size after it."""
        size, prev, seq = self._tail_state()
        line, total = encode({"seq": seq + 1, "prev": prev, "at": at, "docs": dict(docs)})
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, line)
            if written != len(line):
                raise OSError(f"short write to {self.path}")
            os.fsync(fd)
        except BaseException:
            # Take back a partial line at once, so the next append starts on a line of its own.
            with suppress(OSError):
                os.ftruncate(fd, size)
            raise
        finally:
            os.close(fd)
        if size == 0:
            fsync_folder(self.path.parent)
        self._last = (size + len(line), total, seq + 1)
        return size + len(line)

    def _tail_state(self) -> tuple[int, str, int]:
        size = self.size()
        if self._last is not None and self._last[0] == size:
            return self._last
        if size == 0:
            return (0, "", 0)
        line = self.last_line(size)
        decoded = decode(line) if line is not None else None
        if decoded is None:
            raise ValueError("the journal's last line is not whole")
        tx, total = decoded
        return (size, total, int(tx.get("seq", 0)))

    def last_line(self, size: int) -> bytes | None:
        """The journal's last line (ending at ``size``), read backwards from the end."""
        with open(self.path, "rb") as handle:
            start = size
            tail = b""
            while start > 0:
                step = min(_CHUNK, start)
                start -= step
                handle.seek(start)
                tail = handle.read(step) + tail
                cut = tail.rfind(b"\n", 0, len(tail) - 1)
                if cut >= 0:
                    return tail[cut + 1 :]
            return tail or None

    def truncate(self, size: int) -> None:
        """Cut the journal back to ``size`` bytes (drop a line a kill cut short)."""
        fd = os.open(self.path, os.O_WRONLY)
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        finally:
            os.close(fd)
        self._last = None

    def read(self, start: int = 0) -> Reading:
        """The journal's whole lines from byte ``start`` (a line boundary), with what is wrong."""
        reading = Reading(good_end=start)
        try:
            with open(self.path, "rb") as handle:
                handle.seek(start)
                lines = list(_lines(handle))
        except FileNotFoundError:
            return reading
        offset, number, prev = start, 0, None
        for index, line in enumerate(lines):
            number += 1
            decoded = decode(line)
            last = index == len(lines) - 1
            if decoded is None:
                if last and cut_short(line):
                    reading.torn = (offset, len(line))
                else:
                    reading.problems.append((number, Message("store.problem_line_checksum")))
                offset += len(line)
                prev = None  # what follows a damaged line cannot be checked against it
                continue
            tx, total = decoded
            if prev is not None and tx.get("prev") != prev:
                reading.problems.append((number, Message("store.problem_line_gap")))
            prev = total
            offset += len(line)
            reading.entries.append(Entry(end=offset, sum=total, tx=tx))
            if not reading.problems and reading.torn is None:
                reading.good_end = offset
        return reading

    def start_from(self, docs: Mapping[str, Any], *, at: str) -> int:
        """Write a new journal that holds ``docs`` (name -> tables), one line each; its size."""
        return self.put_in_place(self.write_start(docs, at=at))

    def write_start(self, docs: Mapping[str, Any], *, at: str) -> Path:
        """The journal :meth:`start_from` writes, written beside this one for :meth:`put_in_place`."""
        txs = [{"at": at, "docs": {name: {"=": data}}} for name, data in docs.items()]
        return self.write_replacement(txs)

    def replace_with(self, txs: Sequence[Mapping[str, Any]]) -> int:
        """Write a new journal holding ``txs`` (crash-safely, over the old one); its size."""
        return self.put_in_place(self.write_replacement(txs))

    def write_replacement(self, txs: Sequence[Mapping[str, Any]]) -> Path:
        """A new journal holding ``txs``, written whole and fsynced beside this one; nothing
        else changes until :meth:`put_in_place` renames it over the journal (a full disk
        stops it here, and the temporary file is gone)."""
        prev, lines = "", []
        for seq, tx in enumerate(txs, start=1):
            line, prev = encode({**tx, "seq": seq, "prev": prev})
            lines.append(line)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(temp, "wb") as handle:
                for line in lines:
                    handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        return temp

    def put_in_place(self, temp: Path) -> int:
        """Rename a journal from :meth:`write_replacement` over this one; its size."""
        os.replace(temp, self.path)
        fsync_folder(self.path.parent)
        self._last = None
        return self.size()


def cut_short(line: bytes) -> bool:
    """Whether a last line that is not whole is what a kill mid-append leaves: the start of a
    line with no newline yet, or the zeros a file system may show after a power cut; anything
    else is damage."""
    if line.endswith(b"\n"):
        return False
    return line.startswith(_HEAD) or _HEAD.startswith(line) or not line.strip(b"\x00")


def _lines(handle: Any) -> Iterator[bytes]:
    while True:
        line = handle.readline()
        if not line:
            return
        yield line


def replay(entries: list[Entry]) -> dict[str, Any]:
    """Every document as the journal's entries leave it (a deleted one is ``None``)."""
    docs: dict[str, Any] = {}
    for entry in entries:
        for name, patch in entry.tx["docs"].items():
            docs[name] = apply(docs.get(name), patch)
    return docs


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
