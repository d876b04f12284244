"""The static web build's start in WebKit (Safari's engine), by hand: bench/web.py measures
Chromium only and Playwright's own WebKit cannot be downloaded here, so this drives Debian's
WebKitGTK (its MiniBrowser) through WebKitWebDriver over W3C WebDriver, with plain HTTP:

    apt-get install -y --no-install-recommends webkit2gtk-driver xvfb xauth
    make web
    .venv/bin/python bench/web_webkit.py [dist/web] [--loads 3]

It serves the build with ``python -m http.server`` on a free loopback port (its log says what
the page fetched), starts a virtual display (Xvfb) when there is none, and in one new profile
opens the app once (the first visit), then reloads it (cached) ``--loads - 1`` times, each to
Home's *New game* in Flutter's semantics tree. For each load it prints the seconds, whether the
browser can suspend WebAssembly for a promise (JSPI: what the memory snapshot needs; without
it Python starts from scratch) and what the service worker says about offline use. Asserts
nothing; a WebKit that cannot start prints why.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
#: Seconds a load may take to reach Home (a first visit on a busy 2-core machine, from scratch).
LOAD_LIMIT = float(os.environ.get("RUMMY_WEBKIT_LIMIT", "240"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_port(port: int, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.1)
    raise SystemExit(f"nothing answered on port {port} in {limit:.0f} s")


@contextlib.contextmanager
def process(
    command: list[str], log: Path, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        yield child
    finally:
        child.terminate()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


@contextlib.contextmanager
def display(work: Path) -> Iterator[dict[str, str]]:
    """The environment with a display: the one there is, else a virtual one of our own."""
    env = dict(os.environ)
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        yield env
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise SystemExit("no display and no Xvfb (apt-get install -y xvfb)")
    number = 90 + os.getpid() % 100
    with process([xvfb, f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], work / "xvfb.log"):
        socket_path = Path(f"/tmp/.X11-unix/X{number}")
        deadline = time.monotonic() + 20
        while not socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        env["DISPLAY"] = f":{number}"
        yield env


class WebDriver:
    """The few W3C WebDriver commands this needs, over plain HTTP."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, timeout: float = 120) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        url = (
            f"{self.base}{path}"
            if path.startswith("/session") and not self.session
            else f"{self.base}/session/{self.session}{path}"
        )
        request = urllib.request.Request(
            url, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read() or b"null").get("value")
        except urllib.error.HTTPError as error:
            raise RuntimeError(
                f"WebDriver {method} {path}: HTTP {error.code}: {error.read()[:600]!r}"
            ) from None

    def start(self, capabilities: dict[str, Any]) -> dict[str, Any]:
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = value["sessionId"]
        caps: dict[str, Any] = value.get("capabilities", {})
        return caps

    def script(self, source: str, *args: Any) -> Any:
        return self.call("POST", "/execute/sync", {"script": source, "args": list(args)})


HOME_SHOWN = """
document.querySelector("flt-semantics-placeholder")?.click();  // Flutter's semantics on
return [...document.querySelectorAll("flt-semantics, [role=button]")].some(
  (node) => (node.textContent || node.getAttribute("aria-label") || "").includes("New game"));
"""

STATE = """
return {
  jspi: typeof WebAssembly === "object" && "Suspending" in WebAssembly,
  serviceWorker: "serviceWorker" in navigator && !!navigator.serviceWorker.controller,
  decompression: typeof DecompressionStream === "function",
  offline: window.rummyOffline ? window.rummyOffline.state : null,
  summary: window.rummySummary ? window.rummySummary.shown : null,
  userAgent: navigator.userAgent
};
"""

PAGE = """
return {
  flutter: !!document.querySelector("flutter-view, flt-glass-pane"),
  semantics: document.querySelectorAll("flt-semantics").length,
  text: (document.body && document.body.innerText || "").slice(0, 300),
  resources: performance.getEntriesByType("resource")
    .map((e) => e.name.replace(location.origin, "")).slice(-25)
};
"""


def load(driver: WebDriver, url: str, *, reload: bool) -> float:
    began = time.monotonic()
    if reload:
        driver.call("POST", "/refresh", {})
    else:
        driver.call("POST", "/url", {"url": url})
    while time.monotonic() - began < LOAD_LIMIT:
        with contextlib.suppress(RuntimeError):
            if driver.script(HOME_SHOWN):
                return time.monotonic() - began
        time.sleep(0.1)
    with contextlib.suppress(RuntimeError):
        print(f"  the page when it gave up: {json.dumps(driver.script(STATE))}")
        print(f"  {json.dumps(driver.script(PAGE))}")
    raise RuntimeError(f"Home's New game did not show in {LOAD_LIMIT:.0f} s")


def fetched(log: Path) -> list[str]:
    """The paths the host sent whole, in order, from http.server's log."""
    text = log.read_text(encoding="utf-8", errors="replace")
    return re.findall(r'"GET (\S+) HTTP/[\d.]+" 200 ', text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dist", nargs="?", default="dist/web", type=Path)
    parser.add_argument("--loads", type=int, default=3, help="the first visit and the cached ones")
    args = parser.parse_args()
    if not (args.dist / "index.html").is_file():
        raise SystemExit(f"{args.dist}: no build there (make web)")
    driver_binary = shutil.which("WebKitWebDriver")
    if driver_binary is None or not Path(MINIBROWSER).is_file():
        raise SystemExit("no WebKitGTK here (apt-get install -y webkit2gtk-driver)")
    work = Path(tempfile.mkdtemp(prefix="rummy-webkit-"))
    site_port, driver_port = free_port(), free_port()
    url = f"http://127.0.0.1:{site_port}/"
    host_log = work / "host.log"
    host = [
        sys.executable,
        "-m",
        "http.server",
        str(site_port),
        "--bind",
        "127.0.0.1",
        "--directory",
        str(args.dist),
    ]
    try:
        with display(work) as env, process(host, host_log):
            wait_port(site_port)
            # WebKitGTK takes navigator.language from the environment: under LANG=C (or C.UTF-8)
            # it is "c", which Flutter's engine refuses as a language tag (its start stops there).
            env.update(LANGUAGE="en_US", LANG="en_US.UTF-8")
            with process([driver_binary, f"--port={driver_port}"], work / "webdriver.log", env=env):
                wait_port(driver_port)
                driver = WebDriver(driver_port)
                options = {"binary": MINIBROWSER, "args": ["--automation"]}
                caps = driver.start({"webkitgtk:browserOptions": options})
                print(f"WebKitGTK {caps.get('browserVersion')} (MiniBrowser through WebKitWebDriver)")
                try:
                    driver.call("POST", "/window/rect", {"width": 390, "height": 844})
                    for number in range(args.loads):
                        seconds = load(driver, url, reload=number > 0)
                        state = driver.script(STATE)
                        what = "first visit" if number == 0 else "cached"
                        print(f"{what}: Home in {seconds:.1f} s; {json.dumps(state)}")
                        if number == 0:
                            # The service worker keeps the rest of the build after the first screen.
                            deadline = time.monotonic() + LOAD_LIMIT
                            while time.monotonic() < deadline:
                                offline = driver.script(
                                    "return window.rummyOffline && window.rummyOffline.state"
                                )
                                if offline and offline.get("finished"):
                                    print(f"  offline: {json.dumps(offline)}")
                                    break
                                time.sleep(0.5)
                    sent = fetched(host_log)
                    snapshot = [path for path in sent if "memory-snapshot" in path]
                    asked = snapshot or "never asked for"
                    print(f"the host sent {len(sent)} files; the memory snapshot: {asked}")
                finally:
                    with contextlib.suppress(Exception):
                        driver.call("DELETE", "")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
