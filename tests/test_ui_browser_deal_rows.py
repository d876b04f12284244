"""Deal rows that add up, on a 390 px phone in Chromium (issue 16).

A Hollywood deal credited to two games shows its score ×2 under its row; a gin game's last
row shows the game and box bonuses it added. The games are recorded through the store before
the page opens, as another phone at the table would have recorded them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import Server, open_app, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PHONE = 390


@pytest.fixture()
def games(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str]]]:
    store = Store.open(tmp_path / "table")
    hollywood = store.start_game(ruleset="hollywood-gin", players=["Anna", "Bea"]).id
    for _ in range(2):  # Anna's second win counts in games 1 and 2
        store.add_deal(hollywood, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 10}})
    gin = store.start_game(ruleset="gin", players=["Eve", "Fay"]).id
    for knocker, other, theirs in (("Eve", "Fay", 2), ("Fay", "Eve", 22), ("Eve", "Fay", 58)):
        store.add_deal(gin, {"knocker": knocker, "deadwood": {knocker: 0, other: theirs}})
    server = Server(tmp_path / "table")
    try:
        yield server, {"hollywood": hollywood, "gin": gin}
    finally:
        server.stop()


def shown_within_the_phone(page: Page, text: str) -> None:
    """``text`` is on the screen, and whole within the phone's width (wrapped, not cut)."""
    from playwright.sync_api import expect

    found = page.locator("flt-semantics").get_by_text(text, exact=True).first
    expect(found).to_be_visible(timeout=20_000)
    box = found.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE, (text, box)


def test_a_phone_shows_what_each_deal_row_is_made_of(
    games: tuple[Server, dict[str, str]], chromium: Browser
) -> None:
    server, ids = games
    page = open_page(chromium, f"{server.url}game/{ids['hollywood']}", width=PHONE, height=1800)
    try:
        shown_within_the_phone(page, "Anna: 105")
        shown_within_the_phone(page, "games 1, 2")
        shown_within_the_phone(page, "+70")  # the cell: the change of Anna's running total
        shown_within_the_phone(page, "Anna: +70 = +35 ×2 games")
        page.goto(f"{server.url}game/{ids['gin']}")
        open_app(page)
        shown_within_the_phone(page, "Eve: 260")
        shown_within_the_phone(page, "+233")
        shown_within_the_phone(page, "Eve: +233 = +83 deal, +100 game bonus, +50 boxes")
        shown_within_the_phone(page, "Fay: +25 = +25 boxes")
        shown_within_the_phone(page, "final bonuses")  # the chart's key to its bonus steps
    finally:
        page.context.close()
