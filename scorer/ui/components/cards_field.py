"""The text field where the player types the cards."""

from __future__ import annotations

import flet as ft

from scorer.ui.i18n import tr
from scorer.ui.model import RefereeModel


@ft.component
def CardsField(model: RefereeModel) -> ft.Control:
    def on_change(e: ft.Event[ft.TextField]) -> None:
        model.set_cards(e.control.value)

    return ft.TextField(
        label=tr("cards_label", model.language),
        hint_text=tr("cards_hint", model.language),
        helper=tr("cards_help", model.language),
        helper_max_lines=3,
        value=model.cards,
        on_change=on_change,
        # Enter checks the meld: the common question.
        on_submit=model.check,
        autofocus=True,
        autocorrect=False,
        enable_suggestions=False,
    )
