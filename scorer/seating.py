"""Seating a club night: the players present into tables of the sizes a variant allows.

Table sizes come from the ruleset's player range (gin and Hollywood: 2), capped at a
preferred size (4 by default: three tables of four for twelve players, not two of six), as
even as the count allows: sizes differ by at most one. A count that no table sizes fit (five
players of gin) leaves the fewest players on a *bye* for the round.

Three methods:

- ``random``: a seeded shuffle (the same seed gives the same seating);
- ``balanced``: table strengths (the mean rating of each table) as even as possible: an
  exact search for small nights (:data:`EXACT_PLAYERS` or fewer), a greedy draft improved by
  swaps beyond; :class:`Evenness` says how close it got (the spread of table means, and the
  best spread possible where the search was exact);
- ``swiss``: players of similar night standing together, avoiding opponents already met
  tonight wherever any seating allows it (exact for small nights, greedy and repair beyond).

A player may be fixed to a table (``NAME=TABLE``, 1-based). The engine is pure: it knows
names and numbers only, never a store.

>>> sizes = table_sizes(9, low=2, high=7)
>>> sizes.sizes, sizes.byes
((3, 3, 3), 0)
>>> seating = seat(["A", "B", "C", "D", "E"], low=2, high=2, method="random", seed=1)
>>> [len(t) for t in seating.tables], len(seating.byes)
([2, 2], 1)
"""

from __future__ import annotations

import math
import random as _random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from scorer.errors import ScorerError
from scorer.messages import Message

Method = Literal["random", "balanced", "swiss"]
METHODS: tuple[Method, ...] = ("random", "balanced", "swiss")

#: The table size a club prefers when the variant allows more (rommi allows seven).
PREFERRED_SIZE = 4
#: Nights of this many players or fewer are seated by exact search (balanced and swiss).
EXACT_PLAYERS = 12
#: The rating of a player with no (or a provisional) rating: openskill's prior mean.
PRIOR_MU = 25.0


class SeatingError(ScorerError, ValueError):
    """A seating that cannot be made: too few players, a fixed table that does not exist."""


@dataclass(frozen=True, slots=True)
class TableSizes:
    """The tables of one round, biggest first, and how many players sit out."""

    sizes: tuple[int, ...]
    byes: int


@dataclass(frozen=True, slots=True)
class Evenness:
    """How even a balanced seating is: the spread (highest minus lowest) of table means, the
    best spread possible when the search was exact (``None`` when it was not), and a lower
    bound no seating can beat (:func:`spread_bound`)."""

    spread: float
    best: float | None
    bound: float


@dataclass(frozen=True, slots=True)
class Seating:
    """One round's tables (names, in the order given), the byes, and what the method reports."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()
    method: Method = "random"
    evenness: Evenness | None = None
    repeats: int = 0
    exact: bool = False


def table_sizes(count: int, *, low: int, high: int, preferred: int = PREFERRED_SIZE) -> TableSizes:
    """The tables for ``count`` players when a table seats ``low`` to ``high``.

    >>> table_sizes(10, low=2, high=7)
    TableSizes(sizes=(4, 3, 3), byes=0)
    >>> table_sizes(7, low=2, high=2)
    TableSizes(sizes=(2, 2, 2), byes=1)
    """
    if count < low:
        raise SeatingError(Message("night.too_few", count=count, least=low))
    cap = max(low, min(high, preferred))
    for seated in range(count, low - 1, -1):
        # the most tables that keep each within the preferred size, else fewer (bigger) ones
        for tables in range(math.ceil(seated / cap), math.ceil(seated / high) - 1, -1):
            if tables * low <= seated:
                base, extra = divmod(seated, tables)
                return TableSizes(tuple([base + 1] * extra + [base] * (tables - extra)), count - seated)
    raise SeatingError(Message("night.too_few", count=count, least=low))  # pragma: no cover


def parse_fixed(items: Sequence[str]) -> dict[str, int]:
    """``["Anna=2"]`` as ``{"Anna": 2}``; a malformed item, or a player fixed twice (names
    compared without case), is an error quoting it.

    >>> parse_fixed(["Anna=1", "Bea=2"])
    {'Anna': 1, 'Bea': 2}
    """
    fixed: dict[str, int] = {}
    given: dict[str, str] = {}  # a name without case -> the item that fixed it
    for item in items:
        name, sep, table = item.rpartition("=")
        if not sep or not name.strip() or not table.strip().isdigit():
            raise SeatingError(Message("night.fixed_form", value=repr(item)))
        key = name.strip().casefold()
        if key in given:
            first, second = repr(given[key]), repr(item)
            raise SeatingError(
                Message("night.fixed_twice", player=repr(name.strip()), first=first, second=second)
            )
        given[key] = item
        fixed[name.strip()] = int(table)
    return fixed


def check_players(players: Sequence[str]) -> None:
    """Each name once (compared without case)."""
    seen: set[str] = set()
    for name in players:
        key = name.casefold()
        if key in seen:
            raise SeatingError(Message("night.player_twice", player=repr(name)))
        seen.add(key)


def seat(
    players: Sequence[str],
    *,
    low: int,
    high: int,
    method: Method = "random",
    seed: int | None = None,
    fixed: Mapping[str, int] | None = None,
    ratings: Mapping[str, float] | None = None,
    standing: Sequence[str] | None = None,
    met: Mapping[str, set[str]] | None = None,
    rested: Mapping[str, int] | Collection[str] = (),
    preferred: int = PREFERRED_SIZE,
) -> Seating:
    """Seat ``players`` (each once) by ``method``.

    ``ratings``: each player's strength for ``balanced`` (missing: :data:`PRIOR_MU`).
    ``standing``: the night's order, best first, for ``swiss`` (players not in it come last,
    in the order given); ``met``: each player's opponents so far tonight; ``rested``: how many
    times each player sat out earlier tonight (or who did: once each); those who sat out the
    fewest times sit out first.
    """
    if method not in METHODS:
        raise SeatingError(Message("night.unknown_method", value=repr(method)))
    check_players(players)
    fixed = dict(fixed or {})
    sizes = table_sizes(len(players), low=low, high=high, preferred=preferred)
    known = {p.casefold(): p for p in players}
    pinned: dict[str, int] = {}
    given: dict[str, str] = {}
    for name, table in fixed.items():
        if name.casefold() in given:  # 'Anna' and 'anna': one player fixed twice
            first, second = repr(given[name.casefold()]), repr(f"{name}={table}")
            raise SeatingError(Message("night.fixed_twice", player=repr(name), first=first, second=second))
        given[name.casefold()] = f"{name}={table}"
        if name.casefold() not in known:
            raise SeatingError(Message("night.fixed_absent", player=repr(name)))
        if not 1 <= table <= len(sizes.sizes):
            raise SeatingError(
                Message("night.no_such_table", player=repr(name), table=table, tables=len(sizes.sizes))
            )
        pinned[known[name.casefold()]] = table - 1
    for index, size in enumerate(sizes.sizes):
        if sum(1 for t in pinned.values() if t == index) > size:
            raise SeatingError(Message("night.table_full", table=index + 1, size=size))
    rng = _random.Random(seed)
    order = list(players)
    if method == "swiss" and standing is not None:
        place = {name: n for n, name in enumerate(standing)}
        order.sort(key=lambda p: place.get(p, len(place)))
    counts = dict(rested) if isinstance(rested, Mapping) else dict.fromkeys(rested, 1)
    byes = _byes(order, sizes.byes, pinned, rested=counts, rng=rng, last=method == "swiss")
    present = [p for p in order if p not in byes]
    problem = _Problem(present, sizes.sizes, pinned)
    if method == "random":
        tables = problem.random(rng)
        return Seating(tables=problem.names(tables), byes=byes, method=method)
    if method == "balanced":
        strength = [_strength(ratings, p) for p in present]
        return problem.balanced(strength, byes=byes)
    opponents = met or {}
    return problem.swiss(opponents, byes=byes)


def _strength(ratings: Mapping[str, float] | None, player: str) -> float:
    return float((ratings or {}).get(player, PRIOR_MU))


def _byes(
    order: Sequence[str],
    count: int,
    pinned: Mapping[str, int],
    *,
    rested: Mapping[str, int],
    rng: _random.Random,
    last: bool,
) -> tuple[str, ...]:
    """Who sits out: those who sat out the fewest times tonight first, so nobody sits out a
    second time before everyone has once (nor a third before everyone has twice); among them
    swiss gives the byes to the lowest in the standing, others draw them. A fixed player never
    sits out (the tables seat every fixed player, checked before)."""
    if count == 0:
        return ()
    free = [p for p in order if p not in pinned]
    chosen: list[str] = []
    for level in sorted({rested.get(p, 0) for p in free}):
        group = [p for p in free if rested.get(p, 0) == level]
        need = count - len(chosen)
        if len(group) <= need:
            chosen += group
        else:
            chosen += group[-need:] if last else rng.sample(group, need)
        if len(chosen) == count:
            break
    if rested.get(chosen[0], 0) == rested.get(chosen[-1], 0):
        return tuple(chosen)  # one level: in the order drawn (as every night seated before)
    return tuple(p for p in free if p in chosen)


Tables = list[list[int]]


class _Problem:
    """Players as indexes 0..n-1 (in order), the table sizes and the pinned seats."""

    def __init__(self, players: Sequence[str], sizes: Sequence[int], pinned: Mapping[str, int]) -> None:
        self.players = list(players)
        self.sizes = list(sizes)
        self.pinned = {self.players.index(p): t for p, t in pinned.items()}
        self.free = [i for i in range(len(self.players)) if i not in self.pinned]

    def names(self, tables: Tables) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(self.players[i] for i in sorted(table)) for table in tables)

    def start(self) -> Tables:
        tables: Tables = [[] for _ in self.sizes]
        for player, table in self.pinned.items():
            tables[table].append(player)
        return tables

    def fill(self, order: Sequence[int]) -> Tables:
        """The free players in ``order`` into the tables, first table first."""
        tables = self.start()
        queue = iter(order)
        for table, size in zip(tables, self.sizes, strict=True):
            while len(table) < size:
                table.append(next(queue))
        return tables

    def random(self, rng: _random.Random) -> Tables:
        order = list(self.free)
        rng.shuffle(order)
        return self.fill(order)

    def all_seatings(self) -> Iterator[Tables]:
        """Every seating (tables of equal size and no pinned player taken once, not per order)."""
        tables = self.start()
        free = list(self.free)

        def place(k: int) -> Iterator[Tables]:
            if k == len(free):
                yield [list(t) for t in tables]
                return
            seen_empty: set[int] = set()
            for index, size in enumerate(self.sizes):
                if len(tables[index]) >= size:
                    continue
                if not tables[index]:  # an empty table is like any other empty one of its size
                    if size in seen_empty:
                        continue
                    seen_empty.add(size)
                tables[index].append(free[k])
                yield from place(k + 1)
                tables[index].pop()

        yield from place(0)

    # -- balanced -----------------------------------------------------------------------

    def balanced(self, strength: Sequence[float], *, byes: tuple[str, ...]) -> Seating:
        def spread(tables: Tables) -> float:
            means = [sum(strength[i] for i in t) / len(t) for t in tables]
            return max(means) - min(means)

        if len(self.players) <= EXACT_PLAYERS:
            best = min(self.all_seatings(), key=lambda t: (spread(t), _key(t)))
            value = spread(best)
            return Seating(
                tables=self.names(best),
                byes=byes,
                method="balanced",
                evenness=Evenness(spread=value, best=value, bound=spread_bound(strength, self.sizes)),
                exact=True,
            )
        tables = self._greedy(strength)
        tables = self._even_out(tables, strength)
        return Seating(
            tables=self.names(tables),
            byes=byes,
            method="balanced",
            evenness=Evenness(spread=spread(tables), best=None, bound=spread_bound(strength, self.sizes)),
        )

    def _greedy(self, strength: Sequence[float]) -> Tables:
        """The free players, strongest first, each to the table with room whose strength so far
        (its sum over its size) is lowest: the longest-processing-time rule for even sums."""
        tables = self.start()
        sums = [sum(strength[i] for i in t) for t in tables]
        for player in sorted(self.free, key=lambda i: (-strength[i], i)):
            index = min(
                (n for n in range(len(tables)) if len(tables[n]) < self.sizes[n]),
                key=lambda n: (sums[n] / self.sizes[n], n),
            )
            tables[index].append(player)
            sums[index] += strength[player]
        return tables

    def _even_out(self, tables: Tables, strength: Sequence[float]) -> Tables:
        """Swap free players between the strongest (or weakest) table and any other while
        that narrows the spread of table means."""
        sums = [sum(strength[i] for i in t) for t in tables]
        free = set(self.free)
        for _ in range(2 * len(tables) + 20):
            means = [s / len(t) for s, t in zip(sums, tables, strict=True)]
            spread = max(means) - min(means)
            ranked = sorted(range(len(tables)), key=means.__getitem__)
            best: tuple[float, int, int, int, int] | None = None
            for end in {ranked[0], ranked[-1]}:
                for other in range(len(tables)):
                    if other == end:
                        continue
                    rest = [i for i in (*ranked[:3], *ranked[-3:]) if i not in (end, other)]
                    high = max(means[i] for i in rest) if rest else -math.inf
                    low = min(means[i] for i in rest) if rest else math.inf
                    for a in tables[end]:
                        if a not in free:
                            continue
                        for b in tables[other]:
                            if b not in free:
                                continue
                            delta = strength[b] - strength[a]
                            one = (sums[end] + delta) / len(tables[end])
                            two = (sums[other] - delta) / len(tables[other])
                            value = max(high, one, two) - min(low, one, two)
                            if value < spread - 1e-12 and (best is None or value < best[0]):
                                best = (value, end, other, a, b)
            if best is None:
                break
            _, end, other, a, b = best
            tables[end][tables[end].index(a)] = b
            tables[other][tables[other].index(b)] = a
            delta = strength[b] - strength[a]
            sums[end] += delta
            sums[other] -= delta
        return tables

    # -- swiss --------------------------------------------------------------------------

    def swiss(self, met: Mapping[str, set[str]], *, byes: tuple[str, ...]) -> Seating:
        """Players are in standing order (index 0 leads); see the module docstring."""
        names = self.players
        seen = {
            (i, j)
            for i, j in combinations(range(len(names)), 2)
            if names[j] in met.get(names[i], set()) or names[i] in met.get(names[j], set())
        }

        def repeats(tables: Tables) -> int:
            return sum(1 for t in tables for i, j in combinations(sorted(t), 2) if (i, j) in seen)

        def distance(tables: Tables) -> int:
            return sum(max(t) - min(t) for t in tables)

        if len(names) <= EXACT_PLAYERS:
            best = min(self.all_seatings(), key=lambda t: (repeats(t), distance(t), _key(t)))
            exact = True
        else:
            best = self._swiss_greedy(seen)
            best = self._repair(best, seen)
            exact = False
        ordered = sorted(best, key=min) if not self.pinned else best
        return Seating(
            tables=self.names(ordered), byes=byes, method="swiss", repeats=repeats(best), exact=exact
        )

    def _swiss_greedy(self, seen: set[tuple[int, int]]) -> Tables:
        """Each table in turn takes the best-placed free players who have not met its players."""
        tables = self.start()
        left = [i for i in self.free]
        for table, size in zip(tables, self.sizes, strict=True):
            while len(table) < size:
                pick = next(
                    (p for p in left if all((min(p, q), max(p, q)) not in seen for q in table)), left[0]
                )
                left.remove(pick)
                table.append(pick)
        return tables

    def _repair(self, tables: Tables, seen: set[tuple[int, int]]) -> Tables:
        """Swap two free players between tables while that lowers (repeats, distance)."""
        free = set(self.free)

        def clash(p: int, table: list[int]) -> int:
            return sum(1 for q in table if q != p and (min(p, q), max(p, q)) in seen)

        for _ in range(repeats_left(tables, seen)):
            improved = False
            for a_table, table in enumerate(tables):
                for a in list(table):
                    if a not in free or clash(a, table) == 0:
                        continue
                    for b_table, other in enumerate(tables):
                        if b_table == a_table:
                            continue
                        for b in list(other):
                            if b not in free:
                                continue
                            before = clash(a, table) + clash(b, other)
                            rest_a = [q for q in table if q != a]
                            rest_b = [q for q in other if q != b]
                            after = clash(b, [*rest_a, b]) + clash(a, [*rest_b, a])
                            if after < before:
                                table[table.index(a)] = b
                                other[other.index(b)] = a
                                improved = True
                                break
                        if improved:
                            break
                    if improved:
                        break
                if improved:
                    break
            if not improved:
                break
        return tables


def repeats_left(tables: Tables, seen: set[tuple[int, int]]) -> int:
    """Pairs at the same table who have met tonight."""
    return sum(1 for t in tables for i, j in combinations(sorted(t), 2) if (i, j) in seen)


def _key(tables: Tables) -> list[list[int]]:
    """A stable tie-break between seatings of equal merit (the same input, the same seating)."""
    return [sorted(t) for t in tables]


def spread_bound(strength: Sequence[float], sizes: Sequence[int]) -> float:
    """A spread of table means that no seating beats (fixed seats only make it worse).

    Every seating has one table mean at or above the overall mean and one at or below it. The
    strongest player's table has a mean of at least their strength with the weakest others
    beside them, so the spread is at least that minus the overall mean; likewise for the
    weakest player's table.

    >>> spread_bound([10.0, 0.0, 0.0, 0.0], [2, 2])
    2.5
    """
    values = sorted(strength)
    mean = sum(values) / len(values)
    top = min((values[-1] + sum(values[: size - 1])) / size for size in set(sizes))
    bottom = max((values[0] + sum(values[len(values) - size + 1 :])) / size for size in set(sizes))
    return max(0.0, top - mean, mean - bottom)


def spread_of(tables: Sequence[Sequence[str]], ratings: Mapping[str, float]) -> float:
    """The spread (highest minus lowest) of the tables' mean ratings."""
    means = [sum(_strength(ratings, p) for p in t) / len(t) for t in tables]
    return max(means) - min(means)


def opponents(rounds: Sequence[Sequence[Sequence[str]]]) -> dict[str, set[str]]:
    """Each player's opponents over the rounds' tables."""
    met: dict[str, set[str]] = {}
    for tables in rounds:
        for table in tables:
            for player in table:
                met.setdefault(player, set()).update(q for q in table if q != player)
    return met
