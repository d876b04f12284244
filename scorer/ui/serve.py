"""Serving the app: ``rummy app`` and ``python -m scorer.ui``.

Web-server mode works with no display and no internet (``no_cdn``: the Flutter client and
CanvasKit come from the installed ``flet-web`` package, not a CDN). The port is checked before
Flet starts, so a taken port is one line naming it, not a traceback.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Final

import flet as ft

from scorer.errors import ScorerError
from scorer.league.store import Store
from scorer.ui.app import ASSETS_DIR, app_main

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8550


class ServeError(ScorerError, ValueError):
    """The app cannot be served as asked: a taken port, an unknown host, a bad data file."""


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServeError` unless ``host:port`` can be listened on right now."""
    if not 0 < port < 65536:
        raise ServeError(f"--port {port}: a port is a number from 1 to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise ServeError(f"--host {host}: no such address on this machine") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} on {host} is taken; choose another with --port") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def address(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}/"


def serve(
    *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, db: str | Path | None = None, desktop: bool = False
) -> None:
    """Open the store, check the port, print the address and serve until stopped."""
    if not desktop:
        check_port(host, port)  # before the store: a refused start leaves no new folder behind
    store = Store.open(db)
    main = app_main(store)
    if desktop:
        print(f"Rummy Scorer: games in {store.location}", flush=True)
        try:
            ft.run(main, view=ft.AppView.FLET_APP, assets_dir=ASSETS_DIR)
        except (ImportError, OSError) as exc:  # no flet-desktop, or its client cannot be fetched
            raise ServeError(
                f"--desktop: no desktop window here ({exc}); leave out --desktop for the web app"
            ) from None
        return
    print(f"Rummy Scorer: {address(host, port)} (games in {store.location})", flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, no_cdn=True, host=host, port=port, assets_dir=ASSETS_DIR)
