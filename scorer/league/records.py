"""What the store hands out: frozen values, never the stored documents themselves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from scorer.game import Game, GameResult
from scorer.league.summary import GameSummary

#: A game's state in the store: played on (``active``), given up, or deleted (both undoable).
GAME_STATUSES = ("active", "abandoned", "deleted")


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One signed change to a game: when, who, what, and (for a deal) which deal and why.

    ``action`` is one of :data:`EVENT_ACTIONS`; ``deal`` is the 1-based number of the deal the
    change concerns (as numbered when it was made); ``by`` is ``""`` when nobody was named.
    ``was`` is, for a correction, the deal's entries as they were before it (a game-file deal
    object); ``None`` for every other change, and for a correction stored before it was kept.
    ``check`` is, for a deal confirmed, disputed or resolved at a club night's table
    (:mod:`scorer.league.confirm`), the digest of the deal it was about (``digest``), a
    dispute's version of the deal (``theirs``) and a resolution's choice (``keep``).
    """

    seq: int
    at: str
    by: str
    action: str
    deal: int | None
    why: str | None
    was: Mapping[str, Any] | None = field(default=None, hash=False)
    check: Mapping[str, Any] | None = field(default=None, hash=False)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "seq": self.seq,
            "at": self.at,
            "by": self.by,
            "action": self.action,
            "deal": self.deal,
            "why": self.why,
        }
        if self.was is not None:
            data["was"] = dict(self.was)
        if self.check is not None:
            data["check"] = dict(self.check)
        return data


EventAction = Literal[
    "started",
    "recorded",
    "corrected",
    "removed",
    "restored",
    "finished",
    "abandoned",
    "resumed",
    "deleted",
    "undeleted",
    "moved",
    "imported",
    "confirmed",
    "disputed",
    "resolved",
    "penalised",
    "penalty_lifted",
    "replaced",
]
EVENT_ACTIONS: tuple[str, ...] = get_args(EventAction)

#: The words an action is said in where its name says something else: a deal ``restored`` (the
#: name old logs and ``--json`` keep) was put back; "restore" is the mending of a store's files.
ACTION_WORDS: Mapping[str, str] = {"restored": "put back", "penalty_lifted": "penalty lifted"}


def action_word(action: str) -> str:
    """The word ``action`` is said in: ``action_word("restored")`` is ``'put back'``."""
    return ACTION_WORDS.get(action, action)


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: str
    changed: str


@dataclass(frozen=True, slots=True)
class Season:
    id: str
    league_id: str
    name: str
    number: int
    created: str
    closed: str | None  # when it was closed; None: open

    @property
    def is_open(self) -> bool:
        return self.closed is None


@dataclass(frozen=True, slots=True)
class League:
    id: str
    name: str
    created: str
    changed: str
    seasons: tuple[Season, ...]  # in order of creation
    #: Its ordinary games started now confirm their deals at the table (scorer/league/confirm.py).
    confirmation: bool = False

    @property
    def season(self) -> Season | None:
        """The open season, where new games go (None: every season is closed)."""
        return next((s for s in reversed(self.seasons) if s.is_open), None)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as listed: who played, when, and its cached summary (player keys are ids)."""

    id: str
    league_id: str | None
    season_id: str | None
    ruleset: str
    players: tuple[str, ...]  # player ids in seat order
    names: tuple[str, ...]  # their current names
    created: str
    changed: str
    played: str
    deals: int
    finished: bool
    winner: str | None  # player id
    summary: GameSummary
    status: str = "active"  # one of GAME_STATUSES
    #: Who holds each seat now, and their names now (docs/rules.md, "Replacements": the
    #: seat's player unless someone took it over); empty: :attr:`players` and :attr:`names`.
    holders: tuple[str, ...] = ()
    holder_names: tuple[str, ...] = ()

    def seats(self) -> list[tuple[str, str, int]]:
        """Each seat as a list shows it: who holds it now (id, name) and the seat's total,
        its holders' together (a replaced seat's total goes on)."""
        held = self.summary.seat_holders(len(self.players))
        ids = self.holders or self.players
        names = self.holder_names or self.names
        return [(i, n, self.summary.seat_total(h)) for i, n, h in zip(ids, names, held, strict=True)]

    def name_of(self, player: str | None) -> str | None:
        """A player of the game by name now (a seat's first player or a later holder)."""
        if player is None:
            return None
        known = dict(zip(self.players, self.names, strict=True))
        known.update(zip(self.holders, self.holder_names, strict=True))
        return known.get(player, player)


@dataclass(frozen=True, slots=True)
class NightTag:
    """A game that is a table of a club night: the night, its round and table (1-based), and
    the round's deadline (UTC ISO; ``None``: the round has no timer)."""

    night: str
    round: int
    table: int | None = None
    deadline: str | None = None


@dataclass(frozen=True)
class StoredGame:
    """A stored game: its raw entries (``document``, a game file) and the game replayed from them."""

    id: str
    league_id: str | None
    season_id: str | None
    created: str
    changed: str
    played: str
    players: tuple[str, ...]  # player ids by seat; ``document["players"]`` holds the names played under
    document: dict[str, Any]
    game: Game
    result: GameResult
    finished: bool
    status: str = "active"  # one of GAME_STATUSES
    events: tuple[GameEvent, ...] = ()  # oldest first
    night: NightTag | None = None  # a table of a club night
