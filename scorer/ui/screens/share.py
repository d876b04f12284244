"""``Share``: a game's, a club night's or a league's file handed to the phone's share sheet
(issue 28), the same file ``rummy league export --game/--night/--facts`` writes.

Flet's :class:`flet.Share` service opens the share sheet (``navigator.share`` with a file in
the browser: Chromium on Android, Safari on iOS). Where the browser has none (a desktop
browser, Firefox), or the sheet cannot take a file, the file is offered as a download through
the page's file picker instead, and the button's line says so. Which file: the caller's
``make``, from :mod:`scorer.ui.screens.share_model`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import flet as ft

from scorer.errors import ScorerError
from scorer.league.store import Store
from scorer.ui.components.file_dialogs import save_export
from scorer.ui.components.layout import error_text, navigate
from scorer.ui.context import use_services, use_settings
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.exchange_model import ExportFile
from scorer.ui.screens.share_model import SHARE_MIME, share_game

log = logging.getLogger(__name__)


async def _shared(share: ft.Share | None, file: ExportFile, *, subject: str) -> ft.ShareResultStatus | None:
    """What the share sheet did with the file; None if there is none here (then the caller
    offers a download).

    In the browser a share that went through says ``UNAVAILABLE`` (the page is not told which
    app took the file; Flet's web client, share_plus, answers so), closing the sheet says
    ``DISMISSED``, and a browser with no ``navigator.share`` (or one that cannot share a file)
    raises: with both of share_plus's own fallbacks off, that is the one way to tell."""
    if share is None:
        return None
    try:
        result = await share.share_files(
            [ft.ShareFile.from_bytes(file.data, mime_type=SHARE_MIME, name=file.name)],
            subject=subject,
            download_fallback_enabled=False,
            mail_to_fallback_enabled=False,
        )
    except Exception as exc:  # no share sheet (no navigator.share), or it refused the file
        log.info("share sheet not available: %s", exc)
        return None
    return result.status


@ft.component
def ShareButton(*, label: str, make: Callable[[], ExportFile]) -> ft.Control:
    """A ``Share`` button named ``label`` (its accessible name) and the line that says what
    became of the file: shared, or saved as a download where the browser has no share sheet."""
    language = use_settings().language
    services = use_services()
    said, set_said = ft.use_state("")
    error, set_error = ft.use_state("")

    async def share() -> None:
        try:
            file = make()
        except ScorerError as exc:  # the game or night was deleted meanwhile
            set_said("")
            set_error(engine_text(str(exc), language))
            return
        set_error("")
        status = await _shared(services.share, file, subject=tr("app_title", language))
        if status is ft.ShareResultStatus.DISMISSED:
            set_said("")
            return
        if status is not None:
            set_said(tr("share.shared", language, name=file.name))
            return
        path = await save_export(file, title=tr("exchange.save_title", language, name=file.name))
        set_said(tr("share.downloaded", language, name=path or file.name))

    controls: list[ft.Control] = [
        ft.Row(controls=[ft.OutlinedButton(label, icon=ft.Icons.IOS_SHARE, on_click=share)])
    ]
    if said:
        controls.append(ft.Text(said, theme_style=ft.TextThemeStyle.BODY_SMALL))
    if error:
        controls.append(error_text(error))
    return ft.Column(spacing=4, controls=controls)


def game_handoff(*, store: Store, game_id: str, language: Language) -> list[ft.Control]:
    """A league game's hand-off actions (the Scoreboard's): ``Share game`` and ``Show as QR``."""
    return [
        ShareButton(label=tr("share.game", language), make=partial(share_game, store, game_id)),
        ft.Row(
            controls=[
                ft.OutlinedButton(
                    tr("qr.show", language),
                    icon=ft.Icons.QR_CODE_2,
                    on_click=partial(navigate, f"/game/{game_id}/qr"),
                )
            ]
        ),
    ]
