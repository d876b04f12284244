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

import operator
import secrets
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scorer.game import Game
from scorer.gamefile import DealDocument, deal_where, game_document
from scorer.league.documents import (
    INDEX,
    GameEntry,
    GameRecord,
    LeagueDoc,
    NightDoc,
    NightRoundDoc,
    NightTableDoc,
    PlayerDoc,
    SeasonDoc,
    game_name,
    now,
    shard_name,
)
from scorer.league.errors import (
    GameStatusError,
    StoreInputError,
    UnknownGameError,
    UnknownPlayerError,
)
from scorer.league.events import (
    conflict,
    event,
    events_of,
    expect,
    require_active,
    signer,
    status_before,
    why_given,
)
from scorer.league.exchange import ImportBatch, ImportReport, export_csv, night_players, read_import
from scorer.league.integrity import Problem, restore, verify
from scorer.league.merge import apply_import, export_document, export_rows, renamed_ids
from scorer.league.night import (
    DEFAULT_POINTS,
    KEEP,
    MAX_TIMER,
    Keep,
    Night,
    NightRow,
    deadline_after,
    handicap,
    met_tonight,
    night_standings,
    night_value,
    refuse_past_plan,
    refuse_unfinished,
)
from scorer.league.ratings import Ratings, rate
from scorer.league.records import GameEvent, GameInfo, League, NightTag, Player, Season, StoredGame
from scorer.league.repair import Repair
from scorer.league.repository import Documents, NewPlayers, different_people, new_id
from scorer.league.snapshot import read_backup, restore_backup, write_backup
from scorer.league.standings import (
    HeadToHead,
    PlayerStats,
    StandingRow,
    head_to_head,
    player_stats,
    standings,
)
from scorer.league.storage import Backend, FolderBackend, MemoryBackend, default_location
from scorer.league.summary import GameSummary, PlayedGame
from scorer.messages import Message, Word
from scorer.names import clean_name, name_key
from scorer.ruleset import Ruleset, load_ruleset
from scorer.seating import METHODS, PRIOR_MU, Method, check_players, seat
from scorer.validation import problems

#: Standings tables (and rating tables) remembered for the store's current state.
STANDINGS_KEPT = 64

_State = tuple[object, ...]
_Remembered = tuple[_State, list[StandingRow]]


class Store:
    """The league store. Every method is one transaction under the file lock."""

    def __init__(self, backend: Backend, *, clock: Callable[[], str] = now) -> None:
        #: The store's clock: the time now, UTC ISO (:func:`~scorer.league.documents.now`). A
        #: deal saved at or after its round's deadline ends the game; tests set the time here.
        self.clock = clock
        self._docs = Documents(backend)
        self._standings: dict[tuple[str, str | None, str | None], _Remembered] = {}
        self._ratings: dict[tuple[str, str | None], tuple[_State, Ratings]] = {}
        self._played: dict[tuple[str, str | None], tuple[_State, list[PlayedGame]]] = {}
        with backend.transaction():
            self._docs.prepare()

    @classmethod
    def open(cls, path: str | Path | None = None, *, clock: Callable[[], str] = now) -> Store:
        """The store in folder ``path``; ``None``: ``$RUMMY_DB``, else the per-user data folder."""
        folder = Path(path).expanduser() if path is not None else default_location()
        return cls(FolderBackend(folder), clock=clock)

    @classmethod
    def memory(cls, *, clock: Callable[[], str] = now) -> Store:
        """A store in memory (tests, previews)."""
        return cls(MemoryBackend(), clock=clock)

    @classmethod
    def restore(cls, path: str | Path | None = None) -> list[Repair]:
        """Mend the store in ``path`` from its journal (see :mod:`scorer.league.integrity`)."""
        folder = Path(path).expanduser() if path is not None else default_location()
        return restore(folder)

    @classmethod
    def verify(cls, path: str | Path | None = None) -> list[Problem]:
        """Every file of the store in ``path`` that is damaged, missing or not as its journal says."""
        folder = Path(path).expanduser() if path is not None else default_location()
        return verify(folder)

    @property
    def notices(self) -> list[str]:
        """What the store mended on its own when opened (a change written again after a kill),
        in English; each text remembers its message (:attr:`notice_messages`)."""
        return [str(notice) for notice in self.notice_messages]

    @property
    def notice_messages(self) -> list[Message]:
        """What the store mended on its own when opened, as messages."""
        backend = self._docs.backend
        return list(backend.notices) if isinstance(backend, FolderBackend) else []

    @property
    def location(self) -> Path | None:
        """The store's folder (None in memory)."""
        return self._docs.backend.location

    def changes(self) -> str:
        """A token that differs after every change to the store, made here or by another program.

        Cheap enough to poll every second (one small read, no lock): a screen that shows stored
        data reads the store again when the token differs from the one it was built with.
        """
        return self._docs.backend.changes()

    def _tx(self) -> AbstractContextManager[None]:
        return self._docs.backend.transaction()

    def _league_value(self, doc: LeagueDoc) -> League:
        seasons = tuple(_season_value(s) for s in self._docs.seasons_of(doc.id))
        return League(id=doc.id, name=doc.name, created=doc.created, changed=doc.changed, seasons=seasons)

    # -- leagues and seasons ------------------------------------------------------------

    def create_league(self, name: str, *, season: str | None = None) -> League:
        """A new league with its first season (named ``season``, else "Season 1")."""
        clean = clean_name(name, what="league")
        season_name = clean_name(season, what="season") if season is not None else "Season 1"
        with self._tx():
            if any(name_key(lg.name) == name_key(clean) for lg in self._docs.index().leagues.values()):
                raise StoreInputError(Message("store.league_exists", value=repr(clean)))
            stamp = now()
            league = LeagueDoc(id=new_id(), name=clean, created=stamp, changed=stamp)
            first = SeasonDoc(
                id=new_id(), league=league.id, name=season_name, number=1, created=stamp, changed=stamp
            )
            self._docs.put(INDEX, "leagues", league.model_dump())
            self._docs.put(INDEX, "seasons", first.model_dump())
            return self._league_value(league)

    def leagues(self) -> list[League]:
        with self._tx():
            docs = sorted(self._docs.index().leagues.values(), key=lambda lg: (lg.created, lg.id))
            return [self._league_value(d) for d in docs]

    def league(self, key: str) -> League:
        """A league by name or id; :class:`UnknownLeagueError` if there is none."""
        with self._tx():
            return self._league_value(self._docs.league_doc(key))

    def close_season(self, league: str) -> Season:
        """Close the league's open season: its games and standings are frozen from now on."""
        with self._tx():
            doc = self._docs.league_doc(league)
            season = self._docs.open_season(doc)
            stamp = now()
            closed = season.model_copy(update={"closed": stamp, "changed": stamp})
            self._docs.put(INDEX, "seasons", closed.model_dump())
            return _season_value(closed)

    def rename_league(self, key: str, name: str) -> League:
        clean = clean_name(name, what="league")
        with self._tx():
            doc = self._docs.league_doc(key)
            for other in self._docs.index().leagues.values():
                if other.id != doc.id and name_key(other.name) == name_key(clean):
                    raise StoreInputError(Message("store.league_exists", value=repr(clean)))
            renamed = doc.model_copy(update={"name": clean, "changed": now()})
            self._docs.put(INDEX, "leagues", renamed.model_dump())
            return self._league_value(renamed)

    def rename_season(self, league: str, season: str, name: str) -> Season:
        clean = clean_name(name, what="season")
        with self._tx():
            doc = self._docs.league_doc(league)
            found = self._docs.season_doc(doc, season)
            for other in self._docs.seasons_of(doc.id):
                if other.id != found.id and name_key(other.name) == name_key(clean):
                    raise StoreInputError(
                        Message("store.season_exists", league=repr(doc.name), value=repr(clean))
                    )
            renamed = found.model_copy(update={"name": clean, "changed": now()})
            self._docs.put(INDEX, "seasons", renamed.model_dump())
            return _season_value(renamed)

    def new_season(self, league: str, name: str | None = None) -> Season:
        """Start a new season (closing the open one); new games go to it."""
        with self._tx():
            doc = self._docs.league_doc(league)
            seasons = self._docs.seasons_of(doc.id)
            number = max((s.number for s in seasons), default=0) + 1
            clean = clean_name(name, what="season") if name is not None else f"Season {number}"
            if any(name_key(s.name) == name_key(clean) for s in seasons):
                raise StoreInputError(
                    Message("store.season_exists", league=repr(doc.name), value=repr(clean))
                )
            stamp = now()
            for season in seasons:
                if season.closed is None:
                    self._docs.put(
                        INDEX,
                        "seasons",
                        season.model_copy(update={"closed": stamp, "changed": stamp}).model_dump(),
                    )
            season = SeasonDoc(
                id=new_id(), league=doc.id, name=clean, number=number, created=stamp, changed=stamp
            )
            self._docs.put(INDEX, "seasons", season.model_dump())
            return _season_value(season)

    # -- players ------------------------------------------------------------------------

    def players(self, *, league: str | None = None) -> list[Player]:
        """Every player (by name), or those who played in ``league``."""
        with self._tx():
            docs = [p for p in self._docs.index().players.values() if p.merged_into is None]
            if league is not None:
                league_id = self._docs.league_doc(league).id
                ids = {
                    p for entry in self._docs.entries() if entry.league == league_id for p in entry.players
                }
                docs = [p for p in docs if p.id in ids]
            return [_player_value(p) for p in sorted(docs, key=lambda p: (p.name.casefold(), p.id))]

    def player(self, key: str) -> Player:
        """A player by name or id (a merged player's old id gives the player kept)."""
        with self._tx():
            return _player_value(self._docs.player_doc(key))

    def add_player(self, name: str, *, new_player: bool = False) -> Player:
        """A new player; a name that looks like a player's already here (``Аnna`` with a Cyrillic
        ``А`` beside ``Anna``) is refused with :class:`LookAlikeError` unless ``new_player``
        says it is a different person."""
        clean = clean_name(name, what="player")
        with self._tx():
            return _player_value(self._docs.add_player(clean, different=new_player))

    def rename_player(self, key: str, name: str, *, new_player: bool = False) -> Player:
        """Rename a player; a name that looks like another player's is refused as for
        :meth:`add_player` (``new_player``: they are different people)."""
        clean = clean_name(name, what="player")
        with self._tx():
            doc = self._docs.player_doc(key)
            others = [
                p for p in self._docs.index().players.values() if p.id != doc.id and p.merged_into is None
            ]
            self._docs.refuse_look_alike(clean, others, different=new_player)
            renamed = doc.model_copy(update={"name": clean, "changed": now()})
            self._docs.put(INDEX, "players", renamed.model_dump())
            return _player_value(renamed)

    def merge_players(self, keep: str, other: str) -> Player:
        """Make ``other`` the same person as ``keep``: their games become ``keep``'s."""
        with self._tx():
            kept = self._docs.player_doc(keep)
            gone = self._docs.player_doc(other)
            if kept.id == gone.id:
                raise StoreInputError(Message("store.same_player", first=repr(keep), second=repr(other)))
            entries = [e for e in self._docs.entries() if gone.id in e.players]
            clash = next((e for e in entries if kept.id in e.players), None)
            if clash is not None:
                raise StoreInputError(
                    Message("store.played_each_other", first=kept.name, second=gone.name, game=clash.id)
                )
            ids = {gone.id: kept.id}
            nights = [n for n in self._all_night_docs() if gone.id in night_players(n)]
            for night in nights:
                both = next((r for r in night.rounds if {kept.id, gone.id} <= set(r.players)), None)
                if both is not None:
                    raise StoreInputError(
                        Message(
                            "store.same_night_round",
                            first=kept.name,
                            second=gone.name,
                            night=night.id,
                            round=both.number,
                        )
                    )
            for entry in entries:
                record = self._docs.record(entry.id)
                # every place the record names the player (seats, a handicap's starting points)
                seated = GameRecord.model_validate(
                    {**renamed_ids(record.model_dump(), ids), "changed": now()}
                )
                self._docs.write_game(seated, rev=record.rev + 1)
            for night in nights:
                moved = NightDoc.model_validate({**renamed_ids(night.model_dump(), ids), "changed": now()})
                self._docs.put(INDEX, "nights", moved.model_dump())
            stamp = now()
            self._docs.put(
                INDEX,
                "players",
                gone.model_copy(update={"merged_into": kept.id, "changed": stamp}).model_dump(),
            )
            return _player_value(kept)

    # -- games: reading -----------------------------------------------------------------

    def _stored(self, record: GameRecord, game: Game | None = None) -> StoredGame:
        game = game or self._docs.replay(record)
        result = game.result
        return StoredGame(
            status=record.status,
            events=events_of(record),
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
            night=_night_tag(record),
        )

    def game(self, game_id: str) -> StoredGame:
        with self._tx():
            self._docs.entry_of(game_id)
            return self._stored(self._docs.record(game_id))

    def games(
        self,
        *,
        league: str | None = None,
        season: str | None = None,
        finished: bool | None = None,
        deleted: bool = False,
    ) -> list[GameInfo]:
        """Games in the order played, optionally of one league (and season), finished or not.

        Deleted games are left out unless ``deleted`` is true; abandoned ones are listed (with
        their status) but never in progress.
        """
        with self._tx():
            entries = self._docs.select(league=league, season=season)
            if not deleted:
                entries = [e for e in entries if e.status != "deleted"]
            names = {p.id: p.name for p in self._docs.index().players.values()}
            infos = [self._info(e, names) for e in entries]
            if finished is not None:
                infos = [i for i in infos if i.finished == finished]
            return infos

    def _info(self, entry: GameEntry, names: Mapping[str, str]) -> GameInfo:
        summary = self._docs.summary(entry)
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
            status=entry.status,
        )

    # -- games: writing -----------------------------------------------------------------

    def start_game(
        self,
        *,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        league: str | None = None,
        season: str | None = None,
        first_dealer: int = 0,
        by: str | None = None,
        new_players: NewPlayers = (),
        night: tuple[str, int] | None = None,
        table: int | None = None,
        start: Mapping[str, int] | None = None,
        deadline: str | None = None,
    ) -> StoredGame:
        """A new game; players are given by name or id, and a new name becomes a new player.

        ``night``: the club night and round (1-based) this game is a table of, ``table`` its
        table; ``start``: starting points by player (name or id, as in ``players``);
        ``deadline``: when the round's time runs out (UTC ISO): the first deal saved at or
        after it is the game's last (docs/rules.md, "Timed rounds").

        A new name that looks like a player's already here is refused (:class:`LookAlikeError`)
        unless ``new_players`` names it (or is ``True``): then it is a different person.

        The ruleset with its options is stored with the game (a snapshot), so a later change
        to a ruleset file never changes this game's result.
        """
        rules = load_ruleset(ruleset, options=options)
        with self._tx():
            league_id = season_id = None
            if league is not None:
                league_doc, season_doc = self._docs.season_for(league, season)
                league_id, season_id = league_doc.id, season_doc.id
            elif season is not None:
                raise StoreInputError(Message("store.season_without_league"))
            docs = self._seat(players, different=different_people(new_players))
            by_key = dict(zip(players, docs, strict=True))
            starting = {(by_key[k].name if k in by_key else k): v for k, v in (start or {}).items()}
            game = Game(
                ruleset=rules, players=tuple(p.name for p in docs), first_dealer=first_dealer, start=starting
            )
            document = game_document(game, ruleset_id=rules.id, options=dict(options or {}))
            stamp = self.clock()
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
                events=[event([], stamp, by, "started")],
                night=night[0] if night is not None else None,
                night_round=night[1] if night is not None else None,
                night_table=table,
                deadline=deadline,
            )
            # A new game: its record first, so a kill leaves at worst an unlisted file.
            self._docs.put(game_name(record.id), "game", record.model_dump())
            self._docs.put(shard_name(record.id), "games", self._docs.entry(record, game=game).model_dump())
            return self._stored(record, game)

    def _seat(self, keys: Sequence[str], *, different: Callable[[str], bool]) -> list[PlayerDoc]:
        """The players of a new game by name or id; new names become players."""
        docs = []
        for key in keys:
            try:
                docs.append(self._docs.player_doc(key))
            except UnknownPlayerError:
                name = clean_name(key, what="player")
                docs.append(self._docs.add_player(name, different=different(name)))
        ids = [d.id for d in docs]
        if len(set(ids)) != len(ids):
            twice = sorted({d.name for d in docs if ids.count(d.id) > 1})
            raise StoreInputError(Message("store.players_twice", players=", ".join(twice)))
        return docs

    def _change(
        self,
        game_id: str,
        change: Callable[[Game, GameRecord], Game],
        *,
        by: str | None,
        action: str,
        deal: int | None = None,
        why: str | None = None,
        status: str | None = None,
        moved: tuple[str, str] | None = None,
    ) -> StoredGame:
        """One signed change to a game: ``change(game, record)`` gives the game after it.

        ``change`` may raise (a refused deal, a conflict) before anything is staged. The game's
        events gain ``action`` (and ``finished`` when this change ends the game). A deal saved
        as the game's last at or after the game's deadline ends the game (docs/rules.md,
        "Timed rounds").
        """
        with self._tx():
            self._docs.entry_of(game_id)
            record = self._docs.record(game_id)
            self._docs.check_open(record)
            before = self._docs.replay(record)
            stamp = self.clock()
            game = change(before, record)
            game = _called_on_time(before, game, deadline=record.deadline, now=stamp)
            if action == "recorded":
                deal = len(game.deals)
            document = game_document(
                game, ruleset_id=str(record.document["ruleset"]), options=record.document.get("options")
            )
            # A correction keeps the deal as it was: the history says what it changed.
            was = (record.document.get("deals") or [])[deal - 1] if action == "corrected" and deal else None
            events = [*record.events, event(record.events, stamp, by, action, deal=deal, why=why, was=was)]
            if game.result.finished and not before.result.finished:
                events.append(event(events, stamp, by, "finished"))
            update: dict[str, Any] = {"document": document, "changed": stamp, "events": events}
            if status is not None:
                update["status"] = status
            if moved is not None:
                update["league"], update["season"] = moved
            changed = record.model_copy(update=update)
            written = self._docs.write_game(changed, rev=record.rev + 1, game=game)
            return self._stored(written, game)

    def add_deal(
        self, game_id: str, deal: Mapping[str, Any], *, by: str | None = None, number: int | None = None
    ) -> StoredGame:
        """Record one more deal (a game-file deal object); an invalid deal changes nothing.

        ``number`` is the deal this entry records (1-based), as the device that entered it saw
        the game: if the game has that deal already (another device saved it first), nothing
        is written and :class:`ConflictError` shows theirs.
        """
        parsed = _deal(deal)

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            deals = record.document.get("deals") or []
            if number is not None and number <= len(deals):
                raise conflict(record, number, "was recorded")
            return game.add(parsed)

        return self._change(game_id, change, by=by, action="recorded")

    def replace_deal(
        self,
        game_id: str,
        index: int,
        deal: Mapping[str, Any],
        *,
        by: str | None = None,
        why: str | None = None,
        expected: Mapping[str, Any] | None = None,
    ) -> StoredGame:
        """Correct deal ``index`` (0-based); every later deal is scored again.

        ``expected`` is the deal as the correction started from it: if the stored deal differs
        now (another device corrected or removed it), nothing is written (:class:`ConflictError`).
        """
        parsed = _deal(deal, number=index + 1)

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            expect(record, index, expected)
            return game.replace_deal(index, parsed)

        return self._change(game_id, change, by=by, action="corrected", deal=index + 1, why=why_given(why))

    def remove_deal(
        self,
        game_id: str,
        index: int,
        *,
        by: str | None = None,
        why: str | None = None,
        expected: Mapping[str, Any] | None = None,
    ) -> StoredGame:
        """Remove deal ``index`` (0-based); ``expected`` as for :meth:`replace_deal`."""

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            expect(record, index, expected)
            return game.remove_deal(index)

        return self._change(game_id, change, by=by, action="removed", deal=index + 1, why=why_given(why))

    def restore_deal(
        self, game_id: str, index: int, deal: Mapping[str, Any], *, by: str | None = None
    ) -> StoredGame:
        """Put a removed deal back as deal ``index`` (0-based): the undo of :meth:`remove_deal`."""
        parsed = _deal(deal, number=index + 1)

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            if not 0 <= index <= len(game.deals):
                raise StoreInputError(
                    Message(
                        "store.put_back_where",
                        number=index + 1,
                        deals=len(game.deals),
                        last=len(game.deals) + 1,
                    )
                )
            return game.insert_deal(index, parsed)

        return self._change(game_id, change, by=by, action="restored", deal=index + 1)

    def abandon_game(self, game_id: str, *, by: str | None = None, why: str | None = None) -> StoredGame:
        """Give the game up: it is no longer in progress and counts in no standings (undo: resume)."""

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            return game

        return self._change(
            game_id, change, by=by, action="abandoned", why=why_given(why), status="abandoned"
        )

    def resume_game(self, game_id: str, *, by: str | None = None) -> StoredGame:
        """Take up an abandoned game again."""

        def change(game: Game, record: GameRecord) -> Game:
            if record.status != "abandoned":
                raise GameStatusError(
                    Message("store.not_abandoned", game=record.id, status=Word(record.status))
                )
            return game

        return self._change(game_id, change, by=by, action="resumed", status="active")

    def delete_game(self, game_id: str, *, by: str | None = None, why: str | None = None) -> None:
        """Delete the game: listed nowhere and counted nowhere, but kept, so that it can be undone."""

        def change(game: Game, record: GameRecord) -> Game:
            if record.status == "deleted":
                raise GameStatusError(Message("store.deleted_already", game=record.id))
            return game

        self._change(game_id, change, by=by, action="deleted", why=why_given(why), status="deleted")

    def undelete_game(self, game_id: str, *, by: str | None = None) -> StoredGame:
        """Bring a deleted game back as it was before (an abandoned game comes back abandoned)."""
        with self._tx():
            record = self._docs.record(self._docs.entry_of(game_id).id)
            if record.status != "deleted":
                raise GameStatusError(Message("store.not_deleted", game=record.id))
            return self._change(
                game_id, lambda game, _: game, by=by, action="undeleted", status=status_before(record.events)
            )

    def move_game(
        self, game_id: str, *, league: str, season: str | None = None, by: str | None = None
    ) -> StoredGame:
        """Move a game into ``league`` (its open season, or ``season``): it counts there from now on."""
        with self._tx():
            league_doc, season_doc = self._docs.season_for(league, season)

            def change(game: Game, record: GameRecord) -> Game:
                if record.status == "deleted":
                    raise GameStatusError(Message("store.deleted_undo_first", game=record.id))
                if record.night is not None:
                    # the night's standings and its export need every table's game in its league
                    raise StoreInputError(
                        Message(
                            "store.night_game_stays",
                            game=record.id,
                            night=record.night,
                            round=record.night_round or 0,
                        )
                    )
                if record.league == league_doc.id and record.season == season_doc.id:
                    raise StoreInputError(
                        Message(
                            "store.moved_already",
                            game=record.id,
                            league=repr(league_doc.name),
                            season=repr(season_doc.name),
                        )
                    )
                return game

            return self._change(game_id, change, by=by, action="moved", moved=(league_doc.id, season_doc.id))

    def find_game(self, key: str) -> str:
        """The id of the game whose id is ``key`` or starts with it (deleted games too)."""
        wanted = key.strip().lower()
        with self._tx():
            ids = [e.id for e in self._docs.entries()]
        if wanted in ids:
            return wanted
        found = [i for i in ids if wanted and i.lower().startswith(wanted)]
        if len(found) == 1:
            return found[0]
        if found:
            raise StoreInputError(Message("store.ambiguous_id", count=len(found), key=repr(key)))
        raise UnknownGameError(Message("store.no_game", key=repr(key)))

    def events(self, game_id: str) -> list[GameEvent]:
        """The game's signed changes, oldest first."""
        with self._tx():
            self._docs.entry_of(game_id)
            return list(events_of(self._docs.record(game_id)))

    # -- import and export --------------------------------------------------------------

    def import_files(
        self,
        league: str,
        paths: Sequence[str | Path],
        *,
        season: str | None = None,
        by: str | None = None,
        new_players: NewPlayers = False,
    ) -> ImportReport:
        """Import game files and league exports into a league (see :mod:`scorer.league.exchange`).

        Every file is read and checked first; one bad file raises and nothing is written.
        Games already here are unchanged (or get the deals they lacked); a game whose two
        copies differ is left as it is here and reported in ``conflicts``.
        """
        batch = read_import(paths)
        return self.import_batch(league, batch, season=season, by=by, new_players=new_players)

    def import_batch(
        self,
        league: str,
        batch: ImportBatch,
        *,
        season: str | None = None,
        by: str | None = None,
        new_players: NewPlayers = False,
    ) -> ImportReport:
        """Import a checked batch; a new name that looks like a player's is refused
        (:class:`LookAlikeError`) unless ``new_players`` says it is a different person."""
        with self._tx():
            return apply_import(
                self._docs, league=league, batch=batch, season=season, by=signer(by), new_players=new_players
            )

    def preview_import(
        self, league: str, batch: ImportBatch, *, season: str | None = None, new_players: NewPlayers = False
    ) -> ImportReport:
        """What :meth:`import_batch` would add and which conflicts it would report; nothing is written."""
        reports: list[ImportReport] = []
        try:
            with self._tx():
                reports.append(
                    apply_import(
                        self._docs, league=league, batch=batch, season=season, new_players=new_players
                    )
                )
                raise _Preview
        except _Preview:
            pass
        return reports[0]

    def backup(self, folder: str | Path) -> Path:
        """A copy of every file of the store, taken under its lock, as one zip file in ``folder``."""
        location = self.location
        if location is None:
            raise StoreInputError(Message("store.memory_no_backup"))
        target = Path(folder).expanduser()
        with self._tx():
            return write_backup(location, target)

    def restore_backup(self, path: str | Path) -> int:
        """Put the store back as a :meth:`backup` zip has it (checked whole first); files written."""
        location = self.location
        if location is None:
            raise StoreInputError(Message("store.memory_no_restore"))
        files = read_backup(Path(path).expanduser())
        with self._tx():
            return restore_backup(location, files)

    def export_league(self, league: str) -> dict[str, Any]:
        """The league as one JSON-ready document: seasons, players, games (with their night
        tags) and club nights, ids kept."""
        with self._tx():
            return export_document(self._docs, league=league)

    def export_csv(self, league: str) -> str:
        """The league's deals as CSV: one row per deal per player (with its game's night and round)."""
        with self._tx():
            return export_csv(export_rows(self._docs, league=league))

    # -- standings ----------------------------------------------------------------------

    def played_games(self, league: str, *, season: str | None = None) -> list[PlayedGame]:
        """The league's games as the standings functions take them (player keys are ids)."""
        with self._tx():
            return [
                PlayedGame(id=e.id, season=e.season or "", played=e.played, summary=self._docs.summary(e))
                for e in self._docs.select(league=league, season=season)
                if e.status == "active"  # abandoned and deleted games count nowhere
            ]

    def ratings(self, league: str, *, season: str | None = None) -> Ratings:
        """The ratings of the league's finished games (of one season), in the order played.

        Computed once for each state of the store and shared by every standings table, player
        page and head-to-head of the same games (each ruleset is rated on its own, so one
        table serves every ruleset).
        """
        with self._tx():
            state = self._docs.state()
            return self._rated(league, season=season, state=state)

    def _games(self, league: str, *, season: str | None, state: _State) -> list[PlayedGame]:
        """The league's played games for the store's state, read once per state."""
        key = (league, season)
        hit = self._played.get(key)
        if hit is not None and _same(hit[0], state):
            return hit[1]
        if season is None:
            games = self.played_games(league)
        else:  # a season's games, in the order played, are a part of the league's
            season_id = self._docs.season_doc(self._docs.league_doc(league), season).id
            games = [g for g in self._games(league, season=None, state=state) if g.season == season_id]
        if len(self._played) >= STANDINGS_KEPT:
            self._played.clear()
        self._played[key] = (state, games)
        return games

    def _rated(self, league: str, *, season: str | None, state: _State) -> Ratings:
        key = (league, season)
        hit = self._ratings.get(key)
        if hit is not None and _same(hit[0], state):
            return hit[1]
        finished = [g for g in self._games(league, season=season, state=state) if g.summary.finished]
        ratings = rate(finished)
        if len(self._ratings) >= STANDINGS_KEPT:
            self._ratings.clear()
        self._ratings[key] = (state, ratings)
        return ratings

    def standings(
        self, league: str, *, season: str | None = None, ruleset: str | None = None
    ) -> list[StandingRow]:
        """The league's standings (player keys are player ids), best first.

        Computed once for each state of the store: asked again with nothing changed, the same
        rows come back at once. The ratings behind them are shared with every other table of
        the same season (see :meth:`ratings`).
        """
        with self._tx():
            state = self._docs.state()
            key = (league, season, ruleset)
            hit = self._standings.get(key)
            if hit is not None and _same(hit[0], state):
                return list(hit[1])
            ratings = self._rated(league, season=season, state=state)
            games = self._games(league, season=season, state=state)
            rows = standings(games, ruleset=ruleset, ratings=ratings)
            if len(self._standings) >= STANDINGS_KEPT:
                self._standings.clear()
            self._standings[key] = (state, rows)
            return list(rows)

    def standings_by_ruleset(self, league: str, *, season: str | None = None) -> dict[str, list[StandingRow]]:
        """Each ruleset's own standings (its points in its own direction), by ruleset id.

        The tables of :meth:`standings` with each ruleset filter the league's finished games
        (of the season) have, remembered as it remembers them.
        """
        with self._tx():
            games = self._games(league, season=season, state=self._docs.state())
            rulesets = sorted({g.summary.ruleset for g in games if g.summary.finished})
            return {r: self.standings(league, season=season, ruleset=r) for r in rulesets}

    def player_stats(self, league: str, player: str) -> PlayerStats:
        with self._tx():
            state = self._docs.state()
            games = self._games(league, season=None, state=state)
            ratings = self._rated(league, season=None, state=state)
            return player_stats(games, self.player(player).id, ratings=ratings)

    def head_to_head(self, league: str, a: str, b: str) -> HeadToHead:
        with self._tx():
            games = self._games(league, season=None, state=self._docs.state())
            return head_to_head(games, self.player(a).id, self.player(b).id)

    # -- club nights (scorer/league/night.py) -------------------------------------------

    def start_night(
        self,
        league: str,
        *,
        players: Sequence[str],
        ruleset: str,
        method: Method = "random",
        seed: int | None = None,
        fixed: Mapping[str, int] | None = None,
        options: Mapping[str, Any] | None = None,
        points: Sequence[int] = DEFAULT_POINTS,
        by: str | None = None,
        new_players: NewPlayers = (),
        rounds: int | None = None,
        timer: int | None = None,
        handicap: bool = False,
    ) -> Night:
        """A new club night in the league's open season, its first round seated and every
        table's game started; a refused request (see :mod:`scorer.seating`) writes nothing.

        ``rounds``: the rounds planned (``None``: open-ended); ``timer``: minutes per round
        (``None``: no timer), each table's game ending with the first deal saved once they
        have run out; ``handicap``: each table's game starts with starting points from the
        players' rating gap (docs/rules.md, "Timed rounds" and "Handicap").
        """
        if rounds is not None and rounds < 1:
            raise StoreInputError(Message("night.bad_rounds", value=repr(str(rounds))))
        _check_timer(timer)
        with self._tx():
            league_doc, season_doc = self._docs.season_for(league, None)
            stamp = self.clock()
            doc = NightDoc(
                id=new_id(),
                created=stamp,
                changed=stamp,
                league=league_doc.id,
                season=season_doc.id,
                points=list(points),
                rounds=[],
                planned=rounds,
                handicap=handicap,
            )
            return self._seat_round(
                doc,
                _RoundAsked(players, ruleset, dict(options or {}), method, seed, dict(fixed or {}), timer),
                by=by,
                new_players=new_players,
            )

    def next_round(
        self,
        league: str,
        *,
        night: str | None = None,
        players: Sequence[str] | None = None,
        ruleset: str | None = None,
        method: Method | None = None,
        seed: int | None = None,
        fixed: Mapping[str, int] | None = None,
        options: Mapping[str, Any] | None = None,
        by: str | None = None,
        new_players: NewPlayers = (),
        timer: int | Keep | None = KEEP,
    ) -> Night:
        """The night's next round, once every table of the last one has ended (finished,
        abandoned or deleted; else :class:`RoundUnfinishedError`). Players, variant, method
        and timer are the last round's unless given (``timer=None``: no timer from this round
        on): late arrivals and early leavers are a new ``players`` list. After the last
        planned round, :class:`NightOverError` and nothing is written."""
        if not isinstance(timer, Keep):
            _check_timer(timer)
        with self._tx():
            doc = self._night_doc(league, night)
            refuse_past_plan(doc)
            refuse_unfinished(doc, {t.game: self._ended(t.game) for t in doc.rounds[-1].tables})
            last = doc.rounds[-1]
            asked = _RoundAsked(
                list(players) if players is not None else list(last.players),
                ruleset or last.ruleset,
                dict(options) if options is not None else (dict(last.options) if ruleset is None else {}),
                method or _method(last.method),
                seed,
                dict(fixed or {}),
                last.timer if isinstance(timer, Keep) else timer,
            )
            return self._seat_round(doc, asked, by=by, new_players=new_players)

    def night(self, league: str, key: str | None = None) -> Night:
        """The league's night ``key`` (id or its start), else its latest night."""
        with self._tx():
            doc = self._night_doc(league, key)
            return night_value(doc, self._names(), ended=self._tables_ended(doc))

    def nights(self, league: str) -> list[Night]:
        """The league's nights, oldest first."""
        with self._tx():
            names = self._names()
            return [
                night_value(d, names, ended=self._tables_ended(d))
                for d in self._night_docs(self._docs.league_doc(league).id)
            ]

    def night_standings(self, league: str, key: str | None = None) -> tuple[Night, list[NightRow]]:
        """The night (latest unless ``key``) and its standings, best first (player ids)."""
        with self._tx():
            doc = self._night_doc(league, key)
            names = self._names()
            rows = night_standings(doc, self._night_summaries(doc), names=names)
            return night_value(doc, names, ended=self._tables_ended(doc)), rows

    def _tables_ended(self, doc: NightDoc) -> dict[str, bool]:
        """Whether each table's game of the night has ended, by game id (only once every
        planned round is seated is it asked: before, the night is not over anyway)."""
        if doc.planned is None or len(doc.rounds) < doc.planned:
            return {}
        return {t.game: self._ended(t.game) for r in doc.rounds for t in r.tables}

    # -- club nights, read only: the app's night screens ---------------------------------

    def find_night(self, key: str) -> Night:
        """A night of any league by its id (or a start of it that no other night's id has)."""
        with self._tx():
            wanted = key.strip().lower()
            docs = self._every_night_doc()
            found = [d for d in docs if d.id == wanted] or [
                d for d in docs if wanted and d.id.startswith(wanted)
            ]
            if len(found) != 1:
                raise StoreInputError(Message("night.not_found", key=repr(key)))
            return night_value(found[0], self._names(), ended=self._tables_ended(found[0]))

    def night_results(self, league: str) -> list[tuple[Night, list[NightRow]]]:
        """The league's nights, newest first, each with its standings (best first, player ids)."""
        with self._tx():
            names = self._names()
            docs = self._night_docs(self._docs.league_doc(league).id)
            return [
                (
                    night_value(d, names, ended=self._tables_ended(d)),
                    night_standings(d, self._night_summaries(d), names=names),
                )
                for d in reversed(docs)
            ]

    def player_nights(self, player: str) -> list[tuple[Night, int, NightRow]]:
        """The nights ``player`` (id or name) played in, in every league, newest first: each
        night, the player's place in its standings (1-based) and their row."""
        with self._tx():
            me = self._docs.player_doc(player).id
            names = self._names()
            played = []
            for doc in sorted(self._every_night_doc(), key=lambda d: (d.created, d.id), reverse=True):
                if all(me not in r.players for r in doc.rounds):
                    continue
                rows = night_standings(doc, self._night_summaries(doc), names=names)
                for place, row in enumerate(rows, start=1):
                    if row.player == me:
                        played.append((night_value(doc, names, ended=self._tables_ended(doc)), place, row))
            return played

    def _every_night_doc(self) -> list[NightDoc]:
        return [self._docs.parse(NightDoc, row, name=INDEX) for row in self._docs.rows(INDEX, "nights")]

    def _names(self) -> dict[str, str]:
        return {p.id: p.name for p in self._docs.index().players.values()}

    def _all_night_docs(self) -> list[NightDoc]:
        return [self._docs.parse(NightDoc, row, name=INDEX) for row in self._docs.rows(INDEX, "nights")]

    def _night_docs(self, league_id: str) -> list[NightDoc]:
        docs = self._all_night_docs()
        return sorted((d for d in docs if d.league == league_id), key=lambda d: (d.created, d.id))

    def _night_doc(self, league: str, key: str | None) -> NightDoc:
        league_doc = self._docs.league_doc(league)
        docs = self._night_docs(league_doc.id)
        if not docs:
            raise StoreInputError(Message("night.no_night", league=repr(league_doc.name)))
        if key is None:
            return docs[-1]
        wanted = key.strip().lower()
        found = [d for d in docs if d.id == wanted] or [d for d in docs if wanted and d.id.startswith(wanted)]
        if len(found) != 1:
            raise StoreInputError(Message("night.unknown_night", league=repr(league_doc.name), key=repr(key)))
        return found[0]

    def _ended(self, game_id: str) -> bool:
        entry = self._docs.entry_of(game_id)
        return entry.status != "active" or self._docs.summary(entry).finished

    def _night_summaries(self, doc: NightDoc) -> dict[str, GameSummary | None]:
        summaries: dict[str, GameSummary | None] = {}
        for round_doc in doc.rounds:
            for table in round_doc.tables:
                entry = self._docs.entry_of(table.game)
                summaries[table.game] = self._docs.summary(entry) if entry.status == "active" else None
        return summaries

    def _seat_round(
        self, doc: NightDoc, asked: _RoundAsked, *, by: str | None, new_players: NewPlayers
    ) -> Night:
        """Seat one more round of the night, start its games and write the night."""
        rules = load_ruleset(asked.ruleset, options=asked.options)
        check_players(asked.players)
        people = self._seat(asked.players, different=different_people(new_players))
        names = [p.name for p in people]
        id_of = {p.name: p.id for p in people}
        seed = asked.seed
        if seed is None:
            seed = secrets.randbelow(2**31)
        # balanced seating and handicap take the same strengths (provisional at the prior)
        strengths = self._strengths(doc, rules, people) if asked.method == "balanced" or doc.handicap else {}
        ratings = {p.name: strengths[p.id] for p in people} if asked.method == "balanced" else {}
        met: dict[str, set[str]] = {}
        standing: list[str] | None = None
        by_id = {p.id: p.name for p in people}
        rested = {by_id[p] for r in doc.rounds for p in r.byes if p in by_id}
        if doc.rounds:
            rows = night_standings(doc, self._night_summaries(doc))
            standing = [by_id[r.player] for r in rows if r.player in by_id]
            met = {
                by_id[p]: {by_id[q] for q in others if q in by_id}
                for p, others in met_tonight(doc).items()
                if p in by_id
            }
        # swiss pairs by the night's standing: the first round, with none yet, is drawn
        used: Method = "random" if asked.method == "swiss" and not doc.rounds else asked.method
        seating = seat(
            names,
            low=rules.players_min,
            high=rules.players_max,
            method=used,
            seed=seed,
            fixed=asked.fixed,
            ratings=ratings,
            standing=standing,
            met=met,
            rested=rested,
        )
        number = len(doc.rounds) + 1
        stamp = self.clock()
        deadline = deadline_after(stamp, asked.timer) if asked.timer is not None else None
        tables = []
        for table, seated in enumerate(seating.tables, start=1):
            ids = [id_of[n] for n in seated]
            start = (
                handicap(
                    {p: strengths[p] for p in ids},
                    per_mu=rules.handicap_per_mu,
                    lowest_wins=rules.winner == "lowest",
                    target=rules.target,
                )
                if doc.handicap
                else {}
            )
            game = self.start_game(
                ruleset=rules.id,
                players=ids,
                options=asked.options,
                league=doc.league,
                season=doc.season,
                by=by,
                night=(doc.id, number),
                table=table,
                start=start,
                deadline=deadline,
            )
            tables.append(
                NightTableDoc(
                    table=table,
                    game=game.id,
                    players=list(game.players),
                    start={p: v for p, v in start.items() if v},
                )
            )
        lowered = {n.casefold(): n for n in names}
        even = seating.evenness
        round_doc = NightRoundDoc(
            number=number,
            ruleset=rules.id,
            options=asked.options,
            method=asked.method,
            seed=seed,
            players=[p.id for p in people],
            byes=[id_of[n] for n in seating.byes],
            fixed={id_of[lowered[k.casefold()]]: t for k, t in asked.fixed.items()},
            tables=tables,
            started=stamp,
            timer=asked.timer,
            deadline=deadline,
            spread=even.spread if even is not None else None,
            best_spread=even.best if even is not None else None,
            spread_bound=even.bound if even is not None else None,
            repeats=seating.repeats if used == "swiss" else None,
        )
        written = doc.model_copy(update={"rounds": [*doc.rounds, round_doc], "changed": stamp})
        self._docs.put(INDEX, "nights", written.model_dump())
        return night_value(written, self._names())

    def _strengths(self, doc: NightDoc, rules: Ruleset, people: Sequence[PlayerDoc]) -> dict[str, float]:
        """Each player's rating mean in the league for the variant (by id); a provisional or
        unrated player at the prior, as balanced seating takes them."""
        rated = self._rated(doc.league, season=None, state=self._docs.state())
        strengths: dict[str, float] = {}
        for person in people:
            rating = rated.get(person.id, rules.id)
            strengths[person.id] = PRIOR_MU if rating is None or rating.provisional else rating.mu
        return strengths


def _called_on_time(before: Game, game: Game, *, deadline: str | None, now: str) -> Game:
    """``game``, called after its last deal when that deal was just saved at or after the
    deadline and the game has no call yet and has not ended otherwise."""
    added = len(game.deals) == len(before.deals) + 1 and game.deals[:-1] == before.deals
    if not added or deadline is None or now < deadline or game.ends_after is not None:
        return game
    return game if game.result.finished else game.called_after(len(game.deals))


def _night_tag(record: GameRecord) -> NightTag | None:
    if record.night is None or record.night_round is None:
        return None
    return NightTag(record.night, record.night_round, record.night_table, record.deadline)


def _same(remembered: _State, state: _State) -> bool:
    """Whether a remembered state is the store's state now (its documents unchanged, by identity)."""
    return len(remembered) == len(state) and all(map(operator.is_, remembered, state))


@dataclass(frozen=True, slots=True)
class _RoundAsked:
    """What the director asked of one round of a night."""

    players: Sequence[str]
    ruleset: str
    options: dict[str, Any]
    method: Method
    seed: int | None
    fixed: dict[str, int]
    timer: int | None = None


def _check_timer(timer: int | None) -> None:
    if timer is not None and not 1 <= timer <= MAX_TIMER:
        raise StoreInputError(Message("night.bad_timer", value=repr(str(timer)), most=MAX_TIMER))


def _method(text: str) -> Method:
    """A stored round's seating method (checked: a damaged value seats at random)."""
    for method in METHODS:
        if method == text:
            return method
    return "random"


class _Preview(Exception):
    """Abandons a preview's transaction: everything it staged is dropped."""


def _deal(deal: Mapping[str, Any], *, number: int | None = None) -> Any:
    where = Message("game.deal", number=number) if number is not None else Message("store.the_deal")
    if not isinstance(deal, Mapping):
        raise StoreInputError(Message("store.deal_not_table", where=where, kind=type(deal).__name__))
    try:
        return DealDocument.model_validate(dict(deal)).to_deal()
    except ValidationError as exc:
        found = problems(exc, model=DealDocument, where=deal_where)
        raise StoreInputError(Message("store.deal_problem", where=where, problem=found)) from None


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
