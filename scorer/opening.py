"""The Kalooki opening: is a first meld worth enough, and could this hand open?

A player's first meld ("opening") in Kalooki (RULES.md section 2) must be worth at
least the ruleset's ``opening_minimum``: 2-10 face value, J Q K 10, A 15, a joker
as the card it stands for. Where ``opening_counts_layoffs`` says so, cards laid off
on other players' melds in the same turn count too. A ruleset with no minimum
(``opening_minimum = 0``) only has its melds checked.

>>> from scorer.ruleset import load_ruleset
>>> kalooki = load_ruleset("kalooki")
>>> check_opening(melds="9H TH JH | 4S 4D 4C", ruleset=kalooki).reason
'opening worth 41, Kalooki needs at least 51'
>>> verdict = check_opening(melds="QH KH * | 7S 7D 7C", ruleset=kalooki)
>>> verdict.valid, verdict.value, format_melds(verdict.melds)
(True, 56, 'QH KH *=AH | 7S 7D 7C')
>>> best_opening("5H 6H 7H 8H 2C 2D KS", kalooki).reason
'the best opening in this hand is worth 26, Kalooki needs at least 51'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.cards import Card, CardsLike, format_cards, format_melds, parse_cards, parse_melds
from scorer.errors import IllegalPlayError
from scorer.melds import Reading, check_meld
from scorer.ruleset import Ruleset, require_card_supply
from scorer.solver import Solver


@dataclass(frozen=True, slots=True)
class OpeningVerdict:
    """The verdict on an opening.

    ``melds`` are the melds as read, each joker declared as the card that gives the
    meld its highest value; ``value`` counts the layoffs only where the ruleset
    lets them count. When a meld is not legal, ``value`` counts the legal melds
    (and the layoffs) only, and ``reason`` names the meld that is not.
    """

    valid: bool
    value: int
    required: int
    reason: str | None
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[Card, ...] = ()

    def __str__(self) -> str:
        verdict = "opens" if self.valid else f"does not open: {self.reason}"
        laid = f" + layoffs {format_cards(self.layoffs)}" if self.layoffs else ""
        return f"{format_melds(self.melds)}{laid} (worth {self.value}) {verdict}"


def _reading_value(reading: Reading, ruleset: Ruleset) -> int:
    return sum(ruleset.opening_points(card.stands_for or card) for card in reading.cards)


def check_opening(
    *, melds: str | Sequence[CardsLike], ruleset: Ruleset, layoffs: CardsLike = ()
) -> OpeningVerdict:
    """Is this opening, the ``melds`` and same-turn ``layoffs`` on others' melds, worth enough?

    A joker laid off must be declared (``*=7H``): the meld it joins is not given,
    so its card cannot be inferred. Raises :class:`IllegalPlayError` for no cards
    at all, an undeclared joker among the layoffs, or more copies of a card than
    the ruleset's decks hold.
    """
    groups = parse_melds(melds)
    laid = parse_cards(layoffs)
    if not groups and not laid:
        raise IllegalPlayError("an opening needs at least one meld: got no melds and no layoffs")
    require_card_supply(
        [*(card for group in groups for card in group), *laid], ruleset, where="in the melds and layoffs"
    )
    for position, card in enumerate(laid, start=1):
        if card.is_joker and card.stands_for is None:
            raise IllegalPlayError(
                f"layoff {position} of {format_cards(laid)!r} is an undeclared joker: "
                "say which card it stands for, like '*=7H'"
            )

    read: list[tuple[Card, ...]] = []
    problems: list[str] = []
    meld_value = 0
    for number, group in enumerate(groups, start=1):
        check = check_meld(group, ruleset)
        if not check.valid:
            problems.append(f"meld {number}: {check.reason}")
            read.append(group)
            continue
        # max() keeps the first of equal readings, so the verdict is deterministic.
        best = max(check.readings, key=lambda reading: _reading_value(reading, ruleset))
        read.append(best.cards)
        meld_value += _reading_value(best, ruleset)
    layoff_value = sum(ruleset.opening_points(card.stands_for or card) for card in laid)
    counts_layoffs = ruleset.opening_counts_layoffs
    value = meld_value + (layoff_value if counts_layoffs else 0)
    required = ruleset.opening_minimum

    def verdict(reason: str | None) -> OpeningVerdict:
        return OpeningVerdict(reason is None, value, required, reason, tuple(read), laid)

    if problems:
        return verdict("; ".join(problems))
    if not groups and not ruleset.layoff_before_own_meld:
        return verdict(
            f"layoffs alone are not an opening: {ruleset.name} allows no laying off on "
            "others' melds before one's own first meld"
        )
    if value >= required:
        return verdict(None)
    reason = f"opening worth {value}, {ruleset.name} needs at least {required}"
    if laid and counts_layoffs:
        reason += f" (melds {meld_value} + layoffs {layoff_value})"
    elif laid:
        reason += f" (layoffs in the same turn do not count in {ruleset.name})"
    return verdict(reason)


def best_opening(hand: CardsLike, ruleset: Ruleset) -> OpeningVerdict:
    """Could this hand open? The most valuable set of disjoint melds in it, and the verdict.

    The search is :class:`scorer.solver.Solver` with the ``opening`` objective:
    exact, a joker counted as the card it is declared to stand for in ``melds``.
    """
    cards = parse_cards(hand)
    require_card_supply(cards, ruleset, where="in the hand")
    arrangement = Solver(ruleset, objective="opening").best(cards)
    value, required = arrangement.value, ruleset.opening_minimum
    reason: str | None = None
    if not arrangement.melds:
        reason = f"this hand holds no meld, and {ruleset.name} opens with at least one"
    elif value < required:
        reason = f"the best opening in this hand is worth {value}, {ruleset.name} needs at least {required}"
    return OpeningVerdict(reason is None, value, required, reason, arrangement.melds)
