"""The Home screen's state: the games in progress to continue, the recent finished ones, and
the abandoned ones (deleted games are listed nowhere).

>>> store = Store.memory()
>>> _ = store.start_game(ruleset="gin", players=["Anna", "Bea"])
>>> home = HomeModel.load(store)
>>> [(g.variant, g.players, g.deals) for g in home.in_progress]
[('Gin rummy', 'Anna, Bea', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import flet as ft

from scorer.league.records import GameInfo
from scorer.league.store import Store
from scorer.ruleset_text import variant_title

RECENT_FINISHED: Final = 10


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game in a list: what it is, who plays, how far it has come."""

    id: str
    variant: str  # remembers its message: the screen shows it in its language
    players: str
    deals: int
    totals: str  # "Anna: 12, Bea: 40"
    winner: str | None
    changed: str

    @classmethod
    def of(cls, info: GameInfo) -> GameLine:
        """From the store's listing (its cached summary): no game is replayed to list it."""
        seats = info.seats()  # who holds each seat now, with the seat's total
        return cls(
            id=info.id,
            variant=variant_title(info.ruleset),
            players=", ".join(name for _, name, _ in seats),
            deals=info.deals,
            totals=", ".join(f"{name}: {total}" for _, name, total in seats),
            winner=info.name_of(info.winner),
            changed=info.changed,
        )


@dataclass(eq=False)
class HomeModel(ft.Observable):
    in_progress: list[GameLine] = field(default_factory=list)
    finished: list[GameLine] = field(default_factory=list)
    abandoned: list[GameLine] = field(default_factory=list)

    @classmethod
    def load(cls, store: Store) -> HomeModel:
        model = cls()
        model.reload(store)
        return model

    def reload(self, store: Store) -> None:
        games = sorted(store.games(), key=lambda g: (g.changed, g.id), reverse=True)
        active = [g for g in games if g.status == "active"]
        self.in_progress = [GameLine.of(g) for g in active if not g.finished]
        self.finished = [GameLine.of(g) for g in active if g.finished][:RECENT_FINISHED]
        self.abandoned = [GameLine.of(g) for g in games if g.status == "abandoned"][:RECENT_FINISHED]
