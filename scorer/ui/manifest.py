"""The web app manifest and its icons: what "Add to home screen" makes of Rummy Scorer.

One manifest and one set of icons for both ways the app reaches a phone: the static build
(:mod:`scorer.web.build` writes them into its folder) and the app served by ``rummy app``
(:mod:`scorer.ui.webapp` answers them in place of Flet's own, which name and draw Flet).

The icons are drawn by :mod:`scorer.ui.icons` in pure Python, which takes seconds for the
large ones, so they are drawn once into a cache folder named after the drawing code's hash.

>>> manifest()["display"], manifest()["theme_color"]
('standalone', '#2E7D32')
>>> manifest(opens_files=True)["file_handlers"][0]["accept"], "file_handlers" in manifest()
({'application/json': ['.json']}, False)
>>> sorted(icon["sizes"] for icon in manifest()["icons"])
['192x192', '192x192', '512x512', '512x512']
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any, Final

from scorer.ui.icons import GREEN, icon_png

APP_NAME: Final = "Rummy Scorer"
SHORT_NAME: Final = "Rummy"
DESCRIPTION: Final = "Score keeper and rules referee for rummy card games, offline on your phone."
#: The app's seed colour: the installed app's title bar and the phone's task switcher.
THEME_COLOR: Final = "#{:02X}{:02X}{:02X}".format(*GREEN)
BACKGROUND_COLOR: Final = "#FFFFFF"

#: Every icon a web app page asks for, by its path from the page: (size, maskable).
#: The first four are the manifest's; the touch icon is what an iPhone puts on its home screen
#: (it cuts its own corners, so it is the full-square one); the loading picture is shown by
#: Flet's page until the app starts.
ICONS: Final[dict[str, tuple[int, bool]]] = {
    "icons/icon-192.png": (192, False),
    "icons/icon-512.png": (512, False),
    "icons/icon-maskable-192.png": (192, True),
    "icons/icon-maskable-512.png": (512, True),
    "icons/apple-touch-icon-192.png": (192, True),
    "icons/loading-animation.png": (192, False),
    "favicon.png": (64, False),
}
#: The manifest's own icons (the others are asked for by the page).
_MANIFEST_ICONS: Final = tuple(path for path in ICONS if path.startswith("icons/icon-"))


def manifest(*, opens_files: bool = False) -> dict[str, Any]:
    """The manifest, its paths relative to itself (it sits beside the page it belongs to).

    ``opens_files``: the installed app opens shared files (the static build, whose page hands
    them to Python: scorer/web/launched.py; the served app's page has no such hand)."""
    icons: list[dict[str, str]] = []
    for path in _MANIFEST_ICONS:
        size, maskable = ICONS[path]
        icon = {"src": path, "sizes": f"{size}x{size}", "type": "image/png"}
        if maskable:
            icon["purpose"] = "maskable"
        icons.append(icon)
    found: dict[str, Any] = {
        "name": APP_NAME,
        "short_name": SHORT_NAME,
        "description": DESCRIPTION,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "natural",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "lang": "en",
        "prefer_related_applications": False,
        "icons": icons,
    }
    if opens_files:  # Chromium's File Handling, in the window already open (a second window
        # would be a second tab on the store, told to close)
        found["file_handlers"] = [
            {"action": "./", "accept": {"application/json": [".json"]}, "launch_type": "single-client"}
        ]
        found["launch_handler"] = {"client_mode": "focus-existing"}
    return found


def drawn_icons(cache: Path) -> Path:
    """The folder under ``cache`` holding every icon of :data:`ICONS`, drawn on first use."""
    for path in ICONS:
        drawn_icon(cache, path)
    return icon_folder(cache)


def icon_folder(cache: Path) -> Path:
    """The icons' folder under ``cache``, named after the hash of the drawing code, so a
    changed drawing is drawn afresh."""
    source = Path(__file__).with_name("icons.py").read_bytes()
    return cache / f"icons-{hashlib.sha256(source).hexdigest()[:12]}"


def drawn_icon(cache: Path, path: str) -> Path:
    """The file of the icon ``path`` (a key of :data:`ICONS`) under ``cache``, drawn if missing.

    Written under a temporary name and renamed, so a second process drawing at the same time
    (two builds, two servers) never reads half an icon.
    """
    size, maskable = ICONS[path]
    kept = icon_folder(cache) / path
    if kept.exists():
        return kept
    kept.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=kept.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(icon_png(size, maskable=maskable))
        # mkstemp makes the file its owner's alone: a web server running as another user
        # could not serve the icon from a build that copied it.
        os.chmod(temporary, 0o644)
        os.replace(temporary, kept)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return kept
