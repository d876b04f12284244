"""Whole-store backups: the store's log of facts in one zip, and putting one back.

A backup (Settings' *Back up*, :meth:`scorer.league.store.Store.backup`) is the store's log,
``facts.jsonl``, taken under the store's lock, so it is one consistent moment of the league.
Nothing that can be made again from the log is in it (the log's copy, the checkpoint).
Replacing the store from a backup (:func:`replace_from_backup`) checks the whole log first:
every line whole, each following the one before, every fact one this version reads, and the
fold of them all made, before anything is written; then the log's two copies are written from
it and the log it replaces is kept beside them as ``facts.jsonl.replaced``, never deleted. A
backup zip of the earlier layout (``index.json`` and ``games/``) can still replace the store:
it is converted to facts first (:mod:`scorer.league.convert`).

A zip is outside input, so reading one trusts nothing in it (:func:`read_backup`):

- its entries must be the store's own files, by name: no other name, no backslash, no
  ``..``, no absolute path, no link or other special file, no name twice, no encrypted entry;
- sizes are bounded from the zip's headers, and again while reading (a header can lie): one
  file at most :data:`MAX_FILE_BYTES`, all at most :data:`MAX_BACKUP_BYTES` and
  :data:`MAX_FILES` files, none expanding more than :data:`MAX_RATIO` times.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import uuid
import zipfile
import zlib
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from scorer.league.convert import parse_document
from scorer.league.documents import (
    SCHEMA_VERSION,
    GameEntry,
    GameRecord,
    LeagueDoc,
    PlayerDoc,
    RecordProblem,
    SeasonDoc,
    parse_record,
    schema_of,
    shard_of,
)
from scorer.league.errors import StoreError, StoreInputError
from scorer.league.facts import FACT_VERSION, FactError
from scorer.league.ledger import whole_log
from scorer.league.log import COPY_NAME, LOG_NAME, decode, fsync_folder, read_tail, sealed_files, write_synced
from scorer.league.state import State
from scorer.messages import Message
from scorer.oserrors import os_reason

PREFIX: Final = "rummy-league-"
SUFFIX: Final = ".zip"
#: The bytes one file of a backup may hold: a log of some 200,000 deals.
MAX_FILE_BYTES: Final = 64_000_000
#: The bytes all files of a backup may hold (and the zip itself).
MAX_BACKUP_BYTES: Final = 256_000_000
#: The files a backup of the earlier layout may hold (one per game, about 2,300 for a large league).
MAX_FILES: Final = 25_000
#: How many times its compressed size a file may expand: the store's JSON compresses some
#: five to ten times; a zip bomb, a thousand and more.
MAX_RATIO: Final = 100
#: Bytes read from the zip at a time, counted as they come.
_CHUNK: Final = 1 << 16

#: The names of the earlier layout's files, as its backups hold them.
_INDEX_NAME: Final = "index.json"
_STORE_NAME: Final = re.compile(r"games/([0-9a-z_-]{1,2})/(?:(index)|([0-9A-Za-z_-]{1,100}))\.json")
_FOLDER_NAME: Final = re.compile(r"games/(?:[0-9a-z_-]{1,2}/)?")


def write_backup(location: Path, folder: Path) -> Path:
    """Zip the store's log into a new file in ``folder`` (call under the lock)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / backup_name()
    if target.exists():  # two backups in one second: keep both
        target = folder / f"{target.stem}-{uuid.uuid4().hex[:6]}{SUFFIX}"
    temp = folder / f".{target.name}.{os.getpid()}.tmp"
    try:
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(LOG_NAME, whole_log(location))
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    fsync_folder(folder)
    return target


def backup_name(stamp: datetime | None = None) -> str:
    when = (stamp or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return f"{PREFIX}{when}{SUFFIX}"


def list_backups(folder: Path) -> list[Path]:
    """The backups in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file()), reverse=True)


def read_backup(path: Path) -> dict[str, bytes]:
    """Every file of a backup zip by its path in the store; refuses anything that is not one.

    Nothing is written: the caller puts in place only what this returned, all of it.
    """
    where = repr(str(path))  # escaped: a name may hold control characters

    def refuse(code: str, **params: Any) -> StoreInputError:
        return StoreInputError(Message(code, path=where, **params))

    try:
        found = path.stat()
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(found.st_mode):  # a pipe or a device would never end, or block
            raise refuse("store.backup_unreadable", why=Message("backup.not_a_file"))
        if found.st_size > MAX_BACKUP_BYTES:
            raise refuse("store.backup_too_big", most=MAX_BACKUP_BYTES)
        archive = zipfile.ZipFile(path)
    except StoreInputError:
        raise
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else Message("store.not_zip")
        raise refuse("store.backup_unreadable", why=reason) from None
    with archive:
        infos = [info for info in archive.infolist() if not _is_folder_entry(info)]
        _check_headers(infos, refuse)
        files: dict[str, bytes] = {}
        total = 0
        for info in infos:
            data = _read_entry(archive, info, refuse, room=MAX_BACKUP_BYTES - total)
            total += len(data)
            problem = (
                log_problem(data) if info.filename == LOG_NAME else _document_problem(info.filename, data)
            )
            if problem is not None:
                raise refuse("store.backup_damaged_file", file=repr(info.filename), problem=problem)
            files[info.filename] = data
    if (LOG_NAME in files) == (_INDEX_NAME in files) or (LOG_NAME in files and len(files) > 1):
        raise refuse("store.backup_no_index")
    return files


def _is_folder_entry(info: zipfile.ZipInfo) -> bool:
    """A folder entry of the store's layout (``games/``, ``games/ab/``): nothing to read."""
    return info.filename.endswith("/") and _FOLDER_NAME.fullmatch(info.filename) is not None


def _check_headers(infos: list[zipfile.ZipInfo], refuse: Any) -> None:
    """Names and sizes as the zip's headers give them, before a byte is unpacked."""
    if len(infos) > MAX_FILES:
        raise refuse("backup.too_many_files", count=len(infos), most=MAX_FILES)
    if sum(info.file_size for info in infos) > MAX_BACKUP_BYTES:
        raise refuse("store.backup_too_big", most=MAX_BACKUP_BYTES)
    seen: set[str] = set()
    for info in infos:
        name = info.filename
        shown = repr(name)
        if not _store_file_name(name):
            raise refuse("store.backup_strange_file", file=shown)
        if name in seen:
            raise refuse("backup.file_twice", file=shown)
        seen.add(name)
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind not in (0, stat.S_IFREG) or info.flag_bits & 0x1:
            raise refuse("backup.special_file", file=shown)
        if info.file_size > MAX_FILE_BYTES:
            raise refuse("backup.file_too_big", file=shown, most=MAX_FILE_BYTES)
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) + 1024:
            raise refuse("backup.file_packed", file=shown, most=MAX_RATIO)


def _store_file_name(name: str) -> bool:
    """Is ``name`` one of the store's own files (and nothing that only looks like one)?"""
    if name in (LOG_NAME, _INDEX_NAME):
        return True
    found = _STORE_NAME.fullmatch(name)
    if found is None:
        return False
    folder, _, game = found.groups()
    return game is None or shard_of(game) == f"games/{folder}"


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, refuse: Any, *, room: int) -> bytes:
    """One file's bytes, counted as they are unpacked: never more than its header said."""
    most = min(info.file_size, MAX_FILE_BYTES, room)
    shown = repr(info.filename)
    chunks: list[bytes] = []
    count = 0
    try:
        with archive.open(info) as handle:
            while chunk := handle.read(_CHUNK):
                count += len(chunk)
                if count > most:
                    raise refuse("backup.file_lies", file=shown)
                chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError):
        problem = Message("backup.problem_unpack")
        raise refuse("store.backup_damaged_file", file=shown, problem=problem) from None
    if count != info.file_size:
        raise refuse("backup.file_lies", file=shown)
    return b"".join(chunks)


class _ShardCount(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    games: int


#: Each kind of document: its tables and the model of their records.
_TABLES: Final[dict[str, dict[str, type[BaseModel] | None]]] = {
    "index": {
        "meta": None,
        "players": PlayerDoc,
        "leagues": LeagueDoc,
        "seasons": SeasonDoc,
        "shards": _ShardCount,
    },
    "shard": {"meta": None, "games": GameEntry},
    "game": {"meta": None, "game": GameRecord},
}


def _document_problem(name: str, raw: bytes) -> Message | None:
    """Why ``raw`` is not the store document ``name`` as the store writes it, or ``None``."""
    data, problem = parse_document(raw)
    if data is None:
        return problem
    kind = "index" if name == _INDEX_NAME else "shard" if name.endswith("/index.json") else "game"
    version = schema_of(data)
    if version > SCHEMA_VERSION:
        return Message("backup.problem_newer", version=version, most=SCHEMA_VERSION)
    tables = _TABLES[kind]
    for table, rows in data.items():
        if table not in tables:
            return Message("backup.problem_table", table=repr(table))
        model = tables[table]
        for row in rows.values():
            try:
                if model is None:
                    _meta_problem(row, kind)
                else:
                    parse_record(model, row)
            except RecordProblem as exc:
                return exc.message
    if kind == "game":
        games = list((data.get("game") or {}).values())
        if len(games) != 1 or PurePosixPath(name).stem != games[0].get("id"):
            return Message("backup.problem_not_its_game")
        return _scores(games[0])
    return None


def _scores(game: dict[str, Any]) -> Message | None:
    """Why an earlier-layout game does not score with the ruleset it was played by, or ``None``."""
    from pydantic import ValidationError

    from scorer.errors import ScorerError
    from scorer.league.state import replay
    from scorer.messages import message_of

    try:
        replay(game.get("document") or {}, game.get("snapshot") or {})
    except ValidationError as exc:  # its first error, in one line
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        why = Message(
            "store.os_said", text=f"{where}: {first.get('msg', '')}" if where else first.get("msg", "")
        )
        return Message("store.problem_no_longer_scores", game=repr(game.get("id")), why=why)
    except ScorerError as exc:
        why = message_of(exc) or Message("store.os_said", text=str(exc))
        return Message("store.problem_no_longer_scores", game=repr(game.get("id")), why=why)
    return None
    return None


def _meta_problem(row: Any, kind: str) -> None:
    if not isinstance(row, dict) or row.get("kind", kind) != kind or set(row) - {"schema", "kind"}:
        raise RecordProblem(Message("backup.problem_meta"))
    version = row.get("schema", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordProblem(Message("backup.problem_meta"))


def log_problem(raw: bytes) -> Message | None:
    """Why ``raw`` is not a whole log of facts (every line whole, in order, folded), or ``None``."""
    cut = raw.find(b"\n")
    head = decode(raw[: cut + 1] if cut >= 0 else raw, start=0)
    if head.body is None or head.n != 0 or not isinstance(head.body.get("store"), str):
        return Message("store.problem_log_head")
    version = head.body.get("v")
    if not isinstance(version, int) or version > FACT_VERSION:
        return Message("backup.problem_newer", version=str(version), most=FACT_VERSION)
    try:
        tail = read_tail(raw[head.end :], start=head.end, prev=head.sum, n=0, version=version)
    except FactError as exc:
        return exc.message
    if tail.rest:
        line = raw[: tail.end].count(b"\n") + 1
        return Message("store.problem_line", line=line, problem=Message("store.problem_line_checksum"))
    state = State()
    try:
        for commit in tail.commits:
            for fact in commit.facts:
                state.apply(fact)
        for row in state.game_rows():  # every game scores with the ruleset it was played by
            record = state.record(row.id)
            problem = _scores({"id": record.id, "document": record.document, "snapshot": record.snapshot})
            if problem is not None:
                return problem
    except (StoreError, ValueError, KeyError) as exc:
        return getattr(exc, "message", None) or Message("store.os_said", text=str(exc))
    return None


def replace_from_backup(location: Path, files: dict[str, bytes]) -> int:
    """Put a checked backup in place (call under the lock); the number of files written.

    The log replaced is kept as ``facts.jsonl.replaced`` (the one before it as ``.replaced.1``);
    the checkpoint, which another log's state is not, goes, to be made again.
    """
    if LOG_NAME in files:
        log = files[LOG_NAME]
    else:  # a backup of the earlier layout: its files converted to facts first
        from scorer.league.convert import convert_files

        with tempfile.TemporaryDirectory(prefix=".replace-", dir=location) as temp:
            log = convert_files(Path(temp), files)
    current = location / LOG_NAME
    # both copies written in full before anything is moved: a full disk changes nothing
    staged = [(location / f".{name}.replacing", location / name) for name in (COPY_NAME, LOG_NAME)]
    try:
        for scratch, _ in staged:
            write_synced(scratch, log)
    except BaseException:
        for scratch, _ in staged:
            scratch.unlink(missing_ok=True)
        raise
    sealed = [path for live in (LOG_NAME, COPY_NAME) for _, path in sealed_files(location, live)]
    if current.exists():
        kept = current.with_name(LOG_NAME + ".replaced")
        if kept.exists():
            os.replace(kept, kept.with_name(kept.name + ".1"))
        if sealed:  # the log replaced kept whole, its segments' lines in it
            try:
                write_synced(kept, whole_log(location))
            except StoreError:
                for path in sealed:  # a part damaged: each kept as it was
                    os.replace(path, path.with_name(path.name + ".replaced"))
                sealed = []
                os.replace(current, kept)
            else:
                current.unlink()
        else:
            os.replace(current, kept)
    from scorer.league.checkpoint import CHECKPOINT_NAME

    (location / CHECKPOINT_NAME).unlink(missing_ok=True)
    for scratch, path in staged:
        os.replace(scratch, path)
    fsync_folder(location)
    for path in sealed:  # their lines are in the log kept: the new log names none of them
        path.unlink(missing_ok=True)
    return 1
