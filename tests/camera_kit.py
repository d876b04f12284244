"""A fake camera for the browser tests: pictures of codes played to Chromium as its camera.

Chromium plays a Y4M video as the camera (``--use-fake-device-for-media-stream
--use-file-for-fake-video-capture=FILE.y4m``, looping it), and with
``--use-fake-ui-for-media-stream`` grants the page the camera without asking. Y4M is a header
line and raw 4:2:0 frames, written here with Pillow (no ffmpeg needed).
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: The video's size and rate: 720p, as the app asks the camera for (ResolutionPreset.HIGH).
WIDTH, HEIGHT, FPS = 1280, 720, 5
#: How long each picture stays in front of the camera, in frames (a second).
HOLD = 5


def write_y4m(pictures: Sequence[bytes | Path], out: Path, *, hold: int = HOLD) -> Path:
    """A video showing each picture (PNG bytes or a file) centred on white, ``hold`` frames each."""
    from PIL import Image

    with out.open("wb") as video:
        video.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode("ascii"))
        for picture in pictures:
            source = picture if isinstance(picture, Path) else io.BytesIO(picture)
            with Image.open(source) as opened:
                image = opened.convert("RGB")
            side = HEIGHT - 40
            factor = side / max(image.size)
            if factor >= 2:  # a small picture (a slip) shown larger, each module whole
                factor = float(int(factor))
            size = (round(image.width * factor), round(image.height * factor))
            image = image.resize(size, Image.Resampling.NEAREST)
            canvas = Image.new("RGB", (WIDTH, HEIGHT), "white")
            canvas.paste(image, ((WIDTH - image.width) // 2, (HEIGHT - image.height) // 2))
            y, u, v = canvas.convert("YCbCr").split()
            half = (WIDTH // 2, HEIGHT // 2)
            frame = b"FRAME\n" + y.tobytes() + u.resize(half).tobytes() + v.resize(half).tobytes()
            for _ in range(hold):
                video.write(frame)
    return out


def camera_browser(browser: Browser, video: Path) -> Browser:
    """A Chromium of its own whose camera plays ``video`` (the video is fixed at launch)."""
    from conftest import _chromium_path

    return browser.browser_type.launch(
        executable_path=_chromium_path(),
        args=[
            "--no-sandbox",
            "--enable-unsafe-swiftshader",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )


def camera_page(browser: Browser, video: Path, url: str, *, width: int = 420, height: int = 1100) -> Page:
    """A phone whose camera plays ``video`` (:func:`camera_browser`), opened on ``url`` with the
    app's accessibility tree on. Close it with ``page.context.browser``."""
    from conftest import open_app

    launched = camera_browser(browser, video)
    context = launched.new_context(viewport={"width": width, "height": height})
    context.grant_permissions(["camera"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    open_app(page, timeout_ms=30_000)
    return page


def code_on_screen(page: Page, *, timeout: float = 15.0) -> bytes:
    """The QR code the page shows, as a PNG cut from a screenshot around it (as a camera held
    over the phone sees it); fails if no code shows within ``timeout`` seconds."""
    import zxingcpp
    from PIL import Image

    deadline = time.monotonic() + timeout
    while True:
        shot = page.screenshot()
        with Image.open(io.BytesIO(shot)) as picture:
            picture.load()
            found = [c for c in zxingcpp.read_barcodes(picture) if c.valid]
            if found:
                corners = found[0].position
                xs = [corners.top_left.x, corners.top_right.x, corners.bottom_left.x, corners.bottom_right.x]
                ys = [corners.top_left.y, corners.top_right.y, corners.bottom_left.y, corners.bottom_right.y]
                margin = 24
                box = (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
                out = io.BytesIO()
                picture.crop(box).save(out, format="PNG")
                return out.getvalue()
        assert time.monotonic() < deadline, "no code on the screen"
        page.wait_for_timeout(300)
