"""The served app's web app manifest and icons (issue 16): the app's own, and past the gate.

Through Starlette's TestClient on Flet's real web app behind the access gate: the manifest
and the icons answer without the code (a browser fetches a manifest without cookies), and
everything else, the page, its scripts and the session, is still refused.
(tests/test_ui_browser_phone.py checks the same in Chromium, as a phone installing the app.)
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from scorer.ui import icons, manifest
from scorer.ui.gate import WEBSOCKET_POLICY_VIOLATION
from scorer.ui.manifest import APP_NAME, ICONS, THEME_COLOR
from scorer.ui.serving import build_app

CODE = "K7MPQ2XA"


def trivial_main(page: ft.Page) -> None:
    page.add(ft.Text("at the table"))


@pytest.fixture(scope="module")
def icon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("icons")


@pytest.fixture()
def client(icon_cache: Path) -> Iterator[TestClient]:
    with TestClient(build_app(trivial_main, code=CODE, icon_cache=icon_cache)) as test_client:
        yield test_client


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_without_the_code(client: TestClient) -> None:
    answer = client.get("/manifest.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    assert "set-cookie" not in answer.headers
    served = answer.json()
    assert served == manifest.manifest()
    assert served["name"] == APP_NAME == "Rummy Scorer"
    assert served["display"] == "standalone"
    assert served["theme_color"] == THEME_COLOR == "#2E7D32"
    assert served["start_url"] == "./"  # the page, which the cookie from the link then opens


def test_every_icon_is_the_apps_at_its_size_without_the_code(client: TestClient) -> None:
    for path, (size, _) in ICONS.items():
        answer = client.get("/" + path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == "image/png"
        assert png_size(answer.content) == (size, size), path
    # The app's drawing (scorer.ui.icons), not Flet's logo: the small one is quick to compare.
    assert client.get("/favicon.png").content == icons.icon_png(ICONS["favicon.png"][0])
    listed = {icon["src"]: icon["sizes"] for icon in client.get("/manifest.json").json()["icons"]}
    for src, sizes in listed.items():
        width, height = png_size(client.get("/" + src).content)
        assert sizes == f"{width}x{height}", src
    assert {"192x192", "512x512"} <= set(listed.values())


def test_a_head_request_has_no_body(client: TestClient) -> None:
    answer = client.head("/favicon.png")
    assert answer.status_code == 200 and answer.content == b""
    assert int(answer.headers["content-length"]) > 0


def test_the_page_its_scripts_and_the_session_still_need_the_code(client: TestClient) -> None:
    for path in ("/", "/index.html", "/main.dart.js", "/icons/Icon-192.png", "/manifest.json/x"):
        assert client.get(path).status_code == 403, path
    assert client.post("/manifest.json").status_code == 403
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws"):
        pass
    assert refused.value.code == WEBSOCKET_POLICY_VIOLATION


def test_the_page_is_titled_with_the_apps_name(client: TestClient) -> None:
    page = client.get(f"/?code={CODE}").text
    assert "<title>Rummy Scorer</title>" in page
    assert '<meta name="apple-mobile-web-app-title" content="Rummy Scorer">' in page
    assert '<link rel="manifest" href="manifest.json">' in page
    assert '<link rel="apple-touch-icon" href="icons/apple-touch-icon-192.png">' in page


def test_icons_are_drawn_once_and_then_read_from_the_cache(
    icon_cache: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in ("/favicon.png", "/icons/icon-512.png", "/manifest.json"):  # drawn into the cache
        assert client.get(path).status_code == 200

    def no_drawing(size: int, *, maskable: bool = False) -> bytes:
        raise AssertionError(f"drawn again: {size} px")

    monkeypatch.setattr(manifest, "icon_png", no_drawing)
    with TestClient(build_app(trivial_main, code=None, icon_cache=icon_cache)) as second:
        assert png_size(second.get("/icons/icon-512.png").content) == (512, 512)
        assert json.loads(second.get("/manifest.json").text)["short_name"] == "Rummy"
    assert not list(icon_cache.rglob("*.part"))  # no half-written file left behind
