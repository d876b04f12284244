"""Serving beyond loopback: only a request that carries the table's access code reaches the app.

The gate is checked on Flet's real web app (a trivial page) through Starlette's TestClient, then
on a real server listening on 0.0.0.0 in its own process, with plain HTTP and a raw WebSocket
upgrade, as a phone on the network would connect.
"""

from __future__ import annotations

import hmac
import io
import os
import signal
import socket
import struct
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
import segno
from conftest import free_port, server_process
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from scorer.api.standings_page import StandingsDoor
from scorer.errors import ScorerError
from scorer.ui import gate, serving
from scorer.ui.gate import (
    ACCESS_CODE_LENGTH,
    CODE_ALPHABET,
    COOKIE_NAME,
    WEBSOCKET_POLICY_VIOLATION,
    AccessCodeError,
    AccessGate,
    new_access_code,
    validate_access_code,
)
from scorer.ui.serving import (
    ServingError,
    access_link,
    build_app,
    check_port,
    is_loopback,
    lan_address,
    qr_png_bytes,
    qr_terminal_text,
    serve,
)

CODE = "K7MPQ2XA"


def trivial_main(page: ft.Page) -> None:
    page.add(ft.Text("at the table"))


@pytest.fixture()
def gated_app() -> Any:
    """A gate of its own for each test: wrong codes in one test do not throttle the next."""
    return build_app(trivial_main, code=CODE)


def session_cookie(app: Any) -> str:
    """The session token the link with the code gives a browser."""
    with TestClient(app) as test_client:
        response = test_client.get(f"/?code={CODE}")
        assert response.status_code == 200
        return str(response.cookies[COOKIE_NAME])


@pytest.fixture()
def client(gated_app: Any) -> Iterator[TestClient]:
    with TestClient(gated_app) as test_client:
        yield test_client


# --- the gate on HTTP ------------------------------------------------------------------------


def test_page_without_code_is_refused(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 403
    assert "access code" in response.text
    assert "set-cookie" not in response.headers


def test_every_path_without_code_is_refused(client: TestClient) -> None:
    # The client's scripts and assets too, not only the page: nothing of the app leaks.
    # (The manifest and its icons pass, to let a phone install the app: test_ui_webapp.py.)
    for path in ("/main.dart.js", "/index.html", "/flutter_bootstrap.js", "/icons/Icon-192.png"):
        assert client.get(path).status_code == 403, path


def test_wrong_code_is_refused(client: TestClient) -> None:
    response = client.get("/?code=K7MPQ2XB")
    assert response.status_code == 403
    assert "set-cookie" not in response.headers


def test_prefix_and_longer_codes_are_refused(client: TestClient) -> None:
    for guess in (CODE[:-1], CODE + "A", "", " "):
        assert client.get("/", params={"code": guess}).status_code == 403, guess


def test_non_ascii_guess_is_refused_not_a_server_error(client: TestClient) -> None:
    assert client.get("/", params={"code": "K7MPQ2XÄ"}).status_code == 403


def test_good_code_in_query_opens_the_app_and_sets_the_cookie(client: TestClient) -> None:
    response = client.get(f"/?code={CODE}")
    assert response.status_code == 200
    assert "<html" in response.text.lower()
    cookie = response.headers["set-cookie"]
    attributes = [part.strip() for part in cookie.split(";")]
    name, _, token = attributes[0].partition("=")
    assert name == COOKIE_NAME
    assert CODE not in token.upper() and len(token) >= 40  # a session token, not the code
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= set(attributes)
    assert "Secure" not in attributes  # plain HTTP on the local network


def test_code_is_read_in_either_case(client: TestClient) -> None:
    assert client.get(f"/?code={CODE.lower()}").status_code == 200


def test_cookie_alone_lets_the_later_requests_in(gated_app: Any) -> None:
    with TestClient(gated_app, cookies={COOKIE_NAME: session_cookie(gated_app)}) as with_cookie:
        assert with_cookie.get("/").status_code == 200
        assert with_cookie.get("/main.dart.js").status_code == 200


def test_cookie_from_the_link_is_kept_by_the_client(client: TestClient) -> None:
    assert client.get(f"/?code={CODE}").status_code == 200
    assert client.get("/main.dart.js").status_code == 200
    assert client.get("/").status_code == 200


def test_cookie_is_found_among_other_cookies(gated_app: Any) -> None:
    with TestClient(gated_app) as test_client:
        headers = {"Cookie": f"theme=dark; {COOKIE_NAME}={session_cookie(gated_app)}; lang=fi"}
        assert test_client.get("/", headers=headers).status_code == 200


def test_assets_are_served_behind_the_gate(tmp_path: Path) -> None:
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "table.txt").write_text("suits")
    app = build_app(trivial_main, code=CODE, assets_dir=str(tmp_path))
    with TestClient(app) as test_client:
        assert test_client.get("/fonts/table.txt").status_code == 403
        test_client.get(f"/?code={CODE}")
        answer = test_client.get("/fonts/table.txt")
        assert answer.status_code == 200 and answer.text == "suits"


def test_wrong_cookie_is_refused(gated_app: Any) -> None:
    with TestClient(gated_app, cookies={COOKIE_NAME: "AAAAAAAA"}) as wrong:
        assert wrong.get("/").status_code == 403


def test_the_code_itself_is_no_cookie(gated_app: Any) -> None:
    with TestClient(gated_app, cookies={COOKIE_NAME: CODE}) as with_code:
        assert with_code.get("/").status_code == 403


def test_a_cookie_of_another_run_is_refused_even_with_the_same_code(gated_app: Any) -> None:
    old = session_cookie(build_app(trivial_main, code=CODE))
    with TestClient(gated_app, cookies={COOKIE_NAME: old}) as stale:
        assert stale.get("/").status_code == 403
    with TestClient(build_app(trivial_main, code="NEWCODE9"), cookies={COOKIE_NAME: old}) as stale:
        assert stale.get("/").status_code == 403


def test_cookie_only_answer_sets_no_new_cookie(gated_app: Any) -> None:
    with TestClient(gated_app, cookies={COOKIE_NAME: session_cookie(gated_app)}) as with_cookie:
        assert "set-cookie" not in with_cookie.get("/").headers


# --- the gate on the WebSocket -------------------------------------------------------------


def test_websocket_without_code_is_refused(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws"):
        pass
    assert refused.value.code == WEBSOCKET_POLICY_VIOLATION


def test_websocket_with_wrong_cookie_is_refused(gated_app: Any) -> None:
    with (
        TestClient(gated_app, cookies={COOKIE_NAME: "AAAAAAAA"}) as wrong,
        pytest.raises(WebSocketDisconnect) as refused,
        wrong.websocket_connect("/ws"),
    ):
        pass
    assert refused.value.code == WEBSOCKET_POLICY_VIOLATION


def test_websocket_with_the_cookie_is_accepted(client: TestClient) -> None:
    client.get(f"/?code={CODE}")
    with client.websocket_connect("/ws") as websocket:
        assert websocket.accepted_subprotocol is None  # accepted: the handshake completed


def test_lifespan_reaches_the_app_through_the_gate() -> None:
    # Flet starts its session manager in the app's lifespan; a gate that swallowed the
    # lifespan events would leave every session without one.
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                seen.append(message["type"])
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return

    with TestClient(AccessGate(app, code=CODE)):
        assert seen == ["lifespan.startup"]
    assert seen == ["lifespan.startup", "lifespan.shutdown"]


# --- constant time ---------------------------------------------------------------------------


def test_codes_are_compared_with_compare_digest(monkeypatch: pytest.MonkeyPatch, gated_app: Any) -> None:
    calls: list[tuple[object, object]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    with TestClient(gated_app) as test_client:
        assert test_client.get("/?code=GUESSING").status_code == 403
        assert (b"GUESSING", CODE.encode()) in calls
        calls.clear()
        assert test_client.get(f"/?code={CODE}").status_code == 200
        assert (CODE.encode(), CODE.encode()) in calls


def test_no_equality_operator_on_codes_in_the_gate() -> None:
    # A plain == stops at the first differing character; only compare_digest decides.
    source = Path(gate.__file__).read_text()
    assert "hmac.compare_digest(" in source
    assert "== self._code" not in source
    assert "== code" not in source


# --- codes -----------------------------------------------------------------------------------


def test_new_code_length_and_alphabet() -> None:
    codes = {new_access_code() for _ in range(200)}
    assert all(len(code) == ACCESS_CODE_LENGTH for code in codes)
    assert set("".join(codes)) <= set(CODE_ALPHABET)
    assert len(codes) == 200  # random, not a fixed or counting sequence


def test_new_code_leaves_out_characters_that_read_alike() -> None:
    assert not set(CODE_ALPHABET) & set("0O1IL")
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET)


def test_new_codes_pass_their_own_validation() -> None:
    code = new_access_code()
    assert validate_access_code(code) == code


def test_given_code_is_kept_in_upper_case() -> None:
    assert validate_access_code("  table42x ") == "TABLE42X"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("ab12", "--code 'ab12': an access code is 8 to 64 letters (A-Z) and digits"),
        ("table42", "--code 'table42': an access code is 8 to 64 letters (A-Z) and digits"),
        ("A" * 65, f"--code '{'A' * 65}': an access code is 8 to 64 letters (A-Z) and digits"),
        ("table 42", "--code 'table 42': an access code is 8 to 64 letters (A-Z) and digits, not ' '"),
        (
            "pöytä-42",
            "--code 'pöytä-42': an access code is 8 to 64 letters (A-Z) and digits, not '-' 'Ä' 'Ö'",
        ),
    ],
)
def test_given_code_validation(given: str, message: str) -> None:
    with pytest.raises(AccessCodeError) as error:
        validate_access_code(given)
    assert str(error.value) == message
    assert "\n" not in str(error.value)
    assert isinstance(error.value, ScorerError) and isinstance(error.value, ValueError)


# --- the link and its QR code ----------------------------------------------------------------


def test_link_on_a_given_address_carries_the_code() -> None:
    assert access_link(host="192.168.1.20", port=8550, code=CODE) == f"http://192.168.1.20:8550/?code={CODE}"


def test_link_on_every_interface_uses_the_network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.33")
    assert access_link(host="0.0.0.0", port=9000, code=CODE) == f"http://192.168.1.33:9000/?code={CODE}"
    assert access_link(host="::", port=9000, code=CODE) == f"http://192.168.1.33:9000/?code={CODE}"


def test_link_on_ipv6_address_is_bracketed() -> None:
    assert access_link(host="fd00::5", port=8550, code=CODE) == f"http://[fd00::5]:8550/?code={CODE}"


def test_link_on_loopback_has_no_code() -> None:
    assert access_link(host="127.0.0.1", port=8550, code=None) == "http://127.0.0.1:8550/"


def test_lan_address_is_not_loopback_when_there_is_a_route() -> None:
    address = lan_address()
    assert address
    assert not is_loopback(address)


def test_lan_address_falls_back_to_the_host_name(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoRoute:
        def __init__(self, *args: object) -> None:
            raise OSError("network is unreachable")

    monkeypatch.setattr(serving.socket, "socket", NoRoute)
    monkeypatch.setattr(serving.socket, "gethostname", lambda: "card-table")
    monkeypatch.setattr(serving.socket, "gethostbyname", lambda name: "127.0.1.1")
    assert lan_address() == "card-table"
    monkeypatch.setattr(serving.socket, "gethostbyname", lambda name: "192.168.7.7")
    assert lan_address() == "192.168.7.7"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.1.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_qr_png_is_the_links_code() -> None:
    link = f"http://192.168.1.20:8550/?code={CODE}"
    png = qr_png_bytes(link)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    modules = segno.make(link, error="m").symbol_size(scale=serving.QR_PNG_SCALE, border=serving.QR_BORDER)
    assert (width, height) == modules
    assert qr_png_bytes(link) == png
    assert qr_png_bytes(link.replace(CODE, "AAAAAAAA")) != png


def test_qr_in_the_terminal_is_compact() -> None:
    link = f"http://192.168.1.20:8550/?code={CODE}"
    text = qr_terminal_text(link)
    width, height = segno.make(link, error="m").symbol_size(border=serving.QR_BORDER)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == (height + 1) // 2  # two rows of modules per line
    assert all(len(line) == width for line in lines)
    assert set("".join(lines)) <= set(" █▀▄")


# --- serve -----------------------------------------------------------------------------------


class Served:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, dict[str, Any]]] = []

    def __call__(self, app: Any, **options: Any) -> None:
        self.calls.append((app, options))


@pytest.fixture()
def served(monkeypatch: pytest.MonkeyPatch) -> Served:
    fake = Served()
    monkeypatch.setattr(serving.uvicorn, "run", fake)
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.33")
    return fake


def test_serve_beyond_loopback_prints_link_and_qr_and_gates(served: Served) -> None:
    out = io.StringIO()
    port = free_port("0.0.0.0")
    serve(trivial_main, host="0.0.0.0", port=port, code="table42x", out=out)
    link = f"http://192.168.1.33:{port}/?code=TABLE42X"
    printed = out.getvalue()
    assert f"Rummy Scorer: {link}\n" in printed
    assert qr_terminal_text(link) in printed
    [(app, options)] = served.calls
    # behind the manifest and icons (scorer.ui.webapp) and the standings pages' door
    assert isinstance(app.inner, StandingsDoor) and isinstance(app.inner.inner, AccessGate)
    assert options["host"] == "0.0.0.0" and options["port"] == port


def test_serve_beyond_loopback_makes_a_code_when_none_is_given(served: Served) -> None:
    out = io.StringIO()
    serve(trivial_main, host="0.0.0.0", port=free_port("0.0.0.0"), out=out)
    code = out.getvalue().split("?code=")[1].split()[0]
    assert len(code) == ACCESS_CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    [(app, _)] = served.calls
    with TestClient(app) as test_client:
        assert test_client.get("/").status_code == 403
        assert test_client.get(f"/?code={code}").status_code == 200


def test_serve_on_loopback_asks_no_code(served: Served) -> None:
    out = io.StringIO()
    port = free_port("0.0.0.0")
    serve(trivial_main, host="127.0.0.1", port=port, out=out)
    assert out.getvalue() == f"Rummy Scorer: http://127.0.0.1:{port}/\n"
    [(app, _)] = served.calls
    assert isinstance(app.inner, StandingsDoor) and not isinstance(app.inner.inner, AccessGate)
    with TestClient(app) as test_client:
        assert test_client.get("/").status_code == 200
        with test_client.websocket_connect("/ws"):
            pass


def test_serve_with_bad_code_says_so_before_serving(served: Served) -> None:
    with pytest.raises(AccessCodeError, match=r"^--code 'abc': "):
        serve(trivial_main, host="0.0.0.0", port=free_port("0.0.0.0"), code="abc", out=io.StringIO())
    assert served.calls == []


def test_taken_port_is_one_line_not_a_traceback(served: Served) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("0.0.0.0", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(ServingError) as error:
            serve(trivial_main, host="0.0.0.0", port=port, out=io.StringIO())
    assert str(error.value) == f"port {port} on 0.0.0.0 is taken; choose another with --port"
    assert served.calls == []


@pytest.mark.parametrize(
    ("host", "port", "message"),
    [
        ("127.0.0.1", 0, "--port 0: a port is a number from 1 to 65535"),
        ("127.0.0.1", 70000, "--port 70000: a port is a number from 1 to 65535"),
        ("no-such-host.invalid", 8550, "--host no-such-host.invalid: no such address on this machine"),
        ("192.0.2.254", 8550, "--host 192.0.2.254: no such address on this machine"),
    ],
)
def test_bad_host_or_port(host: str, port: int, message: str) -> None:
    with pytest.raises(ServingError) as error:
        check_port(host, port)
    assert str(error.value) == message


# --- the real server on 0.0.0.0 --------------------------------------------------------------

SERVER_SCRIPT = """
import sys
import flet as ft
from scorer.ui.serving import serve

def main(page: ft.Page) -> None:
    page.add(ft.Text("at the table"))

serve(main, host="0.0.0.0", port=int(sys.argv[1]), code=sys.argv[2])
"""


@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    port = free_port("0.0.0.0")
    log = tmp_path_factory.mktemp("gate") / "server.log"
    command = [sys.executable, "-c", SERVER_SCRIPT, str(port), CODE]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with server_process(command, port=port, log=log, env=env, name="the server"):
        yield port, log


def http_status(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


def websocket_upgrade(port: int, *, cookie: str | None = None) -> str:
    """The status line a raw WebSocket upgrade of ``/ws`` gets, as a browser would send it."""
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(1024)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode()


def real_session(port: int) -> str:
    """The ``Cookie`` header a browser sends after opening the link with the code."""
    status, headers = http_status(f"http://127.0.0.1:{port}/?code={CODE}")
    assert status == 200
    cookie = headers["set-cookie"].split(";")[0]
    assert cookie.startswith(f"{COOKIE_NAME}=") and CODE not in cookie
    return cookie


def test_real_server_prints_the_link(real_server: tuple[int, Path]) -> None:
    port, log = real_server
    deadline = time.monotonic() + 10
    while f":{port}/?code={CODE}" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f":{port}/?code={CODE}" in log.read_text()


def test_real_server_refuses_the_page_without_code(real_server: tuple[int, Path]) -> None:
    port, _ = real_server
    status, _ = http_status(f"http://127.0.0.1:{port}/")
    assert status == 403
    status, _ = http_status(f"http://127.0.0.1:{port}/?code=WRONGONE")
    assert status == 403


def test_real_server_opens_with_the_code(real_server: tuple[int, Path]) -> None:
    port, _ = real_server
    cookie = real_session(port)
    status, _ = http_status(f"http://127.0.0.1:{port}/main.dart.js", {"Cookie": cookie})
    assert status == 200
    status, _ = http_status(f"http://127.0.0.1:{port}/main.dart.js", {"Cookie": f"{COOKIE_NAME}={CODE}"})
    assert status == 403


def test_real_server_refuses_the_websocket_without_code(real_server: tuple[int, Path]) -> None:
    port, _ = real_server
    assert websocket_upgrade(port).startswith("HTTP/1.1 403")
    assert websocket_upgrade(port, cookie=f"{COOKIE_NAME}=WRONGONE").startswith("HTTP/1.1 403")


def test_real_server_upgrades_the_websocket_with_the_cookie(real_server: tuple[int, Path]) -> None:
    port, _ = real_server
    assert websocket_upgrade(port, cookie=real_session(port)).startswith("HTTP/1.1 101")


def test_a_stop_does_not_wait_for_a_phone_still_connected(tmp_path: Path) -> None:
    """SIGTERM (a service stopped, Ctrl+C) ends the server by itself while a phone's WebSocket
    is still open: uvicorn waited for it without end, and the service was killed."""
    port = free_port("0.0.0.0")
    log = tmp_path / "server.log"
    command = [sys.executable, "-c", SERVER_SCRIPT, str(port), CODE]
    with server_process(command, port=port, log=log, env={**os.environ}, name="the server") as process:
        cookie = real_session(port)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as phone:
            phone.sendall(
                (
                    "GET /ws HTTP/1.1\r\n"
                    f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    f"Cookie: {cookie}\r\n\r\n"
                ).encode()
            )
            assert phone.recv(1024).startswith(b"HTTP/1.1 101")
            process.terminate()
            # Its own end (uvicorn ends by the signal it was sent once it has stopped), within
            # the stop's wait and well before the 10 s after which the block below kills it.
            assert process.wait(timeout=serving.STOP_SECONDS + 5) == -signal.SIGTERM
