"""Player ratings: one openskill (Plackett-Luce) rating per player per ruleset.

Ratings are updated game by game in the order played (``(played, id)``), from each
finished game's final ranking; tied players share a rank. A rating is *provisional*
until the player has :data:`PROVISIONAL_GAMES` rated games in that ruleset. The
ordinal (``mu - 3 sigma``) is the number shown in standings. Unfinished games are not
rated. The same games always give the same ratings: openskill draws no random numbers.

>>> from scorer.league.summary import PlayedGame
>>> from scorer.league.summary import GameSummary
>>> def game(id: str, winner: str) -> PlayedGame:
...     loser = "bea" if winner == "anna" else "anna"
...     summary = GameSummary(ruleset="gin", players=("anna", "bea"), finished=True, winner=winner,
...         totals={winner: 120, loser: 40}, ranking={winner: 1, loser: 2}, deals=3,
...         deals_won={winner: 2, loser: 1}, best_deal={winner: 55, loser: 15}, events={})
...     return PlayedGame(id=id, season="s1", played=f"2026-01-0{id}", summary=summary)
>>> ratings = rate([game("2", "anna"), game("1", "anna")])
>>> anna = ratings.get("anna", "gin")
>>> [point.game for point in anna.history], anna.games, anna.provisional
(['1', '2'], 2, True)
>>> anna.ordinal > ratings.get("bea", "gin").ordinal
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce, PlackettLuceRating

if TYPE_CHECKING:
    from scorer.league.summary import PlayedGame

PROVISIONAL_GAMES = 5
"""A rating is provisional until the player has this many rated games in the ruleset."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating just after one game."""

    game: str
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's current rating in one ruleset, with its history, oldest first."""

    player: str
    ruleset: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool
    history: tuple[RatingPoint, ...]


@dataclass(frozen=True, slots=True)
class Ratings:
    """Every player's rating in every ruleset they played a finished game of."""

    ratings: dict[tuple[str, str], Rating]

    def get(self, player: str, ruleset: str) -> Rating | None:
        """The player's rating in the ruleset, or None if they have no rated game there."""
        return self.ratings.get((player, ruleset))

    def of_player(self, player: str) -> dict[str, Rating]:
        """The player's ratings by ruleset id."""
        return {r.ruleset: r for (p, _), r in self.ratings.items() if p == player}

    def table(self, ruleset: str) -> list[Rating]:
        """The ruleset's ratings, best ordinal first (then by player key)."""
        rows = [r for (_, ruleset_id), r in self.ratings.items() if ruleset_id == ruleset]
        return sorted(rows, key=lambda r: (-r.ordinal, r.player))


def played_order(games: Iterable[PlayedGame]) -> list[PlayedGame]:
    """Games in the order played: by start time, then by id."""
    return sorted(games, key=lambda g: (g.played, g.id))


def rate(games: Iterable[PlayedGame], *, provisional_games: int = PROVISIONAL_GAMES) -> Ratings:
    """Rate every finished game in the order played; see the module docstring."""
    model = PlackettLuce()
    current: dict[tuple[str, str], PlackettLuceRating] = {}
    history: dict[tuple[str, str], list[RatingPoint]] = {}
    for game in played_order(games):
        summary = game.summary
        if not summary.finished or len(summary.players) < 2:
            continue
        keys = [(player, summary.ruleset) for player in summary.players]
        teams = [[current[key] if key in current else model.rating()] for key in keys]
        ranks = [float(summary.ranking[player]) for player in summary.players]
        for key, (after,) in zip(keys, model.rate(teams, ranks=ranks), strict=True):
            current[key] = after
            point = RatingPoint(game=game.id, mu=after.mu, sigma=after.sigma, ordinal=after.ordinal())
            history.setdefault(key, []).append(point)
    ratings = {
        key: Rating(
            player=key[0],
            ruleset=key[1],
            mu=rating.mu,
            sigma=rating.sigma,
            ordinal=rating.ordinal(),
            games=len(history[key]),
            provisional=len(history[key]) < provisional_games,
            history=tuple(history[key]),
        )
        for key, rating in current.items()
    }
    return Ratings(ratings)
