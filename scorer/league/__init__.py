"""The league: stored games, players, seasons, and the standings and ratings computed from them.

:class:`~scorer.league.store.Store` is the one way in: the CLI and the app call its public
methods and never the storage beneath it. Names are imported on first use, so that
``scorer.league.summary`` (or the ``rummy`` command line) does not load the store.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorer.league.errors import (
        ConflictError,
        DamagedFileError,
        GameStatusError,
        NewerStoreError,
        StoreError,
        StoreInputError,
        UnknownGameError,
        UnknownLeagueError,
        UnknownPlayerError,
    )
    from scorer.league.records import GameEvent, GameInfo, League, Player, Season, StoredGame
    from scorer.league.store import Store

_HOMES = {
    "ConflictError": "scorer.league.errors",
    "DamagedFileError": "scorer.league.errors",
    "GameStatusError": "scorer.league.errors",
    "NewerStoreError": "scorer.league.errors",
    "StoreError": "scorer.league.errors",
    "StoreInputError": "scorer.league.errors",
    "UnknownGameError": "scorer.league.errors",
    "UnknownLeagueError": "scorer.league.errors",
    "UnknownPlayerError": "scorer.league.errors",
    "GameEvent": "scorer.league.records",
    "GameInfo": "scorer.league.records",
    "League": "scorer.league.records",
    "Player": "scorer.league.records",
    "Season": "scorer.league.records",
    "StoredGame": "scorer.league.records",
    "Store": "scorer.league.store",
}

__all__ = [
    "ConflictError",
    "DamagedFileError",
    "GameEvent",
    "GameInfo",
    "GameStatusError",
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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scorer.league' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
