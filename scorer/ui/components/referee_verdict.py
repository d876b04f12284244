"""The engine's verdict: large, in words and in colour, with the reason and the details."""

from __future__ import annotations

from typing import Final

import flet as ft

from scorer.cards import Card
from scorer.errors import InvalidCardError
from scorer.ui.components.card_face import card_color, card_label
from scorer.ui.i18n import Language
from scorer.ui.screens.referee_model import Answer, RefereeModel

LEGAL_COLOR: Final = ft.Colors.GREEN_800
ILLEGAL_COLOR: Final = ft.Colors.ERROR


def _look(legal: bool | None) -> tuple[str, ft.IconData | None]:
    if legal is None:
        return ft.Colors.PRIMARY, None
    return (LEGAL_COLOR, ft.Icons.CHECK_CIRCLE) if legal else (ILLEGAL_COLOR, ft.Icons.CANCEL)


def _card(token: str) -> Card | None:
    """The natural card a word of an answer names (``KH``), or ``None`` for any other word."""
    if not token:
        return None
    try:
        card = Card.parse(token)
    except InvalidCardError:
        return None
    return None if card.is_joker else card


def with_suits(line: str) -> str:
    """An answer line with its cards written with suit symbols: ``melds: 5♥ 6♥ 7♥``."""
    return " ".join(card_label(c) if (c := _card(word)) else word for word in line.split(" "))


def cards_line(line: str) -> ft.Text:
    """An answer line of cards: suit symbols, hearts and diamonds red, the other words plain."""
    spans: list[ft.TextSpan] = []
    for number, word in enumerate(line.split(" ")):
        card = _card(word)
        text = (" " if number else "") + (card_label(card) if card else word)
        spans.append(ft.TextSpan(text, style=ft.TextStyle(color=card_color(card)) if card else None))
    return ft.Text(spans=spans)


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
        # The arrangement, layoffs and table: cards as a player sees them.
        body += [cards_line(line) for line in section.lines]
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
