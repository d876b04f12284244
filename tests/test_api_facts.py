"""The club server's sync API (scorer/api/facts.py): pages and positions, a bad page refused
whole, the token's role checked for every kind of fact a page brings, CORS for the phone
build's origin, ``/api/`` in front of the app's access gate, and ``rummy league sync`` against
a real server on loopback."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from sync_kit import league_fact_ids, play, server_client

from scorer.api.app import api_app
from scorer.api.auth import TokenGate
from scorer.league.store import Store
from scorer.league.sync import HttpTransport, sync


def _auth(client: Any, role: str = "director") -> dict[str, str]:
    return {"Authorization": f"Bearer {client.secrets[role]}"}


def _club() -> tuple[Store, str]:
    server = Store.memory()
    league = server.create_league("Friday club").id
    for seed in range(5):
        play(server, league, ["Anna", "Bea"], 2, seed=seed)
    return server, league


def test_the_facts_come_in_pages_of_whole_commits_from_a_position() -> None:
    server, league = _club()
    client = server_client(server)
    assert client.get("/api/v1/leagues", headers=_auth(client, "viewer")).json() == {
        "leagues": [{"id": league, "name": "Friday club"}]
    }
    seen: list[str] = []
    after, pages = 0, 0
    while True:
        answer = client.get(
            f"/api/v1/leagues/{league}/facts?after={after}&limit=4", headers=_auth(client, "viewer")
        )
        assert answer.status_code == 200
        page = answer.json()
        assert len(page["facts"]) <= 4 + (after == 0)  # the first page leads with the league's making
        assert page["position"] > after or not page["more"]
        seen.extend(f["id"] for f in page["facts"])
        after, pages = page["position"], pages + 1
        if not page["more"]:
            break
    assert after == server.position and pages > 3
    assert set(seen) == league_fact_ids(server, league)
    assert seen[0] == next(f.id for f in server.facts_since(0) if f.kind == "league.created")
    rest = client.get(f"/api/v1/leagues/{league}/facts?after={after}", headers=_auth(client)).json()
    assert rest == {"facts": [], "position": after, "more": False}
    assert client.get(f"/api/v1/leagues/{league}/facts?limit=0", headers=_auth(client)).status_code == 422
    missing = client.get("/api/v1/leagues/no-such-league/facts", headers=_auth(client))
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "store.no_league"


def test_a_page_with_a_bad_fact_is_refused_whole_naming_the_fact() -> None:
    server, league = _club()
    client = server_client(server)
    device = Store.memory()
    sync(device, _InProcess(client), league=league)
    game = play(device, league, ["Anna", "Bea"], 2)
    commits, _ = device.league_commits(league, device.sync_mark("http://testserver", league)[0])
    facts = [f.to_json() for c in commits for f in c.facts]
    assert any(f["game"] == game for f in facts)
    position = server.position
    bad = [*facts[:-1], {**facts[-1], "number": "three"}]
    answer = client.post(f"/api/v1/leagues/{league}/facts", json={"facts": bad}, headers=_auth(client))
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert detail["code"] == "store.import_bad_fact"
    assert "deal.recorded" in detail["text"] and "number" in detail["text"]
    assert server.position == position and game not in {g.id for g in server.games()}  # nothing applied
    for body, code in (
        (b"{not json", "sync.page_not_json"),
        (b'{"facts": {}}', "sync.page_no_facts"),
        (b'{"facts": [1]}', "facts.not_a_fact"),
        (json.dumps({"facts": [{}] * 2001}).encode(), "sync.page_too_big"),
    ):
        refused = client.post(f"/api/v1/leagues/{league}/facts", content=body, headers=_auth(client))
        assert (refused.status_code, refused.json()["detail"]["code"]) == (400, code)
    assert server.position == position


def test_each_role_sends_only_what_it_may() -> None:
    server, league = _club()
    client = server_client(server)
    device = Store.memory()
    sync(device, _InProcess(client), league=league)
    night = device.start_night(league, players=["Anna", "Bea", "Cecilia", "Dora"], ruleset="rommi", seed=3)
    commits, _ = device.league_commits(league, device.sync_mark("http://testserver", league)[0])
    page = {"facts": [f.to_json() for c in commits for f in c.facts]}
    url = f"/api/v1/leagues/{league}/facts"
    viewer = client.post(url, json=page, headers=_auth(client, "viewer"))
    assert viewer.status_code == 403 and viewer.json()["detail"]["code"] == "api.token_forbidden"
    scorer = client.post(url, json=page, headers=_auth(client, "scorer"))  # a night is the director's
    assert scorer.status_code == 403 and "direct" in scorer.json()["detail"]["text"]
    assert night.id not in {n.id for n in server.nights(league)}
    director = client.post(url, json=page, headers=_auth(client, "director"))
    assert director.status_code == 200 and director.json()["added"] == len(page["facts"])
    assert night.id in {n.id for n in server.nights(league)}
    assert server.commits_since(0)[-1].sender == "director"
    again = client.post(url, json=page, headers=_auth(client, "scorer"))  # facts it has: nothing asked
    assert again.status_code == 200 and again.json()["added"] == 0
    known = client.post(url, json=page, headers=_auth(client, "viewer"))  # a viewer sends back what it has
    assert known.status_code == 200 and known.json()["added"] == 0
    assert client.get("/api/v1/leagues").status_code == 401


def test_cors_answers_only_the_origins_given() -> None:
    server, _ = _club()
    client = server_client(server, cors_origins=("https://phone.club.example",))
    asked = {"Origin": "https://phone.club.example", "Access-Control-Request-Method": "POST"}
    preflight = client.options(
        "/api/v1/leagues", headers={**asked, "Access-Control-Request-Headers": "authorization"}
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "https://phone.club.example"
    other = client.get("/api/v1/leagues", headers={"Origin": "https://elsewhere.example", **_auth(client)})
    assert "access-control-allow-origin" not in other.headers
    plain = server_client(Store.memory())
    assert "access-control-allow-origin" not in plain.options("/api/v1/leagues", headers=asked).headers


def test_the_api_is_in_front_of_the_access_gate() -> None:
    from starlette.testclient import TestClient

    from scorer.ui.gate import AccessGate
    from scorer.ui.serving import ApiInFront

    async def page(scope: Any, receive: Any, send: Any) -> None:
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
        )
        await send({"type": "http.response.body", "body": b"the app"})

    server, _ = _club()
    _, secret = server.add_token("tablet", "viewer")
    app = ApiInFront(api_app(server, TokenGate(server)), AccessGate(page, code="TABLE42X"))
    client = TestClient(app, base_url="http://192.168.1.20:8550")
    assert client.get("/api/v1/leagues", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
    assert client.get("/api/v1/leagues").status_code == 401  # tokens, not the code, guard it
    assert client.get("/", follow_redirects=False).status_code != 200  # the app still asks the code
    assert client.get("/?code=TABLE42X").text == "the app"


class _InProcess(HttpTransport):
    """The HTTP transport's URL with a TestClient underneath (the marks key on the URL)."""

    def __init__(self, client: Any) -> None:
        super().__init__("http://testserver", client.secrets["director"])
        self.client = client

    def send(self, method: str, path: str, body: Any) -> Any:
        from scorer.league.sync import API_PATH, Reply

        answer = self.client.request(method, API_PATH + path, json=body, headers=_auth(self.client))
        return Reply(answer.status_code, answer.json() if answer.content else None)


# -- over a real server on loopback ------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture()
def live_server() -> Iterator[tuple[str, Store, Any]]:
    server, _ = _club()
    client = server_client(server)  # makes the tokens
    port = _free_port()
    config = uvicorn.Config(
        api_app(server, TokenGate(server)), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", server, client.secrets
    finally:
        running.should_exit = True
        thread.join(timeout=20)


def test_two_folders_sync_over_http_on_loopback(tmp_path: Path, live_server: tuple[str, Store, Any]) -> None:
    url, server, secrets = live_server
    league = server.leagues()[0].id
    a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
    for device in (a, b):
        sync(device, HttpTransport(url, secrets["scorer"]), league="Friday club")
    play(a, league, ["Anna", "Bea"], 2, seed=7)
    play(b, league, ["Bea", "Anna"], 1, seed=8)
    for device in (a, b, a):
        sync(device, HttpTransport(url, secrets["scorer"]), league=league, limit=3)
    assert league_fact_ids(a, league) == league_fact_ids(b, league) == league_fact_ids(server, league)
    assert {c.sender for c in server.commits_since(0)} == {None, "tablet 1"}


def test_rummy_league_sync_json_against_a_real_server(
    tmp_path: Path, live_server: tuple[str, Store, Any], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    from scorer.cli import main

    url, server, secrets = live_server
    folder = str(tmp_path / "device")
    argv = ["league", "sync", "--db", folder, "--with", url, "--league", "Friday club", "--json"]
    assert main([*argv, "--token", secrets["director"]]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["sent"] == 0 and first["received"] == len(league_fact_ids(server, first["league"]))
    assert first["conflicts"] == [] and first["not_applied"] == 0
    play(Store.open(folder), first["league"], ["Anna", "Bea"], 2)
    monkeypatch.setenv("RUMMY_SYNC_TOKEN", secrets["scorer"])
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert second == {"league": first["league"], "sent": 3, "received": 0, "conflicts": [], "not_applied": 0}

    assert main(["--lang", "fi", *argv[:-1]]) == 0  # in words, in Finnish
    assert "lähetetty 0 tapahtumaa, vastaanotettu 0" in capsys.readouterr().out

    monkeypatch.delenv("RUMMY_SYNC_TOKEN")
    assert main([*argv, "--token", "rst_wrong"]) == 2
    said = capsys.readouterr()
    assert json.loads(said.out)["code"] == "sync.bad_token"
    assert "(401)" in said.err and len(said.err.strip().splitlines()) == 1
    assert main(argv) == 2
    assert "RUMMY_SYNC_TOKEN" in capsys.readouterr().err
    assert main(["league", "sync", "--db", folder, "--with", "http://127.0.0.1:9", "--token", "x"]) == 2
    assert "cannot reach the club server http://127.0.0.1:9" in capsys.readouterr().err


class _HoldSecondPage:
    """In front of the API: the second page of facts asked for is held until released, and
    says so (a test kills the syncing program while it waits)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.pages = 0
        self.asked = threading.Event()
        self.release = threading.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        import asyncio

        if scope["type"] == "http" and scope["method"] == "GET" and scope["path"].endswith("/facts"):
            self.pages += 1
            if self.pages == 2:
                self.asked.set()
                while not self.release.is_set():
                    await asyncio.sleep(0.05)
        await self.app(scope, receive, send)


def test_a_sync_killed_midway_goes_on_from_its_marks(tmp_path: Path) -> None:
    """``rummy league sync`` killed (SIGKILL) while it waits for the second page: the first
    page is applied and marked; run again, it asks from there and ends with every fact once."""
    import os
    import signal
    import subprocess
    import sys

    server = Store.memory()
    league = server.create_league("Friday club").id
    for seed in range(160):
        play(server, league, ["Anna", "Bea"], 3, seed=seed)  # 640 facts and more: two pages
    client = server_client(server)
    held = _HoldSecondPage(api_app(server, TokenGate(server)))
    port = _free_port()
    running = uvicorn.Server(uvicorn.Config(held, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    folder = tmp_path / "device"
    try:
        while not running.started:
            time.sleep(0.05)
        rummy = Path(sys.executable).with_name("rummy")
        argv = [str(rummy), "league", "sync", "--db", str(folder), "--with", url, "--league", league]
        env = {**os.environ, "RUMMY_SYNC_TOKEN": client.secrets["viewer"]}
        process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert held.asked.wait(60), "the second page was never asked for"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=20)
        held.release.set()
        device = Store.open(folder)
        first = len(league_fact_ids(device, league))
        sent, received = device.sync_mark(url, league)
        assert 0 < first < len(league_fact_ids(server, league)) and received > 0 and sent == 0
        report = sync(device, HttpTransport(url, client.secrets["viewer"]), league=league)
        assert report.received == len(league_fact_ids(server, league)) - first  # nothing twice
        every = [f.id for c in device.commits_since(0) for f in c.facts]
        assert len(every) == len(set(every))
        assert league_fact_ids(device, league) == league_fact_ids(server, league)
    finally:
        held.release.set()
        running.should_exit = True
        thread.join(timeout=20)
