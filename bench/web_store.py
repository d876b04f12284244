"""Bytes sent to the browser's IndexedDB per save, and a save's time: the earlier layout (the
store's folder mirrored file by file through IDBFS) beside the records (one per commit).

For each size (leagues of 10 and 500 games: each game started and played to its end, and three
games in progress), both stores are made with the same games in the same run; then deals are
saved into a game in progress, one at a time, the two stores taking turns:

- **IDBFS** (the earlier browser build): the folder store (:class:`~scorer.league.ledger.FolderLedger`)
  and, after each commit, what its flush sent: every file of the folder whose time or size
  changed since the last flush, whole (the log, its copy, the checkpoint when one was saved).
- **records** (:class:`~scorer.web.browser_store.BrowserLedger` over records in memory): the
  one write of the commit, as the JSON IndexedDB is given (the commit's line, the summary,
  the checkpoint when due).

Prints, per size and layout, the bytes per save (median and the largest), the time of a save
(median and p99; on the host, so without IndexedDB's own time) and the ratios.

    .venv/bin/python bench/web_store.py [--games 10 --games 500] [--saves 50]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.league.store import Store  # noqa: E402
from scorer.web.browser_store import BrowserStore, open_ledger  # noqa: E402
from scorer.web.records import MemoryRecords  # noqa: E402

WIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}  # ends a game to 50
DEAL = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 9}}  # 4 points


def fill(store: Store, games: int) -> str:
    """``games`` finished gin games in league Club and three in progress; one of those."""
    store.create_league("Club")
    for _ in range(games):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club")
        store.add_deal(game.id, WIN)
    playing = ""
    for _ in range(3):
        playing = store.start_game(
            ruleset="gin", players=["Anna", "Bea"], options={"target": 100_000}, league="Club"
        ).id
    return playing


class IdbfsFlush:
    """What the earlier build's flush sent after a commit: each changed file of the folder, whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seen = self.files()

    def files(self) -> dict[str, tuple[int, int]]:
        found = {}
        for path in self.folder.rglob("*"):
            if path.is_file():
                stat = path.stat()
                found[str(path)] = (stat.st_mtime_ns, stat.st_size)
        return found

    def sent(self) -> int:
        now = self.files()
        total = sum(size for path, (mtime, size) in now.items() if self.seen.get(path) != (mtime, size))
        self.seen = now
        return total


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(games: int, saves: int, scratch: Path) -> dict[str, dict[str, Any]]:
    folder = scratch / f"idbfs-{games}" / "league"
    idbfs = Store.open(folder)
    idbfs_game = fill(idbfs, games)
    flush = IdbfsFlush(folder)

    records = MemoryRecords()
    ledger = asyncio.run(open_ledger(records, scratch=scratch / "s", location=scratch / f"records-{games}"))
    browser = BrowserStore(ledger)
    browser_game = fill(browser, games)

    result: dict[str, dict[str, Any]] = {
        "IDBFS": {"bytes": [], "ms": []},
        "records": {"bytes": [], "ms": []},
    }
    for _ in range(saves):  # taking turns: the machine's load touches both alike
        started = time.perf_counter()
        idbfs.add_deal(idbfs_game, DEAL)
        sent = flush.sent()
        result["IDBFS"]["ms"].append((time.perf_counter() - started) * 1000)
        result["IDBFS"]["bytes"].append(sent)

        before = len(records.writes)
        started = time.perf_counter()
        browser.add_deal(browser_game, DEAL)
        result["records"]["ms"].append((time.perf_counter() - started) * 1000)
        result["records"]["bytes"].append(sum(w.size() for w in records.writes[before:]))
    result["IDBFS"]["log"] = os.stat(folder / "facts.jsonl").st_size
    result["records"]["log"] = len(ledger.log_bytes())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, action="append")
    parser.add_argument("--saves", type=int, default=50)
    args = parser.parse_args()
    sizes = args.games or [10, 500]
    print(
        f"bytes sent to IndexedDB per save (a deal), and the save's time on the host; {args.saves} saves each"
    )
    head = f"{'games':>6} {'layout':<8} {'log bytes':>10} {'bytes/save':>11} {'largest':>10}"
    print(f"{head} {'ms med':>7} {'ms p99':>7}")
    with tempfile.TemporaryDirectory(prefix="bench-web-store-") as scratch:
        for games in sizes:
            found = run(games, args.saves, Path(scratch))
            medians = {}
            for layout, figures in found.items():
                medians[layout] = statistics.median(figures["bytes"])
                print(
                    f"{games:>6} {layout:<8} {figures['log']:>10,} {medians[layout]:>11,.0f}"
                    f" {max(figures['bytes']):>10,} {statistics.median(figures['ms']):>7.2f}"
                    f" {percentile(figures['ms'], 0.99):>7.2f}"
                )
            ratio = medians["IDBFS"] / medians["records"]
            times = statistics.median(found["IDBFS"]["ms"]) / statistics.median(found["records"]["ms"])
            print(f"{games:>6} ratio    IDBFS/records: {ratio:,.0f}x the bytes, {times:.2f}x the host time")


if __name__ == "__main__":
    main()
