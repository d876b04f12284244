"""Fixtures for the UI tests: the app served on a free loopback port, and a Chromium page.

Playwright is imported only when a browser test asks for a page, so the rest of the suite
runs without it. A missing Playwright or Chromium fails the browser tests: CI installs both.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

# Every test that needed a rerun is listed at the end, and too many fail the run; a module
# skipped whole fails CI (tests/run_guard.py).
from run_guard import (  # noqa: F401
    in_ci,
    pytest_collectreport,
    pytest_runtest_logreport,
    pytest_runtest_setup,
    pytest_sessionfinish,
    pytest_terminal_summary,
)

#: Whether this run is CI's (CI=true in the environment).
IN_CI = in_ci()

# A shared 2-core machine can stall any single example; a time limit per example would
# make the properties flaky without checking anything about the rules.
settings.register_profile("project", deadline=None, print_blob=True)
# CI: the same, with the time a failing property may spend shrinking bounded (below), so a
# fault found late cannot push the run past CI's limit; the blob printed replays it locally.
settings.register_profile("ci", parent=settings.get_profile("project"))
# bench/mutation.py: the same examples every run and no example database, so that two runs
# of the mutation score agree and one change's failure is not replayed against the next.
settings.register_profile("mutation", parent=settings.get_profile("project"), derandomize=True, database=None)
HYPOTHESIS_PROFILE = os.environ.get("RUMMY_HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "project")
settings.load_profile(HYPOTHESIS_PROFILE)

#: Seconds a failing property may shrink in CI (Hypothesis's own bound is 300 s a test). It
#: has no setting for this, so the engine's constant is lowered where this version has it.
CI_SHRINK_SECONDS = 60
if HYPOTHESIS_PROFILE == "ci":
    from hypothesis.internal.conjecture import engine as _engine

    if hasattr(_engine, "MAX_SHRINKING_SECONDS"):
        _engine.MAX_SHRINKING_SECONDS = CI_SHRINK_SECONDS


#: A browser test is run again up to this many times when it fails. Flutter's web client,
#: on a loaded 2-core machine, now and then drops a typed key or closes a menu as it opens;
#: a real fault fails every run, and each run's failure is still reported. Every test that
#: needed a rerun is listed at the end of the run, and more than a small budget of them fails
#: it (tests/run_guard.py, RUMMY_RERUN_BUDGET). RUMMY_RERUNS=0 runs each once (to measure how
#: often a test fails, or to check that a test can fail).
BROWSER_RERUNS = int(os.environ.get("RUMMY_RERUNS", "2"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, reruns_delay=2))
            # make test runs two workers (pytest-xdist, --dist loadgroup): the browser tests
            # one after another on one of them, as before, and the rest beside them.
            item.add_marker(pytest.mark.xdist_group("browser"))


#: A browser test still running after this many seconds has a page that stopped answering:
#: once (2026-12-08) a Chromium renderer spun at full CPU for 20 minutes, and Playwright's
#: calls into it (Locator.count, evaluate) have no time limit, so the run hung until CI's own.
#: Its renderers are then ended: the test fails with "Target crashed", is run again like any
#: browser test, and is listed with the reruns. The slowest browser test takes about 90 s.
BROWSER_TEST_SECONDS = float(os.environ.get("RUMMY_BROWSER_TEST_SECONDS", "400"))


def _children(pid: int) -> list[int]:
    """Every process under ``pid`` (from /proc; none where there is no /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.parent.name)] = int(fields[1])
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        kids = [child for child, of in parents.items() if of == parent]
        found += kids
        todo += kids
    return found


def _end_renderers() -> None:
    """End the Chromium renderers this test process started (a page stuck in a loop)."""
    for child in _children(os.getpid()):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in command:
            sys.stderr.write(
                f"\na browser test ran over {BROWSER_TEST_SECONDS:.0f} s: renderer {child} ended\n"
            )
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)


@pytest.fixture(autouse=True)
def _pages_that_stop_answering_are_ended(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    timer = threading.Timer(BROWSER_TEST_SECONDS, _end_renderers)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from scorer.league.store import Store


ROOT = Path(__file__).resolve().parent.parent


def bench_module(name: str) -> ModuleType:
    """``bench/NAME.py`` as a module (the bench folder is no package), as ``bench_NAME``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{name}"] = module
    spec.loader.exec_module(module)
    return module


#: Debian's Chromium; RUMMY_CHROMIUM names another build of it.
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
SERVER_START_TIMEOUT = 30.0


def free_port(host: str = "127.0.0.1") -> int:
    """A port free on ``host`` (``"0.0.0.0"``: free on every interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, *, name: str) -> None:
    """Return once ``process`` (called ``name``) listens on ``port``; fail with its log if it never does."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{name} exited with {process.returncode}:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"{name} did not open port {port} in {SERVER_START_TIMEOUT:.0f} s:\n{log.read_text()}")


@contextmanager
def server_process(
    command: list[str], *, port: int, log: Path, env: dict[str, str], name: str
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a server ``command`` from the project's folder until it listens on ``port``.

    Its output goes to ``log``; it is stopped by its PID when the block ends.
    """
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, log, name=name)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def gated_app(folder: Path, *, code: str) -> Iterator[str]:
    """``rummy app`` on every interface behind ``code``, over the store in ``folder / "league"``
    (its log in ``folder``): its base address on loopback; stopped by its PID when the block ends."""
    port = free_port("0.0.0.0")
    rummy = Path(sys.executable).with_name("rummy")
    arguments = ["app", "--host", "0.0.0.0", "--port", str(port), "--code", code]
    arguments += ["--db", str(folder / "league")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with server_process(
        [str(rummy), *arguments], port=port, log=folder / "server.log", env=env, name="the server"
    ):
        yield f"http://127.0.0.1:{port}/"


def open_app(page: Page, *, timeout_ms: int = 20_000) -> None:
    """Wait for the app on ``page`` and turn on Flutter's accessibility tree."""
    # Flutter draws on a canvas; its semantics tree is what Playwright can find.
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=timeout_ms)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached")


@pytest.fixture(scope="session")
def ui_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve ``python -m scorer.ui`` as its own process; stop it by its PID at the end."""
    port = free_port()
    folder = tmp_path_factory.mktemp("ui")
    log = folder / "server.log"
    env = {
        **os.environ,
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_PORT": str(port),
        # Games go to a file of the test session's own, never to the user's data folder.
        "RUMMY_DB": str(folder / "league"),
        "FLET_WEB_NO_CDN": "1",
        # Serve only: never open a browser tab on a developer's desktop.
        "FLET_FORCE_WEB_SERVER": "1",
    }
    env.pop("FLET_SERVER_PORT", None)  # it would override RUMMY_PORT
    env.pop("FLET_SERVER_IP", None)
    with server_process(
        [sys.executable, "-m", "scorer.ui"], port=port, log=log, env=env, name="python -m scorer.ui"
    ):
        yield f"http://127.0.0.1:{port}/"


def _chromium_path() -> str:
    candidates = [os.environ.get("RUMMY_CHROMIUM", ""), *CHROMIUM_PATHS, shutil.which("chromium") or ""]
    for path in candidates:
        if path and Path(path).is_file():
            return path
    pytest.fail("Chromium not found: apt-get install -y chromium (or set RUMMY_CHROMIUM)")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """One headless Chromium for the session; each test gets its own page (a new Flet session)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: pip install -e '.[test]' (never 'playwright install')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=_chromium_path(), args=["--no-sandbox", "--enable-unsafe-swiftshader"]
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture()
def ui_page(ui_url: str, chromium: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page on the app, loaded, with Flutter's accessibility tree turned on.

    A test module's ``UI_PATH`` (e.g. ``"referee"``) opens that route instead of Home.
    """
    context = chromium.new_context(viewport={"width": 900, "height": 700})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(ui_url + getattr(request.module, "UI_PATH", ""))
        open_app(page)
        yield page
    finally:
        context.close()


class Server:
    """``python -m scorer.ui`` on a data folder of the test's own; stopped by its PID."""

    def __init__(self, folder: Path, *, db: str | None = None) -> None:
        """An app on ``folder`` (its log beside it), or on the database ``db`` (a PostgreSQL
        address; the log still beside ``folder``)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = folder.parent / f"{folder.name}-server.log"
        env = {
            **os.environ,
            "RUMMY_HOST": "127.0.0.1",
            "RUMMY_PORT": str(self.port),
            "RUMMY_DB": db or str(folder),
            "FLET_WEB_NO_CDN": "1",
            "FLET_FORCE_WEB_SERVER": "1",
        }
        env.pop("FLET_SERVER_PORT", None)
        env.pop("FLET_SERVER_IP", None)
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorer.ui"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the app exited:\n{self.log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail(f"the app did not open port {self.port}:\n{self.log.read_text()}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def open_page(browser: Browser, url: str, *, width: int = 1000, height: int = 900) -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=20_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached")
    return page


def league_with_a_game(location: Path) -> Store:
    """A store in ``location`` with league Club and one finished gin game of Anna and Bea."""
    from scorer.league.store import Store

    store = Store.open(location)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club")
    store.add_deal(game.id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}})
    return store


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and a digest of its bytes: equal before and after, nothing written."""
    import hashlib

    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="session")
def web_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static web build: ``RUMMY_WEB_DIST`` (``make test`` passes ``dist/web``, which
    ``make web`` has just built), else built once for the session into a temporary folder
    (wheels cached in ``build/web-cache``)."""
    given = os.environ.get("RUMMY_WEB_DIST")
    if given:
        folder = Path(given).resolve()
        if not (folder / "index.html").is_file():
            pytest.fail(f"RUMMY_WEB_DIST={given}: no build there (make web)")
        return folder
    from scorer.web import build

    out = tmp_path_factory.mktemp("web") / "dist"
    summary = build.build(out, cache=ROOT / "build" / "web-cache")
    print(f"built {out}: {summary['bytes'] / 1e6:.1f} MB in {summary['seconds']} s")
    return out


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """A temporary PostgreSQL cluster for the session (tests/pg_kit.py), stopped at the end.

    Where PostgreSQL is not installed the tests that need it fail in CI (``make test``
    installs it) and are skipped elsewhere, with the reason.
    """
    import pg_kit

    why = pg_kit.missing()
    if why is not None:
        if IN_CI:
            pytest.fail(f"PostgreSQL tests cannot run: {why}", pytrace=False)
        pytest.skip(why)
    cluster = pg_kit.Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture()
def pg_address(pg_cluster: object) -> Iterator[str]:
    """The address of a new empty database on the session's cluster; its sessions ended after
    the test."""
    import pg_kit

    assert isinstance(pg_cluster, pg_kit.Cluster)
    address = pg_cluster.database()
    yield address
    pg_cluster.let_go(address)


@pytest.fixture(params=["memory", "files", "postgresql"])
def store_of_each_kind(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new empty store of each kind in turn: in memory, in a folder, on PostgreSQL (closed after)."""
    from scorer.league.store import Store

    if request.param == "memory":
        yield Store.memory()
    elif request.param == "files":
        yield Store.open(tmp_path / "league")
    else:
        opened = Store.open(request.getfixturevalue("pg_address"))
        try:
            yield opened
        finally:
            opened.close()


def reopen(store: Store) -> Store:
    """The same data seen by a new program (a memory store is its own only copy)."""
    from scorer.league.store import Store

    if store.location is not None:
        return Store.open(store.location)
    return Store.open(store.address) if store.address is not None else store
