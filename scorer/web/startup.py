"""What the phone's first screen waits for, and what it leaves for later (issue 25).

A phone opens the app to Home (or to the game that was open). Every module imported before
that screen shows is time the player waits on a phone's CPU, so the screens Home does not
need are imported when they are first shown (:data:`scorer.ui.app.LAZY_SCREENS`), and so are
the charts, the QR code and the server. :data:`NOT_BEFORE_FIRST_SCREEN` is the one list of
them: ``tests/test_web_startup.py`` fails if importing the browser's entry point
(:mod:`scorer.web.main`) and drawing Home imports any, and the Chromium test of the build
checks the same inside the browser, before the first tap.

>>> "flet_charts" in NOT_BEFORE_FIRST_SCREEN
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

#: Modules (and their submodules) that must not be imported before the first screen shows.
NOT_BEFORE_FIRST_SCREEN: Final = (
    # The screens Home does not need, and what only they use.
    "scorer.ui.screens.deal",
    "scorer.ui.screens.deal_entry",
    "scorer.ui.screens.deal_model",
    "scorer.ui.screens.leagues",
    "scorer.ui.screens.leagues_model",
    "scorer.ui.screens.league_import_model",
    "scorer.ui.screens.new_game",
    "scorer.ui.screens.new_game_model",
    "scorer.ui.screens.night",
    "scorer.ui.screens.night_model",
    "scorer.ui.screens.player",
    "scorer.ui.screens.player_model",
    "scorer.ui.screens.referee",
    "scorer.ui.screens.referee_model",
    "scorer.ui.screens.rules",
    "scorer.ui.screens.rules_model",
    "scorer.ui.screens.scan",
    "scorer.ui.screens.scan_model",
    "scorer.ui.screens.slips",
    "scorer.ui.camera",
    "scorer.ui.screens.scoreboard",
    "scorer.ui.screens.scoreboard_model",
    "scorer.ui.screens.settings",
    "scorer.ui.screens.tv",
    "scorer.ui.screens.tv_model",
    "scorer.ui.screens.exchange_model",
    "scorer.ui.screens.opened_files",
    "scorer.ui.screens.qr_show",
    "scorer.ui.screens.share",
    "scorer.ui.screens.share_model",
    "scorer.ui.screens.conflict_model",
    "scorer.ui.screens.club_server_model",
    "scorer.ui.components.club_server_section",
    "scorer.ui.screens.synced_apart_model",
    "scorer.ui.components.synced_apart",
    "scorer.ui.components.card_picker",
    "scorer.ui.components.conflict_panel",
    "scorer.ui.components.exchange_panel",
    "scorer.ui.components.referee_inputs",
    "scorer.ui.components.referee_pickers",
    "scorer.ui.components.referee_verdict",
    "scorer.ui.components.stat_table",
    "scorer.ui.components.totals_chart",
    # A league's import and export (the store imports them when one is asked for).
    "scorer.league.exchange",
    "scorer.league.merge",
    "scorer.league.import_preview",
    "scorer.league.handoff",
    # A game changed on two devices apart, joined again (imported when a choice is made).
    "scorer.league.joins",
    # The sync with a club server (run a few seconds after the start, or from Settings).
    "scorer.league.sync",
    "scorer.web.browser_transport",
    # The referee's own questions (the store scores games without them).
    "scorer.opening",
    "scorer.table",
    # Charts (the scoreboard's and a player's), the QR code of the served app, the server.
    "flet_charts",
    "segno",
    "scorer.ui.serving",
    "scorer.ui.serve",
    "scorer.ui.gate",
    "scorer.ui.webapp",
    "scorer.web.build",
    "scorer.cli",
    "scorer.commands",
    "fastapi",
    "uvicorn",
)


def imported_too_early(modules: Iterable[str]) -> list[str]:
    """The names in ``modules`` (e.g. ``sys.modules``) that :data:`NOT_BEFORE_FIRST_SCREEN`
    keeps for later (a listed package's submodules too).

    >>> imported_too_early(["flet", "flet_charts.bar_chart", "scorer.ui.screens.home"])
    ['flet_charts.bar_chart']
    """
    later = NOT_BEFORE_FIRST_SCREEN
    return sorted(name for name in modules if any(name == m or name.startswith(m + ".") for m in later))
