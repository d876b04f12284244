"""A brute-force reference for the arrangement solver (this project's perft).

It shares nothing with :mod:`scorer.solver` but the meld checker: it asks
:func:`scorer.melds.check_meld` about every subset of the hand, then finds the
best packing of disjoint legal melds by trying them all. Slow (exponential in
the hand size) and obviously right; tests and the benchmark compare the fast
solver against it.
"""

from __future__ import annotations

from functools import cache

from scorer.cards import CardsLike, parse_cards
from scorer.melds import check_meld
from scorer.ruleset import Ruleset
from scorer.solver import Objective


def best_value(cards: CardsLike, ruleset: Ruleset, *, objective: Objective = "deadwood") -> int:
    """The highest total value of disjoint legal melds in the hand."""
    hand = parse_cards(cards)
    size = len(hand)
    smallest = min(ruleset.set_min, ruleset.run_min)
    largest = max(ruleset.set_max, 13)  # no meld is longer than a whole suit or the largest set
    melds_by_low_bit: dict[int, list[tuple[int, int]]] = {}
    for mask in range(1, 1 << size):
        members = [hand[i] for i in range(size) if mask >> i & 1]
        if not smallest <= len(members) <= largest:
            continue
        verdict = check_meld(members, ruleset)
        if not verdict.valid:
            continue
        if objective == "deadwood":
            value = ruleset.hand_points(members)
        else:
            value = max(
                sum(ruleset.opening_points(c.stands_for or c) for c in reading.cards)
                for reading in verdict.readings
            )
        low = (mask & -mask).bit_length() - 1
        melds_by_low_bit.setdefault(low, []).append((mask, value))

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = (mask & -mask).bit_length() - 1
        result = best(mask & ~(1 << low))
        for meld, value in melds_by_low_bit.get(low, ()):
            if meld & mask == meld:
                result = max(result, value + best(mask & ~meld))
        return result

    return best((1 << size) - 1)


def least_deadwood(cards: CardsLike, ruleset: Ruleset) -> int:
    """The fewest penalty points the hand can leave, by brute force."""
    hand = parse_cards(cards)
    return ruleset.hand_points(hand) - best_value(hand, ruleset)
