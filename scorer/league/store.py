"""The league store: players, leagues, seasons and games, kept for years.

Every public method is one transaction under the store's file lock: it reads what it
needs, stages its writes, and writes them only once everything has been checked, so a
refused request changes nothing. The layout (:mod:`scorer.league.documents`) keeps
recording a deal cheap whatever the size of the history; the standings are computed from
each game's cached summary (:mod:`scorer.league.summary`), which is rebuilt from the game's
raw entries whenever those entries or the scoring code have changed.

>>> store = Store.memory()
>>> league = store.create_league("Friday club")
>>> game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Friday club")
>>> game = store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"})
>>> game.result.totals
{'Anna': 0, 'Bea': 36}
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from tinydb import Query

import scorer
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.gamefile import DealDocument, GameDocument, game_document
from scorer.league.documents import (
    INDEX,
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
)
from scorer.league.errors import (
    DamagedFileError,
    SeasonClosedError,
    StoreError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
    UnknownSeasonError,
)
from scorer.league.records import GameInfo, League, Player, Season, StoredGame
from scorer.league.repair import Repair, restore
from scorer.league.standings import (
    HeadToHead,
    PlayedGame,
    PlayerStats,
    StandingRow,
    head_to_head,
    player_stats,
    standings,
)
from scorer.league.storage import Backend, FolderBackend, MemoryBackend, default_location
from scorer.league.summary import GameSummary, summarize
from scorer.ruleset import Ruleset, load_ruleset

_CODE_FILES = ("cards.py", "deal.py", "scoring.py", "game.py", "ruleset.py", "league/summary.py")


def _code_version() -> str:
    """The version of the code that computes summaries: the package version and its sources' hash.

    A cached summary from any other code version is recomputed, never trusted.
    """
    digest = hashlib.sha256()
    root = Path(scorer.__file__).parent
    for name in _CODE_FILES:
        try:
            digest.update((root / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return f"{scorer.__version__}+{digest.hexdigest()[:12]}"


CODE_VERSION = _code_version()

M = TypeVar("M", bound=BaseModel)


def new_id() -> str:
    return str(uuid.uuid4())


class _Index:
    """The index document parsed: players, leagues and seasons by id."""

    def __init__(self, players: list[PlayerDoc], leagues: list[LeagueDoc], seasons: list[SeasonDoc]) -> None:
        self.players = {p.id: p for p in players}
        self.leagues = {league.id: league for league in leagues}
        self.seasons = {s.id: s for s in seasons}


class Store:
    """The league store. Every method is one transaction under the file lock."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._parsed: dict[str, tuple[object, Any]] = {}
        with self._backend.transaction():
            self._prepare()

    @classmethod
    def open(cls, path: str | Path | None = None) -> Store:
        """The store in folder ``path``; ``None``: ``$RUMMY_DB``, else the per-user data folder."""
        folder = Path(path).expanduser() if path is not None else default_location()
        return cls(FolderBackend(folder))

    @classmethod
    def memory(cls) -> Store:
        """A store in memory (tests, previews)."""
        return cls(MemoryBackend())

    @classmethod
    def restore(cls, path: str | Path | None = None) -> list[Repair]:
        """Repair the damaged files of the store in ``path`` (see :mod:`scorer.league.repair`)."""
        folder = Path(path).expanduser() if path is not None else default_location()
        return restore(folder)

    @property
    def location(self) -> Path | None:
        """The store's folder (None in memory)."""
        return self._backend.location

    def _tx(self) -> AbstractContextManager[None]:
        return self._backend.transaction()

    # -- opening, schema ---------------------------------------------------------------

    def _prepare(self) -> None:
        if isinstance(self._backend, FolderBackend):
            self._backend.sweep()
        data = self._backend.read(INDEX)
        if data is None:
            self._backend.write(
                INDEX, {"meta": meta_table("index"), "players": {}, "leagues": {}, "seasons": {}}
            )
            return
        version = schema_of(data)
        if version > SCHEMA_VERSION:
            migrate("index", dict(data), where=self._where(INDEX))  # raises NewerStoreError
        if version < SCHEMA_VERSION:
            self._migrate_all()

    def _migrate_all(self) -> None:
        """Bring every document to the current schema; the index is written last."""
        names = [n for folder in self._backend.names("games") for n in self._backend.names(folder)]
        for name in [*names, INDEX]:
            data = self._backend.read(name)
            if data is None:
                continue
            migrated, changed = migrate(kind_of(name), dict(data), where=self._where(name))
            if changed:
                self._backend.write(name, migrated)

    def _where(self, name: str) -> str:
        if isinstance(self._backend, FolderBackend):
            return str(self._backend.path(name))
        return name

    def _damaged(self, name: str, problem: str) -> StoreError:
        if isinstance(self._backend, FolderBackend):
            from scorer.league.storage import newest_good_backup

            path = self._backend.path(name)
            return DamagedFileError(path, problem, newest_good_backup(path))
        return StoreError(f"the league document '{name}' is damaged ({problem})")

    def _read(self, name: str) -> dict[str, dict[str, Any]] | None:
        data = self._backend.read(name)
        if data is not None and schema_of(data) != SCHEMA_VERSION:
            migrated, _ = migrate(kind_of(name), dict(data), where=self._where(name))
            return migrated
        return data

    def _rows(self, name: str, table: str) -> list[Any]:
        data = self._read(name)
        if data is None:
            return []
        return list((data.get(table) or {}).values())

    def _parse(self, model: type[M], row: Any, *, name: str) -> M:
        try:
            return parse_record(model, row)
        except RecordProblem as exc:
            raise self._damaged(name, str(exc)) from None

    def _cached(self, name: str, build: Any) -> Any:
        """``build(data)`` for the document as it is now, computed once per version of it."""
        data = self._read(name)
        hit = self._parsed.get(name)
        if hit is not None and hit[0] is data:
            return hit[1]
        value = build(data)
        self._parsed[name] = (data, value)
        return value

    def _put(self, name: str, table: str, row: Mapping[str, Any]) -> None:
        """Insert or replace the row with this id (a new document gets its ``meta`` table)."""
        kind = kind_of(name)
        database = self._backend.database(name)
        if self._backend.read(name) is None:
            database.table("meta").insert(meta_table(kind)["1"])
        database.table(table).upsert(dict(row), Query().id == row["id"])

    # -- the index ----------------------------------------------------------------------

    def _index(self) -> _Index:
        def build(data: Any) -> _Index:
            tables = data or {}
            return _Index(
                [self._parse(PlayerDoc, r, name=INDEX) for r in (tables.get("players") or {}).values()],
                [self._parse(LeagueDoc, r, name=INDEX) for r in (tables.get("leagues") or {}).values()],
                [self._parse(SeasonDoc, r, name=INDEX) for r in (tables.get("seasons") or {}).values()],
            )

        index: _Index = self._cached(INDEX, build)
        return index

    def _league_doc(self, key: str) -> LeagueDoc:
        index = self._index()
        found = index.leagues.get(key.strip())
        if found is None:
            wanted = key.strip().casefold()
            found = next((lg for lg in index.leagues.values() if lg.name.casefold() == wanted), None)
        if found is None:
            known = ", ".join(sorted(lg.name for lg in index.leagues.values())) or "none yet"
            raise UnknownLeagueError(f"no league named {key!r} (leagues: {known})")
        return found

    def _seasons_of(self, league_id: str) -> list[SeasonDoc]:
        seasons = [s for s in self._index().seasons.values() if s.league == league_id]
        return sorted(seasons, key=lambda s: s.number)

    def _season_doc(self, league: LeagueDoc, key: str) -> SeasonDoc:
        seasons = self._seasons_of(league.id)
        wanted = key.strip()
        found = next((s for s in seasons if s.id == wanted), None)
        if found is None:
            found = next((s for s in seasons if s.name.casefold() == wanted.casefold()), None)
        if found is None:
            known = ", ".join(s.name for s in seasons)
            raise UnknownSeasonError(f"league {league.name!r} has no season {key!r} (seasons: {known})")
        return found

    def _open_season(self, league: LeagueDoc) -> SeasonDoc:
        season = next((s for s in reversed(self._seasons_of(league.id)) if s.closed is None), None)
        if season is None:
            raise SeasonClosedError(
                f"league {league.name!r} has no open season: start one with 'rummy league season new'"
            )
        return season

    def _player_doc(self, key: str) -> PlayerDoc:
        index = self._index()
        found = index.players.get(key.strip())
        if found is None:
            wanted = key.strip().casefold()
            found = next(
                (p for p in index.players.values() if p.merged_into is None and p.name.casefold() == wanted),
                None,
            )
        if found is None:
            raise UnknownPlayerError(f"no player named {key!r}")
        seen = {found.id}
        while found.merged_into is not None:  # a merged player answers as the one kept
            found = index.players[found.merged_into]
            if found.id in seen:
                raise self._damaged(INDEX, "players merged into each other")
            seen.add(found.id)
        return found

    def _league_value(self, doc: LeagueDoc) -> League:
        seasons = tuple(_season_value(s) for s in self._seasons_of(doc.id))
        return League(id=doc.id, name=doc.name, created=doc.created, changed=doc.changed, seasons=seasons)

    # -- leagues and seasons ------------------------------------------------------------

    def create_league(self, name: str, *, season: str | None = None) -> League:
        """A new league with its first season (named ``season``, else "Season 1")."""
        clean = _name(name, what="league")
        season_name = _name(season, what="season") if season is not None else "Season 1"
        with self._tx():
            if any(lg.name.casefold() == clean.casefold() for lg in self._index().leagues.values()):
                raise StoreInputError(f"a league named {clean!r} already exists")
            stamp = now()
            league = LeagueDoc(id=new_id(), name=clean, created=stamp, changed=stamp)
            first = SeasonDoc(
                id=new_id(), league=league.id, name=season_name, number=1, created=stamp, changed=stamp
            )
            self._put(INDEX, "leagues", league.model_dump())
            self._put(INDEX, "seasons", first.model_dump())
            return self._league_value(league)

    def leagues(self) -> list[League]:
        with self._tx():
            docs = sorted(self._index().leagues.values(), key=lambda lg: (lg.created, lg.id))
            return [self._league_value(d) for d in docs]

    def league(self, key: str) -> League:
        """A league by name or id; :class:`UnknownLeagueError` if there is none."""
        with self._tx():
            return self._league_value(self._league_doc(key))

    def close_season(self, league: str) -> Season:
        """Close the league's open season: its games and standings are frozen from now on."""
        with self._tx():
            doc = self._league_doc(league)
            season = self._open_season(doc)
            stamp = now()
            closed = season.model_copy(update={"closed": stamp, "changed": stamp})
            self._put(INDEX, "seasons", closed.model_dump())
            return _season_value(closed)

    def new_season(self, league: str, name: str | None = None) -> Season:
        """Start a new season (closing the open one); new games go to it."""
        with self._tx():
            doc = self._league_doc(league)
            seasons = self._seasons_of(doc.id)
            number = max((s.number for s in seasons), default=0) + 1
            clean = _name(name, what="season") if name is not None else f"Season {number}"
            if any(s.name.casefold() == clean.casefold() for s in seasons):
                raise StoreInputError(f"league {doc.name!r} already has a season named {clean!r}")
            stamp = now()
            for season in seasons:
                if season.closed is None:
                    self._put(
                        INDEX,
                        "seasons",
                        season.model_copy(update={"closed": stamp, "changed": stamp}).model_dump(),
                    )
            season = SeasonDoc(
                id=new_id(), league=doc.id, name=clean, number=number, created=stamp, changed=stamp
            )
            self._put(INDEX, "seasons", season.model_dump())
            return _season_value(season)

    # -- players ------------------------------------------------------------------------

    def players(self, *, league: str | None = None) -> list[Player]:
        """Every player (by name), or those who played in ``league``."""
        with self._tx():
            docs = [p for p in self._index().players.values() if p.merged_into is None]
            if league is not None:
                league_id = self._league_doc(league).id
                ids = {p for entry in self._entries() if entry.league == league_id for p in entry.players}
                docs = [p for p in docs if p.id in ids]
            return [_player_value(p) for p in sorted(docs, key=lambda p: (p.name.casefold(), p.id))]

    def player(self, key: str) -> Player:
        """A player by name or id (a merged player's old id gives the player kept)."""
        with self._tx():
            return _player_value(self._player_doc(key))

    def add_player(self, name: str) -> Player:
        with self._tx():
            return _player_value(self._add_player(_name(name, what="player")))

    def _add_player(self, name: str, *, player_id: str | None = None) -> PlayerDoc:
        if any(
            p.merged_into is None and p.name.casefold() == name.casefold()
            for p in self._index().players.values()
        ):
            raise StoreInputError(f"a player named {name!r} already exists")
        stamp = now()
        doc = PlayerDoc(id=player_id or new_id(), name=name, created=stamp, changed=stamp)
        self._put(INDEX, "players", doc.model_dump())
        return doc

    def rename_player(self, key: str, name: str) -> Player:
        clean = _name(name, what="player")
        with self._tx():
            doc = self._player_doc(key)
            for other in self._index().players.values():
                if (
                    other.id != doc.id
                    and other.merged_into is None
                    and other.name.casefold() == clean.casefold()
                ):
                    raise StoreInputError(f"a player named {clean!r} already exists")
            renamed = doc.model_copy(update={"name": clean, "changed": now()})
            self._put(INDEX, "players", renamed.model_dump())
            return _player_value(renamed)

    def merge_players(self, keep: str, other: str) -> Player:
        """Make ``other`` the same person as ``keep``: their games become ``keep``'s."""
        with self._tx():
            kept = self._player_doc(keep)
            gone = self._player_doc(other)
            if kept.id == gone.id:
                raise StoreInputError(f"{keep!r} and {other!r} are the same player already")
            entries = [e for e in self._entries() if gone.id in e.players]
            clash = next((e for e in entries if kept.id in e.players), None)
            if clash is not None:
                raise StoreInputError(
                    f"{kept.name} and {gone.name} played each other in game {clash.id}: "
                    "they are two people and cannot be merged"
                )
            for entry in entries:
                record = self._record(entry.id)
                seats = [kept.id if p == gone.id else p for p in record.players]
                stamp = now()
                self._write_game(
                    record.model_copy(update={"players": seats, "changed": stamp}), rev=record.rev + 1
                )
            stamp = now()
            self._put(
                INDEX,
                "players",
                gone.model_copy(update={"merged_into": kept.id, "changed": stamp}).model_dump(),
            )
            return _player_value(kept)

    # -- games: reading -----------------------------------------------------------------

    def _shards(self) -> list[str]:
        return [f"{folder}/index" for folder in self._backend.names("games")]

    def _shard(self, name: str) -> dict[str, GameEntry]:
        """A shard's entries, each checked: a pending or stale one is rebuilt from its game."""

        def build(data: Any) -> dict[str, GameEntry]:
            rows = (data or {}).get("games") or {}
            return {e.id: e for e in (self._parse(GameEntry, r, name=name) for r in rows.values())}

        entries: dict[str, GameEntry] = self._cached(name, build)
        stale = [e for e in entries.values() if e.pending or e.code != CODE_VERSION]
        if not stale:
            return entries
        for entry in stale:
            record = self._record_or_none(entry.id)
            if record is None:
                self._backend.database(name).table("games").remove(Query().id == entry.id)
                continue
            if (
                entry.code == CODE_VERSION
                and record.rev == entry.rev
                and _entries_hash(record) == entry.entries
            ):
                self._put(name, "games", entry.model_copy(update={"pending": False}).model_dump())
            else:
                self._put(name, "games", self._entry(record).model_dump())
        rebuilt: dict[str, GameEntry] = self._cached(name, build)
        return rebuilt

    def _entries(self) -> list[GameEntry]:
        return [e for name in self._shards() for e in self._shard(name).values()]

    def _entry_of(self, game_id: str) -> GameEntry:
        entry = self._shard(shard_name(game_id)).get(game_id) if _safe_id(game_id) else None
        if entry is None:
            raise UnknownGameError(f"no game with id {game_id!r}")
        return entry

    def _record(self, game_id: str) -> GameRecord:
        record = self._record_or_none(game_id)
        if record is None:
            raise self._damaged(game_name(game_id), "the game's file is missing")
        return record

    def _record_or_none(self, game_id: str) -> GameRecord | None:
        name = game_name(game_id)
        rows = self._rows(name, "game")
        if not rows:
            return None
        record: GameRecord = self._cached(name, lambda _: self._parse(GameRecord, rows[0], name=name))
        return record

    def _replay(self, record: GameRecord) -> Game:
        try:
            ruleset = Ruleset.model_validate(record.snapshot)
            document = GameDocument.model_validate(record.document)
            deals = tuple(d.to_deal() for d in document.deals)
            game = Game(ruleset=ruleset, players=tuple(document.players), first_dealer=document.first_dealer)
            return game.with_deals(deals)
        except (ValidationError, ScorerError) as exc:
            raise self._damaged(game_name(record.id), f"game {record.id} no longer scores: {exc}") from None

    def _entry(self, record: GameRecord, *, game: Game | None = None, pending: bool = False) -> GameEntry:
        """The shard entry of a game record, its summary computed now."""
        game = game or self._replay(record)
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
        )

    def _stored(self, record: GameRecord, game: Game | None = None) -> StoredGame:
        game = game or self._replay(record)
        result = game.result
        return StoredGame(
            id=record.id,
            league_id=record.league,
            season_id=record.season,
            created=record.created,
            changed=record.changed,
            played=record.played,
            players=tuple(record.players),
            document=dict(record.document),
            game=game,
            result=result,
            finished=result.finished,
        )

    def game(self, game_id: str) -> StoredGame:
        with self._tx():
            self._entry_of(game_id)
            return self._stored(self._record(game_id))

    def games(
        self, *, league: str | None = None, season: str | None = None, finished: bool | None = None
    ) -> list[GameInfo]:
        """Games in the order played, optionally of one league (and season), finished or not."""
        with self._tx():
            entries = self._select(league=league, season=season)
            names = {p.id: p.name for p in self._index().players.values()}
            infos = [self._info(e, names) for e in entries]
            if finished is not None:
                infos = [i for i in infos if i.finished == finished]
            return infos

    def _select(self, *, league: str | None, season: str | None) -> list[GameEntry]:
        entries = self._entries()
        if league is not None:
            doc = self._league_doc(league)
            entries = [e for e in entries if e.league == doc.id]
            if season is not None:
                season_id = self._season_doc(doc, season).id
                entries = [e for e in entries if e.season == season_id]
        elif season is not None:
            raise StoreInputError("a season is chosen within a league: give the league too")
        return sorted(entries, key=lambda e: (e.played, e.id))

    def _summary(self, entry: GameEntry) -> GameSummary:
        try:
            return GameSummary.from_dict(entry.summary)
        except ValueError as exc:
            raise self._damaged(shard_name(entry.id), str(exc)) from None

    def _info(self, entry: GameEntry, names: Mapping[str, str]) -> GameInfo:
        summary = self._summary(entry)
        return GameInfo(
            id=entry.id,
            league_id=entry.league,
            season_id=entry.season,
            ruleset=entry.ruleset,
            players=tuple(entry.players),
            names=tuple(names.get(p, p) for p in entry.players),
            created=entry.created,
            changed=entry.changed,
            played=entry.played,
            deals=summary.deals,
            finished=summary.finished,
            winner=summary.winner,
            summary=summary,
        )

    # -- games: writing -----------------------------------------------------------------

    def _write_game(self, record: GameRecord, *, rev: int, game: Game | None = None) -> GameRecord:
        """Write a game ahead-logged: its shard entry first (pending), then its record.

        A kill between the two leaves a pending entry whose revision the record does not
        have; the next reader rebuilds the entry from the record.
        """
        record = record.model_copy(update={"rev": rev})
        entry = self._entry(record, game=game, pending=True)
        shard = shard_name(record.id)
        for other in self._shard(shard).values():  # settle earlier pending entries first
            if other.pending and other.id != record.id:
                self._put(shard, "games", other.model_copy(update={"pending": False}).model_dump())
        self._put(shard, "games", entry.model_dump())
        self._put(game_name(record.id), "game", record.model_dump())
        return record

    def _check_open(self, record: GameRecord) -> None:
        if record.season is None:
            return
        season = self._index().seasons.get(record.season)
        if season is not None and season.closed is not None:
            raise SeasonClosedError(
                f"game {record.id} belongs to the closed season {season.name!r}: its games are final"
            )

    def start_game(
        self,
        *,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        league: str | None = None,
        season: str | None = None,
        first_dealer: int = 0,
    ) -> StoredGame:
        """A new game; players are given by name or id, and a new name becomes a new player.

        The ruleset with its options is stored with the game (a snapshot), so a later change
        to a ruleset file never changes this game's result.
        """
        rules = load_ruleset(ruleset, options=options)
        with self._tx():
            league_id = season_id = None
            if league is not None:
                league_doc = self._league_doc(league)
                season_doc = (
                    self._season_doc(league_doc, season)
                    if season is not None
                    else self._open_season(league_doc)
                )
                if season_doc.closed is not None:
                    raise SeasonClosedError(
                        f"season {season_doc.name!r} is closed: new games go to the open season"
                    )
                league_id, season_id = league_doc.id, season_doc.id
            elif season is not None:
                raise StoreInputError("a season is chosen within a league: give the league too")
            docs = self._seat(players)
            game = Game(ruleset=rules, players=tuple(p.name for p in docs), first_dealer=first_dealer)
            document = game_document(game, ruleset_id=rules.id, options=dict(options or {}))
            stamp = now()
            record = GameRecord(
                id=new_id(),
                created=stamp,
                changed=stamp,
                league=league_id,
                season=season_id,
                played=stamp,
                rev=1,
                players=[p.id for p in docs],
                document=document,
                snapshot=rules.model_dump(mode="json"),
            )
            # A new game: its record first, so a kill leaves at worst an unlisted file.
            self._put(game_name(record.id), "game", record.model_dump())
            self._put(shard_name(record.id), "games", self._entry(record, game=game).model_dump())
            return self._stored(record, game)

    def _seat(self, keys: Sequence[str]) -> list[PlayerDoc]:
        """The players of a new game by name or id; new names become players."""
        docs = []
        for key in keys:
            try:
                docs.append(self._player_doc(key))
            except UnknownPlayerError:
                docs.append(self._add_player(_name(key, what="player")))
        ids = [d.id for d in docs]
        if len(set(ids)) != len(ids):
            twice = sorted({d.name for d in docs if ids.count(d.id) > 1})
            raise StoreInputError(
                f"players: {', '.join(twice)} named twice; each player needs their own seat"
            )
        return docs

    def _change(self, game_id: str, change: Any) -> StoredGame:
        with self._tx():
            self._entry_of(game_id)
            record = self._record(game_id)
            self._check_open(record)
            game = change(self._replay(record))
            document = game_document(
                game, ruleset_id=str(record.document["ruleset"]), options=record.document.get("options")
            )
            changed = record.model_copy(update={"document": document, "changed": now()})
            written = self._write_game(changed, rev=record.rev + 1, game=game)
            return self._stored(written, game)

    def add_deal(self, game_id: str, deal: Mapping[str, Any]) -> StoredGame:
        """Record one more deal (a game-file deal object); an invalid deal changes nothing."""
        parsed = _deal(deal)
        return self._change(game_id, lambda game: game.add(parsed))

    def replace_deal(self, game_id: str, index: int, deal: Mapping[str, Any]) -> StoredGame:
        """Correct deal ``index`` (0-based); every later deal is scored again."""
        parsed = _deal(deal, number=index + 1)
        return self._change(game_id, lambda game: game.replace_deal(index, parsed))

    def remove_deal(self, game_id: str, index: int) -> StoredGame:
        return self._change(game_id, lambda game: game.remove_deal(index))

    def delete_game(self, game_id: str) -> None:
        with self._tx():
            self._entry_of(game_id)
            self._check_open(self._record(game_id))
            # The entry goes first: a kill in between leaves an unlisted file, never a listed ghost.
            self._backend.database(shard_name(game_id)).table("games").remove(Query().id == game_id)
            self._backend.delete(game_name(game_id))

    # -- standings ----------------------------------------------------------------------

    def played_games(self, league: str, *, season: str | None = None) -> list[PlayedGame]:
        """The league's games as the standings functions take them (player keys are ids)."""
        with self._tx():
            return [
                PlayedGame(id=e.id, season=e.season or "", played=e.played, summary=self._summary(e))
                for e in self._select(league=league, season=season)
            ]

    def standings(
        self, league: str, *, season: str | None = None, ruleset: str | None = None
    ) -> list[StandingRow]:
        """The league's standings (player keys are player ids), best first."""
        return standings(self.played_games(league, season=season), ruleset=ruleset)

    def player_stats(self, league: str, player: str) -> PlayerStats:
        games = self.played_games(league)
        return player_stats(games, self.player(player).id)

    def head_to_head(self, league: str, a: str, b: str) -> HeadToHead:
        games = self.played_games(league)
        return head_to_head(games, self.player(a).id, self.player(b).id)


def _entries_hash(record: GameRecord) -> str:
    return canonical_hash(
        {"document": record.document, "snapshot": record.snapshot, "players": record.players}
    )


def _safe_id(game_id: str) -> bool:
    return bool(game_id) and len(game_id) <= 100 and all(c.isalnum() or c == "-" for c in game_id)


def _name(value: str | None, *, what: str) -> str:
    clean = (value or "").strip()
    if not clean:
        raise StoreInputError(f"a {what} needs a name")
    if len(clean) > 100:
        raise StoreInputError(f"{what} name {clean[:20]!r}... is too long (100 characters at most)")
    return clean


def _deal(deal: Mapping[str, Any], *, number: int | None = None) -> Any:
    where = f"deal {number}" if number is not None else "the deal"
    if not isinstance(deal, Mapping):
        raise StoreInputError(f"{where}: a deal is a table of fields, not {type(deal).__name__}")
    try:
        return DealDocument.model_validate(dict(deal)).to_deal()
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "the deal"
        shown = f" (got {err['input']!r})" if err["type"] != "missing" else ""
        if err["type"] == "extra_forbidden":
            raise StoreInputError(f"{where}: unknown field {field!r}") from None
        raise StoreInputError(f"{where}, {field}: {err['msg']}{shown}") from None


def _player_value(doc: PlayerDoc) -> Player:
    return Player(id=doc.id, name=doc.name, created=doc.created, changed=doc.changed)


def _season_value(doc: SeasonDoc) -> Season:
    return Season(
        id=doc.id,
        league_id=doc.league,
        name=doc.name,
        number=doc.number,
        created=doc.created,
        closed=doc.closed,
    )


__all__ = ["GameInfo", "League", "Player", "Season", "Store", "StoredGame"]
