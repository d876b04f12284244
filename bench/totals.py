"""The standings' database part at a federation's size, on generated results alone.

Fills ``rummy_games`` and ``rummy_results`` of one league straight by SQL (``--games`` games,
40 players, 2 to 4 a game, four rulesets, four seasons, events in a game of three; no facts:
the ingest of that many facts is bench/server.py --full's and takes hours on a busy machine),
``rummy_totals`` from them as an upgrade from schema 5 does, then prints median and p99 of:

- **kept totals, read**: ``PgLedger.result_totals`` of the whole league (schema 6's rows);
- **schema 5's query**: the three statements over every result row it replaced
  (bench/server.py's ``_results_query``);
- **count one game's players again**: what a commit that changes, removes or places earlier a
  finished game does, its players' rows worked out again from all their results (in a
  transaction rolled back);
- **add a game finished last**: what a commit that finishes a game after every other does
  since schema 7, the same players' rows read and added to (rolled back too).

    .venv/bin/python bench/totals.py --games 100000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from server import _percentile, _results_query  # noqa: E402  (bench/server.py)

from scorer.league import pg, pg_totals  # noqa: E402
from scorer.league.state import CODE_VERSION  # noqa: E402
from scorer.league.store import Store  # noqa: E402

LEAGUE = "bench-league"


def _fill(address: str, games: int) -> None:
    import psycopg

    with psycopg.connect(address) as conn:
        conn.execute(
            "INSERT INTO rummy_games (id, league, season, ruleset, status, played, rev, players, code, n)"
            " SELECT 'g' || lpad(i::text, 7, '0'), %s, 's' || (i * 4 / (%s + 1)), 'r' || (i %% 4),"
            " 'active', to_char(timestamp '2026-01-01' + i * interval '1 minute',"
            " 'YYYY-MM-DD\"T\"HH24:MI:SS'), 1, '[]', %s, 0 FROM generate_series(1, %s) AS i",
            (LEAGUE, games, CODE_VERSION, games),
        )
        conn.execute(
            "INSERT INTO rummy_results (game, player, league, season, ruleset, lowest_wins, played,"
            " won, deals, deals_won, points, best_deal, events)"
            " SELECT g.id, 'p' || ((hashint4(i * 7 + seat) & 65535) %% 40 + seat * 40) %% 160 / 4,"
            " g.league, g.season, g.ruleset, g.ruleset IN ('r0', 'r1'), g.played, seat = i %% (2 + i %% 3),"
            " 10, (i + seat) %% 5, (hashint4(i + seat) & 255) - 60, (hashint4(i - seat) & 63),"
            " CASE WHEN i %% 3 = 0 THEN jsonb_build_object('rummy', seat, 'out', 1) END"
            " FROM generate_series(1, %s) AS i JOIN rummy_games g ON g.id = 'g' || lpad(i::text, 7, '0'),"
            " generate_series(0, 1 + i %% 3) AS seat ON CONFLICT DO NOTHING",
            (games,),
        )
        conn.execute("DELETE FROM rummy_totals")
        conn.execute(pg_totals.KEEP_TOTALS.format(where="true"))
        conn.execute("ANALYZE")


def _timed(call: Callable[[], object], repeats: int) -> dict[str, float]:
    ms = []
    for _ in range(repeats):
        began = time.perf_counter()
        call()
        ms.append((time.perf_counter() - began) * 1000)
    return {"median": statistics.median(ms), "p99": _percentile(ms, 0.99), "n": len(ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    import pg_kit
    import psycopg

    cluster = pg_kit.Cluster(durable=True)
    try:
        address = cluster.database()
        store = Store.open(address)
        began = time.perf_counter()
        _fill(address, args.games)
        print(f"filled {args.games} games in {time.perf_counter() - began:.1f} s")
        ledger: Any = store._ledger
        with psycopg.connect(address) as conn:
            rows = conn.execute("SELECT count(*) FROM rummy_results").fetchone()
            kept = conn.execute("SELECT count(*) FROM rummy_totals").fetchone()
            one = conn.execute("SELECT player FROM rummy_results WHERE game = 'g0000500'").fetchall()
        print(f"{rows[0] if rows else 0} result rows, {kept[0] if kept else 0} rows of kept totals")

        def read() -> object:
            found = ledger.result_totals(LEAGUE, season_id=None, ruleset=None, position=ledger.position)
            assert found is not None
            return found

        writer = psycopg.connect(address)

        def recount() -> None:
            with writer.cursor() as cursor:
                pg.PgLedger._count_totals(cursor, {(LEAGUE, p) for (p,) in one})
            writer.rollback()

        # a game finished after every other, by the players of g0000500 (what a commit that
        # finishes a game at the end of the order played does: their rows added to)
        last = [
            pg_totals.Result(
                game="h0000001",
                player=p,
                league=LEAGUE,
                season="s3",
                ruleset="r1",
                lowest_wins=True,
                played="2099-01-01T00:00:00",
                won=n == 0,
                deals=10,
                deals_won=2,
                points=40 - n,
                best_deal=-5 + n,
                events={"rummy": 1} if n else None,
            )
            for n, (p,) in enumerate(one)
        ]

        def add() -> None:
            with writer.cursor() as cursor:
                pg.PgLedger._keep_totals(cursor, old=[], new=last)
            writer.rollback()

        figures = {
            "kept totals, read": _timed(read, args.repeats),
            "schema 5's query": _timed(lambda: _results_query(address, LEAGUE), args.repeats),
            "count one game's players again": _timed(recount, args.repeats),
            "add a game finished last": _timed(add, args.repeats),
        }
        for name, f in figures.items():
            print(f"{name:31} median {f['median']:8.1f} ms   p99 {f['p99']:8.1f} ms   (n={f['n']})")
        writer.close()
        store.close()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
