"""Signed changes to a game: its events, its status, and the conflicts between two devices.

Every change to a game is an event stored with the game (:class:`GameEvent`: when, who, what,
which deal, why). A device that changes a deal says which deal it saw (``number`` for a new
deal, ``expected`` for a correction or removal); when another device changed it first, the
change is refused with :class:`~scorer.league.errors.ConflictError`, which carries theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.league.documents import GameRecord, canonical_hash
from scorer.league.errors import ConflictError, GameStatusError, StoreInputError
from scorer.league.records import GameEvent
from scorer.messages import Message, Param, Word
from scorer.names import clean_name


def signer(by: str | None) -> str:
    """Who made a change, as stored: the device's name given, clean (``""``: nobody named)."""
    if by is None or not by.strip():
        return ""
    return clean_name(by, what="device", error=StoreInputError)


def why_given(why: str | None) -> str | None:
    clean = (why or "").strip()
    if len(clean) > 500:
        raise StoreInputError(Message("store.why_too_long", value=repr(clean[:20])))
    return clean or None


def event(
    events: Sequence[Mapping[str, Any]],
    at: str,
    by: str | None,
    action: str,
    *,
    deal: int | None = None,
    why: str | None = None,
    was: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    seq = max((int(e.get("seq", 0)) for e in events), default=0) + 1
    return GameEvent(seq=seq, at=at, by=signer(by), action=action, deal=deal, why=why, was=was).to_dict()


def events_of(record: GameRecord) -> tuple[GameEvent, ...]:
    return events_from(record.events)


def events_from(events: Sequence[Mapping[str, Any]]) -> tuple[GameEvent, ...]:
    """A game's events as stored (its record's, or its row's as the state holds it)."""
    return tuple(
        GameEvent(
            seq=int(e.get("seq", n)),
            at=str(e.get("at", "")),
            by=str(e.get("by") or ""),
            action=str(e.get("action", "")),
            deal=e.get("deal") if isinstance(e.get("deal"), int) else None,
            why=e.get("why") if isinstance(e.get("why"), str) else None,
            was=e.get("was") if isinstance(e.get("was"), dict) else None,
            check=e.get("check") if isinstance(e.get("check"), dict) else None,
        )
        for n, e in enumerate(events, start=1)
    )


def status_before(events: Sequence[Mapping[str, Any]]) -> str:
    """The status a game had when it was last deleted (abandoned or active)."""
    status = "active"
    for event in events:
        action = event.get("action")
        if action == "abandoned":
            status = "abandoned"
        elif action == "resumed":
            status = "active"
    return status


def require_active(record: GameRecord) -> None:
    if record.status != "active":
        code = "store.abandoned_resume" if record.status == "abandoned" else "store.deleted_undo"
        raise GameStatusError(Message(code, game=record.id))


def last_event(record: GameRecord, number: int) -> GameEvent | None:
    return next((e for e in reversed(events_of(record)) if e.deal == number), None)


def conflict(record: GameRecord, number: int, what: str) -> ConflictError:
    """``what`` happened to the deal meanwhile: ``removed``, ``changed`` or ``recorded``."""
    event = last_event(record, number)
    deals = record.document.get("deals") or []
    theirs = dict(deals[number - 1]) if number <= len(deals) else None
    said: dict[str, Param] = {"number": number, "what": Word(f"{what} meanwhile")}
    if event is not None and event.by:
        said["by"] = event.by
    if event is not None:
        said["at"] = event.at[:16].replace("T", " ")
    code = "store.conflict" + "".join(f"_{k}" for k in ("by", "at") if k in said)
    return ConflictError(
        Message(code, **said),
        game_id=record.id,
        number=number,
        theirs=theirs,
        event=event,
    )


def expect(record: GameRecord, index: int, expected: Mapping[str, Any] | None) -> None:
    """Refuse a correction or removal of a deal that changed since the device read it."""
    if expected is None:
        return
    deals = record.document.get("deals") or []
    if index >= len(deals):
        raise conflict(record, index + 1, "was removed")
    if canonical_hash(deals[index]) != canonical_hash(dict(expected)):
        raise conflict(record, index + 1, "was changed")
