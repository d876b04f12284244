"""The ruleset dropdown, with the chosen ruleset's description under it."""

from __future__ import annotations

import flet as ft

from scorer.ui.i18n import tr
from scorer.ui.model import RefereeModel, ruleset_choices


@ft.component
def RulesetPicker(model: RefereeModel) -> ft.Control:
    choices = ft.use_memo(ruleset_choices, dependencies=[])

    def on_select(e: ft.Event[ft.Dropdown]) -> None:
        if e.control.value is not None:
            model.choose_ruleset(e.control.value)

    label = tr("ruleset_label", model.language)
    return ft.Column(
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            # Flutter gives the dropdown's button no name of its own; screen readers need one.
            ft.Semantics(
                label=label,
                content=ft.Dropdown(
                    label=label,
                    value=model.ruleset_id,
                    options=[ft.DropdownOption(key=c.id, text=c.name) for c in choices],
                    on_select=on_select,
                    # As wide as the column, like the cards field under it. (In Flet 1.0.5
                    # expanded_insets alone does not widen it; expand does.)
                    expand=True,
                ),
            ),
            ft.Text(model.ruleset_description, theme_style=ft.TextThemeStyle.BODY_SMALL),
        ],
    )
