"""Checking a store folder against its journal, and making again what is damaged or missing.

``rummy league verify`` (:func:`verify`) reads the journal (:mod:`scorer.league.journal`)
and every file of the store, and lists each file that is missing, damaged, different from
what the journal says, or unknown to it, and any damage to the journal itself.

``rummy league restore`` (:func:`restore`) mends what verify finds:

- a whole journal is the truth: each file it disagrees with is set aside (``NAME.json.damaged``)
  and written again from the journal, so nothing acknowledged is lost to a damaged file;
- a last journal line cut short by a crash is a change that was never acknowledged: dropped;
- a damaged or missing journal is made again from the store's files when they are whole
  (the damaged one is set aside as ``journal.jsonl.damaged``);
- when the journal and a file are both damaged, the file comes back from its newest good
  backup (:mod:`scorer.league.repair`), and what could not come back is said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from scorer.league.documents import INDEX, now
from scorer.league.errors import StoreBusyError, StoreError
from scorer.league.journal import JOURNAL_NAME, Journal, Reading, replay
from scorer.league.repair import Repair, restore_from_backups, set_aside
from scorer.league.storage import (
    LOCK_NAME,
    LOCK_TIMEOUT,
    MISSING,
    parse_document,
    write_atomic,
    write_marker,
)
from scorer.messages import Message, Param, join
from scorer.oserrors import os_reason


@dataclass(frozen=True, slots=True)
class Problem:
    """One file that is not as the journal says (``path`` is the file's full path)."""

    path: str
    message: Message

    @property
    def problem(self) -> str:
        """What is wrong, in English (``message`` is the same as a value)."""
        return str(self.message)

    def to_dict(self) -> dict[str, Any]:
        said = self.message.to_json()
        return {"path": self.path, "problem": self.problem, "code": said["code"], "params": said["params"]}


def _name(location: Path, path: Path) -> str:
    """A store file's document name: ``games/ab/<id>.json`` -> ``games/ab/<id>``."""
    return path.relative_to(location).with_suffix("").as_posix()


def _files(location: Path) -> dict[str, Path]:
    """Every document file of the store (not backups, not set-aside copies), by name."""
    found = {}
    index = location / f"{INDEX}.json"
    if index.exists():
        found[INDEX] = index
    games = location / "games"
    if games.is_dir():
        for path in games.glob("*/*.json"):
            if not path.name.startswith("."):
                found[_name(location, path)] = path
    return found


def _read(path: Path) -> tuple[Any, Message | None]:
    """A file's data, or why it cannot be read."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, MISSING
    except IsADirectoryError:
        return None, Message("store.problem_folder")
    except OSError as exc:
        return None, Message("store.problem_unreadable", why=os_reason(exc))
    return parse_document(raw)


def _journal_problems(journal: Journal, reading: Reading) -> list[Problem]:
    where = str(journal.path)
    if not journal.exists():
        return [Problem(where, MISSING)]
    problems = [
        Problem(where, Message("store.problem_line", line=line, problem=problem))
        for line, problem in reading.problems
    ]
    if reading.torn is not None:
        problems.append(Problem(where, Message("store.problem_torn")))
    return problems


def _require_store(location: Path) -> None:
    markers = [location / f"{INDEX}.json", location / JOURNAL_NAME, location / "games"]
    if not any(m.exists() for m in markers):
        raise StoreError(Message("store.no_store", location=f"'{location}'"))


def _locked(location: Path) -> FileLock:
    lock = FileLock(str(location / LOCK_NAME), timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except Timeout:
        raise StoreBusyError(Message("store.busy", location=f"'{location}'")) from None
    return lock


def verify(location: Path) -> list[Problem]:
    """Every file of the store in ``location`` that is not whole or not as its journal says."""
    _require_store(location)
    lock = _locked(location)
    try:
        return _verify(location)
    finally:
        lock.release()


def _verify(location: Path) -> list[Problem]:
    journal = Journal(location)
    reading = journal.read()
    problems = _journal_problems(journal, reading)
    files = _files(location)
    if not journal.exists() or not reading.whole:
        # No sound journal to compare with: at least every file must read back whole.
        for path in files.values():
            _, problem = _read(path)
            if problem is not None:
                problems.append(Problem(str(path), problem))
        return problems
    expected = replay(reading.entries)
    for name, data in sorted(expected.items()):
        path = location / f"{name}.json"
        if data is None:
            continue
        found, problem = _read(path)
        if problem is not None:
            problems.append(Problem(str(path), problem))
        elif found != data:
            problems.append(Problem(str(path), Message("store.problem_differs")))
    for name, path in sorted(files.items()):
        if expected.get(name) is None:
            problems.append(Problem(str(path), Message("store.problem_unknown_file")))
    return problems


def restore(location: Path) -> list[Repair]:
    """Mend the store in ``location`` (see the module's docstring); what was done, file by file."""
    _require_store(location)
    lock = _locked(location)
    try:
        return _restore(location)
    finally:
        lock.release()


def _restore(location: Path) -> list[Repair]:
    journal = Journal(location)
    reading = journal.read()
    repairs: list[Repair] = []
    if journal.exists() and reading.whole:
        if reading.torn is not None:
            offset, length = reading.torn
            journal.truncate(offset)
            repairs.append(Repair(str(journal.path), "dropped", Message("store.repair_torn", bytes=length)))
        repairs += _from_journal(location, replay(reading.entries))
    else:
        repairs += _journal_from_files(location, journal, reading)
    write_marker(location, journal.size())
    return repairs


def _from_journal(location: Path, expected: dict[str, Any]) -> list[Repair]:
    repairs = []
    files = _files(location)
    for name, data in sorted(expected.items()):
        if data is None:
            continue
        path = location / f"{name}.json"
        found, problem = _read(path)
        if problem is None and found == data:
            continue
        detail = problem or Message("store.problem_differed")
        aside = set_aside(path, "damaged") if path.exists() or path.is_symlink() else None
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        write_atomic(path, text.encode("utf-8"), backup=False)
        if aside is None:
            rebuilt = Message("store.repair_from_journal", problem=detail)
        else:
            rebuilt = Message("store.repair_from_journal_kept", problem=detail, aside=f"'{aside}'")
        repairs.append(Repair(str(path), "rebuilt", rebuilt))
    for name, path in sorted(files.items()):
        if expected.get(name) is None and path.exists():
            aside = set_aside(path, "unknown")
            repairs.append(
                Repair(str(path), "set aside", Message("store.repair_set_aside", aside=f"'{aside}'"))
            )
    return repairs


def _journal_from_files(location: Path, journal: Journal, reading: Reading) -> list[Repair]:
    """Make the journal again from the store's files, mending those from their backups first."""
    repairs = restore_from_backups(location)
    damaged = [r for r in repairs if r.action in {"lost", "recovered"}]
    aside = set_aside(journal.path, "damaged") if journal.exists() else None
    whole = {
        name: data for name, path in sorted(_files(location).items()) if (data := _read(path)[0]) is not None
    }
    journal.start_from(whole, at=now())
    if aside is None:
        what = Message("store.repair_journal_missing")
    else:
        what = Message("store.repair_journal_damaged", aside=f"'{aside}'")
    parts: list[Param] = [Message("store.repair_journal_made", what=what, files=len(whole))]
    if reading.problems:
        lines = ", ".join(str(line) for line, _ in reading.problems)
        parts.append(Message("store.repair_journal_lines_lost", lines=lines))
    if damaged:
        parts.append(Message("store.repair_some_lost"))
    detail = Message("store.repair_parts", parts=join(parts, sep="; "))
    repairs.append(Repair(str(journal.path), "rebuilt", detail))
    return repairs
