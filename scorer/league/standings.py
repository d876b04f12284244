"""Standings, player statistics and head-to-head records, from game summaries.

Pure functions over :class:`PlayedGame` values (a summary with its id, season and start
time); the store feeds them its cached summaries. Only finished games count: an
unfinished game adds nothing to any figure.

A standing row counts, for one player:

- ``games``: finished games the player was in; ``wins``: those whose winner is the player
  (a tie for first has no winner);
- ``deals`` and ``deals_won``: deals played in those games, and those where the player is
  among the deal's winners;
- a seat taken over mid-game (docs/rules.md, "Replacements"): the player who left is credited
  the deals they played (their deals, deals won, points, best deal, events), never the game;
  the replacement the seat's later deals and the seat's game, place and win;
- ``points``: the sum of the player's final totals (bonuses included);
- ``win_rate`` = wins / games, ``average_per_deal`` = points / deals;
- ``events``: the variant's events (see :mod:`scorer.league.summary`), ``best_deal``: the
  best single-deal score, ``longest_streak``: the most games won in a row, in the order played;
- ``lowest_wins``: the ruleset's winner rule, the direction of "better" points: fewer are
  better in rommi and Kalooki (penalty points), more in gin and Carousel;
- ``rating``: the openskill ordinal for the ruleset ``rated_in``: the ruleset shown, or, with
  no ruleset filter, the ruleset the player played most (ties: the ruleset id first in
  alphabetical order). Ratings are computed over the games shown, so a season's standings
  rate that season only and stay as they were once the season is closed. Each ruleset is
  rated on its own, so one :func:`~scorer.league.ratings.rate` of a season's (or a league's)
  finished games serves every table of it, whatever its ruleset filter: pass it as
  ``ratings`` to rate only once.

Points belong to a variant. A variant's penalty points (lower is better) and another's reward
points (higher is better) are never added together, nor are two variants' scales: when the
games shown are of more than one ruleset, ``points``, ``average_per_deal``, ``best_deal`` and
``lowest_wins`` are None, and the rows compare only what every variant shares (games, wins,
win rate, deals won, events); :func:`standings_by_ruleset` gives each variant's own table,
with its points ranked in its own direction.

Rows come best first: most wins, then best win rate, then, for one ruleset, best points
(fewer when the lowest total wins, more otherwise), for several rulesets most deals won;
then player key. ``best_deal`` follows the ruleset's direction too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from scorer.errors import ScorerError
from scorer.league.ratings import Rating, Ratings, played_order, rate
from scorer.league.summary import GameSummary
from scorer.league.summary import PlayedGame as PlayedGame  # its home is summary; named here too
from scorer.messages import Message


class StandingsError(ScorerError, ValueError):
    """A statistics question that has no answer, such as a player against themselves."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings (see the module docstring for each figure)."""

    player: str
    games: int
    wins: int
    deals: int
    deals_won: int
    points: int | None  # None: the games shown are of several rulesets (points are not added)
    win_rate: float
    average_per_deal: float | None
    rating: float | None
    provisional: bool
    events: dict[str, int]
    best_deal: int | None
    longest_streak: int
    lowest_wins: bool | None  # fewer points are better; None: several rulesets, no points
    rated_in: str  # the ruleset of ``rating``

    @property
    def across_variants(self) -> bool:
        """Whether the row counts games of several rulesets (then it has no points)."""
        return self.lowest_wins is None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures over all the games given, and per ruleset with its rating history."""

    player: str
    overall: StandingRow | None  # None: the player has no finished game here
    by_ruleset: dict[str, StandingRow] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Record:
    """Two players' finished games together: who won, who finished ahead of the other."""

    games: int
    wins: dict[str, int]  # games won outright, by player key
    ahead: dict[str, int]  # games where the player ranked better than the other
    ties: int  # games where the two shared a rank


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' record, overall and per ruleset id."""

    a: str
    b: str
    overall: Record
    by_ruleset: dict[str, Record]


def _select(games: Iterable[PlayedGame], *, ruleset: str | None, season: str | None) -> list[PlayedGame]:
    return [
        g
        for g in games
        if (ruleset is None or g.summary.ruleset == ruleset) and (season is None or g.season == season)
    ]


class _Tally:
    """A player's running figures while the games are read in the order played.

    ``lowest_wins`` is the direction of the rulesets' points, None when the games are of
    several rulesets: their points are then never added up.
    """

    def __init__(self, *, lowest_wins: bool | None) -> None:
        self.lowest_wins = lowest_wins
        self.games = self.wins = self.deals = self.deals_won = self.points = 0
        self.streak = self.longest_streak = 0
        self.events: Counter[str] = Counter()
        self.best_deal: int | None = None
        self.rulesets: Counter[str] = Counter()

    def add(self, player: str, summary: GameSummary) -> None:
        # Called for every seat of every game of every table: plain statements, no helpers.
        self.rulesets[summary.ruleset] += 1
        if summary.seated and player in summary.seated:  # a seat taken over (docs/rules.md, "Replacements")
            first, last = summary.seated[player]
            self.deals += max(0, last - first + 1)
        else:
            self.deals += summary.deals
        if summary.left and player in summary.left:  # their deals count, never the seat's result
            pass
        elif summary.winner == player:
            self.games += 1
            self.wins += 1
            self.streak += 1
            if self.streak > self.longest_streak:
                self.longest_streak = self.streak
        else:
            self.games += 1
            self.streak = 0
        self.deals_won += summary.deals_won.get(player, 0)
        events = summary.events.get(player)
        if events:
            for event, count in events.items():
                self.events[event] += count
        if self.lowest_wins is None:
            return
        self.points += summary.totals[player]
        best = summary.best_deal.get(player)
        if best is not None and (self.best_deal is None or self._better(best, self.best_deal)):
            self.best_deal = best

    def _better(self, value: int, than: int) -> bool:
        return value < than if self.lowest_wins else value > than

    def row(self, player: str, *, rating: Rating | None, rated_in: str) -> StandingRow:
        comparable = self.lowest_wins is not None
        return StandingRow(
            player=player,
            games=self.games,
            wins=self.wins,
            deals=self.deals,
            deals_won=self.deals_won,
            points=self.points if comparable else None,
            win_rate=self.wins / self.games if self.games else 0.0,
            average_per_deal=(self.points / self.deals if self.deals else 0.0) if comparable else None,
            rating=None if rating is None else rating.ordinal,
            provisional=True if rating is None else rating.provisional,
            events=dict(sorted(self.events.items())),
            best_deal=self.best_deal,
            longest_streak=self.longest_streak,
            lowest_wins=self.lowest_wins,
            rated_in=rated_in,
        )

    def main_ruleset(self) -> str:
        """The ruleset played most (ties: the first id alphabetically)."""
        return min(self.rulesets, key=lambda r: (-self.rulesets[r], r))


def standings(
    games: Iterable[PlayedGame],
    *,
    ruleset: str | None = None,
    season: str | None = None,
    ratings: Ratings | None = None,
) -> list[StandingRow]:
    """The standings of the finished games among ``games`` (optionally one ruleset, one season).

    ``ratings``, when given, must be ``rate`` of the games of the season shown (of every game
    given when no season is chosen); the ruleset filter does not matter, as each ruleset is
    rated on its own.
    """
    shown = [g for g in _select(games, ruleset=ruleset, season=season) if g.summary.finished]
    return _rows(shown, ruleset=ruleset, ratings=rate(shown) if ratings is None else ratings)


def standings_by_ruleset(
    games: Iterable[PlayedGame], *, season: str | None = None, ratings: Ratings | None = None
) -> dict[str, list[StandingRow]]:
    """Each ruleset's own standings among ``games`` (optionally one season), by ruleset id.

    Every table ranks its points in its ruleset's own direction. ``ratings`` as for
    :func:`standings`.
    """
    shown = [g for g in _select(games, ruleset=None, season=season) if g.summary.finished]
    if ratings is None:
        ratings = rate(shown)
    rulesets = sorted({g.summary.ruleset for g in shown})
    return {
        r: _rows([g for g in shown if g.summary.ruleset == r], ruleset=r, ratings=ratings) for r in rulesets
    }


def _direction(games: Iterable[PlayedGame]) -> bool | None:
    """Whether fewer points are better in ``games`` (``lowest_wins``), if their points add up.

    None when the games are of several rulesets (or their summaries disagree on the
    direction): penalty points and reward points, or two variants' scales, are not added.
    Also None for no game at all.
    """
    rulesets = {(g.summary.ruleset, g.summary.lowest_wins) for g in games}
    if len(rulesets) != 1:
        return None
    [(_, lowest_wins)] = rulesets
    return lowest_wins


def _rows(shown: list[PlayedGame], *, ruleset: str | None, ratings: Ratings) -> list[StandingRow]:
    """Standing rows of finished games; ``ratings`` must cover them (a rating is per ruleset)."""
    lowest_wins = _direction(shown)
    tallies: dict[str, _Tally] = {}
    for game in played_order(shown):
        for player in game.summary.players:
            if player not in tallies:
                tallies[player] = _Tally(lowest_wins=lowest_wins)
            tallies[player].add(player, game.summary)
    return _ranked(tallies, ruleset=ruleset, ratings=ratings, lowest_wins=lowest_wins)


def _ranked(
    tallies: dict[str, _Tally], *, ruleset: str | None, ratings: Ratings, lowest_wins: bool | None
) -> list[StandingRow]:
    """The rows of ``tallies``, best first (see the module docstring for the order)."""
    rows = []
    for player, tally in tallies.items():
        rated_in = ruleset or tally.main_ruleset()
        rows.append(tally.row(player, rating=ratings.get(player, rated_in), rated_in=rated_in))
    if lowest_wins is None:  # several rulesets: what they share decides, never their points
        return sorted(rows, key=lambda r: (-r.wins, -r.win_rate, -r.deals_won, r.player))
    sign = 1 if lowest_wins else -1
    return sorted(rows, key=lambda r: (-r.wins, -r.win_rate, sign * (r.points or 0), r.player))


@dataclass(frozen=True, slots=True)
class ResultTotals:
    """One player's figures over the finished games of one ruleset, as a database adds them up
    (scorer/league/pg.py's ``rummy_results``): what :func:`standings_of_totals` ranks."""

    player: str
    ruleset: str
    lowest_wins: bool
    games: int
    wins: int
    deals: int
    deals_won: int
    points: int
    lowest_deal: int | None  # the player's best deal when fewer points are better
    highest_deal: int | None  # ... and when more are
    events: dict[str, int]


def standings_of_totals(
    totals: Iterable[ResultTotals], *, streaks: dict[str, int], ruleset: str | None, ratings: Ratings
) -> list[StandingRow]:
    """The rows :func:`standings` gives for the games whose per-ruleset totals are ``totals``
    (one ruleset's only, when ``ruleset`` is given), each player's longest run of wins in the
    order played ``streaks``, and ``ratings`` of those games."""
    totals = list(totals)
    directions = {(t.ruleset, t.lowest_wins) for t in totals}
    lowest_wins = next(iter(directions))[1] if len(directions) == 1 else None
    tallies: dict[str, _Tally] = {}
    for t in totals:
        tally = tallies.get(t.player)
        if tally is None:
            tally = tallies[t.player] = _Tally(lowest_wins=lowest_wins)
            tally.longest_streak = streaks.get(t.player, 0)
        tally.games += t.games
        tally.wins += t.wins
        tally.deals += t.deals
        tally.deals_won += t.deals_won
        tally.rulesets[t.ruleset] += t.games
        tally.events.update(t.events)
        if lowest_wins is not None:  # one ruleset: one row per player
            tally.points += t.points
            tally.best_deal = t.lowest_deal if lowest_wins else t.highest_deal
    return _ranked(tallies, ruleset=ruleset, ratings=ratings, lowest_wins=lowest_wins)


def player_stats(games: Iterable[PlayedGame], player: str, *, ratings: Ratings | None = None) -> PlayerStats:
    """One player's figures over ``games``, overall and per ruleset, with rating histories.

    ``ratings``, when given, is ``rate(games)`` computed earlier (see :func:`standings`).
    """
    finished = [g for g in games if g.summary.finished]
    if ratings is None:
        ratings = rate(finished)  # each ruleset rated on its own: one pass serves every table
    mine = [g for g in finished if player in g.summary.players]
    overall = _row_of(player, _rows(finished, ruleset=None, ratings=ratings))
    by_ruleset: dict[str, StandingRow] = {}
    for ruleset in sorted({g.summary.ruleset for g in mine}):
        shown = [g for g in finished if g.summary.ruleset == ruleset]
        row = _row_of(player, _rows(shown, ruleset=ruleset, ratings=ratings))
        if row is not None:
            by_ruleset[ruleset] = row
    return PlayerStats(
        player=player, overall=overall, by_ruleset=by_ruleset, ratings=ratings.of_player(player)
    )


def _row_of(player: str, rows: list[StandingRow]) -> StandingRow | None:
    return next((r for r in rows if r.player == player), None)


def head_to_head(games: Iterable[PlayedGame], a: str, b: str) -> HeadToHead:
    """The finished games ``a`` and ``b`` played together: wins and who finished ahead."""
    if a == b:
        raise StandingsError(Message("store.head_to_head_self", player=a))
    together = [
        g
        for g in games
        if g.summary.finished
        and a in g.summary.players
        and b in g.summary.players
        and a not in g.summary.left
        and b not in g.summary.left
    ]
    rulesets = sorted({g.summary.ruleset for g in together})
    by_ruleset = {r: _record([g.summary for g in together if g.summary.ruleset == r], a, b) for r in rulesets}
    return HeadToHead(a=a, b=b, overall=_record([g.summary for g in together], a, b), by_ruleset=by_ruleset)


def _record(summaries: list[GameSummary], a: str, b: str) -> Record:
    wins = {a: 0, b: 0}
    ahead = {a: 0, b: 0}
    ties = 0
    for summary in summaries:
        if summary.winner in wins:
            wins[summary.winner] += 1
        rank_a, rank_b = summary.ranking[a], summary.ranking[b]
        if rank_a == rank_b:
            ties += 1
        else:
            ahead[a if rank_a < rank_b else b] += 1
    return Record(games=len(summaries), wins=wins, ahead=ahead, ties=ties)
