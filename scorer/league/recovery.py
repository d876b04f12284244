"""Checking and mending a store folder: its log's two copies, and the checkpoint.

The store's one recovery story (README, "the promise"): the log of facts is kept twice,
``facts.jsonl`` and ``facts-copy.jsonl`` (:mod:`scorer.league.log`), and every acknowledged
commit is in both. So deleting or damaging any one file loses nothing acknowledged:

- :func:`verify` reads both copies line by line (each line's checksum, each following the one
  before, every fact readable and folded) and the checkpoint, and names every file that is
  missing, damaged, behind the other copy, or of another store. It writes nothing.
- :func:`restore` takes, commit by commit, the copy that has it whole, writes both copies from
  that, keeps what it replaced beside it (``NAME.damaged``), and makes the checkpoint again. A
  last line cut short in both copies was a commit never acknowledged: it is dropped, and said.
  What could not come back (a commit damaged in both copies, two copies of two stores) is said
  as ``lost``, and the files are left as they were.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from filelock import FileLock, Timeout

from scorer.league import checkpoint
from scorer.league.errors import StoreBusyError, StoreError
from scorer.league.facts import FACT_VERSION, FactError
from scorer.league.log import (
    COPY_NAME,
    LOG_NAME,
    Head,
    Line,
    commit_of,
    continuation_line,
    decode,
    head_of,
    lines_of,
    seal,
    sealed_files,
    sealed_name,
    unseal,
    write_synced,
)
from scorer.league.state import State
from scorer.messages import Message


@dataclass(frozen=True, slots=True)
class Problem:
    """One file that is not as it should be (``path`` is the file's full path)."""

    path: str
    message: Message

    @property
    def problem(self) -> str:
        """What is wrong, in English (``message`` is the same as a value)."""
        return str(self.message)

    def to_dict(self) -> dict[str, Any]:
        said = self.message.to_json()
        return {"path": self.path, "problem": self.problem, "code": said["code"], "params": said["params"]}


@dataclass(frozen=True, slots=True)
class Repair:
    """What was done to one file."""

    path: str
    action: str  # "rebuilt" | "dropped" | "set aside" | "restored" | "lost"
    message: Message

    @property
    def detail(self) -> str:
        """What was wrong and what was done, in English (``message`` is the same as a value)."""
        return str(self.message)


@dataclass(slots=True)
class _Copy:
    """One copy of the log as read (its segments and its live file): its whole lines by
    number, and what is wrong with each of its files."""

    path: Path  # the live file
    raw: bytes | None
    store: str | None = None
    head: Line | None = None  # the store's first line (``n`` 0, in the first segment once sealed)
    cont: Head | None = None  # the live file's continuation, once commits are sealed
    lines: dict[int, Line] = field(default_factory=dict)
    problems: list[tuple[Path, Message]] = field(default_factory=list)
    torn: int = 0  # bytes of a last line cut short
    folder: bool = False
    ended: int = 0  # lines that end with their newline, whole or damaged: each was acknowledged
    ends: dict[int, int] = field(default_factory=dict)  # where each whole line of the live file ends
    segments: dict[int, tuple[Path, bytes | None]] = field(default_factory=dict)  # by first line

    @property
    def sealed(self) -> int:
        return self.cont.n if self.cont is not None else 0

    def problem(self, message: Message, path: Path | None = None) -> None:
        self.problems.append((path or self.path, message))

    def said(self, path: Path) -> bool:
        return any(where == path for where, _ in self.problems)


_GAP: Final = Message("store.problem_line_gap")


def _read_copy(path: Path) -> _Copy:
    """The live file of one copy (its segments are read by :func:`_read_segments`)."""
    if path.is_dir():
        return _Copy(path, None, folder=True, problems=[(path, Message("store.problem_folder"))])
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return _Copy(path, None, problems=[(path, Message("store.problem_missing"))])
    except OSError as exc:
        return _Copy(path, None, problems=[(path, Message("store.problem_unreadable", why=str(exc)))])
    copy = _Copy(path, raw)
    if not raw:
        copy.problem(Message("store.problem_empty"))
        return copy
    every = list(lines_of(raw))
    copy.ended = sum(1 for line in every if line.raw.endswith(b"\n"))
    for number, line in enumerate(every, start=1):
        last = number == len(every)
        if line.body is None or not line.raw.endswith(b"\n"):  # without its newline: cut short
            if last and not line.raw.endswith(b"\n"):
                copy.torn = len(line.raw)
                copy.problem(Message("store.problem_torn"))
            else:
                problem = line.problem or Message("store.problem_line_checksum")
                copy.problem(Message("store.problem_line", line=number, problem=problem))
            continue
        if number == 1 and line.n == 0:
            head = head_of(line)
            if head is not None and head.n:
                copy.cont, copy.store = head, head.store
                copy.ended += head.n  # the file's line j holds commit n + j - 1
            elif head is not None:
                copy.head, copy.store = line, head.store
            if head is not None:
                copy.ends[head.n] = line.end
            continue
        if line.n in copy.lines or line.n <= copy.sealed:
            copy.problem(
                Message("store.problem_line", line=number, problem=Message("store.problem_line_gap"))
            )
            continue
        copy.lines[line.n] = line
        copy.ends[line.n] = line.end
    if copy.head is None and copy.cont is None:
        copy.problem(Message("store.problem_log_head"))
    return copy


def _read_segments(copy: _Copy, location: Path, sealed: int) -> None:
    """Add to ``copy`` the lines of its segments up to commit ``sealed`` (its live file's
    continuation says how far, or else the other copy's), each file's problems said."""
    if not sealed:
        return
    covered = -1  # the last line a segment read holds
    for start, path in sealed_files(location, copy.path.name):
        if start > sealed:
            break  # written by a seal that did not finish: not yet part of this copy
        if start <= covered:
            continue  # inside a segment already read: one left by a log replaced, never named
        try:
            data: bytes | None = unseal(path.read_bytes())
        except (OSError, ValueError) as exc:
            copy.segments[start] = (path, None)
            copy.problem(Message("store.problem_unreadable", why=str(exc)), path)
            continue
        assert data is not None
        copy.segments[start] = (path, data)
        for number, line in enumerate(lines_of(data), start=1):
            if line.body is None or not line.raw.endswith(b"\n"):
                problem = line.problem or Message("store.problem_line_checksum")
                copy.problem(Message("store.problem_line", line=number, problem=problem), path)
                continue
            if line.n == 0 and start == 0 and number == 1:
                head = head_of(line)
                if head is not None and not head.n and copy.head is None:
                    copy.head = line
                    copy.store = copy.store or head.store
                continue
            covered = max(covered, line.n)
            if line.n in copy.lines and copy.lines[line.n].sum == line.sum:
                continue
            if line.n in copy.lines or not start <= line.n <= sealed:
                copy.problem(
                    Message("store.problem_line", line=number, problem=Message("store.problem_line_gap")),
                    path,
                )
                continue
            copy.lines[line.n] = line
    if copy.head is None and not copy.said(copy.path) and copy.cont is not None:
        first = location / sealed_name(copy.path.name, 0)
        if not copy.said(first):
            copy.problem(Message("store.problem_missing"), first)


@dataclass(slots=True)
class _Merged:
    """The log as both copies together have it."""

    store: str | None
    head: Line | None
    lines: list[Line] = field(default_factory=list)
    lost: list[Message] = field(default_factory=list)
    other_store: bool = False


def _merge(a: _Copy, b: _Copy) -> _Merged:
    """Commit by commit, the line that follows the one before, from whichever copy has it whole."""
    if a.store is not None and b.store is not None and a.store != b.store:
        return _Merged(a.store, a.head, other_store=True)
    head = a.head or b.head
    merged = _Merged(a.store or b.store, head)
    if head is None:
        return merged
    prev, n = head.sum, 0
    while True:
        n += 1
        candidates = [c.lines[n] for c in (a, b) if n in c.lines and c.lines[n].body is not None]
        chained = [line for line in candidates if line.body is not None and line.body.get("prev") == prev]
        if not chained:
            # Lost: a later commit either copy holds, or a line in commit n's place (or after
            # it) that ends with its newline but is damaged in both: an acknowledged commit,
            # never a change cut short (the log's first line is line 1, commit n line n + 1).
            beyond = any(k > n for c in (a, b) for k in c.lines) or any(_in_place(c, n) for c in (a, b))
            if beyond:
                merged.lost.append(Message("store.lost_commit", number=n))
            return merged
        chosen = chained[0]
        if len(chained) == 2 and chained[1].sum != chosen.sum:
            merged.lost.append(Message("store.copies_disagree", number=n))
            return merged
        merged.lines.append(chosen)
        prev = chosen.sum


def _in_place(copy: _Copy, n: int) -> bool:
    """Whether ``copy`` has, damaged, a line in commit ``n``'s place that ends with its newline
    (so commit ``n`` was acknowledged): after its line of commit ``n - 1`` when its live file
    has that line whole, else by count (the log's first line is line 1, commit n line n + 1).
    A newline that a damage put inside lines already known is not one."""
    end = copy.ends.get(n - 1)
    if end is not None and copy.raw is not None:
        return b"\n" in copy.raw[end:]
    return copy.ended > n


def _fold(merged: _Merged) -> tuple[State, Message | None]:
    state = State()
    for line in merged.lines:
        try:
            for fact in commit_of(line, version=FACT_VERSION).facts:
                state.apply(fact)
        except (FactError, StoreError, ValueError, KeyError) as exc:
            problem = getattr(exc, "message", None) or Message("store.os_said", text=str(exc))
            return state, Message("store.problem_commit", number=line.n, problem=problem)
    return state, None


def _read_both(location: Path) -> tuple[_Copy, _Copy]:
    """Both copies, each with its segments (as far as its own continuation says, or else the
    other's: a live file damaged or missing still has its segments read)."""
    a, b = _read_copy(location / LOG_NAME), _read_copy(location / COPY_NAME)
    for copy, other in ((a, b), (b, a)):
        _read_segments(copy, location, copy.sealed if copy.cont is not None else other.sealed)
    return a, b


def _any_sealed(location: Path) -> bool:
    return any(sealed_files(location, live) for live in (LOG_NAME, COPY_NAME))


@dataclass(frozen=True, slots=True)
class _Layout:
    """What each file of a copy holds when the store is whole: its segments, then its live file."""

    sealed: int  # the last commit in a segment (0: none)
    starts: tuple[int, ...]  # each segment's first line
    segments: tuple[bytes, ...]  # each segment's lines
    live: bytes
    start: int  # where the last commit's line starts in the live file
    # (the continuation's end, once it is sealed: ``start`` 0 and ``offset`` len(live))


def _layout(merged: _Merged, a: _Copy, b: _Copy) -> _Layout:
    """The copies' files as the merged log gives them: sealed as far as either copy's live
    file says (a seal that finished in one copy finishes in both), in the segments the copies
    hold."""
    assert merged.head is not None
    line_of = {0: merged.head, **{line.n: line for line in merged.lines}}
    last = merged.lines[-1].n if merged.lines else 0
    sealed = min(max(a.sealed, b.sealed), last)
    raw = merged.head.raw + b"".join(line.raw for line in merged.lines)
    if not sealed:
        start = len(raw) - len(line_of[last].raw) if last else 0
        return _Layout(0, (), (), raw, start)
    starts = sorted({0} | {s for c in (a, b) for s in c.segments if s <= sealed})
    segments = tuple(
        b"".join(line_of[n].raw for n in range(first, end))
        for first, end in zip(starts, [*starts[1:], sealed + 1], strict=True)
    )
    found = head_of(merged.head)
    version = found.v if found is not None and found.v >= 0 else FACT_VERSION
    cont, _ = continuation_line(str(merged.store), version, sealed, line_of[sealed].sum)
    live = cont + b"".join(line_of[n].raw for n in range(sealed + 1, last + 1))
    start = len(live) - len(line_of[last].raw) if last > sealed else 0
    return _Layout(sealed, tuple(starts), segments, live, start)


def _files(layout: _Layout, copy: _Copy, location: Path) -> list[tuple[Path, bytes, bytes | None]]:
    """Each file of ``copy`` as the layout has it and as it is: (path, should hold, holds)."""
    found: list[tuple[Path, bytes, bytes | None]] = []
    for first, lines in zip(layout.starts, layout.segments, strict=True):
        path = location / sealed_name(copy.path.name, first)
        held = copy.segments.get(first)
        if held is None and path.is_file():  # not read: past a segment damaged before it
            try:
                held = (path, unseal(path.read_bytes()))
            except (OSError, ValueError):
                held = (path, None)
        found.append((path, lines, held[1] if held is not None else None))
    found.append((copy.path, layout.live, copy.raw))
    return found


def _only_known(held: bytes, merged: _Merged) -> bool:
    """Whether every line ``held`` has is whole and one of the merged log's (nothing that the
    file holds would be lost by writing it again)."""
    known = {line.n: line.sum for line in merged.lines}
    for line in lines_of(held):
        if line.body is None or not line.raw.endswith(b"\n"):
            return False
        if line.n == 0:
            continue
        if known.get(line.n) != line.sum:
            return False
    return True


def _locked(location: Path) -> FileLock:
    from scorer.league.ledger import LOCK_NAME, LOCK_TIMEOUT

    lock = FileLock(str(location / LOCK_NAME), timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except Timeout:
        raise StoreBusyError(Message("store.busy", location=f"'{location}'")) from None
    return lock


def _require_store(location: Path) -> None:
    if not location.is_dir():
        raise StoreError(Message("store.no_store_here", folder=f"'{location}'"))


#: The problems :func:`restore` cannot mend (it says them as ``lost`` and changes nothing).
LOST: Final = frozenset({"store.lost_commit", "store.copies_disagree", "store.problem_other_store"})


def verify(location: Path) -> list[Problem]:
    """Every file of the store that is missing, damaged, behind the other copy, or not this store's."""
    _require_store(location)
    lock = _locked(location)
    try:
        return _verify(location)
    finally:
        lock.release()


def _verify(location: Path) -> list[Problem]:
    a, b = _read_both(location)
    if a.raw is None and b.raw is None and not a.folder and not b.folder and not _any_sealed(location):
        return []  # no store here yet (or one of the earlier layout, converted when opened)
    problems = [Problem(str(path), m) for c in (a, b) for path, m in c.problems]
    merged = _merge(a, b)
    if merged.other_store:
        problems.append(Problem(str(b.path), Message("store.problem_other_store")))
        return problems
    problems += [Problem(str(a.path), m) for m in merged.lost]
    if merged.head is not None and not merged.lost:
        layout = _layout(merged, a, b)
        for copy in (a, b):
            if copy.folder:
                continue
            for path, should, held in _files(layout, copy, location):
                if copy.said(path):
                    continue
                if held is None:
                    problems.append(Problem(str(path), Message("store.problem_missing")))
                elif held != should:
                    unsealed = path == copy.path and _only_known(held, merged)
                    code = (
                        "store.problem_unsealed"
                        if unsealed and copy.sealed < layout.sealed
                        else "store.problem_behind"
                    )
                    problems.append(Problem(str(path), Message(code)))
        _, problem = _fold(merged)
        if problem is not None:
            problems.append(Problem(str(a.path), problem))
        elif merged.store is not None:
            problems += _checkpoint_problems(location, merged)
    return problems + _side_problems(location)


#: The problems of the files kept beside the log, which ``restore`` does not make (each
#: message says what to do instead).
SIDE: Final = frozenset({"store.problem_tokens", "store.problem_codes_key", "store.problem_club"})


def _side_problems(location: Path) -> list[Problem]:
    """The files kept beside the log that are there and cannot be read: the access tokens
    (``tokens.json``), the night codes' secret (``codes.key``), the club server this store
    syncs with (``club.json``). None of them is a fact: a damaged one loses no game, but the
    store treats it as missing (no token is accepted, the codes change, no sync) until it is
    mended, so it is named."""
    from contextlib import nullcontext

    from scorer.league.club_server import CLUB_NAME, ClubServer
    from scorer.league.token_book import FolderTokens

    book = FolderTokens(location, locked=nullcontext)
    codes = {book.path: "store.problem_tokens", book.key_path: "store.problem_codes_key"}
    problems = [Problem(str(path), Message(codes[path], why=why)) for path, why in book.damage()]
    path = location / CLUB_NAME
    why = None
    try:
        if ClubServer.from_json(json.loads(path.read_bytes())) is None:
            why = "not a club server's address, token and league"
    except FileNotFoundError:
        pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
    except ValueError as exc:
        why = str(exc)
    if why is not None:
        problems.append(Problem(str(path), Message("store.problem_club", why=why)))
    return problems


def _checkpoint_problems(location: Path, merged: _Merged) -> list[Problem]:
    path = location / checkpoint.CHECKPOINT_NAME
    if not path.exists():
        return []
    assert merged.store is not None
    saved = checkpoint.load(location, store=merged.store)
    if saved is None or (
        not any(line.n == saved.position and line.sum == saved.sum for line in merged.lines)
        and not (saved.position == 0 and merged.head is not None and saved.sum == merged.head.sum)
    ):
        return [Problem(str(path), Message("store.problem_checkpoint"))]
    return []


def restore(location: Path, *, locked: bool = False) -> list[Repair]:
    """Mend the store's files (see the module); what was done, file by file.

    ``locked``: the caller holds the store's lock already (the store settling its copies
    when it opens).
    """
    _require_store(location)
    if locked:
        return _restore(location)
    lock = _locked(location)
    try:
        return _restore(location)
    finally:
        lock.release()


def _set_aside(path: Path) -> Path:
    aside = path.with_name(path.name + ".damaged")
    n = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.damaged.{n}")
        n += 1
    os.replace(path, aside)
    return aside


def _restore(location: Path) -> list[Repair]:
    a, b = _read_both(location)
    if a.raw is None and b.raw is None and not a.folder and not b.folder:
        if _any_sealed(location):
            return [Repair(str(a.path), "lost", Message("store.repair_no_head"))]
        return []
    merged = _merge(a, b)
    if merged.other_store:
        return [Repair(str(b.path), "lost", Message("store.repair_other_store", first=f"'{a.path.name}'"))]
    if merged.head is None:
        return [Repair(str(a.path), "lost", Message("store.repair_no_head"))]
    if merged.lost:
        return [Repair(str(a.path), "lost", m) for m in merged.lost]
    state, problem = _fold(merged)
    if problem is not None:
        return [Repair(str(a.path), "lost", problem)]
    layout = _layout(merged, a, b)
    repairs: list[Repair] = []
    for copy in (a, b):  # the log first, then its copy: segments before the live file naming them
        other = b.path.name if copy is a else a.path.name
        for path, should, held in _files(layout, copy, location):
            if held == should:
                continue
            live = path == copy.path
            if (
                live
                and held is not None
                and copy.torn
                and held.startswith(should)
                and not [m for where, m in copy.problems if where == path and m.code != "store.problem_torn"]
            ):
                write_synced(path, should)
                repairs.append(Repair(str(path), "dropped", Message("store.repair_torn", bytes=copy.torn)))
                continue
            kept = None
            if (live and copy.folder) or (path.exists() and (held is None or not _only_known(held, merged))):
                kept = _set_aside(path)
            write_synced(path, should if live else seal(should))
            if kept is not None:
                said = Message("store.repair_from_copy_kept", other=f"'{other}'", aside=f"'{kept.name}'")
            else:
                said = Message("store.repair_from_copy", other=f"'{other}'")
            repairs.append(Repair(str(path), "rebuilt", said))
    if merged.store is not None:
        stale = _checkpoint_problems(location, merged)
        if stale or repairs:
            saved_at = location / checkpoint.CHECKPOINT_NAME
            if saved_at.is_dir() and not saved_at.is_symlink():  # a folder where it should be
                _set_aside(saved_at)
            last = merged.lines[-1] if merged.lines else merged.head
            checkpoint.save(
                location,
                store=merged.store,
                position=last.n,
                sum=last.sum,
                start=layout.start,
                offset=len(layout.live),
                state=state,
            )
        if stale:
            repairs.append(
                Repair(
                    str(location / checkpoint.CHECKPOINT_NAME), "rebuilt", Message("store.repair_checkpoint")
                )
            )
    return repairs


__all__ = ["Problem", "Repair", "decode", "restore", "verify"]
