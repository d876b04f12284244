"""Who may call the club server's API: a token in each request, and what its role may do.

Every request carries ``Authorization: Bearer TOKEN``, a token the server's store made
(``rummy league token add``; :mod:`scorer.league.tokens`). :meth:`TokenGate.check` answers
with the token's holder (:class:`~scorer.league.tokens.TokenInfo`, whose name signs what the
request sends) or refuses:

- **401** (``WWW-Authenticate: Bearer``): no token, or one the store does not know or has
  revoked. A wrong token counts against the client's address;
- **429** with ``Retry-After``: the address sent too many wrong tokens, and must wait before
  any token of its is looked at. This is the access gate's throttle (:mod:`scorer.throttle`:
  the same free tries, the same doubling waits, the client behind a trusted proxy found the
  same way), one per server for both doors if the caller passes the gate's;
- **403**: a good token whose role may not take the action (a viewer's sending a deal);
- **503**: the store cannot say (its file of tokens damaged, its database out of reach).

A refusal's ``detail`` is the message, as the API's other refusals: ``{"code", "params",
"text"}`` (English text; a client renders the code in its own language).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Final

from fastapi import HTTPException
from starlette.requests import Request

from scorer.league.errors import StoreError
from scorer.league.store import Store
from scorer.league.tokens import Action, TokenInfo, may
from scorer.messages import Message, Word
from scorer.throttle import Throttle, client_address, trusted_networks

#: The scheme of the ``Authorization`` header (RFC 6750), compared case aside.
SCHEME: Final = "bearer"

log = logging.getLogger(__name__)


def refusal(status: int, message: Message, *, headers: dict[str, str] | None = None) -> HTTPException:
    """An HTTP refusal whose ``detail`` is ``message``: its code, its parameters, its English text."""
    return HTTPException(status, detail={**message.to_json(), "text": str(message)}, headers=headers)


def bearer(header: str | None) -> str | None:
    """The token an ``Authorization`` header carries; ``None`` when it carries none.

    >>> bearer("Bearer rst_abc"), bearer("bearer  rst_abc "), bearer("Basic YWJj"), bearer(None)
    ('rst_abc', 'rst_abc', None, None)
    """
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == SCHEME and token else None


class TokenGate:
    """Checks each API request's token against ``store`` for the action it asks.

    ``proxies``: the trusted reverse proxies (``--trusted-proxy``; their ``X-Forwarded-For``
    names the client), none by default. ``throttle``: the one to count wrong tokens with,
    made here unless given (the access gate's, to share one count; a test's, with its clock).
    """

    __slots__ = ("_proxies", "_store", "_throttle")

    def __init__(
        self, store: Store, *, proxies: Sequence[str] = (), throttle: Throttle | None = None
    ) -> None:
        self._store = store
        self._proxies = trusted_networks(proxies)
        self._throttle = throttle if throttle is not None else Throttle()

    def check(self, request: Request, action: Action) -> TokenInfo:
        """The holder of the request's token, if its role may take ``action``; else the
        refusal (:class:`HTTPException`: 401, 403, 429, 503) as the module says."""
        address = client_address(request.scope, proxies=self._proxies)
        wait = self._throttle.wait(address)
        if wait > 0:  # not looked at: a guess while it must wait tells it nothing
            raise self._throttled(wait)
        secret = bearer(request.headers.get("authorization"))
        if secret is None:
            raise refusal(401, Message("api.token_missing"), headers={"WWW-Authenticate": "Bearer"})
        try:
            holder = self._store.token_for(secret)
        except StoreError as exc:
            raise refusal(503, exc.message) from None
        if holder is None:
            wait = self._throttle.failed(address)
            if wait > 0:
                log.warning("%s", Message("api.tokens_throttled", address=address, seconds=math.ceil(wait)))
                raise self._throttled(wait)
            raise refusal(
                401, Message("api.token_wrong"), headers={"WWW-Authenticate": 'Bearer error="invalid_token"'}
            )
        self._throttle.passed(address)
        if not may(holder.role, action):
            role, asked = Word(holder.role.value), Word(action.value)
            said = Message("api.token_forbidden", name=repr(holder.name), role=role, action=asked)
            raise refusal(403, said)
        return holder

    @staticmethod
    def _throttled(wait: float) -> HTTPException:
        seconds = math.ceil(wait)
        said = Message("api.token_throttled", seconds=seconds)
        return refusal(429, said, headers={"Retry-After": str(seconds)})


__all__ = ["TokenGate", "bearer", "refusal"]
