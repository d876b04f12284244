"""The gate against guessing: wrong codes throttled per address, session tokens, short codes.

The throttle is tested with an injected clock (no test waits for it), the gate through
Starlette's TestClient with that clock, and once against a real server on 0.0.0.0: a bounded
burst of wrong codes is answered 429 with ``Retry-After``, and the right code works once the
wait is over.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import free_port, server_process
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from scorer.ui.gate import (
    COOKIE_NAME,
    FIRST_WAIT,
    FREE_TRIES,
    LONGEST_WAIT,
    AccessGate,
    Sessions,
    Throttle,
    throttled_as,
)

CODE = "K7MPQ2XA"


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the throttle alone -----------------------------------------------------------------


def test_an_address_has_its_free_tries_then_waits_twice_as_long_each_time() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock)
    waits = [throttle.failed("10.0.0.7") for _ in range(FREE_TRIES + 4)]
    assert waits[:FREE_TRIES] == [0.0] * FREE_TRIES
    assert waits[FREE_TRIES:] == [FIRST_WAIT, FIRST_WAIT * 2, FIRST_WAIT * 4, FIRST_WAIT * 8]
    assert throttle.wait("10.0.0.7") == FIRST_WAIT * 8
    assert throttle.wait("10.0.0.8") == 0.0  # per address


def test_the_wait_has_a_ceiling() -> None:
    throttle = Throttle(clock=Clock())
    waits = [throttle.failed("10.0.0.7") for _ in range(FREE_TRIES + 100)]
    assert max(waits) == LONGEST_WAIT
    assert waits == sorted(waits)


def test_the_wait_runs_out_and_a_right_code_starts_the_count_again() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock)
    for _ in range(FREE_TRIES + 1):
        wait = throttle.failed("10.0.0.7")
    clock.now += wait - 0.5
    assert throttle.wait("10.0.0.7") == pytest.approx(0.5)
    clock.now += 0.5
    assert throttle.wait("10.0.0.7") == 0.0
    throttle.passed("10.0.0.7")
    assert [throttle.failed("10.0.0.7") for _ in range(FREE_TRIES)] == [0.0] * FREE_TRIES


def test_a_quiet_hour_forgets_the_wrong_codes() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock, forget_after=3600)
    for _ in range(FREE_TRIES):
        throttle.failed("10.0.0.7")
    clock.now += 3601
    assert throttle.failed("10.0.0.7") == 0.0


def test_memory_is_bounded_by_the_stalest_address() -> None:
    throttle = Throttle(clock=Clock(), capacity=3)
    for address in ("a", "b", "c", "d"):
        for _ in range(FREE_TRIES + 1):
            throttle.failed(address)
    assert throttle.wait("a") == 0.0  # pushed out
    assert all(throttle.wait(address) > 0 for address in ("b", "c", "d"))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.floats(min_value=0, max_value=30)), max_size=60))
def test_no_address_gets_more_than_its_free_tries_without_waiting(steps: list[tuple[str, float]]) -> None:
    """Whatever the pace: an address is never let try while it must wait, and the codes it
    sends beyond its free ones are at most one per wait."""
    clock = Clock()
    throttle = Throttle(clock=clock)
    looked_at = {"a": 0, "b": 0}
    waited = {"a": 0.0, "b": 0.0}
    for address, pause in steps:
        clock.now += pause
        if throttle.wait(address) > 0:
            continue
        looked_at[address] += 1
        waited[address] = throttle.failed(address)
        if looked_at[address] <= FREE_TRIES:
            assert waited[address] == 0.0
        else:
            assert waited[address] >= FIRST_WAIT


def test_an_ipv6_network_is_one_address_to_the_throttle() -> None:
    assert throttled_as("2001:db8:0:7::1") == throttled_as("2001:db8:0:7:ffff::2")
    assert throttled_as("2001:db8:0:7::1") != throttled_as("2001:db8:0:8::1")
    assert throttled_as("not an address") == "not an address"


# -- the session token ---------------------------------------------------------------------


def test_a_token_is_random_signed_and_of_this_run_only() -> None:
    sessions = Sessions()
    first, second = sessions.new(), sessions.new()
    assert first != second and sessions.valid(first) and sessions.valid(second)
    assert not Sessions().valid(first)
    nonce, _, signature = first.partition(".")
    assert not sessions.valid(f"{nonce}x.{signature}")
    for forged in ("", ".", CODE, "ä.ö", f"{nonce}.", "\udcff.x"):
        assert not sessions.valid(forged)


# -- the gate, with its clock ------------------------------------------------------------------


async def app_behind(scope: Any, receive: Any, send: Any) -> None:
    """The app behind the gate: a page that says so."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"the app"})


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def client(clock: Clock) -> Iterator[TestClient]:
    gate = AccessGate(app_behind, code=CODE, throttle=Throttle(clock=clock))
    with TestClient(gate) as test_client:
        yield test_client


def test_a_burst_of_wrong_codes_is_answered_429_and_the_right_code_works_after_the_wait(
    client: TestClient, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="scorer.ui.gate")
    answers = [client.get("/", params={"code": f"GUESS{n:03d}"}) for n in range(FREE_TRIES + 3)]
    assert [a.status_code for a in answers] == [403] * FREE_TRIES + [429] * 3
    first = answers[FREE_TRIES]
    assert first.headers["retry-after"] == str(int(FIRST_WAIT))
    assert answers[-1].headers["retry-after"] == str(int(FIRST_WAIT))  # waiting codes are not counted
    assert client.get(f"/?code={CODE}").status_code == 429  # not even the right one, yet
    clock.now += FIRST_WAIT
    opened = client.get(f"/?code={CODE}")
    assert opened.status_code == 200 and opened.text == "the app"
    assert client.get("/").status_code == 200  # the session cookie
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "testclient" in logged and "too many wrong codes" in logged
    assert "GUESS" not in logged and CODE not in logged  # never the guesses, nor the code
    assert len(caplog.records) == 1


def test_the_wait_grows_with_each_wrong_code_after_a_wait(client: TestClient, clock: Clock) -> None:
    retry = []
    for _ in range(FREE_TRIES + 4):
        answer = client.get("/?code=WRONGONE")
        if answer.status_code == 429:
            retry.append(int(answer.headers["retry-after"]))
            clock.now += retry[-1]
    assert retry == [2, 4, 8, 16]


def test_requests_without_a_code_are_not_counted(client: TestClient, clock: Clock) -> None:
    for _ in range(FREE_TRIES * 3):
        assert client.get("/").status_code == 403
        assert client.get("/", cookies={COOKIE_NAME: "stale.cookie"}).status_code == 403
    assert client.get(f"/?code={CODE}").status_code == 200


def test_a_throttled_websocket_is_closed_before_it_opens(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    for _ in range(FREE_TRIES + 1):
        client.get("/?code=WRONGONE")
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws?code={CODE}"):
        pass


# -- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("code", ["abc", "table42", "1234567"])
def test_a_code_shorter_than_8_is_refused_with_the_reason(code: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scorer.cli", "app", "--host", "0.0.0.0", "--port", "0", "--code", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "RUMMY_LANG": "en"},
        check=False,
    )
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"rummy app: --code '{code}': an access code is 8 to 64 letters (A-Z) and digits"
    )


# -- a real server ------------------------------------------------------------------------

SERVER_SCRIPT = """
import sys
import flet as ft
from scorer.ui.serving import serve

def main(page: ft.Page) -> None:
    page.add(ft.Text("at the table"))

serve(main, host="0.0.0.0", port=int(sys.argv[1]), code=sys.argv[2], proxies=sys.argv[3:])
"""


@contextmanager
def _real_server(tmp_path: Path, *proxies: str) -> Iterator[tuple[int, Path]]:
    port = free_port("0.0.0.0")
    log = tmp_path / "server.log"
    command = [sys.executable, "-c", SERVER_SCRIPT, str(port), CODE, *proxies]
    # uvicorn would trust the proxies this variable names if the app left the choice to it
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "FORWARDED_ALLOW_IPS": "*"}
    with server_process(command, port=port, log=log, env=env, name="the server"):
        yield port, log


@pytest.fixture()
def real_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    with _real_server(tmp_path) as served:
        yield served


def _get(port: int, code: str, *, forwarded: str | None = None) -> tuple[int, dict[str, str]]:
    import urllib.error
    import urllib.request

    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/?code={code}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


def test_a_forwarded_header_from_this_machine_does_not_escape_the_throttle(
    real_server: tuple[int, Path],
) -> None:
    """Issue 24, 13: uvicorn trusted X-Forwarded-For from 127.0.0.1, so a program on the host
    named a new address with each wrong code and was never made to wait."""
    port, log = real_server
    statuses = [_get(port, f"WRONG{n:03d}", forwarded=f"10.9.{n}.1")[0] for n in range(FREE_TRIES + 3)]
    assert statuses == [403] * FREE_TRIES + [429] * 3
    text = log.read_text()
    assert "127.0.0.1 sent too many wrong codes" in text and "10.9." not in text


def test_a_proxy_named_by_the_option_is_believed(tmp_path: Path) -> None:
    with _real_server(tmp_path, "127.0.0.1") as (port, log):
        # behind the proxy, each client has its free tries; one client is throttled on its own
        assert [_get(port, "WRONG000", forwarded=f"10.9.{n}.1")[0] for n in range(FREE_TRIES + 3)] == [
            403
        ] * (FREE_TRIES + 3)
        burst = [_get(port, f"WRONG{n:03d}", forwarded="10.9.200.7")[0] for n in range(FREE_TRIES + 1)]
        assert burst == [403] * FREE_TRIES + [429]
        assert _get(port, CODE, forwarded="10.9.201.7")[0] == 200
    assert "10.9.200.7 sent too many wrong codes" in log.read_text()


@pytest.mark.parametrize("value", ["proxy.example", "10.0.0.300", "*"])
def test_a_trusted_proxy_that_is_no_address_is_refused(value: str) -> None:
    from scorer.ui.serving import ServingError, trusted_proxies

    with pytest.raises(ServingError) as caught:
        trusted_proxies(["127.0.0.1", value])
    assert (
        str(caught.value)
        == f"--trusted-proxy '{value}': not an address or a network (like 127.0.0.1 or 10.0.0.0/24)"
    )


def test_a_real_server_throttles_a_burst_and_lets_the_right_code_in_after_the_wait(
    real_server: tuple[int, Path],
) -> None:
    import urllib.error
    import urllib.request

    port, log = real_server

    def get(code: str) -> tuple[int, dict[str, str]]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/?code={code}", timeout=10) as answer:
                return answer.status, dict(answer.headers)
        except urllib.error.HTTPError as refused:
            return refused.code, dict(refused.headers)

    burst = [get(f"WRONG{n:03d}") for n in range(FREE_TRIES + 5)]
    statuses = [status for status, _ in burst]
    assert statuses == [403] * FREE_TRIES + [429] * 5
    wait = int(burst[FREE_TRIES][1]["retry-after"])
    assert wait == int(FIRST_WAIT)
    assert get(CODE)[0] == 429
    time.sleep(wait + 0.2)
    status, headers = get(CODE)
    assert status == 200 and headers["set-cookie"].startswith(f"{COOKIE_NAME}=")
    text = log.read_text()
    assert "127.0.0.1 sent too many wrong codes" in text
    assert "WRONG0" not in text
