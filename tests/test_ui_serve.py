"""``rummy app``: the link printed, a taken port or a bad option one line, the app served (its
font too), behind the access code beyond loopback, and the link's QR code on Settings."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import flet as ft
import pytest
from conftest import free_port

from scorer.cli import main
from scorer.ui.screens.settings import phones_section
from scorer.ui.serve import settle_code
from scorer.ui.serving import ServingError, check_port, qr_png_bytes

START_TIMEOUT = 60.0


def _taken_port() -> tuple[socket.socket, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port: int = sock.getsockname()[1]
    return sock, port


def test_a_taken_port_is_named_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sock, port = _taken_port()
    with sock:
        status = main(["app", "--port", str(port), "--db", str(tmp_path / "league")])
    err = capsys.readouterr().err
    assert status == 2
    assert err == f"rummy app: port {port} on 127.0.0.1 is taken; choose another with --port\n"


def test_a_port_out_of_range_and_an_unknown_host_are_refused() -> None:
    with pytest.raises(ServingError, match="a port is a number from 1 to 65535"):
        check_port("127.0.0.1", 70000)
    with pytest.raises(ServingError, match=re.escape("--host no-such-host.invalid: no such address")):
        check_port("no-such-host.invalid", 8550)


def test_the_access_code_is_settled_before_the_app_is_built() -> None:
    assert settle_code("127.0.0.1", None) is None
    assert settle_code("localhost", "table42x") is None  # loopback asks no code
    assert settle_code("0.0.0.0", "table42x") == "TABLE42X"  # as the gate compares it
    first, second = settle_code("0.0.0.0", None), settle_code("0.0.0.0", None)
    assert first and second and first != second  # a new random one each start


def test_a_short_access_code_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(
        [
            "app",
            "--host",
            "0.0.0.0",
            "--port",
            str(free_port()),
            "--code",
            "abc",
            "--db",
            str(tmp_path / "db"),
        ]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("rummy app: ") and "abc" in err
    assert not (tmp_path / "db").exists()


def test_settings_shows_the_link_with_the_code_and_its_qr_code() -> None:
    link = "http://192.168.1.20:8550/?code=T4BLEK3Y"
    controls = phones_section(link, "en")
    texts = [c.value for c in controls if isinstance(c, ft.Text)]
    assert link in texts
    images = [c for c in controls if isinstance(c, ft.Image)]
    assert len(images) == 1
    assert isinstance(images[0].src, str)
    assert base64.b64decode(images[0].src) == qr_png_bytes(link)
    assert base64.b64decode(images[0].src).startswith(b"\x89PNG")


def _start_app(arguments: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1"}
    env.pop("FLET_SERVER_PORT", None)
    rummy = Path(sys.executable).with_name("rummy")
    return subprocess.Popen(
        [str(rummy), "app", *arguments, "--db", str(tmp_path / "league")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )


def _wait_for(process: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            assert process.poll() is None, "rummy app stopped"
            assert time.monotonic() < deadline, f"port {port} never opened"
            time.sleep(0.2)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=20)


def test_rummy_app_serves_and_prints_its_address(tmp_path: Path) -> None:
    port = free_port()
    process = _start_app(["--port", str(port)], tmp_path)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line == f"Rummy Scorer: http://127.0.0.1:{port}/\n"
        _wait_for(process, port)
        base = f"http://127.0.0.1:{port}/"
        assert _status(base) == 200  # loopback asks no code
        # The bundled font with the suit symbols is served beside the web client.
        with urllib.request.urlopen(base + "fonts/DejaVuSans.ttf", timeout=10) as response:
            assert response.read(4) == b"\x00\x01\x00\x00"  # a TrueType font
    finally:
        _stop(process)


def test_rummy_app_beyond_loopback_refuses_requests_without_the_code(tmp_path: Path) -> None:
    port = free_port()
    process = _start_app(["--host", "0.0.0.0", "--port", str(port), "--code", "T4BLEK3Y"], tmp_path)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert re.fullmatch(rf"Rummy Scorer: http://\S+:{port}/\?code=T4BLEK3Y\n", line), line
        second = process.stdout.readline() if process.stdout else ""
        assert "access code T4BLEK3Y" in second
        _wait_for(process, port)
        base = f"http://127.0.0.1:{port}/"
        assert _status(base) == 403
        assert _status(base + "?code=WRONGC0DE") == 403
        assert _status(base + "fonts/DejaVuSans.ttf") == 403
        assert _status(base + "?code=T4BLEK3Y") == 200
        assert _status(base + "fonts/DejaVuSans.ttf?code=T4BLEK3Y") == 200
    finally:
        _stop(process)


def test_behind_a_proxy_on_loopback_the_code_is_asked_and_the_link_is_the_public_address(
    tmp_path: Path,
) -> None:
    """A reverse proxy lets the world reach an app that listens on loopback only: with a trusted
    proxy the gate is on there too, and the link (and its QR code) is the proxy's address."""
    port = free_port()
    process = _start_app(
        [
            "--port",
            str(port),
            "--trusted-proxy",
            "127.0.0.1",
            "--code",
            "CLUBK3YS",
            "--public-url",
            "https://club.example.org",
        ],
        tmp_path,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line == "Rummy Scorer: https://club.example.org/?code=CLUBK3YS\n"
        _wait_for(process, port)
        base = f"http://127.0.0.1:{port}/"
        assert _status(base) == 403  # the proxy's requests are no longer let in as this machine's
        assert _status(base + "?code=CLUBK3YS") == 200
    finally:
        _stop(process)


def test_a_public_url_that_is_no_web_address_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(
        ["app", "--port", str(free_port()), "--public-url", "club.example.org", "--db", str(tmp_path / "db")]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        "rummy app: --public-url 'club.example.org': an address such as https://club.example.org/"
        " (http or https, a host, no query)\n"
    )
    assert not (tmp_path / "db").exists()


def test_rummy_app_serves_the_sync_api_under_api_guarded_by_tokens_not_the_code(tmp_path: Path) -> None:
    """``/api/`` is the club server's API: the store's tokens guard it, in front of the access
    gate (a device syncing has a token, not the code), with CORS for the origin given."""
    from scorer.league.store import Store

    store = Store.open(tmp_path / "league")
    store.create_league("Friday club")
    _, secret = store.add_token("tablet 1", "scorer")
    port = free_port()
    process = _start_app(
        [
            "--port",
            str(port),
            "--host",
            "0.0.0.0",
            "--code",
            "CLUBK3YS",
            "--cors-origin",
            "https://phone.club.example",
        ],
        tmp_path,
    )
    try:
        _wait_for(process, port)
        base = f"http://127.0.0.1:{port}"
        assert _status(base + "/") == 403  # the app asks the code
        assert _status(base + "/api/v1/leagues") == 401  # the API a token
        asked = urllib.request.Request(
            base + "/api/v1/leagues",
            headers={"Authorization": f"Bearer {secret}", "Origin": "https://phone.club.example"},
        )
        with urllib.request.urlopen(asked, timeout=10) as response:
            assert response.headers["Access-Control-Allow-Origin"] == "https://phone.club.example"
            assert [lg["name"] for lg in json.loads(response.read())["leagues"]] == ["Friday club"]
    finally:
        _stop(process)


def test_a_cors_origin_that_is_no_origin_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(
        ["app", "--port", str(free_port()), "--cors-origin", "phone.example/app", "--db", str(tmp_path)]
    )
    assert status == 2
    assert capsys.readouterr().err == (
        "rummy app: --cors-origin 'phone.example/app': an origin such as https://phone.club.example"
        " (http or https and a host, nothing after)\n"
    )


def test_a_message_sent_is_not_written_out_for_a_log_that_is_off(caplog: pytest.LogCaptureFixture) -> None:
    from flet.messaging.protocol import Message as FletMessage
    from flet.messaging.protocol import MessageAction, PatchControlBody

    from scorer.ui.serving import said_briefly

    board = ft.Column(controls=[ft.Text(f"deal {n}: Bea 2") for n in range(200)])
    message = FletMessage(MessageAction.PATCH_CONTROL, PatchControlBody(1, [board]))
    said_briefly()
    assert "deal 199" not in f"{message}" and "PATCH_CONTROL" in f"{message}"  # Flet's send log, off
    with caplog.at_level("DEBUG", logger="flet_transport"):
        assert "deal 199" in f"{message}"  # the log on: the message in full, as Flet writes it
