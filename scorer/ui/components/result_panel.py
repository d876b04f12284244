"""The engine's answers: the meld verdict, the best arrangement, or the error in the input."""

from __future__ import annotations

import flet as ft

from scorer.ui.model import RefereeModel


@ft.component
def ResultPanel(model: RefereeModel) -> ft.Control:
    texts: list[ft.Control] = [ft.Text(t) for t in (model.verdict, model.arrangement) if t]
    if model.error:
        texts.append(ft.Text(model.error, color=ft.Colors.ERROR))
    # A live region: screen readers announce the engine's answer when it arrives.
    return ft.Semantics(live_region=True, content=ft.Column(controls=texts, spacing=12))
