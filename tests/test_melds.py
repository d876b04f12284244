"""Meld and layoff checks, named after the clauses of docs/rules.md ("Melds in every variant")."""

from __future__ import annotations

import pytest

from scorer.cards import format_cards, parse_cards
from scorer.errors import IllegalMeldError
from scorer.melds import check_layoff, check_meld, require_meld
from scorer.ruleset import Ruleset, load_ruleset

GIN = load_ruleset("gin")
ROMMI = load_ruleset("rommi")
BOATHOUSE = load_ruleset("boathouse")
KALOOKI = load_ruleset("kalooki")
CAROUSEL = load_ruleset("carousel")


def options(cards: str, rules: Ruleset) -> list[str]:
    return [format_cards(o) for o in check_meld(cards, rules).joker_options]


# -- sets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["7H 7S 7D", "7H 7S 7D 7C"])
def test_set_is_three_or_four_of_a_rank(cards: str) -> None:
    verdict = check_meld(cards, GIN)
    assert verdict.valid and verdict.kind == "set" and verdict.reason is None


def test_set_of_five_is_too_many() -> None:
    assert check_meld("7S 7H 7D 7C *", ROMMI).reason == (
        "not a set: 7S 7H 7D 7C * (a set has at most 4 cards in rommi)"
    )


def test_one_deck_has_no_card_twice() -> None:
    assert check_meld("7H 7H 7S", GIN).reason == (
        "not a meld: 7H 7H 7S (7H twice, and gin rummy plays with one deck)"
    )


def test_two_decks_no_identical_card_twice_in_a_set() -> None:
    assert check_meld("7S 7H 7H", KALOOKI).reason == (
        "not a set: 7S 7H 7H (7H twice; a set may not hold the same card twice in Kalooki)"
    )
    assert check_meld("7S 7H 7D", KALOOKI).valid


@pytest.mark.parametrize("ruleset_id", ["rommi", "rommi-stop", "boathouse", "sakausrommi"])
def test_two_deck_rommi_allows_the_same_card_twice_in_a_set(ruleset_id: str) -> None:
    # Ordinary two-deck rommi (7 players) allows 7H twice in a set; only Kalooki and
    # Carousel forbid it. A run still holds each rank once.
    rules = load_ruleset(ruleset_id)
    assert rules.identical_cards_in_set and rules.decks_for(7) == 2
    assert check_meld("7S 7H 7H", rules).kind == "set"
    assert check_meld("7S 7H 7H 7D", rules).kind == "set"
    assert (
        check_meld("5H 5H 6H 7H", rules).reason
        == "not a run: 5H 5H 6H 7H (5H twice; a run holds each rank once)"
    )


@pytest.mark.parametrize("ruleset_id", ["kalooki", "carousel"])
def test_kalooki_and_carousel_forbid_the_same_card_twice_in_a_set(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    assert not rules.identical_cards_in_set
    assert check_meld("7S 7H 7H", rules).reason == (
        f"not a set: 7S 7H 7H (7H twice; a set may not hold the same card twice in {rules.name})"
    )


def test_kalooki_joker_may_not_stand_for_a_card_already_in_the_meld() -> None:
    assert check_meld("7S 7H *=7S", KALOOKI).reason == (
        "not a set: 7S 7H *=7S (*=7S stands for a card already in the set, which Kalooki forbids)"
    )
    assert options("7S 7H 7D *", KALOOKI) == ["7C"]
    assert check_meld("7S 7H 7D 7C *", KALOOKI).reason is not None


def test_rommi_joker_in_a_set_may_be_any_suit() -> None:
    assert options("7H 7S *", ROMMI) == ["7S 7H 7D 7C"]
    assert format_cards(check_meld("7H 7S *", ROMMI).meld) == "7S 7H *"


# -- runs ---------------------------------------------------------------------------------


def test_run_is_three_or_more_consecutive_of_one_suit() -> None:
    assert check_meld("5H 6H 7H", GIN).kind == "run"
    assert check_meld("9C TC JC QC KC", GIN).kind == "run"
    assert check_meld("7H 5H 6H", GIN).valid  # the order given does not matter


def test_run_with_a_gap_names_the_missing_card() -> None:
    assert check_meld("5H 6H 8H", GIN).reason == "not a run: 5H 6H 8H (not consecutive: 7H missing)"


def test_mixed_suits_and_ranks_is_no_meld() -> None:
    assert check_meld("5H 6C 7H", GIN).reason == (
        "not a meld: 5H 6C 7H (a set needs one rank and a run needs one suit)"
    )


def test_a_run_holds_each_rank_once() -> None:
    assert check_meld("5H 5H 6H 7H", KALOOKI).reason == (
        "not a run: 5H 5H 6H 7H (5H twice; a run holds each rank once)"
    )


def test_two_cards_are_no_meld() -> None:
    assert check_meld("5H 6H", GIN).reason == "not a meld: 5H 6H (a meld needs at least 3 cards)"


def test_ace_low_in_gin() -> None:
    assert check_meld("AH 2H 3H", GIN).valid
    assert check_meld("QH KH AH", GIN).reason == "not a run: QH KH AH (aces are low in gin rummy)"


def test_ace_low_or_high_in_rommi_never_around_the_corner() -> None:
    assert check_meld("AH 2H 3H", ROMMI).valid
    assert check_meld("QH KH AH", ROMMI).valid
    assert check_meld("KH AH 2H", ROMMI).reason == (
        "not a run: KH AH 2H (aces are low or high but a run cannot turn the corner in rommi)"
    )


def test_ace_around_the_corner_in_boathouse() -> None:
    assert check_meld("KH AH 2H", BOATHOUSE).valid
    assert check_meld("QH KH AH 2H 3H", BOATHOUSE).valid


def test_a_run_cannot_hold_the_ace_both_low_and_high() -> None:
    full = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    assert check_meld(full, ROMMI).valid
    assert not check_meld(full + " *", ROMMI).valid


# -- jokers -------------------------------------------------------------------------------


def test_joker_inferred_where_unambiguous() -> None:
    verdict = check_meld("5H * 7H", ROMMI)
    assert options("5H * 7H", ROMMI) == ["6H"]
    assert format_cards(verdict.meld) == "5H *=6H 7H"


def test_ambiguous_joker_lists_every_possibility() -> None:
    assert options("5H 6H *", ROMMI) == ["4H 7H"]
    assert format_cards(check_meld("5H 6H *", ROMMI).meld) == "* 5H 6H"


def test_one_joker_list_per_joker_in_input_order() -> None:
    assert options("AS * *=3S", KALOOKI) == ["2S", "3S"]
    assert options("*=9C 7C *", ROMMI) == ["9C", "8C"]
    assert options("*=9C 7C * *", ROMMI) == ["9C", "6C 8C", "8C TC"]


def test_joker_and_natural_may_read_as_set_or_run() -> None:
    verdict = check_meld("7H * *", ROMMI)
    assert verdict.kinds == ("set", "run") and verdict.kind == "set"


def test_declared_joker_must_fit() -> None:
    assert not check_meld("5H 6H *=9H", ROMMI).valid
    assert check_meld("5H 6H *=4H", ROMMI).valid
    assert not check_meld("7H 7S *=8H", ROMMI).valid


def test_jokers_beyond_the_rulesets_count() -> None:
    assert check_meld("5H 6H *", GIN).reason == "not a meld: 5H 6H * (1 joker, and gin rummy plays with 0)"
    assert check_meld("5H * *", CAROUSEL).valid
    assert not check_meld("5H * * *", CAROUSEL).valid


def test_a_meld_needs_a_natural_card() -> None:
    assert check_meld("* * *", ROMMI).reason == (
        "not a meld: * * * (a meld needs at least 1 natural card in rommi)"
    )


def test_require_meld_raises_with_the_reason() -> None:
    with pytest.raises(IllegalMeldError, match=r"meld 2: not a run: QH KH AH \(aces are low in gin rummy\)"):
        require_meld("QH KH AH", GIN, label="meld 2")


# -- layoffs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "cards", "result"),
    [
        ("5H 6H 7H", "8H", "5H 6H 7H 8H"),
        ("5H 6H 7H", "4H", "4H 5H 6H 7H"),
        ("5H 6H 7H", "9H 8H", "5H 6H 7H 8H 9H"),
        ("5H 6H 7H", "3H 4H 8H", "3H 4H 5H 6H 7H 8H"),
        ("7S 7H 7D", "7C", "7S 7H 7D 7C"),
    ],
)
def test_layoff_extends_runs_card_by_card_at_both_ends_and_completes_sets(
    meld: str, cards: str, result: str
) -> None:
    verdict = check_layoff(meld, cards, GIN)
    assert verdict.valid and format_cards(verdict.result) == result


def test_layoff_that_leaves_a_gap_is_refused() -> None:
    verdict = check_layoff("5H 6H 7H", "9H", GIN)
    assert not verdict.valid
    assert verdict.reason == "cannot lay off 9H on 5H 6H 7H: not consecutive: 8H missing"


def test_layoff_cannot_turn_a_set_into_something_else() -> None:
    assert not check_layoff("7S 7H 7D", "8S", GIN).valid
    assert not check_layoff("7S 7H 7D 7C", "7S", KALOOKI).valid


def test_layoff_on_an_illegal_table_meld() -> None:
    verdict = check_layoff("QH KH AH", "JH", GIN)
    assert verdict.reason == "the table meld is not legal: not a run: QH KH AH (aces are low in gin rummy)"


def test_real_card_replaces_a_joker_in_rommi() -> None:
    verdict = check_layoff("5H *=6H 7H", "6H", ROMMI)
    assert verdict.valid and verdict.freed_jokers == 1
    assert format_cards(verdict.result) == "5H 6H 7H"


def test_joker_exchange_off_refuses_the_real_card() -> None:
    rules = ROMMI.with_options({"joker_exchange": "false"})
    verdict = check_layoff("5H * 7H", "6H", rules)
    assert not verdict.valid
    assert "6H is already in the meld as a joker" in (verdict.reason or "")


def test_layoff_next_to_an_undecided_joker() -> None:
    verdict = check_layoff("5H 6H *", "7H", ROMMI)
    assert verdict.valid and verdict.freed_jokers == 0
    assert parse_cards("7H")[0] in verdict.result
