"""The served app's web app manifest and icons, in place of Flet's: "Add to home screen".

Flet's web client names itself Flet in its ``manifest.json``, with Flet's pink and Flet's
logo as icons, touch icon, favicon and loading picture. :class:`WebAppFiles` answers those
paths itself with the app's own (:mod:`scorer.ui.manifest`, shared with the static build)
and hands every other request to the app behind it.

It sits in front of the access gate, so the manifest and the icons are served without the
code: a browser fetches a page's manifest without its cookies (unless the page asks
otherwise), and a manifest refused with 403 makes the app impossible to install. They hold
nothing of the table's: no names, no games, no code; the page, its scripts and the session
stay behind the gate.

The icons are drawn once into the user's cache folder (seconds of work for the large ones):
each on a thread when first asked for, so the server answers meanwhile, and all of them,
smallest first, as the server starts (:meth:`WebAppFiles.prepare`).
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Final

import platformdirs

from scorer.ui.gate import ASGIApp, Receive, Scope, Send
from scorer.ui.manifest import ICONS, drawn_icon, manifest

MANIFEST_PATH: Final = "manifest.json"
MANIFEST_TYPE: Final = b"application/manifest+json"
PNG_TYPE: Final = b"image/png"
#: A day: a phone asks again now and then, and a new drawing has a new file anyway.
CACHE_CONTROL: Final = b"public, max-age=86400"


def default_cache() -> Path:
    """Where the drawn icons are kept: the user's cache folder for the app."""
    return Path(platformdirs.user_cache_dir("rummy-scorer", appauthor=False))


class WebAppFiles:
    """Answer ``GET /manifest.json`` and the icons of :data:`ICONS`; pass on everything else."""

    __slots__ = ("_app", "_cache", "_files", "_locks")

    def __init__(self, app: ASGIApp, *, cache: Path | None = None) -> None:
        self._app = app
        self._cache = cache or default_cache()
        self._locks = {path: threading.Lock() for path in ICONS}
        self._files: dict[str, bytes] = {}

    @property
    def inner(self) -> ASGIApp:
        """The app behind: Flet's, or the gate in front of it."""
        return self._app

    def prepare(self) -> None:
        """Draw the icons now, on a thread, rather than at the first requests."""
        threading.Thread(target=self._draw_all, name="rummy-icons", daemon=True).start()

    def _draw_all(self) -> None:
        for path in sorted(ICONS, key=lambda path: ICONS[path][0]):  # smallest first
            self._icon(path)

    def _icon(self, path: str) -> bytes:
        with self._locks[path]:  # drawn once, however many requests ask while it is drawn
            if path not in self._files:
                self._files[path] = drawn_icon(self._cache, path).read_bytes()
            return self._files[path]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", "")).lstrip("/")
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self._app(scope, receive, send)
        elif path == MANIFEST_PATH:
            body = json.dumps(manifest(), indent=2).encode()
            await _answer(send, body, kind=MANIFEST_TYPE, head=scope["method"] == "HEAD")
        elif path in ICONS:
            icon = await asyncio.to_thread(self._icon, path)
            await _answer(send, icon, kind=PNG_TYPE, head=scope["method"] == "HEAD")
        else:
            await self._app(scope, receive, send)


async def _answer(send: Send, body: bytes, *, kind: bytes, head: bool) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", CACHE_CONTROL),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b"" if head else body})
