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

from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import count
from typing import Any

from pydantic import ValidationError

from scorer.errors import ScorerError
from scorer.game import Game, score_game
from scorer.gamefile import DealDocument
from scorer.league.records import GameEvent
from scorer.ui.components.card_face import faces_of
from scorer.ui.i18n import Language, local_time, tr

#: The events that concern one deal still in the game.
_DEAL_ACTIONS = frozenset({"recorded", "corrected", "restored", "confirmed", "disputed", "resolved"})


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


def event_line(
    event: GameEvent, language: Language, *, with_deal: bool = False, today: datetime | None = None
) -> str:
    """``corrected by Bea at 21:04: miscounted the jokers`` (in either language)."""
    action = tr(f"history.{event.action}", language) if event.action else "?"
    if event.action in ("penalised", "penalty_lifted") and event.was:  # whose, how many points
        whose = {"player": event.was.get("player", ""), "points": event.was.get("points", 0)}
        action = tr("history.penalty_what", language, action=action, **whose)
    elif event.action == "replaced" and event.was:  # who left, who came, after which deal
        said = {k: event.was.get(k, "") for k in ("player", "replacement", "after")}
        action = tr("history.replaced_what", language, action=action, **said)
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


def deal_event_line(
    event: GameEvent, *, game: Game, number: int, language: Language, today: datetime | None = None
) -> str:
    """A deal's history line on its row (deal ``number`` now, 1-based): who, when, why, and for
    a correction what it changed: the entries before it and what they scored (the engine's),
    ``corrected by Bea at 21:04: jokers · was: Anna out, Bea K♠ 5♥; scored Anna 0, Bea 15``."""
    line = event_line(event, language, today=today)
    if event.action != "corrected" or event.was is None:
        return line
    return f"{line} · {was_text(event.was, game=game, number=number, language=language)}"


def was_text(was: Mapping[str, Any], *, game: Game, number: int, language: Language) -> str:
    """A deal's entries as they were (a game-file deal object), and what the engine scored
    them as deal ``number`` of ``game`` (only its score: the game as it is after it)."""
    # imported with the screens that show a history (scorer/web/startup.py: not before Home)
    from scorer.ui.screens.conflict_model import describe_deal

    side = describe_deal(was, ruleset=game.ruleset, players=game.players)
    parts: list[str] = []
    if side.dead:
        parts.append(tr("history.entry_dead", language))
    if side.knocker:
        parts.append(tr("history.entry_knocked", language, name=side.knocker))
    if side.ended:
        parts.append(tr("history.entry_ended", language, how=tr(f"deal.ended_{side.ended}", language)))
    for hand in side.hands:
        if hand.out and not hand.cards and hand.points in (0, None, "0"):
            parts.append(tr("history.entry_out", language, name=hand.player))
        elif hand.cards is not None:
            parts.append(tr("history.entry_cards", language, name=hand.player, cards=faces_of(hand.cards)))
        else:
            parts.append(tr("history.entry_points", language, name=hand.player, points=hand.points))
    entry = ", ".join(parts)
    scores = _scored(was, game=game, number=number)
    if scores is None:
        return tr("history.was", language, entry=entry)
    scored = ", ".join(f"{player} {points}" for player, points in scores.items())
    return tr("history.was_scores", language, entry=entry, scores=scored)


def _scored(was: Mapping[str, Any], *, game: Game, number: int) -> dict[str, int] | None:
    """What the engine scores ``was`` as deal ``number`` after the deals before it; None where
    it no longer can (a deal the rules refuse now, or a deal number the game lacks)."""
    if not 1 <= number <= len(game.deals):
        return None
    try:
        deal = DealDocument.model_validate(dict(was)).to_deal()
        result = score_game(
            ruleset=game.ruleset,
            players=game.players,
            deals=(*game.deals[: number - 1], deal),
            first_dealer=game.first_dealer,
            start=game.start,
        )
    except (ScorerError, ValidationError):
        return None
    scores = result.deals[number - 1].score.scores
    return {player: scores.get(player, 0) for player in game.players}
