"""The Leagues screens' state: the list of leagues and of every player, and one league's
standings and games.

Every figure comes from the store (``Store.standings``, its cached game summaries); this
module only chooses what to show and words it. A standings view is one scope (the open
season, a past season, or all time) and one variant (or every variant together). Every
variant together is one table of what the variants share (games, wins, win rate, deals won)
followed by each variant's own table, its points ranked in its own direction: penalty points
and reward points are never added (see :mod:`scorer.league.standings`).

>>> store = Store.memory()
>>> _ = store.create_league("Friday club")
>>> leagues = LeaguesModel.load(store)
>>> [(line.name, line.season) for line in leagues.leagues]
[('Friday club', 'Season 1')]
>>> _ = store.add_player("Anna")
>>> leagues.reload(); [(line.name, line.games) for line in leagues.players]
[('Anna', 0)]
>>> model = LeagueModel.load(store, "Friday club")
>>> model.scope, model.variant, model.standings()
('open', None, [])
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

import flet as ft

from scorer.errors import ScorerError
from scorer.league.records import GameInfo, League
from scorer.league.standings import StandingRow
from scorer.league.store import Store
from scorer.ruleset_text import variant_name as _variant_name
from scorer.ui.i18n import Language, tr

#: The scope of the standings: the open season, every season together, or a season's id.
OPEN: Final = "open"
ALL_TIME: Final = "all"


#: The name the store gives a season it was given no name for (``Store.new_season``).
_DEFAULT_SEASON = re.compile(r"Season ([1-9][0-9]*)")


def season_name(name: str, language: Language) -> str:
    """A season's name as a screen shows it: the store's own default name (``Season 2``,
    given where nobody named the season) in the screen's language; a name given as given.

    >>> season_name("Season 2", "fi"), season_name("Kevät 2026", "fi"), season_name("Season 2", "en")
    ('Kausi 2', 'Kevät 2026', 'Season 2')
    """
    default = _DEFAULT_SEASON.fullmatch(name)
    if default is None:
        return name
    return tr("leagues.season_default", language, number=int(default.group(1)))


def variant_name(ruleset_id: str) -> str:
    """A variant's name for a ruleset id (the id itself if the ruleset is no longer bundled); it
    remembers its message, so a screen shows it in its language (``engine_text``)."""
    return _variant_name(ruleset_id)


def rating_text(rating: float | None, *, provisional: bool) -> str:
    """A rating as the standings show it: one decimal, ``?`` while it is provisional."""
    if rating is None:
        return "–"
    return f"{rating:.1f}" + ("?" if provisional else "")


@dataclass(frozen=True, slots=True)
class LeagueLine:
    """One league in the list: its name, its open season and how many games it has."""

    id: str
    name: str
    season: str | None  # the open season's name; None when every season is closed
    games: int


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player in the list of everyone: name, finished games and games won."""

    id: str
    name: str
    games: int
    wins: int


@dataclass(eq=False)
class LeaguesModel(ft.Observable):
    """The list of leagues and of every player, and creating a league."""

    store: Store
    leagues: list[LeagueLine] = field(default_factory=list)
    players: list[PlayerLine] = field(default_factory=list)
    error: str = ""

    @classmethod
    def load(cls, store: Store) -> LeaguesModel:
        model = cls(store=store)
        model.reload()
        return model

    def reload(self) -> None:
        every = self.store.games()
        games = Counter(info.league_id for info in every)
        # As in the standings: finished games that were not abandoned.
        finished = [info for info in every if info.finished and info.status == "active"]
        played = Counter(player for info in finished for player in set(info.players))
        won = Counter(info.winner for info in finished if info.winner is not None)
        # Everyone, those with most games first (then by name): the regulars lead the list.
        self.players = sorted(
            (
                PlayerLine(id=p.id, name=p.name, games=played[p.id], wins=won[p.id])
                for p in self.store.players()
            ),
            key=lambda line: (-line.games, line.name.casefold(), line.id),
        )
        self.leagues = [
            LeagueLine(
                id=league.id,
                name=league.name,
                season=league.season.name if league.season else None,
                games=games[league.id],
            )
            for league in self.store.leagues()
        ]

    def create(self, name: str, *, season: str = "") -> str | None:
        """Create a league; its id, or None with :attr:`error` saying why not."""
        try:
            league = self.store.create_league(name, season=season.strip() or None)
        except ScorerError as exc:
            self.error = str(exc)
            return None
        self.error = ""
        self.reload()
        return league.id


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One player's line in the standings, worded for the screen."""

    rank: int
    player_id: str
    name: str
    games: int
    wins: int
    deals: int
    deals_won: int
    points: int | None  # None: several variants (their points are not added)
    win_rate: str  # "67%"
    average: str | None  # points per deal, one decimal
    rating: str  # "25.3", "3.1?" while provisional, "–" unrated
    events: dict[str, int]
    best_deal: int | None
    streak: int

    @classmethod
    def of(cls, rank: int, row: StandingRow, names: dict[str, str]) -> StandingLine:
        return cls(
            rank=rank,
            player_id=row.player,
            name=names.get(row.player, row.player),
            games=row.games,
            wins=row.wins,
            deals=row.deals,
            deals_won=row.deals_won,
            points=row.points,
            win_rate=f"{row.win_rate:.0%}",
            average=None if row.average_per_deal is None else f"{row.average_per_deal:.1f}",
            rating=rating_text(row.rating, provisional=row.provisional),
            events=dict(row.events),
            best_deal=row.best_deal,
            streak=row.longest_streak,
        )


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """One table of standings: one variant's (its points, their direction, its ratings) or,
    with ``ruleset`` None, every variant together (no points, no ratings: each variant's own)."""

    ruleset: str | None
    variant: str  # the variant's name; "" for every variant together
    lowest_wins: bool | None  # fewer points are better; None: every variant together
    lines: list[StandingLine]

    @property
    def across_variants(self) -> bool:
        return self.ruleset is None

    def event_columns(self) -> list[str]:
        """The events any player of the table has (gin, undercut, kalooki...), in a stable order."""
        return sorted({event for line in self.lines for event, count in line.events.items() if count})


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One finished game of the league, newest first; it opens the game's scoreboard."""

    id: str
    played: str  # as stored, UTC ("2026-11-30T21:05:…+00:00"); shown in local time
    season: str
    variant: str
    players: str
    totals: str
    winner: str | None

    @classmethod
    def of(cls, info: GameInfo, seasons: dict[str, str]) -> HistoryLine:
        seats = info.seats()  # who holds each seat now, with the seat's total
        return cls(
            id=info.id,
            played=info.played,
            season=seasons.get(info.season_id or "", ""),
            variant=variant_name(info.ruleset),
            players=", ".join(name for _, name, _ in seats),
            totals=", ".join(f"{name}: {total}" for _, name, total in seats),
            winner=info.name_of(info.winner),
        )


@dataclass(frozen=True, slots=True)
class NightLine:
    """One club night of the league, newest first; it opens the night's screen."""

    id: str
    date: str  # the night's start as stored, UTC; shown in local time
    rounds: int
    tables: int  # the tables of its latest round
    winner: str | None  # None while it is under way, or no table finished
    under_way: bool  # a table of its latest round still plays, or a planned round is to come


@dataclass(eq=False)
class LeagueModel(ft.Observable):
    """One league: standings for a scope and a variant, its games, its seasons."""

    store: Store
    league: League
    scope: str = OPEN
    variant: str | None = None  # a ruleset id; None: every variant together
    error: str = ""
    notice: str = ""
    games: list[GameInfo] = field(default_factory=list)
    nights: list[NightLine] = field(default_factory=list)

    @classmethod
    def load(cls, store: Store, key: str) -> LeagueModel:
        """The league by id or name; the store's error (naming it) if there is none."""
        model = cls(store=store, league=store.league(key))
        model.reload()
        return model

    def reload(self) -> None:
        """Read the league again (another phone may have recorded a game since)."""
        self.league = self.store.league(self.league.id)
        self.games = self.store.games(league=self.league.id)
        self.nights = self._nights()
        if self.scope not in (OPEN, ALL_TIME) and all(s.id != self.scope for s in self.league.seasons):
            self.scope = OPEN

    # -- choices ---------------------------------------------------------------------------

    def scopes(self) -> list[tuple[str, str]]:
        """(key, season name) of every season, newest first; the open one is under :data:`OPEN`."""
        return [(OPEN if s.is_open else s.id, s.name) for s in reversed(self.league.seasons)]

    def season_id(self) -> str | None:
        """The season the standings show (None: all time, or no open season)."""
        if self.scope == ALL_TIME:
            return None
        if self.scope == OPEN:
            open_season = self.league.season
            return open_season.id if open_season else None
        return self.scope

    def variants(self) -> list[tuple[str, str]]:
        """(ruleset id, variant name) of every variant the league has finished games of."""
        played = sorted({g.ruleset for g in self.games if g.finished and g.status == "active"})
        return sorted(((r, variant_name(r)) for r in played), key=lambda item: item[1].casefold())

    def choose_scope(self, scope: str) -> None:
        known = {OPEN, ALL_TIME} | {s.id for s in self.league.seasons}
        if scope in known:
            self.scope = scope

    def choose_variant(self, ruleset: str | None) -> None:
        self.variant = ruleset or None

    # -- what is shown ---------------------------------------------------------------------

    def standings(self) -> list[StandingLine]:
        """The standings of the chosen scope and variant, best first."""
        if self.scope == OPEN and self.league.season is None:
            return []
        rows = self.store.standings(self.league.id, season=self.season_id(), ruleset=self.variant)
        return self._lines(rows)

    def tables(self) -> list[StandingsTable]:
        """The tables shown: the chosen variant's; for every variant together, when the games
        are of several, the table of what they share and then each variant's, by name."""
        if self.scope == OPEN and self.league.season is None:
            return []
        season = self.season_id()
        rows = self.store.standings(self.league.id, season=season, ruleset=self.variant)
        if not rows:
            return []
        if not rows[0].across_variants:
            return [self._table(rows[0].rated_in, rows)]
        by_ruleset = self.store.standings_by_ruleset(self.league.id, season=season)
        tables = sorted(
            (self._table(r, t) for r, t in by_ruleset.items()), key=lambda t: t.variant.casefold()
        )
        return [StandingsTable(ruleset=None, variant="", lowest_wins=None, lines=self._lines(rows)), *tables]

    def _lines(self, rows: list[StandingRow]) -> list[StandingLine]:
        names = {p.id: p.name for p in self.store.players(league=self.league.id)}
        return [StandingLine.of(rank, row, names) for rank, row in enumerate(rows, start=1)]

    def _table(self, ruleset: str, rows: list[StandingRow]) -> StandingsTable:
        return StandingsTable(
            ruleset=ruleset,
            variant=variant_name(ruleset),
            lowest_wins=rows[0].lowest_wins,
            lines=self._lines(rows),
        )

    def history(self) -> list[HistoryLine]:
        """Every finished game of the league, newest first."""
        seasons = {s.id: s.name for s in self.league.seasons}
        finished = [g for g in self.games if g.finished and g.status == "active"]
        finished.sort(key=lambda g: (g.played, g.id), reverse=True)
        return [HistoryLine.of(info, seasons) for info in finished]

    def in_progress(self) -> int:
        return sum(1 for g in self.games if not g.finished and g.status == "active")

    def _nights(self) -> list[NightLine]:
        """The league's club nights, newest first, with their winners (from the store's standings)."""
        names = {p.id: p.name for p in self.store.players()}
        lines = []
        for night, rows in self.store.night_results(self.league.id):
            last = night.rounds[-1]
            # Until it is over (scorer/league/night.py): a table still playing, rounds planned
            # and not all played, or an open-ended night the director has not ended.
            under_way = not night.over
            first = next((r for r in rows if r.games), None)
            lines.append(
                NightLine(
                    id=night.id,
                    date=night.created,
                    rounds=len(night.rounds),
                    tables=len(last.tables),
                    winner=names.get(first.player, first.player) if first and not under_way else None,
                    under_way=under_way,
                )
            )
        return lines

    def open_night(self) -> str | None:
        """The id of the league's latest night while it is under way, else None."""
        latest = self.nights[0] if self.nights else None
        return latest.id if latest is not None and latest.under_way else None

    # -- seasons ---------------------------------------------------------------------------

    def close_season(self) -> bool:
        """Close the open season (its standings become final)."""
        try:
            season = self.store.close_season(self.league.id)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error, self.notice = "", season.name
        self.reload()
        self.scope = season.id
        return True

    def new_season(self, name: str = "") -> bool:
        """Start a new season (the open one is closed); the standings show the new one."""
        try:
            season = self.store.new_season(self.league.id, name.strip() or None)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error, self.notice = "", season.name
        self.reload()
        self.scope = OPEN
        return True
