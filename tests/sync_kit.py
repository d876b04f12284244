"""What the sync tests share: a club server's API on a store, reached in-process (FastAPI's
TestClient as the transport) or cut off after some requests, and a league's facts and reads
as every store must end with them."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.testclient import TestClient
from store_deals import rommi_deal
from store_reads import public_reads

from scorer.api.app import api_app
from scorer.league.store import Store
from scorer.league.sync import API_PATH, Reply
from scorer.league.tokens import Action, Role, TokenInfo, may

URL = "http://club.test"


class SecretsGate:
    """A gate over a table of secrets (the store's tokens stand in for it once they exist)."""

    def __init__(self, tokens: dict[str, TokenInfo]) -> None:
        self.tokens = tokens

    def check(self, request: Request, action: Action) -> TokenInfo:
        secret = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        found = self.tokens.get(secret)
        if found is None:
            raise HTTPException(401, detail="no such token")
        if not may(found.role, action):
            raise HTTPException(403, detail=f"a {found.role} token may not {action}")
        return found


TOKENS = {
    "director-secret": TokenInfo("director", Role.DIRECTOR, "2026-12-07T00:00:00+00:00"),
    "tablet-secret": TokenInfo("tablet 1", Role.SCORER, "2026-12-07T00:00:00+00:00"),
    "phone-secret": TokenInfo("phone", Role.VIEWER, "2026-12-07T00:00:00+00:00"),
}


def server_client(store: Store, *, cors_origins: tuple[str, ...] = ()) -> TestClient:
    return TestClient(api_app(store, SecretsGate(TOKENS), cors_origins=cors_origins))


class ClientTransport:
    """The sync API reached through a TestClient (no sockets)."""

    def __init__(self, client: TestClient, token: str = "director-secret", *, url: str = URL) -> None:
        self.client = client
        self.token = token
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
    """Every public read but the one that is not the store's data: an export's own time."""
    found = public_reads(store)
    return found
