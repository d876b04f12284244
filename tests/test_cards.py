"""Card text: parse and format come in pairs; bad text names the token and its position."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import (
    DECK,
    JOKER,
    Card,
    excess,
    format_cards,
    format_melds,
    parse_cards,
    parse_melds,
)
from scorer.errors import InvalidCardError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS TH 6H *", "AS TH 6H *"),
        ("as th 6h joker", "AS TH 6H *"),
        ("10h, 10H,TH", "TH TH TH"),
        ("A♠ K♥ Q♦ J♣", "AS KH QD JC"),
        ("A♤ K♡ Q♢ J♧", "AS KH QD JC"),
        ("10♥\ufe0f 9♠\ufe0e *=5♦\ufe0f", "TH 9S *=5D"),  # an emoji keyboard's suits
        ("2c,8d 5s", "2C 8D 5S"),
        ("JK jk Joker *", "* * * *"),
        ("*=6H joker=7h JK=10♣", "*=6H *=7H *=TC"),
        ("  5H \n 6H\t7H  ", "5H 6H 7H"),
        ("", ""),
    ],
)
def test_parse_accepts_every_documented_form(text: str, canonical: str) -> None:
    assert format_cards(parse_cards(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5H 6H XQ", "invalid card 'XQ' at position 3: rank must be one of A 2-10 T J Q K"),
        ("5X", "invalid card '5X' at position 1: suit must be one of S H D C (or ♠ ♥ ♦ ♣)"),
        # Finnish suit letters are not read: ruutu and risti would both be R (docs/rules.md).
        ("AS KP", "invalid card 'KP' at position 2: suit must be one of S H D C (or ♠ ♥ ♦ ♣)"),
        ("7R", "invalid card '7R' at position 1: suit must be one of S H D C (or ♠ ♥ ♦ ♣)"),
        ("AS 1H", "invalid card '1H' at position 2: rank must be one of A 2-10 T J Q K"),
        ("AS 11H", "invalid card '11H' at position 2: rank must be one of A 2-10 T J Q K"),
        ("H", "invalid card 'H' at position 1: a card is a rank and a suit"),
        ("*=", "invalid card '*=' at position 1: a declared joker names its card"),
        ("*=*", "invalid card '*=*' at position 1: a card is a rank and a suit"),
        ("5H=6H", "invalid card '5H=6H' at position 1: only a joker can be declared"),
        ("*=ZZ", "invalid card '*=ZZ' at position 1: rank must be one of"),
    ],
)
def test_bad_card_text_names_token_and_position(text: str, message: str) -> None:
    with pytest.raises(InvalidCardError) as excinfo:
        parse_cards(text)
    assert str(excinfo.value).startswith(message)
    assert isinstance(excinfo.value, ValueError)


def test_cards_like_accepts_cards_strings_and_iterables() -> None:
    ace = Card.parse("AS")
    assert parse_cards(ace) == (ace,)
    assert parse_cards([ace, "TH 6H", JOKER]) == parse_cards("AS TH 6H *")


def test_repr_can_be_pasted_back() -> None:
    card = Card.parse("*=6H")
    assert repr(card) == "Card.parse('*=6H')"
    assert eval(repr(card)) == card


def test_card_values_are_checked() -> None:
    with pytest.raises(InvalidCardError):
        Card(14, 0)
    with pytest.raises(InvalidCardError):
        Card(5, 4)
    with pytest.raises(InvalidCardError):
        Card(5, 0, Card(6, 0))
    with pytest.raises(InvalidCardError):
        Card.joker(JOKER)


def test_index_is_suit_major_and_unique() -> None:
    assert [c.index for c in DECK] == list(range(52))
    assert JOKER.index == 52
    assert Card.parse("*=6H").undeclared == JOKER


def test_melds_split_on_bars() -> None:
    melds = parse_melds("5H 6H 7H | 8C 8D 8S")
    assert format_melds(melds) == "5H 6H 7H | 8C 8D 8S"
    assert parse_melds("") == ()
    assert parse_melds(["5H 6H 7H", "8C 8D 8S"]) == melds


def test_empty_meld_between_bars_is_an_error() -> None:
    with pytest.raises(InvalidCardError, match=r"meld 2 of '5H 6H 7H \|\| 8C' is empty"):
        parse_melds("5H 6H 7H || 8C")


cards = st.lists(st.one_of(st.sampled_from(DECK), st.just(JOKER), st.sampled_from(DECK).map(Card.joker)))


@given(cards)
def test_format_then_parse_round_trips(hand: list[Card]) -> None:
    assert parse_cards(format_cards(hand)) == tuple(hand)


def test_excess_names_the_first_card_the_decks_cannot_hold() -> None:
    assert excess(parse_cards("5H 5H 6H"), copies=2, jokers=0) is None
    assert excess(parse_cards("6H 5H 5H 6H 6H 5H"), copies=2, jokers=0) == (Card.parse("5H"), 3)
    assert excess(parse_cards("* *=6H 5H"), copies=1, jokers=1) == (JOKER, 2)
