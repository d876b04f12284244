"""Import and export: game files and league exports, JSON and CSV.

A file to import is either a game file (the ``rummy score`` format, docs/game-format.md,
optionally with an ``id``) or a league export (``"format": "rummy-league"``), which holds
everything needed to rebuild a league elsewhere: its seasons, its players, every game
with its ruleset snapshot and its tags (the club night and round it was a table of), and the
league's club nights, ids kept.

A game travels as its stored record (:class:`~scorer.league.documents.GameRecord`) less what
says where this store keeps it (:data:`STORE_ONLY`), and a night as its whole
:class:`~scorer.league.documents.NightDoc`: a field added to either travels with it, read
and checked by the same model that stores it.

Every file is read and every game in it scored before anything is written; one bad file
refuses the whole import. A game's identity is its ``id`` when it has one, else a hash of
its canonical content, so importing the same file twice adds nothing. Files are read
through :func:`scorer.limits.read_document`, the one reader of JSON files, which refuses
oversized and hostile files (deep nesting, huge texts) before and while parsing them.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, create_model

from scorer.errors import ScorerError, quote
from scorer.gamefile import GameDocument, checked_document, game_document, parse_game
from scorer.league.documents import GameRecord, NightDoc, NightRoundDoc, NightTableDoc, canonical_hash
from scorer.league.errors import ImportFileError
from scorer.league.events import signer
from scorer.league.night_rules import NightRuleError, check_night
from scorer.league.records import EventAction
from scorer.league.state import replay
from scorer.limits import read_document
from scorer.messages import Message, Param
from scorer.names import InvalidNameError, clean_name, printable
from scorer.ruleset import Ruleset, load_ruleset, schema
from scorer.validation import Location, problems

EXPORT_FORMAT = "rummy-league"
#: The format of a file of a league's facts (``rummy league export --facts``,
#: :func:`scorer.league.merge.merge_facts` brings it in).
FACTS_FORMAT = "rummy-league-facts"
FACTS_VERSION = 1
#: The league export's version: 1 seasons, players and games; 2 adds the league's ``nights``
#: and each game's tags (:data:`TAGS`). An older version still imports (it has no nights).
EXPORT_VERSION = 2
#: A file to import bigger than this is refused before it is parsed (a league export of
#: ten years is about 15 MB); nesting and long texts are refused by :mod:`scorer.limits`.
MAX_FILE_BYTES = 20_000_000
#: Games in one file.
MAX_GAMES = 100_000

#: The namespace of ids made from a game file's own ``id`` text or content hash.
GAME_NAMESPACE = uuid.UUID("6f1c1f43-6a3e-4f1e-9f53-2b7f0c1a9d20")


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
    status: str = "active"  # an export's game may be abandoned or deleted
    events: tuple[dict[str, Any], ...] = ()  # an export's game brings its signed changes
    tags: dict[str, Any] = field(default_factory=dict)  # an export's game: its TAGS as stored


@dataclass(frozen=True, slots=True)
class IncomingNight:
    """A club night of an export, as the file has it (the file's player and game ids)."""

    night: NightDoc
    source: str  # the file it came from, for messages


@dataclass(frozen=True, slots=True)
class ImportBatch:
    games: tuple[IncomingGame, ...]
    seasons: tuple[IncomingSeason, ...] = ()
    players: tuple[IncomingPlayer, ...] = ()
    nights: tuple[IncomingNight, ...] = ()
    #: Files of facts (``rummy league export --facts``): each its source and its document.
    facts: tuple[tuple[str, dict[str, Any]], ...] = ()


@dataclass(slots=True)
class ImportReport:
    """What an import did (``rummy league import --json``)."""

    games_added: int = 0
    games_unchanged: int = 0
    deals_added: int = 0
    players_added: int = 0
    nights_added: int = 0
    nights_unchanged: int = 0
    rounds_added: int = 0  # to nights already here, from a copy further on
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    def plus(self, other: ImportReport) -> ImportReport:
        """This report and ``other`` added up (a batch of several kinds of file)."""
        return ImportReport(
            games_added=self.games_added + other.games_added,
            games_unchanged=self.games_unchanged + other.games_unchanged,
            deals_added=self.deals_added + other.deals_added,
            players_added=self.players_added + other.players_added,
            nights_added=self.nights_added + other.nights_added,
            nights_unchanged=self.nights_unchanged + other.nights_unchanged,
            rounds_added=self.rounds_added + other.rounds_added,
            conflicts=[*self.conflicts, *other.conflicts],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "games_added": self.games_added,
            "games_unchanged": self.games_unchanged,
            "deals_added": self.deals_added,
            "players_added": self.players_added,
            "nights_added": self.nights_added,
            "nights_unchanged": self.nights_unchanged,
            "rounds_added": self.rounds_added,
            "conflicts": list(self.conflicts),
        }


class _ExportPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    name: str
    created: str | None = None


class _ExportSeason(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    name: str
    number: int
    created: str
    closed: str | None = None


class _ExportEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    seq: int = Field(ge=1)
    at: str = Field(max_length=64)
    by: str = Field(max_length=100)
    action: EventAction
    deal: int | None = Field(default=None, ge=1)
    why: str | None = Field(default=None, max_length=500)
    #: A correction's deal as it was, and a club night's confirmation (GameEvent's fields).
    was: dict[str, Any] | None = None
    check: dict[str, Any] | None = None


class _ExportGameBase(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    season: str | None = None
    played: str
    created: str
    changed: str
    players: list[str]
    origin: str | None = None
    status: Literal["active", "abandoned", "deleted"] = "active"
    events: list[_ExportEvent] = Field(default_factory=list, max_length=100_000)
    game: dict[str, Any]
    snapshot: dict[str, Any]


#: The fields of a stored game an export leaves out: where this store keeps it (its league,
#: its revision); its entries (``document``) are exported as ``game``.
STORE_ONLY = frozenset({"league", "rev", "document"})
#: A stored game's tags: every field of :class:`GameRecord` the export neither leaves out nor
#: reads itself (today the club ``night`` and ``night_round``). They travel as stored, each
#: checked by its own field of the record, so a field added to the record travels too.
TAGS = tuple(
    name for name in GameRecord.model_fields if name not in STORE_ONLY | _ExportGameBase.model_fields.keys()
)

# A game of an export: the fixed fields and one field for each tag, as the record declares it.
# Built at run time from the record's fields; the type checker sees the fixed fields only (the
# tags are read with model_dump).
if TYPE_CHECKING:
    _ExportGame = _ExportGameBase
else:
    _ExportGame = create_model(
        "_ExportGame",
        __base__=_ExportGameBase,
        **{name: (GameRecord.model_fields[name].annotation, GameRecord.model_fields[name]) for name in TAGS},
    )


class _ExportLeague(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    name: str
    created: str | None = None


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    format: str
    version: StrictInt = Field(ge=1)
    exported: str | None = None
    league: _ExportLeague
    seasons: list[_ExportSeason]
    players: list[_ExportPlayer]
    games: list[_ExportGame]
    nights: list[NightDoc] = Field(default_factory=list)  # version 2 on


#: What a whole file that is no JSON object holds, for ``... (it holds a list)``.
_KINDS = {
    "list": "doc.kind_list",
    "str": "doc.kind_text",
    "int": "doc.kind_whole_number",
    "float": "doc.kind_number",
    "bool": "doc.kind_true_or_false",
    "NoneType": "doc.kind_empty",
}


def game_id_from(text: str) -> str:
    """A game's store id from a file's ``id``: kept if it is a UUID, else a UUID made from it."""
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return str(uuid.uuid5(GAME_NAMESPACE, text))


def _label(item: Any, *keys: str) -> str:
    """What names an entry of an export in a message: its name or id, quoted ('' if none)."""
    if isinstance(item, dict):
        for key in keys:
            if isinstance(item.get(key), str) and item[key].strip():
                return quote(item[key], limit=40)
    return ""


#: The lists inside an export's entries, each item named by its number: a game's changes, a
#: night's rounds and a round's tables.
_NUMBERED = {"events": "store.export_change", "rounds": "store.export_round", "tables": "store.export_table"}


def export_where(data: Any) -> Callable[[Location], Param]:
    """Name a place in a league export in the player's words, from the export's own data:
    ``player 2 ('Bea'), name``, ``game 3 ('0c1f...'), change 4, action``, ``night 1
    ('5e0a...'), round 2, table 3, game``."""

    def entry(kind: str, index: int, keys: tuple[str, ...]) -> Message:
        items = data.get(kind) if isinstance(data, dict) else None
        item = items[index] if isinstance(items, list) and index < len(items) else None
        label = _label(item, *keys)
        code = f"store.export_at_{kind[:-1]}"
        return (
            Message(code + "_named", number=index + 1, label=label)
            if label
            else Message(code, number=index + 1)
        )

    def name(location: Location) -> Param:
        if (
            len(location) >= 2
            and location[0] in ("players", "seasons", "games", "nights")
            and isinstance(location[1], int)
        ):
            kind = str(location[0])
            keys = ("name", "id") if kind in ("players", "seasons") else ("id",)
            place: Param = entry(kind, location[1], keys)
            rest = location[2:]
            while len(rest) >= 2 and rest[0] in _NUMBERED and isinstance(rest[1], int):
                place = Message(_NUMBERED[str(rest[0])], place=place, number=rest[1] + 1)
                rest = rest[2:]
            if rest:
                return Message("store.export_at_field", place=place, field=", ".join(str(p) for p in rest))
            return place
        if location[:1] == ("league",) and len(location) > 1:
            return Message("store.export_league_field", field=", ".join(str(p) for p in location[1:]))
        return ", ".join(str(p) for p in location)

    return name


def _game_file(data: dict[str, Any], *, path: Path) -> IncomingGame:
    body = dict(data)
    given_id = body.pop("id", None)
    if given_id is not None and (not isinstance(given_id, str) or not given_id.strip()):
        raise ImportFileError(
            Message(
                "store.import_problem", path=f"'{printable(str(path))}'", problem=Message("store.id_not_text")
            )
        )
    try:
        game = parse_game(body)
    except ScorerError as exc:
        raise ImportFileError(
            Message("store.import_problem", path=f"'{printable(str(path))}'", problem=exc.message)
        ) from None
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
    shown = f"'{printable(str(path))}'"
    version = data.get("version")
    # asked first: a newer export may hold what this version cannot read
    if isinstance(version, int) and not isinstance(version, bool) and version > EXPORT_VERSION:
        raise ImportFileError(Message("store.export_newer", path=shown, version=version, most=EXPORT_VERSION))
    try:
        # strict: a number given as a text ("version": "2") is refused, as the store never writes one
        export = _Export.model_validate(data, strict=True)
    except ValidationError as exc:
        why = problems(exc, model=_Export, where=export_where(data))
        raise ImportFileError(Message("store.not_an_export", path=shown, why=why)) from None
    where = export_where(data)

    def named(what: str, index: int, value: str) -> str:
        """A name of the export taken as every name is, or the file refused naming it."""
        try:
            return clean_name(value, what=what[:-1])
        except InvalidNameError as exc:
            problem = Message("doc.problem_at", place=where((what, index)), problem=exc.message)
            raise ImportFileError(Message("store.import_problem", path=shown, problem=problem)) from None

    players = {
        p.id: IncomingPlayer(p.id, named("players", index, p.name)) for index, p in enumerate(export.players)
    }
    seasons = {s.id for s in export.seasons}
    names = [named("seasons", index, s.name) for index, s in enumerate(export.seasons)]
    games = []
    for number, item in enumerate(export.games, start=1):
        place = Message("store.export_game", path=shown, number=number, game=quote(item.id, limit=40))

        def problem(what: Message, where: Message = place) -> ImportFileError:
            return ImportFileError(Message("store.export_game_problem", where=where, problem=what))

        if item.season is not None and item.season not in seasons:
            raise problem(Message("store.export_no_season", season=quote(item.season)))
        missing = [p for p in item.players if p not in players]
        if missing:
            raise problem(Message("store.export_no_player", player=quote(missing[0])))
        try:
            document = checked_document(item.game)
            _snapshot(item.snapshot)
            game = replay(document.model_dump(), item.snapshot)
        except ScorerError as exc:
            raise problem(exc.message) from None
        except (ArithmeticError, LookupError, TypeError, ValueError):  # rules that hold together no game
            raise problem(Message("store.export_rules_unusable")) from None
        events = []
        for seq, change in enumerate(item.events, start=1):
            try:
                events.append(change.model_dump() | {"by": signer(change.by)})
            except ScorerError as exc:
                at = Message("store.export_change", place=place, number=seq)
                raise ImportFileError(
                    Message("store.export_game_problem", where=at, problem=exc.message)
                ) from None
        if len(item.players) != len(game.players):
            raise problem(Message("store.export_seats", ids=len(item.players), seats=len(game.players)))
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
                status=item.status,
                events=tuple(events),
                tags=item.model_dump(include=set(TAGS)),
            )
        )
    by_id = {item.id: item for item in export.games}
    game_ids = set(by_id)
    nights = []
    first_of: dict[str, tuple[int, NightDoc]] = {}  # a night's id -> where the file first has it
    placed: set[str] = set()  # the games at a table of the file's nights, as their tags say
    for number, night in enumerate(export.nights, start=1):
        place = Message("store.export_night", path=shown, number=number, night=quote(night.id, limit=40))

        def refused(what: Message, where: Message = place) -> ImportFileError:
            return ImportFileError(Message("store.export_game_problem", where=where, problem=what))

        if night.id in first_of:
            earlier, copy = first_of[night.id]
            if copy == night:  # the same night twice: it is imported once
                continue
            raise refused(Message("store.export_night_twice", number=earlier))
        first_of[night.id] = (number, night)
        if night.league != export.league.id:
            raise refused(Message("store.export_night_league", league=quote(night.league, limit=40)))
        if night.season not in seasons:
            raise refused(Message("store.export_no_season", season=quote(night.season)))
        for player, round_number in night_players(night).items():
            if player not in players:
                raise refused(
                    Message("store.export_night_no_player", round=round_number, player=quote(player))
                )
        for round_doc in night.rounds:
            for table in round_doc.tables:
                if table.game not in game_ids:
                    raise refused(
                        Message(
                            "store.export_night_no_game",
                            round=round_doc.number,
                            table=table.table,
                            game=quote(table.game, limit=40),
                        )
                    )
        try:  # the rules the store seats a night by (scorer/league/night_rules.py)
            check_night(night, rules=partial(_round_rules, by_id))
        except NightRuleError as exc:
            raise refused(exc.message) from None
        for round_doc in night.rounds:
            for table in round_doc.tables:
                refuse = _table_game_problem(night, round_doc, table, by_id[table.game])
                if refuse is not None:
                    raise refused(refuse)
                placed.add(table.game)
        nights.append(IncomingNight(night=_store_game_ids(night), source=str(path)))
    for number, item in enumerate(export.games, start=1):
        tagged = item.model_dump(include={"night", "night_round"})
        # version 1 had no nights: a game's tags came with version 2, and its nights with them
        if export.version >= 2 and tagged["night"] is not None and item.id not in placed:
            place = Message("store.export_game", path=shown, number=number, game=quote(item.id, limit=40))
            lacking = Message(
                "store.export_game_night_missing",
                night=quote(str(tagged["night"]), limit=40),
                round=tagged["night_round"] if tagged["night_round"] is not None else "?",
            )
            raise ImportFileError(Message("store.export_game_problem", where=place, problem=lacking))
    return ImportBatch(
        games=tuple(games),
        seasons=tuple(
            IncomingSeason(id=s.id, name=name, number=s.number, created=s.created, closed=s.closed)
            for s, name in zip(export.seasons, names, strict=True)
        ),
        players=tuple(players.values()),
        nights=tuple(nights),
    )


def _round_rules(games: Mapping[str, _ExportGameBase], round_doc: NightRoundDoc) -> Ruleset | None:
    """A night round's ruleset as its tables' games played it (their snapshots, checked with
    the games): every table's game plays the round's ruleset with the round's house rules. A
    file's text is never taken for a ruleset file's path. ``None``: a round of no table."""
    if not round_doc.tables:
        return None
    for table in round_doc.tables:
        played = games[table.game].game
        if played.get("ruleset") != round_doc.ruleset or (played.get("options") or {}) != round_doc.options:
            raise ImportFileError(
                Message(
                    "store.export_night_ruleset",
                    table=table.table,
                    ruleset=quote(str(played.get("ruleset")), limit=40),
                    options=quote(str(played.get("options") or {}), limit=80),
                )
            )
    return Ruleset.model_validate(games[round_doc.tables[0].game].snapshot)


def _table_game_problem(
    night: NightDoc, round_doc: NightRoundDoc, table: NightTableDoc, item: _ExportGameBase
) -> Message | None:
    """What is wrong with a night's table's game of the file, or ``None``: its tags name this
    night, round and table (a game tagged before the table was kept names none), and its
    players are the table's, by seat."""
    tags = item.model_dump(include={"night", "night_round", "night_table"})
    at: dict[str, Param] = {"round": round_doc.number, "table": table.table, "game": quote(item.id, limit=40)}
    if (tags["night"], tags["night_round"]) != (night.id, round_doc.number) or tags["night_table"] not in (
        None,
        table.table,
    ):
        said = f"{tags['night']}/{tags['night_round']}/{tags['night_table']}"
        return Message("store.export_night_game_tags", **at, tags=quote(said, limit=80))
    if list(item.players) != list(table.players):
        return Message("store.export_night_game_players", **at)
    return None


def night_players(night: NightDoc) -> dict[str, int]:
    """Every player a night names (present, sitting out, fixed to a table or seated), each
    with the number of the first round naming them."""
    found: dict[str, int] = {}
    for round_doc in night.rounds:
        named = [*round_doc.players, *round_doc.byes, *round_doc.fixed]
        named += [p for table in round_doc.tables for p in table.players]
        for player in named:
            found.setdefault(player, round_doc.number)
    return found


def _store_game_ids(night: NightDoc) -> NightDoc:
    """The night with its tables' games named as the import stores them (:func:`game_id_from`)."""
    rounds = [
        r.model_copy(
            update={"tables": [t.model_copy(update={"game": game_id_from(t.game)}) for t in r.tables]}
        )
        for r in night.rounds
    ]
    return night.model_copy(update={"rounds": rounds})


def _snapshot(data: dict[str, Any]) -> None:
    """Check a game's ruleset snapshot, saying what is wrong in the file's words."""
    try:
        Ruleset.model_validate(data)
    except ValidationError as exc:
        raise ImportFileError(
            Message("store.export_snapshot", problems=problems(exc, model=schema()))
        ) from None


def read_import(paths: Sequence[str | Path]) -> ImportBatch:
    """Read and check every file; raises :class:`ImportFileError` naming the first bad one."""
    if not paths:
        raise ImportFileError(Message("store.nothing_to_import"))
    games: list[IncomingGame] = []
    seasons: list[IncomingSeason] = []
    players: list[IncomingPlayer] = []
    nights: list[IncomingNight] = []
    facts: list[tuple[str, dict[str, Any]]] = []
    for given in paths:
        path = Path(given)
        data = read_document(path, what="file to import", limit=MAX_FILE_BYTES, error=ImportFileError)
        if not isinstance(data, dict):
            kind = Message(_KINDS.get(type(data).__name__, "doc.kind_other"))
            raise ImportFileError(
                Message("store.import_not_object", path=f"'{printable(str(path))}'", kind=kind)
            )
        if data.get("format") == FACTS_FORMAT:
            facts.append((str(path), data))
        elif data.get("format") == EXPORT_FORMAT:
            batch = _export_file(data, path=path)
            games.extend(batch.games)
            seasons.extend(batch.seasons)
            players.extend(batch.players)
            nights.extend(batch.nights)
        else:
            games.append(_game_file(data, path=path))
        if len(games) > MAX_GAMES:
            raise ImportFileError(Message("store.import_too_many", most=MAX_GAMES))
    return ImportBatch(
        games=tuple(games),
        seasons=tuple(seasons),
        players=tuple(players),
        nights=tuple(nights),
        facts=tuple(facts),
    )


# -- export --------------------------------------------------------------------------------


#: The CSV export's columns, in order (docs/cli.md): one row per deal per player; ``night``
#: and ``round`` (the club night and round of the deal's game, empty for any other game) came
#: last, after the others.
CSV_COLUMNS = (
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
    "night",
    "round",
)

#: What a text cell may start with that a spreadsheet would run as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as the CSV holds it: a text a spreadsheet would run as a formula gets a leading
    ``'`` (the usual way to neutralise it); numbers stay numbers.

    >>> csv_cell("=1+2"), csv_cell("-Anna"), csv_cell(-20), csv_cell("Anna")
    ("'=1+2", "'-Anna", -20, 'Anna')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """CSV text of deal rows (one per deal per player), with a header.

    Written by the :mod:`csv` module, which quotes a cell holding a comma, a quote or a line
    break, so no name can split a row; text cells go through :func:`csv_cell`.
    """
    out = io.StringIO()
    writer = csv.DictWriter(
        out, fieldnames=CSV_COLUMNS, lineterminator="\r\n"
    )  # RFC 4180: CR and LF are quoted
    writer.writeheader()
    for row in rows:
        writer.writerow({c: csv_cell(row.get(c, "")) for c in CSV_COLUMNS})
    return out.getvalue()
