"""The static web build (issue 14): what is in the folder, and the app running from it in Chromium.

The build is made once per session (``python -m scorer.web.build`` into a temporary folder,
wheels cached in ``build/web-cache``), or taken from ``RUMMY_WEB_DIST`` (``make test`` passes
``dist/web``, which ``make web`` has just built). It is served by ``python -m http.server`` on
loopback, as any static host would serve it: the browser test checks that the games outlive a
reload, that the app opens with the network off, and that another browser profile starts empty.
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import struct
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_kit import choose, settled, type_cards, type_into
from conftest import ROOT, free_port, open_app, server_process

from scorer.league.store import Store
from scorer.ui.i18n import tr
from scorer.web import build, offline

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

#: A gin knock typed in: Anna knocks with 5 (the 5C), Bea lays off nothing and holds 34.
KNOCKER = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
DEFENDER = "TH JH QH KC KD KS 5D 6D 7D AC"
#: Pyodide starts in a worker: on a loaded 2-core machine the first screen can take a while.
START_TIMEOUT_MS = 150_000
#: The one request the Flutter client makes outside the site; refused, nothing breaks.
KNOWN_OUTSIDE = ("rive_native.js",)


# -- the folder ----------------------------------------------------------------------------


def test_the_browser_gets_every_wheel_the_app_imports_and_no_server() -> None:
    runtime = build.find_runtime(build.flet_web_dir())
    pins = build.browser_pins(runtime)
    for needed in (
        "flet",
        "flet-charts",
        "flet-camera",  # the camera control (pure Python); its pictures decoded by zxing-wasm
        "pydantic",
        "pydantic-core",
        "tinydb",
        "msgpack",
        "filelock",
        "confusable-homoglyphs",
    ):
        assert needed in pins
    server_only_packages = (
        "flet-web",
        "uvicorn",
        "fastapi",
        "httpx",
        "oauthlib",
        "zxing-cpp",
        "pillow",
    )
    for server_only in server_only_packages:
        assert server_only not in pins
    from importlib.metadata import version

    assert pins["pydantic-core"] == version("pydantic-core")  # the one the pinned pydantic needs


def test_build_bundles_the_app_its_wheels_and_the_runtime(web_dist: Path) -> None:
    with zipfile.ZipFile(web_dist / build.APP_ARCHIVE) as archive:
        names = archive.namelist()
        stored = {info.compress_type for info in archive.infolist()}
    assert stored == {zipfile.ZIP_STORED}  # put in place with no inflating; it travels gzipped
    if build.node_binary() is not None:  # compiled: bytecode alone, beside where the source was
        assert "main.pyc" in names and "scorer/web/main.pyc" in names
        assert not [n for n in names if n.endswith(".py") or "__pycache__" in n]
    else:
        assert "main.py" in names and "scorer/web/main.py" in names
    assert "scorer/rulesets/gin.toml" in names
    assert "requirements.txt" not in names  # nothing for micropip to fetch: all is unpacked
    packages = {n.split("/")[1] for n in names if n.startswith("__pypackages__/") and n.count("/") > 1}
    for package in (
        "flet",
        "flet_charts",
        "pydantic",
        "pydantic_core",
        "tinydb",
        "openskill",
        "segno",
        "confusable_homoglyphs",
    ):
        assert package in packages
    assert any(n.startswith("__pypackages__/pydantic_core/") and n.endswith(".so") for n in names)
    lock = json.loads((web_dist / "pyodide" / "pyodide-lock.json").read_text())
    assert (web_dist / "pyodide" / lock["packages"]["msgpack"]["file_name"]).is_file()
    for runtime_file in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (web_dist / "pyodide" / runtime_file).is_file()
    assert (web_dist / "fonts" / "DejaVuSans.ttf").is_file()  # the suits' font, beside the page
    # Both builds of Flet's client: WebAssembly with skwasm (Chromium), JavaScript with CanvasKit.
    for client_file in ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.wasm", "main.dart.js"):
        assert (web_dist / client_file).is_file(), client_file
    assert not (web_dist / "canvaskit" / "wimp.wasm").exists()  # only a setting picks it
    assert 'flet.webRenderer="auto"' in (web_dist / "index.html").read_text()  # flutter.js picks


def test_index_runs_python_in_the_browser_from_the_folder(web_dist: Path) -> None:
    html = (web_dist / "index.html").read_text()
    assert "flet.pyodide = true;" in html
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs";' in html
    assert "flet.noCdn=true;" in html
    assert 'flet.routeUrlStrategy="hash";' in html  # a reload works on any static host
    assert "<title>Rummy Scorer</title>" in html
    assert '<script src="boot.js"></script>' in html


def test_the_runtime_starts_from_the_builds_memory_snapshot(web_dist: Path) -> None:
    snapshot = web_dist / build.MEMORY_SNAPSHOT
    if not snapshot.is_file():
        assert build.node_binary(jspi=True) is None, "a Node.js with JSPI is here, yet no snapshot"
        pytest.skip("no Node.js with JSPI here to make the runtime's snapshot")
    with snapshot.open("rb") as data:
        head = data.read(16)
    # Pyodide's snapshot header: its magic number, then the offset of the memory. Kept as it
    # is (the service worker keeps it inflated), it travels as the .gz beside it.
    assert struct.unpack("<II", head[:8])[1] % 16 == 0
    with gzip.open(snapshot.with_name(snapshot.name + ".gz")) as packed:
        assert packed.read(16) == head
    worker = (web_dist / "python-worker.js").read_text()
    assert worker.count("rummyLoadPyodide(loadPyodide, {") == 1  # Flet's one start, patched
    assert build.WORKER_LOAD not in worker
    assert worker.startswith(build.static_file("worker.js"))


#: Restores the build's snapshot in Node.js, says which modules it holds, then unpacks the app
#: archive where the browser's worker does and imports the app from it.
SNAPSHOT_PROBE = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [dist] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dist + "/pyodide/pyodide.mjs").href);
const py = await loadPyodide({
  indexURL: dist + "/pyodide/", _loadSnapshot: readFileSync(dist + "/pyodide/memory-snapshot.bin"),
});
py.FS.mkdirTree("/dist");
py.FS.mount(py.FS.filesystems.NODEFS, { root: dist }, "/dist");
console.log(py.runPython(`
import json, sys, zipfile
held = sorted(sys.modules)
texts = sys.modules["scorer.ui.i18n"].catalog.cache_info().currsize  # read before the snapshot
zipfile.ZipFile("/dist/app.zip").extractall(".")
sys.path.insert(0, "__pypackages__")  # as Flet's worker does
import scorer.web.main, scorer.game, flet
found = {"held": held, "texts": texts, "game": scorer.game.__file__, "flet": flet.__file__}
json.dumps({**found, "path": sys.path})
`));
"""


def test_the_snapshot_holds_the_pure_modules_the_app_imports_and_works_with_the_archive(
    web_dist: Path, tmp_path: Path
) -> None:
    node = build.node_binary(jspi=True)
    if node is None or not (web_dist / build.MEMORY_SNAPSHOT).is_file():
        pytest.skip("no Node.js with JSPI here to make the runtime's snapshot")
    probe = tmp_path / "probe.mjs"
    probe.write_text(SNAPSHOT_PROBE, encoding="utf-8")
    done = subprocess.run([node, str(probe), str(web_dist)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    held = set(found["held"])
    # Imported already: Flet, the app's engine and what draws Home before the store, none of
    # which needs a shared library; not pydantic (pydantic-core is one), nor what builds on
    # it, nor the entry; nor what only the store's opening imports, behind Home (TinyDB,
    # openskill: scorer/web/startup.py's BEHIND_FIRST_SCREEN).
    pure = ("flet", "scorer.game", "scorer.solver", "scorer.ui.i18n", "scorer.ui.screens.home")
    for name in (*pure, "scorer.ui.shell", "scorer.web.first_screen", "scorer.web.records"):
        assert name in held
    left_out = ("pydantic", "pydantic_core", "scorer.gamefile", "scorer.league.store", "scorer.web.main")
    for name in (*left_out, "scorer.ui.app", "tinydb", "openskill", "js"):
        assert name not in held
    # Flet's controls are imported when the app first names them: the ones the app's modules
    # name are there already, and so is the page ft.run makes; not Flet's session, which
    # speaks msgpack (a shared library's).
    for control in ("flet.controls.page", "flet.controls.theme", "flet.controls.material.filled_button"):
        assert control in held
    assert "flet.messaging.session" not in held and "msgpack" not in held
    assert "flet_charts" not in held  # only the charts' screens name them, after the first
    # Their files are where the browser's worker unpacks the archive, so what they import
    # later is found there, and the path the snapshot was made with is gone.
    assert found["game"] == "/home/pyodide/scorer/game.pyc"
    assert found["flet"] == "/home/pyodide/__pypackages__/flet/__init__.pyc"
    assert found["path"].count("__pypackages__") == 1
    assert found["texts"] == 1  # the catalogs parsed once, in the snapshot: not at every start


def test_the_archive_holds_msgpack_and_leaves_out_what_the_phone_never_reads(web_dist: Path) -> None:
    with zipfile.ZipFile(web_dist / build.APP_ARCHIVE) as archive:
        names = archive.namelist()
    # Flet's worker imports msgpack from the archive: no package loaded from the runtime's folder.
    assert any(n.startswith("__pypackages__/msgpack/") and n.endswith(".so") for n in names)
    assert 'loadPackage("msgpack")' not in build.static_file("worker.js")
    never = [n for n in names if build.NEVER_RUN.search(n.removeprefix("__pypackages__/"))]
    assert never == []
    assert not [n for n in names if n.endswith(".pyi") or "/sboms/" in n or "/pydantic/v1/" in n]
    assert any("licenses" in n for n in names)  # the licences stay with what they cover


def test_the_runtime_grows_its_memory_to_a_snapshot_larger_than_its_first(
    web_dist: Path, tmp_path: Path
) -> None:
    # The snapshot holds more than the runtime's first 30 MiB (Flet's first-screen modules);
    # the Node.js probe above restores it with the build's patched runtime.
    assert (web_dist / build.MEMORY_SNAPSHOT).stat().st_size > 30 * 2**20
    script = (web_dist / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert script.count("Module.growMemory(") == 1
    (tmp_path / "pyodide.asm.mjs").write_text(
        'Module["growMemory"]=growMemory;API.restoreSnapshot=function(t){return Module.HEAP8.set(t),l};'
    )
    build.patch_runtime(tmp_path)
    patched = (tmp_path / "pyodide.asm.mjs").read_text()
    assert (
        "return t.length>Module.HEAP8.length&&Module.growMemory(t.length),Module.HEAP8.set(t),l}" in patched
    )


def test_the_runtime_patch_refuses_a_runtime_it_does_not_know(tmp_path: Path) -> None:
    (tmp_path / "pyodide.asm.mjs").write_text("API.restoreSnapshot=function(t){Module.HEAPU8.set(t)};")
    with pytest.raises(build.BuildError, match=r"Pyodide changed"):
        build.patch_runtime(tmp_path)


def test_the_standard_library_a_start_imports_is_bytecode_and_the_rest_its_sources(web_dist: Path) -> None:
    original = build.flet_web_dir() / "pyodide" / build.STDLIB  # as flet-web has it: sources
    with zipfile.ZipFile(web_dist / "pyodide" / build.STDLIB) as ours, zipfile.ZipFile(original) as theirs:
        assert {e.compress_type for e in ours.infolist()} == {zipfile.ZIP_STORED}
        names = ours.namelist()
        assert [n.removesuffix("c") for n in names] == theirs.namelist()
        # What the app, Flet's worker and the runtime's start import is compiled already;
        # what a start never imports stays a source (it travels smaller).
        compiled = ("typing.pyc", "pyodide/http/__init__.pyc", "asyncio/base_events.pyc", "dataclasses.pyc")
        assert set(compiled) <= set(names)
        for source in ("pdb.py", "doctest.py", "tkinter/__init__.py"):
            assert source in names or source not in theirs.namelist()
        data = ours.read("pyodide/http/__init__.pyc")
        assert b".zip/pyodide/http/__init__.py" in data  # where the browser finds it, for tracebacks
        assert int.from_bytes(data[4:8], "little") == 0b01  # an unchecked hash-based .pyc
    # It travels gzipped whole, no bigger than flet-web's deflated zip of sources.
    assert (web_dist / "pyodide" / (build.STDLIB + ".gz")).stat().st_size < 1.25 * original.stat().st_size


def test_the_worker_patch_refuses_a_worker_it_does_not_know(tmp_path: Path) -> None:
    (tmp_path / "python-worker.js").write_text("self.pyodide = await loadPyodide(options);\n")
    with pytest.raises(build.BuildError, match=r"python-worker\.js changed"):
        build.patch_worker(tmp_path)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_names_the_app_with_its_icons_and_colour(web_dist: Path) -> None:
    manifest = json.loads((web_dist / "manifest.json").read_text())
    assert manifest["name"] == "Rummy Scorer"
    assert manifest["theme_color"] == build.THEME_COLOR == "#2E7D32"
    assert manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        width, height = _png_size((web_dist / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes


def service_worker_lists(web_dist: Path) -> dict[str, Any]:
    script = (web_dist / "sw.js").read_text()
    assert "__VERSION__" not in script and "__BUILD__" not in script
    lists: dict[str, Any] = json.loads(script.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    return lists


def test_service_worker_knows_every_file_of_the_build_and_keeps_what_a_browser_needs(web_dist: Path) -> None:
    lists = service_worker_lists(web_dist)
    files = {p.relative_to(web_dist).as_posix() for p in web_dist.rglob("*") if p.is_file()}
    transport = {name for name in files if name.endswith(".gz") and name[:-3] in lists["files"]}
    assert set(lists["files"]) == files - transport - {"sw.js"}
    clients = lists["clients"]
    kept = {*lists["precache"], *(name for files in clients.values() for name in files), *lists["jspi"]}
    # The QR decoder is kept after the rest (not part of a first visit), and only it.
    assert lists["later"] == sorted(
        f"{build.DECODER.target}/{name}"
        for name in ("LICENSE", "es/reader/index.js", "es/share.js", "reader/zxing_reader.wasm")
    )
    on_first_use = set(lists["files"]) - kept - set(lists["later"])
    assert {"index.html", "app.zip", "pyodide/pyodide.asm.wasm", "boot.js"} <= set(lists["precache"])
    # Each build of the client with every file it loads, and nothing of another's renderer.
    assert sorted(clients) == ["chromium", "full", "skwasm", "skwasm_heavy"]
    assert set(clients["skwasm"]) == {
        "main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"
    }  # fmt: skip
    assert set(clients["skwasm_heavy"]) == {
        "main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm_heavy.js", "canvaskit/skwasm_heavy.wasm"
    }  # fmt: skip
    assert set(clients["chromium"]) == {
        "main.dart.js", "canvaskit/chromium/canvaskit.js", "canvaskit/chromium/canvaskit.wasm"
    }  # fmt: skip
    assert set(clients["full"]) == {"main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm"}
    assert not {name for files in clients.values() for name in files} & set(lists["precache"])
    assert all(any(p.match(name) for p in offline.ON_FIRST_USE) for name in on_first_use), on_first_use
    for name, (size, _content, packed) in lists["files"].items():
        assert (web_dist / name).stat().st_size == size
        if packed:  # the .gz beside it is the same file, smaller
            assert gzip.decompress((web_dist / f"{name}.gz").read_bytes()) == (web_dist / name).read_bytes()
            assert packed < size
    # The page loads boot.js itself, before the worker is in charge: the worker's copy must be
    # the same address (the HTTP cache answers it), never a .gz downloaded a second time.
    assert lists["files"]["boot.js"][2] == 0 and not (web_dist / "boot.js.gz").exists()


def test_a_first_visit_downloads_under_30_mb(web_dist: Path) -> None:
    visit = offline.first_visit(service_worker_lists(web_dist))
    assert visit["chromium"] < 30e6 and visit["other"] < 30e6, visit


def test_the_qr_decoder_is_the_pinned_zxing_wasm_with_its_licence_and_not_in_a_first_visit(
    web_dist: Path,
) -> None:
    import hashlib

    folder = web_dist / build.DECODER.target
    wasm = (folder / build.DECODER.checked).read_bytes()
    assert hashlib.sha256(wasm).hexdigest() == build.DECODER.checked_sha256
    assert "MIT License" in (folder / "LICENSE").read_text()
    lists = service_worker_lists(web_dist)
    decoder = offline.later(lists)
    assert 0.5e6 < decoder[0] < 2e6 and decoder[1] < decoder[0], decoder  # the reader alone, gzipped
    assert not set(lists["later"]) & {*lists["precache"], *lists["jspi"]}
    worker = (web_dist / "python-worker.js").read_text()
    assert "self.rummyDecodeQr = " in worker and "zxing-wasm/" in worker


def test_the_build_refuses_a_decoder_that_is_not_the_pinned_one(tmp_path: Path) -> None:
    from dataclasses import replace

    other = replace(build.DECODER, checked_sha256="0" * 64)
    with pytest.raises(build.BuildError, match=r"is not zxing-wasm 3\.1\.8's"):
        build.copy_decoder(tmp_path, other)


def test_flutters_own_service_worker_is_not_waited_for(web_dist: Path) -> None:
    bootstrap = (web_dist / "flutter_bootstrap.js").read_text()
    assert "serviceWorkerVersion: " not in bootstrap  # its loader waited 4 s for it at each start
    html = (web_dist / "index.html").read_text()
    assert build.FLUTTER_SCRIPT not in html  # boot.js adds it once sw.js is in charge
    assert '<div class="bar">Rummy Scorer</div>' in html  # the app's frame, until its first frame


def test_the_build_says_which_of_its_own_packages_are_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "hatchling" else real(name))
    needs = r"needs hatchling: install it with pip install -e '\.\[web\]'"
    with pytest.raises(build.BuildError, match=needs):
        build.check_build_needs()


def test_the_web_extra_declares_what_the_build_needs() -> None:
    import tomllib

    from packaging.requirements import Requirement

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    declared = {Requirement(text).name for text in extras["web"]}
    assert {dist for _module, dist in build.BUILD_NEEDS} <= declared


# -- in Chromium -----------------------------------------------------------------------------


@contextmanager
def served(folder: Path, log: Path) -> Iterator[str]:
    """``folder`` served as static files on loopback (any static host would do): its address."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory"]
    command.append(str(folder))
    with server_process(command, port=port, log=log, env=dict(os.environ), name="http.server"):
        yield f"http://127.0.0.1:{port}/"


def network_address() -> str | None:
    """This machine's address on its network (not loopback), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # nothing is sent: the route picks the address
        except OSError:
            return None
        address: str = sock.getsockname()[0]
    return None if address.startswith("127.") else address


@pytest.fixture(scope="module")
def web_url(web_dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The build served as static files on loopback."""
    with served(web_dist, tmp_path_factory.mktemp("web-server") / "server.log") as url:
        yield url


def shown(page: Page, text: str) -> Locator:
    return page.locator("flt-semantics").get_by_text(text, exact=True)


def wait_shown(page: Page, text: str, timeout_ms: float = 20_000) -> None:
    from playwright.sync_api import expect

    expect(shown(page, text)).to_be_visible(timeout=timeout_ms)


def open_web_app(page: Page, url: str) -> None:
    # A first visit loads the whole build (tens of MB) before "load": on a loaded machine that
    # takes longer than a page's default timeout.
    page.goto(url, timeout=START_TIMEOUT_MS)
    open_app(page, timeout_ms=START_TIMEOUT_MS)
    wait_home_or_board(page)


def wait_home_or_board(page: Page) -> None:
    """Wait until Python has drawn the first screen (the bar's New game button)."""
    deadline = time.monotonic() + START_TIMEOUT_MS / 1000
    button = page.get_by_role("button", name="New game")
    while time.monotonic() < deadline:
        if button.count():
            return
        # The accessibility tree is turned on again after Flutter rebuilt the page.
        page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
        page.wait_for_timeout(500)
    pytest.fail("the app's first screen did not appear")


def start_gin_and_knock(page: Page) -> None:
    page.get_by_role("button", name="New game").first.click()
    choose(page, "Variant", "Gin rummy")
    type_into(page, "Player 1", "Anna")
    type_into(page, "Player 2", "Bea")
    page.get_by_role("button", name="Start game").click()
    wait_shown(page, "Deal 1")
    page.get_by_role("button", name="Knocked").wait_for()
    settled(page)  # the screen's first updates land before a menu is opened
    choose(page, "Knocked", "Anna")
    type_cards(page, "Cards left: Anna", KNOCKER)
    type_cards(page, "Cards left: Bea", DEFENDER)
    wait_shown(page, "Undercut: Bea scores 29")
    page.get_by_role("button", name="Save deal").click()
    wait_shown(page, "Bea: 29", timeout_ms=30_000)
    wait_shown(page, "Anna: 0")


def wait_offline_ready(page: Page) -> None:
    """Wait until the service worker controls the page and says it keeps all it needs offline."""
    page.wait_for_function(
        "() => !!navigator.serviceWorker.controller && !!window.rummyOffline && window.rummyOffline.ready",
        timeout=120_000,
        polling=500,
    )


#: What IndexedDB holds of the store (scorer/web/browser_store.py): the commits' keys and lines,
#: the meta records, the backups' names, and which databases the site has.
READ_IDB = """async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('rummy-scorer'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error);
  });
  const tx = db.transaction(['commits', 'meta', 'backups']);
  const ask = (r) => new Promise(ok => { r.onsuccess = () => ok(r.result); });
  const commits = tx.objectStore('commits'), meta = tx.objectStore('meta');
  const found = {
    keys: await ask(commits.getAllKeys()),
    lines: (await ask(commits.getAll())).map(v => v.line),
    meta: Object.fromEntries(await Promise.all((await ask(meta.getAllKeys())).map(
      async k => [k, await ask(meta.get(k))]))),
    backups: await ask(tx.objectStore('backups').getAllKeys()),
  };
  db.close();
  found.databases = (await indexedDB.databases()).map(d => d.name).sort();
  return found;
}"""


def stored(page: Page) -> dict[str, Any]:
    """What IndexedDB holds of the store (read from the page, beside the app's worker)."""
    found: dict[str, Any] = page.evaluate(READ_IDB)
    return found


def fact_kinds(lines: list[str]) -> list[str]:
    return [f["kind"] for line in lines[1:] for f in json.loads(line.split("\t")[0])["facts"]]


def worker_python(page: Page, code: str) -> Any:
    """The value (JSON) of the Python expression ``code`` run in the app's worker."""
    worker = page.workers[-1]
    return json.loads(worker.evaluate(f"self.pyodide.runPython({json.dumps(code)})"))


def store_opened(page: Page) -> None:
    """Wait until the app's store is open in its worker (Home shows before it, from the
    summary record: scorer/web/first_screen.py)."""
    deadline = time.monotonic() + START_TIMEOUT_MS / 1000
    while not worker_python(page, "import json; from scorer.web import main; json.dumps(bool(main._opened))"):
        if time.monotonic() > deadline:
            pytest.fail("the store never opened")
        page.wait_for_timeout(100)


def writes(page: Page) -> dict[str, Any]:
    """The app's own count of its writes to IndexedDB (:func:`scorer.web.main.status`), once
    none is under way (a change made from the console, outside the app's tasks, cannot wait
    for its transaction: it returns at once)."""
    deadline = time.monotonic() + 30
    while True:
        found: dict[str, Any] = worker_python(page, "from scorer.web import main; main.status()")
        if not found.get("pending") or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(100)


def summary_shown(page: Page) -> dict[str, Any]:
    """What boot.js showed of the league while Python started (``window.rummySummary``)."""
    page.wait_for_function(
        "() => window.rummySummary && window.rummySummary.readyAt !== null", timeout=120_000
    )
    found: dict[str, Any] = page.evaluate("() => window.rummySummary")
    return found


#: What the browser's Python imported that the first screen leaves for later (scorer.web.startup).
TOO_EARLY = (
    "import json, sys; from scorer.web.startup import imported_too_early;"
    " json.dumps(imported_too_early(sys.modules, store_opening=True))"
)


def too_early(page: Page) -> list[str]:
    worker = page.workers[-1]
    found: list[str] = json.loads(worker.evaluate(f"self.pyodide.runPython({json.dumps(TOO_EARLY)})"))
    return found


def outside(urls: list[str], base: str) -> list[str]:
    return [u for u in urls if not u.startswith(base) and not u.endswith(KNOWN_OUTSIDE)]


@pytest.mark.browser
def test_a_gin_game_outlives_reloads_and_the_network_and_stays_in_its_profile(
    web_dist: Path, web_url: str, chromium: Browser
) -> None:
    context: BrowserContext = chromium.new_context(viewport={"width": 390, "height": 844})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        open_web_app(page, web_url)
        if (web_dist / build.MEMORY_SNAPSHOT).is_file():  # no Python started from scratch
            assert any("Python started from the build's memory snapshot" in s for s in said), said
        assert too_early(page) == []  # Home is up, before any tap: nothing it leaves for later
        start_gin_and_knock(page)
        saved = stored(page)
        assert saved["keys"] == list(range(len(saved["keys"])))  # one record per commit, in order
        kinds = fact_kinds(saved["lines"])
        assert "game.started" in kinds and "deal.recorded" in kinds
        assert saved["meta"]["summary"]["games"][0]["totals"] == [["Anna", 0], ["Bea", 29]]
        assert "/rummy" not in saved["databases"]  # the earlier layout was looked for, not made
        status = writes(page)
        assert status["failures"] == 0 and status["writes"] >= 2, status
        # the deal's save: its one commit record and the summary, not the whole log
        assert status["last"]["commits"] == [saved["keys"][-1]] and status["last"]["meta"] == ["summary"]
        assert status["last"]["bytes"] < 4_000, status
        # Chromium lets Python wait for a promise (JSPI): each change was acknowledged only
        # once IndexedDB had committed it, as on a disk.
        assert status["waited"] >= 2 and status["not_waited"] == 0, status

        second = context.new_page()  # a second tab of this browser: told to close one
        second.goto(web_url)
        open_app(second, timeout_ms=START_TIMEOUT_MS)
        wait_shown(second, tr("web.other_tab"), timeout_ms=START_TIMEOUT_MS)
        second.close()

        page.reload()  # the game is read back from the browser's storage
        open_app(page, timeout_ms=START_TIMEOUT_MS)
        wait_shown(page, "Bea: 29", timeout_ms=START_TIMEOUT_MS)
        wait_shown(page, "Anna: 0")
        early = summary_shown(page)  # while Python started, the page showed the game in progress
        assert early["shown"] and early["at"] < early["readyAt"], early
        assert "Gin rummy" in early["text"] and "Anna: 0, Bea: 29" in early["text"], early

        wait_offline_ready(page)
        context.set_offline(True)
        page.reload()  # no network: the service worker's cache opens the app
        open_app(page, timeout_ms=START_TIMEOUT_MS)
        wait_shown(page, "Bea: 29", timeout_ms=START_TIMEOUT_MS)
        wait_shown(page, "Anna: 0")
        assert outside(requests, web_url) == []
        assert f"{web_url}fonts/DejaVuSans.ttf" in requests  # the suits' font, from the folder
    finally:
        context.close()

    other = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = other.new_page()
        page.set_default_timeout(15_000)
        open_web_app(page, web_url)
        wait_shown(page, tr("home.none_in_progress"))
        assert not shown(page, "Anna").count()
        page.get_by_role("button", name="Referee").first.click()
        page.get_by_role("button", name="Check meld").wait_for()
        page.get_by_role("button", name="Settings").first.click()
        page.get_by_role("radio", name="suomi").click()
        wait_shown(page, tr("settings.language", "fi"))  # the Language heading, now in Finnish
    finally:
        other.close()


@pytest.mark.browser
def test_without_its_snapshot_python_starts_from_scratch(web_url: str, chromium: Browser) -> None:
    """A host that lost the snapshot (or a browser that refuses it) still gets the app."""
    # No service worker: the host's answers reach the page as they are (Playwright's routes do
    # not see what a service worker fetches).
    context: BrowserContext = chromium.new_context(
        viewport={"width": 390, "height": 844}, service_workers="block"
    )
    context.route("**/memory-snapshot.bin*", lambda route: route.fulfill(status=404, body="gone"))
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        open_web_app(page, web_url)
        assert any("Python starts from scratch (no memory snapshot: Error: HTTP 404" in s for s in said), said
        assert not any("started from the build's memory snapshot" in s for s in said)
        # The steps bench/web.py times are said however Python started (the store's open
        # comes behind Home: it is waited for).
        for step in ("the app imported in", "the first screen made in", "the store opened in"):
            for _ in range(START_TIMEOUT_MS // 100):
                if any(f"Rummy Scorer: {step} " in s and s.endswith(" ms") for s in said):
                    break
                page.wait_for_timeout(100)  # lets Playwright deliver console events
            assert any(f"Rummy Scorer: {step} " in s and s.endswith(" ms") for s in said), (step, said)
    finally:
        context.close()


def record_club(folder: Path) -> Store:
    """The club's store on its computer: three gin games to 50 in league Club."""
    store = Store.open(folder)
    store.create_league("Club")
    big_gin = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}
    gin = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}
    for deal in (big_gin, gin, big_gin):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club")
        store.add_deal(game.id, deal)
    return store


@pytest.mark.browser
def test_games_move_between_the_phone_and_the_clubs_store(
    web_url: str, chromium: Browser, tmp_path: Path
) -> None:
    club = record_club(tmp_path / "club")
    club_file = tmp_path / "club.json"
    club_file.write_text(json.dumps(club.export_league("Club")), encoding="utf-8")

    context = chromium.new_context(viewport={"width": 390, "height": 844}, accept_downloads=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_web_app(page, web_url)
        page.get_by_role("button", name="Leagues").first.click()
        type_into(page, "League name", "Club")
        page.get_by_role("button", name="Create league").click()  # opens the new league
        page.get_by_role("button", name="Import files").wait_for()
        with page.expect_file_chooser() as chooser:  # the phone's file picker
            page.get_by_role("button", name="Import files").click()
        chooser.value.set_files(str(club_file))
        wait_shown(page, "new games: 3")
        page.get_by_role("button", name="Import now").click()
        wait_shown(page, "Imported: 3 new games, 3 new deals, 2 new players.", timeout_ms=30_000)
        wait_shown(page, "Win rate 67%")  # Anna: 2 wins in 3 games, on her second line on a phone
        with page.expect_download() as download:  # a download of the phone's league
            page.get_by_role("button", name="Export league (JSON)").click()
        phone_file = tmp_path / "phone.json"
        download.value.save_as(phone_file)
    finally:
        context.close()

    # Back at the club: `rummy league import` merges the phone's export into a store.
    Store.open(tmp_path / "copy").create_league("Club")
    command = [sys.executable, "-m", "scorer.cli", "league", "import", "--db", str(tmp_path / "copy")]
    done = subprocess.run([*command, "--league", "Club", str(phone_file)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    copy = Store.open(tmp_path / "copy")
    assert copy.standings("Club") == club.standings("Club")


#: Today's IDBFS layout, as the earlier build left it: database /rummy, object store FILE_DATA,
#: one record per file or folder of the mount, keyed by its path.
SEED_IDBFS = """async (files) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('/rummy', 21);
    r.onupgradeneeded = () => r.result.createObjectStore('FILE_DATA').createIndex('timestamp', 'timestamp');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error);
  });
  const tx = db.transaction('FILE_DATA', 'readwrite'), store = tx.objectStore('FILE_DATA');
  for (const [path, text] of files) {
    const entry = { timestamp: new Date(), mode: text === null ? 16877 : 33188 };
    if (text !== null) entry.contents = Uint8Array.from(atob(text), c => c.charCodeAt(0));
    store.put(entry, path);
  }
  await new Promise((ok, no) => { tx.oncomplete = ok; tx.onerror = () => no(tx.error); });
  db.close();
}"""

#: The earlier records as they are now (path -> the file's bytes in base64, or null).
READ_IDBFS = """async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('/rummy'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error);
  });
  const store = db.transaction('FILE_DATA').objectStore('FILE_DATA');
  const ask = (r) => new Promise(ok => { r.onsuccess = () => ok(r.result); });
  const keys = await ask(store.getAllKeys()), values = await ask(store.getAll());
  db.close();
  const text = (v) => v.contents ? btoa(String.fromCharCode(...v.contents)) : null;
  return keys.map((k, i) => [k, text(values[i])]);
}"""


def idbfs_records(mount: Path) -> list[tuple[str, str | None]]:
    """The IDBFS records of the folder ``mount`` (mounted at /rummy): path, base64 or None."""
    import base64

    found: list[tuple[str, str | None]] = [("/rummy", None)]
    for path in sorted(mount.rglob("*")):
        key = f"/rummy/{path.relative_to(mount).as_posix()}"
        found.append((key, None if path.is_dir() else base64.b64encode(path.read_bytes()).decode("ascii")))
    return found


@pytest.mark.browser
def test_the_earlier_idbfs_layout_converts_then_a_checkpoint_and_later_commits_reopen(
    web_url: str, chromium: Browser, tmp_path: Path
) -> None:
    # A phone's store as the earlier build kept it: a folder made by the store's own code.
    mount = tmp_path / "rummy"
    old = Store.open(mount / "league")
    old.create_league("Club")
    game = old.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 1000}, league="Club")
    old.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 34}})
    for n in range(200):  # enough commits that the next one is due a checkpoint
        old.add_player(f"Player {n:03}")
    zipped = old.backup(mount / "league-backups")
    seeded = idbfs_records(mount)
    position = old.position

    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        page.goto(f"{web_url}manifest.json")  # the site's origin, before the app starts
        page.evaluate(SEED_IDBFS, seeded)
        open_web_app(page, web_url)
        expect_text(page, "Gin rummy: Anna, Bea")  # the game in progress, on Home
        store_opened(page)
        assert any("converted from the browser's earlier storage" in s for s in said), said
        saved = stored(page)
        assert saved["keys"] == list(range(position + 1))
        assert saved["lines"] == (mount / "league" / "facts.jsonl").read_text().splitlines(keepends=True)
        assert saved["meta"]["converted"]["from"] == "IndexedDB /rummy FILE_DATA"
        assert saved["backups"] == [zipped.name]
        assert dict(page.evaluate(READ_IDBFS)) == dict(seeded)  # kept as they were

        # The next save is due a checkpoint: in its transaction, beside its commit and summary.
        deal = json.dumps({"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 20}})
        add = (
            "import json; from scorer.web import main;"
            f" main._opened[0].add_deal({game.id!r}, json.loads({deal!r})); '0'"
        )
        worker_python(page, add)
        status = writes(page)
        assert status["last"]["commits"] == [position + 1], status
        assert sorted(status["last"]["meta"]) == ["checkpoint", "summary"], status
        worker_python(page, add)  # and one commit after it
        assert writes(page)["last"]["meta"] == ["summary"]
        old.add_deal(game.id, json.loads(deal))
        old.add_deal(game.id, json.loads(deal))
        expected = [[line.names, line.summary.totals] for line in old.games()]
        assert stored(page)["meta"]["checkpoint"]["position"] == position + 1
        made = worker_python(
            page,
            "import json; from scorer.web import main;"
            " json.dumps(main._opened[0].backup('/rummy/league-backups').name)",
        )

        page.reload()  # from the checkpoint and the one commit after it
        open_app(page, timeout_ms=START_TIMEOUT_MS)
        wait_home_or_board(page)
        early = summary_shown(page)
        assert early["shown"] and early["at"] < early["readyAt"], early
        assert early["text"].startswith("Club") and "Gin rummy" in early["text"], early
        totals = old.games()[0].summary.totals
        assert (
            f"Anna: {totals[old.games()[0].players[0]]}, Bea: {totals[old.games()[0].players[1]]}"
            in early["text"]
        )
        store_opened(page)
        reopened = worker_python(
            page,
            "import json; from scorer.web import main; s = main._opened[0];"
            " json.dumps([s._browser.first_in_memory, [[list(g.names), g.summary.totals] for g in s.games()],"
            " sorted(p.name for p in __import__('pathlib').Path('/rummy/league-backups').iterdir())])",
        )
        first, games, backups = reopened
        assert first == position + 1  # the commits before the checkpoint were not read to open
        assert games == [[list(names), totals] for names, totals in expected]
        assert made in backups and zipped.name in backups
    finally:
        context.close()


def expect_text(page: Page, text: str) -> None:
    """Wait until a node of the accessibility tree holds ``text`` (a list tile's title)."""
    from playwright.sync_api import expect

    expect(page.locator("flt-semantics").filter(has_text=text).first).to_be_visible(timeout=60_000)


@pytest.mark.browser
def test_on_a_plain_http_address_chromium_starts_the_webassembly_client_it_can(
    web_dist: Path, chromium: Browser, tmp_path: Path
) -> None:
    """A club serving the build on its own network over plain ``http://`` (not https, not
    localhost): the page is not a secure context, so it has neither a service worker nor the
    browser's image decoders, and flutter.js picks skwasm_heavy, which the build keeps. The
    app opens there and a tap goes through."""
    address = network_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    port = free_port("0.0.0.0")
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "0.0.0.0"]
    command += ["--directory", str(web_dist)]
    log, env = tmp_path / "server.log", dict(os.environ)
    with server_process(command, port=port, log=log, env=env, name="http.server"):
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            open_web_app(page, f"http://{address}:{port}/")
            assert page.evaluate("isSecureContext") is False
            loaded: list[str] = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
            assert any(name.endswith("/canvaskit/skwasm_heavy.wasm") for name in loaded), loaded
            page.get_by_role("button", name="New game").first.click()
            page.get_by_role("button", name="Start game").wait_for()
        finally:
            context.close()
