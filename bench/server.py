"""The league store on PostgreSQL beside the folder store: a deal, an open, the standings.

Builds the same league (bench/store.py's: 40 players, ``--games`` games of ten deals, 500 by
default) in a temporary folder and in a PostgreSQL database, through ``Store.import_files``,
and prints, each figure for both stores side by side with the ratio PostgreSQL / folder:

- **import**: the seeding, one transaction each;
- **record a deal**: median and p99 of ``Store.add_deal`` over ``--deals`` deals into new
  games, the two stores taking turns deal by deal (so a load on the machine falls on both);
- **open + standings**: a fresh ``Store.open`` and the standings of the league, in this
  process, the two stores taking turns;
- **standings inputs by query** (PostgreSQL only): each player's games, wins and points from
  the read tables, one query (``PgLedger.standings_inputs``).

``--full`` is the club server at the issue's size (``--games 100000``: about 1,000,000 facts),
on PostgreSQL alone (a folder of that size is bench/store.py's): it prints

- **ingest**: the league's facts as phones make them (bench/club_server.py's: a game's start,
  a fact a deal, its end; 12 a game) received in pages of ``--page`` as the sync API receives
  them (each page one transaction with the read tables and results): their number and rate;
- **standings after a deal**: median and p99 of ``Store.standings`` of the whole league, each
  asked right after ``--deals`` new deals (so never the answer remembered for an unchanged
  store: the results table's query, ``PgLedger.result_totals``, and the ratings' new steps);
- **standings query alone**: ``PgLedger.result_totals`` of the league (the database's part:
  since schema 6 the rows of ``rummy_totals``, a row a player and scope);
- **schema 5's query, same database**: the three statements ``result_totals`` ran before
  schema 6 (every result row of the league: totals, events, the longest run by a window), for
  a before/after at the same size in the same run;
- **standings, nothing changed**: asked again (the answer remembered for the state);
- **record a deal**: ``Store.add_deal`` with the results table written in its commit;
- **open + standings**: a fresh ``Store.open`` and the standings (``--repeats`` times);

and checks once that the standings equal the fold of the games in memory.

The database is ``--db postgresql://...``, else a temporary cluster that the bench starts and
stops (tests/pg_kit.py: Debian's ``postgresql``, run as ``nobody`` when root), with its
commits synced to disk as a server's are (``fsync``, ``synchronous_commit`` on), as the folder
store's fsyncs are. Nothing is asserted: the figures are printed (``--json FILE`` writes them
too).

    .venv/bin/python bench/server.py                      # 500 games, about a minute
    .venv/bin/python bench/server.py --full --games 100000  # the issue's size (hours, busy machine)
    .venv/bin/python bench/server.py --db postgresql://club@localhost/rummy_bench
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import store as folder_bench  # noqa: E402  (bench/store.py: the league and its seeding)

from scorer.league.store import Store  # noqa: E402


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[min(len(ordered), int(rank)) - 1]


def _figure(seconds: Sequence[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {"median": statistics.median(ms), "p99": _percentile(ms, 0.99), "n": len(ms)}


def _turns(calls: dict[str, Callable[[], object]], *, repeats: int) -> dict[str, list[float]]:
    """Each call ``repeats`` times, taking turns, each timed alone."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            began = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - began)
    return times


def _deals(
    store: Store, *, deals: int, seed: int, league: str = folder_bench.LEAGUE
) -> list[Callable[[], object]]:
    """``deals`` add_deal calls into new games of ``league`` (each game started as the call
    before its first deal)."""
    import random

    rng = random.Random(seed)
    names = sorted({p.name for p in store.players(league=league)})
    calls: list[Callable[[], object]] = []
    state: dict[str, Any] = {}
    for number in range(deals):
        if number % folder_bench.DEALS_PER_GAME == 0:
            ruleset = folder_bench.RULESETS[
                number // folder_bench.DEALS_PER_GAME % len(folder_bench.RULESETS)
            ]
            seated = rng.sample(names, 2 if ruleset == "gin" else 3)
            state = {"ruleset": ruleset, "seated": seated, "game": None}
        deal = folder_bench._deal(state["ruleset"], state["seated"], rng)

        def call(game: dict[str, Any] = state, deal: dict[str, Any] = deal) -> object:
            if game["game"] is None:
                game["game"] = store.start_game(
                    ruleset=game["ruleset"],
                    players=game["seated"],
                    options=folder_bench.OPTIONS,
                    league=league,
                ).id
            return store.add_deal(game["game"], deal, by=folder_bench.DEVICE)

        calls.append(call)
    return calls


def _seed(store: Store, documents: list[dict[str, Any]], work: Path) -> float:
    paths = []
    for n, document in enumerate(documents):
        paths.append(work / f"club-{n:02d}.json")
        paths[-1].write_text(json.dumps(document), encoding="utf-8")
    began = time.perf_counter()
    store.create_league(folder_bench.LEAGUE, season="now")
    store.import_files(folder_bench.LEAGUE, paths, by=folder_bench.DEVICE)
    return time.perf_counter() - began


def run(args: argparse.Namespace, address: str) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="rummy-bench-server-"))
    try:
        folder = base / "league"
        documents = folder_bench.export_documents(games=args.games, players=40, seed=args.seed)
        stores = {"folder": Store.open(folder), "postgresql": Store.open(address)}
        result: dict[str, Any] = {"games": args.games, "deals per game": folder_bench.DEALS_PER_GAME}
        result["import, s"] = {name: _seed(s, documents, base) for name, s in stores.items()}

        deals = {name: _deals(s, deals=args.deals, seed=args.seed + 1) for name, s in stores.items()}
        times: dict[str, list[float]] = {name: [] for name in stores}
        for number in range(args.deals):
            for name in stores:
                began = time.perf_counter()
                deals[name][number]()
                times[name].append(time.perf_counter() - began)
        result["record a deal"] = {name: _figure(t) for name, t in times.items()}

        league = stores["folder"].league(folder_bench.LEAGUE).name
        opens = {
            "folder": lambda: Store.open(folder).standings(league),
            "postgresql": lambda: _open_and_close(address, league),
        }
        result["open + standings"] = {
            name: _figure(t) for name, t in _turns(opens, repeats=args.repeats).items()
        }
        assert stores["folder"].standings(league) == stores["postgresql"].standings(league)
        ledger: Any = stores["postgresql"]._ledger
        league_id = stores["postgresql"].league(league).id
        query = _turns({"postgresql": lambda: ledger.standings_inputs(league_id)}, repeats=args.repeats * 4)
        result["standings inputs by query"] = {"postgresql": _figure(query["postgresql"])}
        stores["postgresql"].close()
        return result
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_full(args: argparse.Namespace, address: str) -> dict[str, Any]:
    """The club server's figures at ``--games`` on PostgreSQL alone (see the module docstring)."""
    import club_server  # bench/club_server.py: the facts a phone makes, received in pages

    from scorer.league.standings import standings

    store = Store.open(address)
    league_id = str(uuid.uuid4())
    facts = club_server.league_facts(games=args.games, seed=args.seed, league=league_id)
    count, began, pages = 0, time.perf_counter(), 0
    marks: list[tuple[int, float]] = [(0, 0.0)]  # (facts received, seconds) after each page
    for page in club_server._pages(facts, args.page):
        store.receive_facts(league_id, page, source="bench", sender="bench")
        count, pages = count + len(page), pages + 1
        marks.append((count, time.perf_counter() - began))
        if pages % 50 == 0:
            print(f"  {count:,} facts in {marks[-1][1]:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - began
    result: dict[str, Any] = {"full": True, "games": args.games}
    result["deals per game"] = folder_bench.DEALS_PER_GAME
    result["ingest"] = {"facts": count, "seconds": seconds, "facts per second": count / seconds}
    tenth = next(m for m in marks if m[0] >= count * 9 // 10)  # the last tenth's start
    result["ingest"]["last tenth, facts per second"] = (count - tenth[0]) / max(seconds - tenth[1], 1e-9)
    league = store.league(league_id).name
    folded = standings(store.played_games(league), ratings=store.ratings(league))
    result["standings equal the fold"] = store.standings(league) == folded
    recorded, after = [], []
    profile = None
    if args.profile is not None:
        import cProfile

        profile = cProfile.Profile()
    for call in _deals(store, deals=args.deals, seed=args.seed + 1, league=league):
        began = time.perf_counter()
        call()
        recorded.append(time.perf_counter() - began)
        if profile is not None:
            profile.enable()
        began = time.perf_counter()
        store.standings(league)
        after.append(time.perf_counter() - began)
        if profile is not None:
            profile.disable()
    if profile is not None:
        profile.dump_stats(args.profile)
    result["record a deal"] = {"postgresql": _figure(recorded)}
    result["standings after a deal"] = {"postgresql": _figure(after)}
    ledger: Any = store._ledger

    def query() -> object:
        return ledger.result_totals(league_id, season_id=None, ruleset=None, position=store.position)

    alone = _turns({"postgresql": query}, repeats=args.repeats * 4)["postgresql"]
    result["standings query alone"] = {"postgresql": _figure(alone)}
    folded_query = _turns(
        {"postgresql": lambda: _results_query(address, league_id)}, repeats=args.repeats * 4
    )
    result["schema 5's query, same database"] = {"postgresql": _figure(folded_query["postgresql"])}
    same = _turns({"postgresql": lambda: store.standings(league)}, repeats=args.repeats * 4)
    result["standings, nothing changed"] = {"postgresql": _figure(same["postgresql"])}
    store.close()
    opens = _turns({"postgresql": lambda: _open_and_close(address, league)}, repeats=args.repeats)
    result["open + standings"] = {"postgresql": _figure(opens["postgresql"])}
    return result


#: The standings' statements before schema 6 (scorer/league/pg.py's ``result_totals`` at schema
#: 5), each over every result row of the league: kept here to time them beside the kept totals.
_SCHEMA_5_QUERY = (
    "SELECT player, ruleset, lowest_wins, count(*), count(*) FILTER (WHERE won), sum(deals),"
    " sum(deals_won), sum(points), min(best_deal), max(best_deal) FROM rummy_results"
    " WHERE league = %(league)s GROUP BY player, ruleset, lowest_wins",
    "SELECT r.player, r.ruleset, e.key, sum(e.value::integer) FROM rummy_results r,"
    " jsonb_each_text(r.events) e WHERE r.league = %(league)s GROUP BY r.player, r.ruleset, e.key",
    "SELECT player, max(run) FROM (SELECT player, count(*) AS run FROM (SELECT player, won,"
    " count(*) FILTER (WHERE NOT won) OVER (PARTITION BY player ORDER BY played, game) AS lost"
    " FROM rummy_results WHERE league = %(league)s) AS ordered WHERE won GROUP BY player, lost)"
    " AS runs GROUP BY player",
)


def _results_query(address: str, league_id: str) -> object:
    """Schema 5's standings statements in one read-only snapshot, on a connection of the
    bench's own (kept open between calls, as the store's pool keeps its own)."""
    import psycopg

    conn = _CONNECTIONS.get(address)
    if conn is None:
        conn = _CONNECTIONS[address] = psycopg.connect(address)
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return [conn.execute(statement, {"league": league_id}).fetchall() for statement in _SCHEMA_5_QUERY]


_CONNECTIONS: dict[str, Any] = {}


def _open_and_close(address: str, league: str) -> object:
    store = Store.open(address)
    try:
        return store.standings(league)
    finally:
        store.close()


def show(result: dict[str, Any]) -> None:
    print(f"league: {result['games']} games of {result['deals per game']} deals")
    if result.get("full"):
        ingest = result["ingest"]
        print(
            f"{'ingest':28} {ingest['facts']} facts in {ingest['seconds']:.1f} s:"
            f" {ingest['facts per second']:,.0f} facts/s"
            f" (the last tenth {ingest['last tenth, facts per second']:,.0f} facts/s)"
        )
        print(f"{'standings equal the fold':28} {result['standings equal the fold']}")
        names: tuple[str, ...] = (
            "record a deal",
            "standings after a deal",
            "standings query alone",
            "schema 5's query, same database",
            "standings, nothing changed",
            "open + standings",
        )
    else:
        folder_s, pg_s = result["import, s"]["folder"], result["import, s"]["postgresql"]
        ratio = pg_s / folder_s
        print(f"{'import':28} folder {folder_s:8.2f} s   postgresql {pg_s:8.2f} s   ratio {ratio:5.2f}")
        names = ("record a deal", "open + standings", "standings inputs by query")
    for name in names:
        figures = result[name]
        for part in ("median", "p99"):
            cells = [
                f"{store} {figures[store][part]:8.1f} ms"
                for store in ("folder", "postgresql")
                if store in figures
            ]
            ratio = ""
            if len(cells) == 2:
                ratio = f"   ratio {figures['postgresql'][part] / figures['folder'][part]:5.2f}"
            n = next(iter(figures.values()))["n"]
            print(f"{name + ', ' + part:28} {'   '.join(cells)}{ratio}   (n={n})")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", help="an empty PostgreSQL database of its own (default: a temporary cluster)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument(
        "--full", action="store_true", help="PostgreSQL alone at --games (the issue's: 100000)"
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--page", type=int, default=2000, help="with --full: facts a page of the ingest")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the figures to this file too")
    parser.add_argument(
        "--profile", type=Path, help="with --full: cProfile the standings after each deal into this file"
    )
    args = parser.parse_args(argv)
    cluster = None
    if args.db:
        address = args.db
    else:
        import pg_kit

        why = pg_kit.missing()
        if why is not None:
            raise SystemExit(f"bench/server.py: {why}, or pass --db postgresql://...")
        cluster = pg_kit.Cluster(durable=True)
        address = cluster.database()
    try:
        result = run_full(args, address) if args.full else run(args, address)
    finally:
        if cluster is not None:
            cluster.stop()
    show(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
