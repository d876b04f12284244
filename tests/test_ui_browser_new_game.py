"""The New game screen in Finnish on a phone: variants and house rules in Finnish, wrapped.

The words come from the catalogs through the screen's model (tests/test_ui_new_game_model.py
and tests/test_ruleset_text.py check them); this checks that a 390 px screen shows them whole:
the variant's name and description, each house rule's label and meaning wrapped within the
screen rather than cut, the default and the value in use in Finnish, and only the house rules
the rulebook lists for the variant.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, settled, shown, tap_still, wait_shown

from scorer.ruleset_text import option_label, option_meaning

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def _finnish_new_game(page: Page) -> None:
    # Each tap once the screen has stopped moving: the narrower window wraps the bar, and the
    # new language and each new screen are drawn again (a tap on a screen still being
    # replaced was lost, and Pelimuoto never came).
    page.set_viewport_size(PHONE)
    settled(page)
    tap_still(page, page.get_by_role("button", name="Settings"))
    page.get_by_role("radio", name="suomi").click()
    wait_shown(page, "Kieli")
    settled(page)
    tap_still(page, page.get_by_role("button", name="Alkuun"))
    settled(page)
    tap_still(page, page.get_by_role("button", name="Uusi peli").first)
    page.get_by_role("button", name="Pelimuoto").wait_for()


def _scroll_to(page: Page, text: str) -> None:
    """Scroll the screen down until ``text`` is on it (Flutter builds what is near the view)."""
    for _ in range(30):
        found = shown(page, text)
        if found.count():
            box = found.first.bounding_box()
            if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]:
                return
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        page.mouse.wheel(0, 300)
        settled(page)
    pytest.fail(f"{text!r} is not on the screen")


def _to_upper_half(page: Page, label: str) -> None:
    """Scroll until the field named ``label`` sits in the screen's upper half."""
    field = page.get_by_role("button", name=label)
    for _ in range(10):
        box = field.first.bounding_box() if field.count() else None
        if box is not None and 0 <= box["y"] <= PHONE["height"] / 2:
            return
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        page.mouse.wheel(0, 200 if box is None or box["y"] > 0 else -200)
        settled(page)


def _shown_part(page: Page, text: str) -> None:
    page.locator("flt-semantics").get_by_text(text, exact=False).first.wait_for()


def _within_the_screen(page: Page, text: str) -> dict[str, float]:
    box = shown(page, text).first.bounding_box()
    assert box is not None, text
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (text, box)
    return box


def test_rommi_in_finnish_at_phone_width(ui_page: Page, tmp_path: Path) -> None:
    _finnish_new_game(ui_page)
    wait_shown(ui_page, "Kotisäännöt")
    # The variant's own words, not the ruleset file's English.
    _shown_part(ui_page, "Suomalainen perherommi:")

    # A long label and its meaning: the whole text within the screen, on several lines.
    label = option_label("layoff_before_own_meld", "fi")
    meaning = option_meaning("layoff_before_own_meld", "fi")
    _scroll_to(ui_page, meaning)
    line = _within_the_screen(ui_page, label)["height"]
    assert _within_the_screen(ui_page, meaning)["height"] > 1.5 * line, "the meaning is cut to one line"

    # Defaults in words; only rommi's house rules (no Kalooki bonus, no Stop).
    _scroll_to(ui_page, option_label("must_discard_to_go_out", "fi"))
    wait_shown(ui_page, "oletus: ei")
    for other in ("kalooki_bonus", "stop", "court_points"):
        assert not shown(ui_page, option_label(other, "fi")).count(), other

    # A choice in words, and the value in use beside the default. The menu opens from a
    # field in the screen's upper half, so its choices have room below it.
    _to_upper_half(ui_page, option_label("must_discard_to_go_out", "fi"))
    choose(ui_page, option_label("must_discard_to_go_out", "fi"), "kyllä")
    wait_shown(ui_page, "käytössä: kyllä (oletus: ei)")
    settled(ui_page)
    ui_page.screenshot(path=str(tmp_path / "new-game-fi-390.png"))


def test_variants_in_finnish_in_the_picker(ui_page: Page) -> None:
    _finnish_new_game(ui_page)
    choose(ui_page, "Pelimuoto", "Ginirommi")
    _shown_part(ui_page, "Kaksi pelaajaa, kymmenen korttia")
    # Chosen at the top of the screen, where the picker is, before scrolling down.
    choose(ui_page, "Pelimuoto", "Karuselli")
    _shown_part(ui_page, "Ei poistopakkaa:")
    _scroll_to(ui_page, option_meaning("not_knocker_bonus", "fi"))
    _within_the_screen(ui_page, option_label("not_knocker_bonus", "fi"))
    _within_the_screen(ui_page, option_meaning("not_knocker_bonus", "fi"))
