"""Meld tables built once per ruleset, on 52-bit masks of cards, for the fast searches.

Card ``i`` (:attr:`Card.index`, suit-major) is bit ``i`` of a 52-bit mask, so a
suit is a 13-bit slice and a rank is four bits 13 apart. :class:`Tables` holds
what a ruleset allows, as lookups on those masks: the runs and sets inside a
suit or rank pattern (for :class:`scorer.fastmeld.BitSearch`), and the *groups*
of natural cards that jokers can turn into melds (for
:class:`scorer.fastmeld.GroupSearch`). :func:`tables_for` keeps one per distinct
set of meld rules and points, shared by every solver and the knock referee.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from scorer.cards import DECK, Card
from scorer.melds import run_windows
from scorer.ruleset import Ruleset

SUIT = (1 << 13) - 1
NATURAL = (1 << 52) - 1
#: Bit ``s * 13`` for each suit ``s`` of a 4-bit pattern: a rank's cards are ``SPREAD[q] << rank``.
SPREAD = tuple(sum(1 << 13 * s for s in range(4) if q >> s & 1) for q in range(16))

#: (mask, needs, holds, value, is_run, gains): a group of natural cards (52-bit mask; a
#: card used twice also at bit ``52 + i``), the jokers it needs and can hold, the value
#: of its natural cards, and the value of ``needs``, ``needs + 1``, ... jokers in it.
Group = tuple[int, int, int, int, int, tuple[int, ...]]
#: A meld's cards in order: a card index, or ``-1 - index`` for a joker standing for it.
Layout = tuple[int, ...]
#: An arrangement's fields: melds, deadwood, deadwood points and melded value.
Result = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], int, int]


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def suits_of_rank(mask: int, rank: int) -> int:
    """The 4-bit pattern of suits whose card of ``rank`` (0..12) is in ``mask``."""
    return (mask >> rank & 1) | (mask >> rank + 12 & 2) | (mask >> rank + 24 & 4) | (mask >> rank + 36 & 8)


def _at_least(a: int, b: int, c: int, d: int, count: int) -> int:
    """The ranks (13-bit) held in ``count`` or more of the four suit patterns."""
    if count <= 0:
        return SUIT
    if count == 1:
        return a | b | c | d
    if count == 2:
        return (a & b) | (c & d) | ((a | b) & (c | d))
    if count == 3:
        return (a & b & (c | d)) | (c & d & (a | b))
    return a & b & c & d if count == 4 else 0


#: The runs inside a suit pattern: (13-bit mask, value) of each.
_Runs = tuple[tuple[int, int], ...]


def _runs_at(by_low: list[list[tuple[int, int]]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per 13-bit pattern, the runs of ``by_low[its lowest rank]`` inside it, in their order.

    A run that is a block of ranks from the lowest up is inside a pattern when the
    pattern's block of ranks from there is as long; any other run (Q K A) is looked at
    bit by bit. So the runs of a pattern depend on that block's length and the
    pattern's bits under the other runs: one tuple per such key, shared.
    """
    runs_at: list[tuple[tuple[int, int], ...]] = [()] * (1 << 13)
    # Equal tuples are shared across ranks too: the 8192 patterns hold few distinct lists.
    common: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
    for rank in range(13):
        runs = by_low[rank]
        other = 0
        for mask, _ in runs:
            if mask != (1 << mask.bit_count()) - 1 << rank:
                other |= mask
        step = 1 << rank + 1
        if not other:
            runs_at[1 << rank :: step] = _runs_by_block(runs, rank, common)
            continue
        keys = [
            ((~x & x + 1).bit_length() - 1, p & other)
            for p in range(1 << rank, 1 << 13, step)
            for x in (p >> rank,)
        ]
        shared = {}
        for key in set(keys):
            inside = _inside(runs, ((1 << key[0]) - 1 << rank) | key[1])
            shared[key] = common.setdefault(inside, inside)
        runs_at[1 << rank :: step] = [shared[k] for k in keys]
    return tuple(runs_at)


def _runs_by_block(runs: list[tuple[int, int]], rank: int, common: dict[_Runs, _Runs]) -> list[_Runs]:
    """:func:`_runs_at` for ``rank`` when every run from it is a block of ranks: the runs of the
    patterns whose lowest rank it is, in pattern order, which depend on the block's length alone.

    The pattern ``(2y + 1) << rank`` holds a block of ``1 +`` (the trailing ones of ``y``) ranks,
    and the trailing ones of ``0 .. 2^(k+1) - 1`` are those of ``0 .. 2^k - 1`` twice over with
    the last made ``k + 1``: so the list doubles, as the suit tables do, at the speed of a list
    copy rather than a loop over every pattern (a referee command builds these tables).
    """

    def block(length: int) -> _Runs:
        inside = _inside(runs, (1 << length) - 1 << rank)
        return common.setdefault(inside, inside)

    found = [block(1)]
    for k in range(12 - rank):
        found = found + found[:-1] + [block(k + 2)]
    return found


def _inside(runs: list[tuple[int, int]], pattern: int) -> tuple[tuple[int, int], ...]:
    return tuple(r for r in runs if r[0] & pattern == r[0])


#: Per suit, the cards of each 13-bit pattern met so far, in rank order. Filled on demand:
#: an answer needs a handful, and building all 4 x 8192 up front took most of a first call.
_SUIT_CARDS: tuple[dict[int, tuple[Card, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})


def _cards_in_suit(suit: int, pattern: int) -> tuple[Card, ...]:
    known = _SUIT_CARDS[suit]
    cards = known.get(pattern)
    if cards is None:
        cards = known[pattern] = tuple(DECK[suit * 13 + rank] for rank in bits(pattern))
    return cards


class Tables:
    """What the fast paths need to know of a ruleset and objective, worked out once.

    Get one with :func:`tables_for`: it keeps one per distinct set of meld rules
    and points. Building takes a few milliseconds; looking one up, well under one
    microsecond, so a fresh solver per hand costs nothing.
    """

    def __init__(self, ruleset: Ruleset, *, opening: bool, shift: int = 0) -> None:
        self.opening = opening
        #: The ranks are turned by ``shift``: bit ``suit * 13 + r`` is the card of rank
        #: ``(r + shift) % 13`` (0 is the ace), so that the searches, which take the ranks from
        #: bit 0 up, can take the ace last (see :func:`rank_shift`).
        self.shift = shift
        #: Per bit: the index of its card (:attr:`Card.index`).
        self.card_at = tuple(suit * 13 + (r + shift) % 13 for suit in range(4) for r in range(13))
        self.points = tuple(ruleset.points(DECK[i]) for i in self.card_at)
        self.values = tuple(ruleset.opening_points(DECK[i]) for i in self.card_at) if opening else self.points
        self.joker_points = ruleset.joker_points
        #: The most a joker can add to a meld's value: its points, or the best card it stands for.
        self.most_value = max(self.values) if opening else self.joker_points
        self.max_jokers = ruleset.max_jokers
        self.set_min, self.set_max = ruleset.set_min, ruleset.set_max
        self.min_natural = ruleset.meld_min_natural
        # check_meld refuses a card twice in any meld of a one-deck game.
        self.identical = ruleset.identical_cards_in_set and ruleset.max_decks > 1
        self.joker_dup = ruleset.joker_may_duplicate_in_meld
        self.run_min = ruleset.run_min
        self.run_cap = min(13, ruleset.run_max or 13)
        #: Run positions by length, in run_windows order: (13-bit mask, rank offsets in order).
        self.windows = {
            length: [
                (sum(1 << (r - 1 - shift) % 13 for r in w), tuple((r - 1 - shift) % 13 for r in w))
                for w in run_windows(length, ruleset)
            ]
            for length in range(self.run_min, self.run_cap + 1)
        }
        # Each table doubles rank by rank: the patterns holding ``rank`` are those below it, plus it.
        points, values, top = [0], [0], [0]
        for rank in range(13):
            point, value = self.points[rank], self.values[rank]
            # The most points, then the lowest rank; two bits are kept for the suit.
            code = point << 6 | 15 - rank
            points += [p + point for p in points]
            values += [v + value for v in values]
            top += [t if t > code else code for t in top]
        #: Per 13-bit suit pattern: its cards' points, their values, and the best discard (coded).
        self.suit_points, self.suit_values, self.suit_top = tuple(points), tuple(values), tuple(top)
        self._build_bit_tables()
        #: reach()'s run cover per suit pattern met, with no joker and with one.
        self._reach_runs: tuple[dict[int, int], dict[int, int]] = ({}, {})
        #: Filled by need_groups(): gin never needs them.
        self.run_groups: tuple[tuple[Group, ...], ...] = ()
        self.set_groups: tuple[tuple[tuple[Group, ...], ...], ...] = ()

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The natural cards of a 52-bit mask, in index (sort_key) order."""
        s0, s1, s2, s3 = _SUIT_CARDS
        a, b, c, d = mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39
        try:
            return s0[a] + s1[b] + s2[c] + s3[d]
        except KeyError:  # a pattern met for the first time
            return _cards_in_suit(0, a) + _cards_in_suit(1, b) + _cards_in_suit(2, c) + _cards_in_suit(3, d)

    def points_of(self, mask: int) -> int:
        p = self.suit_points
        return p[mask & SUIT] + p[mask >> 13 & SUIT] + p[mask >> 26 & SUIT] + p[mask >> 39]

    def values_of(self, mask: int) -> int:
        v = self.suit_values
        return v[mask & SUIT] + v[mask >> 13 & SUIT] + v[mask >> 26 & SUIT] + v[mask >> 39]

    def top_card(self, mask: int) -> tuple[int, int]:
        """The card of ``mask`` with the most points (the lowest of those), and its points."""
        top = self.suit_top
        a, b, c, d = top[mask & SUIT], top[mask >> 13 & SUIT], top[mask >> 26 & SUIT], top[mask >> 39]
        # Coded as points, then 3 - suit, then 15 - rank: the largest code wins.
        best = max(a and a | 3 << 4, b and b | 2 << 4, c and c | 1 << 4, d)
        return (3 - (best >> 4 & 3)) * 13 + 15 - (best & 15), best >> 6

    # -- path A: melds without jokers ---------------------------------------------------

    def _build_bit_tables(self) -> None:
        shortest = max(self.run_min, self.min_natural)
        legal = range(shortest, self.run_cap + 1)
        # A run whose length is the sum of two legal lengths splits into two legal runs.
        kept = [n for n in legal if not any(n - m in legal for m in legal)]
        by_low: list[list[tuple[int, int]]] = [[] for _ in range(13)]
        #: Runs not in rank order (Q K A, K A 2): their rank offsets in order.
        self.turning: dict[int, tuple[int, ...]] = {}
        seen: set[int] = set()
        for length in kept:
            for mask, order in self.windows[length]:
                if mask not in seen:
                    seen.add(mask)
                    if list(order) != sorted(order):
                        self.turning[mask] = order
                    by_low[(mask & -mask).bit_length() - 1].append((mask, self._worth(mask)))
        #: Per suit pattern: (13-bit mask, value) of each run inside it holding its lowest rank,
        #: in the general search's order (length, then position).
        self.runs_at = _runs_at(by_low)
        # Every card of a legal run lies in a legal run of the shortest length.
        by_top: list[list[int]] = [[] for _ in range(13)]
        for mask, _ in self.windows.get(shortest, []):
            by_top[mask.bit_length() - 1].append(mask)
        union = [0]
        for rank in range(13):  # doubling: the patterns whose highest rank is ``rank``
            grown = list(union)
            bit = 1 << rank
            for mask in by_top[rank]:
                grown = [u | mask if (p | bit) & mask == mask else u for p, u in enumerate(grown)]
            union += grown
        #: Per suit pattern: the cards that some run inside the pattern holds.
        self.run_union = tuple(union)
        self.smallest_set = max(self.set_min, self.min_natural)
        if self.smallest_set > min(self.set_max, 4):
            self.smallest_set = 99  # no set of distinct suits is legal
        #: The fewest cards of a meld without jokers (99: there is none).
        self.least_meld = min(self.smallest_set, shortest if shortest <= self.run_cap else 99)
        sets_at: list[tuple[tuple[tuple[int, int], ...], ...]] = []
        for rank in range(13):
            per_pattern = []
            for present in range(16):
                low = (present & -present).bit_length() - 1
                others = [s for s in range(4) if present >> s & 1 and s != low]
                sizes = range(self.smallest_set, min(self.set_max, 4) + 1)
                chosen = [(low, *c) for size in sizes for c in combinations(others, size - 1)]
                per_pattern.append(
                    tuple(
                        (SPREAD[sum(1 << s for s in c)] << rank, len(c) * self.values[rank]) for c in chosen
                    )
                )
            sets_at.append(tuple(per_pattern))
        #: Per rank and pattern of suits present: (mask, value) of each set of distinct suits
        #: holding the lowest suit present, in the general search's order (size, then suits).
        self.sets_at = tuple(sets_at)

    def _worth(self, ranks: int) -> int:
        return sum(self.values[r] for r in bits(ranks))

    def set_ranks(self, a: int, b: int, c: int, d: int) -> int:
        """The ranks (13-bit) held in enough of the four suit patterns to make a set."""
        need = self.smallest_set
        if need <= 2:
            return (a & b) | (c & d) | ((a | b) & (c | d)) if need == 2 else a | b | c | d
        if need == 3:
            return (a & b & (c | d)) | (c & d & (a | b))
        return a & b & c & d if need == 4 else 0

    def reach(self, ones: int, twos: int, jokers: int) -> int:
        """The cards of ``ones`` that some meld of these cards and at most ``jokers`` jokers
        (0 or 1; with more, every card) might hold: every card a meld could hold is in it, and
        a few more may be, so the cards outside are deadwood whatever the arrangement.
        ``twos`` are second copies of cards of ``ones``."""
        if jokers > 1:
            return ones
        known = self._reach_runs[jokers]
        a, b, c, d = ones & SUIT, ones >> 13 & SUIT, ones >> 26 & SUIT, ones >> 39
        try:
            cover = known[a] | known[b] << 13 | known[c] << 26 | known[d] << 39
        except KeyError:  # a suit pattern met for the first time
            run = self._reach_run
            cover = run(a, jokers) | run(b, jokers) << 13 | run(c, jokers) << 26 | run(d, jokers) << 39
        # Ranks with enough cards for a set: up to four suits, and second copies where a set
        # may hold the same card twice. The jokers make up the rest.
        need = max(self.set_min - jokers, self.min_natural, 1)
        if self.set_max < self.set_min:
            return cover
        if self.identical and twos:
            # A second copy is there only with its first: ``need`` cards are ``j`` first
            # copies and ``need - j`` second ones, for some j.
            e, f, g, h = twos & SUIT, twos >> 13 & SUIT, twos >> 26 & SUIT, twos >> 39
            ranks = 0
            for j in range(max(0, need - 4), min(need, 4) + 1):
                ranks |= _at_least(a, b, c, d, j) & _at_least(e, f, g, h, need - j)
        else:
            ranks = _at_least(a, b, c, d, need)
        return cover | ranks * SPREAD[15] & ones if ranks else cover

    def _reach_run(self, pattern: int, jokers: int) -> int:
        """The cards of a suit pattern in a window of the shortest run length with at most
        ``jokers`` of its cards missing (and enough natural ones)."""
        cover = 0
        if self.run_min <= self.run_cap:
            least = max(self.min_natural, 1)
            for w, _ in self.windows[self.run_min]:
                inside = (pattern & w).bit_count()
                if inside >= least and inside + jokers >= self.run_min:
                    cover |= pattern & w
        self._reach_runs[jokers][pattern] = cover
        return cover

    # -- paths B and C: groups of natural cards and jokers -----------------------------

    def need_groups(self) -> None:
        """Build the group tables, once (they take most of a ruleset's table time)."""
        if not self.run_groups:
            self._build_group_tables()

    def _build_group_tables(self) -> None:
        most = self.max_jokers
        shortest_run: dict[int, int] = {}
        split: set[int] = set()
        for length, windows in self.windows.items():
            if length >= 2 * self.run_min and self.min_natural <= 1:
                break  # the ends are natural (below), so every such run splits
            for mask, order in windows:
                for naturals in self._window_groups(mask, order, length, most):
                    if shortest_run.get(naturals, length) < length:
                        continue  # a shorter run holds these ranks
                    shortest_run[naturals] = length
                    if self._splits(naturals, order):
                        split.add(naturals)
        runs: list[list[Group]] = [[] for _ in range(52)]
        for naturals, length in sorted(shortest_run.items(), key=lambda item: (item[1], item[0])):
            count = naturals.bit_count()
            needs, holds = length - count, min(self.run_cap - count, most)
            if naturals in split or needs > holds:
                continue
            low = (naturals & -naturals).bit_length() - 1
            gains = tuple(self._run_gain(naturals, k)[0] for k in range(needs, holds + 1))
            for suit in range(4):
                runs[suit * 13 + low].append(
                    (naturals << 13 * suit, needs, holds, self._worth(naturals), 1, gains)
                )
        for entries in runs:
            entries.sort(key=lambda g: g[1])  # stable: then by length and mask
        #: Per lowest card: the run groups holding it, fewest jokers needed first.
        self.run_groups = tuple(tuple(g) for g in runs)
        lone_run = (self.run_min - 1, min(self.run_cap - 1, most)) if self.min_natural <= 1 else None
        sets: list[tuple[tuple[Group, ...], ...]] = []
        for rank in range(13):
            per_pattern: list[tuple[Group, ...]] = [()]
            for present in range(1, 16):
                low = (present & -present).bit_length() - 1
                others = [s for s in range(4) if present >> s & 1 and s != low]
                found: list[Group] = []
                for size in range(max(1, self.min_natural), min(self.set_max, 4) + 1):
                    needs, holds = self.set_jokers(size, size)
                    if needs > holds or (size == 1 and self._run_covers(lone_run, needs, holds)):
                        continue
                    for c in combinations(others, size - 1):
                        mask = SPREAD[sum(1 << s for s in (low, *c))] << rank
                        gains = self.set_gains(rank, needs, holds)
                        found.append((mask, needs, holds, size * self.values[rank], 0, gains))
                per_pattern.append(tuple(found))
            sets.append(tuple(per_pattern))
        #: Per rank and pattern of suits present: set groups of distinct suits holding the lowest.
        self.set_groups = tuple(sets)

    def _run_covers(self, lone_run: tuple[int, int] | None, needs: int, holds: int) -> bool:
        """Does one card's run group make its set group useless (deadwood objective only)?"""
        # Under the opening objective * * 9H as 9S 9D 9H may be worth more than as a run.
        return lone_run is not None and not self.opening and lone_run[0] <= needs and lone_run[1] >= holds

    def set_jokers(self, size: int, suits: int) -> tuple[int, int]:
        """Jokers a set of ``size`` natural cards in ``suits`` distinct suits needs and can hold."""
        needs = max(0, self.set_min - size)
        holds = min(self.set_max - size, self.max_jokers)
        if not self.joker_dup:
            holds = min(holds, 4 - suits)
        return needs, holds

    def set_gains(self, rank: int, needs: int, holds: int) -> tuple[int, ...]:
        each = self.values[rank] if self.opening else self.joker_points
        return tuple(k * each for k in range(needs, holds + 1))

    def _window_groups(self, mask: int, order: tuple[int, ...], length: int, most: int) -> Iterator[int]:
        """Natural ranks for which a run of this length is the shortest, with few enough gaps."""
        least = max(self.min_natural, 1, length - most)
        if length == self.run_min:
            for count in range(least, length + 1):
                for chosen in combinations(order, count):
                    yield sum(1 << r for r in chosen)
            return
        # Longer than the shortest run: the ends are natural, or a shorter run would do.
        inner = order[1:-1]
        for gaps in range(0, min(most, len(inner), length - least) + 1):
            for missing in combinations(inner, gaps):
                yield mask & ~sum(1 << r for r in missing)

    def _splits(self, naturals: int, order: tuple[int, ...]) -> bool:
        """Can this run be cut into two legal runs, each with enough natural cards?"""
        flags = [naturals >> r & 1 for r in order]
        return any(
            sum(flags[:cut]) >= self.min_natural and sum(flags[cut:]) >= self.min_natural
            for cut in range(self.run_min, len(order) - self.run_min + 1)
        )

    def _run_gain(self, naturals: int, jokers: int) -> tuple[int, tuple[int, ...]]:
        """The value of ``jokers`` jokers in a run with these natural ranks, and the run's
        ranks in order: the first position (in run_windows order) worth the most."""
        if not self.opening:
            length = naturals.bit_count() + jokers
            order = next(o for m, o in self.windows[length] if m & naturals == naturals)
            return jokers * self.joker_points, order
        options = [
            (sum(self.values[r] for r in order if not naturals >> r & 1), -i, order)
            for i, (mask, order) in enumerate(self.windows[naturals.bit_count() + jokers])
            if mask & naturals == naturals
        ]
        gain, _, order = max(options)
        return gain, order

    def run_layout(self, suit: int, naturals: int, jokers: int) -> Layout:
        base = suit * 13
        _, order = self._run_gain(naturals, jokers)
        return tuple(base + r if naturals >> r & 1 else -1 - (base + r) for r in order)

    def set_layout(self, rank: int, suits: list[int], jokers: int) -> Layout:
        """A set of natural cards of ``rank`` in ``suits`` (with repeats) and jokers, by suit.
        Jokers take the free suits first, as check_meld declares them."""
        unused = [s for s in range(4) if s not in suits]
        stand_for = (unused + [0, 1, 2, 3] * jokers)[:jokers] if self.joker_dup else unused[:jokers]
        cards = [(s, s * 13 + rank) for s in suits] + [(s, -1 - (s * 13 + rank)) for s in stand_for]
        cards.sort(key=lambda c: c[0])
        return tuple(i for _, i in cards)


_TABLES: dict[tuple[object, ...], Tables] = {}
_BY_IDENTITY: tuple[dict[int, tuple[Ruleset, Tables]], dict[int, tuple[Ruleset, Tables]]] = ({}, {})


def rank_shift(ruleset: Ruleset) -> int:
    """How far the group searches turn the ranks (see :class:`Tables`): by one, so that the ace
    comes last, when a run may go up to the ace.

    A search takes the ranks from the lowest bit up, and a run goes with its first card
    taken; a run holding the ace as bit 0 and the king (Q K A) takes cards of the last ranks
    while the first are taken, and every way of doing so is a different sub-hand all the way
    through. With the ace last, such runs start at the queen, and only those going on past
    the ace (A 2 3 when the ace may be low too) take a card far ahead, an ace, as the search
    starts.
    """
    return 0 if ruleset.ace == "low" else 1


def rotate(mask: int, shift: int) -> int:
    """A 52-bit mask of cards (:attr:`Card.index` bits) as bits of tables turned by ``shift``."""
    if not shift:
        return mask
    low = SPREAD[15] * ((1 << 13 - shift) - 1)  # the ranks from ``shift`` up, per suit
    return (mask >> shift & low) | (mask << 13 - shift & NATURAL & ~low)


def tables_for(ruleset: Ruleset, *, opening: bool, shift: int = 0) -> Tables:
    """The tables of a ruleset, shared by every ruleset with the same meld rules and points."""
    # A ruleset is frozen, so the same object has the same fields: skip building the key.
    # The entry keeps the ruleset alive, so its id cannot be reused while it is cached.
    known = _BY_IDENTITY[opening]
    hit = known.get(id(ruleset) * 16 + shift)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    key = (
        opening,
        shift,
        ruleset.ace,
        ruleset.set_min,
        ruleset.set_max,
        ruleset.run_min,
        ruleset.run_max,
        ruleset.identical_cards_in_set and ruleset.max_decks > 1,
        ruleset.joker_may_duplicate_in_meld,
        ruleset.meld_min_natural,
        ruleset.max_jokers,
        ruleset.ace_points,
        ruleset.court_points,
        ruleset.joker_points,
        (ruleset.opening_ace_points, ruleset.opening_court_points) if opening else None,
    )
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = Tables(ruleset, opening=opening, shift=shift)
    if len(known) > 256:  # rulesets made on the fly (house options) come and go
        known.clear()
    known[id(ruleset) * 16 + shift] = (ruleset, tables)
    return tables


def sort_melds(layouts: list[Layout]) -> tuple[tuple[Card, ...], ...]:
    """Melds in the solver's order: by their cards' (suit, rank), a joker as its card."""
    layouts.sort(key=lambda m: [i if i >= 0 else -1 - i for i in m])  # index order is sort_key order
    return tuple(tuple(DECK[i] if i >= 0 else Card.joker(DECK[-1 - i]) for i in m) for m in layouts)
