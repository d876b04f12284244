"""How long a choice on a game changed on two devices apart takes, and its join's arrival.

Two folder stores with the same league (``--games`` games of ``--deals`` deals each, the second
store given the first's facts whole), then ``--conflicts`` times: deal N+1 of one game recorded
on each apart, the first's handed to the second (held back: a conflict), the second chooses
(``Store.settle_conflict``, timed: it reads the game's facts from the log and folds the kept
history apart), and its new facts handed back to the first (``Store.receive_facts``, timed: the
join applied by the merger). Prints the median and p99 of each, and checks that both stores end
with the same game. Never asserts a time.

    .venv/bin/python bench/joins.py                      # 500 games, 20 conflicts
    .venv/bin/python bench/joins.py --games 2000 --conflicts 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from store_deals import rommi_deal

from scorer.league.store import Store

PLAYERS = ("Anna", "Bea", "Cecilia")


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--conflicts", type=int, default=20)
    parser.add_argument("--choice", default="mine-next", choices=["theirs", "mine-next", "replace"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first, second = Store.open(Path(folder) / "first"), Store.open(Path(folder) / "second")
        league = first.create_league("Bench club").id
        games = []
        started = time.perf_counter()
        for n in range(args.games):
            game = first.start_game(ruleset="rommi", players=list(PLAYERS), league=league)
            for d in range(args.deals):
                first.add_deal(game.id, rommi_deal(PLAYERS, n + d, [d, n % 3]))
            games.append(game.id)
        commits, _ = first.league_commits(league, 0)
        facts = [f.to_json() for c in commits for f in c.facts]
        second.receive_facts(league, facts, source="first")
        print(f"{len(facts)} facts in each store, made in {time.perf_counter() - started:.1f} s")
        settle, arrive = [], []
        for n, game in enumerate(games[: args.conflicts]):
            mark = first.position
            first.add_deal(game, rommi_deal(PLAYERS, 1000 + n, [0, 1]))
            second.add_deal(game, rommi_deal(PLAYERS, 2000 + n, [1, 0]))
            theirs = [f.to_json() for f in first.facts_since(mark)]
            held = second.receive_facts(league, theirs, source="first")
            assert held.conflicts, "no conflict met"
            mark = second.position
            t0 = time.perf_counter()
            second.settle_conflict(game, args.choice, why="bench")
            settle.append(time.perf_counter() - t0)
            back = [f.to_json() for f in second.facts_since(mark)]
            t0 = time.perf_counter()
            applied = first.receive_facts(league, back, source="second")
            arrive.append(time.perf_counter() - t0)
            assert game in applied.settled and not applied.conflicts
            assert first.game(game).document == second.game(game).document
        for name, values in (("settle_conflict", settle), ("the join received", arrive)):
            print(
                f"{name}: median {statistics.median(values) * 1000:.1f} ms, "
                f"p99 {_p99(values) * 1000:.1f} ms ({len(values)} conflicts, --choice {args.choice})"
            )
        first.close()
        second.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
