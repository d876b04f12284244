"""A replacement at a club night's table: a player takes over a seat mid-game (docs/rules.md,
"Replacements"; docs/cli.md, ``rummy league night replace``).

The director names the seat (its number, or the name of the player holding it now), the
player who comes and, optionally, the deal after which they took over (by default the deals
played so far: they play the next one). What may not be: a seat the game does not have, a
game that has ended, a player seated at another table of the round (or already at this one),
a deal not yet played, or one before the seat's last replacement. The store writes the
``seat.replaced`` fact; the game's replay and the standings credit each holder their deals
(:mod:`scorer.replacement`, :mod:`scorer.league.summary`).

This module is pure: the checks of what is asked; the store (:mod:`scorer.league.store`)
reads and writes.

>>> seat_number("2", holders_now=("Anna", "Bea"))
1
>>> seat_number("bea", holders_now=("Anna", "Bea"))
1
>>> after_deal(None, played=4, since=0)
4
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.league.documents import NightRoundDoc
from scorer.league.errors import StoreInputError
from scorer.messages import Message
from scorer.names import name_key
from scorer.replacement import Replacement, holders


def holders_now(players: Sequence[str], replacements: Sequence[Replacement]) -> tuple[str, ...]:
    """Who holds each seat now (by name, in the seats' order)."""
    return tuple(seat[-1].player for seat in holders(players, replacements))


def seat_number(key: str, *, holders_now: Sequence[str]) -> int:
    """The seat (0-based) asked for: its number (1-based) or its holder's name."""
    text = key.strip()
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(holders_now):
            return number - 1
    else:
        wanted = name_key(text)
        for seat, name in enumerate(holders_now):
            if name_key(name) == wanted:
                return seat
    raise StoreInputError(
        Message(
            "replace.unknown_seat", seat=repr(key), seats=len(holders_now), players=", ".join(holders_now)
        )
    )


def after_deal(value: int | str | None, *, played: int, since: int) -> int:
    """The deal after which the replacement took over: ``value`` (a whole number from the
    seat's last replacement ``since`` to the deals ``played``), by default ``played``."""
    if value is None:
        return played
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not since <= int(text) <= played:
        said = repr(str(value))
        raise StoreInputError(Message("replace.bad_after", after=said, since=since, played=played))
    return int(text)


def refuse_seated_elsewhere(round_doc: NightRoundDoc, *, table: int, player: str, name: str) -> None:
    """Refuse a replacement who plays at another table of the round (a bye is free to)."""
    for other in round_doc.tables:
        if other.table != table and player in other.players:
            raise StoreInputError(
                Message(
                    "replace.seated_elsewhere",
                    player=repr(name),
                    table=other.table,
                    round=round_doc.number,
                )
            )
