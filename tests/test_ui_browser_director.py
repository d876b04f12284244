"""The director of a club night end to end in Chromium: a table's phone calls the director from
its Scoreboard, the director's screen shows the call within seconds and answers it, the table's
phone shows the answer; a penalty given on the director's screen shows on the table's Scoreboard
with its totals (docs/app.md, "Club night"). Two browser sessions on one app, as two phones."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import type_into
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = tmp_path_factory.mktemp("director") / "league"
    Store.open(folder).create_league("Club")
    server = Server(folder)
    try:
        yield server, folder
    finally:
        server.stop()


def shown(page: Page, text: str | re.Pattern[str], *, timeout: int = 15_000) -> None:
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text, exact=True).first).to_be_visible(timeout=timeout)


def test_a_table_calls_the_director_who_answers_and_gives_a_penalty(
    club: tuple[Server, Path], chromium: Browser
) -> None:
    server, folder = club
    night = Store.open(folder).start_night(
        "Club", players=["Anna", "Bea"], ruleset="gin", seed=1, options={"target": 50}
    )
    table = night.rounds[0].tables[0]
    first, second = table.players
    phone = open_page(chromium, server.url + f"game/{table.game}", width=390, height=844)
    director = open_page(chromium, server.url + f"nights/{night.id}", width=1000, height=1400)
    try:
        shown(director, "No calls waiting.")
        phone.get_by_role("button", name="Call director").click()
        phone.get_by_role("radio", name="A dispute").click()
        type_into(phone, "Note (optional)", "who dealt?")
        phone.get_by_role("button", name="Call", exact=True).click()
        shown(
            phone,
            re.compile(r"^Called the director at \S+: A dispute \(who dealt\?\) · waiting for the director$"),
        )

        shown(director, re.compile(r"^Table 1 · \S+ · .+: A dispute \(who dealt\?\)$"))
        director.get_by_role("button", name="Answer", exact=True).click()
        type_into(director, "Answer (a note for the table)", "Anna dealt")
        director.get_by_role("button", name="Done").click()
        shown(director, "No calls waiting.")
        shown(phone, re.compile(r"· answered at \S+ by .+: Anna dealt$"))

        director.get_by_role("button", name="Penalty").click()
        director.get_by_role("radio", name=second).click()
        type_into(director, "Points", "5")
        type_into(director, "Reason", "slow play")
        director.get_by_role("button", name="Give penalty").click()
        from playwright.sync_api import expect

        expect(director.get_by_role("button", name="Lift")).to_be_visible()  # in the table's card
        shown(phone, re.compile(rf"^Penalty: {second}, 5 points \(slow play\)"))
        shown(phone, f"{second}: -5")  # gin: the highest total wins, so a penalty takes away
        shown(phone, f"{first}: 0")
    finally:
        phone.context.close()
        director.context.close()
