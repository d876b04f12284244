"""A club night's round count, round timer and handicap, in the store and on the command line
(scorer/league/night.py, scorer/league/store.py; docs/rules.md "Timed rounds (club nights)"
and "Handicap (club nights)"; docs/cli.md "Club night").

The store's clock is set by the test (``Store.clock``), so a deadline passes without waiting.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_league_night import run  # a command line's exit status, output (JSON read) and errors

from scorer.game import InvalidGameError
from scorer.league.night import NightEndedError, NightOverError, handicap
from scorer.league.store import Store

FOUR = ["Anna", "Bea", "Cid", "Dan"]
START = "2026-12-04T18:00:00.000000+00:00"
HALF_HOUR = "2026-12-04T18:30:00.000000+00:00"
SHORT = {"target": 30}  # rommi to 30: one deal of 30 or more ends a game


class Clock:
    """The store's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> str:
        return self.now


@pytest.fixture(params=["memory", "folder"])
def clocked(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, Clock]]:
    clock = Clock()
    if request.param == "memory":
        store = Store.memory(clock=clock)
    else:
        store = Store.open(tmp_path / "league", clock=clock)
    store.create_league("Club")
    yield store, clock


def deal_of(store: Store, game_id: str, points: int) -> dict[str, Any]:
    """A rommi deal: the first seat goes out, the second pays ``points``, any others 1."""
    players = list(store.game(game_id).document["players"])
    paid = {p: points if seat == 1 else 1 for seat, p in enumerate(players) if seat}
    return {"points": paid, "out": players[0]}


def finish_round(store: Store, night_round: Any) -> None:
    for table in night_round.tables:
        store.add_deal(table.game, deal_of(store, table.game, 30))


# -- the round count ----------------------------------------------------------------------------


def test_a_planned_night_refuses_a_round_past_its_plan_and_writes_nothing(
    clocked: tuple[Store, Clock],
) -> None:
    store, _ = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, rounds=2)
    assert night.planned == 2 and not night.over
    finish_round(store, night.rounds[0])
    night = store.next_round("Club")
    assert not store.night("Club").over  # round 2 is still playing
    finish_round(store, night.rounds[1])
    assert store.night("Club").over and store.nights("Club")[0].over
    games, changes = len(store.games()), store.changes()
    with pytest.raises(NightOverError) as caught:
        store.next_round("Club")
    assert str(caught.value) == "the night had 2 rounds and all are seated: start a new night for more"
    assert len(store.games()) == games and store.changes() == changes


def test_an_open_ended_night_is_never_over(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT)
    finish_round(store, night.rounds[0])
    assert night.planned is None and not store.night("Club").over


def test_the_director_ends_an_open_ended_night_and_only_then_is_there_a_winner(
    clocked: tuple[Store, Clock],
) -> None:
    """Issue 24, 7: one rule, the store's: an open-ended night leads until it is ended."""
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT)
    finish_round(store, night.rounds[0])
    night = store.next_round("Club")
    clock.now = HALF_HOUR
    ended = store.end_night("Club")  # round 2 still playing: it becomes the last
    assert (ended.planned, ended.over) == (2, False)
    assert store.export_league("Club")["nights"][0]["changed"] == HALF_HOUR
    with pytest.raises(NightOverError):
        store.next_round("Club")
    games, changes = len(store.games()), store.changes()
    with pytest.raises(NightEndedError) as caught:
        store.end_night("Club", night=night.id)
    assert str(caught.value) == "the night already ends with round 2: there is nothing to end"
    assert isinstance(caught.value, ValueError)
    assert len(store.games()) == games and store.changes() == changes
    finish_round(store, night.rounds[1])
    assert store.night("Club").over


def test_a_planned_night_can_be_ended_early(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, rounds=3)
    finish_round(store, night.rounds[0])
    assert not store.night("Club").over
    assert store.end_night("Club").over  # its only round has ended: over at once


def test_cli_night_end_and_the_standings_say_leading_until_then(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "league")
    store = Store.open(db)
    store.create_league("Club")
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT)
    finish_round(store, night.rounds[0])
    asked = ("league", "night", "standings", "--league", "Club", "--db", db)
    status, text, _ = run(capsys, *asked)
    assert status == 0 and "leading the night: " in text and "winner" not in text
    status, out, _ = run(capsys, "league", "night", "end", "--league", "Club", "--db", db, "--json")
    assert status == 0 and (out["planned"], out["over"], out["rounds"]) == (1, True, 1)
    assert out["winner"] == out["leader"] is not None
    status, standing, _ = run(capsys, *asked, "--json")
    assert standing["over"] and standing["winner"] == out["winner"]
    status, text, _ = run(capsys, *asked)
    assert f"winner of the night: {out['winner']}" in text
    status, _, err = run(capsys, "league", "night", "end", "--league", "Club", "--db", db)
    assert status == 2 and err.strip().endswith(
        "the night already ends with round 1: there is nothing to end"
    )


def test_a_night_of_no_rounds_is_refused(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    with pytest.raises(ValueError, match="rounds '0': a night plans a whole number of rounds, 1 or more"):
        store.start_night("Club", players=FOUR, ruleset="rommi", rounds=0)
    assert store.games() == []


# -- the round timer ----------------------------------------------------------------------------


def test_each_table_game_gets_the_rounds_deadline(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, timer=30)
    first = night.rounds[0]
    assert (first.timer, first.deadline) == (30, HALF_HOUR)
    for table in first.tables:
        tag = store.game(table.game).night
        assert tag is not None and (tag.round, tag.table, tag.deadline) == (1, table.table, HALF_HOUR)
        assert table.deadline == HALF_HOUR


def test_the_first_deal_saved_at_the_deadline_ends_the_game(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, timer=30)
    game_id = night.rounds[0].tables[0].game
    clock.now = "2026-12-04T18:29:59.999999+00:00"
    saved = store.add_deal(game_id, deal_of(store, game_id, 10))
    assert not saved.finished  # before the deadline: play on
    clock.now = HALF_HOUR
    saved = store.add_deal(game_id, deal_of(store, game_id, 5))
    assert saved.finished and saved.result.called and saved.document["ends_after"] == 2
    assert saved.result.winner == saved.game.players[0]
    assert [e.action for e in store.events(game_id)][-1] == "finished"
    assert store.game(game_id).result.called  # read back from the stored record


def test_a_correction_after_the_call_keeps_it_and_removing_the_called_deal_lifts_it(
    clocked: tuple[Store, Clock],
) -> None:
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, timer=30)
    game_id = night.rounds[0].tables[0].game
    store.add_deal(game_id, deal_of(store, game_id, 10))
    clock.now = "2026-12-04T18:45:00.000000+00:00"
    store.add_deal(game_id, deal_of(store, game_id, 5))
    corrected = store.replace_deal(game_id, 0, deal_of(store, game_id, 12))
    assert corrected.finished and corrected.game.ends_after == 2
    removed = store.remove_deal(game_id, 1)
    assert not removed.finished and removed.game.ends_after is None
    put_back = store.put_back_deal(game_id, 1, deal_of(store, game_id, 5))  # saved again: time is up
    assert put_back.finished and put_back.game.ends_after == 2


def test_a_deal_put_back_just_after_the_called_deal_is_refused_and_nothing_is_saved(
    clocked: tuple[Store, Clock],
) -> None:
    # Called after deal 2 (index 1): index 2 comes after the call, so the game is over before
    # it; put back before the called deal, it moves the call one deal on, in the store's record
    # as read back (the fold of the facts) as in the game.
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, timer=30)
    game_id = night.rounds[0].tables[0].game
    store.add_deal(game_id, deal_of(store, game_id, 10))
    clock.now = "2026-12-04T18:45:00.000000+00:00"
    store.add_deal(game_id, deal_of(store, game_id, 5))
    facts = store.position
    with pytest.raises(InvalidGameError, match="deal 3: the game is already over after deal 2"):
        store.put_back_deal(game_id, 2, deal_of(store, game_id, 7))
    assert store.position == facts
    again = Store.open(store.location) if store.location is not None else store
    kept = again.game(game_id)
    assert (len(kept.game.deals), kept.document["ends_after"], kept.finished) == (2, 2, True)
    moved = store.put_back_deal(game_id, 0, deal_of(store, game_id, 7))
    assert moved.game.ends_after == 3 and moved.finished
    again = Store.open(store.location) if store.location is not None else store
    read = again.game(game_id)
    assert (len(read.game.deals), read.document["ends_after"], read.finished) == (3, 3, True)
    assert read.result.totals == moved.result.totals


def test_a_deal_put_back_before_the_deadline_does_not_call_the_game(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, timer=30)
    game_id = night.rounds[0].tables[0].game
    store.add_deal(game_id, deal_of(store, game_id, 10))
    store.remove_deal(game_id, 0)
    assert not store.put_back_deal(game_id, 0, deal_of(store, game_id, 10)).finished


def test_a_game_without_a_timer_is_never_called(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3)
    game_id = night.rounds[0].tables[0].game
    clock.now = "2026-12-05T03:00:00.000000+00:00"
    assert not store.add_deal(game_id, deal_of(store, game_id, 10)).finished


def test_the_timer_carries_to_the_next_round_unless_changed(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, timer=30)
    finish_round(store, night.rounds[0])
    clock.now = "2026-12-04T19:00:00.000000+00:00"
    second = store.next_round("Club").rounds[1]
    assert (second.timer, second.deadline) == (30, "2026-12-04T19:30:00.000000+00:00")
    finish_round(store, second)
    third = store.next_round("Club", timer=45).rounds[2]
    assert (third.timer, third.deadline) == (45, "2026-12-04T19:45:00.000000+00:00")
    finish_round(store, third)
    fourth = store.next_round("Club", timer=None).rounds[3]
    assert (fourth.timer, fourth.deadline) == (None, None)
    assert store.game(fourth.tables[0].game).night.deadline is None  # type: ignore[union-attr]


# -- handicap -----------------------------------------------------------------------------------


def rate(store: Store, ruleset: str, winner: str, loser: str, deal: dict[str, Any], times: int = 5) -> None:
    """``times`` league games of ``ruleset`` won by ``winner``, each one deal long."""
    for _ in range(times):
        game = store.start_game(ruleset=ruleset, players=[winner, loser], league="Club", options=SHORT)
        store.add_deal(game.id, deal)


def test_a_gin_handicap_gives_the_weaker_player_points_from_the_rating_gap(
    clocked: tuple[Store, Clock],
) -> None:
    store, _ = clocked
    gin_win = {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 80}}  # 105: one deal ends it
    rate(store, "gin", "Anna", "Bea", gin_win)
    ratings = store.ratings("Club")
    anna = ratings.get(store.player("Anna").id, "gin")
    bea = ratings.get(store.player("Bea").id, "gin")
    assert anna is not None and bea is not None and not bea.provisional
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin", handicap=True)
    expected = min(int(5 * (anna.mu - bea.mu) + 0.5), 49)
    assert expected > 0
    table = night.rounds[0].tables[0]
    assert table.start == {"Bea": expected}
    game = store.game(table.game)
    assert game.result.totals == {"Anna": 0, "Bea": expected} and game.document["start"] == {"Bea": expected}
    assert night.handicap and store.night("Club").handicap


def test_a_penalty_handicap_gives_the_stronger_players_penalty_points(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    rate(store, "rommi", "Anna", "Bea", {"points": {"Bea": 30}, "out": "Anna"})
    ratings = store.ratings("Club")
    anna = ratings.get(store.player("Anna").id, "rommi")
    assert anna is not None
    night = store.start_night("Club", players=["Anna", "Bea", "Cid"], ruleset="rommi", handicap=True)
    table = night.rounds[0].tables[0]
    bea = ratings.get(store.player("Bea").id, "rommi")
    assert bea is not None
    strengths = {"Anna": anna.mu, "Bea": bea.mu, "Cid": 25.0}  # Cid has no rating: the prior
    assert table.start == {
        p: v for p, v in handicap(strengths, per_mu=25, lowest_wins=True, target=500).items() if v
    }
    assert table.start["Anna"] > 0 and "Bea" not in table.start  # Bea is the weakest: 0


def test_a_night_without_handicap_starts_everyone_at_zero(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    rate(store, "gin", "Anna", "Bea", {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 80}})
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin")
    assert night.rounds[0].tables[0].start == {} and not night.handicap


def test_the_handicap_formula_by_hand() -> None:
    # gin: Anna 30.0, Bea 25.8: Bea starts with 5 x 4.2 = 21, Anna (the strongest) with 0
    assert handicap({"Anna": 30.0, "Bea": 25.8}, per_mu=5, lowest_wins=False, target=100) == {
        "Anna": 0,
        "Bea": 21,
    }
    # rommi, lowest wins: Cid (the weakest) 0; Bea 25 x 7.8 = 195; Anna 25 x 12 = 300, capped at 249
    assert handicap({"Anna": 30.0, "Bea": 25.8, "Cid": 18.0}, per_mu=25, lowest_wins=True, target=500) == {
        "Anna": 249,
        "Bea": 195,
        "Cid": 0,
    }
    assert handicap({"Anna": 25.1, "Bea": 25.0}, per_mu=5, lowest_wins=False, target=None) == {
        "Anna": 0,
        "Bea": 1,  # 0.5 rounds up
    }


# -- the command line ---------------------------------------------------------------------------


@pytest.fixture()
def db(tmp_path: Path) -> str:
    """A league folder with league Club, made by another program (the store)."""
    folder = tmp_path / "league"
    Store.open(folder).create_league("Club")
    return str(folder)


def start(db: str, *extra: str) -> tuple[str, ...]:
    return (
        "league", "night", "start", "--league", "Club", "--players", "Anna,Bea,Cid,Dan",
        "--ruleset", "rommi", "--option", "target=30", "--seed", "3", *extra, "--db", db,
    )  # fmt: skip


def test_cli_json_shows_rounds_timer_handicap_and_each_tables_deadline(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    capsys.readouterr()
    status, out, _ = run(capsys, *start(db, "--rounds", "1", "--timer", "30", "--handicap", "--json"))
    assert status == 0
    assert (out["planned"], out["timer"], out["handicap"], out["over"]) == (1, 30, True, False)
    assert all(t["deadline"] > "2000" for t in out["tables"])
    assert all("start" not in t for t in out["tables"])  # nobody is rated yet: everyone at the prior
    store = Store.open(db)
    for table in out["tables"]:
        store.add_deal(table["game"], deal_of(store, table["game"], 30))
    status, standing, _ = run(
        capsys, "league", "night", "standings", "--league", "Club", "--db", db, "--json"
    )
    assert (standing["planned"], standing["timer"], standing["handicap"], standing["over"]) == (
        1,
        30,
        True,
        True,
    )
    assert standing["rounds"] == 1  # seated (the documented count since the first release)
    status, listed, _ = run(capsys, "league", "night", "list", "--league", "Club", "--db", db, "--json")
    assert (listed[0]["planned"], listed[0]["over"], listed[0]["rounds"]) == (1, True, 1)
    status, text, _ = run(capsys, "league", "night", "standings", "--league", "Club", "--db", db)
    assert "winner of the night" in text and "the night is over: all 1 rounds played" in text
    status, _, err = run(capsys, "league", "night", "next", "--league", "Club", "--db", db)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "the night had 1 rounds and all are seated: start a new night for more" in err
    status, _, err = run(capsys, "--lang", "fi", "league", "night", "next", "--league", "Club", "--db", db)
    assert status == 2 and "illassa oli 1 kierrosta, ja kaikki on jo jaettu" in err
    assert len(Store.open(db).games()) == 1  # one table of four; nothing more was started


def test_cli_text_shows_the_timer_and_the_round_of_the_plan(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    capsys.readouterr()
    status, text, _ = run(capsys, *start(db, "--rounds", "3", "--timer", "40"))
    assert status == 0 and "round 1 of 3" in text and "timer: 40 min; time is up at" in text


def test_cli_next_changes_the_timer(capsys: pytest.CaptureFixture[str], db: str) -> None:
    capsys.readouterr()
    status, out, _ = run(capsys, *start(db, "--timer", "30", "--json"))
    store = Store.open(db)
    for table in out["tables"]:
        store.add_deal(table["game"], deal_of(store, table["game"], 30))
    status, second, _ = run(
        capsys, "league", "night", "next", "--league", "Club", "--timer", "none", "--db", db, "--json"
    )
    assert status == 0 and second["timer"] is None and all("deadline" not in t for t in second["tables"])


@pytest.mark.parametrize(
    ("extra", "said", "finnish"),
    [
        (
            ["--rounds", "0"],
            "rounds '0': a night plans a whole number of rounds, 1 or more",
            "kierroksia '0'",
        ),
        (["--rounds", "two"], "rounds 'two': a night plans a whole number of rounds", "kierroksia 'two'"),
        (
            ["--timer", "-5"],
            "--timer '-5': a round lasts a whole number of minutes from 1 to 600, or none for no timer",
            "--timer '-5': kierros kestää kokonaisen määrän minuutteja, 1–600, tai none",
        ),
        (["--timer", "abc"], "--timer 'abc': a round lasts a whole number of minutes", "--timer 'abc'"),
        (["--timer", "0"], "--timer '0': a round lasts a whole number of minutes", "--timer '0'"),
    ],
)
def test_cli_bad_rounds_and_timers_exit_2_with_one_line_and_write_nothing(
    capsys: pytest.CaptureFixture[str], db: str, extra: list[str], said: str, finnish: str
) -> None:
    capsys.readouterr()
    status, _, err = run(capsys, *start(db, *extra))
    assert status == 2 and said in err and len(err.strip().splitlines()) == 1
    status, _, err = run(capsys, "--lang", "fi", *start(db, *extra))
    assert status == 2 and finnish in err
    assert Store.open(db).games() == []
    status, _, err = run(capsys, "league", "night", "list", "--league", "Club", "--db", db, "--json")
    assert status == 0


def test_starting_points_for_someone_not_at_the_table_are_refused(clocked: tuple[Store, Clock]) -> None:
    store, _ = clocked
    with pytest.raises(ValueError, match="start: starting points for unknown player 'Cid'"):
        store.start_game(ruleset="gin", players=["Anna", "Bea"], start={"Cid": 5})
    assert store.games() == []
