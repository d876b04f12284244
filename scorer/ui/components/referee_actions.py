"""The buttons that ask the engine a question."""

from __future__ import annotations

import flet as ft

from scorer.ui.i18n import tr
from scorer.ui.model import RefereeModel


@ft.component
def RefereeActions(model: RefereeModel) -> ft.Control:
    return ft.Row(
        controls=[
            ft.Button(tr("check_button", model.language), on_click=model.check),
            ft.Button(tr("arrange_button", model.language), on_click=model.arrange),
        ],
    )
