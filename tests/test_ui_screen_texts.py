"""Every text a screen builds from a value (a house rule, an outcome, a bonus) is in the catalogs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorer.house_rules import NAMED_RULES, house_rules_of
from scorer.league.records import EVENT_ACTIONS, GAME_STATUSES
from scorer.league.tiebreaks import CRITERIA, TIED
from scorer.ruleset import IDENTITY_FIELDS, Ruleset, bundled_ids
from scorer.seating import METHODS
from scorer.ui.context import THEMES
from scorer.ui.i18n import LANGUAGES, catalog

SCREENS = Path(__file__).resolve().parent.parent / "scorer" / "ui"
MY_FILES = [
    "app.py",
    "screens/home.py",
    "screens/new_game.py",
    "screens/deal.py",
    "screens/scoreboard.py",
    "screens/settings.py",
    "components/card_picker.py",
    "components/totals_chart.py",
    "components/conflict_panel.py",
    "components/club_server_section.py",
    "components/synced_apart.py",
    "screens/club_server_model.py",
    "screens/history_model.py",
    "screens/leagues.py",
    "screens/night.py",
    "screens/player.py",
    "screens/tv.py",
    "screens/tv_model.py",
]


def _keys() -> set[str]:
    keys = {f"deal.outcome_{o}" for o in ("knock", "gin", "big_gin", "undercut")}
    keys |= {f"deal.ended_{e}" for e in ("stop", "block", "stock_out")}
    keys |= {f"scoreboard.bonus_{b}" for b in ("game", "boxes", "shutout")}
    keys |= {f"settings.theme_{t}" for t in THEMES}
    keys |= {f"scoreboard.elsewhere_{c}" for c in ("recorded", "corrected", "removed", "restored")}
    keys |= {f"history.{action}" for action in EVENT_ACTIONS}  # every event the store signs
    keys |= {f"history.{status}" for status in GAME_STATUSES if status != "active"}
    keys |= {"leagues.import_no_league", "leagues.import_two_leagues"}  # a league import's problems
    keys |= {f"night.method_{m}" for m in METHODS}  # a club night's seating methods
    keys |= {f"night.{status}" for status in GAME_STATUSES if status != "active"}  # a table's game
    keys |= {f"night.{field}{part}" for field in ("rounds", "timer") for part in ("", "_help")}  # start form
    keys |= {f"night.tiebreak_{c.replace('-', '_')}" for c in (*CRITERIA, TIED)}  # a night's tie-breaks
    keys |= {f"night.col_{c}" for c in ("place", "player", "points", "games", "wins", "places", "ahead")}
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_built_key_is_in_the_catalog(language: str) -> None:
    texts = catalog()[language]  # type: ignore[index]
    missing = sorted(k for k in _keys() if k not in texts)
    assert not missing


def test_every_literal_key_the_screens_use_is_in_the_catalog() -> None:
    texts = catalog()["en"]
    pattern = re.compile(r'tr\(\s*"([a-z_.]+)"')
    used = {key for name in MY_FILES for key in pattern.findall((SCREENS / name).read_text(encoding="utf-8"))}
    assert used, "no keys found: the pattern no longer matches the screens"
    assert sorted(k for k in used if k not in texts) == []


def test_house_rules_offered_are_options_a_table_may_set() -> None:
    options = (set(Ruleset.model_fields) - IDENTITY_FIELDS) | set(NAMED_RULES)
    for ruleset_id in bundled_ids():
        assert house_rules_of(ruleset_id), ruleset_id
        assert set(house_rules_of(ruleset_id)) <= options, ruleset_id
