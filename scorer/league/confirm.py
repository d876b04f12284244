"""Deals confirmed at the table (club nights): each deal's confirmation, read from its events.

At a club night a deal saved at a table is *unconfirmed* until another player of the table
confirms it on their own phone, or the director confirms it (docs/rules.md, "Confirmed deals
(club nights)"). A player may instead *dispute* it, saying why and, if they like, how the deal
should be; the director then keeps one version, the saved one or theirs, signed with why.

Nothing here is stored apart: a confirmation, a dispute and a resolution are signed events of
the game (:class:`~scorer.league.records.GameEvent`, actions ``confirmed``, ``disputed`` and
``resolved``), each carrying in its ``check`` the digest of the deal it was about (``digest``),
a dispute's version (``theirs``) and a resolution's choice (``keep``). :func:`deal_checks` replays a
game's events in order, following each deal from its recording to where it stands now (a
removal renumbers the deals after it), and gives each deal its state now:

- ``unconfirmed``: saved (or changed) and not yet confirmed;
- ``confirmed``: confirmed, by ``by``;
- ``disputed``: disputed by ``by``, with ``theirs`` (the version they say it should be, or
  none) and ``why``, until the director resolves it;
- ``resolved``: the director kept one version (``kept``: ``saved`` or ``theirs``).

Any change to a deal (a correction, the director keeping the disputer's version) begins its
story again: a confirmed deal is never changed without a signed fact, and once changed it is
unconfirmed until confirmed again. An event whose digest is not the deal's digest now was
about another version of it (two devices that met later) and counts for nothing.

>>> from scorer.league.records import GameEvent
>>> deal = {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"}
>>> def ev(seq, action, by, **more):
...     return GameEvent(seq=seq, at="2026-12-01T19:04:00Z", by=by, action=action, deal=1, why=None, **more)
>>> checks = deal_checks([ev(1, "recorded", "Anna")], [deal])
>>> checks[0].state, checks[0].saved_by
('unconfirmed', 'Anna')
>>> confirmed = ev(2, "confirmed", "Bea", check={"digest": digest_of(deal)})
>>> checks = deal_checks([ev(1, "recorded", "Anna"), confirmed], [deal])
>>> checks[0].state, checks[0].by
('confirmed', 'Bea')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from scorer.league.documents import NightDoc, canonical_hash
from scorer.league.errors import StoreInputError
from scorer.league.night import NightRow
from scorer.league.records import GameEvent
from scorer.messages import Join, Message
from scorer.names import name_key

CheckState = Literal["unconfirmed", "confirmed", "disputed", "resolved"]

#: The versions a director may keep of a disputed deal.
KEEPS: Final = ("saved", "theirs")

#: The events that change a deal itself: each begins its confirmation again.
_CHANGES: Final = frozenset({"recorded", "corrected", "restored"})
#: The events that say something of a deal without changing it.
CHECK_ACTIONS: Final = frozenset({"confirmed", "disputed", "resolved"})


class ConfirmError(StoreInputError):
    """A confirmation, dispute or resolution that the rules refuse (nothing is written)."""


def digest_of(deal: Mapping[str, Any]) -> str:
    """The digest a confirmation names its deal by: the deal's canonical hash.

    >>> digest_of({"out": "Anna"}) == digest_of({"out": "Anna"})
    True
    """
    return canonical_hash(dict(deal))


@dataclass(frozen=True, slots=True, kw_only=True)
class DealCheck:
    """One deal's confirmation now: its number (1-based, as the game numbers it now), the deal
    as it stands (``deal``), who saved this version (``saved_by``, ``""``: nobody named), and
    who confirmed, disputed or resolved it (``by``, ``at``, ``why``); a dispute's version
    (``theirs``: ``None`` when the disputer gave only a reason) and a resolution's ``kept``."""

    number: int
    state: CheckState
    deal: Mapping[str, Any]
    saved_by: str
    by: str = ""
    at: str = ""
    why: str | None = None
    theirs: Mapping[str, Any] | None = None
    kept: str | None = None
    disputed_by: str = ""

    @property
    def open(self) -> bool:
        """Whether the deal still waits for someone: unconfirmed or disputed."""
        return self.state in ("unconfirmed", "disputed")


def deal_checks(events: Sequence[GameEvent], deals: Sequence[Mapping[str, Any]]) -> tuple[DealCheck, ...]:
    """Each deal's :class:`DealCheck`, in order, from the game's ``events`` and its ``deals``
    now. A game whose events do not add up to its deals (one older than its events) has the
    deals the events do not follow unconfirmed."""
    slots: list[list[GameEvent]] = []
    for event in events:
        number = event.deal
        if number is None or number < 1:
            continue
        index = number - 1
        if event.action in ("recorded", "restored"):
            while len(slots) < index:
                slots.append([])
            slots.insert(index, [event])
        elif event.action == "removed":
            if index < len(slots):
                slots.pop(index)
        elif event.action == "corrected" or event.action in CHECK_ACTIONS:
            while len(slots) <= index:
                slots.append([])
            if event.action == "corrected":
                slots[index] = [event]
            else:
                slots[index].append(event)
    if len(slots) != len(deals):
        slots = [*slots[: len(deals)], *([] for _ in range(len(deals) - len(slots)))]
    return tuple(_check(n, deal, story) for n, (deal, story) in enumerate(zip(deals, slots, strict=True), 1))


def _check(number: int, deal: Mapping[str, Any], story: Sequence[GameEvent]) -> DealCheck:
    saved_by = next((e.by for e in story if e.action in _CHANGES), "")
    now = digest_of(deal)
    check = DealCheck(number=number, state="unconfirmed", deal=deal, saved_by=saved_by)
    for event in story:
        told = event.check or {}
        if event.action not in CHECK_ACTIONS or told.get("digest") != now:
            continue  # a change, or an event about another version of the deal
        if event.action == "confirmed" and check.state == "unconfirmed":
            check = replace(check, state="confirmed", by=event.by, at=event.at, why=event.why)
        elif event.action == "disputed" and check.state == "unconfirmed":
            theirs = told.get("theirs")
            check = replace(
                check,
                state="disputed",
                by=event.by,
                at=event.at,
                why=event.why,
                theirs=theirs if isinstance(theirs, dict) else None,
                disputed_by=event.by,
            )
        elif event.action == "resolved":
            kept = "theirs" if told.get("keep") == "theirs" else "saved"
            check = replace(check, state="resolved", by=event.by, at=event.at, why=event.why, kept=kept)
    return check


def counts(checks: Sequence[DealCheck]) -> tuple[int, int]:
    """How many deals wait for a confirmation (unconfirmed or disputed), and how many of them
    are disputed.

    >>> counts([])
    (0, 0)
    """
    return sum(1 for c in checks if c.open), sum(1 for c in checks if c.state == "disputed")


# -- the rules: who may confirm, dispute, resolve (the store decides with these) -----------------


def check_of(checks: Sequence[DealCheck], number: int, *, refused: Message | None) -> DealCheck:
    """Deal ``number``'s check; :class:`ConfirmError` saying ``refused`` (why the game's deals
    need no confirmation, as the store found it), or for a deal the game does not have."""
    if refused is not None:
        raise ConfirmError(refused)
    if isinstance(number, bool) or not 1 <= number <= len(checks):
        raise ConfirmError(Message("confirm.no_deal", number=repr(number), deals=len(checks)))
    return checks[number - 1]


def _same(a: str, b: str) -> bool:
    return bool(a) and name_key(a) == name_key(b)


def _refuse_settled(check: DealCheck) -> None:
    if check.state == "confirmed":
        raise ConfirmError(Message("confirm.already", number=check.number, name=check.by or "?"))
    if check.state == "resolved":
        raise ConfirmError(Message("confirm.already_resolved", number=check.number, name=check.by or "?"))
    if check.state == "disputed":
        raise ConfirmError(Message("confirm.disputed", number=check.number, name=check.disputed_by or "?"))


def refuse_confirm(check: DealCheck, *, by: str, director: bool) -> None:
    """Refuse a confirmation the rules do not allow: unsigned, of a deal confirmed, disputed or
    resolved already, or by the phone that saved it (the director may confirm any deal).

    >>> check = DealCheck(number=2, state="unconfirmed", deal={}, saved_by="Anna")
    >>> refuse_confirm(check, by="anna", director=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.league.confirm.ConfirmError: deal 2 was saved by Anna: another player of the table ...
    """
    if not by:
        raise ConfirmError(Message("confirm.unsigned"))
    _refuse_settled(check)
    if not director and _same(check.saved_by, by):
        raise ConfirmError(Message("confirm.own_deal", number=check.number, name=check.saved_by))


def refuse_dispute(check: DealCheck, *, by: str) -> None:
    """Refuse a dispute the rules do not allow: unsigned, of a deal settled or disputed
    already, or by the phone that saved it (it corrects its own deal instead)."""
    if not by:
        raise ConfirmError(Message("confirm.unsigned"))
    _refuse_settled(check)
    if _same(check.saved_by, by):
        raise ConfirmError(Message("confirm.own_dispute", number=check.number, name=check.saved_by))


def refuse_resolve(check: DealCheck, *, keep: str, why: str | None, by: str) -> None:
    """Refuse a resolution the rules do not allow: unsigned, without a reason, of a deal not
    disputed, keeping something other than ``saved`` or ``theirs``, or keeping a version the
    disputer did not give."""
    if keep not in KEEPS:
        raise ConfirmError(Message("confirm.bad_keep", value=repr(keep)))
    if not by:
        raise ConfirmError(Message("confirm.unsigned"))
    if check.state != "disputed":
        raise ConfirmError(Message("confirm.not_disputed", number=check.number))
    if not why:
        raise ConfirmError(Message("confirm.why_needed", number=check.number))
    if keep == "theirs" and check.theirs is None:
        raise ConfirmError(Message("confirm.no_version", number=check.number, name=check.disputed_by or "?"))


def open_disputes(tables: Sequence[tuple[int, int, Sequence[DealCheck]]]) -> Message | None:
    """The refusal of ending a night with disputes open, naming each (``tables``: round,
    table and the table game's checks), or ``None`` when none is open."""
    where = tuple(
        Message("confirm.where", round=round_number, table=table, number=c.number)
        for round_number, table, checks in tables
        for c in checks
        if c.state == "disputed"
    )
    return Message("confirm.night_disputed", deals=Join(where)) if where else None


def marked_rows(
    rows: Sequence[NightRow], night: NightDoc, counts_by_game: Mapping[str, tuple[int, int]]
) -> list[NightRow]:
    """The night's standings rows, each marked with the deals of the player's tables waiting
    for a confirmation and those disputed (``counts_by_game``: :func:`counts` by game id)."""
    waiting: dict[str, list[int]] = {}
    for round_doc in night.rounds:
        for table in round_doc.tables:
            unconfirmed, disputed = counts_by_game.get(table.game, (0, 0))
            for player in table.players:
                tally = waiting.setdefault(player, [0, 0])
                tally[0] += unconfirmed
                tally[1] += disputed
    return [
        replace(row, unconfirmed=waiting[row.player][0], disputed=waiting[row.player][1])
        if row.player in waiting
        else row
        for row in rows
    ]
