"""The league's errors: one branch of the project's hierarchy (:mod:`scorer.errors`).

A fault in what the caller asked for (an unknown league, a bad deal, a bad import file) is
also a :class:`ValueError`, as everywhere in the project; a store that cannot be used as it
is (damaged, written by a newer version, locked too long) is a plain :class:`StoreError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorer.errors import ScorerError
from scorer.messages import Message

if TYPE_CHECKING:
    from pathlib import Path

    from scorer.league.records import GameEvent


class StoreError(ScorerError):
    """Base class of the league store's errors."""


class StoreInputError(StoreError, ValueError):
    """A request the store refuses because of its input; the message names the input."""


class UnknownLeagueError(StoreInputError):
    """No league has this name or id."""


class UnknownSeasonError(StoreInputError):
    """No season of the league has this name or id."""


class UnknownPlayerError(StoreInputError):
    """No player has this name or id."""


class UnknownGameError(StoreInputError):
    """No game has this id."""


class SeasonClosedError(StoreInputError):
    """The game belongs to a closed season, whose standings are frozen."""


class GameStatusError(StoreInputError):
    """The game is abandoned or deleted: undo that first to change it."""


class ConflictError(StoreInputError):
    """Another device changed the deal first: nothing was written.

    ``number`` is the 1-based deal concerned; ``theirs`` the deal document stored there now
    (``None``: the deal was removed); ``event`` the change that put it there (who and when).
    """

    def __init__(
        self,
        message: Message,
        *,
        game_id: str,
        number: int,
        theirs: dict[str, Any] | None,
        event: GameEvent | None,
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.number = number
        self.theirs = theirs
        self.event = event


class LookAlikeError(StoreInputError):
    """A new player's name that looks just like a player's already here (``Аnna`` and ``Anna``):
    refused unless the caller says it is a different person. ``name`` is the new name,
    ``existing`` the player's it looks like."""

    def __init__(self, message: Message, *, name: str, existing: str) -> None:
        super().__init__(message)
        self.name = name
        self.existing = existing


class ImportFileError(StoreInputError):
    """A file to import that cannot be read, is too big, or is not a game file or league export."""


class DamagedFileError(StoreError):
    """A store file that is not whole (cut short, damaged, of another store).

    The file is never written over; the message names it and what is wrong with it
    (``rummy league restore`` mends it from the log's other copy).
    """

    def __init__(
        self, path: Path | str, problem: Message, backup: Path | None, *, rebuildable: bool = False
    ) -> None:
        from pathlib import Path  # imported here: the command line loads this module to start

        self.path = Path(path)
        self.problem = problem
        self.backup = backup
        super().__init__(Message("store.damaged_file", path=f"'{self.path}'", problem=problem))


class NewerStoreError(StoreError):
    """A store written by a newer version of Rummy Scorer, which this version cannot read."""


class StoreBusyError(StoreError):
    """Another program held the store's lock for too long."""
