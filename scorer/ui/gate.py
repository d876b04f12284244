"""The access gate: beyond loopback, only a browser that knows the table's code gets the app.

An ASGI wrapper, not an HTTP middleware, so that the WebSocket which carries the whole Flet
session is refused as well as the page: a request passes when its ``code`` query parameter
holds the code or its cookie holds a session token, and is refused otherwise (HTTP 403; a
WebSocket upgrade is closed with 1008 before it is accepted, which the server answers with
HTTP 403). A page request that brought a good code in its query gets a new session token as an
HttpOnly cookie, so the client's later requests (its scripts, the WebSocket, a reload) pass.

The token is not the code: it is a random nonce and the code's grant (its role and scope,
:class:`~scorer.league.night_codes.Grant`) signed with a secret made anew at every start
(:class:`Sessions`), so a cookie read off a phone does not tell the code, its role cannot be
changed without the signature failing, and every cookie of an earlier run is refused.

**Codes per role.** The app-wide code (``--code``, or the one made at start) is the club's
director: everything. Given ``grants`` (:func:`scorer.league.night_codes.store_grant`), a club
night's codes are let in too, each with its role: the night's director, a table's (that table's
game only) or the viewer's. The gate decides the grant; the app learns it through
:data:`CURRENT_GRANT`, set while the request (the session's WebSocket too) is handled, and
enforces it (:mod:`scorer.ui.roles`).

Wrong codes are throttled per client address (:class:`~scorer.throttle.Throttle`, the one
throttle the sync API's tokens share): after :data:`~scorer.throttle.FREE_TRIES` wrong codes an
address must wait, twice as long after each further one, and meanwhile every code it sends is
answered 429 with ``Retry-After`` without being looked at. The throttling is logged (the
address and the wait); the guesses never are.

Codes are compared in constant time (:func:`hmac.compare_digest`), so the time a refusal takes
says nothing about how much of a guess was right. Case does not matter: a phone keyboard that
capitalises or not still lets the player in.

>>> len(new_access_code()) == ACCESS_CODE_LENGTH
True
>>> validate_access_code("table42x")
'TABLE42X'
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any, Final
from urllib.parse import parse_qsl

from scorer.errors import ScorerError
from scorer.league.night_codes import CURRENT_GRANT, EVERYTHING, Grant
from scorer.league.tokens import Role
from scorer.messages import Message as Said
from scorer.throttle import (
    FIRST_WAIT,
    FORGET_AFTER,
    FREE_TRIES,
    LONGEST_WAIT,
    MAX_ADDRESSES,
    Network,
    Throttle,
    client_address,
    throttled_as,
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Generated codes leave out the characters that read alike on a phone: 0 O, 1 I L.
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: 31**8 (about 8.5e14) codes: no guessing through a home network, and quick to type.
ACCESS_CODE_LENGTH: Final = 8
#: A code given with ``--code``: letters A-Z and digits, in either case.
GIVEN_CODE_CHARACTERS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
#: As long as a generated code: a shorter one is guessed sooner, throttle or not.
GIVEN_CODE_MIN_LENGTH: Final = 8
GIVEN_CODE_MAX_LENGTH: Final = 64

#: The query parameter of the link, and the cookie the session token is kept in afterwards.
CODE_PARAMETER: Final = "code"
COOKIE_NAME: Final = "rummy_access"
#: WebSocket close code for "policy violation": the upgrade is refused, never accepted.
WEBSOCKET_POLICY_VIOLATION: Final = 1008

REFUSED_TEXT: Final = (
    "Rummy Scorer: this table needs its access code.\n"
    "Open the link, or scan the QR code, shown where the app was started.\n"
)
THROTTLED_TEXT: Final = "Rummy Scorer: too many wrong access codes from this address; wait {seconds} s.\n"

log = logging.getLogger(__name__)


def request_grant() -> Grant:
    """The grant the gate gave the request under way; with no gate (loopback), everything."""
    return CURRENT_GRANT.get() or EVERYTHING


class AccessCodeError(ScorerError, ValueError):
    """An access code given with ``--code`` that is too short, too long or has other characters."""


def new_access_code() -> str:
    """A fresh random code of :data:`ACCESS_CODE_LENGTH` characters from :data:`CODE_ALPHABET`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(ACCESS_CODE_LENGTH))


def validate_access_code(text: str) -> str:
    """The code as the gate keeps it (upper case), or :class:`AccessCodeError` naming the fault.

    >>> validate_access_code("ab!")
    Traceback (most recent call last):
    ...
    scorer.ui.gate.AccessCodeError: --code 'ab!': an access code is 8 to 64 letters (A-Z) and digits
    """
    code = text.strip().upper()
    rule = Said("app.code_rule", least=GIVEN_CODE_MIN_LENGTH, most=GIVEN_CODE_MAX_LENGTH)
    if not GIVEN_CODE_MIN_LENGTH <= len(code) <= GIVEN_CODE_MAX_LENGTH:
        raise AccessCodeError(Said("app.code_bad", code=repr(text), rule=rule))
    others = sorted({character for character in code if character not in GIVEN_CODE_CHARACTERS})
    if others:
        shown = " ".join(repr(character) for character in others)
        raise AccessCodeError(Said("app.code_bad_characters", code=repr(text), rule=rule, characters=shown))
    return code


def code_matches(presented: str | None, code: str) -> bool:
    """Does ``presented`` (from a query or a cookie) hold ``code``? Compared in constant time."""
    if presented is None:
        return False
    # Bytes, not str: compare_digest refuses non-ASCII text, and a guess may contain any.
    return hmac.compare_digest(presented.strip().upper().encode(), code.encode())


def access_cookie(token: str) -> str:
    """The ``Set-Cookie`` value that keeps a session token for the client's later requests."""
    # No Secure flag: the app is served over plain HTTP on the local network.
    return f"{COOKIE_NAME}={token}; Path=/; HttpOnly; SameSite=Strict"


class Sessions:
    """Session tokens: a random nonce and the grant, with their HMAC under a secret that lives
    as long as the server.

    Nothing is kept per session, so any number of phones cost nothing; a new server (a restart,
    a new code) has a new secret, and every earlier token fails.

    >>> sessions = Sessions()
    >>> token = sessions.new()
    >>> sessions.valid(token), Sessions().valid(token), sessions.valid(token[:-1] + "x")
    (True, False, False)
    >>> sessions.grant(sessions.new(Grant(Role.SCORER, "n1", 3)))
    Grant(role=<Role.SCORER: 'scorer'>, night='n1', table=3)
    """

    __slots__ = ("_secret",)

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    def _sign(self, nonce: str) -> str:
        return hmac.new(self._secret, nonce.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()

    def new(self, grant: Grant = EVERYTHING) -> str:
        """A token for ``grant``: ``nonce.role.table.night.signature`` (``-`` for no table or night)."""
        nonce = secrets.token_urlsafe(18)
        table = str(grant.table) if grant.table is not None else "-"
        body = f"{nonce}.{grant.role.value}.{table}.{grant.night or '-'}"
        return f"{body}.{self._sign(body)}"

    def grant(self, token: str | None) -> Grant | None:
        """The grant ``token`` was made for, or ``None`` unless this server signed it as it is."""
        if not token:
            return None
        body, _, signature = token.rpartition(".")
        # Bytes, not str: compare_digest refuses non-ASCII text, and a cookie may hold any.
        if not hmac.compare_digest(signature.encode("utf-8", "surrogateescape"), self._sign(body).encode()):
            return None
        _, _, rest = body.partition(".")
        role, _, rest = rest.partition(".")
        table, _, night = rest.partition(".")
        try:
            return Grant(
                Role(role),
                night=None if night == "-" else night,
                table=None if table == "-" else int(table),
            )
        except ValueError:  # signed here, so never: a token of another version's form
            return None

    def valid(self, token: str | None) -> bool:
        return self.grant(token) is not None


def _header(scope: Scope, name: bytes) -> list[str]:
    raw: list[tuple[bytes, bytes]] = scope.get("headers", [])
    return [value.decode("latin-1") for key, value in raw if key.lower() == name]


def _query_code(scope: Scope) -> str | None:
    query: bytes = scope.get("query_string", b"")
    for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if key == CODE_PARAMETER:
            return value
    return None


def _cookie_code(scope: Scope) -> str | None:
    for header in _header(scope, b"cookie"):
        for pair in header.split(";"):
            key, _, value = pair.strip().partition("=")
            if key == COOKIE_NAME:
                return value.strip().strip('"')
    return None


class AccessGate:
    """Wrap an ASGI app: HTTP and WebSocket requests without the code never reach it.

    Lifespan events pass through, so the wrapped app starts and stops as usual. ``throttle``
    and ``sessions`` are made here unless given (tests give them a clock, a secret).
    ``proxies``: the trusted proxies whose ``X-Forwarded-For`` names the client
    (:func:`scorer.throttle.client_address`); none by default. ``grants``: the grant of a code
    that is not the app-wide one (a club night's: :func:`scorer.league.night_codes.store_grant`),
    ``None`` for any other text; without it only the app-wide code lets in.
    """

    __slots__ = ("_app", "_code", "_grants", "_proxies", "_sessions", "_throttle")

    def __init__(
        self,
        app: ASGIApp,
        *,
        code: str,
        throttle: Throttle | None = None,
        sessions: Sessions | None = None,
        proxies: Sequence[Network] = (),
        grants: Callable[[str], Grant | None] | None = None,
    ) -> None:
        self._app = app
        self._code = code
        self._grants = grants
        self._proxies = tuple(proxies)
        self._throttle = throttle if throttle is not None else Throttle()
        self._sessions = sessions if sessions is not None else Sessions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self._app(scope, receive, send)
            return
        given = _query_code(scope)
        if given is not None:
            # A code to check: a guess, unless it is right. Only these are throttled; a
            # session token cannot be guessed, and a stale cookie is no attack.
            address = client_address(scope, proxies=self._proxies)
            wait = self._throttle.wait(address)
            grant = self._grant(given) if wait <= 0 else None
            if grant is not None:
                self._throttle.passed(address)
                if kind == "http":
                    cookie = access_cookie(self._sessions.new(grant))
                    await self._as(grant, scope, receive, _with_cookie(send, cookie))
                    return
                await self._as(grant, scope, receive, send)
                return
            if wait <= 0:
                wait = self._throttle.failed(address)
                if wait > 0:
                    said = Said("app.gate_throttled", address=address, seconds=math.ceil(wait))
                    log.warning("%s", said)
            await (_refuse_http(send, wait=wait) if kind == "http" else _refuse_websocket(receive, send))
            return
        grant = self._sessions.grant(_cookie_code(scope))
        if grant is None:
            await (_refuse_http(send) if kind == "http" else _refuse_websocket(receive, send))
            return
        await self._as(grant, scope, receive, send)

    def _grant(self, given: str) -> Grant | None:
        """The grant of a code from a query: the app-wide code's, a night's, or ``None``."""
        if code_matches(given, self._code):
            return EVERYTHING
        if self._grants is None or len(given) > GIVEN_CODE_MAX_LENGTH:
            return None
        try:
            return self._grants(given)
        except ScorerError as exc:  # a store that cannot be read now lets no night's code in
            log.warning("a night's access code could not be checked: %s", exc)
            return None

    async def _as(self, grant: Grant, scope: Scope, receive: Receive, send: Send) -> None:
        """The wrapped app handles the request with :data:`CURRENT_GRANT` set to ``grant``."""
        token = CURRENT_GRANT.set(grant)
        try:
            await self._app(scope, receive, send)
        finally:
            CURRENT_GRANT.reset(token)


def _with_cookie(send: Send, cookie: str) -> Send:
    async def send_with_cookie(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (b"set-cookie", cookie.encode("latin-1"))]
            message = {**message, "headers": headers}
        await send(message)

    return send_with_cookie


async def _refuse_http(send: Send, *, wait: float = 0.0) -> None:
    """403, or 429 with ``Retry-After`` (whole seconds) while the address must wait."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]
    if wait > 0:
        seconds = math.ceil(wait)
        body = THROTTLED_TEXT.format(seconds=seconds).encode()
        headers.append((b"retry-after", str(seconds).encode()))
    else:
        body = REFUSED_TEXT.encode()
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": 429 if wait > 0 else 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(receive: Receive, send: Send) -> None:
    # The handshake's first event, then a close before any accept: the server turns that
    # into an HTTP 403 answer to the upgrade, so no WebSocket is ever opened.
    await receive()
    await send({"type": "websocket.close", "code": WEBSOCKET_POLICY_VIOLATION})


#: The throttle's names are :mod:`scorer.throttle`'s, kept here for the gate's callers.
__all__ = [
    "ACCESS_CODE_LENGTH",
    "CODE_ALPHABET",
    "CODE_PARAMETER",
    "COOKIE_NAME",
    "CURRENT_GRANT",
    "FIRST_WAIT",
    "FORGET_AFTER",
    "FREE_TRIES",
    "GIVEN_CODE_CHARACTERS",
    "GIVEN_CODE_MAX_LENGTH",
    "GIVEN_CODE_MIN_LENGTH",
    "LONGEST_WAIT",
    "MAX_ADDRESSES",
    "REFUSED_TEXT",
    "THROTTLED_TEXT",
    "WEBSOCKET_POLICY_VIOLATION",
    "ASGIApp",
    "AccessCodeError",
    "AccessGate",
    "Receive",
    "Scope",
    "Send",
    "Sessions",
    "Throttle",
    "access_cookie",
    "code_matches",
    "new_access_code",
    "request_grant",
    "throttled_as",
    "validate_access_code",
]
