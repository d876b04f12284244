"""A game called after a deal (a timed round ran out) and a game with starting points
(docs/rules.md, "Timed rounds (club nights)" and "Handicap (club nights)").

The tables are named after the rule they check, family by family: who wins a called game and
which final bonuses it pays; how a correction, a removal and an undo move the call; how
starting points count towards the totals, the target and the winner. A hypothesis property
checks that, whatever the ruleset, the starting points and the call, the totals are the
starting points plus every deal's itemised change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_parts import entries, knock, parts

from scorer.cli import main
from scorer.deal import Deal
from scorer.errors import ScorerError
from scorer.game import Game, InvalidGameError
from scorer.gamefile import game_document, parse_game
from scorer.messages import render
from scorer.ruleset import Ruleset, load_ruleset

GIN = ("Anna", "Bea")
THREE = ("Anna", "Bea", "Cid")


def out(winner: str, points: dict[str, int]) -> Deal:
    return Deal.build(points=points, out=winner)


# -- a called game: the winner and the bonuses, family by family ---------------------------------


def test_a_deal_before_the_call_does_not_end_the_game() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, ends_after=2)
    game = game.add(knock("Anna", 0, 10))
    assert not game.result.finished and not game.result.called
    game = game.add(knock("Bea", 2, 12))
    assert game.result.finished and game.result.called
    with pytest.raises(InvalidGameError, match="already over after deal 2"):
        game.add(knock("Anna", 0, 10))


def test_gin_called_pays_boxes_and_shutout_but_no_game_bonus() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, ends_after=1).add(knock("Anna", 0, 10))
    result = game.result
    # 35 for gin; Bea won no hand: a shutout doubles Anna's 35; one box of 25; nobody reached 100
    assert result.bonuses == {"Anna": {"shutout": 35, "boxes": 25}}
    assert result.totals == {"Anna": 95, "Bea": 0} and result.winner == "Anna"
    assert parts(result.deals[-1])["Anna"] == [("deal", 35, (0,)), ("shutout", 35, (0,)), ("boxes", 25, (0,))]


def test_gin_called_with_both_players_winning_hands_is_boxes_only() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, ends_after=2)
    game = game.add(knock("Anna", 0, 10)).add(knock("Bea", 2, 12))  # 35, then 10
    assert game.result.bonuses == {"Anna": {"boxes": 25}, "Bea": {"boxes": 25}}
    assert game.result.totals == {"Anna": 60, "Bea": 35} and game.result.winner == "Anna"


def test_hollywood_called_closes_every_open_game_with_its_own_boxes() -> None:
    ruleset = load_ruleset("hollywood-gin", options={"target": "50"})
    game = Game(ruleset=ruleset, players=GIN, ends_after=2)
    game = game.add(knock("Anna", 0, 30)).add(knock("Bea", 0, 5))  # 55 closes game 1; Bea 30
    first, second, third = game.result.columns
    assert not first.called and first.bonuses["Anna"]["game"] == 100  # reached the target
    assert second.called and second.bonuses == {"Bea": {"boxes": 25, "shutout": 30}}
    assert third.called and third.bonuses == {} and third.finished
    assert game.result.called and game.result.finished


def test_rommi_called_has_no_bonuses_and_the_lowest_total_wins() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=THREE, ends_after=2)
    game = game.add(out("Anna", {"Bea": 40, "Cid": 10})).add(out("Cid", {"Anna": 30, "Bea": 5}))
    assert game.result.finished and game.result.called
    assert game.result.bonuses == {}
    assert game.result.totals == {"Anna": 30, "Bea": 45, "Cid": 10} and game.result.winner == "Cid"


def test_kalooki_called_keeps_the_kalooki_points_and_the_lowest_total_wins() -> None:
    game = Game(ruleset=load_ruleset("kalooki"), players=GIN, ends_after=1)
    game = game.add(Deal.build(points={"Bea": 30}, out="Anna", one_turn=True))
    assert game.result.bonuses == {}
    assert game.result.totals == {"Anna": 0, "Bea": 55} and game.result.winner == "Anna"


def test_carousel_called_pays_the_boxes_and_no_game_bonus() -> None:
    game = Game(ruleset=load_ruleset("carousel"), players=THREE, ends_after=1)
    game = game.add(out("Anna", {"Bea": 20, "Cid": 30}))  # 50 + 25 for going out
    assert game.result.bonuses == {"Anna": {"boxes": 25}}
    assert game.result.totals == {"Anna": 100, "Bea": 0, "Cid": 0} and game.result.winner == "Anna"


def test_basic_rummy_called_has_no_bonuses_and_the_highest_total_wins() -> None:
    game = Game(ruleset=load_ruleset("basic-rummy"), players=THREE, ends_after=2)
    game = game.add(out("Bea", {"Anna": 12, "Cid": 3})).add(out("Cid", {"Anna": 4, "Bea": 7}))
    assert game.result.bonuses == {} and game.result.totals == {"Anna": 0, "Bea": 15, "Cid": 11}
    assert game.result.winner == "Bea"


def test_a_called_game_tied_for_the_best_total_has_no_single_winner() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=GIN, ends_after=2)
    game = game.add(out("Anna", {"Bea": 20})).add(out("Bea", {"Anna": 20}))
    assert game.result.finished and game.result.winner is None


def test_a_game_reaching_its_target_at_the_called_deal_ends_on_the_target() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, ends_after=1).add(knock("Anna", 0, 80))
    assert game.result.finished and not game.result.called
    assert game.result.bonuses["Anna"]["game"] == 100


# -- corrections and the call -------------------------------------------------------------------


def called_rommi() -> Game:
    game = Game(ruleset=load_ruleset("rommi", options={"target": "100"}), players=GIN)
    for points in (10, 20, 30):
        game = game.add(out("Anna", {"Bea": points}))
    return game.called_after(3)


def test_correcting_an_earlier_deal_keeps_the_call() -> None:
    game = called_rommi().replace_deal(0, out("Bea", {"Anna": 5}))
    assert game.ends_after == 3 and game.result.finished and game.result.called
    assert game.result.totals == {"Anna": 5, "Bea": 50}


def test_removing_an_earlier_deal_keeps_the_call_on_the_deal_it_followed() -> None:
    game = called_rommi().remove_deal(0)
    assert game.ends_after == 2 and game.result.finished and game.result.called
    assert game.result.totals == {"Anna": 0, "Bea": 50}


def test_removing_the_deal_just_before_the_called_one_moves_the_call_one_back() -> None:
    game = called_rommi().remove_deal(1)
    assert game.ends_after == 2 and game.result.finished and game.result.called
    assert game.result.totals == {"Anna": 0, "Bea": 40}


def test_removing_the_called_deal_lifts_the_call() -> None:
    game = called_rommi().remove_deal(2)
    assert game.ends_after is None and not game.result.finished
    assert game.add(out("Anna", {"Bea": 1})).result.finished is False


def test_putting_a_deal_back_before_the_called_one_moves_the_call_with_it() -> None:
    game = called_rommi().remove_deal(0).insert_deal(0, out("Anna", {"Bea": 10}))
    assert game.ends_after == 3 and game.result.finished
    assert game.result.totals == {"Anna": 0, "Bea": 60}


def test_a_deal_put_in_just_after_the_called_deal_is_refused_like_one_added() -> None:
    # Called after deal 3 (index 2): index 3 is after the call, which stays put, so the game
    # is over before the deal; a deal put in before the called one moves the call with it.
    game = called_rommi()
    with pytest.raises(InvalidGameError, match="deal 4: the game is already over after deal 3"):
        game.insert_deal(3, out("Bea", {"Anna": 5}))
    before = game.insert_deal(2, out("Bea", {"Anna": 5}))
    assert before.ends_after == 4 and before.result.finished and len(before.deals) == 4
    assert before.result.totals == {"Anna": 5, "Bea": 60}


def test_removing_a_deal_after_the_call_never_lifts_it() -> None:
    # A game built with deals past its call (read nowhere: every replay refuses it) stays
    # refused when a deal after the called one goes: only the called deal's removal lifts it.
    game = called_rommi()
    past = Game(ruleset=game.ruleset, players=game.players, ends_after=1, deals=game.deals)
    with pytest.raises(InvalidGameError, match="deal 2: the game is already over after deal 1"):
        past.remove_deal(1)
    lifted = past.remove_deal(0)
    assert lifted.ends_after is None and len(lifted.deals) == 2 and not lifted.result.finished


def test_a_correction_that_ends_the_game_before_its_last_deal_is_refused() -> None:
    with pytest.raises(InvalidGameError, match="already over after deal 2"):
        called_rommi().replace_deal(0, out("Anna", {"Bea": 80}))  # 100 after deal 2


# -- starting points ----------------------------------------------------------------------------


def test_starting_points_open_the_totals_before_the_first_deal() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, start={"Bea": 21})
    assert game.result.totals == {"Anna": 0, "Bea": 21} and game.result.start == {"Anna": 0, "Bea": 21}
    game = game.add(knock("Anna", 0, 10))
    assert game.result.deals[0].running == {"Anna": 35, "Bea": 21}
    assert game.result.deals[0].change("Bea") == 0  # the start is no deal's change


def test_starting_points_count_towards_the_target_and_the_winner() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, start={"Bea": 90})
    game = game.add(knock("Bea", 2, 12))  # 10: Bea reaches 100 and the game
    assert game.result.finished and game.result.winner == "Bea"
    assert game.result.bonuses["Bea"]["game"] == 100


def test_penalty_starting_points_can_cost_the_stronger_player_the_game() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=GIN, start={"Anna": 50}, ends_after=1)
    game = game.add(out("Anna", {"Bea": 40}))
    assert game.result.totals == {"Anna": 50, "Bea": 40} and game.result.winner == "Bea"


def test_hollywood_starts_every_game_with_the_starting_points() -> None:
    game = Game(ruleset=load_ruleset("hollywood-gin"), players=GIN, start={"Bea": 10})
    assert [c.totals["Bea"] for c in game.result.columns] == [10, 10, 10]
    assert game.result.start == {"Anna": 0, "Bea": 30} == game.result.totals


@pytest.mark.parametrize(
    ("start", "ends_after", "english", "finnish"),
    [
        (
            {"Cid": 5},
            None,
            "start: starting points for unknown player 'Cid'; the players are Anna, Bea",
            "aloituspisteet tuntemattomalle pelaajalle 'Cid'; pelaajat ovat Anna, Bea",
        ),
        (
            {"Bea": -3},
            None,
            "start: Bea cannot start with -3 points: starting points are a whole number, 0 or more",
            "Bea ei voi aloittaa -3 pisteellä",
        ),
        (
            {},
            0,
            "ends_after: a game cannot be called after 0 deals: it is called after deal 1 at the earliest",
            "peliä ei voi päättää 0 jaon jälkeen",
        ),
    ],
)
def test_bad_starting_points_and_calls_are_named(
    start: dict[str, int], ends_after: int | None, english: str, finnish: str
) -> None:
    with pytest.raises(InvalidGameError) as caught:
        Game(ruleset=load_ruleset("gin"), players=GIN, start=start, ends_after=ends_after)
    assert str(caught.value) == english
    assert finnish in render(caught.value.message, "fi")


# -- the game file ------------------------------------------------------------------------------


def test_the_game_file_keeps_the_start_and_the_call() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=GIN, start={"Bea": 21}).add(knock("Anna", 0, 10))
    document = game_document(game.called_after(1), ruleset_id="gin")
    assert document["start"] == {"Bea": 21} and document["ends_after"] == 1
    again = parse_game(document)
    assert again.start == {"Bea": 21} and again.ends_after == 1 and again.result.called
    plain = game_document(Game(ruleset=load_ruleset("gin"), players=GIN), ruleset_id="gin")
    assert "start" not in plain and "ends_after" not in plain  # an old reader reads it as before


def test_rummy_score_json_shows_the_start_and_the_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "timed.json"
    deal = {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 10}}
    game = {"ruleset": "gin", "players": list(GIN), "start": {"Bea": 21}, "ends_after": 1, "deals": [deal]}
    path.write_text(json.dumps(game), encoding="utf-8")
    assert main(["score", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["start"] == {"Anna": 0, "Bea": 21} and shown["called"] is True
    assert shown["totals"] == {"Anna": 95, "Bea": 21} and shown["winner"] == "Anna"


@pytest.mark.parametrize(
    ("lang", "start_row", "called"),
    [
        ("en", "start 0 21", "time was called: the game ended after deal 1"),
        ("fi", "alku 0 21", "aika loppui: peli päättyi jakoon 1"),
    ],
)
def test_rummy_score_text_shows_the_start_and_the_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, start_row: str, called: str
) -> None:
    path = tmp_path / "timed.json"
    deal = {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 10}}
    game = {"ruleset": "gin", "players": list(GIN), "start": {"Bea": 21}, "ends_after": 1, "deals": [deal]}
    path.write_text(json.dumps(game), encoding="utf-8")
    assert main(["--lang", lang, "score", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == start_row.split()  # before the first deal
    assert len(lines[1]) == lines[0].index("Bea") + len("Bea")  # in the players' columns
    assert called in lines
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({**game, "start": {}, "ends_after": None}), encoding="utf-8")
    assert main(["--lang", lang, "score", str(plain)]) == 0
    shown = capsys.readouterr().out
    assert start_row.split()[0] not in shown.split() and called not in shown


def test_a_game_file_with_a_bad_start_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"ruleset": "gin", "players": list(GIN), "start": {"Cid": 5}}), encoding="utf-8"
    )
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game file" in err and "starting points for unknown player 'Cid'" in err


# -- the property: start + every change = the totals ----------------------------------------------


@st.composite
def timed_entries(draw: st.DrawFn) -> tuple[Ruleset, tuple[str, ...], list[Deal], dict[str, int], int | None]:
    ruleset, players, deals = draw(entries())
    start = {p: draw(st.integers(0, (ruleset.target or 200) // 2)) for p in players if draw(st.booleans())}
    ends_after = draw(st.one_of(st.none(), st.integers(1, 12)))
    return ruleset, players, deals, start, ends_after


@settings(max_examples=200, deadline=None)
@given(timed_entries())
def test_the_totals_are_the_start_plus_every_deals_itemised_change(
    drawn: tuple[Ruleset, tuple[str, ...], list[Deal], dict[str, int], int | None],
) -> None:
    ruleset, players, deals, start, ends_after = drawn
    game = Game(ruleset=ruleset, players=players, start=start, ends_after=ends_after)
    for deal in deals:
        if game.result.finished:
            break
        try:
            game = game.add(deal)
        except ScorerError:
            continue
    result = game.result
    assert result.start == {p: start.get(p, 0) * ruleset.games for p in players}
    before = dict(result.start)
    for record in result.deals:
        for player in players:
            assert record.change(player) == record.running[player] - before[player]
        before = dict(record.running)
    assert before == result.totals
    if ends_after is not None and len(result.deals) >= ends_after:
        assert result.finished and len(result.deals) == ends_after
    for column in result.columns:  # a game called before its target pays no game bonus
        assert not column.called or not any("game" in b for b in column.bonuses.values())
