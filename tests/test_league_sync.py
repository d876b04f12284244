"""Sync (issue 26, item 3): devices' stores and a club server meet by facts.

Two folder stores and a phone build's store (its records as IndexedDB holds them) get the
server's league, go offline, each records games, then sync in turns: every store ends with the
same facts and the same reads. Two devices that recorded a deal of the same game apart meet as
a conflict, reported on each side, nothing of that game merged and nothing lost. A sync cut off
midway resumes with nothing applied twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_deals import rommi_deal
from store_reads import differences
from sync_kit import (
    URL,
    ClientTransport,
    CutTransport,
    league_fact_ids,
    play,
    reads,
    server_client,
)
from test_web_records import opened

from scorer.league.store import Store
from scorer.league.sync import SyncError, sync
from scorer.web.records import MemoryRecords


def _club(server: Store) -> str:
    league = server.create_league("Friday club")
    play(server, league.id, ["Anna", "Bea", "Cecilia"], 2)
    return league.id


def _same_everywhere(league: str, *stores: Store) -> None:
    ids = [league_fact_ids(s, league) for s in stores]
    assert all(found == ids[0] for found in ids[1:])
    first = reads(stores[0])
    for other in stores[1:]:
        assert differences(first, reads(other)) == []


@pytest.mark.parametrize("server_kind", ["memory", "folder", "postgresql"])
def test_two_devices_and_a_phone_build_edit_offline_and_end_with_the_same_facts_and_reads(
    tmp_path: Path, server_kind: str, request: pytest.FixtureRequest
) -> None:
    if server_kind == "postgresql":
        server = Store.open(request.getfixturevalue("pg_address"))
    elif server_kind == "folder":
        server = Store.open(tmp_path / "server")
    else:
        server = Store.memory()
    try:
        league = _club(server)
        client = server_client(server)
        a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
        records = MemoryRecords()  # the phone build: its store's records as IndexedDB holds them
        phone = opened(records, tmp_path / "phone")
        for device in (a, b, phone):  # each gets the league whole, with the server's ids
            report = sync(device, ClientTransport(client), league="Friday club")
            assert report.league == league
            assert report.received == len(league_fact_ids(server, league))
            assert report.sent == 0 and report.conflicts == []
        _same_everywhere(league, server, a, b, phone)

        play(a, league, ["Anna", "Bea"], 3, seed=1)  # offline, apart
        play(b, league, ["Cecilia", "Dora"], 2, seed=2)  # Dora: a new player, on b only
        play(b, league, ["Anna", "Dora", "Bea"], 1, seed=3)
        play(phone, league, ["Bea", "Cecilia", "Eve"], 2, seed=4)  # Eve: new, on the phone only

        first = sync(a, ClientTransport(client), league=league)
        assert first.sent > 0 and first.received == 0 and first.conflicts == []
        second = sync(b, ClientTransport(client), league=league)
        assert second.sent > 0 and second.received == first.sent and second.conflicts == []
        third = sync(phone, ClientTransport(client), league=league)
        assert third.sent > 0 and third.received == first.sent + second.sent and third.conflicts == []
        again = sync(a, ClientTransport(client), league=league)
        assert again.received == second.sent + third.sent and again.sent == 0
        last = sync(b, ClientTransport(client), league=league)
        assert (last.sent, last.received, last.conflicts) == (0, third.sent, [])
        quiet = sync(phone, ClientTransport(client), league=league)
        assert (quiet.sent, quiet.received, quiet.conflicts) == (0, 0, [])
        _same_everywhere(league, server, a, b, phone)
        reopened = opened(records, tmp_path / "phone-again")  # the page loaded again
        _same_everywhere(league, server, reopened)
        assert len(a.games(league=league)) == 5
        # who sent what is kept with each commit (none: made on the server), read back when reopened
        senders = [c.sender for c in server.commits_since(0)]
        assert set(senders) == {None, "director"} and senders[-1] == "director"
        if server_kind == "folder":
            assert [c.sender for c in Store.open(tmp_path / "server").commits_since(0)] == senders
        assert {c.sender for c in a.commits_since(0)} == {None}  # a device's own commits name none
        assert {p.name for p in a.players(league=league)} == {"Anna", "Bea", "Cecilia", "Dora", "Eve"}
    finally:
        server.close()


def test_the_same_game_changed_on_two_devices_is_a_conflict_on_each_side_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    server = Store.memory()
    league = _club(server)
    shared = server.games(league=league)[0].id
    client = server_client(server)
    a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
    for device in (a, b):
        sync(device, ClientTransport(client), league=league)
    players = ("Anna", "Bea", "Cecilia")
    a.add_deal(shared, rommi_deal(players, 0, [0, 1]))  # deal 3 of the same game, apart
    b.add_deal(shared, rommi_deal(players, 1, [1, 0]))
    play(b, league, ["Anna", "Bea"], 1, seed=5)  # and a game of its own, which goes through

    assert sync(a, ClientTransport(client), league=league).conflicts == []  # first: no conflict
    report = sync(b, ClientTransport(client), league=league)
    games = {c.get("game") for c in report.conflicts}
    assert games == {shared}  # reported by game, on the server's side and on b's
    assert {c["reason_code"] for c in report.conflicts} == {"store.conflict_apart"}
    assert {c["file"] for c in report.conflicts} == {"director", URL}
    assert report.not_applied >= 2  # b's deal held by the server, a's held here
    # nothing merged in silence, nothing lost: each side keeps its own third deal
    assert a.game(shared).document["deals"][2]["out"] == "Anna"
    assert b.game(shared).document["deals"][2]["out"] == "Bea"
    assert server.game(shared).document["deals"][2]["out"] == "Anna"
    assert len(b.games(league=league)) == len(server.games(league=league)) == 2
    again = sync(b, ClientTransport(client), league=league)  # still a conflict, still said
    assert again.sent == 0 and again.received == 0
    assert {c.get("game") for c in again.conflicts} <= {shared}


def test_a_page_sent_twice_adds_nothing_the_second_time(tmp_path: Path) -> None:
    server = Store.memory()
    league = _club(server)
    client = server_client(server)
    device = Store.open(tmp_path / "a")
    sync(device, ClientTransport(client), league=league)
    play(device, league, ["Anna", "Bea"], 2)
    commits, _ = device.league_commits(league, device.sync_mark(URL, league)[0])
    page = {"facts": [f.to_json() for c in commits for f in c.facts]}
    headers = {"Authorization": f"Bearer {client.secrets['director']}"}
    first = client.post(f"/api/v1/leagues/{league}/facts", json=page, headers=headers)
    position = server.position
    second = client.post(f"/api/v1/leagues/{league}/facts", json=page, headers=headers)
    assert first.json()["added"] == len(page["facts"]) and second.json()["added"] == 0
    assert server.position == position  # no commit at all the second time
    report = sync(device, ClientTransport(client), league=league)
    assert report.sent == 0 and report.received == 0


def _offline_work(server: Store, tmp_path: Path) -> tuple[str, Store]:
    league = _club(server)
    device = Store.open(tmp_path / "a")
    sync(device, ClientTransport(server_client(server)), league=league)
    for seed in range(4):
        play(device, league, ["Anna", "Bea"], 2, seed=seed)
    for seed in range(3):
        play(server, league, ["Bea", "Cecilia"], 1, seed=seed)
    return league, device


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=12), after=st.booleans())
def test_a_sync_cut_off_midway_resumes_with_nothing_applied_twice(
    tmp_path_factory: pytest.TempPathFactory, cut: int, after: bool
) -> None:
    tmp_path = tmp_path_factory.mktemp("cut")
    server = Store.memory()
    league, device = _offline_work(server, tmp_path)
    expected = league_fact_ids(server, league) | league_fact_ids(device, league)  # an uncut sync's end
    client = server_client(server)
    cut_off = CutTransport(ClientTransport(client), cut=cut, after=after)
    try:
        sync(device, cut_off, league=league, limit=3)  # pages of a few facts: many requests
    except SyncError as exc:
        assert exc.message.code == "sync.unreachable"
        assert "Connection reset" in str(exc)
    else:
        assert cut_off.count <= cut  # it finished before the cut
    reopened = Store.open(tmp_path / "a")  # as after a kill: the marks are on disk
    sync(reopened, ClientTransport(client), league=league, limit=3)

    for store in (server, reopened):
        every = [f.id for c in store.commits_since(0) for f in c.facts]
        assert len(every) == len(set(every))  # no fact applied twice
        assert league_fact_ids(store, league) == expected
    assert differences(reads(server), reads(reopened)) == []
    assert len(server.games(league=league)) == 1 + 4 + 3


def test_marks_advance_only_after_a_page_and_survive_a_reopen(tmp_path: Path) -> None:
    server = Store.memory()
    league, device = _offline_work(server, tmp_path)
    before = device.sync_mark(URL, league)
    transport = ClientTransport(server_client(server))
    sync(device, transport, league=league, limit=4)
    sent, received = Store.open(tmp_path / "a").sync_mark(URL, league)
    assert sent == device.position and received == server.position
    assert sent > before[0] and received > before[1]
    posts = [c for c in transport.calls if c[0] == "POST"]
    gets = [c for c in transport.calls if c[0] == "GET"]
    assert len(posts) > 1 and len(gets) > 1  # pages, both ways


def test_a_league_that_is_nowhere_and_a_server_out_of_reach_are_one_line_each(tmp_path: Path) -> None:
    server = Store.memory()
    _club(server)
    device = Store.open(tmp_path / "a")
    with pytest.raises(SyncError, match="no league 'Tuesday club' here or on the club server"):
        sync(device, ClientTransport(server_client(server)), league="Tuesday club")
    from scorer.league.sync import HttpTransport

    with pytest.raises(SyncError, match=r"cannot reach the club server http://127\.0\.0\.1:9"):
        sync(device, HttpTransport("http://127.0.0.1:9", "x", timeout=5), league="Friday club")
    with pytest.raises(SyncError, match="starts with http:// or https://"):
        HttpTransport("club.example", "x")


def test_a_wrong_token_and_a_role_that_may_not_are_refused(tmp_path: Path) -> None:
    server = Store.memory()
    league = _club(server)
    device = Store.open(tmp_path / "a")
    with pytest.raises(SyncError, match=r"refused the token \(401\)"):
        sync(device, ClientTransport(server_client(server), "wrong"), league=league)
    sync(device, ClientTransport(server_client(server), "viewer"), league=league)  # a viewer reads
    play(device, league, ["Anna", "Bea"], 1)
    with pytest.raises(SyncError, match=r"refused \(403\)"):
        sync(device, ClientTransport(server_client(server), "viewer"), league=league)
    report = sync(device, ClientTransport(server_client(server), "scorer"), league=league)
    assert report.sent > 0  # a scorer sends games and deals
    assert [c.sender for c in server.commits_since(0)][-1] == "tablet 1"


@pytest.mark.parametrize("limit", [500, 2])
def test_a_player_added_on_two_devices_apart_under_one_name_is_one_person_everywhere(
    tmp_path: Path, limit: int
) -> None:
    """Both devices add Dora offline (two ids): each fact is kept everywhere, and every store
    makes the two one person by the same fact (the greater id merged into the lesser), so a
    game that names either id, in any later page, is hers."""
    server = Store.memory()
    league = _club(server)
    client = server_client(server)
    a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
    for device in (a, b):
        sync(device, ClientTransport(client), league=league)
    play(a, league, ["Anna", "Dora"], 1, seed=1)
    play(b, league, ["Bea", "Dora"], 1, seed=2)
    dora_a, dora_b = a.player("Dora").id, b.player("Dora").id
    for device in (a, b, a, b):
        sync(device, ClientTransport(client), league=league, limit=limit)
    play(b, league, ["Dora", "Cecilia"], 1, seed=3)  # named by b's id, after the merge
    for device in (b, a):
        sync(device, ClientTransport(client), league=league, limit=limit)
    kept = min(dora_a, dora_b)
    for store in (server, a, b):
        assert [p.name for p in store.players(league=league)].count("Dora") == 1
        assert store.player("Dora").id == kept == store.player(max(dora_a, dora_b)).id
        assert {p for g in store.games(league=league) for p in g.players} == {
            p.id for p in store.players(league=league)
        }
        merges = [f for f in store.facts_since(0) if f.kind == "player.merged"]
        assert len(merges) == 1  # one fact, made alike by whichever store met the two first
    assert league_fact_ids(server, league) == league_fact_ids(a, league) == league_fact_ids(b, league)
    assert a.standings(league) == b.standings(league) == server.standings(league)
    if limit == 500:  # whole pages: every read the same (small pages may stamp a game's change apart)
        _same_everywhere(league, server, a, b)


def test_rummy_league_log_says_which_token_sent_a_games_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from scorer.cli import main

    server = Store.open(tmp_path / "server")
    league = _club(server)
    client = server_client(server)
    device = Store.open(tmp_path / "device")
    sync(device, ClientTransport(client), league=league)
    game = play(device, league, ["Anna", "Bea"], 2)
    sync(device, ClientTransport(client, "scorer"), league=league)
    assert main(["league", "log", game, "--db", str(tmp_path / "server"), "--json"]) == 0
    sent = json.loads(capsys.readouterr().out)["sent"]
    assert sent == [{"commit": server.position, "sender": "tablet 1", "facts": 3}]
    assert main(["league", "log", game, "--db", str(tmp_path / "server")]) == 0
    assert f"sent by tablet 1: 3 of its facts (commit {server.position})" in capsys.readouterr().out
    assert main(["league", "log", game, "--db", str(tmp_path / "device"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sent"] == []  # made on the device: no sender


def test_too_many_wrong_tokens_are_told_to_wait(tmp_path: Path) -> None:
    server = Store.memory()
    league = _club(server)
    client = server_client(server)
    device = Store.open(tmp_path / "a")
    codes = []
    for _ in range(7):
        try:
            sync(device, ClientTransport(client, "rst_wrong"), league=league)
        except SyncError as exc:
            codes.append(exc.message.code)
    assert codes[0] == "sync.bad_token" and codes[-1] == "sync.wait"
    with pytest.raises(SyncError, match=r"refused too many tries \(429\): wait [0-9]+ s and sync again"):
        sync(device, ClientTransport(client), league=league)  # the right token waits too
    assert device.leagues() == []  # nothing applied


def test_an_answer_that_is_not_the_sync_apis_is_refused_naming_what() -> None:
    from scorer.league.sync import Reply

    class Stuck:
        url = URL

        def __init__(self, answer: Reply) -> None:
            self.answer = answer

        def send(self, method: str, path: str, body: object) -> Reply:
            return self.answer

    def device() -> Store:  # a device with facts to send, never synced
        store = Store.memory()
        store.create_league("Friday club")
        return store

    for answer, what in (
        (Reply(200, {"facts": [], "position": 0, "more": True}), "position"),  # a page that never ends
        (Reply(200, {"added": "three"}), "added"),
        (Reply(200, ["not", "an", "object"]), "list"),
    ):
        with pytest.raises(SyncError, match=rf"answered what is not a sync answer \({what}\)"):
            sync(device(), Stuck(answer), league="Friday club")
    with pytest.raises(SyncError, match=r"refused a page \(500\): -"):
        sync(device(), Stuck(Reply(500, None)), league="Friday club")


def test_a_game_moved_into_the_league_after_a_sync_brings_its_whole_history(tmp_path: Path) -> None:
    server = Store.memory()
    league = _club(server)
    client = server_client(server)
    device = Store.open(tmp_path / "a")
    sync(device, ClientTransport(client), league=league)
    loose = device.start_game(ruleset="rommi", players=["Anna", "Bea"])  # in no league yet
    device.add_deal(loose.id, rommi_deal(("Anna", "Bea"), 0, [0, 1]))
    assert sync(device, ClientTransport(client), league=league).sent == 0  # not the league's
    device.move_game(loose.id, league=league)
    device.add_deal(loose.id, rommi_deal(("Anna", "Bea"), 1, [1, 0]))
    report = sync(device, ClientTransport(client), league=league)
    assert report.conflicts == [] and report.sent == 4  # started, a deal, moved, a deal
    assert server.game(loose.id).document == device.game(loose.id).document
    assert league_fact_ids(server, league) == league_fact_ids(device, league)


def test_a_commit_larger_than_the_servers_page_is_sent_in_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league imported from a file is one commit of all its facts: more than the server takes
    in one page. It goes in parts, in order (a game's first facts before its later ones), and
    the server ends with every fact; the mark moves on only after the last part."""
    from scorer.api import facts as api_facts
    from scorer.league import sync as sync_module

    monkeypatch.setattr(api_facts, "MOST_PAGE_FACTS", 5)
    monkeypatch.setattr(sync_module, "MOST_PAGE_FACTS", 5)
    home = Store.open(tmp_path / "home")
    league = home.create_league("Friday club").id
    play(home, league, ["Anna", "Bea"], 3)
    device = Store.open(tmp_path / "device")
    device.create_league("Friday club")
    device.import_files("Friday club", [_facts_file(home, tmp_path)])
    [commit] = [c for c in device.commits_since(1) if len(c.facts) > 5]  # the import: one commit
    server = Store.memory()
    transport = ClientTransport(server_client(server))
    report = sync(device, transport, league=device.league("Friday club").id)
    posts = [call for call in transport.calls if call[0] == "POST"]
    assert len(posts) >= 2  # the one commit went in parts
    assert report.sent == len(league_fact_ids(device, device.league("Friday club").id))
    _same_everywhere(device.league("Friday club").id, device, server)
    assert device.sync_mark(URL, device.league("Friday club").id)[0] >= commit.n


def _facts_file(store: Store, tmp_path: Path) -> Path:
    import json

    path = tmp_path / "club.facts.json"
    path.write_text(json.dumps(store.export_facts("Friday club")), encoding="utf-8")
    return path
