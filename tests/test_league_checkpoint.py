"""The checkpoint's form (what reads need first, each game's bulky fields parsed when asked
for, both compressed) and the fold's one refusal of a fact about a record it does not have."""

from __future__ import annotations

import gc
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from scorer.league import checkpoint
from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.errors import StoreError
from scorer.league.facts import new_fact
from scorer.league.log import checksum
from scorer.league.state import STATE_VERSION, State
from scorer.league.store import Store
from scorer.messages import Message, message_of
from tests.test_league_files import DEAL, league_with_game, reads

AT = "2026-12-02T05:00:00+00:00"
TWO_DEALS = {"deals": 2, "target": None}


def saved_parts(path: Path) -> tuple[dict[str, Any], dict[str, Any], list[bytes]]:
    """The checkpoint's head, its first part parsed (its tables as rows by doc id again) and
    its second part's runs decompressed."""
    mark, _, body = path.read_bytes().partition(b"\n")
    assert checksum(body).encode("ascii") == mark
    head_text, _, rest = body.partition(b"\n")
    head = json.loads(head_text)
    light = json.loads(rest[: head["light"]])
    light["tables"] = checkpoint.tables_of(light["tables"])
    runs, at = [], head["light"]
    for length in light["chunks"]:
        runs.append(zlib.decompress(rest[at : at + length]))
        at += length
    assert at == len(rest)
    return head, light, runs


def bulky(light: dict[str, Any], runs: list[bytes], game_id: str) -> bytes:
    chunk, start, end = light["bulk"][game_id]
    return runs[chunk][start:end]


def opened(folder: Path) -> Store:
    """The store opened from its checkpoint (it must be used: the log has commits before it)."""
    store = Store.open(folder)
    assert store._ledger.state._bulk is not None  # type: ignore[attr-defined]
    return store


def test_the_first_part_holds_no_deal_and_the_second_each_games_bulky_fields(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=3)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    head, light, runs = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert head["checkpoint"] == checkpoint.CHECKPOINT_FORM and head["state"] == STATE_VERSION
    (row,) = light["tables"]["games"].values()
    assert row["id"] == game_id and not {"document", "snapshot", "events"} & set(row)
    fields = json.loads(bulky(light, runs, game_id))
    assert len(fields["document"]["deals"]) == 3
    assert [e["action"] for e in fields["events"]] == ["started", "recorded", "recorded", "recorded"]
    assert fields["snapshot"]["id"] == "gin"


def test_standings_from_a_checkpoint_parse_no_games_bulky_fields(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=1)
    other = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
    store.add_deal(other.id, DEAL)
    store.add_deal(other.id, DEAL)  # the game's last: it is finished and rated
    assert store.ratings("Club").ratings  # a finished game is rated
    right = store.standings("Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    again = opened(tmp_path)
    assert again.standings("Club") == right
    assert [g.id for g in again.games()] == [g.id for g in store.games()]
    state = again._ledger.state  # type: ignore[attr-defined]
    assert state._pending == {game_id, other.id}  # nothing parsed a game's deals


def test_ratings_kept_in_the_checkpoint_go_on_with_the_games_finished_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratings as far as they were rated are in the checkpoint: a store opened from it
    rates only the games finished after it, and gives the standings of rating every game."""
    from openskill.models import PlackettLuce

    store, _ = league_with_game(tmp_path, deals=1)
    for _ in range(3):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
        store.add_deal(game.id, DEAL)
        store.add_deal(game.id, DEAL)  # finished: rated
    store.standings("Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    (run,) = light["ratings"].values()
    assert run["rated"] == 3
    last = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
    store.add_deal(last.id, DEAL)
    store.add_deal(last.id, DEAL)
    expected = store.standings("Club")
    rated: list[int] = []
    real = PlackettLuce.rate

    def counted(self: PlackettLuce, teams: list[list[object]], **given: object) -> object:
        rated.append(1)
        return real(self, teams, **given)  # type: ignore[arg-type]

    monkeypatch.setattr(PlackettLuce, "rate", counted)
    again = opened(tmp_path)
    assert again.standings("Club") == expected
    assert len(rated) == 1  # the game finished after the checkpoint, not all four
    state = again._ledger.state  # type: ignore[attr-defined]
    state.rating_runs.clear()  # without what was kept: every game rated, the same standings
    again._ratings.clear()  # type: ignore[attr-defined]
    again._standings.clear()  # type: ignore[attr-defined]
    rated.clear()
    assert again.standings("Club") == expected
    assert len(rated) == 4


def test_ratings_current_at_the_checkpoint_go_on_without_checking_every_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint says which of its runs its games were rated to: a store opened from it
    goes on from those without the mark of every game, also with games changed after it that
    are not the run's; a game of the run changed after it is checked and rated again."""
    from scorer.league import ratings

    store, _ = league_with_game(tmp_path, deals=1)
    finished = []
    for _ in range(3):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
        store.add_deal(game.id, DEAL)
        store.add_deal(game.id, DEAL)
        finished.append(game.id)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert light["current"] == [f"{store.league('Club').id}\t"]
    marked: list[int] = []
    real = ratings.mark
    monkeypatch.setattr(ratings, "mark", lambda games: marked.append(len(games)) or real(games))
    assert opened(tmp_path).standings("Club") == store.standings("Club")
    assert marked == []
    late = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
    store.add_deal(late.id, DEAL)
    store.add_deal(late.id, DEAL)  # a game finished after the checkpoint: in its tail
    again = opened(tmp_path)
    assert again.standings("Club") == store.standings("Club") and marked == []
    store.remove_deal(finished[0], 1, why="entered twice")  # one of the run's games: no longer finished
    again = opened(tmp_path)
    assert again.standings("Club") == store.standings("Club")
    assert marked and marked[0] == 3  # the run's three games checked against its mark


def test_a_game_opened_from_a_checkpoint_reads_and_changes_as_before(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    again = opened(tmp_path)
    assert reads(again) == reads(store)
    again.add_deal(game_id, DEAL)
    again.replace_deal(game_id, 0, {"knocker": "Bea", "deadwood": {"Anna": 20, "Bea": 0}})
    store = Store.open(tmp_path)  # these two commits are read after the checkpoint
    assert reads(store) == reads(again)
    assert store.game(game_id).result.totals == again.game(game_id).result.totals


def test_a_checkpoint_saved_again_keeps_the_games_not_parsed_as_they_were(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    other = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"], league="Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, runs = saved_parts(tmp_path / CHECKPOINT_NAME)
    before = bulky(light, runs, other.id)
    again = opened(tmp_path)
    again.add_deal(game_id, DEAL)  # this game's fields are parsed; the other's are not
    assert again._ledger.state._pending == {other.id}  # type: ignore[attr-defined]
    again._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, runs = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert bulky(light, runs, other.id) == before
    assert reads(opened(tmp_path)) == reads(Store.open(tmp_path)) == reads(again)


def test_the_first_game_opened_decompresses_its_own_run_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoint, "CHUNK", 1)  # every game in a run of its own
    store, first = league_with_game(tmp_path, deals=1)
    second = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
    third = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"], league="Club").id
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, runs = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert len(runs) == 3 and sorted(light["bulk"][g][0] for g in (first, second, third)) == [0, 1, 2]
    again = opened(tmp_path)
    assert again.game(second).result.totals == store.game(second).result.totals  # its deals read
    bulk = again._ledger.state._bulk  # type: ignore[attr-defined]
    assert set(bulk._data) == {light["bulk"][second][0]}
    assert again._ledger.state._pending == {first, third}  # type: ignore[attr-defined]
    assert reads(again) == reads(store)


def test_a_checkpoint_saved_again_compresses_only_the_games_changed_or_added_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoint, "CHUNK", 1)  # every game in a run of its own
    store, first = league_with_game(tmp_path, deals=1)
    second = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
    third = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"], league="Club").id
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    compressed: list[bytes] = []
    compress = zlib.compress

    def counted(data: bytes, level: int = -1) -> bytes:
        compressed.append(data)
        return compress(data, level)

    monkeypatch.setattr(zlib, "compress", counted)
    store.add_deal(first, DEAL)
    fourth = store.start_game(ruleset="gin", players=["Bea", "Cid"], league="Club").id
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    # the first game changed, the third in the last run (not full: not kept), the fourth new;
    # the second's run is the one compressed last time
    assert len(compressed) == 3
    _, light, runs = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert [light["bulk"][g][0] for g in (first, second, third, fourth)] == [0, 1, 2, 3]
    assert len(json.loads(bulky(light, runs, first))["document"]["deals"]) == 2
    assert reads(opened(tmp_path)) == reads(store)


def test_a_checkpoint_of_the_earlier_form_is_ignored_and_the_log_folded(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path, deals=2)
    right = reads(store)
    # the form before: one JSON document after its sum (every game's row whole, no head line),
    # saved at the log's last commit: whole and of this store, but not a form this version reads
    ledger = store._ledger  # type: ignore[attr-defined]
    body = {
        "state": STATE_VERSION,
        "store": ledger.store_id,
        "position": ledger.position,
        "sum": ledger.last_sum,
        "start": ledger._line_start(),
        "offset": ledger.offset,
        "tables": {"players": {}, "leagues": {}, "seasons": {}, "games": {}, "nights": {}},
        "seen": [],
        "summaries": {},
        "heads": {},
    }
    text = json.dumps(body, separators=(",", ":")).encode("utf-8")
    (tmp_path / CHECKPOINT_NAME).write_bytes(checksum(text).encode("ascii") + b"\n" + text)
    assert checkpoint.load(tmp_path, store=ledger.store_id) is None
    again = Store.open(tmp_path)
    assert reads(again) == right  # an empty state from it would have lost the league and its game
    assert again._ledger.state._bulk is None  # type: ignore[attr-defined]


def resummed(path: Path, change: Any) -> None:
    """The checkpoint with its body changed by ``change`` and its sum made right again, so that
    only the checks after the sum can refuse it."""
    _, _, body = path.read_bytes().partition(b"\n")
    body = change(body)
    path.write_bytes(checksum(body).encode("ascii") + b"\n" + body)


@pytest.mark.parametrize(
    "damage",
    ["part cut short", "part not JSON", "a row longer than its names", "another form", "span out of order"],
)
def test_a_checkpoint_whose_parts_do_not_hold_together_is_ignored(tmp_path: Path, damage: str) -> None:
    store, _ = league_with_game(tmp_path, deals=2)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    right = reads(store)
    path = tmp_path / CHECKPOINT_NAME
    head_text = path.read_bytes().split(b"\n", 2)[1]
    head = json.loads(head_text)

    def with_head(body: bytes, **changes: Any) -> bytes:
        text, _, rest = body.partition(b"\n")
        return json.dumps({**json.loads(text), **changes}).encode() + b"\n" + rest

    if damage == "part cut short":
        resummed(path, lambda body: body[:-10])
    elif damage == "part not JSON":
        resummed(path, lambda body: with_head(body.partition(b"\n")[0], light=4, bulk=0) + b"abcd")
    elif damage == "a row longer than its names":
        _, light, runs = saved_parts(path)
        tables = checkpoint.columns(light["tables"])
        [[names, [row]]] = tables["games"]
        tables["games"] = [[names, [[*row, "one more"]]]]
        first = json.dumps({**light, "tables": tables}).encode()
        second = b"".join(zlib.compress(r) for r in runs)
        resummed(
            path,
            lambda body: (
                with_head(body.partition(b"\n")[0], light=len(first), bulk=len(second)) + first + second
            ),
        )
    elif damage == "another form":
        resummed(path, lambda body: with_head(body, checkpoint=head["checkpoint"] + 1))
    else:
        _, light, runs = saved_parts(path)
        light["bulk"] = {game: [run, end + 1, start] for game, (run, start, end) in light["bulk"].items()}
        second = b"".join(zlib.compress(r) for r in runs)
        light["chunks"] = [len(zlib.compress(r)) for r in runs]
        first = json.dumps({**light, "tables": checkpoint.columns(light["tables"])}).encode()
        resummed(
            path,
            lambda body: (
                with_head(body.partition(b"\n")[0], light=len(first), bulk=len(second)) + first + second
            ),
        )
    assert checkpoint.load(tmp_path, store=store._ledger.store_id) is None  # type: ignore[attr-defined]
    assert reads(Store.open(tmp_path)) == right


# -- the fold's refusal of a fact about a record it does not have -----------------------------


@pytest.mark.parametrize(
    ("kind", "fields", "table"),
    [
        ("deal.recorded", {"game": "g-none", "number": 1, "deal": DEAL}, "'games'"),
        ("game.called", {"game": "g-none", "after": 1}, "'games'"),
        ("game.finished", {"game": "g-none"}, "'games'"),
        ("game.extended", {"game": "g-none", "document": {}, "tags": {}}, "'games'"),
        ("night.round_seated", {"night": "n-none", "round": {}}, "'nights'"),
        ("night.extended", {"night": "n-none", "rounds": []}, "'nights'"),
        ("night.ended", {"night": "n-none", "rounds": 1}, "'nights'"),
        ("player.renamed", {"player": "p-none", "name": "Anna"}, "'players'"),
        ("season.closed", {"season": "s-none"}, "'seasons'"),
        ("record.kept", {"table": "tables", "record": {}}, "'tables'"),
    ],
)
def test_a_fact_about_a_record_the_state_lacks_is_refused_and_names_it(
    kind: str, fields: dict[str, Any], table: str
) -> None:
    state = State()
    with pytest.raises(StoreError) as caught:
        state.apply(new_fact(kind, at=AT, by="", **fields))
    message = message_of(caught.value)
    assert message is not None and message.code == "store.fact_without_record"
    assert message.params["kind"] == kind and message.params["table"] == table.strip("'")
    assert state.seen == set()  # the fact refused is not applied


@pytest.mark.parametrize("collecting", [True, False])
def test_reading_a_checkpoint_leaves_the_garbage_collector_as_it_found_it(
    tmp_path: Path, collecting: bool
) -> None:
    store, _ = league_with_game(tmp_path, deals=1)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    was = gc.isenabled()
    try:
        if not collecting:
            gc.disable()
        assert checkpoint.load(tmp_path, store=store._ledger.store_id) is not None  # type: ignore[attr-defined]
        (tmp_path / CHECKPOINT_NAME).write_bytes(b"0000000000000000\n{}")  # refused: paused all the same
        assert checkpoint.load(tmp_path, store=store._ledger.store_id) is None  # type: ignore[attr-defined]
        assert gc.isenabled() is collecting
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("collecting", [True, False])
def test_the_standings_leave_the_garbage_collector_as_they_found_it(tmp_path: Path, collecting: bool) -> None:
    """The standings pause the collector while they build thousands of objects (none garbage),
    and leave it as it was, also when they refuse."""
    store, _ = league_with_game(tmp_path, deals=1)
    paused: list[bool] = []
    real = State.played

    def played(self: State, **given: Any) -> Any:
        paused.append(not gc.isenabled())
        return real(self, **given)

    was = gc.isenabled()
    try:
        if not collecting:
            gc.disable()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(State, "played", played)
            assert store.standings("Club") is not None
        assert paused == [True]
        with pytest.raises(StoreError):
            store.standings("No such league")
        assert gc.isenabled() is collecting
    finally:
        if was:
            gc.enable()


def test_reads_from_a_checkpoint_write_nothing(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=1)
    other = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
    store.add_deal(other.id, DEAL)
    store.add_deal(other.id, DEAL)  # finished: rated
    store.standings("Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    again = opened(tmp_path)
    anna = again.player("Anna").id
    again.standings("Club")
    again.standings_by_ruleset("Club")
    again.ratings("Club")
    assert again.player_stats("Club", "Anna").ratings["gin"].history  # the kept points, read
    again.head_to_head("Club", "Anna", "Bea")
    again.games()
    again.game(game_id)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files
    assert again.standings("Club")[0].player in {anna, again.player("Bea").id}


def test_summaries_kept_by_a_checkpoint_are_kept_again_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint saved by a store opened from one keeps the summaries nobody asked for as
    they were: the next open's standings replay no game."""
    store, game_id = league_with_game(tmp_path, deals=1)
    other = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
    store.add_deal(other.id, DEAL)
    store.add_deal(other.id, DEAL)
    right = store.standings("Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    again = opened(tmp_path)
    again._ledger.save_checkpoint()  # type: ignore[attr-defined]  # nothing read: rows kept as they were
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert set(light["summaries"]) == {game_id, other.id}

    def no_replay(self: State, record: object) -> object:
        raise AssertionError("a game replayed: its kept summary was lost")

    monkeypatch.setattr(State, "replay", no_replay)
    assert opened(tmp_path).standings("Club") == right


def test_a_checkpoint_keeps_every_leagues_ratings_though_no_standings_were_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved by a program that only recorded deals, the checkpoint still holds the ratings of
    its position: the next open's standings rate no game again."""
    from openskill.models import PlackettLuce

    store, _ = league_with_game(tmp_path, deals=1)
    for _ in range(2):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
        store.add_deal(game.id, DEAL)
        store.add_deal(game.id, DEAL)
    expected = store.standings("Club")
    store._ledger.state.rating_runs.clear()  # type: ignore[attr-defined]  # as a program that only recorded
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    league_id = store.league("Club").id
    assert set(light["ratings"]) == {f"{league_id}\t"}
    rated: list[int] = []
    real = PlackettLuce.rate

    def counted(self: PlackettLuce, teams: list[list[object]], **given: object) -> object:
        rated.append(1)
        return real(self, teams, **given)  # type: ignore[arg-type]

    monkeypatch.setattr(PlackettLuce, "rate", counted)
    reader = opened(tmp_path)
    assert reader.standings("Club") == expected and reader.standings(league_id) == expected
    assert rated == []


def test_a_checkpoint_is_saved_when_a_leagues_ratings_cannot_be_brought_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    store.add_deal(game_id, DEAL)
    right = reads(store)

    def refused(self: State, **given: Any) -> Any:
        raise StoreError(Message("store.no_game", key=repr(game_id)))

    monkeypatch.setattr(State, "played", refused)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    monkeypatch.undo()
    head, _, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert head["position"] == store.position  # saved all the same, at the last commit
    assert reads(opened(tmp_path)) == right


def _replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games replayed (to summarize them) from now on."""
    replayed: list[str] = []
    real = State.replay

    def counted(self: State, record: Any) -> Any:
        replayed.append(record.id)
        return real(self, record)

    monkeypatch.setattr(State, "replay", counted)
    return replayed


def _finished_games(store: Store, count: int) -> None:
    for _ in range(count):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=TWO_DEALS)
        store.add_deal(game.id, DEAL)
        store.add_deal(game.id, DEAL)


def test_a_checkpoint_saved_by_a_state_folded_from_the_log_replays_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folded from the log, the state has no summary yet: the write that saves its checkpoint
    leaves the league's ratings to its standings rather than replay every game first."""
    store, game_id = league_with_game(tmp_path, deals=2)
    assert not (tmp_path / CHECKPOINT_NAME).exists()  # a few commits: none saved yet
    folded = Store.open(tmp_path)
    assert folded._ledger.state._bulk is None  # type: ignore[attr-defined]  # from the log
    replayed = _replays(monkeypatch)
    folded._ledger.save_checkpoint()  # type: ignore[attr-defined]
    assert replayed == []
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert light["ratings"] == {}
    folded.standings("Club")  # its standings replay it, once, and keep its ratings
    assert replayed == [game_id]
    folded._ledger.save_checkpoint()  # type: ignore[attr-defined]
    _, light, _ = saved_parts(tmp_path / CHECKPOINT_NAME)
    assert set(light["ratings"]) == {f"{store.league('Club').id}\t"}


# -- a checkpoint that no longer spares the next open is saved again at the next commit -------


def test_a_checkpoint_of_summaries_by_other_code_is_saved_again_after_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an update of the code, the checkpoint's summaries are not read: the first commit
    after a read that summarized every game saves them, so that fresh opens stop replaying
    every game (they did until 200 more commits)."""
    from scorer.league import state as state_module

    store, _ = league_with_game(tmp_path, deals=1)
    _finished_games(store, 3)
    store.standings("Club")
    monkeypatch.setattr(state_module, "CODE_VERSION", "0.0+an-earlier-code")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    monkeypatch.undo()
    replayed = _replays(monkeypatch)
    updated = opened(tmp_path)
    right = updated.standings("Club")
    assert len(replayed) == 4  # every game: the summaries kept are of the earlier code
    before = (tmp_path / CHECKPOINT_NAME).read_bytes()
    updated.add_player("Cid")  # the next commit
    assert (tmp_path / CHECKPOINT_NAME).read_bytes() != before
    replayed.clear()
    assert opened(tmp_path).standings("Club") == right
    assert replayed == []


def test_a_commit_before_any_summary_was_read_does_not_save_the_checkpoint_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.league import state as state_module

    store, _ = league_with_game(tmp_path, deals=1)
    _finished_games(store, 2)
    monkeypatch.setattr(state_module, "CODE_VERSION", "0.0+an-earlier-code")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    monkeypatch.undo()
    before = (tmp_path / CHECKPOINT_NAME).read_bytes()
    opened(tmp_path).add_player("Cid")  # nothing read: nothing the checkpoint would gain
    assert (tmp_path / CHECKPOINT_NAME).read_bytes() == before


def test_a_store_folded_from_its_log_saves_a_checkpoint_at_the_next_commit(tmp_path: Path) -> None:
    """A checkpoint of an earlier form (or none) beside a sealed log: the open folds every
    commit; the next commit saves one, so that the opens after it do not."""
    store, _ = league_with_game(tmp_path, deals=3)
    store._ledger.seal()  # type: ignore[attr-defined]
    (tmp_path / CHECKPOINT_NAME).unlink()
    folded = Store.open(tmp_path)
    assert folded._ledger.state._bulk is None  # type: ignore[attr-defined]
    folded.add_player("Cid")
    assert checkpoint.load(tmp_path, store=folded._ledger.store_id) is not None  # type: ignore[attr-defined]
    assert reads(opened(tmp_path)) == reads(folded)
