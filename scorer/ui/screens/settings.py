"""Settings ``/settings``: language, theme, and where the games are kept."""

from __future__ import annotations

import flet as ft

from scorer.ui.components.exchange_panel import BackupSection
from scorer.ui.components.layout import headline, screen, section
from scorer.ui.context import THEMES, use_settings, use_store
from scorer.ui.i18n import LANGUAGE_NAMES, LANGUAGES, tr


@ft.component
def SettingsScreen() -> ft.Control:
    settings = use_settings()
    store = use_store()
    language = settings.language

    def on_language(e: ft.Event[ft.RadioGroup]) -> None:
        settings.set_language(str(e.control.value))

    def on_theme(e: ft.Event[ft.RadioGroup]) -> None:
        settings.set_theme(str(e.control.value))

    return screen(
        headline(tr("settings.title", language)),
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
            str(store.location or tr("settings.in_memory", language)),
            selectable=True,
            font_family="monospace",
        ),
        BackupSection(),
    )
