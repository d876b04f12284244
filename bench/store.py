"""League store benchmark: ten years of a club, then a deal, an open, the standings, the disk.

Builds a league of 40 players, 5,000 games and 50,000 deals (``--quick``: 500 and 5,000) in a
temporary folder and prints:

- **record a deal**: median and p99 of ``Store.add_deal`` (fsyncs included) over 200 deals
  into new games of the large league;
- **open + standings**: a fresh ``Store.open`` of the folder, then the standings of its biggest
  league, in this process and in a fresh process (interpreter start and imports counted
  apart), median and p99 over repeats; and every standings table (each season, each ruleset)
  from a fresh store;
- **bytes on disk per deal**: the folder's bytes over the deals it holds, and where they are;
- **verify and rebuild**: ``Store.verify`` of the whole store, ``Store.restore`` of a whole copy
  (nothing to mend), and a full rebuild: ``Store.restore`` of a folder holding only the files
  that are the store's truth (``--rebuild-keep``, by default one copy of the log: ``facts.jsonl``
  and its sealed segments), then whether the
  rebuilt store's standings equal the original's;
- **what one add_deal touches** inside ``scorer/league`` (``sys.setprofile``), for a new game's
  first deal, a deal into a game in progress, and the first deal after a fresh open: calls per
  module, entries into each module from another, caller-to-callee moves between modules, and
  the module path in order.

The league is seeded through the store's public bulk path: a league export (the file format of
``rummy league export``, docs/cli.md) made in memory from a fixed seed, written to files of at
most 1,000 games, and read by ``Store.import_files`` in one transaction; every game is
validated and scored as any import is. The run says how long that took and what one
``add_deal`` at a time would have taken.

``--peer PATH`` runs the same benchmark (this file, the same sizes and seed) twice in
subprocesses, once on this checkout's code and once with ``PYTHONPATH=PATH`` (for example a
``git worktree`` of an older commit), and prints the figures side by side with their ratios.
Nothing is asserted: the figures are printed (``--json FILE`` writes them too).
``--peer PATH --alternate THIS_DIR PEER_DIR`` times only open + standings, of two stores kept
by ``--keep`` (each with its own code's layout), in fresh processes taking turns, so that on a
loaded machine both sides meet the same load.

    .venv/bin/python bench/store.py --quick                 # 500 games, about a minute
    nice -n 10 .venv/bin/python bench/store.py              # 5,000 games / 50,000 deals
    .venv/bin/python bench/store.py --quick --peer /tmp/old-checkout
    .venv/bin/python bench/store.py --peer /tmp/old-checkout --alternate /tmp/club /tmp/old-club
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from fnmatch import fnmatch
from pathlib import Path
from types import FrameType
from typing import Any

import scorer.league
from scorer.league.store import Store
from scorer.ruleset import load_ruleset

RULESETS = ("gin", "rommi", "basic-rummy", "kalooki")
DEALS_PER_GAME = 10
#: Every game ends after its tenth deal (no target), so each imported game is finished.
OPTIONS: dict[str, Any] = {"deals": DEALS_PER_GAME, "target": None}
GAMES_PER_FILE = 1000
LEAGUE = "Club"
DEVICE = "bench-phone"

Figures = dict[str, dict[str, Any]]


# -- the league, as an export made in memory -------------------------------------------------


def _deal(ruleset: str, players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    if ruleset == "gin":
        knocker, defender = rng.sample(list(players), 2)
        return {"knocker": knocker, "deadwood": {knocker: rng.randint(0, 10), defender: rng.randint(11, 60)}}
    out = rng.choice(list(players))
    return {"out": out, "points": {p: 0 if p == out else rng.randint(1, 60) for p in players}}


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def _id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def export_documents(*, games: int, players: int, seed: int) -> list[dict[str, Any]]:
    """The league as league exports (version 2, docs/cli.md) of at most :data:`GAMES_PER_FILE`
    games each: ten seasons of ten deals a game, each game with its signed events."""
    rng = random.Random(seed)
    names = [f"Player {n:02d}" for n in range(1, players + 1)]
    ids = {name: _id(rng) for name in names}
    start = datetime(2016, 1, 1, 17, tzinfo=UTC)
    seasons = [
        {
            "id": _id(rng),
            "name": str(2016 + year),
            "number": year + 1,
            "created": _stamp(start + timedelta(days=365 * year)),
            "closed": _stamp(start + timedelta(days=365 * (year + 1) - 1)),
        }
        for year in range(10)
    ]
    snapshots = {r: load_ruleset(r, options=OPTIONS).model_dump(mode="json") for r in RULESETS}
    exported = []
    for number in range(games):
        ruleset = RULESETS[number % len(RULESETS)]
        seated = rng.sample(names, 2 if ruleset == "gin" else rng.randint(2, 4))
        played = start + timedelta(days=3650 * number / games)
        events = [
            {"seq": 1, "at": _stamp(played), "by": DEVICE, "action": "started", "deal": None, "why": None}
        ]
        for deal in range(1, DEALS_PER_GAME + 1):
            at = _stamp(played + timedelta(minutes=5 * deal))
            events.append(
                {"seq": deal + 1, "at": at, "by": DEVICE, "action": "recorded", "deal": deal, "why": None}
            )
        events.append({**events[-1], "seq": len(events) + 1, "action": "finished", "deal": None})
        exported.append(
            {
                "id": _id(rng),
                "season": seasons[min(number * 10 // games, 9)]["id"],
                "played": _stamp(played),
                "created": _stamp(played),
                "changed": events[-1]["at"],
                "players": [ids[n] for n in seated],
                "status": "active",
                "events": events,
                "game": {
                    "format": 1,
                    "ruleset": ruleset,
                    "options": OPTIONS,
                    "players": seated,
                    "deals": [_deal(ruleset, seated, rng) for _ in range(DEALS_PER_GAME)],
                },
                "snapshot": snapshots[ruleset],
            }
        )
    league = {"id": _id(rng), "name": LEAGUE, "created": _stamp(start)}
    people = [{"id": ids[n], "name": n, "created": _stamp(start)} for n in names]
    return [
        {
            "format": "rummy-league",
            "version": 2,
            "league": league,
            "seasons": seasons,
            "players": people,
            "games": exported[first : first + GAMES_PER_FILE],
            "nights": [],
        }
        for first in range(0, games, GAMES_PER_FILE)
    ]


def build(folder: Path, *, games: int, players: int, seed: int) -> dict[str, float]:
    """Seed the store in ``folder`` through ``Store.import_files``; the seconds each step took."""
    began = time.perf_counter()
    documents = export_documents(games=games, players=players, seed=seed)
    made = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rummy-bench-export-") as work:
        paths = []
        for n, document in enumerate(documents):
            paths.append(Path(work) / f"club-{n:02d}.json")
            paths[-1].write_text(json.dumps(document), encoding="utf-8")
        written = time.perf_counter()
        store = Store.open(folder)
        store.create_league(LEAGUE, season="now")
        store.import_files(LEAGUE, paths, by=DEVICE)
    imported = time.perf_counter()
    return {"export made": made - began, "files written": written - made, "import": imported - written}


# -- measuring -------------------------------------------------------------------------------


def _percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (p99 of 200 is the 2nd slowest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[min(len(ordered), int(rank)) - 1]


@contextmanager
def _quiet_gc() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _spread(figures: Figures, name: str, seconds: Sequence[float], *, note: str = "") -> None:
    ms = [s * 1000 for s in seconds]
    figures[f"{name}, median"] = {"value": statistics.median(ms), "unit": "ms", "n": len(ms), "note": note}
    figures[f"{name}, p99"] = {"value": _percentile(ms, 0.99), "unit": "ms", "n": len(ms)}


def _once(figures: Figures, name: str, seconds: float, *, note: str = "") -> None:
    figures[name] = {"value": seconds * 1000, "unit": "ms", "note": note}


def biggest_league(store: Store) -> str:
    return max(store.leagues(), key=lambda lg: (len(store.games(league=lg.id)), lg.name)).id


def record_deals(store: Store, *, deals: int, seed: int) -> tuple[list[float], list[float]]:
    """``deals`` add_deal calls into new games of the league, each timed alone: wall and CPU."""
    rng = random.Random(seed)
    names = sorted({p.name for p in store.players(league=LEAGUE)})
    times: list[float] = []
    cpu: list[float] = []
    game_id = ""
    seated: list[str] = []
    ruleset = RULESETS[0]
    for number in range(deals):
        if number % DEALS_PER_GAME == 0:
            ruleset = RULESETS[number // DEALS_PER_GAME % len(RULESETS)]
            seated = rng.sample(names, 2 if ruleset == "gin" else 3)
            game_id = store.start_game(ruleset=ruleset, players=seated, options=OPTIONS, league=LEAGUE).id
        deal = _deal(ruleset, seated, rng)
        began, processed = time.perf_counter(), time.process_time()
        store.add_deal(game_id, deal, by=DEVICE)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - processed)
    return times, cpu


CHILD = """
import json, sys, time
began = time.perf_counter()
from scorer.league.store import Store
imported = time.perf_counter()
store = Store.open(sys.argv[1])
opened = time.perf_counter()
rows = store.standings(sys.argv[2])
done = time.perf_counter()
print(json.dumps({"import": imported - began, "open": opened - imported, "standings": done - opened,
                  "rows": len(rows)}))
"""


def fresh_process(folder: Path, league: str, *, code: str | None = None) -> tuple[float, dict[str, float]]:
    """One fresh interpreter: open the store, the league's standings; its wall time and its parts.

    ``code``: the checkout whose ``scorer`` it runs (``PYTHONPATH``), else this process's."""
    env = {**os.environ, "PYTHONPATH": code} if code is not None else None
    began = time.perf_counter()
    # run beside the folder, never in a checkout: ``python -c`` puts its working folder first on
    # sys.path, and another checkout's store would open (and convert) this one's folder
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder), league],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder.parent,
        env=env,
    )
    return time.perf_counter() - began, json.loads(done.stdout)


def disk(folder: Path) -> tuple[int, int, int, dict[str, int]]:
    """Bytes in the folder's files, bytes allocated for them, files, and bytes by top-level entry."""
    size = allocated = files = 0
    parts: Counter[str] = Counter()
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            size += stat.st_size
            allocated += stat.st_blocks * 512
            files += 1
            parts[path.relative_to(folder).parts[0]] += stat.st_size
    return size, allocated, files, dict(parts.most_common())


def copy_kept(folder: Path, target: Path, patterns: Sequence[str]) -> list[str]:
    """Copy the files of ``folder`` whose relative path matches a pattern; their paths."""
    kept = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and any(fnmatch(name, p) for p in patterns):
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name)
            kept.append(name)
    return kept


# -- what one add_deal touches ---------------------------------------------------------------


def trace_calls(call: Callable[[], object]) -> dict[str, Any]:
    """The Python calls into ``scorer/league`` made by ``call``, by module (``sys.setprofile``).

    ``calls``: function calls whose code is in the module (comprehensions and generators
    included); ``entries``: those made from another module (of the package or not); ``moves``:
    calls from one module of the package into another, by (caller, callee); ``switches``: how
    often the module of one call differs from the module of the call before it; ``path``: the
    modules in the order they were entered, a module repeated once per run of calls in it.
    """
    root = str(Path(scorer.league.__file__).parent) + os.sep
    calls: Counter[str] = Counter()
    entries: Counter[str] = Counter()
    moves: Counter[tuple[str, str]] = Counter()
    order: list[str] = []

    def module(frame: FrameType | None) -> str | None:
        if frame is None:
            return None
        name = frame.f_code.co_filename
        return name[len(root) :].removesuffix(".py") if name.startswith(root) else None

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        callee = module(frame)
        if callee is None:
            return
        calls[callee] += 1
        caller = module(frame.f_back)
        if caller != callee:
            entries[callee] += 1
            if caller is not None:
                moves[(caller, callee)] += 1
        order.append(callee)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    path = [m for n, m in enumerate(order) if n == 0 or order[n - 1] != m]
    return {
        "calls": sum(calls.values()),
        "modules": len(calls),
        "moves": sum(moves.values()),
        "switches": len(path) - 1,
        "by module": {m: {"calls": c, "entries": entries[m]} for m, c in calls.most_common()},
        "moves by pair": {f"{a} -> {b}": n for (a, b), n in moves.most_common()},
        "path": path,
    }


def _print_trace(label: str, trace: dict[str, Any]) -> None:
    print(
        f"{label}: {trace['calls']} calls in {trace['modules']} modules of scorer/league, "
        f"{trace['moves']} moves between them ({trace['switches']} switches in call order)"
    )
    print(
        "  " + ", ".join(f"{m} {v['calls']} ({v['entries']} entries)" for m, v in trace["by module"].items())
    )
    print("  moves: " + ", ".join(f"{pair} {n}" for pair, n in trace["moves by pair"].items()))
    print(f"  in order: {' > '.join(folded(trace['path']))}")


def folded(path: Sequence[str], *, widest: int = 4) -> list[str]:
    """``path`` with each run of a repeated stretch written once: ``(repository > documents) x12``."""
    out: list[str] = []
    at = 0
    while at < len(path):
        best, times = 1, 1
        for width in range(1, widest + 1):
            stretch = list(path[at : at + width])
            count = 1
            while list(path[at + count * width : at + (count + 1) * width]) == stretch:
                count += 1
            if count > 1 and count * width > best * times:
                best, times = width, count
        if times > 1:
            inner = " > ".join(path[at : at + best])
            out.append(f"({inner}) x{times}" if best > 1 else f"{inner} x{times}")
        else:
            out.append(path[at])
        at += best * times
    return out


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = args.games or (500 if args.quick else 5000)
    repeats = args.repeats or 5
    load_before = os.getloadavg()
    figures: Figures = {}
    chosen = args.keep or args.reuse
    folder = Path(chosen) if chosen else Path(tempfile.mkdtemp(prefix="rummy-bench-store-"))
    print(f"scorer from {Path(scorer.__file__).parent}; python {sys.version.split()[0]}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}")
    try:
        if args.reuse:
            print(f"timing the store kept in {folder}")
            steps: dict[str, float] = {}
        else:
            steps = build(folder, games=games, players=args.players, seed=args.seed)
            seeded = sum(steps.values())
            print(
                f"seeded {games} games x {DEALS_PER_GAME} deals, {args.players} players, through "
                f"Store.import_files of {-(-games // GAMES_PER_FILE)} league exports in one "
                f"transaction: {seeded:.1f} s (import {steps['import']:.1f} s)"
            )
            figures["seed through import"] = {"value": seeded, "unit": "s"}
        store = Store.open(folder)
        league = biggest_league(store)
        deals = sum(g.deals for g in store.games(deleted=True))

        with _quiet_gc():
            times, cpu = record_deals(store, deals=args.records, seed=args.seed + 1)
        _spread(figures, "record a deal", times, note=f"{len(times)} add_deal into new games")
        _spread(figures, "record a deal, CPU of this process", cpu)
        if steps:
            estimate = statistics.median(times) * deals
            print(f"  one add_deal at a time, the {deals} deals would have taken about {estimate:.0f} s")
            figures["seed one add_deal at a time (estimate)"] = {"value": estimate, "unit": "s"}

        opens: list[float] = []
        standings: list[float] = []
        for _ in range(repeats * 2):
            with _quiet_gc():
                began = time.perf_counter()
                fresh = Store.open(folder)
                opened = time.perf_counter()
                fresh.standings(league)
                done = time.perf_counter()
            opens.append(opened - began)
            standings.append(done - opened)
        _spread(
            figures, "open + standings, fresh Store", [a + b for a, b in zip(opens, standings, strict=True)]
        )
        _spread(figures, "  of which open", opens)
        _spread(figures, "  of which standings", standings)

        if not args.no_process:
            walls: list[float] = []
            parts: list[dict[str, float]] = []
            for _ in range(repeats):
                wall, part = fresh_process(folder, league)
                walls.append(wall)
                parts.append(part)
            _spread(figures, "fresh process: start, import, open + standings", walls)
            _spread(figures, "fresh process: open + standings", [p["open"] + p["standings"] for p in parts])
            _spread(figures, "fresh process: import scorer.league.store", [p["import"] for p in parts])

        fresh = Store.open(folder)
        seasons = fresh.league(league).seasons
        played = sorted({g.ruleset for g in fresh.games(league=league)})
        with _quiet_gc():
            began = time.perf_counter()
            tables = [fresh.standings(league)]
            tables += [fresh.standings(league, season=s.id) for s in seasons]
            tables += [fresh.standings(league, ruleset=r) for r in played]
            every = time.perf_counter() - began
        _once(figures, f"all {len(tables)} standings tables, fresh Store", every)

        deals = sum(g.deals for g in fresh.games(deleted=True))
        size, allocated, files, where = disk(folder)
        figures["bytes on disk per deal"] = {"value": size / deals, "unit": "B", "note": f"{deals} deals"}
        figures["bytes allocated per deal"] = {"value": allocated / deals, "unit": "B"}
        figures["files"] = {"value": files, "unit": ""}
        print(
            f"on disk: {size / 1e6:.1f} MB in {files} files ({allocated / 1e6:.1f} MB allocated), "
            f"{deals} deals: {size / deals:.0f} bytes a deal"
        )
        print("  " + ", ".join(f"{name} {n / 1e6:.2f} MB" for name, n in where.items()))

        with _quiet_gc():
            began = time.perf_counter()
            problems = Store.verify(folder)
            _once(figures, "Store.verify", time.perf_counter() - began, note=f"{len(problems)} problems")
        with tempfile.TemporaryDirectory(prefix="rummy-bench-copy-") as work:
            whole = Path(work) / "whole"
            shutil.copytree(folder, whole)
            with _quiet_gc():
                began = time.perf_counter()
                mended = Store.restore(whole)
                _once(
                    figures,
                    "Store.restore, a whole store",
                    time.perf_counter() - began,
                    note=f"{len(mended)} repairs",
                )
            rebuilt = Path(work) / "rebuilt"
            rebuilt.mkdir()
            truth = ["facts.jsonl", "facts.*.jsonl.gz"]  # one copy of the log and its segments
            keep = args.rebuild_keep or (truth if (folder / "facts.jsonl").exists() else ["journal.jsonl"])
            kept = copy_kept(folder, rebuilt, keep)
            try:
                with _quiet_gc():
                    began = time.perf_counter()
                    repairs = Store.restore(rebuilt)
                    seconds = time.perf_counter() - began
                same = Store.open(rebuilt).standings(league) == Store.open(folder).standings(league)
                note = f"from {', '.join(kept) or 'no file'}: {len(repairs)} repairs, standings equal: {same}"
                _once(figures, "full rebuild (Store.restore of the kept files)", seconds, note=note)
            except Exception as error:  # a layout that keeps its truth elsewhere: say so, go on
                print(f"full rebuild from {kept or 'no file'} failed: {type(error).__name__}: {error}")

        deal = _deal("gin", ["Player 01", "Player 02"], random.Random(args.seed + 2))
        going = game_of(store)
        store.add_deal(going, deal, by=DEVICE)
        traces = {"add_deal, a game in progress": trace_calls(lambda: store.add_deal(going, deal, by=DEVICE))}
        started = game_of(store)  # a new game is counted in the store's index
        traces["add_deal, a game's first deal"] = trace_calls(
            lambda: store.add_deal(started, deal, by=DEVICE)
        )
        cold = Store.open(folder)
        traces["add_deal, the first after a fresh open"] = trace_calls(
            lambda: cold.add_deal(going, deal, by=DEVICE)
        )
    finally:
        if not chosen:
            shutil.rmtree(folder, ignore_errors=True)
    load_after = os.getloadavg()
    return {
        "scorer": str(Path(scorer.__file__).parent),
        "games": games,
        "load before": load_before,
        "load after": load_after,
        "figures": figures,
        "traces": traces,
    }


def game_of(store: Store) -> str:
    """A new two-player gin game of the league, for one deal to be traced."""
    return store.start_game(
        ruleset="gin", players=["Player 01", "Player 02"], options=OPTIONS, league=LEAGUE
    ).id


def show(result: dict[str, Any]) -> None:
    print(f"{'figure':52} {'value':>10}")
    for name, figure in result["figures"].items():
        note = f"  ({figure['note']})" if figure.get("note") else ""
        print(f"{name:52} {_value(figure):>10}{note}")
    for label, trace in result["traces"].items():
        _print_trace(label, trace)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in result['load after'])}")


def _value(figure: dict[str, Any]) -> str:
    value, unit = figure["value"], figure["unit"]
    if unit == "ms":
        return f"{value:.1f} ms" if value >= 10 else f"{value:.2f} ms"
    if unit == "s":
        return f"{value:.1f} s"
    return f"{value:.0f} {unit}".rstrip()


# -- side by side ------------------------------------------------------------------------------


def side_by_side(args: argparse.Namespace, forwarded: list[str]) -> None:
    """The same benchmark on this checkout and on ``--peer``, one after the other, compared."""
    here = str(Path(__file__).resolve().parents[1])
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="rummy-bench-pair-") as work:
        for label, path in (("this", here), ("peer", str(Path(args.peer).resolve()))):
            out = Path(work) / f"{label}.json"
            print(f"== {label}: PYTHONPATH={path}", flush=True)
            env = {**os.environ, "PYTHONPATH": path}
            command = [sys.executable, str(Path(__file__).resolve()), *forwarded, "--json", str(out)]
            subprocess.run(command, env=env, check=True)
            results[label] = json.loads(out.read_text(encoding="utf-8"))
    this, peer = results["this"], results["peer"]
    print()
    print(f"this: {this['scorer']}\npeer: {peer['scorer']}")
    print(f"{'figure':52} {'this':>10} {'peer':>10} {'this/peer':>9}")
    for name in dict.fromkeys([*this["figures"], *peer["figures"]]):
        a, b = this["figures"].get(name), peer["figures"].get(name)
        ratio = f"{a['value'] / b['value']:.2f}" if a and b and b["value"] else ""
        print(f"{name:52} {_value(a) if a else '-':>10} {_value(b) if b else '-':>10} {ratio:>9}")
    for key in dict.fromkeys([*this["traces"], *peer["traces"]]):
        if key not in this["traces"] or key not in peer["traces"]:
            continue
        a, b = this["traces"][key], peer["traces"][key]
        print(
            f"{key}: calls {a['calls']} vs {b['calls']}, modules {a['modules']} vs {b['modules']}, "
            f"moves {a['moves']} vs {b['moves']}"
        )


def alternate(args: argparse.Namespace) -> None:
    """Open + standings of two kept stores, each by its own code, in fresh processes taking
    turns (this, peer, this, peer, ...): on a loaded machine both sides meet the same load,
    which one run after the other does not."""
    here = str(Path(__file__).resolve().parents[1])
    mine, theirs = (Path(d).resolve() for d in args.alternate)
    sides = (("this", here, mine), ("peer", str(Path(args.peer).resolve()), theirs))
    leagues = {label: _biggest_in(folder, code) for label, code, folder in sides}
    totals: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    opens: dict[str, list[float]] = {label: [] for label, _, _ in sides}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for _ in range(args.repeats or 10):
        for label, code, folder in sides:
            _, part = fresh_process(folder, leagues[label], code=code)
            totals[label].append(part["open"] + part["standings"])
            opens[label].append(part["open"])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"this: {here} on {mine}\npeer: {args.peer} on {theirs}")
    print(f"{'fresh process, taking turns':40} {'this':>10} {'peer':>10} {'this/peer':>9}")
    for name, values in (("open + standings", totals), ("  of which open", opens)):
        for label, pick in (("median", statistics.median), ("p99", _p99)):
            a, b = pick(values["this"]) * 1000, pick(values["peer"]) * 1000
            print(f"{name + ', ' + label:40} {a:>7.0f} ms {b:>7.0f} ms {a / b:>9.2f}")


def _p99(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-99 * len(ordered) // 100) - 1)]


def _biggest_in(folder: Path, code: str) -> str:
    """The id of the league with the most games in the kept store, as its own code reads it."""
    program = (
        "import sys; from scorer.league.store import Store; s = Store.open(sys.argv[1]); "
        "print(max(s.leagues(), key=lambda lg: len(s.games(league=lg.id))).id)"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(folder)],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder.parent,
        env={**os.environ, "PYTHONPATH": code},
    )
    return done.stdout.strip()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 games / 5,000 deals")
    parser.add_argument("--games", type=int, help="games to seed (default 5,000; --quick 500)")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--records", type=int, default=200, help="add_deal calls timed")
    parser.add_argument("--repeats", type=int, help="fresh processes (twice as many fresh Stores); default 5")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--no-process", action="store_true", help="skip the fresh-process figures")
    parser.add_argument(
        "--rebuild-keep",
        nargs="+",
        default=None,
        metavar="GLOB",
        help="the files a full rebuild starts from (default: one copy of the log of facts, facts.jsonl "
        "and its sealed segments, else the earlier layout's journal.jsonl)",
    )
    parser.add_argument("--keep", metavar="DIR", help="build the store in DIR and keep it")
    parser.add_argument("--reuse", metavar="DIR", help="time a store kept by an earlier --keep")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--peer", metavar="PATH", help="run on this checkout and on PATH, side by side")
    parser.add_argument(
        "--alternate",
        nargs=2,
        metavar=("THIS_DIR", "PEER_DIR"),
        help="with --peer: open + standings of two kept stores (--keep), each by its own code, in "
        "fresh processes taking turns (--repeats rounds, default 10)",
    )
    given = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(given)
    if args.alternate:
        if not args.peer:
            parser.error("--alternate compares this checkout with --peer: give --peer PATH")
        alternate(args)
        return
    if args.peer and (args.keep or args.reuse):
        parser.error("--peer builds a store for each side: --keep and --reuse cannot be given with it")
    if args.peer:
        forwarded = _without(given, "--peer", "--json")
        side_by_side(args, forwarded)
        return
    result = run(args)
    show(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")


def _without(argv: Sequence[str], *options: str) -> list[str]:
    """``argv`` less each of ``options`` and its value (``--peer P`` or ``--peer=P``)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in options:
            skip = True
        elif not any(arg.startswith(option + "=") for option in options):
            kept.append(arg)
    return kept


if __name__ == "__main__":
    main()
