"""The store's documents as records: reading, checking, caching and staging them.

:class:`Documents` is the layer under :class:`~scorer.league.store.Store` and the import
(:mod:`scorer.league.merge` applies imports through it). It turns the stored rows into
pydantic records, names a damaged file with its backup, keeps each document's parsed form
until the document changes, and writes games ahead-logged:
a game's shard entry first (marked pending), then its record, so that a kill between the
two is noticed and repaired by the next reader. Nothing here is public outside the package.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from pydantic import BaseModel, ValidationError
from tinydb import Query

import scorer
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.gamefile import GameDocument
from scorer.league.documents import (
    INDEX,
    JOURNAL_SINCE,
    SCHEMA_VERSION,
    GameEntry,
    GameRecord,
    LeagueDoc,
    PlayerDoc,
    RecordProblem,
    SeasonDoc,
    canonical_hash,
    game_name,
    kind_of,
    meta_table,
    migrate,
    now,
    parse_record,
    schema_of,
    shard_name,
    shard_of,
)
from scorer.league.errors import (
    DamagedFileError,
    LookAlikeError,
    SeasonClosedError,
    StoreError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
    UnknownSeasonError,
)
from scorer.league.storage import MISSING, Backend, FolderBackend, is_rebuildable, newest_good_backup
from scorer.league.summary import GameSummary, summarize
from scorer.messages import Message, message_of
from scorer.names import look_alike_message, looks_alike, name_key
from scorer.ruleset import Ruleset


def _code_version() -> str:
    """The version of the code that computes summaries: the package version and its sources' hash.

    The sources are the engine (every module directly in ``scorer/``: cards, rulesets, the
    referees, scoring, games) and the summary. A cached summary from any other code version
    is recomputed, never trusted.
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


CODE_VERSION = _code_version()

M = TypeVar("M", bound=BaseModel)

#: Parsed summaries kept between calls (entries of older shard versions are dropped with them).
SUMMARIES_KEPT = 200_000


def new_id() -> str:
    return str(uuid.uuid4())


class _Index:
    """The index document parsed: players, leagues and seasons by id."""

    def __init__(self, players: list[PlayerDoc], leagues: list[LeagueDoc], seasons: list[SeasonDoc]) -> None:
        self.players = {p.id: p for p in players}
        self.leagues = {league.id: league for league in leagues}
        self.seasons = {s.id: s for s in seasons}


class Documents:
    """Typed access to one backend's documents, within its transactions."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._parsed: dict[str, tuple[object, Any]] = {}
        self._summaries: dict[int, tuple[GameEntry, GameSummary]] = {}
        self._settled: set[tuple[str, int, str]] = set()  # pending entries found right
        self._clean: dict[str, object] = {}  # shard -> the version of it found all current

    def prepare(self) -> None:
        folder = self.backend if isinstance(self.backend, FolderBackend) else None
        if folder is not None:
            folder.sweep()
        data = self.backend.read(INDEX)
        if data is None and (self.backend.names("games") or (folder is not None and folder.journal.exists())):
            # Games without their index: never start an empty one over them.
            raise self.damaged(INDEX, MISSING)
        if data is None:
            self.backend.write(
                INDEX,
                {"meta": meta_table("index"), "players": {}, "leagues": {}, "seasons": {}, "shards": {}},
            )
            return
        version = schema_of(data)
        if version > SCHEMA_VERSION:
            migrate("index", dict(data), where=self.where(INDEX))  # raises NewerStoreError
        if version < SCHEMA_VERSION:
            self.migrate_all()
            self.count_games()
        if folder is not None and not folder.journal.exists():
            if version >= JOURNAL_SINCE:
                raise DamagedFileError(folder.journal.path, MISSING, None, rebuildable=True)
            folder.start_journal()  # a store from before the journal: its files are its history
        if folder is not None:
            self.check_views()

    def count_games(self) -> None:
        """The index's count of game files in each shard folder, made from the files themselves."""
        for folder in self.backend.names("games"):
            games = [n for n in self.backend.names(folder) if not n.endswith("/index")]
            shard = folder.split("/")[-1]
            self.put(INDEX, "shards", {"id": shard, "games": len(games)})

    def check_views(self) -> None:
        """Notice a missing file on opening: every shard folder the index counts games in has
        its game list and that many game files (a listing per folder, no file read).

        A game list that does not list its folder's games is noticed when it is read
        (:meth:`shard`). Raises :class:`DamagedFileError` naming the file; 'rummy league verify'
        lists every problem and 'rummy league restore' makes the files again.
        """
        counted = {
            str(row.get("id")): int(row.get("games", 0))
            for row in self.rows(INDEX, "shards")
            if isinstance(row, dict)
        }
        folders = {name.split("/")[-1] for name in self.backend.names("games")} | set(counted)
        for shard in sorted(folders):
            folder = f"games/{shard}"
            names = {n.split("/")[-1] for n in self.backend.names(folder)}
            files = len(names - {"index"})
            if "index" not in names and (files or counted.get(shard)):
                raise self.damaged(f"{folder}/index", MISSING)
            if counted.get(shard, 0) != files:
                miscount = Message(
                    "store.problem_miscount", counted=counted.get(shard, 0), folder=f"'{folder}'", files=files
                )
                raise self.damaged(f"{folder}/index", miscount)

    def migrate_all(self) -> None:
        """Bring every document to the current schema; the index is written last."""
        names = [n for folder in self.backend.names("games") for n in self.backend.names(folder)]
        for name in [*names, INDEX]:
            data = self.backend.read(name)
            if data is None:
                continue
            migrated, changed = migrate(kind_of(name), dict(data), where=self.where(name))
            if changed:
                self.backend.write(name, migrated)

    def where(self, name: str) -> str:
        if isinstance(self.backend, FolderBackend):
            return str(self.backend.path(name))
        return name

    def damaged(self, name: str, problem: Message) -> StoreError:
        if isinstance(self.backend, FolderBackend):
            path = self.backend.path(name)
            return DamagedFileError(path, problem, newest_good_backup(path), rebuildable=is_rebuildable(name))
        return StoreError(Message("store.damaged_document", name=f"'{name}'", problem=problem))

    def read(self, name: str) -> dict[str, dict[str, Any]] | None:
        data = self.backend.read(name)
        if data is not None and schema_of(data) != SCHEMA_VERSION:
            migrated, _ = migrate(kind_of(name), dict(data), where=self.where(name))
            return migrated
        return data

    def rows(self, name: str, table: str) -> list[Any]:
        data = self.read(name)
        if data is None:
            return []
        return list((data.get(table) or {}).values())

    def parse(self, model: type[M], row: Any, *, name: str) -> M:
        try:
            return parse_record(model, row)
        except RecordProblem as exc:
            raise self.damaged(name, exc.message) from None

    def cached(self, name: str, build: Any) -> Any:
        """``build(data)`` for the document as it is now, computed once per version of it."""
        data = self.read(name)
        hit = self._parsed.get(name)
        if hit is not None and hit[0] is data:
            return hit[1]
        value = build(data)
        self._parsed[name] = (data, value)
        return value

    def put(self, name: str, table: str, row: Mapping[str, Any]) -> None:
        """Insert or replace the row with this id (a new document gets its ``meta`` table).

        A new game file is counted in the index (see :meth:`check_views`).
        """
        kind = kind_of(name)
        database = self.backend.database(name)
        if self.backend.read(name) is None:
            database.table("meta").insert(meta_table(kind)["1"])
            if kind == "game":
                shard = shard_of(name.split("/")[-1]).split("/")[-1]
                found = next((r for r in self.rows(INDEX, "shards") if r.get("id") == shard), None)
                count = int(found.get("games", 0)) if found is not None else 0
                self.put(INDEX, "shards", {"id": shard, "games": count + 1})
        database.table(table).upsert(dict(row), Query().id == row["id"])

    # -- the index ----------------------------------------------------------------------

    def index(self) -> _Index:
        def build(data: Any) -> _Index:
            tables = data or {}
            return _Index(
                [self.parse(PlayerDoc, r, name=INDEX) for r in (tables.get("players") or {}).values()],
                [self.parse(LeagueDoc, r, name=INDEX) for r in (tables.get("leagues") or {}).values()],
                [self.parse(SeasonDoc, r, name=INDEX) for r in (tables.get("seasons") or {}).values()],
            )

        index: _Index = self.cached(INDEX, build)
        return index

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
                raise self.damaged(INDEX, Message("store.problem_merge_loop"))
            seen.add(found.id)
        return found

    def add_player(self, name: str, *, player_id: str | None = None, different: bool = False) -> PlayerDoc:
        """A new player named ``name`` (a clean name); one who looks like a player already here
        is refused (:class:`LookAlikeError`) unless the caller says it is a ``different`` person."""
        players = [p for p in self.index().players.values() if p.merged_into is None]
        self.refuse_look_alike(name, players, different=different)
        stamp = now()
        doc = PlayerDoc(id=player_id or new_id(), name=name, created=stamp, changed=stamp)
        self.put(INDEX, "players", doc.model_dump())
        return doc

    @staticmethod
    def refuse_look_alike(name: str, players: list[PlayerDoc], *, different: bool) -> None:
        """Refuse ``name`` for a player when another of ``players`` has it, or one that looks like it."""
        key = name_key(name)
        if any(name_key(p.name) == key for p in players):
            raise StoreInputError(Message("store.player_exists", value=repr(name)))
        like = None if different else next((p for p in players if looks_alike(p.name, name)), None)
        if like is not None:
            raise LookAlikeError(look_alike_message(name, like.name), name=name, existing=like.name)

    def shards(self) -> list[str]:
        return [f"{folder}/index" for folder in self.backend.names("games")]

    def shard(self, name: str) -> dict[str, GameEntry]:
        """A shard's entries, each checked: a pending or stale one is rebuilt from its game."""

        def build(data: Any) -> dict[str, GameEntry]:
            rows = (data or {}).get("games") or {}
            found = {e.id: e for e in (self.parse(GameEntry, r, name=name) for r in rows.values())}
            if isinstance(self.backend, FolderBackend):
                folder = name.rsplit("/", 1)[0]
                files = {n.split("/")[-1] for n in self.backend.names(folder)} - {"index"}
                unlisted = sorted(files - set(found))
                if unlisted:
                    raise self.damaged(name, Message("store.problem_unlisted", game=unlisted[0]))
            return found

        entries: dict[str, GameEntry] = self.cached(name, build)
        data = self.read(name)
        if data is not None and self._clean.get(name) is data:
            return entries
        stale = [
            e
            for e in entries.values()
            if e.code != CODE_VERSION or (e.pending and (e.id, e.rev, e.entries) not in self._settled)
        ]
        if not stale:
            self._clean[name] = data  # checked once for this version of the shard
            return entries
        for entry in stale:
            record = self.record_or_none(entry.id)
            if record is None:  # every change is journaled whole: a listed game has its file
                raise self.damaged(game_name(entry.id), MISSING)
            if (
                entry.code == CODE_VERSION
                and record.rev == entry.rev
                and _entries_hash(record) == entry.entries
            ):
                # Its record caught up: the entry is right. The flag is cleared on disk the next
                # time this shard is written anyway, so a read does not write for it.
                if len(self._settled) > SUMMARIES_KEPT:
                    self._settled.clear()
                self._settled.add((entry.id, entry.rev, entry.entries))
            else:
                self.put(name, "games", self.entry(record).model_dump())
        rebuilt: dict[str, GameEntry] = self.cached(name, build)
        return rebuilt

    def entries(self) -> list[GameEntry]:
        return [e for name in self.shards() for e in self.shard(name).values()]

    def state(self) -> tuple[object, ...]:
        """The documents standings depend on, as they are now: equal by identity while unchanged."""
        self.entries()  # settle pending entries first
        return (self.read(INDEX), *(self.read(name) for name in self.shards()))

    def entry_of(self, game_id: str) -> GameEntry:
        entry = self.shard(shard_name(game_id)).get(game_id) if _safe_id(game_id) else None
        if entry is None:
            raise UnknownGameError(Message("store.no_game", key=repr(game_id)))
        return entry

    def record(self, game_id: str) -> GameRecord:
        record = self.record_or_none(game_id)
        if record is None:
            raise self.damaged(game_name(game_id), Message("store.problem_game_missing"))
        return record

    def record_or_none(self, game_id: str) -> GameRecord | None:
        name = game_name(game_id)
        rows = self.rows(name, "game")
        if not rows:
            return None
        record: GameRecord = self.cached(name, lambda _: self.parse(GameRecord, rows[0], name=name))
        return record

    def replay(self, record: GameRecord) -> Game:
        try:
            return replay(record.document, record.snapshot)
        except (ValidationError, ScorerError) as exc:
            why = message_of(exc) or Message("store.os_said", text=str(exc))
            raise self.damaged(
                game_name(record.id), Message("store.problem_no_longer_scores", game=record.id, why=why)
            ) from None

    def entry(self, record: GameRecord, *, game: Game | None = None, pending: bool = False) -> GameEntry:
        """The shard entry of a game record, its summary computed now."""
        game = game or self.replay(record)
        summary = summarize(game).with_players(dict(zip(game.players, record.players, strict=True)))
        return GameEntry(
            id=record.id,
            created=record.created,
            changed=record.changed,
            league=record.league,
            season=record.season,
            played=record.played,
            ruleset=summary.ruleset,
            players=list(record.players),
            rev=record.rev,
            entries=_entries_hash(record),
            code=CODE_VERSION,
            summary=summary.to_dict(),
            pending=pending,
            origin=record.origin,
            status=record.status,
        )

    def write_game(self, record: GameRecord, *, rev: int, game: Game | None = None) -> GameRecord:
        """Write a game ahead-logged: its shard entry first (pending), then its record.

        A kill between the two leaves a pending entry whose revision the record does not
        have; the next reader rebuilds the entry from the record.
        """
        record = record.model_copy(update={"rev": rev})
        entry = self.entry(record, game=game, pending=True)
        shard = shard_name(record.id)
        for other in self.shard(shard).values():  # settle earlier pending entries first
            if other.pending and other.id != record.id:
                self.put(shard, "games", other.model_copy(update={"pending": False}).model_dump())
        self.put(shard, "games", entry.model_dump())
        self.put(game_name(record.id), "game", record.model_dump())
        return record

    def check_open(self, record: GameRecord) -> None:
        if record.season is None:
            return
        season = self.index().seasons.get(record.season)
        if season is not None and season.closed is not None:
            raise SeasonClosedError(
                Message("store.game_season_closed", game=record.id, season=repr(season.name))
            )

    def summary(self, entry: GameEntry) -> GameSummary:
        """The entry's cached summary, read once per version of its shard."""
        hit = self._summaries.get(id(entry))
        if hit is not None and hit[0] is entry:
            return hit[1]
        try:
            summary = _summary(entry.summary)
        except ValueError as exc:
            raise self.damaged(
                shard_name(entry.id), message_of(exc) or Message("store.os_said", text=str(exc))
            ) from None
        if len(self._summaries) > SUMMARIES_KEPT:
            self._summaries.clear()
        self._summaries[id(entry)] = (entry, summary)
        return summary

    def select(self, *, league: str | None, season: str | None) -> list[GameEntry]:
        entries = self.entries()
        if league is not None:
            doc = self.league_doc(league)
            entries = [e for e in entries if e.league == doc.id]
            if season is not None:
                season_id = self.season_doc(doc, season).id
                entries = [e for e in entries if e.season == season_id]
        elif season is not None:
            raise StoreInputError(Message("store.season_without_league"))
        return sorted(entries, key=lambda e: (e.played, e.id))


#: Whom the caller says are different people though their names look like a player's: every
#: new name (``True``), none (``False``), or those named (a list of names, not one string).
NewPlayers: TypeAlias = bool | Collection[str]


def different_people(new_players: NewPlayers) -> Callable[[str], bool]:
    """Whether a new name is said to be a different person from a player it looks like."""
    if isinstance(new_players, bool):
        return lambda name: new_players
    keys = {name_key(n) for n in new_players}
    return lambda name: name_key(name) in keys


def _entries_hash(record: GameRecord) -> str:
    return canonical_hash(
        {
            "document": record.document,
            "snapshot": record.snapshot,
            "players": record.players,
            "status": record.status,
        }
    )


def _safe_id(game_id: str) -> bool:
    return bool(game_id) and len(game_id) <= 100 and all(c.isalnum() or c == "-" for c in game_id)


def replay(document: Mapping[str, Any], snapshot: Mapping[str, Any]) -> Game:
    """The game of a stored document under its ruleset snapshot (raises ScorerError or ValidationError)."""
    ruleset = Ruleset.model_validate(dict(snapshot))
    parsed = GameDocument.model_validate(dict(document))
    return parsed.game(ruleset, tuple(d.to_deal() for d in parsed.deals))


def _summary(data: Mapping[str, Any]) -> GameSummary:
    """A cached summary read back: it was written by this code version from a checked summary,
    so its fields are taken as they are once its players agree; anything odd goes through
    :meth:`GameSummary.from_dict`, which names the problem.
    """
    try:
        players = tuple(data["players"])
        summary = GameSummary(**{**data, "players": players})
        seated = set(players)
        if set(summary.totals) == seated == set(summary.ranking) and summary.winner in (None, *players):
            return summary
    except (TypeError, KeyError):
        pass
    return GameSummary.from_dict(data)
