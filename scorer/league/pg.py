"""The ledger on PostgreSQL: the facts in an append-only table, read tables kept beside them.

:class:`PgLedger` keeps a league's facts in one database, for a club server that many app
processes share. A write (:meth:`~scorer.league.ledger.Ledger.write`) is one transaction:

1. ``pg_advisory_xact_lock`` on the store's key: the processes that write take turns;
2. catch up: the commits after the last one this process has folded (``rummy_commits`` and
   ``rummy_facts`` rows with a greater commit number), applied to the state in memory;
3. decide: the store's method reads the state and emits facts;
4. append (the commit point): one ``rummy_commits`` row (its number, the next after the
   last, and its sum, chained as in the folder's log: :func:`scorer.league.log.commit_line`),
   one ``rummy_facts`` row per fact (unique by the fact's id), and the read tables' rows
   of every player, league, season, game and night the facts changed; then ``COMMIT``.

A refusal writes nothing (the transaction is rolled back with the state). A read catches up
without the lock: a commit is seen whole or not at all. Each commit also sends, on
:data:`CHANNEL`, the games it changed (``pg_notify``, delivered when the transaction commits
and only then): every app process on the database listens (:meth:`~PgLedger.listen`) and reads the
store again at once, not at its next poll. The facts and commits tables refuse
``UPDATE`` and ``DELETE`` (a trigger): the log only grows.

The read tables (``rummy_players``, ``rummy_leagues``, ``rummy_seasons``, ``rummy_games``
with each game's status and result, ``rummy_game_players`` with each player's total and
place, ``rummy_nights``, ``rummy_results`` with each player's result in each finished game,
``rummy_totals`` with each player's totals over them per season and ruleset) answer what a
server reads often with a query (:meth:`PgLedger.standings_inputs`,
:meth:`PgLedger.result_totals`); they are written only by the commit that changes them,
never edited by hand, and can be rebuilt from the facts (:meth:`PgLedger.rebuild_reads`).

``rummy_checkpoints`` holds the state saved at a commit (:mod:`scorer.league.checkpoint`'s
bytes, with the commit's number and sum): an open loads the newest one that fits its commit
and folds only the commits after it. It is only a faster start, never a truth of its own: one
that does not fit its commit, of another form, or that cannot be read is ignored (the one
before it is tried; with none, every fact is folded). One is saved once the commits since the
last one hold :data:`~scorer.league.ledger.CHECKPOINT_EVERY` facts, or a fiftieth of every
fact once the store is large, and, while facts come in faster than a save of a large store
takes, once nine times the last save's time has gone by (:func:`checkpoint_due`;
:meth:`PgLedger.save_checkpoint`),
after the commit's transaction, never inside it: a save that fails undoes nothing. The newest
:data:`KEEP_CHECKPOINTS` are kept.

The schema is made on first open (``CREATE TABLE IF NOT EXISTS``, under a lock of its own)
with its version in ``rummy_meta``; a database made by a newer version is refused, and no
table is ever dropped. A database that cannot be reached is a
:class:`~scorer.league.errors.StoreError` naming the address (password masked) and what to
check.
"""

from __future__ import annotations

import json
import logging
import secrets
import select
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from scorer.errors import ScorerError
from scorer.league import checkpoint
from scorer.league.errors import NewerStoreError, StoreBusyError, StoreError, StoreInputError
from scorer.league.facts import FACT_VERSION, Fact, fact_from_json
from scorer.league.ledger import CHECKPOINT_EVERY, LOCK_TIMEOUT, Ledger
from scorer.league.log import Commit, commit_line, header_line
from scorer.league.pg_address import masked
from scorer.league.pg_totals import COLUMNS as TOTALS_COLUMNS
from scorer.league.pg_totals import KEEP_TOTALS, Result, added
from scorer.league.standings import ResultTotals
from scorer.league.state import CODE_VERSION, STATE_VERSION, TABLES, GameRow, State
from scorer.league.token_book import CODES_KEY_BYTES, TokenBook
from scorer.league.tokens import Role, TokenInfo, TokenRow, name_taken, no_such_token
from scorer.messages import Message
from scorer.names import name_key

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from scorer.league.summary import GameSummary

#: The version of the tables below; a database of a newer one is refused. Each version only
#: adds (``IF NOT EXISTS``): an older database is brought up to it when it is opened.
#: 2: ``rummy_tokens``, the club server's access tokens.
#: 3: ``rummy_commits.sender``, the token that sent a commit's facts.
#: 4: ``rummy_checkpoints``, the state saved at a commit (a faster start).
#: 5: ``rummy_results``, each player's result in each finished game (the standings' query), and
#: ``rummy_held``, the facts a sync held back (kept in memory only before).
#: 6: ``rummy_totals``, each player's totals per league, season and ruleset kept by the commit
#: (the standings read a row a player, not every game's).
#: 7: ``rummy_totals.current_run``, ``last_played`` and ``last_game``: a game finished after a
#: player's last one is added to their rows, not counted again from all their results.
SCHEMA_VERSION: Final = 7
#: The first version with ``rummy_results``: a database of an earlier one has it empty, and it is
#: filled from the facts when the database is first opened by this version.
RESULTS_SINCE: Final = 5
#: The first version with ``rummy_totals``: a database of an earlier one has it filled from
#: ``rummy_results`` in the transaction that brings its schema up to this version.
TOTALS_SINCE: Final = 6
#: The first version whose ``rummy_totals`` can be added to (:mod:`scorer.league.pg_totals`): a
#: database of an earlier one has its totals counted again when it is brought up to this one.
ADDED_TOTALS_SINCE: Final = 7
#: The advisory lock keys: the store's writes, and making the schema (64-bit, "rummy" + 1 / 2).
WRITE_KEY: Final = 0x72756D6D7901
SCHEMA_KEY: Final = 0x72756D6D7902
#: Seconds to wait for the database to answer when connecting.
CONNECT_TIMEOUT: Final = 10
#: Connections a process keeps to the database (its reads and its one write at a time).
POOL_SIZE: Final = 4
#: The channel on which each commit names the games it changed (LISTEN/NOTIFY).
CHANNEL: Final = "rummy_changes"
#: The most game ids one notice names (PostgreSQL's payload holds under 8,000 bytes): a commit
#: that changed more says "any game".
NOTICE_GAMES: Final = 100
#: The checkpoints kept (the newest; older ones are deleted when one is saved).
KEEP_CHECKPOINTS: Final = 3
#: A checkpoint is due once the facts since the last one are this share of every fact held
#: (or :data:`~scorer.league.ledger.CHECKPOINT_EVERY`, whichever is more): saving one encodes
#: the whole state, so a fixed count made a growing store's writes slower with every fact.
CHECKPOINT_SHARE: Final = 50
#: ... but while facts come in faster than that (a sync's pages, one after another), not before
#: this many times the last save's seconds have gone by since it: a save of a large store takes
#: seconds (a million facts' state), and a share of facts that comes in a few seconds would
#: make the saves most of the time spent; never more than :data:`CHECKPOINT_MOST`'s share of
#: the facts without one (what an open folds after the newest).
CHECKPOINT_PAUSE: Final = 9
CHECKPOINT_MOST: Final = 10
#: A save shorter than this many seconds is never waited for (a small store saves by count).
CHECKPOINT_QUICK: Final = 1.0
#: A checkpoint held back by that pause is saved once no commit has come for this many
#: seconds (an ingest that stopped), or when the store is closed: else the next open would fold
#: up to a tenth of every fact after the newest (seconds at a club server's size).
CHECKPOINT_QUIET: Final = 5.0


def checkpoint_due(since: int, held: int, *, idle: float = float("inf"), took: float = 0.0) -> bool:
    """Whether ``since`` facts folded after the last checkpoint make one due, with ``held``
    facts in the store: every :data:`CHECKPOINT_EVERY` facts while the store is small, every
    fiftieth of it once it is large (a save's cost grows with the store; this way it is paid
    once per fixed share of facts, and an open folds at most that share). When the last save
    ``took`` a second or more, also not before :data:`CHECKPOINT_PAUSE` times that has gone by
    since it ended (``idle`` seconds), unless the facts since are a tenth of those held: a
    save is then at most a tenth of the time of an ingest.

    >>> checkpoint_due(199, 1_000), checkpoint_due(200, 1_000)
    (False, True)
    >>> checkpoint_due(2_000, 1_000_000), checkpoint_due(20_000, 1_000_000)
    (False, True)
    >>> checkpoint_due(20_000, 1_000_000, idle=60.0, took=10.0)
    False
    >>> checkpoint_due(20_000, 1_000_000, idle=90.0, took=10.0)
    True
    >>> checkpoint_due(100_000, 1_000_000, idle=1.0, took=10.0)
    True
    """
    if since < max(CHECKPOINT_EVERY, held // CHECKPOINT_SHARE):
        return False
    if took < CHECKPOINT_QUICK or since * CHECKPOINT_MOST >= held:
        return True
    return idle >= CHECKPOINT_PAUSE * took


#: What a checkpoint row's ``code`` names: the checkpoint's form and the fold's version, as
#: :func:`scorer.league.checkpoint.decode` checks them (a row of another is not read).
CHECKPOINT_CODE: Final = f"{checkpoint.CHECKPOINT_FORM}.{STATE_VERSION}"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Changed:
    """A commit another process (or this one) made: its number and the games it changed
    (``None``: it may have changed any, a league's import for one)."""

    n: int
    games: tuple[str, ...] | None

    def payload(self) -> str:
        """The notice's text on :data:`CHANNEL`.

        >>> Changed(7, ("g1",)).payload()
        '{"n": 7, "games": ["g1"]}'
        """
        return json.dumps({"n": self.n, "games": None if self.games is None else list(self.games)})

    @classmethod
    def of(cls, n: int, games: Sequence[str]) -> Changed:
        """The notice of commit ``n`` that changed ``games``.

        >>> Changed.of(3, [str(i) for i in range(500)]).games is None
        True
        """
        return cls(n, tuple(games) if len(games) <= NOTICE_GAMES else None)

    @classmethod
    def parse(cls, payload: str) -> Changed:
        """A notice from its text; one this version cannot read is "commit 0 changed any game"
        (the listener reads the store again all the same).

        >>> Changed.parse('{"n": 7, "games": ["g1"]}')
        Changed(n=7, games=('g1',))
        >>> Changed.parse("not json")
        Changed(n=0, games=None)
        """
        try:
            data = json.loads(payload)
            games = data.get("games")
            return cls(int(data["n"]), None if games is None else tuple(str(g) for g in games))
        except (ValueError, TypeError, KeyError, AttributeError):
            return cls(0, None)


SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS rummy_meta (
        key text PRIMARY KEY,
        value text NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rummy_commits (
        n bigint PRIMARY KEY CHECK (n > 0),
        sum text NOT NULL,
        at timestamptz NOT NULL DEFAULT now())""",
    """CREATE TABLE IF NOT EXISTS rummy_facts (
        id text PRIMARY KEY,
        n bigint NOT NULL REFERENCES rummy_commits (n),
        seq integer NOT NULL,
        kind text NOT NULL,
        body jsonb NOT NULL,
        UNIQUE (n, seq))""",
    """CREATE OR REPLACE FUNCTION rummy_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the league''s % are append-only', TG_TABLE_NAME;
        END $$""",
    """CREATE OR REPLACE TRIGGER rummy_facts_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
        ON rummy_facts FOR EACH STATEMENT EXECUTE FUNCTION rummy_append_only()""",
    """CREATE OR REPLACE TRIGGER rummy_commits_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
        ON rummy_commits FOR EACH STATEMENT EXECUTE FUNCTION rummy_append_only()""",
    """CREATE TABLE IF NOT EXISTS rummy_players (
        id text PRIMARY KEY,
        name text NOT NULL,
        merged_into text,
        n bigint NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rummy_leagues (
        id text PRIMARY KEY,
        name text NOT NULL,
        n bigint NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rummy_seasons (
        id text PRIMARY KEY,
        league text NOT NULL,
        name text NOT NULL,
        number integer NOT NULL,
        closed text,
        n bigint NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rummy_games (
        id text PRIMARY KEY,
        league text,
        season text,
        ruleset text NOT NULL,
        status text NOT NULL,
        played text NOT NULL,
        rev integer NOT NULL,
        players jsonb NOT NULL,
        deals integer,
        finished boolean,
        winner text,
        lowest_wins boolean,
        night text,
        summary jsonb,
        code text,
        n bigint NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS rummy_games_league ON rummy_games (league, season, played)",
    """CREATE TABLE IF NOT EXISTS rummy_game_players (
        game text NOT NULL REFERENCES rummy_games (id),
        player text NOT NULL,
        seat integer NOT NULL,
        total integer NOT NULL,
        place integer NOT NULL,
        PRIMARY KEY (game, player))""",
    "CREATE INDEX IF NOT EXISTS rummy_game_players_player ON rummy_game_players (player)",
    """CREATE TABLE IF NOT EXISTS rummy_nights (
        id text PRIMARY KEY,
        league text NOT NULL,
        season text NOT NULL,
        rounds integer NOT NULL,
        doc jsonb NOT NULL,
        n bigint NOT NULL)""",
    # The access tokens (scorer.league.token_book): never facts, never synced; a secret's
    # SHA-256 only. A name is unique among the tokens not revoked.
    """CREATE TABLE IF NOT EXISTS rummy_tokens (
        hash text PRIMARY KEY,
        name text NOT NULL,
        key text NOT NULL,
        role text NOT NULL,
        created text NOT NULL,
        revoked text,
        seq bigint GENERATED ALWAYS AS IDENTITY)""",
    "CREATE UNIQUE INDEX IF NOT EXISTS rummy_tokens_good ON rummy_tokens (key) WHERE revoked IS NULL",
    # Version 3: who sent each commit (the token's name; none for one made on the server).
    "ALTER TABLE rummy_commits ADD COLUMN IF NOT EXISTS sender text",
    # Version 4: the state saved at a commit (never facts: not append-only, old ones deleted).
    """CREATE TABLE IF NOT EXISTS rummy_checkpoints (
        position bigint PRIMARY KEY,
        sum text NOT NULL,
        code text NOT NULL,
        body bytea NOT NULL,
        saved timestamptz NOT NULL DEFAULT now())""",
    # Version 5: each player's figures in each finished active game of a league, as the
    # standings count them (scorer.league.standings), written with the game's row: the
    # standings of a league are one query of its rows, in the order played.
    # Ids and times compare as Python compares text (COLLATE "C", whatever the database's
    # own collation): the order played is (played, game), as scorer.league.ratings has it.
    # A player who left their seat mid-game (docs/rules.md, "Replacements") has ``won`` NULL:
    # their deals count (``deals``: theirs only), never the game, a win or a run.
    """CREATE TABLE IF NOT EXISTS rummy_results (
        game text COLLATE "C" NOT NULL REFERENCES rummy_games (id),
        player text COLLATE "C" NOT NULL,
        league text NOT NULL,
        season text,
        ruleset text NOT NULL,
        lowest_wins boolean NOT NULL,
        played text COLLATE "C" NOT NULL,
        won boolean,
        deals integer NOT NULL,
        deals_won integer NOT NULL,
        points integer NOT NULL,
        best_deal integer,
        events jsonb,
        PRIMARY KEY (game, player))""",
    "CREATE INDEX IF NOT EXISTS rummy_results_league ON rummy_results (league, season, ruleset)",
    # Whether a league has a game not scored by this code: a few index entries, not every game.
    "CREATE INDEX IF NOT EXISTS rummy_games_code ON rummy_games (league, code) WHERE status = 'active'",
    # Version 5: the facts of a game in conflict that a sync held back (never folded; not
    # append-only: a conflict settled removes its row).
    """CREATE TABLE IF NOT EXISTS rummy_held (
        subject text PRIMARY KEY,
        facts jsonb NOT NULL,
        saved timestamptz NOT NULL DEFAULT now())""",
    # Version 6: each player's totals over the results of a league, kept by the commit that
    # changes them (scorer.league.pg_totals): one row per scope, a season's or every season's
    # (all_seasons, season ''), of one ruleset and direction or of every ruleset (all_rulesets,
    # ruleset '', lowest_wins whether every game counted fewer points better), with the
    # longest run of wins in the order played among the scope's games.
    """CREATE TABLE IF NOT EXISTS rummy_totals (
        league text NOT NULL,
        player text COLLATE "C" NOT NULL,
        all_seasons boolean NOT NULL,
        season text NOT NULL,
        all_rulesets boolean NOT NULL,
        ruleset text NOT NULL,
        lowest_wins boolean NOT NULL,
        games bigint NOT NULL,
        wins bigint NOT NULL,
        deals bigint NOT NULL,
        deals_won bigint NOT NULL,
        points bigint NOT NULL,
        lowest_deal integer,
        highest_deal integer,
        events jsonb,
        longest_run bigint NOT NULL,
        PRIMARY KEY (league, all_seasons, season, all_rulesets, ruleset, player, lowest_wins))""",
    "CREATE INDEX IF NOT EXISTS rummy_results_player ON rummy_results (league, player)",
    # Version 7: where each scope's runs of wins stand, so that a game finished after the
    # player's last one is added to their rows (scorer.league.pg_totals).
    "ALTER TABLE rummy_totals ADD COLUMN IF NOT EXISTS current_run bigint NOT NULL DEFAULT 0",
    """ALTER TABLE rummy_totals ADD COLUMN IF NOT EXISTS last_played text COLLATE "C" NOT NULL
        DEFAULT ''""",
    """ALTER TABLE rummy_totals ADD COLUMN IF NOT EXISTS last_game text COLLATE "C" NOT NULL
        DEFAULT ''""",
)

#: ``rummy_results``' columns, in :class:`~scorer.league.pg_totals.Result`'s order.
_RESULT_COLUMNS: Final = (
    "game, player, league, season, ruleset, lowest_wins, played, won, deals, deals_won, points,"
    " best_deal, events"
)

_READ_TABLES: Final = (
    "rummy_totals",
    "rummy_results",
    "rummy_game_players",
    "rummy_games",
    "rummy_players",
    "rummy_leagues",
    "rummy_seasons",
    "rummy_nights",
)


def _driver() -> tuple[Any, Any]:
    """psycopg and its pool, or a clear word on how to install them."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        raise StoreError(Message("store.pg_no_driver")) from None
    return psycopg, psycopg_pool


def _readable(fd: int) -> bool:
    """Whether the socket ``fd`` has something to read now (or has been closed), without waiting."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # Windows: no poll


def still_connected(conn: psycopg.Connection[Any]) -> None:
    """The pool's check of each connection it hands out: raises when it is no longer usable
    (the pool then throws it away and hands out another, or makes one).

    A connection at rest in the pool has nothing to read: the server says something on it
    unasked only when it ends it (its backend terminated, the server stopped or restarted: an
    error, then the socket closes). So the server is asked (a round trip, psycopg_pool's own
    check) only when the socket has something to read; a healthy connection costs no round
    trip, where asking every time took one before each read (bench/README.md, "32 phones on a
    club server"). A connection that breaks after this check is said as the database out of
    reach (:meth:`PgLedger._failed`), as it was when the check asked every time.
    """
    psycopg, psycopg_pool = _driver()
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    if _readable(conn.fileno()):
        psycopg_pool.ConnectionPool.check_connection(conn)


def _reason(exc: BaseException) -> str:
    """The first line of the driver's or server's words (never the password: libpq omits it)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class _TrackedState(State):
    """The state, noting each row a fold puts (the read tables write those rows)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # State's own (a checkpoint's too)
        super().__init__(*args, **kwargs)
        self.touched: set[tuple[str, str]] = set()

    def put(self, table: str, row: Mapping[str, Any]) -> None:
        super().put(table, row)
        self.touched.add((table, str(row["id"])))


class PgLedger(Ledger):
    """A ledger in a PostgreSQL database (``postgresql://USER@HOST/NAME``)."""

    writes_summaries = True

    def __init__(self, address: str, *, pool_size: int = POOL_SIZE) -> None:
        super().__init__()
        self.address = address.strip()
        #: The address as shown to a person: its password masked.
        self.shown = masked(self.address)
        self.state: _TrackedState = _TrackedState()
        self._conn: psycopg.Connection[Any] | None = None  # the write under way's
        self._pool: ConnectionPool[Any] | None = None
        #: The facts folded or appended since the newest checkpoint this process knows of,
        #: and that checkpoint's position.
        self._since_checkpoint = 0
        self._checkpoint_at = 0
        #: When this process's last save ended (monotonic seconds) and how long it took.
        self._saved_at = 0.0
        self._save_took = 0.0
        #: The save of a checkpoint held back by the pause, waiting for the writes to stop.
        self._quiet: threading.Timer | None = None
        #: The subjects ``rummy_held`` had rows of, read when this process was at the position
        #: given (:meth:`may_hold`); ``None``: not read since the last save here.
        self._held_at: tuple[int, frozenset[str]] | None = None
        #: The schema's version as this process found it (0: a new database).
        self._schema_found = 0
        psycopg, psycopg_pool = _driver()
        try:
            psycopg.conninfo.conninfo_to_dict(self.address)
        except psycopg.ProgrammingError as exc:
            raise StoreInputError(
                Message("store.pg_bad_address", address=f"'{self.shown}'", why=_reason(exc))
            ) from None
        with self._mutex:
            self._create_schema(psycopg)
            self._pool = psycopg_pool.ConnectionPool(
                self.address,
                min_size=1,
                max_size=pool_size,
                kwargs={"connect_timeout": CONNECT_TIMEOUT},
                check=still_connected,
                name="rummy",
                open=False,
            )
            try:
                self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
            except psycopg_pool.PoolTimeout as exc:
                self._pool.close()
                raise self._unreachable(exc) from None
            self.last_sum = header_line(self.store_id)[1]
            self._open()
            self._seed_summaries()
        if 0 < self._schema_found < RESULTS_SINCE and self.position:
            self.rebuild_reads()  # an earlier version's database: its results table is empty
        self.tokens = PgTokens(self)

    # -- connecting ------------------------------------------------------------------------

    def _unreachable(self, exc: BaseException) -> StoreError:
        return StoreError(Message("store.pg_unreachable", address=f"'{self.shown}'", why=_reason(exc)))

    def _failed(self, exc: psycopg.Error) -> StoreError:
        """The driver's error as the store's: the database out of reach, or what it refused."""
        psycopg, _ = _driver()
        if isinstance(exc, psycopg.OperationalError):
            return self._unreachable(exc)
        return StoreError(Message("store.pg_failed", address=f"'{self.shown}'", why=_reason(exc)))

    def _newer(self, version: int, *, most: int) -> NewerStoreError:
        """The refusal of a database a newer version of the program wrote (its schema or facts)."""
        return NewerStoreError(
            Message("store.newer_version", path=f"'{self.shown}'", version=str(version), most=most)
        )

    def _create_schema(self, psycopg: Any) -> None:
        """Make the tables on first open (under a lock of their own: two first opens at once
        make them once); check the schema's version; read the store's id."""
        try:
            with psycopg.connect(self.address, connect_timeout=CONNECT_TIMEOUT) as conn:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_KEY,))
                for statement in SCHEMA[:1]:
                    conn.execute(statement)
                found = dict(conn.execute("SELECT key, value FROM rummy_meta").fetchall())
                version = int(found.get("schema", "0"))
                if version > SCHEMA_VERSION:
                    raise self._newer(version, most=SCHEMA_VERSION)
                self._schema_found = version
                if version < SCHEMA_VERSION:
                    for statement in SCHEMA[1:]:
                        conn.execute(statement)
                    if 0 < version < ADDED_TOTALS_SINCE:  # the totals of the results already there
                        conn.execute("DELETE FROM rummy_totals")
                        conn.execute(KEEP_TOTALS.format(where="true"))
                    conn.execute(
                        "INSERT INTO rummy_meta (key, value) VALUES ('schema', %s)"
                        " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                        (str(SCHEMA_VERSION),),
                    )
                store_id = found.get("store") or uuid.uuid4().hex
                conn.execute(
                    "INSERT INTO rummy_meta (key, value) VALUES ('store', %s), ('facts', %s)"
                    " ON CONFLICT (key) DO NOTHING",
                    (store_id, str(FACT_VERSION)),
                )
                self.store_id = store_id
                facts_version = int(found.get("facts", str(FACT_VERSION)))
                if facts_version > FACT_VERSION:
                    raise self._newer(facts_version, most=FACT_VERSION)
        except psycopg.Error as exc:
            raise self._failed(exc) from None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, in a transaction committed at the end (rolled back if
        it raises); the driver's errors said as the store's."""
        if self._pool is None:
            raise StoreError(Message("store.internal", text="the database is closed"))
        psycopg, psycopg_pool = _driver()
        try:
            with self._pool.connection(timeout=CONNECT_TIMEOUT) as conn:
                yield conn
        except psycopg_pool.PoolTimeout as exc:
            raise self._unreachable(exc) from None
        except psycopg.errors.LockNotAvailable:
            raise StoreBusyError(
                Message("store.busy_for", location=f"'{self.shown}'", seconds=f"{LOCK_TIMEOUT:.0f}")
            ) from None
        except psycopg.Error as exc:
            raise self._failed(exc) from None

    def listen(self, *, stop: threading.Event, wait: float = 1.0) -> Iterator[Changed]:
        """Each commit made on the database from now on (by any process, this one too), as it
        is made, until ``stop`` is set (looked at every ``wait`` seconds). One connection of its
        own, outside the pool; the database out of reach is a :class:`StoreError` (the caller
        waits and listens again)."""
        psycopg, _ = _driver()
        try:
            with psycopg.connect(self.address, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                while not stop.is_set():
                    for notice in conn.notifies(timeout=wait):
                        yield Changed.parse(notice.payload)
                        if stop.is_set():
                            break
        except psycopg.Error as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        """Save a checkpoint held back by the pause after a slow save (the next open then
        folds little), then give the pool's connections back to the server."""
        if self._quiet is not None:
            self._quiet.cancel()
        with self._mutex:
            if self._pool is not None and self._held_back():
                with self._connection() as conn, self._forgiven(conn):
                    self._save_checkpoint(conn)
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    # -- the ledger ------------------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with self._connection() as conn:
            conn.execute(f"SET LOCAL lock_timeout = '{int(LOCK_TIMEOUT * 1000)}ms'")
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_KEY,))
            self._conn = conn
            try:
                yield
            finally:
                self._conn = None

    def _open(self) -> None:
        """Load the state: the newest checkpoint that fits its commit, if any, then the commits
        after it (every commit, when none fits)."""
        with self._connection() as conn:
            self._load_checkpoint(conn)
            commits = self._commits_after(conn, self.position)
        self._since_checkpoint = 0
        self._fold(commits)  # a sizeable log folded whole: the next commit saves a checkpoint
        self.state.touched.clear()

    def _fold(self, commits: Sequence[Commit]) -> None:
        super()._fold(commits)
        self._since_checkpoint += sum(len(commit.facts) for commit in commits)

    def _catch_up(self, *, locked: bool) -> None:
        if locked and self._conn is not None:
            self._fold(self._commits_after(self._conn, self.position))
        else:
            with self._connection() as conn:
                self._fold(self._commits_after(conn, self.position))
        self.state.touched.clear()  # rows another process's commits changed are in its reads

    def _commits_after(
        self, conn: psycopg.Connection[Any], position: int, *, upto: int | None = None
    ) -> list[Commit]:
        rows = conn.execute(
            "SELECT c.n, c.sum, c.sender, f.body FROM rummy_commits c LEFT JOIN rummy_facts f ON f.n = c.n"
            " WHERE c.n > %s AND c.n <= %s ORDER BY c.n, f.seq",
            (position, upto if upto is not None else 2**62),
        ).fetchall()
        commits: list[Commit] = []
        facts: list[Fact] = []
        n, total, sender = 0, "", None
        for number, commit_sum, sent_by, body in rows:
            if number != n:
                if n:
                    commits.append(Commit(n=n, sum=total, facts=tuple(facts), sender=sender))
                n, total, sender, facts = number, commit_sum, sent_by, []
            if body is not None:
                facts.append(fact_from_json(body, version=FACT_VERSION))
        if n:
            commits.append(Commit(n=n, sum=total, facts=tuple(facts), sender=sender))
        return commits

    def _append(self, facts: Sequence[Fact]) -> Commit:
        conn = self._conn
        if conn is None:
            raise StoreError(Message("store.internal", text="a commit outside a write"))
        from psycopg.types.json import Jsonb

        n = self.position + 1
        _, total = commit_line(n, self.last_sum, facts, sender=self._sender)
        conn.execute(
            "INSERT INTO rummy_commits (n, sum, sender) VALUES (%s, %s, %s)", (n, total, self._sender)
        )
        with (
            conn.cursor() as cursor,
            cursor.copy("COPY rummy_facts (id, n, seq, kind, body) FROM STDIN") as copy,
        ):
            for seq, f in enumerate(facts):  # COPY: a page of facts in one statement (a fact's id
                copy.write_row((f.id, n, seq, f.kind, Jsonb(f.to_json())))  # taken twice: refused)
        self._write_reads(conn, sorted(self.state.touched), n=n)
        games = sorted(key for table, key in self.state.touched if table == "games")
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, Changed.of(n, games).payload()))
        conn.commit()  # the commit point (the notice is sent with it, never without)
        self.state.touched.clear()
        self._since_checkpoint += len(facts)
        return Commit(n=n, sum=total, facts=tuple(facts), sender=self._sender)

    def sync_mark(self, key: str) -> dict[str, int] | None:
        with self._mutex, self._connection() as conn:
            row = conn.execute("SELECT value FROM rummy_meta WHERE key = %s", (f"sync {key}",)).fetchone()
        try:
            found = json.loads(row[0]) if row is not None else None
        except ValueError:
            return None
        return {str(k): int(v) for k, v in found.items()} if isinstance(found, dict) else None

    def save_sync_mark(self, key: str, mark: dict[str, int]) -> None:
        with self._mutex, self._connection() as conn:
            conn.execute(
                "INSERT INTO rummy_meta (key, value) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (f"sync {key}", json.dumps(mark)),
            )

    def commits_since(self, position: int) -> list[Commit]:
        with self._mutex, self._connection() as conn:
            return self._commits_after(conn, position, upto=self.position)

    # -- the checkpoint --------------------------------------------------------------------

    def _load_checkpoint(self, conn: psycopg.Connection[Any]) -> None:
        """The state from the newest checkpoint this code reads whose commit is in
        ``rummy_commits`` with the sum it names (one that cannot be read: the one before it);
        else the state is left empty."""
        fitting = conn.execute(
            "SELECT k.position, k.sum FROM rummy_checkpoints k"
            " JOIN rummy_commits c ON c.n = k.position AND c.sum = k.sum"
            " WHERE k.code = %s ORDER BY k.position DESC",
            (CHECKPOINT_CODE,),
        ).fetchall()
        for position, total in fitting:
            row = conn.execute(  # binary: bytea as it is, not as hex text
                "SELECT body FROM rummy_checkpoints WHERE position = %s", (position,), binary=True
            )
            found = row.fetchone()  # None: deleted since (a newer one saved): the one before it
            saved = None
            if found is not None:
                saved = checkpoint.decode(bytes(found[0]), store=self.store_id, kind=_TrackedState)
            if (
                saved is not None
                and isinstance(saved.state, _TrackedState)
                and (saved.position, saved.sum) == (position, total)
            ):
                self.state, self.position, self.last_sum = saved.state, position, total
                self._checkpoint_at = position
                return
            log.warning("the league's checkpoint at commit %s cannot be read: not used", position)

    def _written(self, commit: Commit) -> None:
        """Save a checkpoint if one is due. Called after the commit's transaction has ended:
        the write lock is let go (encoding the state holds no other process's write back),
        and a save that fails undoes nothing (it is logged, never raised: the commit stands)."""
        conn = self._conn
        if conn is None:
            return
        due = False
        with self._forgiven(conn):
            due = self._checkpoint_due() and self._none_saved_since(conn)
            if due or self._summaries_now_at_hand():
                self._save_checkpoint(conn)
            conn.commit()
        if not due and self._held_back():
            self._save_when_quiet()

    def _held_back(self) -> bool:
        """Whether the facts since the last checkpoint make one due and only the pause after
        a slow save holds it back (:func:`checkpoint_due`)."""
        return self._since_checkpoint > 0 and checkpoint_due(self._since_checkpoint, len(self.state.seen))

    def _save_when_quiet(self) -> None:
        """Save the held-back checkpoint once :data:`CHECKPOINT_QUIET` seconds go by with no
        commit of this process (each commit starts the wait again), on a thread of its own."""
        if self._quiet is not None:
            self._quiet.cancel()
        at = self.position

        def save() -> None:
            with self._mutex:
                if self.position != at or self._pool is None or not self._held_back():
                    return  # a later commit waits again; closed; saved since
                try:
                    with self._connection() as conn, self._forgiven(conn):
                        self._save_checkpoint(conn)
                except ScorerError:  # the database out of reach: the next commit tries again
                    log.warning("the league's checkpoint at commit %s was not saved", at, exc_info=True)

        self._quiet = threading.Timer(CHECKPOINT_QUIET, save)
        self._quiet.daemon = True
        self._quiet.start()

    def save_checkpoint(self) -> None:
        """Save the state at the last commit folded (as :func:`checkpoint_due` says, after a
        commit: a faster start, never a truth of its own; a failure is logged, never raised)."""
        with self._mutex:
            if self.position == 0:
                return
            with self._connection() as conn, self._forgiven(conn):
                self._save_checkpoint(conn)

    def _none_saved_since(self, conn: psycopg.Connection[Any]) -> bool:
        """Whether no process has saved a checkpoint since the newest this one knows of (else
        this one counts the facts from that one on: the processes on a database do not each
        save their own)."""
        found = conn.execute(
            "SELECT max(position) FROM rummy_checkpoints WHERE code = %s", (CHECKPOINT_CODE,)
        ).fetchone()
        newest = found[0] if found is not None and found[0] is not None else 0
        if newest <= self._checkpoint_at:
            return True
        counted = conn.execute(
            "SELECT count(*) FROM rummy_facts WHERE n > %s AND n <= %s", (newest, self.position)
        ).fetchone()
        self._checkpoint_at, self._since_checkpoint = newest, counted[0] if counted else 0
        return self._checkpoint_due()

    def _checkpoint_due(self) -> bool:
        idle = time.monotonic() - self._saved_at
        return checkpoint_due(self._since_checkpoint, len(self.state.seen), idle=idle, took=self._save_took)

    def _save_checkpoint(self, conn: psycopg.Connection[Any]) -> None:
        """The state at this position into ``rummy_checkpoints`` (a position already saved, by
        another process say, is kept as it is), the older ones beyond the newest
        :data:`KEEP_CHECKPOINTS` deleted; committed."""
        began = time.monotonic()
        body = checkpoint.encode(
            store=self.store_id,
            position=self.position,
            sum=self.last_sum,
            start=self.position,  # where a line starts and ends in a folder's log: no line here
            offset=self.position,
            state=self.state,
        )
        conn.execute(
            "INSERT INTO rummy_checkpoints (position, sum, code, body) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (position) DO NOTHING",
            (self.position, self.last_sum, CHECKPOINT_CODE, body),
        )
        conn.execute(
            "DELETE FROM rummy_checkpoints WHERE position < ALL"
            " (SELECT position FROM rummy_checkpoints ORDER BY position DESC LIMIT %s)",
            (KEEP_CHECKPOINTS,),
        )
        conn.commit()
        self._since_checkpoint, self._checkpoint_at = 0, self.position
        self._summaries_due = False
        self._saved_at = time.monotonic()
        self._save_took = self._saved_at - began

    @contextmanager
    def _forgiven(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        """A checkpoint's work after a commit: whatever fails in it is logged and rolled back,
        never raised (the commit before it stands; a checkpoint is only a faster start)."""
        try:
            yield
        except Exception:  # the database's refusal, or the state's encoding
            log.warning("the league's checkpoint at commit %s was not saved", self.position, exc_info=True)
            with suppress(Exception):  # a connection lost: the pool replaces it
                conn.rollback()

    def facts_since(self, position: int) -> list[Fact]:
        with self._mutex, self._connection() as conn:
            rows = conn.execute(
                "SELECT body FROM rummy_facts WHERE n > %s AND n <= %s ORDER BY n, seq",
                (position, self.position),
            ).fetchall()
        return [fact_from_json(body, version=FACT_VERSION) for (body,) in rows]

    def subject_facts(self, subject: str) -> list[Fact]:
        """Those of one game or night only, found by the database (its facts name it as
        ``game`` or ``night``; a converted record as its ``record``'s id), not every fact read."""
        with self._mutex, self._connection() as conn:
            rows = conn.execute(
                "SELECT body FROM rummy_facts WHERE n <= %s AND (body->>'game' = %s OR body->>'night' = %s"
                " OR (kind = 'record.kept' AND body->'record'->>'id' = %s)) ORDER BY n, seq",
                (self.position, subject, subject, subject),
            ).fetchall()
        found = [fact_from_json(body, version=FACT_VERSION) for (body,) in rows]
        return [f for f in found if f.subject == subject]

    # -- the read tables -------------------------------------------------------------------

    def _seed_summaries(self) -> None:
        """Each game's summary from its read row, where the row is of the game's revision as
        folded and of this version of the code: the standings after an open replay no game
        that the database has already scored. A game whose summary is still not at hand
        (after an update of the code) makes a checkpoint due once every summary is
        (:meth:`~scorer.league.ledger.Ledger._summaries_now_at_hand`): the next opens have them."""
        wanted = self.state.summaries_wanted()  # after a checkpoint: the games changed since
        rows = []
        if wanted:
            with self._connection() as conn:
                rows = conn.execute(
                    "SELECT id, rev, summary FROM rummy_games"
                    " WHERE code = %s AND summary IS NOT NULL AND id = ANY(%s)",
                    (CODE_VERSION, list(wanted)),
                ).fetchall()
        for game_id, rev, summary in rows:
            if wanted.get(game_id) == rev:
                self.state.summaries[game_id] = {"rev": rev, "code": CODE_VERSION, "summary": summary}
        self._summaries_due = not self.state.every_summary_at_hand()

    def _write_reads(
        self, conn: psycopg.Connection[Any], touched: Sequence[tuple[str, str]], *, n: int
    ) -> None:
        """The read tables' rows of every record in ``touched`` (table, id), as the state has them."""
        from psycopg.types.json import Jsonb

        games: list[GameRow] = []  # written together: a statement each for all of them
        with conn.cursor() as cursor:
            for table, key in touched:
                row = self.state.get(table, key)
                if row is None:
                    continue
                if table == "players":
                    cursor.execute(
                        "INSERT INTO rummy_players (id, name, merged_into, n) VALUES (%s, %s, %s, %s)"
                        " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name,"
                        " merged_into = EXCLUDED.merged_into, n = EXCLUDED.n",
                        (key, row["name"], row.get("merged_into"), n),
                    )
                elif table == "leagues":
                    cursor.execute(
                        "INSERT INTO rummy_leagues (id, name, n) VALUES (%s, %s, %s)"
                        " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, n = EXCLUDED.n",
                        (key, row["name"], n),
                    )
                elif table == "seasons":
                    cursor.execute(
                        "INSERT INTO rummy_seasons (id, league, name, number, closed, n)"
                        " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET"
                        " league = EXCLUDED.league, name = EXCLUDED.name, number = EXCLUDED.number,"
                        " closed = EXCLUDED.closed, n = EXCLUDED.n",
                        (key, row["league"], row["name"], row["number"], row.get("closed"), n),
                    )
                elif table == "nights":
                    cursor.execute(
                        "INSERT INTO rummy_nights (id, league, season, rounds, doc, n)"
                        " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET"
                        " league = EXCLUDED.league, season = EXCLUDED.season, rounds = EXCLUDED.rounds,"
                        " doc = EXCLUDED.doc, n = EXCLUDED.n",
                        (key, row["league"], row["season"], len(row.get("rounds") or []), Jsonb(row), n),
                    )
                elif table == "games":
                    games.append(GameRow(row, self.state))
            old, new = self._write_games(cursor, games, n=n)
            self._keep_totals(cursor, old=old, new=new)

    @staticmethod
    def _keep_totals(cursor: psycopg.Cursor[Any], *, old: Sequence[Result], new: Sequence[Result]) -> None:
        """``rummy_totals``' rows of each (league, player) whose results the commit changed,
        from their results before (``old``, deleted) and after (``new``, inserted): a player
        whose new results are all new games after their last result is added to
        (:func:`~scorer.league.pg_totals.added`, their rows read and written again, no other
        result read); one with a result changed, removed or placed earlier is counted again
        from all their results (in the commit's transaction: they never differ from the results)."""
        before = {(r.league, r.player, r.game): r for r in old}
        after = {(r.league, r.player, r.game): r for r in new}
        recount: set[tuple[str, str]] = set()
        adding: dict[tuple[str, str], list[Result]] = {}
        for key, result in before.items():
            if after.get(key) != result:  # changed or removed
                recount.add(key[:2])
        for key, result in after.items():
            if key not in before:
                adding.setdefault(key[:2], []).append(result)
        for pair in recount:
            adding.pop(pair, None)
        if adding:
            by_league: dict[str, list[str]] = {}
            for league, player in sorted(adding):
                by_league.setdefault(league, []).append(player)
            kept: dict[tuple[str, str], list[Sequence[Any]]] = {}
            for league, some in by_league.items():
                cursor.execute(
                    "DELETE FROM rummy_totals WHERE league = %s AND player = ANY(%s)"
                    f" RETURNING {TOTALS_COLUMNS}",
                    (league, some),
                )
                for row in cursor.fetchall():
                    kept.setdefault((str(row[0]), str(row[1])), []).append(row)
            written: list[tuple[Any, ...]] = []
            for pair, results in sorted(adding.items()):
                rows = added(kept.get(pair, []), results)
                if rows is None:  # a game placed earlier than one counted: counted again
                    recount.add(pair)
                else:
                    written.extend(rows)
            if written:
                from psycopg.types.json import Jsonb

                with cursor.copy(f"COPY rummy_totals ({TOTALS_COLUMNS}) FROM STDIN") as copy:
                    for row in written:
                        copy.write_row((*row[:14], None if row[14] is None else Jsonb(row[14]), *row[15:]))
        if recount:
            PgLedger._count_totals(cursor, recount)

    @staticmethod
    def _count_totals(cursor: psycopg.Cursor[Any], changed: set[tuple[str, str]]) -> None:
        """``rummy_totals``' rows of each (league, player) in ``changed`` worked out again from
        all their results."""
        if changed:  # the planner overestimates the events' rows a thousandfold and would
            # compile the statement (JIT) for a second, longer than it runs: not in this commit
            cursor.execute("SET LOCAL jit = off")
            cursor.execute("SET LOCAL work_mem = '64MB'")  # its sorts in memory, not on disk
        players: dict[str, list[str]] = {}
        for league, player in sorted(changed):
            players.setdefault(league, []).append(player)
        for league, some in players.items():  # one league, but for a game moved between two
            params = {"league": league, "players": some}
            cursor.execute(
                "DELETE FROM rummy_totals WHERE league = %(league)s AND player = ANY(%(players)s)", params
            )
            cursor.execute(
                KEEP_TOTALS.format(where="r.league = %(league)s AND r.player = ANY(%(players)s)"), params
            )

    def _write_games(
        self, cursor: psycopg.Cursor[Any], games: Sequence[GameRow], *, n: int
    ) -> tuple[list[Result], list[Result]]:
        """The games' rows in the read tables, all of them in five statements (a page of a sync
        touches a hundred games or more: a round trip each per game was most of its write);
        returns their results before (deleted) and now (inserted): their players' totals are
        to be kept again."""
        from psycopg.types.json import Jsonb

        if not games:
            return [], []
        scored: list[tuple[GameRow, GameSummary | None]] = []
        for entry in games:
            try:
                scored.append((entry, self.state.summary(entry)))
            except ScorerError:  # a game that does not score as stored: its row says so by no result
                scored.append((entry, None))
        cursor.executemany(
            "INSERT INTO rummy_games (id, league, season, ruleset, status, played, rev, players, deals,"
            " finished, winner, lowest_wins, night, summary, code, n)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET league = EXCLUDED.league, season = EXCLUDED.season,"
            " ruleset = EXCLUDED.ruleset, status = EXCLUDED.status, played = EXCLUDED.played,"
            " rev = EXCLUDED.rev, players = EXCLUDED.players, deals = EXCLUDED.deals,"
            " finished = EXCLUDED.finished, winner = EXCLUDED.winner, lowest_wins = EXCLUDED.lowest_wins,"
            " night = EXCLUDED.night, summary = EXCLUDED.summary, code = EXCLUDED.code, n = EXCLUDED.n",
            [
                (
                    entry.id,
                    entry.league,
                    entry.season,
                    entry.ruleset,
                    entry.row.get("status", "active"),
                    entry.played,
                    entry.rev,
                    Jsonb(list(entry.players)),
                    summary.deals if summary else None,
                    summary.finished if summary else None,
                    summary.winner if summary else None,
                    summary.lowest_wins if summary else None,
                    entry.row.get("night"),
                    Jsonb(summary.to_dict()) if summary else None,
                    CODE_VERSION if summary else None,
                    n,
                )
                for entry, summary in scored
            ],
        )
        ids = [entry.id for entry in games]
        cursor.execute(f"DELETE FROM rummy_results WHERE game = ANY(%s) RETURNING {_RESULT_COLUMNS}", (ids,))
        old = [Result(*row) for row in cursor.fetchall()]
        cursor.execute("DELETE FROM rummy_game_players WHERE game = ANY(%s)", (ids,))
        new = [
            Result(
                game=entry.id,
                player=player,
                league=entry.league,
                season=entry.season,
                ruleset=summary.ruleset,
                lowest_wins=summary.lowest_wins,
                played=entry.played,
                won=None if player in summary.left else summary.winner == player,
                deals=summary.played(player),
                deals_won=summary.deals_won.get(player, 0),
                points=summary.totals[player],
                best_deal=summary.best_deal.get(player),
                events=summary.events.get(player) or None,
            )
            for entry, summary in scored
            if summary is not None
            and summary.finished
            and entry.league
            and entry.row.get("status", "active") == "active"
            for player in summary.players
        ]
        if new:  # COPY: a page's results in one statement, no round trip a row
            with cursor.copy(f"COPY rummy_results ({_RESULT_COLUMNS}) FROM STDIN") as copy:
                for r in new:
                    copy.write_row((*r.fields()[:-1], None if r.events is None else Jsonb(r.events)))
        seats = [
            (entry.id, player, seat, summary.totals.get(player, 0), summary.ranking.get(player, 0))
            for entry, summary in scored
            if summary is not None
            for seat, player in enumerate(summary.players)
        ]
        if seats:
            with cursor.copy("COPY rummy_game_players (game, player, seat, total, place) FROM STDIN") as copy:
                for seat_row in seats:
                    copy.write_row(seat_row)
        return old, new

    def rebuild_reads(self) -> int:
        """Write every read table again from the facts (after pg_restore of a pg_dump of the
        facts alone, say); returns the number of games written. Under the write lock."""
        with self.write():
            conn = self._conn
            if conn is None:
                raise StoreError(Message("store.internal", text="a rebuild outside a write"))
            for table in _READ_TABLES:
                conn.execute(f"DELETE FROM {table}")  # the names are the code's own
            touched = [(t, str(r["id"])) for t in TABLES for r in self.state.rows(t)]
            self._write_reads(conn, touched, n=self.position)
            return sum(1 for t, _ in touched if t == "games")

    def standings_inputs(self, league_id: str, *, season_id: str | None = None) -> list[dict[str, Any]]:
        """Each player's finished active games of a league (one season), wins and points,
        from the read tables alone (one query): what a standings table is built from."""
        with self._mutex, self._connection() as conn:
            rows = conn.execute(
                "SELECT p.player, count(*) AS games, count(*) FILTER (WHERE p.place = 1) AS wins,"
                " sum(p.total) AS points FROM rummy_game_players p JOIN rummy_games g ON g.id = p.game"
                " WHERE g.league = %s AND (%s::text IS NULL OR g.season = %s) AND g.status = 'active'"
                " AND g.finished GROUP BY p.player ORDER BY p.player",
                (league_id, season_id, season_id),
            ).fetchall()
        return [{"player": p, "games": g, "wins": w, "points": int(pts)} for p, g, w, pts in rows]

    def result_totals(
        self, league_id: str, *, season_id: str | None, ruleset: str | None, position: int
    ) -> tuple[list[ResultTotals], dict[str, int]] | None:
        """Each player's totals per ruleset over the league's finished active games (of one
        season, of one ruleset), and each player's longest run of wins in the order played,
        from ``rummy_totals`` (a row a player and ruleset, kept by the commits) in one snapshot
        of the database (:func:`standings_of_totals` ranks them). ``None`` when the database is
        not at ``position`` (another process has committed since this one read) or a game of
        the league has no result of this version of the code (not scored by it, or not scoring
        at all): the caller folds its state."""
        scope = " WHERE league = %(league)s AND all_seasons = %(all_seasons)s AND season = %(season)s"
        params = {
            "league": league_id,
            "all_seasons": season_id is None,
            "season": season_id or "",
            "all_rulesets": ruleset is None,
            "ruleset": ruleset or "",
        }
        with self._mutex, self._connection() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            found = conn.execute("SELECT coalesce(max(n), 0) FROM rummy_commits").fetchone()
            if found is None or found[0] != position:
                return None
            # three ranges of the index, each its own: as one condition ORed, the planner (its
            # statistics not yet taken after a sync of thousands of games) read every game's
            # entry of the league and its row (30 ms at 100,000 games) to find none
            unscored = conn.execute(
                "SELECT EXISTS (SELECT FROM rummy_games WHERE league = %(league)s AND status = 'active'"
                " AND code IS NULL) OR EXISTS (SELECT FROM rummy_games WHERE league = %(league)s"
                " AND status = 'active' AND code < %(code)s) OR EXISTS (SELECT FROM rummy_games"
                " WHERE league = %(league)s AND status = 'active' AND code > %(code)s)",
                {**params, "code": CODE_VERSION},
            ).fetchone()
            if unscored is None or unscored[0]:
                return None
            rows = conn.execute(
                "SELECT player, ruleset, lowest_wins, games, wins, deals, deals_won, points,"
                f" lowest_deal, highest_deal, events FROM rummy_totals{scope} AND NOT all_rulesets"
                " AND (%(all_rulesets)s OR ruleset = %(ruleset)s)",
                params,
            ).fetchall()
            # the run of the scope asked for (of one ruleset: the same in each direction's row)
            streaks = conn.execute(
                f"SELECT player, max(longest_run) FROM rummy_totals{scope}"
                " AND all_rulesets = %(all_rulesets)s AND ruleset = %(ruleset)s AND longest_run > 0"
                " GROUP BY player",
                params,
            ).fetchall()
        totals = [
            ResultTotals(
                player=player,
                ruleset=rules,
                lowest_wins=lowest,
                games=int(games),
                wins=int(wins),
                deals=int(deals),
                deals_won=int(deals_won),
                points=int(points),
                lowest_deal=low,
                highest_deal=high,
                events={str(k): int(v) for k, v in (events or {}).items()},
            )
            for player, rules, lowest, games, wins, deals, deals_won, points, low, high, events in rows
        ]
        return totals, {player: int(run) for player, run in streaks}

    # -- the facts a sync held back -----------------------------------------------------------

    def held(self, subject: str) -> list[dict[str, Any]]:
        """From ``rummy_held`` (every process on the database sees the same)."""
        with self._connection() as conn:
            found = conn.execute("SELECT facts FROM rummy_held WHERE subject = %s", (subject,)).fetchone()
        facts = found[0] if found is not None else None
        return [f for f in facts if isinstance(f, dict)] if isinstance(facts, list) else []

    def may_hold(self, subject: str) -> bool:
        """Whether ``rummy_held`` has a row of ``subject``, by the subjects it had when this
        process was last at its position: one query (every subject's) when the position moved
        since, else none (a saving here reads again). Facts another process holds back are
        seen once this process reads a commit made after they were saved, as a screen that
        read them at each notice of a commit saw them."""
        with self._mutex:
            known = self._held_at
            if self._batch is not None or known is None or known[0] != self.position:
                position = self.position
                with self._connection() as conn:
                    rows = conn.execute("SELECT subject FROM rummy_held").fetchall()
                known = (position, frozenset(str(subject) for (subject,) in rows))
                if self._batch is None:
                    self._held_at = known
            return subject in known[1]

    def save_held(self, subject: str, facts: list[dict[str, Any]]) -> None:
        """Into ``rummy_held`` (written whole), or its row deleted for ``[]``."""
        from psycopg.types.json import Jsonb

        with self._mutex:
            self._held_at = None
        with self._connection() as conn:
            if not facts:
                conn.execute("DELETE FROM rummy_held WHERE subject = %s", (subject,))
            else:
                conn.execute(
                    "INSERT INTO rummy_held (subject, facts) VALUES (%s, %s) ON CONFLICT (subject)"
                    " DO UPDATE SET facts = EXCLUDED.facts, saved = now()",
                    (subject, Jsonb(list(facts))),
                )


class PgTokens(TokenBook):
    """Tokens in the table ``rummy_tokens``: each change one statement, each lookup one query
    by the primary key (a token revoked by any process is refused at the next request)."""

    _COLUMNS: Final = "name, role, created, revoked, key, hash"

    def __init__(self, ledger: PgLedger) -> None:
        self._ledger = ledger
        self._code_secret: bytes | None = None

    @staticmethod
    def _row(found: Sequence[Any]) -> TokenRow:
        name, role, created, revoked, key, hashed = found
        return TokenRow(info=TokenInfo(name, Role(role), created, revoked), key=key, hash=hashed)

    def rows(self) -> list[TokenRow]:
        with self._ledger._connection() as conn:
            found = conn.execute(f"SELECT {self._COLUMNS} FROM rummy_tokens ORDER BY seq").fetchall()
        return [self._row(row) for row in found]

    def find(self, hashed: str) -> TokenRow | None:
        with self._ledger._connection() as conn:
            found = conn.execute(
                f"SELECT {self._COLUMNS} FROM rummy_tokens WHERE hash = %s AND revoked IS NULL", (hashed,)
            ).fetchone()
        return self._row(found) if found is not None else None

    def add(self, row: TokenRow) -> None:
        info = row.info
        with self._ledger._connection() as conn:
            made = conn.execute(
                "INSERT INTO rummy_tokens (hash, name, key, role, created) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT DO NOTHING RETURNING hash",
                (row.hash, info.name, row.key, info.role.value, info.created),
            ).fetchone()
        if made is None:  # the one unique index a new secret's digest can meet: the name's
            raise name_taken(info.name)

    def revoke(self, name: str, *, at: str) -> TokenInfo:
        with self._ledger._connection() as conn:
            found = conn.execute(
                f"UPDATE rummy_tokens SET revoked = %s WHERE key = %s AND revoked IS NULL"
                f" RETURNING {self._COLUMNS}",
                (at, name_key(name)),
            ).fetchone()
        if found is None:
            raise no_such_token(name)
        return self._row(found).info

    def code_secret(self) -> bytes:
        """Kept in ``rummy_meta`` under ``night codes``: the first process to ask inserts one,
        every other reads that one (the insert does nothing where a row is already there)."""
        if self._code_secret is None:
            made = secrets.token_bytes(CODES_KEY_BYTES).hex()
            with self._ledger._connection() as conn:
                conn.execute(
                    "INSERT INTO rummy_meta (key, value) VALUES ('night codes', %s)"
                    " ON CONFLICT (key) DO NOTHING",
                    (made,),
                )
                row = conn.execute("SELECT value FROM rummy_meta WHERE key = 'night codes'").fetchone()
            if row is None:  # inserted or found just now: never, short of a table emptied meanwhile
                raise StoreError(Message("store.codes_key_damaged", path="rummy_meta", why="no row"))
            self._code_secret = bytes.fromhex(str(row[0]))
        return self._code_secret


__all__ = ["SCHEMA_VERSION", "PgLedger", "PgTokens"]
