"""Each player's kept totals on PostgreSQL (``rummy_totals``): added to, or counted again.

A commit that changes ``rummy_results`` keeps its players' ``rummy_totals`` rows true in its own
transaction, one of two ways per (league, player):

- **added to** (:func:`added`): every result the commit gives the player is new (no result of
  theirs changed or removed) and comes after each of their results already in the scope's row
  in the order played (start time, then game id, compared as Python compares text: the
  ``COLLATE "C"`` of the tables). The usual case: a game finished at the end of the order
  played. The new results are folded into the rows read, in the order played (sums, counts,
  events key by key, lowest and highest deal, the current run of wins and the longest), without
  reading the player's other results;
- **counted again** (:data:`KEEP_TOTALS`): a result changed or removed, or one placed earlier
  in the order played than a result already counted: the player's rows worked out afresh from
  all their results.

The two give the same rows (tests/test_league_pg_totals.py checks it with hypothesis). A scope
is a season's or every season's (``all_seasons``, season ``''``), of one ruleset and direction
or of every ruleset (``all_rulesets``, ruleset ``''``; ``lowest_wins`` then whether every game
counted fewer points better). The run of wins of a scope is of its ruleset in both directions:
``longest_run``, ``current_run`` (the wins since the last game not won) and the last result
counted (``last_played``, ``last_game``) are the same in a ruleset's two directions' rows. A
player who left their seat mid-game (``won`` NULL) has their deals counted, never the game, a
win or a run (docs/rules.md, "Replacements").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

#: ``rummy_totals``' rows of the (league, player) pairs that ``{where}`` picks of
#: ``rummy_results``, worked out from their results: each result counted in four scopes (its
#: season's or every season's, its ruleset's or every ruleset's; a game of no season only in
#: every season's), summed per scope, the events summed key by key, and the runs of wins: a
#: player's won games with as many games not won before them in the order played; the current
#: run is the one after the last game not won.
KEEP_TOTALS: Final = """
    INSERT INTO rummy_totals (league, player, all_seasons, season, all_rulesets, ruleset,
        lowest_wins, games, wins, deals, deals_won, points, lowest_deal, highest_deal, events,
        longest_run, current_run, last_played, last_game)
    WITH scoped AS (
        SELECT r.league, r.player, s.all_seasons,
            CASE WHEN s.all_seasons THEN '' ELSE r.season END AS season, s.all_rulesets,
            CASE WHEN s.all_rulesets THEN '' ELSE r.ruleset END AS ruleset,
            CASE WHEN s.all_rulesets THEN NULL ELSE r.lowest_wins END AS direction,
            r.lowest_wins, r.played, r.game, r.won, r.deals, r.deals_won, r.points,
            r.best_deal, r.events
        FROM rummy_results r CROSS JOIN (VALUES (false, false), (false, true), (true, false),
            (true, true)) AS s (all_seasons, all_rulesets)
        WHERE ({where}) AND (s.all_seasons OR r.season IS NOT NULL)),
    ordered AS (
        SELECT league, player, all_seasons, season, all_rulesets, ruleset, won,
            count(*) FILTER (WHERE NOT won) OVER w AS lost,
            count(*) FILTER (WHERE NOT won) OVER whole AS lost_all,
            last_value(played) OVER whole AS last_played, last_value(game) OVER whole AS last_game
        FROM scoped
        WINDOW w AS (PARTITION BY league, player, all_seasons, season, all_rulesets, ruleset
            ORDER BY played, game),
            whole AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)),
    runs AS (
        SELECT league, player, all_seasons, season, all_rulesets, ruleset,
            max(last_played) AS last_played, max(last_game) AS last_game,
            coalesce(max(run) FILTER (WHERE won), 0) AS longest,
            coalesce(max(run) FILTER (WHERE won AND lost = lost_all), 0) AS current
        FROM (SELECT league, player, all_seasons, season, all_rulesets, ruleset, won, lost,
                lost_all, last_played, last_game, count(*) AS run
            FROM ordered GROUP BY league, player, all_seasons, season, all_rulesets, ruleset, won,
                lost, lost_all, last_played, last_game) AS won_runs
        GROUP BY league, player, all_seasons, season, all_rulesets, ruleset),
    events AS (
        SELECT league, player, all_seasons, season, all_rulesets, ruleset, direction,
            jsonb_object_agg(key, count) AS events
        FROM (SELECT league, player, all_seasons, season, all_rulesets, ruleset, direction, e.key,
                sum(e.value::integer) AS count
            FROM scoped, jsonb_each_text(scoped.events) AS e
            GROUP BY league, player, all_seasons, season, all_rulesets, ruleset, direction, e.key)
            AS counted
        GROUP BY league, player, all_seasons, season, all_rulesets, ruleset, direction),
    sums AS (
        SELECT league, player, all_seasons, season, all_rulesets, ruleset, direction,
            coalesce(direction, bool_and(lowest_wins)) AS lowest_wins, count(won) AS games,
            count(*) FILTER (WHERE won) AS wins, sum(deals) AS deals, sum(deals_won) AS deals_won,
            sum(points) AS points, min(best_deal) AS lowest_deal, max(best_deal) AS highest_deal
        FROM scoped GROUP BY league, player, all_seasons, season, all_rulesets, ruleset, direction)
    SELECT t.league, t.player, t.all_seasons, t.season, t.all_rulesets, t.ruleset, t.lowest_wins,
        t.games, t.wins, t.deals, t.deals_won, t.points, t.lowest_deal, t.highest_deal, e.events,
        r.longest, r.current, r.last_played, r.last_game
    FROM sums t
    LEFT JOIN events e ON (e.league, e.player, e.all_seasons, e.season, e.all_rulesets, e.ruleset)
        = (t.league, t.player, t.all_seasons, t.season, t.all_rulesets, t.ruleset)
        AND e.direction IS NOT DISTINCT FROM t.direction
    JOIN runs r ON (r.league, r.player, r.all_seasons, r.season, r.all_rulesets, r.ruleset)
        = (t.league, t.player, t.all_seasons, t.season, t.all_rulesets, t.ruleset)"""

#: ``rummy_totals``' columns as :func:`added` reads and writes them, in this order.
COLUMNS: Final = (
    "league, player, all_seasons, season, all_rulesets, ruleset, lowest_wins, games, wins, deals,"
    " deals_won, points, lowest_deal, highest_deal, events, longest_run, current_run, last_played,"
    " last_game"
)

#: The four scopes a result counts in: (every season, every ruleset).
SCOPES: Final = ((False, False), (False, True), (True, False), (True, True))


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result in one finished game, as ``rummy_results`` holds it."""

    game: str
    player: str
    league: str
    season: str | None
    ruleset: str
    lowest_wins: bool
    played: str
    won: bool | None
    deals: int
    deals_won: int
    points: int
    best_deal: int | None
    events: Mapping[str, int] | None

    def fields(self) -> tuple[Any, ...]:
        """Its fields in ``rummy_results``' order (the events as they are: the caller wraps them)."""
        return (self.game, self.player, self.league, self.season, self.ruleset, self.lowest_wins,
                self.played, self.won, self.deals, self.deals_won, self.points, self.best_deal,
                self.events)  # fmt: skip

    @property
    def order(self) -> tuple[str, str]:
        """Where it stands in the order played."""
        return (self.played, self.game)


@dataclass(slots=True)
class _Row:
    """One ``rummy_totals`` row's sums (its run is its group's, :class:`_Run`)."""

    lowest_wins: bool
    games: int = 0
    wins: int = 0
    deals: int = 0
    deals_won: int = 0
    points: int = 0
    lowest_deal: int | None = None
    highest_deal: int | None = None
    events: dict[str, int] = field(default_factory=dict)

    def add(self, result: Result, *, every_ruleset: bool) -> None:
        if every_ruleset:
            self.lowest_wins = self.lowest_wins and result.lowest_wins
        if result.won is not None:
            self.games += 1
            self.wins += result.won
        self.deals += result.deals
        self.deals_won += result.deals_won
        self.points += result.points
        if result.best_deal is not None:
            best = result.best_deal
            self.lowest_deal = best if self.lowest_deal is None else min(self.lowest_deal, best)
            self.highest_deal = best if self.highest_deal is None else max(self.highest_deal, best)
        for key, count in (result.events or {}).items():
            self.events[key] = self.events.get(key, 0) + int(count)


@dataclass(slots=True)
class _Run:
    """A scope's runs of wins (of one ruleset, both directions): the longest, the current one,
    and the last result counted."""

    longest: int = 0
    current: int = 0
    last: tuple[str, str] | None = None

    def add(self, result: Result) -> None:
        if result.won is True:
            self.current += 1
            self.longest = max(self.longest, self.current)
        elif result.won is False:
            self.current = 0
        self.last = result.order if self.last is None else max(self.last, result.order)


#: A row's key in a player's rows: (every season, season, every ruleset, ruleset, direction:
#: ``None`` for every ruleset's row, whose ``lowest_wins`` follows its games).
_Key = tuple[bool, str, bool, str, bool | None]


def added(kept: Iterable[Sequence[Any]], results: Sequence[Result]) -> list[tuple[Any, ...]] | None:
    """One (league, player)'s rows with ``results`` (new, of that league and player) added to
    ``kept`` (their rows as read, :data:`COLUMNS`), in :data:`COLUMNS`' order: every row of the
    player, changed or not. ``None`` when a result is not after every result already counted in
    one of its scopes (the rows are to be counted again from the results)."""
    rows: dict[_Key, _Row] = {}
    runs: dict[tuple[bool, str, bool, str], _Run] = {}
    league = player = ""
    for found in kept:
        (league, player, every_season, season, every_ruleset, ruleset, lowest, games, wins, deals,
         deals_won, points, low, high, events, longest, current, last_played, last_game) = found  # fmt: skip
        group = (bool(every_season), str(season), bool(every_ruleset), str(ruleset))
        rows[(*group, None if every_ruleset else bool(lowest))] = _Row(
            lowest_wins=bool(lowest),
            games=int(games),
            wins=int(wins),
            deals=int(deals),
            deals_won=int(deals_won),
            points=int(points),
            lowest_deal=low,
            highest_deal=high,
            events={str(k): int(v) for k, v in (events or {}).items()},
        )
        run = runs.setdefault(group, _Run(longest=int(longest), current=int(current)))
        order = (str(last_played), str(last_game))
        run.last = order if run.last is None else max(run.last, order)
    for result in sorted(results, key=lambda r: r.order):
        league, player = result.league, result.player
        for every_season, every_ruleset in SCOPES:
            if not every_season and result.season is None:
                continue
            group = (
                every_season,
                "" if every_season else str(result.season),
                every_ruleset,
                "" if every_ruleset else result.ruleset,
            )
            run = runs.setdefault(group, _Run())
            if run.last is not None and result.order <= run.last:
                return None  # placed earlier than a result counted: counted again
            run.add(result)
            key = (*group, None if every_ruleset else result.lowest_wins)
            row = rows.setdefault(key, _Row(lowest_wins=result.lowest_wins))
            row.add(result, every_ruleset=every_ruleset)
    written = []
    for key, row in rows.items():
        group = key[:4]
        run = runs[group]
        last = run.last or ("", "")
        written.append(
            (
                league,
                player,
                key[0],
                key[1],
                key[2],
                key[3],
                row.lowest_wins,
                row.games,
                row.wins,
                row.deals,
                row.deals_won,
                row.points,
                row.lowest_deal,
                row.highest_deal,
                dict(row.events) if row.events else None,
                run.longest,
                run.current,
                last[0],
                last[1],
            )
        )
    return written


__all__ = ["COLUMNS", "KEEP_TOTALS", "SCOPES", "Result", "added"]
