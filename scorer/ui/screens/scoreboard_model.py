"""The Scoreboard's state: deal-by-deal scores, running totals, next dealer, the end of the game.

Everything shown comes from the engine's :class:`scorer.game.GameResult`; the model only
arranges it. Removing a deal keeps it for an undo; the engine replays the game after either.

>>> store = Store.memory()
>>> game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
>>> _ = store.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"})
>>> board = ScoreboardModel.load(store, game_id)
>>> board.total_labels()
['Anna: 0', 'Bea: 10']
>>> board.next_dealer, board.cards_to_deal
('Bea', 10)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.game import Game, GameResult
from scorer.gamefile import DealDocument
from scorer.league.records import StoredGame
from scorer.league.store import Store
from scorer.ui.i18n import Language, tr


@dataclass(frozen=True, slots=True)
class DealRow:
    number: int
    dealer: str
    scores: tuple[int, ...]  # in seat order
    running: tuple[int, ...]
    events: tuple[str, ...]
    columns: tuple[int, ...]  # Hollywood: which of the three games the deal counted in (1-based)


@dataclass(frozen=True, slots=True)
class ColumnRow:
    """One of Hollywood's three games: its totals, whether it is over and who won it."""

    number: int
    totals: tuple[int, ...]
    finished: bool
    winner: str | None


@dataclass(frozen=True, slots=True)
class Removed:
    """A removed deal, kept so that the removal can be undone."""

    index: int
    deal: dict[str, Any]


@dataclass(eq=False)
class ScoreboardModel(ft.Observable):
    saved: StoredGame
    removed: Removed | None = None
    error: str = ""  # the engine's or the store's message
    undo_refused: bool = False  # the removed deal no longer fits the game

    @classmethod
    def load(cls, store: Store, game_id: str) -> ScoreboardModel:
        return cls(saved=store.game(game_id))

    # -- what the screen shows ---------------------------------------------------------------

    @property
    def result(self) -> GameResult:
        return self.saved.result

    @property
    def players(self) -> tuple[str, ...]:
        return self.saved.game.players

    @property
    def variant(self) -> str:
        return self.saved.game.ruleset.title

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def winner(self) -> str | None:
        return self.result.winner

    @property
    def next_dealer(self) -> str:
        return self.result.next_dealer

    @property
    def cards_to_deal(self) -> int | None:
        return self.result.cards_to_deal

    @property
    def totals(self) -> dict[str, int]:
        return self.result.totals

    def total_labels(self) -> list[str]:
        """``NAME: TOTAL`` per player: the scoreboard's accessible totals."""
        return [f"{p}: {self.result.totals[p]}" for p in self.players]

    def rows(self) -> list[DealRow]:
        players = self.players
        return [
            DealRow(
                number=record.number,
                dealer=record.dealer,
                scores=tuple(record.score.scores[p] for p in players),
                running=tuple(record.running[p] for p in players),
                events=record.score.events,
                columns=tuple(i + 1 for i in record.credited),
            )
            for record in self.result.deals
        ]

    def columns(self) -> list[ColumnRow]:
        """Hollywood's games side by side; empty for a one-game score sheet."""
        if len(self.result.columns) < 2:
            return []
        return [
            ColumnRow(i + 1, tuple(c.totals[p] for p in self.players), c.finished, c.winner)
            for i, c in enumerate(self.result.columns)
        ]

    def bonuses(self) -> list[tuple[str, str, int]]:
        """The final bonuses itemised: (player, bonus name, points)."""
        return [
            (player, name, points)
            for player in self.players
            for name, points in sorted(self.result.bonuses.get(player, {}).items())
        ]

    def chart(self) -> dict[str, list[int]]:
        """Each player's running total after every deal, starting at 0 (the line chart)."""
        series = {p: [0] for p in self.players}
        for record in self.result.deals:
            for player in self.players:
                series[player].append(record.running[player])
        return series

    def share_text(self, language: Language) -> str:
        """A finished game's result in plain words, for the platform's share sheet."""
        lines = [
            tr(
                "scoreboard.share_totals",
                language,
                variant=self.variant,
                totals=", ".join(self.total_labels()),
            )
        ]
        if self.winner:
            lines.append(tr("scoreboard.winner", language, name=self.winner))
        return "\n".join(lines)

    # -- corrections -------------------------------------------------------------------------

    def remove(self, store: Store, number: int) -> None:
        """Remove deal ``number`` (1-based); everything after it is recomputed. Undo puts it back."""
        index = number - 1
        deals = self.saved.document.get("deals", [])
        if not 0 <= index < len(deals):
            self.error = f"deal {number}: there is no such deal (the game has {len(deals)})"
            return
        deal = dict(deals[index])
        try:
            self.saved = store.remove_deal(self.saved.id, index)
        except ScorerError as exc:
            self.error = str(exc)
            return
        self.removed = Removed(index, deal)
        self.error = ""

    def undo(self, store: Store) -> None:
        """Put the removed deal back where it was; the game is as before the removal."""
        if self.removed is None:
            return
        deals = [dict(d) for d in self.saved.document.get("deals", [])]
        steps = _reinsert_steps(self.saved.game, deals, index=self.removed.index, deal=self.removed.deal)
        if steps is None:
            self.undo_refused = True
            return
        try:
            for step in steps:
                self.saved = step(store, self.saved.id)
        except ScorerError as exc:
            self.error = str(exc)
            return
        self.removed = None
        self.error = ""
        self.undo_refused = False


Step = Callable[[Store, str], StoredGame]


def _reinsert_steps(
    game: Game, deals: list[dict[str, Any]], *, index: int, deal: dict[str, Any]
) -> list[Step] | None:
    """The store's own changes that put ``deal`` back at ``index``, each leaving a valid game.

    The store records, corrects and removes deals; putting one back in the middle is a
    correction of every later deal and one more at the end. Each game on the way is replayed
    by the engine first, so the store is never asked for a change it would refuse (which
    would leave the game half put back); if one would be refused, nothing is changed.
    """
    target = [*deals[:index], deal, *deals[index:]]
    steps: list[Step] = []
    current = list(deals)
    for position in range(index, len(target)):
        wanted = target[position]
        if position < len(current):
            current[position] = wanted
            steps.append(partial(_replace, index=position, deal=wanted))
        else:
            current.append(wanted)
            steps.append(partial(_add, deal=wanted))
        try:
            game.with_deals(tuple(DealDocument.model_validate(d).to_deal() for d in current))
        except ScorerError:
            return None
    return steps


def _replace(store: Store, game_id: str, *, index: int, deal: dict[str, Any]) -> StoredGame:
    return store.replace_deal(game_id, index, deal)


def _add(store: Store, game_id: str, *, deal: dict[str, Any]) -> StoredGame:
    return store.add_deal(game_id, deal)
