"""The access gate: beyond loopback, only a browser that knows the table's code gets the app.

An ASGI wrapper, not an HTTP middleware, so that the WebSocket which carries the whole Flet
session is refused as well as the page: a request passes when its ``code`` query parameter or
its cookie holds the code, and is refused otherwise (HTTP 403; a WebSocket upgrade is closed
with 1008 before it is accepted, which the server answers with HTTP 403). A page request that
brought a good code in its query gets the code back as an HttpOnly cookie, so the client's
later requests (its scripts, the WebSocket, a reload) pass without it.

Codes are compared in constant time (:func:`hmac.compare_digest`), so the time a refusal takes
says nothing about how much of a guess was right. Case does not matter: a phone keyboard that
capitalises or not still lets the player in.

>>> len(new_access_code()) == ACCESS_CODE_LENGTH
True
>>> validate_access_code("table42x")
'TABLE42X'
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final
from urllib.parse import parse_qsl

from scorer.errors import ScorerError
from scorer.messages import Message as Said

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
GIVEN_CODE_MIN_LENGTH: Final = 6
GIVEN_CODE_MAX_LENGTH: Final = 64

#: The query parameter of the link, and the cookie the code is kept in afterwards.
CODE_PARAMETER: Final = "code"
COOKIE_NAME: Final = "rummy_access"
#: WebSocket close code for "policy violation": the upgrade is refused, never accepted.
WEBSOCKET_POLICY_VIOLATION: Final = 1008

REFUSED_TEXT: Final = (
    "Rummy Scorer: this table needs its access code.\n"
    "Open the link, or scan the QR code, shown where the app was started.\n"
)


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
    scorer.ui.gate.AccessCodeError: --code 'ab!': an access code is 6 to 64 letters (A-Z) and digits
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


def access_cookie(code: str) -> str:
    """The ``Set-Cookie`` value that keeps the code for the client's later requests."""
    # No Secure flag: the app is served over plain HTTP on the local network.
    return f"{COOKIE_NAME}={code}; Path=/; HttpOnly; SameSite=Strict"


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

    Lifespan events pass through, so the wrapped app starts and stops as usual.
    """

    __slots__ = ("_app", "_code")

    def __init__(self, app: ASGIApp, *, code: str) -> None:
        self._app = app
        self._code = code

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self._app(scope, receive, send)
            return
        by_query = code_matches(_query_code(scope), self._code)
        if not by_query and not code_matches(_cookie_code(scope), self._code):
            if kind == "http":
                await _refuse_http(send)
            else:
                await _refuse_websocket(receive, send)
            return
        if kind == "http" and by_query:
            await self._app(scope, receive, _with_cookie(send, access_cookie(self._code)))
            return
        await self._app(scope, receive, send)


def _with_cookie(send: Send, cookie: str) -> Send:
    async def send_with_cookie(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (b"set-cookie", cookie.encode("latin-1"))]
            message = {**message, "headers": headers}
        await send(message)

    return send_with_cookie


async def _refuse_http(send: Send) -> None:
    body = REFUSED_TEXT.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(receive: Receive, send: Send) -> None:
    # The handshake's first event, then a close before any accept: the server turns that
    # into an HTTP 403 answer to the upgrade, so no WebSocket is ever opened.
    await receive()
    await send({"type": "websocket.close", "code": WEBSOCKET_POLICY_VIOLATION})
