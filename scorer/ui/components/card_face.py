"""How a card is written on screen: rank and suit symbol, hearts and diamonds in red.

The app writes cards one way everywhere, with the suit symbols: the card picker, the cards
tapped into a hand, the engine's reading and its messages (:func:`with_faces`). What a player
typed stays as typed.

>>> card_label(Card.parse("TH")), card_label(Card.parse("AS"))
('10♥', 'A♠')
>>> from scorer.cards import parse_melds
>>> faces(parse_cards("KS 10h *=6D *")), melds_faces(parse_melds("AS 2S 3S | 7H 7D 7C"))
('K♠ 10♥ *=6♦ *', 'A♠ 2♠ 3♠ | 7♥ 7♦ 7♣')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import flet as ft

from scorer.cards import RANK_CHARS, SUIT_SYMBOLS, Card, parse_cards
from scorer.errors import ScorerError
from scorer.messages import Join, Message, Param

RED_SUITS: Final = frozenset({1, 2})  # hearts, diamonds
RED: Final = ft.Colors.RED_700
BLACK: Final = ft.Colors.ON_SURFACE
#: The parameters of the engine's messages that hold cards in its notation (``KS 5H``).
CARD_PARAMS: Final = frozenset({"card", "cards"})


def card_label(card: Card) -> str:
    """``10♥``; a joker is ``*`` (the screens name it in words beside it)."""
    if card.is_joker:
        return "*"
    rank = "10" if card.rank == 10 else RANK_CHARS[card.rank - 1]
    return rank + SUIT_SYMBOLS[card.suit]


def face(card: Card) -> str:
    """A card as text on screen: ``10♥``, ``*``, a declared joker ``*=6♦``."""
    if card.is_joker and card.stands_for is not None:
        return "*=" + card_label(card.stands_for)
    return card_label(card)


def faces(cards: Iterable[Card]) -> str:
    """Cards as text on screen: ``K♠ 10♥ *``."""
    return " ".join(face(c) for c in cards)


def melds_faces(melds: Iterable[Iterable[Card]]) -> str:
    """Melds as text on screen: ``A♠ 2♠ 3♠ | 7♥ 7♦ 7♣``."""
    return " | ".join(faces(m) for m in melds)


def with_faces(message: Message) -> Message:
    """The engine's message with the cards it names written with suit symbols.

    Only the parameters that hold cards in the engine's notation change (``card``,
    ``cards``); what a player typed, quoted in a message, stays as typed.

    >>> str(with_faces(Message("deal.out_holds_cards", player="Anna", cards="KS 5H")))
    'Anna went out but still holds K♠ 5♥; going out empties the hand'
    """
    return Message(message.code, **{k: _faced(k, v) for k, v in message.params.items()})


def _faced(key: str, value: Param) -> Param:
    if isinstance(value, Message):
        return with_faces(value)
    if isinstance(value, Join):
        return Join(tuple(_faced(key, item) for item in value.items), value.sep, value.last, value.each)
    if key in CARD_PARAMS and isinstance(value, str):
        try:
            return faces(parse_cards(value))
        except ScorerError:
            return value
    return value


def faces_of(text: str) -> str:
    """Cards as a game file keeps them (``KS 5H``) as the screen writes them (``K♠ 5♥``);
    text that does not read as cards as it is."""
    try:
        return faces(parse_cards(text))
    except ScorerError:
        return text


def card_color(card: Card) -> str:
    return RED if not card.is_joker and card.suit in RED_SUITS else BLACK


def cards_text(text: str) -> ft.Control:
    """Cards as typed (``KH 7D``) shown with suit symbols and colours."""
    return ft.Text(spans=card_spans(text))


def card_spans(text: str) -> list[ft.TextSpan]:
    """Cards as typed (``KH 7D``) as spans of a line, with suit symbols and colours (text that
    does not read as cards as it is)."""
    try:
        cards = parse_cards(text)
    except ValueError:
        return [ft.TextSpan(text)]
    return [
        ft.TextSpan(face(c) + ("" if last else " "), style=ft.TextStyle(color=card_color(c)))
        for last, c in ((i == len(cards) - 1, c) for i, c in enumerate(cards))
    ]
