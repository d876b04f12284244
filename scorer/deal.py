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

from scorer.cards import DECK, Card, CardsLike, Melds, excesses, format_cards, parse_cards, parse_melds
from scorer.errors import ScorerError, quote
from scorer.messages import Join, Message, Param, Word, join
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
                raise InvalidDealError(
                    field_problem("upcard", Message("deal.upcard_not_one", text=quote(format_cards(cards))))
                )
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


def field_problem(field: str, problem: Message) -> Message:
    """A problem with one field of the entry: ``hands: ...``."""
    return Message("deal.field", field=Word(field), rest=problem)


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
            unknown = Message("deal.unknown_player", player=quote(player), players=", ".join(players))
            raise InvalidDealError(field_problem(where, unknown))


def cards_to_deal(ruleset: Ruleset, players: int) -> int | None:
    """Cards dealt to each player, for this player count (two-deck games may deal more)."""
    if ruleset.decks_for(players) == 2 and ruleset.cards_dealt_two_decks is not None:
        return ruleset.cards_dealt_two_decks
    return ruleset.cards_dealt.get(players)


@dataclass(frozen=True, slots=True)
class HandLimit:
    """The most cards one hand can hold when a deal of this game ends, and why.

    A hand is dealt ``dealt`` cards and takes ``drawn`` in a turn before it melds or
    discards (7 and 1 in four-player rommi: 8). Where a hand keeps what it draws (Carousel,
    Boathouse), it can hold every card of the decks but the other players' deals.
    """

    most: int
    dealt: int
    drawn: int
    grows: bool

    @classmethod
    def of(cls, ruleset: Ruleset, players: int) -> HandLimit | None:
        """This game's limit; ``None`` where the ruleset deals no hand for ``players``."""
        dealt = cards_to_deal(ruleset, players)
        if dealt is None:
            return None
        if ruleset.hand_grows:
            decks = ruleset.decks_for(players)
            supply = decks * (len(DECK) + ruleset.jokers_per_deck)
            return cls(supply - (players - 1) * dealt, dealt, ruleset.turn_draws, grows=True)
        return cls(dealt + ruleset.turn_draws, dealt, ruleset.turn_draws, grows=False)

    def over(self, *, player: str, count: int, ruleset: Ruleset, players: int) -> Message:
        """``player`` holds ``count`` cards, more than this limit."""
        held: dict[str, Param] = {"player": player, "count": count, "name": ruleset.named, "players": players}
        if self.grows:
            return Message("deal.hand_over_supply", **held, most=self.most, dealt=self.dealt)
        return Message("deal.hand_over_deal", **held, most=self.most, dealt=self.dealt, drawn=self.drawn)


def _most_held(ruleset: Ruleset, players: int) -> int:
    limit = HandLimit.of(ruleset, players)
    return ruleset.max_held if limit is None else limit.most


def _check_numbers(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    for where, table in (("points", deal.points), ("deadwood", deal.deadwood)):
        for player, value in table.items():
            if isinstance(value, bool) or not isinstance(value, int):
                problem = Message("deal.points_not_number", player=player, value=repr(value))
                raise InvalidDealError(field_problem(where, problem))
            if value < 0:
                raise InvalidDealError(
                    field_problem(where, Message("deal.points_negative", player=player, value=value))
                )
    decks = ruleset.decks_for(len(players))
    if ruleset.family == "gin":
        # Deadwood is counted on a hand of the dealt size (the knocker discards first).
        size = ruleset.cards_dealt.get(len(players), ruleset.largest_deal)
        entries, code = deal.deadwood, "deal.deadwood_over_cards"
    else:
        size = _most_held(ruleset, len(players))
        entries, code = deal.points, "deal.points_over_hand"
    most = ruleset.most_points(size, decks=decks)
    for player, value in entries.items():
        if value > most:
            over = Message(code, player=player, value=value, size=size, name=ruleset.named, most=most)
            raise InvalidDealError(field_problem("deadwood" if ruleset.family == "gin" else "points", over))
    everyone = ruleset.most_points(size * len(players), decks=decks)
    if sum(entries.values()) > everyone:
        total = Message(
            "deal.points_over_all",
            total=sum(entries.values()),
            name=ruleset.named,
            players=len(players),
            most=everyone,
        )
        raise InvalidDealError(field_problem("points", total))


def _place(who: str, count: int) -> Message:
    if who == "the upcard":
        return Message("deal.where_upcard")
    if count == 1:
        return Message("deal.where_hand", player=who)
    if count == 2:
        return Message("deal.where_hand_twice", player=who)
    return Message("deal.where_hand_times", player=who, count=count)


def _holders(card: Card, everything: Sequence[tuple[str, Card]]) -> Join:
    """Where a card is: "in Bea's hand twice", "in Anna's hand and in Bea's hand"."""
    counts = Counter(who for who, held in everything if held.undeclared == card)
    return join((_place(who, count) for who, count in counts.items()), last="and", each=True)


@dataclass(frozen=True, slots=True)
class HandProblem:
    """A mistake in the cards entered, and every player whose hand it concerns."""

    players: tuple[str, ...]
    message: Message  # ``hands: ...`` or ``melds: ...``


def hand_problems(
    hands: Mapping[str, Sequence[Card]], *, players: Sequence[str], ruleset: Ruleset
) -> tuple[HandProblem, ...]:
    """Every mistake the cards alone show, as soon as they are typed: a hand larger than this
    game's deal allows (:class:`HandLimit`), and every card (or joker) held more often than
    the decks have it, named under each hand holding it.

    >>> from scorer.ruleset import load_ruleset
    >>> hands = {"Ann": parse_cards("KS 5H"), "Bo": parse_cards("KS"), "Cy": parse_cards("5H")}
    >>> for problem in hand_problems(hands, players=list(hands), ruleset=load_ruleset("rommi")):
    ...     print(problem.players, problem.message)
    ('Ann', 'Bo') hands: KS is in Ann's hand and in Bo's hand, but rommi with 3 players plays with one deck
    ('Ann', 'Cy') hands: 5H is in Ann's hand and in Cy's hand, but rommi with 3 players plays with one deck
    """
    sizes = _size_problems(hands, players=players, ruleset=ruleset)
    return (*sizes, *_card_problems(hands, players=players, ruleset=ruleset))


def _size_problems(
    hands: Mapping[str, Sequence[Card]], *, players: Sequence[str], ruleset: Ruleset
) -> tuple[HandProblem, ...]:
    limit = HandLimit.of(ruleset, len(players))
    found = []
    for player, cards in hands.items():
        if limit is not None and len(cards) > limit.most:
            held = limit.over(player=player, count=len(cards), ruleset=ruleset, players=len(players))
        elif limit is None and len(cards) > ruleset.max_held:
            most, name = ruleset.max_held, ruleset.named
            held = Message("deal.hand_over_most", player=player, count=len(cards), name=name, most=most)
        else:
            continue
        found.append(HandProblem((player,), field_problem("hands", held)))
    return tuple(found)


def _card_problems(
    hands: Mapping[str, Sequence[Card]], *, players: Sequence[str], ruleset: Ruleset
) -> tuple[HandProblem, ...]:
    decks = ruleset.decks_for(len(players))
    jokers_allowed = decks * ruleset.jokers_per_deck
    # The upcard is not counted: it is one of the deck's cards and either player may have
    # taken it, so it may well be in a hand at the knock.
    everything: list[tuple[str, Card]] = [(p, c) for p, cards in hands.items() for c in cards]
    table: dict[str, Param] = {"name": ruleset.named, "players": len(players)}
    found = []
    for card, count in excesses((c for _, c in everything), copies=decks, jokers=jokers_allowed):
        holders = tuple(dict.fromkeys(who for who, held in everything if held.undeclared == card))
        if card.is_joker and not jokers_allowed:
            problem = Message("deal.deal_joker_none", where=_holders(card, everything), **table)
        elif card.is_joker:
            problem = Message("deal.deal_jokers", count=count, **table, most=jokers_allowed)
        elif decks == 1:
            where = _holders(card, everything)
            problem = Message("deal.deal_card_one_deck", card=str(card), where=where, **table)
        else:
            where = _holders(card, everything)
            problem = Message("deal.deal_card_decks", card=str(card), where=where, **table, decks=decks)
        found.append(HandProblem(holders, field_problem("hands", problem)))
    return tuple(found)


def _check_sizes(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    """No hand larger than this game's deal allows, before anything quotes the hand
    (gin's exact sizes are checked with its shape)."""
    for problem in _size_problems(deal.hands, players=players, ruleset=ruleset):
        raise InvalidDealError(problem.message)
    most = _most_held(ruleset, len(players))
    for player, melds in deal.melds.items():
        used = sum(len(meld) for meld in melds)
        if used > most:
            held = Message("deal.melds_over_hand", player=player, count=used, name=ruleset.named, most=most)
            raise InvalidDealError(field_problem("melds", held))


def _check_cards(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    for problem in _card_problems(deal.hands, players=players, ruleset=ruleset):
        raise InvalidDealError(problem.message)
    for player, melds in deal.melds.items():
        held = Counter(c.undeclared for c in deal.hands.get(player, ()))
        used = Counter(c.undeclared for meld in melds for c in meld)
        extra = used - held
        if extra and player in deal.hands:
            strangers = format_cards(sorted(extra.elements(), key=lambda c: c.index))
            raise InvalidDealError(
                field_problem("melds", Message("deal.melds_not_in_hand", player=player, cards=strangers))
            )


def _check_shape(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    if deal.hands and deal.points:
        raise InvalidDealError(Message("deal.hands_or_points"))
    if deal.ended is not None and deal.ended not in ENDINGS:
        unknown = Message("deal.ended_unknown", value=repr(deal.ended), endings=", ".join(ENDINGS))
        raise InvalidDealError(field_problem("ended", unknown))
    if ruleset.family == "gin":
        _check_gin_shape(deal, players=players, ruleset=ruleset)
        return
    if deal.dead or deal.deadwood or deal.big_gin or deal.upcard is not None or deal.melds:
        raise InvalidDealError(Message("deal.gin_entries", name=ruleset.named))
    if deal.out is not None and deal.ended is not None:
        raise InvalidDealError(Message("deal.out_and_ended", value=repr(deal.ended)))
    if ruleset.family == "carousel":
        if deal.knocker is not None and deal.ended is not None:
            raise InvalidDealError(Message("deal.knock_and_ended", value=repr(deal.ended)))
        if deal.knocker is None and deal.ended is None and deal.out is None:
            raise InvalidDealError(Message("deal.say_how_carousel"))
    else:
        if deal.knocker is not None:
            raise InvalidDealError(field_problem("knocker", Message("deal.no_knocking", name=ruleset.named)))
        if deal.out is None and deal.ended is None:
            raise InvalidDealError(Message("deal.say_how"))
    if deal.out is not None:
        left = deal.hands.get(deal.out, ())
        if left:
            holds = Message("deal.out_holds_cards", player=deal.out, cards=format_cards(left))
            raise InvalidDealError(field_problem("hands", holds))
        if deal.points.get(deal.out, 0):
            left_points = deal.points[deal.out]
            has = Message("deal.out_has_points", player=deal.out, points=left_points)
            raise InvalidDealError(field_problem("points", has))
    missing = [p for p in players if p != deal.out and p not in deal.hands and p not in deal.points]
    if missing:
        entry = "hands" if deal.hands or not deal.points else "points"
        raise InvalidDealError(field_problem(entry, Message("deal.no_entry", players=join(missing))))


def _check_gin_shape(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    if deal.points:
        raise InvalidDealError(field_problem("points", Message("deal.gin_points")))
    if deal.out is not None or deal.ended is not None or deal.one_turn:
        raise InvalidDealError(Message("deal.not_gin_entries"))
    if deal.dead:
        if deal.knocker is not None or deal.hands or deal.deadwood:
            raise InvalidDealError(Message("deal.dead_hand_empty"))
        return
    if deal.knocker is None:
        raise InvalidDealError(field_problem("knocker", Message("deal.say_knocker_or_dead")))
    # The upcard's own refusals, here with the deal's number and field like every other
    # (the knock referee's would reach the player without them).
    if deal.upcard is not None and deal.upcard.is_joker:
        joker = Message("knock.upcard_joker", card=str(deal.upcard), name=ruleset.named)
        raise InvalidDealError(field_problem("upcard", joker))
    if deal.upcard is None and ruleset.knock_limit_source == "upcard":
        raise InvalidDealError(field_problem("upcard", Message("knock.needs_upcard", name=ruleset.named)))
    if deal.hands and deal.deadwood:
        raise InvalidDealError(Message("deal.hands_or_deadwood"))
    if not deal.hands and not deal.deadwood:
        raise InvalidDealError(Message("deal.hands_or_deadwood_needed"))
    entries = deal.hands or deal.deadwood
    missing = [p for p in players if p not in entries]
    if missing:
        no_entry = Message("deal.no_entry", players=join(missing))
        raise InvalidDealError(field_problem("hands" if deal.hands else "deadwood", no_entry))
    size = ruleset.cards_dealt.get(len(players))
    for player, cards in deal.hands.items():
        if size is None:
            break
        allowed = (size, size + 1) if player == deal.knocker else (size,)
        if len(cards) not in allowed:
            has: dict[str, Param] = {
                "player": player,
                "count": len(cards),
                "name": ruleset.named,
                "size": size,
            }
            if player == deal.knocker:
                wrong = Message("deal.knocker_hand_size", **has, big=size + 1)
            else:
                wrong = Message("deal.hand_size", **has)
            raise InvalidDealError(field_problem("hands", wrong))
    if deal.big_gin and deal.hands:
        raise InvalidDealError(Message("deal.big_gin_with_hands"))


def validate_deal(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> None:
    """Raise :class:`InvalidDealError` naming the first problem with the entry."""
    _check_players(deal, players)
    _check_numbers(deal, players=players, ruleset=ruleset)
    _check_sizes(deal, players=players, ruleset=ruleset)
    _check_shape(deal, players=players, ruleset=ruleset)
    _check_cards(deal, players=players, ruleset=ruleset)
