"""The app's icons, drawn at build time: a white card with a red heart on the table's green.

No image library: each pixel's cover is sampled on a 2 x 2 grid and written as an RGBA PNG
with :mod:`zlib`. ``maskable`` icons fill the square (the platform cuts its own shape, so the
card stays inside the middle 80 %); the others are a rounded square on transparency.

>>> png = icon_png(48)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", len(png) > 100
(True, True)
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

#: The app's seed colour (``ft.Colors.GREEN_800``), also the manifest's theme colour.
GREEN: Final = (0x2E, 0x7D, 0x32)
CARD: Final = (0xFA, 0xFA, 0xFA)
RED: Final = (0xC6, 0x28, 0x28)
_SAMPLES: Final = ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))


def _in_rounded(
    x: float, y: float, *, left: float, top: float, right: float, bottom: float, r: float
) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _in_heart(x: float, y: float) -> bool:
    """The heart curve (x² + y² - 1)³ - x² y³ <= 0, y pointing up, about 2.3 wide."""
    a = x * x + y * y - 1
    return a * a * a - x * x * y * y * y <= 0


def _colour(u: float, v: float, *, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (u, v) in the unit square (v down)."""
    if not maskable and not _in_rounded(u, v, left=0, top=0, right=1, bottom=1, r=0.18):
        return (0, 0, 0, 0)
    scale = 0.8 if maskable else 1.0  # a maskable icon keeps its picture in the middle 80 %
    x, y = (u - 0.5) / scale + 0.5, (v - 0.5) / scale + 0.5
    if not _in_rounded(x, y, left=0.24, top=0.14, right=0.76, bottom=0.86, r=0.05):
        return (*GREEN, 255)
    hx, hy = (x - 0.5) / 0.17, -(y - 0.52) / 0.17
    if _in_heart(hx, hy):
        return (*RED, 255)
    return (*CARD, 255)


def icon_png(size: int, *, maskable: bool = False) -> bytes:
    """The icon as a ``size`` x ``size`` RGBA PNG."""
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # filter: none
        for column in range(size):
            total = [0, 0, 0, 0]
            for dx, dy in _SAMPLES:
                r, g, b, a = _colour((column + dx) / size, (row + dy) / size, maskable=maskable)
                total[0] += r * a
                total[1] += g * a
                total[2] += b * a
                total[3] += a
            alpha = total[3]
            if alpha:
                rows += bytes((total[0] // alpha, total[1] // alpha, total[2] // alpha, alpha // 4))
            else:
                rows += b"\0\0\0\0"
    return _png(size, size, bytes(rows))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(width: int, height: int, raw: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )
