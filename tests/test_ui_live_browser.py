"""Two phones on one game, end to end: two browser contexts (two Flet sessions) on one app.

What a table with every phone on one game needs: a deal saved on one phone shows on the other's
open Scoreboard within 2 seconds without a reload; two phones saving the same deal never save
it twice, and the second is shown both entries with three ways on; a correction racing a
removal is caught; a browser reload reads the store afresh. Games are started through the
store before the pages open (another program on the same folder), so only what is tested is
typed; typing goes at a person's pace (100 ms a key), as on a phone.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, type_cards, type_into
from browser_kit import wait_shown as shown
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

#: A change saved on one phone shows on the other's open screen within this time.
LIVE_MS = 2_000


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One app for the module's tests, on a data folder of its own; each test starts its own game."""
    folder = tmp_path_factory.mktemp("live") / "league"
    Store.open(folder)
    server = Server(folder)
    try:
        yield server
    finally:
        server.stop()


def folder_of(server: Server) -> Path:
    return Path(server.log.parent) / "league"


def new_game(server: Server, *deals: dict[str, object]) -> str:
    """A rommi game for Anna and Bea with ``deals`` saved, through a store of the test's own."""
    store = Store.open(folder_of(server))
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"], by="Test").id
    for deal in deals:
        store.add_deal(game_id, deal, by="Test")
    return game_id


def phone(chromium: Browser, server: Server, route: str) -> Page:
    """A phone of its own (a browser context: its own Flet session) opened on ``route``."""
    return open_page(chromium, server.url + route, width=900, height=1000)


def enter_deal(page: Page, *, out: str, cards: dict[str, str]) -> None:
    """Deal entry is open: who went out and the cards left, then Save deal."""
    page.get_by_role("button", name="Went out").wait_for()
    choose(page, "Went out", out)  # it opens the menu again if a first update closes it
    for player, text in cards.items():
        type_cards(page, f"Cards left: {player}", text)
    page.get_by_role("button", name="Save deal").click()


def reopen(page: Page, url: str) -> None:
    """Load ``url`` in the same tab: the browser reconnects to the same Flet session."""
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=20_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached")


def close(*pages: Page) -> None:
    for page in pages:
        page.context.close()


def test_a_deal_saved_on_one_phone_shows_on_the_others_scoreboard_without_reload(
    table: Server, chromium: Browser
) -> None:
    game_id = new_game(table)
    a = phone(chromium, table, f"game/{game_id}")
    b = phone(chromium, table, f"game/{game_id}/deal")
    try:
        shown(a, "Bea: 0")
        enter_deal(b, out="Anna", cards={"Bea": "KS"})
        shown(a, "Bea: 10", timeout=LIVE_MS)
        shown(a, "Anna: 0")
    finally:
        close(a, b)


def _both_enter_deal_one(table: Server, chromium: Browser) -> tuple[str, Page, Page]:
    """Both phones open the entry of deal 1; A saves first, B's save is refused and shows both."""
    game_id = new_game(table)
    a = phone(chromium, table, f"game/{game_id}/deal")
    b = phone(chromium, table, f"game/{game_id}/deal")
    shown(a, "Deal 1")
    shown(b, "Deal 1")
    enter_deal(a, out="Anna", cards={"Bea": "KS"})
    shown(a, "Bea: 10")
    enter_deal(b, out="Bea", cards={"Anna": "5C"})
    shown(b, "Deal 1 was saved on another phone first")
    shown(b, "Mine")
    shown(b, "Theirs")
    shown(b, "Bea: K♠ (10)")  # theirs, readable: the cards once, with the suit symbols
    shown(b, "Anna: 5♣ (5)")  # mine
    return game_id, a, b


def test_both_phones_save_deal_one_keep_theirs(table: Server, chromium: Browser) -> None:
    game_id, a, b = _both_enter_deal_one(table, chromium)
    try:
        b.get_by_role("button", name="Keep theirs").click()
        shown(b, "Bea: 10")
        shown(b, "Anna: 0")
        assert len(Store.open(folder_of(table)).game(game_id).game.deals) == 1
    finally:
        close(a, b)


def test_both_phones_save_deal_one_save_mine_as_the_next_deal(table: Server, chromium: Browser) -> None:
    game_id, a, b = _both_enter_deal_one(table, chromium)
    try:
        b.get_by_role("button", name="Save mine as the next deal").click()
        shown(b, "Anna: 5")
        shown(a, "Anna: 5", timeout=LIVE_MS)  # and on the first phone, live
        shown(a, "Bea: 10")
        assert len(Store.open(folder_of(table)).game(game_id).game.deals) == 2
    finally:
        close(a, b)


def test_both_phones_save_deal_one_replace_theirs_asks_why_and_signs_it(
    table: Server, chromium: Browser
) -> None:
    game_id, a, b = _both_enter_deal_one(table, chromium)
    try:
        b.get_by_role("button", name="Replace theirs").click()
        type_into(b, "Why (optional)", "Bea went out")
        b.get_by_role("button", name="Save correction").click()
        shown(b, "Anna: 5")
        shown(b, "Bea: 0")
        shown(a, "Anna: 5", timeout=LIVE_MS)
        deals = Store.open(folder_of(table)).game(game_id).document["deals"]
        assert len(deals) == 1 and deals[0]["out"] == "Bea"
        events = Store.open(folder_of(table)).events(game_id)
        assert (events[-1].action, events[-1].why) == ("corrected", "Bea went out")
        # The deal's history under its row, signed with the phone's own name (issue 24, item 9),
        # and what the correction changed.
        b.get_by_text(
            re.compile(r"^corrected by Device [A-HJ-NP-Z2-9]{4} at .*: Bea went out · was: ")
        ).first.wait_for()
    finally:
        close(a, b)


def test_a_correction_racing_a_removal_is_caught(table: Server, chromium: Browser) -> None:
    game_id = new_game(
        table,
        {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"},
        {"hands": {"Anna": "9H", "Bea": ""}, "out": "Bea"},
    )
    a = phone(chromium, table, f"game/{game_id}/deal/2")
    b = phone(chromium, table, "settings")
    try:
        shown(a, "Correct deal 2")
        # B gives its name first (Settings): its removal is signed with it. The field holds the
        # name the device made for itself on its first start (issue 24, item 9): typed over.
        shown(b, re.compile(r"^This device's own name is Device "))
        b.get_by_role("textbox", name="Your name").click()
        b.keyboard.press("Control+A")
        b.keyboard.press("Backspace")
        type_into(b, "Your name", "Bea")
        reopen(b, table.url + f"game/{game_id}")
        b.get_by_role("button", name="Remove deal 2").click()
        type_into(b, "Why (optional)", "never dealt")
        b.get_by_role("button", name="Remove it").click()
        shown(b, "Deal 2 removed.")
        b.get_by_role("button", name="Undo").wait_for()
        # A's header follows the store: it says what happened to its deal meanwhile.
        a.get_by_text("Meanwhile: Deal 2: removed by Bea at").first.wait_for(timeout=LIVE_MS)
        # A's correction started from deal 2 as it was: its save is refused and shows why.
        type_cards(a, "Cards left: Anna", " 2C")
        a.get_by_role("button", name="Save deal").click()
        shown(a, "Deal 2 changed since you opened it")
        a.get_by_text("Deal 2: removed by Bea at").first.wait_for()
        shown(a, "(removed: no deal 2 now)")
        a.get_by_role("button", name="Keep theirs").click()
        shown(a, "Bea: 10")
        a.get_by_text("Deal 2: removed by Bea at").first.wait_for()  # in the game's history
        assert len(Store.open(folder_of(table)).game(game_id).game.deals) == 1
    finally:
        close(a, b)


def test_a_reload_reads_the_store_afresh(table: Server, chromium: Browser) -> None:
    game_id = new_game(table)
    a = phone(chromium, table, f"game/{game_id}")
    try:
        shown(a, "Bea: 0")
        # The phone leaves (its session waits for it); another program records a deal meanwhile.
        a.goto("about:blank")
        Store.open(folder_of(table)).add_deal(game_id, {"hands": {"Anna": "", "Bea": "QS 2H"}, "out": "Anna"})
        time.sleep(1.5)  # the app has noticed the change while the phone was away
        reopen(a, table.url + f"game/{game_id}")
        shown(a, "Bea: 12")
    finally:
        close(a)
