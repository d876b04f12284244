"""The phone build's connection to a club server (scorer/web/browser_transport.py) on the host:
a stand-in for the browser's synchronous XMLHttpRequest that forwards to the club server
in-process, so the one sync client runs over it unchanged; a request the browser refuses
(CORS, no network) is a server out of reach. The same code runs in Chromium in
tests/test_web_build_sync.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sync_kit import URL, league_fact_ids, play, server_client
from test_web_records import opened as browser_store

from scorer.league.store import Store
from scorer.league.sync import SyncError, sync
from scorer.ui.club_sync import ClubSync
from scorer.web.browser_transport import BrowserTransport, browser_transport
from scorer.web.records import MemoryRecords


class FakeRequest:
    """What the worker's XMLHttpRequest does, over the club server's TestClient."""

    def __init__(self, client: Any, *, fail: str | None = None, status_zero: bool = False) -> None:
        self.client, self.fail, self.status_zero = client, fail, status_zero
        self.headers: dict[str, str] = {}
        self.status = 0
        self.responseText = ""
        self.answer_headers: dict[str, str] = {}
        self.timeout = 0

    def open(self, method: str, url: str, asynchronous: bool) -> None:
        assert asynchronous is False  # the worker waits for the answer
        self.method, self.url = method, url

    def setRequestHeader(self, name: str, value: str) -> None:
        self.headers[name] = value

    def send(self, data: str | None) -> None:
        if self.fail:
            raise RuntimeError(f"JsException: NetworkError: {self.fail}")
        if self.status_zero:
            return
        parts = urlsplit(self.url)
        answer = self.client.request(
            self.method,
            parts.path + (f"?{parts.query}" if parts.query else ""),
            content=data,
            headers=self.headers,
        )
        self.status, self.responseText = answer.status_code, answer.text
        self.answer_headers = dict(answer.headers)

    def getResponseHeader(self, name: str) -> str | None:
        return self.answer_headers.get(name.lower())


def test_the_sync_client_runs_over_the_browsers_request(tmp_path: Path) -> None:
    server = Store.memory()
    client = server_client(server)
    phone = browser_store(MemoryRecords(), tmp_path)
    league = phone.create_league("Club").id
    play(phone, league, ["Anna", "Bea"], 2)
    made: list[FakeRequest] = []

    def new_request() -> FakeRequest:
        made.append(FakeRequest(client))
        return made[-1]

    report = sync(
        phone, BrowserTransport(URL, client.secrets["director"], new_request=new_request), league=league
    )
    assert report.sent == len(league_fact_ids(phone, league))
    assert league_fact_ids(server, league) == league_fact_ids(phone, league)
    assert made[0].headers["Authorization"] == f"Bearer {client.secrets['director']}"
    assert {r.headers.get("Content-Type") for r in made if r.method == "POST"} == {"application/json"}
    assert made[0].timeout == 30_000
    assert phone.sync_mark(URL, league)[0] == phone.position  # kept in the browser's records


def test_a_request_the_browser_refuses_is_a_server_out_of_reach(tmp_path: Path) -> None:
    client = server_client(Store.memory())
    phone = browser_store(MemoryRecords(), tmp_path)
    league = phone.create_league("Club").id
    for request in (
        FakeRequest(client, fail="Failed to execute 'send' on 'XMLHttpRequest'"),
        FakeRequest(client, status_zero=True),
    ):
        transport = BrowserTransport(URL, "rk_token_1234", new_request=lambda r=request: r)
        with pytest.raises(SyncError) as refused:
            sync(phone, transport, league=league)
        assert refused.value.message.code == "sync.unreachable"
        assert URL in str(refused.value)


def test_offline_the_sync_on_its_own_waits_and_coming_online_tries_at_once(tmp_path: Path) -> None:
    phone = browser_store(MemoryRecords(), tmp_path)
    league = phone.create_league("Club").id
    phone.set_club_server("https://club.test", "rk_token_1234", league)
    online = [False]
    now = [100.0]
    club = ClubSync(
        phone, transport_for=browser_transport, threaded=False, online=lambda: online[0], clock=lambda: now[0]
    )
    play(phone, league, ["Anna", "Bea"], 1)
    club.changed()
    assert club.due_in() > 0
    online[0] = True
    club.came_online()
    assert club.due_in() == 0


def test_two_folder_stores_and_a_phone_edit_one_league_apart_and_end_alike(tmp_path: Path) -> None:
    """The issue's sync test: two folder stores and the phone build's store edit the same
    league offline, then sync through a club server: every store ends with the same facts and
    the same reads; then the same deal of one game recorded on a folder store and on the phone
    is reported as a conflict on both, and neither side's deal is lost."""
    from store_deals import rommi_deal
    from sync_kit import ClientTransport, reads

    server = Store.memory()
    client = server_client(server)
    league = server.create_league("Club").id
    shared = play(server, league, ["Anna", "Bea", "Cecilia"], 2)
    a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
    phone = browser_store(MemoryRecords(), tmp_path / "phone")
    secret = client.secrets["scorer"]

    def transport(store: Store) -> Any:
        if store is phone:
            return BrowserTransport(URL, secret, new_request=lambda: FakeRequest(client))
        return ClientTransport(client, "scorer")

    def everyone() -> dict[str, list[Any]]:
        found: dict[str, list[Any]] = {"a": [], "b": [], "phone": []}
        for _ in range(2):  # the second round brings each what the others sent after it
            for name, device in (("a", a), ("b", b), ("phone", phone)):
                found[name].append(sync(device, transport(device), league=league))
        return found

    everyone()
    players = ("Anna", "Bea", "Cecilia")
    a.add_deal(shared, rommi_deal(players, 0, [0, 1]))  # offline, apart
    play(b, league, ["Anna", "Bea"], 2, seed=3)
    play(phone, league, ["Bea", "Cecilia"], 1, seed=4)
    assert all(r.conflicts == [] for rs in everyone().values() for r in rs)
    ids = [league_fact_ids(s, league) for s in (server, a, b, phone)]
    assert all(found == ids[0] for found in ids[1:])
    assert reads(a) == reads(server) == reads(b) == reads(phone)
    assert len(phone.games(league=league)) == 3

    a.add_deal(shared, rommi_deal(players, 2, [0, 2]))  # the same deal 4 of the same game, apart
    phone.add_deal(shared, rommi_deal(players, 3, [2, 0]))
    found = everyone()
    assert {c.get("game") for c in found["phone"][0].conflicts} == {shared}
    assert found["phone"][0].not_applied >= 1
    fourth = [s.game(shared).document["deals"][3] for s in (a, phone)]
    assert fourth[0] != fourth[1]  # each side keeps its own: nothing merged in silence, nothing lost
    assert server.game(shared).document["deals"][3] == fourth[0]  # a synced first
