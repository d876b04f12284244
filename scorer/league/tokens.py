"""Who may do what on a club server: the roles its access tokens carry.

A club server's store hands out tokens (``rummy league token add``), each with a name (the
device or person it was given to) and a role. The role says what the token may do over the
server's HTTP API; this module is the one table of it:

- ``viewer``: reads (standings, games, the league's facts);
- ``scorer``: reads and records (games and their deals);
- ``director``: everything, seating nights and managing the league as well.

>>> may(Role.VIEWER, Action.READ), may(Role.VIEWER, Action.RECORD)
(True, False)
>>> may(Role.SCORER, Action.RECORD), may(Role.SCORER, Action.DIRECT)
(True, False)
>>> all(may(Role.DIRECTOR, action) for action in Action)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Role(StrEnum):
    """What a token is for, by who holds it."""

    VIEWER = "viewer"
    SCORER = "scorer"
    DIRECTOR = "director"


class Action(StrEnum):
    """What a request asks to do."""

    #: Read standings, games and facts.
    READ = "read"
    #: Start games and record, correct or remove their deals.
    RECORD = "record"
    #: Seat club nights, open and close seasons, manage leagues and players.
    DIRECT = "direct"


#: Each role and the actions it may take.
ALLOWED: Final[dict[Role, frozenset[Action]]] = {
    Role.VIEWER: frozenset({Action.READ}),
    Role.SCORER: frozenset({Action.READ, Action.RECORD}),
    Role.DIRECTOR: frozenset(Action),
}


def may(role: Role, action: Action) -> bool:
    """Whether a token of ``role`` may take ``action``."""
    return action in ALLOWED[role]


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A token as the store lists it: never its secret, which is shown once when made."""

    name: str
    role: Role
    #: When it was made (UTC, ISO 8601).
    created: str
