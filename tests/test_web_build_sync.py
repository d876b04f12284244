"""The phone build syncs with a club server on another origin (Chromium): the build served as
static files on one port, ``rummy app --cors-origin`` (the build's origin) on another; the
phone's Settings -> Club server -> Sync now receives the club's league, kept in IndexedDB with
the sync's marks, and a game the phone records reaches the club on its own, with no tap."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import type_into
from conftest import free_port, server_process
from test_ui_browser_club_server import token_add
from test_web_build import START_TIMEOUT_MS, open_web_app, stored, wait_shown, web_url, worker_python  # noqa: F401

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}


@pytest.fixture()
def club_app(web_url: str, tmp_path: Path) -> Iterator[tuple[str, Path, str]]:  # noqa: F811
    """``rummy app`` on the club's store (league Club, two games), allowing the phone build's
    origin: its address, its folder and a scorer's token."""
    folder = tmp_path / "club"
    club = Store.open(folder)
    club.create_league("Club")
    for _ in range(2):
        game = club.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        club.add_deal(game.id, ANNA_BIG_GIN)
    club.close()
    secret = token_add(folder, "Anna's phone", "scorer")
    port = free_port()
    rummy = Path(sys.executable).with_name("rummy")
    origin = web_url.rstrip("/")
    command = [str(rummy), "app", "--port", str(port), "--db", str(folder), "--cors-origin", origin]
    env = {"FLET_WEB_NO_CDN": "1", "PYTHONUNBUFFERED": "1"}

    with server_process(
        command, port=port, log=tmp_path / "club.log", env={**os.environ, **env}, name="rummy app"
    ):
        yield f"http://127.0.0.1:{port}", folder, secret


def test_the_phone_build_syncs_with_a_club_server_on_another_origin(
    web_url: str,  # noqa: F811
    club_app: tuple[str, Path, str],
    chromium: Browser,
) -> None:
    from playwright.sync_api import expect

    address, folder, secret = club_app
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_web_app(page, web_url)
        page.get_by_role("button", name="Settings").first.click()
        wait_shown(page, "Club server")
        type_into(page, "Server address", address)
        type_into(page, "Token", secret)
        type_into(page, "League on the server (its name)", "Club")  # the phone has no league yet
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.get_by_text(f"Saved token ends in …{secret[-4:]}", exact=False).first).to_be_visible()
        page.get_by_role("button", name="Sync now").click()
        expect(page.get_by_text("Sent 0, received ", exact=False).first).to_be_visible(timeout=60_000)
        club = Store.open(folder)
        on_phone = worker_python(
            page,
            "import json; from scorer.web import main; s = main._opened[0];"
            " json.dumps(sorted(g.id for g in s.games()))",
        )
        assert on_phone == sorted(g.id for g in club.games())
        meta = stored(page)["meta"]
        assert meta["club"]["url"] == address and meta["club"]["token"] == secret
        assert [key.split(" ")[0] for key in meta["sync"]["marks"]] == [address]
        # The phone records a game of its own in the league; Sync now sends it to the club.
        worker_python(
            page,
            "import json; from scorer.web import main; s = main._opened[0];"
            f" g = s.start_game(ruleset='gin', players=['Anna', 'Bea'], options={GIN_50!r}, league='Club');"
            f" s.add_deal(g.id, {ANNA_BIG_GIN!r}); json.dumps(g.id)",
        )
        # No tap: the tab syncs on its own a few seconds after the change (scorer.ui.club_sync).
        for _ in range(120):
            if len(Store.open(folder).games()) == 3:
                break
            page.wait_for_timeout(500)
        assert len(Store.open(folder).games()) == 3
        expect(page.get_by_text("Sent ", exact=False).first).to_contain_text("received 0.")
    finally:
        context.close()
