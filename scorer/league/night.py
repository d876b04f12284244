"""A club night: rounds of several tables in one evening, and the night's standings.

A night belongs to a league and the season open when it started; it is kept in the store's
index (:class:`~scorer.league.documents.NightDoc`), each table's game an ordinary game of
the league tagged with the night and the round. This module is pure: it reads night
documents and game summaries and never writes (the store does, :mod:`scorer.league.store`).

**Night standings.** Each finished table game gives placement points by the game's ranking:
by default 3 for 1st, 2 for 2nd, 1 for 3rd and 0 from 4th on (:data:`DEFAULT_POINTS`, set per
night). Tied players share the points of the places they cover (two tied for 1st of three
get (3 + 2) / 2 = 2.5 each, the third 1). The rows are ordered by night points, then by
wins (a 1st place, shared or not), then by points per deal relative to the table (the
player's total minus the table's mean total, over the game's deals, with the sign turned
where the lowest total wins, averaged over the player's games), then by name. The first row
with a game leads the night, and is the night's winner once the night is over (below).
Abandoned, deleted and unfinished games give no points.

**When a night is over** (the one rule; docs/cli.md, "Club night", says it for players): a
night is over once it has seated every round it plans and every table's game has ended
(:func:`is_over`). An open-ended night plans none, so it is never over: its standings say who
leads until the director ends it. Ending a night (:func:`ended_here`) makes the rounds seated
its plan: no round comes after, and it is over once the round being played has ended. Until a
night is over its first row *leads* it; only then is it the night's *winner*.

**Round count, timer, handicap** (docs/rules.md, "Timed rounds" and "Handicap"). A night may
plan its rounds (:attr:`NightDoc.planned <scorer.league.documents.NightDoc.planned>`): past the
last one, :func:`refuse_past_plan`. A round may have a timer: each table's game gets the deadline
:func:`deadline_after` its start, and the store calls the game after the first deal saved then.
A handicapped night starts each table's game with :func:`handicap` points.

>>> place_points({"a": 1, "b": 1, "c": 3}, (3, 2, 1))
{'a': 2.5, 'b': 2.5, 'c': 1.0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from itertools import pairwise

from scorer.league.documents import NightDoc, NightRoundDoc
from scorer.league.errors import StoreError, StoreInputError
from scorer.league.summary import GameSummary
from scorer.league.tiebreaks import DEFAULT_ORDER, Meeting, Standing, order_rows
from scorer.messages import Message
from scorer.names import printable
from scorer.seating import Evenness, opponents

DEFAULT_POINTS: tuple[int, ...] = (3, 2, 1)
"""Placement points of a night: 1st, 2nd, 3rd; every later place 0."""


class RoundUnfinishedError(StoreError):
    """The next round cannot be seated: some table of the last round is still playing."""


class NightOverError(StoreInputError):
    """The next round cannot be seated: the night has had every round it planned."""


@dataclass(frozen=True, slots=True)
class NightTable:
    """One table of a round: its number (1-based), its game, its players (names, by seat)."""

    table: int
    game: str
    players: tuple[str, ...]
    ids: tuple[str, ...]
    start: dict[str, int] = field(default_factory=dict)  # handicap: name -> starting points
    deadline: str | None = None  # the round's deadline (UTC ISO), when it has a timer
    #: Deals of the table's game waiting for a confirmation (unconfirmed or disputed), and how
    #: many of them are disputed (scorer/league/confirm.py).
    unconfirmed: int = 0
    disputed: int = 0


@dataclass(frozen=True, slots=True)
class NightRound:
    """A round: variant, seating method, tables, who sat out, and how good the seating is."""

    number: int
    ruleset: str
    method: str
    seed: int | None
    tables: tuple[NightTable, ...]
    byes: tuple[str, ...]
    evenness: Evenness | None = None
    repeats: int | None = None
    timer: int | None = None  # minutes
    deadline: str | None = None


@dataclass(frozen=True, slots=True)
class Night:
    """A club night with its rounds, oldest first."""

    id: str
    league_id: str
    season_id: str
    created: str
    points: tuple[int, ...]
    rounds: tuple[NightRound, ...]
    planned: int | None = None  # rounds planned; None: open-ended
    handicap: bool = False
    over: bool = False  # every planned round seated and every table ended
    tiebreaks: tuple[str, ...] = DEFAULT_ORDER  # the standings' order (scorer/league/tiebreaks.py)
    flips: tuple[tuple[str, ...], ...] = ()  # the coin flips made: names, in the order the coin put them
    bye_points: int = 0  # night points for sitting out a round
    late_byes: bool = False  # a late arrival gets a bye for each round seated before they came
    confirmation: bool = False  # deals wait for a confirmation at the table (scorer/league/confirm.py)

    @property
    def unconfirmed(self) -> int:
        """Deals of the night's tables waiting for a confirmation (unconfirmed or disputed)."""
        return sum(t.unconfirmed for r in self.rounds for t in r.tables)

    @property
    def disputed(self) -> int:
        """Deals of the night's tables disputed and not yet resolved by the director."""
        return sum(t.disputed for r in self.rounds for t in r.tables)


@dataclass(frozen=True, slots=True)
class NightRow:
    """A player's line in the night's standings (player: the player's id)."""

    player: str
    night_points: float
    games: int
    wins: int
    placements: tuple[int, ...]
    relative: float
    #: The tie-break that put this row above the next (``"tied"``: none did); ``None`` when the
    #: night points did, and for the last row.
    tiebreak: str | None = None
    #: Rounds the player sat out (each worth the night's ``bye_points``, in ``night_points``).
    byes: int = 0
    #: Deals of the player's tables tonight waiting for a confirmation (unconfirmed or
    #: disputed), and how many of them are disputed (scorer/league/confirm.py).
    unconfirmed: int = 0
    disputed: int = 0
    #: Penalty points the director gave the player tonight (already in their games' totals).
    penalties: int = 0
    #: The deals after which the player left a table's game tonight, and after which they took
    #: over a seat (docs/rules.md, "Replacements"), one number per game.
    left_after: tuple[int, ...] = ()
    joined_after: tuple[int, ...] = ()


def parse_points(text: str) -> tuple[int, ...]:
    """``"3,2,1"`` as ``(3, 2, 1)``: whole numbers, never rising from best to worst.

    >>> parse_points("5, 3, 1")
    (5, 3, 1)
    """
    parts = [p.strip() for p in text.split(",")]
    if not parts or not all(p.isdigit() for p in parts):
        raise StoreInputError(Message("night.bad_points", value=repr(text)))
    points = tuple(int(p) for p in parts)
    if any(later > earlier for earlier, later in pairwise(points)):
        raise StoreInputError(Message("night.bad_points", value=repr(text)))
    return points


def parse_bye_points(text: str, points: Sequence[int]) -> int:
    """``--bye-points``: a whole number of night points from 0 to the 1st place's.

    >>> parse_bye_points(" 1 ", (3, 2, 1))
    1
    >>> parse_bye_points("4", (3, 2, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.league.errors.StoreInputError: bye points '4': a bye earns a whole number of night points, ...
    """
    most = max(points, default=0)
    value = text.strip()
    if not value.isdigit() or not 0 <= int(value) <= most:
        raise StoreInputError(Message("night.bad_bye_points", value=repr(text), most=most))
    return int(value)


def place_points(ranking: Mapping[str, int], points: Sequence[int]) -> dict[str, float]:
    """Each player's placement points; tied players share the places they cover."""

    def at(place: int) -> int:
        return points[place - 1] if place <= len(points) else 0

    shared: dict[str, float] = {}
    for player, rank in ranking.items():
        tied = sum(1 for r in ranking.values() if r == rank)
        shared[player] = sum(at(place) for place in range(rank, rank + tied)) / tied
    return shared


def relative_per_deal(summary: GameSummary, player: str) -> float:
    """The player's total minus the table's mean, per deal, better when higher."""
    if not summary.totals or summary.deals == 0:
        return 0.0
    if not summary.seated:  # no seat taken over: the figure as it always was, to the last bit
        mean = sum(summary.totals.values()) / len(summary.totals)
        value = (summary.totals[player] - mean) / summary.deals
        return -value if summary.lowest_wins else value
    # a seat taken over counts once (its holders' points add up to the seat's), and the
    # player's points are over the deals they played there
    seats = len(summary.totals) - len(summary.left)
    mean = sum(summary.totals.values()) / seats / summary.deals
    value = summary.totals[player] / max(1, summary.played(player)) - mean
    return -value if summary.lowest_wins else value


def night_tallies(
    night: NightDoc,
    summaries: Mapping[str, GameSummary | None],
    *,
    names: Mapping[str, str] | None = None,
    penalties: Mapping[str, int] | None = None,
) -> tuple[list[NightRow], list[Standing], list[Meeting]]:
    """Each player's row (unordered), what the tie-breaks compare of them, and the night's
    finished table games (each player's place), as :func:`night_standings` orders them;
    ``penalties``: the penalty points given tonight, by player id."""
    given = penalties or {}
    points: dict[str, float] = {}
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    placements: dict[str, list[int]] = {}
    relative: dict[str, list[float]] = {}
    meetings: list[Meeting] = []
    byes: dict[str, int] = {}
    left: dict[str, tuple[int, ...]] = {}
    joined: dict[str, tuple[int, ...]] = {}
    if night.late_byes:  # came late: a bye for each round seated before (docs/rules.md, "Byes")
        for player, missed in rounds_missed(night, ()).items():
            byes[player] = missed
            points[player] = missed * float(night.bye_points)
    for round_doc in night.rounds:
        for player in round_doc.players:
            points.setdefault(player, 0.0)
        for player in round_doc.byes:  # a bye counts as the round is seated
            byes[player] = byes.get(player, 0) + 1
            points[player] = points.get(player, 0.0) + night.bye_points
        for table in round_doc.tables:
            summary = summaries.get(table.game)
            if summary is None:
                continue
            came = [p for p in summary.players if p not in table.players]
            for player in summary.left:  # the seat's result is its holder's at the end
                left[player] = (*left.get(player, ()), summary.seated[player][1])
                points.setdefault(player, 0.0)
            for player in came:
                points.setdefault(player, 0.0)
                if player not in summary.left:
                    joined[player] = (*joined.get(player, ()), summary.seated[player][0] - 1)
            if not summary.finished:
                continue
            seated = {p: r for p, r in summary.ranking.items() if p not in summary.left}
            shared = place_points(seated, night.points)
            met: dict[str, int] = {}
            for player in (*table.players, *came):
                rank = seated.get(player)
                if rank is None:
                    continue
                met[player] = rank
                points[player] = points.get(player, 0.0) + shared[player]
                games[player] = games.get(player, 0) + 1
                wins[player] = wins.get(player, 0) + (rank == 1)
                placements.setdefault(player, []).append(rank)
                relative.setdefault(player, []).append(relative_per_deal(summary, player))
            meetings.append(met)
    rows = [
        NightRow(
            player=player,
            night_points=value,
            games=games.get(player, 0),
            wins=wins.get(player, 0),
            placements=tuple(placements.get(player, ())),
            relative=sum(relative.get(player, [])) / len(relative[player]) if relative.get(player) else 0.0,
            byes=byes.get(player, 0),
            penalties=given.get(player, 0),
            left_after=left.get(player, ()),
            joined_after=joined.get(player, ()),
        )
        for player, value in points.items()
    ]
    named = names or {}
    standings = [
        Standing(
            player=r.player,
            name=named.get(r.player, ""),
            points=r.night_points,
            wins=r.wins,
            deal_points=r.relative,
            penalties=r.penalties,
        )
        for r in rows
    ]
    return rows, standings, meetings


def rounds_missed(night: NightDoc, present: Iterable[str]) -> dict[str, int]:
    """The rounds seated before each player came (by id; ``present``: those being seated now,
    a newcomer having missed every round so far). With the night's ``late_byes`` each is a bye.

    >>> from scorer.league.documents import NightDoc
    >>> rounds_missed(NightDoc(id="n", created="", changed="", league="l", season="s", points=[3],
    ...                        rounds=[]), ["a"])
    {}
    """
    first: dict[str, int] = {}
    for number, round_doc in enumerate(night.rounds):
        for player in round_doc.players:
            first.setdefault(player, number)
    for player in present:
        first.setdefault(player, len(night.rounds))
    return {p: n for p, n in first.items() if n}


def night_standings(
    night: NightDoc,
    summaries: Mapping[str, GameSummary | None],
    *,
    names: Mapping[str, str] | None = None,
    penalties: Mapping[str, int] | None = None,
) -> list[NightRow]:
    """The night's rows, best first, in the night's tie-break order; ``summaries``: each
    counted game's summary by game id (``None`` or absent: the game gives no points);
    ``names`` (by id) order the players still tied; ``penalties``: the penalty points given
    tonight by player id (the ``penalties`` tie-break)."""
    rows, standings, meetings = night_tallies(night, summaries, names=names, penalties=penalties)
    by_player = {r.player: r for r in rows}
    ordered = order_rows(standings, order=night.tiebreaks, meetings=meetings, flips=night.flips)
    first = night.tiebreaks[0] if night.tiebreaks else None
    return [replace(by_player[s.player], tiebreak=why if why != first else None) for s, why in ordered]


def unfinished_tables(night: NightDoc, ended: Mapping[str, bool]) -> list[int]:
    """The tables of the night's last round whose game has not ended (``ended`` by game id)."""
    last = night.rounds[-1]
    return [t.table for t in last.tables if not ended.get(t.game, False)]


def refuse_unfinished(night: NightDoc, ended: Mapping[str, bool]) -> None:
    """:class:`RoundUnfinishedError` naming the tables still playing, if any."""
    waiting = unfinished_tables(night, ended)
    if waiting:
        raise RoundUnfinishedError(
            Message(
                "night.unfinished",
                round=night.rounds[-1].number,
                tables=", ".join(str(t) for t in waiting),
            )
        )


def met_tonight(night: NightDoc) -> dict[str, set[str]]:
    """Each player's opponents in the night's rounds so far (player ids)."""
    return opponents([[t.players for t in r.tables] for r in night.rounds])


def refuse_past_plan(night: NightDoc) -> None:
    """:class:`NightOverError` when the night has seated every round it planned."""
    if night.planned is not None and len(night.rounds) >= night.planned:
        raise NightOverError(Message("night.all_rounds", rounds=night.planned))


def is_over(night: NightDoc, ended: Mapping[str, bool]) -> bool:
    """Whether the night is over: every round it plans seated (an open-ended night plans none,
    and is not over until the director ends it) and every table's game ended."""
    if night.planned is None or len(night.rounds) < night.planned:
        return False
    return all(ended.get(t.game, False) for r in night.rounds for t in r.tables)


class NightEndedError(StoreInputError):
    """The night cannot be ended: it already ends with the round last seated."""


def ended_here(night: NightDoc) -> NightDoc:
    """The night as the director ends it: the rounds seated become its plan, so no round
    comes after and it is over once the round being played has ended (:func:`is_over`);
    :class:`NightEndedError` when it already ends there (its plan is all seated).

    The store stamps the change and writes it (``Store.end_night``).
    """
    if night.planned is not None and len(night.rounds) >= night.planned:
        raise NightEndedError(Message("night.ends_already", rounds=len(night.rounds)))
    return night.model_copy(update={"planned": len(night.rounds)})


def parse_rounds(text: str) -> int:
    """``--rounds N``: the rounds a night plans, a whole number 1 or more.

    >>> parse_rounds("4")
    4
    """
    value = text.strip()
    if not value.isdigit() or int(value) < 1:
        raise StoreInputError(Message("night.bad_rounds", value=repr(text)))
    return int(value)


def parse_minutes(text: str) -> int:
    """A round timer's minutes as typed on the director's screen: 1 to :data:`MAX_TIMER`.

    >>> parse_minutes(" 30 ")
    30
    """
    value = text.strip()
    if not value.isdigit() or not 1 <= int(value) <= MAX_TIMER:
        raise StoreInputError(Message("night.bad_timer", value=repr(text), most=MAX_TIMER))
    return int(value)


def parse_timer(text: str) -> int | None:
    """``--timer MINUTES``: minutes per round, 1 to :data:`MAX_TIMER`; ``none`` (or ``off``):
    no timer.

    >>> parse_timer("45"), parse_timer("none")
    (45, None)
    """
    if text.strip().lower() in ("none", "off"):
        return None
    try:
        return parse_minutes(text)
    except StoreInputError:
        raise StoreInputError(Message("night.bad_timer_flag", value=repr(text), most=MAX_TIMER)) from None


MAX_TIMER = 600
"""The longest round timer, in minutes (ten hours: longer than any club night)."""


class Keep:
    """The type of :data:`KEEP`: a setting left as the night's last round had it."""


KEEP = Keep()
"""Leave the setting as the night's last round had it (``Store.next_round``'s ``timer``)."""


def deadline_after(started: str, minutes: int) -> str:
    """The moment ``minutes`` after ``started`` (both UTC ISO, as the store stamps them).

    >>> deadline_after("2026-12-01T19:00:00.000000+00:00", 45)
    '2026-12-01T19:45:00.000000+00:00'
    """
    moment = datetime.fromisoformat(started) + timedelta(minutes=minutes)
    return moment.isoformat(timespec="microseconds")


def handicap(
    strengths: Mapping[str, float], *, per_mu: int, lowest_wins: bool, target: int | None
) -> dict[str, int]:
    """Each player's starting points at a handicapped table (docs/rules.md, "Handicap").

    ``strengths``: each player's rating mean (mu) for the variant. Where the highest total
    wins, a player starts with ``per_mu`` points for each point of mu below the table's
    strongest; where the lowest wins, with ``per_mu`` penalty points for each point above
    the table's weakest. So the player the gap is measured from starts at 0 and nobody
    starts below it. Points are rounded half up and never reach half the target.

    >>> handicap({"Anna": 30.0, "Bea": 25.8}, per_mu=5, lowest_wins=False, target=100)
    {'Anna': 0, 'Bea': 21}
    >>> handicap({"Anna": 30.0, "Bea": 25.8, "Cid": 18.0}, per_mu=25, lowest_wins=True, target=500)
    {'Anna': 249, 'Bea': 195, 'Cid': 0}
    """
    if not strengths:
        return {}
    if lowest_wins:
        weakest = min(strengths.values())
        gaps = {p: mu - weakest for p, mu in strengths.items()}
    else:
        strongest = max(strengths.values())
        gaps = {p: strongest - mu for p, mu in strengths.items()}
    cap = (target - 1) // 2 if target is not None else None
    points = {p: int(per_mu * gap + 0.5) for p, gap in gaps.items()}
    return {p: min(v, cap) if cap is not None else v for p, v in points.items()}


def start_text(players: Sequence[str], start: Mapping[str, int]) -> str:
    """A table's starting points in seat order, as a scoreboard shows them.

    >>> start_text(["Anna", "Ben"], {"Anna": 12})
    'Anna +12, Ben 0'
    """
    return ", ".join(
        f"{printable(p)} {start[p]:+d}" if start.get(p) else f"{printable(p)} 0" for p in players
    )


def _evenness(doc: NightRoundDoc) -> Evenness | None:
    """A balanced round's evenness as its seating reported it and the round keeps it."""
    if doc.spread is None or doc.spread_bound is None:
        return None
    return Evenness(spread=doc.spread, best=doc.best_spread, bound=doc.spread_bound)


def night_value(
    doc: NightDoc,
    names: Mapping[str, str],
    *,
    ended: Mapping[str, bool] | None = None,
    checks: Mapping[str, tuple[int, int]] | None = None,
) -> Night:
    """The night as the store returns it (player names from ``names``), each round with the
    evenness its seating reported; ``ended``: whether each table's game has ended (by game
    id), for :attr:`Night.over`; ``checks``: each table game's deals waiting for a
    confirmation and those of them disputed (by game id)."""
    waiting = checks or {}
    rounds = tuple(
        NightRound(
            number=r.number,
            ruleset=r.ruleset,
            method=r.method,
            seed=r.seed,
            tables=tuple(
                NightTable(
                    table=t.table,
                    game=t.game,
                    players=tuple(names.get(p, p) for p in t.players),
                    ids=tuple(t.players),
                    start={names.get(p, p): v for p, v in t.start.items()},
                    deadline=r.deadline,
                    unconfirmed=waiting.get(t.game, (0, 0))[0],
                    disputed=waiting.get(t.game, (0, 0))[1],
                )
                for t in r.tables
            ),
            byes=tuple(names.get(p, p) for p in r.byes),
            evenness=_evenness(r),
            repeats=r.repeats,
            timer=r.timer,
            deadline=r.deadline,
        )
        for r in doc.rounds
    )
    return Night(
        id=doc.id,
        league_id=doc.league,
        season_id=doc.season,
        created=doc.created,
        points=tuple(doc.points),
        rounds=rounds,
        planned=doc.planned,
        handicap=doc.handicap,
        over=is_over(doc, ended or {}),
        tiebreaks=tuple(doc.tiebreaks),
        flips=tuple(tuple(names.get(p, p) for p in flip) for flip in doc.flips),
        bye_points=doc.bye_points,
        late_byes=doc.late_byes,
        confirmation=doc.confirmation,
    )
