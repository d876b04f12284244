"""A replacement: a player takes over a seat mid-game (docs/rules.md, "Replacements").

The seat keeps its scores and its name in the deals (the name of the player who sat there
first): a replacement changes no deal and no total. It says who held the seat for which deals,
so that a league credits the deals before the replacement to the player who left and the
seat's later deals, and the seat's result, to the replacement (:mod:`scorer.league.summary`).

>>> seats = holders(("Anna", "Bea"), (Replacement(seat=1, player="Bea", replacement="Cid", after=4),))
>>> [(h.player, h.first, h.last) for h in seats[1]]
[('Bea', 1, 4), ('Cid', 5, None)]
>>> holder_at(seats[1], 5)
'Cid'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.errors import ScorerError
from scorer.messages import Message


class InvalidReplacementError(ScorerError, ValueError):
    """A replacement that does not fit its game: an unknown seat, a player already at the
    table, a seat handed over before an earlier replacement of it."""


@dataclass(frozen=True, slots=True)
class Replacement:
    """``replacement`` took over seat ``seat`` (0-based) from ``player`` after the seat's deal
    ``after`` (0: before the first deal). ``id`` names it (the fact that made it); ``why``,
    ``by`` and ``at`` say why, who (the director) and when."""

    seat: int
    player: str
    replacement: str
    after: int
    why: str = ""
    by: str = ""
    at: str = ""
    id: str = ""


@dataclass(frozen=True, slots=True)
class Holder:
    """A player's time at a seat: deals ``first`` to ``last`` (1-based, both included;
    ``last`` is ``None`` for the seat's holder now: to the game's end)."""

    player: str
    first: int
    last: int | None

    def played(self, deals: int) -> int:
        """How many of the game's ``deals`` were the player's."""
        last = deals if self.last is None else min(self.last, deals)
        return max(0, last - self.first + 1)


def holders(players: Sequence[str], replacements: Sequence[Replacement]) -> list[list[Holder]]:
    """Each seat's holders in order (a seat never replaced: its one player for every deal).

    Raises :class:`InvalidReplacementError` for a replacement of an unknown seat, of a player
    who does not hold the seat then, by a player already in the game, or after a deal earlier
    than the seat's last replacement."""
    seats: list[list[Holder]] = [[Holder(p, 1, None)] for p in players]
    seen = set(players)
    for r in replacements:
        if not 0 <= r.seat < len(players):
            raise InvalidReplacementError(
                Message("replace.no_seat", seat=r.seat + 1, seats=len(players), players=", ".join(players))
            )
        now = seats[r.seat][-1]
        if r.player != now.player:
            raise InvalidReplacementError(
                Message("replace.not_holder", player=repr(r.player), seat=r.seat + 1, holder=now.player)
            )
        if r.replacement in seen:
            raise InvalidReplacementError(Message("replace.already_playing", player=repr(r.replacement)))
        if isinstance(r.after, bool) or not isinstance(r.after, int) or r.after < now.first - 1:
            raise InvalidReplacementError(
                Message("replace.after_earlier", after=repr(r.after), player=now.player, first=now.first - 1)
            )
        seats[r.seat][-1] = Holder(now.player, now.first, r.after)
        seats[r.seat].append(Holder(r.replacement, r.after + 1, None))
        seen.add(r.replacement)
    return seats


def holder_at(seat: Sequence[Holder], deal: int) -> str:
    """Who held the seat at deal ``deal`` (1-based; past the last deal: the holder now)."""
    for holder in seat:
        if holder.last is None or deal <= holder.last:
            return holder.player
    return seat[-1].player


def holder_when(
    seat: Sequence[Holder], replacements: Sequence[Replacement], *, seat_number: int, at: str
) -> str:
    """Who held the seat at time ``at`` (a penalty's): the last replacement of the seat made
    by then decides; with no time, the holder now."""
    if not at:
        return seat[-1].player
    made = [r for r in replacements if r.seat == seat_number and r.at and r.at <= at]
    return seat[len(made)].player if len(made) < len(seat) else seat[-1].player
