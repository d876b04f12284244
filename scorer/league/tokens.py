"""Who may do what on a club server: the roles its access tokens carry.

A club server's store hands out tokens (``rummy league token add``), each with a name (the
device or person it was given to) and a role. The role says what the token may do over the
server's HTTP API; this module is the one table of it:

- ``viewer``: reads (standings, games, the league's facts);
- ``scorer``: reads and records (games and their deals);
- ``director``: everything, seating nights and managing the league as well.

A token's secret is made here (:func:`new_secret`: 256 random bits, URL-safe, after the
prefix :data:`PREFIX` so that a person knows one when they see it) and is shown once; the store
keeps only its SHA-256 (:func:`digest`), by which a request's token is looked up. A secret of
that much entropy needs no slow hash: nobody can guess one, and a stolen digest gives no
secret. Where the tokens are kept is :mod:`scorer.league.token_book` (never among the facts,
which every device syncs).

>>> may(Role.VIEWER, Action.READ), may(Role.VIEWER, Action.RECORD)
(True, False)
>>> may(Role.SCORER, Action.RECORD), may(Role.SCORER, Action.DIRECT)
(True, False)
>>> all(may(Role.DIRECTOR, action) for action in Action)
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from scorer.errors import quote
from scorer.league.errors import StoreInputError
from scorer.messages import Join, Message
from scorer.names import clean_name, name_key

#: What every token's secret starts with ("rummy scorer token"): a person, or a secret
#: scanner, knows one in a log or a paste.
PREFIX: Final = "rst_"
#: Random bytes in a secret (256 bits; at least 128 are needed so that none is ever guessed).
SECRET_BYTES: Final = 32
#: The longest token name (a device or a person).
MAX_TOKEN_NAME_CHARS: Final = 100
#: The longest secret looked at: longer is no token of ours, refused without hashing it.
MAX_SECRET_CHARS: Final = 200


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
    #: When it was revoked (UTC, ISO 8601); ``None`` while it is good.
    revoked: str | None = None

    def to_json(self) -> dict[str, str | None]:
        """The token as ``--json`` lists it.

        >>> TokenInfo("Anna's phone", Role.SCORER, "2026-12-07T02:00:00Z").to_json()
        {'name': "Anna's phone", 'role': 'scorer', 'created': '2026-12-07T02:00:00Z', 'revoked': None}
        """
        return {"name": self.name, "role": self.role.value, "created": self.created, "revoked": self.revoked}


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as the store keeps it: what is listed, the key its name is unique by, and the
    SHA-256 of its secret (never the secret)."""

    info: TokenInfo
    key: str
    hash: str

    def to_json(self) -> dict[str, str | None]:
        return {**self.info.to_json(), "key": self.key, "hash": self.hash}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TokenRow:
        """A row as :meth:`to_json` wrote it (``KeyError``/``ValueError``/``TypeError`` if it is not one)."""
        revoked = data.get("revoked")
        info = TokenInfo(
            name=str(data["name"]),
            role=Role(str(data["role"])),
            created=str(data["created"]),
            revoked=None if revoked is None else str(revoked),
        )
        return cls(info=info, key=str(data["key"]), hash=str(data["hash"]))


def new_secret() -> str:
    """A new token's secret: :data:`PREFIX` and :data:`SECRET_BYTES` random bytes, URL-safe.

    >>> secret = new_secret()
    >>> secret.startswith(PREFIX), len(secret) > 40, secret == new_secret()
    (True, True, False)
    """
    return PREFIX + secrets.token_urlsafe(SECRET_BYTES)


def digest(secret: str) -> str:
    """What the store keeps of a secret, and looks it up by: its SHA-256, in hex.

    >>> digest("rst_example")[:16]
    '42d9f4a528a7a55f'
    """
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def same_digest(a: str, b: str) -> bool:
    """Whether two digests are the same, compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def looks_like_secret(text: str) -> bool:
    """Whether ``text`` could be a secret at all (before any hash is made of it).

    >>> looks_like_secret(new_secret()), looks_like_secret(""), looks_like_secret("x" * 500)
    (True, False, False)
    """
    return 0 < len(text) <= MAX_SECRET_CHARS


def token_name(name: str | None) -> tuple[str, str]:
    """A token's name as kept (cleaned as every name is: :func:`scorer.names.clean_name`) and
    the key it is unique by (case and spacing aside); :class:`StoreInputError` naming the fault.

    >>> token_name("  Anna's Phone ")
    ("Anna's Phone", "anna's phone")
    >>> token_name(" ")
    Traceback (most recent call last):
    ...
    scorer.league.errors.StoreInputError: a token needs a name
    """
    clean = clean_name(name, what="token", most=MAX_TOKEN_NAME_CHARS, error=StoreInputError)
    return clean, name_key(clean)


def token_role(role: Role | str) -> Role:
    """The role named, or :class:`StoreInputError` quoting it and naming the roles there are.

    >>> token_role(" Scorer ")
    <Role.SCORER: 'scorer'>
    >>> token_role("admin")
    Traceback (most recent call last):
    ...
    scorer.league.errors.StoreInputError: unknown role 'admin': a token's role is viewer, scorer or director
    """
    if isinstance(role, Role):
        return role
    try:
        return Role(role.strip().lower())
    except ValueError:
        roles = Join(tuple(r.value for r in Role), last="or")
        raise StoreInputError(Message("store.token_role_unknown", value=quote(role), roles=roles)) from None


def name_taken(name: str) -> StoreInputError:
    """The refusal of a new token named as a good one already is."""
    return StoreInputError(Message("store.token_exists", value=quote(name)))


def no_such_token(name: str) -> StoreInputError:
    """The refusal to revoke a token no good one is named."""
    return StoreInputError(Message("store.token_unknown", value=quote(name)))
