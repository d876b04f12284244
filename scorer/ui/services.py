"""Platform services for the screens: keep the screen awake while a game is open.

The phone lies on the table between deals; the Deal entry and Scoreboard screens hold a
wakelock while they are shown. Where the platform has none (some browsers), nothing happens.
"""

from __future__ import annotations

import logging

import flet as ft

from scorer.ui.context import use_services

log = logging.getLogger(__name__)


def use_wakelock() -> None:
    """Keep the screen awake while the calling component is shown (a hook)."""
    lock = use_services().wakelock

    async def enable() -> None:
        if lock is not None:
            try:
                await lock.enable()  # type: ignore[no-untyped-call]
            except Exception as exc:  # the platform has no wakelock: the screen may sleep
                log.info("wakelock not available: %s", exc)

    async def disable() -> None:
        if lock is not None:
            try:
                await lock.disable()  # type: ignore[no-untyped-call]
            except Exception as exc:  # the platform keeps its own wakelock state
                log.info("wakelock not released: %s", exc)

    ft.use_effect(enable, dependencies=[], cleanup=disable)
