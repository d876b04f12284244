"""Share, the import's preview and Show as QR end to end in Chromium (issue 28).

- Show as QR on a game of several codes: the caption "k of N" cycles through every code;
  paused, the picture on screen (a screenshot of it) decodes with zxing-cpp to the code of
  that number, and Next steps to the next; the codes read back make the game's facts.
- Share in headless Chromium (no ``navigator.share`` on Linux): the file is saved as a
  download instead, the screen says so, and the file holds the game's facts.
- The shared file on another phone: Import shows what it adds by name; Cancel writes nothing,
  Import now adds it with the same totals.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import settled, wait_shown
from conftest import Server, fingerprint, open_page
from sync_kit import play

from scorer.league.handoff import Collector, Part
from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bea", "Cid"]
#: Deals enough for more than one code (a game is two codes when new, three after thirty deals).
DEALS = 26


@pytest.fixture()
def phone(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    """The sharing phone's app: league Club with one game of :data:`DEALS` deals; the game."""
    store = Store.open(tmp_path / "phone")
    store.create_league("Club")
    game = play(store, "Club", PLAYERS, DEALS, seed=2)
    server = Server(tmp_path / "phone")
    try:
        yield server, game
    finally:
        server.stop()


@pytest.fixture()
def other_phone(tmp_path: Path) -> Iterator[Server]:
    Store.open(tmp_path / "other")  # a new phone: no league yet
    server = Server(tmp_path / "other")
    try:
        yield server
    finally:
        server.stop()


def caption(page: Page) -> tuple[int, int]:
    """The "k of N" under the code."""
    texts: list[str] = page.evaluate(
        "[...document.querySelectorAll('flt-semantics')].map(e => e.innerText || '')"
    )
    found = [m for t in texts if (m := re.fullmatch(r"(\d+) of (\d+)", t.strip()))]
    assert len(found) == 1, texts
    return int(found[0][1]), int(found[0][2])


def part_on_screen(page: Page, shown: int, count: int) -> Part:
    """The QR code drawn on screen, read from a screenshot of its picture by zxing-cpp, once it
    is the code its caption names (Flutter decodes a new picture after the caption has changed,
    and keeps the old one on screen meanwhile)."""
    import io
    import time

    import zxingcpp
    from PIL import Image

    picture = page.get_by_role("img", name=f"QR code {shown} of {count}")
    picture.wait_for()
    deadline, read = time.monotonic() + 15, None
    while time.monotonic() < deadline:
        with Image.open(io.BytesIO(picture.screenshot())) as image:
            codes = [c for c in zxingcpp.read_barcodes(image) if c.valid]
        assert len(codes) == 1, f"no code read off the screen for {shown} of {count}"
        read = Part.parse(bytes(codes[0].bytes))
        if (read.index, read.count) == (shown, count):
            return read
        page.wait_for_timeout(100)
    raise AssertionError(
        f"the picture stayed code {read and read.index} under the caption {shown} of {count}"
    )


def test_show_as_qr_cycles_its_codes_and_each_on_screen_decodes_to_its_part(
    phone: tuple[Server, str], chromium: Browser, tmp_path: Path
) -> None:
    server, game = phone
    # A phone's screen: three device pixels a point, so each module is several pixels wide.
    context = chromium.new_context(viewport={"width": 420, "height": 900}, device_scale_factor=3)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{server.url}game/{game}")
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30_000)
        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        show = page.get_by_role("button", name="Show as QR")
        show.wait_for()
        settled(page)  # the chart has drawn: the button stays where it is
        show.click()
        wait_shown(page, "Game as QR codes")
        page.get_by_role("button", name="Pause").wait_for()
        first = caption(page)
        count = first[1]
        assert count >= 2
        seen = {first[0]}
        deadline_polls = 300  # 30 s of polls 100 ms apart: the codes take turns 2.5 a second
        while len(seen) < count and deadline_polls:
            page.wait_for_timeout(100)
            seen.add(caption(page)[0])
            deadline_polls -= 1
        assert seen == set(range(1, count + 1)), f"the caption showed {sorted(seen)} of {count}"

        page.get_by_role("button", name="Pause").click()
        page.get_by_role("button", name="Play").wait_for()
        settled(page)
        collector = Collector()
        for _ in range(count):
            shown, total = caption(page)
            collector.add(part_on_screen(page, shown, total).format())
            page.get_by_role("button", name="Next").click()
            wait_shown(page, f"{shown % total + 1} of {total}")
        assert collector.complete
        store = Store.open(tmp_path / "phone")
        expected = store.export_facts(store.league("Club").id, game=game)
        assert collector.document()["facts"] == expected["facts"]
    finally:
        context.close()


def test_share_falls_back_to_a_download_and_the_file_imports_with_a_preview(
    phone: tuple[Server, str], other_phone: Server, chromium: Browser, tmp_path: Path
) -> None:
    server, game = phone
    # Tall enough for the whole Scoreboard (26 deals, the chart): Share is drawn on screen.
    page = open_page(chromium, f"{server.url}game/{game}", width=420, height=4000)
    try:
        share = page.get_by_role("button", name="Share game")
        share.wait_for()
        settled(page)  # the chart has drawn: the button stays where it is
        with page.expect_download() as download_info:
            share.click()
        download = download_info.value
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
        wait_shown(
            page,
            f"This browser has no share sheet: {saved.name} was saved as a download instead."
            " Send it to the other phone and open it there with Import.",
        )
    finally:
        page.context.close()
    assert saved.name.startswith("club-rommi-") and saved.name.endswith(".rummy.json")
    store = Store.open(tmp_path / "phone")
    assert json.loads(saved.read_text())["facts"] == store.export_facts("Club", game=game)["facts"]

    page = open_page(chromium, f"{other_phone.url}leagues", width=420)
    try:
        before = fingerprint(tmp_path / "other")
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name="Import a league").click()
        chooser.value.set_files(str(saved))
        wait_shown(page, "This file adds:")
        wait_shown(page, "• the league Club (new here)")
        page.locator("flt-semantics").get_by_text(
            re.compile(r"^• a Rommi game \(.+\), 26 deals: Anna, Bea, Cid$")
        ).first.wait_for()
        wait_shown(page, "• new players: Anna, Bea, Cid")
        page.get_by_role("button", name="Cancel").click()
        page.get_by_text("This file adds:").wait_for(state="detached")
        assert fingerprint(tmp_path / "other") == before  # Cancel wrote nothing
        assert Store.open(tmp_path / "other").leagues() == []

        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name="Import a league").click()
        chooser.value.set_files(str(saved))
        wait_shown(page, "This file adds:")
        page.get_by_role("button", name="Import now").click()
        wait_shown(page, "Standings")  # the new league's screen
    finally:
        page.context.close()
    copy = Store.open(tmp_path / "other")
    assert [g.id for g in copy.games()] == [game]
    assert copy.game(game).document == store.game(game).document
    assert copy.standings("Club") == store.standings("Club")
