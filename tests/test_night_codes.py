"""A club night's access codes per role: derived from the store's secret, let in by the gate with
their role, enforced on the store each session uses and on the routes (docs/serving.md)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from scorer.cli import main
from scorer.league.night_codes import (
    ALPHABET,
    CODE_LENGTH,
    EVERYTHING,
    Grant,
    derive,
    grant_for,
    night_codes,
    store_grant,
    table_games,
)
from scorer.league.store import Store
from scorer.league.token_book import CODES_KEY_NAME
from scorer.league.tokens import Role
from scorer.messages import Message
from scorer.throttle import FREE_TRIES, Throttle
from scorer.ui import gate
from scorer.ui.gate import CODE_ALPHABET, COOKIE_NAME, AccessGate, Sessions, request_grant
from scorer.ui.roles import (
    LOOKS_ONLY,
    Access,
    AccessRefused,
    guarded,
    night_links,
    own_link,
    route_refusal,
    session_grant,
)

TWELVE = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kai", "Lea"]
SHORT = {"target": 30}  # rommi to 30: one deal ends a game
CLUB_CODE = "K7MPQ2XA"


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    store = Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")
    store.create_league("Club")
    yield store


def three_tables(store: Store) -> Any:
    """A night of three tables of four."""
    return store.start_night("Club", players=TWELVE, ruleset="rommi", seed=3, options=SHORT)


def a_deal(store: Store, game_id: str) -> dict[str, Any]:
    players = list(store.game(game_id).document["players"])
    return {"hands": dict(zip(players, ["", "KS AH *", "QD", "KH QH JH"], strict=False)), "out": players[0]}


# -- derivation --------------------------------------------------------------------------------


def test_codes_are_stable_distinct_and_of_the_gates_alphabet() -> None:
    secret = os.urandom(32)
    assert ALPHABET == CODE_ALPHABET  # the app's own codes' alphabet: no look-alike characters
    roles = ((Role.DIRECTOR, None), (Role.VIEWER, None), *((Role.SCORER, t) for t in range(1, 9)))
    codes = [
        derive(secret, night=night, role=role, table=table) for night in ("n1", "n2") for role, table in roles
    ]
    assert len(set(codes)) == len(codes) == 20
    assert all(len(code) == CODE_LENGTH and set(code) <= set(ALPHABET) for code in codes)
    assert not set("0O1IL") & set("".join(codes))
    again = [
        derive(secret, night=night, role=role, table=table) for night in ("n1", "n2") for role, table in roles
    ]
    assert again == codes
    other_store = derive(os.urandom(32), night="n1", role=Role.VIEWER)
    assert other_store != derive(secret, night="n1", role=Role.VIEWER)


def test_a_store_keeps_one_secret_beside_its_facts(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    secret = store.code_secret()
    assert len(secret) == 32 and store.code_secret() == secret
    key = tmp_path / "league" / CODES_KEY_NAME
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert Store.open(tmp_path / "league").code_secret() == secret  # another program agrees
    facts = (tmp_path / "league" / "facts.jsonl").read_text()
    assert secret.hex() not in facts


def test_a_damaged_secret_is_refused_not_replaced(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    (tmp_path / "league" / CODES_KEY_NAME).write_text("not hex\n")
    with pytest.raises(Exception, match="secret of the night codes"):
        store.code_secret()


def test_postgresql_keeps_one_secret_for_every_process(pg_address: str) -> None:
    one = Store.open(pg_address)
    two = Store.open(pg_address)
    try:
        assert one.code_secret() == two.code_secret() and len(one.code_secret()) == 32
    finally:
        one.close()
        two.close()


def test_every_code_of_the_night_has_its_grant(store: Store) -> None:
    night = three_tables(store)
    codes = night_codes(store.code_secret(), night)
    assert [table for table, _ in codes.tables] == [1, 2, 3]
    assert store_grant(store, codes.director) == Grant(Role.DIRECTOR, night.id)
    assert store_grant(store, codes.viewer.lower()) == Grant(Role.VIEWER, night.id)
    assert store_grant(store, f" {codes.table(2)} ") == Grant(Role.SCORER, night.id, 2)
    assert store_grant(store, "AAAAAAAA") is None and store_grant(store, "") is None
    other = store.start_night("Club", players=TWELVE[:4], ruleset="rommi", seed=1)
    assert night_codes(store.code_secret(), other).viewer != codes.viewer
    assert grant_for(store.code_secret(), [other], codes.viewer) is None


# -- the role table, on the store a session uses ----------------------------------------------


def test_a_table_code_records_its_own_table_only(store: Store) -> None:
    night = three_tables(store)
    one, two = night.rounds[0].tables[0].game, night.rounds[0].tables[1].game
    session = guarded(store, Access(Grant(Role.SCORER, night.id, 1)))
    assert session.add_deal(one, a_deal(store, one), by="Table 1").id == one
    with pytest.raises(AccessRefused) as refused:
        session.add_deal(two, a_deal(store, two), by="Table 1")
    assert refused.value.message.code == "access.table" and refused.value.message.params["table"] == 1
    finnish = "tämä koodi on pöydän 1: sillä voi muuttaa vain sen pöydän peliä"
    assert refused.value.message.render("fi") == finnish
    assert store.game(two).game.deals == ()  # refused before the store was asked
    for change in (
        lambda: session.abandon_game(one, by="x"),
        lambda: session.start_game(ruleset="gin", players=["A", "B"]),
        lambda: session.end_night("Club", night=night.id),
        lambda: session.create_league("Other"),
    ):
        with pytest.raises(AccessRefused):
            change()
    assert session.game(two).id == two and session.night_standings("Club", night.id)  # it reads


def test_a_viewer_changes_nothing(store: Store) -> None:
    night = three_tables(store)
    one = night.rounds[0].tables[0].game
    session = guarded(store, Access(Grant(Role.VIEWER, night.id)))
    for change in (
        lambda: session.add_deal(one, a_deal(store, one)),
        lambda: session.remove_deal(one, by="x"),
        lambda: session.flip_coin("Club", night=night.id),
        lambda: session.add_player("Zed"),
        lambda: session.code_secret(),
    ):
        with pytest.raises(AccessRefused) as refused:
            change()
        assert str(refused.value) == "a viewer's code only looks: it cannot change anything"
    assert session.standings("Club") is not None and session.find_night(night.id).id == night.id


def test_the_nights_director_directs_that_night_only(store: Store) -> None:
    night = three_tables(store)
    session = guarded(store, Access(Grant(Role.DIRECTOR, night.id)))
    for seated in night.rounds[0].tables:
        session.add_deal(seated.game, a_deal(store, seated.game), by="Director")
    assert session.next_round("Club", night=night.id).rounds[-1].number == 2
    with pytest.raises(AccessRefused) as refused:
        session.create_league("Other")
    assert refused.value.message.code == "access.night"
    other = store.start_night("Club", players=TWELVE[:4], ruleset="rommi", seed=1)
    with pytest.raises(AccessRefused):
        session.end_night("Club", night=other.id)
    game = other.rounds[0].tables[0].game
    with pytest.raises(AccessRefused):
        session.add_deal(game, a_deal(store, game))


def test_a_table_confirms_disputes_and_calls_at_its_own_table_and_the_director_decides(store: Store) -> None:
    """The deals confirmed at the table and the calls to the director follow the codes: a table's
    code confirms, disputes and calls for its own table's game only; resolving a dispute,
    penalties and answering a call are the night's director's (of that night's calls only)."""
    night = store.start_night("Club", players=TWELVE, ruleset="rommi", seed=3, options={"target": 100_000})
    one, two = night.rounds[0].tables[0].game, night.rounds[0].tables[1].game
    for game in (one, two, one):
        store.add_deal(game, a_deal(store, game), by="Another phone")
    table = guarded(store, Access(Grant(Role.SCORER, night.id, 1)))
    table.confirm_deal(one, 1, by="Table 1")
    table.dispute_deal(one, 2, by="Table 1", why="the count")
    call = table.call_director(one, "rules", by="Table 1")
    player = store.game(one).document["players"][0]
    for refused in (
        lambda: table.confirm_deal(two, 1, by="Table 1"),
        lambda: table.call_director(two, "rules", by="Table 1"),
        lambda: table.resolve_dispute(one, 2, keep="saved", why="as saved", by="Table 1"),
        lambda: table.penalise(one, player, 5, why="slow play", by="Table 1"),
        lambda: table.answer_call(call.id, "done", by="Table 1"),
    ):
        with pytest.raises(AccessRefused):
            refused()
    director = guarded(store, Access(Grant(Role.DIRECTOR, night.id)))
    assert director.answer_call(call.id, "done", by="Director").answered is not None
    director.penalise(one, player, 5, why="slow play", by="Director")
    other = store.start_night("Club", players=TWELVE[:4], ruleset="rommi", seed=1)
    elsewhere = store.call_director(other.rounds[0].tables[0].game, "rules", by="Another table")
    with pytest.raises(AccessRefused):
        director.answer_call(elsewhere.id, "not mine", by="Director")
    assert not store.calls("Club", other.id)[0].answered  # refused before the store was asked


def test_the_club_code_does_everything(store: Store) -> None:
    session = guarded(store, Access(EVERYTHING))
    night = three_tables(session)
    assert session.create_league("Other").name == "Other" and session.end_night("Club", night=night.id)


def test_a_table_code_follows_its_table_into_the_next_round(store: Store) -> None:
    night = three_tables(store)
    for seated in night.rounds[0].tables:
        store.add_deal(seated.game, a_deal(store, seated.game))
    night = store.next_round("Club", night=night.id)
    now = night.rounds[1].tables[2].game
    assert table_games(night, 3) == [night.rounds[0].tables[2].game, now]
    session = guarded(store, Access(Grant(Role.SCORER, night.id, 3)))
    session.add_deal(now, a_deal(store, now))


# -- routes and links -------------------------------------------------------------------------


def test_routes_a_table_code_may_open(store: Store) -> None:
    night = three_tables(store)
    one, two = night.rounds[0].tables[0].game, night.rounds[0].tables[1].game
    table = Grant(Role.SCORER, night.id, 1)
    assert route_refusal(table, store, f"/game/{one}") is None
    assert route_refusal(table, store, f"/game/{one}/deal") is None
    assert route_refusal(table, store, f"/game/{one}/deal/1") is None
    # the form of a dispute's own version (a table disputes its deals: it was refused)
    assert route_refusal(table, store, f"/game/{one}/dispute/1") is None
    elsewhere_routes = (
        f"/game/{two}",
        f"/game/{two}/deal",
        f"/game/{two}/dispute/1",
        "/",
        "/leagues",
        f"/nights/{night.id}",
        "/settings",
    )
    for elsewhere in elsewhere_routes:
        assert route_refusal(table, store, elsewhere) == ("access.table_only", {"table": 1}, f"/game/{one}")
    viewer = Grant(Role.VIEWER, night.id)
    for looks in ("/", f"/game/{two}", f"/nights/{night.id}", f"/nights/{night.id}/tv", "/leagues/x"):
        assert route_refusal(viewer, store, looks) is None
    assert route_refusal(viewer, store, f"/game/{two}/dispute/1") == (
        "access.viewer_only",
        {},
        f"/game/{two}",
    )
    assert route_refusal(viewer, store, f"/game/{two}/deal") == ("access.viewer_only", {}, f"/game/{two}")
    assert route_refusal(viewer, store, "/game/new") is not None
    assert route_refusal(viewer, store, "/leagues/x/night") is not None
    assert route_refusal(Grant(Role.DIRECTOR, night.id), store, "/game/new") is None


def test_links_carry_the_sessions_own_code_never_the_clubs(store: Store) -> None:
    night = three_tables(store)
    codes = night_codes(store.code_secret(), night)
    base = f"http://192.168.1.20:8550/?code={CLUB_CODE}"
    assert own_link(base, EVERYTHING, store) == base
    viewer = Grant(Role.VIEWER, night.id)
    assert (
        own_link(base, viewer, guarded(store, Access(viewer)))
        == f"http://192.168.1.20:8550/?code={codes.viewer}"
    )
    assert own_link(base, LOOKS_ONLY, store) is None
    assert own_link(None, viewer, store) is None  # loopback: no codes at all
    handed = night_links(base, EVERYTHING, store, night)
    assert handed is not None and handed.viewer_code == codes.viewer
    assert handed.tables[2] == f"http://192.168.1.20:8550/?code={codes.table(2)}"
    assert night_links(base, Grant(Role.DIRECTOR, night.id), guarded(store, Access()), night) == handed
    assert night_links(base, viewer, store, night) is None
    assert night_links(base, Grant(Role.SCORER, night.id, 1), store, night) is None


# -- the gate ---------------------------------------------------------------------------------


def grant_echo() -> Any:
    """An ASGI app that answers with the grant the gate set for the request."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        grant = request_grant()
        body = json.dumps([grant.role.value, grant.night, grant.table]).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    return app


def test_the_gate_gives_each_code_its_role_and_scope(store: Store) -> None:
    night = three_tables(store)
    codes = night_codes(store.code_secret(), night)
    app = AccessGate(grant_echo(), code=CLUB_CODE, grants=lambda given: store_grant(store, given))
    cases = {
        CLUB_CODE: ["director", None, None],
        codes.director: ["director", night.id, None],
        codes.viewer: ["viewer", night.id, None],
        str(codes.table(3)): ["scorer", night.id, 3],
    }
    for code, expected in cases.items():
        with TestClient(app) as client:
            first = client.get(f"/?code={code}")
            assert first.status_code == 200 and first.json() == expected
            assert code not in first.headers["set-cookie"]  # the cookie is no code
            later = client.get("/main.dart.js")  # the cookie alone: the same grant
            assert later.status_code == 200 and later.json() == expected
    assert request_grant() == EVERYTHING  # outside a request: no gate


def test_a_cookies_role_cannot_be_forged(store: Store) -> None:
    night = three_tables(store)
    codes = night_codes(store.code_secret(), night)
    sessions = Sessions(b"s" * 32)
    app = AccessGate(grant_echo(), code=CLUB_CODE, sessions=sessions, grants=lambda g: store_grant(store, g))
    with TestClient(app) as client:
        token = client.get(f"/?code={codes.viewer}").cookies[COOKIE_NAME]
    nonce, role, table, rest = token.split(".", 3)
    assert role == "viewer" and table == "-"
    for forged in (
        f"{nonce}.director.{table}.{rest}",
        f"{nonce}.scorer.2.{rest}",
        f"{nonce}.{role}.{table}.{rest.replace(night.id, 'other')}",
        token[:-1] + ("0" if token[-1] != "0" else "1"),
        sessions.new().replace("director", "viewer"),
    ):
        with TestClient(app) as client:
            client.cookies.set(COOKIE_NAME, forged)
            assert client.get("/").status_code == 403
    assert Sessions(b"t" * 32).grant(token) is None  # another server's secret


def test_wrong_codes_are_still_throttled_and_night_codes_too(store: Store) -> None:
    night = three_tables(store)
    codes = night_codes(store.code_secret(), night)
    asked: list[str] = []

    def grants(given: str) -> Grant | None:
        asked.append(given)
        return store_grant(store, given)

    now = [1000.0]
    app = AccessGate(grant_echo(), code=CLUB_CODE, throttle=Throttle(clock=lambda: now[0]), grants=grants)
    with TestClient(app) as client:
        answers = [client.get(f"/?code=WRONG{n:03d}").status_code for n in range(FREE_TRIES + 1)]
        assert answers[:FREE_TRIES] == [403] * FREE_TRIES and answers[-1] in (403, 429)
        held = client.get(f"/?code={codes.viewer}")  # a right code waits its turn, unlooked at
        assert held.status_code == 429 and "retry-after" in held.headers
        assert codes.viewer not in asked
        now[0] += 3600
        assert client.get(f"/?code={codes.viewer}").status_code == 200


def test_no_grant_in_a_gated_session_looks_only() -> None:
    assert session_grant(gated=True) == LOOKS_ONLY and session_grant(gated=False) == EVERYTHING
    grant = Grant(Role.SCORER, "n1", 2)

    async def inside() -> Grant:
        token = gate.CURRENT_GRANT.set(grant)
        try:
            return await asyncio.create_task(asyncio.sleep(0, result=session_grant(gated=True)))
        finally:
            gate.CURRENT_GRANT.reset(token)

    # on a loop of its own, in a thread of its own: the browser tests' Playwright may hold this one's
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(asyncio.run, inside()).result() == grant


# -- rummy league night codes -----------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def test_cli_night_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "league")
    store = Store.open(db)
    store.create_league("Club")
    night = three_tables(store)
    status, out, _ = run(capsys, "league", "night", "codes", "--league", "Club", "--db", db, "--json")
    assert status == 0
    assert set(out) == {"night", "director", "viewer", "tables"} and out["night"] == night.id
    assert [row["table"] for row in out["tables"]] == [1, 2, 3]
    assert store_grant(store, out["tables"][1]["code"]) == Grant(Role.SCORER, night.id, 2)
    short = night.id[:8]
    again = run(
        capsys, "league", "night", "codes", "--league", "Club", "--night", short, "--db", db, "--json"
    )
    assert again[1] == out  # the same codes every time
    status, text, _ = run(capsys, "league", "night", "codes", "--league", "Club", "--db", db)
    assert status == 0 and f"director (all of the night): {out['director']}" in text
    assert f"table 3 (that table's game only): {out['tables'][2]['code']}" in text
    status, text, _ = run(capsys, "--lang", "fi", "league", "night", "codes", "--league", "Club", "--db", db)
    assert status == 0 and f"katsoja (vain katselu): {out['viewer']}" in text


def test_cli_night_codes_refusals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "league")
    store = Store.open(db)
    store.create_league("Club")
    status, _, err = run(capsys, "league", "night", "codes", "--league", "Club", "--db", db)
    assert status == 2 and "league 'Club' has no club night yet" in err
    three_tables(store)
    status, _, err = run(
        capsys, "league", "night", "codes", "--league", "Club", "--db", db, "--night", "nope"
    )
    assert status == 2 and "nope" in err
    status, _, err = run(capsys, "league", "night", "codes", "--league", "Nobody", "--db", db)
    assert status == 2 and "Nobody" in err


#: The store's changes that need the app's own code (or, for those of a night, its director's):
#: every public method of the store is a read, a game's change, a night's change, or here, so
#: that a method added to the store is classified on purpose (scorer/ui/roles.py).
CLUB_ONLY = {
    "add_facts", "add_player", "add_token", "backup", "close", "close_season", "create_league",
    "import_batch", "import_files", "merge_players", "new_season", "receive_facts", "rename_league",
    "rename_player", "rename_season", "replace_from_backup", "restore", "revoke_token",
    "save_sync_mark", "start_game", "start_night", "token_for", "tokens", "verify", "code_secret",
    "open", "memory", "set_club_server", "clear_club_server", "set_confirmation",
}  # fmt: skip


def test_every_method_of_the_store_is_classified() -> None:
    from scorer.ui.roles import CALL_ANSWERS, GAME_CHANGES, NIGHT_CHANGES, READS

    public = {name for name in dir(Store) if not name.startswith("_")}
    classified = READS | set(GAME_CHANGES) | NIGHT_CHANGES | CALL_ANSWERS | CLUB_ONLY
    assert public - classified == set()
    assert not READS & (set(GAME_CHANGES) | NIGHT_CHANGES | CALL_ANSWERS | CLUB_ONLY)


def test_the_view_models_refuse_with_the_codes_message(store: Store) -> None:
    from scorer.ui.engine_text import engine_text
    from scorer.ui.screens.deal_model import DealModel
    from scorer.ui.screens.night_model import NightModel

    night = three_tables(store)
    two = night.rounds[0].tables[1]
    table_one = guarded(store, Access(Grant(Role.SCORER, night.id, 1)))
    model = DealModel.load(table_one, two.game)
    model.set_out(two.players[0])
    for player, cards in zip(two.players[1:], ["KS", "QD", "KH"], strict=True):
        model.set_cards(player, cards)
    assert model.save(table_one, by="Table 1") is False
    assert list(model.errors.values()) == ["this code is table 1's: it may change that table's game only"]
    finnish = "tämä koodi on pöydän 1: sillä voi muuttaa vain sen pöydän peliä"
    assert engine_text(Message("access.table", table=1), "fi") == finnish
    assert store.game(two.game).game.deals == ()

    viewer = guarded(store, Access(Grant(Role.VIEWER, night.id)))
    board = NightModel.load(viewer, night.id)
    assert board.end_night() is False
    assert board.error == "a viewer's code only looks: it cannot change anything"
    assert store.night("Club", night.id).planned is None  # not ended: no plan was made of it


def test_a_session_taken_up_again_reads_the_grant_of_its_new_connection() -> None:
    from types import SimpleNamespace

    from scorer.league.night_codes import CURRENT_GRANT
    from scorer.ui.roles import follow_connections

    heard: list[object] = []
    page: Any = SimpleNamespace(on_connect=heard.append)  # the live session's own handler
    access = Access(Grant(Role.DIRECTOR, "n1"))
    follow_connections(page, access, gated=True)
    token = CURRENT_GRANT.set(Grant(Role.SCORER, "n1", 4))  # the new WebSocket's cookie
    try:
        page.on_connect("event")
    finally:
        CURRENT_GRANT.reset(token)
    assert access.grant == Grant(Role.SCORER, "n1", 4) and heard == ["event"]
    page.on_connect("again")  # a connection with no grant, gated: the least, never the most
    assert access.grant == LOOKS_ONLY
