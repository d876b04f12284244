"""A game's history as the Scoreboard shows it: who changed which deal, when, and why.

The store keeps every change to a game as a signed event (:meth:`Store.events
<scorer.league.store.Store.events>`), each naming the deal by its number *when it was made*.
A removal renumbers the deals after it, so the events are replayed here in order, following
each deal from its recording to where it stands now; each row of the scoreboard gets the
events of the deal it shows. Events of no deal that is still there (the game started,
finished, moved; a deal removed) form the game's own history.

>>> from scorer.league.records import GameEvent
>>> def ev(seq, action, deal=None, by="", why=None):
...     return GameEvent(seq=seq, at="2026-12-01T19:04:00Z", by=by, action=action, deal=deal, why=why)
>>> rows, game = deal_histories(
...     [ev(1, "started"), ev(2, "recorded", 1), ev(3, "recorded", 2), ev(4, "removed", 1, "Bea"),
...      ev(5, "corrected", 1, "Cid", "jokers")],
...     deals=1,
... )
>>> [(e.seq, e.action) for e in rows[1]]
[(3, 'recorded'), (5, 'corrected')]
>>> [(e.seq, e.action) for e in game]
[(1, 'started'), (4, 'removed')]
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import count

from scorer.league.records import GameEvent
from scorer.ui.i18n import Language, tr

#: The events that concern one deal still in the game.
_DEAL_ACTIONS = frozenset({"recorded", "corrected", "restored"})


def deal_histories(
    events: Sequence[GameEvent], *, deals: int
) -> tuple[dict[int, list[GameEvent]], list[GameEvent]]:
    """Each current deal's events by its number now (1-based), and the game's other events.

    ``deals`` is how many deals the game has now. A game older than its events (or one
    whose events do not add up to its deals) falls back to the numbers as recorded.
    """
    fresh = count()
    where: list[int] = []  # deal position now -> the deal's identity
    by_deal: dict[int, list[GameEvent]] = {}
    game: list[GameEvent] = []

    def pad(length: int) -> None:
        while len(where) < length:
            where.append(next(fresh))

    for event in events:
        number = event.deal
        if number is None or number < 1:
            game.append(event)
            continue
        index = number - 1
        if event.action == "recorded" or event.action == "restored":
            pad(index)
            where.insert(index, next(fresh))
        elif event.action == "removed":
            pad(number)
            where.pop(index)
            game.append(event)
            continue
        elif event.action in _DEAL_ACTIONS:
            pad(number)
        else:
            game.append(event)
            continue
        by_deal.setdefault(where[index], []).append(event)
    pad(deals)
    if len(where) != deals:  # the events and the game disagree: the numbers as recorded
        rows: dict[int, list[GameEvent]] = {}
        for event in events:
            if event.deal is not None and event.action in _DEAL_ACTIONS and event.deal <= deals:
                rows.setdefault(event.deal, []).append(event)
        return rows, game
    return {n: by_deal[i] for n, i in enumerate(where, start=1) if i in by_deal}, game


def local_time(at: str, language: Language, *, today: datetime | None = None) -> str:
    """An event's time in the device's local time: ``21:04`` today, else with its date."""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone()
    now = (today or datetime.now(UTC)).astimezone()
    clock = local.strftime("%H.%M" if language == "fi" else "%H:%M")
    if local.date() == now.date():
        return clock
    day = f"{local.day}.{local.month}.{local.year}" if language == "fi" else local.strftime("%Y-%m-%d")
    return f"{day} {clock}"


def event_line(
    event: GameEvent, language: Language, *, with_deal: bool = False, today: datetime | None = None
) -> str:
    """``corrected by Bea at 21:04: miscounted the jokers`` (in either language)."""
    action = tr(f"history.{event.action}", language) if event.action else "?"
    time = local_time(event.at, language, today=today)
    if event.by:
        line = tr("history.by", language, action=action, name=event.by, time=time)
    else:
        line = tr("history.unsigned", language, action=action, time=time)
    if with_deal and event.deal is not None:
        line = tr("history.deal", language, number=event.deal, line=line)
    if event.why:
        line = tr("history.why", language, line=line, why=event.why)
    return line
