"""How long the ``rummy`` command line takes to start and answer, beside ``python -c pass``.

Each command runs as a fresh process, as a person or a script runs it, many times; the figures
are the median and the 99th percentile wall time, and the ratio of each median to the bare
interpreter's (the share of the time that is the program's own). Nothing is asserted: a loaded
machine moves every figure, the ratio less than the rest.

    .venv/bin/python bench/cli_startup.py             # 40 runs of each
    .venv/bin/python bench/cli_startup.py --runs 200 --json /tmp/startup.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "gin.json"

#: What is timed: a name and the arguments after the interpreter.
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass", ["-c", "pass"]),
    ("rummy --help", ["-m", "scorer.cli", "--help"]),
    ("rummy check", ["-m", "scorer.cli", "check", "--rules", "gin", "5H 6H 7H"]),
    ("rummy check --lang fi", ["-m", "scorer.cli", "--lang", "fi", "check", "--rules", "gin", "QH KH AH"]),
    ("rummy layoff", ["-m", "scorer.cli", "layoff", "--rules", "gin", "--meld", "5H 6H 7H", "8H"]),
    ("rummy knock", ["-m", "scorer.cli", "knock", "--rules", "gin", "--knocker",
                     "7H 8H 9H 4C 4D 4S 2S 3S AS 5C", "--defender", "TH JH 6H KC QD KD 9C 9D 2D 3D"]),
    ("rummy table", ["-m", "scorer.cli", "table", "--before", "", "--from-hand", "5H 6H 7H",
                     "--after", "5H 6H 7H"]),
    ("rummy score", ["-m", "scorer.cli", "score", str(EXAMPLE)]),
    ("rummy check (bad card)", ["-m", "scorer.cli", "check", "--rules", "gin", "5H XQ"]),
]  # fmt: skip


def _time(arguments: list[str], runs: int) -> list[float]:
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *arguments], env=environment, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return times


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="runs of each command (default 40)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    # Every command once first: the .pyc files are written and the page cache is warm.
    for _, arguments in COMMANDS:
        _time(arguments, 1)
    figures = []
    base = None
    print(f"{'command':<34} {'median ms':>10} {'p99 ms':>8} {'x python':>9}")
    for name, arguments in COMMANDS:
        times = _time(arguments, args.runs)
        median, p99 = statistics.median(times), _p99(times)
        base = base or median
        figures.append(
            {"command": name, "median_ms": median * 1000, "p99_ms": p99 * 1000, "ratio": median / base}
        )
        print(f"{name:<34} {median * 1000:>10.1f} {p99 * 1000:>8.1f} {median / base:>9.2f}")
    print(f"(median of {args.runs} fresh processes each; load average {os.getloadavg()[0]:.2f})")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": args.runs, "figures": figures}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
