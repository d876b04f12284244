"""A club night end to end in Chromium, as issue 27 tells it: three tables, a code per table and
a viewer's code, a deal confirmed on another phone, a dispute resolved by the director, a
director call answered, a replacement mid-game, the TV view updating, at a phone's size and on
a 1920x1080 screen, in English and Finnish (docs/app.md, "Club night"; docs/rules.md,
"Confirmed deals", "Replacements (club nights)"; docs/serving.md, "Codes per role").

One app (``rummy app --host 0.0.0.0 --code``) over one store; each phone is a browser context
of its own in one Chromium, let in by its code. Deals another phone of a table would save come
from the store (another program on the same folder). Screenshots of the replacement and of the
1080p screens, in both languages, are written to the test's folder and checked not blank.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_kit import choose, tap_still, type_cards, type_into
from conftest import gated_app, open_app

from scorer.league.night_codes import night_codes
from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

CLUB_CODE = "CLUBN1GHT"
PLAYERS = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kai", "Lea"]
PHONE = (390, 844)
WALL = (1920, 1080)
LOAD_MS = 30_000
#: A change saved elsewhere shows on an open screen within this time (the app follows the store).
LIVE_MS = 15_000
DEVICE = r"Device [A-HJ-NP-Z2-9]{4}"
#: A PNG of a blank page is a few kilobytes; any screen is more (tests/screenshot_kit.py).
BLANK_BYTES = 12_000


def open_phone(chromium: Browser, url: str, *, size: tuple[int, int] = PHONE, locale: str = "en-GB") -> Page:
    """A phone (or a wall screen) of its own: a fresh browser context in ``locale``."""
    width, height = size
    page = chromium.new_context(viewport={"width": width, "height": height}, locale=locale).new_page()
    page.set_default_timeout(LIVE_MS)
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    open_app(page, timeout_ms=LOAD_MS)
    return page


def tab(page: Page, url: str) -> Page:
    """The same phone opens ``url`` in a new tab: its cookie, not a code, lets it in."""
    other = page.context.new_page()
    other.set_default_timeout(LIVE_MS)
    response = other.goto(url)
    assert response is not None and response.status == 200, url
    open_app(other, timeout_ms=LOAD_MS)
    return other


def seen(page: Page, text: str | re.Pattern[str], *, timeout: int = LIVE_MS) -> None:
    """``text`` is shown, alone or within a longer text (a card's semantics join its lines)."""
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").get_by_text(text).first).to_be_visible(timeout=timeout)


def snap(page: Page, path: Path) -> None:
    """A screenshot of what the page shows, taken again until it is not blank."""
    for _ in range(10):
        page.wait_for_timeout(1_000)
        page.screenshot(path=str(path))
        if path.stat().st_size > BLANK_BYTES:
            return
    pytest.fail(f"{path.name}: the screen stayed blank")


def deal_of(seats: tuple[str, ...]) -> dict[str, object]:
    """A rommi deal at a table of four: the first seat goes out, the others pay 36, 10, 30."""
    return {"hands": dict(zip(seats, ["", "KS AH *", "QD", "KH QH JH"], strict=True)), "out": seats[0]}


def test_a_club_night_of_three_tables(tmp_path: Path, chromium: Browser) -> None:
    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    night = store.start_night("Club", players=PLAYERS, ruleset="rommi", seed=3, options={"target": 200})
    one, two, three = night.rounds[0].tables
    codes = night_codes(store.code_secret(), night)
    pages: list[Page] = []
    with gated_app(tmp_path, code=CLUB_CODE) as url:
        try:
            # The TV view on a wall screen, let in by the viewer's code: no controls, every table.
            tv = open_phone(chromium, f"{url}nights/{night.id}/tv?code={codes.viewer}", size=WALL)
            pages.append(tv)
            seen(tv, "Tables")
            for table in (one, two, three):
                seen(tv, f"Table {table.table}")
            assert tv.get_by_role("button").count() == 0 and tv.get_by_role("textbox").count() == 0

            # Table 1's phone records deal 1; its code opens no other table's game.
            first = open_phone(chromium, f"{url}game/{one.game}/deal?code={codes.table(1)}")
            pages.append(first)
            first.get_by_role("button", name="Went out").wait_for()
            choose(first, "Went out", one.players[0])
            for player, cards in zip(one.players[1:], ["KS AH *", "QD", "KH QH JH"], strict=True):
                type_cards(first, f"Cards left: {player}", cards)
            tap_still(first, first.get_by_role("button", name="Save deal"))
            seen(first, "Deal 1: waiting for confirmation")
            elsewhere = tab(first, f"{url}game/{two.game}")
            seen(elsewhere, "This code opens table 1's game only")
            assert elsewhere.get_by_role("button", name="Record deal").count() == 0
            elsewhere.close()
            seen(tv, "Deals: 1 · Unconfirmed deals: 1")  # the TV follows, without a reload

            # Another phone of table 1 (the table's code too) confirms it; the first shows who.
            second = open_phone(chromium, f"{url}game/{one.game}?code={codes.table(1)}")
            pages.append(second)
            second.get_by_role("button", name="Confirm deal 1").click()
            confirmed = re.compile(f"^Deal 1 confirmed by {DEVICE}$")
            seen(second, confirmed)
            seen(first, confirmed)

            # A viewer's phone changes nothing: no deal to record, no step of the night.
            viewer = open_phone(chromium, f"{url}game/{two.game}?code={codes.viewer}")
            pages.append(viewer)
            seen(viewer, two.players[0])
            assert viewer.get_by_role("button", name="Record deal").count() == 0
            night_tab = tab(viewer, f"{url}nights/{night.id}")
            seen(night_tab, "Table 3")
            assert night_tab.get_by_role("button", name="Next round").count() == 0
            assert night_tab.get_by_role("button", name="Replace player").count() == 0
            night_tab.close()

            # The director's screen on a 1920x1080 screen.
            director = open_phone(chromium, f"{url}nights/{night.id}?code={codes.director}", size=WALL)
            pages.append(director)
            seen(director, "No calls waiting.")

            # Table 2: a deal saved on another phone (another program), disputed on this one
            # with its own version; the director keeps the disputer's.
            store.add_deal(two.game, deal_of(two.players), by="Dan's phone")
            disputer = open_phone(chromium, f"{url}game/{two.game}?code={codes.table(2)}")
            pages.append(disputer)
            disputer.get_by_role("button", name="Dispute deal 1").click()
            disputer.get_by_role("button", name="Enter my version").click()
            seen(disputer, "Dispute deal 1: your version")
            type_cards(disputer, f"Cards left: {two.players[1]}", "KS")
            type_into(disputer, "Why (optional)", "no ace")
            disputer.get_by_role("button", name="Send dispute").click()
            seen(disputer, re.compile(r"^Deal 1: .+ disputes it, the director decides$"))
            seen(director, "Disputes")
            seen(director, "Why: no ace")
            type_into(director, "Your reason (needed)", "the ace was in the discard")
            director.get_by_role("button", name="Keep theirs").click()
            seen(disputer, re.compile(rf"^Deal 1: the director \({DEVICE}\) kept the disputer's version$"))
            seen(disputer, f"{two.players[1]}: 10")  # K♠ alone, as the director kept it

            # Table 3 calls the director, who answers; the table sees the answer.
            caller = open_phone(chromium, f"{url}game/{three.game}?code={codes.table(3)}")
            pages.append(caller)
            caller.get_by_role("button", name="Call director").click()
            caller.get_by_role("radio", name="A rules question").click()
            type_into(caller, "Note (optional)", "may a joker be swapped?")
            caller.get_by_role("button", name="Call", exact=True).click()
            seen(director, re.compile(r"^Table 3 · \S+ · .+: A rules question \(may a joker be swapped\?\)$"))
            director.get_by_role("button", name="Answer", exact=True).click()
            type_into(director, "Answer (a note for the table)", "yes, from a meld")
            director.get_by_role("button", name="Done").click()
            seen(director, "No calls waiting.")
            seen(caller, re.compile(r"· answered at \S+ by .+: yes, from a meld$"))
            # A table's code cannot replace a player (the director's only): no such action there.
            assert caller.get_by_role("button", name="Replace player").count() == 0

            # A replacement mid-game at table 1: the second seat leaves after deal 1, Zoe comes.
            leaving = one.players[1]
            director.get_by_role("button", name="Replace player").first.click()
            director.get_by_role("radio", name=leaving).click()
            type_into(director, "Who takes over", "Zoe")
            type_into(director, "Why (optional)", "a train to catch")
            director.get_by_role("button", name="Seat the replacement").click()
            said = f"Zoe took over from {leaving} after deal 1"
            director.get_by_role("group", name=re.compile(rf"^Table 1 .*{said}$")).wait_for()  # on its card
            seen(first, said)  # on table 1's Scoreboard, under deal 1, without a reload
            store.add_deal(one.game, deal_of(one.players))  # deal 2: the seat is still named so
            seen(first, f"{leaving}: 72")  # the seat's total goes on
            seen(tv, re.compile(r"Deals: 2"))
            replaced = Store.open(folder).game(one.game).game.replacements
            assert [(r.player, r.replacement, r.after, r.why) for r in replaced] == [
                (leaving, "Zoe", 1, "a train to catch")
            ]

            # The TV follows a deal at table 3 too.
            store.add_deal(three.game, deal_of(three.players))
            from playwright.sync_api import expect

            one_deal = tv.locator("flt-semantics").get_by_text(re.compile(r"^Deals: 1\b"))
            expect(one_deal).to_have_count(2, timeout=LIVE_MS)  # tables 2 and 3

            shots = tmp_path / "shots"
            shots.mkdir()
            snap(first, shots / "club-night-replaced-phone.png")
            snap(director, shots / "club-night-director-1080p.png")
            snap(tv, shots / "club-night-tv-1080p.png")

            # The same in Finnish: a phone of table 1 and the director's 1080p screen.
            suomi = open_phone(chromium, f"{url}game/{one.game}?code={codes.table(1)}", locale="fi-FI")
            pages.append(suomi)
            seen(suomi, f"Zoe jatkoi pelaajan {leaving} paikalla jaon 1 jälkeen")
            ohjaaja = open_phone(
                chromium, f"{url}nights/{night.id}?code={codes.director}", size=WALL, locale="fi-FI"
            )
            pages.append(ohjaaja)
            suomeksi = f"Zoe jatkoi pelaajan {leaving} paikalla jaon 1 jälkeen"
            ohjaaja.get_by_role("group", name=re.compile(rf"^Pöytä 1 .*{suomeksi}$")).wait_for()
            snap(suomi, shots / "club-night-replaced-phone-fi.png")
            snap(ohjaaja, shots / "club-night-director-1080p-fi.png")
        finally:
            for page in pages:
                page.context.close()
