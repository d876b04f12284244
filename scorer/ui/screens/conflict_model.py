"""Two phones, one deal: what each entered, side by side, and who saved theirs first.

The store refuses a deal saved over another phone's (:class:`~scorer.league.errors.ConflictError`)
and writes nothing; the screen then shows :class:`DealConflict`: both entries as the table
entered them (:func:`describe_deal`), and the store's event that put theirs there.

>>> from scorer.ruleset import load_ruleset
>>> side = describe_deal({"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"},
...                      ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
>>> [(h.player, h.cards, h.points, h.out) for h in side.hands]
[('Anna', '', 0, True), ('Bea', 'KS 5H', 15, False)]
>>> side.out
'Anna'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorer.cards import parse_cards
from scorer.errors import ScorerError
from scorer.league.errors import ConflictError
from scorer.league.records import GameEvent
from scorer.ruleset import Ruleset

#: What this phone was doing when the store refused it.
Doing = Literal["record", "correct", "remove"]


@dataclass(frozen=True, slots=True)
class HandLine:
    """One player's part of a deal: cards left (and what they are worth), or points only."""

    player: str
    cards: str | None  # None: points were entered, not cards
    points: int | str | None
    out: bool


@dataclass(frozen=True, slots=True)
class DealSide:
    """One deal as entered: per player cards or points, who went out or knocked, the flags."""

    hands: tuple[HandLine, ...]
    out: str = ""
    knocker: str = ""
    dead: bool = False
    ended: str = ""
    one_turn: bool = False
    upcard: str = ""
    big_gin: bool = False


def describe_deal(deal: Mapping[str, Any], *, ruleset: Ruleset, players: Sequence[str]) -> DealSide:
    """A deal document (a game file's deal) as the conflict screen shows it."""
    out = str(deal.get("out") or "")
    lines: list[HandLine] = []
    hands = deal.get("hands")
    table = deal.get("points", deal.get("deadwood"))
    for player in players:
        if isinstance(hands, Mapping):
            text = str(hands.get(player, "") or "")
            try:
                worth: int | str | None = ruleset.hand_points(parse_cards(text))
            except ScorerError:
                worth = None
            if player in hands or player == out:
                lines.append(HandLine(player, text, worth, player == out))
        elif isinstance(table, Mapping) and (player in table or player == out):
            lines.append(HandLine(player, None, table.get(player, 0), player == out))
    return DealSide(
        hands=tuple(lines),
        out=out,
        knocker=str(deal.get("knocker") or ""),
        dead=bool(deal.get("dead", False)),
        ended=str(deal.get("ended") or ""),
        one_turn=bool(deal.get("one_turn", False)),
        upcard=str(deal.get("upcard") or ""),
        big_gin=bool(deal.get("big_gin", False)),
    )


@dataclass(frozen=True, slots=True)
class DealConflict:
    """This phone's entry refused because another saved deal ``number`` first (or changed it)."""

    doing: Doing
    number: int  # 1-based
    mine: dict[str, Any]  # the deal this phone entered (for a removal: the deal it meant to remove)
    theirs: dict[str, Any] | None  # the deal stored there now; None: there is none (removed)
    event: GameEvent | None  # who put theirs there, and when

    @classmethod
    def of(cls, exc: ConflictError, *, doing: Doing, mine: Mapping[str, Any]) -> DealConflict:
        return cls(
            doing=doing,
            number=exc.number,
            mine=dict(mine),
            theirs=dict(exc.theirs) if exc.theirs is not None else None,
            event=exc.event,
        )
