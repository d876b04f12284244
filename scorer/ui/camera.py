"""The camera as a code reader: a preview that takes a picture every :data:`FRAME_SECONDS` and
hands the QR codes in it to the screen (issue 28).

The camera is Flet's own control (``flet-camera``; its client, the camera_web plugin over
``getUserMedia``, is in the prebuilt web client of ``flet-web``). Each picture is taken on the
phone and sent to the app as an encoded image, decoded by this app's decoder
(:mod:`scorer.ui.decoder`: zxing-cpp on a server, zxing-wasm in the phone build, which adds
this package to its wheels). Where the camera package is missing, :func:`camera_available` is
false and the screens offer pictures from the file picker alone (docs/app.md, "Scanning").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

import flet as ft

from scorer.ui import decoder
from scorer.ui.decoder import decode_picture

__all__ = ["CodeCamera", "camera_available", "decode_picture", "scanning_available"]

log = logging.getLogger(__name__)

#: How often the camera is looked at: a code held up for a second is read about three times.
FRAME_SECONDS: Final = 0.3
#: How long a call to the camera (find it, take a picture) may go unanswered before it is made
#: again, and how many times finding it is tried.
CALL_SECONDS: Final = 10.0
START_TRIES: Final = 3
#: How long starting the camera may take: the browser may be asking the player's permission.
PERMISSION_SECONDS: Final = 300.0


def scanning_available() -> bool:
    """Whether this app can read codes at all (from a picture): it has a decoder."""
    return decoder.available()


def camera_available() -> bool:
    """Whether this app can read codes with the camera: the camera control and a decoder."""
    try:
        import flet_camera  # noqa: F401
    except ImportError:
        return False
    return decoder.available()


def _back_camera(cameras: list[Any]) -> Any:
    """The camera facing away from the player (the one that sees another phone), else the first."""
    import flet_camera as fc

    for camera in cameras:
        if camera.lens_direction == fc.CameraLensDirection.BACK:
            return camera
    return cameras[0]


@ft.component
def _CodeCamera(
    *, on_codes: Callable[[list[bytes]], object], on_trouble: Callable[[str], None]
) -> ft.Control:
    import flet_camera as fc

    # A re-render of this component detaches the camera control from the page (flet 1.0.5:
    # every picture after it fails, "Control must be added to the page first"): the loop then
    # asks for a camera of a new generation, which starts afresh.
    generation, set_generation = ft.use_state(0)
    camera = ft.use_memo(lambda: fc.Camera(preview_enabled=True, expand=True), dependencies=[generation])

    def attached() -> bool:
        try:
            return camera.page is not None
        except RuntimeError:
            return False

    async def start() -> bool | None:
        """Find the camera and start it: True once started; False (said through ``on_trouble``)
        if there is none or it may not start; None if the control was detached on the way (a
        re-render as the screen opened: the call fails with "Control must be added to the page
        first"), when a camera of a new generation is to start. Flet waits for a client's
        answer without end, and a call made while the client is still building the control can
        go unanswered: the first is asked again."""
        for _ in range(START_TRIES):
            try:
                cameras = await asyncio.wait_for(camera.get_available_cameras(), CALL_SECONDS)
            except TimeoutError:
                log.debug("no answer from the camera yet: asked again")
                continue
            except Exception as exc:  # the client's error: no camera API (no HTTPS), refused
                if not attached():
                    return None
                log.info("camera not found: %s", exc)
                on_trouble("scan.camera_refused")
                return False
            if not cameras:
                on_trouble("scan.no_camera")
                return False
            try:  # the browser may ask the player first: as long as they take
                await asyncio.wait_for(
                    camera.initialize(_back_camera(cameras), fc.ResolutionPreset.HIGH, enable_audio=False),
                    PERMISSION_SECONDS,
                )
            except Exception as exc:  # permission refused, no HTTPS, the camera busy
                if not attached():
                    return None
                log.info("camera did not start: %s", exc)
                on_trouble("scan.camera_refused")
                return False
            return True
        on_trouble("scan.camera_refused")
        return False

    async def look() -> None:
        started = await start()
        if started is False:
            return
        while started and attached():
            try:
                data = await asyncio.wait_for(camera.take_picture(), CALL_SECONDS)
            except Exception as exc:  # a picture missed (the preview paused): the next one will do
                log.debug("camera picture missed: %s", exc)
                await asyncio.sleep(FRAME_SECONDS)
                continue
            try:
                codes = await decoder.decode(bytes(data)) if data else []
            except decoder.DecoderUnavailable:
                on_trouble("scan.decoder_failed")
                return
            if codes:
                on_codes(codes)
            await asyncio.sleep(FRAME_SECONDS)
        log.debug("camera control detached: a new one starts")
        set_generation(generation + 1)

    ft.use_effect(look, dependencies=[generation])
    return ft.Container(content=camera, width=360, height=270, border_radius=8)


#: The camera's preview; every picture's codes go to ``on_codes`` (a picture with none is not
#: reported); ``on_trouble`` gets a catalog key when there is no camera or it cannot start.
#: Memoized: a caller's re-render with the same callbacks (a bound method, a state setter)
#: leaves the camera running as it is.
CodeCamera: Callable[..., ft.Control] = ft.memo(_CodeCamera)  # type: ignore[no-untyped-call]
