"""What the players type for the current question, its switches, and the button that asks."""

from __future__ import annotations

from typing import Final

import flet as ft

from scorer.ui.components.layout import checkbox
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.referee_model import MELD_INPUTS, Input, Question, RefereeModel, opening_checks_onto

#: The button that asks each question (the meld check keeps its established name).
ASK_KEYS: Final[dict[Question, str]] = {
    "meld": "check_button",
    "arrange": "arrange_button",
    "layoff": "referee.ask_layoff",
    "knock": "referee.ask_knock",
    "opening": "referee.ask_opening",
    "hand_opening": "referee.ask_hand_opening",
    "table": "referee.ask_table",
}


_HINTS: Final[dict[str, str]] = {
    **{name: "referee.melds_hint" for name in MELD_INPUTS},
    "options": "referee.options_hint",
}


def _label(name: Input, language: Language) -> str:
    return tr("cards_label" if name == "cards" else f"referee.input_{name}", language)


def _help(name: Input, model: RefereeModel, language: Language) -> str | None:
    if name == "cards":
        return tr("cards_help", language)
    if name == "declared":
        return tr("referee.declared_help", language)
    if name == "layoffs":
        return tr("referee.layoffs_help", language)
    if name == "onto" and not opening_checks_onto():
        return tr("referee.layoffs_unchecked", language)
    if name == "options":
        return tr("referee.options_help", language)
    if name in MELD_INPUTS:
        return tr("referee.melds_help", language)
    return None


@ft.component
def RefereeInput(model: RefereeModel, name: Input, language: Language) -> ft.Control:
    def on_change(e: ft.Event[ft.TextField]) -> None:
        model.set_input(name, e.control.value)

    return ft.TextField(
        label=_label(name, language),
        hint_text=tr(_HINTS.get(name, "cards_hint"), language),
        helper=_help(name, model, language),
        helper_max_lines=3,
        value=model.inputs[name],
        on_change=on_change,
        # Enter asks the question.
        on_submit=model.ask,
        autocorrect=False,
        enable_suggestions=False,
    )


@ft.component
def RefereeInputs(model: RefereeModel, language: Language) -> ft.Control:
    controls: list[ft.Control] = [
        # Keyed by question and name: each field keeps its own state when the question changes.
        RefereeInput(model, name, language, key=f"{model.question}/{name}")  # type: ignore[call-arg]
        for name in model.shown_inputs
    ]
    if model.question == "arrange":
        controls.append(
            checkbox(
                label=tr("referee.discard_first", language),
                value=model.discard_first,
                on_change=model.set_discard_first,
            )
        )
    if model.question == "table":
        controls.append(
            checkbox(
                label=tr("referee.first_meld", language),
                value=model.first_meld,
                on_change=model.set_first_meld,
            )
        )
    controls.append(
        ft.Row(controls=[ft.Button(tr(ASK_KEYS[model.question], language), on_click=model.ask)], wrap=True)
    )
    return ft.Column(spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls)
