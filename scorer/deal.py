"""A deal as the table records it: raw entries, never scores.

Scores are always computed from these entries (:mod:`scorer.scoring`), so a
corrected entry corrects every total after it. :func:`validate_deal` checks an
entry against the players and the ruleset and names every problem; an invalid
deal is never recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scorer.cards import Card, CardsLike, Melds, excess, format_cards, parse_cards, parse_melds
from scorer.errors import ScorerError, quote
from scorer.ruleset import Ruleset

Ending = Literal["stop", "block", "stock_out"]
ENDINGS: tuple[Ending, ...] = ("stop", "block", "stock_out")


class InvalidDealError(ScorerError, ValueError):
    """A deal entry that cannot be scored; the message names the field and the rule."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The raw entries of one deal.

    ``hands`` are the cards left in each player's hand (in gin: each player's ten
    cards, the knocker's spread included); ``points`` is the quick entry of their
    totals instead. ``deadwood`` is gin's quick entry (the defender's after
    layoffs). A player absent from ``hands`` holds no cards when someone went out.
    """

    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    out: str | None = None
    one_turn: bool = False
    ended: Ending | None = None
    knocker: str | None = None
    melds: Mapping[str, Melds] = field(default_factory=dict)
    upcard: Card | None = None
    dead: bool = False
    deadwood: Mapping[str, int] = field(default_factory=dict)
    big_gin: bool = False

    @classmethod
    def build(
        cls,
        *,
        hands: Mapping[str, CardsLike] | None = None,
        points: Mapping[str, int] | None = None,
        out: str | None = None,
        one_turn: bool = False,
        ended: Ending | None = None,
        knocker: str | None = None,
        melds: Mapping[str, str | Sequence[CardsLike]] | None = None,
        upcard: CardsLike | None = None,
        dead: bool = False,
        deadwood: Mapping[str, int] | None = None,
        big_gin: bool = False,
    ) -> Deal:
        """A deal from text entries: ``Deal.build(hands={"Anna": "", "Bea": "KS 5H"}, out="Anna")``."""
        card = None
        if upcard is not None:
            cards = parse_cards(upcard)
            if len(cards) != 1:
                raise InvalidDealError(f"upcard: {quote(format_cards(cards))} is not one card")
            card = cards[0]
        return cls(
            hands={p: parse_cards(c) for p, c in (hands or {}).items()},
            points=dict(points or {}),
            out=out,
            one_turn=one_turn,
            ended=ended,
            knocker=knocker,
            melds={p: parse_melds(m) for p, m in (melds or {}).items()},
            upcard=card,
            dead=dead,
            deadwood=dict(deadwood or {}),
            big_gin=big_gin,
        )


def _check_players(deal: Deal, players: Sequence[str]) -> None:
    known = set(players)
    named = [
        *(("hands", p) for p in deal.hands),
        *(("points", p) for p in deal.points),
        *(("melds", p) for p in deal.melds),
        *(("deadwood", p) for p in deal.deadwood),
        *([("out", deal.out)] if deal.out is not None else []),
        *([("knocker", deal.knocker)] if deal.knocker is not None else []),
    ]
    for where, player in named:
        if player not in known:
            raise InvalidDealError(
                f"{where}: unknown player {quote(player)}; the players are {', '.join(players)}"
            )


def _check_numbers(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    for where, table in (("points", deal.points), ("deadwood", deal.deadwood)):
        for player, value in table.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidDealError(f"{where}: {player}'s {value!r} is not a whole number of points")
            if value < 0:
                raise InvalidDealError(
                    f"{where}: {player}'s {value} is negative; points left are never negative"
                )
    decks = ruleset.decks_for(len(players))
    if ruleset.family == "gin":
        # Deadwood is counted on a hand of the dealt size (the knocker discards first).
        size = ruleset.cards_dealt.get(len(players), ruleset.largest_deal)
        entries, what = deal.deadwood, f"{size} cards can cost"
    else:
        size = ruleset.max_held
        entries, what = deal.points, f"a hand of at most {size} cards can cost"
    most = ruleset.most_points(size, decks=decks)
    for player, value in entries.items():
        if value > most:
            raise InvalidDealError(
                f"{'deadwood' if ruleset.family == 'gin' else 'points'}: {player}'s {value} is more than "
                f"{what} in {ruleset.name} (at most {most})"
            )
    everyone = ruleset.most_points(size * len(players), decks=decks)
    if sum(entries.values()) > everyone:
        raise InvalidDealError(
            f"points: {sum(entries.values())} in all is more than the hands can cost together in "
            f"{ruleset.name} with {len(players)} players (at most {everyone})"
        )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _holders(card: Card, everything: Sequence[tuple[str, Card]]) -> str:
    """Where a card is: "in Bea's hand twice", "in Anna's hand and in Bea's hand"."""
    counts = Counter(who for who, held in everything if held.undeclared == card)
    places = [
        "the upcard"
        if who == "the upcard"
        else f"in {who}'s hand" + (f" {_times(count)}" if count > 1 else "")
        for who, count in counts.items()
    ]
    return " and ".join(places)


def _check_sizes(deal: Deal, *, ruleset: Ruleset) -> None:
    """No hand larger than the variant holds, before anything quotes the hand
    (gin's exact sizes are checked with its shape)."""
    most = ruleset.max_held
    for player, cards in deal.hands.items():
        if len(cards) > most:
            raise InvalidDealError(
                f"hands: {player} holds {len(cards)} cards; a hand in {ruleset.name} holds at most {most}"
            )
    for player, melds in deal.melds.items():
        used = sum(len(meld) for meld in melds)
        if used > most:
            raise InvalidDealError(
                f"melds: {player}'s melds hold {used} cards; a hand in {ruleset.name} holds at most {most}"
            )


def _check_cards(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    decks = ruleset.decks_for(len(players))
    jokers_allowed = decks * ruleset.jokers_per_deck
    # The upcard is not counted: it is one of the deck's cards and either player may
    # have taken it, so it may well be in a hand at the knock.
    everything: list[tuple[str, Card]] = [(p, c) for p, cards in deal.hands.items() for c in cards]
    found = excess((c for _, c in everything), copies=decks, jokers=jokers_allowed)
    if found is not None:
        card, count = found
        table = f"{ruleset.name} with {len(players)} players"
        if card.is_joker and not jokers_allowed:
            raise InvalidDealError(f"hands: a joker {_holders(card, everything)}, but {table} has no jokers")
        if card.is_joker:
            raise InvalidDealError(f"hands: {count} jokers, but {table} has {jokers_allowed}")
        deck_text = "one deck" if decks == 1 else f"{decks} decks"
        raise InvalidDealError(
            f"hands: {card} is {_holders(card, everything)}, but {table} plays with {deck_text}"
        )
    for player, melds in deal.melds.items():
        held = Counter(c.undeclared for c in deal.hands.get(player, ()))
        used = Counter(c.undeclared for meld in melds for c in meld)
        extra = used - held
        if extra and player in deal.hands:
            strangers = format_cards(sorted(extra.elements(), key=lambda c: c.index))
            raise InvalidDealError(
                f"melds: {player}'s melds use {strangers}, which are not in {player}'s hand"
            )


def _check_shape(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    if deal.hands and deal.points:
        raise InvalidDealError("a deal records either hands (cards) or points, not both")
    if deal.ended is not None and deal.ended not in ENDINGS:
        raise InvalidDealError(f"ended: {deal.ended!r} is not one of {', '.join(ENDINGS)}")
    if ruleset.family == "gin":
        _check_gin_shape(deal, players=players, ruleset=ruleset)
        return
    if deal.dead or deal.deadwood or deal.big_gin or deal.upcard is not None or deal.melds:
        raise InvalidDealError(
            f"dead, deadwood, big_gin, upcard and melds are gin entries, not {ruleset.name}'s"
        )
    if deal.out is not None and deal.ended is not None:
        raise InvalidDealError(f"a deal either ends with someone out or ends {deal.ended!r}, not both")
    if ruleset.family == "carousel":
        if deal.knocker is not None and deal.ended is not None:
            raise InvalidDealError(f"a deal either ends with a knock or ends {deal.ended!r}, not both")
        if deal.knocker is None and deal.ended is None and deal.out is None:
            raise InvalidDealError(
                "say who knocked (knocker), who went out (out) or how the deal ended (ended)"
            )
    else:
        if deal.knocker is not None:
            raise InvalidDealError(f"knocker: {ruleset.name} has no knocking; say who went out (out)")
        if deal.out is None and deal.ended is None:
            raise InvalidDealError("say who went out (out) or how the deal ended (ended)")
    if deal.out is not None:
        left = deal.hands.get(deal.out, ())
        if left:
            raise InvalidDealError(
                f"hands: {deal.out} went out but still holds {format_cards(left)}; going out empties the hand"
            )
        if deal.points.get(deal.out, 0):
            left_points = deal.points[deal.out]
            raise InvalidDealError(
                f"points: {deal.out} went out but has {left_points} points; going out empties the hand"
            )
    missing = [p for p in players if p != deal.out and p not in deal.hands and p not in deal.points]
    if missing:
        entry = "hands" if deal.hands or not deal.points else "points"
        raise InvalidDealError(f"{entry}: no entry for {', '.join(missing)}")


def _check_gin_shape(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    if deal.points:
        raise InvalidDealError("points: gin records deadwood (the defender's after layoffs), not points")
    if deal.out is not None or deal.ended is not None or deal.one_turn:
        raise InvalidDealError("out, ended and one_turn are not gin entries: record the knocker, or dead")
    if deal.dead:
        if deal.knocker is not None or deal.hands or deal.deadwood:
            raise InvalidDealError("a dead hand has no knocker, hands or deadwood")
        return
    if deal.knocker is None:
        raise InvalidDealError("knocker: say who knocked, or record a dead hand (dead)")
    if deal.hands and deal.deadwood:
        raise InvalidDealError("a deal records either hands (cards) or deadwood, not both")
    if not deal.hands and not deal.deadwood:
        raise InvalidDealError("record both players' hands (cards) or their deadwood")
    entries = deal.hands or deal.deadwood
    missing = [p for p in players if p not in entries]
    if missing:
        raise InvalidDealError(f"{'hands' if deal.hands else 'deadwood'}: no entry for {', '.join(missing)}")
    size = ruleset.cards_dealt.get(len(players))
    for player, cards in deal.hands.items():
        if size is None:
            break
        allowed = (size, size + 1) if player == deal.knocker else (size,)
        if len(cards) not in allowed:
            role = (
                f"the knocker spreads {size} cards ({size + 1} for big gin)"
                if player == deal.knocker
                else f"a hand is {size} cards"
            )
            raise InvalidDealError(f"hands: {player} has {len(cards)} cards; in {ruleset.name} {role}")
    if deal.big_gin and deal.hands:
        raise InvalidDealError(
            "big_gin is for a deadwood entry; with hands, a fully melded extra card is big gin"
        )


def validate_deal(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    """Raise :class:`InvalidDealError` naming the first problem with the entry."""
    _check_players(deal, players)
    _check_numbers(deal, players=players, ruleset=ruleset)
    _check_sizes(deal, ruleset=ruleset)
    _check_shape(deal, players=players, ruleset=ruleset)
    _check_cards(deal, players=players, ruleset=ruleset)
