"""A club night end to end in Chromium: nine players, three rommi tables, two rounds.

The app is served beyond loopback behind its access code, as at a club. The director starts
the night on the screen (six players of the league checked in, three new ones typed, rommi
to 30 so that one deal ends a game); each table's game is opened through the link on the
director's screen in a browser context of its own (a fresh phone: the link's code lets it
through the gate, straight onto the game's Scoreboard), and records the deal that ends it;
the director's screen follows every table live. The director seats round 2, its tables play
to the end, and the night's standings on the screen are the store's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import MENU_TRIES, WAIT_MS, choose, tap_still, tick, type_cards, type_into
from conftest import Server, gated_app, open_app

from scorer.league.store import Store
from scorer.ui.screens.night_model import tiebreak_text

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.browser

CODE = "N1GHTC0DE"
KNOWN = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"]
NEW = ["Gus", "Hal", "Ida"]
#: A change saved on a table's phone shows on the director's screen within this time.
LIVE_MS = 5_000
LOAD_MS = 30_000


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on every interface with its code, on a folder whose league knows six players."""
    folder = tmp_path_factory.mktemp("night-browser")
    store = Store.open(folder / "league")
    store.create_league("Club")
    # Six regulars from an earlier evening (abandoned: it counts nowhere).
    store.abandon_game(store.start_game(ruleset="rommi", players=KNOWN, league="Club").id)
    with gated_app(folder, code=CODE) as url:
        yield url, folder / "league"


def new_phone(chromium: Browser, url: str) -> Page:
    """A phone of its own (a fresh browser context, no cookie) opened on ``url``."""
    page = chromium.new_context(viewport={"width": 390, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    open_app(page, timeout_ms=LOAD_MS)
    return page


def shown(page: Page, text: str | re.Pattern[str], *, timeout: int = 15_000) -> None:
    from playwright.sync_api import expect

    found = (
        page.locator("flt-semantics").get_by_text(text, exact=True)
        if isinstance(text, str)
        else (page.locator("flt-semantics").get_by_text(text))
    )
    expect(found.first).to_be_visible(timeout=timeout)


def check_in(page: Page, name: str, count: int) -> None:
    """Tick ``name`` on the night's start screen and wait until the server counts ``count``
    players present. The box turns on where it is tapped at once; a tap sent as the server
    redrew the list is lost and the redraw turns the box off again: it is ticked once more."""
    from playwright.sync_api import expect

    box = page.get_by_role("checkbox", name=name, exact=True)
    title = page.locator("flt-semantics").get_by_text(f"Players present ({count})", exact=True)
    for _ in range(MENU_TRIES):
        tick(box)
        try:
            expect(title.first).to_be_visible(timeout=WAIT_MS // 3)
        except AssertionError:
            continue
        return
    pytest.fail(f"{name} ticked {MENU_TRIES} times, the night never counted {count} present")


def table_card(page: Page, number: int) -> Locator:
    """A table's card on the director's screen (a screen reader reads it as one group)."""
    return page.get_by_role("group", name=re.compile(rf"^Table {number} "))


def table_links(page: Page, games: list[str]) -> list[str]:
    """Each table's link as the director's screen shows it (in its table's card), in table order."""
    from playwright.sync_api import expect

    links = []
    for number, game in enumerate(games, start=1):
        # Each table's own code (scorer/league/night_codes.py), never the club's.
        pattern = re.compile(rf"http://\S+/game/{game}\?code=(?!{CODE})[A-Z2-9]{{8}}")
        card = table_card(page, number)
        expect(card).to_have_accessible_name(pattern)
        said = card.get_attribute("aria-label") or card.inner_text()
        found = pattern.search(said)
        assert found is not None, said
        links.append(found.group(0))
    return links


def open_phones(chromium: Browser, links: list[str]) -> list[Page]:
    """A fresh phone (a browser context, no cookie) per link, all loading at once: the round's
    tables are opened together, as at the club, and their loads overlap."""
    phones = []
    for link in links:
        phone = chromium.new_context(viewport={"width": 390, "height": 900}).new_page()
        phone.set_default_timeout(15_000)
        phone.goto(link, wait_until="commit")
        phones.append(phone)
    for phone in phones:
        open_app(phone, timeout_ms=LOAD_MS)
    return phones


def record_the_last_deal(phone: Page, seats: tuple[str, ...]) -> None:
    """The table's phone is on its Scoreboard: it records the deal that ends the game (the first
    seat goes out, the others pay 36 and 10 points: over 30)."""
    phone.get_by_role("button", name="Record deal").click()
    phone.get_by_role("button", name="Went out").wait_for()
    choose(phone, "Went out", seats[0])
    for player, cards in zip(seats[1:], ["KS AH *", "QD"], strict=False):
        type_cards(phone, f"Cards left: {player}", cards)
    tap_still(phone, phone.get_by_role("button", name="Save deal"))
    # The phone's own answer first: the saved deal ended the game on its Scoreboard.
    shown(phone, f"Winner: {seats[0]}", timeout=LOAD_MS)


def play_round(chromium: Browser, director: Page, store: Store, night_id: str) -> None:
    """Every table of the night's last round opens its link and plays its game to the end; the
    director's screen follows each table live."""
    from playwright.sync_api import expect

    tables = store.find_night(night_id).rounds[-1].tables
    phones = open_phones(chromium, table_links(director, [t.game for t in tables]))
    for table, phone in zip(tables, phones, strict=True):
        assert f"/game/{table.game}" in phone.url  # through the gate onto the game's Scoreboard
        record_the_last_deal(phone, table.players)
        assert len(store.game(table.game).game.deals) == 1  # saved: from here the director's screen is timed
        # One deal, the first seat the winner at 0, "Finished": within seconds, no reload.
        said = re.compile(rf"Finished {', '.join(table.players)} Deals: 1 · Winner: {table.players[0]} \(0\)")
        expect(table_card(director, table.table)).to_have_accessible_name(said, timeout=LIVE_MS)
    for phone in phones:
        phone.context.close()


def test_a_nine_player_night_of_three_rommi_tables_two_rounds(
    club: tuple[str, Path], chromium: Browser
) -> None:
    from playwright.sync_api import expect

    url, folder = club
    store = Store.open(folder)
    director = new_phone(chromium, f"{url}leagues/Club?code={CODE}")
    director.set_viewport_size({"width": 900, "height": 1000})
    director.get_by_role("button", name="Start a night").click()

    shown(director, "Start a club night")
    for count, name in enumerate(KNOWN, start=1):
        check_in(director, name, count)
    for name in NEW:
        type_into(director, "New player", name)  # it waits for the field the server cleared
        director.get_by_role("button", name="Add player").click()
        director.get_by_role("checkbox", name=name, exact=True).wait_for()
    shown(director, "Players present (9)")
    type_into(director, "Game ends at", "30")
    director.get_by_role("button", name="Start the night").click()

    shown(director, "Round 1: Rommi")
    night = store.nights("Club")[-1]
    assert sorted(p for t in night.rounds[0].tables for p in t.players) == sorted(KNOWN + NEW)
    assert [len(t.players) for t in night.rounds[0].tables] == [3, 3, 3]
    shown(director, "round 1 is not over: these tables are still playing: 1, 2, 3")

    play_round(chromium, director, store, night.id)
    director.get_by_role("button", name="Next round").click()
    shown(director, "Round 2: Rommi")
    night = store.find_night(night.id)
    assert len(night.rounds) == 2
    play_round(chromium, director, store, night.id)

    _, rows = store.night_standings("Club", night.id)
    names = {p.id: p.name for p in store.players()}
    # An open-ended night leads until the director ends it (issue 24, 7), asked first.
    shown(director, f"Leading the night: {names[rows[0].player]}", timeout=LIVE_MS)
    director.get_by_role("button", name="End the night", exact=True).click()
    director.get_by_role("button", name="End the night now").click()
    shown(director, f"Winner of the night: {names[rows[0].player]}", timeout=LIVE_MS)
    assert store.find_night(night.id).over
    assert all(r.games == 2 for r in rows)
    # Every row of the screen's standings is the store's, in its order; the winner starred, and
    # where the night points were level, the tie-break that ordered the rows.
    for place, row in enumerate(rows, start=1):
        name = ("★ " if place == 1 else "") + names[row.player]
        placements = ", ".join(str(p) for p in row.placements)
        cells = f"{place} {name} {row.night_points:g} {row.games} {row.wins} {placements}"
        if row.tiebreak:  # the "Ahead by" column: what put the row above the next, or "tied"
            cells += f" {tiebreak_text(row.tiebreak, 'en')}"
        # "Unconfirmed": the deals of the player's tables no other phone has confirmed (each
        # table's phone saved its own deal here; docs/rules.md, "Confirmed deals (club nights)").
        assert (row.unconfirmed, row.disputed) == (2, 0)
        cells += " 2"
        expect(director.get_by_role("row", name=cells, exact=True)).to_be_visible()
    director.context.close()


def test_on_loopback_a_table_link_is_the_plain_address_of_its_game(tmp_path: Path, chromium: Browser) -> None:
    """Served on loopback (no code): the link is this machine's address of the game, and opens it."""
    from playwright.sync_api import expect

    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="rommi", seed=1)
    game = night.rounds[0].tables[0].game
    server = Server(folder)
    try:
        director = new_phone(chromium, f"{server.url}nights/{night.id}")
        link = f"{server.url}game/{game}"
        expect(table_card(director, 1)).to_have_accessible_name(re.compile(re.escape(link) + "$"))
        phone = new_phone(chromium, link)
        phone.get_by_role("button", name="Record deal").wait_for()
        for page in (director, phone):
            page.context.close()
    finally:
        server.stop()


def test_a_tap_anywhere_on_a_players_row_checks_them_in_and_undo_takes_it_back(
    tmp_path: Path, chromium: Browser
) -> None:
    """Check-in at the door: the row beside the name is a tap target too, the count follows,
    and the last check-in is taken back by its undo."""
    from playwright.sync_api import expect

    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    server = Server(folder)
    try:
        director = new_phone(chromium, f"{server.url}leagues/Club/night")
        shown(director, "Start a club night")
        box = director.get_by_role("checkbox", name="Bea")
        box.scroll_into_view_if_needed()
        drawn = box.bounding_box()
        assert drawn is not None
        director.mouse.click(390 - 24, drawn["y"] + drawn["height"] / 2)  # the row's far end
        expect(box).to_be_checked()
        shown(director, "Players present (1)")
        director.get_by_role("button", name="Undo: Bea checked in").click()
        expect(box).not_to_be_checked()
        shown(director, "Players present (0)")
        tick(director.get_by_role("checkbox", name="Anna"))  # the box itself: one check, not two
        shown(director, "Players present (1)")
        expect(director.get_by_role("button", name="Undo: Anna checked in")).to_be_visible()
        director.context.close()
    finally:
        server.stop()


def test_a_night_started_with_a_timer_and_handicap_shows_them(tmp_path: Path, chromium: Browser) -> None:
    """Started on the screen with a 20-minute timer and handicap: the round's heading counts
    down, and the table card shows the starting points the game was given."""
    from playwright.sync_api import expect

    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    for _ in range(5):  # Anna beats Bea five times: rated above her in rommi
        game = store.start_game(
            ruleset="rommi", players=["Anna", "Bea"], options={"target": 30}, league="Club"
        )
        store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"})
    server = Server(folder)
    try:
        director = new_phone(chromium, f"{server.url}leagues/Club/night")
        shown(director, "Start a club night")
        for count, name in enumerate(["Anna", "Bea"], start=1):
            check_in(director, name, count)
        type_into(director, "Round timer (minutes)", "20")
        tick(director.get_by_role("switch", name="Handicap"))
        # rommi: the lowest total wins, so the stronger player starts with penalty points
        shown(director, re.compile(r"^Stronger players start with penalty points from the rating gap"))
        director.get_by_role("button", name="Start the night").click()

        shown(director, "Round 1: Rommi")
        night = store.nights("Club")[-1]
        assert night.handicap and night.rounds[0].timer == 20
        table = night.rounds[0].tables[0]
        start = store.game(table.game).game.start
        assert start.get("Anna", 0) > 0 and not start.get("Bea")
        shown(director, re.compile(r"^Timer: 20 min · time left (20:00|19:[0-5]\d)$"))
        points = ", ".join(f"{p} +{start[p]}" if start.get(p) else f"{p} 0" for p in table.players)
        expect(table_card(director, 1)).to_have_accessible_name(
            re.compile(re.escape(f"Starting points: {points}"))
        )
        director.context.close()
    finally:
        server.stop()
