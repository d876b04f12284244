"""A club night's table on the Scoreboard, end to end in Chromium: the night's tag, the round
timer counting down every second, "time is up" once the deadline has passed, the game called by
the first deal saved after it, and the handicap line (docs/rules.md, "Timed rounds" and
"Handicap"). The nights are made through the store before the page opens (another program on
the same folder): one started half an hour ago with a 20-minute timer, so its time is up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

TICKING = re.compile(r"^Time left: \d\d:\d\d$")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = tmp_path_factory.mktemp("night") / "league"
    store = Store.open(folder)
    store.create_league("Club")
    server = Server(folder)
    try:
        yield server, folder
    finally:
        server.stop()


def shown(page: Page, text: str | re.Pattern[str], *, timeout: int = 15_000) -> None:
    from playwright.sync_api import expect

    found = page.locator("flt-semantics").get_by_text(text, exact=True).first
    expect(found).to_be_visible(timeout=timeout)


def test_a_timed_table_counts_down_every_second(club: tuple[Server, Path], chromium: Browser) -> None:
    server, folder = club
    night = Store.open(folder).start_night("Club", players=["Anna", "Bea"], ruleset="gin", timer=30)
    game_id = night.rounds[0].tables[0].game
    page = open_page(chromium, server.url + f"game/{game_id}", width=390, height=844)
    try:
        shown(page, "Club night · round 1 · table 1")
        shown(page, TICKING)
        timer = page.locator("flt-semantics").get_by_text(TICKING).first
        from playwright.sync_api import expect

        first = timer.inner_text()
        # the clock goes on by itself: its text changes, counting down ("29:57" after "29:59")
        expect(page.locator("flt-semantics").get_by_text(TICKING).first).not_to_have_text(
            first, timeout=15_000
        )
        later = page.locator("flt-semantics").get_by_text(TICKING).first.inner_text()
        assert later < first
    finally:
        page.context.close()


def test_time_up_then_the_next_deal_saved_ends_the_game_with_the_handicap_shown(
    club: tuple[Server, Path], chromium: Browser
) -> None:
    server, folder = club
    store = Store.open(folder)
    for _ in range(5):  # Cid is rated above Dan in gin: Dan starts with handicap points
        game = store.start_game(ruleset="gin", players=["Cid", "Dan"], league="Club")
        store.add_deal(game.id, {"knocker": "Cid", "deadwood": {"Cid": 0, "Dan": 80}})
    half_an_hour_ago = (datetime.now(UTC) - timedelta(minutes=30)).isoformat(timespec="microseconds")
    earlier = Store.open(folder, clock=lambda: half_an_hour_ago)
    night = earlier.start_night("Club", players=["Cid", "Dan"], ruleset="gin", timer=20, handicap=True)
    table = night.rounds[0].tables[0]
    assert table.start["Dan"] > 0 and "Cid" not in table.start
    points = ", ".join(f"{p} +{table.start[p]}" if p in table.start else f"{p} 0" for p in table.players)
    page = open_page(chromium, server.url + f"game/{table.game}", width=390, height=844)
    try:
        shown(page, "Time is up: this deal is the last.")
        shown(page, f"Handicap: {points}")
        store.add_deal(table.game, {"knocker": "Cid", "deadwood": {"Cid": 0, "Dan": 10}})
        shown(page, "Time ran out: the game ended after deal 1.")
    finally:
        page.context.close()
