"""Two phones on two app processes of one PostgreSQL database (issue 26, item 2), end to end.

A club server runs more than one ``rummy app`` process on one database (behind a reverse
proxy, docs/serving.md): a deal saved through one process shows on a phone of the other
within the time a deal saved on one process shows on another phone of it (LISTEN/NOTIFY
carries "game X changed", scorer/ui/live.py), and two phones saving the same deal through the
two processes are caught as on one process: the second is shown both entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import wait_shown as shown
from conftest import Server, open_page
from test_ui_live_browser import LIVE_MS, close, enter_deal, reopen

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def two_processes(
    tmp_path_factory: pytest.TempPathFactory, pg_cluster: object
) -> Iterator[tuple[str, Server, Server]]:
    """Two app processes on one new database of the session's cluster; each test starts its own game."""
    import pg_kit

    assert isinstance(pg_cluster, pg_kit.Cluster)
    address = pg_cluster.database()
    Store.open(address).close()  # the schema made once, before both processes open it
    folder = tmp_path_factory.mktemp("live-pg")
    one = Server(folder / "one", db=address)
    try:
        two = Server(folder / "two", db=address)
    except BaseException:
        one.stop()
        raise
    try:
        yield address, one, two
    finally:
        one.stop()
        two.stop()
        pg_cluster.let_go(address)


def new_game(address: str) -> str:
    """A rommi game for Anna and Bea, started by a third program on the database."""
    store = Store.open(address)
    try:
        return store.start_game(ruleset="rommi", players=["Anna", "Bea"], by="Test").id
    finally:
        store.close()


def phone(chromium: Browser, server: Server, route: str) -> Page:
    return open_page(chromium, server.url + route, width=900, height=1000)


def test_a_deal_saved_through_one_process_shows_live_on_a_phone_of_the_other(
    two_processes: tuple[str, Server, Server], chromium: Browser
) -> None:
    address, one, two = two_processes
    game_id = new_game(address)
    a = phone(chromium, one, f"game/{game_id}")
    b = phone(chromium, two, f"game/{game_id}/deal")
    try:
        shown(a, "Bea: 0")
        enter_deal(b, out="Anna", cards={"Bea": "KS"})
        shown(b, "Bea: 10")
        shown(a, "Bea: 10", timeout=LIVE_MS)  # heard from the other process, not polled for
        shown(a, "Anna: 0")
        # and back the other way, on a game the first phone then opens
        reopen(a, one.url + f"game/{game_id}/deal")
        enter_deal(a, out="Bea", cards={"Anna": "5C"})
        shown(a, "Anna: 5")
        reopen(b, two.url + f"game/{game_id}")
        shown(b, "Anna: 5")
    finally:
        close(a, b)
    store = Store.open(address)
    try:
        assert len(store.game(game_id).game.deals) == 2
    finally:
        store.close()


def test_the_same_deal_saved_through_both_processes_is_caught_and_shown_both_ways(
    two_processes: tuple[str, Server, Server], chromium: Browser
) -> None:
    address, one, two = two_processes
    game_id = new_game(address)
    a = phone(chromium, one, f"game/{game_id}/deal")
    b = phone(chromium, two, f"game/{game_id}/deal")
    try:
        shown(a, "Deal 1")
        shown(b, "Deal 1")
        enter_deal(a, out="Anna", cards={"Bea": "KS"})
        shown(a, "Bea: 10")
        enter_deal(b, out="Bea", cards={"Anna": "5C"})
        shown(b, "Deal 1 was saved on another phone first")
        shown(b, "Bea: K♠ (10)")  # theirs
        shown(b, "Anna: 5♣ (5)")  # mine
        b.get_by_role("button", name="Keep theirs").click()
        shown(b, "Bea: 10")
    finally:
        close(a, b)
    store = Store.open(address)
    try:
        deals = store.game(game_id).document["deals"]
        assert len(deals) == 1 and deals[0]["out"] == "Anna"
    finally:
        store.close()


def test_each_process_logs_nothing_alarming(two_processes: tuple[str, Server, Server]) -> None:
    """Both processes listened from their start (no 'not hearing' warning), and neither logged
    a traceback: a session whose phone went to another page was told of changes it had no
    connection to hear (each told once: 'no attribute loop') before it was made to wait for
    the browser to come back."""
    _, one, two = two_processes
    for server in (one, two):
        text = Path(server.log).read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in text, text
        assert "not hearing the store's changes" not in text, text
