"""Settings ``/settings``: language, theme, where the games are kept, and, when the app is
served beyond loopback, the link with its access code and the link's QR code for the phones."""

from __future__ import annotations

import base64

import flet as ft

from scorer.ui.components.club_server_section import ClubServerSection
from scorer.ui.components.exchange_panel import BackupSection
from scorer.ui.components.layout import headline, screen, section
from scorer.ui.context import NAME_LENGTH, THEMES, use_services, use_settings, use_store
from scorer.ui.engine_text import field_text
from scorer.ui.i18n import LANGUAGE_NAMES, LANGUAGES, Language, tr
from scorer.ui.roles import own_link, use_access
from scorer.ui.serving import qr_png_bytes

#: The QR code's side on screen, in logical pixels: big enough for a phone's camera.
QR_SIZE = 240


@ft.component
def SettingsScreen() -> ft.Control:
    settings = use_settings()
    store = use_store()
    link = own_link(
        use_services().access_link, use_access().grant, store
    )  # never the club's code to a viewer
    language = settings.language

    def on_language(e: ft.Event[ft.RadioGroup]) -> None:
        settings.set_language(str(e.control.value))

    def on_theme(e: ft.Event[ft.RadioGroup]) -> None:
        settings.set_theme(str(e.control.value))

    if not settings.loaded:
        # The device's name and choices are on their way from its storage: the fields come
        # once they are here, where they stay (drawn before, they moved down under a tap).
        return screen(headline(tr("settings.title", language)), ft.ProgressRing())
    return screen(
        headline(tr("settings.title", language)),
        # Never asked for: a device starts with a name of its own, which the player may change.
        ft.TextField(
            label=tr("settings.your_name", language),
            value=settings.name,
            on_change=lambda e: settings.set_name(e.control.value),
            max_length=NAME_LENGTH,
            error=field_text(settings.name_problem, language) or None,
            autocorrect=False,
            enable_suggestions=False,
        ),
        ft.Text(tr("settings.name_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        *(
            [
                ft.Text(
                    tr("settings.device_help", language, device=settings.device),
                    theme_style=ft.TextThemeStyle.BODY_SMALL,
                )
            ]
            if settings.device
            else []
        ),
        section(tr("settings.language", language)),
        ft.RadioGroup(
            value=language,
            on_change=on_language,
            content=ft.Column(
                spacing=0,
                controls=[ft.Radio(value=code, label=LANGUAGE_NAMES[code]) for code in LANGUAGES],
            ),
        ),
        section(tr("settings.theme", language)),
        ft.RadioGroup(
            value=settings.theme,
            on_change=on_theme,
            content=ft.Column(
                spacing=0,
                controls=[
                    ft.Radio(value=theme, label=tr(f"settings.theme_{theme}", language)) for theme in THEMES
                ],
            ),
        ),
        section(tr("settings.data", language)),
        ft.Text(tr("settings.data_help", language)),
        ft.Text(
            str(store.location or store.address or tr("settings.in_memory", language)),
            selectable=True,
            font_family="monospace",
        ),
        BackupSection(),
        ClubServerSection(),
        *(phones_section(link, language) if link else []),
    )


def phones_section(link: str, language: Language) -> list[ft.Control]:
    """The link that opens the app with its access code, and its QR code for phones to scan."""
    return [
        section(tr("settings.phones", language)),
        ft.Text(tr("settings.phones_help", language)),
        # Plain text, not selectable: the browser's accessibility tree (and a screen reader) reads it.
        ft.Text(link, font_family="monospace"),
        ft.Image(
            src=base64.b64encode(qr_png_bytes(link)).decode("ascii"),
            width=QR_SIZE,
            height=QR_SIZE,
            semantics_label=tr("settings.qr_label", language),
        ),
    ]
