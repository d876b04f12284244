"""``bench/web.py --cold`` opens the build as a phone opens the installed app (issue 25): a
browser started afresh on the profile a first visit left, the app answered from that profile's
offline cache. Driven here once on the build in Chromium: the cold open is a second browser on
the same profile folder, it reaches Home, and the host is asked for nothing but the service
worker's own update check."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import bench_module

pytestmark = pytest.mark.browser


def bench_web() -> ModuleType:
    return bench_module("web")


def test_a_cold_open_is_a_new_browser_on_the_kept_profile_answered_from_its_cache(web_dist: Path) -> None:
    from playwright.sync_api import sync_playwright

    web = bench_web()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    profiles: list[str] = []

    def cold() -> dict[str, Any]:
        with web.served(web_dist) as (url, sent), sync_playwright() as playwright:

            def launch(folder: str) -> Any:
                profiles.append(folder)
                return playwright.chromium.launch_persistent_context(
                    folder,
                    executable_path=chromium,
                    args=["--no-sandbox", "--enable-unsafe-swiftshader"],
                    viewport=web.VIEWPORT,
                )

            got: dict[str, Any] = web.cold_profile(launch, url, sent, 1.0, 1)
            return got

    # On a thread of its own: in the whole suite the browser tests' Playwright keeps an event
    # loop running on this one, where a second sync_playwright is refused.
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(cold).result()

    assert len(profiles) == 2 and profiles[0] == profiles[1]  # the first visit's, started again
    assert not Path(profiles[0]).exists()  # the profile is the bench's own, removed after
    assert "ready" in got["first"] and len(got["cached"]) == 2
    (cold,) = got["cold"]
    assert cold["ready"] > 0  # Home's New game, in the new browser
    # Offline-cache answers: at most the service worker's own update check reaches the host.
    (files,) = got["cold_sent"]
    assert len(files) <= 1 and all(size <= (web_dist / "sw.js").stat().st_size for size in files), files
