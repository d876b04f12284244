"""How long the ``rummy`` command line takes to start and answer, beside ``python -c pass``.

Each command runs as a fresh process, as a person or a script runs it, many times; the figures
are the median and the 99th percentile wall time, the ratio of each median to the bare
interpreter's, and the median CPU time (user + system) the process used. Nothing is asserted:
a loaded machine moves every figure; the CPU time and the ratio less than the wall time.

    .venv/bin/python bench/cli_startup.py             # 40 runs of each
    .venv/bin/python bench/cli_startup.py --runs 200 --json /tmp/startup.json
    .venv/bin/python bench/cli_startup.py --against /tmp/main   # another checkout, run by turns

``--against DIR`` times the same commands from another checkout of the project (its ``scorer``
first on the path), each run of it right after the same run here, so that both meet the same
load: the column ``against`` and the ratio ``here/against`` compare the two.

``--instructions`` runs each command once under valgrind (callgrind) instead and prints the
instructions it executed: slow, but the same on a busy machine as on an idle one.

The processes run as an installed user's do: with the modules' bytecode already compiled
(pip compiles it on install). The bytecode goes to a temporary folder
(``PYTHONPYCACHEPREFIX``), written by a first run of each command that is not timed, so the
checkouts are left as they are; ``PYTHONDONTWRITEBYTECODE`` is unset for the children.
``--no-bytecode`` measures instead with ``PYTHONDONTWRITEBYTECODE=1`` and no cache of its own,
as a checkout run from source in such an environment is: every module of the project
compiled again on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
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
    ("rummy arrange", ["-m", "scorer.cli", "arrange", "--rules", "gin", "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"]),
    ("rummy opening", ["-m", "scorer.cli", "opening", "--melds", "QH KH AH | 9C 9D 9S"]),
    ("rummy table", ["-m", "scorer.cli", "table", "--before", "", "--from-hand", "5H 6H 7H",
                     "--after", "5H 6H 7H"]),
    ("rummy score", ["-m", "scorer.cli", "score", str(EXAMPLE)]),
    ("rummy check (bad card)", ["-m", "scorer.cli", "check", "--rules", "gin", "5H XQ"]),
]  # fmt: skip


#: The children's bytecode cache (PYTHONPYCACHEPREFIX); None: as the environment has it.
_BYTECODE: dict[str, str | None] = {"prefix": None}


def _environment(root: Path) -> dict[str, str]:
    """The environment of a timed process: ``root``'s ``scorer`` first on the path, and the
    bytecode cache of the run (see the module's help)."""
    environment = dict(os.environ, PYTHONPATH=str(root))
    prefix = _BYTECODE["prefix"]
    if prefix is not None:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        environment["PYTHONPYCACHEPREFIX"] = prefix
    return environment


def _once(arguments: list[str], root: Path) -> tuple[float, float]:
    """The wall time and the CPU time (user + system) of one fresh process, in seconds."""
    environment = _environment(root)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], env=environment, cwd=root, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _time(arguments: list[str], runs: int, roots: list[Path]) -> list[tuple[list[float], list[float]]]:
    """For each root: the wall and CPU times of ``runs`` fresh processes, the roots by turns."""
    found: list[tuple[list[float], list[float]]] = [([], []) for _ in roots]
    for _ in range(runs):
        for (walls, cpus), root in zip(found, roots, strict=True):
            wall, cpu = _once(arguments, root)
            walls.append(wall)
            cpus.append(cpu)
    return found


def _instructions(arguments: list[str], root: Path) -> int:
    """Instructions one fresh process executes, counted by valgrind's callgrind."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={folder}/out",
                sys.executable,
                *arguments,
            ],
            env=_environment(root),
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count: {done.stderr[-300:]}")
    return int(found.group(1))


def _count(roots: list[Path]) -> int:
    """--instructions: one run of each command under callgrind, here and against DIR."""
    head = f"{'command':<26} {'M instructions':>15} {'x python':>9}"
    print(head + (f" {'against M':>10} {'here/against':>13}" if len(roots) > 1 else ""))
    base = None
    for name, arguments in COMMANDS:
        counts = [_instructions(arguments, root) for root in roots]
        base = base or counts[0]
        line = f"{name:<26} {counts[0] / 1e6:>15.0f} {counts[0] / base:>9.2f}"
        if len(counts) > 1:
            line += f" {counts[1] / 1e6:>10.0f} {counts[0] / counts[1]:>13.2f}"
        print(line)
    return 0


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="runs of each command (default 40)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--against", metavar="DIR", type=Path, help="another checkout to time by turns")
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind")
    parser.add_argument("--no-bytecode", action="store_true", help="no bytecode kept: compile on every run")
    args = parser.parse_args(argv)
    roots = [ROOT, *([args.against.resolve()] if args.against else [])]
    if args.no_bytecode:
        print("bytecode: none kept (PYTHONDONTWRITEBYTECODE=1): the project compiled on every run")
        return _measure(args, roots)
    prefix = tempfile.mkdtemp(prefix="cli-startup-pyc-")
    _BYTECODE["prefix"] = prefix
    print(f"bytecode: warm, as installed (compiled by a first run into {prefix})")
    try:
        return _measure(args, roots)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def _measure(args: argparse.Namespace, roots: list[Path]) -> int:
    """Time every command (or count its instructions), here and against DIR."""
    # Every command once first: the bytecode is written and the page cache is warm.
    for _, arguments in COMMANDS:
        _time(arguments, 1, roots)
    if args.instructions:
        return _count(roots)
    figures = []
    base = None
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    head = f"{'command':<26} {'median ms':>10} {'p99 ms':>8} {'x python':>9} {'cpu ms':>8}"
    print(head + (f" {'against ms':>11} {'here/against':>13}" if args.against else ""))
    for name, arguments in COMMANDS:
        timed = _time(arguments, args.runs, roots)
        walls, cpus = timed[0]
        median, p99, cpu = statistics.median(walls), _p99(walls), statistics.median(cpus)
        base = base or median
        figure = {
            "command": name,
            "median_ms": median * 1000,
            "p99_ms": p99 * 1000,
            "ratio": median / base,
            "cpu_ms": cpu * 1000,
        }
        line = (
            f"{name:<26} {median * 1000:>10.1f} {p99 * 1000:>8.1f} {median / base:>9.2f} {cpu * 1000:>8.1f}"
        )
        if args.against:
            other = statistics.median(timed[1][0])
            figure["against_median_ms"] = other * 1000
            line += f" {other * 1000:>11.1f} {median / other:>13.2f}"
        figures.append(figure)
        print(line)
    bytecode = "none" if args.no_bytecode else "warm"
    print(f"(median of {args.runs} fresh processes each; load average {os.getloadavg()[0]:.2f})")
    if args.json:
        document = {"runs": args.runs, "bytecode": bytecode, "figures": figures}
        Path(args.json).write_text(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
