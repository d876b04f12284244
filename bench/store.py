"""League store benchmark: ten years of a club, then open, standings and one more deal.

Builds a league of 40 players, 5,000 games and 50,000 deals (ten seasons, one a year; gin,
rommi and basic rummy, ten deals a game) in a temporary folder through the store's import,
then prints:

- the time to open the store and list the league, and to compute all standings (the whole
  league, every season, every ruleset) from a freshly opened store;
- median and p99 time to record one more deal (``Store.add_deal``, fsync included);
- the sizes on disk, the journal's among them;
- the time to verify every file against the journal, and to rebuild every file from the
  journal alone (into an empty folder);
- the same deal recorded into one TinyDB ``JSONStorage`` file holding every game (what
  TinyDB does out of the box: the whole file is rewritten), as the peer.

Targets (docs: the league store): a deal under 50 ms median; open plus all standings under
1 s. Nothing is asserted: the figures are printed.

    .venv/bin/python bench/store.py            # the full league
    .venv/bin/python bench/store.py --games 500 --deals 100   # a quick run
"""

from __future__ import annotations

import argparse
import gc
import random
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from scorer.deal import Deal
from scorer.game import Game
from scorer.gamefile import game_document
from scorer.league.exchange import ImportBatch, IncomingGame, IncomingPlayer, IncomingSeason
from scorer.league.store import Store
from scorer.ruleset import load_ruleset

RULESETS = ("gin", "rommi", "basic-rummy")
DEALS_PER_GAME = 10
OPTIONS: dict[str, Any] = {"deals": DEALS_PER_GAME, "target": None}


def _deal(ruleset: str, players: tuple[str, ...], rng: random.Random) -> dict[str, Any]:
    if ruleset == "gin":
        knocker, defender = rng.sample(players, 2)
        return {"knocker": knocker, "deadwood": {knocker: rng.randint(0, 10), defender: rng.randint(11, 60)}}
    out = rng.choice(players)
    return {"out": out, "points": {p: 0 if p == out else rng.randint(1, 80) for p in players}}


def _game(ruleset: str, players: tuple[str, ...], rng: random.Random) -> Game:
    rules = load_ruleset(ruleset, options=OPTIONS)
    game = Game(ruleset=rules, players=players)
    deals = tuple(Deal.build(**_deal(ruleset, players, rng)) for _ in range(DEALS_PER_GAME))
    return game.with_deals(deals)


def build(folder: Path, *, games: int, players: int, seed: int) -> Store:
    rng = random.Random(seed)
    names = [f"Player {n:02d}" for n in range(1, players + 1)]
    ids = {name: str(uuid.UUID(int=rng.getrandbits(128), version=4)) for name in names}
    start = datetime(2016, 1, 1, 19, tzinfo=UTC)
    seasons = [
        IncomingSeason(
            id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            name=str(2016 + year),
            number=year + 1,
            created=(start + timedelta(days=365 * year)).isoformat(),
            closed=None if year == 9 else (start + timedelta(days=365 * (year + 1) - 1)).isoformat(),
        )
        for year in range(10)
    ]
    incoming = []
    for number in range(games):
        ruleset = RULESETS[number % len(RULESETS)]
        seated = tuple(rng.sample(names, 2 if ruleset == "gin" else rng.randint(2, 4)))
        game = _game(ruleset, seated, rng)
        played = start + timedelta(days=3650 * number / games)
        incoming.append(
            IncomingGame(
                id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                origin=None,
                source="bench",
                document=game_document(game, ruleset_id=ruleset, options=OPTIONS),
                snapshot=game.ruleset.model_dump(mode="json"),
                seats=tuple(IncomingPlayer(ids[n], n) for n in seated),
                deals=len(game.deals),
                season=seasons[min(number * 10 // games, 9)].id,
                played=played.isoformat(),
            )
        )
    store = Store.open(folder)
    store.create_league("Club", season="setup")
    store.import_batch(
        "Club",
        ImportBatch(
            games=tuple(incoming),
            seasons=tuple(seasons),
            players=tuple(IncomingPlayer(ids[n], n) for n in names),
        ),
    )
    return store


def _timed(call: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call (on a shared machine the CPU time is the steadier)."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def _sum(*times: tuple[float, float]) -> tuple[float, float]:
    return sum(t[0] for t in times), sum(t[1] for t in times)


def _show(label: str, times: tuple[float, float], note: str = "") -> None:
    print(f"{label + ':':34} {times[0] * 1000:8.1f}  {times[1] * 1000:8.1f}   {note}".rstrip())


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _size(folder: Path) -> tuple[int, int, int]:
    """Bytes in live files, bytes in backups, and the number of live files."""
    live = backups = files = 0
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        if path.suffix == ".json":
            live += path.stat().st_size
            files += 1
        elif path.name[-2:] in {".1", ".2", ".3"}:
            backups += path.stat().st_size
    return live, backups, files


def _all_standings(store: Store) -> int:
    league = store.league("Club")
    tables = [store.standings("Club")]
    tables += [store.standings("Club", season=s.id) for s in league.seasons]
    tables += [store.standings("Club", ruleset=r) for r in RULESETS]
    return len(tables)


def _peer(store: Store, *, deals: int) -> list[float]:
    """The same deals recorded into one TinyDB JSONStorage file that holds every game."""
    path = Path(tempfile.mkdtemp(prefix="rummy-bench-peer-")) / "tinydb-one-file.json"
    database = TinyDB(path)
    table = database.table("games")
    rows = [{"id": g.id, "document": store.game(g.id).document} for g in store.games()]
    table.insert_multiple(rows)
    times = []
    target = rows[-1]["id"]
    for _ in range(deals):
        row = table.get(Query().id == target)
        assert isinstance(row, dict)
        document = dict(row["document"])
        document["deals"] = [*document.get("deals", []), {"knocker": "Player 01", "deadwood": {}}]
        began = time.perf_counter()
        table.update({"document": document}, Query().id == target)
        times.append(time.perf_counter() - began)
    database.close()
    shutil.rmtree(path.parent, ignore_errors=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--deals", type=int, default=300, help="deals recorded for the median and p99")
    parser.add_argument("--peer-deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep it")
    parser.add_argument("--reuse", metavar="DIR", help="time a league kept by an earlier --keep run")
    args = parser.parse_args()

    chosen = args.reuse or args.keep
    folder = Path(chosen) if chosen else Path(tempfile.mkdtemp(prefix="rummy-bench-"))
    try:
        if args.reuse:
            print(f"timing the league in {folder}: {len(Store.open(folder).games())} games")
        else:
            began = time.perf_counter()
            build(folder, games=args.games, players=args.players, seed=args.seed)
            print(f"built {args.games} games x {DEALS_PER_GAME} deals, {args.players} players in {folder}")
            print(f"  build (one import transaction): {time.perf_counter() - began:.1f} s")

        gc.collect()
        print("                                   wall ms    cpu ms")
        opened: list[Store] = []

        def open_league() -> None:
            opened.append(Store.open(folder))
            opened[-1].league("Club")

        open_t = _timed(open_league)
        store = opened[-1]
        load_t = _timed(lambda: store.played_games("Club"))
        one_t = _timed(lambda: store.standings("Club"))
        _show("open + list the league", open_t)
        _show("read every game's summary", load_t)
        _show("the league's standings from them", one_t, "(openskill ratings included)")
        _show("open + the league's standings", _sum(open_t, load_t, one_t), "(target < 1000 ms)")
        open_t = _timed(open_league)
        store = opened[-1]
        tables: list[int] = []
        all_t = _timed(lambda: tables.append(_all_standings(store)))
        _show(f"all {tables[0]} standings tables, fresh", all_t)
        _show("open + all standings", _sum(open_t, all_t))
        _show("all standings again, same store", _timed(lambda: _all_standings(store)))

        rng = random.Random(args.seed + 1)
        names = [f"Player {n:02d}" for n in range(1, args.players + 1)]
        times: list[float] = []
        cpu_times: list[float] = []
        game_id = ""
        for number in range(args.deals):
            if number % DEALS_PER_GAME == 0:
                ruleset = RULESETS[number // DEALS_PER_GAME % len(RULESETS)]
                seated = tuple(rng.sample(names, 2))
                game_id = store.start_game(
                    ruleset=ruleset, players=list(seated), options=OPTIONS, league="Club"
                ).id
            deal = _deal(ruleset, seated, rng)
            wall, cpu = _timed(lambda: store.add_deal(game_id, deal))  # noqa: B023 - called at once
            times.append(wall)
            cpu_times.append(cpu)
        median, p99 = statistics.median(times), _percentile(times, 0.99)
        print(
            f"record one deal ({len(times)}): median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms wall; "
            f"median {statistics.median(cpu_times) * 1000:.2f} ms cpu   (target median < 50 ms)"
        )

        live, backups, files = _size(folder)
        index = (folder / "index.json").stat().st_size
        shards = [p.stat().st_size for p in folder.glob("games/*/index.json")]
        game_files = [p.stat().st_size for p in folder.glob("games/*/*.json") if p.name != "index.json"]
        print(f"on disk: {live / 1e6:.1f} MB in {files} files, backups {backups / 1e6:.1f} MB (hard links)")
        print(
            f"  index {index / 1e3:.1f} kB; {len(shards)} shard indexes, largest {max(shards) / 1e3:.1f} kB"
        )
        print(f"  game files: median {statistics.median(game_files) / 1e3:.1f} kB")

        journal = folder / "journal.jsonl"
        with journal.open("rb") as handle:
            lines = sum(1 for _ in handle)
        print(f"  journal: {journal.stat().st_size / 1e6:.1f} MB in {lines} lines")
        problems: list[object] = []
        verify_t = _timed(lambda: problems.extend(Store.verify(folder)))
        _show("verify every file against the journal", verify_t, f"({len(problems)} problems)")
        rebuild = Path(tempfile.mkdtemp(prefix="rummy-bench-rebuild-"))
        try:
            shutil.copy(journal, rebuild / journal.name)
            repaired: list[object] = []
            rebuild_t = _timed(lambda: repaired.extend(Store.restore(rebuild)))
            _show("rebuild every file from the journal", rebuild_t, f"({len(repaired)} files written)")
            same = Store.open(rebuild).standings("Club") == Store.open(folder).standings("Club")
            print(f"  rebuilt store's standings equal the original's: {same}")
        finally:
            shutil.rmtree(rebuild, ignore_errors=True)

        peer = _peer(store, deals=args.peer_deals)
        peer_median = statistics.median(peer)
        print(
            f"peer, one TinyDB JSONStorage file ({len(peer)} deals): median {peer_median * 1000:.1f} ms, "
            f"p99 {_percentile(peer, 0.99) * 1000:.1f} ms (no fsync, rewritten in place): "
            f"{peer_median / median:.1f}x the store's median"
        )
    finally:
        if not chosen:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
