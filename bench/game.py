"""Benchmark of entering a game deal by deal: add a deal, then read the totals.

Run ``.venv/bin/python bench/game.py`` (``--help`` lists the flags; ``bench/README.md``
shows figures). For games already holding 9, 99 and 999 deals it times what the
app and the CLI do when a deal is entered: :meth:`Game.add` with a new deal, then
:attr:`Game.result`'s totals. Two games are timed:

* gin rummy entered with cards: each deal is both hands, so the knock referee
  decides every knock (the most work a deal can ask for);
* Kalooki (3 players) entered with the cards left in hand, jokers included.

Each sample adds a fresh :class:`Deal` (built before the clock starts) to the same
game, so every sample scores one new deal. It also times correcting deal 1 of
the game, which re-adds every later deal from its kept score. Times are printed
(median and p99 per sample, and the growth per deal already in the game), never
asserted.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from scorer.cards import DECK, JOKER, Card
from scorer.deal import Deal
from scorer.game import Game
from scorer.ruleset import Ruleset, load_ruleset
from scorer.solver import Solver

DEFAULT_SEED = 20240611
SIZES = (10, 100, 1000)
DEFAULT_SAMPLES = 200
#: Distinct deals each game cycles through (dealt once, before timing).
POOL = 60
TARGET_MS_AT_100 = 5.0


@dataclass(frozen=True, slots=True)
class Kind:
    """A game to time: its ruleset, players and a maker of fresh deals."""

    name: str
    ruleset: Ruleset
    players: tuple[str, ...]
    deal: Callable[[int], Deal]  # a new Deal object for the deal numbered ``n``


def gin_kind(rng: random.Random) -> Kind:
    """Gin with cards: a knocker holding at most 10 deadwood, the defender any 10 cards."""
    ruleset = load_ruleset("gin", options={"target": "none"})
    solver = Solver(ruleset)
    pool: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    while len(pool) < POOL:
        cards = rng.sample(DECK, 20)
        knocker, defender = tuple(cards[:10]), tuple(cards[10:])
        if solver.best(knocker).deadwood_points <= 10:
            pool.append((knocker, defender))
    players = ("Anna", "Bea")

    def deal(number: int) -> Deal:
        knocker, defender = pool[number % POOL]
        first, second = players if number % 2 else players[::-1]
        return Deal.build(knocker=first, hands={first: knocker, second: defender})

    return Kind("gin, with cards", ruleset, players, deal)


def kalooki_kind(rng: random.Random) -> Kind:
    """Kalooki, 3 players: one went out, the others' cards left in hand (jokers too)."""
    ruleset = load_ruleset("kalooki", options={"target": "none"})
    players = ("Anna", "Bea", "Cid")
    pool: list[dict[str, tuple[Card, ...]]] = []
    for _ in range(POOL):
        natural = rng.sample(DECK * 2, 20)
        cards = [*natural[:9], JOKER, *natural[9:18], JOKER]
        pool.append({"Bea": tuple(cards[:10]), "Cid": tuple(cards[10:])})

    def deal(number: int) -> Deal:
        hands = pool[number % POOL]
        out = players[number % 3]
        left = [p for p in players if p != out]
        return Deal.build(out=out, hands={left[0]: hands["Bea"], left[1]: hands["Cid"]})

    return Kind("Kalooki, with hands", ruleset, players, deal)


#: The clock: wall-clock time, or with --cpu the CPU time of this process (on a machine
#: that others share, that leaves out the time they take the core away).
CLOCK = [time.perf_counter]


def time_samples(samples: int, work: Callable[[int], object]) -> list[float]:
    """Seconds per call of ``work(i)``, garbage collector off while timing."""
    times: list[float] = []
    clock = CLOCK[0]
    gc.collect()
    gc.disable()
    try:
        for i in range(samples):
            start = clock()
            work(i)
            times.append(clock() - start)
    finally:
        gc.enable()
    return times


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def run(kind: Kind, *, samples: int) -> dict[int, tuple[float, float, float, float]]:
    """Per game size: (add median, add p99, correct-deal-1 median, p99), in seconds."""
    figures: dict[int, tuple[float, float, float, float]] = {}
    game = Game(ruleset=kind.ruleset, players=kind.players)
    for size in SIZES:
        while len(game.deals) < size - 1:
            game = game.add(kind.deal(len(game.deals)))
        assert not game.result.finished, "the benchmark game ended early"
        fresh = [kind.deal(i) for i in range(samples)]  # the same deals at every size
        base = game

        def add(i: int, base: Game = base, fresh: list[Deal] = fresh) -> object:
            return base.add(fresh[i]).result.totals

        added = time_samples(samples, add)
        corrections = [kind.deal(samples + i) for i in range(samples)]
        full = base.add(fresh[0])

        def correct(i: int, full: Game = full, corrections: list[Deal] = corrections) -> object:
            return full.replace_deal(0, corrections[i]).result.totals

        corrected = time_samples(samples, correct)
        figures[size] = (statistics.median(added), p99(added), statistics.median(corrected), p99(corrected))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals added per game size")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="deal seed")
    parser.add_argument("--quick", action="store_true", help="30 samples per size (CI smoke)")
    parser.add_argument(
        "--cpu", action="store_true", help="time the CPU this process uses, not the wall clock"
    )
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    samples = 30 if args.quick else args.samples
    rng = random.Random(args.seed)
    clock = "CPU time of this process" if args.cpu else "wall-clock time"
    print(f"add a deal + totals, {samples} samples per game size, seed {args.seed}; {clock} in ms")
    print(f"target: median under {TARGET_MS_AT_100:g} ms at 100 deals, growth per deal independent of N")
    for kind in (gin_kind(rng), kalooki_kind(rng)):
        figures = run(kind, samples=samples)
        print(f"\n{kind.name} ({kind.ruleset.name}, {len(kind.players)} players)")
        print(f"{'deals':>6} {'add median':>11} {'add p99':>9} {'fix deal 1 median':>18} {'p99':>7}")
        for size, (median, tail, fix_median, fix_tail) in figures.items():
            row = f"{size:>6} {median * 1e3:>11.3f} {tail * 1e3:>9.3f}"
            print(f"{row} {fix_median * 1e3:>18.3f} {fix_tail * 1e3:>7.3f}")
        low, high = SIZES[0], SIZES[-1]
        growth = (figures[high][0] - figures[low][0]) / (high - low)
        fix_growth = (figures[high][2] - figures[low][2]) / (high - low)
        print(
            f"growth per deal already in the game, {low} to {high} deals: add {growth * 1e6:+.2f} us, "
            f"fix deal 1 {fix_growth * 1e6:+.2f} us"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
