"""``make screenshots``: PNGs of the app's main screens at phone (390 px) and desktop width.

Serves ``rummy app`` on a free loopback port over a temporary league store seeded with a
few games, opens each screen in Debian's Chromium through Playwright and writes
``docs/screenshots/<screen>-<phone|desktop>.png`` (shown in the README).

    .venv/bin/python tests/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from scorer.league.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
CHROMIUM = "/usr/bin/chromium"
BLANK_BYTES = 12_000  # a PNG of a blank page is a few kilobytes; any screen is more


def _seed(folder: Path) -> dict[str, str]:
    """A league store with a rommi game in progress, a finished gin game and a Hollywood game."""
    store = Store.open(folder)
    store.create_league("Friday club")
    rommi = store.start_game(
        ruleset="rommi", players=["Anna", "Bea", "Cid", "Dan"], league="Friday club", first_dealer=1
    ).id
    for deal in (
        {"hands": {"Anna": "", "Bea": "KS QS", "Cid": "5H 5D *", "Dan": "AC 2C"}, "out": "Anna"},
        {"hands": {"Anna": "7C 8C", "Bea": "", "Cid": "JD", "Dan": "9S 9H 4D"}, "out": "Bea"},
        {"hands": {"Anna": "3H", "Bea": "KD KH", "Cid": "", "Dan": "6S"}, "out": "Cid"},
    ):
        store.add_deal(rommi, deal)
    gin = store.start_game(ruleset="gin", players=["Eve", "Fay"]).id
    for deal in (
        {"knocker": "Eve", "deadwood": {"Eve": 4, "Fay": 31}},
        {"knocker": "Fay", "deadwood": {"Eve": 22, "Fay": 0}},
        {"knocker": "Eve", "deadwood": {"Eve": 0, "Fay": 58}},
    ):
        store.add_deal(gin, deal)
    hollywood = store.start_game(ruleset="hollywood-gin", players=["Anna", "Eve"]).id
    for deal in (
        {"knocker": "Anna", "deadwood": {"Anna": 3, "Eve": 24}},
        {"knocker": "Eve", "deadwood": {"Anna": 17, "Eve": 0}},
        {"knocker": "Anna", "deadwood": {"Anna": 6, "Eve": 19}},
    ):
        store.add_deal(hollywood, deal)
    return {"rommi": rommi, "gin": gin, "hollywood": hollywood}


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


def _tap_a_hand(page: Page) -> None:
    """Deal entry as at the table: who went out chosen, one hand's cards tapped on the picker."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.get_by_role("button", name="Went out").click()
    page.get_by_role("button", name="Anna", exact=True).last.click()
    time.sleep(1)
    page.get_by_role("button", name="Pick cards for Bea").click()
    for face in ("7♥", "8♥", "9♥", "Q♣", "Joker"):
        page.get_by_role("button", name=face, exact=True).click()
        time.sleep(0.5)


def shoot(out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as folder:
        games = _seed(Path(folder) / "league")
        port = _free_port()
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "LANG": "en_GB.UTF-8"}
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
            screens = {
                "home": "/",
                "new-game": "/game/new",
                "deal": f"/game/{games['rommi']}/deal",
                "gin-deal": f"/game/{games['gin']}/deal/1",
                "scoreboard": f"/game/{games['rommi']}",
                "finished": f"/game/{games['gin']}",
                "hollywood": f"/game/{games['hollywood']}",
                "referee": "/referee",
                "rules": "/rules",
                "settings": "/settings",
            }
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--enable-unsafe-swiftshader"]
                )
                try:
                    for size, (width, height) in SIZES.items():
                        for name, route in screens.items():
                            page = browser.new_page(viewport={"width": width, "height": height})
                            page.goto(base + route)
                            page.wait_for_selector("flt-glass-pane", state="attached", timeout=30_000)
                            if name == "deal":
                                _tap_a_hand(page)
                            path = out / f"{name}-{size}.png"
                            # The first frames can be blank (fonts, CanvasKit warming up on a
                            # loaded machine): shoot until the picture has something on it.
                            time.sleep(4)  # the bundled font arrives after the first frames
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


def main() -> None:
    parser = argparse.ArgumentParser(description="PNGs of the app's main screens")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    for path in shoot(args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
