"""The Kalooki opening (docs/rules.md, Kalooki; referee question 4): worth 51, same-turn layoffs count."""

from __future__ import annotations

from functools import cache
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cards import DECK, JOKER, Card, format_cards, format_melds, parse_cards
from scorer.errors import IllegalPlayError, InvalidCardError
from scorer.melds import check_layoff
from scorer.opening import OpeningVerdict, best_opening, check_opening, fit_layoffs
from scorer.ruleset import Ruleset, load_ruleset

KALOOKI = load_ruleset("kalooki")
ROMMI = load_ruleset("rommi")
#: Kalooki with no minimum: check_opening's value of any legal meld, for the brute force.
ANY_MELD = load_ruleset("kalooki", options={"opening_minimum": 0})
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def opening(melds: str, layoffs: str = "", ruleset: Ruleset = KALOOKI) -> OpeningVerdict:
    return check_opening(melds=melds, layoffs=layoffs, ruleset=ruleset)


# -- the minimum --------------------------------------------------------------------------------


def test_opening_must_be_worth_51() -> None:
    # 9+10+10 + 4+4+4 = 41
    short = opening("9H TH JH | 4S 4D 4C")
    assert (short.valid, short.value, short.required) == (False, 41, 51)
    assert short.reason == "opening worth 41, Kalooki needs at least 51"
    # 10+10+10 + 2+3+4+5+6 = 50: one short
    assert opening("KS KH KD | 2C 3C 4C 5C 6C").reason == "opening worth 50, Kalooki needs at least 51"
    # 10+10+10 + 6+7+8 = 51: exactly enough
    exact = opening("KS KH KD | 6C 7C 8C")
    assert (exact.valid, exact.value, exact.reason) == (True, 51, None)


def test_minimum_comes_from_the_ruleset() -> None:
    easier = load_ruleset("kalooki", options={"opening_minimum": "40"})
    verdict = opening("9H TH JH | 4S 4D 4C", ruleset=easier)
    assert (verdict.valid, verdict.value, verdict.required) == (True, 41, 40)


def test_ace_counts_15_in_opening() -> None:
    # 15+15+15 + 10+10+10 = 75; an ace's penalty in hand is also 15, but here it is the opening rule
    assert opening("AS AH AD | KS KH KD").value == 75
    assert opening("AH 2H 3H").value == 20  # 15 + 2 + 3
    assert opening("QH KH AH").value == 35  # 10 + 10 + 15
    cheaper = load_ruleset("kalooki", options={"opening_ace_points": "11"})
    assert opening("AS AH AD | KS KH KD", ruleset=cheaper).value == 63  # 3 * 11 + 30


def test_court_cards_count_10_in_opening() -> None:
    assert opening("JS JH JD | QC KC AC").value == 30 + 35
    richer = load_ruleset("kalooki", options={"opening_court_points": "12"})
    assert opening("JS JH JD", ruleset=richer).value == 36


# -- jokers -------------------------------------------------------------------------------------


def test_joker_counts_as_card_it_stands_for() -> None:
    assert opening("5H *=6H 7H").value == 18
    assert opening("5H * 7H").value == 18  # inferred: 6H
    assert opening("QS QH *").value == 30  # a queen, whichever suit
    verdict = opening("KH KD *=KS | 9C TC JC")  # 30 + 29 = 59
    assert (verdict.valid, verdict.value) == (True, 59)


def test_joker_reads_as_the_card_worth_most() -> None:
    # QH KH * is J-Q-K (30) or Q-K-A (35): the opening counts the better reading and reports it
    verdict = opening("QH KH * | 7S 7D 7C")
    assert (verdict.valid, verdict.value) == (True, 56)
    assert format_melds(verdict.melds) == "QH KH *=AH | 7S 7D 7C"
    assert format_melds(opening("5H 6H *").melds) == "5H 6H *=7H"  # 18, not 4H's 15


def test_declared_joker_keeps_its_declared_card() -> None:
    verdict = opening("*=JH QH KH")
    assert (verdict.value, format_melds(verdict.melds)) == (30, "*=JH QH KH")


def test_joker_may_not_stand_for_a_card_already_in_the_meld() -> None:
    verdict = opening("5S 5H *=5H")
    assert not verdict.valid
    assert verdict.reason == (
        "meld 1: not a set: 5S 5H *=5H (*=5H stands for a card already in the set, which Kalooki forbids)"
    )


# -- layoffs ------------------------------------------------------------------------------------


def test_same_turn_layoffs_count_towards_opening() -> None:
    # 41 in melds + QH 10 + 6C 6 = 57
    verdict = opening("9H TH JH | 4S 4D 4C", layoffs="QH 6C")
    assert (verdict.valid, verdict.value) == (True, 57)
    assert verdict.layoffs == parse_cards("QH 6C")
    short = opening("9H TH JH | 4S 4D 4C", layoffs="5C")
    assert (short.valid, short.value) == (False, 46)
    assert short.reason == "opening worth 46, Kalooki needs at least 51 (melds 41 + layoffs 5)"


def test_joker_laid_off_counts_as_its_declared_card() -> None:
    assert opening("9H TH JH | 4S 4D 4C", layoffs="*=AS").value == 41 + 15


def test_undeclared_joker_layoff_is_an_error() -> None:
    with pytest.raises(IllegalPlayError) as error:
        opening("9H TH JH | 4S 4D 4C", layoffs="5C *")
    assert str(error.value) == (
        "layoff 2 of '5C *' is an undeclared joker: say which card it stands for, like '*=7H'"
    )


def test_layoffs_do_not_count_where_the_house_rule_says_so() -> None:
    strict = load_ruleset("kalooki", options={"opening_counts_layoffs": "false"})
    verdict = opening("9H TH JH | 4S 4D 4C", layoffs="QH 6C", ruleset=strict)
    assert (verdict.valid, verdict.value) == (False, 41)
    assert verdict.reason == (
        "opening worth 41, Kalooki needs at least 51 (layoffs in the same turn do not count in Kalooki)"
    )


def test_no_laying_off_before_ones_own_opening() -> None:
    verdict = opening("", layoffs="KS KH KD AS")
    assert (verdict.valid, verdict.value) == (False, 45)
    assert verdict.reason == (
        "layoffs alone are not an opening: Kalooki allows no laying off on others' melds "
        "before one's own first meld"
    )


# -- layoffs checked against the melds on the table (--onto) ------------------------------------

TABLE = "QS QD QC | 7C 8C 9C"


def test_layoffs_onto_the_table_must_fit_and_count() -> None:
    # QH on the queens, 6C on the clubs run: 41 + 10 + 6 = 57.
    verdict = check_opening(melds="9H TH JH | 4S 4D 4C", layoffs="QH 6C", onto=TABLE, ruleset=KALOOKI)
    assert (verdict.valid, verdict.value, verdict.layoffs_checked, verdict.layoff_onto) == (
        True,
        57,
        True,
        (0, 1),
    )


def test_a_layoff_that_fits_no_meld_does_not_count() -> None:
    # 2C extends neither the queens nor 7C 8C 9C: it cannot be laid off, and only QH counts.
    verdict = check_opening(melds="9H TH JH | 4S 4D 4C", layoffs="QH 2C", onto=TABLE, ruleset=KALOOKI)
    assert (verdict.valid, verdict.value, verdict.layoff_onto) == (False, 51, (0, None))
    assert verdict.reason == "layoff 2C fits none of the melds on the table: QS QD QC | 7C 8C 9C"
    both = check_opening(melds="KS KH KD", layoffs="2C 3D", onto=TABLE, ruleset=KALOOKI)
    assert both.reason is not None and both.reason.startswith("layoffs 2C 3D fit none of the melds")
    assert both.value == 30


def test_layoffs_taken_on_trust_without_the_table() -> None:
    verdict = opening("9H TH JH | 4S 4D 4C", layoffs="QH 2C")
    assert (verdict.valid, verdict.value, verdict.layoffs_checked, verdict.layoff_onto) == (
        True,
        53,
        False,
        (),
    )


def test_cards_laid_off_one_after_another_may_extend_the_same_meld() -> None:
    # 5C alone does not touch 7C 8C 9C, but after 6C it does.
    verdict = check_opening(melds="KS KH KD | AS AH AD", layoffs="5C 6C", onto="7C 8C 9C", ruleset=KALOOKI)
    assert (verdict.valid, verdict.value, verdict.layoff_onto) == (True, 75 + 11, (0, 0))


def test_a_card_goes_where_it_lets_most_cards_fit() -> None:
    # 9C could join the nines, but only on the run does TC fit after it.
    verdict = check_opening(
        melds="KS KH KD | AS AH AD", layoffs="9C TC", onto="9S 9H 9D | 6C 7C 8C", ruleset=KALOOKI
    )
    assert verdict.layoff_onto == (1, 1) and verdict.value == 75 + 19


def test_a_declared_joker_laid_off_must_fit_as_its_card() -> None:
    fits = check_opening(melds="KS KH KD | AS AH AD", layoffs="*=TC", onto="7C 8C 9C", ruleset=KALOOKI)
    assert (fits.valid, fits.value) == (True, 85)
    astray = check_opening(melds="KS KH KD | AS AH AD", layoffs="*=2C", onto="7C 8C 9C", ruleset=KALOOKI)
    assert astray.reason == "layoff *=2C fits none of the melds on the table: 7C 8C 9C"


def test_a_table_meld_that_is_not_legal_is_an_error() -> None:
    with pytest.raises(IllegalPlayError) as error:
        check_opening(melds="KS KH KD", layoffs="6C", onto="7C 9C JC", ruleset=KALOOKI)
    assert str(error.value).startswith("table meld 1 '7C 9C JC' is not legal: not a run")


def test_the_table_counts_towards_the_cards_the_decks_hold() -> None:
    with pytest.raises(IllegalPlayError) as error:
        check_opening(melds="5H 6H 7H", layoffs="8H", onto="5H 6H 7H | 5H 5S 5D", ruleset=KALOOKI)
    assert (
        str(error.value) == "5H 3 times in the melds, layoffs and table melds, and Kalooki plays with 2 decks"
    )


TABLE_MELDS = [
    parse_cards(text)
    for text in ("5H 6H 7H", "9H TH JH", "5S 5D 5C", "9S 9D 9C", "AH 2H 3H", "QS KS AS", "7C 7D 7S")
]


def brute_force_layoff_value(laid: list[Card], table: list[tuple[Card, ...]]) -> int:
    """Every assignment of each card to a meld or to none; the most value that fits."""
    best = 0
    for choice in product(range(len(table) + 1), repeat=len(laid)):
        groups = [
            [card for card, where in zip(laid, choice, strict=True) if where == i] for i in range(len(table))
        ]
        if all(
            not group or check_layoff(meld, group, KALOOKI).valid
            for meld, group in zip(table, groups, strict=True)
        ):
            value = sum(
                KALOOKI.opening_points(c) for c, where in zip(laid, choice, strict=True) if where < len(table)
            )
            best = max(best, value)
    return best


@PROPERTY
@given(
    st.lists(st.sampled_from(TABLE_MELDS), min_size=1, max_size=3, unique=True),
    st.lists(
        st.sampled_from([c for c in DECK if c.rank in (1, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13)]),
        min_size=1,
        max_size=4,
    ),
)
def test_fit_layoffs_matches_brute_force(table: list[tuple[Card, ...]], laid: list[Card]) -> None:
    placed = fit_layoffs(laid, table=table, ruleset=KALOOKI)
    value = sum(KALOOKI.opening_points(c) for c, where in zip(laid, placed, strict=True) if where is not None)
    assert value == brute_force_layoff_value(laid, table)
    for i, meld in enumerate(table):
        group = [c for c, where in zip(laid, placed, strict=True) if where == i]
        assert not group or check_layoff(meld, group, KALOOKI).valid


# -- illegal melds and impossible cards ---------------------------------------------------------


def test_every_meld_of_the_opening_must_be_legal() -> None:
    verdict = opening("9H TH JH | 5C 7C 8C")
    assert (verdict.valid, verdict.value) == (False, 29)  # only the legal meld counts
    assert verdict.reason == "meld 2: not a run: 5C 7C 8C (not consecutive: 6C missing)"
    twice = opening("4S 4D 4H 4H | KC QC AC | 2S 2D")
    assert twice.reason == (
        "meld 1: not a set: 4S 4D 4H 4H (4H twice; a set may not hold the same card twice in Kalooki); "
        "meld 3: not a meld: 2S 2D (a meld needs at least 3 cards)"
    )


def test_same_card_from_both_decks_is_fine() -> None:
    verdict = opening("5H 6H 7H | 5H 6H 7H | 8H 8S 8D")
    assert (verdict.valid, verdict.value) == (True, 36 + 24)


def test_more_copies_than_the_decks_hold_is_an_error() -> None:
    with pytest.raises(IllegalPlayError) as error:
        opening("5H 6H 7H | 5H 6H 7H", layoffs="5H")
    assert str(error.value) == "5H 3 times in the melds and layoffs, and Kalooki plays with 2 decks"
    with pytest.raises(IllegalPlayError) as error:
        opening("5H * * | 6S * * | 7C 7D *")
    assert str(error.value) == "5 jokers in the melds and layoffs, and Kalooki plays with 4"


def test_nothing_played_is_an_error() -> None:
    with pytest.raises(IllegalPlayError) as error:
        opening("")
    assert str(error.value) == "an opening needs at least one meld: got no melds and no layoffs"


def test_card_text_must_be_well_formed() -> None:
    with pytest.raises(InvalidCardError, match="invalid card 'XQ' at position 2"):
        opening("9H XQ JH")


def test_melds_may_be_given_as_sequences() -> None:
    verdict = check_opening(melds=["9H TH JH", parse_cards("KS KH KD")], layoffs=["AS"], ruleset=KALOOKI)
    assert (verdict.valid, verdict.value) == (True, 29 + 30 + 15)


def test_ruleset_without_minimum_only_checks_the_melds() -> None:
    small = opening("2S 3S 4S", ruleset=ROMMI)
    assert (small.valid, small.value, small.required, small.reason) == (True, 9, 0, None)
    assert not opening("2S 3S 5S", ruleset=ROMMI).valid
    # Rommi lets a player lay off before melding, so layoffs alone are fine there.
    alone = opening("", layoffs="5C", ruleset=ROMMI)
    assert (alone.valid, alone.value) == (True, 5)


def test_verdict_text() -> None:
    assert str(opening("9H TH JH | 4S 4D 4C", layoffs="5C")) == (
        "9H TH JH | 4S 4D 4C + layoffs 5C (worth 46) does not open: "
        "opening worth 46, Kalooki needs at least 51 (melds 41 + layoffs 5)"
    )


# -- could this hand open? ----------------------------------------------------------------------


def test_hand_that_can_open() -> None:
    verdict = best_opening("AS AH AD 2C 3C 4C 9D", KALOOKI)  # 45 + 9
    assert (verdict.valid, verdict.value, verdict.reason) == (True, 54, None)
    assert format_melds(verdict.melds) == "AS AH AD | 2C 3C 4C"


def test_hand_that_cannot_open() -> None:
    verdict = best_opening("5H 6H 7H 8H 2C 2D KS", KALOOKI)
    assert (verdict.valid, verdict.value) == (False, 26)
    assert verdict.reason == "the best opening in this hand is worth 26, Kalooki needs at least 51"
    with_joker = best_opening("QH KH * 2C", KALOOKI)
    assert (with_joker.value, format_melds(with_joker.melds)) == (35, "QH KH *=AH")
    assert with_joker.reason == "the best opening in this hand is worth 35, Kalooki needs at least 51"


def test_hand_without_a_meld_cannot_open() -> None:
    for ruleset in (KALOOKI, ROMMI):
        verdict = best_opening("2C 5D 9H", ruleset)
        assert (verdict.valid, verdict.value, verdict.melds) == (False, 0, ())
        assert verdict.reason == f"this hand holds no meld, and {ruleset.name} opens with at least one"


def test_hand_with_more_copies_than_the_decks_is_an_error() -> None:
    with pytest.raises(IllegalPlayError, match=r"^5H 3 times in the hand, and Kalooki plays with 2 decks$"):
        best_opening("5H 5H 5H", KALOOKI)


# -- properties ---------------------------------------------------------------------------------

#: Two decks crowded into a few ranks and three suits, and four jokers: most hands meld.
POOL: tuple[Card, ...] = (
    *[c for c in DECK if c.suit < 3 and c.rank in (1, 2, 3, 4, 11, 12, 13)] * 2,
    *[JOKER] * 4,
)


def small_hands() -> st.SearchStrategy[list[Card]]:
    return st.lists(st.integers(0, len(POOL) - 1), min_size=3, max_size=9, unique=True).map(
        lambda idx: [POOL[i] for i in idx]
    )


def brute_force_opening(hand: list[Card]) -> int:
    """The best total over every packing of disjoint subsets that check_opening calls legal."""
    size = len(hand)
    worth: dict[int, int] = {}
    for mask in range(1, 1 << size):
        members = [hand[i] for i in range(size) if mask >> i & 1]
        if len(members) >= 3:
            verdict = check_opening(melds=[members], ruleset=ANY_MELD)
            if verdict.valid:
                worth[mask] = verdict.value

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        result = best(mask & ~low)
        for meld, value in worth.items():
            if meld & low and meld & mask == meld:
                result = max(result, value + best(mask & ~meld))
        return result

    return best((1 << size) - 1)


@PROPERTY
@given(small_hands())
def test_best_opening_matches_brute_force(hand: list[Card]) -> None:
    verdict = best_opening(hand, KALOOKI)
    assert verdict.value == brute_force_opening(hand), format_cards(hand)
    assert verdict.valid == (verdict.value >= KALOOKI.opening_minimum)


@PROPERTY
@given(small_hands())
def test_check_opening_agrees_with_best_opening(hand: list[Card]) -> None:
    best = best_opening(hand, KALOOKI)
    if not best.melds:
        return
    checked = check_opening(melds=best.melds, ruleset=KALOOKI)
    assert (checked.value, checked.valid) == (best.value, best.valid), format_melds(best.melds)
