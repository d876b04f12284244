"""The web build on an ordinary host: served by another user, downloaded once, ready offline (issue 24).

A club puts the folder on a web server that runs as its own user (``cp -a`` or ``rsync -a``
keep the build's modes): every file must be readable by that server, or the offline cache
lacks it. Here the build is copied into a temporary folder that everyone may enter and served
by ``python3 -m http.server`` running as ``nobody``; a phone at 390 px opens it once, is told
when the app is ready to work offline, and opens it again with the network off. The server's
log shows that a first visit downloads each file once. One file the host refuses does not
hold up the rest: the page names it, and the rest is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import bench_module, free_port, open_app, server_process
from test_web_build import START_TIMEOUT_MS, open_web_app, wait_home_or_board

from scorer.ui.i18n import tr
from scorer.web import offline

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

RUNUSER = shutil.which("runuser")
SYSTEM_PYTHON = "/usr/bin/python3"
PHONE = {"width": 390, "height": 844}


def test_every_file_of_the_build_is_readable_by_a_server_running_as_another_user(web_dist: Path) -> None:
    for path in [web_dist, *web_dist.rglob("*")]:
        mode = path.stat().st_mode
        if path.is_dir():
            assert mode & 0o005 == 0o005, f"{path}: {oct(mode)}"
        else:
            assert mode & 0o004, f"{path}: {oct(mode)}"  # the icons were 0600 (mkstemp's)


@contextmanager
def host_folder(site: Path, *, port: int, log: Path) -> Iterator[str]:
    """``site`` served by ``nobody`` on ``port``: its address; the server's log goes to ``log``."""
    assert RUNUSER is not None
    command = [RUNUSER, "-u", "nobody", "--", SYSTEM_PYTHON, "-m", "http.server", str(port)]
    command += ["--bind", "127.0.0.1", "--directory", str(site)]
    with server_process(command, port=port, log=log, env=dict(os.environ), name="nobody's http.server"):
        yield f"http://127.0.0.1:{port}/"


@contextmanager
def host(web_dist: Path, log: Path, *, unreadable: tuple[str, ...] = ()) -> Iterator[str]:
    """The build copied as ``cp -a`` copies it (``unreadable``: files made the owner's alone, as
    the icons were), served by ``nobody``: its address; the server's log goes to ``log``."""
    if os.geteuid() != 0 or RUNUSER is None or not Path(SYSTEM_PYTHON).is_file():
        pytest.skip("serving as another user needs root, runuser and /usr/bin/python3")
    top = Path(tempfile.mkdtemp(prefix="rummy-host-"))
    try:
        top.chmod(0o755)  # mkdtemp's folder is root's alone; the copy inside keeps its modes
        site = top / "site"
        shutil.copytree(web_dist, site, copy_function=shutil.copy2)
        for name in unreadable:
            (site / name).chmod(0o600)
        with host_folder(site, port=free_port(), log=log) as url:
            yield url
    finally:
        shutil.rmtree(top, ignore_errors=True)


def wait_ready_offline(page: Page) -> dict[str, object]:
    """What the service worker last said about offline use, once it finished (ready or not) and,
    when ready, once it kept what it keeps later too (the QR decoder)."""
    page.wait_for_function(
        "() => window.rummyOffline && window.rummyOffline.state && window.rummyOffline.state.finished"
        " && (!window.rummyOffline.state.ready || !!window.rummyOffline.state.later)",
        timeout=START_TIMEOUT_MS,
        polling=500,
    )
    state: dict[str, object] = page.evaluate("window.rummyOffline.state")
    return state


@contextmanager
def phone(chromium: Browser) -> Iterator[tuple[BrowserContext, Page]]:
    """A phone's browser (a context at phone width) and its page, closed after the block."""
    context = chromium.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield context, page
    finally:
        context.close()


def opens_offline(context: BrowserContext, page: Page) -> None:
    """With no network, the page reloaded opens the app from what the service worker kept."""
    context.set_offline(True)
    page.reload()
    open_app(page, timeout_ms=START_TIMEOUT_MS)
    wait_home_or_board(page)


def downloads(log: Path) -> Counter[str]:
    """How many times each path was sent whole (200) by the server, from its log."""
    sent: Counter[str] = Counter()
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        found = re.search(r'"GET (\S+) HTTP/[\d.]+" 200 ', line)
        if found:
            sent[found.group(1).split("?")[0].removesuffix(".gz")] += 1
    return sent


@pytest.mark.browser
def test_served_by_another_user_a_phone_downloads_once_and_opens_offline(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    with host(web_dist, log) as url, phone(chromium) as (context, page):
        open_web_app(page, url)
        state = wait_ready_offline(page)
        assert state["ready"] is True and state["failed"] == [], state
        sent = downloads(log)
        twice = {path: count for path, count in sent.items() if count > 1 and path != "/sw.js"}
        assert twice == {}, twice  # one download: what the page fetched is what the cache keeps
        # Chromium's client (WebAssembly, skwasm) and nothing of the other browsers' (JavaScript).
        assert {"/main.dart.wasm", "/canvaskit/skwasm.wasm", "/app.zip"} <= set(sent), sorted(sent)
        assert not {"/main.dart.js", "/canvaskit/chromium/canvaskit.wasm"} & set(sent), sorted(sent)
        opens_offline(context, page)  # the cache alone opens the app


#: Where the service worker keeps a file, and how: the host's Content-Encoding on its copy.
KEPT_ENCODINGS = """async (paths) => {
  const cache = await caches.open((await caches.keys()).find((key) => key.startsWith("rummy-scorer-")));
  const found = {};
  for (const path of paths) {
    const kept = await cache.match(new URL(path, location.href).href);
    found[path] = kept ? kept.headers.get("Content-Encoding") : "missing";
  }
  return found;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("compresses", [True, False], ids=["host compresses", "host sends files as they are"])
def test_a_host_that_compresses_has_its_responses_kept_as_fetched_and_the_others_the_gz(
    web_dist: Path, chromium: Browser, compresses: bool
) -> None:
    """A host that compresses (Content-Encoding: gzip) sends the same bytes as the build's .gz,
    and the service worker keeps its response as it came: Chromium keeps compiled code only for
    a response it fetched (the client compiled at every start otherwise). A host that does not
    compress still sends the .gz, never the whole 8.5 MB client."""
    web = bench_module("web")
    script = web_dist / "main.dart.wasm"
    packed = script.with_name("main.dart.wasm.gz").stat().st_size
    files = ["main.dart.wasm", "pyodide/pyodide.asm.wasm", "app.zip"]
    with web.served(web_dist, compress=compresses) as (url, sent), phone(chromium) as (context, page):
        open_web_app(page, url)
        state = wait_ready_offline(page)
        assert state["ready"] is True and state["failed"] == [], state
        assert packed in sent and script.stat().st_size not in sent, sorted(sent)[-5:]
        expected = "gzip" if compresses else None
        assert page.evaluate(KEPT_ENCODINGS, files) == dict.fromkeys(files, expected)
        opens_offline(context, page)  # the host's responses as kept open the app


@pytest.mark.browser
def test_a_file_the_host_cannot_read_is_named_and_the_rest_is_kept(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    served = host(web_dist, tmp_path / "server.log", unreadable=("favicon.png",))
    with served as url, phone(chromium) as (_, page):
        open_web_app(page, url)
        state = wait_ready_offline(page)
        failed = state["failed"]
        assert state["ready"] is False and isinstance(failed, list), state
        assert [f["path"] for f in failed] == ["favicon.png"], state
        assert state["done"] == state["total"] - 1  # every other file is kept
        banner = page.locator("#rummy-offline")
        expected = tr("web.offline_failed").split("{")[0].strip()  # "Not ready to work offline:"
        assert banner.is_visible() and banner.inner_text().startswith(expected), banner.inner_text()
        assert "favicon.png (HTTP 404)" in banner.inner_text()  # http.server's answer to EACCES


def test_what_the_page_says_about_offline_use_is_in_both_catalogs() -> None:
    for key in offline.OFFLINE_TEXTS:
        assert tr(key, "en") and tr(key, "fi") and tr(key, "fi") != tr(key, "en")


def test_an_icon_drawn_into_the_cache_is_readable_by_all(tmp_path: Path) -> None:
    from scorer.ui.manifest import drawn_icon

    path = drawn_icon(tmp_path, "favicon.png")
    assert path.stat().st_mode & 0o777 == 0o644  # mkstemp's 0600 made it its owner's alone


#: Added to the next build's service worker: its install waits for the page's word, so a test
#: can open a page while the new build is installed and the old build's worker still answers.
HOLD_INSTALL = """
let releaseInstall = null;
const installHeld = new Promise((resolve) => { releaseInstall = resolve; });
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "test-release-install") releaseInstall();
});
self.addEventListener("install", (event) => event.waitUntil(installHeld));
"""


def changed_build(web_dist: Path, target: Path, *, hold_install: bool = False) -> str:
    """A copy of the build as the next build would be: python.js changed, a new version
    (``hold_install``: its worker's install waits for the message HOLD_INSTALL listens for)."""
    shutil.copytree(web_dist, target, copy_function=shutil.copy2)
    changed = target / "python.js"
    changed.write_text(changed.read_text(encoding="utf-8") + "\n// the next build\n", encoding="utf-8")
    worker = target / "sw.js"
    script = worker.read_text(encoding="utf-8")
    head, rest = script.split("const BUILD = ", 1)
    lists, tail = rest.split(";\n", 1)
    build = json.loads(lists)
    content = hashlib.sha256(changed.read_bytes()).hexdigest()[:16]
    build["files"]["python.js"] = [changed.stat().st_size, content, 0]
    head = re.sub(r'const VERSION = "[^"]+"', 'const VERSION = "nextbuild0000000"', head)
    held = HOLD_INSTALL if hold_install else ""
    worker.write_text(f"{head}const BUILD = {json.dumps(build)};\n{tail}{held}", encoding="utf-8")
    return "rummy-scorer-nextbuild0000000"


@contextmanager
def visited_then_updated(
    web_dist: Path, chromium: Browser, tmp_path: Path, *, hold_install: bool = False
) -> Iterator[tuple[Page, Path, int, str]]:
    """A phone that opened the build once, served by ``nobody``, and is ready offline; the next
    build (:func:`changed_build`) beside it, not yet served: the page, the next build's folder,
    the port to serve it on (the same address), its cache's name. After the block the phone
    opens the app again with the network off."""
    if os.geteuid() != 0 or RUNUSER is None or not Path(SYSTEM_PYTHON).is_file():
        pytest.skip("serving as another user needs root, runuser and /usr/bin/python3")
    top = Path(tempfile.mkdtemp(prefix="rummy-update-"))
    try:
        top.chmod(0o755)
        shutil.copytree(web_dist, top / "site", copy_function=shutil.copy2)
        new_cache = changed_build(web_dist, top / "next", hold_install=hold_install)
        port = free_port()
        with phone(chromium) as (context, page):
            with host_folder(top / "site", port=port, log=tmp_path / "first.log") as url:
                open_web_app(page, url)
                assert wait_ready_offline(page)["ready"] is True
            yield page, top / "next", port, new_cache
            opens_offline(context, page)
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.mark.browser
def test_a_new_build_fetches_only_what_changed_and_stays_ready_offline(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    with visited_then_updated(web_dist, chromium, tmp_path) as (page, site, port, new_cache):
        later = tmp_path / "next.log"
        with host_folder(site, port=port, log=later):
            page.reload()  # the old build opens; its service worker finds the new one
            open_app(page, timeout_ms=START_TIMEOUT_MS)
            page.wait_for_function(
                f"async () => (await caches.keys()).join() === {json.dumps(new_cache)}",
                timeout=START_TIMEOUT_MS,
                polling=500,
            )
            fetched = set(downloads(later))
        assert fetched <= {"/sw.js", "/python.js", "/"}, fetched  # the rest came from the old cache


#: Turns the phone's cache into one an earlier build left: its record names the CanvasKit
#: variant the page loaded (builds before the WebAssembly client), and it has no such client.
AS_AN_EARLIER_BUILD = """async ([mark, dropped]) => {
  const cache = await caches.open((await caches.keys()).find((key) => key.startsWith("rummy-scorer-")));
  const address = new URL(mark, location.href).href;
  const record = await (await cache.match(address)).json();
  record.options = { canvaskit: "chromium", jspi: record.options.jspi };
  for (const path of dropped) {
    delete record.files[path];
    await cache.delete(new URL(path, location.href).href);
  }
  const headers = { "Content-Type": "application/json" };
  await cache.put(address, new Response(JSON.stringify(record), { headers }));
}"""

#: Once a cache is complete (its record written): its record's options, and which of ``paths`` it holds.
MARKED = """async ([name, mark, paths]) => {
  const record = await caches.match(new URL(mark, location.href).href, { cacheName: name });
  if (!record) return null;
  const held = [];
  for (const path of paths) {
    if (await caches.match(new URL(path, location.href).href, { cacheName: name })) held.push(path);
  }
  return { options: (await record.json()).options, held };
}"""


@pytest.mark.browser
def test_an_update_from_a_build_before_the_webassembly_client_keeps_every_client_and_opens_offline(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    """A phone kept an earlier build, whose record names the CanvasKit variant it loaded. The
    new build's worker, installed in the background, cannot know which client the page will
    load now (Chromium loads the WebAssembly one): it keeps every client, so the app still
    opens offline (kept as the record said, it lacked main.dart.wasm, and the app did not
    start with the network off)."""
    wasm_client = ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"]
    js_client = ["main.dart.js", "canvaskit/chromium/canvaskit.wasm", "canvaskit/canvaskit.wasm"]
    with visited_then_updated(web_dist, chromium, tmp_path) as (page, site, port, new_cache):
        page.evaluate(AS_AN_EARLIER_BUILD, ["__rummy_offline__.json", wasm_client])
        with host_folder(site, port=port, log=tmp_path / "next.log"):
            page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
            deadline = time.monotonic() + START_TIMEOUT_MS / 1000
            found = None
            while found is None and time.monotonic() < deadline:
                found = page.evaluate(MARKED, [new_cache, "__rummy_offline__.json", wasm_client + js_client])
                page.wait_for_timeout(300)
        assert found is not None and found["held"] == wasm_client + js_client, found
    # visited_then_updated's end: the app opens from the new build's cache with the network off


@pytest.mark.browser
def test_a_page_opened_while_a_new_build_installs_is_answered_from_the_old_cache(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    """The window of a flaky failure, held open: the new build's worker has kept every file and
    is still installing while a page opens under the old build's worker. The old cache was
    removed as the new one became complete (before the new worker took over), so that page
    fetched the whole build again from the host, its 31 MB memory snapshot among it; and the
    old worker, asked by that page to complete its cache, removed the installing one's."""
    old_cache = (
        "rummy-scorer-" + re.findall(r'const VERSION = "([^"]+)"', (web_dist / "sw.js").read_text())[0]
    )
    with visited_then_updated(web_dist, chromium, tmp_path, hold_install=True) as visit:
        page, site, port, new_cache = visit
        later = tmp_path / "next.log"
        with host_folder(site, port=port, log=later):
            page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
            # The new build's own install is done (its cache complete), the test's hold is not.
            page.wait_for_function(
                """async ([name, mark]) => {
                    const registration = await navigator.serviceWorker.getRegistration();
                    return !!registration.installing &&
                        !!(await caches.match(new URL(mark, location.href).href, { cacheName: name }));
                }""",
                arg=[new_cache, "__rummy_offline__.json"],
                timeout=START_TIMEOUT_MS,
                polling=200,
            )
            page.reload()  # answered by the old build's worker, the new one still installing
            open_app(page, timeout_ms=START_TIMEOUT_MS)
            wait_home_or_board(page)
            state = wait_ready_offline(page)  # the old worker, asked to complete its cache
            assert state["ready"] is True and state["version"] != "nextbuild0000000", state
            fetched = set(downloads(later))
            assert fetched <= {"/sw.js", "/python.js", "/"}, fetched  # the page: the old cache
            keys = page.evaluate("async () => (await caches.keys()).sort()")
            assert keys == sorted([old_cache, new_cache]), keys  # neither removed the other's
            page.evaluate(
                """async () => (await navigator.serviceWorker.getRegistration())
                    .installing.postMessage({ type: "test-release-install" })"""
            )
            page.wait_for_function(
                f"async () => (await caches.keys()).join() === {json.dumps(new_cache)}",
                timeout=START_TIMEOUT_MS,
                polling=500,
            )
            assert set(downloads(later)) == fetched  # the new worker took over with what it kept
