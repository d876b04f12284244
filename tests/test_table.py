"""Carousel table rearrangement (docs/rules.md, Carousel; referee question 5) and joker moves."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cards import Card, format_melds, parse_melds
from scorer.errors import IllegalPlayError, InvalidCardError
from scorer.ruleset import load_ruleset
from scorer.table import JokerMove, TableVerdict, check_rearrangement, joker_moves

CAROUSEL = load_ruleset("carousel")
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rearrange(before: str, from_hand: str, after: str, *, first: bool = False) -> TableVerdict:
    return check_rearrangement(before=before, from_hand=from_hand, after=after, ruleset=CAROUSEL, first=first)


def test_table_rearrangement_is_a_carousel_rule() -> None:
    kalooki = load_ruleset("kalooki")
    message = "^table rearrangement is a Carousel rule; Kalooki does not allow it$"
    with pytest.raises(IllegalPlayError, match=message):
        check_rearrangement(before="5H 6H 7H", from_hand="8H", after="5H 6H 7H 8H", ruleset=kalooki)
    with pytest.raises(IllegalPlayError, match=message):
        joker_moves(table="5H *=6H 7H", hand="6H", ruleset=kalooki)


# -- (a) a card from the hand -------------------------------------------------------------------


def test_rearrangement_needs_a_card_from_hand() -> None:
    verdict = rearrange("4H 5H 6H 7H 8H 9H", "", "4H 5H 6H | 7H 8H 9H")
    assert (verdict.valid, verdict.reason, verdict.melds) == (
        False,
        "a rearrangement needs at least one card from the hand",
        (),
    )


def test_laying_a_card_on_a_table_meld_is_legal() -> None:
    verdict = rearrange("5H 6H 7H", "8H", "5H 6H 7H 8H")
    assert (verdict.valid, verdict.reason, format_melds(verdict.melds)) == (True, None, "5H 6H 7H 8H")


def test_melds_may_be_split_and_rebuilt() -> None:
    # The run is cut in two and the new cards extend the second half.
    verdict = rearrange("4H 5H 6H 7H | 7S 7D 7C", "8H 9H", "4H 5H 6H | 7H 8H 9H | 7S 7D 7C")
    assert verdict.valid
    # A set gives a card to a new run made with the hand.
    assert rearrange("7S 7D 7C 7H", "8H 9H", "7S 7D 7C | 7H 8H 9H").valid


# -- (b) no card leaves the table ---------------------------------------------------------------


def test_no_card_leaves_the_table() -> None:
    verdict = rearrange("4H 5H 6H 7H", "8C 9C TC", "4H 5H 6H | 8C 9C TC")
    assert verdict.reason == "7H left the table: no card leaves the table"


def test_every_card_from_the_hand_reaches_the_table() -> None:
    verdict = rearrange("4H 5H 6H", "8C 9C TC JC", "4H 5H 6H | 8C 9C TC")
    assert verdict.reason == "JC from the hand is not on the table after"


def test_nothing_appears_that_was_not_on_the_table_or_in_the_hand() -> None:
    verdict = rearrange("4H 5H 6H", "7H", "4H 5H 6H 7H 8H")
    assert verdict.reason == "8H is on the table after, but neither on it before nor from the hand"


def test_every_missing_and_extra_card_is_named() -> None:
    verdict = rearrange("4H 5H 6H 7H | 9S 9D 9C", "8C 8D", "4H 5H 6H | 9S 9D 9H 9H | 8C")
    assert verdict.reason == (
        "7H 9C left the table: no card leaves the table; 8D from the hand is not on the table after; "
        "9H 9H are on the table after, but neither on it before nor from the hand"
    )


def test_card_beyond_the_decks_is_an_error() -> None:
    with pytest.raises(
        IllegalPlayError, match=r"^7H 3 times on the table and from the hand, and Carousel plays"
    ):
        rearrange("5H 6H 7H | 7S 7D 7H", "7H", "5H 6H 7H 7H | 7S 7D 7H")


# -- (c) every group legal after ----------------------------------------------------------------


def test_every_group_legal_after() -> None:
    assert rearrange("4H 5H 6H 7H", "9H", "4H 5H 6H | 7H 9H").reason == (
        "group 2 after: not a meld: 7H 9H (a meld needs at least 3 cards)"
    )
    assert rearrange("4H 5H 6H 7H", "9H", "4H 5H 6H 7H 9H").reason == (
        "group 1 after: not a run: 4H 5H 6H 7H 9H (not consecutive: 8H missing)"
    )
    assert rearrange("KH QH JH", "AH", "AH KH QH JH").valid  # Q-K-A is a run in Carousel
    assert rearrange("KH QH JH", "2H", "KH QH JH | 2H").reason == (
        "group 2 after: not a meld: 2H (a meld needs at least 3 cards)"
    )


def test_a_joker_declared_after_must_fit_its_group() -> None:
    verdict = rearrange("4H 5H 6H", "*", "4H 5H 6H *=9H")
    assert verdict.reason == "group 1 after: not a run: 4H 5H 6H *=9H (not consecutive: 7H 8H missing)"


# -- (d) jokers keep their cards ----------------------------------------------------------------


def test_joker_keeps_its_card_unless_replaced() -> None:
    verdict = rearrange("4H 5H 6H | 8S 8D 8C *=8H", "7H", "*=3H 4H 5H 6H 7H | 8S 8D 8C")
    assert verdict.reason == "the joker standing for 8H cannot change its card unless the real 8H replaces it"


def test_joker_moves_to_position_with_same_card() -> None:
    verdict = rearrange("4H 5H 6H | 8S 8D 8C *=8H", "7H", "4H 5H 6H 7H *=8H | 8S 8D 8C")
    assert verdict.valid
    # Undeclared after, the joker is read as the card that keeps the rule: 8H, not 3H.
    inferred = rearrange("4H 5H 6H | 8S 8D 8C *=8H", "7H", "* 4H 5H 6H 7H | 8S 8D 8C")
    assert format_melds(inferred.melds) == "4H 5H 6H 7H *=8H | 8S 8D 8C"


def test_joker_replaced_from_hand_may_take_a_new_card() -> None:
    verdict = rearrange("4H 5H 6H | 8S 8D *=8H", "8H 9C TC", "4H 5H 6H | 8S 8D 8H | * 9C TC")
    assert verdict.valid
    assert format_melds(verdict.melds) == "4H 5H 6H | 8S 8H 8D | *=8C 9C TC"


def test_joker_replaced_by_card_from_another_table_meld() -> None:
    # docs/rules.md, Carousel: the real card may come "from hand or from another table meld".
    verdict = rearrange("4H 5H 6H 7H | 7S 7D *=7H", "8C 9C", "4H 5H 6H | 7S 7D 7H | * 8C 9C")
    assert verdict.valid


def test_jokers_cannot_all_keep_their_cards() -> None:
    # * 5H 6H * reads 3H 4H, 4H 7H or 7H 8H: never 4H and 8H together.
    verdict = rearrange("4S 4D 4C *=4H | 8S 8D 8C *=8H", "5H 6H", "4S 4D 4C | 8S 8D 8C | * 5H 6H *")
    assert verdict.reason == (
        "the jokers standing for 4H and 8H cannot all keep their cards at once: "
        "a joker's card changes only when the real card replaces it"
    )


def test_joker_on_the_table_must_have_a_known_card() -> None:
    with pytest.raises(IllegalPlayError) as error:
        rearrange("4H 5H *", "7C", "4H 5H * | 7C")
    assert str(error.value) == "declare the joker in table meld 1 (4H 5H *): it could stand for 3H or 6H"
    with pytest.raises(IllegalPlayError, match=r"\(7S 7D \*\): it could stand for 7H or 7C$"):
        rearrange("4H 5H 6H | 7S 7D *", "7C", "4H 5H 6H | 7S 7D 7C *")
    with pytest.raises(
        IllegalPlayError,
        match=r"\(5H \* \*\): it could stand for 5S 5D, 5S 5C, 3H 4H, 4H 6H, 6H 7H or 5D 5C$",
    ):
        rearrange("5H * *", "7C", "5H * * 7C")


def test_joker_inferred_on_the_table() -> None:
    # 4H * 6H: the joker can only be 5H; 5S 5H * *: the jokers are 5D and 5C, whichever is which.
    assert rearrange("4H * 6H", "7H", "4H * 6H 7H").valid
    assert rearrange("5S 5H * *", "5D 9C TC", "5S 5H 5D * | * 9C TC").valid


def test_table_before_must_be_legal() -> None:
    with pytest.raises(IllegalPlayError) as error:
        rearrange("4H 5H 7H", "6H", "4H 5H 6H 7H")
    assert str(error.value) == "table meld 1 is not legal: not a run: 4H 5H 7H (not consecutive: 6H missing)"


# -- (e) a replaced joker stays on the table ----------------------------------------------------


def test_replaced_joker_stays_on_table() -> None:
    verdict = rearrange("4H 5H 6H | 8S 8D *=8H", "8H", "4H 5H 6H | 8S 8D 8H")
    assert verdict.reason == "the joker replaced by 8H must stay on the table this turn"
    # Also when the real card comes from another table meld.
    moved = rearrange("5H 6H 7H 8H | 8S 8D *=8H", "4H", "4H 5H 6H 7H | 8S 8D 8H")
    assert moved.reason == "the joker replaced by 8H must stay on the table this turn"


def test_joker_not_replaced_still_may_not_leave() -> None:
    verdict = rearrange("4H 5H 6H | 8S 8D 8C *=8H", "7H", "4H 5H 6H 7H | 8S 8D 8C")
    assert verdict.reason == "a joker left the table: no card leaves the table"


# -- (f) the first meld -------------------------------------------------------------------------


def test_first_meld_is_set_or_run_of_three() -> None:
    reason = "a first meld must be a legal set or run from the hand"
    assert rearrange("4H 5H 6H", "7H", "4H 5H 6H 7H", first=True).reason == reason
    # Two from the hand and one from the table is not enough for a first meld...
    assert rearrange("9C TC JC QC", "9S 9D", "TC JC QC | 9S 9D 9C", first=True).reason == reason
    # ...but is for a later one.
    assert rearrange("9C TC JC QC", "9S 9D", "TC JC QC | 9S 9D 9C").valid
    assert rearrange("4H 5H 6H", "7H 9S 9D 9C", "4H 5H 6H 7H | 9S 9D 9C", first=True).valid
    assert rearrange("", "9S 9D *", "9S 9D *", first=True).valid


def test_first_meld_rule_comes_from_the_ruleset() -> None:
    free = load_ruleset("carousel", options={"first_meld_whole": "false"})
    verdict = check_rearrangement(
        before="4H 5H 6H", from_hand="7H", after="4H 5H 6H 7H", ruleset=free, first=True
    )
    assert verdict.valid


def test_card_text_must_be_well_formed() -> None:
    with pytest.raises(InvalidCardError, match="invalid card 'ZZ'"):
        rearrange("4H 5H 6H", "ZZ", "4H 5H 6H ZZ")


def test_melds_may_be_given_as_sequences() -> None:
    verdict = check_rearrangement(
        before=[parse_melds("5H 6H 7H")[0]], from_hand=["8H"], after=["5H 6H 7H 8H"], ruleset=CAROUSEL
    )
    assert verdict.valid


# -- which joker moves are allowed --------------------------------------------------------------


def test_joker_freed_by_real_card_from_hand_or_table() -> None:
    joker, nine = Card.parse("*=9C"), Card.parse("9C")
    from_hand = joker_moves(table="9S 9D *=9C | 8C 9C TC", hand="9C 2H", ruleset=CAROUSEL)
    assert from_hand == (JokerMove(1, joker, nine),)  # not from meld 2: 8C TC is no meld
    assert [str(move) for move in from_hand] == ["9C from the hand frees *=9C in meld 1"]
    from_table = joker_moves(table="9S 9D *=9C | 9C TC JC QC | 8C 9C TC", hand="2H", ruleset=CAROUSEL)
    assert from_table == (JokerMove(1, joker, nine, 2),)
    assert [str(move) for move in from_table] == ["9C from meld 2 frees *=9C in meld 1"]


def test_joker_moves_read_undeclared_jokers() -> None:
    moves = joker_moves(table="5H * 7H | 5S 5D 5C", hand="6H 5C", ruleset=CAROUSEL)
    assert [str(move) for move in moves] == ["6H from the hand frees *=6H in meld 1"]


def test_no_joker_move_without_the_real_card() -> None:
    assert joker_moves(table="5H *=6H 7H | 2C 3C 4C", hand="6C 8H", ruleset=CAROUSEL) == ()


def test_joker_moves_need_a_settled_joker() -> None:
    with pytest.raises(IllegalPlayError, match=r"^declare the joker in table meld 1 "):
        joker_moves(table="5H 6H *", hand="7H", ruleset=CAROUSEL)


def test_every_listed_joker_move_is_a_legal_rearrangement() -> None:
    # Take the 9C from the hand: the freed joker ends a new run with 7S 8S.
    assert rearrange("9S 9D *=9C | 9C TC JC QC", "9C 7S 8S", "9S 9D 9C | 9C TC JC QC | 7S 8S *").valid
    # Take the 9C from the run: the joker still finds a place.
    assert rearrange("9S 9D *=9C | 9C TC JC QC", "7S 8S", "9S 9D 9C | TC JC QC | 7S 8S *").valid


# -- properties ---------------------------------------------------------------------------------

#: Legal melds with no card in common, two of them holding the table's two jokers.
CATALOGUE = parse_melds(
    "AS 2S 3S | 4S 5S 6S 7S | 9H TH JH | QD KD AD | 5C 5D 5H | 8C 8D 8S 8H | 2H 3H *=4H | "
    "JC QC *=KC | 7D 7C 7H | 2D 3D 4D 5D 6D | TS TD TC"
)


@st.composite
def whole_meld_turns(
    draw: st.DrawFn,
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...], list[tuple[Card, ...]]]:
    """A table of catalogue melds, a new catalogue meld from the hand, the table after in any order.

    The jokers after are declared as before, or all undeclared.
    """
    chosen = draw(st.lists(st.integers(0, len(CATALOGUE) - 1), min_size=1, max_size=6, unique=True))
    before = [CATALOGUE[i] for i in chosen[:-1]]
    hand = CATALOGUE[chosen[-1]]
    shuffler = draw(st.randoms(use_true_random=False))
    undeclare = draw(st.booleans())  # then the referee must find the jokers' readings itself
    after = [
        tuple(card.undeclared if undeclare else card for card in shuffler.sample(meld, len(meld)))
        for meld in [*before, hand]
    ]
    shuffler.shuffle(after)
    return before, tuple(shuffler.sample(hand, len(hand))), after


@PROPERTY
@given(whole_meld_turns())
def test_moving_whole_melds_and_adding_one_from_hand_is_legal(
    turn: tuple[list[tuple[Card, ...]], tuple[Card, ...], list[tuple[Card, ...]]],
) -> None:
    before, hand, after = turn
    verdict = check_rearrangement(before=before, from_hand=hand, after=after, ruleset=CAROUSEL, first=True)
    assert verdict.valid, verdict.reason


@PROPERTY
@given(whole_meld_turns(), st.integers(0, 100))
def test_removing_any_card_after_makes_it_illegal(
    turn: tuple[list[tuple[Card, ...]], tuple[Card, ...], list[tuple[Card, ...]]], pick: int
) -> None:
    before, hand, after = turn
    places = [(g, i) for g, group in enumerate(after) for i in range(len(group))]
    group, index = places[pick % len(places)]
    shorter = [list(meld) for meld in after]
    del shorter[group][index]
    remaining = [meld for meld in shorter if meld]
    verdict = check_rearrangement(before=before, from_hand=hand, after=remaining, ruleset=CAROUSEL)
    assert not verdict.valid
