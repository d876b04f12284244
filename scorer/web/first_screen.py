"""Home before the store is open: the phone's first screen, drawn from the summary record (issue 25).

Opening the store imports pydantic (its documents and facts build on it), which no memory
snapshot can hold, and reads and checks the facts after its checkpoint: most of Python's path
to the first screen. So the phone draws Home first, from the ``home`` part of the summary
record the store writes with every commit (Home's own lists, made by Home's own model:
:meth:`~scorer.ui.screens.home_model.HomeModel.record`), with the same frame and the same
drawing as the app's Home (:func:`~scorer.ui.screens.home.home_view`), and opens the store
behind it. Once the store is open the app itself (:func:`scorer.ui.app.app_session`) takes
the root's place, at the route the page is at.

A tap before then is not lost: its route is followed at once, and a screen that needs the
store says the games are being opened (``web.opening``) until the app takes over and shows
it. Nothing here writes.

This module (and all it imports) must import without pydantic: ``scorer/web/startup.py``
lists what the first screen leaves for later, and a test checks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import flet as ft

from scorer.ui.components.layout import headline, screen
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.home import home_view
from scorer.ui.screens.home_model import HomeModel
from scorer.ui.shell import framed

#: How long the app waits, once the store is open, before it takes Home's place: a tap the
#: phone sent while the store was opening (the worker busy, the tap queued in the browser) is
#: heard first, on the Home it was made on. Taken over first, that Home's controls were gone
#: when the tap came, and the tap was lost (the player tapped New game and stayed on Home).
TAPS_HEARD_SECONDS: Final = 0.05


@dataclass(eq=False)
class Opening(ft.Observable):
    """The app, once the store is open: the root component :func:`Starting` shows then."""

    app: Callable[[], ft.Control] | None = None

    def take_over(self, app: Callable[[], ft.Control]) -> None:
        self.app = app

    async def take_over_after_taps(self, app: Callable[[], ft.Control]) -> None:
        """:meth:`take_over`, once the taps the phone sent before now have been followed."""
        await asyncio.sleep(TAPS_HEARD_SECONDS)  # a browser's timer: its queued messages first
        self.take_over(app)


def _at_home(route: str) -> bool:
    return route.split("?")[0] in ("", "/")


def home_first(route: str, home: HomeModel | None) -> bool:
    """Whether the first screen is Home before the store: the page opens at Home and Home's
    lists are known (a start at another route, the game that was open, waits for the store)."""
    return home is not None and _at_home(route)


@ft.component
def Starting(*, opening: Opening, home: HomeModel, language: Language) -> ft.Control:
    """Home from ``home`` (and the games being opened at any other route) until ``opening``
    holds the app, then the app."""
    page = ft.context.page
    route, set_route = ft.use_state(page.route or "/")

    def follow_routes() -> Callable[[], None]:
        def changed(event: ft.RouteChangeEvent) -> None:
            set_route(event.route)

        page.on_route_change = changed

        def stop() -> None:
            if page.on_route_change is changed:
                page.on_route_change = None

        return stop

    ft.use_effect(follow_routes, dependencies=[])
    if opening.app is not None:
        return opening.app()
    if _at_home(route):
        return framed(route, language, home_view(home, language))
    return framed(route, language, screen(headline(tr("web.opening", language)), ft.ProgressRing()))
