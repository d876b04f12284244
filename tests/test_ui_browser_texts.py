"""What a phone of 390 px shows whole (issue 24, item 8), in Chromium.

- The club night's start form: each field's help line (the placement points, the rounds, the
  round timer) wraps onto the lines it needs; a field's helper is one line by default, cut
  with "…".
- A gin deal: the knock's outcome and its points stand next to `Save deal`, on the screen
  whenever the button is, not in the reading above it (below the fold while the hands are
  entered on a 390x844 phone).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_kit import type_cards
from conftest import Server, open_app, open_page
from test_ui_app_browser import KNOCKER, choose, shown, wait_shown

from scorer.league.store import Store
from scorer.ui.i18n import tr

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
#: A line of a field's help (Flutter's body-small text) is 16 px high.
LINE = 16
WHY = "Bea went out, not Anna: the cards were swapped"
GIN_DEFENDER = "TH JH QH KC KD KS 5D 6D 7D AC"  # an undercut of KNOCKER: Bea scores 29


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """The app over a store with a league Club and a gin game of Anna and Bea."""
    folder = tmp_path_factory.mktemp("texts") / "league"
    store = Store.open(folder)
    store.create_league("Club")
    gin = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    rommi = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    store.add_deal(rommi, {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"}, by="Cid")
    store.replace_deal(rommi, 0, {"hands": {"Anna": "7C", "Bea": ""}, "out": "Bea"}, by="Bea", why=WHY)
    server = Server(folder)
    try:
        yield server.url, {"gin": gin.id, "rommi": rommi}
    finally:
        server.stop()


def _phone(chromium: Browser, url: str) -> Page:
    return open_page(chromium, url, width=PHONE["width"], height=PHONE["height"])


def _box(page: Page, text: str) -> dict[str, float]:
    """The smallest box of the node that reads ``text`` (a field's help is inside its field's)."""
    boxes = [b for b in (node.bounding_box() for node in shown(page, text).all()) if b is not None]
    assert boxes, text
    return min(boxes, key=lambda b: b["height"])


@pytest.mark.parametrize(
    "key", ["night.points_help", "night.rounds_help", "night.timer_help", "night.bye_points_help"]
)
def test_the_night_start_forms_help_lines_wrap_at_390_px(
    served: tuple[str, dict[str, str]], chromium: Browser, key: str
) -> None:
    url, _ = served
    page = _phone(chromium, f"{url}leagues/Club/night")
    try:
        help_text = tr(key, "en")
        # the help's own field in view (a field scrolled to the screen's edge has its help clipped)
        field = tr(key.removesuffix("_help"), "en")
        page.get_by_role("textbox", name=field).scroll_into_view_if_needed()
        wait_shown(page, help_text)
        box = _box(page, help_text)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert box["height"] >= 2 * LINE, f"{help_text!r} is cut to one line: {box}"
    finally:
        page.context.close()


def test_a_gin_knocks_outcome_stands_next_to_save_deal(
    served: tuple[str, dict[str, str]], chromium: Browser
) -> None:
    url, games = served
    page = _phone(chromium, f"{url}game/{games['gin']}/deal")
    try:
        page.get_by_role("button", name="Knocked").wait_for()
        choose(page, "Knocked", "Anna")
        type_cards(page, "Cards left: Anna", KNOCKER)
        type_cards(page, "Cards left: Bea", GIN_DEFENDER)
        outcome = "Undercut: Bea scores 29"
        save = page.get_by_role("button", name="Save deal")
        save.scroll_into_view_if_needed()
        wait_shown(page, outcome)
        button, said = save.bounding_box(), _box(page, outcome)
        assert button is not None
        for box in (button, said):  # both on the screen at once
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (button, said)
        # Beside the button, or on the line right under it where the row wraps.
        gap = max(said["y"] - (button["y"] + button["height"]), button["y"] - (said["y"] + said["height"]))
        assert gap <= LINE, f"the outcome is {gap:.0f} px from Save deal: {said} vs {button}"
    finally:
        page.context.close()


def test_a_new_device_is_named_on_its_first_start_and_keeps_the_name(
    served: tuple[str, dict[str, str]], chromium: Browser
) -> None:
    """Item 9: Settings shows the name the device made for itself, the same after a reload,
    and the device's changes are signed with it."""
    from playwright.sync_api import expect

    url, _ = served
    page = _phone(chromium, f"{url}settings")
    said = re.compile(
        re.escape(tr("settings.device_help", "en", device="@")).replace("@", "(Device [A-HJ-NP-Z2-9]{4})")
    )
    try:
        line = page.locator("flt-semantics").get_by_text(said).first
        expect(line).to_be_visible(timeout=15_000)
        found = said.fullmatch(line.inner_text())
        assert found is not None
        name = found.group(1)
        # The name field holds it (the editing element's value is not read: Flutter keeps it).
        expect(page.get_by_text(f"{100 - len(name)} characters remaining").first).to_be_attached()
        # Another tab of the same browser: a new session, reading what the device kept.
        other = page.context.new_page()
        other.goto(f"{url}settings")
        open_app(other)
        line = other.locator("flt-semantics").get_by_text(said).first
        expect(line).to_be_visible(timeout=15_000)
        again = said.fullmatch(line.inner_text())
        assert again is not None and again.group(1) == name, "another name in the next session"
    finally:
        page.context.close()


def test_a_corrections_history_line_wraps_under_its_row_at_390_px(
    served: tuple[str, dict[str, str]], chromium: Browser
) -> None:
    """The line now says what the correction changed: in the table's sideways-scrolling row it
    had no width to wrap in, and ran off the screen."""
    from playwright.sync_api import expect

    url, games = served
    page = _phone(chromium, f"{url}game/{games['rommi']}")
    try:
        line = page.locator("flt-semantics").get_by_text(re.compile(r"^corrected by Bea at .* · was: "))
        expect(line.first).to_be_attached()
        line.first.scroll_into_view_if_needed()
        box = line.first.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert box["height"] >= 2 * LINE, f"the history line is cut to one line: {box}"
    finally:
        page.context.close()
