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

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from filelock import FileLock, Timeout

from scorer.league import checkpoint
from scorer.league.errors import StoreBusyError, StoreError
from scorer.league.facts import FACT_VERSION, FactError
from scorer.league.log import COPY_NAME, LOG_NAME, Line, commit_of, decode, lines_of, write_synced
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
    """One copy of the log as read: its whole lines by number, and what is wrong with it."""

    path: Path
    raw: bytes | None
    store: str | None = None
    head: Line | None = None
    lines: dict[int, Line] = field(default_factory=dict)
    problems: list[Message] = field(default_factory=list)
    torn: int = 0  # bytes of a last line cut short
    folder: bool = False
    ended: int = 0  # lines that end with their newline, whole or damaged: each was acknowledged


def _read_copy(path: Path) -> _Copy:
    if path.is_dir():
        return _Copy(path, None, folder=True, problems=[Message("store.problem_folder")])
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return _Copy(path, None, problems=[Message("store.problem_missing")])
    except OSError as exc:
        return _Copy(path, None, problems=[Message("store.problem_unreadable", why=str(exc))])
    copy = _Copy(path, raw)
    if not raw:
        copy.problems.append(Message("store.problem_empty"))
        return copy
    every = list(lines_of(raw))
    copy.ended = sum(1 for line in every if line.raw.endswith(b"\n"))
    for number, line in enumerate(every, start=1):
        last = number == len(every)
        if line.body is None or not line.raw.endswith(b"\n"):  # without its newline: cut short
            if last and not line.raw.endswith(b"\n"):
                copy.torn = len(line.raw)
                copy.problems.append(Message("store.problem_torn"))
            else:
                problem = line.problem or Message("store.problem_line_checksum")
                copy.problems.append(Message("store.problem_line", line=number, problem=problem))
            continue
        if line.n == 0 and copy.head is None:
            copy.head = line
            store = line.body.get("store")
            copy.store = store if isinstance(store, str) else None
            continue
        if line.n in copy.lines:
            copy.problems.append(
                Message("store.problem_line", line=number, problem=Message("store.problem_line_gap"))
            )
            continue
        copy.lines[line.n] = line
    if copy.head is None:
        copy.problems.append(Message("store.problem_log_head"))
    return copy


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
            beyond = any(k > n for c in (a, b) for k in c.lines) or any(c.ended > n for c in (a, b))
            if beyond:
                merged.lost.append(Message("store.lost_commit", number=n))
            return merged
        chosen = chained[0]
        if len(chained) == 2 and chained[1].sum != chosen.sum:
            merged.lost.append(Message("store.copies_disagree", number=n))
            return merged
        merged.lines.append(chosen)
        prev = chosen.sum


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


def _bytes(merged: _Merged) -> bytes:
    assert merged.head is not None
    return merged.head.raw + b"".join(line.raw for line in merged.lines)


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
    a, b = _read_copy(location / LOG_NAME), _read_copy(location / COPY_NAME)
    if a.raw is None and b.raw is None and not a.folder and not b.folder:
        return []  # no store here yet (or one of the earlier layout, converted when opened)
    problems = [Problem(str(c.path), m) for c in (a, b) for m in c.problems]
    merged = _merge(a, b)
    if merged.other_store:
        problems.append(Problem(str(b.path), Message("store.problem_other_store")))
        return problems
    problems += [Problem(str(a.path), m) for m in merged.lost]
    if merged.head is not None and not merged.lost:
        whole = _bytes(merged)
        for copy in (a, b):
            if copy.raw is not None and not copy.problems and copy.raw != whole:
                problems.append(Problem(str(copy.path), Message("store.problem_behind")))
        _, problem = _fold(merged)
        if problem is not None:
            problems.append(Problem(str(a.path), problem))
        elif merged.store is not None:
            problems += _checkpoint_problems(location, merged)
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
    a, b = _read_copy(location / LOG_NAME), _read_copy(location / COPY_NAME)
    if a.raw is None and b.raw is None and not a.folder and not b.folder:
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
    whole = _bytes(merged)
    repairs: list[Repair] = []
    for copy in (a, b):
        if copy.raw == whole:
            continue
        if (
            copy.raw is not None
            and copy.torn
            and copy.raw.startswith(whole)
            and not [p for p in copy.problems if p.code != "store.problem_torn"]
        ):
            write_synced(copy.path, whole)
            repairs.append(Repair(str(copy.path), "dropped", Message("store.repair_torn", bytes=copy.torn)))
            continue
        kept = None
        if copy.folder or (copy.raw is not None and not whole.startswith(copy.raw)):
            kept = _set_aside(copy.path)
        write_synced(copy.path, whole)
        other = b.path.name if copy is a else a.path.name
        if kept is not None:
            said = Message("store.repair_from_copy_kept", other=f"'{other}'", aside=f"'{kept.name}'")
        else:
            said = Message("store.repair_from_copy", other=f"'{other}'")
        repairs.append(Repair(str(copy.path), "rebuilt", said))
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
                start=len(whole) - len(last.raw),
                offset=len(whole),
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
