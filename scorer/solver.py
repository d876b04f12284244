"""The best arrangement of a hand: the melds that leave the fewest points in hand.

Exact, never a heuristic. Every search here takes the lowest card left (lowest
rank, then lowest suit), tries it as deadwood and in every meld that can hold it, and
remembers each sub-hand it has solved. Which search runs depends on the hand:

* no joker and no card twice (every gin hand): :class:`scorer.fastmeld.BitSearch`, on
  52-bit masks with per-ruleset meld tables;
* jokers, or a card twice: :class:`scorer.fastmeld.GroupSearch`, over groups of
  natural cards and a count of jokers;
* a card three times or more (no game deals that): the general search, below.
  It is also the reference the other two are tested against.

Each maximises the melded value: the deadwood points saved or, with the
``opening`` objective, the worth of an opening in Kalooki, where a joker counts
as the card it stands for. Ties go to deadwood, then to the meld found first,
and the search order depends only on the cards, so the same cards always give
the same arrangement.

>>> from scorer.ruleset import load_ruleset
>>> best = best_arrangement("5H 6H 7H 8C 8D 8S KC QD 2S 3S", load_ruleset("gin"))
>>> best.deadwood_points, [format_cards(m) for m in best.melds]
(25, ['8S 8D 8C', '5H 6H 7H'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Literal, TypeVar

from scorer.cards import DECK, JOKER, Card, CardsLike, format_cards, parse_cards, sort_key
from scorer.errors import IllegalPlayError
from scorer.fastmeld import NO_BUDGET, BitSearch, GroupSearch, OutOfBudget
from scorer.frozen import Frozen, setfield
from scorer.meldtables import bits, rank_shift, rotate, suits_of_rank, tables_for
from scorer.messages import Message
from scorer.ruleset import Ruleset

Objective = Literal["deadwood", "opening"]

#: The group search keeps the jokers left in a byte of its state: more go to the general search.
_MOST_JOKERS = 255
#: Sub-hands each turning of the ranks may search in the first round of a race (see
#: Solver._race); every later round doubles it. Nearly every hand needs far fewer.
_FIRST_BUDGET = 2000
#: Natural cards from which a hand races the turnings that start where it is thinnest; a
#: smaller one takes the usual turning alone.
_LARGE_HAND = 24
_T = TypeVar("_T")

#: A meld as the search sees it: natural card indices, the indices the jokers
#: stand for, the meld's value under the objective, and its cards in order
#: (an index, negative for a joker standing for card ``-index - 1``).
_Meld = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


class Arrangement(Frozen):
    """Melds and leftover cards of a hand. Jokers in melds are declared (``*=6H``)."""

    __slots__ = ("deadwood", "deadwood_points", "melds", "value")

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    value: int

    def __init__(
        self,
        melds: tuple[tuple[Card, ...], ...],
        deadwood: tuple[Card, ...],
        deadwood_points: int,
        value: int,
    ) -> None:
        setfield(self, "melds", melds)
        setfield(self, "deadwood", deadwood)
        setfield(self, "deadwood_points", deadwood_points)
        setfield(self, "value", value)

    def __str__(self) -> str:
        parts = [format_cards(m) for m in self.melds]
        return " | ".join(parts) + (f" ; deadwood {format_cards(self.deadwood)}" if self.deadwood else "")


class DiscardChoice(Frozen):
    """The best card to discard from a hand and the best arrangement of the rest."""

    __slots__ = ("arrangement", "discard")

    discard: Card
    arrangement: Arrangement

    def __init__(self, discard: Card, arrangement: Arrangement) -> None:
        setfield(self, "discard", discard)
        setfield(self, "arrangement", arrangement)


class Solver:
    """An exact arrangement search for one ruleset and objective.

    Keep one solver to answer many hands under the same ruleset: sub-hands
    solved once are remembered (the knock referee asks thousands of them).
    Building one costs next to nothing: the ruleset's tables are shared.
    """

    # The searches are made on first use; these class defaults save setting them per solver.
    _bit_search: BitSearch | None = None
    #: One group search per turning of the ranks (see _race), made on first use.
    _group_searches: dict[int, GroupSearch] | None = None
    _general_ready = False

    def __init__(self, ruleset: Ruleset, *, objective: Objective = "deadwood") -> None:
        self.ruleset = ruleset
        self.objective = objective
        self._tables = tables_for(ruleset, opening=objective == "opening")

    # -- public --------------------------------------------------------------------

    def best(self, cards: CardsLike) -> Arrangement:
        """The arrangement with the highest melded value (the least deadwood)."""
        hand = cards if type(cards) is tuple or type(cards) is list else parse_cards(cards)
        try:
            ones = _natural_mask(hand)
        except (AttributeError, IndexError, TypeError):  # not all Card objects: card text
            hand = parse_cards(hand)
            ones = _natural_mask(hand)
        if ones.bit_count() == len(hand):  # no joker, no card twice: every gin hand
            return Arrangement(*(self._bit_search or self._bits()).best(ones))
        ones, twos, jokers = _scan(hand)
        if ones < 0 or jokers > _MOST_JOKERS:
            return self._best_general(parse_cards(hand))
        return Arrangement(
            *self._race(ones, twos, lambda search: search.best(*_turned(search, ones, twos), jokers))
        )

    def best_discard(self, cards: CardsLike) -> DiscardChoice:
        """The discard that leaves the least deadwood; ties go to the higher-point card, then
        to the lower card (in :func:`sort_key` order, a joker last)."""
        hand = cards if type(cards) is tuple or type(cards) is list else parse_cards(cards)
        try:
            ones = _natural_mask(hand)
        except (AttributeError, IndexError, TypeError):
            hand = parse_cards(hand)
            ones = _natural_mask(hand)
        if not hand:
            raise IllegalPlayError(Message("solver.discard_empty"))
        if self.objective == "deadwood":
            if ones.bit_count() == len(hand):
                index, result = (self._bit_search or self._bits()).best_discard(ones)
                return DiscardChoice(DECK[index], Arrangement(*result))
            ones, twos, jokers = _scan(hand)
            if ones >= 0 and jokers <= _MOST_JOKERS:
                return self._discard_groups(ones, twos, jokers)
        # The opening objective: a discard's deadwood is that of its best-valued arrangement.
        best: tuple[tuple[int, int, int], Card, Arrangement] | None = None
        for card in sorted({c.undeclared for c in hand}, key=sort_key):
            rest = list(hand)
            rest.remove(next(c for c in rest if c.undeclared == card))
            arrangement = self.best(rest)
            key = (arrangement.deadwood_points, -self.ruleset.points(card), card.index)
            if best is None or key < best[0]:
                best = (key, card, arrangement)
        assert best is not None  # the hand is not empty
        return DiscardChoice(best[1], best[2])

    # -- the fast paths (scorer.fastmeld) ----------------------------------------------

    def _bits(self) -> BitSearch:
        self._bit_search = BitSearch(self._tables)
        return self._bit_search

    def _race(self, ones: int, twos: int, task: Callable[[GroupSearch], _T]) -> _T:
        """``task`` done by the group searches over the ranks turned each way, in turns.

        How many sub-hands a hand takes depends on where the ranks start (see
        :func:`scorer.meldtables.rank_shift`): a search that meets the card no arrangement can
        meld late goes through every way of melding the cards before it. So each turning
        (see :func:`_turnings`) gets a budget of sub-hands in turn, doubling every round; the
        first to finish answers. A search out of budget keeps what it found for its next turn.
        """
        searches = self._group_searches
        if searches is None:
            searches = self._group_searches = {}
        allowance = _FIRST_BUDGET
        turnings = _turnings(self.ruleset, ones, twos)
        try:
            while True:
                for shift in turnings:
                    search = searches.get(shift)
                    if search is None:
                        tables = tables_for(self.ruleset, opening=self.objective == "opening", shift=shift)
                        search = searches[shift] = GroupSearch(tables)
                    search.budget = search.spent + allowance if len(turnings) > 1 else NO_BUDGET
                    try:
                        return task(search)
                    except OutOfBudget:
                        continue
                allowance *= 2
        finally:
            for search in searches.values():
                search.budget = NO_BUDGET

    def _discard_groups(self, ones: int, twos: int, jokers: int) -> DiscardChoice:
        """Path B for a discard under the deadwood objective; one memo for all."""
        return self._race(
            ones, twos, lambda search: self._discard_in(search, *_turned(search, ones, twos), jokers)
        )

    def _discard_in(self, search: GroupSearch, ones: int, twos: int, jokers: int) -> DiscardChoice:
        t = search.tables
        # One search finds the most a discard and the rest can be worth (the discard counts
        # its points): the least deadwood is the hand's points less that. The discard is the
        # first card, highest points then lowest, that reaches it; a card that could not
        # reach it even with the whole hand's value is not searched.
        most = search.value_with_discard(ones, twos, jokers, 0)
        whole = search.value(ones, twos, jokers, 0)
        at = t.card_at  # ties go to the lower card, not the lower bit
        candidates = [(-t.points[i], at[i], i) for i in bits(ones)]
        if jokers:
            candidates.append((-t.joker_points, JOKER.index, JOKER.index))
        chosen: int | None = None
        for worth, _, i in sorted(candidates):
            if whole - worth >= most and search.value(*_less(ones, twos, jokers, i), 0) - worth == most:
                chosen = i
                break
        assert chosen is not None  # the hand is not empty, so some discard reaches the most
        result = search.best(*_less(ones, twos, jokers, chosen))
        discard = JOKER if chosen == JOKER.index else DECK[t.card_at[chosen]]
        return DiscardChoice(discard, Arrangement(*result))

    # -- the general search --------------------------------------------------------
    #
    # It generates every meld holding the pivot, with jokers standing in for missing
    # cards or for present ones, and keys its memo on the card counts. It is the
    # reference the fast paths are tested against, and it takes the hands they do not:
    # a card held three times or more, or absurdly many jokers.

    def _best_general(self, hand: tuple[Card, ...]) -> Arrangement:
        self._prepare_general()
        counts, jokers = self._counts(hand)
        self._solve(counts, jokers)
        return self._arrangement(counts, jokers, hand)

    def _prepare_general(self) -> None:
        if self._general_ready:
            return
        ruleset = self.ruleset
        if self.objective == "deadwood":
            self._values = [ruleset.points(c) for c in DECK]
        else:
            self._values = [ruleset.opening_points(c) for c in DECK]
        self._joker_points = ruleset.joker_points
        self._run_min = ruleset.run_min
        self._min_natural = ruleset.meld_min_natural
        self._windows: dict[int, list[tuple[int, ...]]] = {r: [] for r in range(1, 14)}
        for windows in self._tables.windows.values():
            for _, order in windows:
                window = tuple(r + 1 for r in order)
                for rank in window:
                    self._windows[rank].append(window)
        self._memo: dict[bytes, tuple[int, _Meld | None]] = {}
        self._meld_cache: dict[tuple[int, bytes, bytes, int], list[_Meld]] = {}
        self._general_ready = True

    def _counts(self, hand: tuple[Card, ...]) -> tuple[list[int], int]:
        counts = [0] * 52
        jokers = 0
        for card in hand:
            if card.is_joker:
                jokers += 1
            else:
                counts[card.index] += 1
        return counts, jokers

    def _solve(self, counts: list[int], jokers: int) -> int:
        key = bytes(counts) + bytes((jokers,))
        hit = self._memo.get(key)
        if hit is not None:
            return hit[0]
        pivot = next((i for i in _RANK_ORDER if counts[i]), -1)
        if pivot < 0:
            self._memo[key] = (0, None)
            return 0
        counts[pivot] -= 1
        best = self._solve(counts, jokers)
        counts[pivot] += 1
        choice: _Meld | None = None
        for meld in self._melds_with(pivot, counts, jokers):
            naturals, stand_ins, value, _ = meld
            for i in naturals:
                counts[i] -= 1
            total = value + self._solve(counts, jokers - len(stand_ins))
            for i in naturals:
                counts[i] += 1
            if total > best:
                best, choice = total, meld
        self._memo[key] = (best, choice)
        return best

    def _arrangement(self, counts: list[int], jokers: int, hand: tuple[Card, ...]) -> Arrangement:
        counts = list(counts)
        melds: list[tuple[Card, ...]] = []
        deadwood: list[Card] = []
        value = self._memo[bytes(counts) + bytes((jokers,))][0]
        while True:
            entry = self._memo[bytes(counts) + bytes((jokers,))]
            pivot = next((i for i in _RANK_ORDER if counts[i]), -1)
            if pivot < 0:
                break
            choice = entry[1]
            if choice is None:
                deadwood.append(DECK[pivot])
                counts[pivot] -= 1
                self._solve(counts, jokers)
                continue
            naturals, stand_ins, _, layout = choice
            for i in naturals:
                counts[i] -= 1
            jokers -= len(stand_ins)
            melds.append(tuple(DECK[i] if i >= 0 else Card.joker(DECK[-i - 1]) for i in layout))
            self._solve(counts, jokers)
        deadwood.extend([JOKER] * jokers)
        melds.sort(key=lambda m: [sort_key(c.stands_for or c) for c in m])
        return Arrangement(
            melds=tuple(melds),
            deadwood=tuple(sorted(deadwood, key=sort_key)),
            deadwood_points=self.ruleset.hand_points(deadwood),
            value=value,
        )

    # -- meld generation -----------------------------------------------------------

    def _melds_with(self, pivot: int, counts: list[int], jokers: int) -> list[_Meld]:
        rank, suit = pivot % 13 + 1, pivot // 13
        same_rank = bytes(counts[rank - 1 :: 13])
        same_suit = bytes(counts[suit * 13 : suit * 13 + 13])
        key = (pivot, same_rank, same_suit, jokers)
        melds = self._meld_cache.get(key)
        if melds is None:
            melds = [*self._sets_with(pivot, counts, jokers), *self._runs_with(pivot, counts, jokers)]
            self._meld_cache[key] = melds
        return melds

    def _joker_value(self, index: int) -> int:
        return self._joker_points if self.objective == "deadwood" else self._values[index]

    def _sets_with(self, pivot: int, counts: list[int], jokers: int) -> Iterator[_Meld]:
        rules = self.ruleset
        rank, suit = pivot % 13 + 1, pivot // 13
        others: list[int] = []
        for other_suit in range(4):
            index = other_suit * 13 + rank - 1
            available = counts[index] - (index == pivot)
            if not (rules.identical_cards_in_set and rules.max_decks > 1):  # as check_meld
                available = 0 if other_suit == suit else min(available, 1)
            others.extend([index] * available)
        seen: set[tuple[int, ...]] = set()
        for size in range(0, len(others) + 1):
            for chosen in combinations(others, size):
                if chosen in seen:
                    continue
                seen.add(chosen)
                naturals = (pivot, *chosen)
                if len(naturals) > rules.set_max:
                    continue
                suits = {i // 13 for i in naturals}
                free_suits = [s for s in range(4) if s not in suits]
                most_jokers = min(jokers, rules.set_max - len(naturals), rules.max_jokers)
                if not rules.joker_may_duplicate_in_meld:
                    most_jokers = min(most_jokers, len(free_suits))
                base = sum(self._values[i] for i in naturals)
                for count in range(0, most_jokers + 1):
                    if len(naturals) + count < rules.set_min or len(naturals) < self._min_natural:
                        continue
                    pool = free_suits + [s for s in range(4) if s in suits] * 4
                    stand_ins = tuple(s * 13 + rank - 1 for s in pool[:count])
                    value = base + sum(self._joker_value(i) for i in stand_ins)
                    layout = sorted([*naturals, *(-i - 1 for i in stand_ins)], key=_suit_of)
                    yield naturals, stand_ins, value, tuple(layout)

    def _runs_with(self, pivot: int, counts: list[int], jokers: int) -> Iterator[_Meld]:
        rank, suit = pivot % 13 + 1, pivot // 13
        offset = suit * 13 - 1
        run_min = self._run_min
        for window in self._windows[rank]:
            present = [q for q in window if q != rank and counts[offset + q]]
            missing = len(window) - 1 - len(present)
            if missing > min(jokers, self.ruleset.max_jokers):  # no meld holds more jokers than the game
                continue
            spare = min(jokers, self.ruleset.max_jokers) - missing
            for extra in range(0, min(spare, len(present)) + 1):
                for replaced in combinations(present, extra):
                    natural_ranks = {rank, *present} - set(replaced)
                    if len(natural_ranks) < self._min_natural:
                        continue
                    if len(window) >= 2 * run_min and self._splits(window, natural_ranks):
                        continue
                    naturals = tuple(offset + q for q in window if q in natural_ranks)
                    stand_ins = tuple(offset + q for q in window if q not in natural_ranks)
                    value = sum(self._values[i] for i in naturals) + sum(
                        self._joker_value(i) for i in stand_ins
                    )
                    layout = tuple(offset + q if q in natural_ranks else -(offset + q) - 1 for q in window)
                    yield naturals, stand_ins, value, layout

    def _splits(self, window: tuple[int, ...], natural_ranks: set[int]) -> bool:
        """Can this run be cut into two legal runs (each with its natural cards)?"""
        need = self._min_natural
        flags = [q in natural_ranks for q in window]
        for cut in range(self._run_min, len(window) - self._run_min + 1):
            if sum(flags[:cut]) >= need and sum(flags[cut:]) >= need:
                return True
        return False


#: Card indices rank by rank, then suit by suit: the order every search takes the cards in
#: (see :func:`scorer.fastmeld.first_card`).
_RANK_ORDER = tuple(suit * 13 + rank for rank in range(13) for suit in range(4))

#: Bit of each card by suit and rank; a joker (suit -1, rank 0) has none.
_BIT = (
    *(tuple(1 << suit * 13 + rank - 1 if rank else 0 for rank in range(14)) for suit in range(4)),
    (0,) * 14,
)


def _natural_mask(hand: Sequence[Card]) -> int:
    """The natural cards of the hand as a mask (a card twice counts once)."""
    ones = 0
    for card in hand:
        ones |= _BIT[card.suit][card.rank]
    return ones


def _scan(hand: Sequence[Card]) -> tuple[int, int, int]:
    """Masks of the natural cards held once or more and twice or more, and the jokers.

    The first mask is -1 when a card is held three times or more.
    """
    ones = jokers = 0
    for card in hand:
        rank = card.rank
        if rank:
            ones |= 1 << card.suit * 13 + rank - 1
        else:
            jokers += 1
    if ones.bit_count() + jokers == len(hand):
        return ones, 0, jokers
    ones = twos = 0  # a card twice: count again, copy by copy
    for card in hand:
        if card.rank:
            bit = 1 << card.suit * 13 + card.rank - 1
            if twos & bit:
                return -1, 0, 0
            twos |= ones & bit
            ones |= bit
    return ones, twos, jokers


def _turned(search: GroupSearch, ones: int, twos: int) -> tuple[int, int]:
    """The masks ``ones`` and ``twos`` as bits of the search's tables."""
    shift = search.tables.shift
    return rotate(ones, shift), rotate(twos, shift)


def _turnings(ruleset: Ruleset, ones: int, twos: int) -> tuple[int, ...]:
    """The turnings of the ranks a race tries (``ones`` and ``twos`` as :attr:`Card.index` bits).

    A small hand takes the usual turning alone, with no budget. A large one takes the
    four that start at the ranks it holds fewest of (then with fewest beside them): few runs
    can go past such a place, so few cards far ahead are taken while the search starts.
    """
    first = rank_shift(ruleset)
    if ones.bit_count() + twos.bit_count() < _LARGE_HAND:
        return (first,)
    held = [suits_of_rank(ones, r).bit_count() + suits_of_rank(twos, r).bit_count() for r in range(13)]
    ranked = sorted(range(13), key=lambda s: (held[s], held[s - 1] + held[(s + 1) % 13], s != first, s))
    return tuple(ranked[:4])


def _less(ones: int, twos: int, jokers: int, index: int) -> tuple[int, int, int]:
    """The hand ``ones``, ``twos``, ``jokers`` less one card (52: a joker)."""
    if index == JOKER.index:
        return ones, twos, jokers - 1
    bit = 1 << index
    return (ones, twos ^ bit, jokers) if twos & bit else (ones ^ bit, twos, jokers)


def _suit_of(layout_index: int) -> int:
    index = layout_index if layout_index >= 0 else -layout_index - 1
    return index // 13


def best_arrangement(cards: CardsLike, ruleset: Ruleset) -> Arrangement:
    """The melds that leave the fewest penalty points in hand (see :class:`Solver`)."""
    return Solver(ruleset).best(cards)


def best_discard(cards: CardsLike, ruleset: Ruleset) -> DiscardChoice:
    """The discard after which the rest of the hand leaves the least deadwood."""
    return Solver(ruleset).best_discard(cards)
