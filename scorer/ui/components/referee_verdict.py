"""The engine's verdict: large, in words and in colour, with the reason and the details."""

from __future__ import annotations

from typing import Final

import flet as ft

from scorer.ui.i18n import Language
from scorer.ui.screens.referee_model import Answer, RefereeModel

LEGAL_COLOR: Final = ft.Colors.GREEN_800
ILLEGAL_COLOR: Final = ft.Colors.ERROR


def _look(legal: bool | None) -> tuple[str, ft.IconData | None]:
    if legal is None:
        return ft.Colors.PRIMARY, None
    return (LEGAL_COLOR, ft.Icons.CHECK_CIRCLE) if legal else (ILLEGAL_COLOR, ft.Icons.CANCEL)


def verdict_view(answer: Answer) -> ft.Control:
    """The answer as controls; a plain function of the answer, so tests can read it."""
    color, icon = _look(answer.legal)
    head: list[ft.Control] = []
    if icon is not None:
        # The headline says it in words; the icon repeats it for the eye only.
        head.append(ft.Icon(icon, color=color, size=36))
    # A live region: screen readers announce the verdict when it arrives. (Around the whole
    # answer it would merge every line into one text.)
    head.append(
        ft.Semantics(
            live_region=True,
            expand=True,
            content=ft.Text(
                answer.headline,
                color=color,
                theme_style=ft.TextThemeStyle.HEADLINE_MEDIUM,
                weight=ft.FontWeight.BOLD,
            ),
        )
    )
    body: list[ft.Control] = [ft.Row(controls=head, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    body += [ft.Text(line, theme_style=ft.TextThemeStyle.BODY_LARGE) for line in answer.lines]
    for section in answer.sections:
        body.append(
            ft.Text(section.title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.W_600)
        )
        body += [ft.Text(line) for line in section.lines]
    return ft.Container(
        border=ft.Border.all(2, color),
        border_radius=12,
        padding=16,
        content=ft.Column(spacing=8, controls=body),
    )


@ft.component
def RefereeVerdict(model: RefereeModel, language: Language) -> ft.Control:
    answer = model.answer(language)
    return verdict_view(answer) if answer is not None else ft.Container()
