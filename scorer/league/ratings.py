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

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, overload

import openskill
from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from scorer.league.summary import PlayedGame

PROVISIONAL_GAMES = 5
"""A rating is provisional until the player has this many rated games in the ruleset."""

#: What a kept :class:`RatingRun` was made by: one made by another form or another openskill
#: is not resumed.
RUN_FORM: Final = f"3 openskill {openskill.__version__} plackett-luce"


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating just after one game."""

    game: str
    mu: float
    sigma: float
    ordinal: float


class History(Sequence[RatingPoint]):
    """A rating's points, oldest first: given, or the JSON text a kept run holds them as
    (``[[game, mu, sigma, ordinal], ...]``), read when first asked for. A league's standings
    show only each rating's last point: its thousands of points are read for a player's page.
    It is equal to any sequence of the same points."""

    __slots__ = ("_points", "_text")

    def __init__(self, points: Iterable[RatingPoint] = (), *, text: str | None = None) -> None:
        self._points: tuple[RatingPoint, ...] | None = None if text is not None else tuple(points)
        self._text = text

    @property
    def points(self) -> tuple[RatingPoint, ...]:
        """The points (raises ValueError when the kept text is not a list of them)."""
        if self._points is None:
            try:
                parsed = json.loads(self._text or "")
                self._points = tuple(
                    RatingPoint(str(g), float(m), float(s), float(o)) for g, m, s, o in parsed
                )
            except (TypeError, ValueError) as exc:
                raise ValueError(f"a kept rating history is not a list of points: {exc}") from None
            self._text = None
        return self._points

    def text(self) -> str:
        """The points as the JSON text :class:`History` reads back (the kept text itself
        when it was never read)."""
        if self._text is not None:
            return self._text
        return json.dumps([[p.game, p.mu, p.sigma, p.ordinal] for p in self.points], separators=(",", ":"))

    @overload
    def __getitem__(self, index: int) -> RatingPoint: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[RatingPoint, ...]: ...

    def __getitem__(self, index: int | slice) -> RatingPoint | tuple[RatingPoint, ...]:
        return self.points[index]

    def __len__(self) -> int:
        return len(self.points)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self.points == other.points
        return isinstance(other, Sequence) and self.points == tuple(other)

    def __hash__(self) -> int:
        return hash(self.points)

    def __repr__(self) -> str:
        return f"History({list(self.points)!r})"


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
    history: History


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
    return resume(games, None, provisional_games=provisional_games)[0]


@dataclass(slots=True)
class RatingRun:
    """Ratings as they stand after some games, to go on from: how many games were rated and
    the mark of them in order (:func:`mark`), and each player's rating after them
    (``current``: mu and sigma; its ordinal and the number of games rated, and its history,
    oldest first).

    Kept by the store between reads (and in its checkpoint), so that a new finished game is
    one more step, not the whole league again. It can only be resumed where its mark is the
    mark of the first games now (:func:`resume`): a game changed, removed or played earlier
    than the last one rated starts the run again from the first game.
    """

    rated: int = 0
    said: str | None = None  # the mark, once computed (see :attr:`mark`)
    current: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    last: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    history: dict[tuple[str, str], History] = field(default_factory=dict)
    #: The games rated, in order, while the mark is still to be computed from them.
    games: Sequence[PlayedGame] = field(default=(), compare=False, repr=False)

    @property
    def mark(self) -> str:
        """The :func:`mark` of the games rated, computed when first asked for (a run gone on
        from without a check, then kept, may never need it)."""
        if self.said is None:
            self.said, self.games = mark(self.games), ()
        return self.said

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back (``None`` if it is not one). Each
        history is one JSON text within it, so that reading the run back does not read every
        point of every player (:class:`History`)."""
        return {
            "form": RUN_FORM,
            "rated": self.rated,
            "mark": self.mark,
            "ratings": [
                [player, ruleset, mu, sigma, *self.last[key], self.history[key].text()]
                for key, (mu, sigma) in self.current.items()
                for player, ruleset in (key,)
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RatingRun | None:
        """The run :meth:`to_dict` wrote, or ``None`` if it is of another form or not whole."""
        try:
            if data.get("form") != RUN_FORM:
                return None
            rated, said = data["rated"], data["mark"]
            if type(rated) is not int or rated < 0 or type(said) is not str:
                return None
            run = cls(rated=rated, said=said)
            for player, ruleset, mu, sigma, ordinal, games, text in data["ratings"]:
                key = (str(player), str(ruleset))
                if type(games) is not int or games < 1 or type(text) is not str:
                    return None
                run.current[key] = (float(mu), float(sigma))
                run.last[key] = (float(ordinal), games)
                run.history[key] = History(text=text)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return run


def mark(games: Sequence[PlayedGame]) -> str:
    """What the ratings after ``games`` (in the order rated) depend on, as a short digest: each
    game's id, when it was played, its ruleset, its players in their seats and their final
    ranks. One digest of them all, not one per game: the thousands of digests were most of
    going on from a kept run."""
    said = [
        (g.id, g.played, s.ruleset, s.players, tuple(map(s.ranking.__getitem__, s.players)))
        for g in games
        for s in (g.summary,)
    ]
    return hashlib.blake2b(repr(said).encode("utf-8"), digest_size=16).hexdigest()


def resume(
    games: Iterable[PlayedGame],
    run: RatingRun | None,
    *,
    provisional_games: int = PROVISIONAL_GAMES,
    changed: Collection[str] | None = None,
    ordered: bool = False,
) -> tuple[Ratings, RatingRun]:
    """The ratings of ``games`` (as :func:`rate`), going on from ``run`` where it still holds:
    only the games after those it rated are rated now. Also the run to go on from next time.

    The result is the same, to the last bit, as rating every game from the first: a rating is
    its two numbers, kept as they were.

    ``changed``, when known, are the ids of every game changed, added or removed since the
    run was made of the games then (the state's games table tells): when none of the first
    games now is among them, those are the run's games, unchanged and in their order (an
    unchanged game keeps its place and its part in the ratings, and the run rated every such
    game it had), so the run is gone on from without the mark of thousands of games computed
    again (a fifth of a fresh open's standings of 5,000 games). Otherwise the marks decide.

    ``ordered``: ``games`` are in the order played already (:func:`played_order`), as the
    store's list of a league's games is, so they are not sorted again (at 100,000 games the
    sort was most of the standings asked right after a deal)."""
    listed = games if ordered else played_order(games)
    rated = [g for g in listed if g.summary.finished and len(g.summary.players) >= 2]
    kept = (
        run is not None
        and run.rated <= len(rated)
        and (
            (changed is not None and not any(g.id in changed for g in rated[: run.rated]))
            or mark(rated[: run.rated]) == run.mark
        )
    )
    if run is not None and kept:
        start = run.rated
        current, last, history = dict(run.current), dict(run.last), dict(run.history)
    else:
        start, current, last, history = 0, {}, {}, {}
    model = PlackettLuce()
    added: dict[tuple[str, str], list[RatingPoint]] = {}  # the points of the games rated now
    for game in rated[start:]:
        summary = game.summary
        seats = [p for p in summary.players if p not in summary.left] if summary.left else summary.players
        keys = [(player, summary.ruleset) for player in seats]
        teams = [[model.rating(*current[key]) if key in current else model.rating()] for key in keys]
        ranks = [float(summary.ranking[player]) for player in seats]
        for key, (after,) in zip(keys, model.rate(teams, ranks=ranks), strict=True):
            current[key] = (after.mu, after.sigma)
            point = RatingPoint(game=game.id, mu=after.mu, sigma=after.sigma, ordinal=after.ordinal())
            if key not in added:
                added[key] = list(history[key].points) if key in history else []
            added[key].append(point)
    for key, points in added.items():
        history[key] = History(points)
        last[key] = (points[-1].ordinal, len(points))
    ratings = {
        key: Rating(
            player=key[0],
            ruleset=key[1],
            mu=mu,
            sigma=sigma,
            ordinal=last[key][0],
            games=last[key][1],
            provisional=last[key][1] < provisional_games,
            history=history[key],
        )
        for key, (mu, sigma) in current.items()
    }
    same = run is not None and kept and start == len(rated)
    return Ratings(ratings), RatingRun(
        rated=len(rated),
        said=run.said if run is not None and same else None,
        current=current,
        last=last,
        history=history,
        games=run.games if run is not None and same else rated,
    )
