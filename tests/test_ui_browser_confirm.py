"""Deals confirmed at the table, end to end in Chromium: three browser contexts (three Flet
sessions, three phones) on one club night. Phone A saves a deal at the night's table; phone B,
named Bea in Settings, sees it as entered with ``Confirm deal 1``, confirms it, and phone A shows
who confirmed it without a reload. A deal B disputes, with its own version entered on the deal
entry form, appears on the director's screen under ``Disputes`` with both versions; the director
gives a reason and keeps B's, and both phones show what the director kept (docs/app.md, "Club
night"; docs/rules.md, "Confirmed deals (club nights)"). The night is started through the store
(another program on the same folder); typing goes at a person's pace.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, type_cards, type_into
from browser_kit import wait_shown as shown
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

#: A change saved on one phone shows on the other's open screen within this time.
LIVE_MS = 4_000
DEVICE = r"Device [A-HJ-NP-Z2-9]{4}"


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = tmp_path_factory.mktemp("confirm") / "league"
    Store.open(folder).create_league("Club")
    server = Server(folder)
    try:
        yield server, folder
    finally:
        server.stop()


def phone(chromium: Browser, server: Server, route: str) -> Page:
    return open_page(chromium, server.url + route, width=900, height=1000)


def named(page: Page, server: Server, name: str, route: str) -> None:
    """Settings: the phone's name typed over the one it made for itself; then ``route``."""
    shown(page, re.compile(r"^This device's own name is Device "))  # type: ignore[arg-type]
    page.get_by_role("textbox", name="Your name").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    type_into(page, "Your name", name)
    page.goto(server.url + route)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=20_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached")


def seen(page: Page, pattern: str, *, timeout: int = 15_000) -> None:
    """A text matching ``pattern`` (a regular expression, whole text) is shown."""
    from playwright.sync_api import expect

    found = page.locator("flt-semantics").get_by_text(re.compile(f"^{pattern}$")).first
    expect(found).to_be_visible(timeout=timeout)


def within(page: Page, text: str, *, timeout: int = 15_000) -> None:
    """``text`` is shown, alone or within a longer text (a card's semantics join its lines)."""
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text).first).to_be_visible(timeout=timeout)


def test_a_deal_confirmed_on_another_phone_and_a_dispute_resolved_by_the_director(
    club: tuple[Server, Path], chromium: Browser
) -> None:
    server, folder = club
    store = Store.open(folder)
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="rommi", seed=1)
    game = night.rounds[0].tables[0].game
    first, second = store.game(game).game.players
    a = phone(chromium, server, f"game/{game}/deal")
    b = phone(chromium, server, "settings")
    director = None
    try:
        # Phone A saves deal 1 at the table: it waits for another phone's confirmation.
        a.get_by_role("button", name="Went out").wait_for()
        choose(a, "Went out", first)
        type_cards(a, f"Cards left: {second}", "KS")
        a.get_by_role("button", name="Save deal").click()
        shown(a, "Deal 1: waiting for confirmation")
        # Phone B (Bea) sees it as entered and confirms it; A shows who confirmed, live.
        named(b, server, "Bea", f"game/{game}")
        seen(b, f"Deal 1 saved by {DEVICE}: is it right\\?")
        shown(b, f"{second}: K♠ (10)")  # the deal as entered, as the conflict panel shows a side
        b.get_by_role("button", name="Confirm deal 1").click()
        shown(b, "Deal 1 confirmed by Bea")
        shown(a, "Deal 1 confirmed by Bea", timeout=LIVE_MS)
        # Deal 2 comes from the table's other phone; B disputes it with its own version,
        # entered on the deal entry form, and a reason.
        store.add_deal(game, {"hands": {first: "", second: "QS 2H"}, "out": first}, by="Anna")
        b.get_by_role("button", name="Dispute deal 2").click(timeout=LIVE_MS + 11_000)
        b.get_by_role("button", name="Enter my version").click()
        shown(b, "Dispute deal 2: your version")
        type_cards(b, f"Cards left: {second}", "QS")
        type_into(b, "Why (optional)", "no two")
        b.get_by_role("button", name="Send dispute").click()
        shown(b, "Deal 2: Bea disputes it, the director decides")
        shown(a, "Deal 2: Bea disputes it, the director decides", timeout=LIVE_MS)
        # The director's screen lists it under Disputes with both versions; a reason, Keep theirs.
        director = phone(chromium, server, f"nights/{night.id}")
        for text in (
            "Disputes",
            "Round 1, table 1, deal 2: Bea disputes it",
            "Why: no two",
            "Saved (by Anna)",
            "Theirs (Bea)",
            f"{second}: Q♠ 2♥ (12)",  # the saved version, as entered
            f"{second}: Q♠ (10)",  # theirs
        ):
            within(director, text)
        mark = re.compile(r"^Table 1 .*Unconfirmed deals: 1, disputed: 1")  # the table card's mark
        director.get_by_role("group", name=mark).wait_for()
        type_into(director, "Your reason (needed)", "the two was in the discard")
        director.get_by_role("button", name="Keep theirs").click()
        kept = f"Deal 2: the director \\({DEVICE}\\) kept the disputer's version"
        seen(b, kept, timeout=LIVE_MS)
        seen(a, kept, timeout=LIVE_MS)
        shown(a, f"{second}: 20")  # 10 + 10: deal 2 as the director kept it, scored by the engine
        stored = Store.open(folder)
        checks = stored.deal_checks(game)
        assert [c.state for c in checks] == ["confirmed", "resolved"]
        assert (checks[0].by, checks[1].kept) == ("Bea", "theirs")
        assert stored.events(game)[-2].why == "the two was in the discard"  # the signed correction
    finally:
        for page in (a, b, director):
            if page is not None:
                page.context.close()
