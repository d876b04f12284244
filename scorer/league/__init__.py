"""The league: stored games, players, seasons, and the standings and ratings computed from them.

:class:`~scorer.league.store.Store` is the one way in: the CLI and the app call its public
methods and never the storage beneath it.
"""

from __future__ import annotations

from scorer.league.errors import (
    DamagedFileError,
    NewerStoreError,
    StoreError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
)
from scorer.league.records import GameInfo, League, Player, Season, StoredGame
from scorer.league.store import Store

__all__ = [
    "DamagedFileError",
    "GameInfo",
    "League",
    "NewerStoreError",
    "Player",
    "Season",
    "Store",
    "StoreError",
    "StoreInputError",
    "StoredGame",
    "UnknownGameError",
    "UnknownLeagueError",
    "UnknownPlayerError",
]
