"""How long the served app takes to read the codes in one camera picture (issue 28).

The Scan screen takes a picture every 0.3 s and the server decodes it with zxing-cpp
(:func:`scorer.ui.camera.decode_picture`): this times that decode on pictures like the camera's,
a 1280 x 720 JPEG holding one code (a hand-off's full part, version 25, 117 modules; or a deal
slip) or none, and prints the median and p99 in milliseconds. It never asserts a time.

    .venv/bin/python bench/scan_decode.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time

import segno
from PIL import Image

from scorer.league.handoff import Slip, encode_parts
from scorer.ui.camera import decode_picture


def picture(code: bytes | str | None, *, side: int) -> bytes:
    """A 1280 x 720 JPEG (quality 85, as a browser encodes) with the code ``side`` pixels wide."""
    canvas = Image.new("RGB", (1280, 720), "white")
    if code is not None:
        out = io.BytesIO()
        segno.make(code, error="m", micro=False).save(out, kind="png", scale=1, border=4)
        image = Image.open(io.BytesIO(out.getvalue())).convert("RGB")
        image = image.resize((side, side), Image.Resampling.NEAREST)
        canvas.paste(image, ((1280 - side) // 2, (720 - side) // 2))
    out = io.BytesIO()
    canvas.save(out, format="JPEG", quality=85)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    noise = random.Random(28)  # incompressible facts: the first part is a full 900 bytes
    full_part = encode_parts({"facts": [f"{noise.getrandbits(128):032x}" for _ in range(200)]})[0]
    assert len(full_part) > 900, len(full_part)
    slip = Slip(
        game="5b0f3c1e-2d7a-4c55-9e61-0c6f3f0d2b11",
        deal=3,
        player="Anna",
        cards="AS 2S 3S 4H 5H 6H 7C 8C 9C TD",
    )
    cases = {
        "hand-off part (900 B), 640 px": picture(full_part, side=640),
        "hand-off part (900 B), 480 px": picture(full_part, side=480),
        "deal slip, 300 px": picture(slip.format(), side=300),
        "no code": picture(None, side=0),
    }
    print(f"zxing-cpp decode of one 1280x720 JPEG, {args.runs} runs each (ms)")
    for name, data in cases.items():
        found = decode_picture(data)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            decode_picture(data)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"  {name:32} codes {len(found)}  median {statistics.median(times):6.1f}  p99 {p99:6.1f}")


if __name__ == "__main__":
    main()
