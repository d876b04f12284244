"""How a card is written on screen: rank and suit symbol, hearts and diamonds in red.

>>> card_label(Card.parse("TH")), card_label(Card.parse("AS"))
('10♥', 'A♠')
"""

from __future__ import annotations

from typing import Final

import flet as ft

from scorer.cards import RANK_CHARS, SUIT_SYMBOLS, Card, parse_cards

RED_SUITS: Final = frozenset({1, 2})  # hearts, diamonds
RED: Final = ft.Colors.RED_700
BLACK: Final = ft.Colors.ON_SURFACE


def card_label(card: Card) -> str:
    """``10♥``; a joker is ``*`` (the screens name it in words beside it)."""
    if card.is_joker:
        return "*"
    rank = "10" if card.rank == 10 else RANK_CHARS[card.rank - 1]
    return rank + SUIT_SYMBOLS[card.suit]


def card_color(card: Card) -> str:
    return RED if not card.is_joker and card.suit in RED_SUITS else BLACK


def cards_text(text: str) -> ft.Control:
    """Cards written the engine's way (``KH 7D``) shown with suit symbols and colours."""
    try:
        cards = parse_cards(text)
    except ValueError:
        return ft.Text(text)
    return ft.Text(
        spans=[ft.TextSpan(card_label(c) + " ", style=ft.TextStyle(color=card_color(c))) for c in cards]
    )
