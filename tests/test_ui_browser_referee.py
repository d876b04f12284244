"""The referee screen end to end: the served app in a real Chromium, driven through Playwright.

Disputes as a table has them: a meld one player says is a run, a bad card typed, a gin knock
the defender undercuts, and the same meld dispute in Finnish. The expected texts come from the
engine and the catalogs, so these tests check that the screen carries the engine's verdict;
tests/test_ui_referee.py checks the wording and tests/test_melds.py the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, expect_shown, type_into

from scorer.errors import InvalidCardError
from scorer.knock import referee_knock
from scorer.melds import check_meld
from scorer.ruleset import load_ruleset
from scorer.ui.components.referee_verdict import with_suits
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import tr
from scorer.ui.screens.referee_model import display_name

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
UI_PATH = "referee"  # the referee's route (tests/conftest.py opens it)

KNOCKER = "2C 3C 4C 5S 5H 5D 9H 9S 9D 8C"  # deadwood 8C
DEFENDER = "KS QS JS 7D 7H 7S AH 2H 3H AC"  # AC lays off on 2C 3C 4C: an undercut


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
    expect_shown(ui_page, "Kieli")  # the Language heading, now in Finnish
    ui_page.get_by_role("button", name=tr("nav.referee", "fi")).click()

    gin = load_ruleset("gin")
    choose(ui_page, tr("ruleset_label", "fi"), engine_text(display_name(gin), "fi"))  # Ginirommi
    type_into(ui_page, tr("cards_label", "fi"), "QH KH AH")
    ui_page.get_by_role("button", name=tr("check_button", "fi")).click()

    reason = engine_text(check_meld("QH KH AH", gin).reason or "", "fi")
    assert reason == "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)"
    expect_shown(ui_page, tr("referee.meld_illegal", "fi"))
    expect_shown(ui_page, reason)
