"""The solver's two fast searches, on 52-bit masks and the tables of :mod:`scorer.meldtables`.

:class:`BitSearch` (path A) takes hands of distinct natural cards (every gin hand).
:class:`GroupSearch` (paths B and C) takes hands with jokers or a card twice: it
takes the lowest card left, tries it as deadwood or in each
group that holds it and only cards still left (those needing the fewest jokers
first), and remembers each sub-hand. Its tables may turn the ranks so that they
start above the ace (:func:`scorer.meldtables.rank_shift`); the solver races the
turnings on a hard hand. A
group needs ``needs`` jokers to be a legal meld (its gaps, and up to the
shortest run or set) and can hold up to ``holds``.

* Deadwood objective (path B): every joker costs the same in hand, so which card
  it stands for does not matter. Chosen groups with ``sum(needs) <= J`` meld
  ``min(J, sum(holds))`` jokers: the state is the natural cards left, the jokers
  no chosen group needs yet, and the room for them so far (capped there).
* Opening objective (path C): a joker is worth the card it stands for, so each
  group is tried with each joker count it can take, worth its best position.

For a discard (path B), :meth:`GroupSearch.value_with_discard` runs the same search
with one card still to discard, which counts its points: one search gives the least
deadwood over every discard.

Either way a run that can be cut into two legal runs, each with enough natural
cards, is left out: the two parts cover the same cards and can take the same
jokers in the same places. Jokers get their cards only for the answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from scorer.cards import DECK, JOKER, Card
from scorer.meldtables import (
    NATURAL,
    SPREAD,
    SUIT,
    Group,
    Layout,
    Result,
    Tables,
    bits,
    sort_melds,
    suits_of_rank,
)


def first_card(mask: int) -> int:
    """The bit of the card every search takes first: the lowest rank, then the lowest suit.

    Taking the cards rank by rank keeps a search's sub-hands few: a set takes only cards of
    the rank at hand, and a run only the next ranks of its suit, so the cards left are the
    ranks still to come less a few runs' starts. (Suit by suit, the sets taken would punch
    holes in every later suit.) The card is still the lowest left in its suit and the lowest
    suit left of its rank, which is all the tables ask of it.
    """
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT
    column = mask & SPREAD[15] * (ranks & -ranks)
    return column & -column


#: A search's budget when nothing limits it (see GroupSearch.budget).
NO_BUDGET = 1 << 62


def without(group_mask: int, ones: int, twos: int) -> tuple[int, int]:
    """The cards ``ones`` and ``twos`` (first and second copies) left once a group's natural
    cards (its 52-bit mask, a card used twice also at bit ``52 + i``) are taken: a card held
    twice loses its second copy first."""
    used, twice = group_mask & NATURAL, group_mask >> 52
    return (ones & ~used) | (twos & used & ~twice), twos & ~used


#: What a search for a discard scores with no card left to discard: below any real value,
#: whatever melds were counted on the way there.
_NO_DISCARD = -(1 << 40)


# -- path A: distinct natural cards on 52-bit masks ----------------------------------------------


class BitSearch:
    """The best arrangement of distinct natural cards, on 52-bit masks.

    Melds are masks from the ruleset's tables; runs that split into two legal
    runs are not among them (without jokers the two cover the same cards).
    Cards in no meld of the whole hand are deadwood before the search starts,
    which settles most random hands at once.
    """

    __slots__ = ("memo", "tables")

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        #: mask -> (best value, the meld holding its lowest card, or 0: that card is deadwood)
        self.memo: dict[int, tuple[int, int]] = {}

    def meldable(self, hand: int) -> int:
        """The cards of ``hand`` that some meld inside ``hand`` holds."""
        t = self.tables
        union = t.run_union
        a, b, c, d = hand & SUIT, hand >> 13 & SUIT, hand >> 26 & SUIT, hand >> 39
        cover = union[a] | union[b] << 13 | union[c] << 26 | union[d] << 39
        ranks = t.set_ranks(a, b, c, d)
        return cover | ranks * SPREAD[15] & hand if ranks else cover

    def value(self, mask: int) -> int:
        """The best melded value of the cards ``mask``; the choices go to the memo."""
        memo = self.memo
        hit = memo.get(mask)
        if hit is not None:
            return hit[0]
        t = self.tables
        if mask.bit_count() < t.least_meld:
            return 0
        runs_at, sets_at = t.runs_at, t.sets_at
        left = mask
        while True:
            low = first_card(left)
            index = low.bit_length() - 1
            rank = index % 13
            base = index - rank
            runs = runs_at[left >> base & SUIT]
            sets = sets_at[rank][suits_of_rank(left, rank)]
            if runs or sets:
                break
            left ^= low  # no meld holds it any more: deadwood
            if not left:
                memo[mask] = (0, 0)
                return 0
        # Deadwood first, then sets, then runs; a later choice must be strictly better.
        best = self.value(left ^ low) if left != low else 0
        choice = 0
        for meld, worth in sets:
            rest = left ^ meld
            total = worth + (self.value(rest) if rest else 0)
            if total > best:
                best, choice = total, meld
        for run, worth in runs:
            meld = run << base
            rest = left ^ meld
            total = worth + (self.value(rest) if rest else 0)
            if total > best:
                best, choice = total, meld
        if mask != left:
            memo[mask] = (best, 0)
        memo[left] = (best, choice)
        return best

    def best(self, hand: int) -> Result:
        """Melds, deadwood, its points and the melded value of the cards ``hand``."""
        return self._arrange(hand, self.meldable(hand))

    def best_discard(self, hand: int) -> tuple[int, Result]:
        """The card to discard (least deadwood left, then most points, then the lower card)
        and the best arrangement of the rest."""
        t = self.tables
        melded = self.meldable(hand)
        if not melded:  # all deadwood: the highest card goes
            chosen = t.top_card(hand)[0]
            return chosen, self._arrange(hand ^ 1 << chosen, 0)
        total = t.points_of(hand)
        # The fewest cards of a meld, all meldable, are one meld (see _arrange).
        whole = t.values_of(melded) if melded.bit_count() == t.least_meld else self.value(melded)
        # Discarding a meldable card can only lower the value melded: it leaves at least
        # ``total - points - whole``. A card no meld can hold is deadwood whatever is
        # discarded: of those only the highest (then the lowest) can be the best discard,
        # and it leaves exactly that.
        top, most = t.top_card(melded)
        best = None
        if hand ^ melded:
            chosen, worth = t.top_card(hand ^ melded)
            if (worth, -chosen) > (most, -top):  # no meldable card can do as well
                return chosen, self._arrange(hand ^ 1 << chosen, melded)
            best = (total - worth - whole, -worth, chosen)
        # Try the meldable cards, highest first, until one cannot beat the best so far.
        candidates = sorted([(-t.points[i], i) for i in bits(melded)])
        for worth, i in candidates:
            if best is not None and (total + worth - whole, worth, i) > best:
                break
            key = (total + worth - self.value(melded ^ 1 << i), worth, i)
            if best is None or key < best:
                best = key
        assert best is not None  # the hand is not empty
        chosen = best[2]
        rest = hand ^ 1 << chosen
        return chosen, self._arrange(rest, self.meldable(rest) if melded >> chosen & 1 else melded)

    def _arrange(self, hand: int, melded: int) -> Result:
        t = self.tables
        if not melded:
            return (), t.cards_of(hand), t.points_of(hand), 0
        if melded.bit_count() == t.least_meld:
            # Each of these cards is in a meld inside them: they are one meld. One worth
            # nothing stays in hand, as the search would leave it.
            value = t.values_of(melded)
            if value:
                dead = hand ^ melded
                return (self._cards(melded)[1],), t.cards_of(dead), t.points_of(dead), value
        value = self.value(melded)
        memo = self.memo
        laid: list[tuple[int, tuple[Card, ...]]] = []
        dead = hand ^ melded
        mask = melded
        while mask:
            hit = memo.get(mask)
            meld = hit[1] if hit is not None else 0
            if meld:
                mask ^= meld
                laid.append(self._cards(meld))
            else:
                low = first_card(mask)
                dead |= low
                mask ^= low
        # Melds are disjoint, so their first cards alone decide the solver's order.
        if len(laid) > 1:
            laid.sort(key=_first_card)
        return tuple(cards for _, cards in laid), t.cards_of(dead), t.points_of(dead), value

    def _cards(self, meld: int) -> tuple[int, tuple[Card, ...]]:
        """A meld's first card and its cards in order."""
        low = (meld & -meld).bit_length() - 1
        base = low - low % 13
        order = self.tables.turning.get(meld >> base)
        if order is None:  # a set, or a run in rank order: index order
            return low, self.tables.cards_of(meld)
        return base + order[0], tuple(DECK[base + r] for r in order)


def _first_card(laid: tuple[int, tuple[Card, ...]]) -> int:
    return laid[0]


# -- paths B and C --------------------------------------------------------------------------------


class OutOfBudget(Exception):
    """A :class:`GroupSearch` looked at more sub-hands than its budget allows. What it found
    so far is kept: asked again with a larger budget, it goes on from there."""


class GroupSearch:
    """The best arrangement of natural cards (up to two of each) and jokers."""

    def __init__(self, tables: Tables) -> None:
        tables.need_groups()
        self.tables = tables
        #: Sub-hands searched so far, and how many may be before :class:`OutOfBudget`.
        self.spent = 0
        self.budget = NO_BUDGET
        #: state -> (best value, the group holding the lowest card, or None: deadwood)
        self.memo: dict[int, tuple[int, Group | None]] = {}
        #: state -> a bound on its value, proven by a search that asked for more
        self.ceiling: dict[int, int] = {}
        #: value_with_discard() per state, and bounds proven as for ``ceiling``
        self.discard_ceiling: dict[int, int] = {}
        self.discard_memo: dict[int, int] = {}
        #: the same for the opening objective, with the group's joker count
        self.exact_memo: dict[int, tuple[int, tuple[Group, int] | None]] = {}
        #: groups() by the card, the cards left of its suit and rank, and the jokers free
        self.found: dict[int, tuple[Group, ...]] = {}

    def _charge(self) -> None:
        """Count one more sub-hand searched; past the budget, stop (:class:`OutOfBudget`)."""
        self.spent += 1
        if self.spent > self.budget:
            raise OutOfBudget

    def groups(self, index: int, ones: int, twos: int, free: int) -> tuple[Group, ...]:
        """Groups holding card ``index`` (the lowest left) that need at most ``free`` jokers.

        They depend only on the cards left of its suit and of its rank, and on ``free``:
        each such pattern's groups are found once.
        """
        rank = index % 13
        suit = ones >> index - rank & SUIT
        key = (
            index | suit << 6 | suits_of_rank(ones, rank) << 19 | suits_of_rank(twos, rank) << 23 | free << 27
        )
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = self._groups(index, ones, twos, free)
        return found

    def _groups(self, index: int, ones: int, twos: int, free: int) -> tuple[Group, ...]:
        t = self.tables
        rank = index % 13
        if t.identical:
            found = list(self._sets_with_repeats(index, ones, twos, free))
        else:
            found = [g for g in t.set_groups[rank][suits_of_rank(ones, rank)] if g[1] <= free]
        for group in t.run_groups[index]:
            if group[1] > free:
                break
            if group[0] & ones == group[0]:
                found.append(group)
        # Fewest jokers needed first: a search that needs every card melded finds such an
        # arrangement soonest when it keeps its jokers for the cards nothing else melds.
        found.sort(key=lambda g: g[1])
        return tuple(found)

    def _sets_with_repeats(self, index: int, ones: int, twos: int, free: int) -> Iterator[Group]:
        """Set groups when a set may hold the same card twice (a two-deck house rule)."""
        t = self.tables
        rank = index % 13
        pool = [s for s in range(index // 13, 4) for copy in (ones, twos) if copy >> s * 13 + rank & 1]
        seen: set[tuple[int, ...]] = set()
        for size in range(max(1, t.min_natural), min(t.set_max, len(pool)) + 1):
            for rest in combinations(pool[1:], size - 1):
                suits = (pool[0], *rest)
                needs, holds = t.set_jokers(size, len(set(suits)))
                if suits in seen or needs > min(holds, free):
                    continue
                seen.add(suits)
                mask = sum(1 << s * 13 + rank for s in set(suits))
                twice = sum(1 << s * 13 + rank for s in set(suits) if suits.count(s) > 1)
                gains = t.set_gains(rank, needs, holds)
                yield (mask | twice << 52, needs, holds, size * t.values[rank], 0, gains)

    def value(self, ones: int, twos: int, free: int, room: int) -> int:
        """Path B, the deadwood objective: the best value of the natural cards ``ones`` and
        ``twos`` (first and second copies), ``free`` jokers that no chosen group needs, and
        ``room`` for them in the chosen groups (capped at ``free``).

        It asks :meth:`_at_least` for every card melded first: in a meld-dense hand few
        arrangements come close to that, and a search that needs it prunes every sub-hand
        that cannot reach it. When that fails, a search for the best follows, which the
        bounds the first one proved still prune.
        """
        key = ones | twos << 52 | free << 104 | room << 112
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        t = self.tables
        most = t.values_of(ones) + t.values_of(twos) + t.joker_points * free
        found = self._at_least(ones, twos, free, room, most)
        return found if found >= most else self._at_least(ones, twos, free, room, -1)

    def _at_least(self, ones: int, twos: int, free: int, room: int, floor: int) -> int:
        """As :meth:`value` when the value is at least ``floor``; else a bound below ``floor``
        (kept in ``ceiling``). Exact values, with their choices, go to the memo."""
        memo = self.memo
        key = start = ones | twos << 52 | free << 104 | room << 112
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        ceiling = self.ceiling
        bound = ceiling.get(key)
        if bound is not None and bound < floor:
            return bound
        self._charge()
        joker = self.tables.joker_points
        while True:
            if not ones:  # every joker with room is melded
                memo[start] = (joker * room, None)
                return joker * room
            low = first_card(ones)
            groups = self.groups(low.bit_length() - 1, ones, twos, free)
            if groups:
                break
            if twos & low:  # no group holds it any more: deadwood
                twos ^= low
            else:
                ones ^= low
            key = ones | twos << 52 | free << 104 | room << 112
        values_of = self.tables.values_of
        most = values_of(ones) + values_of(twos) + joker * free
        if most < floor:  # even every card melded falls short
            ceiling[start] = most
            return most
        if free < 2:  # few jokers left: cards no meld can hold are deadwood
            held = self.tables.reach(ones, twos, free)
            if held != ones:
                cap = most - values_of(ones & ~held) - values_of(twos & ~held)
                if cap < floor:
                    ceiling[start] = cap
                    return cap
        # The answer is that of trying the lowest card as deadwood first, then each group in
        # order, a later choice only when strictly better: deadwood wins a tie, then the first
        # group with the most. The groups go first all the same, each asked for more than the
        # best so far; once one melds every card and joker left, nothing does better (the
        # lowest card as deadwood keeps its value), so no other choice is tried.
        best = -1
        proven = -1  # the most any choice that fell short could be worth
        choice: Group | None = None
        for group in groups:
            mask, needs, holds, worth, _, _ = group
            rest_ones, rest_twos = without(mask, ones, twos)
            left = free - needs
            base = worth + joker * needs
            need = (floor if floor > best else best + 1) - base
            rest = self._at_least(rest_ones, rest_twos, left, min(room + holds - needs, left), need)
            if rest >= need:
                best, choice = base + rest, group
                if best >= most:
                    break
            elif base + rest > proven:
                proven = base + rest
        if best < most or not values_of(low):  # a card worth nothing ties as deadwood
            need = floor if floor > best else best
            dead = (
                self._at_least(ones, twos ^ low, free, room, need)
                if twos & low
                else self._at_least(ones ^ low, twos, free, room, need)
            )
            if dead >= need:
                best, choice = dead, None
            elif dead > proven:
                proven = dead
        if best < floor:
            bound = best if best > proven else proven
            ceiling[start] = bound
            if start != key:
                ceiling[key] = bound
            return bound
        if start != key:
            memo[start] = (best, None)
        memo[key] = (best, choice)
        return best

    def value_with_discard(self, ones: int, twos: int, free: int, room: int) -> int:
        """As :meth:`value`, with one card still to discard, which counts its points: the most,
        over every card, of its points and the value of the rest (no card left: ``_NO_DISCARD``).

        As in :meth:`value`, every card melded or discarded is asked for first, then the best.
        """
        hit = self.discard_memo.get(ones | twos << 52 | free << 104 | room << 112)
        if hit is not None:
            return hit
        t = self.tables
        most = t.values_of(ones) + t.values_of(twos) + t.joker_points * free
        found = self._discard_at_least(ones, twos, free, room, most)
        return found if found >= most else self._discard_at_least(ones, twos, free, room, -1)

    def _discard_at_least(self, ones: int, twos: int, free: int, room: int, floor: int) -> int:
        """As :meth:`value_with_discard` when that is at least ``floor``; else a bound below
        ``floor`` (kept in ``discard_ceiling``)."""
        memo = self.discard_memo
        key = ones | twos << 52 | free << 104 | room << 112
        hit = memo.get(key)
        if hit is not None:
            return hit
        ceiling = self.discard_ceiling
        bound = ceiling.get(key)
        if bound is not None and bound < floor:
            return bound
        self._charge()
        joker = self.tables.joker_points
        if not ones:  # only jokers left: one no group needs is the discard
            best = joker + joker * min(room, free - 1) if free else _NO_DISCARD
            memo[key] = best
            return best
        values_of = self.tables.values_of
        most = values_of(ones) + values_of(twos) + joker * free
        if most < floor:  # even every card melded or discarded falls short
            ceiling[key] = most
            return most
        low = first_card(ones)
        index = low.bit_length() - 1
        rest_ones, rest_twos = (ones, twos ^ low) if twos & low else (ones ^ low, twos)
        # The lowest card discarded, or left in hand with the discard still to come.
        points = self.tables.points[index]
        rest = self._at_least(rest_ones, rest_twos, free, room, floor - points)
        best = points + rest if rest >= floor - points else -1
        proven = points + rest if best < 0 else -1
        need = floor if floor > best else best + 1
        kept = self._discard_at_least(rest_ones, rest_twos, free, room, need)
        if kept >= need:
            best = kept
        elif kept > proven:
            proven = kept
        for group in self.groups(index, ones, twos, free):
            if best >= most:
                break
            mask, needs, holds, worth, _, _ = group
            rest_ones, rest_twos = without(mask, ones, twos)
            left = free - needs
            base = worth + joker * needs
            need = (floor if floor > best else best + 1) - base
            rest = self._discard_at_least(rest_ones, rest_twos, left, min(room + holds - needs, left), need)
            if rest >= need:
                best = base + rest
            elif base + rest > proven:
                proven = base + rest
        if best < floor:
            bound = best if best > proven else proven
            ceiling[key] = bound
            return bound
        memo[key] = best
        return best

    def exact(self, ones: int, twos: int, free: int) -> int:
        """Path C, the opening objective: as :meth:`value`, each group tried with each count
        of the ``free`` jokers it can hold (a joker is worth the card it stands for)."""
        memo = self.exact_memo
        key = start = ones | twos << 52 | free << 104
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        self._charge()
        while True:
            if not ones:  # jokers left over are worth nothing
                memo[start] = (0, None)
                return 0
            low = first_card(ones)
            groups = self.groups(low.bit_length() - 1, ones, twos, free)
            if groups:
                break
            if twos & low:
                twos ^= low
            else:
                ones ^= low
            key = ones | twos << 52 | free << 104
        best = self.exact(ones, twos ^ low, free) if twos & low else self.exact(ones ^ low, twos, free)
        choice: tuple[Group, int] | None = None
        # As in value(): nothing beats every card melded, each joker as the best card.
        values_of = self.tables.values_of
        most = values_of(ones) + values_of(twos) + self.tables.most_value * free
        for group in groups:
            if best >= most:
                break
            mask, needs, holds, worth, _, gains = group
            rest_ones, rest_twos = without(mask, ones, twos)
            for jokers in range(needs, min(holds, free) + 1):
                total = worth + gains[jokers - needs] + self.exact(rest_ones, rest_twos, free - jokers)
                if total > best:
                    best, choice = total, (group, jokers)
        if start != key:
            memo[start] = (best, None)
        memo[key] = (best, choice)
        return best

    def best(self, ones: int, twos: int, jokers: int) -> Result:
        """Melds, deadwood, its points and the melded value of these cards."""
        t = self.tables
        chosen: list[tuple[Group, int]] = []
        dead: list[int] = []
        free, room = jokers, 0
        value = self.exact(ones, twos, jokers) if t.opening else self.value(ones, twos, jokers, 0)
        while ones:
            if t.opening:
                hit = self.exact_memo.get(ones | twos << 52 | free << 104)
                choice = hit[1] if hit is not None else None
            else:
                found = self.memo.get(ones | twos << 52 | free << 104 | room << 112)
                choice = (found[1], found[1][1]) if found is not None and found[1] is not None else None
            if choice is None:  # the lowest card is deadwood
                low = first_card(ones)
                dead.append(low.bit_length() - 1)
                ones, twos = (ones, twos ^ low) if twos & low else (ones ^ low, twos)
                continue
            group, count = choice
            chosen.append(choice)
            ones, twos = without(group[0], ones, twos)
            free -= count
            if not t.opening:
                room = min(room + group[2] - group[1], free)
        # Path B: the jokers with room go to the groups that can hold them, the last first.
        layouts: list[Layout] = []
        for group, count in reversed(chosen):
            extra = min(room, group[2] - count)
            room -= extra
            free -= extra
            layouts.append(self._layout(group, count + extra))
        points = t.points
        lost = sum(points[i] for i in dead) + free * t.joker_points
        if t.shift:  # back from the turned ranks to the cards
            at = t.card_at
            dead = [at[i] for i in dead]
            layouts = [tuple(at[i] if i >= 0 else -1 - at[-1 - i] for i in m) for m in layouts]
        dead.sort()  # taken rank by rank: shown in card order
        deadwood = tuple(DECK[i] for i in dead) + (JOKER,) * free
        return sort_melds(layouts), deadwood, lost, value

    def _layout(self, group: Group, jokers: int) -> Layout:
        t = self.tables
        used, twice = group[0] & NATURAL, group[0] >> 52
        low = (used & -used).bit_length() - 1
        if group[4]:
            return t.run_layout(low // 13, used >> low - low % 13, jokers)
        suits = sorted([i // 13 for i in bits(used)] + [i // 13 for i in bits(twice)])
        return t.set_layout(low % 13, suits, jokers)
