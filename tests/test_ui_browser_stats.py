"""The standings and a player's statistics in Chromium: whole on a 390 px phone, full on a desktop.

A phone shows each player on two lines (rank, name, games, wins, rating; then the rest), so
nothing is cut at the right edge; a desktop shows the full table. The expected figures come
from the view-models over the same store the app serves, so the test reads what the screen
should say, not a copy of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import settled
from conftest import Server, open_page
from league_evening import kalooki_and_carousel

from scorer.league.store import Store
from scorer.ui.screens.leagues_model import LeagueModel
from scorer.ui.screens.player_model import PlayerModel

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PHONE, DESKTOP = 390, 1280
#: Tall enough for every table to be drawn at once: only the width is the phone's.
HEIGHT = 3200
LONG_NAME = "Maximiliana Wolfeschlegelsteinhausen"
GIN_50 = {"target": 50}


def record(folder: Path) -> dict[str, str]:
    """Gin (with a long name), Kalooki (penalty points) and Carousel (reward points)."""
    store = Store.open(folder)
    store.create_league("Club")
    for knocker, other in (("Anna", "Bea"), ("Bea", "Anna"), ("Anna", "Bea"), (LONG_NAME, "Anna")):
        game = store.start_game(ruleset="gin", players=[knocker, other], options=GIN_50, league="Club")
        store.add_deal(game.id, {"knocker": knocker, "deadwood": {knocker: 0, other: 30}})
    kalooki_and_carousel(store)
    return {"league": store.league("Club").id, "player": store.player("Anna").id}


@pytest.fixture()
def club(tmp_path: Path) -> Iterator[tuple[Server, Path, dict[str, str]]]:
    folder = tmp_path / "club"
    ids = record(folder)
    server = Server(folder)
    try:
        yield server, folder, ids
    finally:
        server.stop()


def opened(chromium: Browser, url: str, *, width: int) -> Page:
    """The page at ``url``, ``width`` wide; a loaded machine may take a while to draw it."""
    page = open_page(chromium, url, width=width, height=HEIGHT)
    page.set_default_timeout(45_000)
    return page


@dataclass(frozen=True, slots=True)
class Node:
    """A piece of text as Flutter's accessibility tree places it on the page."""

    text: str
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width


LEAVES = """() => [...document.querySelectorAll('flt-semantics')]
  .filter(e => e.querySelector('flt-semantics') === null)
  .map(e => {
    const r = e.getBoundingClientRect();
    return {text: (e.getAttribute('aria-label') || e.innerText || '').trim(),
            x: r.x, y: r.y, width: r.width, height: r.height};
  })
  .filter(n => n.text && n.width > 0)"""


def headings(page: Page) -> list[str]:
    """The full tables' column headings, in the order drawn."""
    page.get_by_role("columnheader").first.wait_for()
    settled(page)  # every heading drawn
    script = "[...document.querySelectorAll('[role=columnheader]')].map(e => e.getAttribute('aria-label'))"
    names: list[str] = page.evaluate(script)
    return names


def lines_on(page: Page, *, wait_for: str) -> list[list[str]]:
    """The texts of the page, line by line (nodes whose middles are level), left to right.

    Every text must lie within the page's width: none cut at the right edge.
    """
    page.locator("flt-semantics").get_by_text(wait_for, exact=True).first.wait_for()
    settled(page)  # the rest of the screen's nodes follow the first
    nodes = [Node(**n) for n in page.evaluate(LEAVES)]
    width = page.viewport_size["width"] if page.viewport_size else 0
    cut = [n for n in nodes if n.x < 0 or n.right > width + 0.5]
    assert not cut, f"cut at the edge of {width} px: {cut}"
    lines: list[list[Node]] = []
    for node in sorted(nodes, key=lambda n: (n.y + n.height / 2, n.x)):
        middle = node.y + node.height / 2
        if lines and abs(lines[-1][0].y + lines[-1][0].height / 2 - middle) <= 4:
            lines[-1].append(node)
        else:
            lines.append([node])
    return [[n.text for n in sorted(line, key=lambda n: n.x)] for line in lines]


def in_order(expected: list[list[str]], lines: list[list[str]]) -> None:
    """Each expected line is one of ``lines``, in the order given."""
    at = 0
    for want in expected:
        found = next((i for i in range(at, len(lines)) if lines[i] == want), None)
        assert found is not None, f"no line {want} after line {at}: {lines[at:]}"
        at = found + 1


def on_phone(chromium: Browser, url: str, *, wait_for: str) -> list[list[str]]:
    """The screen's lines at 390 px (none cut at the edge); the full table is not drawn."""
    page = opened(chromium, url, width=PHONE)
    try:
        lines = lines_on(page, wait_for=wait_for)
        assert page.get_by_role("columnheader").count() == 0
        return lines
    finally:
        page.context.close()


def on_desktop(chromium: Browser, url: str, *, wait_for: str) -> list[str]:
    """The full tables' headings at desktop width; the phone's named figures are not drawn."""
    page = opened(chromium, url, width=DESKTOP)
    try:
        page.locator("flt-semantics").get_by_text(wait_for, exact=True).wait_for()
        names = headings(page)
        assert page.locator("flt-semantics").get_by_text(re.compile(r"^Win rate \d")).count() == 0
        return names
    finally:
        page.context.close()


def test_standings_on_a_phone_show_name_games_wins_and_rating_uncut(
    club: tuple[Server, Path, dict[str, str]], chromium: Browser
) -> None:
    server, folder, ids = club
    tables = LeagueModel.load(Store.open(folder), "Club").tables()
    assert [t.variant for t in tables] == ["", "Carousel", "gin rummy", "Kalooki"]
    expected = []
    for table in tables:
        last = "win_rate" if table.across_variants else "rating"
        expected.append(["#", "Player", "Games", "Wins", "Win rate" if table.across_variants else "Rating"])
        expected += [
            [str(line.rank), line.name, str(line.games), str(line.wins), getattr(line, last)]
            for line in table.lines
        ]
    lines = on_phone(chromium, server.url + f"leagues/{ids['league']}", wait_for="Every variant together")
    in_order(expected, lines)
    # The rest of each player's figures, named, on the line below: nothing is hidden.
    bea = next(line for line in tables[-1].lines if line.name == "Bea")
    assert f"Points {bea.points}" in {text for line in lines for text in line}


def test_standings_on_a_desktop_are_the_full_tables(
    club: tuple[Server, Path, dict[str, str]], chromium: Browser
) -> None:
    server, _, ids = club
    names = on_desktop(chromium, server.url + f"leagues/{ids['league']}", wait_for="Every variant together")
    # Every variant together: what they share, no points and no rating.
    shared = names[: names.index("Streak") + 1]
    assert shared[:7] == ["#", "Player", "Games", "Wins", "Win rate", "Deals", "Won"]
    assert "Points" not in shared and "Rating" not in shared
    # Each variant's own table: its points and rating, then the rest.
    assert names.count("Points") == names.count("Rating") == names.count("Best deal") == 3
    assert {"Per deal", "Gins", "Streak"} <= set(names)  # gin's event among them


def test_a_players_statistics_on_a_phone_show_games_wins_and_rating_uncut(
    club: tuple[Server, Path, dict[str, str]], chromium: Browser
) -> None:
    server, folder, ids = club
    variants = PlayerModel.load(Store.open(folder), ids["player"]).variants()
    expected = [["Variant", "Games", "Wins", "Rating"]]
    expected += [
        [line.variant or "All variants", str(line.games), str(line.wins), line.rating] for line in variants
    ]
    in_order(expected, on_phone(chromium, server.url + f"players/{ids['player']}", wait_for="Statistics"))


def test_a_players_statistics_on_a_desktop_are_the_full_table(
    club: tuple[Server, Path, dict[str, str]], chromium: Browser
) -> None:
    server, _, ids = club
    names = on_desktop(chromium, server.url + f"players/{ids['player']}", wait_for="Statistics")
    assert names[:11] == [
        "Variant",
        "Games",
        "Wins",
        "Rating",
        "Win rate",
        "Points",
        "Per deal",
        "Deals",
        "Won",
        "Best deal",
        "Streak",
    ]
