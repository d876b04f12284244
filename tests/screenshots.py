"""``make screenshots``: PNGs of the app's main screens at phone (390 px) and desktop width.

Serves ``rummy app`` on a free loopback port over a temporary league store seeded with a
few games, opens each screen in Debian's Chromium through Playwright and writes
``docs/screenshots/<screen>-<phone|desktop>.png`` (shown in the README).

    .venv/bin/python tests/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from screenshot_kit import main, shoot

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Page

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def _seed(folder: Path) -> dict[str, str]:
    """A league store with a rommi game in progress, a finished gin game and a Hollywood game."""
    store = Store.open(folder)
    store.create_league("Friday club")
    rommi = store.start_game(
        ruleset="rommi", players=["Anna", "Bea", "Cid", "Dan"], league="Friday club", first_dealer=1
    ).id
    for deal in (
        {"hands": {"Anna": "", "Bea": "KS QS", "Cid": "5H 5D *", "Dan": "AC 2C"}, "out": "Anna"},
        {"hands": {"Anna": "7C 8C", "Bea": "", "Cid": "JD", "Dan": "9S 9H 4D"}, "out": "Bea"},
        {"hands": {"Anna": "3H", "Bea": "KD KH", "Cid": "", "Dan": "6S"}, "out": "Cid"},
    ):
        store.add_deal(rommi, deal)
    gin = store.start_game(ruleset="gin", players=["Eve", "Fay"]).id
    for deal in (
        {"knocker": "Eve", "deadwood": {"Eve": 4, "Fay": 31}},
        {"knocker": "Fay", "deadwood": {"Eve": 22, "Fay": 0}},
        {"knocker": "Eve", "deadwood": {"Eve": 0, "Fay": 58}},
    ):
        store.add_deal(gin, deal)
    hollywood = store.start_game(ruleset="hollywood-gin", players=["Anna", "Eve"]).id
    for deal in (
        {"knocker": "Anna", "deadwood": {"Anna": 3, "Eve": 24}},
        {"knocker": "Eve", "deadwood": {"Anna": 17, "Eve": 0}},
        {"knocker": "Anna", "deadwood": {"Anna": 6, "Eve": 19}},
    ):
        store.add_deal(hollywood, deal)
    return {"rommi": rommi, "gin": gin, "hollywood": hollywood}


def _tap_a_hand(page: Page, language: str) -> None:
    """Deal entry as at the table: who went out chosen, one hand's cards tapped on the picker."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    from scorer.ui.i18n import tr

    page.get_by_role("button", name=tr("deal.went_out", language)).click()
    page.get_by_role("button", name="Anna", exact=True).last.click()
    time.sleep(1)
    page.get_by_role("button", name=tr("deal.pick_cards", language, name="Bea")).click()
    for face in ("7♥", "8♥", "9♥", "Q♣", tr("deal.joker", language)):
        page.get_by_role("button", name=face, exact=True).click()
        time.sleep(0.5)


def _screens(games: dict[str, str]) -> dict[str, str]:
    return {
        "home": "/",
        "new-game": "/game/new",
        "deal": f"/game/{games['rommi']}/deal",
        "gin-deal": f"/game/{games['gin']}/deal/1",
        "scoreboard": f"/game/{games['rommi']}",
        "finished": f"/game/{games['gin']}",
        "hollywood": f"/game/{games['hollywood']}",
        "referee": "/referee",
        "rules": "/rules",
        "settings": "/settings",
    }


def _shoot(out: Path) -> list[Path]:
    return shoot(out=out, seed=_seed, screens=_screens, sizes=SIZES, prepare={"deal": _tap_a_hand})


if __name__ == "__main__":
    main(description="PNGs of the app's main screens", shoot_into=_shoot)
