"""Scanning in the phone build (issue 28 item 4): Python in the browser decodes pictures of
codes with zxing-wasm (the build's ``zxing-wasm/``), in Chromium, with the network off.

A phone opens the build once online and is ready offline; the service worker then keeps the
QR decoder too (not part of a first visit). With the network off, the phone scans a game's
three codes from photos, out of order and with a JPEG among them, into a league and shows the
same totals as the phone that played it; a picture with no code is refused with its message.
Deal entry's ``Scan slips`` fills two hands from photos of their slips. The worker's decoder
and the server's zxing-cpp read the same pictures alike.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_kit import choose, type_into
from test_ui_app_browser import KNOCKER
from test_ui_browser_scan import BEA, code_free_picture, phone_a_game, pictures
from test_web_build import START_TIMEOUT_MS, open_web_app, served, wait_shown
from test_web_build import web_url as web_url  # the build served on loopback, once a module

from scorer.league.handoff import Slip, encode_parts
from scorer.ui.decoder import decode_picture
from scorer.ui.screens.slips import slip_picture
from scorer.web import build

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

#: A decode in the worker and a redraw per picture, on a busy machine.
SCAN_MS = 60_000
DECODER_WASM = f"{build.DECODER.target}/{build.DECODER.checked}"


def as_jpeg(png: Path) -> Path:
    """The picture as a phone's camera app saves it (a JPEG)."""
    from PIL import Image

    out = png.with_suffix(".jpg")
    with Image.open(png) as opened:
        opened.convert("RGB").save(out, format="JPEG", quality=85)
    return out


class Phone:
    """One phone with the build open, ready offline with its decoder kept, then offline."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.context = context
        self.page = page
        self.said: list[str] = []
        self.requests: list[str] = []


@pytest.fixture(scope="module")
def phone(web_url: str, chromium: Browser) -> Iterator[Phone]:
    context = chromium.new_context(viewport={"width": 420, "height": 1100})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        found = Phone(context, page)
        page.on("console", lambda message: found.said.append(message.text))
        context.on("request", lambda request: found.requests.append(request.url))
        open_web_app(page, web_url)
        # Ready offline first; the decoder is kept after that (it is not in a first visit).
        page.wait_for_function(
            "() => window.rummyOffline && window.rummyOffline.state && !!window.rummyOffline.state.later",
            timeout=START_TIMEOUT_MS,
            polling=500,
        )
        later = page.evaluate("window.rummyOffline.state.later")
        assert later == {"total": 4, "failed": []}, later
        assert page.evaluate(f"async () => !!(await caches.match({json.dumps(DECODER_WASM)}))")
        context.set_offline(True)  # the cottage: no network from here on
        yield found
    finally:
        context.close()


def open_scan(page: Page) -> None:
    """A new league Club on the phone, and its Scan screen (photos: the build has no camera)."""
    page.get_by_role("button", name="Leagues").first.click()
    type_into(page, "League name", "Club")
    page.get_by_role("button", name="Create league").click()  # opens the new league
    scan = page.get_by_role("button", name="Scan", exact=True)
    scan.wait_for()
    assert not page.get_by_text("cannot read codes").count()
    scan.click()
    page.get_by_role("button", name="Scan from a photo").wait_for()


def choose_pictures(page: Page, button: str, files: list[Path]) -> None:
    with page.expect_file_chooser() as chooser:  # the phone's file picker
        page.get_by_role("button", name=button).click()
    chooser.value.set_files([str(f) for f in files])


def test_offline_the_phone_build_scans_a_game_from_photos_and_shows_the_same_totals(
    phone: Phone, tmp_path: Path
) -> None:
    page = phone.page
    store_a, game = phone_a_game(tmp_path / "phone-a", deals=25, seed=2)
    parts = encode_parts(store_a.export_facts("Club", game=game))
    assert len(parts) == 3
    files = pictures(parts, tmp_path / "codes")
    blank = tmp_path / "blank.png"
    blank.write_bytes(code_free_picture())
    open_scan(page)
    wasm_before = sum(DECODER_WASM in url for url in phone.requests)

    choose_pictures(page, "Scan from a photo", [blank])
    wait_shown(page, "No code found in this picture.", SCAN_MS)
    # Out of order, one a JPEG: as a phone's camera app saves them.
    choose_pictures(page, "Scan from a photo", [as_jpeg(files[2]), files[0], files[1]])
    wait_shown(page, "3 of 3 read", SCAN_MS)
    wait_shown(page, "new deals: 25")
    page.get_by_role("button", name="Import now").click()
    wait_shown(page, "Imported: 1 new games, 25 new deals, 3 new players.", 30_000)
    # The decoder came from the service worker's cache (the network is off).
    assert any(DECODER_WASM in url for url in phone.requests[wasm_before:])
    assert not [s for s in phone.said if "could not keep" in s or "did not load" in s], phone.said

    page.evaluate(f"location.hash = '#/game/{game}'")
    totals = store_a.game(game).result.totals
    assert len(totals) == 3
    for player, total in totals.items():  # the Scoreboard: the same totals as on phone A
        wait_shown(page, f"{player}: {total}", 30_000)


def test_offline_scan_slips_fills_the_hands_from_photos(phone: Phone, tmp_path: Path) -> None:
    page = phone.page
    page.evaluate("location.hash = '#/'")
    page.get_by_role("button", name="New game").first.click()
    choose(page, "Variant", "Gin rummy")
    type_into(page, "Player 1", "Anna")
    type_into(page, "Player 2", "Bea")
    page.get_by_role("button", name="Start game").click()
    wait_shown(page, "Deal 1")
    found = re.search(r"#/game/([^/?]+)", page.url)
    assert found, page.url
    game = found.group(1)
    slips = []
    for player, cards in (("Anna", KNOCKER), ("Bea", BEA)):
        path = tmp_path / f"slip-{player}.png"
        path.write_bytes(slip_picture(Slip(game=game, deal=1, player=player, cards=cards)))
        slips.append(path)
    blank = tmp_path / "blank.png"
    blank.write_bytes(code_free_picture())

    choose(page, "Knocked", "Anna")
    page.get_by_role("button", name="Scan slips").click()  # no camera in this browser: photos
    choose_pictures(page, "Scan from a photo", [blank])
    wait_shown(page, "No code found in this picture.", SCAN_MS)
    choose_pictures(page, "Scan from a photo", slips)
    wait_shown(page, "deadwood 5", SCAN_MS)  # Anna's hand, from her slip
    wait_shown(page, "deadwood 10", SCAN_MS)  # Bea's
    wait_shown(page, "Read Bea's hand from a slip")
    wait_shown(page, "Anna knocks with melds A♠ 2♠ 3♠ | 4♠ 4♦ 4♣ | 7♥ 8♥ 9♥")


#: The worker's decoder on a picture (base64): each code's bytes in base64.
DECODE_IN_WORKER = """async (picture) => {
  const bytes = Uint8Array.from(atob(picture), (c) => c.charCodeAt(0));
  const codes = await self.rummyDecodeQr(bytes);
  return codes.map((code) => btoa(String.fromCharCode(...code)));
}"""


def agreement_pictures(tmp_path: Path) -> list[tuple[str, bytes, int]]:
    """Pictures both decoders get, each with its name and how many codes it holds: a game's
    codes (PNG and JPEG), a slip, a code of binary bytes, two codes in one picture, a picture
    with none, and bytes that are no picture."""
    import segno
    from PIL import Image

    store, game = phone_a_game(tmp_path / "store", deals=3, seed=5)
    files = pictures(encode_parts(store.export_facts("Club", game=game)), tmp_path / "codes")
    found = [(f.name, f.read_bytes(), 1) for f in files]
    found.append(("a code as a JPEG", as_jpeg(files[0]).read_bytes(), 1))
    slip = slip_picture(Slip(game="g1", deal=2, player="Dora", cards="AH 2H 3H"))
    found.append(("a slip", slip, 1))
    binary = io.BytesIO()
    segno.make(bytes(range(256)), error="m", micro=False).save(binary, kind="png", scale=4, border=4)
    found.append(("every byte", binary.getvalue(), 1))
    with Image.open(io.BytesIO(files[0].read_bytes())) as left, Image.open(io.BytesIO(slip)) as right:
        both = Image.new("RGB", (left.width + right.width + 40, max(left.height, right.height)), "white")
        both.paste(left.convert("RGB"), (0, 0))
        both.paste(right.convert("RGB"), (left.width + 40, 0))
    out = io.BytesIO()
    both.save(out, format="PNG")
    found += [("two codes", out.getvalue(), 2), ("no code", code_free_picture(), 0)]
    found.append(("no picture", b"not a picture", 0))
    return found


def test_the_workers_decoder_and_zxing_cpp_read_the_same_pictures_alike(phone: Phone, tmp_path: Path) -> None:
    worker = phone.page.workers[-1]
    for name, picture, count in agreement_pictures(tmp_path):
        read: Any = worker.evaluate(DECODE_IN_WORKER, base64.b64encode(picture).decode("ascii"))
        in_browser = sorted(base64.b64decode(code) for code in read)
        on_server = sorted(decode_picture(picture))
        assert len(on_server) == count, name
        assert in_browser == on_server, name


def test_the_phone_builds_camera_reads_a_game_out_of_order(
    web_url: str, chromium: Browser, tmp_path: Path
) -> None:
    """The camera (flet-camera, in the build's wheels) in a Chromium whose fake camera plays
    the game's codes, out of order with a repeat; each picture decoded by zxing-wasm."""
    from camera_kit import camera_browser, write_y4m

    store_a, game = phone_a_game(tmp_path / "phone-a", deals=25, seed=3)
    files = pictures(encode_parts(store_a.export_facts("Club", game=game)), tmp_path / "codes")
    assert len(files) == 3
    video = write_y4m([files[2], files[0], files[2], files[1]], tmp_path / "game.y4m")
    launched = camera_browser(chromium, video)
    try:
        context = launched.new_context(viewport={"width": 420, "height": 1100})
        context.grant_permissions(["camera"])
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_web_app(page, web_url)
        open_scan(page)
        wait_shown(page, "3 of 3 read", SCAN_MS)
        wait_shown(page, "new deals: 25")
        page.get_by_role("button", name="Import now").click()
        wait_shown(page, "Imported: 1 new games, 25 new deals, 3 new players.", 30_000)
    finally:
        launched.close()


def test_a_decoder_that_cannot_be_loaded_is_said_and_nothing_read(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    """A host without the decoder's files (as a phone offline before it kept them sees it):
    the scan says to open the app once online, and the photo button stays."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(web_dist, site, ignore=shutil.ignore_patterns(build.DECODER.target))
    store_a, game = phone_a_game(tmp_path / "phone-a", deals=3, seed=4)
    files = pictures(encode_parts(store_a.export_facts("Club", game=game)), tmp_path / "codes")
    with served(site, tmp_path / "server.log") as url:
        context = chromium.new_context(viewport={"width": 420, "height": 1100})
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            open_web_app(page, url)
            open_scan(page)
            choose_pictures(page, "Scan from a photo", files[:1])
            wait_shown(
                page,
                "The code reader could not be loaded: open the app once while online, "
                "and after that it reads codes offline too.",
                SCAN_MS,
            )
            wait_shown(page, "No code read yet")
            page.get_by_role("button", name="Scan from a photo").wait_for()
        finally:
            context.close()
