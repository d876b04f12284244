"""No fault hidden by a rerun or a skip: a pytest plugin that tests/conftest.py loads.

- **Reruns.** pytest-rerunfailures runs a failed browser test again (tests/conftest.py,
  ``BROWSER_RERUNS``). Every test that needed a rerun is listed at the end of the run, with
  how many runs it took, and the run fails when more than :data:`RERUN_BUDGET` tests needed
  one: an intermittent fault that loses a deal one time in three is then seen, not passed.
  What each failed try said (its assertion's lines) is printed with it, so that a fault seen
  once in CI can be found from the log.
  ``RUMMY_RERUN_BUDGET`` sets the budget (0: any rerun fails the run).
- **Time.** The summary lists the slowest modules (setup, call and teardown summed).
- **Skips.** In CI (``CI=true``), a module skipped whole (a ``pytestmark`` skip, a true
  ``skipif`` on the module, or ``pytest.skip(..., allow_module_level=True)``) fails instead of
  vanishing into the summary: what it tests must be arranged on CI's machine, not forgotten.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

#: Tests that may need a rerun in one run before the run fails. Flutter's web client on a
#: 2-core machine now and then drops a key or closes a menu as it opens: up to four such tests
#: in a run of some 150 browser tests is the machine (clean-clone runs of 2026-12-02 needed
#: 0, 2 and 4 on a quiet machine and a loaded one); more is a fault to find.
RERUN_BUDGET = int(os.environ.get("RUMMY_RERUN_BUDGET", "4"))


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


_reruns: Counter[str] = Counter()
#: What each failed try said, by test: its phase and the assertion's lines (``E   ...``).
_failures: dict[str, list[str]] = {}
_skipped_modules: dict[str, str] = {}
#: Seconds each test module took (its tests' setup, call and teardown), for the summary: the
#: suite is kept under 30 minutes, and this says where its time goes.
_module_seconds: Counter[str] = Counter()
#: Modules listed in the summary, slowest first.
SLOWEST_MODULES = 20
#: Lines of a failed try's message kept for the summary.
FAILURE_LINES = 8


def failure_excerpt(text: str, *, lines: int = FAILURE_LINES) -> list[str]:
    """The lines of a failure's report that say what failed: the first of pytest's ``E``
    lines (the error, then what was expected and found), else its last lines."""
    said = [line for line in text.splitlines() if line.startswith("E ")]
    return said[:lines] if said else text.splitlines()[-lines:]


def failed_at(report: pytest.TestReport) -> str | None:
    """Where in the test's own file a failed try stopped (``path:line``), the innermost such
    frame of its traceback: the error itself is often raised deep in a library (Playwright's
    ``Page.reload: net::ERR_FAILED`` names no line of the test)."""
    test_file = report.location[0]
    traceback = getattr(report.longrepr, "reprtraceback", None)
    found = None
    for entry in getattr(traceback, "reprentries", ()):
        location = getattr(entry, "reprfileloc", None)
        if location is not None and Path(location.path).as_posix().endswith(test_file):
            found = f"{test_file}:{location.lineno}"
    return found


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _module_seconds[report.nodeid.split("::")[0]] += report.duration
    if report.outcome == "rerun":
        _reruns[report.nodeid] += 1
        excerpt = failure_excerpt(report.longreprtext)
        where = failed_at(report)
        _failures.setdefault(report.nodeid, []).extend(
            [
                f"try {_reruns[report.nodeid]} failed in {report.when}" + (f" at {where}:" if where else ":"),
                *(f"    {line}" for line in excerpt),
            ]
        )


def _module_skip(item: pytest.Item) -> str | None:
    """The reason a skip on ``item``'s module gives, if the module is skipped whole."""
    module = item.getparent(pytest.Module)
    if module is None:
        return None
    for mark in module.own_markers:
        if mark.name == "skip":
            return str(mark.kwargs.get("reason", mark.args[0] if mark.args else "skipped"))
        if mark.name == "skipif" and mark.args and all(isinstance(a, bool) and a for a in mark.args):
            return str(mark.kwargs.get("reason", "skipped"))
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if not in_ci():
        return
    reason = _module_skip(item)
    if reason is not None:
        _skipped_modules.setdefault(item.nodeid.split("::")[0], reason)
        pytest.fail(f"module skipped whole in CI: {reason}", pytrace=False)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if in_ci() and report.skipped and report.nodeid.endswith(".py"):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        _skipped_modules.setdefault(report.nodeid, reason)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    over_budget = len(_reruns) > RERUN_BUDGET
    if exitstatus == pytest.ExitCode.OK and (over_budget or _skipped_modules):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _module_seconds:
        terminalreporter.section(f"slowest {SLOWEST_MODULES} modules")
        for module, seconds in _module_seconds.most_common(SLOWEST_MODULES):
            terminalreporter.line(f"{seconds:8.1f}s {module}")
        terminalreporter.line(f"{sum(_module_seconds.values()):8.1f}s in all {len(_module_seconds)} modules")
    if _reruns:
        terminalreporter.section("tests that needed a rerun")
        for nodeid, reruns in sorted(_reruns.items()):
            runs = "run" if reruns == 1 else "runs"
            terminalreporter.line(f"{nodeid}: failed {reruns} {runs} before its last")
            for line in _failures.get(nodeid, []):
                terminalreporter.line(f"  {line}")
        verdict = "over the budget: the run fails" if len(_reruns) > RERUN_BUDGET else "within the budget"
        terminalreporter.line(
            f"{len(_reruns)} test(s) needed a rerun; budget {RERUN_BUDGET} (RUMMY_RERUN_BUDGET): {verdict}"
        )
    if _skipped_modules:
        terminalreporter.section("modules skipped whole in CI")
        for nodeid, reason in sorted(_skipped_modules.items()):
            terminalreporter.line(f"{nodeid}: {reason}")
        terminalreporter.line("a module skipped whole fails CI: arrange what it needs on CI's machine")
