"""The static build on its way to the phone: what a first visit downloads, and the offline cache.

:mod:`scorer.web.build` calls these last, on the finished folder:

- :func:`compress_for_transfer` writes a ``.gz`` beside each large file that compresses
  (the Flutter client, the runtime's WebAssembly, CanvasKit, the stored app archive, fonts):
  the service worker fetches those and inflates them, so a first visit downloads about half
  the bytes, whatever the host compresses. The folder keeps both: a browser without a service
  worker fetches the files themselves.
- :func:`write_service_worker` writes ``sw.js`` with the build's files, each with its size, a
  hash of its content (an update carries over the files that did not change) and its ``.gz``
  size, split into what every browser keeps for offline use at its first visit, the Flutter
  client's builds (a browser loads one: :data:`CLIENTS`), the runtime's memory snapshot (only
  a browser with JSPI uses it), what is kept only once asked for (:data:`ON_FIRST_USE`), and
  what is kept only after all that (:data:`LATER`: the QR decoder, not part of a first visit's
  download).
- :func:`readable_by_all` makes every file readable and every folder enterable by all: a web
  server running as another user (``cp -a`` or ``rsync -a`` keep the modes) must be able to
  serve each one, or the offline cache lacks it.
- :func:`parts` and :func:`first_visit` are the sizes the build prints.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import stat
from importlib import resources
from pathlib import Path
from typing import Any, Final

#: Kept for offline use only once the page asks for them (the license text, the runtime's
#: package installer and classic-script loader, and the client's plugins this app never
#: shows: maps, formulas, video, audio recording); everything else is kept at the first visit.
ON_FIRST_USE: Final = (
    re.compile(r"assets/NOTICES$"),
    re.compile(r"pyodide/(micropip|packaging)-.*\.whl$"),
    re.compile(r"pyodide/pyodide\.js$"),
    re.compile(r"assets/packages/(flutter_map|flutter_math_fork|media_kit|record_web)/"),
    re.compile(r"version\.json$"),
)
#: Kept for offline use once everything a first visit keeps is kept (or when first asked for):
#: the QR decoder (zxing-wasm), which only a scan needs, so a first visit does not wait for it
#: and its size does not count in :func:`first_visit`; a phone that went online once keeps it.
LATER: Final = (re.compile(r"zxing-wasm/"),)
#: The Flutter client's builds, by the name boot.js gives the one the page loaded: Flet's client
#: compiled to WebAssembly (dart2wasm) with the skwasm renderer, which flutter.js picks in
#: Chromium (``skwasm_heavy`` where the page lacks the browser's image decoders, as on a plain
#: ``http://`` address), and the JavaScript client (dart2js) with CanvasKit, which the other
#: browsers get (``chromium``: CanvasKit's build for Chromium's break iterators and image
#: decoders; ``full``: the rest). Each list is every file that build loads; a file in none of
#: them is kept by every browser.
CLIENTS: Final = {
    "skwasm": re.compile(r"main\.dart\.(wasm|mjs)$|canvaskit/skwasm\.(js|wasm)$"),
    "skwasm_heavy": re.compile(r"main\.dart\.(wasm|mjs)$|canvaskit/skwasm_heavy\.(js|wasm)$"),
    "chromium": re.compile(r"main\.dart\.js$|canvaskit/chromium/"),
    "full": re.compile(r"main\.dart\.js$|canvaskit/canvaskit\.(js|wasm)$"),
}
#: Used only where the browser can suspend WebAssembly (JSPI): the runtime's memory snapshot.
JSPI_ONLY: Final = (re.compile(r"pyodide/memory-snapshot\.bin$"),)
#: Files sent gzipped to the service worker, which inflates them (the folder keeps both).
COMPRESSED: Final = re.compile(r".*\.(js|mjs|wasm|json|ttf|otf|zip|bin)$|(.*/)?NOTICES$")
#: Sent as they are: the renderers' WebAssembly (CanvasKit's, skwasm's) is compiled on the
#: page's own thread, and Chromium keeps its compiled code only for a response it fetched itself
#: (one inflated by the service worker has no address to keep it under), so it would be
#: compiled at every start.
#: And ``boot.js``: the page loads it itself before the service worker is in charge, so the
#: worker's copy is the same file again, answered by the browser's HTTP cache (304) only when
#: it asks for the same address (a ``.gz`` would be a second download).
NOT_COMPRESSED: Final = re.compile(r"canvaskit/((chromium/)?canvaskit|skwasm|skwasm_heavy)\.wasm$|boot\.js$")
#: A ``.gz`` is written only for a file of at least this many bytes, and kept only where it
#: saves at least a tenth of them.
SMALLEST: Final = 16_384
WORTH: Final = 0.9
#: Answered by the host alone: the service worker itself.
NOT_CACHED: Final = ("sw.js",)
#: The catalog texts boot.js shows about offline use (``scorer/ui/locales/web.toml``).
OFFLINE_TEXTS: Final = (
    "web.offline_saving",
    "web.offline_failed",
    "web.offline_ready",
    "web.offline_unsupported",
    "web.offline_close",
)


def _files(out: Path) -> list[str]:
    return sorted(path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file())


def compress_for_transfer(out: Path) -> dict[str, int]:
    """A ``name.gz`` beside every file worth it; the size of each, by the file's name."""
    sizes: dict[str, int] = {}
    for name in _files(out):
        path = out / name
        if not COMPRESSED.match(name) or NOT_COMPRESSED.match(name) or path.stat().st_size < SMALLEST:
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= WORTH * len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            sizes[name] = len(packed)
    return sizes


def _kind(name: str) -> str:
    """Which list of the service worker a file of the build is in (``client``: the lists of
    :data:`CLIENTS` whose patterns it matches)."""
    if any(pattern.match(name) for pattern in ON_FIRST_USE):
        return "on first use"
    if any(pattern.match(name) for pattern in LATER):
        return "later"
    if any(pattern.match(name) for pattern in JSPI_ONLY):
        return "jspi"
    if any(pattern.match(name) for pattern in CLIENTS.values()):
        return "client"
    return "precache"


def service_worker_build(out: Path, gz: dict[str, int]) -> tuple[str, dict[str, Any]]:
    """The version of the build (from every file's content) and the lists ``sw.js`` holds."""
    files: dict[str, list[Any]] = {}
    digest = hashlib.sha256()
    for name in _files(out):
        if name in NOT_CACHED or (name.endswith(".gz") and name[: -len(".gz")] in gz):
            continue
        content = hashlib.sha256((out / name).read_bytes()).hexdigest()[:16]
        digest.update(f"{name}\0{content}\0".encode())
        files[name] = [(out / name).stat().st_size, content, gz.get(name, 0)]
    lists: dict[str, list[str]] = {"precache": [], "jspi": [], "later": []}
    clients: dict[str, list[str]] = {client: [] for client in CLIENTS}
    for name in files:
        kind = _kind(name)
        if kind in lists:
            lists[kind].append(name)
        elif kind == "client":
            for client, pattern in CLIENTS.items():
                if pattern.match(name):
                    clients[client].append(name)
    build = {
        "files": files,
        "precache": lists["precache"],
        "clients": clients,
        "jspi": lists["jspi"],
        "later": lists["later"],
    }
    return digest.hexdigest()[:16], build


def static_file(name: str) -> str:
    return (resources.files("scorer.web") / "static" / name).read_text(encoding="utf-8")


def write_boot(out: Path) -> None:
    """``boot.js``, with the catalogs' texts about offline use in every language."""
    from scorer.ui.i18n import LANGUAGES, tr

    texts = {language: {key: tr(key, language) for key in OFFLINE_TEXTS} for language in LANGUAGES}
    script = static_file("boot.js").replace("__TEXTS__", json.dumps(texts, ensure_ascii=False))
    (out / "boot.js").write_text(script, encoding="utf-8")


def write_service_worker(out: Path, gz: dict[str, int]) -> tuple[str, dict[str, Any]]:
    """``sw.js`` for the finished folder ``out``: its version and the lists it holds."""
    version, build = service_worker_build(out, gz)
    script = static_file("sw.js").replace("__VERSION__", version).replace("__BUILD__", json.dumps(build))
    (out / "sw.js").write_text(script, encoding="utf-8")
    return version, build


def readable_by_all(out: Path) -> None:
    """Every folder of ``out`` 0755 and every file 0644 (whatever the umask or a cache gave)."""
    for path in [out, *out.rglob("*")]:
        if path.is_symlink():
            continue
        mode = 0o755 if path.is_dir() else 0o644
        if stat.S_IMODE(path.stat().st_mode) != mode:
            os.chmod(path, mode)


def first_visit(build: dict[str, Any]) -> dict[str, int]:
    """The bytes a first visit downloads until the app is ready offline, by browser: Chromium
    (the WebAssembly client with skwasm, the memory snapshot), and a browser with neither
    (Safari, Firefox: the JavaScript client with CanvasKit's full build)."""

    def transfer(names: list[str]) -> int:
        return sum(build["files"][n][2] or build["files"][n][0] for n in names)

    base = transfer(build["precache"])
    return {
        "chromium": base + transfer(build["clients"]["skwasm"]) + transfer(build["jspi"]),
        "other": base + transfer(build["clients"]["full"]),
    }


def later(build: dict[str, Any]) -> tuple[int, int]:
    """The bytes of what is kept only after a first visit (:data:`LATER`), and what travels."""
    names = build["later"]
    return (
        sum(build["files"][n][0] for n in names),
        sum(build["files"][n][2] or build["files"][n][0] for n in names),
    )


def parts(build: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each part of the build (its top folder or file): its bytes, and what travels (gzipped)."""
    found: dict[str, tuple[int, int]] = {}
    for name, (size, _content, packed) in build["files"].items():
        top = name.split("/")[0]
        raw, sent = found.get(top, (0, 0))
        found[top] = (raw + size, sent + (packed or size))
    return dict(sorted(found.items(), key=lambda item: -item[1][0]))
