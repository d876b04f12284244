"""PNGs of the screens issue 24's items 8 and 9 changed, at phone width, in both languages.

A seat's refused name under it (New game), the club night's help lines wrapped, a gin knock's
outcome beside Save deal, a finished game's deal route, the conflict panel (another phone
saved the deal first), a correction's history line with the old entry, a league's first
season, and Settings with the device's own name.

    .venv/bin/python tests/screenshots_texts.py --out /tmp/shots
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from screenshot_kit import main, shoot

from scorer.league.store import Store
from scorer.ui.i18n import tr

if TYPE_CHECKING:
    from playwright.sync_api import Page

SIZES = {"phone": (390, 844)}
KNOCKER = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
DEFENDER = "TH JH QH KC KD KS 5D 6D 7D AC"
#: The seeded store's folder, for the screen that needs another phone's save meanwhile.
_FOLDER: list[Path] = []


def _seed(folder: Path) -> dict[str, str]:
    _FOLDER[:] = [folder]
    store = Store.open(folder)
    store.create_league("Club")
    store.abandon_game(store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club").id)
    gin = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
    over = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}).id
    store.add_deal(over, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}})
    rommi = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club").id
    store.add_deal(rommi, {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"}, by="Laite K7MP")
    store.replace_deal(
        rommi, 0, {"hands": {"Anna": "7C", "Bea": ""}, "out": "Bea"}, by="Bea", why="Bea went out"
    )
    clash = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    league = store.league("Club").id
    return {"gin": gin, "over": over, "rommi": rommi, "clash": clash, "league": league}


def _ready(page: Page) -> None:
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached")
    time.sleep(2)


def _type(page: Page, label: str, text: str) -> None:
    field = page.get_by_role("textbox", name=label)
    field.click()
    time.sleep(0.3)
    field.press_sequentially(text, delay=100)
    time.sleep(0.5)


def _choose(page: Page, label: str, option: str) -> None:
    page.get_by_role("button", name=label).click()
    time.sleep(0.5)
    page.get_by_role("button", name=option, exact=True).last.click()
    time.sleep(1)


def _refused_name(page: Page, language: str) -> None:
    _ready(page)
    _type(page, tr("new_game.player", language, number=1), "Anna")
    _type(page, tr("new_game.player", language, number=2), "Be")
    page.keyboard.insert_text("\u200b")
    page.keyboard.type("a", delay=100)
    time.sleep(0.5)
    page.get_by_role("button", name=tr("new_game.start", language)).click()
    time.sleep(2)
    page.get_by_role("textbox", name=tr("new_game.player", language, number=1)).scroll_into_view_if_needed()


def _night_help(page: Page, language: str) -> None:
    _ready(page)
    page.get_by_role("textbox", name=tr("night.timer", language)).scroll_into_view_if_needed()


def _gin_outcome(page: Page, language: str) -> None:
    _ready(page)
    _choose(page, tr("deal.knocked", language), "Anna")
    _type(page, tr("deal.cards_left", language, name="Anna"), KNOCKER)
    _type(page, tr("deal.cards_left", language, name="Bea"), DEFENDER)
    page.get_by_role("button", name=tr("deal.save", language)).scroll_into_view_if_needed()


def _conflict(page: Page, language: str) -> None:
    _ready(page)
    _choose(page, tr("deal.went_out", language), "Anna")
    _type(page, tr("deal.cards_left", language, name="Bea"), "KS 5H")
    store = Store.open(_FOLDER[0])
    game_id = page.url.split("/game/")[1].split("/")[0]
    store.add_deal(game_id, {"hands": {"Anna": "5C", "Bea": ""}, "out": "Bea"}, by="Laite K7MP")
    time.sleep(2)
    page.get_by_role("button", name=tr("deal.save", language)).click()
    time.sleep(2)


def _history(page: Page, language: str) -> None:
    _ready(page)
    found = page.locator("flt-semantics").get_by_text(tr("history.corrected", language), exact=False)
    found.first.scroll_into_view_if_needed()


def _screens(games: dict[str, str]) -> dict[str, str]:
    return {
        "texts-new-game-refused": "/game/new",
        "texts-night-help": f"/leagues/{games['league']}/night",
        "texts-gin-outcome": f"/game/{games['gin']}/deal",
        "texts-game-over": f"/game/{games['over']}/deal",
        "texts-conflict": f"/game/{games['clash']}/deal",
        "texts-history": f"/game/{games['rommi']}",
        "texts-league": f"/leagues/{games['league']}",
        "texts-settings": "/settings",
    }


def _shoot(out: Path) -> list[Path]:
    prepare = {
        "texts-new-game-refused": _refused_name,
        "texts-night-help": _night_help,
        "texts-gin-outcome": _gin_outcome,
        "texts-conflict": _conflict,
        "texts-history": _history,
    }
    return shoot(out=out, seed=_seed, screens=_screens, sizes=SIZES, prepare=prepare)


if __name__ == "__main__":
    main(description="PNGs of the screens issue 24's items 8 and 9 changed", shoot_into=_shoot)
