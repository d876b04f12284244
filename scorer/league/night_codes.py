"""A club night's access codes: the director's, the viewer's and one per table, derived, never kept.

``rummy app`` beyond loopback lets a phone in by its access code (:mod:`scorer.ui.gate`). On a
club night each code carries a role, the same roles as a club server's tokens
(:class:`~scorer.league.tokens.Role`; what each may do is :func:`~scorer.league.tokens.may`):

- the night's **director** code: everything of that night (its screen, every table's game,
  the next round, the coin, its end);
- a **table** code (role ``scorer``): that table's game only, in every round of the night
  (record and correct its deals), so the QR code on table 3 stays good all evening;
- the **viewer** code: looks only (standings, the tables, the TV view, scoreboards).

A code is secret, so it is no fact (facts travel to every device and to the club server, where a
viewer's token reads them). Nothing is kept per night either: a code is the HMAC-SHA256 of the
night's id, the role and the table under the store's own secret
(:meth:`Store.code_secret <scorer.league.store.Store.code_secret>`, kept beside the facts as the
tokens are), turned into :data:`CODE_LENGTH` characters of the access code alphabet. So
``rummy league night codes`` prints the same codes every time, and every app serving the same
store agrees on them.

>>> from functools import partial
>>> secret = bytes(32)
>>> derive(secret, night="n1", role=Role.VIEWER)
'YBFMMYTW'
>>> table = partial(derive, secret, night="n1", role=Role.SCORER)
>>> table(table=1) != table(table=2)
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from scorer.league.tokens import Role

if TYPE_CHECKING:
    from scorer.league.night import Night
    from scorer.league.store import Store

#: The characters of a code: no two that read alike on a phone (0 O, 1 I L), as the app's own code.
ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters in a derived code: 31**8, about 8.5e14, as many as the app-wide code has.
CODE_LENGTH: Final = 8


@dataclass(frozen=True, slots=True)
class Grant:
    """What a code lets its holder do: a role, and where (``night``: one night's, ``None``: the
    whole app's; ``table``: one table of that night, for a table's code)."""

    role: Role
    night: str | None = None
    table: int | None = None

    @property
    def everything(self) -> bool:
        """The app-wide code's grant: the club's director, of every night and every game."""
        return self.role is Role.DIRECTOR and self.night is None


#: The app-wide code's grant (and the app's on loopback, where no code is asked).
EVERYTHING: Final = Grant(Role.DIRECTOR)

#: The grant of the request being handled (``None``: no gate, loopback). Set by the app's gate
#: (:class:`scorer.ui.gate.AccessGate`) around the app it wraps, so whatever the request starts
#: (a Flet session's ``main`` and its events, run in tasks of its WebSocket's) reads it. Kept
#: here, not in the gate, so that the app in a browser (which has no gate) need not import it.
CURRENT_GRANT: ContextVar[Grant | None] = ContextVar("rummy_grant", default=None)


@dataclass(frozen=True, slots=True)
class NightCodes:
    """A night's codes: the director's, the viewer's and each table's (by table number)."""

    night: str
    director: str
    viewer: str
    tables: tuple[tuple[int, str], ...]

    def to_json(self) -> dict[str, Any]:
        """As ``rummy league night codes --json`` prints them."""
        return {
            "night": self.night,
            "director": self.director,
            "viewer": self.viewer,
            "tables": [{"table": table, "code": code} for table, code in self.tables],
        }

    def table(self, number: int) -> str | None:
        """Table ``number``'s code (``None``: the night has no such table)."""
        return next((code for table, code in self.tables if table == number), None)


def derive(secret: bytes, *, night: str, role: Role, table: int | None = None) -> str:
    """The code of ``role`` (and ``table``, for a table's) on ``night`` under the store's ``secret``."""
    message = f"rummy night code\x00{night}\x00{role.value}\x00{table if table is not None else ''}"
    number = int.from_bytes(hmac.new(secret, message.encode(), hashlib.sha256).digest(), "big")
    characters = []
    for _ in range(CODE_LENGTH):  # 256 bits drawn from for 40: no character is favoured
        number, at = divmod(number, len(ALPHABET))
        characters.append(ALPHABET[at])
    return "".join(characters)


def table_numbers(night: Night) -> list[int]:
    """Every table number the night has seated, in any round."""
    return sorted({table.table for played in night.rounds for table in played.tables})


def night_codes(secret: bytes, night: Night) -> NightCodes:
    """The night's codes."""
    return NightCodes(
        night=night.id,
        director=derive(secret, night=night.id, role=Role.DIRECTOR),
        viewer=derive(secret, night=night.id, role=Role.VIEWER),
        tables=tuple(
            (number, derive(secret, night=night.id, role=Role.SCORER, table=number))
            for number in table_numbers(night)
        ),
    )


def grant_for(secret: bytes, nights: Iterable[Night], code: str) -> Grant | None:
    """The grant of ``code`` (any case, spaces around it aside) among the nights' codes; ``None``
    if it is none of them. Every code is compared, each in constant time."""
    wanted = code.strip().upper().encode("utf-8", "surrogateescape")
    found: Grant | None = None
    for night in nights:
        codes = night_codes(secret, night)
        candidates = [
            (codes.director, Grant(Role.DIRECTOR, night.id)),
            (codes.viewer, Grant(Role.VIEWER, night.id)),
            *((text, Grant(Role.SCORER, night.id, table)) for table, text in codes.tables),
        ]
        for text, grant in candidates:
            if hmac.compare_digest(wanted, text.encode()) and found is None:
                found = grant
    return found


def store_grant(store: Store, code: str) -> Grant | None:
    """The grant of ``code`` among the codes of every club night ``store`` has."""
    nights = [night for league in store.leagues() for night in store.nights(league.id)]
    if not nights:
        return None
    return grant_for(store.code_secret(), nights, code)


def table_games(night: Night, table: int) -> list[str]:
    """The games table ``table`` has played on ``night``, round by round (the last is its game now)."""
    return [seated.game for played in night.rounds for seated in played.tables if seated.table == table]


def night_games(night: Night) -> set[str]:
    """Every table's game of every round of ``night``."""
    return {seated.game for played in night.rounds for seated in played.tables}


__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "CURRENT_GRANT",
    "EVERYTHING",
    "Grant",
    "NightCodes",
    "derive",
    "grant_for",
    "night_codes",
    "night_games",
    "store_grant",
    "table_games",
    "table_numbers",
]
