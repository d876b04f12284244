"""The Home screen's state: the games in progress to continue and the recent finished ones.

>>> shelf = GameShelf.memory()
>>> _ = shelf.start_game(ruleset="gin", players=["Anna", "Bea"])
>>> home = HomeModel.load(shelf)
>>> [(g.variant, g.players, g.deals) for g in home.in_progress]
[('gin rummy', 'Anna, Bea', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import flet as ft

from scorer.ui.shelf import GameShelf, SavedGame

RECENT_FINISHED: Final = 10


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game in a list: what it is, who plays, how far it has come."""

    id: str
    variant: str
    players: str
    deals: int
    totals: str  # "Anna: 12, Bea: 40"
    winner: str | None
    changed: str

    @classmethod
    def of(cls, saved: SavedGame) -> GameLine:
        result = saved.result
        return cls(
            id=saved.id,
            variant=saved.game.ruleset.name,
            players=", ".join(saved.game.players),
            deals=len(result.deals),
            totals=", ".join(f"{p}: {result.totals[p]}" for p in saved.game.players),
            winner=result.winner,
            changed=saved.changed[:16].replace("T", " "),
        )


@dataclass(eq=False)
class HomeModel(ft.Observable):
    in_progress: list[GameLine] = field(default_factory=list)
    finished: list[GameLine] = field(default_factory=list)

    @classmethod
    def load(cls, shelf: GameShelf) -> HomeModel:
        model = cls()
        model.reload(shelf)
        return model

    def reload(self, shelf: GameShelf) -> None:
        games = shelf.games()
        self.in_progress = [GameLine.of(g) for g in games if not g.finished]
        self.finished = [GameLine.of(g) for g in games if g.finished][:RECENT_FINISHED]
