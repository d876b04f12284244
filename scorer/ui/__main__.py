"""``python -m scorer.ui``: serve the app on RUMMY_HOST:RUMMY_PORT with games in RUMMY_DB
(and, beyond loopback, the access code RUMMY_CODE or a new one; RUMMY_TRUSTED_PROXIES: the
reverse proxies, comma-separated, whose ``X-Forwarded-For`` is believed, none by default;
RUMMY_PUBLIC_URL: the address the phones reach the proxy at; RUMMY_PUBLIC_STANDINGS=1: the
leagues' read-only standings pages served to anyone).

The same as ``rummy app`` (see :mod:`scorer.ui.serve`), configured from the environment.
"""

from __future__ import annotations

import os
import sys

from scorer.errors import ScorerError
from scorer.ui.serve import DEFAULT_HOST, DEFAULT_PORT, serve


def run() -> int:
    host = os.environ.get("RUMMY_HOST") or DEFAULT_HOST
    port_text = os.environ.get("RUMMY_PORT") or str(DEFAULT_PORT)
    if not port_text.isdigit():
        print(f"RUMMY_PORT must be a port number, got {port_text!r}", file=sys.stderr)
        return 2
    try:
        proxies = [p for p in (os.environ.get("RUMMY_TRUSTED_PROXIES") or "").split(",") if p.strip()]
        serve(
            host=host,
            port=int(port_text),
            code=os.environ.get("RUMMY_CODE") or None,
            proxies=proxies,
            public=os.environ.get("RUMMY_PUBLIC_URL") or None,
            public_standings=os.environ.get("RUMMY_PUBLIC_STANDINGS", "").strip() == "1",
        )
    except ScorerError as exc:
        print(f"python -m scorer.ui: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(run())
