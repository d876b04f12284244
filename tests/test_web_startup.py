"""The phone's first screen waits only for what it needs (issue 25).

:data:`scorer.web.startup.NOT_BEFORE_FIRST_SCREEN` is the one list of what Home leaves for
later; here the browser's entry point is imported in a fresh Python, as the build's
``main.py`` imports it, and nothing on the list may be imported by then. The Chromium test
of the build (``tests/test_web_build.py``) checks the same inside the browser once Home shows.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from conftest import ROOT

from scorer.ui.app import LAZY_SCREENS
from scorer.web.startup import NOT_BEFORE_FIRST_SCREEN, imported_too_early

PROBE = """
import json, sys
import scorer.web.main
from scorer.web.startup import imported_too_early
print(json.dumps(imported_too_early(sys.modules)))
"""


def test_the_browsers_entry_point_imports_nothing_the_first_screen_leaves_for_later() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_every_module_on_the_list_exists_so_the_check_checks_something() -> None:
    for name in NOT_BEFORE_FIRST_SCREEN:
        if name in ("fastapi", "uvicorn"):  # the server's, not installed in the browser
            continue
        assert importlib.util.find_spec(name) is not None, name


def test_every_lazy_screen_is_on_the_list_and_can_be_imported() -> None:
    for module, component in LAZY_SCREENS.values():
        assert module in NOT_BEFORE_FIRST_SCREEN
        assert callable(getattr(importlib.import_module(module), component))


def test_a_listed_packages_submodules_count_too() -> None:
    assert imported_too_early(["flet_charts.bar_chart", "flet_chartsx", "scorer.ui.screens.home"]) == [
        "flet_charts.bar_chart"
    ]
