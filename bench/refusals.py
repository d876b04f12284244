"""Which refusals of the engine does no test enter? Every ``raise`` in ``scorer/*.py``, and
whether the engine's tests (not the league's, not the app's) ever execute it.

Run ``make refusals`` or ``.venv/bin/python bench/refusals.py``: it runs the engine's test
files and doctests under coverage (niced; a few minutes on a shared 2-core machine) and prints
every ``raise`` line no test reached, with the error it raises. A ``raise`` that no real input
can reach (the checks before it refuse first) is listed in :data:`UNREACHABLE` with the reason;
the aim is that every other one is entered by a test. It exits 1 when one is not.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The engine's own test files (the store's, the app's and the packaging tests are not).
ENGINE_TESTS = (
    "tests/test_cards.py",
    "tests/test_cli.py",
    "tests/test_cli_messages.py",
    "tests/test_frozen.py",
    "tests/test_game.py",
    "tests/test_game_called.py",
    "tests/test_game_parts.py",
    "tests/test_game_replay.py",
    "tests/test_gamefile.py",
    "tests/test_hostile_input.py",
    "tests/test_knock.py",
    "tests/test_melds.py",
    "tests/test_messages.py",
    "tests/test_names.py",
    "tests/test_night_rules.py",
    "tests/test_opening.py",
    "tests/test_refusals.py",
    "tests/test_rulebook.py",
    "tests/test_ruleset_text.py",
    "tests/test_rulesets.py",
    "tests/test_scoring.py",
    "tests/test_seating.py",
    "tests/test_solver.py",
    "tests/test_solver_paths.py",
    "tests/test_table.py",
)

#: ``file:function:error`` of each ``raise`` that no input can reach, with the reason.
UNREACHABLE: dict[str, str] = {
    "scoring.py:_winner_collects:InvalidDealError(deal.say_out)": (
        "validate_deal refuses a deal with neither 'out' nor 'ended' first (deal.say_how)"
    ),
    "scoring.py:_penalty:InvalidDealError(deal.say_out)": (
        "validate_deal refuses a deal with neither 'out' nor 'ended' first (deal.say_how)"
    ),
    "scoring.py:_gin:InvalidDealError(deal.say_knocker)": (
        "validate_deal refuses a gin deal with no knocker and not dead first (deal.say_knocker_or_dead)"
    ),
    "scoring.py:_lowest_hand:InvalidDealError(...)": (
        "validate_deal refuses the player out holding cards or points first (deal.out_holds_cards, "
        "deal.out_has_points)"
    ),
    "ruleset.py:_raw:RulesetError(ruleset.ruleset_loop)": (
        "a base is always a bundled ruleset, and the bundled files form no loop (tests/test_rulesets.py "
        "loads every one)"
    ),
    # Not a rule a player's input meets: the program's own faults, kept loud.
    "cli.py:_main:re-raise": "not a rule: a broken pipe, or a fault of the program, passed on as it is",
    "ruleset.py:__init__:TypeError(...)": "not a rule: the program building a Ruleset with a wrong field",
    "ruleset.py:_rulesets_folder:RulesetError(ruleset.rulesets_missing)": (
        "not a rule: an installation without its rulesets folder"
    ),
}


def _code(node: ast.Raise) -> str:
    """The error and the message code a ``raise`` names, as far as its text says."""
    if node.exc is None:
        return "re-raise"
    call = node.exc
    name = ast.unparse(call.func if isinstance(call, ast.Call) else call)
    codes = [
        n.value
        for n in ast.walk(call)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and "." in n.value and " " not in n.value
    ]
    return f"{name}({codes[-1] if codes else '...'})"


def raises(path: Path) -> list[tuple[int, str, str]]:
    """Each ``raise`` in ``path``: its line, its function and what it raises."""
    tree = ast.parse(path.read_text())
    found = []

    lines = path.read_text().splitlines()

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.Raise) and "pragma: no cover" not in lines[child.lineno - 1]:
                found.append((child.lineno, function, _code(child)))
            visit(child, inner)

    visit(tree, "<module>")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="read this coverage JSON instead of running the tests")
    args = parser.parse_args(argv)
    engine = sorted((ROOT / "scorer").glob("*.py"))
    with tempfile.TemporaryDirectory(prefix="rummy-refusals-") as folder:
        report = Path(args.data) if args.data else Path(folder) / "coverage.json"
        if not args.data:
            data = Path(folder) / ".coverage"
            tests = [t for t in ENGINE_TESTS if (ROOT / t).exists()]
            command = [sys.executable, "-m", "coverage", "run", f"--data-file={data}", "--source=scorer"]
            command += ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--doctest-modules"]
            command += [*tests, *(str(p.relative_to(ROOT)) for p in engine)]
            subprocess.run(command, cwd=ROOT, check=False)
            subprocess.run(
                [sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(report), "-q"],
                cwd=ROOT,
                check=True,
            )
        executed = {
            Path(name).name: set(entry["executed_lines"])
            for name, entry in json.loads(report.read_text())["files"].items()
            if Path(name).parent.name == "scorer"
        }
    missing, unreachable, total = [], [], 0
    for path in engine:
        for line, function, what in raises(path):
            total += 1
            if line in executed.get(path.name, set()):
                continue
            key = f"{path.name}:{function}:{what}"
            where = f"scorer/{path.name}:{line} in {function}: raise {what}"
            (unreachable if key in UNREACHABLE else missing).append((where, UNREACHABLE.get(key, "")))
    for where, why in unreachable:
        print(f"unreachable: {where} ({why})")
    for where, _ in missing:
        print(f"not entered: {where}")
    entered = total - len(missing) - len(unreachable)
    print(f"{entered} of {total} raises entered by a test, ", end="")
    print(f"{len(unreachable)} unreachable, {len(missing)} not entered")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
