"""The Scoreboard's deal rows add up: each cell is the change of the running total, and where
that is more than the deal's score once (Hollywood's games, the final bonuses) the parts under
the row, and the chart's steps, say what it is made of (issue 16)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_game_parts import entries, play

from scorer.deal import Deal
from scorer.league.store import Store
from scorer.ruleset import Ruleset
from scorer.ui.i18n import LANGUAGES, Language
from scorer.ui.screens.scoreboard_model import ScoreboardModel, change_text, deal_rows, part_text

ANNA_GIN = {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 10}}  # 35: 10 + the gin bonus


@settings(max_examples=200)
@given(entries())
def test_every_rows_parts_add_up_to_the_change_of_each_running_total(
    drawn: tuple[Ruleset, tuple[str, ...], list[Deal]],
) -> None:
    game = play(*drawn)
    games = len(game.result.columns)
    before = (0,) * len(game.players)
    for row in deal_rows(game.result):
        for seat in range(len(game.players)):
            shown = sum(part.total for part in row.parts[seat])
            assert shown == row.changes[seat] == row.running[seat] - before[seat]
            for language in LANGUAGES:  # each part shows its points, and how many games
                for part in row.parts[seat]:
                    text = part_text(part, language, games=games)
                    assert text.startswith(f"{part.points:+d} ")
                    assert (f"×{len(part.games)}" in text) == (len(part.games) > 1)
        before = row.running


def _hollywood(store: Store) -> str:
    game_id = store.start_game(ruleset="hollywood-gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, ANNA_GIN)
    store.add_deal(game_id, ANNA_GIN)  # Anna's second win: games 1 and 2
    return game_id


def _gin(store: Store) -> str:
    game_id = store.start_game(ruleset="gin", players=["Eve", "Fay"]).id
    for knocker, other, theirs in (("Eve", "Fay", 2), ("Fay", "Eve", 22), ("Eve", "Fay", 58)):
        store.add_deal(game_id, {"knocker": knocker, "deadwood": {knocker: 0, other: theirs}})
    return game_id


@pytest.mark.parametrize(
    ("language", "line"),
    [("en", "Anna: +70 = +35 ×2 games"), ("fi", "Anna: +70 = +35 ×2 peliä")],
)
def test_a_hollywood_deal_credited_to_two_games_shows_its_score_twice(language: Language, line: str) -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _hollywood(store))
    first, second = board.rows()
    assert second.columns == (1, 2)
    assert (second.scores, second.changes, second.running) == ((35, 0), (70, 0), (105, 0))
    assert board.breakdown(second, language) == [line]
    assert board.breakdown(first, language) == []  # one game: the cell says it all


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        ("en", ["Eve: +233 = +83 deal, +100 game bonus, +50 boxes", "Fay: +25 = +25 boxes"]),
        ("fi", ["Eve: +233 = +83 jaosta, +100 pelin voitto, +50 laatikot", "Fay: +25 = +25 laatikot"]),
    ],
)
def test_gins_last_row_shows_the_bonuses_it_adds(language: Language, lines: list[str]) -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _gin(store))
    last = board.rows()[-1]
    assert (last.scores, last.changes, last.running) == ((83, 0), (233, 25), (260, 72))
    assert [change_text(c) for c in last.changes] == ["+233", "+25"]
    assert board.breakdown(last, language) == lines


def test_hollywood_bonuses_name_their_game() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="hollywood-gin", players=["Anna", "Bea"], options={"target": "50"}).id
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 30}})
    board = ScoreboardModel.load(store, game_id)
    assert board.breakdown(board.rows()[0], "en") == [
        "Anna: +235 = +55 deal, +55 shutout (game 1), +100 game bonus (game 1), +25 boxes (game 1)"
    ]


def test_the_chart_steps_up_where_the_bonuses_land() -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _gin(store))
    eve, fay = board.chart_points("en").values()
    assert [(p.deal, p.total, p.bonus) for p in eve] == [
        (0, 0, False),
        (1, 27, False),
        (2, 27, False),
        (3, 110, False),  # the deal's own score
        (3, 260, True),  # then the game's bonuses, at the same deal
    ]
    assert eve[-2].note == "Eve, deal 3: +83 deal → 110"
    assert eve[-1].note == "Eve, deal 3: +100 game bonus, +50 boxes → 260"
    assert fay[-1].note == "Fay, deal 3: +25 boxes → 72"
    assert board.chart_points("fi")["Fay"][-1].note == "Fay, jako 3: +25 laatikot → 72"
    # The chart ends where the totals are, and the steps agree with the rows.
    assert [eve[-1].total, fay[-1].total] == list(board.totals.values())
    assert [p.total for p in eve if not p.bonus] == [0, 27, 27, 110]


def test_the_chart_of_a_hollywood_deal_rises_by_both_games() -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _hollywood(store))
    anna = board.chart_points("en")["Anna"]
    assert [(p.deal, p.total) for p in anna] == [(0, 0), (1, 35), (2, 105)]
    assert anna[-1].note == "Anna, deal 2: +35 ×2 games → 105"
