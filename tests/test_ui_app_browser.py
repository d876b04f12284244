"""The app at the table, end to end: the served app in a real Chromium, driven through Playwright.

What a table does: start a game, record deals by tapping or typing cards, correct one, read
the totals, switch to Finnish, reload in the middle of a game. The totals expected here are
the engine's (tests/test_scoring.py checks the rules); these tests check that the screens
carry the entries to the engine and its answers back to the players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, shown, tap_cards, type_cards, type_into, wait_shown
from conftest import open_app

if TYPE_CHECKING:
    from playwright.sync_api import Page

# The shared helpers, still importable from here by the tests that import them from here.
__all__ = [
    "choose",
    "record_typed_deal",
    "shown",
    "start_game",
    "tap_cards",
    "type_cards",
    "type_into",
    "wait_shown",
]

pytestmark = pytest.mark.browser

KNOCKER = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"  # deadwood 5C
DEFENDER = "TH JH QH KC KD KS 5D 6D 7D AC"  # deadwood AC after the knock: an undercut


def start_game(page: Page, variant: str, players: list[str]) -> None:
    page.get_by_role("button", name="New game").first.click()
    choose(page, "Variant", variant)
    for seat, name in enumerate(players, start=1):
        if seat > 2:
            page.get_by_role("button", name="Add player").click()
        type_into(page, f"Player {seat}", name)
    page.get_by_role("button", name="Start game").click()
    wait_shown(page, "Deal 1")


def record_typed_deal(page: Page, *, out: str, hands: dict[str, str]) -> None:
    page.get_by_role("button", name="Went out").wait_for()
    choose(page, "Went out", out)  # it opens the menu again if a first update closes it
    for player, cards in hands.items():
        type_cards(page, f"Cards left: {player}", cards)
    page.get_by_role("button", name="Save deal").click()
    # Saving replays the game and writes the store: allow a loaded machine its time.
    page.get_by_role("button", name="Record deal").wait_for(timeout=20_000)


def test_gin_knock_tapped_card_by_card_scores_the_undercut(ui_page: Page) -> None:
    start_game(ui_page, "Gin rummy", ["Anna", "Bea"])
    choose(ui_page, "Knocked", "Anna")
    ui_page.get_by_role("button", name="Pick cards for Anna").click()
    tap_cards(ui_page, "Anna", KNOCKER)
    ui_page.get_by_role("button", name="Pick cards for Bea").click()
    tap_cards(ui_page, "Bea", DEFENDER)
    wait_shown(ui_page, "Undercut: Bea scores 29")
    ui_page.get_by_role("button", name="Save deal").click()
    wait_shown(ui_page, "Bea: 29")
    wait_shown(ui_page, "Anna: 0")


def test_rommi_four_players_three_deals_the_second_corrected(ui_page: Page) -> None:
    start_game(ui_page, "Rommi", ["Anna", "Bea", "Cid", "Dan"])
    record_typed_deal(ui_page, out="Anna", hands={"Bea": "KS", "Cid": "QS JS", "Dan": "5H"})
    ui_page.get_by_role("button", name="Record deal").click()
    record_typed_deal(ui_page, out="Bea", hands={"Anna": "7C", "Cid": "3C", "Dan": "QH 2H"})
    ui_page.get_by_role("button", name="Record deal").click()
    record_typed_deal(ui_page, out="Cid", hands={"Anna": "4D", "Bea": "6D", "Dan": "8D"})
    for total in ("Anna: 11", "Bea: 16", "Cid: 23", "Dan: 25"):
        wait_shown(ui_page, total)

    ui_page.get_by_role("button", name="Correct deal 2").click()
    wait_shown(ui_page, "Correct deal 2")
    type_cards(ui_page, "Cards left: Anna", "7C KC")
    ui_page.get_by_role("button", name="Save deal").click()
    for total in ("Anna: 21", "Bea: 16", "Cid: 23", "Dan: 25"):
        wait_shown(ui_page, total)


def test_kalooki_jokers_typed_count_their_penalty(ui_page: Page) -> None:
    start_game(ui_page, "Kalooki", ["Anna", "Bea", "Cid"])
    record_typed_deal(ui_page, out="Anna", hands={"Bea": "* * 5H", "Cid": "KS AH"})
    for total in ("Anna: 0", "Bea: 55", "Cid: 25"):
        wait_shown(ui_page, total)


def test_a_game_in_progress_is_found_as_it_was_after_a_reload(ui_page: Page) -> None:
    start_game(ui_page, "Rommi", ["Eve", "Fay"])
    record_typed_deal(ui_page, out="Eve", hands={"Fay": "KS 9H"})
    wait_shown(ui_page, "Fay: 19")
    ui_page.reload()
    ui_page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=20_000)
    ui_page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    wait_shown(ui_page, "Fay: 19")
    wait_shown(ui_page, "Eve: 0")
    ui_page.get_by_role("button", name="Record deal").wait_for()


def test_switching_to_finnish(ui_page: Page, ui_url: str) -> None:
    ui_page.get_by_role("button", name="Settings").click()
    ui_page.get_by_role("radio", name="suomi").click()
    wait_shown(ui_page, "Kieli")  # the Language heading, now in Finnish
    # Kept on this device: a new session (another tab, or the next evening) opens in Finnish.
    # (A reload goes on with the same session, whose settings it keeps anyway.)
    later = ui_page.context.new_page()
    later.set_default_timeout(10_000)
    later.goto(ui_url)
    open_app(later)
    later.get_by_role("button", name="Alkuun").wait_for()
    later.get_by_role("button", name="Uusi peli").first.wait_for()
    later.close()
    ui_page.get_by_role("button", name="Alkuun").click()
    ui_page.get_by_role("button", name="Uusi peli").first.click()
    ui_page.get_by_role("button", name="Pelimuoto").wait_for()
    ui_page.get_by_role("button", name="Aloita peli").wait_for()
