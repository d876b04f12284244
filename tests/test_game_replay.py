"""The incremental replay of a game equals a full replay, whatever the order of the edits."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorer.game
from scorer.deal import Deal
from scorer.errors import ScorerError
from scorer.game import Game, score_game
from scorer.ruleset import load_ruleset
from scorer.scoring import score_deal

AB = ("Anna", "Bea")
RULESETS = {
    "gin": load_ruleset("gin"),
    "hollywood": load_ruleset("hollywood-gin", options={"target": "60"}),
    "rommi": load_ruleset("rommi", options={"target": "60"}),
}


@st.composite
def gin_deals(draw: st.DrawFn) -> Deal:
    if draw(st.integers(0, 9)) == 0:
        return Deal.build(dead=True)
    knocker = draw(st.sampled_from(AB))
    other = AB[1 - AB.index(knocker)]
    mine = draw(st.integers(0, 12))  # over 10 is an illegal knock: refused, and the game kept
    return Deal.build(knocker=knocker, deadwood={knocker: mine, other: draw(st.integers(0, 40))})


@st.composite
def rommi_deals(draw: st.DrawFn) -> Deal:
    out = draw(st.sampled_from(AB))
    other = AB[1 - AB.index(out)]
    return Deal.build(
        out=out, hands={other: " ".join(draw(st.sets(st.sampled_from(["KS", "5H", "*", "AC"]))))}
    )


def edits(deals: st.SearchStrategy[Deal]) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    edit = st.one_of(
        st.tuples(st.just("add"), deals),
        st.tuples(st.just("add"), deals),
        st.tuples(st.just("replace"), st.integers(0, 20), deals),
        st.tuples(st.just("remove"), st.integers(0, 20)),
        st.tuples(st.just("again"), st.integers(0, 20)),
    )
    return st.lists(edit, max_size=25)


def _apply(game: Game, edit: tuple[Any, ...]) -> Game:
    kind = edit[0]
    if kind == "add":
        return game.add(edit[1])
    index = edit[1] % max(len(game.deals), 1)
    if kind == "replace":
        return game.replace_deal(index, edit[2])
    if kind == "remove":
        return game.remove_deal(index)
    # "again": the same deal object entered once more (kept scores are found by identity)
    return game.add(game.deals[index])


def _check_edits(name: str, steps: list[tuple[Any, ...]]) -> None:
    ruleset = RULESETS[name]
    game = Game(ruleset=ruleset, players=AB, first_dealer=1)
    for step in steps:
        if step[0] != "add" and not game.deals:
            continue  # nothing to correct yet
        try:
            edited = _apply(game, step)
        except ScorerError as error:
            # Refused: the full replay refuses the same deals with the same message.
            attempted = _attempted(game, step)
            with pytest.raises(ScorerError) as full:
                score_game(ruleset=ruleset, players=AB, deals=attempted, first_dealer=1)
            assert str(full.value) == str(error)
            continue
        game = edited
        assert game.result == score_game(ruleset=ruleset, players=AB, deals=game.deals, first_dealer=1)


def _attempted(game: Game, edit: tuple[Any, ...]) -> tuple[Deal, ...]:
    deals = game.deals
    index = edit[1] % max(len(deals), 1) if edit[0] != "add" else 0
    if edit[0] == "add":
        return (*deals, edit[1])
    if edit[0] == "replace":
        return (*deals[:index], edit[2], *deals[index + 1 :])
    if edit[0] == "remove":
        return deals[:index] + deals[index + 1 :]
    return (*deals, deals[index])


@settings(max_examples=150)
@given(st.sampled_from(["gin", "hollywood"]), st.data())
def test_incremental_gin_replay_equals_a_full_replay(name: str, data: st.DataObject) -> None:
    _check_edits(name, data.draw(edits(gin_deals())))


@settings(max_examples=80)
@given(edits(rommi_deals()))
def test_incremental_penalty_replay_equals_a_full_replay(steps: list[tuple[Any, ...]]) -> None:
    _check_edits("rommi", steps)


def knock(knocker: str, mine: int, theirs: int) -> Deal:
    other = "Bea" if knocker == "Anna" else "Anna"
    return Deal.build(knocker=knocker, deadwood={knocker: mine, other: theirs})


def test_adding_a_deal_scores_only_that_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    scored: list[Deal] = []

    def counting(deal: Deal, **kwargs: Any) -> Any:
        scored.append(deal)
        return score_deal(deal, **kwargs)

    monkeypatch.setattr(scorer.game, "score_deal", counting)
    game = Game(ruleset=load_ruleset("gin", options={"target": "none"}), players=AB)
    deals = [knock("Anna", 2, 10 + n % 20) for n in range(30)]
    for deal in deals:
        game = game.add(deal)
        assert game.result.totals["Anna"] > 0
    assert scored == deals  # each deal scored once, when it was added

    scored.clear()
    corrected = game.replace_deal(3, knock("Bea", 1, 20))
    removed = corrected.remove_deal(10)
    assert [d.knocker for d in scored] == ["Bea"]  # the correction alone is scored
    full = score_game(ruleset=game.ruleset, players=AB, deals=removed.deals)
    assert removed.result == full


def test_result_is_worked_out_once_per_game() -> None:
    game = Game(ruleset=load_ruleset("gin"), players=AB).add(knock("Anna", 2, 30))
    assert game.result is game.result
    assert game.add(knock("Bea", 0, 5)).result.totals == {"Anna": 28, "Bea": 30}
    assert game.result.totals == {"Anna": 28, "Bea": 0}  # the earlier value is unchanged


def test_a_game_equals_the_same_game_built_afresh() -> None:
    rules = load_ruleset("gin")
    deals = (knock("Anna", 2, 30), knock("Bea", 0, 5))
    built = Game(ruleset=rules, players=AB).add(deals[0]).add(deals[1])
    assert built == Game(ruleset=rules, players=AB, deals=deals)
    assert "_replay" not in repr(built)
