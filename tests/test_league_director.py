"""The director of a club night: calls from the tables and penalties (scorer/league/director.py,
the store's call_director/answer_call/calls/penalise/lift_penalty; docs/rules.md, "Penalties
(club nights)"; docs/cli.md, "Club night")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import reopen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.deal import Deal
from scorer.game import Game, Penalty, penalty_effect
from scorer.league.errors import GameStatusError, StoreInputError
from scorer.league.store import Store
from scorer.ruleset import load_ruleset

SHORT = {"target": 30}  # rommi to 30: one deal ends a game (the lowest total wins)
GIN = {"target": 50}  # gin to 50: one big knock ends it (the highest total wins)


@pytest.fixture()
def store(store_of_each_kind: Store) -> Store:
    """A store of each kind (conftest) with the league Club."""
    store_of_each_kind.create_league("Club")
    return store_of_each_kind


def rommi_night(store: Store) -> tuple[str, str, list[str]]:
    """A night of one rommi table of three, finished: the night, the game, its players by seat
    (deal: the first seat out with 0, the second 36, the third 20)."""
    night = store.start_night("Club", players=["Anna", "Bea", "Cid"], ruleset="rommi", seed=1, options=SHORT)
    table = night.rounds[0].tables[0]
    players = list(table.players)
    hands = dict(zip(players, ["", "KS AH *", "KH QH JH"], strict=True))
    store.add_deal(table.game, {"hands": hands, "out": players[0]})
    return night.id, table.game, players


def gin_night(store: Store) -> tuple[str, str, list[str]]:
    """A night of one gin table, finished: the first seat knocked and won 25 + 30 = 55 to 0."""
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin", seed=1, options=GIN)
    table = night.rounds[0].tables[0]
    players = list(table.players)
    store.add_deal(table.game, {"knocker": players[0], "deadwood": {players[0]: 0, players[1]: 30}})
    return night.id, table.game, players


# -- calls ----------------------------------------------------------------------------------------


def test_a_table_calls_and_the_director_answers_kept_when_reopened(store: Store) -> None:
    night, game, _ = rommi_night(store)
    first = store.call_director(game, "rules", "may a joker be swapped?", by="Table 1")
    second = store.call_director(game, " Dispute ", by="Table 1")
    assert (first.table, first.round, first.reason, first.note, first.by) == (
        1,
        1,
        "rules",
        "may a joker be swapped?",
        "Table 1",
    )
    assert first.open and second.reason == "dispute" and second.note is None
    answered = store.answer_call(first.id[:8], "yes, in a meld on the table", by="Director")
    assert not answered.open
    assert (answered.answer, answered.answered_by) == ("yes, in a meld on the table", "Director")
    again = reopen(store)
    calls = again.calls("Club")
    assert [c.id for c in calls] == [second.id, first.id]  # newest first
    assert calls[1].answer == "yes, in a meld on the table" and calls[0].open
    assert [c.id for c in again.game_calls(game)] == [second.id, first.id]
    assert again.calls("Club", night)[0].night == night


def test_call_refusals_write_nothing(store: Store) -> None:
    _, game, _ = rommi_night(store)
    plain = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club").id
    before = store.position
    with pytest.raises(StoreInputError, match=f"game '{plain}' is not a table of a club night"):
        store.call_director(plain, "rules")
    with pytest.raises(StoreInputError, match="call reason 'lunch': choose rules, dispute, penalty"):
        store.call_director(game, "lunch")
    with pytest.raises(StoreInputError, match="a note is at most 500 characters"):
        store.call_director(game, "rules", "x" * 501)
    with pytest.raises(StoreInputError, match="there is no call 'nope'"):
        store.answer_call("nope")
    call = store.call_director(game, "penalty")
    store.answer_call(call.id)
    after = store.position
    with pytest.raises(StoreInputError, match="is answered already"):
        store.answer_call(call.id, "again")
    assert after - before == 2 and store.position == after
    assert store.calls("Club")[0].answer == ""


# -- penalties ------------------------------------------------------------------------------------


def test_a_penalty_where_the_lowest_wins_adds_points_and_moves_the_places(store: Store) -> None:
    _, game, (out, second, third) = rommi_night(store)
    before = store.game(game).result
    assert before.totals == {out: 0, second: 36, third: 30}
    assert before.winner == out
    stored = store.penalise(game, out, 40, why="looked at the stock", by="Director")
    assert stored.result.totals == {out: 40, second: 36, third: 30}
    assert stored.result.winner == third
    ids = dict(zip(stored.document["players"], stored.players, strict=True))
    _, rows = store.night_standings("Club")
    assert [r.player for r in rows] == [ids[third], ids[second], ids[out]]
    assert {r.player: r.penalties for r in rows} == {ids[out]: 40, ids[second]: 0, ids[third]: 0}
    info = next(g for g in store.games(league="Club") if g.id == game)
    assert info.winner == ids[third] and info.summary.ranking[ids[out]] == 3
    penalty = stored.game.penalties[0]
    assert (penalty.player, penalty.points, penalty.why, penalty.by) == (
        out,
        40,
        "looked at the stock",
        "Director",
    )
    assert reopen(store).night_penalties("Club") == {game: (penalty,)}
    lifted = store.lift_penalty(game, penalty.id[:6], by="Director")
    assert lifted.result.totals == before.totals and lifted.result.winner == out
    assert lifted.game.penalties == ()
    assert store.night_penalties("Club") == {game: ()}
    _, rows = store.night_standings("Club")
    assert all(r.penalties == 0 for r in rows)


def test_a_penalty_where_the_highest_wins_takes_points_away(store: Store) -> None:
    _, game, (knocker, other) = gin_night(store)
    won = store.game(game).result.totals[knocker]  # gin, its bonuses and boxes
    assert store.game(game).result.totals == {knocker: won, other: 0} and won > 0
    stored = store.penalise(game, other, 5, why="slow play")
    assert stored.result.totals == {knocker: won, other: -5}
    stored = store.penalise(game, knocker, won + 5, why="marked cards")
    assert stored.result.totals == {knocker: -5, other: -5}
    assert stored.result.winner is None  # level: nobody wins
    stored = store.penalise(game, knocker, 1, why="talking")
    assert stored.result.winner == other
    _, rows = store.night_standings("Club")
    ids = dict(zip(stored.document["players"], stored.players, strict=True))
    assert rows[0].player == ids[other]
    assert {r.player: r.penalties for r in rows} == {ids[knocker]: won + 6, ids[other]: 5}
    again = reopen(store)
    assert again.game(game).result.totals == {knocker: -6, other: -5}
    assert [e.action for e in again.events(game)][-3:] == ["penalised", "penalised", "penalised"]
    event = again.events(game)[-1]
    assert (event.by, event.why, dict(event.was or {})["points"]) == ("", "talking", 1)


def test_penalty_refusals_write_nothing(store: Store) -> None:
    _, game, (out, *_) = rommi_night(store)
    plain = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club").id
    store.add_player("Zed")
    before = store.position
    with pytest.raises(StoreInputError, match=f"game '{plain}' is not a table of a club night"):
        store.penalise(plain, "Anna", 5, why="slow")
    with pytest.raises(StoreInputError, match="player 'Zed' is not at table 1"):
        store.penalise(game, "Zed", 5, why="slow")
    for points in (0, -3, "2.5", True, "many"):
        with pytest.raises(StoreInputError, match=f"penalty {points!r}: a penalty is a whole number"):
            store.penalise(game, out, points, why="slow")  # type: ignore[arg-type]
    with pytest.raises(StoreInputError, match="a penalty needs its reason"):
        store.penalise(game, out, 5, why="  ")
    with pytest.raises(StoreInputError, match="has no penalty 'nope'"):
        store.lift_penalty(game, "nope")
    store.delete_game(game)
    after = store.position
    with pytest.raises(GameStatusError):
        store.penalise(game, out, 5, why="slow")
    assert after - before == 1 and store.position == after


def test_fewest_penalties_breaks_a_tie_at_the_night(store: Store) -> None:
    night = store.start_night(
        "Club",
        players=["Anna", "Bea", "Cid", "Dan"],
        ruleset="gin",
        seed=3,
        options=GIN,
        tiebreaks=["points", "penalties"],
    )
    one, two = night.rounds[0].tables
    for table in (one, two):  # each first seat wins 55 to 0
        a, b = table.players
        store.add_deal(table.game, {"knocker": a, "deadwood": {a: 0, b: 30}})
    winners = [one.players[0], two.players[0]]
    store.penalise(one.game, winners[0], 3, why="slow play")
    _, rows = store.night_standings("Club")
    names = {p.id: p.name for p in store.players()}
    assert [names[r.player] for r in rows[:2]] == [winners[1], winners[0]]
    assert rows[0].tiebreak == "penalties"


def test_calls_and_penalties_travel_in_the_facts_export(store: Store, tmp_path: Path) -> None:
    _, game, (out, *_) = rommi_night(store)
    call = store.call_director(game, "penalty", "Bea saw the stock", by="Table 1")
    store.answer_call(call.id, "3 points", by="Director")
    store.penalise(game, out, 3, why="saw the stock", by="Director")
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(store.export_facts("Club")), encoding="utf-8")
    other = Store.memory()
    other.create_league("Club")
    other.import_files("Club", [path])
    calls = other.calls("Club")
    assert [(c.id, c.answer, c.answered_by) for c in calls] == [(call.id, "3 points", "Director")]
    assert other.game(game).result.totals == store.game(game).result.totals
    assert other.game(game).game.penalties == store.game(game).game.penalties


def test_calls_and_penalties_are_kept_by_the_checkpoint(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    _, game, (out, *_) = rommi_night(store)
    call = store.call_director(game, "rules", by="Table 1")
    store.penalise(game, out, 3, why="slow play", by="Director")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    again = Store.open(tmp_path / "league")
    assert [c.id for c in again.calls("Club")] == [call.id]
    assert again.game(game).result.totals == store.game(game).result.totals
    again.answer_call(call.id, "yes")  # read after the checkpoint
    assert Store.open(tmp_path / "league").calls("Club")[0].answer == "yes"


# -- the engine: a penalty is the game without it, plus or minus its points ----------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(["rommi", "gin"]),
    deals=st.lists(st.integers(min_value=0, max_value=9), max_size=3),
    penalties=st.lists(st.tuples(st.integers(0, 1), st.integers(1, 200)), max_size=4),
)
def test_totals_are_the_game_without_penalties_plus_or_minus_them(
    ruleset: str, deals: list[int], penalties: list[tuple[int, int]]
) -> None:
    rules = load_ruleset(ruleset, options={"target": None} if ruleset == "rommi" else {"target": 10_000})
    players = ("Anna", "Bea")
    game = Game(ruleset=rules, players=players)
    for points in deals:
        if ruleset == "rommi":
            deal = Deal.build(points={"Bea": points * 3}, out="Anna")
        else:
            deal = Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": points})
        game = game.add(deal)
    given_ = [Penalty(players[seat], points, why="w") for seat, points in penalties]
    penalised = game.with_penalties(given_)
    for player in players:
        points = sum(p.points for p in given_ if p.player == player)
        expected = game.result.totals[player] + penalty_effect(points, rules)
        assert penalised.result.totals[player] == expected
        assert (expected > game.result.totals[player]) == (points > 0 and rules.winner == "lowest")
    assert penalised.result.deals == game.result.deals  # no deal changes


# -- the command line -----------------------------------------------------------------------------


@pytest.fixture()
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "league")
    assert main(["league", "create", "Club", "--db", path]) == 0
    assert main(["league", "night", "start", "--league", "Club", "--players", "Anna,Bea,Cid,Dan",
                 "--ruleset", "gin", "--seed", "3", "--db", path]) == 0  # fmt: skip
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    capsys.readouterr()
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and status == 0 else captured.out
    return status, out, captured.err


def test_cli_call_calls_answer(capsys: pytest.CaptureFixture[str], db: str) -> None:
    status, text, _ = run(capsys, "league", "night", "call", "--league", "Club", "--table", "2",
                          "--reason", "dispute", "--note", "who dealt?", "--by", "T2",
                          "--db", db)  # fmt: skip
    assert status == 0 and "table 2 called the director (a dispute); call " in text
    status, data, _ = run(capsys, "league", "night", "calls", "--league", "Club", "--json", "--db", db)
    assert status == 0 and len(data) == 1
    call = data[0]
    assert (call["table"], call["reason"], call["note"], call["by"], call["open"]) == (
        2,
        "dispute",
        "who dealt?",
        "T2",
        True,
    )
    status, text, _ = run(capsys, "league", "night", "calls", "--league", "Club", "--db", db)
    assert (
        "table 2 (round 1): a dispute: who dealt?, called by T2" in text
        and "waiting for the director" in text
    )
    status, data, _ = run(capsys, "league", "night", "answer", call["id"][:8], "--note", "Bea dealt",
                          "--by", "Dir", "--json", "--db", db)  # fmt: skip
    assert status == 0 and data["answer"] == "Bea dealt" and data["answered_by"] == "Dir" and not data["open"]
    status, text, _ = run(capsys, "--lang", "fi", "league", "night", "calls", "--league", "Club", "--db", db)
    assert (
        "pöytä 2 (kierros 1): erimielisyys: who dealt?, kutsui T2" in text
        and "vastasi Dir: Bea dealt" in text
    )


def test_cli_penalise_lift_penalties(capsys: pytest.CaptureFixture[str], db: str) -> None:
    game_id = Store.open(db).night("Club").rounds[0].tables[0].game
    player = Store.open(db).game(game_id).document["players"][0]
    status, data, _ = run(capsys, "league", "night", "penalise", "--league", "Club", "--table", "1",
                          "--player", player, "--points", "7", "--why", "slow play", "--by", "Dir",
                          "--json", "--db", db)  # fmt: skip
    assert status == 0 and data["totals"][player] == -7
    penalty = data["penalty"]
    assert (penalty["player"], penalty["points"], penalty["why"], penalty["by"]) == (
        player,
        7,
        "slow play",
        "Dir",
    )
    status, text, _ = run(
        capsys, "--lang", "fi", "league", "night", "penalties", "--league", "Club", "--db", db
    )
    assert f"{player} 7 pistettä (slow play), antoi Dir" in text
    status, text, _ = run(capsys, "league", "log", game_id, "--db", db)
    assert f"penalised {player} 7 points by Dir: slow play" in text
    status, text, _ = run(capsys, "league", "night", "lift", "--league", "Club", "--table", "1",
                          "--penalty", penalty["id"][:8], "--db", db)  # fmt: skip
    assert status == 0 and "penalty" in text and "lifted" in text
    assert Store.open(db).game(game_id).result.totals[player] == 0


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["call", "--league", "Club", "--table", "9", "--reason", "rules"], "round 1 has no table 9"),
        (["call", "--league", "Club", "--table", "1", "--reason", "lunch"],
         "call reason 'lunch': choose rules, dispute, penalty"),
        (["answer", "zzz"], "there is no call 'zzz'"),
        (["penalise", "--league", "Club", "--table", "1", "--player", "Zed", "--points", "2", "--why", "x"],
         "player 'Zed' is not at table 1"),
        (["penalise", "--league", "Club", "--table", "1", "--player", "Anna", "--points", "0", "--why", "x"],
         "penalty '0': a penalty is a whole number of points, 1 or more"),
        (["lift", "--league", "Club", "--table", "1", "--penalty", "nope"], "has no penalty 'nope'"),
    ],
)  # fmt: skip
def test_cli_refusals_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str], db: str, argv: list[str], said: str
) -> None:
    before = Store.open(db).position
    status, _, err = run(capsys, "league", "night", *argv, "--db", db)
    assert status == 2 and said in err and len(err.strip().splitlines()) == 1
    assert Store.open(db).position == before


def test_cli_refusals_speak_finnish(capsys: pytest.CaptureFixture[str], db: str) -> None:
    status, _, err = run(capsys, "--lang", "fi", "league", "night", "penalise", "--league", "Club",
                         "--table", "1", "--player", "Zed", "--points", "2", "--why", "x",
                         "--db", db)  # fmt: skip
    assert status == 2 and "pelaaja 'Zed' ei ole pöydässä 1" in err
