"""``rummy app``: the address printed, a taken port or a bad option one line, the app served."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.ui.serve import ServeError, address, check_port

START_TIMEOUT = 60.0


def _taken_port() -> tuple[socket.socket, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port: int = sock.getsockname()[1]
    return sock, port


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_a_taken_port_is_named_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sock, port = _taken_port()
    with sock:
        status = main(["app", "--port", str(port), "--db", str(tmp_path / "league")])
    err = capsys.readouterr().err
    assert status == 2
    assert err == f"rummy app: port {port} on 127.0.0.1 is taken; choose another with --port\n"


def test_a_port_out_of_range_and_an_unknown_host_are_refused() -> None:
    with pytest.raises(ServeError, match="a port is a number from 1 to 65535"):
        check_port("127.0.0.1", 70000)
    with pytest.raises(ServeError, match=re.escape("--host no-such-host.invalid: no such address")):
        check_port("no-such-host.invalid", 8550)


def test_the_address_shown_for_every_interface_is_loopback() -> None:
    assert address("0.0.0.0", 8550) == "http://127.0.0.1:8550/"
    assert address("192.168.1.5", 9000) == "http://192.168.1.5:9000/"


def test_rummy_app_serves_and_prints_its_address(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1"}
    env.pop("FLET_SERVER_PORT", None)
    rummy = Path(sys.executable).with_name("rummy")
    process = subprocess.Popen(
        [str(rummy), "app", "--port", str(port), "--db", str(tmp_path / "league")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith(f"Rummy Scorer: http://127.0.0.1:{port}/")
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert process.poll() is None, "rummy app stopped"
                assert time.monotonic() < deadline, f"port {port} never opened"
                time.sleep(0.2)
    finally:
        process.terminate()
        process.wait(timeout=20)
