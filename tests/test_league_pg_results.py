"""The PostgreSQL store's results table and held facts (scorer/league/pg.py, schema 5), against a
real server (tests/pg_kit.py).

- each finished game's results are written in the commit that changes the game, and the
  standings on PostgreSQL are answered from them (one snapshot of the database) with the rows
  the fold of the games gives: every figure, tie-break and filter (season, ruleset, several
  rulesets), abandoned, deleted and restored games too;
- the query answers only for the state it was asked for: after another process's commit, or
  with a game the code has not scored, the store folds its state instead (same rows);
- the facts a sync held back are kept in ``rummy_held`` and survive a restart of the process;
- a database of schema 4 gains both tables when it is opened, its results filled from the facts.
(The same operations through a folder and through PostgreSQL give the same standings:
tests/test_league_pg.py's stateful test, which now reads them from this table.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pg_kit
import pytest
from store_deals import rommi_deal
from store_reads import differences, public_reads

from scorer.league import pg
from scorer.league.pg import SCHEMA_VERSION, PgLedger
from scorer.league.standings import standings
from scorer.league.store import Store

GIN_50 = {"target": 50}
ENDLESS_GIN = {"target": None}


_sql, _opened = pg_kit.sql, pg_kit.opened


@pytest.fixture()
def answered(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of ``PgLedger.result_totals`` answered (``False``: the state folded)."""
    found: list[bool] = []
    ask = PgLedger.result_totals

    def spy(self: PgLedger, *args: Any, **kwargs: Any) -> Any:
        result = ask(self, *args, **kwargs)
        found.append(result is not None)
        return result

    monkeypatch.setattr(PgLedger, "result_totals", spy)
    return found


def _gin(store: Store, players: tuple[str, str], deals: Sequence[tuple[int, int, int]]) -> str:
    """A gin game to 50 in the league "Club" with ``deals`` (knocker seat, deadwood, other's)."""
    game = store.start_game(ruleset="gin", players=list(players), options=GIN_50, league="Club")
    for knocker, dead, other in deals:
        a, b = players[knocker], players[1 - knocker]
        if store.game(game.id).finished:
            break
        store.add_deal(game.id, {"knocker": a, "deadwood": {a: dead, b: other}})
    return game.id


def _rommi(store: Store, players: tuple[str, str, str], out: Sequence[int]) -> str:
    game = store.start_game(ruleset="rommi", players=list(players), league="Club", options={"target": 40})
    for number, seat in enumerate(out):
        if store.game(game.id).finished:
            break
        store.add_deal(game.id, rommi_deal(players, seat, [number, number + 1]))
    return game.id


def _club(store: Store) -> dict[str, str]:
    """A league of two seasons, gin and rommi games, streaks, ties and games that count nowhere."""
    store.create_league("Club", season="Spring")
    games = {
        "g1": _gin(store, ("Anna", "Bea"), [(0, 0, 30), (0, 2, 40)]),
        "g2": _gin(store, ("Anna", "Cleo"), [(0, 1, 45), (0, 0, 20)]),
        "g3": _gin(store, ("Bea", "Cleo"), [(1, 0, 60)]),
        "r1": _rommi(store, ("Anna", "Bea", "Cleo"), [0, 1, 2, 0, 1, 2, 0, 1]),
        "open": _gin(store, ("Bea", "Dan"), [(0, 5, 9)]),  # not finished: counts nowhere
    }
    store.close_season("Club")
    store.new_season("Club", "Summer")
    games["g4"] = _gin(store, ("Dan", "Anna"), [(0, 0, 50)])
    games["g5"] = _gin(store, ("Anna", "Bea"), [(1, 0, 55)])
    games["gone"] = _gin(store, ("Cleo", "Dan"), [(0, 0, 70)])
    games["r2"] = _rommi(store, ("Dan", "Bea", "Cleo"), [0, 0, 0, 0, 0, 0, 0, 0])
    store.delete_game(games["gone"])
    return games


def _every_table(store: Store) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for season in (None, "Spring", "Summer"):
        for ruleset in (None, "gin", "rommi"):
            tables[f"{season}/{ruleset}"] = store.standings("Club", season=season, ruleset=ruleset)
    return tables


def _folded(store: Store) -> dict[str, Any]:
    """What the standings functions give for the games folded in memory."""
    tables: dict[str, Any] = {}
    for season in (None, "Spring", "Summer"):
        games = store.played_games("Club", season=season)
        ratings = store.ratings("Club", season=season)
        for ruleset in (None, "gin", "rommi"):
            tables[f"{season}/{ruleset}"] = standings(games, ruleset=ruleset, ratings=ratings)
    return tables


def test_the_standings_are_answered_from_the_results_table_with_the_fold_s_rows(
    pg_address: str, answered: list[bool]
) -> None:
    with _opened(pg_address) as store:
        games = _club(store)
        found = _every_table(store)
        assert answered and all(answered)
        assert found == _folded(store)
        assert found["None/None"][0].points is None  # several rulesets: no points added
        assert {row.player for row in found["None/gin"]} == {
            store.player(name).id for name in ("Anna", "Bea", "Cleo", "Dan")
        }
        counted = _sql(pg_address, "SELECT DISTINCT game FROM rummy_results")
        assert {g for (g,) in counted} == {games[k] for k in ("g1", "g2", "g3", "g4", "g5", "r1", "r2")}
        store.abandon_game(games["g5"])  # rewritten in the commit that abandons it
        store.undelete_game(games["gone"])
        answered.clear()
        assert _every_table(store) == _folded(store)
        assert all(answered)
        counted = _sql(pg_address, "SELECT DISTINCT game FROM rummy_results")
        assert games["g5"] not in {g for (g,) in counted} and games["gone"] in {g for (g,) in counted}


def test_a_longest_streak_is_the_longest_run_of_wins_in_the_order_played(pg_address: str) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club")
        wins = [(0, 0, 60), (0, 0, 60), (1, 0, 60), (0, 0, 60), (0, 0, 60), (0, 0, 60)]
        for deal in wins:  # Anna wins, wins, loses, wins three
            _gin(store, ("Anna", "Bea"), [deal])
        [anna] = [r for r in store.standings("Club") if r.player == store.player("Anna").id]
        assert anna.longest_streak == 3
        assert store.standings("Club") == standings(store.played_games("Club"), ratings=store.ratings("Club"))


def test_another_process_s_commit_or_an_unscored_game_makes_the_store_fold_its_state(
    pg_address: str, answered: list[bool]
) -> None:
    with _opened(pg_address) as store, _opened(pg_address) as other:
        games = _club(store)
        assert store.standings("Club")
        ledger: Any = store._ledger
        league = store.league("Club").id
        at = store.position
        assert ledger.result_totals(league, season_id=None, ruleset=None, position=at)
        other.add_player("Eve")  # the database moves on from the state read at ``at``
        assert ledger.result_totals(league, season_id=None, ruleset=None, position=at) is None
        _sql(pg_address, "UPDATE rummy_games SET code = 'an older code' WHERE id = %s", (games["g1"],))
        other.add_player("Fay")
        answered.clear()
        assert other.standings("Club", ruleset="gin") == _folded(other)["None/gin"]
        assert answered == [False]


def test_held_facts_are_kept_in_the_database_and_survive_a_restart(pg_address: str) -> None:
    facts = [{"id": "f1", "kind": "deal.added", "game": "g"}, {"id": "f2", "kind": "deal.added"}]
    with _opened(pg_address) as store:
        store._ledger.save_held("game-1", facts)
        store._ledger.save_held("game-2", facts[:1])
    with _opened(pg_address) as store:  # a new process
        assert store._ledger.held("game-1") == facts
        assert store._ledger.held("game-2") == facts[:1]
        assert store._ledger.held("game-3") == []
        store._ledger.save_held("game-2", [])  # the conflict settled
    with _opened(pg_address) as store:
        assert store._ledger.held("game-2") == []
        assert store._ledger.held("game-1") == facts
    assert _sql(pg_address, "SELECT subject FROM rummy_held") == [("game-1",)]


def test_a_database_of_schema_4_gains_the_results_and_held_tables_when_opened(
    pg_address: str, answered: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    with _opened(pg_address) as store:
        _club(store)
        before = public_reads(store)
        expected = _every_table(store)
    _sql(pg_address, "DROP TABLE rummy_totals")  # as version 4 left it
    _sql(pg_address, "DROP TABLE rummy_results")
    _sql(pg_address, "DROP TABLE rummy_held")
    _sql(pg_address, "UPDATE rummy_meta SET value = '4' WHERE key = 'schema'")
    with _opened(pg_address) as store:
        assert _sql(pg_address, "SELECT value FROM rummy_meta WHERE key = 'schema'") == [
            (str(SCHEMA_VERSION),)
        ]
        assert _sql(pg_address, "SELECT count(*) FROM rummy_results")[0][0] > 0
        assert _sql(pg_address, "SELECT count(*) FROM rummy_totals")[0][0] > 0
        answered.clear()
        assert _every_table(store) == expected
        assert all(answered)
        assert differences(before, public_reads(store)) == []
        store._ledger.save_held("game-1", [{"id": "f1"}])
    with _opened(pg_address) as store:
        assert store._ledger.held("game-1") == [{"id": "f1"}]
    assert pg.RESULTS_SINCE < pg.TOTALS_SINCE < pg.ADDED_TOTALS_SINCE == SCHEMA_VERSION


def test_a_database_of_schema_5_gains_the_kept_totals_when_opened(
    pg_address: str, answered: list[bool]
) -> None:
    with _opened(pg_address) as store:
        _club(store)
        expected = _every_table(store)
        kept = sorted(_sql(pg_address, "SELECT * FROM rummy_totals"))
    _sql(pg_address, "DROP TABLE rummy_totals")  # as version 5 left it
    _sql(pg_address, "UPDATE rummy_meta SET value = '5' WHERE key = 'schema'")
    with _opened(pg_address) as store:
        assert _sql(pg_address, "SELECT value FROM rummy_meta WHERE key = 'schema'") == [
            (str(SCHEMA_VERSION),)
        ]
        assert sorted(_sql(pg_address, "SELECT * FROM rummy_totals")) == kept
        answered.clear()
        assert _every_table(store) == expected
        assert answered and all(answered)


def test_the_kept_totals_are_a_row_a_player_and_scope_kept_by_each_commit(pg_address: str) -> None:
    with _opened(pg_address) as store:
        games = _club(store)
        anna = store.player("Anna").id
        spring = store._ledger.state.season_doc(store._ledger.state.league_doc("Club"), "Spring").id
        rows = _sql(
            pg_address,
            "SELECT all_seasons, season = %s, all_rulesets, ruleset, games FROM rummy_totals"
            " WHERE player = %s AND (all_seasons OR season = %s)"
            " ORDER BY all_seasons, all_rulesets, ruleset",
            (spring, anna, spring),
        )
        # Anna: g1, g2 (gin) and r1 in Spring; g4, g5 (gin) in Summer
        assert rows == [
            (False, True, False, "gin", 2),
            (False, True, False, "rommi", 1),
            (False, True, True, "", 3),
            (True, False, False, "gin", 4),
            (True, False, False, "rommi", 1),
            (True, False, True, "", 5),
        ]
        store.delete_game(games["g4"])  # the commit keeps Anna's and Dan's rows again
        assert _sql(
            pg_address,
            "SELECT games FROM rummy_totals WHERE player = %s AND all_seasons AND all_rulesets",
            (anna,),
        ) == [(4,)]
