"""The Home screen's state: the games in progress to continue, the recent finished ones, and
the abandoned ones (deleted games are listed nowhere).

>>> from scorer.league.store import Store
>>> store = Store.memory()
>>> _ = store.start_game(ruleset="gin", players=["Anna", "Bea"])
>>> home = HomeModel.load(store)
>>> [(g.variant, g.players, g.deals) for g in home.in_progress]
[('Gin rummy', 'Anna, Bea', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from scorer.league.records import GameInfo
from scorer.ruleset_text import variant_title

if TYPE_CHECKING:  # the store's module builds on pydantic: Home is drawn before it is imported
    from scorer.league.store import Store

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
        self.show(store.games())

    def show(self, games: Iterable[GameInfo]) -> None:
        """Home's lists from ``games`` (any that hold every game in progress and the
        :data:`RECENT_FINISHED` finished and abandoned changed last list the same)."""
        ordered = sorted(games, key=lambda g: (g.changed, g.id), reverse=True)
        active = [g for g in ordered if g.status == "active"]
        self.in_progress = [GameLine.of(g) for g in active if not g.finished]
        self.finished = [GameLine.of(g) for g in active if g.finished][:RECENT_FINISHED]
        self.abandoned = [GameLine.of(g) for g in ordered if g.status == "abandoned"][:RECENT_FINISHED]

    # -- Home before the store is open (the phone build, scorer/web/first_screen.py) --------

    def record(self) -> dict[str, Any] | None:
        """Home's lists as JSON for the store's summary record, so the phone draws Home before
        its store is open (:meth:`from_record`); ``None`` when there are more games in progress
        than :data:`HOME_RECORD_GAMES` (then Home waits for the store).

        >>> line = GameLine("g1", "Gin rummy", "Anna, Bea", 2, "Anna: 10, Bea: 0", None, "t")
        >>> home = HomeModel(in_progress=[line])
        >>> HomeModel.from_record(home.record()).in_progress == home.in_progress
        True
        """
        if len(self.in_progress) > HOME_RECORD_GAMES:
            return None
        lists = {"in_progress": self.in_progress, "finished": self.finished, "abandoned": self.abandoned}
        return {"v": HOME_RECORD} | {name: [_line_json(g) for g in lines] for name, lines in lists.items()}

    @classmethod
    def from_record(cls, data: object) -> HomeModel | None:
        """The model :meth:`record` wrote; ``None`` for anything else (a record of another
        version, or damaged): then Home waits for the store."""
        if not isinstance(data, dict) or data.get("v") != HOME_RECORD:
            return None
        try:
            lists = [[_line_of(g) for g in data[name]] for name in ("in_progress", "finished", "abandoned")]
        except (KeyError, TypeError, ValueError):
            return None
        return cls(in_progress=lists[0], finished=lists[1], abandoned=lists[2])


#: The version of :meth:`HomeModel.record`'s JSON.
HOME_RECORD: Final = 1
#: The most games in progress a record of Home holds (more: Home waits for the store).
HOME_RECORD_GAMES: Final = 30
_TEXTS: Final = ("id", "variant", "players", "totals", "changed")


def _line_json(line: GameLine) -> dict[str, Any]:
    return asdict(line)


def _line_of(data: Any) -> GameLine:
    if not (
        all(type(data[k]) is str for k in _TEXTS)
        and type(data["deals"]) is int
        and (data["winner"] is None or type(data["winner"]) is str)
    ):
        raise ValueError("not a game's line")
    return GameLine(**{f.name: data[f.name] for f in fields(GameLine)})
