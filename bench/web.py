"""The static web build's startup in Chromium: first and cached loads, at 1x and 4x CPU.

Each build (``dist/web``, made if missing; ``--compare LABEL=FOLDER`` adds another, e.g.
today's build made from a ``git worktree`` of main) is served on loopback by a static file
server in this process, as ``python -m http.server`` serves it, which counts the bytes it
sends. Each run opens a new browser profile per build and CPU rate: the **first load**
fetches what the page needs; then, once the service worker says the build is cached, the
page is reloaded twice (**cached loads**: every file from the service worker's cache, nothing
from the network). A load ends when Home's *New game* button is in the accessibility tree:
the first screen is there and Python answers. The runs of the builds and rates are
interleaved, so a change in the machine's load touches them alike.

``--cold N`` adds N **cold opens** to each profile: the browser is closed and started again on
the same profile (kept in a temporary folder), as a phone opens the installed app after it was
closed, with nothing left in memory of the visit before (a reload keeps the page's process, and
with it what V8 and the GPU process compiled for the last load: a reload is the warm case).

``--eager-source-positions`` starts Chromium with V8's ``--no-enable-lazy-source-positions``.
The bench drives Chromium over the DevTools protocol, which records a stack trace with every
console message; to give one, V8 re-parses the functions on the stack for their source
positions, and the Flutter client's are in one 9.6 MB script: on a first visit or a cold open
(nothing compiled yet) that re-parsing took 1.7 s at 1x and 4 to 5 s at 4x of the page's
thread, which a phone (no DevTools attached) does not spend. With no DevTools connection the
flag changed nothing measurable; with it, reloads were about 0.8 s slower (bench/README.md,
issue 25). Off by default, so that figures compare with the earlier ones.

``--host-gzip`` serves the builds as a host that compresses what it sends does (GitHub Pages,
Netlify, Caddy, nginx): ``Content-Encoding: gzip``, from the ``.gz`` the build writes beside a
file (:class:`Compressing`). The default serves as ``python -m http.server`` does, which never
compresses.

``--cpu 4`` slows the page and its workers 4x through the DevTools protocol
(``Emulation.setCPUThrottlingRate``), as a mid-range phone. Milestones from the page's
console split each load: the Flutter client loaded, the Python worker started, Pyodide ready
(``python_module_name``), the app archive in place, the app's Python initialised. Prints for
each build and rate the median (and p99) of the loads, the median of each step, the bytes a
first visit downloaded (before and after the offline cache was complete), and the bundle's
size by part; asserts nothing about time.

    .venv/bin/python bench/web.py [--dist dist/web] [--compare main=/tmp/main/dist/web]
        [--runs 3] [--cpu 1 --cpu 4] [--cold 2] [--eager-source-positions] [--host-gzip]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Console lines that mark the steps of a load (the page's and the Python worker's).
MILESTONES = {
    "python start": "Rummy Scorer: Python starting",
    "flutter": "Flutter app loaded",
    "pyodide": "python_module_name:",
    "archive": "Loading msgpack",  # the app archive fetched and unpacked (before: Flet's worker)
    "app": "Rummy Scorer: app archive in place",  # the same (this build's worker)
    "imported": "Rummy Scorer: the app imported",  # scorer.web.main and all it imports
    "python": "Python worker initialized",
    "made": "Rummy Scorer: the first screen made",  # Home built by the app, before it is drawn
    "store": "Rummy Scorer: the store opened",  # the league's store open (behind Home since issue 25)
    "took over": "Rummy Scorer: the app took over",  # the app in place of Home drawn before the store
}
#: The two paths of a load, which run side by side: Python's steps, and the Flutter client.
STEPS = (
    ("Pyodide runtime (wasm compiled, stdlib)", "python start", "pyodide"),
    ("app archive fetched and unpacked", "pyodide", "archive"),
    ("app archive in place (beside the runtime)", "python start", "app"),
    ("imports + app start (Python)", "pyodide", "python"),
    ("  of which the app's imports", "pyodide", "imported"),
    ("first screen drawn and answering", "python", "ready"),
    ("  of which Home made in Python", "python", "made"),
    ("Flutter client (its code, the renderer), beside Python", None, "flutter"),
)


class Counted(SimpleHTTPRequestHandler):
    """``python -m http.server``'s handler, counting the bytes of the files it sends."""

    sent: list[int]

    def copyfile(self, source: Any, outputfile: Any) -> None:
        before = source.tell()
        super().copyfile(source, outputfile)
        self.sent.append(source.tell() - before)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Compressing(Counted):
    """A host that compresses what it sends (``Content-Encoding: gzip``), as GitHub Pages,
    Netlify, Caddy and nginx do: a file with a ``.gz`` beside it is sent as those bytes, to a
    client that accepts gzip (nginx's ``gzip_static``, Caddy's ``precompressed``)."""

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        packed = path + ".gz"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and os.path.isfile(path) and os.path.isfile(packed)):
            return super().send_head()
        source = open(packed, "rb")  # noqa: SIM115 (closed by the handler, as http.server's own)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(os.fstat(source.fileno()).st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return source


@contextmanager
def served(folder: Path, *, compress: bool = False) -> Iterator[tuple[str, list[int]]]:
    """``folder`` on a free loopback port: its address and the list of bytes sent per file
    (``compress``: as a host that compresses, :class:`Compressing`)."""
    sent: list[int] = []
    base = Compressing if compress else Counted
    handler = functools.partial(type("Handler", (base,), {"sent": sent}), directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", sent
    finally:
        server.shutdown()
        server.server_close()


def throttle(context: Any, page: Any, rate: float) -> None:
    """Slow the page's CPU ``rate`` times (the DevTools protocol).

    Chromium slows the page's own thread only: it refuses the same for a worker ("Operation is
    only supported for pages, not workers"), so Python's worker runs at full speed; the slowed
    parts are the Flutter client and the page's scripts (the report says so).
    """
    if rate != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def load(page: Any, url: str | None, *, timeout: float = 300.0) -> dict[str, float]:
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
            page.reload(timeout=timeout * 1000)
        else:
            page.goto(url, timeout=timeout * 1000)
        button = page.get_by_role("button", name="New game")
        deadline = start + timeout
        while time.monotonic() < deadline:
            page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
            if button.count():
                marks["ready"] = time.monotonic() - start
                return marks
            page.wait_for_timeout(50)  # lets Playwright deliver console events
        raise RuntimeError(f"no first screen in {timeout:.0f} s")
    finally:
        page.remove_listener("console", on_console)


def wait_cached(page: Any) -> None:
    """Until the service worker controls the page and its cache is complete (either build's way)."""
    page.wait_for_function(
        """async () => {
          if (!navigator.serviceWorker.controller) return false;
          if (window.rummyOffline) return window.rummyOffline.ready === true;
          return (await caches.keys()).some(k => k.startsWith('rummy-scorer-'));
        }""",
        timeout=600_000,
        polling=500,
    )


def sizes(folder: Path) -> dict[str, int]:
    parts: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            top = path.relative_to(folder).parts[0]
            parts[top] = parts.get(top, 0) + path.stat().st_size
    return dict(sorted(parts.items(), key=lambda item: -item[1]))


VIEWPORT = {"width": 390, "height": 844}


def one_profile(browser: Any, url: str, sent: list[int], rate: float) -> dict[str, Any]:
    """A new profile: a first load, then two cached loads once the offline cache is complete."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        return visits(context, url, sent, rate)
    finally:
        context.close()


def visits(context: Any, url: str, sent: list[int], rate: float) -> dict[str, Any]:
    page = context.pages[0] if context.pages else context.new_page()
    throttle(context, page, rate)
    del sent[:]
    first = load(page, url)
    at_first_screen = sum(sent)
    wait_cached(page)
    complete = sum(sent)
    cached = [load(page, None) for _ in range(2)]
    return {"first": first, "cached": cached, "bytes_first_screen": at_first_screen, "bytes": complete}


def cold_profile(launch: Any, url: str, sent: list[int], rate: float, opens: int) -> dict[str, Any]:
    """:func:`one_profile` on a profile kept on disk, then ``opens`` cold opens: each in a
    browser started afresh on that profile (its offline cache and code caches on disk, nothing
    in memory). ``cold_sent``: the bytes of each file the host sent during each cold open (the
    service worker answers the rest from its cache)."""
    with tempfile.TemporaryDirectory(prefix="rummy-bench-profile-") as folder:
        context = launch(folder)
        try:
            got = visits(context, url, sent, rate)
            # What the service worker still writes once it said "ready" (the QR decoder).
            context.pages[0].wait_for_timeout(2000)
        finally:
            context.close()
        got["cold"], got["cold_sent"] = [], []
        for _ in range(opens):
            context = launch(folder)
            try:
                page = context.pages[0] if context.pages else context.new_page()
                throttle(context, page, rate)
                before = len(sent)
                got["cold"].append(load(page, url))
                got["cold_sent"].append(sent[before:])
            finally:
                context.close()
    return got


#: V8 keeps source positions as it compiles (see ``--eager-source-positions``).
EAGER_SOURCE_POSITIONS = "--js-flags=--no-enable-lazy-source-positions"


def run(
    builds: dict[str, Path],
    *,
    runs: int,
    rates: list[float],
    cold: int = 0,
    eager_positions: bool = False,
    host_gzip: bool = False,
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    args = ["--no-sandbox", "--enable-unsafe-swiftshader"]
    if eager_positions:
        args.append(EAGER_SOURCE_POSITIONS)
    empty = ("first", "cached", "cold", "bytes_first_screen", "bytes")
    figures: dict[str, Any] = {
        label: {str(rate): {key: [] for key in empty} for rate in rates} for label in builds
    }
    with ExitStack() as stack, sync_playwright() as playwright:
        servers = {
            label: stack.enter_context(served(folder, compress=host_gzip)) for label, folder in builds.items()
        }
        browser = playwright.chromium.launch(executable_path=chromium, args=args)

        def launch(folder: str) -> Any:
            return playwright.chromium.launch_persistent_context(
                folder, executable_path=chromium, args=args, viewport=VIEWPORT
            )

        for number in range(runs):
            for rate in rates:
                for label, (url, sent) in servers.items():
                    if cold:
                        got = cold_profile(launch, url, sent, rate, cold)
                    else:
                        got = one_profile(browser, url, sent, rate)
                    kept = figures[label][str(rate)]
                    kept["first"].append(got["first"])
                    kept["cached"].extend(got["cached"])
                    kept["cold"].extend(got.get("cold", []))
                    kept["bytes_first_screen"].append(got["bytes_first_screen"])
                    kept["bytes"].append(got["bytes"])
                    colds = " and ".join(f"{m['ready']:.1f} s" for m in got.get("cold", []))
                    print(
                        f"run {number + 1}, {label}, CPU {rate:g}x: first {got['first']['ready']:.1f} s, "
                        f"cached {got['cached'][0]['ready']:.1f} s and {got['cached'][1]['ready']:.1f} s, "
                        + (f"cold {colds}, " if colds else "")
                        + f"{got['bytes'] / 1e6:.1f} MB",
                        flush=True,
                    )
        browser.close()
    return {"loads": figures, "sizes": {label: sizes(folder) for label, folder in builds.items()}}


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


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
    rows = []
    for label, by_rate in figures["loads"].items():
        total = sum(figures["sizes"][label].values())
        print(f"\n== {label}: bundle {total / 1e6:.1f} MB in all")
        for part, size in list(figures["sizes"][label].items())[:8]:
            print(f"  {part:<24} {size / 1e6:6.1f} MB")
        for rate, kept in by_rate.items():
            for kind in ("first", "cached", "cold"):
                loads = kept.get(kind, [])
                if not loads:
                    continue
                ready = [m["ready"] for m in loads]
                median = statistics.median(ready)
                print(
                    f"\n{label}, CPU {float(rate):g}x, {kind} load: median {median:.1f} s, "
                    f"p99 {p99(ready):.1f} s to Home's New game ({len(loads)} loads)"
                )
                print(f"  timeline: {timeline(loads)}")
                for name, seconds in steps(loads):
                    print(f"  {name:<58} {seconds:5.1f} s")
                rows.append((label, rate, kind, median, p99(ready)))
            first_screen = statistics.median(kept["bytes_first_screen"]) / 1e6
            complete = statistics.median(kept["bytes"]) / 1e6
            print(f"  downloaded on a first visit: {first_screen:.1f} MB by the first screen, "
                  f"{complete:.1f} MB once offline-ready")  # fmt: skip
    print("\n| build | CPU | load | median | p99 |\n| --- | --- | --- | --- | --- |")
    for label, rate, kind, median, worst in rows:
        print(f"| {label} | {float(rate):g}x | {kind} | {median:.1f} s | {worst:.1f} s |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dist", default=str(ROOT / "dist" / "web"), help="the build (made if missing)")
    parser.add_argument("--label", default="this build", help="the build's name in the report")
    parser.add_argument(
        "--compare", action="append", default=[], metavar="LABEL=FOLDER", help="another build, side by side"
    )
    parser.add_argument("--runs", type=int, default=3, help="new browser profiles per build and rate")
    parser.add_argument(
        "--cpu", type=float, action="append", help="CPU slowdown, repeatable (default: 1 and 4)"
    )
    parser.add_argument(
        "--cold", type=int, default=0, metavar="N",
        help="also N cold opens per profile: the browser started afresh on the kept profile",
    )  # fmt: skip
    parser.add_argument(
        "--eager-source-positions", action="store_true",
        help="V8 keeps source positions as it compiles (no re-parse for DevTools' stack traces)",
    )  # fmt: skip
    parser.add_argument(
        "--host-gzip", action="store_true",
        help="serve as a host that compresses (Content-Encoding: gzip, from the build's .gz files)",
    )  # fmt: skip
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args()
    dist = Path(args.dist)
    if not (dist / "index.html").is_file():
        from scorer.web.build import build

        build(dist.resolve(), cache=ROOT / "build" / "web-cache")
    builds = {args.label: dist}
    for item in args.compare:
        label, _, folder = item.partition("=")
        builds[label] = Path(folder)
    figures = run(
        builds,
        runs=args.runs,
        rates=args.cpu or [1.0, 4.0],
        cold=args.cold,
        eager_positions=args.eager_source_positions,
        host_gzip=args.host_gzip,
    )
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
