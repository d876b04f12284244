"""The league as its facts leave it: the fold, kept in a TinyDB database in memory.

:func:`State.apply` is the only way the state changes: one fact at a time, in the log's order
(:mod:`scorer.league.facts`). The state is a TinyDB database (TinyDB's ``MemoryStorage``) with
the tables ``players``, ``leagues``, ``seasons``, ``games`` and ``nights``, each row one of the
records of :mod:`scorer.league.documents`, found by id or with TinyDB's ``Query``. Saved at a
log position it is the store's checkpoint (:mod:`scorer.league.checkpoint`): a faster start,
never a truth of its own. A state read from a checkpoint holds each game's row less its bulky
fields (:data:`BULKY`) until something asks for them: every read of a game's row here
(:meth:`State.get`, :meth:`State.rows`, :meth:`State.find`, a :class:`GameRow`'s attributes)
brings them in from the checkpoint's :class:`Bulk` first, so no caller sees the difference.

The reads the store's decisions take (a league by name, a season open for new games, a player
by name or id, a game's record and its replayed game, the standings' cached summaries) are
here too, so that the store's methods read the state and answer with facts or a refusal.

Within a store method the facts are applied as they are decided, so a later decision of the
same method sees an earlier one (a night's round seats players added a moment before); when
the method refuses, or its commit cannot be written, :meth:`State.rollback` puts every row it
touched back as it was.

A game's (or night's) facts form a chain, each naming the one before (``prev``): one that names
another than the last folded is *off the chain* (:func:`off_chain`), kept but not folded (the
other history of a game changed on two devices apart), and a ``game.joined`` sets the game to
what the history it keeps leaves (:mod:`scorer.league.joins` has the rule).
"""

from __future__ import annotations

import copy
import functools
import gc
import hashlib
import json
import zlib
from collections.abc import Callable, Collection, Iterator, Mapping, MutableMapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias, cast

from pydantic import BaseModel, ValidationError
from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage
from tinydb.table import Document, Table

import scorer
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.gamefile import GameDocument
from scorer.league.documents import (
    GameRecord,
    LeagueDoc,
    NightDoc,
    PlayerDoc,
    RecordProblem,
    SeasonDoc,
    parse_record,
)
from scorer.league.errors import (
    LookAlikeError,
    SeasonClosedError,
    StoreError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
    UnknownSeasonError,
)
from scorer.league.events import status_before
from scorer.league.facts import BEGINNINGS, Fact
from scorer.league.ratings import RatingRun, Ratings, resume
from scorer.league.records import GameEvent
from scorer.league.summary import GameSummary, InvalidSummaryError, PlayedGame, summarize
from scorer.league.tiebreaks import DEFAULT_ORDER
from scorer.messages import Message, message_of
from scorer.names import look_alike_message, looks_alike, name_key
from scorer.ruleset import Ruleset

#: The fold's own version: a checkpoint saved by another version of the fold is not used.
STATE_VERSION: Final = 2
TABLES: Final = ("players", "leagues", "seasons", "games", "nights", "calls")
#: A game row's bulky fields: the checkpoint keeps them apart, parsed when first asked for.
BULKY: Final = ("document", "snapshot", "events")


@dataclass(frozen=True, slots=True)
class BulkChunk:
    """One compressed run of games' bulky fields as a checkpoint wrote it: the games, in order,
    where each one's text ends in the run uncompressed, and the run's bytes."""

    games: tuple[str, ...]
    ends: tuple[int, ...]
    data: bytes


def _bulky_text(row: Mapping[str, Any]) -> bytes:
    fields = {k: row[k] for k in BULKY if k in row}
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _code_version() -> str:
    """The version of the code that computes summaries: the package version and its sources' hash.

    The sources are the engine (every module directly in ``scorer/``) and the summary. A
    cached summary from any other code version is computed again, never trusted.
    """
    digest = hashlib.sha256()
    root = Path(scorer.__file__).parent
    for path in [*sorted(root.glob("*.py")), root / "league" / "summary.py"]:
        if path.name == "cli.py":
            continue  # the command line computes nothing a summary holds
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(path.name.encode())
    return f"{scorer.__version__}+{digest.hexdigest()[:12]}"


CODE_VERSION: Final = _code_version()

#: Whom the caller says are different people though their names look like a player's: every
#: new name (``True``), none (``False``), or those named (a list of names, not one string).
NewPlayers: TypeAlias = bool | Collection[str]


def different_people(new_players: NewPlayers) -> Callable[[str], bool]:
    """Whether a new name is said to be a different person from a player it looks like."""
    if isinstance(new_players, bool):
        return lambda name: new_players
    keys = {name_key(n) for n in new_players}
    return lambda name: name_key(name) in keys


def renamed_ids(value: Any, ids: Mapping[str, str]) -> Any:
    """``value`` with every text equal to a key of ``ids`` replaced by its value, at any depth."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [renamed_ids(v, ids) for v in value]
    if isinstance(value, dict):
        return {renamed_ids(k, ids): renamed_ids(v, ids) for k, v in value.items()}
    return value


def seat_ids(game: Game, record: GameRecord) -> dict[str, str]:
    """Each player's id by name in the game: the seats' and the replacements' (docs/rules.md,
    "Replacements")."""
    ids = dict(zip(game.players, record.players, strict=True))
    ids.update(zip((r.replacement for r in game.replacements), record.substitutes, strict=True))
    return ids


def replay(document: Mapping[str, Any], snapshot: Mapping[str, Any]) -> Game:
    """The game of a stored document under its ruleset (raises ScorerError or ValidationError)."""
    ruleset = Ruleset.model_validate(dict(snapshot))
    parsed = GameDocument.model_validate(dict(document))
    return parsed.game(ruleset, tuple(d.to_deal() for d in parsed.deals))


@contextmanager
def no_collection() -> Iterator[None]:
    """The garbage collector paused, as it was found after. Reading a checkpoint and the
    standings of thousands of games make hundreds of thousands of objects, none of them
    garbage: the collections they set off (one of them through every object of the state)
    took a third of an open and a third of the standings."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def safe_id(game_id: str) -> bool:
    return bool(game_id) and len(game_id) <= 100 and all(c.isalnum() or c in "-_" for c in game_id)


class _Rows(MutableMapping[int, Any]):
    """A table's rows as TinyDB's updaters take them (keyed by int document id), over the rows
    as its storage holds them (keyed by text): a change goes straight to the row changed."""

    __slots__ = ("raw",)

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __getitem__(self, key: int) -> Any:
        return self.raw[str(key)]

    def __setitem__(self, key: int, value: Any) -> None:
        self.raw[str(key)] = value

    def __delitem__(self, key: int) -> None:
        del self.raw[str(key)]

    def __iter__(self) -> Iterator[int]:
        return (int(key) for key in list(self.raw))

    def __len__(self) -> int:
        return len(self.raw)


class _Table(Table):
    """TinyDB's table, changed in place in memory.

    TinyDB's own ``_update_table`` copies the whole table twice for every change, to turn its
    text keys into numbers and back (a storage may keep only text keys): a fold of 50,000
    facts into a table of 5,000 games would copy half a billion rows. In memory the rows can
    be changed where they are; everything else is TinyDB's own.
    """

    def _update_table(self, updater: Callable[[dict[int, Any]], None]) -> None:
        tables = self._storage.read()
        if tables is None:
            tables = {}
        raw = tables.setdefault(self.name, {})
        updater(_Rows(raw))  # type: ignore[arg-type]  # a mapping as TinyDB's updaters use it
        self._storage.write(tables)
        self.clear_cache()


class _Database(TinyDB):
    """The state's TinyDB: its tables are :class:`_Table` (TinyDB's documented ``table_class``)."""

    table_class = _Table


class Bulk:
    """The games' bulky fields as a checkpoint holds them: runs of JSON texts, each run
    zlib-compressed on its own (``compressed``, whose sum the checkpoint checked, is the runs one
    after another, ``chunks`` their lengths), and where each game's text is (``spans``, by game
    id: its run and where it starts and ends in it once decompressed). A run is decompressed
    when a game of it is first asked for, so the first game opened costs one run, not all."""

    __slots__ = ("_compressed", "_data", "_starts", "spans")

    def __init__(self, compressed: bytes, chunks: Sequence[Any], spans: Mapping[str, Any]) -> None:
        self._compressed = compressed
        self._starts: list[int] = [0]
        for length in chunks:
            if not isinstance(length, int) or length < 0:
                raise ValueError("a bulk run's length is not a count of bytes")
            self._starts.append(self._starts[-1] + length)
        if self._starts[-1] != len(compressed):
            raise ValueError("the bulk runs' lengths do not add up to the bulk")
        self._data: dict[int, bytes] = {}
        self.spans: dict[str, tuple[int, int, int]] = {}
        for game_id, span in spans.items():
            chunk, start, end = span
            if not (
                isinstance(chunk, int)
                and isinstance(start, int)
                and isinstance(end, int)
                and 0 <= chunk < len(chunks)
                and 0 <= start <= end
            ):
                raise ValueError(f"the bulk span of game {game_id!r} is not a run and two offsets")
            self.spans[str(game_id)] = (chunk, start, end)

    def text(self, game_id: str) -> bytes:
        chunk, start, end = self.spans[game_id]
        data = self._data.get(chunk)
        if data is None:
            data = zlib.decompress(self._compressed[self._starts[chunk] : self._starts[chunk + 1]])
            self._data[chunk] = data
        return data[start:end]

    def fields(self, game_id: str) -> dict[str, Any]:
        """The game's bulky fields (raises StoreError when they are not what a checkpoint saves:
        the checkpoint's sum matched, so only a fault of the code that saved it can do that)."""
        try:
            found = json.loads(self.text(game_id))
        except (ValueError, zlib.error):
            found = None
        if not isinstance(found, dict) or set(found) - set(BULKY):
            raise StoreError(
                Message(
                    "store.damaged_document",
                    name="'checkpoint.json'",
                    problem=Message("store.problem_checkpoint"),
                )
            )
        return found


class GameRow:
    """A game as the state holds it, for lists and standings (no validation, no replay)."""

    __slots__ = ("_state", "row")

    def __init__(self, row: Mapping[str, Any], state: State) -> None:
        self.row = row
        self._state = state

    def __getattr__(self, name: str) -> Any:
        try:
            return self.row[name]
        except KeyError:
            if name in BULKY:  # kept apart by the checkpoint until asked for
                return self._state.whole("games", dict(self.row))[name]
            raise AttributeError(name) from None

    @property
    def ruleset(self) -> str:
        return str(self.document.get("ruleset", ""))


class _Index:
    """The players, leagues and seasons parsed, by id."""

    def __init__(self, players: list[PlayerDoc], leagues: list[LeagueDoc], seasons: list[SeasonDoc]) -> None:
        self.players = {p.id: p for p in players}
        self.leagues = {league.id: league for league in leagues}
        self.seasons = {s.id: s for s in seasons}


class State:
    """The fold of a league's facts, and the reads decisions take from it."""

    def __init__(
        self,
        tables: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        seen: Collection[str] = (),
        summaries: Mapping[str, Any] | None = None,
        heads: Mapping[str, str] | None = None,
        bulk: Bulk | None = None,
        rating_runs: Mapping[str, RatingRun] | None = None,
        current_runs: Collection[str] = (),
        kept: Mapping[str, Sequence[Any]] | None = None,
        kept_code: str = "",
    ) -> None:
        self.db: TinyDB = _Database(storage=MemoryStorage)
        data = {t: dict((tables or {}).get(t) or {}) for t in TABLES}
        self.db.storage.write(data)
        self._doc_ids: dict[str, dict[str, int]] = {
            t: {row["id"]: int(k) for k, row in data[t].items()} for t in TABLES
        }
        self._next: dict[str, int] = {t: max(self._doc_ids[t].values(), default=0) + 1 for t in TABLES}
        #: The ids of every fact applied (a fact that comes twice is one fact).
        self.seen: set[str] = set(seen)
        #: The last fact about each game and night, by its id (see :func:`~scorer.league.facts.subject_of`).
        self.heads: dict[str, str] = dict(heads or {})
        #: Summaries by game id: ``{"rev", "code", "summary"}`` as the checkpoint keeps them.
        self.summaries: dict[str, dict[str, Any]] = dict(summaries or {})
        #: The ratings of a league (or season) as far as they were rated, to go on from
        #: (:func:`~scorer.league.ratings.resume`; each checks itself against the games).
        self.rating_runs: dict[str, RatingRun] = dict(rating_runs or {})
        #: The id of each game row put (or put back), in order: what changed since a point.
        self._games_put: list[str] = []
        #: The bulky fields' compressed runs of the last checkpoint made, and how many game rows
        #: had been put then (:meth:`unchanged_chunks`).
        self._chunks: list[BulkChunk] = []
        self._chunks_at = 0
        #: Each summary's short form as the last checkpoint made it (a summary is never changed:
        #: a game changed has a new one), so that the next makes only the new ones.
        self._rows_made: dict[str, tuple[GameSummary, list[Any] | None]] = {}
        #: How many game rows had been put when each run was made (see :meth:`current_runs`).
        self._runs_at: dict[str, int] = dict.fromkeys((k for k in current_runs if k in self.rating_runs), 0)
        self._parsed: dict[str, tuple[int, GameSummary]] = {}
        #: Summaries as a checkpoint keeps them, by game id: ``[rev, row]``, the row of
        #: :meth:`GameSummary.to_row`, made by the code version ``kept_code`` (read only
        #: while that is this one); each read when first asked for.
        self._kept: dict[str, Sequence[Any]] = dict(kept or {})
        self._kept_code = kept_code
        self._records: dict[str, tuple[int, GameRecord]] = {}
        self._index: tuple[int, _Index] | None = None
        self._versions = dict.fromkeys(TABLES, 0)
        self._undo: list[Callable[[], None]] | None = None
        #: The games whose bulky fields are still in the checkpoint's bulk, not in their row.
        self._bulk = bulk
        self._pending: set[str] = (
            {g for g in self._doc_ids["games"] if g in bulk.spans} if bulk is not None else set()
        )
        missing = [
            g for g in self._doc_ids["games"] if g not in self._pending and BULKY[0] not in self._raw(g)
        ]
        if missing:
            raise ValueError(f"the bulky fields of game {missing[0]!r} are nowhere")

    # -- rows ------------------------------------------------------------------------------

    def table(self, name: str) -> Any:
        return self.db.table(name)

    def get(self, table: str, key: str) -> dict[str, Any] | None:
        doc_id = self._doc_ids[table].get(key)
        if doc_id is None:
            return None
        found = self.db.table(table).get(doc_id=doc_id)
        return self.whole(table, dict(found)) if found is not None else None

    def rows(self, table: str) -> list[dict[str, Any]]:
        return [self.whole(table, dict(r)) for r in self.db.table(table).all()]

    def find(self, table: str, condition: Any) -> list[dict[str, Any]]:
        return [self.whole(table, dict(r)) for r in self.db.table(table).search(condition)]

    def _raw(self, game_id: str) -> dict[str, Any]:
        """The game's row as the storage holds it (changed in place only to bring its bulky
        fields in: the same row, parsed)."""
        tables: Any = self.db.storage.read()
        row: dict[str, Any] = tables["games"][str(self._doc_ids["games"][game_id])]
        return row

    def whole(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        """``row`` with its bulky fields, parsed from the checkpoint's bulk the first time."""
        if table != "games" or BULKY[0] in row:
            return row
        game_id = str(row["id"])
        raw = self._raw(game_id)
        if game_id in self._pending:
            assert self._bulk is not None
            raw.update(self._bulk.fields(game_id))
            self._pending.discard(game_id)
        row.update({k: raw[k] for k in BULKY if k in raw})
        return row

    def saved_form(self) -> tuple[dict[str, Any], list[tuple[str, Callable[[], bytes]]]]:
        """The tables as the checkpoint keeps them: the games' rows less their bulky fields,
        and those fields as one JSON text for each game, made when asked for (a checkpoint
        takes the run it compressed last time for games unchanged since, never their texts;
        the checkpoint's bulk as it was for a game not asked for since, never parsed)."""
        tables: dict[str, Any] = dict(self.db.storage.read() or {})
        light: dict[str, Any] = {}
        bulky: list[tuple[str, Callable[[], bytes]]] = []
        for doc_id, row in (tables.get("games") or {}).items():
            game_id = str(row["id"])
            light[doc_id] = {k: v for k, v in row.items() if k not in BULKY}
            if game_id in self._pending:
                assert self._bulk is not None
                bulky.append((game_id, functools.partial(self._bulk.text, game_id)))
            else:
                bulky.append((game_id, functools.partial(_bulky_text, row)))
        tables["games"] = light
        return tables, bulky

    def unchanged_chunks(self) -> dict[str, BulkChunk]:
        """The compressed runs of the checkpoint saved last (:meth:`keep_chunks`) none of whose
        games has been put since, by the id of their first game."""
        changed = set(self._games_put[self._chunks_at :])
        return {c.games[0]: c for c in self._chunks if c.games and not changed.intersection(c.games)}

    def keep_chunks(self, chunks: Sequence[BulkChunk]) -> None:
        """The compressed runs of a checkpoint just made, of the games as they are now."""
        self._chunks, self._chunks_at = list(chunks), len(self._games_put)

    def put(self, table: str, row: Mapping[str, Any]) -> None:
        """Insert or replace the row with this id (undone by :meth:`rollback`)."""
        key = str(row["id"])
        doc_id = self._doc_ids[table].get(key)
        tinytable = self.db.table(table)
        before = self.get(table, key)
        if doc_id is None:
            doc_id = self._next[table]
            self._next[table] += 1
            self._doc_ids[table][key] = doc_id
            tinytable.insert(Document(dict(row), doc_id=doc_id))
        else:
            tinytable.update(_replacing(dict(row)), doc_ids=[doc_id])
        self._versions[table] += 1
        if table == "games":
            self._games_put.append(key)
        if self._undo is not None:
            self._undo.append(lambda: self._put_back(table, key, before))

    def _put_back(self, table: str, key: str, before: dict[str, Any] | None) -> None:
        if table == "games":  # what was computed from the row undone goes with it
            self._records.pop(key, None)
            self._parsed.pop(key, None)
            self._kept.pop(key, None)
            self.summaries.pop(key, None)
        doc_id = self._doc_ids[table][key]
        tinytable = self.db.table(table)
        if before is None:
            tinytable.remove(doc_ids=[doc_id])
            del self._doc_ids[table][key]
        else:
            tinytable.update(_replacing(before), doc_ids=[doc_id])
        self._versions[table] += 1
        if table == "games":
            self._games_put.append(key)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Changes inside are undone if it raises."""
        outer = self._undo is None
        if outer:
            self._undo = []
        try:
            yield
        except BaseException:
            if outer:
                self.rollback()
            raise
        finally:
            if outer:
                self._undo = None

    def rollback(self) -> None:
        undo, self._undo = self._undo or [], []
        for step in reversed(undo):
            step()
        self._undo = None

    # -- the fold ----------------------------------------------------------------------------

    def apply(self, fact: Fact) -> bool:
        """Apply one fact; False if it was applied already (by its id).

        A fact about a game or night whose ``prev`` is not the last one folded here is off
        the chain (:func:`off_chain`): the other history of a game changed apart, taken in by
        a join (``game.joined``). It is kept (seen, in the log) but not folded, and the head
        stays. A ``game.joined`` folds whatever the head: it carries the game as it leaves it.
        """
        if fact.id in self.seen:
            return False
        subject = fact.subject
        before = self.heads.get(subject) if subject is not None else None
        if off_chain(fact, before):
            self.seen.add(fact.id)
            if self._undo is not None:
                self._undo.append(lambda: self._unapplied(fact.id, subject, before))
            return True
        _FOLD[fact.kind](self, fact)
        self.seen.add(fact.id)
        if subject is not None:
            self.heads[subject] = fact.id
        if self._undo is not None:
            self._undo.append(lambda: self._unapplied(fact.id, subject, before))
        return True

    def _unapplied(self, fact_id: str, subject: str | None, before: str | None) -> None:
        self.seen.discard(fact_id)
        if subject is not None:
            if before is None:
                self.heads.pop(subject, None)
            else:
                self.heads[subject] = before

    def folded_alone(self, game_id: str, chain: Sequence[Fact]) -> dict[str, Any]:
        """The game's row as the facts ``chain`` (its history from its beginning, in order)
        leave it, folded apart from this state's own: every change undone before it returns,
        the state as it was (inside a write too)."""
        saved, self._undo = self._undo, []
        try:
            for fact in chain:
                _FOLD[fact.kind](self, fact)
            row = self.get("games", game_id)
            if row is None:
                raise _without_record(chain[-1], "games", game_id)
            return copy.deepcopy(row)
        finally:
            undo, self._undo = self._undo or [], None
            for step in reversed(undo):
                step()
            self._undo = saved

    # -- the index: players, leagues, seasons ----------------------------------------------------

    def index(self) -> _Index:
        version = self._versions["players"] + self._versions["leagues"] + self._versions["seasons"]
        if self._index is not None and self._index[0] == version:
            return self._index[1]
        index = _Index(
            [self.parse(PlayerDoc, r, table="players") for r in self.db.table("players").all()],
            [self.parse(LeagueDoc, r, table="leagues") for r in self.db.table("leagues").all()],
            [self.parse(SeasonDoc, r, table="seasons") for r in self.db.table("seasons").all()],
        )
        self._index = (version, index)
        return index

    def parse(self, model: Any, row: Any, *, table: str) -> Any:
        try:
            return parse_record(model, dict(row))
        except RecordProblem as exc:
            raise StoreError(
                Message("store.damaged_document", name=f"'{table}'", problem=exc.message)
            ) from None

    def league_doc(self, key: str) -> LeagueDoc:
        index = self.index()
        found = index.leagues.get(key.strip())
        if found is None:
            wanted = name_key(key)
            found = next((lg for lg in index.leagues.values() if name_key(lg.name) == wanted), None)
        if found is None:
            names = ", ".join(sorted(lg.name for lg in index.leagues.values()))
            if not names:
                raise UnknownLeagueError(Message("store.no_league_none_yet", key=repr(key)))
            raise UnknownLeagueError(Message("store.no_league", key=repr(key), known=names))
        return found

    def seasons_of(self, league_id: str) -> list[SeasonDoc]:
        seasons = [s for s in self.index().seasons.values() if s.league == league_id]
        return sorted(seasons, key=lambda s: s.number)

    def season_doc(self, league: LeagueDoc, key: str) -> SeasonDoc:
        seasons = self.seasons_of(league.id)
        wanted = key.strip()
        found = next((s for s in seasons if s.id == wanted), None)
        if found is None:
            found = next((s for s in seasons if name_key(s.name) == name_key(wanted)), None)
        if found is None:
            known = ", ".join(s.name for s in seasons)
            raise UnknownSeasonError(
                Message("store.no_season", league=repr(league.name), key=repr(key), known=known)
            )
        return found

    def season_for(self, league: str, season: str | None) -> tuple[LeagueDoc, SeasonDoc]:
        """The league and the season a game goes to: ``season``, else the open one (never closed)."""
        league_doc = self.league_doc(league)
        season_doc = (
            self.season_doc(league_doc, season) if season is not None else self.open_season(league_doc)
        )
        if season_doc.closed is not None:
            raise SeasonClosedError(Message("store.season_closed", value=repr(season_doc.name)))
        return league_doc, season_doc

    def open_season(self, league: LeagueDoc) -> SeasonDoc:
        season = next((s for s in reversed(self.seasons_of(league.id)) if s.closed is None), None)
        if season is None:
            raise SeasonClosedError(Message("store.no_open_season", league=repr(league.name)))
        return season

    def player_doc(self, key: str) -> PlayerDoc:
        index = self.index()
        found = index.players.get(key.strip())
        if found is None:
            wanted = name_key(key)
            found = next(
                (p for p in index.players.values() if p.merged_into is None and name_key(p.name) == wanted),
                None,
            )
        if found is None:
            raise UnknownPlayerError(Message("store.no_player", key=repr(key)))
        seen = {found.id}
        while found.merged_into is not None:  # a merged player answers as the one kept
            found = index.players[found.merged_into]
            if found.id in seen:
                raise StoreError(
                    Message(
                        "store.damaged_document",
                        name="'players'",
                        problem=Message("store.problem_merge_loop"),
                    )
                )
            seen.add(found.id)
        return found

    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.index().players.values()}

    def refuse_look_alike(self, name: str, *, different: bool, but: str | None = None) -> None:
        """Refuse ``name`` for a player when another player has it, or one that looks like it."""
        players = [p for p in self.index().players.values() if p.merged_into is None and p.id != but]
        key = name_key(name)
        if any(name_key(p.name) == key for p in players):
            raise StoreInputError(Message("store.player_exists", value=repr(name)))
        like = None if different else next((p for p in players if looks_alike(p.name, name)), None)
        if like is not None:
            raise LookAlikeError(look_alike_message(name, like.name), name=name, existing=like.name)

    # -- games ---------------------------------------------------------------------------------

    def game_rows(self) -> list[GameRow]:
        return [GameRow(r, self) for r in self.db.table("games").all()]

    def game_row(self, game_id: str) -> GameRow:
        row = self.get("games", game_id) if safe_id(game_id) else None
        if row is None:
            raise UnknownGameError(Message("store.no_game", key=repr(game_id)))
        return GameRow(row, self)

    def has_game(self, game_id: str) -> bool:
        return game_id in self._doc_ids["games"]

    def record(self, game_id: str) -> GameRecord:
        row = self.game_row(game_id).row
        hit = self._records.get(game_id)
        if hit is not None and hit[0] == row["rev"]:
            return hit[1]
        record: GameRecord = self.parse(GameRecord, row, table="games")
        self._records[game_id] = (record.rev, record)
        return record

    def record_or_none(self, game_id: str) -> GameRecord | None:
        return self.record(game_id) if self.has_game(game_id) else None

    def replay(self, record: GameRecord) -> Game:
        try:
            return replay(record.document, record.snapshot)
        except ValidationError as exc:  # said in one line, in the player's words
            from scorer.validation import problems

            model = Ruleset if exc.title == Ruleset.__name__ else GameDocument
            why: Message = problems(exc, model=cast("type[BaseModel]", model))
            raise StoreError(Message("store.problem_no_longer_scores", game=record.id, why=why)) from None
        except ScorerError as exc:
            why = message_of(exc) or Message("store.os_said", text=str(exc))
            raise StoreError(Message("store.problem_no_longer_scores", game=record.id, why=why)) from None

    def check_open(self, record: GameRecord | GameRow) -> None:
        if record.season is None:
            return
        season = self.index().seasons.get(record.season)
        if season is not None and season.closed is not None:
            raise SeasonClosedError(
                Message("store.game_season_closed", game=record.id, season=repr(season.name))
            )

    def select(self, *, league: str | None, season: str | None) -> list[GameRow]:
        """Games in the order played, of one league (and season) if asked."""
        if league is not None:
            doc = self.league_doc(league)
            game = Query()
            if season is not None:
                season_id = self.season_doc(doc, season).id
                rows = self._search("games", (game.league == doc.id) & (game.season == season_id))
            else:
                rows = self._search("games", game.league == doc.id)
        elif season is not None:
            raise StoreInputError(Message("store.season_without_league"))
        else:
            rows = self._search("games", None)
        return sorted((GameRow(r, self) for r in rows), key=lambda e: (e.row["played"], e.row["id"]))

    def _search(self, table: str, condition: Any) -> list[Mapping[str, Any]]:
        """The rows of ``table`` that TinyDB's query ``condition`` (``None``: every row) holds
        for, as its storage holds them, for reading only. TinyDB's own ``search`` copies each
        row it returns into a ``Document``: the copies of 5,000 games were a tenth of the
        standings. A :class:`GameRow` of one never changes it (its bulky fields come in a copy)."""
        tables: Any = self.db.storage.read()
        rows: dict[str, Mapping[str, Any]] = tables.get(table) or {}
        if condition is None:
            return list(rows.values())
        return [row for row in rows.values() if condition(row)]

    def played(self, *, league: str | None, season: str | None) -> list[PlayedGame]:
        """The games of :meth:`select` as the standings take them (player keys are ids), but
        for the abandoned and deleted, which count nowhere. Read from the rows themselves:
        a :class:`GameRow`'s attribute looks the field up twice (thousands of games)."""
        played: list[PlayedGame] = []
        for entry in self.select(league=league, season=season):
            row = entry.row
            if row["status"] == "active":
                summary = self.summary(entry)
                played.append(
                    PlayedGame(
                        id=row["id"], season=row["season"] or "", played=row["played"], summary=summary
                    )
                )
        return played

    def games_mark(self) -> int:
        """How many game rows have been put so far: the mark :meth:`played_since` goes on from."""
        return len(self._games_put)

    def played_since(self, games: Sequence[PlayedGame], at: int, *, league: str) -> list[PlayedGame] | None:
        """``games``, what :meth:`played` gave for the league of id ``league`` (every season) at
        the mark ``at`` (:meth:`games_mark`), as it gives them now: only the games put since are
        read again (a deal saved is one game, not the league's thousands). ``None`` when more
        than a tenth of them changed: :meth:`played` is then as quick."""
        changed = set(self._games_put[at:])
        if len(changed) > max(64, len(games) // 10):
            return None
        kept = [g for g in games if g.id not in changed] if changed else list(games)
        fresh: list[PlayedGame] = []
        for key in changed:
            if not self.has_game(key):
                continue
            entry = self.game_row(key)
            row = entry.row
            if row.get("league") == league and row["status"] == "active":
                season, summary = row["season"] or "", self.summary(entry)
                fresh.append(PlayedGame(id=key, season=season, played=row["played"], summary=summary))
        if not fresh:
            return kept
        fresh.sort(key=lambda g: (g.played, g.id))
        if kept and (kept[-1].played, kept[-1].id) > (fresh[0].played, fresh[0].id):
            return sorted([*kept, *fresh], key=lambda g: (g.played, g.id))
        return [*kept, *fresh]

    def rated(self, games: Sequence[PlayedGame], *, league: str, season: str | None) -> Ratings:
        """The ratings of ``games``, the played games of the league of id ``league`` (or of its
        season of id ``season``) in the order played, as :meth:`played` gives them, going on
        from the run kept for them, which is then kept for the next time and for the
        checkpoint: a new finished game is one more step, not every game of the league again."""
        key = f"{league}\t{season or ''}"
        now = len(self._games_put)
        at = self._runs_at.get(key)
        changed = None if at is None else set(self._games_put[at:])  # since the run was made
        # resume rates the finished games alone; the games are in the order played (select)
        run = self.rating_runs.get(key)
        ratings, self.rating_runs[key] = resume(games, run, changed=changed, ordered=True)
        self._runs_at[key] = now
        return ratings

    def current_runs(self) -> list[str]:
        """The keys of the runs made of the games as they are now (no game row put since), as a
        checkpoint says which of its runs its tables were rated to: going on from one of those
        needs no check of every game against it (:func:`~scorer.league.ratings.resume`)."""
        now = len(self._games_put)
        return sorted(k for k, at in self._runs_at.items() if at == now and k in self.rating_runs)

    def rate_leagues(self) -> None:
        """Bring every league's ratings up to date, as a checkpoint keeps them for the
        standings of its position, where every game's summary is at hand: a league with a game
        that would have to be replayed first (a state folded from the log, whose summaries are
        computed when first read) is left to its standings, so that the write saving the
        checkpoint never replays thousands of games; one whose games no longer score, too (its
        standings say why when asked)."""
        for league in list(self.index().leagues.values()):
            rows = self._search("games", Query().league == league.id)
            if not all(self._summary_at_hand(row) for row in rows if row["status"] == "active"):
                continue
            try:
                self.rated(self.played(league=league.id, season=None), league=league.id, season=None)
            except (ScorerError, ValueError):
                continue

    def every_summary_at_hand(self, *, kept_only: bool = False) -> bool:
        """Whether the summary of every game that counts is known without replaying it
        (``kept_only``: known from the checkpoint the state was read from)."""
        for row in self._search("games", None):
            if row["status"] != "active":
                continue
            if kept_only:
                if self._kept_row(row["id"], row["rev"]) is None:
                    return False
            elif not self._summary_at_hand(row):
                return False
        return True

    def summaries_wanted(self) -> dict[str, int]:
        """The revision of each game (of any status) whose summary is not at hand: what a
        store that keeps summaries elsewhere (PostgreSQL's read rows) could fill in, read
        without bringing in any game's bulky fields."""
        rows = self._search("games", None)
        return {row["id"]: row["rev"] for row in rows if not self._summary_at_hand(row)}

    def _kept_row(self, game_id: str, rev: int) -> Sequence[Any] | None:
        """The checkpoint's summary row of the game at revision ``rev``, if it kept one made by
        this code version."""
        kept = self._kept.get(game_id)
        if type(kept) is list and len(kept) == 2 and kept[0] == rev and self._kept_code == CODE_VERSION:
            row: Sequence[Any] = kept[1]
            return row
        return None

    def _summary_at_hand(self, row: Mapping[str, Any]) -> bool:
        """Whether the summary of the game of ``row`` is known without replaying it."""
        game_id, rev = row["id"], row["rev"]
        parsed = self._parsed.get(game_id)
        if parsed is not None and parsed[0] == rev:
            return True
        if self._kept_row(game_id, rev) is not None:
            return True
        cached = self.summaries.get(game_id)
        return cached is not None and cached.get("rev") == rev and cached.get("code") == CODE_VERSION

    def summary(self, entry: GameRow | GameRecord, *, game: Game | None = None) -> GameSummary:
        """The game's summary, computed once per revision of the game and version of the code."""
        game_id, rev = (
            (entry.row["id"], entry.row["rev"]) if isinstance(entry, GameRow) else (entry.id, entry.rev)
        )
        hit = self._parsed.get(game_id)
        if hit is not None and hit[0] == rev:
            return hit[1]
        summary: GameSummary | None = None
        kept = self._kept_row(game_id, rev)
        if kept is not None:
            try:  # the checkpoint's sum and code version vouch for each part's type
                summary = GameSummary.from_row(kept, checked=False)
            except InvalidSummaryError:
                summary = None
        cached = self.summaries.get(game_id) if summary is None else None
        if cached is not None and cached.get("rev") == rev and cached.get("code") == CODE_VERSION:
            try:
                summary = GameSummary.from_dict(cached["summary"])
            except (ValueError, KeyError, TypeError):
                summary = None
        if summary is None:
            record = entry if isinstance(entry, GameRecord) else self.record(game_id)
            played = game or self.replay(record)
            summary = summarize(played).with_players(seat_ids(played, record))
            self.summaries[game_id] = {"rev": rev, "code": CODE_VERSION, "summary": summary.to_dict()}
        self._parsed[game_id] = (rev, summary)
        return summary

    def kept_summaries(self) -> tuple[str, dict[str, list[Any]]]:
        """Every summary of this code version the state has, as a checkpoint keeps them:
        this code version and ``[rev, row]`` by game id (see :attr:`_kept`)."""
        kept: dict[str, list[Any]] = {}
        if self._kept_code == CODE_VERSION:
            kept.update((k, list(e)) for k, e in self._kept.items() if type(e) is list and len(e) == 2)
        for game_id, cached in self.summaries.items():
            if game_id in self._parsed or cached.get("code") != CODE_VERSION:
                continue
            try:
                row = GameSummary.from_dict(cached["summary"]).to_row()
            except (InvalidSummaryError, KeyError, TypeError):
                continue
            if row is not None:
                kept[game_id] = [cached.get("rev"), row]
        made = self._rows_made
        for game_id, (rev, summary) in self._parsed.items():
            hit = made.get(game_id)
            if hit is not None and hit[0] is summary:  # the row made for the last checkpoint
                row = hit[1]
            else:
                row = summary.to_row()
                made[game_id] = (summary, row)
            if row is not None:
                kept[game_id] = [rev, row]
        return CODE_VERSION, kept

    # -- nights ---------------------------------------------------------------------------------

    def night_docs(self, league_id: str | None = None) -> list[NightDoc]:
        rows = (
            self.db.table("nights").all()
            if league_id is None
            else self.db.table("nights").search(Query().league == league_id)
        )
        docs = [self.parse(NightDoc, r, table="nights") for r in rows]
        return sorted(docs, key=lambda d: (d.created, d.id))


def _replacing(row: dict[str, Any]) -> Callable[[MutableMapping[Any, Any]], None]:
    def replace(doc: MutableMapping[Any, Any]) -> None:
        doc.clear()
        doc.update(row)

    return replace


# -- the fold, one function per kind ------------------------------------------------------------


def _event(
    row: Mapping[str, Any],
    fact: Fact,
    action: str,
    *,
    deal: int | None = None,
    was: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    events = row.get("events") or []
    seq = max((int(e.get("seq", 0)) for e in events), default=0) + 1
    why = (
        fact.why
        if action in {"corrected", "removed", "abandoned", "deleted", "replaced", *_PENALTY_ACTIONS}
        else None
    )
    return GameEvent(seq=seq, at=fact.at, by=fact.by, action=action, deal=deal, why=why, was=was).to_dict()


def _without_record(fact: Fact, table: str, key: str) -> StoreError:
    """The refusal of a fact about a record the state does not have (a log no store wrote)."""
    return StoreError(Message("store.fact_without_record", kind=fact.kind, table=table, id=key))


def _existing(state: State, table: str, key: str, fact: Fact) -> dict[str, Any]:
    """The row ``fact`` is about (refused when there is none)."""
    row = state.get(table, key)
    if row is None:
        raise _without_record(fact, table, key)
    return row


def _touch(state: State, table: str, key: str, fact: Fact, **changes: Any) -> dict[str, Any]:
    row = _existing(state, table, key, fact)
    row.update(changes)
    row["changed"] = fact.at
    state.put(table, row)
    return row


def _game_changed(
    state: State,
    fact: Fact,
    action: str,
    *,
    deal: int | None = None,
    change: Callable[[dict[str, Any]], None] | None = None,
    was: Mapping[str, Any] | None = None,
    **fields: Any,
) -> None:
    row = _existing(state, "games", fact.data.game, fact)
    if action == "corrected" and deal is not None:  # the deal as it was: the history says what changed
        before = row["document"].get("deals") or []
        was = before[deal - 1] if 0 < deal <= len(before) else None
    if change is not None:
        # A new document and deals list (the rest shared: a change replaces a deal, never edits
        # one in place); a deep copy of every deal at every fact made the fold of a long game
        # quadratic in its deals.
        document = dict(row["document"])
        if isinstance(document.get("deals"), list):
            document["deals"] = list(document["deals"])
        change(document)
        if not document.get("deals"):  # as the game file writes a game of no deals
            document.pop("deals", None)
        row["document"] = document
    row.update(fields)
    row["events"] = [*(row.get("events") or []), _event(row, fact, action, deal=deal, was=was)]
    row["changed"] = fact.at
    row["rev"] = int(row.get("rev", 0)) + 1
    state.put("games", row)


def _league_created(state: State, fact: Fact) -> None:
    d = fact.data
    state.put("leagues", LeagueDoc(id=d.league, name=d.name, created=fact.at, changed=fact.at).model_dump())
    season = SeasonDoc(
        id=d.season, league=d.league, name=d.season_name, number=1, created=fact.at, changed=fact.at
    )
    state.put("seasons", season.model_dump())


def _season_opened(state: State, fact: Fact) -> None:
    d = fact.data
    season = SeasonDoc(
        id=d.season,
        league=d.league,
        name=d.name,
        number=d.number,
        created=d.created or fact.at,
        changed=fact.at,
        closed=d.closed,
    )
    state.put("seasons", season.model_dump())


def _player_added(state: State, fact: Fact) -> None:
    d = fact.data
    state.put("players", PlayerDoc(id=d.player, name=d.name, created=fact.at, changed=fact.at).model_dump())


def _player_merged(state: State, fact: Fact) -> None:
    gone, kept = fact.data.player, fact.data.into
    ids = {gone: kept}
    for row in state.find("games", Query().players.any([gone]) | Query().substitutes.any([gone])):
        moved = renamed_ids(row, ids)
        moved["changed"] = fact.at
        moved["rev"] = int(row.get("rev", 0)) + 1
        state.put("games", moved)
    for row in state.rows("nights"):
        moved = renamed_ids(row, ids)
        if moved != row:
            moved["changed"] = fact.at
            state.put("nights", moved)
    _touch(state, "players", gone, fact, merged_into=kept)


def _kept_player(state: State, player: str) -> str:
    """The player kept for ``player``: itself, or the one it was merged into (a game started
    on a device that had not yet heard of the merge names the one person all the same)."""
    seen = {player}
    row = state.get("players", player)
    while row is not None and row.get("merged_into") and row["merged_into"] not in seen:
        player = str(row["merged_into"])
        seen.add(player)
        row = state.get("players", player)
    return player


def _game_started(state: State, fact: Fact) -> None:
    d = fact.data
    record = GameRecord(
        id=d.game,
        created=fact.at,
        changed=fact.at,
        league=d.league,
        season=d.season,
        played=fact.at,
        rev=1,
        players=[_kept_player(state, p) for p in d.players],
        document=dict(d.document),
        snapshot=dict(d.ruleset),
        events=[GameEvent(seq=1, at=fact.at, by=fact.by, action="started", deal=None, why=None).to_dict()],
        night=d.night,
        night_round=d.round,
        night_table=d.table,
        deadline=d.deadline,
        confirmation=d.confirmation,
    )
    state.put("games", record.model_dump())


def _deals(document: dict[str, Any]) -> list[Any]:
    deals = document.get("deals")
    if not isinstance(deals, list):
        deals = []
        document["deals"] = deals
    return deals


def _calls_after(document: dict[str, Any], called: int | None) -> None:
    if called is None:
        document.pop("ends_after", None)
    else:
        document["ends_after"] = called


def _deal_recorded(state: State, fact: Fact) -> None:
    d = fact.data
    _game_changed(state, fact, "recorded", deal=d.number, change=lambda doc: _deals(doc).append(dict(d.deal)))


def _deal_corrected(state: State, fact: Fact) -> None:
    d = fact.data

    def change(doc: dict[str, Any]) -> None:
        _deals(doc)[d.number - 1] = dict(d.deal)

    _game_changed(state, fact, "corrected", deal=d.number, change=change)


def _deal_removed(state: State, fact: Fact) -> None:
    # A call stays on the deal it was made after (Game.remove_deal): removing an earlier deal
    # moves it one deal back, and removing the called deal itself lifts it.
    d = fact.data

    def change(doc: dict[str, Any]) -> None:
        index = d.number - 1
        del _deals(doc)[index]
        called = doc.get("ends_after")
        if isinstance(called, int) and index < called:
            _calls_after(doc, called - 1 if index < called - 1 else None)

    _game_changed(state, fact, "removed", deal=d.number, change=change)


def _deal_restored(state: State, fact: Fact) -> None:
    # A call made after a later deal moves one deal on with it (Game.insert_deal).
    d = fact.data

    def change(doc: dict[str, Any]) -> None:
        index = d.number - 1
        _deals(doc).insert(index, dict(d.deal))
        called = doc.get("ends_after")
        if isinstance(called, int) and index < called:
            _calls_after(doc, called + 1)

    _game_changed(state, fact, "restored", deal=d.number, change=change)


def _game_called(state: State, fact: Fact) -> None:
    row = _existing(state, "games", fact.data.game, fact)
    document = copy.deepcopy(row["document"])
    _calls_after(document, fact.data.after)
    row["document"] = document
    row["rev"] = int(row.get("rev", 0)) + 1
    state.put("games", row)


def _deal_checked(action: str) -> Callable[[State, Fact], None]:
    """A deal confirmed, disputed or resolved (:mod:`scorer.league.confirm`): one more signed
    event of the game, carrying the digest of the deal it was about (the deal is unchanged)."""

    def fold(state: State, fact: Fact) -> None:
        d = fact.data
        row = _existing(state, "games", d.game, fact)
        check: dict[str, Any] = {"digest": d.digest}
        if action == "disputed" and d.deal is not None:
            check["theirs"] = dict(d.deal)
        if action == "resolved":
            check["keep"] = d.keep
        events = row.get("events") or []
        seq = max((int(e.get("seq", 0)) for e in events), default=0) + 1
        event = GameEvent(
            seq=seq, at=fact.at, by=fact.by, action=action, deal=d.number, why=fact.why, check=check
        )
        row["events"] = [*events, event.to_dict()]
        row["changed"] = fact.at
        row["rev"] = int(row.get("rev", 0)) + 1
        state.put("games", row)

    return fold


def _league_confirmation(state: State, fact: Fact) -> None:
    _touch(state, "leagues", fact.data.league, fact, confirmation=fact.data.on)


def _status(action: str, status: str | None) -> Callable[[State, Fact], None]:
    def fold(state: State, fact: Fact) -> None:
        if status is None:
            _game_changed(state, fact, action)
            return
        if status == "before":
            row = state.get("games", fact.data.game) or {}
            _game_changed(state, fact, action, status=status_before(row.get("events") or []))
            return
        _game_changed(state, fact, action, status=status)

    return fold


def _game_moved(state: State, fact: Fact) -> None:
    _game_changed(state, fact, "moved", league=fact.data.league, season=fact.data.season)


def _game_imported(state: State, fact: Fact) -> None:
    record = GameRecord.model_validate(dict(fact.data.record))
    state.put("games", record.model_dump())


def off_chain(fact: Fact, head: str | None) -> bool:
    """Whether ``fact`` (about a game or night whose last folded fact is ``head``) is off the
    chain: it names another fact before it than the head (a fact written before facts named
    the one before them names none, and folds as ever). A join is never off the chain."""
    return (
        fact.prev is not None
        and head is not None
        and fact.prev != head
        and fact.kind != "game.joined"
        and fact.kind not in BEGINNINGS
    )


def _game_joined(state: State, fact: Fact) -> None:
    """The game as the history kept leaves it (the fact's ``record``): its rev goes on from
    this store's (a summary kept for a rev is never taken for another game state)."""
    row = _existing(state, "games", fact.data.game, fact)
    record = GameRecord.model_validate(dict(fact.data.record)).model_dump()
    record["rev"] = max(int(row.get("rev", 0)), int(record.get("rev", 0))) + 1
    state.put("games", record)


def _game_extended(state: State, fact: Fact) -> None:
    d = fact.data
    row = _existing(state, "games", d.game, fact)
    had = len(row["document"].get("deals") or [])
    events = list(row.get("events") or [])
    for number in range(had + 1, len(d.document.get("deals") or []) + 1):
        events.append(_event({"events": events}, fact, "recorded", deal=number))
    row.update(dict(d.tags))
    row.update(document=dict(d.document), events=events, changed=fact.at, rev=int(row.get("rev", 0)) + 1)
    state.put("games", row)


def _night_started(state: State, fact: Fact) -> None:
    d = fact.data
    night = NightDoc(
        id=d.night,
        created=fact.at,
        changed=fact.at,
        league=d.league,
        season=d.season,
        points=list(d.points),
        rounds=[],
        planned=d.planned,
        handicap=d.handicap,
        tiebreaks=list(d.tiebreaks) if d.tiebreaks is not None else list(DEFAULT_ORDER),
        bye_points=d.bye_points,
        late_byes=d.late_byes,
        confirmation=d.confirmation,
    )
    state.put("nights", night.model_dump())


def _round_seated(state: State, fact: Fact) -> None:
    rounds = _existing(state, "nights", fact.data.night, fact)["rounds"]
    _touch(state, "nights", fact.data.night, fact, rounds=[*rounds, dict(fact.data.round)])


def _night_ended(state: State, fact: Fact) -> None:
    _touch(state, "nights", fact.data.night, fact, planned=fact.data.rounds)


def _coin_flipped(state: State, fact: Fact) -> None:
    flips = _existing(state, "nights", fact.data.night, fact).get("flips") or []  # none kept before
    _touch(state, "nights", fact.data.night, fact, flips=[*flips, list(fact.data.players)])


def _night_imported(state: State, fact: Fact) -> None:
    state.put("nights", NightDoc.model_validate(dict(fact.data.record)).model_dump())


def _night_extended(state: State, fact: Fact) -> None:
    rounds = _existing(state, "nights", fact.data.night, fact)["rounds"]
    _touch(state, "nights", fact.data.night, fact, rounds=[*rounds, *map(dict, fact.data.rounds)])


# -- the director: penalties on a game, calls from a night's tables ------------------------------

_PENALTY_ACTIONS: Final = ("penalised", "penalty_lifted")


def _penalties(document: dict[str, Any]) -> list[Any]:
    penalties = document.get("penalties")
    if not isinstance(penalties, list):
        penalties = []
        document["penalties"] = penalties
    return penalties


def _game_penalised(state: State, fact: Fact) -> None:
    d = fact.data
    row = _existing(state, "games", d.game, fact)
    seats: list[str] = list(row.get("players") or [])
    if d.player not in seats:
        raise _without_record(fact, "players", d.player)
    name = str(row["document"]["players"][seats.index(d.player)])
    given = {
        "player": name,
        "points": d.points,
        "why": fact.why or "",
        "by": fact.by,
        "at": fact.at,
        "id": fact.id,
    }
    _game_changed(
        state,
        fact,
        "penalised",
        change=lambda doc: _penalties(doc).append(given),
        was={"player": name, "points": d.points, "penalty": fact.id},
    )


def _penalty_lifted(state: State, fact: Fact) -> None:
    d = fact.data
    row = _existing(state, "games", d.game, fact)
    given = [p for p in row["document"].get("penalties") or [] if p.get("id") == d.penalty]
    if not given:
        raise _without_record(fact, "penalties", d.penalty)
    lifted = given[0]

    def change(doc: dict[str, Any]) -> None:
        doc["penalties"] = [p for p in _penalties(doc) if p.get("id") != d.penalty]
        if not doc["penalties"]:
            del doc["penalties"]

    was = {"player": lifted.get("player"), "points": lifted.get("points"), "penalty": d.penalty}
    _game_changed(state, fact, "penalty_lifted", change=change, was=was)


def _seat_replaced(state: State, fact: Fact) -> None:
    """A player took over a seat: the game's document says who by name (its replay checks the
    seat, the holder and the deal), the record who by id (``substitutes``)."""
    d = fact.data
    row = _existing(state, "games", d.game, fact)
    names = [str(n) for n in row["document"].get("players") or []]
    if not 0 <= d.seat < len(names):
        raise _without_record(fact, "seats", str(d.seat + 1))
    ids = {**dict(zip(row.get("players") or [], names, strict=False))}
    done = row["document"].get("replacements") or []
    ids.update(zip(row.get("substitutes") or [], (str(r.get("replacement")) for r in done), strict=False))
    left = ids.get(_kept_player(state, d.player))
    if left is None:
        raise _without_record(fact, "players", d.player)
    came = _kept_player(state, d.replacement)
    player = state.get("players", came)
    if player is None:
        raise _without_record(fact, "players", came)
    replaced = {
        "seat": d.seat,
        "player": left,
        "replacement": str(player["name"]),
        "after": d.after,
        "why": fact.why or "",
        "by": fact.by,
        "at": fact.at,
        "id": fact.id,
    }

    def change(doc: dict[str, Any]) -> None:
        doc["replacements"] = [*(doc.get("replacements") or []), replaced]

    _game_changed(
        state,
        fact,
        "replaced",
        change=change,
        was={"seat": d.seat + 1, "player": left, "replacement": replaced["replacement"], "after": d.after},
        substitutes=[*(row.get("substitutes") or []), came],
    )


def _director_called(state: State, fact: Fact) -> None:
    d = fact.data
    _existing(state, "games", d.game, fact)
    _existing(state, "nights", d.night, fact)
    call = {
        "id": d.call,
        "night": d.night,
        "game": d.game,
        "round": d.round,
        "table": d.table,
        "reason": d.reason,
        "note": d.note,
        "at": fact.at,
        "by": fact.by,
        "answered": None,
        "answer": None,
        "answered_by": None,
    }
    state.put("calls", call)


def _call_answered(state: State, fact: Fact) -> None:
    row = _existing(state, "calls", fact.data.call, fact)
    row.update(answered=fact.at, answer=fact.data.note, answered_by=fact.by)
    state.put("calls", row)


_MODELS: Final[dict[str, Any]] = {
    "players": PlayerDoc,
    "leagues": LeagueDoc,
    "seasons": SeasonDoc,
    "games": GameRecord,
    "nights": NightDoc,
}


def _record_kept(state: State, fact: Fact) -> None:
    table = fact.data.table
    model = _MODELS.get(table)
    if model is None:
        raise _without_record(fact, table, "-")
    state.put(table, model.model_validate(dict(fact.data.record)).model_dump())


def _renamed(table: str, key: str) -> Callable[[State, Fact], None]:
    def fold(state: State, fact: Fact) -> None:
        _touch(state, table, getattr(fact.data, key), fact, name=fact.data.name)

    return fold


def _season_closed(state: State, fact: Fact) -> None:
    _touch(state, "seasons", fact.data.season, fact, closed=fact.at)


_FOLD: Final[dict[str, Callable[[State, Fact], None]]] = {
    "league.created": _league_created,
    "league.renamed": _renamed("leagues", "league"),
    "season.opened": _season_opened,
    "season.closed": _season_closed,
    "season.renamed": _renamed("seasons", "season"),
    "player.added": _player_added,
    "player.renamed": _renamed("players", "player"),
    "player.merged": _player_merged,
    "game.started": _game_started,
    "deal.recorded": _deal_recorded,
    "deal.corrected": _deal_corrected,
    "deal.removed": _deal_removed,
    "deal.restored": _deal_restored,
    "game.called": _game_called,
    "deal.confirmed": _deal_checked("confirmed"),
    "deal.disputed": _deal_checked("disputed"),
    "dispute.resolved": _deal_checked("resolved"),
    "league.confirmation": _league_confirmation,
    "game.finished": _status("finished", None),
    "game.abandoned": _status("abandoned", "abandoned"),
    "game.resumed": _status("resumed", "active"),
    "game.deleted": _status("deleted", "deleted"),
    "game.undeleted": _status("undeleted", "before"),
    "game.moved": _game_moved,
    "game.imported": _game_imported,
    "game.extended": _game_extended,
    "game.joined": _game_joined,
    "night.started": _night_started,
    "night.round_seated": _round_seated,
    "night.ended": _night_ended,
    "night.coin_flipped": _coin_flipped,
    "night.imported": _night_imported,
    "night.extended": _night_extended,
    "game.penalised": _game_penalised,
    "game.penalty_lifted": _penalty_lifted,
    "seat.replaced": _seat_replaced,
    "night.called": _director_called,
    "night.call_answered": _call_answered,
    "record.kept": _record_kept,
}
