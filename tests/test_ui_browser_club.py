"""The club's screens end to end in Chromium: standings, a player's rating chart, export and import.

Each test serves the app on its own data folder, with games recorded through the store
before the page opens (as another phone at the table would have recorded them).
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import settled
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}


def record_club(folder: Path) -> Store:
    store = Store.open(folder)
    store.create_league("Club")
    for deal in (ANNA_BIG_GIN, BEA_GIN, ANNA_BIG_GIN):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        store.add_deal(game.id, deal)
    return store


@pytest.fixture()
def club_server(tmp_path: Path) -> Iterator[Server]:
    record_club(tmp_path / "club")
    server = Server(tmp_path / "club")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def empty_server(tmp_path: Path) -> Iterator[Server]:
    Store.open(tmp_path / "empty")  # no league: the import makes the one its file names
    server = Server(tmp_path / "empty")
    try:
        yield server
    finally:
        server.stop()


def shown(page: Page, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text, exact=True).first).to_be_visible()


def open_league(page: Page) -> None:
    page.get_by_role("button", name="Leagues").first.click()
    page.get_by_role("button", name=re.compile(r"^Club open season")).click()
    shown(page, "Standings")


def test_standings_then_a_player_and_the_rating_chart(club_server: Server, chromium: Browser) -> None:
    page = open_page(chromium, club_server.url)
    try:
        open_league(page)
        page.get_by_role("columnheader", name="Win rate").wait_for()
        page.get_by_role("columnheader", name="Big gins").wait_for()  # the variant's event column
        shown(page, "67%")  # Anna: 2 wins in 3 games
        shown(page, "Finished games")
        page.get_by_role("button", name="Anna").first.click()
        shown(page, "Statistics")
        chart = page.locator("flt-semantics").get_by_text(
            re.compile(r"^Rating history in gin rummy: 3 games")
        )
        chart.first.wait_for()
        shown(page, "Recent games")
    finally:
        page.context.close()


#: What each finished game of the club shows, by its winner: gin to 50 with the defaults
#: (big gin 31, gin 25, game bonus 100, a box 25 a hand won, a shutout doubles the hand points).
FINISHED = {
    # Anna's big gin: 31 + Bea's 20 = 51; shutout +51, game +100, one box +25: 227.
    "Anna": {"totals": {"Anna": 227, "Bea": 0}, "bonuses": {"shutout": 51, "game bonus": 100, "boxes": 25}},
    # Bea's gin: 25 + Anna's 30 = 55; shutout +55, game +100, one box +25: 235.
    "Bea": {"totals": {"Anna": 0, "Bea": 235}, "bonuses": {"shutout": 55, "game bonus": 100, "boxes": 25}},
}


def test_a_finished_game_opens_its_scoreboard_with_totals_winner_and_bonuses(
    club_server: Server, chromium: Browser, tmp_path: Path
) -> None:
    page = open_page(chromium, club_server.url + "leagues")
    try:
        page.get_by_role("button", name=re.compile(r"^Club open season")).click()
        shown(page, "Finished games")
        page.get_by_role("button", name=re.compile(r"^gin rummy: Anna, Bea")).first.click()
        page.wait_for_url(re.compile(r"/game/[0-9a-f-]+$"))
        game_id = page.url.rsplit("/", 1)[1]
        winner = Store.open(tmp_path / "club").game(game_id).game.result.winner
        assert winner in FINISHED
        expected = FINISHED[winner]
        shown(page, "Totals")
        for player, total in expected["totals"].items():
            shown(page, f"{player}: {total}")
        shown(page, f"Winner: {winner}")
        shown(page, "Final bonuses")
        for bonus, points in expected["bonuses"].items():
            shown(page, f"{winner}: {bonus} +{points}")
        page.get_by_role("button", name="Correct deal 1").wait_for()
        assert page.get_by_role("button", name="Record deal").count() == 0  # the game is over
    finally:
        page.context.close()


def test_export_a_league_and_import_it_into_an_empty_store(
    club_server: Server, empty_server: Server, chromium: Browser, tmp_path: Path
) -> None:
    page = open_page(chromium, club_server.url)
    try:
        open_league(page)
        with page.expect_download() as download_info:
            page.get_by_role("button", name="Export league (JSON)").click()
        exported = tmp_path / download_info.value.suggested_filename
        download_info.value.save_as(exported)
        assert exported.name == "club.json"
    finally:
        page.context.close()

    page = open_page(chromium, empty_server.url)
    try:
        page.get_by_role("button", name="Leagues").first.click()
        shown(page, "No league yet. A league keeps a club's games season by season and ranks its players.")
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name="Import a league").click()
        chooser.value.set_files(str(exported))
        shown(page, "A new league Club is made for it.")
        shown(page, "new games: 3")  # the preview: nothing written yet
        assert Store.open(tmp_path / "empty").games() == []
        assert Store.open(tmp_path / "empty").leagues() == []
        page.get_by_role("button", name="Import now").click()
        shown(page, "Standings")  # the new league's screen
        shown(page, "67%")
    finally:
        page.context.close()
    club, copy = Store.open(tmp_path / "club"), Store.open(tmp_path / "empty")
    assert copy.standings("Club") == club.standings("Club")


def test_export_one_game_file(club_server: Server, chromium: Browser, tmp_path: Path) -> None:
    page = open_page(chromium, club_server.url)
    try:
        open_league(page)
        with page.expect_download() as download_info:
            page.get_by_role("button", name=re.compile(r"^Export game file: gin rummy")).first.click()
        saved = tmp_path / "game.json"
        download_info.value.save_as(saved)
    finally:
        page.context.close()
    document = json.loads(saved.read_text())
    store = Store.open(tmp_path / "club")
    newest = max(store.games(), key=lambda g: (g.played, g.id))
    assert document["id"] == newest.id
    assert document["ruleset"] == "gin" and len(document["deals"]) == 1


def test_backup_now_in_settings_writes_a_zip_beside_the_data(
    club_server: Server, chromium: Browser, tmp_path: Path
) -> None:
    page = open_page(chromium, club_server.url + "settings")
    try:
        page.get_by_role("button", name="Back up now").click()
        written = page.locator("flt-semantics").get_by_text(
            re.compile(r"Backup rummy-league-\S+\.zip written\.")
        )
        written.first.wait_for()
    finally:
        page.context.close()
    backups = list((tmp_path / "club-backups").glob("rummy-league-*.zip"))
    assert len(backups) == 1
    with zipfile.ZipFile(backups[0]) as archive:
        assert archive.namelist() == ["facts.jsonl"]  # the log of facts: all the rest is made from it


def test_settings_draws_back_up_now_where_it_stays(club_server: Server, chromium: Browser) -> None:
    """The flaky backup test's cause: Settings drew its fields before the device's kept name
    had arrived, then the line naming the device pushed them down 46 px, and a tap aimed at
    Back up now as it first stood landed on the text above it (no backup written)."""
    page = open_page(chromium, club_server.url + "settings")
    try:
        button = page.get_by_role("button", name="Back up now")
        button.wait_for()
        first = button.bounding_box()  # as soon as it is there, before anything else lands
        page.locator("flt-semantics").get_by_text(re.compile(r"^This device's own name is ")).first.wait_for()
        settled(page)
        assert first is not None and button.bounding_box() == first
    finally:
        page.context.close()


def test_every_player_is_listed_under_the_leagues_and_opens_their_statistics(
    club_server: Server, chromium: Browser, tmp_path: Path
) -> None:
    from test_ui_browser_stats import lines_on

    from scorer.ui.screens.player_model import PlayerModel

    page = open_page(chromium, club_server.url + "leagues")
    try:
        shown(page, "Players")
        page.get_by_role("button", name=re.compile(r"^Anna games: 3")).click()
        page.wait_for_url(re.compile(r"/players/[0-9a-f-]+$"))
        player_id = page.url.rsplit("/", 1)[1]
        page.set_viewport_size({"width": 390, "height": 900})  # a phone: every figure, none cut
        lines = lines_on(page, wait_for="Statistics")
        # Anna played three games of gin rummy and won two (her big gins): 67%.
        rating = PlayerModel.load(Store.open(tmp_path / "club"), player_id).variants()[-1].rating
        gin = next((line for line in lines if line[:1] == ["gin rummy"]), None)
        assert gin == ["gin rummy", "3", "2", rating], lines
        assert "Win rate 67%" in {text for line in lines for text in line}, lines
        shown(page, "Recent games")
        assert page.get_by_role("button", name=re.compile(r"^gin rummy: Anna, Bea")).count() == 3
    finally:
        page.context.close()
