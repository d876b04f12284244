"""A club night's tie-breaks: the ordered list of criteria its standings are sorted by.

The director chooses the order when the night starts (docs/rules.md, "Tie-breaks (club
nights)"); it always starts with the night's placement ``points``. Players level on every
criterion so far are compared on the next one:

- ``points``: night points, more is better;
- ``wins``: 1st places (shared or not), more is better;
- ``head-to-head``: among the players level at that point only, the games where they met:
  each time one finished ahead of another, the one ahead scores 1 and the one behind loses 1
  (:func:`head_to_head`); it is tallied once for the level group, not again for the players
  still level after it;
- ``deal-points``: points per deal relative to the table (``NightRow.relative``), higher is
  better;
- ``penalties``: the penalty points the director gave the player tonight (docs/rules.md,
  "Penalties (club nights)"), fewer is better;
- ``coin``: a coin flip recorded as a fact (``night.coin_flipped``, the players in the order
  the coin put them); until the director flips for exactly the players level there, they
  stay level (a flip made when others were level decides nothing for them).

Players still level after the whole list are *tied* (:data:`TIED`) and listed by name.
:data:`DEFAULT_ORDER` is the order every night had before the director could choose one, so old
nights sort as they did.

>>> parse_order("points, wins, coin")
('points', 'wins', 'coin')
>>> rows = [Standing(player="a", name="Anna", points=3.0, wins=1, deal_points=2.0),
...         Standing(player="b", name="Bea", points=3.0, wins=0, deal_points=5.0)]
>>> [(s.name, why) for s, why in order_rows(rows, order=DEFAULT_ORDER)]
[('Anna', 'wins'), ('Bea', None)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Final

from scorer.league.errors import StoreInputError
from scorer.messages import Message

CRITERIA: Final = ("points", "wins", "head-to-head", "deal-points", "penalties", "coin")
"""Every criterion a night's standings can be ordered by, as the director names them."""

DEFAULT_ORDER: Final = ("points", "wins", "deal-points")
"""The order of a night that chose none (every night started before tie-breaks could be chosen)."""

TIED: Final = "tied"
"""The ``why`` of a row that nothing in the order separates from the next."""

Meeting = Mapping[str, int]
"""One finished table game of the night: each of its players' place (1 is best)."""


class TiebreakError(StoreInputError):
    """A tie-break order that cannot be used (an unknown word, a word twice, not points first)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What a player's place in a night's standings is decided by (player: the id)."""

    player: str
    name: str
    points: float
    wins: int
    deal_points: float
    penalties: int = 0  # penalty points given tonight


def check_order(order: Sequence[str]) -> tuple[str, ...]:
    """``order`` as a tie-break order, else :class:`TiebreakError` naming what is wrong.

    >>> check_order(["points", "head-to-head"])
    ('points', 'head-to-head')
    """
    for word in order:
        if word not in CRITERIA:
            raise TiebreakError(Message("night.bad_tiebreak", word=repr(word), allowed=", ".join(CRITERIA)))
    for place, word in enumerate(order):
        if word in order[:place]:
            raise TiebreakError(Message("night.tiebreak_twice", word=repr(word)))
    if not order or order[0] != "points":
        raise TiebreakError(Message("night.tiebreak_no_points", order=repr(",".join(order))))
    return tuple(order)


def parse_order(text: str) -> tuple[str, ...]:
    """``"points,wins,coin"`` (``--tiebreaks``) as a tie-break order; words are separated by
    commas, case and spaces around them do not count."""
    return check_order([word.strip().lower() for word in text.split(",") if word.strip()])


def head_to_head(players: Sequence[str], meetings: Sequence[Meeting]) -> dict[str, int]:
    """Each of ``players``' tally in the games where two or more of them met: +1 for every
    one of them finished behind, -1 for every one finished ahead (a shared place: 0).

    >>> head_to_head(["a", "b", "c"], [{"a": 1, "b": 2, "x": 3}, {"b": 1, "c": 2}])
    {'a': 1, 'b': 0, 'c': -1}
    """
    tally = dict.fromkeys(players, 0)
    for meeting in meetings:
        met = [p for p in players if p in meeting]
        for me in met:
            for other in met:
                tally[me] += (meeting[me] < meeting[other]) - (meeting[me] > meeting[other])
    return tally


def _flip_of(group: Sequence[str], flips: Sequence[Sequence[str]]) -> Sequence[str] | None:
    """The latest coin flip made for exactly the players of ``group``, if any: a flip for
    other players (the level group was another when the coin was flipped) decides nothing."""
    wanted = set(group)
    return next((flip for flip in reversed(flips) if wanted == set(flip)), None)


Key = Callable[[Standing], float]


def _key(
    criterion: str, group: Sequence[Standing], meetings: Sequence[Meeting], flips: Sequence[Sequence[str]]
) -> Key:
    """How ``criterion`` scores the players of a level ``group``: higher is better."""
    if criterion == "points":
        return lambda s: s.points
    if criterion == "wins":
        return lambda s: s.wins
    if criterion == "deal-points":
        return lambda s: s.deal_points
    if criterion == "penalties":
        return lambda s: -s.penalties
    if criterion == "head-to-head":
        tally = head_to_head([s.player for s in group], meetings)
        return lambda s: tally[s.player]
    flip = _flip_of([s.player for s in group], flips)
    if flip is None:
        return lambda s: 0
    place = {p: n for n, p in enumerate(flip)}
    return lambda s: -place[s.player]


def _by_name(group: Sequence[Standing]) -> list[Standing]:
    return sorted(group, key=lambda s: (s.name.casefold(), s.player))


def _order(
    group: Sequence[Standing],
    criteria: Sequence[str],
    *,
    meetings: Sequence[Meeting],
    flips: Sequence[Sequence[str]],
    level: list[tuple[str, ...]] | None,
) -> list[tuple[Standing, str | None]]:
    """``group`` (level on every criterion before ``criteria``) in order, each row with what
    puts it above the next; the last row's ``None`` is for the caller to fill."""
    if len(group) == 1:
        return [(group[0], None)]
    if not criteria:
        rows = _by_name(group)
        return [(s, TIED) for s in rows[:-1]] + [(rows[-1], None)]
    criterion, rest = criteria[0], criteria[1:]
    if criterion == "coin" and level is not None and _flip_of([s.player for s in group], flips) is None:
        level.append(tuple(s.player for s in _by_name(group)))
    key = _key(criterion, group, meetings, flips)
    ranked = sorted(group, key=key, reverse=True)
    buckets = [list(b) for _, b in groupby(ranked, key=key)]
    out: list[tuple[Standing, str | None]] = []
    for number, bucket in enumerate(buckets, start=1):
        inner = _order(bucket, rest, meetings=meetings, flips=flips, level=level)
        out.extend(inner[:-1])
        out.append((inner[-1][0], criterion if number < len(buckets) else None))
    return out


def order_rows(
    standings: Sequence[Standing],
    *,
    order: Sequence[str],
    meetings: Sequence[Meeting] = (),
    flips: Sequence[Sequence[str]] = (),
) -> list[tuple[Standing, str | None]]:
    """The standings best first, each with the criterion that puts it above the next row
    (:data:`TIED` when none does, ``None`` for the last row); ``meetings``: the night's
    finished table games, for ``head-to-head``; ``flips``: its coin flips (player ids, in the
    order the coin put them), for ``coin``."""
    if not standings:
        return []
    return _order(_by_name(standings), order, meetings=meetings, flips=flips, level=None)


def level_at_coin(
    standings: Sequence[Standing],
    *,
    order: Sequence[str],
    meetings: Sequence[Meeting] = (),
    flips: Sequence[Sequence[str]] = (),
) -> list[tuple[str, ...]]:
    """The groups of players (ids, by name) still level when the order reaches ``coin`` and
    that no coin flip has ordered yet: what a flip now would decide."""
    level: list[tuple[str, ...]] = []
    if standings:
        _order(_by_name(standings), order, meetings=meetings, flips=flips, level=level)
    return level
