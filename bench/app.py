"""The app's own work when a table records a deal: a 6-player deal saved, the new totals shown.

What is timed is what the app does between the player's tap on Save deal and the new
scoreboard, without the browser: the Deal entry view-model asks the engine for its reading
and saves the deal through the league store (on disk, in a temporary folder), then the
Scoreboard view-model loads the game and lays out its totals, rows and chart. Entering one
player's cards (read live by the engine) and the store's own share (``Store.add_deal`` and
``Store.game``) are timed beside it. Target: under 100 ms of the app's own work. Prints
median and p99; asserts nothing about time.

    .venv/bin/python bench/app.py [--deals-before N] [--runs R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from scorer.cards import DECK, format_cards
from scorer.league.store import Store
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.scoreboard_model import ScoreboardModel

PLAYERS = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"]
TARGET_MS = 100.0


def _hands(rng: random.Random) -> dict[str, str]:
    """Cards left in five hands (the first player went out), one deck, no card twice."""
    cards = list(DECK)
    rng.shuffle(cards)
    hands = {PLAYERS[0]: ""}
    for seat, player in enumerate(PLAYERS[1:]):
        hands[player] = format_cards(cards[seat * 4 : seat * 4 + rng.randint(1, 4)])
    return hands


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def run(*, deals_before: int, runs: int) -> None:
    rng = random.Random(20261130)
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "league")
        # rommi to 500 with small hands: the game stays open for every timed deal.
        game_id = store.start_game(ruleset="rommi", players=PLAYERS, options={"target": 100_000}).id
        for _ in range(deals_before):
            store.add_deal(game_id, {"hands": _hands(rng), "out": PLAYERS[0]})

        total_ms: list[float] = []
        own_ms: list[float] = []
        entry_ms: list[float] = []
        store_ms: list[float] = []
        for _ in range(runs):
            # The table enters the deal (each entry is read by the engine as it is made) ...
            model = DealModel.load(store, game_id)
            model.set_out(PLAYERS[0])
            for player, cards in _hands(rng).items():
                if cards:
                    entry_ms.append(_time(partial(model.set_cards, player, cards)))
            # ... then taps Save deal; the timed work ends with the new totals laid out.
            start = time.perf_counter()
            if not model.read():  # the engine's reading of the whole game with the deal
                raise SystemExit(f"the deal was refused: {model.errors}")
            read_done = time.perf_counter()
            store.add_deal(game_id, model.document())  # what save() asks of the store after reading
            saved = store.game(game_id)  # the scoreboard's load
            store_done = time.perf_counter()
            board = ScoreboardModel(saved=saved)
            board.total_labels(), board.rows(), board.chart()
            end = time.perf_counter()
            total_ms.append((end - start) * 1000)
            own_ms.append(((read_done - start) + (end - store_done)) * 1000)
            store_ms.append((store_done - read_done) * 1000)

    rows = [
        ("save a deal and show the new totals", total_ms),
        ("  the app's own work (reading, layout)", own_ms),
        ("  the store (write the deal, load the game)", store_ms),
        ("one player's cards entered, read live", entry_ms),
    ]
    print(f"6-player rommi game, {deals_before} deals before, {runs} runs")
    for label, samples in rows:
        median, p99 = _percentiles(samples)
        print(f"{label:<45} median {median:7.1f} ms   p99 {p99:7.1f} ms")
    own_p99 = _percentiles(own_ms)[1]
    verdict = "under" if own_p99 < TARGET_MS else "OVER"
    print(f"target: the app's own work under {TARGET_MS:.0f} ms: p99 {own_p99:.1f} ms, {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals-before", type=int, default=20, help="deals already in the game (default 20)")
    parser.add_argument("--runs", type=int, default=40, help="timed deals (default 40)")
    args = parser.parse_args()
    run(deals_before=args.deals_before, runs=args.runs)


if __name__ == "__main__":
    main()
