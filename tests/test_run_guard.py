"""The run guard (tests/run_guard.py) on small test files of its own, each run as CI would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

FLAKY = """
from pathlib import Path

def test_fails_the_first_time(tmp_path_factory):
    mark = Path(__file__).with_name("ran-once")
    if not mark.exists():
        mark.write_text("")
        raise AssertionError("the first run fails")

def test_steady():
    pass
"""


def run(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest with only the run guard for a plugin, in ``folder``."""
    environment = {k: v for k, v in os.environ.items() if k not in {"CI", "RUMMY_RERUN_BUDGET"}}
    environment.update(env, PYTHONPATH=os.pathsep.join([str(TESTS), environment.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "pytest", "-p", "run_guard", "-p", "no:cacheprovider", "-o", "addopts="]
    return subprocess.run(
        [*command, "-q", *args], cwd=folder, env=environment, capture_output=True, text=True, timeout=120
    )


def test_a_rerun_is_listed_and_within_the_budget_passes(tmp_path: Path) -> None:
    (tmp_path / "test_flaky.py").write_text(FLAKY)
    done = run(tmp_path, "--reruns", "1", RUMMY_RERUN_BUDGET="1")
    assert done.returncode == 0, done.stdout
    assert "tests that needed a rerun" in done.stdout
    assert "test_flaky.py::test_fails_the_first_time: failed 1 run before its last" in done.stdout
    assert "test_steady" not in done.stdout.split("tests that needed a rerun")[1]
    summary = done.stdout.split("tests that needed a rerun")[1]
    assert "try 1 failed in call at test_flaky.py:8:" in summary  # the line of the test that failed
    assert "AssertionError: the first run fails" in summary  # what the failed try said
    assert "1 test(s) needed a rerun; budget 1 (RUMMY_RERUN_BUDGET): within the budget" in done.stdout


def test_reruns_over_the_budget_fail_the_run(tmp_path: Path) -> None:
    (tmp_path / "test_flaky.py").write_text(FLAKY)
    done = run(tmp_path, "--reruns", "1", RUMMY_RERUN_BUDGET="0")
    assert done.returncode == 1, done.stdout
    assert "over the budget: the run fails" in done.stdout


def test_a_module_skipped_whole_fails_ci_and_only_ci(tmp_path: Path) -> None:
    (tmp_path / "test_marked.py").write_text(
        'import pytest\npytestmark = pytest.mark.skip(reason="no user to drop to")\ndef test_x():\n    pass\n'
    )
    (tmp_path / "test_called.py").write_text(
        'import pytest\npytest.skip("no chromium", allow_module_level=True)\n\ndef test_y():\n    pass\n'
    )
    (tmp_path / "test_one_skip.py").write_text(
        'import pytest\n\n@pytest.mark.skip(reason="one test")\ndef test_z():\n    pass\n'
        "def test_w():\n    pass\n"
    )
    here = run(tmp_path)
    assert here.returncode == 0, here.stdout
    ci = run(tmp_path, CI="true")
    assert ci.returncode == 1, ci.stdout
    assert "module skipped whole in CI: no user to drop to" in ci.stdout
    assert "modules skipped whole in CI" in ci.stdout
    assert "test_called.py: " in ci.stdout and "no chromium" in ci.stdout
    assert "test_one_skip.py" not in ci.stdout.split("modules skipped whole in CI")[1]
