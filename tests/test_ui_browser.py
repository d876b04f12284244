"""The referee screen end to end: the served app in a real Chromium, driven through Playwright.

The expected texts come from the engine, so these tests check that the UI carries the
engine's answer to the screen, not what the answer is (tests/test_melds.py does that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from scorer.errors import InvalidCardError
from scorer.melds import check_meld
from scorer.ruleset import load_ruleset

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser
UI_PATH = "referee"  # the meld referee's route (tests/conftest.py opens it)


def shown(page: Page, text: str) -> Locator:
    # Within the semantics tree: a live region's text is also copied into an aria-live
    # announcement element, which is not what the player sees.
    return page.locator("flt-semantics").get_by_text(text, exact=True)


def choose_ruleset(page: Page, name: str) -> None:
    page.get_by_role("button", name="Ruleset").click()
    page.get_by_role("button", name=name, exact=True).click()


def type_cards(page: Page, cards: str) -> None:
    field = page.get_by_role("textbox", name="Cards")
    field.click()
    field.press("Control+A")
    # Typed key by key: fill() sets the DOM value without Flutter seeing an edit.
    field.press_sequentially(cards)


def test_gin_rummy_aces_are_low_reason_is_shown(ui_page: Page) -> None:
    from playwright.sync_api import expect

    gin = load_ruleset("gin")
    choose_ruleset(ui_page, gin.name)
    expect(shown(ui_page, gin.description)).to_be_visible()

    type_cards(ui_page, "QH KH AH")
    ui_page.get_by_role("button", name="Check meld").click()

    reason = check_meld("QH KH AH", gin).reason
    assert reason == "not a run: QH KH AH (aces are low in gin rummy)"
    expect(shown(ui_page, reason)).to_be_visible()


def test_bad_card_shows_the_engine_error(ui_page: Page) -> None:
    from playwright.sync_api import expect

    with pytest.raises(InvalidCardError) as error:
        check_meld("5H 6H XQ", load_ruleset("rommi"))
    type_cards(ui_page, "5H 6H XQ")
    ui_page.get_by_role("button", name="Check meld").click()
    expect(shown(ui_page, str(error.value))).to_be_visible()
