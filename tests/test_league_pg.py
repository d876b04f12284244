"""The league store on PostgreSQL (scorer/league/pg.py), against a real server (tests/pg_kit.py).

- the same random sequences of operations through a folder store and a PostgreSQL store give
  the same answer to every public read (tests/store_reads.py), and a new process opening the
  database reads the same;
- the read tables hold what the fold holds (standings inputs as one query), and are written
  again alike from the facts;
- two processes writing to one database at once lose nothing;
- the facts only grow, the schema is versioned, and an address that cannot be reached or read
  is a clear error naming it, its password masked;
- ``rummy league`` works on ``--db postgresql://...`` and on ``RUMMY_DB``; the folder-only
  commands point to pg_dump.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from store_deals import gin_deal, rommi_deal
from store_reads import differences, public_reads

from scorer.errors import ScorerError
from scorer.league import facts as facts_module
from scorer.league import store as store_module
from scorer.league.errors import NewerStoreError, StoreError, StoreInputError
from scorer.league.pg import SCHEMA_VERSION
from scorer.league.pg_address import masked
from scorer.league.pg_totals import KEEP_TOTALS
from scorer.league.standings import standings, standings_of_totals
from scorer.league.store import Store

GIN_50 = {"target": 50}
ENDLESS_GIN = {"target": None}
PEOPLE = ["Anna", "Bea", "Cleo", "Dan", "Eve"]


@pytest.fixture()
def pg_store(pg_address: str) -> Iterator[Store]:
    store = Store.open(pg_address)
    try:
        yield store
    finally:
        store.close()


# -- the same operations, the same reads ---------------------------------------------------------


class _Alike:
    """Ids and times made the same for both stores: before each operation on each store the
    counters start again from the step's number, so the twin stores make the same ids."""

    def __init__(self) -> None:
        self.step = 0
        self.count = 0

    def begin(self, step: int) -> None:
        self.step, self.count = step, 0

    def _next(self) -> int:
        self.count += 1
        return self.step * 10_000 + self.count

    def new_id(self) -> str:
        return str(uuid.UUID(int=self._next()))

    def fact_id(self) -> str:
        return f"f{self._next():012d}"

    def now(self) -> str:
        hours, minutes, seconds = self.step // 3600 % 24, self.step // 60 % 60, self.step % 60
        return f"2026-03-01T{hours:02d}:{minutes:02d}:{seconds:02d}.000000+00:00"


class TwinStores(RuleBasedStateMachine):
    """Random work through :class:`Store` alone, done alike on a folder and on PostgreSQL."""

    address = ""  # the database of the run (set by the test)

    def __init__(self) -> None:
        super().__init__()
        self.alike = _Alike()
        self.patches = [
            mock.patch.object(store_module, "new_id", self.alike.new_id),
            mock.patch.object(facts_module, "fact_id", self.alike.fact_id),
            mock.patch.object(store_module, "now", self.alike.now),
        ]
        for patch in self.patches:
            patch.start()
        self.base = Path(tempfile.mkdtemp(prefix="rummy-twins-"))
        self.folder_store = Store.open(self.base / "league", clock=self.alike.now)
        self.pg_store = Store.open(_fresh(self.address), clock=self.alike.now)
        self.steps = 0
        self.nights = 0

    def teardown(self) -> None:
        try:
            expected = public_reads(self.folder_store)
            found = public_reads(self.pg_store)
            assert found == expected, differences(expected, found)
            reopened = Store.open(self.pg_store.address or "", clock=self.alike.now)
            try:  # a new process reads the database alike
                assert public_reads(reopened) == expected, differences(expected, public_reads(reopened))
                _check_read_tables(reopened)
            finally:
                reopened.close()
        finally:
            self.pg_store.close()
            for patch in self.patches:
                patch.stop()
            shutil.rmtree(self.base, ignore_errors=True)

    def _both(self, change: Any) -> None:
        """``change(store)`` on each store, from the same ids and time: both do it or both refuse alike."""
        self.steps += 1
        outcomes = []
        for store in (self.folder_store, self.pg_store):
            self.alike.begin(self.steps)
            try:
                change(store)
            except ScorerError as refused:
                outcomes.append((type(refused).__name__, str(refused)))
            else:
                outcomes.append(("done", ""))
        assert outcomes[0] == outcomes[1]
        assert self.folder_store.position == self.pg_store.position

    @invariant()
    def the_kept_totals_are_the_fold_s(self) -> None:
        _check_kept_totals(self.pg_store)

    def _game(self, pick: int) -> Any:
        games = self.folder_store.games(deleted=True)
        return self.folder_store.game(games[pick % len(games)].id) if games else None

    @initialize(deals=st.integers(1, 3), seed=st.integers(0, 1000))
    def a_league(self, deals: int, seed: int) -> None:
        self._both(lambda s: s.create_league("Club"))
        self._both(
            lambda s: s.start_game(ruleset="rommi", players=["Anna", "Bea", "Cleo"], league="Club", by="Ref")
        )
        rommi = self._game(0)
        for number in range(deals):
            deal = rommi_deal(("Anna", "Bea", "Cleo"), number + seed, [seed, number])
            self._both(lambda s, d=deal: s.add_deal(rommi.id, d))
        # and a gin game to 50 finished at once: the results and kept totals count from the start
        self._both(
            lambda s: s.start_game(ruleset="gin", players=["Dan", "Anna"], options=GIN_50, league="Club")
        )
        gin = next(g for g in self.folder_store.games() if g.ruleset == "gin")
        self._both(lambda s: s.add_deal(gin.id, gin_deal(("Dan", "Anna"), seed % 2, 0, 40), by="Ref"))

    @rule(ruleset=st.sampled_from(["gin", "gin-endless", "rommi"]), who=st.permutations(PEOPLE))
    def start_game(self, ruleset: str, who: list[str]) -> None:
        if ruleset == "rommi":
            args: dict[str, Any] = {"ruleset": "rommi", "players": who[:3]}
        else:
            args = {
                "ruleset": "gin",
                "players": who[:2],
                "options": GIN_50 if ruleset == "gin" else ENDLESS_GIN,
            }
        self._both(lambda s: s.start_game(**args, league="Club"))

    @rule(pick=st.integers(0, 50), a=st.integers(0, 7), b=st.integers(0, 40), c=st.integers(0, 40))
    def add_deal(self, pick: int, a: int, b: int, c: int) -> None:
        game = self._game(pick)
        if game is None:
            return
        players = tuple(game.document["players"])
        deal = (
            gin_deal(players, a, b % 11, c)
            if game.document["ruleset"] == "gin"
            else rommi_deal(players, a, [b, c])
        )
        self._both(lambda s: s.add_deal(game.id, deal, by="Ref"))

    @rule(pick=st.integers(0, 50), a=st.integers(0, 1))
    def gin_to_the_target(self, pick: int, a: int) -> None:
        """A gin knock of 40 points against nothing (65 with the gin bonus): a game to 50
        finishes, so the results and kept totals have finished games to count."""
        game = self._game(pick)
        if game is None or game.document["ruleset"] != "gin":
            return
        deal = gin_deal(tuple(game.document["players"]), a, 0, 40)
        self._both(lambda s: s.add_deal(game.id, deal, by="Ref"))

    @rule(pick=st.integers(0, 50), which=st.integers(0, 9), a=st.integers(0, 7))
    def correct_or_remove(self, pick: int, which: int, a: int) -> None:
        game = self._game(pick)
        deals = (game.document.get("deals") or []) if game is not None else []
        if not deals:
            return
        index = which % len(deals)
        players = tuple(game.document["players"])
        if which % 2:
            deal = (
                gin_deal(players, a, 3, 30)
                if game.document["ruleset"] == "gin"
                else rommi_deal(players, a, [a])
            )
            self._both(
                lambda s: s.replace_deal(game.id, index, deal, why="miscounted", expected=deals[index])
            )
        else:
            self._both(lambda s: s.remove_deal(game.id, index, why="entered twice"))

    @rule(pick=st.integers(0, 50), how=st.sampled_from(["abandon", "resume", "delete", "undelete", "move"]))
    def game_status(self, pick: int, how: str) -> None:
        game = self._game(pick)
        if game is None:
            return
        if how == "move":
            if not any(lg.name == "Other" for lg in self.folder_store.leagues()):
                self._both(lambda s: s.create_league("Other"))
            self._both(lambda s: s.move_game(game.id, league="Other"))
        else:
            self._both(lambda s: getattr(s, f"{how}_game")(game.id))

    @rule(seed=st.integers(0, 1000), who=st.permutations(PEOPLE), later=st.booleans())
    def club_night(self, seed: int, who: list[str], later: bool) -> None:
        if self.nights and later:
            self._both(lambda s: s.next_round("Club", seed=seed))
        elif self.nights < 2:
            self.nights += 1
            self._both(
                lambda s: s.start_night("Club", players=who[:4], ruleset="gin", options=GIN_50, seed=seed)
            )

    @rule(first=st.sampled_from([*PEOPLE, "Danny"]), second=st.sampled_from([*PEOPLE, "Danny"]))
    def merge_players(self, first: str, second: str) -> None:
        if second == "Danny":
            self._both(lambda s: s.add_player("Danny"))
        self._both(lambda s: s.merge_players(first, second))

    @rule(close=st.booleans(), name=st.sampled_from(["Spring", "Autumn"]))
    def season(self, close: bool, name: str) -> None:
        if close:
            self._both(lambda s: s.close_season("Club"))
        else:
            self._both(lambda s: s.new_season("Club", name))

    @rule(name=st.sampled_from(["Friday club", "club", "Club 2"]))
    def rename(self, name: str) -> None:
        self._both(
            lambda s: s.rename_league("Club", name) if name != "club" else s.rename_player("Anna", "Annie")
        )


def _fresh(cluster_address: str) -> str:
    """A new database on the cluster of ``cluster_address`` (one per example)."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(cluster_address, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
    return cluster_address.replace("/postgres?", f"/{name}?")


def _check_read_tables(store: Store) -> None:
    """The read tables say what the fold says: each league's standings inputs, and the games'
    statuses and results."""
    ledger: Any = store._ledger
    for league in store.leagues():
        played = [p for p in store.played_games(league.name) if p.summary.finished]
        expected: dict[str, dict[str, int]] = {}
        for game in played:
            for player in game.summary.players:
                row = expected.setdefault(player, {"games": 0, "wins": 0, "points": 0})
                row["games"] += 1
                row["wins"] += game.summary.ranking[player] == 1
                row["points"] += game.summary.totals[player]
        found = {
            r["player"]: {k: r[k] for k in ("games", "wins", "points")}
            for r in ledger.standings_inputs(league.id)
        }
        assert found == expected, league.name
        # the standings' own table (rummy_results) answers, with the fold's rows
        answer = ledger.result_totals(league.id, season_id=None, ruleset=None, position=store.position)
        assert answer is not None, league.name
        ratings = store.ratings(league.name)
        queried = standings_of_totals(answer[0], streaks=answer[1], ruleset=None, ratings=ratings)
        assert queried == standings(store.played_games(league.name), ratings=ratings), league.name
    import psycopg

    with psycopg.connect(ledger.address) as conn:
        rows = dict(conn.execute("SELECT id, status FROM rummy_games").fetchall())
    assert rows == {g.id: g.status for g in store.games(deleted=True)}


def _check_kept_totals(store: Store) -> None:
    """``rummy_totals`` as the commits kept it is what its results give worked out afresh, and
    it answers the standings of each league with the fold's rows: every season and one,
    every ruleset and one."""
    import psycopg

    ledger: Any = store._ledger
    with psycopg.connect(ledger.address) as conn:
        kept = sorted(conn.execute("SELECT * FROM rummy_totals").fetchall())
        conn.execute("DELETE FROM rummy_totals")
        conn.execute(KEEP_TOTALS.format(where="true"))
        afresh = sorted(conn.execute("SELECT * FROM rummy_totals").fetchall())
        conn.rollback()
    assert kept == afresh
    for league in store.leagues():
        games = store.played_games(league.name)
        seasons = [None, *(s.id for s in ledger.state.seasons_of(league.id))]
        for season in seasons:
            ratings = store.ratings(league.name, season=season)
            for ruleset in [None, *sorted({g.summary.ruleset for g in games})]:
                answer = ledger.result_totals(
                    league.id, season_id=season, ruleset=ruleset, position=store.position
                )
                assert answer is not None, (league.name, season, ruleset)
                found = standings_of_totals(answer[0], streaks=answer[1], ruleset=ruleset, ratings=ratings)
                expected = standings(games, season=season, ruleset=ruleset, ratings=ratings)
                assert found == expected, (league.name, season, ruleset)


def test_the_same_operations_give_the_same_reads_on_a_folder_and_on_postgresql(pg_cluster: Any) -> None:
    TwinStores.address = pg_cluster.address()
    run = TwinStores.TestCase
    run.settings = settings(
        max_examples=int(os.environ.get("RUMMY_PG_EXAMPLES", "12")),
        stateful_step_count=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    run().runTest()


# -- the read tables -------------------------------------------------------------------------------


def test_the_read_tables_are_written_in_the_commit_and_again_alike_from_the_facts(pg_store: Store) -> None:
    import psycopg

    pg_store.create_league("Club")
    game = pg_store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    pg_store.add_deal(game.id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}})
    other = pg_store.start_game(ruleset="gin", players=["Anna", "Cleo"], options=GIN_50, league="Club")
    pg_store.add_deal(other.id, {"knocker": "Cleo", "deadwood": {"Cleo": 0, "Anna": 30}})
    pg_store.delete_game(other.id, why="a practice game")
    ledger: Any = pg_store._ledger
    query = (
        "SELECT g.id, g.status, g.finished, g.winner, p.player, p.total, p.place FROM rummy_games g"
        " JOIN rummy_game_players p ON p.game = g.id ORDER BY g.id, p.seat"
    )
    with psycopg.connect(ledger.address) as conn:
        before = conn.execute(query).fetchall()
        names = dict(conn.execute("SELECT id, name FROM rummy_players").fetchall())
    anna, bea = pg_store.player("Anna").id, pg_store.player("Bea").id
    assert (game.id, "active", True, anna, anna, 227, 1) in before  # 51 + the game, box, shutout
    assert (game.id, "active", True, anna, bea, 0, 2) in before
    assert {row[1] for row in before if row[0] == other.id} == {"deleted"}
    assert sorted(names.values()) == ["Anna", "Bea", "Cleo"]
    assert ledger.standings_inputs(pg_store.league("Club").id) == [
        {"player": p, "games": 1, "wins": int(p == anna), "points": 227 if p == anna else 0}
        for p in sorted([anna, bea])
    ]
    assert ledger.rebuild_reads() == 2
    with psycopg.connect(ledger.address) as conn:
        assert conn.execute(query).fetchall() == before


def test_the_facts_only_grow(pg_store: Store) -> None:
    import psycopg

    pg_store.create_league("Club")
    ledger: Any = pg_store._ledger
    with psycopg.connect(ledger.address) as conn:
        for statement in (
            "DELETE FROM rummy_facts",
            "UPDATE rummy_commits SET sum = 'x'",
            "TRUNCATE rummy_facts",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
            conn.rollback()
        assert conn.execute("SELECT count(*) FROM rummy_facts").fetchone() == (1,)


def test_facts_since_and_the_change_token_see_another_process_commit(pg_address: str) -> None:
    first, second = Store.open(pg_address), Store.open(pg_address)
    try:
        first.create_league("Club")
        token = second.changes()
        first.add_player("Anna")
        assert second.changes() != token
        assert [f.kind for f in second.facts_since(0)] == ["league.created", "player.added"]
        assert [f.kind for f in second.facts_since(1)] == ["player.added"]
        assert second.position == first.position == 2
        assert second.player("Anna").id == first.player("Anna").id
        copy = Store.memory()
        assert copy.add_facts(second.facts_since(0)) == 2  # the unit that moves between stores
        assert second.add_facts(first.facts_since(0)) == 0  # a fact it has is one fact
    finally:
        first.close()
        second.close()


def test_a_refused_change_writes_nothing(pg_store: Store) -> None:
    pg_store.create_league("Club")
    before = pg_store.changes()
    with pytest.raises(StoreInputError, match="already exists"):
        pg_store.create_league(" club ")
    assert pg_store.changes() == before
    assert [f.kind for f in pg_store.facts_since(0)] == ["league.created"]


def _deal_many(address: str, game_id: str, count: int, knocker: str, other: str) -> None:
    store = Store.open(address)
    for _ in range(count):
        store.add_deal(game_id, {"knocker": knocker, "deadwood": {knocker: 2, other: 9}})
    store.close()


def test_two_processes_writing_to_one_database_at_once_lose_nothing(pg_address: str) -> None:
    store = Store.open(pg_address)
    store.create_league("Club")
    first = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=ENDLESS_GIN, league="Club")
    second = store.start_game(ruleset="gin", players=["Cleo", "Dan"], options=ENDLESS_GIN, league="Club")
    count = 25
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_deal_many, args=(pg_address, first.id, count, "Anna", "Bea")),
        context.Process(target=_deal_many, args=(pg_address, second.id, count, "Cleo", "Dan")),
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    reopened = Store.open(pg_address)
    try:
        assert len(reopened.game(first.id).document["deals"]) == count
        assert len(reopened.game(second.id).document["deals"]) == count
        assert reopened.position == 3 + 2 * count  # a league, two games, every deal its own commit
        assert len(store.game(first.id).document["deals"]) == count  # the first store catches up
        _check_read_tables(reopened)
        assert public_reads(reopened) == public_reads(store)
    finally:
        reopened.close()
        store.close()


# -- the schema and the errors ---------------------------------------------------------------------


def test_the_schema_is_made_once_and_a_newer_one_is_refused(pg_address: str) -> None:
    import psycopg

    Store.open(pg_address).close()
    Store.open(pg_address).close()  # opened again: nothing made twice, nothing dropped
    with psycopg.connect(pg_address) as conn:
        found = conn.execute("SELECT value FROM rummy_meta WHERE key = 'schema'").fetchone()
        assert found == (str(SCHEMA_VERSION),)
        conn.execute("UPDATE rummy_meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(NewerStoreError, match="99"):
        Store.open(pg_address)


def test_a_version_2_database_gets_the_sender_column_and_keeps_its_commits(pg_address: str) -> None:
    """Schema 3 adds ``rummy_commits.sender``: a database made by version 2 (no such column)
    is brought up to it on open, its commits kept, and a commit sent by a token names it."""
    import psycopg

    store = Store.open(pg_address)
    league = store.create_league("Friday club")
    store.close()
    with psycopg.connect(pg_address) as conn:  # as version 2 left it: no sender column
        conn.execute("ALTER TABLE rummy_commits DROP COLUMN sender")
        conn.execute("UPDATE rummy_meta SET value = '2' WHERE key = 'schema'")
    store = Store.open(pg_address)
    try:
        assert store.league(league.id).name == "Friday club"
        store.receive_facts(league.id, [new_player_fact("Anna").to_json()], source="test", sender="tablet 1")
        assert [c.sender for c in store.commits_since(0)] == [None, "tablet 1"]
    finally:
        store.close()
    with psycopg.connect(pg_address) as conn:
        found = conn.execute("SELECT value FROM rummy_meta WHERE key = 'schema'").fetchone()
        assert found == (str(SCHEMA_VERSION),)  # brought up to this version's schema


def new_player_fact(name: str) -> Any:
    from scorer.league.facts import new_fact

    return new_fact(
        "player.added", at="2026-12-07T02:00:00+00:00", by="", player=str(uuid.uuid4()), name=name
    )


def test_an_unreachable_database_names_its_address_with_the_password_masked(tmp_path: Path) -> None:
    address = f"postgresql://club:s3cret@/rummy?host={tmp_path}"  # no server listens there
    with pytest.raises(StoreError) as refused:
        Store.open(address)
    said = str(refused.value)
    assert "s3cret" not in said
    assert f"'postgresql://club:***@/rummy?host={tmp_path}'" in said
    assert "check that PostgreSQL is running there" in said


def test_a_database_that_is_not_there_is_named(pg_cluster: Any) -> None:
    address = pg_cluster.address("no_such_league")
    with pytest.raises(StoreError, match=r"no_such_league.*cannot be reached.*does not exist"):
        Store.open(address)


def test_a_malformed_address_is_bad_input() -> None:
    with pytest.raises(StoreInputError, match="is not a PostgreSQL address"):
        Store.open("postgresql://anna@host/db?nosuchoption=1")


def test_masked_hides_every_form_of_password() -> None:
    assert masked("postgresql://a:b@h/d") == "postgresql://a:***@h/d"
    assert masked("postgres://h/d?password=pw&user=a") == "postgres://h/d?password=***&user=a"
    assert masked("postgresql://a@h/d") == "postgresql://a@h/d"


def test_folder_only_commands_point_to_pg_dump(pg_store: Store) -> None:
    for name, refuse in (
        ("verify", lambda: Store.verify(pg_store.address)),
        ("restore", lambda: Store.restore(pg_store.address)),
        ("backup", lambda: pg_store.backup("/tmp")),
        ("replace from backup", lambda: pg_store.replace_from_backup("/tmp/x.zip")),
    ):
        with pytest.raises(StoreInputError, match="pg_dump") as refused:
            refuse()
        assert str(refused.value).startswith(f"'{name}' works on a league folder's files")


# -- the command line ---------------------------------------------------------------------------


def _rummy(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    rummy = Path(sys.executable).with_name("rummy")
    return subprocess.run(
        [str(rummy), *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_rummy_league_works_on_a_database_by_db_and_by_rummy_db(pg_address: str) -> None:
    made = _rummy("league", "create", "Club", "--db", pg_address, "--json")
    assert made.returncode == 0, made.stderr
    listed = _rummy("league", "list", "--json", env={"RUMMY_DB": pg_address})
    assert listed.returncode == 0, listed.stderr
    assert "Club" in listed.stdout
    store = Store.open(pg_address)
    try:
        assert [lg.name for lg in store.leagues()] == ["Club"]
    finally:
        store.close()
    verify = _rummy("league", "verify", "--db", pg_address)
    assert verify.returncode == 2
    assert "pg_dump" in verify.stderr
    assert json.loads(made.stdout)["name"] == "Club"


def test_settings_backup_and_repair_of_a_database_point_to_pg_dump(pg_store: Store) -> None:
    from scorer.ui.screens.exchange_model import BackupModel

    model = BackupModel.load(pg_store)
    assert model.backup_now() is None
    assert "pg_dump" in model.error and pg_store.address is not None and pg_store.address in model.error
    assert model.repair() is None
    assert "pg_dump" in model.error
    memory = BackupModel.load(Store.memory())
    assert memory.backup_now() is None
    assert "kept in memory" in memory.error


def test_rummy_app_serves_a_league_in_a_database(pg_address: str) -> None:
    import socket
    import urllib.request

    from conftest import free_port

    port = free_port()
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1"}
    env.pop("FLET_SERVER_PORT", None)
    rummy = Path(sys.executable).with_name("rummy")
    process = subprocess.Popen(
        [str(rummy), "app", "--port", str(port), "--db", pg_address],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else "stopped"
                assert time.monotonic() < deadline, f"port {port} never opened"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200
        import psycopg

        with psycopg.connect(pg_address) as conn:  # the app made the schema and its store id
            assert conn.execute("SELECT count(*) FROM rummy_meta WHERE key = 'store'").fetchone() == (1,)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


def test_an_unreachable_database_stops_rummy_app_with_one_clear_line(tmp_path: Path) -> None:
    from conftest import free_port

    address = f"postgresql://club:s3cret@/rummy?host={tmp_path}"
    done = _rummy("app", "--port", str(free_port()), "--db", address)
    assert done.returncode != 0
    assert "cannot be reached" in done.stderr and "s3cret" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_write_waits_its_turn_and_a_lock_held_too_long_is_said(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from scorer.league import pg
    from scorer.league.errors import StoreBusyError

    pg_store.create_league("Club")
    monkeypatch.setattr(pg, "LOCK_TIMEOUT", 0.5)
    ledger: Any = pg_store._ledger
    with psycopg.connect(ledger.address) as holder:  # another process in the middle of a write
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (pg.WRITE_KEY,))
        with pytest.raises(StoreBusyError, match="busy"):
            pg_store.add_player("Anna")
        assert pg_store.players() == []  # read without the lock: reads never wait
    pg_store.add_player("Anna")  # the lock let go: the write goes
    assert [p.name for p in pg_store.players()] == ["Anna"]


def test_a_new_process_takes_the_scored_games_from_the_read_tables_not_a_replay(
    pg_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.league.state import State

    store = Store.open(pg_address)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    store.add_deal(game.id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}})
    expected = store.standings("Club")
    store.close()

    def no_replay(self: State, record: Any) -> Any:
        raise AssertionError(f"game {record.id} replayed")

    monkeypatch.setattr(State, "replay", no_replay)
    reopened = Store.open(pg_address)
    try:
        assert reopened.standings("Club") == expected
    finally:
        reopened.close()


def test_a_server_restart_loses_no_acknowledged_change_and_the_store_reconnects(
    pg_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:  # pg_cluster: PostgreSQL is here (else, in CI, this fails with the reason)
    import pg_kit

    from scorer.league import pg

    monkeypatch.setattr(pg, "CONNECT_TIMEOUT", 2)  # the wait for a connection before saying so

    cluster = pg_kit.Cluster(durable=True)  # a cluster of its own, synced as a server's is
    try:
        store = Store.open(cluster.database())
        store.create_league("Club")
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 2, "Bea": 30}})
        cluster.halt()  # as a power cut would stop it
        with pytest.raises(StoreError, match="cannot be reached"):
            store.add_deal(game.id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}})
        cluster.start()
        deadline = time.monotonic() + 120
        while True:  # the pool connects again in the background, backing off between tries
            try:
                deals = store.game(game.id).document["deals"]
                break
            except StoreError as refused:
                assert "cannot be reached" in str(refused) and time.monotonic() < deadline
                time.sleep(0.5)
        assert len(deals) == 1  # the refused deal is not half there
        store.add_deal(game.id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}})
        reopened = Store.open(store.address or "")
        assert len(reopened.game(game.id).document["deals"]) == 2
        assert public_reads(reopened) == public_reads(store)
        reopened.close()
        store.close()
    finally:
        cluster.stop()


def test_a_pooled_connection_is_handed_out_unasked_and_one_the_server_ended_is_replaced(
    pg_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pg_kit
    import psycopg_pool

    asked: list[object] = []
    ask = psycopg_pool.ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        asked.append(conn)
        ask(conn)

    monkeypatch.setattr(psycopg_pool.ConnectionPool, "check_connection", staticmethod(counted))
    store = Store.open(pg_address)
    try:
        store.create_league("Club")
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 2, "Bea": 30}})
        for _ in range(3):  # connections at rest, healthy: no round trip to check them first
            assert len(store.game(game.id).document["deals"]) == 1
        assert asked == []
        # The server ends every connection of the pool (an administrator, a backend that crashed).
        ended = pg_kit.sql(
            pg_address,
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
        )
        assert ended
        pids = [pid for (pid,) in ended]
        pg_kit.sql(pg_address, "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (pids,))
        deadline = time.monotonic() + 60
        while pg_kit.sql(pg_address, "SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)):
            assert time.monotonic() < deadline, "the backends did not end"
            time.sleep(0.05)
        # A read and a write still work, on new connections: no "cannot be reached".
        assert len(store.game(game.id).document["deals"]) == 1
        store.add_deal(game.id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}})
        assert len(store.game(game.id).document["deals"]) == 2
        assert asked  # the ended connections were asked, and thrown away
    finally:
        store.close()


def test_which_games_have_facts_held_back_is_asked_once_a_commit_and_seen_across_processes(
    pg_address: str,
) -> None:
    from contextlib import contextmanager

    mine, theirs = Store.open(pg_address), Store.open(pg_address)
    try:
        game = mine.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50).id
        ledger: Any = mine._ledger
        queries: list[str] = []
        connection = ledger._connection

        @contextmanager
        def counted() -> Iterator[Any]:
            queries.append("asked")
            with connection() as conn:
                yield conn

        ledger._connection = counted
        assert not mine.may_hold_facts(game)
        assert len(queries) == 1
        for _ in range(5):  # nothing committed since: asked of what was read, no query
            assert not mine.may_hold_facts(game)
        assert len(queries) == 1
        their_ledger: Any = theirs._ledger
        their_ledger.save_held(game, [{"id": "f1", "kind": "deal.recorded"}])  # their sync holds
        theirs.add_deal(game, {"knocker": "Anna", "deadwood": {"Anna": 2, "Bea": 30}})  # and commits
        mine.changes()  # this process reads the commit (a notice of it)
        assert mine.may_hold_facts(game)
        assert [f["id"] for f in ledger.held(game)] == ["f1"]
        ledger.save_held(game, [])  # settled here: said at once
        assert not mine.may_hold_facts(game)
    finally:
        mine.close()
        theirs.close()


# -- every process hears each commit (LISTEN/NOTIFY) -------------------------------------------------


def _heard(changes: Iterator[Any], into: list[Any], ready: Any) -> None:
    ready.set()
    for changed in changes:
        into.append(changed)


def test_each_commit_names_its_games_to_every_listening_process_and_a_refusal_sends_nothing(
    pg_address: str,
) -> None:
    import threading

    from scorer.league.pg import Changed

    writer, listener = Store.open(pg_address), Store.open(pg_address)
    stop, ready, heard = threading.Event(), threading.Event(), []
    changes = listener.listen(stop=stop)
    assert changes is not None and listener.listens
    thread = threading.Thread(target=_heard, args=(changes, heard, ready), daemon=True)
    try:
        thread.start()
        ready.wait(5)
        time.sleep(0.5)  # LISTEN is sent as the generator starts
        writer.create_league("Club")
        game = writer.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        with pytest.raises(StoreInputError):
            writer.create_league("club")
        writer.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 2, "Bea": 30}})
        deadline = time.monotonic() + 10
        while len(heard) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [Changed(1, ()), Changed(2, (game.id,)), Changed(3, (game.id,))]
        assert listener.changes() == writer.changes()  # what it heard of, it reads
    finally:
        stop.set()
        thread.join(5)
        writer.close()
        listener.close()
    assert not thread.is_alive()  # a set stop ends the listening within its wait


def test_the_app_process_hears_another_process_save_before_its_poll_would_look(
    pg_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    from scorer.ui import live

    monkeypatch.setattr(live, "LISTENING_POLL_SECONDS", 3600.0)  # only the listener can tell

    app, other = Store.open(pg_address), Store.open(pg_address)
    other.create_league("Club")
    game = other.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    published: list[str] = []
    watch = live.StoreWatch(app)
    try:
        watch.start(published.append, loop=loop)
        time.sleep(1.0)  # the listener's LISTEN
        began = time.monotonic()
        other.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 2, "Bea": 30}})
        while not published and time.monotonic() - began < 10:
            time.sleep(0.05)
        assert published == [app.changes()] == [other.changes()]  # heard: the poll looks hourly here
        assert len(app.game(game.id).document["deals"]) == 1
    finally:
        watch.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        app.close()
        other.close()


def test_a_folder_store_cannot_listen_and_its_watch_polls(tmp_path: Path) -> None:
    import asyncio
    import threading

    from scorer.ui import live

    store = Store.open(tmp_path / "league")
    assert not store.listens and store.listen(stop=threading.Event()) is None
    watch = live.StoreWatch(store)
    assert watch.follow(asyncio.new_event_loop(), stop=threading.Event()) is False


def test_the_listener_listens_again_after_the_database_was_out_of_reach(
    pg_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    import pg_kit

    from scorer.league import pg
    from scorer.ui import live

    monkeypatch.setattr(pg, "CONNECT_TIMEOUT", 2)
    monkeypatch.setattr(live, "LISTENING_POLL_SECONDS", 3600.0)  # only the listener can tell
    cluster = pg_kit.Cluster(durable=True)
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        address = cluster.database()
        app, other = Store.open(address), Store.open(address)
        published: list[str] = []
        watch = live.StoreWatch(app)
        watch.start(published.append, loop=loop)
        time.sleep(1.0)
        cluster.halt()
        assert watch.check() is False  # the poll says so and goes on (it ended here before)
        cluster.start()
        deadline = time.monotonic() + 60
        while True:  # the pools connect again in the background
            try:
                other.create_league("Club")
                break
            except StoreError:
                assert time.monotonic() < deadline
                time.sleep(0.5)
        while not published and time.monotonic() < deadline:
            time.sleep(0.1)
        assert published and published[-1] == other.changes()
        watch.stop()
        app.close()
        other.close()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()
        cluster.stop()
