"""The Scoreboard's view-model for a table of a club night: the night's tag, the round timer
at a given time (the store's clock, set by the test), the handicap line, the chart from the
starting points; in English and Finnish, with no Flet session."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.league.store import Store
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.scoreboard_model import ScoreboardModel, clock_text, seconds_between

START = "2026-12-04T18:00:00.000000+00:00"
DEADLINE = "2026-12-04T18:30:00.000000+00:00"


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> str:
        return self.now


def timed_table(*, handicap: bool = False) -> tuple[Store, Clock, str]:
    clock = Clock()
    store = Store.memory(clock=clock)
    store.create_league("Club")
    if handicap:  # five gin games won by Anna: Anna is rated above Bea
        for _ in range(5):
            game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
            store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 80}})
    night = store.start_night(
        "Club", players=["Anna", "Bea", "Cid", "Dan"], ruleset="gin", seed=1, timer=30, handicap=handicap
    )
    return store, clock, night.rounds[0].tables[1].game


def knock(board: ScoreboardModel, points: int) -> dict[str, Any]:
    first, second = board.players
    return {"knocker": first, "deadwood": {first: 0, second: points}}


def test_a_night_table_says_its_round_and_table_in_both_languages() -> None:
    store, _, game_id = timed_table()
    board = ScoreboardModel.load(store, game_id)
    assert board.night_heading("en") == "Club night · round 1 · table 2"
    assert board.night_heading("fi") == "Kerhoilta · kierros 1 · pöytä 2"


def test_an_ordinary_game_has_no_night_line_no_timer_and_no_handicap() -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, store.start_game(ruleset="gin", players=["Anna", "Bea"]).id)
    assert board.night is None and board.night_heading("en") == ""
    assert board.seconds_left(START) is None and board.timer_text("en", START) == ""
    assert board.handicap_text("en") == ""


def test_the_timer_counts_down_then_says_the_deal_is_the_last_then_that_the_game_ended() -> None:
    store, clock, game_id = timed_table()
    board = ScoreboardModel.load(store, game_id)
    assert board.timer_text("en", START) == "Time left: 30:00" and board.ticking(START)
    assert board.timer_text("fi", "2026-12-04T18:17:30.250000+00:00") == "Aikaa jäljellä: 12:30"
    assert board.timer_text("en", DEADLINE) == "Time is up: this deal is the last."
    assert board.timer_text("fi", DEADLINE) == "Aika loppui: tämä jako on viimeinen."
    assert not board.ticking(DEADLINE)
    store.add_deal(game_id, knock(board, 20))  # before the deadline: the game goes on
    clock.now = "2026-12-04T18:31:00.000000+00:00"
    store.add_deal(game_id, knock(board, 10))  # the first deal saved after it is the last
    board.reload(store)
    assert board.finished and board.result.called
    assert board.timer_text("en", clock.now) == "Time ran out: the game ended after deal 2."
    assert board.timer_text("fi", clock.now) == "Aika loppui: peli päättyi jakoon 2."


def test_a_game_ending_on_its_target_before_the_deadline_shows_no_timer() -> None:
    store, _, game_id = timed_table()
    board = ScoreboardModel.load(store, game_id)
    store.add_deal(game_id, knock(board, 80))  # 105: the target
    board.reload(store)
    assert board.finished and board.timer_text("en", START) == ""


def test_the_handicap_line_and_the_chart_start_from_the_starting_points() -> None:
    store, _, _ = timed_table(handicap=True)
    night = store.night("Club")
    table = next(t for t in night.rounds[0].tables if set(t.players) == {"Anna", "Bea"} or t.start)
    board = ScoreboardModel.load(store, table.game)
    start = board.saved.game.start
    assert any(start.values())
    shown = ", ".join(f"{p} +{start[p]}" if start.get(p) else f"{p} 0" for p in board.players)
    assert board.handicap_text("en") == f"Handicap: {shown}"
    assert board.handicap_text("fi") == f"Tasoitus: {shown}"
    assert board.total_labels() == [f"{p}: {start.get(p, 0)}" for p in board.players]
    assert {p: series[0] for p, series in board.chart().items()} == {
        p: start.get(p, 0) for p in board.players
    }
    assert [points[0].total for points in board.chart_points("en").values()] == [
        start.get(p, 0) for p in board.players
    ]


@pytest.mark.parametrize(
    ("now", "seconds", "shown"),
    [
        (START, 1800, "30:00"),
        ("2026-12-04T18:29:59.100000+00:00", 1, "00:01"),
        (DEADLINE, 0, "00:00"),
        ("2026-12-04T19:00:00.000000+00:00", 0, "00:00"),
    ],
)
def test_time_left_is_whole_seconds_rounded_up_and_never_below_zero(
    now: str, seconds: int, shown: str
) -> None:
    assert seconds_between(now, DEADLINE) == seconds
    assert clock_text(seconds) == shown


def test_deal_entry_reads_the_running_totals_from_the_starting_points() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"], start={"Anna": 40}).id
    model = DealModel.load(store, game_id)
    model.set_out("Bea")
    model.set_cards("Anna", "KS 9H")
    assert model.reading is not None
    assert [(row.player, row.total) for row in model.reading.rows] == [("Anna", 59), ("Bea", 0)]
