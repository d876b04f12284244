"""Mutation run of the scoring core: how many small wrong changes do the module's own tests catch?

Run ``make mutation`` (niced) or ``.venv/bin/python bench/mutation.py [--module scoring ...]``.
For each module of :data:`MODULES` it applies one small change at a time to a copy of the
package (a comparison flipped, an integer moved by one, a ``raise`` turned into ``pass``,
``and``/``or`` swapped, ``+``/``-`` swapped, a ``not`` dropped, ``True``/``False`` swapped),
runs that module's own test files against the copy (``pytest -x``: the first failure kills
the change) and prints the score per module and every change that survived, with its line.

A change that cannot alter behaviour (an *equivalent mutant*) is listed in :data:`EQUIVALENT`
with the reason, and counted apart: the aim is that every surviving change is either killed by
a test or shown equivalent there. The hypothesis properties run under the ``mutation`` profile
(tests/conftest.py: derandomized, no example database), so two runs give the same score.
It prints figures and never gates CI.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each module of the scoring core and its own test files.
MODULES: dict[str, tuple[str, ...]] = {
    "scoring": ("tests/test_scoring.py", "tests/test_deal_events.py", "tests/test_refusals.py"),
    "knock": ("tests/test_knock.py", "tests/test_refusals.py"),
    "game": (
        "tests/test_game.py",
        "tests/test_game_called.py",
        "tests/test_game_parts.py",
        "tests/test_game_replay.py",
        "tests/test_deal_events.py",
        "tests/test_refusals.py",
    ),
}

#: Changes shown to be equivalent, by ``module:function:change`` (see :attr:`Mutant.key`),
#: each with the reason it cannot change what the module does.
_CHECKED_FIRST = "validate_deal refuses this entry before scoring starts"
EQUIVALENT: dict[str, str] = {
    "scoring:_winner_collects:raise InvalidDealError(field_problem('out', Message('deal.say_out'))) -> pass": (  # noqa: E501
        f"{_CHECKED_FIRST}: a deal with neither 'out' nor 'ended' (deal.say_how)"
    ),
    "scoring:_penalty:raise InvalidDealError(field_problem('out', Message('deal.say_out'))) -> pass": (
        f"{_CHECKED_FIRST}: a deal with neither 'out' nor 'ended' (deal.say_how)"
    ),
    "scoring:_gin:raise InvalidDealError(field_problem('knocker', Message('deal.say_knocker'))) -> pass": (
        f"{_CHECKED_FIRST}: a gin deal neither dead nor with a knocker (deal.say_knocker_or_dead)"
    ),
    "scoring:_lowest_hand:raise InvalidDealError(field_problem('out', left)) -> pass": (
        f"{_CHECKED_FIRST}: the player out holding cards or points (deal.out_holds_cards, deal.out_has_points)"  # noqa: E501
    ),
    "scoring:_lowest_hand:deal.out is not None and hands[deal.out] -> deal.out is not None or hands[deal.out]": (  # noqa: E501
        "the player out holds 0 points (validate_deal), so the raise it guards is never reached either way"
    ),
    "knock:referee_knock:key < best[0] -> key <= best[0]": (
        "two layouts never tie: the key ends with the layout's melds, which differ between layouts"
    ),
    "knock:_knock_tables:False -> True": (
        "the referee reads only the tables' points and run windows, the same in the opening tables "
        "of every gin ruleset (no jokers); only the opening values differ, and it never reads them"
    ),
    "knock:_Referee.arrangements:13 -> 14": (
        "rank 13 reads the aces of the next three suits as a set of aces, which rank 0 has already "
        "offered: the same layouts twice, the same verdict"
    ),
    "knock:_Referee._reach:13 - len(meld.order) -> 13 + len(meld.order)": (
        "the walk stops at the first card the defender lacks, at the latest the meld's own end card "
        "(the knocker's), within 13 - len steps: more steps are never taken"
    ),
    "knock:_Referee._reach:step < 0 -> step <= 0": "step is -1 or 1, never 0",
    "knock:_Referee._reach:13 -> 14 #2": (
        "the walk stops at the meld's own end card (the knocker's) within 13 - len steps: a 14th "
        "step is never taken"
    ),
    "knock:_Referee._reach:13 -> 12 #2": (
        "the last step is needed only when all ten of the defender's cards extend the run, and then "
        "they are a run of their own: deadwood 0 with no layoff either way"
    ),
    "knock:_Referee.layoff_options:1 -> 0": (
        "a group of no cards is mask 0, the 'lay off nothing' option already first in the list"
    ),
    "knock:_Referee.layoff_options:4 -> 5": "a fifth suit's cards are bits past the deck, never held",
    "knock:_Referee.layoff_options:1 -> 2 #4": (
        "a = len(below) + 1 takes below[:a] == below, the group a = len(below) already gave: the "
        "same mask listed again, and reply keeps the first of equal keys (key < best), so the same reply"
    ),
    "knock:_Referee.layoff_options:1 -> 2 #7": (
        "b = len(above) + 1 takes above[:b] == above, the group b = len(above) already gave: the "
        "same mask listed again, and reply keeps the first of equal keys (key < best), so the same reply"
    ),
    "knock:_Referee.arrangements:4 -> 5": (
        "a fifth suit's cards are bits 52 and up, past the deck: a knocker's hand never holds one "
        "(_validate refuses jokers), so no set gains a card"
    ),
    "knock:_Referee.layoff_options:0 -> 1 #2": (
        "every card of a set has the same rank, and a set holds at least set_min >= 2 cards: "
        "meld.order[1] % 13 is meld.order[0] % 13"
    ),
    "knock:_Referee._reach:0 -> 1": "step is -1 or 1: step < 1 holds exactly when step < 0",
    "knock:_Referee.defender_side:True -> False": (
        "zip's strict only raises on lengths that differ, and laid holds one option per meld of "
        "layout (reply's combination over layout, or () with () in illegal)"
    ),
    "knock:_Referee.reply:0 -> 1 #2": (
        "the starting best is beaten by the all-nothing combination, which has the same deadwood and "
        "lays off nothing: the same reply"
    ),
    "game:Column:False -> True #2": (
        "Column.called is read only on a closed column, and _close always sets it"
    ),
    "game:_add:0 -> 1": (
        "b is a deal's scores, which name every player the deal was scored for (scorer/scoring.py "
        "builds each over players: _zero, _hand_points, _block), the game's players, the keys of a: "
        "the default of b.get is never taken"
    ),
    "game:Game.with_deals:True -> False": (
        "zip's strict only raises on lengths that differ, and known.records holds one record per "
        "deal of old (a replay that refused a deal was never kept)"
    ),
    "game:Game.with_deals:a is not b and a != b -> a is not b or a != b": (
        "kept only says where the replay restarts: an equal deal that is another object is then "
        "scored again, and score_deal is a function of the deal, the players and the ruleset, so it "
        "scores the same"
    ),
    "game:GameResult:False -> True": "every GameResult is made in _result_of, which always sets called",
    "knock:_Referee.arrangements.walk:spent + self._values[low] -> spent - self._values[low]": (
        "only prunes the search: referee_knock drops every layout over the limit by its own count"
    ),
    "knock:_Referee.arrangements.walk:spent + self._values[low] -> spent - self._values[low] #2": (
        "the deadwood carried down only prunes the search: referee_knock drops every layout over the "
        "limit by its own count"
    ),
}

_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
}


@dataclass(frozen=True)
class Mutant:
    """One small change: the ``index``-th node of the module's walk, changed the ``variant``-th way."""

    module: str
    index: int
    variant: int
    line: int
    function: str
    before: str
    after: str
    occurrence: int = 1

    @property
    def key(self) -> str:
        """A name for the change that survives edits elsewhere in the module (``#2`` for the
        second change of the same text in the same function, and so on)."""
        again = f" #{self.occurrence}" if self.occurrence > 1 else ""
        return f"{self.module}:{self.function}:{self.before} -> {self.after}{again}"


def _skipped(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Docstrings, annotations, ``__slots__`` and type-checking blocks are not behaviour."""
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.AnnAssign) and child is parent.annotation:
            return True
        if isinstance(parent, ast.arg | ast.FunctionDef) and child is getattr(parent, "annotation", None):
            return True
        if isinstance(parent, ast.FunctionDef) and child is parent.returns:
            return True
        generic = isinstance(parent, ast.Subscript) and isinstance(parent.value, ast.Name)
        if generic and parent.value.id in {"Literal", "tuple", "dict", "list"}:
            return True
        if (
            isinstance(parent, ast.If)
            and isinstance(parent.test, ast.Name)
            and parent.test.id == "TYPE_CHECKING"
        ):
            return True
        if isinstance(parent, ast.FunctionDef | ast.ClassDef) and child in parent.decorator_list:
            return True
        child = parent
    return False


def _function_of(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    names = []
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
    return ".".join(reversed(names)) or "<module>"


def _variants(node: ast.AST) -> list[ast.AST]:
    """Every small change of ``node`` (each a changed copy of it)."""
    found: list[ast.AST] = []
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            swap = _COMPARE_SWAPS.get(type(op))
            if swap is not None:
                changed = copy.deepcopy(node)
                changed.ops[position] = swap()
                found.append(changed)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        found.append(ast.Constant(node.value + 1))
        if node.value:
            found.append(ast.Constant(node.value - 1))
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        found.append(ast.Constant(not node.value))
    elif isinstance(node, ast.Raise):
        found.append(ast.Pass())
    elif isinstance(node, ast.BoolOp):
        changed = copy.deepcopy(node)
        changed.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        found.append(changed)
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINOP_SWAPS:
        changed = copy.deepcopy(node)
        changed.op = _BINOP_SWAPS[type(node.op)]()
        found.append(changed)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        found.append(copy.deepcopy(node.operand))
    return found


def _walk(tree: ast.Module) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]]:
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    docstrings = {
        id(body[0].value)
        for holder in ast.walk(tree)
        if isinstance(holder, ast.Module | ast.ClassDef | ast.FunctionDef)
        and (body := holder.body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
    }
    nodes = [n for n in ast.walk(tree) if id(n) not in docstrings]
    return nodes, parents


def mutants(module: str, *, root: Path = ROOT) -> list[Mutant]:
    """Every change this run makes to ``scorer/<module>.py`` under ``root``, in a fixed order."""
    tree = ast.parse((root / "scorer" / f"{module}.py").read_text())
    nodes, parents = _walk(tree)
    found = []
    seen: dict[tuple[str, str, str], int] = {}
    for index, node in enumerate(nodes):
        if _skipped(node, parents):
            continue
        if isinstance(node, ast.Assign) or not hasattr(node, "lineno"):
            continue
        if isinstance(node, ast.Constant) and isinstance(parents.get(node), ast.Assign | ast.AnnAssign):
            target = parents[node]
            names = [
                t.id
                for t in getattr(target, "targets", [getattr(target, "target", None)])
                if isinstance(t, ast.Name)
            ]
            if "__slots__" in names:
                continue
        for variant, changed in enumerate(_variants(node)):
            before = ast.unparse(node).splitlines()[0]
            after = ast.unparse(changed).splitlines()[0] if not isinstance(changed, ast.Pass) else "pass"
            function = _function_of(node, parents)
            seen[(function, before, after)] = occurrence = seen.get((function, before, after), 0) + 1
            found.append(Mutant(module, index, variant, node.lineno, function, before, after, occurrence))
    return found


def mutated_source(mutant: Mutant, *, original: str) -> str:
    """The module's text ``original`` with ``mutant``'s change made."""
    tree = ast.parse(original)
    nodes, parents = _walk(tree)
    node = nodes[mutant.index]
    changed = _variants(node)[mutant.variant]
    parent = parents[node]
    for name, value in ast.iter_fields(parent):
        if value is node:
            setattr(parent, name, changed)
        elif isinstance(value, list):
            for position, item in enumerate(value):
                if item is node:
                    value[position] = changed
    return ast.unparse(ast.fix_missing_locations(tree))


class Workspace:
    """A copy of the package, its rulesets and its tests, taken when the run starts: the
    tests import the copy, and editing the checkout meanwhile changes nothing in the run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        ignore = shutil.ignore_patterns("__pycache__", ".hypothesis")
        for part in ("scorer", "rulesets", "tests"):
            shutil.copytree(ROOT / part, folder / part, ignore=ignore)
        shutil.copy2(ROOT / "pyproject.toml", folder / "pyproject.toml")
        self.originals = {module: (folder / "scorer" / f"{module}.py").read_text() for module in MODULES}
        self.cache = folder / "pycache"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(folder),
            "PYTHONPYCACHEPREFIX": str(self.cache),
            "RUMMY_HYPOTHESIS_PROFILE": "mutation",
        }
        probe = subprocess.run(
            [sys.executable, "-c", "import scorer; print(scorer.__file__)"],
            cwd=folder,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        if not probe.stdout.strip().startswith(str(folder)):
            raise SystemExit(f"the tests would import {probe.stdout.strip()}, not the copy in {folder}")

    def write(self, module: str, text: str) -> None:
        target = self.folder / "scorer" / f"{module}.py"
        target.write_text(text)
        for cached in self.cache.rglob(f"{module}.*.pyc"):
            if cached.parent.name == "scorer":
                cached.unlink()

    def run(self, tests: tuple[str, ...], *, timeout: float) -> str:
        """``"passed"``, ``"failed"`` or ``"timeout"`` for the module's tests against the copy."""
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
        command += ["--no-header", "-o", "addopts=", *tests]
        try:
            done = subprocess.run(
                command, cwd=self.folder, env=self.env, capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return "timeout"
        return "passed" if done.returncode == 0 else "failed"


def _run_module(
    module: str, *, workspace: Workspace, only: set[int] | None
) -> Iterator[tuple[int, Mutant, str]]:
    tests = tuple(t for t in MODULES[module] if (workspace.folder / t).exists())  # an older checkout's
    original = workspace.originals[module]
    workspace.write(module, original)
    started = time.monotonic()
    if workspace.run(tests, timeout=1800) != "passed":
        raise SystemExit(f"{module}: the tests fail on the unchanged module; fix them first")
    timeout = 3 * (time.monotonic() - started) + 30
    try:
        for number, mutant in enumerate(mutants(module, root=workspace.folder)):
            if only is not None and number not in only:
                continue
            if mutant.key in EQUIVALENT:
                yield number, mutant, "equivalent"
                continue
            workspace.write(module, mutated_source(mutant, original=original))
            outcome = workspace.run(tests, timeout=timeout)
            yield number, mutant, "survived" if outcome == "passed" else "killed"
    finally:
        workspace.write(module, original)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--module", action="append", choices=sorted(MODULES), help="only this module (repeatable)"
    )
    parser.add_argument("--list", action="store_true", help="list the changes, run nothing")
    parser.add_argument(
        "--only", type=int, action="append", help="only the change with this number (repeatable)"
    )
    parser.add_argument(
        "--survivors",
        metavar="FILE",
        help="only the changes a previous run's output FILE lists as survived (a quick check of new tests)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="print every change's outcome as it comes (so a run stopped early says what it ran)",
    )
    args = parser.parse_args(argv)
    chosen = args.module or list(MODULES)
    if args.list:
        for module in chosen:
            for number, mutant in enumerate(mutants(module)):
                where = f"{module} #{number} line {mutant.line} in {mutant.function}"
                print(f"{where}: {mutant.before} -> {mutant.after}")
        return 0
    scores = []
    with tempfile.TemporaryDirectory(prefix="rummy-mutation-") as folder:
        workspace = Workspace(Path(folder))
        for module in chosen:
            only = set(args.only) if args.only else None
            if args.survivors:
                said = Path(args.survivors).read_text()
                only = {
                    number
                    for number, m in enumerate(mutants(module))
                    if f"survived: scorer/{module}.py:" in said
                    and any(
                        line.startswith(f"  survived: scorer/{module}.py:")
                        and line.endswith(f" in {m.function}: {m.before} -> {m.after}")
                        for line in said.splitlines()
                    )
                }
            counts = {"killed": 0, "survived": 0, "equivalent": 0}
            survivors = []
            for number, mutant, outcome in _run_module(module, workspace=workspace, only=only):
                counts[outcome] += 1
                if args.progress:
                    print(f"  {module} #{number}: {outcome} ({time.strftime('%H:%M:%S')})", flush=True)
                if outcome == "survived":
                    survivors.append(mutant)
                    print(
                        f"  survived: scorer/{module}.py:{mutant.line} in {mutant.function}: "
                        f"{mutant.before} -> {mutant.after}",
                        flush=True,
                    )
            tried = counts["killed"] + counts["survived"]
            score = 100 * counts["killed"] / tried if tried else 100.0
            line = (
                f"scorer/{module}.py: {counts['killed']} of {tried} changes killed ({score:.1f}%), "
                f"{counts['survived']} survived, {counts['equivalent']} shown equivalent"
            )
            print(line, flush=True)
            scores.append(line)
    print("\n".join(["", "mutation scores:", *scores]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
