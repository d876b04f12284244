"""The club server a store syncs with (Settings -> *Club server*): its address, a token, the league.

They are the store's (the store the app serves syncs with the club), never facts: a device's
token is its own and is sent to no one. So each ledger keeps them beside the facts: a folder
store in ``club.json`` (written whole, mode ``0o600``: it holds the token), the app in a
browser in its IndexedDB ``meta`` record ``club``, a store in memory for as long as it lives.
A club server itself (PostgreSQL) syncs with no other and keeps none.

>>> server = ClubServer.of("https://club.example.org/ ", "rk_abcdefgh1234", "lg1")
>>> server.url, server.tail
('https://club.example.org', '1234')
>>> ClubServer.from_json(server.to_json()) == server
True
>>> try:
...     club_address("club.example.org")
... except ClubServerError as exc:
...     print(exc)
'club.example.org' is not a club server's address: it starts with http:// or https://
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Any, Final

from scorer.league.errors import StoreInputError
from scorer.messages import Message

#: The folder store's file of its club server.
CLUB_NAME: Final = "club.json"
#: The characters of the token shown back once it is saved (never all of it).
TAIL: Final = 4
#: The longest address and token kept (a pasted page is not an address).
LONGEST: Final = 2000


class ClubServerError(StoreInputError):
    """A club server's address or token that cannot be kept (the message quotes it)."""


def club_address(text: str) -> str:
    """``text`` as a club server's address (``http(s)://host[:port][/path]``, no trailing
    ``/``); refused (:class:`ClubServerError`) if it is none."""
    clean = text.strip()
    try:
        parsed = urllib.parse.urlsplit(clean)
        parsed.port  # noqa: B018 -- a port that is not a number is refused here
    except ValueError:
        parsed = None
    if (
        parsed is None
        or parsed.scheme not in ("http", "https")
        or not parsed.hostname
        or parsed.query
        or parsed.fragment
        or len(clean) > LONGEST
        or any(c.isspace() for c in clean)
    ):
        raise ClubServerError(Message("sync.club_bad_url", url=repr(text[:100])))
    return clean.rstrip("/")


def club_token(text: str) -> str:
    """``text`` as a token (its spaces around it dropped); refused when empty or not one line."""
    clean = text.strip()
    if not clean or len(clean) > LONGEST or any(c.isspace() or not c.isprintable() for c in clean):
        raise ClubServerError(Message("sync.club_bad_token"))
    return clean


@dataclass(frozen=True, slots=True)
class ClubServer:
    """The club server to sync with: its address, the token it gave this device, the league
    (its id where the store has it; else its name or id on the server, received whole)."""

    url: str
    token: str
    league: str

    @classmethod
    def of(cls, url: str, token: str, league: str) -> ClubServer:
        """Checked: the address (:func:`club_address`), the token (:func:`club_token`), a league."""
        if not league.strip():
            raise ClubServerError(Message("sync.club_no_league"))
        return cls(url=club_address(url), token=club_token(token), league=league.strip())

    @property
    def tail(self) -> str:
        """The token's last characters: what is shown of it once saved."""
        return self.token[-TAIL:]

    def __repr__(self) -> str:  # never the token: a log line or a traceback shows only its tail
        return f"ClubServer(url={self.url!r}, token='…{self.tail}', league={self.league!r})"

    def to_json(self) -> dict[str, Any]:
        return {"v": 1, "url": self.url, "token": self.token, "league": self.league}

    @classmethod
    def from_json(cls, data: Any) -> ClubServer | None:
        """The club server kept in ``data``; ``None`` for anything else (a damaged record is
        as none: Settings asks for it again)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls.of(str(data["url"]), str(data["token"]), str(data["league"]))
        except (KeyError, ClubServerError):
            return None


__all__ = ["CLUB_NAME", "ClubServer", "ClubServerError", "club_address", "club_token"]
