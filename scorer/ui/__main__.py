"""``python -m scorer.ui``: serve the app to a web browser, offline, on RUMMY_HOST:RUMMY_PORT.

Web-server mode works with no display and no internet (``no_cdn``: the Flutter client and
CanvasKit come from the installed ``flet-web`` package, not a CDN).
"""

from __future__ import annotations

import os

import flet as ft

from scorer.ui.app import main

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8550


def serve() -> None:
    host = os.environ.get("RUMMY_HOST") or DEFAULT_HOST
    port_text = os.environ.get("RUMMY_PORT") or str(DEFAULT_PORT)
    try:
        port = int(port_text)
    except ValueError:
        raise SystemExit(f"RUMMY_PORT must be a port number, got {port_text!r}") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Rummy Scorer: http://{shown}:{port}/", flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, no_cdn=True, host=host, port=port)


if __name__ == "__main__":
    serve()
