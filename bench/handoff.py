"""How long the app's hand-off steps take (issue 28): Show as QR's codes and the import's preview.

For a rommi game of N deals in a league of G games, on a store in a temporary folder:

- ``codes``: the game's file of facts exported and cut into codes (``QrShowModel.of_game``),
  what opening Show as QR costs before the first code is drawn;
- ``png``: one code drawn by segno as the PNG shown (uncached), what each turn of the cycle
  costs the first time round (later turns are cached);
- ``share``: the share file of the game (``share_game``), what a tap on Share costs before the
  share sheet is asked;
- ``preview``: the import's preview of that file on another store holding the league's other
  games (``Store.import_preview``: the import run in the store's transaction and thrown away).

Prints median and p99 in milliseconds; asserts nothing about time. Run
``.venv/bin/python bench/handoff.py [--deals 26] [--games 50] [--runs 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sync_kit import play  # noqa: E402

from scorer.league.exchange import FACTS_FORMAT, ImportBatch  # noqa: E402
from scorer.league.store import Store  # noqa: E402
from scorer.ui.screens.share_model import QrShowModel, qr_png, share_game  # noqa: E402

PLAYERS = ["Anna", "Bea", "Cid"]


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


def _timed(runs: int, step: Callable[[], object]) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        step()
        samples.append((time.perf_counter() - began) * 1000)
    return _percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=26, help="deals of the game shown (default 26)")
    parser.add_argument("--games", type=int, default=50, help="other games in the league (default 50)")
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each step (default 30)")
    args = parser.parse_args()
    import json

    with tempfile.TemporaryDirectory(prefix="bench-handoff-") as folder:
        phone = Store.open(Path(folder) / "phone")
        phone.create_league("Club")
        for seed in range(args.games):
            play(phone, "Club", PLAYERS, 5, seed=100 + seed)
        game = play(phone, "Club", PLAYERS, args.deals, seed=2)
        other = Store.open(Path(folder) / "other")
        other.create_league("Club")
        league = json.loads(share_game(phone, game).data)
        assert league["format"] == FACTS_FORMAT
        everything = phone.export_facts("Club")
        other.import_batch("Club", ImportBatch(games=(), facts=(("league", everything),)))
        # The other phone has every game but this one: the preview adds one game.
        other_without = Store.open(Path(folder) / "other2")
        other_without.create_league("Club")
        model = QrShowModel.of_game(phone, game)
        file = share_game(phone, game)
        batch = ImportBatch(games=(), facts=((file.name, json.loads(file.data)),))
        figures = {
            "codes": _timed(args.runs, lambda: QrShowModel.of_game(phone, game)),
            "png": _timed(args.runs, lambda: qr_png.__wrapped__(model.parts[0])),
            "share": _timed(args.runs, lambda: share_game(phone, game)),
            "preview (empty store)": _timed(args.runs, lambda: other_without.import_preview("Club", batch)),
            "preview (game already here)": _timed(args.runs, lambda: other.import_preview("Club", batch)),
        }
        print(
            f"a rommi game of {args.deals} deals ({model.count} codes, {len(file.data)} bytes shared)"
            f" in a league of {args.games + 1} games; {args.runs} runs each"
        )
        for name, (median, p99) in figures.items():
            print(f"  {name:30} median {median:7.1f} ms   p99 {p99:7.1f} ms")


if __name__ == "__main__":
    main()
