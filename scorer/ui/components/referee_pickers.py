"""The referee's two choices: which question to ask, and under which ruleset."""

from __future__ import annotations

import flet as ft

from scorer.ui.i18n import Language, tr
from scorer.ui.screens.referee_model import QUESTIONS, RefereeModel, ruleset_choices


def _dropdown(
    *,
    label: str,
    value: str,
    options: list[ft.DropdownOption],
    on_select: ft.ControlEventHandler[ft.Dropdown],
) -> ft.Control:
    # Flutter gives the dropdown's button no name of its own; screen readers need one.
    return ft.Semantics(
        label=label,
        content=ft.Dropdown(
            label=label,
            value=value,
            options=options,
            on_select=on_select,
            # As wide as the column. (In Flet 1.0.5 expanded_insets alone does not widen it.)
            expand=True,
        ),
    )


@ft.component
def RefereeQuestionPicker(model: RefereeModel, language: Language) -> ft.Control:
    def on_select(e: ft.Event[ft.Dropdown]) -> None:
        if e.control.value is not None:
            model.choose_question(e.control.value)

    options = [ft.DropdownOption(key=q, text=tr(f"referee.question_{q}", language)) for q in QUESTIONS]
    return _dropdown(
        label=tr("referee.question_label", language),
        value=model.question,
        options=options,
        on_select=on_select,
    )


@ft.component
def RefereeRulesetPicker(model: RefereeModel, language: Language) -> ft.Control:
    question = model.question
    choices = ft.use_memo(lambda: ruleset_choices(question), dependencies=[question])

    def on_select(e: ft.Event[ft.Dropdown]) -> None:
        if e.control.value is not None:
            model.choose_ruleset(e.control.value)

    return ft.Column(
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            _dropdown(
                label=tr("ruleset_label", language),
                value=model.ruleset_id,
                options=[ft.DropdownOption(key=c.id, text=c.name) for c in choices],
                on_select=on_select,
            ),
            ft.Text(model.ruleset_description, theme_style=ft.TextThemeStyle.BODY_SMALL),
        ],
    )
