"""The sync API reached from the app in a browser (the static phone build).

Python runs there in a web worker (Pyodide), where the standard library's ``urllib`` has no
sockets; a worker may send a *synchronous* ``XMLHttpRequest``, so the one sync client
(:func:`scorer.league.sync.sync`, written for blocking requests) runs unchanged: the worker
waits for each answer, the page (drawn by the main thread) does not. The club server is on
another origin than the page, so it must allow the page's: ``rummy app --cors-origin
https://phone.club.example`` (docs/serving.md); a request the browser refuses for want of it,
or that does not reach the server, fails as a connection does (:class:`ConnectionError`), and
the sync says the server is out of reach.

The ``XMLHttpRequest`` is made through ``new_request`` (the browser's, found through Pyodide's
``js`` at run time), so the host's tests give a stand-in.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Callable
from typing import Any

from scorer.league.club_server import ClubServer, club_address
from scorer.league.sync import API_PATH, TIMEOUT, Reply

#: Why a request got no answer: the browser does not say which (a CORS refusal looks the same).
NO_ANSWER = "no answer (no connection, or the server does not allow this page's origin: --cors-origin)"


def _browser_request() -> Any:
    """A new ``XMLHttpRequest`` of the browser's (only in Pyodide)."""
    js = importlib.import_module("js")
    return js.XMLHttpRequest.new()


class BrowserTransport:
    """The sync API over the browser's synchronous ``XMLHttpRequest``, the token as a bearer
    token (:class:`scorer.league.sync.Transport`)."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        new_request: Callable[[], Any] = _browser_request,
        timeout: float = TIMEOUT,
    ) -> None:
        self.url = club_address(url)
        self.token = token
        self.new_request = new_request
        self.timeout = timeout

    def send(self, method: str, path: str, body: Any) -> Reply:
        request = self.new_request()
        request.open(method, self.url + API_PATH + path, False)  # False: wait for the answer
        with contextlib.suppress(Exception):  # a worker may time a synchronous request; a page may not
            request.timeout = int(self.timeout * 1000)
        request.setRequestHeader("Authorization", f"Bearer {self.token}")
        request.setRequestHeader("Accept", "application/json")
        data = None
        if body is not None:
            data = json.dumps(body)
            request.setRequestHeader("Content-Type", "application/json")
        try:
            request.send(data)
        except Exception as exc:  # a JavaScript NetworkError: refused by CORS, or no connection
            raise ConnectionError(_reason(exc)) from None
        status = int(request.status)
        if status == 0:  # the browser hid the answer (CORS) or there was none
            raise ConnectionError(
                "no answer (no connection, or the server does not allow this page's origin)"
            )
        text = str(request.responseText or "")
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        retry = request.getResponseHeader("Retry-After")
        return Reply(status, answer, str(retry) if retry else None)


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[-1] if text else type(exc).__name__


def browser_transport(server: ClubServer) -> BrowserTransport:
    """The connection :class:`~scorer.ui.club_sync.ClubSync` makes in a browser."""
    return BrowserTransport(server.url, server.token)


__all__ = ["BrowserTransport", "browser_transport"]
