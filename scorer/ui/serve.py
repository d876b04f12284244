"""Serving the app: ``rummy app`` and ``python -m scorer.ui``.

The web app is served by :func:`scorer.ui.serving.serve`: with no display and no internet
(the Flutter client and CanvasKit come from the installed ``flet-web`` package, not a CDN),
plainly on loopback and behind an access code beyond it. The code is settled before the app
is built, so the Settings screen can show the link that carries it and its QR code. The port
is checked before the store is opened, so a taken port is one line naming it, not a traceback,
and leaves no new folder behind. ``--desktop`` opens a window of Flet's desktop client instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

import flet as ft

from scorer.league.store import Store
from scorer.messages import Message
from scorer.ui import serving
from scorer.ui.app import app_main
from scorer.ui.gate import new_access_code, validate_access_code
from scorer.ui.serving import ServingError, access_link, check_port
from scorer.ui.shell import ASSETS_DIR

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8550


def settle_code(host: str, code: str | None, *, proxied: bool = False) -> str | None:
    """The access code for ``host``: none on loopback with no proxy in front, else ``code``
    (checked) or a new one.

    >>> settle_code("127.0.0.1", "table42x") is None
    True
    >>> settle_code("0.0.0.0", "table42x"), settle_code("127.0.0.1", "table42x", proxied=True)
    ('TABLE42X', 'TABLE42X')
    """
    if not serving.is_gated(host, proxied=proxied):
        return None
    return validate_access_code(code) if code else new_access_code()


def serve(
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    db: str | Path | None = None,
    code: str | None = None,
    desktop: bool = False,
    out: TextIO | None = None,
    proxies: Sequence[str] = (),
    public: str | None = None,
    cors_origins: Sequence[str] = (),
    public_standings: bool = False,
) -> None:
    """Open the store, check the port, print the link and serve until stopped; ``proxies``:
    the reverse proxies whose ``X-Forwarded-For`` is believed (none by default; any asks for
    the code on loopback too); ``public``: the address the phones reach the proxy at, which
    the links and QR codes carry (:func:`scorer.ui.serving.public_url`). The club server's
    API (:mod:`scorer.api`: sync, guarded by the store's tokens) is served under ``/api/``;
    ``cors_origins``: the web pages' origins a browser may call it from (``--cors-origin``).
    ``public_standings``: serve the leagues' read-only standings pages at ``/standings/`` to
    anyone, without the code (:mod:`scorer.api.standings_page`; off by default)."""
    if desktop:
        _serve_desktop(db)
        return
    trusted = serving.trusted_proxies(proxies)  # a bad one refused before anything starts
    address = serving.public_url(public) if public else None
    origins = tuple(serving.cors_origin(o) for o in cors_origins)
    settled = settle_code(host, code, proxied=bool(trusted))
    check_port(host, port)  # before the store: a refused start leaves no new folder behind
    store = _open(db)
    link = access_link(host=host, port=port, code=settled, public=address) if settled else None
    main = app_main(store, access_link=link)
    from scorer.api.app import api_app
    from scorer.api.auth import TokenGate

    api = api_app(store, TokenGate(store, proxies=trusted), cors_origins=origins)
    serving.serve(
        main,
        host=host,
        port=port,
        code=settled,
        assets_dir=ASSETS_DIR,
        out=out,
        proxies=trusted,
        public=address,
        api=api,
        standings=store if public_standings else None,
        night_codes=store,
    )


def _open(db: str | Path | None) -> Store:
    """The store, and what it mended on its own when opened, said on the terminal."""
    store = Store.open(db)
    for notice in store.notices:
        print(f"Rummy Scorer: {notice}", file=sys.stderr, flush=True)
    return store


def _serve_desktop(db: str | Path | None) -> None:
    store = _open(db)
    print(f"Rummy Scorer: games in {store.location or store.address}", flush=True)
    try:
        ft.run(app_main(store), view=ft.AppView.FLET_APP, assets_dir=ASSETS_DIR)
    except (ImportError, OSError) as exc:  # no flet-desktop, or its client cannot be fetched
        raise ServingError(Message("app.no_desktop", why=str(exc))) from None
