"""Every phone at the table, end to end: the app served on 0.0.0.0 behind its access code.

A real server in its own process, a real Chromium: the link with the code opens the app and a
reload keeps it open (the cookie); the bare address, in a browser that never had the code,
shows the refusal and no app.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_kit import WAIT_MS
from conftest import gated_app, open_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

CODE = "T4BLEK3Y"
APP_LOAD_TIMEOUT_MS = 30_000
#: Home's text when no game is in progress: the app itself, not the refusal, is on screen.
HOME_TEXT = "No game in progress. Start one with New game."


def port_of(url: str) -> int:
    return int(url.rstrip("/").rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def gated_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base address of the app served on every interface with the code; stopped by its PID."""
    with gated_app(tmp_path_factory.mktemp("gate-browser"), code=CODE) as url:
        yield url


def test_link_with_the_code_opens_the_app_and_a_reload_keeps_it(gated_url: str, chromium: Browser) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 400, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        response = page.goto(f"{gated_url}?code={CODE}")
        assert response is not None and response.status == 200
        open_app(page, timeout_ms=APP_LOAD_TIMEOUT_MS)
        expect(page.get_by_text(HOME_TEXT)).to_be_visible()

        # The cookie, not the link, lets the reload (its scripts and WebSocket) in.
        response = page.goto(gated_url)
        assert response is not None and response.status == 200
        open_app(page, timeout_ms=APP_LOAD_TIMEOUT_MS)
        expect(page.get_by_text(HOME_TEXT)).to_be_visible()

        # Settings shows the link with the code, and its QR code, for the next phone.
        page.goto(f"{gated_url}settings")
        open_app(page, timeout_ms=APP_LOAD_TIMEOUT_MS)
        link = re.compile(rf"^http://\S+:{port_of(gated_url)}/\?code={CODE}$")
        # Settings shows a progress ring until it has read the device's settings, then the link:
        # on a loaded machine that takes longer than an assertion's default 5 s.
        expect(page.get_by_text(link)).to_be_visible(timeout=WAIT_MS)
        expect(page.get_by_role("img", name="QR code of the link")).to_be_visible(timeout=WAIT_MS)
    finally:
        context.close()


def test_bare_address_shows_no_app(gated_url: str, chromium: Browser) -> None:
    context = chromium.new_context(viewport={"width": 400, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        response = page.goto(gated_url)
        assert response is not None and response.status == 403
        assert "needs its access code" in page.content()
        page.wait_for_timeout(2_000)  # time enough for any script to start, were there one
        assert page.locator("flt-semantics-placeholder, flt-glass-pane, flutter-view").count() == 0

        response = page.goto(f"{gated_url}?code=WRONGC0DE")
        assert response is not None and response.status == 403
        assert page.locator("flutter-view").count() == 0
    finally:
        context.close()
