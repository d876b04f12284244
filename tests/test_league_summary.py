"""Game summaries: what standings read from one game, and the events each family counts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorer.deal import Deal
from scorer.game import Game
from scorer.league.summary import EVENTS, GameSummary, InvalidSummaryError, rank, summarize
from scorer.ruleset import load_ruleset

AB = ("Anna", "Bea")
ABC = ("Anna", "Bea", "Cid")


def game(ruleset: str, players: tuple[str, ...], *deals: Deal) -> Game:
    return Game(ruleset=load_ruleset(ruleset), players=players, deals=deals)


def knock(knocker: str, mine: int, theirs: int, *, big_gin: bool = False) -> Deal:
    other = "Bea" if knocker == "Anna" else "Anna"
    return Deal.build(knocker=knocker, deadwood={knocker: mine, other: theirs}, big_gin=big_gin)


def out(player: str, **points: int) -> Deal:
    return Deal.build(out=player, points={player: 0, **points})


def test_gin_events_gin_big_gin_knock_undercut_boxes_and_game() -> None:
    # 1: Anna gin, 25 + 30 = 55.  2: Bea knocks 5 v 20 = 15.  3: Anna knocks 7, Bea has 3:
    # undercut, Bea 4 + 25 = 29.  4: Anna big gin 31 + 40 = 71: Anna 126 >= 100, game over.
    # Final: Anna 126 + game 100 + 2 boxes 50 = 276; Bea 44 + 2 boxes 50 = 94.
    summary = summarize(
        game(
            "gin",
            AB,
            knock("Anna", 0, 30),
            knock("Bea", 5, 20),
            knock("Anna", 7, 3),
            knock("Anna", 0, 40, big_gin=True),
        )
    )
    assert summary.finished and summary.winner == "Anna"
    assert summary.totals == {"Anna": 276, "Bea": 94}
    assert summary.ranking == {"Anna": 1, "Bea": 2}
    assert summary.deals == 4 and summary.deals_won == {"Anna": 2, "Bea": 2}
    assert summary.best_deal == {"Anna": 71, "Bea": 29}
    assert summary.events == {
        "Anna": {"gin": 1, "knock": 1, "big_gin": 1, "game": 1, "box": 2},
        "Bea": {"knock": 1, "undercut": 1, "box": 2},
    }
    assert not summary.lowest_wins
    assert all(key in EVENTS for events in summary.events.values() for key in events)


def test_gin_shutout_is_an_event_of_the_winner() -> None:
    summary = summarize(game("gin", AB, knock("Anna", 0, 30), knock("Anna", 0, 40)))
    assert summary.events == {"Anna": {"gin": 2, "shutout": 1, "game": 1, "box": 2}}
    assert set(summary.events["Anna"]) <= set(EVENTS)


def test_gin_dead_hand_counts_as_a_deal_won_by_nobody() -> None:
    summary = summarize(game("gin", AB, Deal.build(dead=True), knock("Anna", 0, 30)))
    assert summary.deals == 2 and summary.deals_won == {"Anna": 1, "Bea": 0}
    assert summary.best_deal == {"Anna": 55, "Bea": 0}
    assert not summary.finished and summary.winner is None


def test_hollywood_boxes_are_counted_per_game_column() -> None:
    # Anna's first win counts in game 1, Bea's first in game 1, Anna's second in games 1 and 2.
    # Game 1 closes at Anna 55 + 45 = 100: its boxes are Anna 2, Bea 1; games 2 and 3 are open.
    summary = summarize(
        game("hollywood-gin", AB, knock("Anna", 0, 30), knock("Bea", 5, 25), knock("Anna", 0, 20))
    )
    assert not summary.finished and summary.winner is None
    assert summary.events["Anna"]["box"] == 2 and summary.events["Bea"]["box"] == 1
    assert summary.events["Anna"]["game"] == 1 and "game" not in summary.events["Bea"]


def test_basic_rummy_going_rummy_is_counted_for_who_went_out() -> None:
    # Going rummy doubles: Anna collects (60 + 50) x 2 = 220.
    summary = summarize(
        game("basic-rummy", ABC, Deal.build(out="Anna", points={"Bea": 60, "Cid": 50}, one_turn=True))
    )
    assert summary.events == {"Anna": {"going_rummy": 1}}
    assert summary.totals == {"Anna": 220, "Bea": 0, "Cid": 0}
    assert summary.ranking == {"Anna": 1, "Bea": 2, "Cid": 2}


def test_kalooki_in_one_turn_is_counted_and_lowest_wins() -> None:
    summary = summarize(
        game("kalooki", ABC, Deal.build(out="Anna", points={"Bea": 30, "Cid": 25}, one_turn=True))
    )
    assert summary.events == {"Anna": {"kalooki": 1}}
    assert summary.totals == {"Anna": 0, "Bea": 55, "Cid": 50}
    assert summary.ranking == {"Anna": 1, "Bea": 3, "Cid": 2}
    assert summary.lowest_wins


def test_carousel_go_out_and_knock_events() -> None:
    # 1: Anna goes out with no cards: differences 10 + 20 = 30, + 25 for going out.
    # 2: Anna knocks with 5, Bea has 3: Bea beats the knocker (+10) and scores 2 + 17 = 19.
    summary = summarize(
        game(
            "carousel",
            ABC,
            Deal.build(out="Anna", points={"Anna": 0, "Bea": 10, "Cid": 20}),
            Deal.build(knocker="Anna", points={"Anna": 5, "Bea": 3, "Cid": 20}),
        )
    )
    assert summary.events == {"Anna": {"go_out": 1, "knock": 1}}
    assert summary.totals == {"Anna": 55, "Bea": 29, "Cid": 0}
    assert summary.deals_won == {"Anna": 1, "Bea": 1, "Cid": 0}


def test_rommi_lowest_wins_best_deal_is_the_lowest_score() -> None:
    # 1: Anna out, Bea 40, Cid 60.  2-6: Bea out, Anna 30 then 0, Cid 90 each (a three-player
    # rommi hand costs at most 94): Cid 510 >= 500 ends the game.
    later = [out("Bea", Anna=30 if n == 0 else 0, Cid=90) for n in range(5)]
    summary = summarize(game("rommi", ABC, out("Anna", Bea=40, Cid=60), *later))
    assert summary.finished and summary.winner == "Anna"
    assert summary.totals == {"Anna": 30, "Bea": 40, "Cid": 510}
    assert summary.ranking == {"Anna": 1, "Bea": 2, "Cid": 3}
    assert summary.best_deal == {"Anna": 0, "Bea": 0, "Cid": 60}
    assert summary.lowest_wins


def test_tie_for_first_has_no_winner_and_shares_rank_one() -> None:
    # A three-player rommi hand costs at most 94: six deals take Cid past 500.
    summary = summarize(game("rommi", ABC, *[out("Anna", Bea=0, Cid=90)] * 6))
    assert summary.finished and summary.winner is None
    assert summary.ranking == {"Anna": 1, "Bea": 1, "Cid": 3}


def test_unfinished_game_has_no_winner_but_its_figures_so_far() -> None:
    summary = summarize(game("rommi", AB, out("Anna", Bea=40)))
    assert not summary.finished and summary.winner is None
    assert summary.deals == 1 and summary.totals == {"Anna": 0, "Bea": 40}


def test_game_with_no_deals_has_no_best_deal() -> None:
    summary = summarize(game("gin", AB))
    assert summary.deals == 0 and summary.best_deal == {} and summary.events == {}
    assert summary.ranking == {"Anna": 1, "Bea": 1}


def test_rank_is_competition_ranking_in_both_directions() -> None:
    totals = {"a": 5, "b": 9, "c": 5, "d": 1}
    assert rank(totals, lowest_wins=False) == {"a": 2, "b": 1, "c": 2, "d": 4}
    assert rank(totals, lowest_wins=True) == {"a": 2, "b": 4, "c": 2, "d": 1}


def gin_summary() -> GameSummary:
    return summarize(game("gin", AB, knock("Anna", 0, 30), knock("Bea", 5, 20), knock("Anna", 7, 3)))


def test_to_dict_from_dict_round_trip_through_json() -> None:
    summary = gin_summary()
    assert GameSummary.from_dict(json.loads(json.dumps(summary.to_dict()))) == summary


def test_with_players_renames_every_key() -> None:
    summary = summarize(game("gin", AB, knock("Anna", 0, 80)))
    renamed = summary.with_players({"Anna": "p1", "Bea": "p2"})
    assert renamed.players == ("p1", "p2") and renamed.winner == "p1"
    assert renamed.totals == {"p1": summary.totals["Anna"], "p2": 0}
    assert renamed.ranking == {"p1": 1, "p2": 2}
    assert renamed.deals_won == {"p1": 1, "p2": 0}
    assert renamed.best_deal == {"p1": 105, "p2": 0}
    assert renamed.events == {"p1": summary.events["Anna"]}
    assert renamed.with_players({"p1": "Anna", "p2": "Bea"}) == summary


def test_with_players_refuses_to_make_two_players_one() -> None:
    with pytest.raises(InvalidSummaryError, match="two players of one game would be one"):
        gin_summary().with_players({"Anna": "p1", "Bea": "p1"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deals": None}, "deals holds None, not a whole number"),
        ({"deals": True}, "deals holds True, not a whole number"),
        ({"finished": "yes"}, "finished holds 'yes', not true or false"),
        ({"players": "Anna"}, "totals does not name the game's players"),
        ({"winner": "Cid"}, "the winner 'Cid' did not play"),
        ({"totals": {"Anna": 1}}, "totals does not name the game's players"),
        ({"events": ["gin"]}, "a field has the wrong shape"),
        ({"best_deal": {"Anna": "55"}}, "best_deal holds '55', not a whole number"),
        ({"events": {"Anna": {"gin": "1"}}}, "events holds '1', not a whole number"),
        ({"ruleset": 7}, "ruleset holds 7"),
    ],
)
def test_damaged_summary_is_refused_naming_the_field(change: dict[str, Any], message: str) -> None:
    """Its checks on the whole dicts let nothing damaged through: the field-by-field reading
    names what is wrong."""
    data = gin_summary().to_dict() | change
    with pytest.raises(InvalidSummaryError, match=message):
        GameSummary.from_dict(data)


def test_summary_missing_a_field_is_refused_naming_it() -> None:
    data = gin_summary().to_dict()
    del data["lowest_wins"]
    with pytest.raises(InvalidSummaryError, match="the field 'lowest_wins' is missing"):
        GameSummary.from_dict(data)


def test_a_summary_read_back_from_its_row_is_the_same_summary() -> None:
    """The short form a checkpoint keeps: each figure in the players' order."""
    summaries = [
        gin_summary(),
        gin_summary().with_players({"Anna": "p1", "Bea": "p2"}),
        summarize(game("rommi", ABC)),  # no deal yet: no best deal, no events, no winner
    ]
    for summary in summaries:
        row = summary.to_row()
        assert row is not None
        assert GameSummary.from_row(json.loads(json.dumps(row))) == summary
        assert GameSummary.from_row(json.loads(json.dumps(row)), checked=False) == summary


def test_a_summary_naming_someone_not_seated_has_no_row() -> None:
    summary = gin_summary()
    assert GameSummary.from_dict(summary.to_dict() | {"best_deal": {"Cid": 5}}).to_row() is None


@pytest.mark.parametrize(
    ("index", "value"),
    [
        (4, [1]),  # one total for two seats
        (4, [1, "2"]),
        (3, 2),  # the winner's seat is not a seat
        (6, None),
        (2, "yes"),
        (1, ["Anna", 7]),
        (8, [55, "55"]),
        (9, [{"gin": "1"}, None]),
        (9, ["gin", None]),
    ],
)
def test_a_damaged_row_is_refused(index: int, value: Any) -> None:
    row = gin_summary().to_row()
    assert row is not None
    row[index] = value
    with pytest.raises(InvalidSummaryError, match="a field has the wrong shape"):
        GameSummary.from_row(row)
    with pytest.raises(InvalidSummaryError):
        GameSummary.from_row(row[:-1])


@pytest.mark.parametrize(
    ("index", "value"),
    [
        (4, [1]),  # one total for two seats
        (7, [1, 2, 3]),  # three hands won for two seats
        (3, 2),  # the winner's seat is not a seat
        (3, "Anna"),
    ],
)
def test_a_row_read_unchecked_is_still_refused_when_its_parts_do_not_fit(index: int, value: Any) -> None:
    """A checkpoint's rows are read without each part's type checked (its sum and code
    version vouch for them), but never a row whose figures do not fit its seats."""
    row = gin_summary().to_row()
    assert row is not None
    row[index] = value
    with pytest.raises(InvalidSummaryError, match="a field has the wrong shape"):
        GameSummary.from_row(row, checked=False)
    with pytest.raises(InvalidSummaryError):
        GameSummary.from_row(row[:-1], checked=False)


def test_a_summary_read_from_its_row_is_as_frozen_as_any() -> None:
    """Rows are built slot by slot, not through ``__init__``: every field set, none settable."""
    import dataclasses

    summary = gin_summary()
    row = summary.to_row()
    assert row is not None
    read = GameSummary.from_row(row, checked=False)
    assert read == summary and repr(read) == repr(summary)
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.deals = 99  # type: ignore[misc]
