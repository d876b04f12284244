"""Cards: parsing and formatting.

A card is a frozen value. Natural cards have a rank (1 = ace .. 13 = king) and a
suit (0..3 for S H D C). A joker has rank 0 and may carry the card it has been
declared to stand for (``*=6H``).

Suits are typed ``S H D C`` in any case or as symbols, ``♠ ♥ ♦ ♣`` or ``♤ ♡ ♢ ♧``. The
Finnish suit names give no letters to add: ruutu (diamonds) and risti (clubs) both start
with R, and pata alone would be half a notation (docs/rules.md, Words).

>>> parse_cards("AS 10h, 6♥ 7♡ *=7H")
(Card.parse('AS'), Card.parse('TH'), Card.parse('6H'), Card.parse('7H'), Card.parse('*=7H'))
>>> format_cards(parse_cards("as th 6h joker"))
'AS TH 6H *'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TypeAlias

from scorer.errors import InvalidCardError, quote
from scorer.frozen import Frozen, setfield
from scorer.limits import MAX_CARDS_TEXT, require_length
from scorer.messages import Message

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
#: The white (outlined) suit symbols, read as the black ones.
WHITE_SUIT_SYMBOLS = "♤♡♢♧"
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
JOKER_RANK = 0
JOKER_WORDS = frozenset({"*", "JK", "JOKER"})

_RANK_HELP = Message("card.rank_help")
_SUIT_HELP = Message("card.suit_help")
_SEPARATORS = re.compile(r"[\s,]+")
#: Each suit symbol as its letter; the variation selectors a phone's emoji keyboard adds
#: after a symbol (``♥️`` is U+2665 U+FE0F) are dropped.
_SYMBOL_LETTERS = str.maketrans(
    {
        **{symbol: letter for symbol, letter in zip(SUIT_SYMBOLS, SUIT_CHARS, strict=True)},
        **{symbol: letter for symbol, letter in zip(WHITE_SUIT_SYMBOLS, SUIT_CHARS, strict=True)},
        "\ufe0e": None,
        "\ufe0f": None,
    }
)


class Card(Frozen):
    """One playing card, or a joker (``rank == 0``)."""

    # Its methods are written out, not Frozen's: the solver hashes and compares cards often.
    __slots__ = ("rank", "stands_for", "suit")

    rank: int
    suit: int
    stands_for: Card | None

    def __init__(self, rank: int, suit: int, stands_for: Card | None = None) -> None:
        setfield(self, "rank", rank)
        setfield(self, "suit", suit)
        setfield(self, "stands_for", stands_for)
        if rank == JOKER_RANK:
            if suit != -1:
                raise InvalidCardError(Message("card.joker_suit", suit=suit))
            if stands_for is not None and stands_for.is_joker:
                raise InvalidCardError(Message("card.joker_for_joker"))
        else:
            if not 1 <= rank <= 13:
                raise InvalidCardError(Message("card.bad_rank_number", rank=rank, why=_RANK_HELP))
            if not 0 <= suit <= 3:
                raise InvalidCardError(Message("card.bad_suit_number", suit=suit, why=_SUIT_HELP))
            if stands_for is not None:
                raise InvalidCardError(Message("card.only_joker_stands", card=str(self)))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ and isinstance(other, Card):
            return self.rank == other.rank and self.suit == other.suit and self.stands_for == other.stands_for
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.rank, self.suit, self.stands_for))

    @classmethod
    def joker(cls, stands_for: Card | None = None) -> Card:
        return cls(JOKER_RANK, -1, stands_for)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``'TH'``, ``'10h'``, ``'A♠'``, ``'A♤'``, ``'*'``, ``'joker'``, ``'*=6H'``."""
        return _parse_token(text, position=1)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def index(self) -> int:
        """0..51 for natural cards (suit-major), 52 for any joker."""
        if self.is_joker:
            return 52
        return self.suit * 13 + self.rank - 1

    @property
    def undeclared(self) -> Card:
        """The card itself, or a plain joker if it is a declared joker."""
        return JOKER if self.is_joker else self

    def __str__(self) -> str:
        if self.is_joker:
            return "*" if self.stands_for is None else f"*={self.stands_for}"
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card.joker()

#: Every natural card, indexed by :attr:`Card.index`.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in range(4) for rank in range(1, 14))

CardsLike: TypeAlias = str | Card | Iterable[Card | str]
Melds: TypeAlias = tuple[tuple[Card, ...], ...]


def _bad_card(token: str, position: int, why: Message) -> InvalidCardError:
    return InvalidCardError(Message("card.bad_card", token=quote(token), position=position, why=why))


def _parse_natural(token: str, *, position: int, original: str) -> Card:
    body = token.upper().translate(_SYMBOL_LETTERS)
    if len(body) < 2:
        raise _bad_card(original, position, Message("card.card_shape"))
    rank_text, suit_text = body[:-1], body[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        raise _bad_card(original, position, _RANK_HELP)
    if suit_text not in SUIT_CHARS:
        raise _bad_card(original, position, _SUIT_HELP)
    return Card(RANK_CHARS.index(rank_text) + 1, SUIT_CHARS.index(suit_text))


def _parse_token(token: str, *, position: int) -> Card:
    head, sep, declared = token.partition("=")
    if head.upper() in JOKER_WORDS:
        if not sep:
            return JOKER
        if not declared:
            raise _bad_card(token, position, Message("card.declared_joker_names"))
        return Card.joker(_parse_natural(declared, position=position, original=token))
    if sep:
        raise _bad_card(token, position, Message("card.only_joker_declared"))
    return _parse_natural(token, position=position, original=token)


def parse_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Turn anything that is cards into a tuple of :class:`Card`.

    Accepts one string of cards separated by spaces and/or commas, a single card,
    or an iterable of cards and card strings. An empty string is no cards.
    """
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str):
        require_length(cards, what="cards", limit=MAX_CARDS_TEXT)
        tokens = [t for t in _SEPARATORS.split(cards.strip()) if t]
        return tuple(_parse_token(t, position=i) for i, t in enumerate(tokens, start=1))
    result: list[Card] = []
    for item in cards:
        if isinstance(item, Card):
            result.append(item)
        else:
            result.extend(parse_cards(item))
    return tuple(result)


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of cards: ``'AS TH 6H *'``."""
    return " ".join(str(c) for c in cards)


def parse_melds(text: str | Iterable[CardsLike]) -> Melds:
    """Parse melds separated by ``|``: ``'5H 6H 7H | 8C 8D 8S'``.

    An empty string is no melds; an empty meld between two bars is an error.
    """
    if not isinstance(text, str):
        return tuple(parse_cards(m) for m in text)
    require_length(text, what="melds", limit=MAX_CARDS_TEXT)
    if not text.strip():
        return ()
    melds = []
    for number, part in enumerate(text.split("|"), start=1):
        meld = parse_cards(part)
        if not meld:
            raise InvalidCardError(Message("card.empty_meld", number=number, text=quote(text)))
        melds.append(meld)
    return tuple(melds)


def format_melds(melds: Iterable[Iterable[Card]]) -> str:
    return " | ".join(format_cards(m) for m in melds)


def sort_key(card: Card) -> tuple[int, int]:
    """Canonical order: by suit (S H D C), then rank; jokers last."""
    if card.is_joker:
        return (4, card.stands_for.index if card.stands_for else -1)
    return (card.suit, card.rank)


def excess(cards: Iterable[Card], *, copies: int, jokers: int) -> tuple[Card, int] | None:
    """The first card (canonical order) held more than ``copies`` times, and how often.

    Jokers, declared or not, are one kind, allowed ``jokers`` times. ``None`` when the
    decks could hold every card.
    """
    return next(iter(excesses(cards, copies=copies, jokers=jokers)), None)


def excesses(cards: Iterable[Card], *, copies: int, jokers: int) -> tuple[tuple[Card, int], ...]:
    """Every card held more often than the decks have it, and how often (canonical order)."""
    counts = Counter(card.undeclared for card in cards)
    return tuple(
        (card, counts[card])
        for card in sorted(counts, key=sort_key)
        if counts[card] > (jokers if card.is_joker else copies)
    )
