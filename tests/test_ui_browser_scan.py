"""Scanning with the camera, end to end in Chromium with a fake camera (issue 28, items 2 and 4).

Chromium plays a video of codes as its camera (tests/camera_kit.py); the app's camera control
(flet-camera, its client in the prebuilt web client) takes a picture every 0.3 s and the served
app decodes it with zxing-cpp. Phone B scans phone A's game (three codes, out of order, with
repeats) and shows the same totals; a damaged code and a code of another hand-off are refused
with their reasons and nothing is merged; a gin deal is entered from two slips that two other
phones showed with ``Show as slip`` (their screenshots are the slips the camera sees).
One app server (phone B's) serves every test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, type_cards, wait_shown
from camera_kit import camera_page, code_on_screen, write_y4m
from conftest import Server, open_app, open_page
from sync_kit import play
from test_ui_app_browser import KNOCKER

from scorer.league.handoff import Part, Slip, encode_parts
from scorer.league.handoff_cli import write_codes
from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bea", "Cid"]
BEA = "KS KD KC QH QS QD JH JD JC TS"
#: A scan, a decode and a redraw per code on a busy machine.
SCAN_MS = 60_000


class PhoneB:
    """Phone B: the app served on a store with league Club and a new gin game of Anna and Bea."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        store = Store.open(folder)
        self.league = store.create_league("Club").id
        self.gin = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
        store.close()
        self.server = Server(folder)
        self.url = self.server.url


@pytest.fixture(scope="module")
def phone_b(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PhoneB]:
    phone = PhoneB(tmp_path_factory.mktemp("scan") / "phone-b")
    try:
        yield phone
    finally:
        phone.server.stop()


def games_of(phone: PhoneB) -> list[tuple[str, int]]:
    """Every game on phone B and its number of deals, as its store reads them. (Not the files'
    bytes: the app may tidy its files after an earlier test's merge, writing the same facts.)"""
    return sorted((g.id, g.deals) for g in Store.open(phone.folder).games(deleted=True))


def phone_a_game(folder: Path, *, deals: int, seed: int) -> tuple[Store, str]:
    """Phone A's store: league Club and one rommi game of ``deals`` deals."""
    store = Store.open(folder)
    store.create_league("Club")
    return store, play(store, "Club", PLAYERS, deals, seed=seed)


def pictures(parts: list[bytes], out: Path) -> list[Path]:
    """The parts as PNG files, as ``rummy league qr`` writes them."""
    return write_codes(parts, out=out, stem="code")


def closing(page: Page) -> None:
    browser = page.context.browser
    assert browser is not None
    browser.close()


def test_phone_b_scans_phone_a_game_and_shows_the_same_totals(
    phone_b: PhoneB, chromium: Browser, tmp_path: Path
) -> None:
    store_a, game = phone_a_game(tmp_path / "phone-a", deals=25, seed=2)
    parts = encode_parts(store_a.export_facts("Club", game=game))
    assert len(parts) == 3
    files = pictures(parts, tmp_path / "codes")
    # Out of order, with a repeat: the order a hand moving over a cycling screen gives.
    video = write_y4m([files[2], files[0], files[2], files[1]], tmp_path / "game.y4m")
    page = camera_page(chromium, video, f"{phone_b.url}leagues/{phone_b.league}")
    try:
        page.get_by_role("button", name="Scan").click()
        wait_shown(page, "3 of 3 read", timeout=SCAN_MS)
        wait_shown(page, "The import would add")
        wait_shown(page, "new games: 1")
        wait_shown(page, "new deals: 25")
        page.get_by_role("button", name="Import now").click()
        # Anna and Bea play on phone B already: Cid is the one new player.
        wait_shown(page, "Imported: 1 new games, 25 new deals, 1 new players.")
        page.get_by_role("button", name="Back to the league").click()
        page.goto(f"{phone_b.url}game/{game}")
        open_app(page)
        totals = store_a.game(game).result.totals
        assert len(totals) == 3
        for player, total in totals.items():  # the Scoreboard: the same totals as on phone A
            wait_shown(page, f"{player}: {total}")
    finally:
        closing(page)


def test_a_damaged_code_and_a_code_of_another_hand_off_are_refused_and_nothing_merged(
    phone_b: PhoneB, chromium: Browser, tmp_path: Path
) -> None:
    store_a, game = phone_a_game(tmp_path / "phone-a", deals=25, seed=7)
    ours = encode_parts(store_a.export_facts("Club", game=game))
    other = play(store_a, "Club", PLAYERS, 2, seed=9)
    theirs = encode_parts(store_a.export_facts("Club", game=other))
    second = Part.parse(ours[1])
    damaged = second.format()[:-1] + bytes([second.data[-1] ^ 0xFF])  # its checksum no longer checks
    files = pictures([ours[0], damaged, theirs[0]], tmp_path / "codes")
    video = write_y4m(files, tmp_path / "refused.y4m")
    before = games_of(phone_b)
    page = camera_page(chromium, video, f"{phone_b.url}leagues/{phone_b.league}/scan")
    try:
        wait_shown(page, "1 of 3 read", timeout=SCAN_MS)
        wait_shown(page, "This code is damaged. Show it again and scan it anew.", timeout=SCAN_MS)
        wait_shown(
            page, "This code is from another hand-off. Scan the codes of one game at a time.", timeout=SCAN_MS
        )
        assert page.get_by_role("button", name="Import now").count() == 0
        wait_shown(page, "1 of 3 read")  # the refused codes counted nowhere
        page.get_by_role("button", name="Scan another game").wait_for()  # a way to start over
    finally:
        closing(page)
    assert games_of(phone_b) == before  # nothing merged


def test_scan_from_photos_reads_the_codes_and_says_a_picture_with_none(
    phone_b: PhoneB, chromium: Browser, tmp_path: Path
) -> None:
    """No camera here (a Chromium with no fake device): the pictures chosen in the file picker."""
    store_a, game = phone_a_game(tmp_path / "phone-a", deals=25, seed=11)
    files = pictures(encode_parts(store_a.export_facts("Club", game=game)), tmp_path / "codes")
    blank = tmp_path / "blank.png"
    blank.write_bytes(code_free_picture())
    page = open_page(chromium, f"{phone_b.url}leagues/{phone_b.league}/scan", width=420, height=1100)
    try:
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name="Scan from a photo").click()
        chooser.value.set_files([str(blank)])
        wait_shown(page, "No code found in this picture.")
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name="Scan from a photo").click()
        chooser.value.set_files([str(f) for f in files])
        wait_shown(page, "3 of 3 read", timeout=SCAN_MS)
        wait_shown(page, "new deals: 25")
    finally:
        page.context.close()


def code_free_picture() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (300, 300), "white").save(out, format="PNG")
    return out.getvalue()


def show_slip(chromium: Browser, url: str, player: str, cards: str) -> bytes:
    """On a player's own phone: their hand typed into the deal entry and shown as a slip; the
    code as a picture cut from a screenshot of the phone's screen."""
    page = open_page(chromium, url, width=420, height=1800)  # the slip below both hands in sight
    try:
        wait_shown(page, "Deal 1")
        type_cards(page, f"Cards left: {player}", cards)
        page.get_by_role("button", name=f"Show as slip: {player}").click()
        wait_shown(page, f"{player}'s hand, deal 1")
        return code_on_screen(page)
    finally:
        page.context.close()


def test_a_gin_deal_is_entered_from_two_slips(phone_b: PhoneB, chromium: Browser, tmp_path: Path) -> None:
    deal_url = f"{phone_b.url}game/{phone_b.gin}/deal"
    slips = [show_slip(chromium, deal_url, "Anna", KNOCKER), show_slip(chromium, deal_url, "Bea", BEA)]
    # What the slips say, read as the scorer's phone reads them.
    from scorer.ui.camera import decode_picture

    read = [Slip.parse(decode_picture(s)[0]) for s in slips]
    assert [(s.game, s.deal, s.player) for s in read] == [(phone_b.gin, 1, "Anna"), (phone_b.gin, 1, "Bea")]
    video = write_y4m(slips, tmp_path / "slips.y4m")
    page = camera_page(chromium, video, deal_url)
    try:
        wait_shown(page, "Deal 1")
        choose(page, "Knocked", "Anna")
        page.get_by_role("button", name="Scan slips").click()
        wait_shown(page, "deadwood 5", timeout=SCAN_MS)  # Anna's hand, from her slip
        wait_shown(page, "deadwood 10", timeout=SCAN_MS)  # Bea's
        wait_shown(page, "Anna knocks with melds A♠ 2♠ 3♠ | 4♠ 4♦ 4♣ | 7♥ 8♥ 9♥")
        page.get_by_role("button", name="Save deal").click()
        page.wait_for_url(re.compile(rf"/game/{phone_b.gin}$"))
    finally:
        closing(page)
    deals = Store.open(phone_b.folder).game(phone_b.gin).document["deals"]
    assert len(deals) == 1 and deals[0]["knocker"] == "Anna"
