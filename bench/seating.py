"""Club night seating benchmark: 200 players into tables, by each method.

Seats 200 players of rommi (tables of 2 to 7, four preferred) with ratings drawn from a fixed
seed, after two random rounds (so ``swiss`` has opponents to avoid), and prints for each
method the median and p99 time of one seating, the spread of table means (``balanced``) and
the repeated opponents (``swiss``). Target (docs/cli.md, club night): under 1 s per seating.
Nothing is asserted: the figures are printed.

    .venv/bin/python bench/seating.py               # 200 players, 20 runs a method
    .venv/bin/python bench/seating.py --players 60 --runs 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorer.seating import METHODS, opponents, seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [f"player {n:03}" for n in range(args.players)]
    ratings = {p: rng.gauss(25.0, 6.0) for p in players}
    rounds = [seat(players, low=2, high=7, method="random", seed=args.seed + r).tables for r in range(2)]
    met = opponents(rounds)
    standing = rng.sample(players, len(players))
    print(f"{args.players} players, {args.runs} runs a method")
    for method in METHODS:
        times = []
        for run in range(args.runs):
            start = time.perf_counter()
            seating = seat(
                players,
                low=2,
                high=7,
                method=method,
                seed=run,
                ratings=ratings,
                standing=standing,
                met=met,
            )
            times.append(time.perf_counter() - start)
        times.sort()
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        extra = ""
        if seating.evenness is not None:
            extra = f"  spread of table means {seating.evenness.spread:.3f}"
        if method == "swiss":
            extra = f"  repeated opponents {seating.repeats}"
        print(
            f"{method:9} median {statistics.median(times) * 1000:8.1f} ms"
            f"  p99 {p99 * 1000:8.1f} ms  tables {len(seating.tables)}{extra}"
        )


if __name__ == "__main__":
    main()
