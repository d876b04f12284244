"""The browser tests' watchdog (tests/conftest.py): a page stuck in a loop is ended, so the
test fails (and is run again) instead of holding the whole run until CI's own time limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import _end_renderers

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.mark.browser
def test_a_page_stuck_in_a_loop_is_ended_and_the_call_into_it_fails(chromium: Browser) -> None:
    from playwright.sync_api import Error

    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_content("<p>a page</p>")
        page.evaluate("() => { setTimeout(() => { for (;;) {} }, 0); }")  # never answers again
        _end_renderers()  # what the watchdog does when a test runs over its time
        with pytest.raises(Error, match=r"crashed|closed"):
            page.evaluate("() => 1")
    finally:
        context.close()
