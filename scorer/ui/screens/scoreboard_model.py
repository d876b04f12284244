"""The Scoreboard's state: deal-by-deal scores, running totals, next dealer, the end of the game.

Everything shown comes from the engine's :class:`scorer.game.GameResult`; the model only
arranges it. Removing a deal keeps it for an undo; the engine replays the game after either.

>>> shelf = GameShelf.memory()
>>> game_id = shelf.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
>>> _ = shelf.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"})
>>> board = ScoreboardModel.load(shelf, game_id)
>>> board.total_labels()
['Anna: 0', 'Bea: 10']
>>> board.next_dealer, board.cards_to_deal
('Bea', 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.game import GameResult
from scorer.ui.i18n import Language, tr
from scorer.ui.shelf import GameShelf, SavedGame


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
    saved: SavedGame
    removed: Removed | None = None
    error: str = ""

    @classmethod
    def load(cls, shelf: GameShelf, game_id: str) -> ScoreboardModel:
        return cls(saved=shelf.game(game_id))

    # -- what the screen shows ---------------------------------------------------------------

    @property
    def result(self) -> GameResult:
        return self.saved.result

    @property
    def players(self) -> tuple[str, ...]:
        return self.saved.game.players

    @property
    def variant(self) -> str:
        return self.saved.game.ruleset.name

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

    def remove(self, shelf: GameShelf, number: int) -> None:
        """Remove deal ``number`` (1-based); everything after it is recomputed. Undo puts it back."""
        index = number - 1
        deals = self.saved.document.get("deals", [])
        if not 0 <= index < len(deals):
            self.error = f"deal {number}: there is no such deal (the game has {len(deals)})"
            return
        deal = dict(deals[index])
        try:
            self.saved = shelf.remove_deal(self.saved.id, index)
        except ScorerError as exc:
            self.error = str(exc)
            return
        self.removed = Removed(index, deal)
        self.error = ""

    def undo(self, shelf: GameShelf) -> None:
        if self.removed is None:
            return
        try:
            self.saved = shelf.insert_deal(self.saved.id, self.removed.index, self.removed.deal)
        except ScorerError as exc:
            self.error = str(exc)
            return
        self.removed = None
        self.error = ""
