"""``Show as QR``: a game's facts as QR codes on screen, for another phone's camera (issue 28).

One code when the game fits in one, else the codes take turns every
:data:`~scorer.ui.screens.share_model.CYCLE_SECONDS` with "3 of 7" under each; ``Pause``
holds the code on screen and ``Next`` steps by hand, so a slow camera catches every one. The
codes are :mod:`scorer.league.handoff`'s parts (the ones ``rummy league qr`` writes as
files), drawn by segno as PNG pictures; the model is
:class:`~scorer.ui.screens.share_model.QrShowModel`.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.components.layout import back_link, error_text, headline, screen
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import tr
from scorer.ui.screens.share_model import CYCLE_SECONDS, QrShowModel
from scorer.ui.services import use_wakelock

#: The code's side on screen, in logical pixels: a camera a hand's width away reads a
#: version 25 code at this size off a phone's screen.
QR_SIDE = 320


@ft.component
def QrShowRoute() -> ft.Control:
    game_id = ft.use_route_params().get("id", "")
    keyed: Any = QrShowScreen  # keyed by the game: another game's codes are a new screen
    return cast(ft.Control, keyed(game_id=game_id, key=f"qr/{game_id}"))


@ft.component
def QrShowScreen(*, game_id: str) -> ft.Control:
    language = use_settings().language
    store = use_store()
    use_wakelock()  # the phone lies on the table while the other one reads it

    def load() -> QrShowModel | str:
        try:
            return QrShowModel.of_game(store, game_id)
        except ScorerError as exc:  # no such game, or one in no league (nothing to hand over)
            return engine_text(str(exc), language)

    state: tuple[Any, Any] = ft.use_state(load)
    model: QrShowModel | str = state[0]
    back = back_link(tr("qr.back", language), f"/game/{game_id}")

    async def cycle() -> None:
        if not isinstance(model, QrShowModel) or not model.cycles:
            return
        while True:  # Flet cancels this task when the screen unmounts
            await asyncio.sleep(CYCLE_SECONDS)
            model.tick()

    ft.use_effect(cycle, dependencies=[])
    if not isinstance(model, QrShowModel):
        return screen(back, headline(tr("qr.title", language)), error_text(model))
    shown, count = model.place
    place = tr("qr.place", language, shown=shown, count=count)
    controls: list[ft.Control] = [
        back,
        headline(tr("qr.title", language)),
        ft.Text(tr("qr.help" if model.cycles else "qr.help_one", language, count=count)),
        ft.Row(
            alignment=ft.MainAxisAlignment.CENTER,
            controls=[
                ft.Container(
                    bgcolor=ft.Colors.WHITE,  # the quiet zone stays white in the dark theme
                    padding=8,
                    content=ft.Image(
                        src=model.png(),
                        width=QR_SIDE,
                        height=QR_SIDE,
                        fit=ft.BoxFit.CONTAIN,
                        gapless_playback=True,
                        semantics_label=tr("qr.code", language, shown=shown, count=count),
                    ),
                )
            ],
        ),
        ft.Text(place, size=20, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER),
    ]
    if model.cycles:
        pause = "qr.resume" if model.paused else "qr.pause"
        controls.append(
            ft.Row(
                spacing=8,
                controls=[
                    ft.FilledButton(
                        tr(pause, language),
                        icon=ft.Icons.PLAY_ARROW if model.paused else ft.Icons.PAUSE,
                        on_click=model.toggle_pause,
                    ),
                    ft.OutlinedButton(tr("qr.next", language), icon=ft.Icons.SKIP_NEXT, on_click=model.next),
                ],
            )
        )
    return screen(*controls)
