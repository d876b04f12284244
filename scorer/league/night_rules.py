"""What every club night's document holds to, whether the store seats it or a file brings it.

One set of rules, :func:`check_night`: the store runs it on a night before it writes it
(:meth:`Store.start_night <scorer.league.store.Store.start_night>` and ``next_round``), and the
import reader (:mod:`scorer.league.exchange`) on every night of a league export, so that a file
can bring no night the store would not have seated. A broken rule is a
:class:`NightRuleError` whose message names the round (and table) and the rule.

The rules, in the order they are asked:

- the night: its id a UUID (as the store makes them; never a path), its times ISO 8601, its
  placement points 1 to :data:`MAX_PLACES` whole numbers from 0 to :data:`MAX_PLACE_POINTS`
  never rising from 1st place down, its plan none or 1 to :data:`MAX_ROUNDS` rounds;
- its rounds: at least one, no more than it plans, numbered 1, 2, 3, ... in order;
- each round: a seating method that exists, a ruleset that exists (``rules``), a seed within
  :data:`MAX_SEED`, a timer of none or 1 to :data:`~scorer.league.night.MAX_TIMER` minutes with
  its deadline the round's start plus the timer, each player present named once;
- each round's tables: at least one, numbered 1, 2, 3, ... in order, each seating as many
  players as the ruleset allows at a table, every player present at one table or sitting out
  (never both, never two tables, never someone not present), each table's game at no other
  table of the night, each fixed player at the table fixed, handicap starting points only on
  a handicapped night, for the table's players, 1 to :data:`MAX_START` each;
- what the seating reported: spreads none or a number from 0 up, repeats none or 0 up to the
  players present;
- its tie-breaks (:mod:`scorer.league.tiebreaks`): an order the director could choose, and
  coin flips only when the order has the coin, each ordering two or more of the night's
  players, each once.

>>> MAX_ROUNDS, MAX_PLACES, MAX_PLACE_POINTS
(100, 20, 1000)
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from datetime import datetime
from itertools import pairwise

from scorer.errors import ScorerError
from scorer.league.documents import NightDoc, NightRoundDoc
from scorer.league.errors import StoreInputError
from scorer.league.night import MAX_TIMER, deadline_after
from scorer.league.tiebreaks import CRITERIA, TiebreakError, check_order
from scorer.messages import Message, Param
from scorer.ruleset import Ruleset
from scorer.seating import METHODS

#: The most rounds a night may plan or hold (a club night plays a handful).
MAX_ROUNDS = 100
#: The most places a night's placement points may name.
MAX_PLACES = 20
#: The most points one place may give.
MAX_PLACE_POINTS = 1000
#: The largest seed (either sign): a 64-bit whole number.
MAX_SEED = 2**63 - 1
#: The most handicap points a player may start with.
MAX_START = 1_000_000

RulesOf = Callable[[NightRoundDoc], Ruleset | None]
"""A round's ruleset with its house rules; ``None``: the round's tables were checked against it
when it was seated (the store, checking the night it is about to write, knows only the new
round's). Raises :class:`~scorer.errors.ScorerError` when the round's ruleset does not exist."""


class NightRuleError(StoreInputError):
    """A night's document breaks a rule every night keeps (the message names which)."""


def check_night(night: NightDoc, *, rules: RulesOf) -> None:
    """Raise :class:`NightRuleError` naming the first rule ``night`` breaks, else nothing."""
    _check_header(night)
    games: dict[str, tuple[int, int]] = {}  # game -> (round, table) where it is
    for place, round_doc in enumerate(night.rounds, start=1):
        try:
            _check_round(night, round_doc, place=place, rules=rules, games=games)
        except _Broken as broken:
            raise NightRuleError(
                Message("night_rule.in_round", round=round_doc.number, rule=broken.rule)
            ) from None
    _check_tiebreaks(night)


class _Broken(Exception):
    """A round's rule broken; :func:`check_night` names the round."""

    def __init__(self, code: str, **params: Param) -> None:
        super().__init__(code)
        self.rule = Message(f"night_rule.{code}", **params)


def _refuse(code: str, **params: Param) -> NightRuleError:
    return NightRuleError(Message(f"night_rule.{code}", **params))


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _stamp(value: str) -> bool:
    try:
        return datetime.fromisoformat(value).tzinfo is not None
    except (TypeError, ValueError):
        return False


def _check_header(night: NightDoc) -> None:
    try:
        canonical = str(uuid.UUID(night.id))
    except (TypeError, ValueError):
        canonical = ""
    if canonical != night.id:
        raise _refuse("id", id=repr(night.id))
    for name in ("created", "changed"):
        if not _stamp(getattr(night, name)):
            raise _refuse("stamp", field=name, value=repr(getattr(night, name)))
    points = night.points
    if (
        not 1 <= len(points) <= MAX_PLACES
        or not all(_whole(p, 0, MAX_PLACE_POINTS) for p in points)
        or any(later > earlier for earlier, later in pairwise(points))
    ):
        shown = ",".join(str(p) for p in points[: MAX_PLACES + 1])
        raise _refuse("points", points=repr(shown), most=MAX_PLACES, top=MAX_PLACE_POINTS)
    if night.planned is not None and not _whole(night.planned, 1, MAX_ROUNDS):
        raise _refuse("planned", planned=night.planned, most=MAX_ROUNDS)
    if not night.rounds:
        raise _refuse("no_rounds")
    most = night.planned if night.planned is not None else MAX_ROUNDS
    if len(night.rounds) > most:
        raise _refuse("past_plan", rounds=len(night.rounds), most=most)


def _check_tiebreaks(night: NightDoc) -> None:
    order = ",".join(night.tiebreaks[: len(CRITERIA) + 1])
    try:
        check_order(night.tiebreaks)
    except TiebreakError as exc:
        raise _refuse("tiebreaks", order=repr(order), why=exc.message) from None
    if night.flips and "coin" not in night.tiebreaks:
        raise _refuse("flip_no_coin", order=repr(order))
    players = {p for r in night.rounds for p in r.players}
    for number, flip in enumerate(night.flips, start=1):
        if len(flip) < 2 or len(set(flip)) != len(flip) or not set(flip) <= players:
            shown = ", ".join(flip[:MAX_SHOWN]) + (", ..." if len(flip) > MAX_SHOWN else "")
            raise _refuse("flip", number=number, players=repr(shown))


#: The most players of a broken coin flip its message names.
MAX_SHOWN = 8


def _check_round(
    night: NightDoc,
    round_doc: NightRoundDoc,
    *,
    place: int,
    rules: RulesOf,
    games: dict[str, tuple[int, int]],
) -> None:
    if round_doc.number != place:
        raise _Broken("order", place=place)
    if round_doc.method not in METHODS:
        raise _Broken("method", method=repr(round_doc.method))
    try:
        ruleset = rules(round_doc)
    except ScorerError as exc:
        raise _Broken("ruleset", ruleset=repr(round_doc.ruleset), why=exc.message) from None
    if round_doc.seed is not None and not _whole(round_doc.seed, -MAX_SEED - 1, MAX_SEED):
        raise _Broken("seed", seed=round_doc.seed)
    if not _stamp(round_doc.started):
        raise _Broken("stamp", field="started", value=repr(round_doc.started))
    if round_doc.timer is not None and not _whole(round_doc.timer, 1, MAX_TIMER):
        raise _Broken("timer", minutes=round_doc.timer, most=MAX_TIMER)
    expected = deadline_after(round_doc.started, round_doc.timer) if round_doc.timer is not None else None
    if round_doc.deadline != expected:
        raise _Broken("deadline", deadline=repr(round_doc.deadline), expected=repr(expected))
    present = round_doc.players
    twice = next((p for n, p in enumerate(present) if p in present[:n]), None)
    if twice is not None:
        raise _Broken("player_twice", player=repr(twice))
    _check_tables(night, round_doc, ruleset=ruleset, games=games)
    for name in ("spread", "best_spread", "spread_bound"):
        value = getattr(round_doc, name)
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise _Broken("spread", field=name, value=value)
    if round_doc.repeats is not None and not _whole(round_doc.repeats, 0, len(present)):
        raise _Broken("repeats", repeats=round_doc.repeats, most=len(present))


def _check_tables(
    night: NightDoc, round_doc: NightRoundDoc, *, ruleset: Ruleset | None, games: dict[str, tuple[int, int]]
) -> None:
    if not round_doc.tables:
        raise _Broken("no_tables")
    present = set(round_doc.players)
    seat_of: dict[str, int] = {}
    for place, table in enumerate(round_doc.tables, start=1):
        if table.table != place:
            raise _Broken("table_order", place=place)
        if ruleset is not None and not ruleset.players_min <= len(table.players) <= ruleset.players_max:
            raise _Broken(
                "table_size",
                table=place,
                count=len(table.players),
                least=ruleset.players_min,
                most=ruleset.players_max,
            )
        for player in table.players:
            if player in seat_of:
                raise _Broken("two_tables", player=repr(player), first=seat_of[player], second=place)
            if player not in present:
                raise _Broken("not_present", player=repr(player), table=place)
            seat_of[player] = place
        if table.game in games:
            at_round, at_table = games[table.game]
            raise _Broken("game_twice", table=place, game=repr(table.game), round=at_round, other=at_table)
        games[table.game] = (round_doc.number, place)
        if table.start and not night.handicap:
            raise _Broken("start_no_handicap", table=place)
        for player, points in table.start.items():
            if player not in table.players or not _whole(points, 1, MAX_START):
                raise _Broken("start", table=place, player=repr(player), most=MAX_START)
    for player in round_doc.byes:
        if seat_of.get(player):
            raise _Broken("bye_seated", player=repr(player), table=seat_of[player])
        if player in seat_of:
            raise _Broken("player_twice", player=repr(player))
        if player not in present:
            raise _Broken("not_present_bye", player=repr(player))
        seat_of[player] = 0
    unseated = next((p for p in round_doc.players if p not in seat_of), None)
    if unseated is not None:
        raise _Broken("unseated", player=repr(unseated))
    for player, fixed_at in round_doc.fixed.items():
        if seat_of.get(player) != fixed_at:
            raise _Broken("fixed", player=repr(player), table=fixed_at)
