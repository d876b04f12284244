"""The referee screen: a ruleset, the cards, two questions and the engine's answers."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ui.components import CardsField, RefereeActions, ResultPanel, RulesetPicker
from scorer.ui.i18n import DEFAULT_LANGUAGE, tr
from scorer.ui.model import RefereeModel


@ft.component
def RefereeScreen() -> ft.Control:
    # One model per session: use_state keeps it across renders and re-renders on its changes.
    # (The annotation pins use_state's type variable; mypy cannot infer it from a class.)
    state: tuple[RefereeModel, Callable[[RefereeModel], None]] = ft.use_state(RefereeModel)
    model = state[0]
    # Full width on a phone at the card table, a readable column on a wide screen.
    return ft.ResponsiveRow(
        controls=[
            ft.Column(
                col={"xs": 12, "md": 9, "lg": 7, "xl": 6},
                spacing=16,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                controls=[
                    ft.Text(tr("screen_title", model.language), theme_style=ft.TextThemeStyle.HEADLINE_SMALL),
                    RulesetPicker(model),
                    CardsField(model),
                    RefereeActions(model),
                    ResultPanel(model),
                ],
            )
        ]
    )


def main(page: ft.Page) -> None:
    page.title = tr("app_title", DEFAULT_LANGUAGE)
    page.scroll = ft.ScrollMode.AUTO
    page.render(RefereeScreen)
