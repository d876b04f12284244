"""What the sync tests share: a club server's API on a store, reached in-process (FastAPI's
TestClient as the transport) or cut off after some requests, and a league's facts and reads
as every store must end with them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from store_deals import rommi_deal
from store_reads import public_reads

from scorer.api.app import api_app
from scorer.api.auth import TokenGate
from scorer.league.store import Store
from scorer.league.sync import API_PATH, Reply
from scorer.league.tokens import Role

URL = "http://club.test"


def tokens(store: Store) -> dict[str, str]:
    """A director's, a scorer's and a viewer's token on the server's store: their secrets."""
    made = {}
    for name, role in (("director", Role.DIRECTOR), ("tablet 1", Role.SCORER), ("phone", Role.VIEWER)):
        _, made[role.value] = store.add_token(name, role)
    return made


def server_client(store: Store, *, cors_origins: tuple[str, ...] = ()) -> TestClient:
    """The server's API on ``store`` in-process; its tokens' secrets as ``client.secrets``."""
    secrets = tokens(store) if not store.tokens() else SECRETS[id(store)]
    SECRETS[id(store)] = secrets
    client = TestClient(api_app(store, TokenGate(store), cors_origins=cors_origins))
    client.secrets = secrets  # type: ignore[attr-defined]
    return client


#: Each server store's secrets, by the store object's id (made once per store).
SECRETS: dict[int, dict[str, str]] = {}


class ClientTransport:
    """The sync API reached through a TestClient (no sockets)."""

    def __init__(self, client: TestClient, role: str = "director", *, url: str = URL) -> None:
        self.client = client
        self.token = client.secrets.get(role, role)  # type: ignore[attr-defined]
        self.url = url
        self.calls: list[tuple[str, str]] = []

    def send(self, method: str, path: str, body: Any) -> Reply:
        self.calls.append((method, path))
        answer = self.client.request(
            method, API_PATH + path, json=body, headers={"Authorization": f"Bearer {self.token}"}
        )
        return Reply(
            answer.status_code, answer.json() if answer.content else None, answer.headers.get("retry-after")
        )


class CutTransport:
    """A transport whose connection drops at request ``cut`` (counted from 0): the request
    reaches the server and its answer is lost (``after=True``), or it never leaves."""

    def __init__(self, inner: ClientTransport, *, cut: int, after: bool) -> None:
        self.inner = inner
        self.url = inner.url
        self.cut = cut
        self.after = after
        self.count = 0

    def send(self, method: str, path: str, body: Any) -> Reply:
        number = self.count
        self.count += 1
        if number == self.cut:
            if self.after:
                self.inner.send(method, path, body)
            raise ConnectionResetError(104, "Connection reset by peer")
        return self.inner.send(method, path, body)


def league_fact_ids(store: Store, league: str) -> set[str]:
    commits, _ = store.league_commits(league, 0)
    return {f.id for c in commits for f in c.facts}


def play(store: Store, league: str, players: list[str], deals: int, *, seed: int = 0) -> str:
    """A new rommi game in the league with ``deals`` deals; its id."""
    game = store.start_game(ruleset="rommi", players=players, league=league)
    for number in range(deals):
        store.add_deal(game.id, rommi_deal(tuple(players), seed + number, [number, seed]))
    return game.id


def reads(store: Store) -> dict[str, Any]:
    """Every public read of the store (:func:`store_reads.public_reads`): two stores with the
    same facts answer alike."""
    return public_reads(store)
