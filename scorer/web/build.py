"""Build the app as a static folder that runs in the browser: ``python -m scorer.web.build OUT``.

The folder holds everything the phone needs, so nothing is fetched from the internet when it
runs: host it on any static web server (or open it from ``python -m http.server``).

This is ``flet publish --no-cdn`` with its downloads supplied from the packages. The steps
(and what each replaces):

1. Flet's web client and its Pyodide runtime are copied from the installed ``flet-web``
   package (publish downloads the runtime from GitHub). Both builds of the client are kept,
   and flutter.js picks one as the page loads: in Chromium the client compiled to WebAssembly
   (dart2wasm) with the skwasm renderer, which starts sooner than the JavaScript one (it has
   no 9.6 MB script to parse: bench/README.md, issue 25), elsewhere the JavaScript client with
   CanvasKit (publish's default for Pyodide apps). Left out: the renderer only a setting
   asks for (wimp), CanvasKit's experimental build, debug symbols and Pyodide's command-line
   files.
2. ``index.html``, ``manifest.json`` and ``FontManifest.json`` are patched by ``flet-web``'s
   own functions, as publish does, with the routes in the URL's fragment (``#/game/...``) so
   a reload works on any static host, and the Pyodide URL given relative to the worker (publish
   writes a bare ``pyodide/pyodide.mjs``, which a module worker cannot import).
3. Every wheel the app imports in the browser is bundled in ``app.zip``, unpacked into
   ``__pypackages__`` (which Flet's worker puts on ``sys.path``), so nothing is installed
   from an index, and not even micropip is loaded (publish would list the requirements for
   micropip to fetch from PyPI). The wheels are the distributions this package requires
   (markers evaluated for the browser: ``flet[web]``'s server and ``httpx`` are not needed
   there), at the versions installed here, so the browser runs what the tests ran;
   ``pydantic-core`` and ``msgpack`` are their ``pyemscripten`` WebAssembly wheels for the
   runtime's Python. Downloads are kept in a cache folder and fetched only once.
4. ``msgpack`` (Flet's wire format) is in the archive too, so the worker imports it with the
   rest instead of loading a package from the runtime's folder at every start; the wheel also
   goes there, named by the runtime's lock file, for Flet's own worker should the archive
   not be put in place by ours.
5. This package goes into the archive as its wheel builds it (rulesets included); the
   entry point is :mod:`scorer.web.main`. Its assets (the suit font) are served beside the page.
6. Added: the web app manifest with the app's name, colours and icons (:mod:`scorer.ui.icons`),
   a service worker that caches the whole build so the app opens offline after the first
   visit, and a small script that registers it and asks for persistent storage.
7. Added: a memory snapshot of the runtime, started and with the modules the app and its first
   screen import already imported where a snapshot can hold them, made in Node.js (as the
   bytecode is); Flet's worker is patched to start from it instead of starting CPython, which
   was most of the wait on every visit, and the runtime to grow its memory to the snapshot's.
   The runtime's standard library is stored in its zip rather than deflated file by file: it
   travels gzipped whole (smaller), and an import reads a module with no inflating.
8. Added: the QR decoder, zxing-wasm's reader (:data:`DECODER`, vendored in ``vendor/zxing-wasm``
   with its licence), in ``zxing-wasm/``: the worker imports it on the first scan
   (``static/worker.js``, ``rummyDecodeQr``), and the service worker keeps it for offline use
   once the rest is kept, so it is not part of a first visit's download (``offline.LATER``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Final

from scorer.ui.manifest import APP_NAME, DESCRIPTION, ICONS, THEME_COLOR, drawn_icons, manifest
from scorer.web import offline
from scorer.web.offline import static_file

DISTRIBUTION: Final = "rummy-scorer"
#: The module the browser runs (``main.py`` in the archive imports it).
ENTRY_MODULE: Final = "scorer.web.main"
#: Left out of the copy of Flet's web client (paths relative to its folder).
SKIPPED: Final = (
    re.compile(r"canvaskit/wimp\.(js|wasm)$"),  # skwasm's experimental variant: only a setting picks it
    re.compile(r"canvaskit/experimental_webparagraph/"),
    re.compile(r".*\.(symbols|map)$"),
    re.compile(r"pyodide/(python|python\.bat|python\.exe|python_cli_entry\.mjs|.*\.d\.ts|package\.json)$"),
    re.compile(r"flutter_service_worker\.js$"),  # Flet's only unregisters itself: ours is sw.js
)
#: What ``python -m scorer.web.build`` needs besides the app (the ``web`` extra of
#: pyproject.toml): the module it imports, and the distribution that has it.
BUILD_NEEDS: Final = (("packaging", "packaging"), ("hatchling", "hatchling"))


@dataclass(frozen=True)
class Vendored:
    """A package vendored in the source folder, pinned: its version, the sha256 of the tarball
    it came from, and the sha256 of its one large file (checked at every build)."""

    name: str
    version: str
    folder: str  # in the source folder
    tarball_sha256: str
    checked: str  # the file whose sha256 is pinned
    checked_sha256: str
    target: str  # the folder in the build


#: The QR decoder of the phone build: ZXing-C++ as WebAssembly, its reader alone (QR codes).
DECODER: Final = Vendored(
    name="zxing-wasm",
    version="3.1.8",
    folder="vendor/zxing-wasm",
    tarball_sha256="065e4b2a8130ea520428ca08510ca8ef48acb84d7900a64cfc1cf3909ed3695a",
    checked="reader/zxing_reader.wasm",
    checked_sha256="8451d7fe72f3d8e9ced56c7b6805e8bab88a0c218bfcd25c47c0a999e8188f3d",
    target="zxing-wasm",
)


def copy_decoder(out: Path, vendored: Vendored = DECODER) -> Path:
    """The vendored decoder into ``out`` (its licence with it), refused if it is not the pinned one."""
    source = project_root() / vendored.folder
    checked = source / vendored.checked
    if not checked.is_file() or not (source / "LICENSE").is_file():
        raise BuildError(f"{vendored.name} {vendored.version} is missing from '{source}' (see its README.md)")
    digest = hashlib.sha256(checked.read_bytes()).hexdigest()
    if digest != vendored.checked_sha256:
        raise BuildError(
            f"'{checked}' is not {vendored.name} {vendored.version}'s (sha256 {digest}, "
            f"pinned {vendored.checked_sha256}): see {vendored.folder}/README.md"
        )
    target = out / vendored.target
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def check_build_needs() -> None:
    """Say which of :data:`BUILD_NEEDS` is missing, and how to install it."""
    import importlib.util

    missing = [dist for module, dist in BUILD_NEEDS if importlib.util.find_spec(module) is None]
    if missing:
        raise BuildError(f"the web build needs {', '.join(missing)}: install it with pip install -e '.[web]'")


class BuildError(Exception):
    """The build cannot be made here: says what is missing and what to do."""


@dataclass(frozen=True)
class Runtime:
    """The Pyodide runtime inside ``flet-web``: its Python and wheel platform."""

    folder: Path
    python: str  # "3.14.2"
    platform: str  # "pyemscripten_2026_0_wasm32"

    @property
    def short(self) -> str:
        return ".".join(self.python.split(".")[:2])

    @property
    def abi(self) -> str:
        return "cp" + self.short.replace(".", "")


def flet_web_dir() -> Path:
    try:
        import flet_web  # type: ignore[import-untyped]  # flet-web ships no type information
    except ImportError:
        raise BuildError("the flet-web package is missing: install the app with pip install -e .") from None
    return Path(flet_web.get_package_web_dir())


def find_runtime(web: Path) -> Runtime:
    lock = json.loads((web / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    info = lock["info"]
    platform = f"pyemscripten_{info['abi_version']}_{info['arch']}"
    return Runtime(folder=web / "pyodide", python=info["python"], platform=platform)


def browser_environment(runtime: Runtime) -> dict[str, str]:
    """The values of requirement markers inside the browser's Python."""
    from packaging.markers import default_environment

    env = {key: str(value) for key, value in default_environment().items()}
    env.update(
        python_version=runtime.short,
        python_full_version=runtime.python,
        implementation_name="cpython",
        platform_python_implementation="CPython",
        platform_system="Emscripten",
        sys_platform="emscripten",
        platform_machine="wasm32",
        os_name="posix",
        extra="",
    )
    return env


def runtime_requirements(runtime: Runtime, root: str = DISTRIBUTION) -> dict[str, str]:
    """Every distribution ``root`` needs in the browser, with the version installed here.

    Extras are left out (``flet[web]`` is the server), and so is whatever a marker excludes
    in the browser (Flet's ``httpx`` and ``oauthlib``).
    """
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    env = browser_environment(runtime)
    found: dict[str, str] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise BuildError(
                f"'{name}' is not installed here: install the app with pip install -e ."
            ) from None
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue
            key = canonicalize_name(requirement.name)
            if key in found:
                continue
            version = metadata.version(requirement.name)
            if not requirement.specifier.contains(version, prereleases=True):
                raise BuildError(f"'{requirement}' is required but {requirement.name} {version} is installed")
            found[key] = version
            todo.append(requirement.name)
    return dict(sorted(found.items()))


#: What the browser gets although the app's requirements keep it to the server (by its marker,
#: so that ``pip install`` on a server stays as it is): Flet's camera control, pure Python (its
#: client, the camera_web plugin, is in flet-web's prebuilt client), so the phone build scans
#: with the camera as the served app does, its pictures decoded by zxing-wasm (:data:`DECODER`).
BROWSER_ADDS: Final = ("flet-camera",)


def browser_pins(runtime: Runtime) -> dict[str, str]:
    """:func:`runtime_requirements` and :data:`BROWSER_ADDS` with what they need, each at the
    version installed here."""
    from packaging.utils import canonicalize_name

    pins = runtime_requirements(runtime)
    for name in BROWSER_ADDS:
        try:
            pins[canonicalize_name(name)] = metadata.version(name)
        except metadata.PackageNotFoundError:
            missing = f"'{name}' is not installed here: install the app with pip install -e ."
            raise BuildError(missing) from None
        for needed, version in runtime_requirements(runtime, root=name).items():
            pins.setdefault(needed, version)
    return dict(sorted(pins.items()))


def _cached(cache: Path, name: str, version: str) -> Path | None:
    stem = f"{name.replace('-', '_')}-{version}-".lower()
    for wheel in cache.glob("*.whl"):
        if wheel.name.lower().startswith(stem):
            return wheel
    return None


def fetch_wheels(pins: dict[str, str], *, runtime: Runtime, cache: Path) -> list[Path]:
    """The wheels for ``pins``, downloaded once into ``cache`` (pure ones, else the runtime's)."""
    cache.mkdir(parents=True, exist_ok=True)
    missing = [
        f"{name}=={version}" for name, version in pins.items() if _cached(cache, name, version) is None
    ]
    if missing:
        command = [
            sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--no-deps", "--only-binary=:all:", "--platform", runtime.platform,
            "--python-version", runtime.short, "--implementation", "cp",
            "--abi", runtime.abi, "--abi", "abi3", "--abi", "none", "-d", str(cache), *missing,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            raise BuildError(
                f"cannot download the browser's wheels ({', '.join(missing)}) for {runtime.platform}: "
                + (done.stderr.strip().splitlines() or ["pip failed"])[-1]
            )
    wheels = []
    for name, version in pins.items():
        wheel = _cached(cache, name, version)
        if wheel is None:
            raise BuildError(f"no wheel of {name} {version} for {runtime.platform} was downloaded")
        wheels.append(wheel)
    return wheels


def project_root() -> Path:
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise BuildError(f"the build needs the project's source folder (no pyproject.toml in '{root}')")
    return root


def project_wheel(folder: Path) -> Path:
    """This package's wheel, built from the source folder as ``pip install`` would."""
    command = [
        sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--no-build-isolation", "-w", str(folder), str(project_root()),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise BuildError("cannot build the app's wheel: " + (done.stderr.strip() or "pip wheel failed"))
    return next(folder.glob("rummy_scorer-*.whl"))


def _skipped(relative: str) -> bool:
    return any(pattern.match(relative) for pattern in SKIPPED)


def copy_client(web: Path, out: Path) -> None:
    for source in sorted(web.rglob("*")):
        relative = source.relative_to(web).as_posix()
        if source.is_dir() or _skipped(relative):
            continue
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def place_msgpack(out: Path, wheel: Path) -> None:
    """Pyodide's worker loads msgpack from its own folder: point the runtime's lock at ours."""
    shutil.copy2(wheel, out / "pyodide" / wheel.name)
    lock_path = out / "pyodide" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    entry = lock["packages"]["msgpack"]
    entry["file_name"] = wheel.name
    entry["version"] = wheel.name.split("-")[1]
    entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock_path.write_text(json.dumps(lock), encoding="utf-8")


MAIN_PY: Final = f'''"""Rummy Scorer in the browser: see {ENTRY_MODULE}."""

from {ENTRY_MODULE} import run

run()
'''


@dataclass(frozen=True)
class Packed:
    """What the build's Node.js steps could do (without a Node.js, neither: the app still runs)."""

    bytecode: bool
    memory_snapshot: bool


def pack_app(out: Path, *, wheels: Sequence[Path], app_wheel: Path, runtime: Path) -> Packed:
    """``app.zip``: the entry point, this package and every wheel, unpacked; and the runtime's
    memory snapshot (:data:`MEMORY_SNAPSHOT`, see :func:`make_memory_snapshot`).

    The wheels are unpacked into ``__pypackages__``, which Flet's worker puts on ``sys.path``:
    installed as micropip would install them, without loading micropip and resolving them
    in the browser at every start (pydantic-core's WebAssembly module is loaded on import).
    ``runtime`` is the build's own Pyodide folder (with its msgpack).
    """
    with tempfile.TemporaryDirectory() as temp:
        pack = Path(temp)
        (pack / "main.py").write_text(MAIN_PY, encoding="utf-8")
        with zipfile.ZipFile(app_wheel) as archive:
            for member in archive.namelist():
                # The browser serves the assets beside the page, and never builds.
                if member.startswith(("scorer/ui/assets/", "scorer/web/build.py", "scorer/web/static/")):
                    continue
                if member.startswith("scorer/"):
                    archive.extract(member, pack)
        packages = pack / "__pypackages__"
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                kept = [member for member in archive.namelist() if not NEVER_RUN.search(member)]
                archive.extractall(packages, members=kept)
        compiled = precompile(pack, runtime=runtime)
        if compiled:
            drop_sources(pack)
        memory_snapshot = make_memory_snapshot(pack, runtime=runtime)
        for cache in list(pack.rglob("__pycache__")):
            shutil.rmtree(cache)
        write_archive(pack, out / APP_ARCHIVE)
    return Packed(bytecode=compiled, memory_snapshot=memory_snapshot)


#: What the wheels hold that the phone never reads: type stubs, software bills of materials,
#: pydantic's mypy plugin and its copy of pydantic 1 (``pydantic.v1``, which nothing imports).
NEVER_RUN: Final = re.compile(r"\.pyi$|\.dist-info/sboms/|^pydantic/mypy\.py$|^pydantic/v1/")


def drop_sources(pack: Path) -> int:
    """Remove every ``.py`` that has its bytecode beside it (``X.pyc``): the phone imports the
    bytecode alone, and unpacks half the files. How many were removed."""
    removed = 0
    for source in list(pack.rglob("*.py")):
        if source.with_suffix(".pyc").is_file():
            source.unlink()
            removed += 1
    return removed


#: The app archive: a zip whose files are stored, not deflated, so the browser's worker puts
#: them in place with no inflating (``static/worker.js``); it travels gzipped (``app.zip.gz``,
#: inflated by the service worker), or as it is where a browser has no service worker.
APP_ARCHIVE: Final = "app.zip"


def write_archive(folder: Path, target: Path) -> None:
    """Every file of ``folder`` into the zip ``target``, with times and modes that do not
    depend on who built it when."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            entry = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_STORED
            archive.writestr(entry, path.read_bytes())


def _node_candidates() -> list[str]:
    found = [os.environ.get("RUMMY_NODE") or "", shutil.which("node") or ""]
    try:
        import playwright
    except ImportError:
        pass
    else:
        found.append(str(Path(playwright.__file__).parent / "driver" / "node"))
    return [node for node in dict.fromkeys(found) if node and Path(node).is_file()]


def _has_jspi(node: str) -> bool:
    check = 'process.exit("Suspending" in WebAssembly ? 0 : 1)'
    return subprocess.run([node, "-e", check], capture_output=True).returncode == 0


def node_binary(*, jspi: bool = False) -> str | None:
    """A Node.js to run Pyodide at build time: ``$RUMMY_NODE``, ``node``, or Playwright's own.

    ``jspi``: one whose WebAssembly can suspend for a promise (JSPI), as Chromium's can.
    """
    for node in _node_candidates():
        if not jspi or _has_jspi(node):
            return node
    return None


def run_in_node(script: str, *args: Path, step: str, jspi: bool = False) -> bool:
    """Run one of ``static/*.mjs`` in Node.js; False (said on stdout) when it could not."""
    node = node_binary(jspi=jspi)
    if node is None:
        print(f"web build: no Node.js{' with JSPI' if jspi else ''} here: {step} left out")
        return False
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / script
        path.write_text(static_file(script), encoding="utf-8")
        done = subprocess.run([node, str(path), *map(str, args)], capture_output=True, text=True)
    if done.returncode:
        print(f"web build: {step} failed ({done.stderr.strip()[-300:]}); left out")
        return False
    return True


def precompile(pack: Path, *, runtime: Path) -> bool:
    """Compile every ``.py`` in ``pack`` to bytecode with the runtime's own Python (in Node).

    The phone then imports bytecode instead of compiling the app, Flet and pydantic at each
    start. Without a Node.js here the build still works, and the phone compiles on import.
    """
    return run_in_node("compile.mjs", runtime, pack, step="compiling the Python files")


#: The runtime's memory snapshot, beside the runtime (the worker looks for it there).
MEMORY_SNAPSHOT: Final = "pyodide/memory-snapshot.bin"


#: Where the runtime's JavaScript restores a memory snapshot: into the memory it starts with,
#: whose size its WebAssembly declares (30 MiB), so one made after imports that grew the memory
#: would not fit. The patch grows the memory to the snapshot's size first (Emscripten's own
#: ``growMemory``, as an allocation would); should that fail, the restore fails and the worker
#: starts Python from scratch.
RESTORE: Final = re.compile(r"return Module\.HEAP8\.set\((\w+)\),(\w+)\}")
RESTORE_PATCHED: Final = (
    r"return \1.length>Module.HEAP8.length&&Module.growMemory(\1.length),Module.HEAP8.set(\1),\2}"
)


def patch_runtime(runtime: Path) -> None:
    """The runtime restores a memory snapshot larger than the memory it starts with (:data:`RESTORE`)."""
    script = runtime / "pyodide.asm.mjs"
    text = script.read_text(encoding="utf-8")
    patched, found = RESTORE.subn(RESTORE_PATCHED, text)
    if found != 1 or 'Module["growMemory"]=growMemory' not in text:
        raise BuildError(
            f"flet-web's Pyodide changed ({RESTORE.pattern!r} found {found} times in {script.name}): "
            "check how it restores a memory snapshot"
        )
    script.write_text(patched, encoding="utf-8")


#: The runtime's standard library, a zip beside it.
STDLIB: Final = "python_stdlib.zip"


def store_stdlib(runtime: Path) -> None:
    """The runtime's standard library zip with its files stored, not deflated, in the same
    order with the same names and times: gzipped whole for the way (``offline``) it is smaller
    than deflated file by file (2.2 MB against 2.5), and an import reads it with no inflating.
    Before the memory snapshot is made, which holds the zip's directory as it was read, and
    whose step replaces the sources of the modules a start imports with their bytecode
    (``static/memory_snapshot.mjs``: Pyodide ships sources, compiled at every start)."""
    path = runtime / STDLIB
    staged = path.with_name(path.name + ".stored")
    with (
        zipfile.ZipFile(path) as source,
        zipfile.ZipFile(staged, "w", compression=zipfile.ZIP_STORED) as target,
    ):
        for entry in source.infolist():
            data = source.read(entry)
            entry.compress_type = zipfile.ZIP_STORED
            target.writestr(entry, data)
    staged.replace(path)


def make_memory_snapshot(pack: Path, *, runtime: Path) -> bool:
    """:data:`MEMORY_SNAPSHOT`: the browser's Python as started, with the modules the app and
    its first screen import already imported where a snapshot can hold them (the standard
    library's, Flet's, the engine's: ``static/memory_snapshot.mjs``, run in Node).

    Starting CPython in the runtime is most of a phone's wait (bench/web.py); the worker
    (patched by :func:`patch_worker`) starts from this instead, and from scratch when it
    cannot. It is the WebAssembly memory as it is (36 MB): it travels gzipped (about 9 MB, the
    ``.gz`` beside it) and the service worker keeps it inflated, so a start reads it from the
    cache with no inflating (0.4 s of a cached start on this project's machine). The runtime notes at
    its start whether the JavaScript engine can suspend WebAssembly for a promise (JSPI, which
    the store's durable writes wait with), so the snapshot is made in a Node.js that can, and
    the worker starts from it only in a browser that can (Chromium); others start from scratch.
    """
    with tempfile.TemporaryDirectory() as temp:
        raw = Path(temp) / "memory-snapshot.bin"
        step = "the runtime's memory snapshot"
        made = run_in_node("memory_snapshot.mjs", runtime, pack, raw, step=step, jspi=True)
        (runtime / (STDLIB + ".partial")).unlink(missing_ok=True)  # a compile that stopped
        if not made:
            return False
        shutil.move(raw, runtime / Path(MEMORY_SNAPSHOT).name)
    return True


#: Where the worker starts the runtime (``python-worker.js``), and what it calls instead.
WORKER_LOAD: Final = "self.pyodide = await loadPyodide({"
WORKER_LOAD_PATCHED: Final = "self.pyodide = await rummyLoadPyodide(loadPyodide, {"
#: Where Flet's worker downloads and unpacks the app archive, and the test it gets instead:
#: skipped when rummyLoadPyodide has put the archive in place already.
WORKER_ARCHIVE: Final = re.compile(r'\n( *)if "script" not in py_args:\n')
WORKER_ARCHIVE_PATCHED: Final = (
    '\n\\1if getattr(flet_js, "rummyArchiveInPlace", False):\n\\1    pass  # Rummy Scorer: unpacked already\n'
    '\\1elif "script" not in py_args:\n'
)


def patch_worker(out: Path) -> None:
    """Flet's worker starts the runtime from the build's memory snapshot when it can
    (``static/worker.js``)."""
    worker = out / "python-worker.js"
    text = worker.read_text(encoding="utf-8")
    text, archive = WORKER_ARCHIVE.subn(WORKER_ARCHIVE_PATCHED, text)
    for needed, found in ((WORKER_LOAD, text.count(WORKER_LOAD)), (WORKER_ARCHIVE.pattern, archive)):
        if found != 1:
            raise BuildError(
                f"flet-web's python-worker.js changed ({needed!r} is gone): check worker.js against it"
            )
    text = text.replace(WORKER_LOAD, WORKER_LOAD_PATCHED)
    patched = static_file("worker.js") + "\n" + text
    worker.write_text(patched, encoding="utf-8")


def copy_assets(out: Path) -> None:
    """The app's assets (the suit font), served from the page's folder as Flet asks for them."""
    assets = resources.files("scorer.ui") / "assets"
    with resources.as_file(assets) as folder:
        shutil.copytree(folder, out, dirs_exist_ok=True)


def write_icons(out: Path, *, cache: Path) -> None:
    """The manifest's icons, the touch icon, the favicon and the loading picture."""
    drawn = drawn_icons(cache)
    for name in ICONS:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(drawn / name, target)


#: Flutter's loader waits up to 4 s at every start for its own service worker, which the
#: build leaves out (ours is sw.js): the setting that asks for it is removed.
FLUTTER_SERVICE_WORKER: Final = re.compile(r"\n\s*serviceWorkerSettings: \{[^{}]*\},")


def patch_flutter_bootstrap(out: Path) -> None:
    """``flutter_bootstrap.js`` without Flutter's service worker (and its 4 s wait)."""
    path = out / "flutter_bootstrap.js"
    text = path.read_text(encoding="utf-8")
    patched, found = FLUTTER_SERVICE_WORKER.subn("", text)
    if found != 1 or "serviceWorkerVersion: " in patched:
        raise BuildError("flet-web's flutter_bootstrap.js changed (serviceWorkerSettings): check the build")
    path.write_text(patched, encoding="utf-8")


#: What boot.js relies on in Flet's python.js (it starts Python before the client asks).
PYTHON_JS_NEEDS: Final = ("globalThis.jsConnect = async function (appId, args, dartOnMessage)", "new Worker(")


def check_python_js(out: Path) -> None:
    text = (out / "python.js").read_text(encoding="utf-8")
    missing = [needed for needed in PYTHON_JS_NEEDS if needed not in text]
    if missing:
        raise BuildError(f"flet-web's python.js changed ({missing[0]!r} is gone): check boot.js against it")


#: Flet's page loads Flutter's client with this tag (boot.js does instead).
FLUTTER_SCRIPT: Final = '<script src="flutter_bootstrap.js" async></script>'
#: Flet's loading picture, shown until Flutter's first frame (which removes ``#loading``).
LOADING: Final = re.compile(r'<div id="loading".*?</style>\s*<img[^>]*>\s*</div>', re.DOTALL)


def loading_frame() -> str:
    """What the page shows until the app's first frame: the app's bar in its colours, its
    name, and its card, on the page's own background (light or dark), in plain HTML."""
    return f"""<div id="loading" role="status" aria-label="{APP_NAME}">
    <style>
      #loading {{ position: fixed; inset: 0; background: #fafdf7; padding: 8px;
        font: 18px/1.3 system-ui, sans-serif; color: #1b1c19; }}
      #loading .bar {{ background: #b9f0b1; color: #002204; border-radius: 12px;
        padding: 12px 16px; font-weight: bold; }}
      #loading img {{ display: block; margin: 20vh auto 0; width: 96px; height: 96px; }}
      @media (prefers-color-scheme: dark) {{
        #loading {{ background: #1a1c19; color: #e2e3dd; }}
        #loading .bar {{ background: #1f5120; color: #b9f0b1; }}
      }}
    </style>
    <div class="bar">{APP_NAME}</div>
    <img src="icons/icon-192.png" alt="">
  </div>"""


def patch_pages(out: Path, *, base_url: str) -> None:
    """index.html, manifest.json and FontManifest.json, patched by flet-web as publish does."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_font_manifest_json, patch_index_html

    index = out / "index.html"
    patch_index_html(
        index_path=str(index),
        base_href=base_url,
        app_name=APP_NAME,
        app_description=DESCRIPTION,
        pyodide=True,
        pyodide_script_path="main.py",
        pyodide_version="bundled",  # only its presence matters with no_cdn: the local runtime
        app_package_url=APP_ARCHIVE,
        web_renderer=WebRenderer.AUTO,
        route_url_strategy=RouteUrlStrategy.HASH,
        no_cdn=True,
    )
    html = index.read_text(encoding="utf-8")
    # The worker imports the runtime relative to itself: a bare specifier cannot be imported.
    html = html.replace('flet.pyodideUrl="pyodide/pyodide.mjs"', 'flet.pyodideUrl="./pyodide/pyodide.mjs"')
    if './pyodide/pyodide.mjs"' not in html:
        raise BuildError("flet-web's index.html no longer names pyodide/pyodide.mjs: check the build")
    head = f'  <meta name="theme-color" content="{THEME_COLOR}">\n  <script src="boot.js"></script>\n</head>'
    html = html.replace("</head>", head, 1)
    # boot.js adds Flutter's script once the service worker is in charge of the page.
    if html.count(FLUTTER_SCRIPT) != 1:
        raise BuildError(f"flet-web's index.html no longer has {FLUTTER_SCRIPT!r}: check boot.js against it")
    html = html.replace(FLUTTER_SCRIPT, "")
    html, found = LOADING.subn(lambda _: loading_frame(), html)
    if found != 1:
        raise BuildError('flet-web\'s index.html has no loading picture (<div id="loading">) to replace')
    index.write_text(html, encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps(manifest(opens_files=True), indent=2), encoding="utf-8")
    patch_font_manifest_json(manifest_path=str(out / "assets" / "FontManifest.json"))


def build(out: Path, *, cache: Path, base_url: str = "/") -> dict[str, Any]:
    """Make the static folder ``out`` (replacing it); a summary of what is in it."""
    started = time.monotonic()
    check_build_needs()
    web = flet_web_dir()
    runtime = find_runtime(web)
    pins = browser_pins(runtime)
    wheels = fetch_wheels(pins, runtime=runtime, cache=cache / "wheels")
    msgpack = [w for w in wheels if w.name.startswith("msgpack-")]
    if len(msgpack) != 1:
        raise BuildError("the app needs msgpack (Flet's wire format) but no msgpack wheel was found")
    staging = out.with_name(out.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as temp:
        app_wheel = project_wheel(Path(temp))
        copy_client(web, staging)
        patch_runtime(staging / "pyodide")
        store_stdlib(staging / "pyodide")
        place_msgpack(staging, msgpack[0])
        packed = pack_app(
            staging,
            wheels=wheels,
            app_wheel=app_wheel,
            runtime=staging / "pyodide",
        )
    copy_assets(staging)
    copy_decoder(staging)
    write_icons(staging, cache=cache)
    check_python_js(staging)
    patch_worker(staging)
    patch_flutter_bootstrap(staging)
    patch_pages(staging, base_url=base_url)
    offline.write_boot(staging)
    gz = offline.compress_for_transfer(staging)
    version, lists = offline.write_service_worker(staging, gz)
    offline.readable_by_all(staging)
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return {
        "folder": str(out),
        "version": version,
        "python": runtime.python,
        "platform": runtime.platform,
        "wheels": {w.name: w.stat().st_size for w in wheels},
        "bytecode": packed.bytecode,
        "memory_snapshot": packed.memory_snapshot,
        "bytes": folder_size(out),
        "parts": offline.parts(lists),
        "first_visit": offline.first_visit(lists),
        "decoder": {
            "name": DECODER.name,
            "version": DECODER.version,
            "sha256": DECODER.checked_sha256,
            "bytes": offline.later(lists)[0],
            "sent": offline.later(lists)[1],
        },
        "seconds": round(time.monotonic() - started, 1),
    }


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer.web.build", description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="dist/web", help="the folder to make (default dist/web)")
    parser.add_argument(
        "--cache",
        default=os.environ.get("RUMMY_WEB_CACHE", "build/web-cache"),
        help="where downloaded wheels are kept between builds (default build/web-cache)",
    )
    parser.add_argument("--base-url", default="/", help="the path the app is hosted at (default /)")
    args = parser.parse_args(argv)
    try:
        summary = build(Path(args.out).resolve(), cache=Path(args.cache).resolve(), base_url=args.base_url)
    except BuildError as exc:
        print(f"web build: {exc}", file=sys.stderr)
        return 2
    megabytes = summary["bytes"] / 1e6
    print(
        f"built {summary['folder']} in {summary['seconds']} s: {megabytes:.1f} MB, "
        f"Python {summary['python']} ({summary['platform']}), {len(summary['wheels'])} wheels"
        f"{', compiled' if summary['bytecode'] else ''}"
        f"{', with its memory snapshot' if summary['memory_snapshot'] else ''}, "
        f"version {summary['version']}"
    )
    print("  part                       bytes   sent (gzipped to the service worker)")
    for part, (size, sent) in summary["parts"].items():
        print(f"  {part:<24} {size / 1e6:6.1f} MB {sent / 1e6:6.1f} MB")
    visit = summary["first_visit"]
    print(
        f"  a first visit downloads {visit['chromium'] / 1e6:.1f} MB in Chromium, "
        f"{visit['other'] / 1e6:.1f} MB in a browser without JSPI (Safari, Firefox)"
    )
    decoder = summary["decoder"]
    print(
        f"  not in it: the QR decoder ({decoder['name']} {decoder['version']}, {DECODER.target}/), "
        f"{decoder['bytes'] / 1e6:.1f} MB ({decoder['sent'] / 1e6:.1f} MB sent), fetched at the first "
        "scan, or kept for offline use once the rest is kept"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
