"""A share file opened with the installed static app, and Share in it (issue 28).

The manifest registers the app as a handler of ``.json`` files; a file handed over the page's
launch path reaches the import, which shows what it adds before anything is merged; Share in
the browser's own Python, with no share sheet in headless Chromium, saves a download.

Chromium hands an installed app its files through ``launchQueue`` only when the app is
installed and opened from the system, which a test cannot do; ``boot.js``'s consumer hands each
file to ``window.rummyOpenFiles``, which the test calls with the same kind of file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import wait_shown
from sync_kit import play
from test_web_build import START_TIMEOUT_MS, open_web_app, web_url, worker_python

from scorer.league.store import Store
from scorer.ui.screens.share_model import share_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["web_url"]  # the static build served on loopback (a fixture)

PLAYERS = ["Anna", "Bea", "Cid"]


def test_the_manifest_makes_the_installed_app_a_handler_of_share_files(web_dist: Path) -> None:
    manifest = json.loads((web_dist / "manifest.json").read_text())
    [handler] = manifest["file_handlers"]
    assert handler["action"] == "./" and handler["accept"] == {"application/json": [".json"]}
    assert manifest["launch_handler"] == {"client_mode": "focus-existing"}
    boot = (web_dist / "boot.js").read_text()
    assert "launchQueue.setConsumer" in boot and "rummyOpenFiles" in boot
    assert '<script src="boot.js"></script>' in (web_dist / "index.html").read_text()


@pytest.mark.browser
def test_a_file_opened_with_the_app_is_previewed_then_imported(web_url: str, chromium: Browser) -> None:
    phone = Store.memory()
    phone.create_league("Club")
    game = play(phone, "Club", PLAYERS, 5, seed=3)
    shared = share_game(phone, game)
    context = chromium.new_context(viewport={"width": 420, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_web_app(page, web_url)
        page.evaluate(
            "([name, text]) => window.rummyOpenFiles([new File([text], name, {type: 'application/json'})])",
            [shared.name, shared.data.decode("utf-8")],
        )
        wait_shown(page, f"Opened with Rummy Scorer: {shared.name}", timeout=START_TIMEOUT_MS)
        wait_shown(page, "This file adds:")
        wait_shown(page, "• the league Club (new here)")
        wait_shown(page, "• new players: Anna, Bea, Cid")
        page.get_by_role("button", name="Import now").click()
        wait_shown(page, "Standings")  # the new league's screen
        # Share in the browser's own Python: headless Chromium has no share sheet, so a download.
        with page.expect_download(timeout=60_000) as download_info:
            page.get_by_role("button", name="Share league").click()
        download = download_info.value
        assert download.suggested_filename == "club.rummy.json"
        shared_back = json.loads(Path(download.path()).read_text())
        assert [f["kind"] for f in shared_back["facts"]].count("deal.recorded") == 5
        wait_shown(
            page,
            "This browser has no share sheet: club.rummy.json was saved as a download instead."
            " Send it to the other phone and open it there with Import.",
        )
        left = page.evaluate(
            """async () => {
              const db = await new Promise((ok, no) => {
                const r = indexedDB.open('rummy-scorer-launched');
                r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error);
              });
              const all = await new Promise(ok => {
                const r = db.transaction('files').objectStore('files').count();
                r.onsuccess = () => ok(r.result);
              });
              db.close();
              return all;
            }"""
        )
        assert left == 0  # taken once: a reload does not offer it again
        games = (
            "import json; from scorer.web import main; json.dumps([g.id for g in main._opened[0].games()])"
        )
        assert worker_python(page, games) == [game]
    finally:
        context.close()
