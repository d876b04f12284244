"""The static web build's startup in Chromium: first load, cached load, and the bundle's size.

The build (``dist/web``, made if missing) is served by ``python -m http.server`` on loopback.
Each run opens a new browser profile: the **first load** fetches everything; then, once the
service worker has cached the build, the page is reloaded twice (**cached loads**: every file
from the service worker's cache, nothing from the network). A load ends when Home's *New
game* button is in the accessibility tree: the first screen is there and Python answers.

Milestones from the page's console split each load: the Flutter client loaded, the Python
worker started, Pyodide ready (``python_module_name``), the wheels installed, the app's
Python initialised. Prints the median of each over the runs and what dominates; asserts
nothing about time (the aim: first load under 10 s, cached under 4 s).

    .venv/bin/python bench/web.py [--dist dist/web] [--runs 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Console lines that mark the steps of a load (the page's and the Python worker's).
MILESTONES = {
    "python start": "Rummy Scorer: Python starting",
    "flutter": "Flutter app loaded",
    "pyodide": "python_module_name:",
    "archive": "Loading msgpack",  # the app archive fetched and unpacked
    "python": "Python worker initialized",
}
#: The two paths of a load, which run side by side: Python's steps, and the Flutter client.
STEPS = (
    ("Pyodide runtime (wasm compiled, stdlib)", "python start", "pyodide"),
    ("app archive fetched and unpacked", "pyodide", "archive"),
    ("imports + app start (Python)", "archive", "python"),
    ("first screen drawn and answering", "python", "ready"),
    ("Flutter client (main.dart.js, CanvasKit), beside Python", None, "flutter"),
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(folder: Path) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory"]
    process = subprocess.Popen([*command, str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(timeout=10)


def load(page: Any, url: str | None, *, timeout: float = 180.0) -> dict[str, float]:
    """Open ``url`` (None: reload) and time it to Home's New game; the milestones in seconds."""
    marks: dict[str, float] = {}
    start = time.monotonic()

    def on_console(message: Any) -> None:
        for key, text in MILESTONES.items():
            if key not in marks and text in message.text:
                marks[key] = time.monotonic() - start

    page.on("console", on_console)
    try:
        if url is None:
            page.reload()
        else:
            page.goto(url)
        button = page.get_by_role("button", name="New game")
        deadline = start + timeout
        while time.monotonic() < deadline:
            page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
            if button.count():
                marks["ready"] = time.monotonic() - start
                return marks
            page.wait_for_timeout(100)  # lets Playwright deliver console events
        raise RuntimeError(f"no first screen in {timeout:.0f} s")
    finally:
        page.remove_listener("console", on_console)


def wait_cached(page: Any) -> None:
    page.wait_for_function(
        "async () => !!navigator.serviceWorker.controller"
        " && (await caches.keys()).some(k => k.startsWith('rummy-scorer-'))",
        timeout=180_000,
        polling=500,
    )


def sizes(folder: Path) -> dict[str, int]:
    parts: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            top = path.relative_to(folder).parts[0]
            parts[top] = parts.get(top, 0) + path.stat().st_size
    return dict(sorted(parts.items(), key=lambda item: -item[1]))


def run(dist: Path, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    first: list[dict[str, float]] = []
    cached: list[dict[str, float]] = []
    fetched: list[int] = []
    with served(dist) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--enable-unsafe-swiftshader"]
        )
        for number in range(runs):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            got: list[int] = []

            def on_response(response: Any, got: list[int] = got) -> None:
                name = response.url.removeprefix(url).split("?")[0] or "index.html"
                if response.url.startswith(url) and (dist / name).is_file():
                    got.append((dist / name).stat().st_size)

            page = context.new_page()
            page.on("response", on_response)
            first.append(load(page, url))
            fetched.append(sum(got))
            wait_cached(page)
            for _ in range(2):
                cached.append(load(page, None))
            context.close()
            print(f"run {number + 1}: first {first[-1]['ready']:.1f} s, cached {cached[-2]['ready']:.1f} s "
                  f"and {cached[-1]['ready']:.1f} s", flush=True)  # fmt: skip
        browser.close()
    return {"first": first, "cached": cached, "fetched": fetched, "sizes": sizes(dist)}


def steps(loads: list[dict[str, float]]) -> list[tuple[str, float]]:
    found = []
    for name, begin, end in STEPS:
        spans = [
            m[end] - (m[begin] if begin else 0.0) for m in loads if end in m and (begin is None or begin in m)
        ]
        if spans:
            found.append((name, statistics.median(spans)))
    return found


def timeline(loads: list[dict[str, float]]) -> str:
    marks = sorted(
        (statistics.median(m[key] for m in loads if key in m), key)
        for key in (*MILESTONES, "ready")
        if any(key in m for m in loads)
    )
    return ", ".join(f"{key} {at:.1f} s" for at, key in marks)


def report(figures: dict[str, Any]) -> None:
    total = sum(figures["sizes"].values())
    print(f"\nbundle: {total / 1e6:.1f} MB in all; first load fetched a median "
          f"{statistics.median(figures['fetched']) / 1e6:.1f} MB")  # fmt: skip
    for part, size in list(figures["sizes"].items())[:8]:
        print(f"  {part:<24} {size / 1e6:6.1f} MB")
    for label, loads in (("first load", figures["first"]), ("cached load", figures["cached"])):
        ready = statistics.median(m["ready"] for m in loads)
        print(f"\n{label}: median {ready:.1f} s to Home's New game ({len(loads)} loads)")
        print(f"  timeline: {timeline(loads)}")
        spans = steps(loads)
        for name, seconds in spans:
            print(f"  {name:<42} {seconds:5.1f} s")
        if spans:
            name, seconds = max(spans, key=lambda s: s[1])
            print(f"  dominated by: {name} ({seconds / ready:.0%})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dist", default=str(ROOT / "dist" / "web"), help="the build (made if missing)")
    parser.add_argument("--runs", type=int, default=3, help="new browser profiles (default 3)")
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args()
    dist = Path(args.dist)
    if not (dist / "index.html").is_file():
        from scorer.web.build import build

        build(dist.resolve(), cache=ROOT / "build" / "web-cache")
    figures = run(dist, args.runs)
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
