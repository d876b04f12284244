"""The referee's two choices: which question to ask, and under which ruleset."""

from __future__ import annotations

import flet as ft

from scorer.ui.components.layout import labelled_dropdown
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.referee_model import QUESTIONS, RefereeModel, ruleset_choices


@ft.component
def RefereeQuestionPicker(model: RefereeModel, language: Language) -> ft.Control:
    return labelled_dropdown(
        label=tr("referee.question_label", language),
        value=model.question,
        options=[(q, tr(f"referee.question_{q}", language)) for q in QUESTIONS],
        on_select=model.choose_question,
    )


@ft.component
def RefereeRulesetPicker(model: RefereeModel, language: Language) -> ft.Control:
    question = model.question
    choices = ft.use_memo(lambda: ruleset_choices(question), dependencies=[question])

    return ft.Column(
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            labelled_dropdown(
                label=tr("ruleset_label", language),
                value=model.ruleset_id,
                options=[(c.id, engine_text(c.name, language)) for c in choices],
                on_select=model.choose_ruleset,
            ),
            ft.Text(
                engine_text(model.ruleset_description, language), theme_style=ft.TextThemeStyle.BODY_SMALL
            ),
        ],
    )
