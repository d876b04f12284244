"""Import and export: game files and league exports, JSON and CSV.

A file to import is either a game file (the ``rummy score`` format, docs/game-format.md,
optionally with an ``id``) or a league export (``"format": "rummy-league"``), which holds
everything needed to rebuild a league elsewhere: its seasons, its players and every game
with its ruleset snapshot, ids kept.

Every file is read and every game in it scored before anything is written; one bad file
refuses the whole import. A game's identity is its ``id`` when it has one, else a hash of
its canonical content, so importing the same file twice adds nothing. Files are read
through :func:`read_document`, which refuses oversized and hostile files before and while
parsing them.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from scorer.errors import ScorerError
from scorer.gamefile import GameDocument, game_document, parse_game
from scorer.league.documents import (
    INDEX,
    GameRecord,
    LeagueDoc,
    PlayerDoc,
    SeasonDoc,
    canonical_hash,
    game_name,
    now,
    shard_name,
)
from scorer.league.errors import ImportFileError, SeasonClosedError, UnknownPlayerError
from scorer.league.repository import Documents, clean_name, replay
from scorer.ruleset import load_ruleset

EXPORT_FORMAT = "rummy-league"
EXPORT_VERSION = 1
#: A file bigger than this is refused before it is parsed.
MAX_FILE_BYTES = 20_000_000
#: Objects and lists nested deeper than this are refused.
MAX_DEPTH = 24
#: A string longer than this (a name, a hand) is refused.
MAX_STRING = 10_000
#: Games in one file.
MAX_GAMES = 100_000

#: The namespace of ids made from a game file's own ``id`` text or content hash.
GAME_NAMESPACE = uuid.UUID("6f1c1f43-6a3e-4f1e-9f53-2b7f0c1a9d20")


# -- reading files within limits ------------------------------------------------------------


def read_document(path: Path, *, max_bytes: int | None = None) -> Any:
    """A JSON file decoded, refusing oversized files, deep nesting and huge strings.

    This is the one place files to import are read, so a project-wide reader can replace it.
    """
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportFileError(f"cannot read '{path}': {exc.strerror}") from None
    if size > max_bytes:
        raise ImportFileError(f"'{path}' is {size:,} bytes; files to import are at most {max_bytes:,} bytes")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ImportFileError(f"cannot read '{path}': {exc.strerror}") from None
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise ImportFileError(f"'{path}' is not a text file") from None
    except json.JSONDecodeError as exc:
        raise ImportFileError(
            f"'{path}' is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise ImportFileError(f"'{path}' is nested more than {MAX_DEPTH} levels deep") from None
    _check_shape(data, where=path)
    return data


def _check_shape(data: Any, *, where: Path) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings longer than MAX_STRING (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                raise ImportFileError(
                    f"'{where}' holds a text of {len(value):,} characters (at most {MAX_STRING:,})"
                )
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise ImportFileError(f"'{where}' is nested more than {MAX_DEPTH} levels deep")
        items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        for key, item in items:
            if isinstance(key, str) and len(key) > MAX_STRING:
                raise ImportFileError(
                    f"'{where}' holds a text of {len(key):,} characters (at most {MAX_STRING:,})"
                )
            stack.append((item, depth + 1))


# -- what an import brings --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IncomingPlayer:
    id: str | None  # None: a name from a game file, matched by name
    name: str


@dataclass(frozen=True, slots=True)
class IncomingSeason:
    id: str
    name: str
    number: int
    created: str
    closed: str | None


@dataclass(frozen=True, slots=True)
class IncomingGame:
    """A validated game to import: its identity, its entries, and who played by seat."""

    id: str
    origin: str | None  # the content hash, for a game file without an id
    source: str  # the file it came from, for messages
    document: dict[str, Any]  # a game file (players by name as played)
    snapshot: dict[str, Any]
    seats: tuple[IncomingPlayer, ...]
    deals: int
    season: str | None = None  # an export's season id
    played: str | None = None
    created: str | None = None
    changed: str | None = None


@dataclass(frozen=True, slots=True)
class ImportBatch:
    games: tuple[IncomingGame, ...]
    seasons: tuple[IncomingSeason, ...] = ()
    players: tuple[IncomingPlayer, ...] = ()


@dataclass(slots=True)
class ImportReport:
    """What an import did (``rummy league import --json``)."""

    games_added: int = 0
    games_unchanged: int = 0
    deals_added: int = 0
    players_added: int = 0
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games_added": self.games_added,
            "games_unchanged": self.games_unchanged,
            "deals_added": self.deals_added,
            "players_added": self.players_added,
            "conflicts": list(self.conflicts),
        }


class _ExportPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    created: str | None = None


class _ExportSeason(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    number: int
    created: str
    closed: str | None = None


class _ExportGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    season: str | None = None
    played: str
    created: str
    changed: str
    players: list[str]
    origin: str | None = None
    game: dict[str, Any]
    snapshot: dict[str, Any]


class _ExportLeague(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    created: str | None = None


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str
    version: int
    exported: str | None = None
    league: _ExportLeague
    seasons: list[_ExportSeason]
    players: list[_ExportPlayer]
    games: list[_ExportGame]


def game_id_from(text: str) -> str:
    """A game's store id from a file's ``id``: kept if it is a UUID, else a UUID made from it."""
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return str(uuid.uuid5(GAME_NAMESPACE, text))


def _validation(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the file"
    if err["type"] == "extra_forbidden":
        return f"{where}: unknown field"
    return f"{where}: {err['msg']}"


def _game_file(data: dict[str, Any], *, path: Path) -> IncomingGame:
    body = dict(data)
    given_id = body.pop("id", None)
    if given_id is not None and (not isinstance(given_id, str) or not given_id.strip()):
        raise ImportFileError(f"'{path}': id must be a text")
    try:
        game = parse_game(body)
    except ScorerError as exc:
        raise ImportFileError(f"'{path}': {exc}") from None
    parsed = GameDocument.model_validate(body)
    ruleset = load_ruleset(parsed.ruleset, options=dict(parsed.options))
    document = game_document(game, ruleset_id=parsed.ruleset, options=dict(parsed.options))
    snapshot = ruleset.model_dump(mode="json")
    origin = canonical_hash(document)
    game_id = game_id_from(given_id.strip()) if given_id else game_id_from(origin)
    return IncomingGame(
        id=game_id,
        origin=None if given_id else origin,
        source=str(path),
        document=document,
        snapshot=snapshot,
        seats=tuple(IncomingPlayer(None, name) for name in game.players),
        deals=len(game.deals),
    )


def _export_file(data: dict[str, Any], *, path: Path) -> ImportBatch:
    try:
        export = _Export.model_validate(data)
    except ValidationError as exc:
        raise ImportFileError(f"'{path}': not a league export ({_validation(exc)})") from None
    if export.version > EXPORT_VERSION:
        raise ImportFileError(
            f"'{path}' is a league export of version {export.version}; "
            f"this version reads up to {EXPORT_VERSION}"
        )
    players = {p.id: IncomingPlayer(p.id, p.name) for p in export.players}
    seasons = {s.id for s in export.seasons}
    games = []
    for number, item in enumerate(export.games, start=1):
        where = f"'{path}', game {number} ({item.id})"
        if item.season is not None and item.season not in seasons:
            raise ImportFileError(f"{where}: its season {item.season!r} is not in the export")
        missing = [p for p in item.players if p not in players]
        if missing:
            raise ImportFileError(f"{where}: player {missing[0]!r} is not in the export")
        try:
            game = replay(item.game, item.snapshot)
        except ValidationError as exc:
            raise ImportFileError(f"{where}: {_validation(exc)}") from None
        except ScorerError as exc:
            raise ImportFileError(f"{where}: {exc}") from None
        if len(item.players) != len(game.players):
            raise ImportFileError(f"{where}: {len(item.players)} player ids for {len(game.players)} seats")
        games.append(
            IncomingGame(
                id=game_id_from(item.id),
                origin=item.origin,
                source=str(path),
                document=game_document(
                    game, ruleset_id=str(item.game["ruleset"]), options=dict(item.game.get("options") or {})
                ),
                snapshot=dict(item.snapshot),
                seats=tuple(players[p] for p in item.players),
                deals=len(game.deals),
                season=item.season,
                played=item.played,
                created=item.created,
                changed=item.changed,
            )
        )
    return ImportBatch(
        games=tuple(games),
        seasons=tuple(
            IncomingSeason(id=s.id, name=s.name, number=s.number, created=s.created, closed=s.closed)
            for s in export.seasons
        ),
        players=tuple(players.values()),
    )


def read_import(paths: Sequence[str | Path]) -> ImportBatch:
    """Read and check every file; raises :class:`ImportFileError` naming the first bad one."""
    if not paths:
        raise ImportFileError("no file to import")
    games: list[IncomingGame] = []
    seasons: list[IncomingSeason] = []
    players: list[IncomingPlayer] = []
    for given in paths:
        path = Path(given)
        data = read_document(path)
        if not isinstance(data, dict):
            raise ImportFileError(f"'{path}' is neither a game file nor a league export (not a JSON object)")
        if data.get("format") == EXPORT_FORMAT:
            batch = _export_file(data, path=path)
            games.extend(batch.games)
            seasons.extend(batch.seasons)
            players.extend(batch.players)
        else:
            games.append(_game_file(data, path=path))
        if len(games) > MAX_GAMES:
            raise ImportFileError(f"more than {MAX_GAMES:,} games in one import")
    return ImportBatch(games=tuple(games), seasons=tuple(seasons), players=tuple(players))


# -- comparing a game with the stored one ------------------------------------------------------


def compare(stored: Mapping[str, Any], incoming: Mapping[str, Any]) -> tuple[str, str]:
    """How an incoming game file relates to the stored one.

    ``("same", "")``, ``("longer", "")`` (the incoming one has more deals, the first ones the
    same: it is added), ``("shorter", "")`` (the stored one is ahead: nothing to do) or
    ``("conflict", reason)``.
    """
    head = ("ruleset", "options", "players", "first_dealer")
    for key in head:
        if stored.get(key) != incoming.get(key) and not (
            key == "options" and not stored.get(key) and not incoming.get(key)
        ):
            return "conflict", f"the two copies differ in {key}"
    ours: list[Any] = list(stored.get("deals") or [])
    theirs: list[Any] = list(incoming.get("deals") or [])
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1):
        if a != b:
            return "conflict", f"deal {number} differs between the two copies"
    if len(theirs) > len(ours):
        return "longer", ""
    if len(theirs) < len(ours):
        return "shorter", ""
    return "same", ""


# -- export --------------------------------------------------------------------------------


def export_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """CSV text of deal rows (one per deal per player), with a header."""
    columns = [
        "league",
        "season",
        "game",
        "played",
        "ruleset",
        "deal",
        "dealer",
        "player",
        "score",
        "total",
        "won",
    ]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: row.get(c, "") for c in columns})
    return out.getvalue()


# -- applying an import (inside the store's transaction) -----------------------------------------


class _Importer:
    """One import into one league: seasons, players and games matched, then written."""

    def __init__(self, docs: Documents, league: LeagueDoc, *, season: SeasonDoc | None) -> None:
        self.docs = docs
        self.league = league
        self.season = season
        self.report = ImportReport()
        self.seasons: dict[str, str] = {}
        self.players: dict[str, str] = {}  # incoming id or "name:<casefolded name>" -> player id

    def default_season(self) -> SeasonDoc:
        season = self.season or self.docs.open_season(self.league)
        if season.closed is not None:
            raise SeasonClosedError(f"season {season.name!r} is closed: its games are final")
        return season

    def add_seasons(self, seasons: Iterable[IncomingSeason]) -> None:
        for incoming in seasons:
            if incoming.id in self.seasons:
                continue
            known = self.docs.index().seasons.get(incoming.id)
            if known is not None and known.league != self.league.id:
                raise ImportFileError(f"season {incoming.name!r} ({incoming.id}) belongs to another league")
            if known is None:
                ours = self.docs.seasons_of(self.league.id)
                known = next((s for s in ours if s.name.casefold() == incoming.name.casefold()), None)
            if known is None:
                ours = self.docs.seasons_of(self.league.id)
                closed: str | None = incoming.closed
                if closed is None and any(s.closed is None for s in ours):
                    closed = now()  # the league's own open season stays the one new games go to
                known = SeasonDoc(
                    id=incoming.id,
                    league=self.league.id,
                    name=incoming.name,
                    number=max((s.number for s in ours), default=0) + 1,
                    created=incoming.created,
                    changed=now(),
                    closed=closed,
                )
                self.docs.put(INDEX, "seasons", known.model_dump())
            self.seasons[incoming.id] = known.id

    def player(self, incoming: IncomingPlayer) -> str:
        keys = [k for k in (incoming.id, "name:" + incoming.name.strip().casefold()) if k]
        for key in keys:
            if key in self.players:
                return self.players[key]
        found: PlayerDoc | None = None
        for wanted in (incoming.id, incoming.name):
            if not wanted:
                continue
            try:
                found = self.docs.player_doc(wanted)
                break
            except UnknownPlayerError:
                continue
        if found is None:
            new_id = incoming.id if incoming.id and incoming.id not in self.docs.index().players else None
            found = self.docs.add_player(clean_name(incoming.name, what="player"), player_id=new_id)
            self.report.players_added += 1
        for key in keys:
            self.players[key] = found.id
        return found.id

    def add_game(self, incoming: IncomingGame) -> None:
        seats = [self.player(p) for p in incoming.seats]
        if len(set(seats)) != len(seats):
            self.conflict(incoming, "two of its players are one player here")
            return
        stored = self.docs.record_or_none(incoming.id)
        if stored is None:
            self.new_game(incoming, seats)
            return
        if stored.league != self.league.id:
            self.conflict(incoming, "a game with this id belongs to another league")
            return
        relation, reason = compare(stored.document, incoming.document)
        if relation == "conflict" or (relation != "same" and stored.snapshot != incoming.snapshot):
            self.conflict(incoming, reason or "the two copies were played under different rules")
            return
        if relation != "longer":
            self.report.games_unchanged += 1
            return
        try:
            self.docs.check_open(stored)
        except SeasonClosedError as exc:
            self.conflict(incoming, str(exc))
            return
        game = replay(incoming.document, incoming.snapshot)
        updated = stored.model_copy(update={"document": incoming.document, "changed": now()})
        self.docs.write_game(updated, rev=stored.rev + 1, game=game)
        self.report.deals_added += incoming.deals - len(stored.document.get("deals") or [])

    def new_game(self, incoming: IncomingGame, seats: list[str]) -> None:
        season = self.seasons[incoming.season] if incoming.season is not None else self.default_season().id
        stamp = now()
        record = GameRecord(
            id=incoming.id,
            created=incoming.created or stamp,
            changed=incoming.changed or stamp,
            league=self.league.id,
            season=season,
            played=incoming.played or stamp,
            rev=1,
            players=seats,
            document=incoming.document,
            snapshot=incoming.snapshot,
            origin=incoming.origin,
        )
        game = replay(incoming.document, incoming.snapshot)
        self.docs.put(game_name(record.id), "game", record.model_dump())
        self.docs.put(shard_name(record.id), "games", self.docs.entry(record, game=game).model_dump())
        self.report.games_added += 1
        self.report.deals_added += incoming.deals

    def conflict(self, incoming: IncomingGame, reason: str) -> None:
        self.report.conflicts.append({"game": incoming.id, "file": incoming.source, "reason": reason})


def apply_import(
    docs: Documents, *, league: str, batch: ImportBatch, season: str | None = None
) -> ImportReport:
    """Add a checked batch to a league (call inside a transaction: it writes all or nothing)."""
    league_doc = docs.league_doc(league)
    chosen = docs.season_doc(league_doc, season) if season is not None else None
    importer = _Importer(docs, league_doc, season=chosen)
    if chosen is not None and any(g.season is None for g in batch.games):
        importer.default_season()  # refuse a closed season before anything is staged
    importer.add_seasons(batch.seasons)
    for player in batch.players:
        importer.player(player)
    for game in batch.games:
        importer.add_game(game)
    return importer.report


# -- export ---------------------------------------------------------------------------------


def export_document(docs: Documents, *, league: str) -> dict[str, Any]:
    """Everything needed to rebuild the league elsewhere, ids kept (``--format json``)."""
    league_doc = docs.league_doc(league)
    entries = docs.select(league=league_doc.id, season=None)
    records = [docs.record(e.id) for e in entries]
    index = docs.index()
    player_ids = sorted({p for r in records for p in r.players})
    players = [index.players[p] for p in player_ids if p in index.players]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported": now(),
        "league": {"id": league_doc.id, "name": league_doc.name, "created": league_doc.created},
        "seasons": [
            {"id": s.id, "name": s.name, "number": s.number, "created": s.created, "closed": s.closed}
            for s in docs.seasons_of(league_doc.id)
        ],
        "players": [{"id": p.id, "name": p.name, "created": p.created} for p in players],
        "games": [
            {
                "id": r.id,
                "season": r.season,
                "played": r.played,
                "created": r.created,
                "changed": r.changed,
                "players": list(r.players),
                "origin": r.origin,
                "game": r.document,
                "snapshot": r.snapshot,
            }
            for r in records
        ],
    }


def export_rows(docs: Documents, *, league: str) -> list[dict[str, Any]]:
    """One row per deal per player (``--format csv``), games in the order played."""
    league_doc = docs.league_doc(league)
    index = docs.index()
    seasons = {s.id: s.name for s in docs.seasons_of(league_doc.id)}
    rows = []
    for entry in docs.select(league=league_doc.id, season=None):
        record = docs.record(entry.id)
        game = docs.replay(record)
        result = game.result
        ids = dict(zip(game.players, record.players, strict=True))
        for deal in result.deals:
            for name in game.players:
                player = index.players.get(ids[name])
                rows.append(
                    {
                        "league": league_doc.name,
                        "season": seasons.get(record.season or "", ""),
                        "game": record.id,
                        "played": record.played,
                        "ruleset": entry.ruleset,
                        "deal": deal.number,
                        "dealer": deal.dealer,
                        "player": player.name if player else name,
                        "score": deal.score.scores[name],
                        "total": deal.running[name],
                        "won": int(name in deal.score.winners),
                    }
                )
    return rows
