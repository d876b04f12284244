"""The league store: players, leagues, seasons, games and club nights, kept for years.

The store is a log of facts (:mod:`scorer.league.facts`): every public method that changes
anything is one write of the ledger (:mod:`scorer.league.ledger`): it reads the state, the fold
of every fact so far (:mod:`scorer.league.state`), decides, and answers with facts or a
refusal; a refusal writes nothing. A read catches up with what other programs wrote and
answers from the state. The standings are computed from each game's summary
(:mod:`scorer.league.summary`), computed once per revision of the game.

>>> store = Store.memory()
>>> league = store.create_league("Friday club")
>>> game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Friday club")
>>> game = store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"})
>>> game.result.totals
{'Anna': 0, 'Bea': 36}
"""

from __future__ import annotations

import secrets
import threading
import uuid
import weakref
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from tinydb import Query

from scorer.errors import ScorerError
from scorer.game import Game, Penalty
from scorer.gamefile import DealDocument, PenaltyDocument, ReplacementDocument, deal_where, game_document
from scorer.league import pg_address
from scorer.league.club_server import ClubServer
from scorer.league.confirm import (
    ConfirmError,
    DealCheck,
    check_of,
    counts,
    deal_checks,
    digest_of,
    marked_rows,
    open_disputes,
    refuse_confirm,
    refuse_dispute,
    refuse_resolve,
)
from scorer.league.director import (
    Call,
    call_value,
    newest_first,
    note_of,
    penalty_points,
    penalty_why,
    reason_of,
    seat_of,
)
from scorer.league.documents import (
    GameRecord,
    NightDoc,
    NightRoundDoc,
    NightTableDoc,
    PlayerDoc,
    SeasonDoc,
    now,
)
from scorer.league.errors import (
    GameStatusError,
    StoreError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
)
from scorer.league.events import (
    conflict,
    events_from,
    events_of,
    expect,
    require_active,
    signer,
    why_given,
)
from scorer.league.facts import Fact, new_fact
from scorer.league.ledger import FolderLedger, Ledger, MemoryLedger, default_location
from scorer.league.night import (
    DEFAULT_POINTS,
    KEEP,
    MAX_TIMER,
    Keep,
    Night,
    NightRow,
    deadline_after,
    ended_here,
    handicap,
    met_tonight,
    night_standings,
    night_tallies,
    night_value,
    refuse_past_plan,
    refuse_unfinished,
    rounds_missed,
)
from scorer.league.night_rules import check_night
from scorer.league.ratings import Ratings
from scorer.league.records import GameEvent, GameInfo, League, NightTag, Player, Season, StoredGame
from scorer.league.replacements import after_deal, holders_now, refuse_seated_elsewhere, seat_number
from scorer.league.standings import (
    HeadToHead,
    PlayerStats,
    StandingRow,
    head_to_head,
    player_stats,
    standings,
    standings_of_totals,
)
from scorer.league.state import GameRow, NewPlayers, State, different_people, no_collection, seat_ids
from scorer.league.summary import GameSummary, PlayedGame
from scorer.league.tiebreaks import DEFAULT_ORDER, check_order, level_at_coin
from scorer.league.token_book import TokenBook, new_row
from scorer.league.tokens import (
    Role,
    TokenInfo,
    digest,
    looks_like_secret,
    new_secret,
    token_name,
    token_role,
)
from scorer.messages import Message, Word
from scorer.names import clean_name, name_key
from scorer.replacement import Replacement, holder_when, holders
from scorer.ruleset import Ruleset, load_ruleset
from scorer.seating import METHODS, PRIOR_MU, Method, check_players, seat
from scorer.validation import problems

if TYPE_CHECKING:
    from scorer.league.exchange import ImportBatch, ImportReport
    from scorer.league.import_preview import ImportPreview
    from scorer.league.log import Commit
    from scorer.league.merge import PageApplied
    from scorer.league.pg import Changed
    from scorer.league.recovery import Problem, Repair

#: Standings tables (and rating tables) remembered for the store's current state.
STANDINGS_KEPT = 64


def new_id() -> str:
    return str(uuid.uuid4())


class Store:
    """The league store. Every method is one read or one write of its ledger."""

    def __init__(self, ledger: Ledger, *, clock: Callable[[], str] = now) -> None:
        #: The store's clock: the time now, UTC ISO (:func:`~scorer.league.documents.now`). A
        #: deal saved at or after its round's deadline ends the game; tests set the time here.
        self.clock = clock
        self._ledger = ledger
        self._standings: dict[tuple[str, str | None, str | None], tuple[str, list[StandingRow]]] = {}
        self._ratings: dict[tuple[str, str | None], tuple[str, Ratings]] = {}
        self._played: dict[tuple[str, str | None], tuple[str, list[PlayedGame]]] = {}
        #: Each league's played games with the state and its mark they were read at
        #: (:meth:`State.played_since` goes on from them when the store has changed).
        self._played_at: dict[str, tuple[weakref.ref[State], int, list[PlayedGame]]] = {}
        #: Each night table game's deal checks at its revision (scorer/league/confirm.py).
        self._checks_kept: dict[str, tuple[int, tuple[DealCheck, ...]]] = {}

    @classmethod
    def open(cls, path: str | Path | None = None, *, clock: Callable[[], str] = now) -> Store:
        """The store in folder ``path``, or in the PostgreSQL database ``path`` names
        (``postgresql://USER@HOST/NAME``, :mod:`scorer.league.pg`); ``None``: ``$RUMMY_DB``,
        else the per-user data folder."""
        address = pg_address.chosen(path)
        if address is not None:
            from scorer.league.pg import PgLedger

            return cls(PgLedger(address), clock=clock)
        folder = Path(path).expanduser() if path is not None else default_location()
        return cls(FolderLedger(folder), clock=clock)

    @classmethod
    def memory(cls, *, clock: Callable[[], str] = now) -> Store:
        """A store in memory (tests, previews)."""
        return cls(MemoryLedger(), clock=clock)

    @classmethod
    def restore(cls, path: str | Path | None = None) -> list[Repair]:
        """Mend the store in ``path`` (see :mod:`scorer.league.recovery`)."""
        from scorer.league.recovery import restore

        _refuse_database(path, "restore")
        folder = Path(path).expanduser() if path is not None else default_location()
        return restore(folder)

    @classmethod
    def verify(cls, path: str | Path | None = None) -> list[Problem]:
        """Every file of the store in ``path`` that is damaged, missing or not as the other says."""
        from scorer.league.recovery import verify

        _refuse_database(path, "verify")
        folder = Path(path).expanduser() if path is not None else default_location()
        return verify(folder)

    @property
    def notices(self) -> list[str]:
        """What the store mended on its own (a commit written again after a kill), in English;
        each text remembers its message (:attr:`notice_messages`)."""
        return [str(notice) for notice in self.notice_messages]

    @property
    def notice_messages(self) -> list[Message]:
        """What the store mended on its own, as messages."""
        return list(self._ledger.notices)

    @property
    def location(self) -> Path | None:
        """The store's folder (None in memory and in a database)."""
        return self._ledger.location

    @property
    def address(self) -> str | None:
        """The store's PostgreSQL address, its password masked (None for a folder or memory)."""
        shown = getattr(self._ledger, "shown", None)
        return shown if isinstance(shown, str) else None

    def close(self) -> None:
        """Let go of what the store holds open (a database's connections)."""
        close = getattr(self._ledger, "close", None)
        if close is not None:
            close()

    @property
    def listens(self) -> bool:
        """Whether the store tells of other processes' commits as they are made (:meth:`listen`)."""
        return hasattr(self._ledger, "listen")

    def listen(self, *, stop: threading.Event) -> Iterator[Changed] | None:
        """Each commit as another process makes it, until ``stop`` is set, where the store can
        tell (a PostgreSQL database: :meth:`scorer.league.pg.PgLedger.listen`); None where it
        cannot (a folder, memory: :meth:`changes` is polled)."""
        listen = getattr(self._ledger, "listen", None)
        if listen is None:
            return None
        changes: Iterator[Changed] = listen(stop=stop)
        return changes

    def changes(self) -> str:
        """A token that differs after every change to the store, made here or by another program.

        The log's position: cheap enough to poll every second (one ``stat``, no lock): a screen
        that shows stored data reads the store again when the token differs.
        """
        token: str = self._ledger.changes()
        return token

    def changed_since(self, token: str) -> frozenset[str] | None:
        """The games and club nights changed after :meth:`changes` gave ``token``, up to what
        this store has read (nothing is read now); ``None`` when something else may have
        changed too (a league, a player), or it is not known here any more.

        >>> store = Store.memory()
        >>> game = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
        >>> before = store.changes()
        >>> _ = store.add_deal(game, {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"})
        >>> store.changed_since(before) == {game}, store.changed_since(store.changes())
        (True, frozenset())
        >>> _ = store.create_league("Club")  # a league: any screen may show it
        >>> store.changed_since(before) is None
        True
        """
        return self._ledger.changed_since(token)

    @property
    def position(self) -> int:
        """The number of commits in the store's log (see :meth:`facts_since`)."""
        with self._ledger.read():
            return self._ledger.position

    def facts_since(self, position: int = 0) -> list[Fact]:
        """Every fact committed after commit ``position`` (0: all), in order."""
        with self._ledger.read():
            return self._ledger.facts_since(position)

    def commits_since(self, position: int = 0) -> list[Commit]:
        """Every commit after commit ``position`` (0: all), in order, each with its facts and
        who sent it (:attr:`~scorer.league.log.Commit.sender`)."""
        with self._ledger.read():
            return self._ledger.commits_since(position)

    def league_commits(self, league: str, position: int = 0) -> tuple[list[Commit], int]:
        """The commits after ``position`` that hold facts of ``league``
        (:func:`~scorer.league.merge.league_facts`: its own, its players', its games' and
        nights'), each with those facts only, and the store's position they were read at.

        A game moved into the league after ``position`` brings its whole history: its facts
        from before ``position`` (when it was not yet the league's) lead the commit that moved
        it, so whoever reads from ``position`` has every fact the move follows."""
        from scorer.league.merge import league_facts

        with self._ledger.read() as state:
            league_id = state.league_doc(league).id
            commits = self._ledger.commits_since(position)
            kept = {
                f.id for f in league_facts([f for c in commits for f in c.facts], state, league=league_id)
            }
            moved = {
                f.data.game: c.n
                for c in commits
                for f in c.facts
                if f.kind == "game.moved" and f.data.league == league_id and f.id in kept
            }
            before: dict[int, list[Fact]] = {}
            if moved and position > 0:
                for c in self._ledger.commits_since(0):
                    if c.n > position:
                        break
                    for f in c.facts:
                        if f.subject in moved:
                            before.setdefault(moved[f.subject], []).append(f)
            found = [
                replace(c, facts=(*before.get(c.n, ()), *(f for f in c.facts if f.id in kept)))
                for c in commits
                if any(f.id in kept for f in c.facts)
            ]
            return found, self._ledger.position

    def receive_facts(
        self, league: str, facts: Any, *, source: str, sender: str | None = None
    ) -> PageApplied:
        """Apply one page of another device's facts to ``league`` in one write
        (:func:`~scorer.league.merge.merge_page`: a fact this store has is left out, a game
        changed apart is a conflict, reported and not applied; a league this store lacks is
        received whole, its ids kept). Every game the page touches must still score, else
        nothing of the page is kept. ``sender``: the name of the token that sent it, kept with
        the commit."""
        from scorer.league.merge import merge_page

        with self._ledger.write(sender=sender) as state:
            touched: set[str] = set()

            def emit(fact: Fact, *, chained: bool = True) -> Fact:
                done = self._ledger.emit(fact, chained=chained)
                if done.subject is not None:
                    touched.add(done.subject)
                return done

            applied = merge_page(
                state,
                emit,
                league=league,
                facts=facts,
                source=source,
                held_before=lambda subject: self._held(state, subject),
            )
            for game_id in sorted(touched):
                if state.has_game(game_id):
                    record = state.record(game_id)
                    played = state.replay(record)
                    if self._ledger.writes_summaries:  # the commit's rows: replayed once, not twice
                        with suppress(ScorerError):  # a game that does not summarize: its row says so
                            state.summary(record, game=played)
            settled = {
                subject: [f.to_json() for f in self._held(state, subject)] for subject in applied.settled
            }
        for subject, left in settled.items():  # a join took them in (or a third history is left)
            self._ledger.save_held(subject, left)
        for subject, held in applied.held_facts.items():  # the other side's version, kept aside
            kept = self._ledger.held(subject)
            have = {str(f.get("id")) for f in kept}
            self._ledger.save_held(subject, [*kept, *(f.to_json() for f in held if f.id not in have)])
        return applied

    def held_facts(self, subject: str) -> list[Fact]:
        """The facts of a game (or night) that a sync held back because it was changed here
        and elsewhere apart: the other side's version, kept beside the facts, never folded in.
        Those that have since come in (the conflict settled) are left out."""
        with self._ledger.read() as state:
            return self._held(state, subject)

    def may_hold_facts(self, subject: str) -> bool:
        """Whether :meth:`held_facts` may find any of ``subject`` (False: it finds none), with
        nothing read where the store can tell (a folder: a ``stat``; a database: the subjects
        held as read at this process's position, read again once it moved). A screen showing a
        game asks at every change anyone makes to the store, so that a sync holding that
        game's facts back is shown, though its commit may name no game of the screen's.

        >>> Store.memory().may_hold_facts("no-such-game")
        False
        """
        return self._ledger.may_hold(subject)

    def _held(self, state: State, subject: str) -> list[Fact]:
        from scorer.league.facts import FACT_VERSION, FactError, fact_from_json

        found = []
        for raw in self._ledger.held(subject):
            try:
                fact = fact_from_json(raw, version=FACT_VERSION)
            except FactError:
                continue
            if fact.id not in state.seen:
                found.append(fact)
        return found

    def settle_conflict(
        self, game_id: str, keep: str, *, why: str | None = None, by: str | None = None
    ) -> StoredGame:
        """Settle a game changed here and on another device apart (its facts held back) by one
        of the three choices (:mod:`scorer.league.joins`): ``theirs``, ``mine-next`` or
        ``replace`` (with ``why``, the correction's reason). One write: their facts taken into
        the log, the join, then this device's deals again as ordinary facts; a deal refused
        (the game finished in their history) writes nothing. The next sync brings both sides
        to the same game."""
        from scorer.league.joins import choice_of, plan

        choice = choice_of(keep)
        with self._write() as state:
            state.game_row(game_id)
            logged = self._ledger.subject_facts(game_id)
            found = plan(state, game_id, logged=logged, held=self._held(state, game_id))
            for fact in found.theirs:
                self._ledger.emit(fact, chained=False)
            joined = new_fact(
                "game.joined",
                at=self.clock(),
                by=signer(by),
                prev=found.kept,
                game=game_id,
                retired=list(found.retired),
                record=found.record,
            )
            self._ledger.emit(joined, chained=False)
            state.replay(state.record(game_id))
            if choice != "theirs":
                theirs = state.record(game_id).document.get("deals") or []
                for offset, deal in enumerate(found.mine):
                    index = found.first - 1 + offset
                    if choice == "replace" and index < len(theirs):
                        self.replace_deal(game_id, index, deal, by=by, why=why)
                    else:
                        self.add_deal(game_id, deal, by=by)
            record = state.record(game_id)
            settled = self._stored(state, record)
            left = [f.to_json() for f in self._held(state, game_id)]
        self._ledger.save_held(game_id, left)
        return settled

    def senders(self, game_id: str) -> list[dict[str, Any]]:
        """Who sent the game's facts to this store (a club server's tokens, by name), commit
        by commit: ``{"commit", "sender", "facts"}`` for each commit a token sent that holds
        any of them (a commit made here names no sender and is not listed)."""
        found = []
        for commit in self.commits_since(0):
            if commit.sender is None:
                continue
            count = sum(1 for f in commit.facts if f.subject == game_id)
            if count:
                found.append({"commit": commit.n, "sender": commit.sender, "facts": count})
        return found

    def unknown_facts(self, ids: Sequence[str]) -> set[str]:
        """The ids among ``ids`` of facts this store does not have."""
        with self._ledger.read() as state:
            return {i for i in ids if i not in state.seen}

    def sync_mark(self, server: str, league: str) -> tuple[int, int]:
        """How far the sync of ``league`` with ``server`` has come: this store's position sent
        up to and the server's position received up to (0, 0: never synced)."""
        mark = self._ledger.sync_mark(f"{server} {league}") or {}
        return mark.get("sent", 0), mark.get("received", 0)

    def save_sync_mark(self, server: str, league: str, *, sent: int, received: int) -> None:
        """Save how far the sync of ``league`` with ``server`` has come (crash-safe)."""
        self._ledger.save_sync_mark(f"{server} {league}", {"sent": sent, "received": received})

    # -- the club server this store syncs with (scorer.league.club_server) -------------------

    @property
    def keeps_club(self) -> bool:
        """Whether this store syncs with a club server (a club server's own database does not)."""
        return self._ledger.keeps_club

    def club_server(self) -> ClubServer | None:
        """The club server this store syncs with (Settings -> Club server); ``None``: none set."""
        return self._ledger.club_server() if self._ledger.keeps_club else None

    def set_club_server(self, url: str, token: str, league: str) -> ClubServer:
        """Sync with the club server at ``url`` with ``token``, the league ``league`` (a name
        or id here: kept by its id; else as given, a league on the server received whole).
        Refused (:class:`~scorer.league.club_server.ClubServerError`) for an address that is
        not http(s), an empty token, no league; (:class:`StoreError`) on a store that is a
        club server itself. Written whole, readable by the store's owner only."""
        if not self._ledger.keeps_club:
            raise StoreError(Message("sync.club_not_here"))
        server = ClubServer.of(url, token, league)
        with suppress(UnknownLeagueError):
            server = replace(server, league=self.league(server.league).id)
        self._ledger.save_club_server(server)
        return server

    def clear_club_server(self) -> None:
        """Sync with no club server any more (the sync marks stay: a later sync goes on from them)."""
        if self._ledger.keeps_club:
            self._ledger.save_club_server(None)

    def add_facts(self, facts: Sequence[Fact]) -> int:
        """Apply facts that came from elsewhere (another device's store); a fact this store
        has already (by its id) is left out. Returns how many were new. The facts are checked
        by applying them in one write: if one cannot be applied, none is."""
        with self._ledger.write() as state:
            added = 0
            games: set[str] = set()
            for fact in facts:
                if fact.id in state.seen:
                    continue
                self._ledger.emit(fact, chained=False)
                added += 1
                if fact.subject is not None:
                    games.add(fact.subject)
            for game_id in sorted(games):  # each game they touch still scores, else none is kept
                if state.has_game(game_id):
                    state.replay(state.record(game_id))
            return added

    # -- access tokens (a club server's; never facts: see scorer.league.token_book) ------

    def _token_book(self) -> TokenBook:
        book = self._ledger.tokens
        if book is None:
            raise StoreError(Message("store.tokens_not_here"))
        return book

    def add_token(self, name: str, role: Role | str) -> tuple[TokenInfo, str]:
        """A new access token named ``name`` (a device or a person; unique among the good
        tokens, case aside) with ``role``, and its secret: returned here once, kept only as
        its SHA-256. Refused (:class:`StoreInputError`) for an empty name, a name taken, a role
        that is none of :class:`~scorer.league.tokens.Role`."""
        chosen = token_role(role)
        secret = new_secret()
        row = new_row(name, chosen, secret=secret, at=self.clock())
        self._token_book().add(row)
        return row.info, secret

    def tokens(self) -> list[TokenInfo]:
        """The good tokens, in the order they were made (a revoked one is kept in the store,
        with the time it was revoked, but not listed; its name may be given again)."""
        book = self._ledger.tokens
        return [row.info for row in book.rows() if row.info.revoked is None] if book is not None else []

    def revoke_token(self, name: str) -> TokenInfo:
        """Revoke the good token named ``name`` (case aside): from now on it is refused.
        Refused (:class:`StoreInputError`) if no good token has that name."""
        clean, _ = token_name(name)
        return self._token_book().revoke(clean, at=self.clock())

    def token_for(self, secret: str) -> TokenInfo | None:
        """The good token whose secret is ``secret``; ``None`` for any other text (unknown,
        revoked, or no token at all). Cheap: one lookup by the secret's SHA-256 (a folder's
        file is read again only when it changed; a database's table by its key)."""
        book = self._ledger.tokens
        if book is None or not looks_like_secret(secret):
            return None
        row = book.find(digest(secret))
        return row.info if row is not None else None

    def code_secret(self) -> bytes:
        """The secret a club night's access codes are derived from (:mod:`scorer.league.night_codes`),
        kept beside the facts as the tokens are, never among them; made on first use. Refused
        (:class:`StoreError`) where a store keeps none (the app in a browser)."""
        return self._token_book().code_secret()

    def _read(self) -> AbstractContextManager[State]:
        return self._ledger.read()

    def _write(self) -> AbstractContextManager[State]:
        return self._ledger.write()

    def _emit(
        self, kind: str, *, at: str | None = None, by: str | None = None, why: str | None = None, **data: Any
    ) -> Fact:
        return self._ledger.emit(new_fact(kind, at=at or now(), by=signer(by), why=why, **data))

    def _league_value(self, state: State, league_id: str) -> League:
        doc = state.index().leagues[league_id]
        seasons = tuple(_season_value(s) for s in state.seasons_of(doc.id))
        return League(
            id=doc.id,
            name=doc.name,
            created=doc.created,
            changed=doc.changed,
            seasons=seasons,
            confirmation=doc.confirmation,
        )

    # -- leagues and seasons ------------------------------------------------------------

    def create_league(self, name: str, *, season: str | None = None) -> League:
        """A new league with its first season (named ``season``, else "Season 1")."""
        clean = clean_name(name, what="league")
        season_name = clean_name(season, what="season") if season is not None else "Season 1"
        with self._write() as state:
            if any(name_key(lg.name) == name_key(clean) for lg in state.index().leagues.values()):
                raise StoreInputError(Message("store.league_exists", value=repr(clean)))
            league_id = new_id()
            self._emit(
                "league.created", league=league_id, name=clean, season=new_id(), season_name=season_name
            )
            return self._league_value(state, league_id)

    def leagues(self) -> list[League]:
        with self._read() as state:
            docs = sorted(state.index().leagues.values(), key=lambda lg: (lg.created, lg.id))
            return [self._league_value(state, d.id) for d in docs]

    def league(self, key: str) -> League:
        """A league by name or id; :class:`UnknownLeagueError` if there is none."""
        with self._read() as state:
            return self._league_value(state, state.league_doc(key).id)

    def close_season(self, league: str) -> Season:
        """Close the league's open season: its games and standings are frozen from now on."""
        with self._write() as state:
            season = state.open_season(state.league_doc(league))
            self._emit("season.closed", season=season.id)
            return _season_value(state.index().seasons[season.id])

    def rename_league(self, key: str, name: str) -> League:
        clean = clean_name(name, what="league")
        with self._write() as state:
            doc = state.league_doc(key)
            for other in state.index().leagues.values():
                if other.id != doc.id and name_key(other.name) == name_key(clean):
                    raise StoreInputError(Message("store.league_exists", value=repr(clean)))
            self._emit("league.renamed", league=doc.id, name=clean)
            return self._league_value(state, doc.id)

    def rename_season(self, league: str, season: str, name: str) -> Season:
        clean = clean_name(name, what="season")
        with self._write() as state:
            doc = state.league_doc(league)
            found = state.season_doc(doc, season)
            for other in state.seasons_of(doc.id):
                if other.id != found.id and name_key(other.name) == name_key(clean):
                    raise StoreInputError(
                        Message("store.season_exists", league=repr(doc.name), value=repr(clean))
                    )
            self._emit("season.renamed", season=found.id, name=clean)
            return _season_value(state.index().seasons[found.id])

    def new_season(self, league: str, name: str | None = None) -> Season:
        """Start a new season (closing the open one); new games go to it."""
        with self._write() as state:
            doc = state.league_doc(league)
            seasons = state.seasons_of(doc.id)
            number = max((s.number for s in seasons), default=0) + 1
            clean = clean_name(name, what="season") if name is not None else f"Season {number}"
            if any(name_key(s.name) == name_key(clean) for s in seasons):
                raise StoreInputError(
                    Message("store.season_exists", league=repr(doc.name), value=repr(clean))
                )
            stamp = now()
            for season in seasons:
                if season.closed is None:
                    self._emit("season.closed", at=stamp, season=season.id)
            season_id = new_id()
            self._emit("season.opened", at=stamp, league=doc.id, season=season_id, name=clean, number=number)
            return _season_value(state.index().seasons[season_id])

    # -- players ------------------------------------------------------------------------

    def players(self, *, league: str | None = None) -> list[Player]:
        """Every player (by name), or those who played in ``league``."""
        with self._read() as state:
            docs = [p for p in state.index().players.values() if p.merged_into is None]
            if league is not None:
                league_id = state.league_doc(league).id
                ids = {p for entry in state.select(league=league_id, season=None) for p in entry.players}
                docs = [p for p in docs if p.id in ids]
            return [_player_value(p) for p in sorted(docs, key=lambda p: (p.name.casefold(), p.id))]

    def player(self, key: str) -> Player:
        """A player by name or id (a merged player's old id gives the player kept)."""
        with self._read() as state:
            return _player_value(state.player_doc(key))

    def _add_player(
        self, state: State, name: str, *, different: bool, player_id: str | None = None
    ) -> PlayerDoc:
        state.refuse_look_alike(name, different=different)
        key = player_id or new_id()
        self._emit("player.added", player=key, name=name)
        return state.index().players[key]

    def add_player(self, name: str, *, new_player: bool = False) -> Player:
        """A new player; a name that looks like a player's already here (``Аnna`` with a Cyrillic
        ``А`` beside ``Anna``) is refused with :class:`LookAlikeError` unless ``new_player``
        says it is a different person."""
        clean = clean_name(name, what="player")
        with self._write() as state:
            return _player_value(self._add_player(state, clean, different=new_player))

    def rename_player(self, key: str, name: str, *, new_player: bool = False) -> Player:
        """Rename a player; a name that looks like another player's is refused as for
        :meth:`add_player` (``new_player``: they are different people)."""
        clean = clean_name(name, what="player")
        with self._write() as state:
            doc = state.player_doc(key)
            state.refuse_look_alike(clean, different=new_player, but=doc.id)
            self._emit("player.renamed", player=doc.id, name=clean)
            return _player_value(state.index().players[doc.id])

    def merge_players(self, keep: str, other: str) -> Player:
        """Make ``other`` the same person as ``keep``: their games become ``keep``'s."""
        with self._write() as state:
            kept = state.player_doc(keep)
            gone = state.player_doc(other)
            if kept.id == gone.id:
                raise StoreInputError(Message("store.same_player", first=repr(keep), second=repr(other)))
            entries = [e for e in state.game_rows() if gone.id in e.players]
            clash = next((e for e in entries if kept.id in e.players), None)
            if clash is not None:
                raise StoreInputError(
                    Message("store.played_each_other", first=kept.name, second=gone.name, game=clash.id)
                )
            from scorer.league.exchange import night_players  # imported on first use (issue 25)

            for night in state.night_docs():
                if gone.id not in night_players(night):
                    continue
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
            self._emit("player.merged", player=gone.id, into=kept.id)
            return _player_value(state.index().players[kept.id])

    # -- games: reading -----------------------------------------------------------------

    def _stored(self, state: State, record: GameRecord, game: Game | None = None) -> StoredGame:
        game = game or state.replay(record)
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
        with self._read() as state:
            state.game_row(game_id)
            return self._stored(state, state.record(game_id))

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
        with self._read() as state, no_collection():
            entries = state.select(league=league, season=season)
            if not deleted:
                entries = [e for e in entries if e.status != "deleted"]
            names = state.names()
            infos = [self._info(state, e, names) for e in entries]
            if finished is not None:
                infos = [i for i in infos if i.finished == finished]
            return infos

    def _info(self, state: State, entry: GameRow, names: Mapping[str, str]) -> GameInfo:
        summary = state.summary(entry)
        holders = tuple(seat[-1] for seat in summary.seat_holders(len(entry.players))) if summary.left else ()
        return GameInfo(
            id=entry.id,
            league_id=entry.league,
            season_id=entry.season,
            ruleset=summary.ruleset,
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
            holders=holders,
            holder_names=tuple(names.get(p, p) for p in holders),
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

        The ruleset with its options is stored with the game (the ruleset as played), so a
        later change to a ruleset file never changes this game's result.
        """
        rules = load_ruleset(ruleset, options=options)
        with self._write() as state:
            league_id = season_id = None
            confirms = False  # its league's confirmation, for an ordinary game (scorer/league/confirm.py)
            if league is not None:
                league_doc, season_doc = state.season_for(league, season)
                league_id, season_id = league_doc.id, season_doc.id
                confirms = league_doc.confirmation and night is None
            elif season is not None:
                raise StoreInputError(Message("store.season_without_league"))
            docs = self._seat(state, players, different=different_people(new_players))
            by_key = dict(zip(players, docs, strict=True))
            starting = {(by_key[k].name if k in by_key else k): v for k, v in (start or {}).items()}
            game = Game(
                ruleset=rules, players=tuple(p.name for p in docs), first_dealer=first_dealer, start=starting
            )
            document = game_document(game, ruleset_id=rules.id, options=dict(options or {}))
            game_id = new_id()
            self._emit(
                "game.started",
                at=self.clock(),
                by=by,
                game=game_id,
                league=league_id,
                season=season_id,
                players=[p.id for p in docs],
                document=document,
                ruleset=rules.model_dump(mode="json"),
                night=night[0] if night is not None else None,
                round=night[1] if night is not None else None,
                table=table,
                deadline=deadline,
                confirmation=confirms,
            )
            record = state.record(game_id)
            state.summary(record, game=game)
            return self._stored(state, record, game)

    def _seat(
        self, state: State, keys: Sequence[str], *, different: Callable[[str], bool]
    ) -> list[PlayerDoc]:
        """The players of a new game by name or id; new names become players."""
        docs = []
        for key in keys:
            try:
                docs.append(state.player_doc(key))
            except UnknownPlayerError:
                name = clean_name(key, what="player")
                docs.append(self._add_player(state, name, different=different(name)))
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
        kind: str,
        number: int | None = None,
        why: str | None = None,
        also: Callable[[State], None] | None = None,
        **data: Any,
    ) -> StoredGame:
        """One signed change to a game: ``change(game, record)`` gives the game after it;
        ``also(state)``, when given, emits what goes with it in the same write.

        ``change`` may raise (a refused deal, a conflict) before any fact is emitted. A deal
        change emits ``kind`` with the deal as the game file has it; a change that ends the
        game adds ``game.finished``. A deal saved as the game's last at or after the game's
        deadline ends the game (docs/rules.md, "Timed rounds"): ``game.called``.
        """
        with self._write() as state:
            state.game_row(game_id)
            record = state.record(game_id)
            state.check_open(record)
            before = state.replay(record)
            stamp = self.clock()
            game = change(before, record)
            called = _called_on_time(before, game, deadline=record.deadline, now=stamp)
            document = game_document(
                called, ruleset_id=str(record.document["ruleset"]), options=record.document.get("options")
            )
            if kind == "deal.recorded":
                number = len(game.deals)
            fields: dict[str, Any] = dict(data)
            if number is not None:
                fields["number"] = number
            if kind in {"deal.recorded", "deal.corrected", "deal.restored"}:
                assert number is not None
                fields["deal"] = document["deals"][number - 1]
            self._emit(kind, at=stamp, by=by, why=why, game=game_id, **fields)
            if called is not game:
                self._emit("game.called", at=stamp, by=by, game=game_id, after=called.ends_after)
            if called.result.finished and not before.result.finished:
                self._emit("game.finished", at=stamp, by=by, game=game_id)
            if also is not None:
                also(state)
            written = state.record(game_id)
            state.summary(written, game=called)
            return self._stored(state, written, called)

    def add_deal(
        self, game_id: str, deal: Mapping[str, Any], *, by: str | None = None, number: int | None = None
    ) -> StoredGame:
        """Record one more deal (a game-file deal object); an invalid deal changes nothing.

        ``number`` is the deal this entry records (1-based), as the device that entered it saw
        the game: if the game has that deal already (another device saved it first), nothing
        is written and :class:`ConflictError` shows theirs; a ``number`` below 1 is no deal's.
        """
        if number is not None and (isinstance(number, bool) or number < 1):
            raise StoreInputError(Message("store.not_a_deal_number", number=repr(number)))
        parsed = _deal(deal)

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            deals = record.document.get("deals") or []
            if number is not None and number <= len(deals):
                raise conflict(record, number, "was recorded")
            return game.add(parsed)

        return self._change(game_id, change, by=by, kind="deal.recorded")

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

        return self._change(
            game_id, change, by=by, kind="deal.corrected", number=index + 1, why=why_given(why)
        )

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

        return self._change(game_id, change, by=by, kind="deal.removed", number=index + 1, why=why_given(why))

    def put_back_deal(
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

        return self._change(game_id, change, by=by, kind="deal.restored", number=index + 1)

    def abandon_game(self, game_id: str, *, by: str | None = None, why: str | None = None) -> StoredGame:
        """Give the game up: it is no longer in progress and counts in no standings (undo: resume)."""

        def change(game: Game, record: GameRecord) -> Game:
            require_active(record)
            return game

        return self._change(game_id, change, by=by, kind="game.abandoned", why=why_given(why))

    def resume_game(self, game_id: str, *, by: str | None = None) -> StoredGame:
        """Take up an abandoned game again."""

        def change(game: Game, record: GameRecord) -> Game:
            if record.status != "abandoned":
                raise GameStatusError(
                    Message("store.not_abandoned", game=record.id, status=Word(record.status))
                )
            return game

        return self._change(game_id, change, by=by, kind="game.resumed")

    def delete_game(self, game_id: str, *, by: str | None = None, why: str | None = None) -> None:
        """Delete the game: listed nowhere and counted nowhere, but kept, so that it can be undone."""

        def change(game: Game, record: GameRecord) -> Game:
            if record.status == "deleted":
                raise GameStatusError(Message("store.deleted_already", game=record.id))
            return game

        self._change(game_id, change, by=by, kind="game.deleted", why=why_given(why))

    def undelete_game(self, game_id: str, *, by: str | None = None) -> StoredGame:
        """Bring a deleted game back as it was before (an abandoned game comes back abandoned)."""

        def change(game: Game, record: GameRecord) -> Game:
            if record.status != "deleted":
                raise GameStatusError(Message("store.not_deleted", game=record.id))
            return game

        return self._change(game_id, change, by=by, kind="game.undeleted")

    def move_game(
        self, game_id: str, *, league: str, season: str | None = None, by: str | None = None
    ) -> StoredGame:
        """Move a game into ``league`` (its open season, or ``season``): it counts there from now on."""
        with self._write() as state:
            league_doc, season_doc = state.season_for(league, season)

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

            return self._change(
                game_id, change, by=by, kind="game.moved", league=league_doc.id, season=season_doc.id
            )

    def find_game(self, key: str) -> str:
        """The id of the game whose id is ``key`` or starts with it (deleted games too)."""
        wanted = key.strip().lower()
        with self._read() as state:
            ids = [str(e.id) for e in state.game_rows()]
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
        with self._read() as state:
            state.game_row(game_id)
            return list(events_of(state.record(game_id)))

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
        from scorer.league.exchange import read_import  # imported on first use (issue 25)

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
        (:class:`LookAlikeError`) unless ``new_players`` says it is a different person.

        A file of facts (``rummy league export --facts``) brings the facts this store lacks
        (:func:`~scorer.league.merge.merge_facts`): a game changed on both devices apart is
        a conflict, reported and left as it is here."""
        with self._write() as state:
            return self._import(state, league, batch, season=season, by=by, new_players=new_players)

    def _import(
        self,
        state: State,
        league: str,
        batch: ImportBatch,
        *,
        season: str | None,
        by: str | None,
        new_players: NewPlayers,
    ) -> ImportReport:
        from scorer.league.merge import apply_import, merge_facts

        report = apply_import(
            state,
            self._ledger.emit,
            league=league,
            batch=batch,
            season=season,
            by=signer(by),
            new_players=new_players,
        )
        for source, document in batch.facts:
            report = report.plus(
                merge_facts(state, self._ledger.emit, league=league, document=document, source=source)
            )
        return report

    def export_facts(
        self, league: str, *, game: str | None = None, night: str | None = None
    ) -> dict[str, Any]:
        """The league's facts as one JSON-ready file: every fact of the league, its players,
        games and nights, in the order they happened (``rummy league export --facts``); a
        store that imports it has the league exactly as here.

        With ``game`` (or ``night``: the night and its games), only what that game needs on
        another store: it, the league's players and the league and its seasons
        (:func:`~scorer.league.merge.shared_facts`): the file a phone's share sheet carries,
        and what ``rummy league qr`` shows as codes."""
        from scorer.league.merge import facts_document, league_facts, shared_facts

        with self._read() as state:
            facts = league_facts(self._ledger.facts_since(0), state, league=league)
            if game is not None or night is not None:
                league_id = state.league_doc(league).id
                rows = state.select(league=league_id, season=None)
                subjects: set[str] = set()
                if game is not None:
                    if game not in {row.id for row in rows}:
                        raise UnknownGameError(
                            Message("store.game_not_in_league", game=repr(game), league=repr(league))
                        )
                    subjects.add(game)
                if night is not None:
                    if night not in {n.id for n in state.night_docs(league_id)}:
                        raise StoreInputError(
                            Message("store.night_not_in_league", night=repr(night), league=repr(league))
                        )
                    subjects.add(night)
                    subjects.update(row.id for row in rows if row.night == night)
                facts = shared_facts(facts, subjects=subjects)
            return facts_document(facts, store=self._ledger.store_id)

    def game_league(self, game: str) -> str:
        """The id of the league the game is in."""
        with self._read() as state:
            return str(state.game_row(game).league)

    def preview_import(
        self, league: str, batch: ImportBatch, *, season: str | None = None, new_players: NewPlayers = False
    ) -> ImportReport:
        """What :meth:`import_batch` would add and which conflicts it would report; nothing is written."""
        reports: list[ImportReport] = []
        try:
            with self._write() as state:
                reports.append(
                    self._import(state, league, batch, season=season, by=None, new_players=new_players)
                )
                raise _Preview
        except _Preview:
            pass
        return reports[0]

    def import_preview(
        self, league: str, batch: ImportBatch, *, create: bool = False, season: str | None = None
    ) -> ImportPreview:
        """What :meth:`import_batch` would add, game by game and player by player, and the
        conflicts it would report; nothing is written (the import runs in a transaction that
        is thrown away). With ``create``, into a league named ``league`` made first (with its
        open season named ``season``), as the receiving phone makes one it lacks."""
        from scorer.league.import_preview import describe, league_before

        previews: list[ImportPreview] = []
        try:
            with self._write() as state:
                if create:
                    clean = clean_name(league, what="league")
                    taken = {name_key(lg.name) for lg in state.index().leagues.values()}
                    if name_key(clean) in taken:
                        raise StoreInputError(Message("store.league_exists", value=repr(clean)))
                    league_id = new_id()
                    season_name = clean_name(season, what="season") if season is not None else "Season 1"
                    self._emit(
                        "league.created",
                        league=league_id,
                        name=clean,
                        season=new_id(),
                        season_name=season_name,
                    )
                    before = league_before(state, None)
                else:
                    league_id = state.league_doc(league).id
                    before = league_before(state, league_id)
                report = self._import(state, league_id, batch, season=None, by=None, new_players=False)
                previews.append(
                    describe(state, league=league_id, before=before, report=report, new_league=create)
                )
                raise _Preview
        except _Preview:
            pass
        return previews[0]

    def backup(self, folder: str | Path) -> Path:
        """The store's log (and checkpoint), taken under its lock, as one zip file in ``folder``."""
        from scorer.league.backup import write_backup

        location = self.location
        if location is None:
            _refuse_database(self.address, "backup")
            raise StoreInputError(Message("store.memory_no_backup"))
        target = Path(folder).expanduser()
        with self._write():
            return write_backup(location, target)

    def replace_from_backup(self, path: str | Path) -> int:
        """Put the store back as a :meth:`backup` zip has it (checked whole first); files written."""
        from scorer.league.backup import read_backup, replace_from_backup

        location = self.location
        if location is None:
            _refuse_database(self.address, "replace from backup")
            raise StoreInputError(Message("store.memory_no_replace"))
        files = read_backup(Path(path).expanduser())
        with self._write():
            return replace_from_backup(location, files)

    def export_league(self, league: str) -> dict[str, Any]:
        """The league as one JSON-ready document: seasons, players, games (with their night
        tags) and club nights, ids kept."""
        from scorer.league.merge import export_document

        with self._read() as state:
            return export_document(state, league=league)

    def export_csv(self, league: str) -> str:
        """The league's deals as CSV: one row per deal per player (with its game's night and round)."""
        from scorer.league.exchange import export_csv
        from scorer.league.merge import export_rows

        with self._read() as state:
            return export_csv(export_rows(state, league=league))

    # -- standings ----------------------------------------------------------------------

    def played_games(self, league: str, *, season: str | None = None) -> list[PlayedGame]:
        """The league's games as the standings functions take them (player keys are ids)."""
        with self._read() as state, no_collection():
            return state.played(league=league, season=season)

    def ratings(self, league: str, *, season: str | None = None) -> Ratings:
        """The ratings of the league's finished games (of one season), in the order played.

        Computed once for each state of the store and shared by every standings table, player
        page and head-to-head of the same games (each ruleset is rated on its own, so one
        table serves every ruleset).
        """
        with self._read() as state, no_collection():
            return self._rated(state, league, season=season)

    def _token(self) -> str | None:
        """The state's token for the remembered tables (``None``: inside a write that has
        emitted facts, whose state the log's position does not tell)."""
        if self._ledger.pending():
            return None
        return f"{self._ledger.position}:{self._ledger.last_sum}"

    def _games(self, state: State, league: str, *, season: str | None) -> list[PlayedGame]:
        """The league's played games for the store's state, read once per state."""
        key = (league, season)
        token = self._token()
        hit = self._played.get(key)
        if hit is not None and token is not None and hit[0] == token:
            return hit[1]
        if season is None:
            games = self._league_games(state, league)
        else:  # a season's games, in the order played, are a part of the league's
            season_id = state.season_doc(state.league_doc(league), season).id
            games = [g for g in self._games(state, league, season=None) if g.season == season_id]
        if token is not None:
            if len(self._played) >= STANDINGS_KEPT:
                self._played.clear()
            self._played[key] = (token, games)
        return games

    def _league_games(self, state: State, league: str) -> list[PlayedGame]:
        """The league's played games (every season) now, gone on from those read last for the
        same state where few games changed since (a deal saved: one game read again)."""
        with no_collection():
            league_id = state.league_doc(league).id
            mark = state.games_mark()
            before = self._played_at.get(league_id)
            games = None
            if before is not None and before[0]() is state and before[1] <= mark:
                games = state.played_since(before[2], before[1], league=league_id)
            if games is None:
                games = state.played(league=league_id, season=None)
            if not self._ledger.pending():  # a write's state may yet be rolled back
                if len(self._played_at) >= STANDINGS_KEPT:
                    self._played_at.clear()
                self._played_at[league_id] = (weakref.ref(state), mark, games)
            return games

    def _rated(self, state: State, league: str, *, season: str | None) -> Ratings:
        key = (league, season)
        token = self._token()
        hit = self._ratings.get(key)
        if hit is not None and token is not None and hit[0] == token:
            return hit[1]
        doc = state.league_doc(league)
        season_id = state.season_doc(doc, season).id if season is not None else None
        ratings = state.rated(self._games(state, league, season=season), league=doc.id, season=season_id)
        if token is not None:
            if len(self._ratings) >= STANDINGS_KEPT:
                self._ratings.clear()
            self._ratings[key] = (token, ratings)
        return ratings

    def standings(
        self, league: str, *, season: str | None = None, ruleset: str | None = None
    ) -> list[StandingRow]:
        """The league's standings (player keys are player ids), best first.

        Computed once for each state of the store: asked again with nothing changed, the same
        rows come back at once. The ratings behind them are shared with every other table of
        the same season (see :meth:`ratings`).
        """
        with self._read() as state, no_collection():
            key = (league, season, ruleset)
            token = self._token()
            hit = self._standings.get(key)
            if hit is not None and token is not None and hit[0] == token:
                return list(hit[1])
            ratings = self._rated(state, league, season=season)
            rows = self._queried(state, league, season=season, ruleset=ruleset, ratings=ratings)
            if rows is None:
                rows = standings(self._games(state, league, season=season), ruleset=ruleset, ratings=ratings)
            if token is not None:
                if len(self._standings) >= STANDINGS_KEPT:
                    self._standings.clear()
                self._standings[key] = (token, rows)
            return list(rows)

    def _queried(
        self, state: State, league: str, *, season: str | None, ruleset: str | None, ratings: Ratings
    ) -> list[StandingRow] | None:
        """The standings from the ledger's results table (on PostgreSQL: one snapshot of the
        database at this state's commit), or ``None`` where it keeps none or cannot answer for
        this state (a write under way, another process's commit since, a game not scored)."""
        if self._ledger.pending():
            return None
        doc = state.league_doc(league)
        season_id = state.season_doc(doc, season).id if season is not None else None
        found = self._ledger.result_totals(
            doc.id, season_id=season_id, ruleset=ruleset, position=self._ledger.position
        )
        if found is None:
            return None
        totals, streaks = found
        return standings_of_totals(totals, streaks=streaks, ruleset=ruleset, ratings=ratings)

    def standings_by_ruleset(self, league: str, *, season: str | None = None) -> dict[str, list[StandingRow]]:
        """Each ruleset's own standings (its points in its own direction), by ruleset id.

        The tables of :meth:`standings` with each ruleset filter the league's finished games
        (of the season) have, remembered as it remembers them.
        """
        with self._read() as state, no_collection():
            games = self._games(state, league, season=season)
            rulesets = sorted({g.summary.ruleset for g in games if g.summary.finished})
            return {r: self.standings(league, season=season, ruleset=r) for r in rulesets}

    def player_stats(self, league: str, player: str) -> PlayerStats:
        with self._read() as state, no_collection():
            games = self._games(state, league, season=None)
            ratings = self._rated(state, league, season=None)
            return player_stats(games, self.player(player).id, ratings=ratings)

    def head_to_head(self, league: str, a: str, b: str) -> HeadToHead:
        with self._read() as state, no_collection():
            games = self._games(state, league, season=None)
            return head_to_head(games, self.player(a).id, self.player(b).id)

    # -- deals confirmed at the table (scorer/league/confirm.py) --------------------------

    def deal_checks(self, game_id: str) -> tuple[DealCheck, ...]:
        """Each deal's confirmation now, in order; none for a game of no club night (its deals
        need no confirmation)."""
        with self._read() as state:
            state.game_row(game_id)
            record = state.record(game_id)
            return self._checks(record) if self._confirms(state, record) is None else ()

    def set_confirmation(self, league: str, *, on: bool, by: str | None = None) -> League:
        """Whether the league's ordinary games started from now on confirm their deals at the
        table, as a club night's do (games started before keep what they had)."""
        with self._write() as state:
            doc = state.league_doc(league)
            if doc.confirmation != on:
                self._emit("league.confirmation", at=self.clock(), by=by, league=doc.id, on=on)
            return self._league_value(state, doc.id)

    def _confirms(self, state: State, record: GameRecord) -> Message | None:
        """``None`` when the game's deals are confirmed at the table, else why not."""
        if record.night is None:
            return None if record.confirmation else Message("confirm.not_a_night", game=record.id)
        night = state.get("nights", record.night)
        if night is None or not night.get("confirmation"):
            return Message("confirm.night_off", game=record.id)
        return None

    def _checks(self, record: GameRecord) -> tuple[DealCheck, ...]:
        return deal_checks(events_of(record), record.document.get("deals") or [])

    def _check(self, state: State, game_id: str, number: int) -> tuple[GameRecord, DealCheck]:
        state.game_row(game_id)
        record = state.record(game_id)
        state.check_open(record)
        check = check_of(self._checks(record), number, refused=self._confirms(state, record))
        require_active(record)
        return record, check

    def confirm_deal(
        self,
        game_id: str,
        number: int,
        *,
        by: str | None,
        director: bool = False,
        expected: Mapping[str, Any] | None = None,
    ) -> StoredGame:
        """Confirm deal ``number`` (1-based) of a club night's table game as it stands: by
        another player of the table (never the phone that saved it), or by the director
        (``director``). ``expected``: the deal as the confirmer saw it; if it changed since,
        nothing is written (:class:`ConflictError`). Refused (:class:`ConfirmError`) unsigned,
        or when the deal is confirmed, disputed or resolved already."""
        with self._write() as state:
            record, check = self._check(state, game_id, number)
            expect(record, number - 1, expected)
            refuse_confirm(check, by=signer(by), director=director)
            digest = digest_of(check.deal)
            self._emit(
                "deal.confirmed",
                at=self.clock(),
                by=by,
                game=game_id,
                number=number,
                digest=digest,
                director=director,
            )
            return self._stored(state, state.record(game_id))

    def dispute_deal(
        self,
        game_id: str,
        number: int,
        *,
        by: str | None,
        why: str | None = None,
        deal: Mapping[str, Any] | None = None,
        expected: Mapping[str, Any] | None = None,
    ) -> StoredGame:
        """Dispute deal ``number`` as it stands, saying ``why`` and, if given, how it should be
        (``deal``, a game-file deal object, checked as a correction would be): the director
        then keeps one version (:meth:`resolve_dispute`). Refused as :meth:`confirm_deal` is,
        and for the phone that saved the deal (it corrects it instead)."""
        with self._write() as state:
            record, check = self._check(state, game_id, number)
            expect(record, number - 1, expected)
            refuse_dispute(check, by=signer(by))
            theirs = None
            if deal is not None:
                game = state.replay(record).replace_deal(number - 1, _deal(deal, number=number))
                document = game_document(
                    game, ruleset_id=str(record.document["ruleset"]), options=record.document.get("options")
                )
                theirs = document["deals"][number - 1]
                if digest_of(theirs) == digest_of(check.deal):
                    raise ConfirmError(Message("confirm.same_version", number=number))
            self._emit(
                "deal.disputed",
                at=self.clock(),
                by=by,
                why=why_given(why),
                game=game_id,
                number=number,
                digest=digest_of(check.deal),
                deal=theirs,
            )
            return self._stored(state, state.record(game_id))

    def resolve_dispute(
        self, game_id: str, number: int, *, keep: str, why: str | None, by: str | None
    ) -> StoredGame:
        """The director keeps one version of disputed deal ``number``: the ``saved`` one, or
        ``theirs`` (written first as a correction, through :meth:`replace_deal`'s path, signed
        by the director with ``why``). A reason is needed; nothing is written if refused."""
        reason = why_given(why)
        if keep != "theirs":
            with self._write() as state:
                _, check = self._check(state, game_id, number)
                refuse_resolve(check, keep=keep, why=reason, by=signer(by))
                self._resolved(game_id, number, keep=keep, digest=digest_of(check.deal), why=reason, by=by)
                return self._stored(state, state.record(game_id))
        with self._read() as state:  # the disputer's version, as the director saw it
            _, check = self._check(state, game_id, number)
            refuse_resolve(check, keep=keep, why=reason, by=signer(by))
        assert check.theirs is not None  # refuse_resolve said so
        parsed = _deal(check.theirs, number=number)

        def change(game: Game, record: GameRecord) -> Game:
            now = check_of(self._checks(record), number, refused=None)
            refuse_resolve(now, keep=keep, why=reason, by=signer(by))
            if now.theirs != check.theirs:  # another dispute meanwhile: the director saw another
                raise conflict(record, number, "was changed")
            require_active(record)
            return game.replace_deal(number - 1, parsed)

        def resolved(state: State) -> None:
            kept = (state.record(game_id).document.get("deals") or [])[number - 1]
            self._resolved(game_id, number, keep=keep, digest=digest_of(kept), why=reason, by=by)

        return self._change(
            game_id, change, by=by, kind="deal.corrected", number=number, why=reason, also=resolved
        )

    def _resolved(
        self, game_id: str, number: int, *, keep: str, digest: str, why: str | None, by: str | None
    ) -> None:
        self._emit(
            "dispute.resolved",
            at=self.clock(),
            by=by,
            why=why,
            game=game_id,
            number=number,
            keep=keep,
            digest=digest,
        )

    def _night_checks(self, state: State, doc: NightDoc) -> dict[str, tuple[DealCheck, ...]]:
        """The checks of each table game of the night, by game id (deleted games have none)."""
        found: dict[str, tuple[DealCheck, ...]] = {}
        if not doc.confirmation:
            return found
        for round_doc in doc.rounds:
            for table in round_doc.tables:
                row = state.game_row(table.game).row
                if row["status"] == "deleted":
                    continue
                hit = self._checks_kept.get(table.game)
                if hit is None or hit[0] != row["rev"]:  # read from the row: no record parsed
                    whole = state.whole("games", dict(row))
                    deals = whole["document"].get("deals") or []
                    hit = (row["rev"], deal_checks(events_from(whole["events"]), deals))
                    self._checks_kept[table.game] = hit
                found[table.game] = hit[1]
        return found

    def _night_read(self, state: State, doc: NightDoc, names: Mapping[str, str]) -> Night:
        """The night as the store returns it, each table with its deals waiting for a
        confirmation; a night with a dispute open is not over."""
        checks = self._night_checks(state, doc)
        ended = {
            game: done and not any(c.state == "disputed" for c in checks.get(game, ()))
            for game, done in self._tables_ended(state, doc).items()
        }
        return night_value(doc, names, ended=ended, checks={g: counts(c) for g, c in checks.items()})

    def _night_rows(self, state: State, doc: NightDoc, names: Mapping[str, str]) -> list[NightRow]:
        """The night's standings, each row marked with the deals its points rest on that wait
        for a confirmation."""
        summaries = self._night_summaries(state, doc)
        rows = night_standings(doc, summaries, names=names, penalties=self._night_penalties(state, doc))
        checks = self._night_checks(state, doc)
        return marked_rows(rows, doc, {g: counts(c) for g, c in checks.items()})

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
        tiebreaks: Sequence[str] | None = None,
        bye_points: int = 0,
        confirmation: bool = True,
        late_byes: bool = False,
    ) -> Night:
        """A new club night in the league's open season, its first round seated and every
        table's game started; a refused request (see :mod:`scorer.seating`) writes nothing.

        ``rounds``: the rounds planned (``None``: open-ended); ``timer``: minutes per round
        (``None``: no timer), each table's game ending with the first deal saved once they
        have run out; ``handicap``: each table's game starts with starting points from the
        players' rating gap (docs/rules.md, "Timed rounds" and "Handicap"); ``tiebreaks``: the
        standings' order (:mod:`scorer.league.tiebreaks`; ``None``: the default order);
        ``bye_points``: the night points a player earns for each round they sit out, from 0
        to the 1st place's points (docs/rules.md, "Byes"); ``confirmation``: each deal saved
        at a table waits for another player's confirmation (docs/rules.md, "Confirmed deals").
        """
        if not 0 <= bye_points <= max(points, default=0):
            most = max(points, default=0)
            raise StoreInputError(Message("night.bad_bye_points", value=repr(str(bye_points)), most=most))
        if rounds is not None and rounds < 1:
            raise StoreInputError(Message("night.bad_rounds", value=repr(str(rounds))))
        _check_timer(timer)
        order = check_order(tiebreaks) if tiebreaks is not None else None
        with self._write() as state:
            league_doc, season_doc = state.season_for(league, None)
            stamp = self.clock()
            night_id = new_id()
            doc = NightDoc(
                id=night_id,
                created=stamp,
                changed=stamp,
                league=league_doc.id,
                season=season_doc.id,
                points=list(points),
                rounds=[],
                planned=rounds,
                handicap=handicap,
                tiebreaks=list(order or DEFAULT_ORDER),
                bye_points=bye_points,
                late_byes=late_byes,
                confirmation=confirmation,
            )
            asked = _RoundAsked(players, ruleset, dict(options or {}), method, seed, dict(fixed or {}), timer)
            # the night is started only once its first round can be seated
            round_doc = self._seat_round(state, doc, asked, by=by, new_players=new_players)
            self._emit(
                "night.started",
                at=stamp,
                by=by,
                night=night_id,
                league=league_doc.id,
                season=season_doc.id,
                points=list(points),
                planned=rounds,
                handicap=handicap,
                tiebreaks=list(order) if order is not None else None,
                bye_points=bye_points,
                late_byes=late_byes,
                confirmation=confirmation,
            )
            self._emit(
                "night.round_seated",
                at=round_doc.started,
                by=by,
                night=night_id,
                round=round_doc.model_dump(),
            )
            return self._night_read(state, self._night_by_id(state, night_id), state.names())

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
        with self._write() as state:
            doc = self._night_doc(state, league, night)
            refuse_past_plan(doc)
            refuse_unfinished(doc, {t.game: self._ended(state, t.game) for t in doc.rounds[-1].tables})
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
            round_doc = self._seat_round(state, doc, asked, by=by, new_players=new_players)
            self._emit(
                "night.round_seated", at=round_doc.started, by=by, night=doc.id, round=round_doc.model_dump()
            )
            return self._night_read(state, self._night_by_id(state, doc.id), state.names())

    def end_night(self, league: str, *, night: str | None = None, by: str | None = None) -> Night:
        """The director ends the league's latest night (or ``night``): no round after the one
        seated last (:func:`~scorer.league.night.ended_here` decides; nothing written if not)."""
        with self._write() as state:
            found = self._night_doc(state, league, night)
            checks = self._night_checks(state, found)
            disputes = open_disputes(
                [(r.number, t.table, checks.get(t.game, ())) for r in found.rounds for t in r.tables]
            )
            if disputes is not None:
                raise ConfirmError(disputes)
            doc = ended_here(found)
            self._emit("night.ended", at=self.clock(), by=by, night=doc.id, rounds=len(doc.rounds))
            return self._night_read(state, self._night_by_id(state, doc.id), state.names())

    def flip_coin(
        self, league: str, *, night: str | None = None, by: str | None = None
    ) -> list[tuple[str, ...]]:
        """Flip a coin for each group of players level in the night's standings (the league's
        latest night, or ``night``) where its tie-breaks reach the coin and no flip has ordered
        them yet: each flip (``secrets.SystemRandom``) is a ``night.coin_flipped`` fact, and
        the flips are returned (names, in the order the coin put them). Refused with nothing
        written when the order has no coin (``night.no_coin``) or nobody is level there
        (``night.none_level``)."""
        with self._write() as state:
            doc = self._night_doc(state, league, night)
            if "coin" not in doc.tiebreaks:
                raise StoreInputError(Message("night.no_coin", order=repr(",".join(doc.tiebreaks))))
            names = state.names()
            groups = self._coin_groups(state, doc)
            if not groups:
                raise StoreInputError(Message("night.none_level"))
            coin = secrets.SystemRandom()
            flips = []
            for group in groups:
                flipped = coin.sample(group, len(group))
                self._emit("night.coin_flipped", at=self.clock(), by=by, night=doc.id, players=flipped)
                flips.append(tuple(names.get(p, p) for p in flipped))
            return flips

    def coin_groups(self, league: str, *, night: str | None = None) -> list[tuple[str, ...]]:
        """The players (names) :meth:`flip_coin` would flip for now, group by group; none
        when the night's order has no coin or nobody is level there."""
        with self._read() as state:
            doc = self._night_doc(state, league, night)
            names = state.names()
            return [tuple(names.get(p, p) for p in group) for group in self._coin_groups(state, doc)]

    def _coin_groups(self, state: State, doc: NightDoc) -> list[tuple[str, ...]]:
        if "coin" not in doc.tiebreaks:
            return []
        _, standings, meetings = night_tallies(
            doc,
            self._night_summaries(state, doc),
            names=state.names(),
            penalties=self._night_penalties(state, doc),
        )
        return level_at_coin(standings, order=doc.tiebreaks, meetings=meetings, flips=doc.flips)

    def night(self, league: str, key: str | None = None) -> Night:
        """The league's night ``key`` (id or its start), else its latest night."""
        with self._read() as state:
            doc = self._night_doc(state, league, key)
            return self._night_read(state, doc, state.names())

    def nights(self, league: str) -> list[Night]:
        """The league's nights, oldest first."""
        with self._read() as state:
            names = state.names()
            return [self._night_read(state, d, names) for d in state.night_docs(state.league_doc(league).id)]

    def night_standings(self, league: str, key: str | None = None) -> tuple[Night, list[NightRow]]:
        """The night (latest unless ``key``) and its standings, best first (player ids)."""
        with self._read() as state:
            doc = self._night_doc(state, league, key)
            names = state.names()
            return self._night_read(state, doc, names), self._night_rows(state, doc, names)

    def _tables_ended(self, state: State, doc: NightDoc) -> dict[str, bool]:
        """Whether each table's game of the night has ended, by game id (only once every
        planned round is seated is it asked: before, the night is not over anyway)."""
        if doc.planned is None or len(doc.rounds) < doc.planned:
            return {}
        return {t.game: self._ended(state, t.game) for r in doc.rounds for t in r.tables}

    # -- the director: calls from a night's tables, penalties (scorer/league/director.py) ---

    def table_game(
        self, league: str, table: int, *, night: str | None = None, round: int | None = None
    ) -> str:
        """The game of ``table`` (1-based) in the night's ``round`` (default: its last round)."""
        with self._read() as state:
            doc = self._night_doc(state, league, night)
            number = round if round is not None else len(doc.rounds)
            if not 1 <= number <= len(doc.rounds):
                raise StoreInputError(Message("director.no_round", round=number, rounds=len(doc.rounds)))
            tables = doc.rounds[number - 1].tables
            found = [t.game for t in tables if t.table == table]
            if not found:
                raise StoreInputError(
                    Message("director.no_table", table=table, round=number, tables=len(tables))
                )
            return found[0]

    def call_director(
        self, game_id: str, reason: str, note: str | None = None, *, by: str | None = None
    ) -> Call:
        """The table playing ``game_id`` calls the director (``night.called``): ``reason`` is
        ``rules``, ``dispute`` or ``penalty``; refused with nothing written when the game is no
        table of a night (``director.not_a_table``)."""
        why, said = reason_of(reason), note_of(note)
        with self._write() as state:
            record = state.record(state.game_row(game_id).id)
            if record.night is None or record.night_round is None or record.night_table is None:
                raise StoreInputError(Message("director.not_a_table", game=repr(game_id)))
            call_id = new_id()
            self._emit(
                "night.called",
                at=self.clock(),
                by=by,
                call=call_id,
                night=record.night,
                game=record.id,
                round=record.night_round,
                table=record.night_table,
                reason=why,
                note=said,
            )
            return call_value(_existing_call(state, call_id))

    def answer_call(self, call_id: str, note: str = "", *, by: str | None = None) -> Call:
        """The director answers a call (its id, or a start of it no other call's id has),
        with a note; a call answered already is refused (``director.answered_already``)."""
        said = note_of(note) or ""
        with self._write() as state:
            call = call_value(self._find_call(state, call_id))
            if not call.open:
                raise StoreInputError(
                    Message("director.answered_already", call=repr(call_id), table=call.table)
                )
            self._emit(
                "night.call_answered",
                at=self.clock(),
                by=by,
                call=call.id,
                night=call.night,
                game=call.game,
                note=said,
            )
            return call_value(_existing_call(state, call.id))

    def calls(self, league: str, night: str | None = None) -> list[Call]:
        """The calls of the league's night ``night`` (default: its latest), open and answered,
        newest first."""
        with self._read() as state:
            doc = self._night_doc(state, league, night)
            return newest_first([call_value(r) for r in state.find("calls", Query().night == doc.id)])

    def game_calls(self, game_id: str) -> list[Call]:
        """The calls made from the table playing ``game_id``, newest first."""
        with self._read() as state:
            state.game_row(game_id)
            return newest_first([call_value(r) for r in state.find("calls", Query().game == game_id)])

    def night_penalties(self, league: str, night: str | None = None) -> dict[str, tuple[Penalty, ...]]:
        """The penalties given at each table's game of the league's night ``night`` (default:
        its latest), by game id, in the order given (read from the games' records: no replay)."""
        with self._read() as state:
            doc = self._night_doc(state, league, night)
            given: dict[str, tuple[Penalty, ...]] = {}
            for round_doc in doc.rounds:
                for table in round_doc.tables:
                    found = state.game_row(table.game).document.get("penalties") or []
                    given[table.game] = tuple(PenaltyDocument.model_validate(p).to_penalty() for p in found)
            return given

    def night_replacements(self, league: str, night: str | None = None) -> dict[str, tuple[Replacement, ...]]:
        """The replacements made at each table's game of the league's night ``night``
        (default: its latest), by game id, in the order made (read from the games' records)."""
        with self._read() as state:
            doc = self._night_doc(state, league, night)
            made: dict[str, tuple[Replacement, ...]] = {}
            for round_doc in doc.rounds:
                for table in round_doc.tables:
                    found = state.game_row(table.game).document.get("replacements") or []
                    if found:
                        made[table.game] = tuple(
                            ReplacementDocument.model_validate(r).to_replacement() for r in found
                        )
            return made

    def penalise(
        self, game_id: str, player: str, points: int | str, *, why: str, by: str | None = None
    ) -> StoredGame:
        """The director gives ``player`` (a name or id at the game) ``points`` penalty points
        (a whole number, 1 or more) in a night's table game, for ``why`` (required): the
        player's total gets worse by them in the variant's direction (:class:`~scorer.game.Penalty`).
        Refused with nothing written for a game that is no table of a night, a player not
        at it, points not 1 or more, no reason, or a deleted game."""
        given, reason = penalty_points(points), penalty_why(why)
        with self._write() as state:
            record = state.record(state.game_row(game_id).id)
            if record.night is None:
                raise StoreInputError(Message("director.penalty_not_a_table", game=repr(game_id)))
            if record.status == "deleted":
                raise GameStatusError(Message("store.deleted_undo", game=record.id))
            names = [str(n) for n in record.document.get("players") or []]
            ids = list(record.players)
            if record.substitutes:  # a seat taken over: its player now is named (the seat keeps its id)
                game = state.replay(record)
                now = seat_ids(game, record)
                names = list(holders_now(game.players, game.replacements))
                ids = [now[name] for name in names]
            seat = seat_of(player, ids=ids, names=names, table=record.night_table)
            self._emit(
                "game.penalised",
                at=self.clock(),
                by=by,
                why=reason,
                game=record.id,
                player=record.players[seat],
                points=given,
            )
            return self._stored(state, state.record(record.id))

    def replace_player(
        self,
        game_id: str,
        seat: str,
        replacement: str,
        *,
        after: int | str | None = None,
        why: str | None = None,
        by: str | None = None,
        new_player: bool = False,
    ) -> StoredGame:
        """``replacement`` (a player's name or id; a new name adds the player) takes over
        ``seat`` (its number from 1, or its holder's name) of a night's table game after deal
        ``after`` (default: the deals played so far): ``seat.replaced`` (docs/rules.md,
        "Replacements"). Refused with nothing written for a game that is no table of a
        night, a game that has ended or is deleted, an unknown seat, a player already at the
        table or at another table of the round, or a deal not yet played."""
        reason = note_of(why)
        with self._write() as state:
            record = state.record(state.game_row(game_id).id)
            if record.night is None or record.night_round is None or record.night_table is None:
                raise StoreInputError(Message("replace.not_a_table", game=repr(game_id)))
            if record.status != "active" or self._ended(state, record.id):
                raise GameStatusError(
                    Message("replace.game_over", game=record.id[:8], table=record.night_table)
                )
            game = state.replay(record)
            now = holders_now(game.players, game.replacements)
            number = seat_number(seat, holders_now=now)
            since = max((r.after for r in game.replacements if r.seat == number), default=0)
            deal = after_deal(after, played=len(game.deals), since=since)
            try:
                came = state.player_doc(replacement)
            except UnknownPlayerError:
                came = self._add_player(state, clean_name(replacement, what="player"), different=new_player)
            if came.id in record.players or came.id in record.substitutes:
                raise StoreInputError(
                    Message("replace.at_table", player=repr(came.name), table=record.night_table)
                )
            night = self._night_doc(state, state.league_doc(record.league or "").id, record.night)
            round_doc = night.rounds[record.night_round - 1]
            refuse_seated_elsewhere(round_doc, table=record.night_table, player=came.id, name=came.name)
            ids = seat_ids(game, record)
            self._emit(
                "seat.replaced",
                at=self.clock(),
                by=by,
                why=reason,
                game=record.id,
                seat=number,
                player=ids[now[number]],
                replacement=came.id,
                after=deal,
            )
            return self._stored(state, state.record(record.id))

    def lift_penalty(
        self, game_id: str, penalty: str, *, by: str | None = None, why: str | None = None
    ) -> StoredGame:
        """Take back a penalty given by mistake (its id, or a start of it): ``game.penalty_lifted``."""
        with self._write() as state:
            record = state.record(state.game_row(game_id).id)
            given = [str(p.get("id")) for p in record.document.get("penalties") or []]
            wanted = penalty.strip()
            found = [p for p in given if p == wanted] or [p for p in given if wanted and p.startswith(wanted)]
            if len(found) != 1:
                raise StoreInputError(
                    Message("director.unknown_penalty", game=repr(game_id), key=repr(penalty))
                )
            if record.status == "deleted":
                raise GameStatusError(Message("store.deleted_undo", game=record.id))
            self._emit(
                "game.penalty_lifted",
                at=self.clock(),
                by=by,
                why=why_given(why),
                game=record.id,
                penalty=found[0],
            )
            return self._stored(state, state.record(record.id))

    def _find_call(self, state: State, key: str) -> dict[str, Any]:
        wanted = key.strip()
        found = state.find("calls", Query().id == wanted) or [
            r for r in state.rows("calls") if wanted and str(r["id"]).startswith(wanted)
        ]
        if len(found) != 1:
            code = "director.ambiguous_call" if found else "director.unknown_call"
            raise StoreInputError(Message(code, key=repr(key), count=len(found)))
        return found[0]

    # -- club nights, read only: the app's night screens ---------------------------------

    def find_night(self, key: str) -> Night:
        """A night of any league by its id (or a start of it that no other night's id has)."""
        with self._read() as state:
            wanted = key.strip().lower()
            docs = state.night_docs()
            found = [d for d in docs if d.id == wanted] or [
                d for d in docs if wanted and d.id.startswith(wanted)
            ]
            if len(found) != 1:
                raise StoreInputError(Message("night.not_found", key=repr(key)))
            return self._night_read(state, found[0], state.names())

    def night_results(self, league: str) -> list[tuple[Night, list[NightRow]]]:
        """The league's nights, newest first, each with its standings (best first, player ids)."""
        with self._read() as state:
            names = state.names()
            docs = state.night_docs(state.league_doc(league).id)
            return [
                (self._night_read(state, d, names), self._night_rows(state, d, names)) for d in reversed(docs)
            ]

    def player_nights(self, player: str) -> list[tuple[Night, int, NightRow]]:
        """The nights ``player`` (id or name) played in, in every league, newest first: each
        night, the player's place in its standings (1-based) and their row."""
        with self._read() as state:
            me = state.player_doc(player).id
            names = state.names()
            played = []
            for doc in sorted(state.night_docs(), key=lambda d: (d.created, d.id), reverse=True):
                if all(me not in r.players for r in doc.rounds):
                    continue
                rows = self._night_rows(state, doc, names)
                for place, row in enumerate(rows, start=1):
                    if row.player == me:
                        played.append((self._night_read(state, doc, names), place, row))
            return played

    def _night_by_id(self, state: State, night_id: str) -> NightDoc:
        return next(d for d in state.night_docs() if d.id == night_id)

    def _night_doc(self, state: State, league: str, key: str | None) -> NightDoc:
        league_doc = state.league_doc(league)
        docs = state.night_docs(league_doc.id)
        if not docs:
            raise StoreInputError(Message("night.no_night", league=repr(league_doc.name)))
        if key is None:
            return docs[-1]
        wanted = key.strip().lower()
        found = [d for d in docs if d.id == wanted] or [d for d in docs if wanted and d.id.startswith(wanted)]
        if len(found) != 1:
            raise StoreInputError(Message("night.unknown_night", league=repr(league_doc.name), key=repr(key)))
        return found[0]

    def _ended(self, state: State, game_id: str) -> bool:
        entry = state.game_row(game_id)
        return entry.status != "active" or state.summary(entry).finished

    def _night_summaries(self, state: State, doc: NightDoc) -> dict[str, GameSummary | None]:
        summaries: dict[str, GameSummary | None] = {}
        for round_doc in doc.rounds:
            for table in round_doc.tables:
                entry = state.game_row(table.game)
                summaries[table.game] = state.summary(entry) if entry.status == "active" else None
        return summaries

    def _night_penalties(self, state: State, doc: NightDoc) -> dict[str, int]:
        """The penalty points given tonight, by player id (a deleted table's game left out)."""
        given: dict[str, int] = {}
        for round_doc in doc.rounds:
            for table in round_doc.tables:
                entry = state.game_row(table.game)
                penalties = entry.document.get("penalties") if entry.status != "deleted" else None
                if not penalties:
                    continue
                names = list(entry.document.get("players") or [])
                seats = dict(zip(names, entry.players, strict=False))
                made = [
                    ReplacementDocument.model_validate(r).to_replacement()
                    for r in entry.document.get("replacements") or []
                ]
                if made:  # a seat taken over: a penalty is its holder's when it was given
                    seats.update(
                        zip((r.replacement for r in made), entry.row.get("substitutes") or [], strict=False)
                    )
                    sat = holders(names, made)
                for penalty in penalties:
                    name = penalty.get("player")
                    if made and name in names:
                        seat = names.index(name)
                        name = holder_when(sat[seat], made, seat_number=seat, at=str(penalty.get("at") or ""))
                    player = seats.get(name)
                    if player is not None:
                        given[player] = given.get(player, 0) + int(penalty.get("points", 0))
        return given

    def _seat_round(
        self, state: State, doc: NightDoc, asked: _RoundAsked, *, by: str | None, new_players: NewPlayers
    ) -> NightRoundDoc:
        """Seat one more round of the night and start its games; the round, to be emitted."""
        rules = load_ruleset(asked.ruleset, options=asked.options)
        check_players(asked.players)
        people = self._seat(state, asked.players, different=different_people(new_players))
        names = [p.name for p in people]
        id_of = {p.name: p.id for p in people}
        seed = asked.seed
        if seed is None:
            seed = secrets.randbelow(2**31)
        # balanced seating and handicap take the same strengths (provisional at the prior)
        strengths = (
            self._strengths(state, doc, rules, people) if asked.method == "balanced" or doc.handicap else {}
        )
        ratings = {p.name: strengths[p.id] for p in people} if asked.method == "balanced" else {}
        met: dict[str, set[str]] = {}
        standing: list[str] | None = None
        by_id = {p.id: p.name for p in people}
        rested = Counter(by_id[p] for r in doc.rounds for p in r.byes if p in by_id)
        if doc.late_byes:  # the rounds a late arrival missed were byes: they count as sat out
            rested.update({by_id[p]: n for p, n in rounds_missed(doc, by_id).items()})
        if doc.rounds:
            rows = night_standings(
                doc, self._night_summaries(state, doc), penalties=self._night_penalties(state, doc)
            )
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
        # the rules an imported night is checked by too; earlier rounds were checked when seated
        written = doc.model_copy(update={"rounds": [*doc.rounds, round_doc], "changed": stamp})
        check_night(written, rules=lambda r: rules if r.number == number else None)
        return round_doc

    def _strengths(
        self, state: State, doc: NightDoc, rules: Ruleset, people: Sequence[PlayerDoc]
    ) -> dict[str, float]:
        """Each player's rating mean in the league for the variant (by id); a provisional or
        unrated player at the prior, as balanced seating takes them."""
        rated = self._rated(state, doc.league, season=None)
        strengths: dict[str, float] = {}
        for person in people:
            rating = rated.get(person.id, rules.id)
            strengths[person.id] = PRIOR_MU if rating is None or rating.provisional else rating.mu
        return strengths


def _refuse_database(location: str | Path | None, command: str) -> None:
    """A command of a folder's files (verify, restore, a zip backup or replacing the store from
    one) asked of a PostgreSQL store: refused with the database's own tools named."""
    address = pg_address.chosen(location)
    if address is not None:
        raise StoreInputError(
            Message("store.pg_no_files", command=command, address=f"'{pg_address.masked(address)}'")
        )


def _called_on_time(before: Game, game: Game, *, deadline: str | None, now: str) -> Game:
    """``game``, called after its last deal when that deal was just saved at or after the
    deadline and the game has no call yet and has not ended otherwise."""
    added = len(game.deals) == len(before.deals) + 1 and game.deals[:-1] == before.deals
    if not added or deadline is None or now < deadline or game.ends_after is not None:
        return game
    return game if game.result.finished else game.called_after(len(game.deals))


def _existing_call(state: State, call_id: str) -> dict[str, Any]:
    row = state.get("calls", call_id)
    if row is None:  # the fact just emitted put it there
        raise StoreError(Message("store.internal", text=f"call {call_id} not folded"))
    return row


def _night_tag(record: GameRecord) -> NightTag | None:
    if record.night is None or record.night_round is None:
        return None
    return NightTag(record.night, record.night_round, record.night_table, record.deadline)


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
