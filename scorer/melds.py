"""Melds: is a group of cards a legal set or run under a ruleset, and why not.

A meld may hold jokers, declared (``*=6H``) or not. :func:`check_meld` returns
every *reading* of the cards (the kind, and the card each joker stands for),
so an undeclared joker's possibilities can be listed and a declared one checked.

>>> from scorer.ruleset import load_ruleset
>>> gin = load_ruleset("gin")
>>> check_meld("QH KH AH", gin).reason
'not a run: QH KH AH (aces are low in gin rummy)'
>>> [str(c) for c in check_meld("5H * 7H", gin.with_options({"jokers_per_deck": 1})).meld]
['5H', '*=6H', '7H']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from scorer.cards import Card, CardsLike, format_cards, parse_cards
from scorer.errors import IllegalMeldError
from scorer.frozen import Frozen, setfield
from scorer.messages import Message, Word
from scorer.ruleset import Ruleset

Kind = Literal["set", "run"]


class Reading(Frozen):
    """One way to read a legal meld: its kind and its cards in order, jokers declared."""

    __slots__ = ("cards", "kind")

    kind: Kind
    cards: tuple[Card, ...]

    def __init__(self, kind: Kind, cards: tuple[Card, ...]) -> None:
        setfield(self, "kind", kind)
        setfield(self, "cards", cards)

    def __str__(self) -> str:
        return format_cards(self.cards)


class MeldCheck(Frozen):
    """The verdict on a group of cards.

    ``readings`` holds one reading per run position a joker can take, and one
    representative reading of a set (its jokers on the first free suits);
    ``joker_options`` lists every card each joker can stand for.
    """

    __slots__ = ("cards", "joker_options", "message", "readings")

    cards: tuple[Card, ...]
    readings: tuple[Reading, ...]
    message: Message | None
    joker_options: tuple[tuple[Card, ...], ...]

    def __init__(
        self,
        cards: tuple[Card, ...],
        readings: tuple[Reading, ...],
        message: Message | None,
        joker_options: tuple[tuple[Card, ...], ...],
    ) -> None:
        setfield(self, "cards", cards)
        setfield(self, "readings", readings)
        setfield(self, "message", message)
        setfield(self, "joker_options", joker_options)

    @property
    def valid(self) -> bool:
        return bool(self.readings)

    @property
    def reason(self) -> str | None:
        """Why the cards are no meld, in English (``message`` is the reason as a value)."""
        return None if self.message is None else str(self.message)

    @property
    def kind(self) -> Kind | None:
        return self.readings[0].kind if self.readings else None

    @property
    def kinds(self) -> tuple[Kind, ...]:
        """Every kind the cards read as, in reading order (sets first): ``kind`` is the first."""
        return tuple(dict.fromkeys(r.kind for r in self.readings))

    @property
    def meld(self) -> tuple[Card, ...]:
        """The cards in canonical order; a joker is declared where only one card fits."""
        if not self.readings:
            return self.cards
        first = self.readings[0].cards
        if all(len(options) == 1 for options in self.joker_options):
            return first
        declared = [c for c in self.cards if c.is_joker and c.stands_for is not None]
        return tuple(c if not c.is_joker or c in declared else Card.joker() for c in first)


# -- positions of a run ---------------------------------------------------------------


def run_windows(length: int, ruleset: Ruleset) -> list[tuple[int, ...]]:
    """Every rank sequence a run of this length may occupy under the ace mode, as ranks 1..13."""
    if length > 13:
        return []
    if ruleset.ace == "low":
        starts = range(0, 14 - length)
    elif ruleset.ace == "low_or_high":
        starts = range(0, 15 - length)
    else:
        starts = range(0, 1) if length == 13 else range(0, 13)
    return [tuple((start + i) % 13 + 1 for i in range(length)) for start in starts]


# -- readings -------------------------------------------------------------------------


def _set_readings(
    naturals: list[Card], declared: list[Card], free: int, ruleset: Ruleset
) -> tuple[list[Reading], list[tuple[Card, ...]], Message | None]:
    """Readings as a set, each free joker's options, and the reason when there is none."""
    shown = [*naturals, *(j.stands_for for j in declared if j.stands_for)]
    rank = shown[0].rank
    size = len(naturals) + len(declared) + free
    if size > ruleset.set_max:
        return [], [], Message("meld.set_max", most=ruleset.set_max, name=ruleset.named)
    if not ruleset.identical_cards_in_set:
        twice = sorted({c for c in naturals if naturals.count(c) > 1}, key=lambda c: c.index)
        if twice:
            return [], [], Message("meld.set_twice", card=str(twice[0]), name=ruleset.named)
    if not ruleset.joker_may_duplicate_in_meld:
        for joker in declared:
            if joker.stands_for in naturals or sum(j == joker for j in declared) > 1:
                return [], [], Message("meld.joker_duplicate", joker=str(joker), name=ruleset.named)
    taken = {c.suit for c in shown}
    unused = [Card(rank, s) for s in range(4) if s not in taken]
    if ruleset.joker_may_duplicate_in_meld:
        choices = [Card(rank, s) for s in range(4)]
        assignment = (unused + choices * free)[:free]
    else:
        choices = unused
        if len(choices) < free:
            return [], [], Message("meld.joker_would_duplicate", name=ruleset.named)
        assignment = choices[:free]
    members = [*naturals, *declared, *(Card.joker(c) for c in assignment)]
    members.sort(key=lambda c: (c.stands_for or c).suit)
    return [Reading("set", tuple(members))], [tuple(choices)] * free, None


def _run_readings(
    naturals: list[Card], declared: list[Card], free: int, ruleset: Ruleset
) -> tuple[list[Reading], list[tuple[Card, ...]], Message | None]:
    shown = [*naturals, *(j.stands_for for j in declared if j.stands_for)]
    size = len(naturals) + len(declared) + free
    if ruleset.run_max is not None and size > ruleset.run_max:
        return [], [], Message("meld.run_max", most=ruleset.run_max, name=ruleset.named)
    ranks = Counter(c.rank for c in shown)
    twice = [c for c in shown if ranks[c.rank] > 1]
    if twice:
        return [], [], Message("meld.run_twice", card=str(min(twice, key=_order)))
    suit = shown[0].suit
    readings: list[Reading] = []
    options: list[set[Card]] = [set() for _ in range(free)]
    for window in run_windows(size, ruleset):
        if not set(ranks) <= set(window):
            continue
        members: list[Card] = []
        jokers_iter = iter(range(free))
        for r in window:
            card = Card(r, suit)
            if card in naturals:
                members.append(card)
            else:
                members.append(Card.joker(card))
                if Card.joker(card) not in declared:
                    options[next(jokers_iter)].add(card)
        readings.append(Reading("run", tuple(members)))
    if readings:
        return readings, [tuple(sorted(o, key=_order)) for o in options], None
    return [], [], _run_failure(shown, free, size, ruleset)


def _run_failure(shown: list[Card], free: int, size: int, ruleset: Ruleset) -> Message:
    if size > 13:
        return Message("meld.run_13")
    if ruleset.ace != "around_the_corner" and any(c.rank == 1 for c in shown):
        wider = ruleset.model_copy(update={"ace": "around_the_corner"})
        if _windows_fit(shown, size, wider):
            return ruleset.ace_message
    ranks = sorted(c.rank for c in shown)
    span = ranks[-1] - ranks[0] + 1 if ranks else 0
    missing = span - len(ranks)
    if free:
        code = "meld.gap_jokers" if free > 1 else "meld.gap_joker"
        return Message(code, missing=missing, free=free)
    gaps = [Card(r, shown[0].suit) for r in range(ranks[0], ranks[-1] + 1) if r not in ranks]
    return Message("meld.gap", cards=format_cards(gaps))


def _windows_fit(shown: list[Card], size: int, ruleset: Ruleset) -> bool:
    ranks = {c.rank for c in shown}
    return any(ranks <= set(w) for w in run_windows(size, ruleset))


def _order(card: Card) -> int:
    return card.index


def check_meld(cards: CardsLike, ruleset: Ruleset) -> MeldCheck:
    """Decide whether ``cards`` form one legal set or run under ``ruleset``."""
    cards = parse_cards(cards)
    text = format_cards(cards)
    naturals = [c for c in cards if not c.is_joker]
    declared = [c for c in cards if c.is_joker and c.stands_for is not None]
    free = sum(1 for c in cards if c.is_joker and c.stands_for is None)
    jokers = len(declared) + free

    def fail(kind: str, why: Message) -> MeldCheck:
        return MeldCheck(cards, (), Message("meld.not_a", kind=Word(kind), cards=text, why=why), ())

    if jokers > ruleset.max_jokers:
        code = "meld.too_many_jokers" if jokers != 1 else "meld.too_many_joker"
        return fail("meld", Message(code, jokers=jokers, name=ruleset.named, most=ruleset.max_jokers))
    if ruleset.max_decks == 1:
        twice = [c for c, n in Counter(naturals).items() if n > 1]
        if twice:
            return fail("meld", Message("meld.one_deck_twice", card=str(twice[0]), name=ruleset.named))
    if len(cards) < min(ruleset.set_min, ruleset.run_min):
        least = min(ruleset.set_min, ruleset.run_min)
        return fail("meld", Message("meld.meld_min", least=least))
    if len(naturals) < ruleset.meld_min_natural:
        return fail("meld", Message("meld.meld_natural", least=ruleset.meld_min_natural, name=ruleset.named))
    shown = [*naturals, *(j.stands_for for j in declared if j.stands_for)]
    one_rank = len({c.rank for c in shown}) <= 1
    one_suit = len({c.suit for c in shown}) <= 1
    if not one_rank and not one_suit:
        return fail("meld", Message("meld.rank_or_suit"))

    readings: list[Reading] = []
    options: list[set[Card]] = [set() for _ in range(free)]
    reasons: list[tuple[str, Message]] = []
    for kind, minimum, make in (
        ("set", ruleset.set_min, _set_readings),
        ("run", ruleset.run_min, _run_readings),
    ):
        if (kind == "set" and not one_rank) or (kind == "run" and not one_suit):
            continue
        if len(cards) < minimum:
            reasons.append(
                (kind, Message("meld.kind_min", kind=Word(kind), least=minimum, name=ruleset.named))
            )
            continue
        found, per_joker, why = make(naturals, declared, free, ruleset)
        if why:
            reasons.append((kind, why))
        readings.extend(found)
        for slot, opts in zip(options, per_joker, strict=False):
            slot.update(opts)
    if not readings:
        kind, why = reasons[0]
        return fail(kind, why)
    joker_options = _joker_options_in_input_order(cards, options)
    return MeldCheck(cards, tuple(_unique(readings)), None, joker_options)


def _joker_options_in_input_order(
    cards: Sequence[Card], free_options: list[set[Card]]
) -> tuple[tuple[Card, ...], ...]:
    result: list[tuple[Card, ...]] = []
    free_iter = iter(free_options)
    for card in cards:
        if not card.is_joker:
            continue
        if card.stands_for is not None:
            result.append((card.stands_for,))
        else:
            result.append(tuple(sorted(next(free_iter), key=_order)))
    return tuple(result)


def _unique(readings: list[Reading]) -> list[Reading]:
    seen: set[tuple[Kind, frozenset[tuple[Card, int]]]] = set()
    unique = []
    for reading in readings:
        key = (reading.kind, frozenset(Counter(reading.cards).items()))
        if key not in seen:
            seen.add(key)
            unique.append(reading)
    return unique


def require_meld(cards: CardsLike, ruleset: Ruleset, *, label: str = "meld") -> MeldCheck:
    """The check of a declared meld; raises :class:`IllegalMeldError` when it is not legal."""
    verdict = check_meld(cards, ruleset)
    if verdict.message is not None:
        raise IllegalMeldError(Message("meld.labelled", label=Word(label), reason=verdict.message))
    return verdict


# -- layoffs --------------------------------------------------------------------------


class LayoffCheck(Frozen):
    """The verdict on laying ``cards`` off on ``meld``."""

    __slots__ = ("cards", "freed_jokers", "meld", "message", "result", "valid")

    meld: tuple[Card, ...]
    cards: tuple[Card, ...]
    valid: bool
    message: Message | None
    result: tuple[Card, ...]
    freed_jokers: int

    def __init__(
        self,
        meld: tuple[Card, ...],
        cards: tuple[Card, ...],
        valid: bool,
        message: Message | None,
        result: tuple[Card, ...],
        freed_jokers: int = 0,
    ) -> None:
        self._fill(meld, cards, valid, message, result, freed_jokers)

    @property
    def reason(self) -> str | None:
        """Why the cards cannot be laid off, in English (``message`` is the reason as a value)."""
        return None if self.message is None else str(self.message)


def check_layoff(meld: CardsLike, cards: CardsLike, ruleset: Ruleset) -> LayoffCheck:
    """Can ``cards`` (one or several, in any order) be laid off on the table meld ``meld``?

    A joker whose card is settled keeps it; laying off that real card exchanges
    the joker where the ruleset allows it (the joker goes back to the hand).
    """
    meld = parse_cards(meld)
    cards = parse_cards(cards)
    table = check_meld(meld, ruleset)
    if table.message is not None:
        illegal = Message("meld.table_meld_illegal", reason=table.message)
        return LayoffCheck(meld, cards, False, illegal, meld)
    if not cards:
        return LayoffCheck(meld, cards, False, Message("meld.no_layoff_cards"), meld)
    settled = list(table.meld)
    laid = list(cards)
    freed = 0
    for card in list(laid):
        if card.is_joker:
            continue
        holder = Card.joker(card)
        if holder in settled:
            if not ruleset.joker_exchange:
                return LayoffCheck(
                    meld,
                    cards,
                    False,
                    Message("meld.no_joker_exchange", card=str(card), name=ruleset.named),
                    meld,
                )
            settled[settled.index(holder)] = card
            laid.remove(card)
            freed += 1
    combined = check_meld([*settled, *laid], ruleset)
    laid_text, onto = format_cards(cards), format_cards(table.meld)
    if not combined.valid:
        # The combined cards' reason without its "not a run: ..." head: the why alone.
        why = combined.message.params["why"] if combined.message is not None else ""
        failed = Message("meld.layoff_fails", cards=laid_text, meld=onto, why=why)
        return LayoffCheck(meld, cards, False, failed, meld)
    kinds = set(table.kinds) & set(combined.kinds)
    if not kinds:
        return LayoffCheck(
            meld,
            cards,
            False,
            Message(
                "meld.layoff_changes_kind",
                cards=laid_text,
                meld=onto,
                kind=Word(str(table.kind)),
                other=Word(str(combined.kind)),
            ),
            meld,
        )
    return LayoffCheck(meld, cards, True, None, combined.meld, freed)
