"""PNGs of the club's screens (a league's standings, a player) at phone (390 px) and desktop width.

Beside ``tests/screenshots.py`` (the table's screens): serves ``rummy app`` on a free
loopback port over a temporary league store with a season of games, opens each screen in
Debian's Chromium through Playwright and writes ``docs/screenshots/<screen>-<size>.png``.

    .venv/bin/python tests/screenshots_club.py [--out docs/screenshots]
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

from scorer.league.store import Store

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
CHROMIUM = "/usr/bin/chromium"
BLANK_BYTES = 12_000  # a PNG of a blank page is a few kilobytes; any screen is more
GIN = {"target": 50}


def _gin(knocker: str, other: str, *, big: bool = False) -> dict[str, object]:
    if big:
        return {"knocker": knocker, "big_gin": True, "deadwood": {knocker: 0, other: 25}}
    return {"knocker": knocker, "deadwood": {knocker: 0, other: 45}}


def seed(folder: Path) -> dict[str, str]:
    """A league with a season of gin and rommi games among four players."""
    store = Store.open(folder)
    store.create_league("Friday club")
    table = [
        ("Anna", "Bea", False),
        ("Cid", "Anna", False),
        ("Anna", "Dan", True),
        ("Bea", "Cid", False),
        ("Anna", "Bea", False),
        ("Dan", "Bea", True),
        ("Anna", "Cid", False),
        ("Bea", "Anna", False),
        ("Anna", "Dan", False),
    ]
    for winner, loser, big in table:
        game = store.start_game(ruleset="gin", players=[winner, loser], options=GIN, league="Friday club")
        store.add_deal(game.id, _gin(winner, loser, big=big))
    for out, others in (("Anna", ("Bea", "Cid")), ("Cid", ("Anna", "Dan")), ("Bea", ("Anna", "Dan"))):
        players = [out, *others]
        game = store.start_game(
            ruleset="rommi", players=players, options={"target": 10}, league="Friday club"
        )
        hands = {out: "", others[0]: "KS QS *", others[1]: "5H 9D"}
        store.add_deal(game.id, {"hands": hands, "out": out})
    return {"league": store.league("Friday club").id, "player": store.player("Anna").id}


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


def shoot(out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as folder:
        ids = seed(Path(folder) / "league")
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
                "leagues": "/leagues",
                "league": f"/leagues/{ids['league']}",
                "player": f"/players/{ids['player']}",
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
                            path = out / f"{name}-{size}.png"
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
    parser = argparse.ArgumentParser(description="PNGs of the league and player screens")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    for path in shoot(args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
