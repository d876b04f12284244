"""The Rules screen end to end at phone width: choose a variant, read it in short.

The texts come from the rulesets through the screen's model (tests/test_ui_rules.py checks
the wording); this checks that the served screen shows them on a phone-sized page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from browser_kit import settled

from scorer.ruleset import load_ruleset
from scorer.ruleset_text import option_meaning
from scorer.ui.screens.referee_model import display_name
from scorer.ui.screens.rules_model import RulesModel

if TYPE_CHECKING:
    from playwright.sync_api import Page


def expect(locator: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


pytestmark = pytest.mark.browser
UI_PATH = "rules"  # the Rules screen's route (tests/conftest.py opens it)
PHONE = {"width": 390, "height": 844}


def expect_shown(page: Page, text: str) -> None:
    expect(page.locator("flt-semantics").get_by_text(text, exact=True)).to_be_visible()


def test_gin_in_short_at_phone_width(ui_page: Page) -> None:
    ui_page.set_viewport_size(PHONE)
    gin = load_ruleset("gin")
    # The first page of some seventy house rules takes a loaded machine a while to lay out.
    ui_page.get_by_role("button", name="Variant").click(timeout=30_000)
    ui_page.get_by_role("button", name=display_name(gin), exact=True).last.click()
    settled(ui_page)

    expect_shown(ui_page, gin.description)
    summary = dict(RulesModel(ruleset_id="gin").summary("en"))
    expect_shown(ui_page, "Knocking")
    expect_shown(ui_page, summary["Knocking"])
    assert summary["Knocking"] == f"with {gin.knock_limit} or less deadwood"
    # The ace rule in short, and again as the house rule it is.
    aces = ui_page.locator("flt-semantics").get_by_text(summary["Aces"], exact=True)
    assert aces.count() == 2
    # A house rule: its label, what it means, and its name as --option writes it, in one text.
    rule = ui_page.locator("flt-semantics").get_by_text(option_meaning("undercut_bonus"), exact=False).last
    expect(rule).to_contain_text("Undercut bonus")
    expect(rule).to_contain_text("undercut_bonus")


def test_rommi_in_finnish_at_phone_width(ui_page: Page) -> None:
    ui_page.set_viewport_size(PHONE)
    ui_page.get_by_role("button", name="Settings").click(timeout=30_000)
    ui_page.get_by_role("radio", name="suomi").click()
    ui_page.get_by_role("button", name="Säännöt").click()
    expect_shown(ui_page, "Kotisäännöt")
    # The variant's own words in Finnish, wrapped within the screen.
    about = ui_page.locator("flt-semantics").get_by_text("Suomalainen perherommi:", exact=False).first
    expect(about).to_be_visible()
    box = about.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"] and box["height"] > 30
    summary = dict(RulesModel(ruleset_id="rommi").summary("fi"))
    expect(ui_page.locator("flt-semantics").get_by_text(summary["Ässät"], exact=True).first).to_be_visible()
    assert not ui_page.locator("flt-semantics").get_by_text("Finnish family rummy", exact=False).count()
