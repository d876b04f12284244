"""Each deal's change of running total, itemised by the engine (RULES.md sections 3 and 4).

A deal's parts are its own score in each game it was credited to, then the final bonuses of
each game it closed; they add up to the change of every player's running total. Random
games of every bundled ruleset check the sum; tables check the parts of the rules that fold
several amounts into one deal (Hollywood's games, gin's game, box and shutout bonuses,
Carousel's game and box bonuses).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.deal import Deal, Ending
from scorer.errors import ScorerError
from scorer.game import DealRecord, Game, ScorePart
from scorer.ruleset import Ruleset, all_rulesets, load_ruleset

RULESETS = {ruleset.id: ruleset for ruleset in all_rulesets()}
UPCARDS = ("AS", "5H", "9C", "KD")  # Oklahoma gin's knock limit comes from the upcard
GIN_10 = {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 10}}  # 35: 10 + the gin bonus


def knock(knocker: str, mine: int, theirs: int) -> Deal:
    other = "Bea" if knocker == "Anna" else "Anna"
    return Deal.build(knocker=knocker, deadwood={knocker: mine, other: theirs})


def parts(record: DealRecord) -> dict[str, list[tuple[str, int, tuple[int, ...]]]]:
    return {p: [(part.kind, part.points, part.games) for part in ps] for p, ps in record.parts.items()}


def _endings(ruleset: Ruleset) -> list[Ending]:
    """How a deal of the ruleset may end with nobody out."""
    allowed: dict[str, tuple[bool, Ending]] = {
        "penalty": (ruleset.stop, "stop"),
        "winner_collects": (ruleset.block, "block"),
        "lowest_hand": (ruleset.stock_out_extra_turn, "stock_out"),
    }
    on, ending = allowed.get(ruleset.scoring, (False, "stop"))
    return [ending] if on else []


def _one_turn(ruleset: Ruleset) -> bool:
    """Whether going out in one turn scores anything extra in the ruleset."""
    if ruleset.scoring == "winner_collects":
        return ruleset.going_rummy != "off"
    return ruleset.scoring == "penalty" and bool(ruleset.kalooki_bonus)


@st.composite
def deals(draw: st.DrawFn, ruleset: Ruleset, players: tuple[str, ...]) -> Deal:
    """An entry of the ruleset's family by points, as the rules allow it."""
    if ruleset.scoring == "knock":
        if draw(st.integers(0, 11)) == 0:
            return Deal.build(dead=True)
        knocker = draw(st.sampled_from(players))
        upcard = draw(st.sampled_from(UPCARDS)) if ruleset.knock_limit_source == "upcard" else None
        mine = draw(st.integers(0, 10 if upcard or ruleset.knock_limit is None else ruleset.knock_limit))
        deadwood = {p: mine if p == knocker else draw(st.integers(0, 70)) for p in players}
        return Deal.build(
            knocker=knocker, deadwood=deadwood, big_gin=not mine and draw(st.booleans()), upcard=upcard
        )
    points = {p: draw(st.integers(0, 90)) for p in players}
    ended = draw(st.sampled_from([None, None, None, *_endings(ruleset)]))
    if ended is not None:
        stopper = draw(st.sampled_from(players)) if ruleset.scoring == "lowest_hand" else None
        return Deal.build(points=points, ended=ended, knocker=stopper)
    out = draw(st.sampled_from(players))
    points[out] = 0
    if ruleset.scoring == "lowest_hand" and draw(st.booleans()):
        knocker = draw(st.sampled_from(players))
        points[knocker] = draw(st.integers(0, ruleset.knock_limit or 10))
        return Deal.build(points=points, knocker=knocker)
    one_turn = _one_turn(ruleset) and draw(st.integers(0, 5)) == 0
    return Deal.build(points=points, out=out, one_turn=one_turn)


@st.composite
def entries(draw: st.DrawFn) -> tuple[Ruleset, tuple[str, ...], list[Deal]]:
    """A bundled ruleset, its players and the entries of a game (some will be refused)."""
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    seats = draw(st.integers(ruleset.players_min, min(ruleset.players_max, 4)))
    players = ("Anna", "Bea", "Cid", "Dan")[:seats]
    return ruleset, players, draw(st.lists(deals(ruleset, players), min_size=8, max_size=30))


def play(ruleset: Ruleset, players: tuple[str, ...], entries: list[Deal]) -> Game:
    """The game of these entries: each refused one is left out, and it stops where it ends."""
    game = Game(ruleset=ruleset, players=players)
    for deal in entries:
        if game.deals and game.result.finished:
            break
        try:
            game = game.add(deal)
        except ScorerError:
            continue  # refused: the game is kept as it was
    return game


@settings(max_examples=300)
@given(entries())
def test_every_deals_parts_add_up_to_the_change_of_each_running_total(
    drawn: tuple[Ruleset, tuple[str, ...], list[Deal]],
) -> None:
    game = play(*drawn)
    before = dict.fromkeys(game.players, 0)
    for record in game.result.deals:
        for player in game.players:
            assert record.change(player) == record.running[player] - before[player]
            assert all(part.total for part in record.parts[player])  # nothing worth 0 is listed
            dealt = [part for part in record.parts[player] if part.kind == "deal"]
            if dealt:
                assert dealt == [ScorePart("deal", record.score.scores[player], record.credited)]
        before = dict(record.running)
    assert before == game.result.totals


def test_a_hollywood_deal_credited_to_two_games_is_its_score_twice() -> None:
    game = Game(ruleset=load_ruleset("hollywood-gin"), players=("Anna", "Bea"))
    game = game.add(knock("Anna", 0, 10)).add(knock("Anna", 0, 20))
    second = game.result.deals[1]
    assert second.credited == (0, 1)
    assert parts(second) == {"Anna": [("deal", 45, (0, 1))], "Bea": []}
    assert second.change("Anna") == 90 == second.running["Anna"] - game.result.deals[0].running["Anna"]


def test_gins_last_deal_itemises_the_game_and_box_bonuses() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=("Anna", "Bea"))
    for deal in (knock("Anna", 0, 2), knock("Bea", 0, 22), knock("Anna", 0, 58)):
        game = game.add(deal)
    last = game.result.deals[-1]
    assert parts(last) == {
        "Anna": [("deal", 83, (0,)), ("game", 100, (0,)), ("boxes", 50, (0,))],
        "Bea": [("boxes", 25, (0,))],  # the loser's boxes land at the deal that ended the game
    }
    assert (last.change("Anna"), last.change("Bea")) == (233, 25)


def test_a_shutout_doubles_the_winners_hand_points_as_a_part_of_its_own() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=("Anna", "Bea"))
    game = game.add(knock("Anna", 0, 40)).add(knock("Anna", 0, 60))
    assert parts(game.result.deals[-1])["Anna"] == [
        ("deal", 85, (0,)),
        ("shutout", 150, (0,)),  # 65 + 85 points in hand, once more
        ("game", 100, (0,)),
        ("boxes", 50, (0,)),
    ]


def test_hollywood_bonuses_name_the_game_they_close() -> None:
    game = Game(ruleset=load_ruleset("hollywood-gin", options={"target": "50"}), players=("Anna", "Bea"))
    game = game.add(knock("Anna", 0, 20)).add(knock("Bea", 0, 40))
    second = parts(game.result.deals[1])
    assert second["Bea"] == [("deal", 65, (0,)), ("game", 100, (0,)), ("boxes", 25, (0,))]
    assert second["Anna"] == [("boxes", 25, (0,))]  # game 1 closed; Anna's win in it counts


def test_carousel_gives_the_game_bonus_and_boxes_at_the_deal_that_ends_it() -> None:
    players = ("Anna", "Bea", "Cid")
    game = Game(ruleset=load_ruleset("carousel", options={"target": "40"}), players=players)
    game = game.add(Deal.build(points={"Anna": 0, "Bea": 20, "Cid": 30}, out="Anna"))
    last = game.result.deals[-1]
    assert parts(last)["Anna"] == [("deal", 75, (0,)), ("game", 100, (0,)), ("boxes", 25, (0,))]
    assert last.change("Anna") == last.running["Anna"] == 200
    assert parts(last)["Bea"] == []


def test_a_penalty_deal_is_its_score_alone() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
    game = game.add(Deal.build(points={"Anna": 0, "Bea": 36}, out="Anna"))
    assert parts(game.result.deals[0]) == {"Anna": [], "Bea": [("deal", 36, (0,))]}


def test_rummy_score_json_itemises_each_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hollywood.json"
    game = {"format": 1, "ruleset": "hollywood-gin", "players": ["Anna", "Bea"], "deals": [GIN_10, GIN_10]}
    path.write_text(json.dumps(game), encoding="utf-8")
    assert main(["score", str(path), "--json"]) == 0
    deals = json.loads(capsys.readouterr().out)["deals"]
    assert deals[1]["parts"] == {"Anna": [{"kind": "deal", "points": 35, "games": [0, 1]}], "Bea": []}
    before = {"Anna": 0, "Bea": 0}
    for deal in deals:
        for player, parts in deal["parts"].items():
            shown = sum(part["points"] * len(part["games"]) for part in parts)
            assert shown == deal["running"][player] - before[player]
        before = deal["running"]
