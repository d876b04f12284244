"""Benchmark of the arrangement solver: time per hand, peers, and the oracle.

Run ``.venv/bin/python bench/solver.py`` (or ``make bench``); ``--help`` lists the
flags, ``bench/README.md`` says what each hand set is and shows figures.

Every hand is solved by a fresh :class:`~scorer.solver.Solver`, as
:func:`~scorer.solver.best_arrangement` does, so no sub-hand memo is carried from
one hand to the next; building the solver is inside the timed region. A hand's
time is the least of ``--repeat`` such runs (3 by default). The
garbage collector is off inside each timed loop (collected before, switched back
on after), so that a collection paid for by earlier hands' garbage does not land
on one hand's time; ``--gc`` leaves it on. Times are printed, never asserted:
the run fails only when the solver disagrees with the brute-force oracle.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from peers import Peer, Task, load_peers

from scorer.cards import DECK, JOKER, Card, format_cards
from scorer.melds import check_meld, run_windows
from scorer.oracle import least_deadwood
from scorer.ruleset import Ruleset, load_ruleset
from scorer.solver import Arrangement, Solver

DEFAULT_SEED = 20240611
#: Hands per gin set and per 15-card set (the 15-card sets take ten times as long).
DEFAULT_HANDS = 1000
DEFAULT_HANDS_FIFTEEN = 500
#: Hands per worst-case set (16-card Kalooki and 20-card two-deck hands with 4 jokers).
DEFAULT_HANDS_WORST = 100
#: Worst-case 16-card hands the oracle checks (a 16-card discard is 16 brute forces of 15 cards).
WORST_ORACLE = 3
#: Hands of each set checked against the brute-force oracle (it is exponential).
DEFAULT_ORACLE_GIN = 200
DEFAULT_ORACLE_FIFTEEN = 30
#: Timed runs of each hand; the least counts (see :func:`time_engines`).
DEFAULT_REPEAT = 3
#: Untimed runs of each engine before a set is timed.
WARMUP_HANDS = 5
#: Peer median / our median that the project aims for on every gin set.
PEER_RATIO_TARGET = 2.0
P99_TARGET_MS = 16.0
#: The largest Boathouse hands take up to a second each: one hand in this many of a worst-case set.
BOATHOUSE_SHARE = 5
#: Every hand a variant can deal (dealt size + 1 at the discard): its slowest answer.
MAX_TARGET_MS = 16.0
#: Any accepted input, however large: its slowest answer.
ANY_INPUT_TARGET_MS = 1000.0

TASK_TEXT: dict[Task, str] = {
    "best": "Solver.best: least deadwood of the hand",
    "best_discard": "Solver.best_discard: least deadwood after the best discard",
}


# -- hand sets --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSet:
    """Hands dealt from one seed, the tasks timed on them, and how many the oracle checks."""

    name: str
    description: str
    ruleset: Ruleset
    hands: tuple[tuple[Card, ...], ...]
    tasks: tuple[Task, ...]
    oracle_hands: int
    with_peers: bool


def random_hand(rng: random.Random, *, size: int, decks: int, jokers: int) -> tuple[Card, ...]:
    """``size`` cards: natural cards dealt from ``decks`` shuffled decks, then ``jokers`` jokers."""
    hand = [*rng.sample(DECK * decks, size - jokers), *[JOKER] * jokers]
    rng.shuffle(hand)
    return tuple(hand)


def random_meld(rng: random.Random, ruleset: Ruleset) -> list[int]:
    """Card indices of a legal run (any length 3-5 the ruleset allows) or set of distinct suits."""
    if rng.random() < 0.5:
        longest = min(5, ruleset.run_max or 13)
        length = min(longest, max(ruleset.run_min, rng.choice((3, 3, 3, 4, 4, 5))))
        window = rng.choice(run_windows(length, ruleset))
        suit = rng.randrange(4)
        return [suit * 13 + rank - 1 for rank in window]
    size = min(ruleset.set_max, 4, max(ruleset.set_min, rng.choice((3, 3, 4))))
    rank = rng.randrange(13)
    return [suit * 13 + rank for suit in rng.sample(range(4), size)]


def dense_hand(
    rng: random.Random, ruleset: Ruleset, *, size: int, decks: int, jokers: int, extras: int
) -> tuple[Card, ...]:
    """A hand built from random melds, then ``extras`` random cards, then ``jokers`` jokers.

    Melds may overlap (a run and a set sharing a card), which is what makes a
    hand hard: a card already dealt is reused, or with two decks dealt again
    half the time. Melds are added while they fit in ``size - extras`` cards;
    random cards fill the rest. Finally ``jokers`` cards, most of them meld
    cards, are replaced by jokers, which then stand in for what they replaced.
    """
    counts = [0] * 52
    indices: list[int] = []
    target = size - extras
    for _ in range(60):  # a bounded number of tries to fill the meld part exactly
        if len(indices) >= target:
            break
        meld = random_meld(rng, ruleset)
        new = [i for i in meld if not counts[i] or (counts[i] < decks and rng.random() < 0.5)]
        if not new or len(indices) + len(new) > target:
            continue
        for i in new:
            counts[i] += 1
        indices.extend(new)
    while len(indices) < size:
        i = rng.randrange(52)
        if counts[i] < decks:
            counts[i] += 1
            indices.append(i)
    cards = [DECK[i] for i in indices]
    for position in rng.sample(range(size), jokers):
        cards[position] = JOKER
    rng.shuffle(cards)
    return tuple(cards)


def clustered_hand(rng: random.Random, *, size: int, jokers: int) -> tuple[Card, ...]:
    """A worst case for the joker search: two decks' cards of 4-8 neighbouring ranks in 2-4
    suits, so that nearly every card fits many runs and sets, plus ``jokers`` jokers."""
    low = rng.randrange(0, 6)
    ranks = range(low, min(13, low + rng.randrange(4, 9)))
    suits = rng.sample(range(4), rng.randrange(2, 5))
    pool = [DECK[suit * 13 + rank] for suit in suits for rank in ranks] * 2
    hand = [*rng.sample(pool, size - jokers), *[JOKER] * jokers]
    rng.shuffle(hand)
    return tuple(hand)


def build_sets(
    *,
    seed: int,
    gin_hands: int,
    fifteen_hands: int,
    oracle_gin: int,
    oracle_fifteen: int,
    worst_hands: int = DEFAULT_HANDS_WORST,
) -> list[HandSet]:
    gin = load_ruleset("gin")
    kalooki = load_ruleset("kalooki")

    def rng(name: str) -> random.Random:
        # A string seed is hashed with SHA-512: the same hands on every machine and run.
        return random.Random(f"{seed}:{name}")

    sets: list[HandSet] = []
    for size in (10, 11):
        tasks: tuple[Task, ...] = ("best",) if size == 10 else ("best", "best_discard")
        r = rng(f"gin-{size}-random")
        sets.append(
            HandSet(
                name=f"gin-{size}-random",
                description=f"random {size}-card gin hands (one deck)",
                ruleset=gin,
                hands=tuple(random_hand(r, size=size, decks=1, jokers=0) for _ in range(gin_hands)),
                tasks=tasks,
                oracle_hands=oracle_gin,
                with_peers=True,
            )
        )
    for size in (10, 11):
        tasks = ("best",) if size == 10 else ("best", "best_discard")
        r = rng(f"gin-{size}-dense")
        sets.append(
            HandSet(
                name=f"gin-{size}-dense",
                description=f"meld-dense {size}-card gin hands (random runs and sets + 2 random cards)",
                ruleset=gin,
                hands=tuple(
                    dense_hand(r, gin, size=size, decks=1, jokers=0, extras=2) for _ in range(gin_hands)
                ),
                tasks=tasks,
                oracle_hands=oracle_gin,
                with_peers=True,
            )
        )
    for kind in ("random", "dense"):
        for jokers in range(5):
            name = f"kalooki-15-{kind}-j{jokers}"
            r = rng(name)
            if kind == "random":
                dealt = tuple(random_hand(r, size=15, decks=2, jokers=jokers) for _ in range(fifteen_hands))
                text = f"random 15-card Kalooki hands with {jokers} joker(s) (two decks)"
            else:
                dealt = tuple(
                    dense_hand(r, kalooki, size=15, decks=2, jokers=jokers, extras=3)
                    for _ in range(fifteen_hands)
                )
                text = f"meld-dense 15-card Kalooki hands with {jokers} joker(s) (runs and sets + 3 random)"
            sets.append(
                HandSet(
                    name=name,
                    description=text,
                    ruleset=kalooki,
                    hands=dealt,
                    tasks=("best",),
                    oracle_hands=oracle_fifteen,
                    with_peers=False,
                )
            )
    # Worst cases: the largest hand Kalooki deals (15 cards, 16 at the discard) and 20-card
    # two-deck hands, each with 4 jokers, dealt from a narrow block of cards.
    rommi = load_ruleset("rommi")
    for ruleset, size in ((kalooki, 16), (rommi, 20)):
        name = f"{ruleset.id}-{size}-worst-j4"
        r = rng(name)
        sets.append(
            HandSet(
                name=name,
                description=f"{size}-card {ruleset.name} hands with 4 jokers, two decks' cards of "
                "4-8 neighbouring ranks in 2-4 suits",
                ruleset=ruleset,
                hands=tuple(clustered_hand(r, size=size, jokers=4) for _ in range(worst_hands)),
                tasks=("best", "best_discard"),
                oracle_hands=min(oracle_fifteen, WORST_ORACLE) if size == 16 else 0,
                with_peers=False,
            )
        )
    # The largest hands a deal accepts: a Boathouse loser's hand, melded before counting,
    # grows over the deal (a discard taken brings a stock card). One deck: 30 cards and the
    # most two players can hold (44), with both jokers; two decks (seven players): 48 cards
    # with all four jokers. "worst": meld-dense, a few random cards left over. "dealt": dealt
    # at random from the decks, meld-dense yet with a card or a few no arrangement melds,
    # which a search must prove; one such hand of 44 took 20 s before the searches could
    # start their ranks elsewhere than at the ace (see Solver._race). (A Carousel hand grows
    # too, but is never melded: ``arrange`` and the referee take at most a hand in a turn.)
    boathouse = load_ruleset("boathouse")
    for kind, size, decks, jokers in (
        ("worst", 30, 1, 2),
        ("worst", 44, 1, 2),
        ("worst", 48, 2, 4),
        ("dealt", 44, 1, 2),
        ("dealt", 36, 2, 4),
        ("dealt", 48, 2, 4),
    ):
        name = f"boathouse-{size}-{kind}-j{jokers}"
        r = rng(name)
        how = "random runs and sets + 2 random cards" if kind == "worst" else "dealt at random"
        sets.append(
            HandSet(
                name=name,
                description=f"{size}-card {boathouse.name} hands, {jokers} jokers, {decks} deck(s): {how}",
                ruleset=boathouse,
                hands=tuple(
                    dense_hand(r, boathouse, size=size, decks=decks, jokers=jokers, extras=2)
                    if kind == "worst"
                    else random_hand(r, size=size, decks=decks, jokers=jokers)
                    for _ in range(max(3, worst_hands // BOATHOUSE_SHARE))
                ),
                tasks=("best",),
                oracle_hands=0,
                with_peers=False,
            )
        )
    return sets


# -- timing -----------------------------------------------------------------------------


@dataclass(slots=True)
class Engine:
    """One way to answer a task: ours or a peer's. ``run`` returns the least deadwood."""

    name: str
    label: str
    prepare: Callable[[Sequence[Card]], Any]
    run: Callable[[Any], int]
    times_ns: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)


def ours(task: Task, ruleset: Ruleset) -> Engine:
    def best(hand: Any) -> int:
        return Solver(ruleset).best(hand).deadwood_points

    def best_discard(hand: Any) -> int:
        return Solver(ruleset).best_discard(hand).arrangement.deadwood_points

    run = best if task == "best" else best_discard
    return Engine("ours", f"Solver(ruleset).{task}, fresh solver per hand", tuple, run)


def time_engines(
    engines: list[Engine],
    hands: Sequence[tuple[Card, ...]],
    *,
    repeat: int,
    keep_gc: bool,
    cpu: bool = False,
) -> list[tuple[Engine, str]]:
    """Time every engine on every hand, interleaved hand by hand.

    A hand's time is the least of ``repeat`` runs, each from scratch (a fresh
    solver for ours): on a shared machine the least is the run that nothing
    else interrupted, while a hand that is slow in itself stays slow in every
    run. Interleaving spreads any slow spell of the machine over all engines
    alike. Each engine's input is prepared (our cards turned into its cards)
    before the loop, untimed.

    A peer that raises is dropped from the set, and returned with the reason;
    our solver raising is a bug, and the error goes up.
    """
    failed: list[tuple[Engine, str]] = []
    live: list[tuple[Engine, list[Any]]] = []
    for engine in engines:
        try:
            inputs = [engine.prepare(hand) for hand in hands]
            for item in inputs[:WARMUP_HANDS]:
                engine.run(item)
        except Exception as exc:
            if engine is engines[0]:
                raise
            failed.append((engine, f"{type(exc).__name__}: {exc}"))
            continue
        live.append((engine, inputs))
    # CPU time of this process leaves out the time other processes take the core away.
    clock = time.process_time_ns if cpu else time.perf_counter_ns
    dropped = False  # a peer failed in the loop: skip it from then on
    gc.collect()
    if not keep_gc:
        gc.disable()
    try:
        for index, hand in enumerate(hands):
            for engine, inputs in live:
                if dropped and any(engine is gone for gone, _ in failed):
                    continue
                item = inputs[index]
                least = 0
                value = 0
                try:
                    for attempt in range(repeat):
                        start = clock()
                        value = engine.run(item)
                        elapsed = clock() - start
                        if attempt == 0 or elapsed < least:
                            least = elapsed
                except Exception as exc:
                    if engine is engines[0]:
                        raise
                    failed.append((engine, f"{type(exc).__name__} on {format_cards(hand)}: {exc}"))
                    dropped = True
                    continue
                engine.times_ns.append(least)
                engine.values.append(value)
    finally:
        gc.enable()
    for engine, _ in failed:
        engines.remove(engine)
    return failed


def percentile(sorted_ns: Sequence[int], q: float) -> int:
    """Nearest-rank percentile: the smallest time at or above a fraction ``q`` of the hands."""
    return sorted_ns[max(0, math.ceil(q * len(sorted_ns)) - 1)]


@dataclass(frozen=True, slots=True)
class Figures:
    median_ms: float
    p99_ms: float
    max_ms: float
    hands_per_s: float

    @classmethod
    def of(cls, times_ns: Sequence[int]) -> Figures:
        ordered = sorted(times_ns)
        total = sum(ordered)
        return cls(
            median_ms=statistics.median(ordered) / 1e6,
            p99_ms=percentile(ordered, 0.99) / 1e6,
            max_ms=ordered[-1] / 1e6,
            hands_per_s=len(ordered) / (total / 1e9) if total else math.inf,
        )


# -- the oracle -------------------------------------------------------------------------


def arrangement_problem(hand: Sequence[Card], arrangement: Arrangement, ruleset: Ruleset) -> str | None:
    """Why the arrangement is not a legal arrangement of exactly these cards, or None."""
    for meld in arrangement.melds:
        verdict = check_meld(meld, ruleset)
        if not verdict.valid:
            return f"illegal meld {format_cards(meld)}: {verdict.reason}"
    placed = Counter(c.undeclared for meld in arrangement.melds for c in meld)
    placed.update(c.undeclared for c in arrangement.deadwood)
    if placed != Counter(c.undeclared for c in hand):
        return f"cards placed {sorted(map(str, placed.elements()))} are not the hand"
    points = sum(ruleset.points(c) for c in arrangement.deadwood)
    if points != arrangement.deadwood_points:
        return f"deadwood {format_cards(arrangement.deadwood)} is {points}, not {arrangement.deadwood_points}"
    return None


def oracle_check(hand: tuple[Card, ...], task: Task, ruleset: Ruleset) -> tuple[str | None, int]:
    """A fresh solver's answer against the brute force: a sentence when they differ, and
    how many cards the solver melded."""
    solver = Solver(ruleset)
    if task == "best":
        arrangement = solver.best(hand)
        rest: Sequence[Card] = hand
        expected = least_deadwood(hand, ruleset)
    else:
        choice = solver.best_discard(hand)
        arrangement = choice.arrangement
        if choice.discard not in {c.undeclared for c in hand}:
            return f"{format_cards(hand)}: discard {choice.discard} is not in the hand", 0
        rest = list(hand)
        rest.remove(next(c for c in rest if c.undeclared == choice.discard))
        expected = min(
            least_deadwood([c for j, c in enumerate(hand) if j != i], ruleset) for i in range(len(hand))
        )
    melded = sum(len(meld) for meld in arrangement.melds)
    problem = arrangement_problem(rest, arrangement, ruleset)
    if problem:
        return f"{format_cards(hand)}: {problem}", melded
    if arrangement.deadwood_points != expected:
        return f"{format_cards(hand)}: solver {arrangement.deadwood_points}, oracle {expected}", melded
    return None, melded


# -- the run ----------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }


def run_set(
    hand_set: HandSet,
    peers: list[Peer],
    *,
    repeat: int,
    keep_gc: bool,
    show: Callable[[str], None],
    cpu: bool = False,
) -> tuple[dict[str, Any], int]:
    """Time, compare and check one set; its figures and its count of oracle disagreements."""
    hands = hand_set.hands
    size = len(hands[0])
    show(f"\n== {hand_set.name}: {len(hands)} {hand_set.description}")
    result: dict[str, Any] = {"name": hand_set.name, "description": hand_set.description, "hands": len(hands)}
    tasks: list[dict[str, Any]] = []
    disagreements = 0
    for task in hand_set.tasks:
        engines = [ours(task, hand_set.ruleset)]
        if hand_set.with_peers:
            for peer in peers:
                for way in peer.ways(task, size):
                    engines.append(Engine(way.name, way.label, way.prepare, way.run))
        failed = time_engines(engines, hands, repeat=repeat, keep_gc=keep_gc, cpu=cpu)
        mine = Figures.of(engines[0].times_ns)
        show(f"  {TASK_TEXT[task]}")
        for engine, reason in failed:
            show(f"    {engine.name} failed and is left out: {reason}")
        show(
            f"    {'engine':<14} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'hands/s':>9}"
            f" {'peer/ours':>10}  disagreements with ours"
        )
        rows: list[dict[str, Any]] = []
        for engine in engines:
            figures = Figures.of(engine.times_ns)
            row: dict[str, Any] = {
                "engine": engine.name,
                "label": engine.label,
                "median_ms": round(figures.median_ms, 4),
                "p99_ms": round(figures.p99_ms, 4),
                "max_ms": round(figures.max_ms, 4),
                "hands_per_s": round(figures.hands_per_s, 1),
            }
            line = (
                f"    {engine.name:<14} {figures.median_ms:>10.3f} {figures.p99_ms:>9.3f}"
                f" {figures.max_ms:>9.3f} {figures.hands_per_s:>9.0f}"
            )
            if engine is not engines[0]:
                ratio = figures.median_ms / mine.median_ms
                differ = [
                    i for i, (a, b) in enumerate(zip(engine.values, engines[0].values, strict=True)) if a != b
                ]
                row["ratio"] = round(ratio, 3)
                row["disagreements"] = len(differ)
                line += f" {ratio:>9.2f}x  {len(differ)} of {len(hands)}"
                if differ:
                    first = differ[0]
                    line += (
                        f" (e.g. {format_cards(hands[first])}: ours {engines[0].values[first]},"
                        f" {engine.name} {engine.values[first]})"
                    )
            rows.append(row)
            show(line)
        checked = min(hand_set.oracle_hands, len(hands))
        verdicts = [oracle_check(h, task, hand_set.ruleset) for h in hands[:checked]]
        problems = [problem for problem, _ in verdicts if problem]
        disagreements += len(problems)
        show(f"    oracle disagreements: {len(problems)} of {checked}")
        melded: float | None = None
        if checked:
            kept = sum(len(h) - (task == "best_discard") for h in hands[:checked])
            melded = sum(m for _, m in verdicts) / kept
            show(f"    cards melded in those hands: {melded:.0%}")
        for problem in problems[:5]:
            show(f"      {problem}")
        tasks.append(
            {
                "task": task,
                "engines": rows,
                "oracle": {"checked": checked, "disagreements": len(problems)},
                "melded_fraction": None if melded is None else round(melded, 3),
            }
        )
    result["tasks"] = tasks
    return result, disagreements


def targets(sets: list[dict[str, Any]], *, oracle_checked: int, oracle_wrong: int) -> list[dict[str, Any]]:
    """The project's aims, each with what this run measured. Printed, never asserted."""
    found: list[dict[str, Any]] = []
    for result in sets:
        for task in result["tasks"]:
            for row in task["engines"]:
                if row["engine"] == "rlcard":
                    found.append(
                        {
                            "target": f"median at least {PEER_RATIO_TARGET:g}x faster than RLCard",
                            "where": f"{result['name']} {task['task']}",
                            "measured": f"{row['ratio']:.2f}x",
                            "met": row["ratio"] >= PEER_RATIO_TARGET,
                        }
                    )
        if result["name"].startswith("kalooki-15-") and result["name"].endswith("-j4"):
            p99 = result["tasks"][0]["engines"][0]["p99_ms"]
            found.append(
                {
                    "target": f"p99 under {P99_TARGET_MS:g} ms on 15-card hands with 4 jokers",
                    "where": result["name"],
                    "measured": f"{p99:.3f} ms",
                    "met": p99 < P99_TARGET_MS,
                }
            )
        if "-worst-" in result["name"] or "-dealt-" in result["name"]:
            dealt = result["name"].startswith("kalooki-16")
            limit = MAX_TARGET_MS if dealt else ANY_INPUT_TARGET_MS
            for task in result["tasks"]:
                slowest = task["engines"][0]["max_ms"]
                found.append(
                    {
                        "target": f"max under {limit:g} ms "
                        + ("on hands a variant deals (size + 1)" if dealt else "on any accepted hand"),
                        "where": f"{result['name']} {task['task']}",
                        "measured": f"{slowest:.3f} ms",
                        "met": slowest < limit,
                    }
                )
    found.append(
        {
            "target": "zero oracle disagreements",
            "where": "all sets",
            "measured": f"{oracle_wrong} of {oracle_checked}",
            "met": oracle_wrong == 0,
        }
    )
    return found


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time the exact arrangement solver on fixed-seed hand sets, beside RLCard and "
        "OpenSpiel when installed, and check it against the brute-force oracle."
    )
    parser.add_argument("--quick", action="store_true", help="small sets, for a CI smoke run")
    parser.add_argument(
        "--hands",
        type=int,
        metavar="N",
        help=f"hands in every set (default {DEFAULT_HANDS} per gin set and "
        f"{DEFAULT_HANDS_FIFTEEN} per 15-card set, quick 50)",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, metavar="S", help=f"deal seed (default {DEFAULT_SEED})"
    )
    parser.add_argument("--no-peers", action="store_true", help="do not run RLCard and OpenSpiel")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE")
    parser.add_argument(
        "--oracle-gin",
        type=int,
        metavar="N",
        help=f"gin hands per set checked by the oracle (default {DEFAULT_ORACLE_GIN})",
    )
    parser.add_argument(
        "--oracle-15",
        type=int,
        metavar="N",
        dest="oracle_fifteen",
        help=f"15-card hands per set checked by the oracle (default {DEFAULT_ORACLE_FIFTEEN})",
    )
    parser.add_argument("--only", metavar="TEXT", help="run only the sets whose name contains TEXT")
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="R",
        help=f"runs of each hand, the least counts (default {DEFAULT_REPEAT}, quick 1)",
    )
    parser.add_argument("--gc", action="store_true", help="leave the garbage collector on while timing")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the CPU this process uses, not the wall clock (for a machine others share)",
    )
    args = parser.parse_args(argv)
    for flag, dest, least in (
        ("--hands", "hands", 1),
        ("--repeat", "repeat", 1),
        ("--oracle-gin", "oracle_gin", 0),
        ("--oracle-15", "oracle_fifteen", 0),
    ):
        value = getattr(args, dest)
        if value is not None and value < least:
            parser.error(f"{flag} must be at least {least}, got {value}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    gin_hands = args.hands or (50 if args.quick else DEFAULT_HANDS)
    fifteen_hands = args.hands or (50 if args.quick else DEFAULT_HANDS_FIFTEEN)
    repeat = args.repeat or (1 if args.quick else DEFAULT_REPEAT)
    oracle_gin = (
        args.oracle_gin if args.oracle_gin is not None else (20 if args.quick else DEFAULT_ORACLE_GIN)
    )
    oracle_fifteen = (
        args.oracle_fifteen
        if args.oracle_fifteen is not None
        else (2 if args.quick else DEFAULT_ORACLE_FIFTEEN)
    )

    def show(text: str) -> None:
        print(text, flush=True)

    info = machine()
    show(
        f"solver benchmark: seed {args.seed}; {gin_hands} hands per gin set, {fifteen_hands} per 15-card"
        f" set; oracle on {oracle_gin} and {oracle_fifteen} of them"
    )
    show(f"machine: {info['cpu']}, {info['cores']} cores, {info['implementation']} {info['python']}")
    show(
        f"times are per hand, the least of {repeat} run(s), a fresh solver each run; GC "
        + ("on" if args.gc else "off inside timed loops")
        + ("; CPU time of this process" if args.cpu else "; wall-clock time")
    )
    peers: list[Peer] = []
    missing: list[str] = []
    if args.no_peers:
        show("peers: not run (--no-peers)")
    else:
        peers, missing = load_peers()
        for peer in peers:
            show(f"peer {peer.name} {peer.version}: runs on the gin sets")
        for sentence in missing:
            show(sentence)

    sets = build_sets(
        seed=args.seed,
        gin_hands=gin_hands,
        fifteen_hands=fifteen_hands,
        oracle_gin=oracle_gin,
        oracle_fifteen=oracle_fifteen,
        worst_hands=args.hands or (10 if args.quick else DEFAULT_HANDS_WORST),
    )
    if args.only:
        sets = [s for s in sets if args.only in s.name]
        if not sets:
            show(f"no set's name contains {args.only!r}")
            return 2
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    wrong = 0
    checked = 0
    for hand_set in sets:
        result, disagreements = run_set(
            hand_set, peers, repeat=repeat, keep_gc=args.gc, show=show, cpu=args.cpu
        )
        results.append(result)
        wrong += disagreements
        checked += sum(t["oracle"]["checked"] for t in result["tasks"])
    aims = targets(results, oracle_checked=checked, oracle_wrong=wrong)
    show("\ntargets (measured and printed, never asserted):")
    for aim in aims:
        show(f"  {aim['target']}: {aim['where']}: {aim['measured']} ({'met' if aim['met'] else 'NOT met'})")
    show(f"\noracle disagreements: {wrong} of {checked}; whole run {time.perf_counter() - started:.0f} s")

    if args.json:
        document = {
            "seed": args.seed,
            "hands_per_gin_set": gin_hands,
            "hands_per_fifteen_card_set": fifteen_hands,
            "repeat": repeat,
            "gc_during_timing": args.gc,
            "cpu_time": args.cpu,
            "machine": info,
            "peers": {peer.name: peer.version for peer in peers},
            "peers_missing": missing,
            "sets": results,
            "targets": aims,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n")
        show(f"figures written to {args.json}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
