"""Settings -> Club server in Chromium: the served app syncs its league with a second
``rummy app`` (the club server, on loopback, its token made by ``rummy league token add``),
and the games recorded at the table appear on the club server; a game a sync found changed on
another device too shows their deal on its Scoreboard, and Replace theirs (with its reason)
settles it so that the next sync brings the club server to the same game."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import type_into
from conftest import Server, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}


def token_add(folder: Path, name: str, role: str) -> str:
    """``rummy league token add`` on the club server's store: the token's secret."""
    rummy = Path(sys.executable).with_name("rummy")
    done = subprocess.run(
        [str(rummy), "league", "token", "add", "--name", name, "--role", role, "--db", str(folder), "--json"],
        capture_output=True,
        check=True,
        text=True,
    )
    return str(json.loads(done.stdout)["token"])


@pytest.fixture()
def two_servers(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    """The app at the table (a league with two games) and the club server (empty), and a
    director's token of the club server."""
    table = Store.open(tmp_path / "table")
    table.create_league("Club")
    for _ in range(2):
        game = table.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        table.add_deal(game.id, ANNA_BIG_GIN)
    table.close()
    Store.open(tmp_path / "club").close()
    secret = token_add(tmp_path / "club", "Table tablet", "director")
    club, app = Server(tmp_path / "club"), None
    try:
        app = Server(tmp_path / "table")
        yield app, club, secret
    finally:
        club.stop()
        if app is not None:
            app.stop()


def test_sync_now_sends_the_tables_games_to_the_club_server(
    two_servers: tuple[Server, Server, str], chromium: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    app, club, secret = two_servers
    page = open_page(chromium, app.url)
    try:
        page.get_by_role("button", name="Settings").first.click()
        page.get_by_text("Club server", exact=True).first.wait_for()
        type_into(page, "Server address", club.url.rstrip("/"))
        type_into(page, "Token", secret)
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.get_by_text(f"Saved token ends in …{secret[-4:]}", exact=False).first).to_be_visible()
        page.get_by_role("button", name="Sync now").click()
        expect(page.get_by_text("Sent ", exact=False).first).to_be_visible(timeout=30_000)
        said = page.get_by_text("Sent ", exact=False).first.text_content() or ""
        assert ", received 0." in said
    finally:
        page.context.close()
    on_club = Store.open(tmp_path / "club")
    table = Store.open(tmp_path / "table")
    assert [lg.name for lg in on_club.leagues()] == ["Club"]
    assert {g.id for g in on_club.games()} == {g.id for g in table.games()}
    assert len(on_club.games()) == 2
    assert table.club_server() is not None and table.club_server().token == secret


def test_a_game_changed_on_another_device_too_shows_their_deal_and_replace_theirs_settles_it(
    chromium: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect
    from store_deals import rommi_deal
    from sync_kit import ClientTransport, play, server_client

    from scorer.league.sync import sync

    club = Store.memory()
    client = server_client(club)
    league = club.create_league("Club").id
    players = ("Anna", "Bea", "Cecilia")
    shared = play(club, league, list(players), 2)
    table = Store.open(tmp_path / "table")
    sync(table, ClientTransport(client, "scorer"), league=league)
    club.add_deal(shared, rommi_deal(players, 0, [0, 1]), by="Bea's tablet")  # deal 3, apart
    table.add_deal(shared, rommi_deal(players, 1, [1, 0]), by="Anna's phone")
    assert sync(table, ClientTransport(client, "scorer"), league=league).conflicts
    table.close()
    app = Server(tmp_path / "table")
    try:
        page = open_page(chromium, f"{app.url}game/{shared}")
        try:
            expect(page.get_by_text("Changed on another device too", exact=True)).to_be_visible(
                timeout=30_000
            )
            expect(page.get_by_text("Deal 3 recorded by Bea's tablet, ", exact=False)).to_be_visible()
            # the three choices of one server; Replace theirs asks for the reason first
            expect(page.get_by_role("button", name="Keep theirs")).to_be_visible()
            expect(page.get_by_role("button", name="Save mine as the next deal")).to_be_visible()
            page.get_by_role("button", name="Replace theirs").click()
            type_into(page, "Why (optional)", "we counted again")
            page.get_by_role("button", name="Save correction").click()
            expect(page.get_by_text("Changed on another device too", exact=True)).to_have_count(
                0, timeout=30_000
            )
        finally:
            page.context.close()
    finally:
        app.stop()
    table = Store.open(tmp_path / "table")
    assert table.held_facts(shared) == []
    assert table.game(shared).document["deals"][2]["out"] == "Bea"  # mine, in place of theirs
    # the next sync brings the club server to the same game, the correction's reason with it
    report = sync(table, ClientTransport(client, "scorer"), league=league)
    assert report.conflicts == [] and club.held_facts(shared) == []
    assert club.game(shared).document == table.game(shared).document
    corrected = [e for e in club.events(shared) if e.action == "corrected"]
    assert [(e.deal, e.why) for e in corrected] == [(3, "we counted again")]
