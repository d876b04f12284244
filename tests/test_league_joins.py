"""A game changed on two devices apart, joined again (issue 26, item 3: the three choices).

Two devices record deal 3 of the same game offline and sync through a club server: a conflict,
each side keeping its own. One side then chooses, as on one server (`Keep theirs`, `Save mine
as the next deal`, `Replace theirs`): a join (``game.joined``) and ordinary facts. After the
next syncs, in either order, every store (a third one syncing fresh too) has the same facts
and the same reads, nothing held back, no conflict said; reopened, the same again. Both sides
choosing before they meet is a new conflict, said and held, nothing lost; one more choice
settles it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_deals import rommi_deal
from store_reads import differences
from sync_kit import ClientTransport, CutTransport, league_fact_ids, play, reads, server_client

from scorer.league.errors import StoreInputError
from scorer.league.facts import fact_from_json
from scorer.league.joins import folded_chain
from scorer.league.state import off_chain
from scorer.league.store import Store
from scorer.league.sync import SyncError, SyncReport, sync

PLAYERS = ("Anna", "Bea", "Cecilia")
#: Deal 3 as each device recorded it apart: Anna went out on a, Bea on b.
A_DEAL = rommi_deal(PLAYERS, 0, [0, 1])
B_DEAL = rommi_deal(PLAYERS, 1, [1, 0])


class Club:
    """A server and two devices with the server's league, the game's deal 3 recorded apart on
    each device, and the conflict met: a synced first (the server took its deal), then b (b's
    deal held by the server, a's held by b)."""

    def __init__(self, server: Store, a: Store, b: Store) -> None:
        self.server, self.a, self.b = server, a, b
        self.league = server.create_league("Friday club").id
        self.game = play(server, self.league, list(PLAYERS), 2)
        play(server, self.league, ["Anna", "Bea"], 1, seed=7)  # a game nobody changed apart
        self.client = server_client(server)
        for device in (a, b):
            sync(device, self.transport(), league=self.league)
        a.add_deal(self.game, A_DEAL)
        b.add_deal(self.game, B_DEAL)
        assert self.sync(a).conflicts == []
        met = self.sync(b)
        assert {c.get("game") for c in met.conflicts} == {self.game}

    def transport(self) -> ClientTransport:
        return ClientTransport(self.client)

    def sync(self, store: Store, *, limit: int = 500) -> object:
        return sync(store, self.transport(), league=self.league, limit=limit)

    def outs(self, store: Store) -> list[str]:
        return [d["out"] for d in store.game(self.game).document["deals"]]


def _same_everywhere(club: Club, *stores: Store) -> None:
    ids = [league_fact_ids(s, club.league) for s in stores]
    assert all(found == ids[0] for found in ids[1:])
    first = reads(stores[0])
    for other in stores[1:]:
        assert differences(first, reads(other)) == []
    for store in stores:
        assert store.held_facts(club.game) == []


def _quiet(club: Club, *stores: Store) -> None:
    """One more sync of each: nothing to send or receive, no conflict, nothing held back."""
    for store in stores:
        report = club.sync(store)
        assert (report.sent, report.received, report.conflicts, report.not_applied) == (0, 0, [], 0)


@pytest.fixture()
def club(tmp_path: Path) -> Iterator[Club]:
    server = Store.open(tmp_path / "server")
    yield Club(server, Store.open(tmp_path / "a"), Store.open(tmp_path / "b"))


# -- each choice, made on a device or on the server, then synced in either order -------------

#: The choice, and deal 3 onward as every store ends with it when b (its own deal: Bea's)
#: chooses, a's deal (Anna's) being theirs.
EXPECTED_ON_B = {
    "theirs": ["Anna"],
    "mine-next": ["Anna", "Bea"],
    "replace": ["Bea"],
}
#: The same when the server chooses: b's deal (Bea's) is theirs there.
EXPECTED_ON_SERVER = {"theirs": ["Bea"], "mine-next": ["Bea", "Anna"], "replace": ["Anna"]}


@pytest.mark.parametrize("choice", sorted(EXPECTED_ON_B))
@pytest.mark.parametrize("order", ["a first", "b first"])
def test_a_choice_on_a_device_converges_every_store(
    club: Club, tmp_path: Path, choice: str, order: str
) -> None:
    assert club.outs(club.b)[2:] == ["Bea"] and club.outs(club.server)[2:] == ["Anna"]
    assert [f.data.deal["out"] for f in club.b.held_facts(club.game)] == ["Anna"]
    settled = club.b.settle_conflict(club.game, choice, why="we counted again", by="Bea")
    assert [d["out"] for d in settled.document["deals"]][2:] == EXPECTED_ON_B[choice]
    assert club.b.held_facts(club.game) == []  # the notice goes at once
    devices = [club.a, club.b] if order == "a first" else [club.b, club.a]
    for device in [*devices, *devices]:
        assert club.sync(device).conflicts == []
    fresh = Store.open(tmp_path / "c")
    assert club.sync(fresh).conflicts == []
    _same_everywhere(club, club.server, club.a, club.b, fresh)
    assert club.outs(club.a)[2:] == EXPECTED_ON_B[choice]
    _quiet(club, club.a, club.b, fresh)
    if choice == "replace":  # an ordinary signed correction, its reason kept
        corrected = [e for e in club.a.events(club.game) if e.action == "corrected"]
        assert [(e.deal, e.by, e.why) for e in corrected] == [(3, "Bea", "we counted again")]
    for store in (club.server, club.a, club.b, fresh):  # read again from the log, as a new program would
        again = Store.open(store.location)  # type: ignore[arg-type]
        assert differences(reads(store), reads(again)) == []


def test_a_checkpoint_after_a_join_reads_the_same_and_a_later_fact_folds_on_it(club: Club) -> None:
    club.b.settle_conflict(club.game, "mine-next")
    club.b._ledger.save_checkpoint()  # type: ignore[attr-defined]
    again = Store.open(club.b.location)  # type: ignore[arg-type]
    assert differences(reads(club.b), reads(again)) == []
    again.add_deal(club.game, rommi_deal(PLAYERS, 4, [3, 1]))  # chained on the join's deals
    assert len(again.game(club.game).document["deals"]) == 5
    club.sync(again)
    club.sync(club.a)
    assert differences(reads(again), reads(club.a)) == []


@pytest.mark.parametrize("choice", sorted(EXPECTED_ON_B))
def test_a_choice_on_the_server_converges_every_store(club: Club, tmp_path: Path, choice: str) -> None:
    """The server holds b's deal: its own Scoreboard's notice chooses (b's deal is theirs)."""
    assert [f.data.deal["out"] for f in club.server.held_facts(club.game)] == ["Bea"]
    club.server.settle_conflict(club.game, choice, why="the director's count")
    expected = EXPECTED_ON_SERVER[choice]
    assert club.outs(club.server)[2:] == expected
    for device in (club.a, club.b, club.a, club.b):
        assert club.sync(device).conflicts == []
    fresh = Store.open(tmp_path / "c")
    club.sync(fresh)
    _same_everywhere(club, club.server, club.a, club.b, fresh)
    assert club.outs(club.b)[2:] == expected


def test_the_set_aside_deal_is_kept_in_every_log_but_folded_nowhere(club: Club) -> None:
    a_fact = next(f for f in club.a.facts_since(0) if f.kind == "deal.recorded" and f.data.number == 3)
    club.b.settle_conflict(club.game, "mine-next")
    club.sync(club.b)
    # a's sync, a commit a page: b's deal, the join and b's deal again as deal 4 come in,
    # with no conflict said and nothing left unapplied
    report = club.sync(club.a, limit=1)
    assert report.received == 3 and (report.conflicts, report.not_applied) == ([], 0)
    club.sync(club.a)
    joins = [f for f in club.server.facts_since(0) if f.kind == "game.joined"]
    assert len(joins) == 1 and joins[0].prev == a_fact.id  # theirs (a's) kept
    b_fact = next(f for f in club.b.facts_since(0) if f.kind == "deal.recorded" and f.data.number == 3)
    assert b_fact.data.deal["out"] == "Bea"
    assert joins[0].data.retired == [b_fact.id]
    for store in (club.server, club.a, club.b):
        logged = [f for f in store.facts_since(0) if f.subject == club.game]
        assert b_fact.id in {f.id for f in logged}  # it travelled
        if store is not club.b:  # folded nowhere it came to (on b, folded until the join)
            assert b_fact.id not in {f.id for f in folded_chain(logged)}
        by_id = {f.id: f for f in logged}
        kept, at = [], joins[0].prev
        while at is not None:  # the history the join keeps: b's deal is not in it
            kept.append(at)
            at = by_id[at].prev
        assert b_fact.id not in kept and a_fact.id in kept
        # the retired deal comes in its log before the join, wherever it was written
        ids = [f.id for f in logged]
        assert ids.index(b_fact.id) < ids.index(joins[0].id)
    # Bea's deal is there once: as deal 4, recorded again after Anna's
    assert club.outs(club.a)[2:] == ["Anna", "Bea"]


def test_both_sides_choosing_apart_is_a_new_conflict_and_one_more_choice_settles_it(
    club: Club, tmp_path: Path
) -> None:
    club.b.settle_conflict(club.game, "theirs")  # b keeps a's deal (Anna)
    club.server.settle_conflict(club.game, "theirs")  # the server keeps b's (Bea)
    report = club.sync(club.b)
    assert {c.get("game") for c in report.conflicts} == {club.game}  # said, not merged
    assert report.not_applied >= 2
    held_b = club.b.held_facts(club.game)
    held_server = club.server.held_facts(club.game)
    assert [f.kind for f in held_b] == ["game.joined"] and [f.kind for f in held_server] == ["game.joined"]
    assert club.outs(club.b)[2:] == ["Anna"] and club.outs(club.server)[2:] == ["Bea"]
    with pytest.raises(StoreInputError):  # the held join is not lost by a sync again
        club.b.settle_conflict(club.game, "no such choice")
    club.b.settle_conflict(club.game, "theirs")  # b gives way: the server's (Bea's) kept
    for device in (club.b, club.a, club.b, club.a):
        assert club.sync(device).conflicts == []
    fresh = Store.open(tmp_path / "c")
    club.sync(fresh)
    _same_everywhere(club, club.server, club.a, club.b, fresh)
    assert club.outs(fresh)[2:] == ["Bea"]
    # every join made is in every log: none lost
    assert len([f for f in fresh.facts_since(0) if f.kind == "game.joined"]) == 3


def test_a_choice_with_nothing_held_or_not_a_choice_is_refused_and_writes_nothing(club: Club) -> None:
    position = club.a.position
    with pytest.raises(StoreInputError) as caught:
        club.a.settle_conflict(club.game, "theirs")  # a never met b's deal: no conflict here
    assert club.game in str(caught.value) and "no conflict" in str(caught.value)
    with pytest.raises(StoreInputError) as wrong:
        club.b.settle_conflict(club.game, "mine")
    assert "'mine'" in str(wrong.value) and "mine-next" in str(wrong.value)
    assert club.a.position == position and len(club.b.held_facts(club.game)) == 1


def test_a_choice_whose_deal_is_refused_writes_nothing(club: Club) -> None:
    """Their history finished the game: my deal cannot be saved after it, so the choice
    writes nothing (not the join alone), and the conflict stays."""
    club.server.settle_conflict(club.game, "theirs")  # the server's version: b's deal
    club.server.abandon_game(club.game, why="closing time")
    club.a.add_deal(club.game, rommi_deal(PLAYERS, 3, [2, 2]))  # a goes on apart
    club.sync(club.a)
    position = club.a.position
    held = club.a.held_facts(club.game)
    assert held
    with pytest.raises(StoreInputError):
        club.a.settle_conflict(club.game, "mine-next")
    assert club.a.position == position and club.a.held_facts(club.game) == held
    club.a.settle_conflict(club.game, "theirs")
    for device in (club.a, club.b, club.a):
        club.sync(device)
    _same_everywhere(club, club.server, club.a, club.b)


def test_the_off_chain_rule() -> None:
    fact = fact_from_json(
        {
            "id": "x",
            "kind": "deal.removed",
            "at": "2026-12-07T20:00:00+00:00",
            "by": "",
            "prev": "p",
            "game": "g",
            "number": 1,
        }
    )
    assert off_chain(fact, "q") and not off_chain(fact, "p") and not off_chain(fact, None)
    legacy = fact_from_json(
        {
            "id": "y",
            "kind": "deal.removed",
            "at": "2026-12-07T20:00:00+00:00",
            "by": "",
            "game": "g",
            "number": 1,
        }
    )
    assert not off_chain(legacy, "q")  # written before facts named the one before: folds as ever


# -- the syncs after a choice cut anywhere, pages of any size --------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    choice=st.sampled_from(sorted(EXPECTED_ON_B)),
    on_server=st.booleans(),
    limits=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    order=st.permutations(["a", "b", "c"]),
    cut=st.integers(0, 12),
    after=st.booleans(),
)
def test_any_interleaving_of_the_syncs_after_a_choice_ends_the_same(
    choice: str, on_server: bool, limits: list[int], order: list[str], cut: int, after: bool
) -> None:
    club = Club(Store.memory(), Store.memory(), Store.memory())
    chooser = club.server if on_server else club.b
    chooser.settle_conflict(club.game, choice, why="recount")
    fresh = Store.memory()
    stores = {"a": club.a, "b": club.b, "c": fresh}
    first = stores[order[0]]
    cut_off = CutTransport(club.transport(), cut=cut, after=after)
    with contextlib.suppress(SyncError):  # the first sync cut off midway: it resumes from its marks
        sync(first, cut_off, league=club.league, limit=limits[0])
    for name, limit in zip([*order, *order], limits[1:] + limits, strict=False):
        club.sync(stores[name], limit=limit)
    _same_everywhere(club, club.server, club.a, club.b, fresh)
    expected = (EXPECTED_ON_SERVER if on_server else EXPECTED_ON_B)[choice]
    assert club.outs(fresh)[2:] == expected
    _quiet(club, club.a, club.b, fresh)


# -- against each kind of server store ---------------------------------------------------------


@pytest.mark.parametrize("choice", sorted(EXPECTED_ON_B))
@pytest.mark.parametrize("server_kind", ["memory", "postgresql"])
def test_each_choice_converges_through_a_server_of_each_kind(
    tmp_path: Path, server_kind: str, choice: str, request: pytest.FixtureRequest
) -> None:
    server = (
        Store.open(request.getfixturevalue("pg_address")) if server_kind == "postgresql" else Store.memory()
    )
    try:
        club = Club(server, Store.open(tmp_path / "a"), Store.open(tmp_path / "b"))
        club.b.settle_conflict(club.game, choice, why="recount")
        for device in (club.b, club.a, club.b, club.a):
            assert club.sync(device).conflicts == []
        # a's deal 4, then b's, apart again: the server's own Scoreboard chooses this time
        club.a.add_deal(club.game, rommi_deal(PLAYERS, 5, [2, 0]))
        club.b.add_deal(club.game, rommi_deal(PLAYERS, 6, [0, 2]))
        club.sync(club.a)
        assert club.sync(club.b).conflicts
        server.settle_conflict(club.game, choice, why="the director's count")
        for device in (club.b, club.a, club.b, club.a):
            assert club.sync(device).conflicts == []
        fresh = Store.open(tmp_path / "c")
        club.sync(fresh)
        _same_everywhere(club, server, club.a, club.b, fresh)
        assert club.outs(server)[2 : 2 + len(EXPECTED_ON_B[choice])] == EXPECTED_ON_B[choice]
        if server_kind == "postgresql":  # the server's reads as a new process makes them
            again = Store.open(server.address)  # type: ignore[arg-type]
            try:
                assert differences(reads(server), reads(again)) == []
            finally:
                again.close()
    finally:
        server.close()


@pytest.mark.parametrize("cut", [None, "before the join", "after the join"])
def test_the_other_history_then_the_join_in_one_page_or_two_ends_the_same(
    club: Club, cut: str | None
) -> None:
    """b's log after its choice, fed to a new store as pages: b's deal, then a's (a conflict:
    held back, in the page or by the store between pages), then the join that takes a's in."""
    club.b.settle_conflict(club.game, "replace", why="recount")
    facts = [f.to_json() for c in club.b.league_commits(club.league, 0)[0] for f in c.facts]
    join = next(n for n, f in enumerate(facts) if f["kind"] == "game.joined")
    split = {None: len(facts), "before the join": join, "after the join": join + 1}[cut]
    store = Store.memory()
    first = store.receive_facts(club.league, facts[:split], source="b")
    if cut == "before the join":
        assert {c.get("game") for c in first.conflicts} == {club.game}
        assert [f.data.deal["out"] for f in store.held_facts(club.game)] == ["Anna"]
    else:
        assert first.conflicts == [] and club.game in first.settled
    second = store.receive_facts(club.league, facts[split:], source="b")
    assert second.conflicts == [] and store.held_facts(club.game) == []
    assert (club.game in second.settled) == (cut == "before the join")
    assert league_fact_ids(store, club.league) == league_fact_ids(club.b, club.league)
    assert differences(reads(club.b), reads(store)) == []


def test_a_sync_report_forgets_the_conflict_and_held_facts_a_later_page_settled() -> None:
    report = SyncReport(league="l")
    report.add_conflicts([{"game": "g", "file": "u"}, {"game": "h", "file": "u"}])
    report.not_applied += 3
    report.held_here.update({"g": 2, "h": 1})
    report.settle(["g"])
    assert report.conflicts == [{"game": "h", "file": "u"}] and report.not_applied == 1
    assert "held_here" not in report.to_dict()


# -- rummy league conflict ----------------------------------------------------------------------


def test_rummy_league_conflict_shows_theirs_then_settles_by_a_choice(
    club: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from scorer.cli import main

    b_db = str(tmp_path / "b")
    club.b.close()
    assert main(["league", "conflict", club.game[:8], "--db", b_db, "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)["theirs"]
    assert [(t["kind"], t["number"], t["deal"]["out"]) for t in theirs] == [("deal.recorded", 3, "Anna")]
    assert main(["league", "conflict", club.game, "--db", b_db]) == 0
    said = capsys.readouterr().out
    assert "1 changes from another device held back" in said and "theirs, mine-next, replace" in said
    assert main(["league", "conflict", club.game, "--db", b_db, "--keep", "mine"]) != 0
    refused = capsys.readouterr().err
    assert "'mine' is not a choice" in refused and Store.open(b_db).held_facts(club.game)
    args = ["--keep", "replace", "--why", "we counted again", "--by", "Bea", "--json"]
    assert main(["league", "conflict", club.game, "--db", b_db, *args]) == 0
    assert json.loads(capsys.readouterr().out) == {"game": club.game, "keep": "replace", "deals": 3}
    b = Store.open(b_db)
    assert b.held_facts(club.game) == []
    for device in (b, club.a, b):
        assert club.sync(device).conflicts == []
    _same_everywhere(club, club.server, club.a, b)
    assert club.outs(club.a)[2:] == ["Bea"]
    assert main(["--lang", "fi", "league", "conflict", club.game, "--db", b_db]) == 0
    assert "ei ristiriitaa" in capsys.readouterr().out
