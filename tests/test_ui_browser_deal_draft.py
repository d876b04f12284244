"""Leaving Deal entry keeps what was typed, as a reload does (issue 24, item 4), in Chromium at
390 px.

Back to the scoreboard (the screen's button, or the browser's back) in the middle of a deal
threw the typed hands away without a question; a reload kept them. Now the session keeps the
entry until it is saved: coming back to it goes on from where it was left, and once it is saved
the next deal starts empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_kit import settled, type_cards
from conftest import Server, open_page
from test_ui_live_browser import choose, close, folder_of, shown

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("draft") / "league"
    Store.open(folder)
    server = Server(folder)
    try:
        yield server
    finally:
        server.stop()


def new_game(server: Server) -> str:
    """A rommi game of Anna, Bea and Cid, started by another program on the same store."""
    store = Store.open(folder_of(server))
    return store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"], by="Test").id


def a_phone(chromium: Browser, server: Server, route: str) -> Page:
    return open_page(chromium, server.url + route, width=PHONE["width"], height=PHONE["height"])


def half_typed(page: Page) -> None:
    """Deal 1 half entered: Anna went out, Bea's cards typed, Cid's not yet."""
    page.get_by_role("button", name="Went out").wait_for()
    settled(page)  # the screen's first updates land before a menu is opened
    choose(page, "Went out", "Anna")
    type_cards(page, "Cards left: Bea", "KS 5H")
    shown(page, "K♠ 5♥")
    shown(page, "15 points")


def still_there(page: Page) -> None:
    """Deal entry of deal 1, with what was typed before leaving it."""
    shown(page, "Deal 1")
    shown(page, "K♠ 5♥")
    shown(page, "15 points")
    shown(page, "No reading yet: no entry for Cid")


def test_back_to_the_scoreboard_and_again_keeps_the_typed_hands(table: Server, chromium: Browser) -> None:
    game_id = new_game(table)
    page = a_phone(chromium, table, f"game/{game_id}/deal")
    try:
        half_typed(page)
        page.get_by_role("button", name="Back to the scoreboard").click()
        page.get_by_role("button", name="Record deal").click()
        still_there(page)
        type_cards(page, "Cards left: Cid", "9D")
        shown(page, "9 points")
        # Who went out was kept too (not chosen again): the engine reads the whole deal.
        shown(page, "Anna: 0 in hand, scores 0, total 0")
        page.get_by_role("button", name="Save deal").click()
        shown(page, "Bea: 15")
        shown(page, "Cid: 9")
        deals = Store.open(folder_of(table)).game(game_id).document["deals"]
        assert deals == [{"hands": {"Anna": "", "Bea": "KS 5H", "Cid": "9D"}, "out": "Anna"}]
        # Saved: the next deal starts empty.
        page.get_by_role("button", name="Record deal").click()
        shown(page, "Deal 2")
        assert page.locator("flt-semantics").get_by_text("K♠ 5♥", exact=True).count() == 0
    finally:
        close(page)


def test_the_browsers_back_and_forward_keep_the_typed_hands(table: Server, chromium: Browser) -> None:
    game_id = new_game(table)
    page = a_phone(chromium, table, f"game/{game_id}")
    try:
        page.get_by_role("button", name="Record deal").click()
        half_typed(page)
        page.go_back()
        page.get_by_role("button", name="Record deal").wait_for()
        page.go_forward()
        still_there(page)
    finally:
        close(page)
