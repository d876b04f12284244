"""Importing a whole league from its export, on the Leagues screen: no league made first.

A league export (``"format": "rummy-league"``, what Export JSON writes) names its league, and
so does a shared file of facts (a game's, a night's or a league's: ``Share``) by its
``league.created`` fact. The
import goes into the league of that name here; when there is none (a new phone, an empty
store), it is made with that name, its open season named as the export's open season, so
the export's games keep their seasons and new games go where they went before. Everything
else is the league screen's import (:class:`~scorer.ui.screens.exchange_model.ImportModel`):
the files are read and checked whole, a preview comes first (the import run in the store's
transaction and thrown away: :meth:`~scorer.league.store.Store.import_preview`, which makes the
league in it too when there is none), nothing is written until the player confirms.

>>> import json
>>> club = Store.memory()
>>> _ = club.create_league("Friday club")
>>> data = json.dumps(club.export_league("Friday club")).encode()
>>> model = LeagueImportModel(store=Store.memory())
>>> model.prepare([PickedFile(name="friday-club.json", data=data)]), model.league, model.new_league
(True, 'Friday club', True)
>>> model.confirm() is not None, [lg.name for lg in model.store.leagues()]
(True, ['Friday club'])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.league.exchange import EXPORT_FORMAT, FACTS_FORMAT, ImportBatch
from scorer.league.store import Store
from scorer.ui.screens.exchange_model import ImportPlan, PickedFile, read_picked


@dataclass(frozen=True, slots=True)
class NamedLeague:
    """The league an export names, and the season its new games went to."""

    name: str
    season: str | None  # the export's open season (else its newest); None: it has no season


def _season_of(document: dict[str, Any]) -> str | None:
    seasons = [s for s in document.get("seasons") or [] if isinstance(s, dict) and s.get("name")]
    if not seasons:
        return None
    open_ones = [s for s in seasons if s.get("closed") is None]
    chosen = max(open_ones or seasons, key=lambda s: int(s.get("number") or 0))
    return str(chosen["name"])


def _facts_league(document: dict[str, Any]) -> NamedLeague | None:
    """The league a file of facts (a shared game, night or league) names: its name as the
    file's last ``league.created`` / ``league.renamed`` has it, its first season's name."""
    name, season = "", None
    for fact in document.get("facts") or []:
        if not isinstance(fact, dict):
            continue
        if fact.get("kind") == "league.created":
            name, season = str(fact.get("name") or ""), fact.get("season_name")
        elif fact.get("kind") == "league.renamed" and fact.get("name"):
            name = str(fact["name"])
    name = name.strip()
    return NamedLeague(name=name, season=str(season) if season else None) if name else None


def named_leagues(files: Sequence[PickedFile]) -> list[NamedLeague]:
    """The leagues the picked league exports and shared files of facts name (game files name
    none), each once.

    Called after :func:`read_picked` has read and checked every file, so each parses here.
    """
    found: dict[str, NamedLeague] = {}
    for picked in files:
        data = picked.data if picked.data is not None else Path(picked.path or "").read_bytes()
        document = json.loads(data.decode("utf-8"))
        if not isinstance(document, dict):
            continue
        named: NamedLeague | None = None
        if document.get("format") == EXPORT_FORMAT:
            name = str((document.get("league") or {}).get("name") or "").strip()
            named = NamedLeague(name=name, season=_season_of(document)) if name else None
        elif document.get("format") == FACTS_FORMAT:
            named = _facts_league(document)
        if named is not None:
            found.setdefault(named.name.casefold(), named)
    return list(found.values())


@dataclass(eq=False)
class LeagueImportModel(ft.Observable):
    """One league export imported into the league it names, made here if there is none."""

    store: Store
    plan: ImportPlan | None = None
    league: str = ""  # the league it goes into (its name)
    new_league: bool = False  # the league is made by the import
    done: ImportPlan | None = None
    error: str = ""  # the store's message
    problem: str = ""  # a catalog key: the files name no league, or several
    names: str = ""  # the leagues named, for ``problem``
    _batch: ImportBatch | None = field(default=None, repr=False)
    _season: str | None = field(default=None, repr=False)
    _shown: dict[str, str] = field(default_factory=dict, repr=False)

    def _clear(self) -> None:
        self.plan, self._batch, self.error, self.problem, self.names = None, None, "", "", ""

    def prepare(self, files: Sequence[PickedFile]) -> bool:
        """Read the files, find the league they name and preview the import; nothing is written."""
        self._clear()
        self.done = None
        try:
            batch, shown = read_picked(files)
            leagues = named_leagues(files)
        except (ScorerError, OSError, ValueError) as exc:
            self.error = str(exc)
            return False
        if not leagues:
            self.problem = "leagues.import_no_league"
            return False
        if len(leagues) > 1:
            self.problem, self.names = "leagues.import_two_leagues", ", ".join(lg.name for lg in leagues)
            return False
        named = leagues[0]
        existing = next(
            (lg for lg in self.store.leagues() if lg.name.casefold() == named.name.casefold()), None
        )
        try:
            if existing is not None:
                preview = self.store.import_preview(existing.id, batch)
            else:
                preview = self.store.import_preview(named.name, batch, create=True, season=named.season)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.league = existing.name if existing is not None else named.name
        self.new_league = existing is None
        self._batch, self._season, self._shown = batch, named.season, shown
        self.plan = ImportPlan.of([f.name for f in files], preview.report, shown, preview=preview)
        return True

    def confirm(self, *, by: str | None = None) -> str | None:
        """Make the league if need be, then import (signed ``by``); the league's id (None, with
        :attr:`error`)."""
        if self._batch is None or self.plan is None:
            self.error = "nothing to import: choose the files first"
            return None
        try:
            if self.new_league and not any(
                lg.name.casefold() == self.league.casefold() for lg in self.store.leagues()
            ):
                self.store.create_league(self.league, season=self._season)
            league_id = self.store.league(self.league).id
            report = self.store.import_batch(league_id, self._batch, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return None
        self.done = ImportPlan.of(self.plan.files, report, self._shown)
        self._clear()
        return league_id

    def cancel(self) -> None:
        self._clear()
