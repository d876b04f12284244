"""The referee screen end to end: the served app in a real Chromium, driven through Playwright.

Disputes as a table has them: a meld one player says is a run, a bad card typed, a gin knock
the defender undercuts, and the same meld dispute in Finnish. The expected texts come from the
engine and the catalogs, so these tests check that the screen carries the engine's verdict;
tests/test_ui_referee.py checks the wording and tests/test_melds.py the rules.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from scorer.errors import InvalidCardError
from scorer.knock import referee_knock
from scorer.melds import check_meld
from scorer.ruleset import load_ruleset
from scorer.ui.components.referee_verdict import with_suits
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import tr
from scorer.ui.screens.referee_model import display_name

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser
UI_PATH = "referee"  # the referee's route (tests/conftest.py opens it)

KNOCKER = "2C 3C 4C 5S 5H 5D 9H 9S 9D 8C"  # deadwood 8C
DEFENDER = "KS QS JS 7D 7H 7S AH 2H 3H AC"  # AC lays off on 2C 3C 4C: an undercut


def shown(page: Page, text: str) -> Locator:
    # Within the semantics tree: a live region's text is also copied into an aria-live
    # announcement element, which is not what the player sees.
    return page.locator("flt-semantics").get_by_text(text, exact=True)


def expect_shown(page: Page, text: str) -> None:
    from playwright.sync_api import expect

    expect(shown(page, text)).to_be_visible()


def choose(page: Page, label: str, option: str) -> None:
    page.get_by_role("button", name=label).click()
    page.get_by_role("button", name=option, exact=True).last.click()
    time.sleep(0.3)


#: A pause after each key: on a loaded machine Flutter's text input drops keys sent back to back.
KEY_DELAY_MS = 60


def type_into(page: Page, label: str, cards: str) -> None:
    field = page.get_by_role("textbox", name=label)
    field.click()
    field.press("Control+A")
    # Typed key by key: fill() sets the DOM value without Flutter seeing an edit.
    field.press_sequentially(cards, delay=KEY_DELAY_MS)
    time.sleep(0.3)


def test_disputed_run_in_gin_is_not_a_legal_meld_and_says_why(ui_page: Page) -> None:
    gin = load_ruleset("gin")
    choose(ui_page, "Ruleset", display_name(gin))
    expect_shown(ui_page, gin.description)

    type_into(ui_page, "Cards", "QH KH AH")
    ui_page.get_by_role("button", name="Check meld").click()

    reason = check_meld("QH KH AH", gin).reason
    assert reason == "not a run: QH KH AH (aces are low in gin rummy)"
    expect_shown(ui_page, "Not a legal meld")
    expect_shown(ui_page, reason)


def test_bad_card_shows_the_engine_error(ui_page: Page) -> None:
    with pytest.raises(InvalidCardError) as error:
        check_meld("5H 6H XQ", load_ruleset("rommi"))
    type_into(ui_page, "Cards", "5H 6H XQ")
    ui_page.get_by_role("button", name="Check meld").click()
    expect_shown(ui_page, "Check the cards")
    expect_shown(ui_page, str(error.value))


def test_gin_knock_undercut_shows_melds_layoffs_and_points(ui_page: Page) -> None:
    verdict = referee_knock(knocker=KNOCKER, defender=DEFENDER, ruleset=load_ruleset("gin"))
    assert (verdict.outcome, verdict.winner, verdict.points) == ("undercut", "defender", 33)

    choose(ui_page, "Question", "Gin knock")
    type_into(ui_page, "Knocker's cards", KNOCKER)
    type_into(ui_page, "Defender's cards", DEFENDER)
    ui_page.get_by_role("button", name="Check knock").click()

    expect_shown(ui_page, "Legal knock")
    expect_shown(ui_page, "undercut: the defender scores 33")
    # The arrangement's cards with suit symbols: A♣ on 2♣ 3♣ 4♣.
    expect_shown(ui_page, with_suits("lays off AC on 2C 3C 4C"))
    expect_shown(ui_page, with_suits("deadwood: 8C (8)"))


def test_disputed_meld_in_finnish(ui_page: Page) -> None:
    ui_page.get_by_role("button", name=tr("nav.settings")).click()
    ui_page.get_by_role("radio", name="suomi").click()
    time.sleep(0.5)
    ui_page.get_by_role("button", name=tr("nav.referee", "fi")).click()

    gin = load_ruleset("gin")
    choose(ui_page, tr("ruleset_label", "fi"), engine_text(display_name(gin), "fi"))  # Ginirommi
    type_into(ui_page, tr("cards_label", "fi"), "QH KH AH")
    ui_page.get_by_role("button", name=tr("check_button", "fi")).click()

    reason = engine_text(check_meld("QH KH AH", gin).reason or "", "fi")
    assert reason == "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)"
    expect_shown(ui_page, tr("referee.meld_illegal", "fi"))
    expect_shown(ui_page, reason)
