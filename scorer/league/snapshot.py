"""Whole-store backups: every file of a store folder in one zip, and putting one back.

A backup is taken under the store's lock (:meth:`scorer.league.store.Store.backup`), so it
is one consistent moment of the league. Restoring checks every file of the zip before it
writes any: a zip that is not a backup of a league store is refused whole. Each file it
replaces keeps its present version as that file's newest backup (``NAME.json.1``), and
files the backup did not have are set aside as ``NAME.json.replaced``, never deleted.

A zip is outside input, so reading one trusts nothing in it (:func:`read_backup`):

- its entries must be the store's own files, by name (``index.json``,
  ``games/XX/index.json``, ``games/XX/ID.json``): no other name, no backslash, no ``..``,
  no absolute path, no link or other special file, no name twice, no encrypted entry;
- sizes are bounded from the zip's headers, and again while reading (a header can lie): one
  file at most :data:`MAX_FILE_BYTES`, all at most :data:`MAX_BACKUP_BYTES` and
  :data:`MAX_FILES` files, none expanding more than :data:`MAX_RATIO` times. The largest
  plausible league (2,000 games of some 12 kB, their shard indexes and the index: about
  25 MB in some 2,300 files) fits ten times over; a zip bomb is refused from its headers;
- every document is checked for the shape the store writes (its tables, each record against
  its model, a game file holding the game its name says) before anything is written.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import uuid
import zipfile
import zlib
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from scorer.league.documents import (
    SCHEMA_VERSION,
    GameEntry,
    GameRecord,
    LeagueDoc,
    PlayerDoc,
    RecordProblem,
    SeasonDoc,
    now,
    parse_record,
    schema_of,
    shard_of,
)
from scorer.league.errors import StoreInputError
from scorer.league.journal import Journal, fsync_folder
from scorer.league.storage import parse_document, put_in_place, write_marker, write_temp
from scorer.messages import Message
from scorer.oserrors import os_reason

PREFIX: Final = "rummy-league-"
SUFFIX: Final = ".zip"
#: The bytes one file of a backup may hold: ten times the largest plausible store document.
MAX_FILE_BYTES: Final = 16_000_000
#: The bytes all files of a backup may hold (and the zip itself): ten times the largest
#: plausible league, about 25 MB.
MAX_BACKUP_BYTES: Final = 256_000_000
#: The files a backup may hold: ten times the largest plausible league's, about 2,300.
MAX_FILES: Final = 25_000
#: How many times its compressed size a file may expand: a store document compresses some
#: five to ten times; a zip bomb, a thousand and more.
MAX_RATIO: Final = 100
#: Bytes read from the zip at a time, counted as they come.
_CHUNK: Final = 1 << 16

#: The names of the store's files, as a backup holds them.
_INDEX_NAME: Final = "index.json"
_STORE_NAME: Final = re.compile(r"games/([0-9a-z_-]{1,2})/(?:(index)|([0-9A-Za-z_-]{1,100}))\.json")
_FOLDER_NAME: Final = re.compile(r"games/(?:[0-9a-z_-]{1,2}/)?")


def store_files(location: Path) -> list[Path]:
    """The store's current files (``*.json``, not their backups), relative to ``location``."""
    return sorted(p.relative_to(location) for p in location.rglob("*.json") if p.is_file())


def backup_name(stamp: datetime | None = None) -> str:
    when = (stamp or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return f"{PREFIX}{when}{SUFFIX}"


def write_backup(location: Path, folder: Path) -> Path:
    """Zip every store file of ``location`` into a new file in ``folder`` (call under the lock)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / backup_name()
    if target.exists():  # two backups in one second: keep both
        target = folder / f"{target.stem}-{uuid.uuid4().hex[:6]}{SUFFIX}"
    temp = folder / f".{target.name}.{os.getpid()}.tmp"
    try:
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for relative in store_files(location):
                archive.write(location / relative, arcname=relative.as_posix())
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    fsync_folder(folder)
    return target


def list_backups(folder: Path) -> list[Path]:
    """The backups in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file()), reverse=True)


def read_backup(path: Path) -> dict[str, bytes]:
    """Every file of a backup zip by its path in the store; refuses anything that is not one.

    Nothing is written: the caller restores only what this returned, all of it.
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
            problem = _document_problem(info.filename, data)
            if problem is not None:
                raise refuse("store.backup_damaged_file", file=repr(info.filename), problem=problem)
            files[info.filename] = data
    if _INDEX_NAME not in files:
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
    if name == _INDEX_NAME:
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
    model_config = ConfigDict(extra="forbid")
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
    return None


def _meta_problem(row: Any, kind: str) -> None:
    if not isinstance(row, dict) or row.get("kind", kind) != kind or set(row) - {"schema", "kind"}:
        raise RecordProblem(Message("backup.problem_meta"))
    version = row.get("schema", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordProblem(Message("backup.problem_meta"))


def restore_backup(location: Path, files: dict[str, bytes]) -> int:
    """Put checked backup files in place (call under the lock); the number of files written."""
    present = {p.as_posix() for p in store_files(location)}
    # The journal is made again from the files put back. It and every file are written whole
    # beside their places first: a full disk stops the restore there, with the store as it
    # was. Only then are they renamed into place.
    journal = Journal(location)
    docs = {
        PurePosixPath(name).with_suffix("").as_posix(): json.loads(data)
        for name, data in sorted(files.items())
    }
    written: list[tuple[Path, Path]] = []
    try:
        for name, data in sorted(files.items()):
            written.append((write_temp(location / name, data), location / name))
        new_journal = journal.write_start(docs, at=now())
    except BaseException:
        for temp, _ in written:
            temp.unlink(missing_ok=True)
        raise
    for temp, target in written:
        put_in_place(temp, target, backup=True)
    for name in sorted(present - set(files)):
        path = location / name
        os.replace(path, path.with_name(path.name + ".replaced"))
    for folder in sorted({(location / n).parent for n in [*files, *present]}):
        fsync_folder(folder)
    # Any program holding the store (this one included) reads every file again.
    write_marker(location, journal.put_in_place(new_journal))
    return len(files)
