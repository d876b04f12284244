"""A store folder of the earlier layout, converted to a log of facts on first open.

The earlier layout kept the league as documents (``index.json``, ``games/XY/index.json``, one
``games/XY/ID.json`` per game) under a journal of their changes (``journal.jsonl``). Opening
such a folder converts it once: every record (player, league, season, game with its signed
history, club night) becomes a ``record.kept`` fact (:mod:`scorer.league.facts`), appended as
the new log's first commits, so that every read answers as before. The earlier files are
never deleted: they are moved, as they were, into ``earlier-layout-YYYYMMDD-HHMMSS/`` inside
the folder, and the store says so (:attr:`~scorer.league.store.Store.notices`).

The records are taken from the journal when it reads back whole (it is the earlier layout's
truth), else from the files, and each one is checked by its model; a folder whose files and
journal are both damaged is refused, naming the file, and nothing is changed.

Crash safety: the new log is written beside the old files under temporary names first, then
the old files are moved aside, then the new log is put in place. A program killed before the
last step leaves the old files (or their folder aside, with no log yet) and converts again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from scorer.league.documents import (
    GameRecord,
    LeagueDoc,
    NightDoc,
    PlayerDoc,
    RecordProblem,
    SeasonDoc,
    migrate,
    now,
    parse_record,
)
from scorer.league.errors import DamagedFileError
from scorer.league.facts import Fact, new_fact
from scorer.league.log import COPY_NAME, LOG_NAME, commit_line, fsync_folder, header_line, write_synced
from scorer.messages import Message

if TYPE_CHECKING:
    from scorer.league.ledger import FolderLedger

#: The earlier layout's files and folders.
EARLIER: Final = ("index.json", "games", "journal.jsonl", ".generation")
ASIDE_PREFIX: Final = "earlier-layout-"
#: Records per commit of the converted log.
PER_COMMIT: Final = 200

Data = dict[str, dict[str, Any]]


def parse_document(raw: bytes) -> tuple[Data | None, Message | None]:
    """A document of the earlier layout: its tables, or why it is not a whole one."""
    if not raw.strip():
        return None, Message("store.problem_empty")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        return None, Message("store.problem_not_text")
    except json.JSONDecodeError as exc:
        if not raw.rstrip().endswith(b"}"):  # every such file is one JSON object
            return None, Message("store.problem_cut_off")
        return None, Message("store.problem_not_json", why=exc.msg, line=exc.lineno, column=exc.colno)
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        return None, Message("store.problem_not_records")
    return data, None


def _kind(name: str) -> str:
    if name == "index":
        return "index"
    return "shard" if name.endswith("/index") else "game"


def _journal_documents(path: Path) -> dict[str, Any] | None:
    """Every document as the earlier journal leaves it, or ``None`` if it is not whole."""
    import hashlib

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    docs: dict[str, Any] = {}
    prev: str | None = None
    for line in raw.splitlines(keepends=True):
        head, mid = b'{"sum":"', b'","tx":'
        if not (line.startswith(head) and line.endswith(b"}\n")):
            return None
        total = line[len(head) : len(head) + 16].decode("ascii", "replace")
        body = line[len(head) + 16 + len(mid) : -2]
        if hashlib.sha256(body).hexdigest()[:16] != total:
            return None
        try:
            tx = json.loads(body)
        except ValueError:
            return None
        if not isinstance(tx, dict) or not isinstance(tx.get("docs"), dict):
            return None
        if prev is not None and tx.get("prev") not in (prev, None):
            return None
        prev = total
        for name, patch in tx["docs"].items():
            docs[name] = _patched(docs.get(name), patch)
    return docs


def _patched(value: Any, patch: Mapping[str, Any]) -> Any:
    """The earlier journal's patch applied (its ``=``, ``d``/``x`` and ``k``/``t`` steps)."""
    if "=" in patch:
        return patch["="]
    if "d" in patch:
        table = dict(value) if isinstance(value, dict) else {}
        for key, inner in patch["d"].items():
            table[key] = _patched(table.get(key), inner)
        for key in patch.get("x", ()):
            table.pop(key, None)
        return table
    if "k" in patch:
        items = list(value) if isinstance(value, list) else []
        return [*items[: patch["k"]], *patch["t"]]
    raise ValueError("not a journal patch")


def _file_documents(folder: Path) -> dict[str, Any]:
    """Every document of the earlier layout read from its files (raises naming a damaged one)."""
    docs: dict[str, Any] = {}
    paths = [folder / "index.json"] if (folder / "index.json").exists() else []
    games = folder / "games"
    if games.is_dir():
        paths += sorted(p for p in games.rglob("*.json") if p.is_file())
    for path in paths:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DamagedFileError(path, Message("store.problem_unreadable", why=str(exc)), None) from None
        data, problem = parse_document(raw)
        if data is None:
            assert problem is not None
            raise DamagedFileError(path, problem, None)
        docs[path.relative_to(folder).with_suffix("").as_posix()] = data
    return docs


def _records(docs: Mapping[str, Any], *, folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every record of the documents, checked by its model, as (table, record)."""
    models: dict[str, Any] = {
        "players": PlayerDoc,
        "leagues": LeagueDoc,
        "seasons": SeasonDoc,
        "nights": NightDoc,
    }
    index = docs.get("index")
    for name in sorted(docs):
        data = docs[name]
        if data is None:
            continue
        try:
            migrated, _ = migrate(_kind(name), dict(data), where=str(folder / f"{name}.json"))
        except RecordProblem as exc:
            raise DamagedFileError(folder / f"{name}.json", exc.message, None) from None
        if name == "index":
            for table, model in models.items():
                for row in (migrated.get(table) or {}).values():
                    yield table, _checked(model, row, path=folder / "index.json")
        elif _kind(name) == "game":
            for row in (migrated.get("game") or {}).values():
                yield "games", _checked(GameRecord, row, path=folder / f"{name}.json")
    if index is None and any(_kind(n) == "game" for n in docs):
        raise DamagedFileError(folder / "index.json", Message("store.problem_missing"), None)


def _checked(model: Any, row: Any, *, path: Path) -> dict[str, Any]:
    try:
        record: dict[str, Any] = parse_record(model, row).model_dump()
    except RecordProblem as exc:
        raise DamagedFileError(path, exc.message, None) from None
    return record


def earlier_facts(folder: Path) -> list[Fact]:
    """The facts that bring over every record of an earlier-layout folder (read only)."""
    docs = _journal_documents(folder / "journal.jsonl") if (folder / "journal.jsonl").exists() else None
    if docs is None or "index" not in docs:
        docs = _file_documents(folder)
    stamp = now()
    order = {"players": 0, "leagues": 1, "seasons": 2, "games": 3, "nights": 4}
    records = sorted(_records(docs, folder=folder), key=lambda r: order[r[0]])
    return [new_fact("record.kept", at=stamp, by="", table=table, record=record) for table, record in records]


def log_of(store: str, facts: list[Fact]) -> bytes:
    """A whole log (its header and commits of :data:`PER_COMMIT` facts) of ``facts``."""
    line, last = header_line(store)
    lines = [line]
    for n, start in enumerate(range(0, len(facts), PER_COMMIT), start=1):
        line, last = commit_line(n, last, facts[start : start + PER_COMMIT])
        lines.append(line)
    return b"".join(lines)


def _earlier_here(folder: Path) -> bool:
    return any((folder / name).exists() for name in EARLIER[:3])


def _aside_without_log(folder: Path) -> Path | None:
    """A folder the earlier files were moved into by a conversion that did not finish."""
    found = sorted(p for p in folder.glob(f"{ASIDE_PREFIX}*") if p.is_dir() and _earlier_here(p))
    return found[-1] if found else None


def convert_if_needed(ledger: FolderLedger) -> None:
    """Convert the ledger's folder if it holds the earlier layout (call under the lock)."""
    import uuid

    folder = ledger.location
    assert folder is not None
    source = folder if _earlier_here(folder) else _aside_without_log(folder)
    if source is None:
        return
    facts = earlier_facts(source)
    log = log_of(uuid.uuid4().hex, facts)
    temp = folder / f".{LOG_NAME}.converting"
    write_synced(temp, log)
    if source == folder:
        aside = folder / (ASIDE_PREFIX + datetime.now(UTC).strftime("%Y%m%d-%H%M%S"))
        aside.mkdir()
        for entry in sorted(folder.iterdir()):
            if entry.name in EARLIER or entry.name.startswith(("index.json.", "journal.jsonl.")):
                os.replace(entry, aside / entry.name)
        fsync_folder(aside)
    else:
        aside = source
    write_synced(folder / COPY_NAME, log)
    os.replace(temp, folder / LOG_NAME)
    fsync_folder(folder)
    ledger.notices.append(Message("store.converted", records=len(facts), aside=f"'{aside}'"))


def convert_files(folder: Path, files: Mapping[str, bytes]) -> bytes:
    """The log of an earlier-layout backup's files (written into ``folder``, a scratch folder)."""
    import uuid

    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return log_of(uuid.uuid4().hex, earlier_facts(folder))
