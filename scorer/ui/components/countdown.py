"""A club night round's timer on screen: the text at the store's clock, redrawn every second
while the round's time runs (the Scoreboard's table timer and the director's round heading).

The loop is an effect's async task: it sleeps :data:`TICK_SECONDS`, reads the clock, redraws,
and ends once ``running`` says the clock has stopped (time up, the game or round ended); Flet
cancels it when the screen unmounts. What the text says is the caller's view model's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import flet as ft

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0  # how often a round's timer is redrawn while its time runs


@ft.component
def Countdown(
    *,
    clock: Callable[[], str],
    text: Callable[[str], str],
    running: Callable[[str], bool],
    alert: Callable[[str], bool],
    what: str,
    size: int = 18,
    color: ft.ColorValue = ft.Colors.PRIMARY,
    alert_color: ft.ColorValue = ft.Colors.ERROR,
) -> ft.Control:
    """``text(now)`` in bold at ``size``, redrawn every second while ``running(now)``; in
    ``alert_color`` where ``alert(now)`` (time is up), else ``color`` (a wall screen's board
    has colours of its own). ``what`` names the timer in the debug log."""
    state: tuple[str, Callable[[str], None]] = ft.use_state(clock)
    now, set_now = state

    async def tick() -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            stamp = clock()
            set_now(stamp)
            if not running(stamp):
                return

    def unmounted() -> None:
        # Flet cancels the effect's running task (the loop above) before it calls this.
        log.debug("round timer of %s stopped", what)

    ft.use_effect(tick, dependencies=[], cleanup=unmounted)
    return ft.Text(
        text(now),
        size=size,
        weight=ft.FontWeight.BOLD,
        color=alert_color if alert(now) else color,
    )
