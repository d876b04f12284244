"""Import, export and backup, as the screens offer them: plain Python over the store.

- Export: a league as JSON (everything, ids kept) or CSV (one row per deal per player), one
  game as its game file; each is a file name and its bytes for the save dialog.
- Import: the picked files are read and checked whole (:func:`scorer.league.exchange.read_import`),
  then the store previews what they would add, game by game and player by player, and which
  games conflict (:meth:`~scorer.league.store.Store.import_preview`: the import run in the
  store's transaction and thrown away); nothing is written until the player
  confirms, as ``rummy league import`` reports it.
- Backup: a zip of the whole store beside its folder, replacing the store from one, and
  repairing damaged files from each file's own backups (``rummy league restore``).

>>> store = Store.memory()
>>> _ = store.create_league("Friday club")
>>> export_league_json(store, "Friday club").name
'friday-club.json'
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import flet as ft

from scorer.errors import ScorerError
from scorer.league.backup import list_backups
from scorer.league.exchange import ImportBatch, ImportReport, read_import
from scorer.league.import_preview import ImportPreview
from scorer.league.store import Store
from scorer.messages import Message
from scorer.oserrors import os_failure

#: Files picked at once for one import.
MAX_PICKED: Final = 500


def file_stem(name: str) -> str:
    """A file name's stem from a league name: lower case, letters, digits and dashes."""
    stem = re.sub(r"[^\w]+", "-", name.casefold(), flags=re.UNICODE).strip("-_")
    return stem or "league"


class ImportPickError(ScorerError, ValueError):
    """Picked files that cannot be imported; the message names the file as picked."""


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A file for the save dialog."""

    name: str
    data: bytes


def export_league_json(store: Store, league: str) -> ExportFile:
    found = store.league(league)
    document = store.export_league(found.id)
    text = json.dumps(document, ensure_ascii=False, indent=1)
    return ExportFile(name=f"{file_stem(found.name)}.json", data=text.encode("utf-8"))


def export_league_csv(store: Store, league: str) -> ExportFile:
    found = store.league(league)
    return ExportFile(name=f"{file_stem(found.name)}.csv", data=store.export_csv(found.id).encode("utf-8"))


def export_game(store: Store, game_id: str) -> ExportFile:
    """The game file (``rummy score`` reads it), with the game's id so a re-import adds nothing."""
    game = store.game(game_id)
    document = {"id": game.id, **game.document}
    variant = file_stem(str(game.document.get("ruleset", "game")))
    name = f"{variant}-{game.played[:10]}-{game.id[:8]}.json"
    return ExportFile(name=name, data=json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8"))


@dataclass(frozen=True, slots=True)
class PickedFile:
    """A file the picker gave: its name, and its bytes (web) or its path (desktop)."""

    name: str
    data: bytes | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What an import adds to a league, and the games it leaves as they are here."""

    files: tuple[str, ...]
    games_added: int
    games_unchanged: int
    deals_added: int
    players_added: int
    conflicts: tuple[str, ...]  # "file: reason (game id)", a night's: "file: reason (night id)"
    nights_added: int = 0
    rounds_added: int = 0  # to club nights already here
    #: Game by game and player by player, by name (the preview's; None after the import).
    preview: ImportPreview | None = None

    @classmethod
    def of(
        cls,
        files: Sequence[str],
        report: ImportReport,
        names: dict[str, str],
        *,
        preview: ImportPreview | None = None,
    ) -> ImportPlan:
        return cls(
            preview=preview,
            files=tuple(files),
            games_added=report.games_added,
            games_unchanged=report.games_unchanged,
            deals_added=report.deals_added,
            players_added=report.players_added,
            conflicts=tuple(
                f"{names.get(str(c['file']), Path(str(c['file'])).name)}: {c['reason']}"
                f" ({c.get('game', c.get('night'))})"
                for c in report.conflicts
            ),
            nights_added=report.nights_added,
            rounds_added=report.rounds_added,
        )

    @property
    def changes(self) -> bool:
        added = (self.games_added, self.deals_added, self.players_added, self.nights_added, self.rounds_added)
        return any(added) or (self.preview is not None and self.preview.new_league)


def _safe_name(name: str, taken: set[str]) -> str:
    base = Path(name.replace("\\", "/")).name or "file.json"
    base = re.sub(r"[^\w.\- ]+", "_", base)[:120] or "file.json"
    chosen, number = base, 1
    while chosen in taken:
        number += 1
        chosen = f"{number}-{base}"
    taken.add(chosen)
    return chosen


def read_picked(files: Sequence[PickedFile]) -> tuple[ImportBatch, dict[str, str]]:
    """Read and check picked files; the batch and each read path's shown name.

    Bytes (the web picker) go through a temporary folder, so every file is read with the
    same size and shape limits as ``rummy league import``; error messages name the file as
    the player picked it.
    """
    if not files:
        raise ImportPickError(Message("store.pick_none"))
    if len(files) > MAX_PICKED:
        raise ImportPickError(Message("store.pick_too_many", count=len(files), most=MAX_PICKED))
    with tempfile.TemporaryDirectory(prefix="rummy-import-") as temp:
        folder = Path(temp)
        paths: list[Path] = []
        shown: dict[str, str] = {}
        taken: set[str] = set()
        for picked in files:
            if picked.data is not None:
                path = folder / _safe_name(picked.name, taken)
                path.write_bytes(picked.data)
            elif picked.path:
                path = Path(picked.path)
            else:
                raise ImportPickError(Message("store.pick_empty", name=f"'{picked.name}'"))
            paths.append(path)
            shown[str(path)] = picked.name
        try:
            batch = read_import(paths)
        except ScorerError as exc:
            message = exc.message
            for path_text, name in shown.items():
                message = message.replace(path_text, name)
            raise ImportPickError(message) from None
    return batch, shown


@dataclass(eq=False)
class ImportModel(ft.Observable):
    """One import into one league: preview first, then write on confirmation."""

    store: Store
    league: str  # the league's id
    plan: ImportPlan | None = None
    done: ImportPlan | None = None  # what the confirmed import did
    error: str = ""
    _batch: ImportBatch | None = field(default=None, repr=False)
    _names: dict[str, str] = field(default_factory=dict, repr=False)

    def prepare(self, files: Sequence[PickedFile]) -> bool:
        """Read the files and preview the import; nothing is written."""
        self.done = None
        try:
            batch, names = read_picked(files)
            preview = self.store.import_preview(self.league, batch)
        except ScorerError as exc:
            self.plan, self._batch, self.error = None, None, str(exc)
            return False
        self._batch, self._names = batch, names
        self.error = ""
        self.plan = ImportPlan.of([f.name for f in files], preview.report, names, preview=preview)
        return True

    def confirm(self, *, by: str | None = None) -> bool:
        """Write the previewed import (checked again: another phone may have changed the league),
        signed ``by`` the device's name."""
        if self._batch is None or self.plan is None:
            self.error = "nothing to import: choose the files first"
            return False
        try:
            report = self.store.import_batch(self.league, self._batch, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.done = ImportPlan.of(self.plan.files, report, self._names)
        self.plan, self._batch, self.error = None, None, ""
        return True

    def cancel(self) -> None:
        self.plan, self._batch, self.error = None, None, ""


@dataclass(frozen=True, slots=True)
class BackupLine:
    path: str
    name: str
    size: str  # "12.3 kB"


def backup_folder(store: Store) -> Path | None:
    """Where backups of the store go: a folder beside the store's own (None in memory)."""
    location = store.location
    if location is None:
        return None
    return location.parent / f"{location.name}-backups"


def _size(count: int) -> str:
    return f"{count / 1000:.1f} kB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"


@dataclass(eq=False)
class BackupModel(ft.Observable):
    """Backup now, replace the store from a backup, repair damaged files: the Settings screen's
    data actions."""

    store: Store
    backups: list[BackupLine] = field(default_factory=list)
    message: str = ""
    error: str = ""

    @classmethod
    def load(cls, store: Store) -> BackupModel:
        model = cls(store=store)
        model.reload()
        return model

    @property
    def available(self) -> bool:
        """A store kept in memory has no files to back up."""
        return self.store.location is not None

    @property
    def folder(self) -> Path | None:
        return backup_folder(self.store)

    def reload(self) -> None:
        folder = self.folder
        found = list_backups(folder) if folder is not None else []
        self.backups = [BackupLine(path=str(p), name=p.name, size=_size(p.stat().st_size)) for p in found]

    def backup_now(self) -> Path | None:
        folder = self.folder
        if folder is None:
            self.error, self.message = str(_no_files(self.store, "backup", "store.memory_no_backup")), ""
            return None
        try:
            path = self.store.backup(folder)
        except (ScorerError, OSError) as exc:
            self.error, self.message = _said(exc), ""
            return None
        self.error, self.message = "", path.name
        self.reload()
        return path

    def replace_from_backup(self, path: str) -> int | None:
        """Put the store back as the backup has it; the number of files written."""
        try:
            written = self.store.replace_from_backup(path)
        except (ScorerError, OSError) as exc:
            self.error, self.message = _said(exc), ""
            return None
        self.error, self.message = "", Path(path).name
        return written

    def repair(self) -> list[str] | None:
        """Bring damaged files back from their newest good backups; one line per file touched."""
        location = self.store.location
        if location is None:
            self.error, self.message = str(_no_files(self.store, "restore", "store.memory_no_repair")), ""
            return None
        try:
            repairs = Store.restore(location)
        except (ScorerError, OSError) as exc:
            self.error, self.message = _said(exc), ""
            return None
        self.error = ""
        self.message = "\n".join(f"{r.action}: {r.path} ({r.detail})" for r in repairs)
        return [f"{r.action}: {r.path}" for r in repairs]


def _no_files(store: Store, command: str, code: str) -> Message:
    """Why a store with no folder has no files for ``command``: a database is backed up with
    its own tools (pg_dump), a store in memory has none."""
    if store.address is not None:
        return Message("store.pg_no_files", command=command, address=f"'{store.address}'")
    return Message(code)


def _said(exc: BaseException) -> str:
    if isinstance(exc, OSError):  # the path, why and what to do, as the command line says it
        return str(os_failure(exc))
    return str(exc)
