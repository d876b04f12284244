"""A club night's codes per role, end to end in Chromium (docs/serving.md, "Codes per role").

The app is served on every interface behind the club's code, over a folder whose league has a
night of three rommi tables (to 30: one deal ends a game). Each phone is a browser context of its
own, let in by one code: table 1's opens table 1's game and records its deal, but not table 2's
game; the viewer's shows the scoreboards and changes nothing; the night's director's opens the
night's screen, whose table cards carry each table's code, and records table 2's deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_kit import choose, tap_still, type_cards
from conftest import gated_app, open_app

from scorer.league.night_codes import night_codes
from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

CLUB_CODE = "CLUBK3Y7"
PLAYERS = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kai", "Lea"]
LOAD_MS = 30_000


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Any]]:
    """The app on every interface, a night of three tables in its store, and the night."""
    folder = tmp_path_factory.mktemp("roles-browser")
    store = Store.open(folder / "league")
    store.create_league("Club")
    night = store.start_night("Club", players=PLAYERS, ruleset="rommi", seed=3, options={"target": 30})
    with gated_app(folder, code=CLUB_CODE) as url:
        yield url, folder / "league", night


def phone(chromium: Browser, url: str) -> Page:
    """A phone of its own (a fresh browser context, no cookie) opened on ``url``."""
    page = chromium.new_context(viewport={"width": 390, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    open_app(page, timeout_ms=LOAD_MS)
    return page


def shown(page: Page, text: str | re.Pattern[str], *, timeout: int = 15_000) -> None:
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text).first).to_be_visible(timeout=timeout)


def go(page: Page, url: str) -> Page:
    """The same phone opens another address in a new tab (its cookie, not a code, lets it in).
    A new tab, a new session: a tab reloaded on another address may keep its session's screen
    (FLET_NOTES.md, "Several phones on one game")."""
    tab = page.context.new_page()
    tab.set_default_timeout(15_000)
    response = tab.goto(url)
    assert response is not None and response.status == 200, url
    open_app(tab, timeout_ms=LOAD_MS)
    return tab


def record_the_deal(page: Page, seats: tuple[str, ...]) -> None:
    """On the game's Scoreboard: the deal that ends it (the first seat goes out, the others pay)."""
    page.get_by_role("button", name="Record deal").click()
    page.get_by_role("button", name="Went out").wait_for()
    choose(page, "Went out", seats[0])
    for player, cards in zip(seats[1:], ["KS AH *", "QD", "KH QH JH"], strict=False):
        type_cards(page, f"Cards left: {player}", cards)
    tap_still(page, page.get_by_role("button", name="Save deal"))
    shown(page, f"Winner: {seats[0]}", timeout=LOAD_MS)


def test_each_code_opens_what_its_role_may(club: tuple[str, Path, Any], chromium: Browser) -> None:
    url, folder, night = club
    store = Store.open(folder)
    codes = night_codes(store.code_secret(), night)  # the server made the secret, or this did
    one, two, three = night.rounds[0].tables

    # Table 1's code: its game, and a deal recorded there.
    table = phone(chromium, f"{url}game/{one.game}?code={codes.table(1)}")
    record_the_deal(table, one.players)
    assert len(Store.open(folder).game(one.game).game.deals) == 1
    # Not table 2's game, nor the night's screen: the way back to its own game instead.
    for elsewhere in (f"game/{two.game}", f"game/{two.game}/deal", f"nights/{night.id}"):
        tab = go(table, url + elsewhere)
        shown(tab, "This code opens table 1's game only")
        assert tab.get_by_role("button", name="Record deal").count() == 0
        tab.close()
    tab = go(table, f"{url}game/{two.game}")
    shown(tab, "This code opens table 1's game only")
    tab.get_by_role("button", name="Table 1's game").click()
    shown(tab, f"Winner: {one.players[0]}")
    table.context.close()

    # The viewer's code: the scoreboards and the night, read-only.
    viewer = phone(chromium, f"{url}game/{two.game}?code={codes.viewer}")
    shown(viewer, two.players[0])
    viewer.wait_for_timeout(1_000)
    assert viewer.get_by_role("button", name="Record deal").count() == 0
    tab = go(viewer, f"{url}game/{two.game}/deal")
    shown(tab, "This code only looks: it cannot record or change anything")
    assert tab.get_by_role("button", name="Save deal").count() == 0
    tab = go(viewer, f"{url}game/{one.game}")
    shown(tab, f"Winner: {one.players[0]}")
    from playwright.sync_api import expect

    expect(tab.get_by_role("button", name="Correct deal 1")).to_be_disabled()
    tab = go(viewer, f"{url}nights/{night.id}")  # the night's tables and standings, no steps
    shown(tab, "Table 3")
    assert tab.get_by_role("button", name="Next round").count() == 0
    assert CLUB_CODE not in tab.content()
    tab = go(viewer, f"{url}nights/{night.id}/tv")
    shown(tab, "Tables")
    viewer.context.close()
    assert Store.open(folder).game(two.game).game.deals == ()

    # The night's director: the night's screen, each table card with its own table's code.
    director = phone(chromium, f"{url}nights/{night.id}?code={codes.director}")
    shown(director, f"Viewer's code (standings, tables, TV view): {codes.viewer}")
    card = director.get_by_role("group", name=re.compile(r"^Table 3 "))
    expect(card).to_have_accessible_name(re.compile(rf"/game/{three.game}\?code={codes.table(3)}"))
    assert CLUB_CODE not in (card.get_attribute("aria-label") or "")
    record_the_deal(go(director, f"{url}game/{two.game}"), two.players)
    director.context.close()
    assert len(Store.open(folder).game(two.game).game.deals) == 1
