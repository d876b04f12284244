"""What an import would add, game by game and player by player: the preview a phone shows
before it merges a file another phone shared (issue 28).

:meth:`scorer.league.store.Store.import_preview` runs the import inside the store's write
transaction and throws the transaction away; between the two it takes :func:`league_before`
and, after the import, :func:`describe` compares the league with it. So the preview is what
the import would do by the same code that does it, and nothing is ever written.

>>> before = LeagueBefore(games={"g1": 3}, players=frozenset({"p1"}))
>>> before.deals_of("g1"), before.deals_of("g2")
(3, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.league.exchange import ImportReport
from scorer.league.state import State


@dataclass(frozen=True, slots=True)
class GameAdded:
    """A game the import adds, or a game here it brings more deals to."""

    id: str
    ruleset: str
    played: str  # ISO date and time the game was started
    deals: int  # the deals it brings (a new game's: all of them)
    players: tuple[str, ...]  # the players' names, by seat
    new: bool  # not here before (else: deals added to the game here)


@dataclass(frozen=True, slots=True)
class ImportPreview:
    """The import's report and, told by name, what it would add to ``league``."""

    report: ImportReport
    league: str  # the league's name
    new_league: bool  # the league is made by the import
    games: tuple[GameAdded, ...]
    players: tuple[str, ...]  # the names of the players new here, sorted

    @property
    def changes(self) -> bool:
        r = self.report
        return self.new_league or any(
            (r.games_added, r.deals_added, r.players_added, r.nights_added, r.rounds_added)
        )


@dataclass(frozen=True, slots=True)
class LeagueBefore:
    """A league's games (their deal counts) and the store's players, before an import."""

    games: dict[str, int]
    players: frozenset[str]

    def deals_of(self, game: str) -> int | None:
        return self.games.get(game)


def _deals(document: object) -> int:
    deals = document.get("deals") if isinstance(document, dict) else None
    return len(deals) if isinstance(deals, list) else 0


def league_before(state: State, league: str | None) -> LeagueBefore:
    """The league's games and the store's players now (``league`` None: a league not made yet)."""
    games = (
        {} if league is None else {r.id: _deals(r.document) for r in state.select(league=league, season=None)}
    )
    return LeagueBefore(games=games, players=frozenset(state.index().players))


def describe(
    state: State, *, league: str, before: LeagueBefore, report: ImportReport, new_league: bool
) -> ImportPreview:
    """What the import staged in ``state`` adds to ``league`` (its id), against ``before``."""
    names = state.names()
    games: list[GameAdded] = []
    for row in state.select(league=league, season=None):
        deals, had = _deals(row.document), before.deals_of(row.id)
        if had is not None and deals <= had:
            continue
        games.append(
            GameAdded(
                id=row.id,
                ruleset=row.ruleset,
                played=str(row.played),
                deals=deals - (had or 0),
                players=tuple(names.get(p, p) for p in row.players),
                new=had is None,
            )
        )
    added = sorted((names[p] for p in set(names) - before.players), key=str.casefold)
    return ImportPreview(
        report=report,
        league=state.league_doc(league).name,
        new_league=new_league,
        games=tuple(games),
        players=tuple(added),
    )
