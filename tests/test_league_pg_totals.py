"""The kept totals on PostgreSQL added to or counted again (scorer/league/pg_totals.py, schema 7),
against a real server (tests/pg_kit.py).

- the perft of the totals: random leagues of results, games finished at the end of the order
  played, with games changed, removed and placed earlier mixed in, each commit's rows kept by
  ``PgLedger._keep_totals`` (added to where it can) equal the rows counted afresh from
  ``rummy_results`` (hypothesis);
- each path by itself, through the store: a game finished after a player's last one is added
  to their rows (no recount), a game corrected, deleted or started earlier is counted again;
- :func:`~scorer.league.pg_totals.added` refuses a result not after the last one counted;
- a database of schema 6 gains the runs' columns when it is opened, its totals counted again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pg_kit
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_reads import differences, public_reads

from scorer.league.pg import SCHEMA_VERSION, PgLedger
from scorer.league.pg_totals import KEEP_TOTALS, Result, added
from scorer.league.store import Store

_sql, _opened = pg_kit.sql, pg_kit.opened

LEAGUES = ("L1", "L2")
PLAYERS = ("p1", "p2", "p3", "p4")
SEASONS = (None, "s1", "s2")
RULESETS = (("gin", False), ("rommi", True), ("rommi", False))  # a ruleset in both directions


@pytest.fixture()
def recounts(monkeypatch: pytest.MonkeyPatch) -> list[set[tuple[str, str]]]:
    """The (league, player) pairs each commit counted again from all their results."""
    found: list[set[tuple[str, str]]] = []
    count = PgLedger._count_totals

    def spy(cursor: Any, changed: set[tuple[str, str]]) -> None:
        found.append(set(changed))
        count(cursor, changed)

    monkeypatch.setattr(PgLedger, "_count_totals", staticmethod(spy))
    return found


def _kept_and_afresh(address: str) -> tuple[list[Any], list[Any]]:
    import psycopg

    with psycopg.connect(address) as conn:
        kept = sorted(conn.execute("SELECT * FROM rummy_totals").fetchall())
        conn.execute("DELETE FROM rummy_totals")
        conn.execute(KEEP_TOTALS.format(where="true"))
        afresh = sorted(conn.execute("SELECT * FROM rummy_totals").fetchall())
        conn.rollback()
    return kept, afresh


# -- the perft: kept rows against a recount, on random leagues ---------------------------------


@st.composite
def _result_fields(draw: st.DrawFn) -> dict[str, Any]:
    ruleset, lowest = draw(st.sampled_from(RULESETS))
    return {
        "league": draw(st.sampled_from(LEAGUES)),
        "season": draw(st.sampled_from(SEASONS)),
        "ruleset": ruleset,
        "lowest_wins": lowest,
        "players": draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=3, unique=True)),
        "winner": draw(st.integers(0, 2)),
        "left": draw(st.sampled_from([None, None, None, 1])),
        "points": draw(st.lists(st.integers(-50, 200), min_size=3, max_size=3)),
        "best": draw(st.lists(st.one_of(st.none(), st.integers(-20, 90)), min_size=3, max_size=3)),
        "events": draw(
            st.lists(
                st.one_of(st.none(), st.dictionaries(st.sampled_from(["out", "rummy"]), st.integers(0, 3))),
                min_size=3,
                max_size=3,
            )
        ),
    }


def _results(game: str, played: str, fields: dict[str, Any]) -> list[Result]:
    return [
        Result(
            game=game,
            player=player,
            league=fields["league"],
            season=fields["season"],
            ruleset=fields["ruleset"],
            lowest_wins=fields["lowest_wins"],
            played=played,
            won=None if seat == fields["left"] else seat == fields["winner"] % len(fields["players"]),
            deals=seat + 3,
            deals_won=seat,
            points=fields["points"][seat],
            best_deal=fields["best"][seat],
            events=fields["events"][seat] or None,
        )
        for seat, player in enumerate(fields["players"])
    ]


#: A step: a game finished at the end of the order played (most), one placed earlier, one at
#: the very time of another (its id decides), one changed, one removed; several in one commit.
_STEP = st.tuples(
    st.sampled_from(["end", "end", "end", "end", "earlier", "same time", "change", "remove"]),
    _result_fields(),
    st.integers(0, 10_000),
)


@pytest.fixture()
def results_db(pg_address: str) -> Iterator[str]:
    Store.open(pg_address).close()  # the schema
    yield pg_address


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(commits=st.lists(st.lists(_STEP, min_size=1, max_size=3), min_size=1, max_size=12))
def test_kept_totals_added_to_equal_a_recount_from_the_results(
    results_db: str, commits: list[list[tuple[str, dict[str, Any], int]]]
) -> None:
    import psycopg

    with psycopg.connect(results_db) as conn:
        conn.execute("DELETE FROM rummy_totals")
        conn.execute("DELETE FROM rummy_results")
        conn.execute("DELETE FROM rummy_game_players")
        conn.execute("DELETE FROM rummy_games")
        games: dict[str, list[Result]] = {}  # what rummy_results holds, by game
        minute = 0
        for number, steps in enumerate(commits):
            old: list[Result] = []
            new: list[Result] = []
            for seq, (kind, fields, pick) in enumerate(steps):
                gone = sorted(g for g in games if g not in {r.game for r in new})
                if kind in ("change", "remove") and gone:
                    game = gone[pick % len(gone)]
                    old.extend(games.pop(game))
                    conn.execute("DELETE FROM rummy_results WHERE game = %s", (game,))
                    if kind == "remove":
                        continue
                    played = old[-1].played
                else:
                    game = f"g{number:03d}{seq}{pick:05d}"
                    if kind == "earlier":
                        played = f"t{pick % (minute + 1):06d}"
                    elif kind == "same time" and games:
                        played = games[sorted(games)[pick % len(games)]][0].played
                    else:
                        minute += 1
                        played = f"t{minute:06d}"
                    if game in games:
                        continue
                rows = _results(game, played, fields)
                games[game] = rows
                new.extend(rows)
                conn.execute(
                    "INSERT INTO rummy_games (id, ruleset, status, played, rev, players, n)"
                    " VALUES (%s, %s, 'active', %s, 1, '[]', 0) ON CONFLICT (id) DO NOTHING",
                    (game, fields["ruleset"], played),
                )
                for r in rows:
                    conn.execute(
                        "INSERT INTO rummy_results (game, player, league, season, ruleset, lowest_wins,"
                        " played, won, deals, deals_won, points, best_deal, events)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        (*r.fields()[:-1], None if r.events is None else psycopg.types.json.Jsonb(r.events)),
                    )
            with conn.cursor() as cursor:
                PgLedger._keep_totals(cursor, old=old, new=new)
            conn.commit()
            kept, afresh = _kept_and_afresh(results_db)
            assert kept == afresh, (number, steps)


# -- each path, through the store --------------------------------------------------------------


def _gin(store: Store, players: tuple[str, str], *, first_wins: bool) -> str:
    """A gin game to 50 in the league "Club", won by its first player or its second."""
    game = store.start_game(ruleset="gin", players=list(players), options={"target": 50}, league="Club")
    a, b = players if first_wins else players[::-1]
    store.add_deal(game.id, {"knocker": a, "deadwood": {a: 0, b: 60}})
    return game.id


def test_a_game_finished_after_the_players_last_one_is_added_to_their_rows(
    pg_address: str, recounts: list[set[tuple[str, str]]]
) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club", season="Spring")
        for first_wins in (True, True, False, True):
            _gin(store, ("Anna", "Bea"), first_wins=first_wins)
        assert recounts == []  # every game at the end of the order played: added to
        kept, afresh = _kept_and_afresh(pg_address)
        assert kept == afresh
        anna = store.player("Anna").id
        rows = _sql(
            pg_address,
            "SELECT games, wins, longest_run, current_run FROM rummy_totals"
            " WHERE player = %s AND all_seasons AND all_rulesets",
            (anna,),
        )
        assert rows == [(4, 3, 2, 1)]


def test_a_game_corrected_after_it_finished_counts_its_players_again(
    pg_address: str, recounts: list[set[tuple[str, str]]]
) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club", season="Spring")
        first = _gin(store, ("Anna", "Bea"), first_wins=True)
        _gin(store, ("Anna", "Cleo"), first_wins=True)
        recounts.clear()
        anna, bea = store.player("Anna").id, store.player("Bea").id
        store.replace_deal(first, 0, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 70}}, why="typo")
        league = store.league("Club").id
        assert recounts == [{(league, anna), (league, bea)}]
        kept, afresh = _kept_and_afresh(pg_address)
        assert kept == afresh


def test_a_game_deleted_counts_its_players_again(
    pg_address: str, recounts: list[set[tuple[str, str]]]
) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club", season="Spring")
        first = _gin(store, ("Anna", "Bea"), first_wins=True)
        _gin(store, ("Anna", "Bea"), first_wins=True)
        recounts.clear()
        store.delete_game(first)
        league = store.league("Club").id
        assert recounts == [{(league, store.player("Anna").id), (league, store.player("Bea").id)}]
        kept, afresh = _kept_and_afresh(pg_address)
        assert kept == afresh
        assert _sql(
            pg_address,
            "SELECT games, longest_run, current_run FROM rummy_totals"
            " WHERE player = %s AND all_seasons AND all_rulesets",
            (store.player("Anna").id,),
        ) == [(1, 1, 1)]


def test_a_game_finished_earlier_in_the_order_played_counts_its_players_again(
    pg_address: str, recounts: list[set[tuple[str, str]]]
) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club", season="Spring")
        early = store.start_game(
            ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club"
        )
        _gin(store, ("Anna", "Cleo"), first_wins=True)  # started after `early`, finished first
        recounts.clear()
        store.add_deal(early.id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 60}})
        league = store.league("Club").id
        # Anna's last game counted was played after this one: counted again; Bea's first: added
        assert recounts == [{(league, store.player("Anna").id)}]
        kept, afresh = _kept_and_afresh(pg_address)
        assert kept == afresh


def test_added_refuses_a_result_not_after_the_last_one_counted() -> None:
    first = Result(game="g1", player="p", league="L", season=None, ruleset="gin", lowest_wins=True,
                   played="t2", won=True, deals=2, deals_won=1, points=10, best_deal=3,
                   events={"out": 1})  # fmt: skip
    rows = added([], [first])
    assert rows is not None
    # every season, one ruleset; every season, every ruleset (no season: those two scopes only)
    assert sorted((r[2], r[4], r[15], r[16], r[17], r[18]) for r in rows) == [
        (True, False, 1, 1, "t2", "g1"),
        (True, True, 1, 1, "t2", "g1"),
    ]
    same_time_before = Result(**{**_fields(first), "game": "g0", "won": False})
    assert added(rows, [same_time_before]) is None  # (t2, g0) comes before (t2, g1)
    after = Result(**{**_fields(first), "game": "g2", "won": False, "events": None, "best_deal": None})
    again = added(rows, [after])
    assert again is not None
    everything = next(r for r in again if r[2] and r[4])
    # games 2, wins 1, deals 4, deals won 2, points 20, lowest 3, highest 3, events, runs 1 / 0
    assert everything[7:] == (2, 1, 4, 2, 20, 3, 3, {"out": 1}, 1, 0, "t2", "g2")


def _fields(result: Result) -> dict[str, Any]:
    return {name: getattr(result, name) for name in Result.__dataclass_fields__}


# -- the upgrade from schema 6 -----------------------------------------------------------------


def test_a_database_of_schema_6_gains_the_runs_columns_when_opened(pg_address: str) -> None:
    with _opened(pg_address) as store:
        store.create_league("Club", season="Spring")
        for first_wins in (True, True, False):
            _gin(store, ("Anna", "Bea"), first_wins=first_wins)
        _gin(store, ("Anna", "Cleo"), first_wins=True)
        before = public_reads(store)
        kept = sorted(_sql(pg_address, "SELECT * FROM rummy_totals"))
    for column in ("current_run", "last_played", "last_game"):  # as version 6 left it
        _sql(pg_address, f"ALTER TABLE rummy_totals DROP COLUMN {column}")
    _sql(pg_address, "UPDATE rummy_meta SET value = '6' WHERE key = 'schema'")
    with _opened(pg_address) as store:
        assert _sql(pg_address, "SELECT value FROM rummy_meta WHERE key = 'schema'") == [
            (str(SCHEMA_VERSION),)
        ]
        assert sorted(_sql(pg_address, "SELECT * FROM rummy_totals")) == kept
        assert differences(before, public_reads(store)) == []
        _gin(store, ("Anna", "Bea"), first_wins=True)  # added to the rows the upgrade counted
        kept, afresh = _kept_and_afresh(pg_address)
        assert kept == afresh
