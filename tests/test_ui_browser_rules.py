"""The Rules screen end to end at phone width: choose a variant, read it in short.

The texts come from the rulesets through the screen's model (tests/test_ui_rules.py checks
the wording); this checks that the served screen shows them on a phone-sized page.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from scorer.ruleset import load_ruleset
from scorer.ui.screens.referee_model import display_name
from scorer.ui.screens.rules_model import RulesModel

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
UI_PATH = "rules"  # the Rules screen's route (tests/conftest.py opens it)
PHONE = {"width": 390, "height": 844}


def expect_shown(page: Page, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text, exact=True)).to_be_visible()


def test_gin_in_short_at_phone_width(ui_page: Page) -> None:
    ui_page.set_viewport_size(PHONE)
    gin = load_ruleset("gin")
    ui_page.get_by_role("button", name="Variant").click()
    ui_page.get_by_role("button", name=display_name(gin), exact=True).last.click()
    time.sleep(0.3)

    expect_shown(ui_page, gin.description)
    summary = dict(RulesModel(ruleset_id="gin").summary("en"))
    expect_shown(ui_page, "Knocking")
    expect_shown(ui_page, summary["Knocking"])
    assert summary["Knocking"] == f"with {gin.knock_limit} or less deadwood"
    # The ace rule in short, and again as the house rule it is.
    aces = ui_page.locator("flt-semantics").get_by_text(summary["Aces"], exact=True)
    assert aces.count() == 2
    expect_shown(ui_page, "Undercut bonus")
    expect_shown(ui_page, "undercut_bonus")  # the option's name, as --option writes it
