"""The best-arrangement solver against its brute-force oracle (this project's perft)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorer.cards import DECK, JOKER, Card, format_cards, parse_cards
from scorer.melds import check_meld
from scorer.oracle import best_value, least_deadwood
from scorer.ruleset import Ruleset, load_ruleset
from scorer.solver import Arrangement, Solver, best_arrangement, best_discard

GIN = load_ruleset("gin")
KALOOKI = load_ruleset("kalooki")
ROMMI = load_ruleset("rommi")
BOATHOUSE = load_ruleset("boathouse")
CAROUSEL = load_ruleset("carousel")
ORACLE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_consistent(hand: list[Card], arrangement: Arrangement, rules: Ruleset) -> None:
    """The melds are legal, melds and deadwood are the hand, the points add up."""
    used = Counter(c.undeclared for m in arrangement.melds for c in m) + Counter(arrangement.deadwood)
    assert used == Counter(c.undeclared for c in hand)
    for meld in arrangement.melds:
        assert check_meld(meld, rules).valid, format_cards(meld)
    assert arrangement.deadwood_points == sum(rules.points(c) for c in arrangement.deadwood)


def gin_hands(size: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True)


@st.composite
def dense_hands(draw: st.DrawFn, *, size: int, decks: int, jokers: int) -> list[Card]:
    """Hands crowded into a few ranks and suits, so most cards can meld several ways."""
    low = draw(st.integers(1, 8))
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    pool = [c for c in DECK if (c.suit in suits and low <= c.rank <= low + 5) or c.rank == low + 2]
    pool = pool * decks + [JOKER] * jokers
    return draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True).map(
            lambda idx: [pool[i] for i in idx]
        )
    )


def two_deck_hands(*, size: int, jokers: int) -> st.SearchStrategy[list[Card]]:
    pool = list(DECK) * 2 + [JOKER] * jokers
    return st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True).map(
        lambda idx: [pool[i] for i in idx]
    )


@st.composite
def four_of_a_kind_hands(draw: st.DrawFn, *, size: int) -> list[Card]:
    """A hand holding all four cards of a rank, and often a run through one of them: the best
    arrangement keeps the four as one set, or breaks it for the run (3 + run)."""
    rank = draw(st.integers(1, 13))
    hand = [Card(rank, suit) for suit in range(4)]
    if draw(st.booleans()):
        suit = draw(st.integers(0, 3))
        low = draw(st.integers(max(1, rank - 3), min(rank, 11)))
        hand += [Card(r, suit) for r in range(low, low + 3) if r != rank]
    rest = [c for c in DECK if c not in hand]
    hand += draw(
        st.lists(st.sampled_from(rest), min_size=size - len(hand), max_size=size - len(hand), unique=True)
    )
    return hand


def report_sets(arrangement: Arrangement) -> None:
    """What the example was, for ``--hypothesis-show-statistics``."""
    if any(len(m) == 4 and len({c.rank for c in m}) == 1 for m in arrangement.melds):
        event("best arrangement: a 4-card set")
    else:
        event("best arrangement: no 4-card set")


# -- exactness against the oracle -----------------------------------------------------------


@ORACLE
@given(
    st.one_of(
        gin_hands(10),
        gin_hands(11),
        dense_hands(size=10, decks=1, jokers=0),
        four_of_a_kind_hands(size=10),
        four_of_a_kind_hands(size=11),
    )
)
def test_gin_hands_match_the_oracle(hand: list[Card]) -> None:
    arrangement = best_arrangement(hand, GIN)
    report_sets(arrangement)
    assert arrangement.deadwood_points == least_deadwood(hand, GIN)
    assert_consistent(hand, arrangement, GIN)


def test_a_four_card_set_is_kept_whole_or_broken_for_a_run() -> None:
    whole = best_arrangement(parse_cards("7S 7H 7D 7C KS QH 2D 9C 4H 3S"), GIN)
    assert [set(m) for m in whole.melds] == [set(parse_cards("7S 7H 7D 7C"))]
    # 5H 6H 7H is a run only with the heart 7: the other three sevens stay a set.
    broken = best_arrangement(parse_cards("7S 7H 7D 7C 5H 6H KS QD 2C 9S"), GIN)
    assert sorted(map(set, broken.melds), key=len) == [
        set(parse_cards("7S 7D 7C")),
        set(parse_cards("5H 6H 7H")),
    ]


@ORACLE
@given(
    st.sampled_from([KALOOKI, ROMMI, BOATHOUSE, CAROUSEL]),
    st.integers(3, 11).flatmap(
        lambda n: st.one_of(two_deck_hands(size=n, jokers=4), dense_hands(size=n, decks=2, jokers=4))
    ),
)
def test_two_deck_hands_with_jokers_match_the_oracle(rules: Ruleset, hand: list[Card]) -> None:
    hand = [c for c in hand if not c.is_joker][: len(hand)] + [c for c in hand if c.is_joker][
        : rules.max_jokers
    ]
    arrangement = best_arrangement(hand, rules)
    assert arrangement.deadwood_points == least_deadwood(hand, rules)
    assert_consistent(hand, arrangement, rules)


@settings(max_examples=12, deadline=None)
@given(st.one_of(two_deck_hands(size=13, jokers=4), dense_hands(size=13, decks=2, jokers=4)))
def test_long_kalooki_hands_match_the_oracle(hand: list[Card]) -> None:
    assert best_arrangement(hand, KALOOKI).deadwood_points == least_deadwood(hand, KALOOKI)


@ORACLE
@given(
    st.integers(3, 10).flatmap(
        lambda n: st.one_of(two_deck_hands(size=n, jokers=4), dense_hands(size=n, decks=2, jokers=4))
    )
)
def test_opening_value_matches_the_oracle(hand: list[Card]) -> None:
    arrangement = Solver(KALOOKI, objective="opening").best(hand)
    assert arrangement.value == best_value(hand, KALOOKI, objective="opening")
    assert_consistent(hand, arrangement, KALOOKI)


@ORACLE
@given(gin_hands(11))
def test_best_discard_leaves_the_least_deadwood(hand: list[Card]) -> None:
    choice = best_discard(hand, GIN)
    assert choice.discard in hand
    rest = list(hand)
    rest.remove(choice.discard)
    assert choice.arrangement.deadwood_points == least_deadwood(rest, GIN)
    assert choice.arrangement.deadwood_points == min(
        least_deadwood([c for c in hand if c != d], GIN) for d in hand
    )


# -- determinism ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(two_deck_hands(size=15, jokers=4), st.randoms(use_true_random=False))
def test_same_hand_in_any_order_gives_the_same_arrangement(hand: list[Card], rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert best_arrangement(hand, KALOOKI) == best_arrangement(shuffled, KALOOKI)
    assert Solver(KALOOKI).best(hand) == best_arrangement(hand, KALOOKI)


def test_a_shared_solver_answers_like_a_fresh_one() -> None:
    rng = random.Random(7)
    solver = Solver(GIN)
    for _ in range(50):
        hand = rng.sample(DECK, 10)
        assert solver.best(hand) == best_arrangement(hand, GIN)


# -- worked hands ---------------------------------------------------------------------------


def test_gin_hand_best_melds_and_deadwood() -> None:
    # 5H 6H 7H run, 8C 8D 8S set; KC QD 2S 3S left: 10 + 10 + 2 + 3 = 25.
    best = best_arrangement("5H 6H 7H 8C 8D 8S KC QD 2S 3S", GIN)
    assert best.deadwood_points == 25
    assert format_cards(best.deadwood) == "2S 3S QD KC"


def test_card_shared_by_a_set_and_a_run_goes_where_it_saves_most() -> None:
    # 7H can complete 7S 7D 7H or 5H 6H 7H; the set leaves 5H 6H (11), the run leaves 7S 7D (14).
    best = best_arrangement("5H 6H 7H 7S 7D", GIN)
    assert best.deadwood_points == 11


def test_gin_is_all_ten_melded() -> None:
    best = best_arrangement("AH 2H 3H 4H 5H 6H 7H 8H 9H TH", GIN)
    assert best.deadwood_points == 0 and len(best.melds) == 3


def test_long_run_is_kept_whole_when_jokers_make_it_worth_more() -> None:
    # Opening value: 5H 6H 7H *=8H *=9H *=TH is 5+6+7+8+9+10 = 45; cut into two runs the jokers
    # could not all stand for high cards.
    best = Solver(KALOOKI, objective="opening").best("5H 6H 7H * * *")
    assert best.value == 45


def test_jokers_are_melded_before_naturals_when_they_cost_more() -> None:
    # Kalooki joker 25: 5H * 7H melds the joker; 2C is left (2).
    best = best_arrangement("5H * 7H 2C", KALOOKI)
    assert best.deadwood_points == 2
    assert format_cards(best.melds[0]) == "5H *=6H 7H"


def test_unmeldable_joker_is_deadwood_at_its_value() -> None:
    best = best_arrangement("* 2C 9D", KALOOKI)
    assert best.deadwood_points == 25 + 2 + 9


def test_twenty_cards_two_decks() -> None:
    # AS-6S | 7H 7D 7C | 8H-QH | QD QC * | KC KD *: every card melds.
    hand = "AS 2S 3S 4S 5S 6S 7H 7D 7C 8H 9H TH JH QH QD QC KC KD * *"
    best = best_arrangement(hand, KALOOKI)
    assert_consistent(list(parse_cards(hand)), best, KALOOKI)
    assert best.deadwood_points == 0
    # With KC twice and 9H twice the identical cards must part: the cheapest leftovers are
    # one 9H and QD (19) or one KC and QD (20) or the like; three jokers cannot save them all.
    crowded = "AS 2S 3S 4S 5S 5H 5D 5C 9H 9H TH JH QH QD QC KC KC * * *"
    worst = best_arrangement(crowded, KALOOKI)
    assert_consistent(list(parse_cards(crowded)), worst, KALOOKI)
    assert worst.deadwood_points == 19


def test_empty_hand() -> None:
    best = best_arrangement("", GIN)
    assert best.melds == () and best.deadwood == () and best.deadwood_points == 0


def test_discard_from_an_empty_hand_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot discard from an empty hand"):
        best_discard("", GIN)


def test_eleven_card_gin_discard() -> None:
    # Discarding KC leaves 2S 3S 4S | 8S 8D 8C | 5H 6H 7H and QD: deadwood 10.
    choice = best_discard("5H 6H 7H 8C 8D 8S KC QD 2S 3S 4S", GIN)
    assert choice.arrangement.deadwood_points == 10
    assert str(choice.discard) in {"KC", "QD"}
