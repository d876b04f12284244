"""Whole-store backups: every file of a store folder in one zip, and putting one back.

A backup is taken under the store's lock (:meth:`scorer.league.store.Store.backup`), so it
is one consistent moment of the league. Restoring checks every file of the zip before it
writes any: a zip that is not a backup of a league store is refused whole. Each file it
replaces keeps its present version as that file's newest backup (``NAME.json.1``), and
files the backup did not have are set aside as ``NAME.json.replaced``, never deleted.
"""

from __future__ import annotations

import json
import os
import uuid
import zipfile
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Final

from scorer.league.documents import now
from scorer.league.errors import StoreInputError
from scorer.league.journal import Journal, fsync_folder
from scorer.league.storage import json_problem, write_atomic, write_marker
from scorer.messages import Message
from scorer.oserrors import os_reason

PREFIX: Final = "rummy-league-"
SUFFIX: Final = ".zip"
#: A zip whose files hold more than this many bytes in all is refused before it is read.
MAX_BACKUP_BYTES: Final = 2_000_000_000


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
    """Every file of a backup zip by its path in the store; refuses anything that is not one."""
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else Message("store.not_zip")
        raise StoreInputError(Message("store.backup_unreadable", path=f"'{path}'", why=reason)) from None
    with archive:
        infos = archive.infolist()
        if sum(i.file_size for i in infos) > MAX_BACKUP_BYTES:
            raise StoreInputError(Message("store.backup_too_big", path=f"'{path}'", most=MAX_BACKUP_BYTES))
        files: dict[str, bytes] = {}
        for info in infos:
            if info.is_dir():
                continue
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts or name.suffix != ".json":
                raise StoreInputError(
                    Message("store.backup_strange_file", path=f"'{path}'", file=f"'{info.filename}'")
                )
            data = archive.read(info)
            problem = json_problem(data)
            if problem is not None:
                raise StoreInputError(
                    Message(
                        "store.backup_damaged_file",
                        path=f"'{path}'",
                        file=f"'{info.filename}'",
                        problem=problem,
                    )
                )
            files[name.as_posix()] = data
    if "index.json" not in files:
        raise StoreInputError(Message("store.backup_no_index", path=f"'{path}'"))
    return files


def restore_backup(location: Path, files: dict[str, bytes]) -> int:
    """Put checked backup files in place (call under the lock); the number of files written."""
    present = {p.as_posix() for p in store_files(location)}
    for name, data in sorted(files.items()):
        write_atomic(location / name, data, backup=True, sync_folder=False)
    for name in sorted(present - set(files)):
        path = location / name
        os.replace(path, path.with_name(path.name + ".replaced"))
    for folder in sorted({(location / n).parent for n in [*files, *present]}):
        fsync_folder(folder)
    # The journal is made again from the files put back, and any program holding the store
    # (this one included) reads every file again.
    journal = Journal(location)
    docs = {
        PurePosixPath(name).with_suffix("").as_posix(): json.loads(data)
        for name, data in sorted(files.items())
    }
    write_marker(location, journal.start_from(docs, at=now()))
    return len(files)
