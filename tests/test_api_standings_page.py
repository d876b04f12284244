"""The public standings page (``rummy app --public-standings``): plain HTML, every name escaped,
the store's own figures, English or Finnish, no route that writes, and 404 when it is off."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scorer.api.standings_page import standings_router
from scorer.league.store import Store
from scorer.ui import serving

GIN_50 = {"target": 50}
HOSTILE = "<script>alert('x')</script> & Bob"
CODE = "K7MPQ2XA"


def trivial_main(page: ft.Page) -> None:
    page.add(ft.Text("at the table"))


@pytest.fixture()
def store() -> Store:
    """A league with a player whose name is markup, and two finished games of gin."""
    store = Store.memory()
    league = store.create_league("Friday <club>", season="Autumn & Winter")
    for winner, loser in (("Anna", HOSTILE), ("Anna", HOSTILE)):
        game = store.start_game(ruleset="gin", players=[winner, loser], options=GIN_50, league=league.id)
        store.add_deal(game.id, {"knocker": winner, "deadwood": {winner: 0, loser: 30}})
    return store


def client_of(store: Store) -> TestClient:
    app = FastAPI()
    app.include_router(standings_router(store))
    return TestClient(app)


def cells(page: str) -> list[list[str]]:
    """The rows of the page's tables, each cell's text unescaped."""
    rows = re.findall(r"<tr>(.*?)</tr>", page)
    return [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)] for row in rows if "<td>" in row]


def test_the_leagues_are_listed_with_links_and_their_names_escaped(store: Store) -> None:
    answer = client_of(store).get("/standings/")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    league = store.leagues()[0]
    assert "Friday &lt;club&gt;" in answer.text and "<club>" not in answer.text
    assert f'href="/standings/{league.id}?lang=en"' in answer.text
    assert client_of(store).get("/standings").status_code == 200
    empty = client_of(Store.memory()).get("/standings/")
    assert empty.status_code == 200 and "no leagues yet" in empty.text


def test_the_standings_are_the_stores_own_figures_every_name_escaped(store: Store) -> None:
    league = store.leagues()[0]
    answer = client_of(store).get(f"/standings/{league.id}")
    assert answer.status_code == 200
    page = answer.text
    assert "<script" not in page.lower() and HOSTILE not in page
    assert html.escape(HOSTILE) in page and "Friday &lt;club&gt;: standings" in page
    names = {p.id: p.name for p in store.players()}
    expected = [
        [
            str(place),
            names[r.player],
            str(r.games),
            str(r.wins),
            str(r.deals),
            str(r.deals_won),
            str(r.points),
            f"{r.rating:.1f}" + ("?" if r.provisional else "") if r.rating is not None else "–",
        ]
        for place, r in enumerate(store.standings(league.id), start=1)
    ]
    assert cells(page) == expected
    assert expected[0][1] == "Anna" and expected[0][3] == "2"  # the store's: Anna won both
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    # the league by name too, and one season of it
    by_name = client_of(store).get("/standings/friday <club>", params={"season": "Autumn & Winter"})
    assert by_name.status_code == 200 and cells(by_name.text) == expected
    assert "Season Autumn &amp; Winter" in by_name.text


def test_english_or_finnish_by_the_browser_or_the_query(store: Store) -> None:
    league = store.leagues()[0].id
    client = client_of(store)
    english = client.get(f"/standings/{league}")
    assert '<html lang="en">' in english.text and "Read-only" in english.text
    finnish = client.get(f"/standings/{league}", headers={"Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5"})
    assert '<html lang="fi">' in finnish.text
    assert "sarjataulukko" in finnish.text and "pelaaja" in finnish.text
    assert cells(finnish.text) == cells(english.text)
    asked = client.get(f"/standings/{league}?lang=fi", headers={"Accept-Language": "en"})
    assert '<html lang="fi">' in asked.text and "Liigat" in client.get("/standings/?lang=fi").text
    german = client.get(f"/standings/{league}?lang=de", headers={"Accept-Language": "de"})
    assert '<html lang="en">' in german.text


def test_an_unknown_league_or_season_is_404_quoting_it_escaped(store: Store) -> None:
    client = client_of(store)
    answer = client.get("/standings/<b>Nobody</b>")
    assert answer.status_code == 404
    assert "&lt;b&gt;Nobody&lt;/b&gt;" in answer.text and "<b>" not in answer.text
    league = store.leagues()[0].id
    assert client.get(f"/standings/{league}", params={"season": "Summer"}).status_code == 404


def test_a_league_with_no_finished_game_says_so() -> None:
    store = Store.memory()
    store.create_league("Club")
    answer = client_of(store).get("/standings/Club")
    assert answer.status_code == 200 and "no finished games yet" in answer.text and cells(answer.text) == []


def test_there_is_no_route_that_writes(store: Store) -> None:
    client = client_of(store)
    league = store.leagues()[0].id
    before = store.position
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        for path in ("/standings/", f"/standings/{league}"):
            assert client.request(method, path, json={"name": "x"}).status_code == 405, (method, path)
    assert client.head(f"/standings/{league}").status_code == 200
    assert store.position == before


def app_of(tmp_path: Path, *, standings: Store | None, code: str | None = CODE) -> Any:
    return serving.build_app(trivial_main, code=code, icon_cache=tmp_path / "icons", standings=standings)


def test_turned_on_the_page_is_served_in_front_of_the_access_gate(store: Store, tmp_path: Path) -> None:
    with TestClient(app_of(tmp_path, standings=store)) as client:
        assert client.get("/").status_code == 403  # the app itself still needs the code
        answer = client.get("/standings/")
        assert answer.status_code == 200 and "Friday &lt;club&gt;" in answer.text
        assert client.get(f"/standings/{store.leagues()[0].id}").status_code == 200


@pytest.mark.parametrize("code", [CODE, None])
def test_off_by_default_every_standings_path_is_404(tmp_path: Path, code: str | None) -> None:
    with TestClient(app_of(tmp_path, standings=None, code=code)) as client:
        for path in ("/standings", "/standings/", "/standings/Club"):
            assert client.get(path).status_code == 404, path
        assert client.get("/").status_code == (403 if code else 200)


def test_rummy_app_public_standings_reaches_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from scorer import cli
    from scorer.ui import serve as serve_module

    real_serve = serve_module.serve
    asked: list[dict[str, Any]] = []
    monkeypatch.setattr(serve_module, "serve", lambda **options: asked.append(options))
    assert cli.main(["app", "--db", str(tmp_path / "league"), "--public-standings"]) == 0
    assert cli.main(["app", "--db", str(tmp_path / "league")]) == 0
    assert [options["public_standings"] for options in asked] == [True, False]

    served: list[dict[str, Any]] = []
    monkeypatch.setattr(serving, "serve", lambda main, **options: served.append(options))
    monkeypatch.setattr(serving, "check_port", lambda host, port: None)
    for public in (True, False):
        real_serve(host="127.0.0.1", port=8550, db=tmp_path / "league", public_standings=public)
    assert isinstance(served[0]["standings"], Store) and served[1]["standings"] is None
