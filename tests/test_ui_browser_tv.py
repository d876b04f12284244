"""The club night's TV view in Chromium: a night of three rommi tables on a 1080p wall screen,
a deal saved elsewhere showing on it within seconds without a reload, and at a phone's size
(the same page resized) the tables turning in pages.

The TV is opened from the director's screen's `TV view` button, as a director would try it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import shown, wait_shown
from conftest import Server, open_page
from test_league_night import finish

from scorer.league.store import Store
from scorer.ui.screens.tv_model import ROTATE_SECONDS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

NINE = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida"]
#: A change saved by another program shows on the TV within this time (the app polls the store).
LIVE_MS = 5_000
#: A page of tables turns within this time (the rotation, and a loaded machine's slack).
TURN_MS = ROTATE_SECONDS * 1000 + 8_000


def test_the_tv_follows_the_night_on_a_wall_screen_and_pages_its_tables_on_a_phone(
    tmp_path: Path, chromium: Browser
) -> None:
    from playwright.sync_api import expect

    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    night = store.start_night(
        "Club", players=NINE, ruleset="rommi", seed=3, options={"target": 30}, timer=45, rounds=3
    )
    tables = night.rounds[0].tables
    server = Server(folder)
    try:
        tv = open_page(chromium, f"{server.url}nights/{night.id}", width=1920, height=1080)
        # The director's screen says the address a wall screen's browser opens (on loopback, plain).
        wait_shown(tv, f"The wall screen opens the TV view at {server.url}nights/{night.id}/tv")
        tv.get_by_role("button", name="TV view").click()
        wait_shown(tv, "Club · Club night")
        assert tv.url.endswith(f"/nights/{night.id}/tv")
        # The whole round at once: three tables, no page label, the timer counting down.
        wait_shown(tv, "Tables")
        for table in tables:
            wait_shown(tv, f"Table {table.table}")
            for player in table.players:
                expect(shown(tv, player).first).to_be_visible()
        expect(shown(tv, "Playing")).to_have_count(3)
        expect(shown(tv, "No deal yet")).to_have_count(3)
        expect(shown(tv, re.compile(r"^Time left (45:00|44:[0-5]\d)$")).first).to_be_visible()
        expect(
            tv.locator("flt-semantics").get_by_text(re.compile(r"^Round 1 of 3: Rommi · Started "))
        ).to_be_visible()
        wait_shown(tv, "No table has finished yet.")
        # A board: nothing to tap, nothing to type into.
        assert tv.get_by_role("button").count() == 0
        assert tv.get_by_role("textbox").count() == 0

        # Table 2's phone saves the deal that ends its game (here: straight into the store, as
        # another process): the TV shows it within seconds, without a reload.
        finish(store, tables[1].game)
        second = tables[1].players
        # the deal count, and the mark of a deal waiting for the table's confirmation
        wait_shown(tv, "Deals: 1 · Unconfirmed deals: 1", timeout=LIVE_MS)
        wait_shown(tv, "Finished", timeout=LIVE_MS)
        wait_shown(tv, f"★ {second[0]}")  # the table's leader, on its card and atop the standings
        wait_shown(tv, "36")  # the second seat's total, as the store keeps it
        _, rows = store.night_standings("Club", night.id)
        leader = {p.id: p.name for p in store.players()}[rows[0].player]
        wait_shown(tv, f"Leading the night: {leader}")

        # The same page at a phone's size: two tables fit, the third comes on the next page.
        tv.set_viewport_size({"width": 390, "height": 844})
        wait_shown(tv, "Tables 1–2 of 3", timeout=LIVE_MS)
        wait_shown(tv, "Table 3 of 3", timeout=TURN_MS)
        expect(shown(tv, "Table 3")).to_be_visible()
        expect(shown(tv, "Table 1")).to_have_count(0)
        wait_shown(tv, "Tables 1–2 of 3", timeout=TURN_MS)  # and round again
        tv.context.close()
    finally:
        server.stop()
