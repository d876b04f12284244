"""What both screenshot scripts share: serve ``rummy app`` over a seeded league store, shoot.

``tests/screenshots.py`` (the table's screens) and ``tests/screenshots_club.py`` (the
club's) each give a seed, the screens' routes and the sizes; this module serves the app on
a free loopback port over a temporary store, opens each screen in Debian's Chromium through
Playwright and writes ``<out>/<screen>-<size>.png``.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
BLANK_BYTES = 12_000  # a PNG of a blank page is a few kilobytes; any screen is more
#: The languages shot, with the system locale the app is served with.
LOCALES = {"en": "en_GB.UTF-8", "fi": "fi_FI.UTF-8"}
LANGUAGES = tuple(LOCALES)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("rummy app stopped before serving")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"rummy app did not open port {port}")


def shoot(
    *,
    out: Path,
    seed: Callable[[Path], dict[str, str]],
    screens: Callable[[dict[str, str]], dict[str, str]],
    sizes: Mapping[str, tuple[int, int]],
    prepare: Mapping[str, Callable[[Page, str], None]] | None = None,
) -> list[Path]:
    """Seed a store, serve it and shoot each screen at each size.

    ``seed`` fills the store and returns the ids the routes need; ``screens`` maps each
    screen's name to its route; ``prepare`` acts on a named screen (in a language) before it
    is shot.
    """

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for language in LANGUAGES:
        written += _shoot_language(
            language, out=out, seed=seed, screens=screens, sizes=sizes, prepare=prepare or {}
        )
    return written


def _shoot_language(
    language: str,
    *,
    out: Path,
    seed: Callable[[Path], dict[str, str]],
    screens: Callable[[dict[str, str]], dict[str, str]],
    sizes: Mapping[str, tuple[int, int]],
    prepare: Mapping[str, Callable[[Page, str], None]],
) -> list[Path]:
    """Every screen at every size in ``language`` (the browser's and the system's), as
    ``<screen>-<size>.png`` in English and ``<screen>-<size>-fi.png`` in Finnish."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    suffix = "" if language == "en" else f"-{language}"
    with tempfile.TemporaryDirectory() as folder:
        routes = screens(seed(Path(folder) / "league"))
        port = _free_port()
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "LANG": LOCALES[language]}
        rummy = Path(sys.executable).with_name("rummy")
        process = subprocess.Popen(
            [str(rummy), "app", "--port", str(port), "--db", str(Path(folder) / "league")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait(port, process)
            base = f"http://127.0.0.1:{port}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--enable-unsafe-swiftshader"]
                )
                try:
                    for size, (width, height) in sizes.items():
                        for name, route in routes.items():
                            page = browser.new_page(
                                viewport={"width": width, "height": height}, locale=LOCALES[language][:5]
                            )
                            page.goto(base + route)
                            page.wait_for_selector("flt-glass-pane", state="attached", timeout=30_000)
                            if name in prepare:
                                prepare[name](page, language)
                            path = out / f"{name}-{size}{suffix}.png"
                            # The first frames can be blank (fonts, CanvasKit warming up on a
                            # loaded machine), or drawn before the app's theme arrives: wait,
                            # then shoot until the picture has something on it.
                            time.sleep(6)
                            for _ in range(15):
                                time.sleep(2)
                                page.screenshot(path=str(path))
                                if path.stat().st_size > BLANK_BYTES:
                                    break
                            written.append(path)
                            page.close()
                finally:
                    browser.close()
        finally:
            process.terminate()
            process.wait(timeout=20)
    return written


def main(*, description: str, shoot_into: Callable[[Path], list[Path]]) -> None:
    """The scripts' command line: ``[--out docs/screenshots]``; prints each PNG written."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    for path in shoot_into(args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
