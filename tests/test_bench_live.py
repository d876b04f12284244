"""``bench/app.py --live`` checks each step it times (issue 24, 15): driven here once on a served
app in Chromium, a deal entered as the bench enters it is really read and saved, and a step
that does not happen stops the bench naming it instead of timing, or waiting for, nothing."""

from __future__ import annotations

import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from conftest import Server, bench_module, open_page

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


def bench_app() -> ModuleType:
    return bench_module("app")


def test_the_live_bench_enters_a_deal_as_a_person_and_checks_each_step(
    tmp_path: Path, chromium: Browser
) -> None:
    bench = bench_app()
    folder = tmp_path / "league"
    store = Store.open(folder)
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"], options={"target": 100_000}).id
    server = Server(folder)
    try:
        page = open_page(chromium, server.url + f"game/{game_id}", width=900, height=1000)
        bench._happened(page, "Bea: 0", step="the Scoreboard")
        bench._enter_deal(page, n=1)  # each of its steps checked: it returns once 2C is read
        bench._stamp_when_shown(page, "Bea: 2")  # the page notes when the total shows (--club)
        tapped = time.time()
        page.get_by_role("button", name="Save deal").click()
        bench._happened(page, "Bea: 2", step="save 1: phone B's Save deal")
        assert tapped <= bench._shown_at(page, step="save 1: the page's own time") <= time.time()
        deals = Store.open(folder).game(game_id).document["deals"]
        assert [d["hands"] for d in deals] == [{"Anna": "", "Bea": "2C"}]
        # A step that does not happen stops the bench, saying which and what the screen said.
        with pytest.raises(bench.StepFailed) as stopped:
            bench._happened(page, "Bea: 999", step="save 2: phone B's Save deal", timeout=1_000)
        said = str(stopped.value)
        assert said.startswith("save 2: phone B's Save deal: 'Bea: 999' never showed") and "Bea: 2" in said
        bench._stamp_when_shown(page, "Bea: 999")
        with pytest.raises(bench.StepFailed, match="save 2: never showed"):
            bench._shown_at(page, step="save 2", timeout=1_000)
        page.context.close()
    finally:
        server.stop()
