"""Nothing that arrives from another phone moves the control a player is about to tap (issue 24,
item 5), in Chromium at 390 px with two phones.

Phone B has deal 1 entered and its finger on ``Save deal``; phone A saves deal 1 a moment
earlier. The line saying so ("Meanwhile: ...") appeared above the form and pushed ``Save deal``
down under the finger: the tap landed on nothing. Now what arrives from elsewhere (the game as
saved, another phone's change of this deal, the game's state) is said below the buttons: the
button stays where the finger aimed, and the tap is answered (both entries, and the ways on).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_kit import settled, type_cards
from conftest import Server, open_page
from test_ui_browser_phone import settled_box, tap_the_drawing
from test_ui_live_browser import choose, close, folder_of, shown

from scorer.league.store import Store
from scorer.ui.i18n import tr

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PLAYERS = ["Anna", "Bea", "Cid"]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("taps") / "league"
    Store.open(folder)
    server = Server(folder)
    try:
        yield server
    finally:
        server.stop()


def a_phone(chromium: Browser, server: Server, route: str) -> Page:
    return open_page(chromium, server.url + route, width=PHONE["width"], height=PHONE["height"])


def entered(page: Page, *, out: str, cards: dict[str, str]) -> None:
    """Deal entry is open: who went out and the cards left, not yet saved."""
    page.get_by_role("button", name="Went out").wait_for()
    settled(page)  # the screen's first updates land before a menu is opened
    choose(page, "Went out", out)
    for player, text in cards.items():
        type_cards(page, f"Cards left: {player}", text)


def test_another_phones_save_just_before_the_tap_does_not_move_save_deal(
    table: Server, chromium: Browser
) -> None:
    game_id = Store.open(folder_of(table)).start_game(ruleset="rommi", players=PLAYERS, by="Test").id
    a = a_phone(chromium, table, f"game/{game_id}/deal")
    b = a_phone(chromium, table, f"game/{game_id}/deal")
    try:
        entered(b, out="Bea", cards={"Anna": "5C", "Cid": "2D"})
        shown(b, "Anna: 5 in hand, scores 5, total 5")  # the engine's reading: B is ready to save
        b.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        b.mouse.wheel(0, 2 * PHONE["height"])  # down to Save deal, under the fold at 390x844
        aimed = settled_box(b, tr("deal.save", "en"))  # where B's finger is
        entered(a, out="Anna", cards={"Bea": "KS", "Cid": "9D"})
        a.get_by_role("button", name="Save deal").click()
        shown(a, "Bea: 10")
        # On B, the news of A's save lands just before the tap...
        meanwhile = b.locator("flt-semantics").get_by_text(re.compile(r"^Meanwhile: "))
        meanwhile.first.wait_for(timeout=5_000)
        # ...and moves nothing: Save deal is where the finger aimed.
        assert settled_box(b, tr("deal.save", "en")) == aimed
        tap_the_drawing(b, aimed)
        shown(b, "Deal 1 was saved on another phone first")  # the tap is answered
        deals = Store.open(folder_of(table)).game(game_id).document["deals"]
        assert [deal["out"] for deal in deals] == ["Anna"]  # theirs, once; mine waits for a way on
    finally:
        close(a, b)


def test_a_refused_save_is_answered_beside_the_button(table: Server, chromium: Browser) -> None:
    """Who went out not said: the reason is under Went out, far above on a phone, and beside
    Save deal, where the finger is."""
    from playwright.sync_api import expect

    game_id = Store.open(folder_of(table)).start_game(ruleset="rommi", players=PLAYERS, by="Test").id
    page = a_phone(chromium, table, f"game/{game_id}/deal")
    try:
        page.get_by_role("button", name="Went out").wait_for()
        for player, text in {"Anna": "5C", "Bea": "KS", "Cid": "2D"}.items():
            type_cards(page, f"Cards left: {player}", text)
        shown(page, "2♦")
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        page.mouse.wheel(0, 2 * PHONE["height"])
        tap_the_drawing(page, settled_box(page, tr("deal.save", "en")))
        answer = page.locator("flt-semantics").get_by_text(
            re.compile(r"Not saved: say who went out", re.IGNORECASE)
        )
        expect(answer).to_be_in_viewport()
        assert Store.open(folder_of(table)).game(game_id).game.deals == ()
    finally:
        close(page)
