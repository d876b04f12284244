"""Which QR decoder this app has, and one way to call it (issue 28): the screens ask here and
never branch on where they run.

- The served app (``rummy app``, Python on a server): zxing-cpp, with Pillow reading the
  picture (:func:`decode_picture`), run in a thread.
- The phone build (Python in the browser, Pyodide): zxing-wasm's reader (ZXing-C++ as
  WebAssembly), vendored by the build (``scorer.web.build.DECODER``) and called through the
  worker's ``rummyDecodeQr`` (``scorer/web/static/worker.js``), which imports it at the first
  scan (:func:`_decode_in_browser`).

Both take an encoded picture (PNG, JPEG ...) and give the bytes of every QR code in it, none
for a picture with no code or one that cannot be read. No Flet here: the camera and the
screens are in :mod:`scorer.ui.camera` and ``scorer.ui.screens``.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
import sys
from typing import Any, Final

log = logging.getLogger(__name__)

#: The worker's function that decodes a picture (the phone build's ``python-worker.js``).
BROWSER_DECODER: Final = "rummyDecodeQr"


class DecoderUnavailable(RuntimeError):
    """There is a decoder, but it could not be loaded now (the phone build, offline before it
    was kept for offline use): said to the player as ``scan.decoder_failed``."""


def in_browser() -> bool:
    """Whether Python runs in the browser (the phone build)."""
    return sys.platform == "emscripten"


def _js() -> Any:
    """The worker's JavaScript globals (Pyodide's ``js``), or None outside a browser."""
    try:
        return importlib.import_module("js")
    except ImportError:
        return None


def available() -> bool:
    """Whether this app can read codes from a picture."""
    if in_browser():
        js = _js()
        return js is not None and hasattr(js, BROWSER_DECODER)
    try:
        import PIL  # noqa: F401
        import zxingcpp  # noqa: F401
    except ImportError:
        return False
    return True


def decode_picture(data: bytes) -> list[bytes]:
    """The bytes of every QR code in an encoded picture (JPEG, PNG ...), read by zxing-cpp on
    the server; none if it has none or is not a picture that can be read."""
    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as picture:
            picture.load()
            found = zxingcpp.read_barcodes(picture)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        log.debug("picture not read: %s", exc)
        return []
    qr = zxingcpp.BarcodeFormat.QRCode
    return [bytes(code.bytes) for code in found if code.valid and code.format == qr]


async def _decode_in_browser(data: bytes) -> list[bytes]:
    """:func:`decode_picture` by zxing-wasm in the browser's worker (it answers with a promise)."""
    js = _js()
    if js is None or not hasattr(js, BROWSER_DECODER):
        raise DecoderUnavailable("this build has no QR decoder")
    ffi = importlib.import_module("pyodide.ffi")
    try:
        found = await getattr(js, BROWSER_DECODER)(ffi.to_js(bytes(data)))  # a Uint8Array
    except ffi.JsException as exc:
        log.info("the QR decoder did not load: %s", exc)
        raise DecoderUnavailable(str(exc)) from None
    return [bytes(code.to_bytes()) for code in found]


async def decode(data: bytes) -> list[bytes]:
    """:func:`decode_picture` by this app's decoder, without holding up the event loop.

    Raises :class:`DecoderUnavailable` when the browser's decoder cannot be loaded."""
    if in_browser():
        return await _decode_in_browser(data)
    return await asyncio.to_thread(decode_picture, data)
