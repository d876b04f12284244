"""The PostgreSQL store's checkpoint (scorer/league/pg.py, ``rummy_checkpoints``), against a real
server (tests/pg_kit.py).

- a store saves one once the commits since the last hold ``CHECKPOINT_EVERY`` facts; a new
  process opening the database loads the newest and folds only the commits after it, and
  reads what a process that folded every commit reads;
- one that does not fit its commit, of another form, or that cannot be read is ignored (the
  one before it, or every commit, is folded): never trusted over the facts;
- two processes writing in turn share the checkpoints (a position saved twice is one row);
- a checkpoint that cannot be saved never fails the commit before it;
- summaries a checkpoint lacks after an update of the code are saved once they are at hand;
- a database of an earlier schema (1 to 3) gains the table when it is opened (and schema 5's
  tables: tests/test_league_pg_results.py).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from typing import Any
from unittest import mock

import pg_kit
import pytest
from store_reads import differences, public_reads

from scorer.league import pg
from scorer.league import state as state_module
from scorer.league.checkpoint import encode
from scorer.league.log import Commit
from scorer.league.pg import KEEP_CHECKPOINTS, SCHEMA_VERSION, PgLedger
from scorer.league.state import State
from scorer.league.store import Store

ENDLESS_GIN = {"target": None}
EVERY = 5  # CHECKPOINT_EVERY for these tests: a checkpoint every 5 facts


@pytest.fixture()
def folded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of each commit a PostgreSQL ledger folds from the database (on opening and
    catching up; never its own commits, which it applies as it makes them)."""
    found: list[int] = []
    fold = PgLedger._fold

    def spy(self: PgLedger, commits: Sequence[Commit]) -> None:
        found.extend(commit.n for commit in commits)
        fold(self, commits)

    monkeypatch.setattr(PgLedger, "_fold", spy)
    return found


@pytest.fixture()
def every_five(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg, "CHECKPOINT_EVERY", EVERY)


_sql, _opened_store = pg_kit.sql, pg_kit.opened


def _checkpoints(address: str) -> list[int]:
    """The positions of the checkpoints saved, oldest first."""
    return [p for (p,) in _sql(address, "SELECT position FROM rummy_checkpoints ORDER BY position")]


def _fitting(address: str) -> list[int]:
    """The positions of the checkpoints whose commit is in the database with their sum."""
    return [
        p
        for (p,) in _sql(
            address,
            "SELECT k.position FROM rummy_checkpoints k JOIN rummy_commits c"
            " ON c.n = k.position AND c.sum = k.sum ORDER BY k.position",
        )
    ]


def _league(store: Store, *, deals: int) -> None:
    """A league of two endless gin games, with ``deals`` deals between them, each its commit."""
    store.create_league("Club")
    games = [
        store.start_game(ruleset="gin", players=list(pair), options=ENDLESS_GIN, league="Club").id
        for pair in (("Anna", "Bea"), ("Cleo", "Dan"))
    ]
    for number in range(deals):
        game = store.game(games[number % 2])
        knocker, other = game.document["players"]
        store.add_deal(game.id, {"knocker": knocker, "deadwood": {knocker: number % 7, other: 9 + number}})


def _no_replay(self: State, record: Any) -> Any:
    raise AssertionError(f"game {record.id} replayed")


def _alike(expected: Store, actual: Store) -> None:
    assert differences(public_reads(expected), public_reads(actual)) == []


# -- saved, and read by the next open ------------------------------------------------------------


def test_a_new_process_loads_the_newest_checkpoint_and_folds_only_the_commits_after_it(
    pg_address: str, every_five: None, folded: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(pg_address)
    try:
        _league(store, deals=17)
        store.standings("Club")
        saved = _checkpoints(pg_address)
        assert saved and len(saved) <= KEEP_CHECKPOINTS  # the older ones deleted
        assert _fitting(pg_address) == saved
        newest = saved[-1]
        assert store.position - EVERY < newest < store.position  # due every 5 facts, not yet again
        assert folded == []  # its own commits are applied, never folded back

        again = Store.open(pg_address)
        try:
            assert folded == list(range(newest + 1, store.position + 1))
            assert again.position == store.position
            # no game replayed: the summaries are the checkpoint's, and those of the games
            # changed after it the read tables'
            with mock.patch.object(State, "replay", _no_replay):
                assert again.standings("Club") == store.standings("Club")
            _alike(store, again)
        finally:
            again.close()

        folded.clear()
        monkeypatch.setattr(pg, "CHECKPOINT_CODE", "another form")  # no checkpoint it can read
        whole = Store.open(pg_address)
        try:
            assert folded == list(range(1, store.position + 1))
            _alike(whole, store)
        finally:
            whole.close()
    finally:
        store.close()


def test_an_open_from_a_checkpoint_writes_on_alike(pg_address: str, every_five: None) -> None:
    store = Store.open(pg_address)
    try:
        _league(store, deals=12)
        again = Store.open(pg_address)
        try:
            game = again.game(again.games()[0].id)
            knocker, other = game.document["players"]
            again.add_deal(game.id, {"knocker": knocker, "deadwood": {knocker: 0, other: 30}})
            again.rename_player("Anna", "Annika")
            assert len(store.game(game.id).document["deals"]) == len(again.game(game.id).document["deals"])
            _alike(again, store)  # the first store caught up with the second's commits
            import psycopg

            with psycopg.connect(pg_address) as conn:  # the read tables written from it too
                assert conn.execute(
                    "SELECT count(*) FROM rummy_players WHERE name = 'Annika'"
                ).fetchone() == (1,)
            assert again._ledger.rebuild_reads() == 2  # type: ignore[attr-defined]
        finally:
            again.close()
    finally:
        store.close()


# -- never trusted over the facts -----------------------------------------------------------------


@pytest.mark.parametrize(
    "tamper",
    [
        "UPDATE rummy_checkpoints SET sum = 'not its commit''s'",
        "UPDATE rummy_checkpoints SET body = 'garbage'::bytea",
        "UPDATE rummy_checkpoints SET body = substring(body from 1 for length(body) - 9)",
        # one byte flipped (an X written there was no change when that byte was an X already)
        "UPDATE rummy_checkpoints"
        " SET body = set_byte(body, length(body) / 2, get_byte(body, length(body) / 2) # 255)",
        "UPDATE rummy_checkpoints SET code = '1.1'",
        "UPDATE rummy_checkpoints SET position = position + 1000",
        "UPDATE rummy_meta SET value = 'another store' WHERE key = 'store'",
    ],
    ids=["sum", "garbage", "cut", "a-byte", "code", "position", "store"],
)
def test_a_checkpoint_that_does_not_fit_or_cannot_be_read_is_ignored(
    pg_address: str, every_five: None, folded: list[int], tamper: str
) -> None:
    store = Store.open(pg_address)
    try:
        _league(store, deals=12)
        store.standings("Club")
        assert _checkpoints(pg_address)
        _sql(pg_address, tamper)
        again = Store.open(pg_address)
        try:
            assert folded == list(range(1, store.position + 1))
            _alike(store, again)
        finally:
            again.close()
    finally:
        store.close()


def test_a_whole_checkpoint_of_another_history_is_ignored(
    pg_address: str, every_five: None, folded: list[int]
) -> None:
    """One that reads well and names its position, but with a sum that is not its commit's
    (the database's commits replaced since, from a dump of another copy, say)."""
    store = Store.open(pg_address)
    try:
        _league(store, deals=12)
        newest = _checkpoints(pg_address)[-1]
        ledger: Any = store._ledger
        other = encode(store=ledger.store_id, position=newest, sum="0" * 16, start=0, offset=0, state=State())
        _sql(pg_address, "DELETE FROM rummy_checkpoints WHERE position <> %s", (newest,))
        _sql(
            pg_address,
            "UPDATE rummy_checkpoints SET sum = %s, body = %s WHERE position = %s",
            ("0" * 16, other, newest),
        )
        again = Store.open(pg_address)
        try:
            assert folded == list(range(1, store.position + 1))
            _alike(store, again)
        finally:
            again.close()
    finally:
        store.close()


def test_a_checkpoint_that_cannot_be_read_gives_way_to_the_one_before_it(
    pg_address: str, every_five: None, folded: list[int]
) -> None:
    store = Store.open(pg_address)
    try:
        _league(store, deals=12)
        *_, before, newest = _checkpoints(pg_address)
        # the older one's bytes under the newest's position and sum: its own say another commit
        _sql(
            pg_address,
            "UPDATE rummy_checkpoints SET body = (SELECT body FROM rummy_checkpoints WHERE position = %s)"
            " WHERE position = %s",
            (before, newest),
        )
        again = Store.open(pg_address)
        try:
            assert folded == list(range(before + 1, store.position + 1))
            _alike(store, again)
        finally:
            again.close()
    finally:
        store.close()


# -- several processes ----------------------------------------------------------------------------


def test_two_processes_writing_in_turn_share_the_checkpoints(
    pg_address: str, every_five: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    saves: list[int] = []
    save = PgLedger._save_checkpoint

    def spy(self: PgLedger, conn: Any) -> None:
        save(self, conn)
        saves.append(self.position)

    monkeypatch.setattr(PgLedger, "_save_checkpoint", spy)
    first, second = Store.open(pg_address), Store.open(pg_address)
    try:
        first.create_league("Club")
        games = [
            s.start_game(ruleset="gin", players=list(pair), options=ENDLESS_GIN, league="Club").id
            for s, pair in ((first, ("Anna", "Bea")), (second, ("Cleo", "Dan")))
        ]
        for number in range(30):
            store = (first, second)[number % 2]
            game = store.game(games[number % 2])
            knocker, other = game.document["players"]
            store.add_deal(game.id, {"knocker": knocker, "deadwood": {knocker: 1, other: 9}})
        assert saves == sorted(set(saves))  # never one position twice
        facts = dict(_sql(pg_address, "SELECT n, count(*) FROM rummy_facts GROUP BY n"))
        for earlier, later in itertools.pairwise(saves):  # one process's save counts for both
            assert sum(facts[n] for n in range(earlier + 1, later + 1)) >= EVERY
        assert _fitting(pg_address) == saves[-KEEP_CHECKPOINTS:]

        # both at the same position, both save: one row, and neither fails
        second.players()  # caught up
        assert first.position == second.position
        _sql(pg_address, "DELETE FROM rummy_checkpoints")
        first._ledger.save_checkpoint()  # type: ignore[attr-defined]
        body = _sql(pg_address, "SELECT body FROM rummy_checkpoints")
        second._ledger.save_checkpoint()  # type: ignore[attr-defined]
        assert _sql(pg_address, "SELECT body FROM rummy_checkpoints") == body  # the first kept
        assert _fitting(pg_address) == [first.position]
    finally:
        first.close()
        second.close()


def test_a_checkpoint_that_cannot_be_saved_never_fails_the_commit(
    pg_address: str, every_five: None, caplog: pytest.LogCaptureFixture
) -> None:
    _sql(
        pg_address,
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$"
        " BEGIN RAISE EXCEPTION 'disk full'; END $$",
    )
    store = Store.open(pg_address)  # the schema made
    _sql(
        pg_address,
        "CREATE TRIGGER refuse BEFORE INSERT ON rummy_checkpoints FOR EACH ROW EXECUTE FUNCTION refuse()",
    )
    try:
        with caplog.at_level(logging.WARNING, logger="scorer.league.pg"):
            _league(store, deals=8)
        assert "checkpoint at commit" in caplog.text and "disk full" in caplog.text
        assert _checkpoints(pg_address) == []
        with _opened_store(pg_address) as again:  # every commit acknowledged is there
            _alike(store, again)
        _sql(pg_address, "DROP TRIGGER refuse ON rummy_checkpoints")
        store.add_player("Eve")  # the count went on: the next commit saves
        assert _fitting(pg_address) == [store.position]
    finally:
        store.close()


# -- the summaries ---------------------------------------------------------------------------------


def test_summaries_missing_after_an_update_are_saved_once_at_hand_and_not_replayed_again(
    pg_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(pg_address)
    _league(store, deals=6)  # far fewer than 200 facts: no checkpoint by count
    expected = store.standings("Club")
    store.close()
    with _opened_store(pg_address) as again:  # every summary at hand from the read tables
        again.add_player("Eve")
    assert _checkpoints(pg_address) == []  # nothing due: a write after an open saves nothing

    for module in (state_module, pg):  # an update of the scoring code
        monkeypatch.setattr(module, "CODE_VERSION", "0.0.0+updated")
    with _opened_store(pg_address) as updated:
        assert updated.standings("Club") == expected  # replayed: the read rows are the old code's
        updated.add_player("Fay")
        assert _checkpoints(pg_address) == [updated.position]

    monkeypatch.setattr(State, "replay", _no_replay)
    with _opened_store(pg_address) as fresh:
        assert fresh.standings("Club") == expected


# -- the schema -------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2, 3])  # before the tokens, the senders, the checkpoints
def test_a_database_of_an_earlier_schema_gains_the_table_and_a_checkpoint(
    pg_address: str, folded: list[int], monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    monkeypatch.setattr(pg, "CHECKPOINT_EVERY", 1000)  # none saved by the earlier program
    with _opened_store(pg_address) as store:
        _league(store, deals=12)
        before = public_reads(store)
        position = store.position
    _sql(pg_address, "DROP TABLE rummy_results")  # as the earlier version left it
    _sql(pg_address, "DROP TABLE rummy_held")
    _sql(pg_address, "DROP TABLE rummy_checkpoints")
    if version < 3:
        _sql(pg_address, "ALTER TABLE rummy_commits DROP COLUMN sender")
    if version < 2:
        _sql(pg_address, "DROP TABLE rummy_tokens")
    _sql(pg_address, "UPDATE rummy_meta SET value = %s WHERE key = 'schema'", (str(version),))
    monkeypatch.setattr(pg, "CHECKPOINT_EVERY", EVERY)
    folded.clear()
    with _opened_store(pg_address) as store:
        schema = _sql(pg_address, "SELECT value FROM rummy_meta WHERE key = 'schema'")
        assert schema == [(str(SCHEMA_VERSION),)]
        assert folded == list(range(1, position + 1))
        assert differences(before, public_reads(store)) == []
        store.add_player("Eve")  # a sizeable log folded whole: the next commit saves one
        assert _fitting(pg_address) == [position + 1]


def test_a_large_store_saves_a_checkpoint_once_per_share_of_its_facts_not_every_few(
    pg_address: str, every_five: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saving a checkpoint encodes the whole state: past CHECKPOINT_SHARE times the fixed count,
    a checkpoint waits for a share of every fact held (bench/club_server.py's ingest slowed
    with every page before: each page of 2,000 facts saved the whole store again)."""
    monkeypatch.setattr(pg, "CHECKPOINT_SHARE", 4)  # a quarter of the facts held, past 4 x 5
    with _opened_store(pg_address) as store:
        _league(store, deals=60)
        saved = _checkpoints(pg_address)
        held = len(store._ledger.state.seen)
    gaps = [later - earlier for earlier, later in itertools.pairwise(saved)]
    assert held > 60 and len(saved) <= KEEP_CHECKPOINTS
    assert gaps and all(gap >= EVERY for gap in gaps)
    assert gaps[-1] >= (held - 10) // 4  # the last ones a quarter of the store apart, not five facts
    assert pg.checkpoint_due(held // 4, held) and not pg.checkpoint_due(EVERY, held)


def test_a_slow_save_waits_nine_times_its_time_before_the_next_while_facts_pour_in(
    pg_address: str, every_five: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save of a large store takes seconds: while a sync's pages come one after another, a
    share of facts comes in faster than that, and saving at each share made the saves most of
    the ingest's time. After a save that took a second or more, the next waits until nine times
    that has gone by (or a tenth of every fact held has come in since)."""
    with _opened_store(pg_address) as store:
        _league(store, deals=4)
        ledger: Any = store._ledger
        ledger.save_checkpoint()
        first = _checkpoints(pg_address)[-1]
        clock = [1000.0]
        monkeypatch.setattr(pg.time, "monotonic", lambda: clock[0])
        ledger._saved_at, ledger._save_took = clock[0], 2.0  # a save of two seconds, just ended
        monkeypatch.setattr(pg, "CHECKPOINT_MOST", 0)  # the tenth of the facts: out of reach
        for number in range(EVERY + 1):
            store.add_player(f"Player {number}")
        assert _checkpoints(pg_address)[-1] == first  # due by count, but 9 x 2 s have not gone by
        clock[0] += 18.0
        store.add_player("Eve")
        assert _checkpoints(pg_address)[-1] == store.position


def test_a_checkpoint_held_back_by_a_slow_save_is_saved_once_the_writes_stop(
    pg_address: str, every_five: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pause after a slow save holds a checkpoint back while facts pour in; once no commit
    comes for CHECKPOINT_QUIET seconds (an ingest that stopped) it is saved, so that the next
    open folds from near the end, not a tenth of every fact back (bench/server.py: a fresh
    open after a 100,000-game ingest took 15 to 18 s)."""
    monkeypatch.setattr(pg, "CHECKPOINT_QUIET", 0.3)
    with _opened_store(pg_address) as store:
        _league(store, deals=4)
        ledger: Any = store._ledger
        ledger.save_checkpoint()
        first = _checkpoints(pg_address)[-1]
        ledger._saved_at, ledger._save_took = pg.time.monotonic(), 600.0  # a slow save, just ended
        monkeypatch.setattr(pg, "CHECKPOINT_MOST", 0)  # the tenth of the facts: out of reach
        for number in range(EVERY + 1):
            store.add_player(f"Player {number}")
        assert _checkpoints(pg_address)[-1] == first  # held back: 9 x 600 s have not gone by
        store.add_player("Eve")  # each commit starts the wait again
        deadline = pg.time.monotonic() + 10
        while _checkpoints(pg_address)[-1] != store.position and pg.time.monotonic() < deadline:
            pg.time.sleep(0.05)
        assert _checkpoints(pg_address)[-1] == store.position
        assert not ledger._held_back()


def test_a_checkpoint_held_back_is_saved_when_the_store_is_closed(
    pg_address: str, every_five: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server stopped in the middle of an ingest's pause saves the checkpoint held back on
    its way out (its next start folds little); a store with nothing held back saves nothing."""
    monkeypatch.setattr(pg, "CHECKPOINT_QUIET", 3600.0)  # never of itself in this test
    with _opened_store(pg_address) as store:
        _league(store, deals=4)
        ledger: Any = store._ledger
        ledger.save_checkpoint()
        first = _checkpoints(pg_address)[-1]
        ledger._saved_at, ledger._save_took = pg.time.monotonic(), 600.0
        monkeypatch.setattr(pg, "CHECKPOINT_MOST", 0)
        for number in range(EVERY + 1):
            store.add_player(f"Player {number}")
        assert _checkpoints(pg_address)[-1] == first
        position = store.position
    assert _checkpoints(pg_address)[-1] == position  # saved as the store closed
    with _opened_store(pg_address) as again:
        assert again.position == position
    assert _checkpoints(pg_address)[-1] == position  # nothing held back: no second save
