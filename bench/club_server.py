"""A club server's size (issue 26): ingest of a federation's facts, its standings, a sync.

Generates a league of ``--games`` finished games (10 deals each, 2 to 4 of 40 players, gin,
rommi, basic rummy and Kalooki; the facts a phone makes: ``game.started``, then a
``deal.recorded`` a deal, then ``game.finished``, each game's chained by ``prev``) and prints:

- **ingest**: the facts received by a PostgreSQL store in pages of ``--page`` facts through
  :meth:`Store.receive_facts <scorer.league.store.Store.receive_facts>`, as the sync API
  applies a device's page (each page one transaction, the read tables written with it): the
  seconds, and facts a second, overall and for the last tenth (a store already large);
- **standings**: of the league at that size: in the process that ingested it (median and p99
  of ``--repeats``), from the read tables alone (``standings_inputs``, one query), and a fresh
  process's open + standings;
- **sync of ``--sync-facts`` facts**: a folder store (a device) holding a league of that many
  facts syncs with an empty club server, a real ``rummy app`` on PostgreSQL on loopback with a
  scorer's token (``rummy league sync``'s own code, :func:`scorer.league.sync.sync`, over HTTP):
  the seconds and facts a second, then a second sync with nothing new (what a phone's sync
  costs when nothing changed).

The database is ``--db postgresql://...`` (empty), else a temporary cluster (tests/pg_kit.py)
with commits synced to disk as a server's are. Nothing is asserted; the figures are printed.

    .venv/bin/python bench/club_server.py                       # 100,000 games: 1,100,000 facts
    .venv/bin/python bench/club_server.py --games 5000 --sync-facts 10000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import store as folder_bench  # noqa: E402  (bench/store.py: the deals and options)

from scorer.league.facts import new_fact  # noqa: E402
from scorer.league.store import Store  # noqa: E402
from scorer.ruleset import load_ruleset  # noqa: E402

LEAGUE = "Federation"
PLAYERS = 40
AT = "2026-01-01T18:00:00+00:00"


def league_facts(*, games: int, seed: int, league: str) -> Iterator[dict[str, Any]]:
    """The league's facts (``league``: its id) as a device sends them: the league, its players,
    then each game."""
    rng = random.Random(seed)
    season = str(uuid.uuid4())
    made = new_fact("league.created", at=AT, by="bench", league=league, name=LEAGUE, season=season,
                    season_name="Season 1")  # fmt: skip
    yield made.to_json()
    names = [f"Player {n:02d}" for n in range(1, PLAYERS + 1)]
    ids = {name: str(uuid.uuid4()) for name in names}
    for name in names:
        yield new_fact("player.added", at=AT, by="bench", player=ids[name], name=name).to_json()
    snapshots = {
        r: load_ruleset(r, options=folder_bench.OPTIONS).model_dump(mode="json")
        for r in folder_bench.RULESETS
    }
    start = datetime.fromisoformat(AT)
    for number in range(games):
        # each game a minute after the one before, as a club's games come in: the order played
        # is the order sent (all at one time, the order played was the games' random ids')
        at = (start + timedelta(minutes=number)).isoformat()
        ruleset = folder_bench.RULESETS[number % len(folder_bench.RULESETS)]
        seated = rng.sample(names, 2 if ruleset == "gin" else rng.randint(2, 4))
        game = str(uuid.uuid4())
        document = {"format": 1, "ruleset": ruleset, "options": folder_bench.OPTIONS, "players": seated}
        players = [ids[n] for n in seated]
        fact = new_fact("game.started", at=at, by="bench", game=game, league=league, season=season,
                        players=players, document=document, ruleset=snapshots[ruleset])  # fmt: skip
        yield fact.to_json()
        prev = fact.id
        for deal in range(1, folder_bench.DEALS_PER_GAME + 1):
            fact = new_fact("deal.recorded", at=at, by="bench", prev=prev, game=game, number=deal,
                            deal=folder_bench._deal(ruleset, seated, rng))  # fmt: skip
            yield fact.to_json()
            prev = fact.id
        yield new_fact("game.finished", at=at, by="bench", prev=prev, game=game).to_json()


def _pages(facts: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    page: list[dict[str, Any]] = []
    for fact in facts:
        page.append(fact)
        if len(page) >= size:
            yield page
            page = []
    if page:
        yield page


def _figure(seconds: Sequence[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"median": statistics.median(ms), "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))], "n": len(ms)}


def ingest(address: str, *, games: int, page: int, seed: int) -> dict[str, Any]:
    store = Store.open(address)
    league = str(uuid.uuid4())
    count, began, times = 0, time.perf_counter(), []
    for facts in _pages(league_facts(games=games, seed=seed, league=league), page):
        started = time.perf_counter()
        applied = store.receive_facts(league, facts, source="bench", sender="bench")
        times.append((len(facts), time.perf_counter() - started))
        if applied.conflicts:
            raise SystemExit(f"the generated league met a conflict: {applied.conflicts[:1]}")
        count += len(facts)
        if len(times) % 50 == 0:
            print(f"  {count:,} facts in {time.perf_counter() - began:.0f} s", flush=True)
    total = time.perf_counter() - began
    tail = times[-max(1, len(times) // 10) :]
    tail_rate = sum(n for n, _ in tail) / sum(s for _, s in tail)
    result: dict[str, Any] = {
        "facts": count,
        "seconds": total,
        "facts/s": count / total,
        "last tenth facts/s": tail_rate,
    }
    repeats = 15
    standings = []
    for _ in range(repeats):
        started = time.perf_counter()
        store.standings(LEAGUE)
        standings.append(time.perf_counter() - started)
    result["standings, the ingesting process"] = _figure(standings)
    ledger: Any = store._ledger
    league_id = store.league(LEAGUE).id
    query = []
    for _ in range(repeats):
        started = time.perf_counter()
        ledger.standings_inputs(league_id)
        query.append(time.perf_counter() - started)
    result["standings inputs by query"] = _figure(query)
    store.close()
    child = (
        "import sys, time; began = time.perf_counter()\n"
        "from scorer.league.store import Store\n"
        f"s = Store.open(sys.argv[1]); s.standings({LEAGUE!r})\n"
        "print(time.perf_counter() - began)"
    )
    fresh = []
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", child, address], capture_output=True, text=True, check=True
        )
        fresh.append(float(done.stdout.strip().splitlines()[-1]))
    result["fresh process: open + standings"] = _figure(fresh)
    return result


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def sync_figure(cluster: Any, *, facts: int, page: int, seed: int) -> dict[str, Any]:
    from scorer.league.sync import HttpTransport, sync

    games = max(1, (facts - 1 - PLAYERS) // (folder_bench.DEALS_PER_GAME + 2))
    work = Path(tempfile.mkdtemp(prefix="rummy-bench-sync-"))
    address = cluster.database()
    server_store = Store.open(address)
    _, token = server_store.add_token("bench phone", "director")
    server_store.close()
    port = _free_port()
    env = {**os.environ, "RUMMY_HOST": "127.0.0.1", "RUMMY_PORT": str(port), "RUMMY_DB": address,
           "FLET_WEB_NO_CDN": "1", "FLET_FORCE_WEB_SERVER": "1"}  # fmt: skip
    env.pop("FLET_SERVER_PORT", None)
    server = subprocess.Popen([sys.executable, "-m", "scorer.ui"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        device = Store.open(work / "device")
        league = str(uuid.uuid4())
        for facts_page in _pages(league_facts(games=games, seed=seed + 1, league=league), page):
            device.receive_facts(league, facts_page, source="bench")
        held = sum(1 for _ in device.facts_since(0))
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the club server did not start") from None
                time.sleep(0.2)
        transport = HttpTransport(f"http://127.0.0.1:{port}/", token)
        began = time.perf_counter()
        report = sync(device, transport, league=LEAGUE)
        first = time.perf_counter() - began
        began = time.perf_counter()
        again = sync(device, transport, league=LEAGUE)
        second = time.perf_counter() - began
        return {
            "facts on the device": held,
            "sent": report.sent,
            "seconds": first,
            "facts/s": report.sent / first if first else 0.0,
            "a sync with nothing new, ms": second * 1000,
            "sent again": again.sent,
            "received again": again.received,
        }
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def show(result: dict[str, Any]) -> None:
    ing = result["ingest"]
    print(f"ingest: {ing['facts']:,} facts ({result['games']:,} games) in {ing['seconds']:.1f} s: "
          f"{ing['facts/s']:,.0f} facts/s overall, "
          f"{ing['last tenth facts/s']:,.0f} facts/s in the last tenth")  # fmt: skip
    for name in (
        "standings, the ingesting process",
        "standings inputs by query",
        "fresh process: open + standings",
    ):
        fig = ing[name]
        print(f"{name:40} median {fig['median']:9.1f} ms   p99 {fig['p99']:9.1f} ms   (n={fig['n']})")
    if "sync" in result:
        s = result["sync"]
        print(f"sync: {s['sent']:,} facts sent to an empty club server over HTTP in {s['seconds']:.2f} s "
              f"({s['facts/s']:,.0f} facts/s); again with nothing new: "
              f"{s['a sync with nothing new, ms']:.0f} ms "
              f"(sent {s['sent again']}, received {s['received again']})")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100_000, help="games to ingest (12 facts each)")
    parser.add_argument("--page", type=int, default=2000, help="facts a page (the sync API's most)")
    parser.add_argument("--sync-facts", type=int, default=10_000, help="facts a device syncs (0: no sync)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the figures to this file too")
    args = parser.parse_args(argv)
    import pg_kit

    why = pg_kit.missing()
    if why is not None:
        raise SystemExit(f"bench/club_server.py: {why}")
    cluster = pg_kit.Cluster(durable=True)
    try:
        result: dict[str, Any] = {"games": args.games}
        result["ingest"] = ingest(cluster.database(), games=args.games, page=args.page, seed=args.seed)
        if args.sync_facts:
            result["sync"] = sync_figure(cluster, facts=args.sync_facts, page=args.page, seed=args.seed)
    finally:
        cluster.stop()
    show(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
