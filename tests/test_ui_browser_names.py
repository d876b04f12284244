"""The New game screen in a real Chromium: a new name that looks just like a player's is asked
about (the same person, or a new player?), never silently a new player."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_kit import type_into, wait_shown
from test_ui_app_browser import start_game

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def start_look_alike(page: Page, players: list[str], existing: str) -> None:
    """Start a game whose first name looks like ``existing``'s: the screen asks first."""
    page.get_by_role("button", name="New game").first.click()
    for seat, name in enumerate(players, start=1):
        type_into(page, f"Player {seat}", name)
    page.get_by_role("button", name="Start game").click()
    question = page.locator("flt-semantics").get_by_text(f"looks just like {existing}", exact=False)
    question.first.wait_for()


def test_a_look_alike_name_is_asked_about_and_may_be_a_new_player(ui_page: Page) -> None:
    start_game(ui_page, "Rommi", ["Oona", "Pia"])
    start_look_alike(ui_page, ["\u041eona", "Pia"], "Oona")  # a Cyrillic О
    ui_page.get_by_role("button", name="No, a new player").click()
    wait_shown(ui_page, "Deal 1")


def test_a_look_alike_name_answered_as_the_same_person_seats_the_player(ui_page: Page) -> None:
    start_game(ui_page, "Rommi", ["Ronja", "Siiri"])
    start_look_alike(ui_page, ["Ronja", "\u0405iiri"], "Siiri")  # a Cyrillic Ѕ
    ui_page.get_by_role("button", name="Yes, it is Siiri").click()
    wait_shown(ui_page, "Deal 1")
