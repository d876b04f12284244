"""The Player screen's state: one player's figures per variant, rating history, games, rivals.

The figures are the league functions' (:func:`scorer.league.standings.player_stats` and
:func:`~scorer.league.standings.head_to_head`) over the player's finished games, in every
league or in one; this module only chooses and words them. Renaming keeps the player's id
and so their history; merging makes another record of the same person this one.

>>> store = Store.memory()
>>> anna = store.add_player("Anna")
>>> model = PlayerModel.load(store, anna.id)
>>> model.name, model.variants(), model.recent()
('Anna', [], [])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import flet as ft

from scorer.errors import ScorerError
from scorer.league.records import GameInfo, Player
from scorer.league.standings import PlayedGame, PlayerStats, StandingRow, head_to_head, player_stats
from scorer.league.store import Store
from scorer.ui.screens.leagues_model import rating_text, variant_name
from scorer.ui.screens.night_model import points_text

RECENT_GAMES: Final = 10
#: The league filter meaning every league (and games kept outside any league).
EVERY_LEAGUE: Final = ""


@dataclass(frozen=True, slots=True)
class VariantStats:
    """The player's line for one variant (or every variant: ``ruleset`` is ``""``).

    Every variant together has no points, points per deal, best deal or rating when the
    games are of several variants: those are each variant's own (see
    :mod:`scorer.league.standings`), on the variants' lines.
    """

    ruleset: str
    variant: str
    games: int
    wins: int
    win_rate: str
    deals: int
    deals_won: int
    points: int | None
    average: str | None
    best_deal: int | None
    streak: int
    rating: str
    events: dict[str, int]

    @classmethod
    def of(cls, ruleset: str, variant: str, row: StandingRow) -> VariantStats:
        return cls(
            ruleset=ruleset,
            variant=variant,
            games=row.games,
            wins=row.wins,
            win_rate=f"{row.win_rate:.0%}",
            deals=row.deals,
            deals_won=row.deals_won,
            points=row.points,
            average=None if row.average_per_deal is None else f"{row.average_per_deal:.1f}",
            best_deal=row.best_deal,
            streak=row.longest_streak,
            rating="–" if row.across_variants else rating_text(row.rating, provisional=row.provisional),
            events={k: v for k, v in row.events.items() if v},
        )


@dataclass(frozen=True, slots=True)
class RecentGame:
    id: str
    played: str
    variant: str
    players: str
    total: int
    rank: int | None  # None: the game is not finished
    won: bool


@dataclass(frozen=True, slots=True)
class Rivalry:
    """Wins each in the games two players finished together, overall and per variant."""

    other: str  # the other player's name
    games: int
    wins: int
    losses: int  # games the other player won
    ties: int
    by_variant: tuple[tuple[str, int, int, int], ...]  # (variant, games, wins, other's wins)


@dataclass(frozen=True, slots=True)
class PlayedNight:
    """A club night the player played in, newest first; it opens the night's screen."""

    id: str
    date: str  # the night's start as stored, UTC; shown in local time
    league: str
    place: int  # in the night's standings
    points: str  # night points: "3", "2.5"


@dataclass(eq=False)
class PlayerModel(ft.Observable):
    store: Store
    player: Player
    league: str = EVERY_LEAGUE  # a league id, or every league
    variant: str = ""  # the ruleset whose rating history the chart shows
    rival: str = ""  # the other player's id for head-to-head
    error: str = ""
    notice: str = ""

    @classmethod
    def load(cls, store: Store, key: str) -> PlayerModel:
        """The player by id or name (a merged record's old id gives the player kept)."""
        model = cls(store=store, player=store.player(key))
        model.reload()
        return model

    def reload(self) -> None:
        self.player = self.store.player(self.player.id)
        infos = self.store.games() if self.league == EVERY_LEAGUE else self.store.games(league=self.league)
        self._infos = [i for i in infos if i.status == "active"]  # an abandoned game counts nowhere
        self._stats = player_stats(self._played(), self.player.id)
        self._nights = self._played_nights()
        if self.variant not in self._stats.ratings:
            self.variant = next(iter(self._main_rulesets()), "")

    def _played(self) -> list[PlayedGame]:
        return [
            PlayedGame(id=i.id, season=i.season_id or "", played=i.played, summary=i.summary)
            for i in self._infos
        ]

    def _main_rulesets(self) -> list[str]:
        """The player's rulesets, most games first."""
        rows = self._stats.by_ruleset
        return sorted(rows, key=lambda r: (-rows[r].games, r))

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def stats(self) -> PlayerStats:
        return self._stats

    # -- choices ---------------------------------------------------------------------------

    def leagues(self) -> list[tuple[str, str]]:
        """(league id, name) of the leagues the player has games in."""
        mine = {i.league_id for i in self.store.games() if self.player.id in i.players}
        return [(lg.id, lg.name) for lg in self.store.leagues() if lg.id in mine]

    def choose_league(self, league: str) -> None:
        self.league = league if league in {k for k, _ in self.leagues()} else EVERY_LEAGUE
        self.reload()

    def choose_variant(self, ruleset: str) -> None:
        if ruleset in self._stats.ratings:
            self.variant = ruleset

    # -- what is shown ---------------------------------------------------------------------

    def variants(self) -> list[VariantStats]:
        """All variants together first, then each variant the player finished a game of."""
        overall = self._stats.overall
        if overall is None:
            return []
        lines = [VariantStats.of("", "", overall)]
        for ruleset in self._main_rulesets():
            lines.append(VariantStats.of(ruleset, variant_name(ruleset), self._stats.by_ruleset[ruleset]))
        return lines

    def rating_variants(self) -> list[tuple[str, str]]:
        return [(r, variant_name(r)) for r in self._main_rulesets() if r in self._stats.ratings]

    def rating_history(self) -> list[float]:
        """The rating (ordinal) after each of the player's games in the chosen variant, oldest first."""
        rating = self._stats.ratings.get(self.variant)
        return [] if rating is None else [round(p.ordinal, 2) for p in rating.history]

    def rating_now(self) -> str:
        rating = self._stats.ratings.get(self.variant)
        return "–" if rating is None else rating_text(rating.ordinal, provisional=rating.provisional)

    def recent(self) -> list[RecentGame]:
        """The player's latest games (finished or not), newest first."""
        # a seat's first player, or one who took a seat over (docs/rules.md, "Replacements")
        mine = [i for i in self._infos if self.player.id in i.summary.players]
        mine.sort(key=lambda i: (i.played, i.id), reverse=True)
        return [self._recent(i) for i in mine[:RECENT_GAMES]]

    def _recent(self, info: GameInfo) -> RecentGame:
        me = self.player.id
        return RecentGame(
            id=info.id,
            played=info.played,
            variant=variant_name(info.ruleset),
            players=", ".join(name for _, name, _ in info.seats()),  # who holds each seat now
            total=info.summary.totals.get(me, 0),  # the player's own part of a seat taken over
            rank=info.summary.ranking.get(me) if info.finished else None,
            won=info.winner == me,
        )

    def nights(self) -> list[PlayedNight]:
        """The club nights the player played in (in the league chosen, or every league), newest first."""
        return self._nights

    def _played_nights(self) -> list[PlayedNight]:
        leagues = {lg.id: lg.name for lg in self.store.leagues()}
        return [
            PlayedNight(
                id=night.id,
                date=night.created,
                league=leagues.get(night.league_id, ""),
                place=place,
                points=points_text(row.night_points),
            )
            for night, place, row in self.store.player_nights(self.player.id)
            if self.league in (EVERY_LEAGUE, night.league_id)
        ]

    def opponents(self) -> list[tuple[str, str]]:
        """(id, name) of everyone the player has played with, by name."""
        me = self.player.id  # at a seat from the start, or one taken over
        ids = {p for i in self._infos if me in i.summary.players for p in i.summary.players} - {me}
        names = {p.id: p.name for p in self.store.players()}
        return sorted(((p, names.get(p, p)) for p in ids), key=lambda item: item[1].casefold())

    def choose_rival(self, other: str) -> None:
        self.rival = other if other in {k for k, _ in self.opponents()} else ""

    def rivalry(self) -> Rivalry | None:
        """Head-to-head against the chosen rival (None: no rival chosen)."""
        if not self.rival:
            return None
        me, other = self.player.id, self.rival
        record = head_to_head(self._played(), me, other)
        by_variant = tuple(
            (variant_name(r), rec.games, rec.wins[me], rec.wins[other])
            for r, rec in record.by_ruleset.items()
        )
        overall = record.overall
        return Rivalry(
            other=self.store.player(other).name,
            games=overall.games,
            wins=overall.wins[me],
            losses=overall.wins[other],
            ties=overall.ties,
            by_variant=by_variant,
        )

    # -- the record itself -----------------------------------------------------------------

    def rename(self, name: str) -> bool:
        """Rename the player; their games and figures stay theirs (the id does not change)."""
        try:
            self.player = self.store.rename_player(self.player.id, name)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error, self.notice = "", self.player.name
        self.reload()
        return True

    def merge_candidates(self) -> list[tuple[str, str]]:
        """(id, name) of the players who could be this one under another name: never met at a table."""
        met = {p for p, _ in self.opponents()} | {self.player.id}
        return [(p.id, p.name) for p in self.store.players() if p.id not in met]

    def merge(self, other: str) -> bool:
        """Make ``other`` the same person as this player: their games become this player's."""
        try:
            gone = self.store.player(other).name
            self.player = self.store.merge_players(self.player.id, other)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error, self.notice = "", gone
        self.reload()
        return True
