"""Scan ``/leagues/<id>/scan``: another phone's game read from its codes with the camera (where
this app has one) or from photos, shown before it is merged into the league (issue 28). The
state is :class:`ScanModel`'s; the decoder is :mod:`scorer.ui.decoder`'s."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import flet as ft

from scorer.ui import decoder
from scorer.ui.camera import CodeCamera, camera_available, scanning_available
from scorer.ui.components.exchange_panel import confirm_row, done_text, plan_view
from scorer.ui.components.file_dialogs import pick_images
from scorer.ui.components.layout import back_link, error_text, headline, navigate, screen
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_announce
from scorer.ui.screens.leagues import no_league_page, routed_league
from scorer.ui.screens.scan_model import ScanModel


def refusal_text(model_refused: str, language: Language) -> ft.Control:
    """Why the last code was refused, in the player's words, in the error colour."""
    return ft.Text(tr(model_refused, language), color=ft.Colors.ERROR, weight=ft.FontWeight.W_600)


@ft.component
def ScanScreen(*, league_id: str) -> ft.Control:
    settings = use_settings()
    language = settings.language
    store = use_store()
    state: tuple[ScanModel, Callable[[ScanModel], None]] = ft.use_state(
        lambda: ScanModel(store=store, league=league_id)
    )
    model = state[0]
    trouble, set_trouble = ft.use_state("")
    announce = use_announce()
    back = f"/leagues/{league_id}"

    async def from_photos() -> None:
        """Pictures of the codes chosen on the device (on a phone, ``capture`` offers its camera
        app: the way in where the page may not use the camera, e.g. plain http on the Wi-Fi)."""
        for data in await pick_images(title=tr("scan.photo_title", language)):
            try:
                codes = await decoder.decode(data)
            except decoder.DecoderUnavailable:
                model.cannot_decode()
                return
            model.take(codes)

    def confirm() -> None:
        if model.confirm(by=settings.signer):
            announce()

    read, count = model.progress
    controls: list[ft.Control] = [
        back_link(store.league(league_id).name, back),
        headline(tr("scan.title", language)),
    ]
    if model.done is not None:
        controls.append(done_text(model.done, language))
        controls.append(
            ft.Row(
                wrap=True,
                controls=[
                    ft.FilledButton(tr("scan.to_league", language), on_click=partial(navigate, back)),
                    ft.TextButton(tr("scan.again", language), on_click=model.restart),
                ],
            )
        )
        return screen(*controls)
    if model.plan is None:
        controls.append(ft.Text(tr("scan.help" if camera_available() else "scan.photo_help", language)))
        if trouble:
            controls.append(error_text(tr(trouble, language)))
        elif camera_available():
            controls.append(CodeCamera(on_codes=model.take, on_trouble=set_trouble))
        controls.append(
            ft.OutlinedButton(tr("scan.photo", language), icon=ft.Icons.PHOTO_LIBRARY, on_click=from_photos)
        )
    progress = (
        tr("scan.progress", language, read=read, count=count) if count else tr("scan.waiting", language)
    )
    controls.append(ft.Text(progress, size=18, weight=ft.FontWeight.BOLD))
    if model.refused:
        controls.append(refusal_text(model.refused, language))
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.plan is None and (read or model.error):  # start over: another game's codes
        controls.append(ft.TextButton(tr("scan.again", language), on_click=model.restart))
    if model.plan is not None:
        controls.extend(plan_view(model.plan, language))
        controls.append(confirm_row(model.plan, language, confirm=confirm, cancel=model.restart))
    return screen(*controls)


@ft.component
def ScanRoute() -> ft.Control:
    """``/leagues/<id>/scan``: the scanner for that league, or the league's not-found page."""
    league_id = routed_league()
    language = use_settings().language
    if league_id is None:
        return no_league_page(language)
    if not scanning_available():
        return screen(headline(tr("scan.title", language)), ft.Text(tr("scan.unavailable", language)))
    return ScanScreen(league_id=league_id)
