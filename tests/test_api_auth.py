"""The API's token gate, through FastAPI's TestClient on a tiny app that calls it: 401 for no
token or a wrong or revoked one, the access gate's throttle (429 with ``Retry-After``) after
its free tries, 403 for a role that may not, the client behind a trusted proxy."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from scorer.api.auth import TokenGate
from scorer.league.store import Store
from scorer.league.token_book import TOKENS_NAME
from scorer.league.tokens import Action
from scorer.messages import Message, render
from scorer.throttle import (
    FIRST_WAIT,
    FREE_TRIES,
    ProxyError,
    Throttle,
    client_address,
    throttled_as,
    trusted_networks,
)
from scorer.ui.gate import AccessGate


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tiny_app(gate: TokenGate) -> FastAPI:
    """One route per action, each answering with the token's holder."""
    app = FastAPI()

    def holder(request: Request, action: Action) -> dict[str, Any]:
        info = gate.check(request, action)
        return {"name": info.name, "role": info.role.value}

    @app.get("/read")
    def read(request: Request) -> dict[str, Any]:
        return holder(request, Action.READ)

    @app.post("/record")
    def record(request: Request) -> dict[str, Any]:
        return holder(request, Action.RECORD)

    @app.post("/direct")
    def direct(request: Request) -> dict[str, Any]:
        return holder(request, Action.DIRECT)

    return app


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def store() -> Store:
    return Store.memory()


def app_for(store: Store, clock: Clock, *, proxies: tuple[str, ...] = ()) -> FastAPI:
    return tiny_app(TokenGate(store, proxies=proxies, throttle=Throttle(clock=clock)))


def client_for(app: FastAPI, *, host: str = "10.0.0.7") -> TestClient:
    """A client connecting from ``host`` (the gate's one throttle counts each address)."""
    return TestClient(app, client=(host, 50000))


def test_a_good_token_passes_and_names_its_holder(store: Store, clock: Clock) -> None:
    _, secret = store.add_token("Anna's phone", "scorer")
    client = client_for(app_for(store, clock))
    answer = client.get("/read", headers=bearer(secret))
    assert answer.status_code == 200 and answer.json() == {"name": "Anna's phone", "role": "scorer"}
    assert client.get("/read", headers={"authorization": f"bearer   {secret} "}).status_code == 200


def test_no_token_is_401_with_the_bearer_challenge_and_is_no_guess(store: Store, clock: Clock) -> None:
    client = client_for(app_for(store, clock))
    for headers in ({}, {"Authorization": "Basic YW5uYTpwYXNz"}, {"Authorization": "Bearer "}):
        for _ in range(FREE_TRIES + 2):  # never throttled: nothing was guessed
            answer = client.get("/read", headers=headers)
            assert answer.status_code == 401
            assert answer.headers["www-authenticate"] == "Bearer"
            assert answer.json()["detail"]["code"] == "api.token_missing"


def test_a_wrong_token_is_401_then_the_address_is_throttled_as_the_access_gate_throttles(
    store: Store, clock: Clock
) -> None:
    _, secret = store.add_token("Anna's phone", "scorer")
    app = app_for(store, clock)
    client = client_for(app)
    wrong = [client.get("/read", headers=bearer(f"rst_guess{n}")) for n in range(FREE_TRIES)]
    assert [a.status_code for a in wrong] == [401] * FREE_TRIES
    assert wrong[0].headers["www-authenticate"].startswith("Bearer")
    assert wrong[0].json()["detail"] == {
        "code": "api.token_wrong",
        "params": {},
        "text": "the token sent is not one of this server's, or it was revoked",
    }
    over = client.get("/read", headers=bearer("rst_one_more"))
    assert over.status_code == 429 and over.headers["retry-after"] == str(int(FIRST_WAIT))
    assert over.json()["detail"]["code"] == "api.token_throttled"
    # while it waits, even the right token is not looked at
    waiting = client.get("/read", headers=bearer(secret))
    assert waiting.status_code == 429 and int(waiting.headers["retry-after"]) >= 1
    # another address has its own free tries
    assert client_for(app, host="10.0.0.8").get("/read", headers=bearer(secret)).status_code == 200
    clock.now += FIRST_WAIT
    assert client.get("/read", headers=bearer(secret)).status_code == 200
    # a right token starts the count again: the free tries are back
    again = [client.get("/read", headers=bearer(f"rst_again{n}")).status_code for n in range(FREE_TRIES)]
    assert again == [401] * FREE_TRIES


def test_the_waits_double_after_each_further_wrong_token(store: Store, clock: Clock) -> None:
    client = client_for(app_for(store, clock))
    waits = []
    for n in range(FREE_TRIES + 3):
        answer = client.get("/read", headers=bearer(f"rst_guess{n}"))
        if answer.status_code == 429:
            waits.append(int(answer.headers["retry-after"]))
            clock.now += waits[-1]  # waits it out, then guesses again
    assert waits == [int(FIRST_WAIT), int(FIRST_WAIT * 2), int(FIRST_WAIT * 4)]


def test_a_revoked_token_is_refused_and_counted_as_wrong(store: Store, clock: Clock) -> None:
    _, secret = store.add_token("Anna's phone", "director")
    client = client_for(app_for(store, clock))
    assert client.post("/direct", headers=bearer(secret)).status_code == 200
    store.revoke_token("Anna's phone")
    answers = [client.post("/direct", headers=bearer(secret)) for _ in range(FREE_TRIES + 1)]
    assert [a.status_code for a in answers] == [401] * FREE_TRIES + [429]
    assert answers[0].json()["detail"]["code"] == "api.token_wrong"


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("viewer", {"read"}),
        ("scorer", {"read", "record"}),
        ("director", {"read", "record", "direct"}),
    ],
)
def test_a_role_may_do_what_the_table_says_and_403_names_the_role_and_action(
    store: Store, clock: Clock, role: str, allowed: set[str]
) -> None:
    _, secret = store.add_token("Anna's phone", role)
    client = client_for(app_for(store, clock))
    for action in Action:
        path = f"/{action.value}"
        answer = (
            client.get(path, headers=bearer(secret))
            if action is Action.READ
            else client.post(path, headers=bearer(secret))
        )
        if action.value in allowed:
            assert answer.status_code == 200, (role, action)
            continue
        assert answer.status_code == 403, (role, action)
        detail = answer.json()["detail"]
        assert detail["code"] == "api.token_forbidden"
        assert detail["params"] == {"name": repr("Anna's phone"), "role": role, "action": action.value}
        assert role in detail["text"] and ("record games" in detail["text"] or "direct" in detail["text"])
    # a refusal by role is no wrong guess: never throttled
    for _ in range(FREE_TRIES + 2):
        expected = 200 if role == "director" else 403
        assert client.post("/direct", headers=bearer(secret)).status_code == expected


def test_a_role_refusal_reads_in_finnish_too() -> None:
    from scorer.messages import Word

    said = Message("api.token_forbidden", name="'Anna'", role=Word("viewer"), action=Word("record"))
    assert str(said) == "the token 'Anna' is a viewer's, and a viewer may not record games"
    assert render(said, "fi") == "pääsyavain 'Anna' on roolia katsoja, eikä se saa kirjata pelejä"


def test_behind_a_trusted_proxy_each_client_is_counted_by_its_own_address(store: Store, clock: Clock) -> None:
    _, secret = store.add_token("Anna's phone", "viewer")
    app = app_for(store, clock, proxies=("127.0.0.1",))
    proxied = client_for(app, host="127.0.0.1")

    def guess(client: TestClient, forwarded: str, token: str = "rst_wrong") -> int:
        return client.get("/read", headers={**bearer(token), "X-Forwarded-For": forwarded}).status_code

    # one client behind the proxy is throttled on its own; the next still has its free tries
    assert [guess(proxied, "203.0.113.9") for _ in range(FREE_TRIES + 1)] == [401] * FREE_TRIES + [429]
    assert guess(proxied, "203.0.113.10", secret) == 200
    assert guess(proxied, "203.0.113.9", secret) == 429
    # a header from a peer that is no trusted proxy is not believed: the peer is counted
    direct = client_for(app, host="10.0.0.7")
    statuses = [guess(direct, f"198.51.100.{n}") for n in range(FREE_TRIES + 1)]
    assert statuses == [401] * FREE_TRIES + [429]


def test_a_trusted_proxy_that_is_no_address_is_refused_quoting_it(store: Store) -> None:
    with pytest.raises(ProxyError, match=r"'proxy\.example': not an address or a network"):
        TokenGate(store, proxies=["proxy.example"])


def test_a_store_that_cannot_say_is_503_not_a_wrong_token(tmp_path: Path, clock: Clock) -> None:
    store = Store.open(tmp_path / "league")
    _, secret = store.add_token("Anna's phone", "viewer")
    (tmp_path / "league" / TOKENS_NAME).write_text("{ not json")
    client = client_for(app_for(store, clock))
    answers = [client.get("/read", headers=bearer(secret)) for _ in range(FREE_TRIES + 1)]
    assert [a.status_code for a in answers] == [503] * (FREE_TRIES + 1)  # and never throttled
    assert answers[0].json()["detail"]["code"] == "store.tokens_damaged"


def test_the_throttling_is_logged_with_the_address_never_the_token(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    client = client_for(app_for(store, clock))
    with caplog.at_level(logging.WARNING, logger="scorer.api.auth"):
        for n in range(FREE_TRIES + 1):
            client.get("/read", headers=bearer(f"rst_secret_guess_{n}"))
    [record] = caplog.records
    assert record.getMessage() == (
        f"sync API: 10.0.0.7 sent too many wrong tokens; its tokens are refused for {int(FIRST_WAIT)} s"
    )
    assert "rst_secret_guess" not in caplog.text


def test_the_access_gate_and_the_token_gate_can_share_one_count(store: Store, clock: Clock) -> None:
    """One throttle, one count: wrong codes at the gate and wrong tokens at the API add up."""
    throttle = Throttle(clock=clock)
    gate = AccessGate(tiny_app(TokenGate(store, throttle=throttle)), code="K7MPQ2XA", throttle=throttle)
    client = TestClient(gate, client=("10.0.0.7", 50000))
    codes = [client.get("/read?code=WRONG001").status_code for _ in range(FREE_TRIES - 1)]
    assert codes == [403] * (FREE_TRIES - 1)
    _, secret = store.add_token("Anna's phone", "viewer")
    session = TestClient(tiny_app(TokenGate(store, throttle=throttle)), client=("10.0.0.7", 50000))
    assert session.get("/read", headers=bearer("rst_wrong")).status_code == 401  # the fifth wrong guess
    assert session.get("/read", headers=bearer("rst_wrong")).status_code == 429  # the sixth
    assert session.get("/read", headers=bearer(secret)).status_code == 429


@pytest.mark.parametrize(
    ("peer", "forwarded", "proxies", "client"),
    [
        ("10.0.0.1", ["203.0.113.9"], ["10.0.0.0/24"], "203.0.113.9"),
        ("10.0.0.1", ["198.51.100.1, 203.0.113.9, 10.0.0.2"], ["10.0.0.0/24"], "203.0.113.9"),
        ("10.0.0.1", ["198.51.100.1", "203.0.113.9"], ["10.0.0.0/24"], "203.0.113.9"),  # two headers
        ("10.0.0.1", ["10.0.0.3, 10.0.0.2"], ["10.0.0.0/24"], "10.0.0.3"),  # all trusted: the first
        ("::ffff:10.0.0.1", ["203.0.113.9"], ["10.0.0.0/24"], "203.0.113.9"),
        ("10.0.0.1", [], ["10.0.0.0/24"], "10.0.0.1"),
        ("192.0.2.5", ["203.0.113.9"], ["10.0.0.0/24"], "192.0.2.5"),  # not a trusted peer
        ("10.0.0.1", ["203.0.113.9"], [], "10.0.0.1"),  # none trusted (the default)
        ("10.0.0.1", ["2001:db8:0:7::99"], ["10.0.0.0/24"], "2001:db8:0:7::/64"),
    ],
)
def test_the_client_behind_trusted_proxies_is_read_as_uvicorn_reads_it(
    peer: str, forwarded: list[str], proxies: list[str], client: str
) -> None:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    scope = {"type": "http", "client": (peer, 5000), "headers": headers}
    assert client_address(scope, proxies=trusted_networks(proxies)) == throttled_as(client)
