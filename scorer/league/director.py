"""The director of a club night: calls from the tables, and penalties (docs/rules.md,
"Penalties (club nights)"; docs/app.md, "Club night").

A table calls the director (``night.called``: a rules question, a dispute, a penalty, with an
optional note); the director answers (``night.call_answered``, with a note). The director
may give a player of a table's game penalty points (``game.penalised``, the reason in its
``why``), and lift one given by mistake (``game.penalty_lifted``): the game's document keeps
the penalties (:class:`scorer.game.Penalty`), so its totals, ranking, winner, the night's
placement points and the league standings all follow from the game's replay.

This module is pure: the checks of what is asked and the calls as values; the store
(:mod:`scorer.league.store`) reads and writes.

>>> reason_of(" Dispute ")
'dispute'
>>> penalty_points("3")
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from scorer.league.errors import StoreInputError
from scorer.league.facts import CALL_REASONS
from scorer.messages import Message
from scorer.names import name_key

#: The longest note on a call or an answer, and the longest reason of a penalty.
MAX_NOTE: Final = 500


@dataclass(frozen=True, slots=True)
class Call:
    """A call of the director from a night's table: who called, when, why, and the answer
    (``answered`` is its time, ``None`` while the call is open)."""

    id: str
    night: str
    game: str
    round: int
    table: int
    reason: str
    note: str | None
    at: str
    by: str
    answered: str | None = None
    answer: str | None = None
    answered_by: str | None = None

    @property
    def open(self) -> bool:
        return self.answered is None

    def to_json(self) -> dict[str, Any]:
        """The call as ``rummy league night calls --json`` prints it (docs/cli.md)."""
        return {
            "id": self.id,
            "night": self.night,
            "game": self.game,
            "round": self.round,
            "table": self.table,
            "reason": self.reason,
            "note": self.note,
            "at": self.at,
            "by": self.by,
            "open": self.open,
            "answered": self.answered,
            "answer": self.answer,
            "answered_by": self.answered_by,
        }


def call_value(row: Mapping[str, Any]) -> Call:
    """A call as the state keeps it (the ``calls`` table's row)."""
    return Call(
        id=str(row["id"]),
        night=str(row["night"]),
        game=str(row["game"]),
        round=int(row["round"]),
        table=int(row["table"]),
        reason=str(row["reason"]),
        note=row.get("note"),
        at=str(row["at"]),
        by=str(row.get("by") or ""),
        answered=row.get("answered"),
        answer=row.get("answer"),
        answered_by=row.get("answered_by"),
    )


def newest_first(calls: Sequence[Call]) -> list[Call]:
    return sorted(calls, key=lambda c: (c.at, c.id), reverse=True)


def reason_of(text: str) -> str:
    """A call's reason: ``rules``, ``dispute`` or ``penalty`` (case and spaces do not count)."""
    reason = text.strip().lower()
    if reason not in CALL_REASONS:
        raise StoreInputError(
            Message("director.bad_reason", reason=repr(text), allowed=", ".join(CALL_REASONS))
        )
    return reason


def note_of(text: str | None) -> str | None:
    """A note on a call or an answer, trimmed (``None``: none); at most :data:`MAX_NOTE` characters."""
    note = (text or "").strip()
    if len(note) > MAX_NOTE:
        raise StoreInputError(Message("director.note_too_long", note=repr(note[:20] + "…"), most=MAX_NOTE))
    return note or None


def penalty_points(value: object) -> int:
    """A penalty's points: a whole number, 1 or more (text as typed is read too)."""
    points: object = value
    if isinstance(value, str):
        text = value.strip()
        points = int(text) if text.isdigit() else value
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise StoreInputError(Message("director.bad_points", points=repr(value)))
    return points


def penalty_why(text: str | None) -> str:
    """A penalty's reason: required, at most :data:`MAX_NOTE` characters."""
    why = note_of(text)
    if why is None:
        raise StoreInputError(Message("director.no_why"))
    return why


def seat_of(key: str, *, ids: Sequence[str], names: Sequence[str], table: int | None) -> int:
    """The seat of the player ``key`` (an id or a name, as seated) at a table's game."""
    wanted = name_key(key)
    for seat, (player_id, name) in enumerate(zip(ids, names, strict=True)):
        if key == player_id or wanted == name_key(name):
            return seat
    raise StoreInputError(
        Message("director.not_at_table", player=repr(key), table=table or 0, players=", ".join(names))
    )
