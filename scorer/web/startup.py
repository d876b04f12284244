"""What the phone's first screen waits for, and what it leaves for later (issue 25).

A phone opens the app to Home (or to the game that was open). Every module imported before
that screen shows is time the player waits on a phone's CPU, so the screens Home does not
need are imported when they are first shown (:data:`scorer.ui.app.LAZY_SCREENS`), and so are
the charts, the QR code and the server. Home itself is drawn before the store is opened, from
the summary record (:mod:`scorer.web.first_screen`): the store's modules, pydantic and all that
builds on it (:data:`BEHIND_FIRST_SCREEN`), are imported behind it. :data:`NOT_BEFORE_FIRST_SCREEN`
is the one list of them all: ``tests/test_web_startup.py`` fails if importing the browser's
entry point (:mod:`scorer.web.main`), which draws Home, imports any, and the Chromium test of
the build checks inside the browser, once Home shows and before the first tap, that none but
the store's were imported (the store may be open by then).

>>> "flet_charts" in NOT_BEFORE_FIRST_SCREEN
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

#: What opening the store imports that Home before it does not, heaviest first: pydantic, the
#: store's documents and facts (built on it), the store, the app's routes. The browser's entry
#: point imports them in this order once the store begins to open (scorer/web/main.py), and
#: the build's memory snapshot holds those that need no shared library (not pydantic's).
BEHIND_FIRST_SCREEN: Final = (
    "pydantic_core",
    "pydantic",
    "scorer.validation",
    "scorer.gamefile",
    "scorer.league.facts",
    "scorer.league.documents",
    "scorer.league.store",
    "scorer.web.browser_store",
    "scorer.ui.app",
)

#: The store's modules, imported as it opens, behind Home (Home is drawn from the summary
#: record before they are imported).
STORE_OPENING: Final = (
    *BEHIND_FIRST_SCREEN,
    "scorer.league.ledger",
    "scorer.league.state",
    "scorer.ui.roles",
    "scorer.ui.screens.history_model",
)

#: What is imported only when first used: not before the first screen, nor as the store opens.
ON_FIRST_USE: Final = (
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

#: Modules (and their submodules) that must not be imported before the first screen shows.
NOT_BEFORE_FIRST_SCREEN: Final = (*STORE_OPENING, *ON_FIRST_USE)


def imported_too_early(modules: Iterable[str], *, store_opening: bool = False) -> list[str]:
    """The names in ``modules`` (e.g. ``sys.modules``) that :data:`NOT_BEFORE_FIRST_SCREEN`
    keeps for later (a listed package's submodules too); ``store_opening``: but for the store's
    (:data:`BEHIND_FIRST_SCREEN` and what they import), as once the store began to open.

    >>> imported_too_early(["flet", "flet_charts.bar_chart", "scorer.ui.screens.home"])
    ['flet_charts.bar_chart']
    >>> imported_too_early(["pydantic.main", "scorer.league.store"])
    ['pydantic.main', 'scorer.league.store']
    >>> imported_too_early(["pydantic.main", "scorer.league.store"], store_opening=True)
    []
    """
    later = ON_FIRST_USE if store_opening else NOT_BEFORE_FIRST_SCREEN
    return sorted(name for name in modules if any(name == m or name.startswith(m + ".") for m in later))
