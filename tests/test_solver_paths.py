"""Each of the solver's searches against the general search and the brute-force oracle.

The solver picks a search by the hand: ``BitSearch`` for distinct natural cards
(path A), ``GroupSearch`` for jokers or a card twice (path B under the deadwood
objective, path C under the opening objective), the general search otherwise.
Here every path is run on the same hands and must agree with the general search
(the solver's original search, kept as the reference) and with the oracle.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorer.solver as solver_module
from scorer.cards import DECK, JOKER, Card, CardsLike, format_cards, format_melds, parse_cards
from scorer.fastmeld import BitSearch, GroupSearch, OutOfBudget
from scorer.melds import check_meld
from scorer.meldtables import Tables, rotate, tables_for
from scorer.oracle import best_value, least_deadwood
from scorer.ruleset import Ruleset, load_ruleset
from scorer.solver import Arrangement, Objective, Solver, best_arrangement, best_discard

GIN = load_ruleset("gin")
KALOOKI = load_ruleset("kalooki")
ROMMI = load_ruleset("rommi")
BOATHOUSE = load_ruleset("boathouse")
CAROUSEL = load_ruleset("carousel")
BASIC = load_ruleset("basic-rummy")
#: House rules that move the tables' edges: longer shortest runs, capped runs, two natural
#: cards per meld, identical cards in a set, bigger sets.
VARIANTS = [
    ROMMI.with_options({"run_min": "4"}),
    BOATHOUSE.with_options({"run_max": "5", "meld_min_natural": "2"}),
    KALOOKI.with_options({"identical_cards_in_set": "true", "set_max": "5"}),
    CAROUSEL.with_options({"set_min": "4", "decks": "2"}),
]
JOKER_RULES = [KALOOKI, ROMMI, BOATHOUSE, CAROUSEL, *VARIANTS]
PATHS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the paths, one by one --------------------------------------------------------------------


def general(hand: CardsLike, rules: Ruleset, objective: Objective = "deadwood") -> Arrangement:
    """The general search, whatever the hand."""
    return Solver(rules, objective=objective)._best_general(parse_cards(hand))


def path_a(hand: CardsLike, rules: Ruleset, objective: Objective = "deadwood") -> Arrangement:
    cards = parse_cards(hand)
    assert len({c.index for c in cards}) == len(cards) and JOKER not in cards
    search = BitSearch(tables_for(rules, opening=objective == "opening"))
    return Arrangement(*search.best(sum(1 << c.index for c in cards)))


def path_b_or_c(hand: CardsLike, rules: Ruleset, objective: Objective = "deadwood") -> Arrangement:
    """The group search, even on a hand path A would take."""
    cards = parse_cards(hand)
    counts = Counter(c.index for c in cards if not c.is_joker)
    ones = sum(1 << i for i in counts)
    twos = sum(1 << i for i, n in counts.items() if n > 1)
    search = GroupSearch(tables_for(rules, opening=objective == "opening"))
    return Arrangement(*search.best(ones, twos, len(cards) - sum(counts.values())))


def assert_consistent(hand: CardsLike, arrangement: Arrangement, rules: Ruleset) -> None:
    """Every meld legal, melds and deadwood exactly the hand, deadwood sorted, points right."""
    cards = parse_cards(hand)
    used = Counter(c.undeclared for m in arrangement.melds for c in m) + Counter(arrangement.deadwood)
    assert used == Counter(c.undeclared for c in cards)
    for meld in arrangement.melds:
        verdict = check_meld(meld, rules)
        assert verdict.valid, f"{format_cards(meld)}: {verdict.reason}"
        assert all(c.stands_for is not None for c in meld if c.is_joker), format_cards(meld)
    assert list(arrangement.deadwood) == sorted(arrangement.deadwood, key=lambda c: (c.is_joker, c.index))
    assert arrangement.deadwood_points == sum(rules.points(c) for c in arrangement.deadwood)


def assert_paths_agree(hand: list[Card], rules: Ruleset, *, oracle: bool = True) -> None:
    reference = general(hand, rules)
    solved = Solver(rules).best(hand)
    groups = path_b_or_c(hand, rules)
    for arrangement in (solved, groups):
        assert_consistent(hand, arrangement, rules)
        assert arrangement.deadwood_points == reference.deadwood_points
        assert arrangement.value == reference.value
    if JOKER not in hand and len(set(hand)) == len(hand):
        # Path A searches in the general search's order: the very same arrangement.
        assert path_a(hand, rules) == reference == solved
    if oracle:
        assert reference.deadwood_points == least_deadwood(hand, rules)


def assert_opening_paths_agree(hand: list[Card], rules: Ruleset) -> None:
    reference = general(hand, rules, "opening")
    for arrangement in (Solver(rules, objective="opening").best(hand), path_b_or_c(hand, rules, "opening")):
        assert_consistent(hand, arrangement, rules)
        assert arrangement.value == reference.value
        # The value is what the melds are worth, each joker as its card.
        assert arrangement.value == sum(
            rules.opening_points(c.stands_for or c) for m in arrangement.melds for c in m
        )
    assert reference.value == best_value(hand, rules, objective="opening")


# -- hands --------------------------------------------------------------------------------------


def gin_hands(size: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True)


@st.composite
def dense_hands(draw: st.DrawFn, *, size: int, decks: int, jokers: int) -> list[Card]:
    """Hands crowded into a few ranks and suits (aces and kings too), so most cards can meld
    several ways."""
    low = draw(st.integers(-2, 10))
    ranks = {(low + k) % 13 + 1 for k in range(5)}
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    pool = [c for c in DECK if (c.suit in suits and c.rank in ranks) or c.rank == (low + 2) % 13 + 1]
    pool = pool * decks + [JOKER] * jokers
    chosen = draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True))
    return [pool[i] for i in chosen]


def two_deck_hands(*, size: int, jokers: int) -> st.SearchStrategy[list[Card]]:
    pool = list(DECK) * 2 + [JOKER] * jokers
    return st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True).map(
        lambda idx: [pool[i] for i in idx]
    )


def within_rules(hand: list[Card], rules: Ruleset) -> list[Card]:
    """The hand with no more jokers than the ruleset plays with."""
    jokers = [c for c in hand if c.is_joker][: rules.max_jokers]
    return [c for c in hand if not c.is_joker] + jokers


def joker_hands(sizes: tuple[int, int]) -> st.SearchStrategy[list[Card]]:
    return st.integers(*sizes).flatmap(
        lambda n: st.one_of(two_deck_hands(size=n, jokers=4), dense_hands(size=n, decks=2, jokers=4))
    )


# -- agreement ------------------------------------------------------------------------------------


@PATHS
@given(st.one_of(gin_hands(10), gin_hands(11), dense_hands(size=10, decks=1, jokers=0)))
def test_gin_paths_agree_with_the_general_search_and_the_oracle(hand: list[Card]) -> None:
    assert_paths_agree(hand, GIN)


@PATHS
@given(dense_hands(size=11, decks=1, jokers=0), st.sampled_from([BASIC, ROMMI, BOATHOUSE, *VARIANTS]))
def test_ace_modes_without_jokers_agree(hand: list[Card], rules: Ruleset) -> None:
    # Q-K-A and K-A-2 where the ruleset allows them; path A without the pre-elimination
    # shortcuts of gin's tables.
    assert_paths_agree(hand, rules)


@PATHS
@given(st.sampled_from(JOKER_RULES), joker_hands((3, 11)))
def test_joker_paths_agree_with_the_general_search_and_the_oracle(rules: Ruleset, hand: list[Card]) -> None:
    assert_paths_agree(within_rules(hand, rules), rules)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([KALOOKI, BOATHOUSE]), joker_hands((13, 15)))
def test_long_joker_hands_agree_with_the_general_search(rules: Ruleset, hand: list[Card]) -> None:
    assert_paths_agree(within_rules(hand, rules), rules, oracle=False)


@PATHS
@given(st.sampled_from([KALOOKI, ROMMI, CAROUSEL, VARIANTS[0]]), joker_hands((3, 10)))
def test_opening_paths_agree_with_the_general_search_and_the_oracle(rules: Ruleset, hand: list[Card]) -> None:
    assert_opening_paths_agree(within_rules(hand, rules), rules)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([GIN, KALOOKI, BOATHOUSE]), joker_hands((12, 15)), st.randoms(use_true_random=False))
def test_any_order_of_the_same_cards_gives_the_same_arrangement(
    rules: Ruleset, hand: list[Card], rnd: random.Random
) -> None:
    hand = within_rules(hand, rules)
    if rules is GIN:
        hand = list({c.index: c for c in hand if not c.is_joker}.values())
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    for objective in ("deadwood", "opening"):
        assert Solver(rules, objective=objective).best(shuffled) == Solver(rules, objective=objective).best(
            hand
        )
    assert best_discard(shuffled, rules) == best_discard(hand, rules)


# -- discards ------------------------------------------------------------------------------------


def discard_by_hand(hand: list[Card], rules: Ruleset) -> tuple[Card, Arrangement]:
    """Every discard solved on its own: least deadwood, then most points, then the lower card."""
    options = []
    for card in sorted({c.undeclared for c in hand}, key=lambda c: c.index):
        rest = list(hand)
        rest.remove(card)
        arrangement = Solver(rules).best(rest)
        options.append(((arrangement.deadwood_points, -rules.points(card), card.index), card, arrangement))
    _, card, arrangement = min(options, key=lambda option: option[0])
    return card, arrangement


@PATHS
@given(st.one_of(gin_hands(11), dense_hands(size=11, decks=1, jokers=0)))
def test_gin_discard_is_the_best_of_every_discard(hand: list[Card]) -> None:
    choice = best_discard(hand, GIN)
    assert (choice.discard, choice.arrangement) == discard_by_hand(hand, GIN)
    rest = list(hand)
    rest.remove(choice.discard)
    assert choice.arrangement.deadwood_points == least_deadwood(rest, GIN)


@PATHS
@given(st.sampled_from([KALOOKI, ROMMI, BOATHOUSE]), joker_hands((4, 11)))
def test_joker_discard_is_the_best_of_every_discard(rules: Ruleset, hand: list[Card]) -> None:
    hand = within_rules(hand, rules)
    choice = Solver(rules).best_discard(hand)
    card, arrangement = discard_by_hand(hand, rules)
    assert choice.discard == card
    assert choice.arrangement.deadwood_points == arrangement.deadwood_points
    rest = list(hand)
    rest.remove(card)
    assert_consistent(rest, choice.arrangement, rules)


@st.composite
def clustered_hands(draw: st.DrawFn, size: int) -> list[Card]:
    """Two decks' cards of a few neighbouring ranks and suits, and up to 4 jokers: the hands
    where nearly every card fits many melds and a search has the most to try."""
    low = draw(st.integers(0, 8))
    ranks = range(low, min(13, low + draw(st.integers(3, 5))))
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True))
    pool = [DECK[suit * 13 + rank] for suit in suits for rank in ranks] * 2
    jokers = draw(st.integers(0, 4))
    naturals = draw(st.permutations(pool))[: size - jokers]
    return [*naturals, *[JOKER] * jokers]


@PATHS
@given(st.sampled_from([KALOOKI, ROMMI, JOKER_RULES[-2]]), st.integers(5, 10).flatmap(clustered_hands))
def test_clustered_discard_is_the_best_of_every_discard(rules: Ruleset, hand: list[Card]) -> None:
    hand = within_rules(hand, rules)
    choice = Solver(rules).best_discard(hand)
    card, arrangement = discard_by_hand(hand, rules)
    assert choice.discard == card
    assert choice.arrangement == arrangement
    assert Solver(rules).best(hand).deadwood_points == general(hand, rules).deadwood_points


# -- worked hands ---------------------------------------------------------------------------------


def test_queen_king_ace_is_a_run_in_rommi_but_not_in_gin() -> None:
    assert format_melds(best_arrangement("QH KH AH 2C", ROMMI).melds) == "QH KH AH"
    assert best_arrangement("QH KH AH", GIN).melds == ()
    assert best_arrangement("KH AH 2H", ROMMI).melds == ()


def test_king_ace_two_turns_the_corner_in_boathouse() -> None:
    best = best_arrangement("KH AH 2H 3H 9C", BOATHOUSE)
    assert format_melds(best.melds) == "KH AH 2H 3H"
    assert best.deadwood_points == 9
    with_jokers = best_arrangement("KH * 2H", BOATHOUSE)
    assert format_melds(with_jokers.melds) == "KH *=AH 2H"


def test_a_set_takes_jokers_up_to_four_cards() -> None:
    # Kalooki: no joker may stand for a card already in the set, so they take the free suits.
    best = best_arrangement("9S 9H * 2C", KALOOKI)
    assert format_melds(best.melds) == "9S 9H *=9D"
    full = best_arrangement("9S 9H 9D * 2C", ROMMI)
    assert format_melds(full.melds) == "9S 9H 9D *=9C" and full.deadwood_points == 2
    # Two jokers fill the set; a third has no room in it, and no other meld to join.
    crowded = best_arrangement("9S 9H * * * KC KD", KALOOKI)
    assert crowded.deadwood_points == 0 and sorted(len(m) for m in crowded.melds) == [3, 4]
    assert_consistent("9S 9H * * * KC KD", crowded, KALOOKI)


def test_jokers_with_no_natural_card_to_join_stay_in_hand() -> None:
    alone = best_arrangement("* *", KALOOKI)
    assert alone.melds == () and alone.deadwood == (JOKER, JOKER) and alone.deadwood_points == 50
    short = best_arrangement("* 2C 9D", KALOOKI)  # each card needs two jokers
    assert short.melds == () and short.deadwood_points == 25 + 2 + 9
    # A joker in a game without jokers melds nowhere, as check_meld says.
    assert best_arrangement("5H 6H *", GIN).melds == ()


def test_spare_jokers_extend_the_last_meld_downwards_first() -> None:
    # The same declaration the general search made: the spare joker goes to the last meld
    # taken (cards are taken rank by rank, so the eights after the run), a run's lowest
    # position first.
    best = best_arrangement("5H 6H 7H 8C 8D 8S KC QD 2S *", ROMMI)
    assert format_melds(best.melds) == "8S *=8H 8D 8C | 5H 6H 7H"
    assert best.melds == Solver(ROMMI)._best_general(parse_cards("5H 6H 7H 8C 8D 8S KC QD 2S *")).melds
    assert format_melds(best_arrangement("5H 6H *", ROMMI).melds) == "*=4H 5H 6H"


def test_the_same_card_twice_with_two_decks() -> None:
    twice = best_arrangement("5H 5H 6H 6H 7H 7H", KALOOKI)
    assert format_melds(twice.melds) == "5H 6H 7H | 5H 6H 7H" and twice.deadwood_points == 0
    # No identical cards in a Kalooki set: one 7H is left.
    set_of_sevens = best_arrangement("7H 7H 7S 7D", KALOOKI)
    assert format_melds(set_of_sevens.melds) == "7S 7H 7D" and format_cards(set_of_sevens.deadwood) == "7H"
    identical = KALOOKI.with_options({"identical_cards_in_set": "true"})
    assert format_melds(best_arrangement("7H 7H 7S", identical).melds) == "7S 7H 7H"
    # Three of one card is no game's deal: the general search takes it.
    assert best_arrangement("5H 5H 5H", KALOOKI).deadwood_points == 15


def test_opening_value_places_jokers_where_they_count_most() -> None:
    opening = Solver(KALOOKI, objective="opening")
    assert format_melds(opening.best("5H 6H *").melds) == "5H 6H *=7H"
    # Three aces (15 each) are worth more than A-2-3 or Q-K-A.
    aces = opening.best("AH * *")
    assert (aces.value, format_melds(aces.melds)) == (45, "*=AS AH *=AD")


def test_discard_prefers_the_joker_when_it_costs_most() -> None:
    assert best_discard("* 2C 9D", KALOOKI).discard == JOKER
    assert str(best_discard("5H 6H 7H * 2C", KALOOKI).discard) == "2C"
    # Two kings of equal points left over: the lower card (KS before KH) goes.
    assert str(best_discard("KS KH 2C 3C 4C 7D 7S 7H 9D 9S 9H", GIN).discard) == "KS"


def test_card_text_lists_and_tuples_give_the_same_answer() -> None:
    text = "5H 6H 7H 8C 8D 8S KC QD 2S 3S"
    cards = parse_cards(text)
    assert best_arrangement(text, GIN) == best_arrangement(cards, GIN) == best_arrangement(list(cards), GIN)
    assert best_arrangement(["5H", "6H 7H", cards[3]], GIN) == best_arrangement("5H 6H 7H 8C", GIN)


def test_a_shared_solver_answers_like_fresh_ones_on_every_path() -> None:
    rng = random.Random(11)
    for rules in (GIN, KALOOKI):
        for objective in ("deadwood", "opening"):
            shared = Solver(rules, objective=objective)
            for _ in range(40):
                hand = rng.sample(list(DECK) * rules.max_decks, 10) + [JOKER] * rng.randint(
                    0, rules.max_jokers
                )
                assert shared.best(hand) == Solver(rules, objective=objective).best(hand)
                assert shared.best_discard(hand) == Solver(rules, objective=objective).best_discard(hand)


def test_rulesets_with_the_same_meld_rules_share_tables() -> None:
    house = load_ruleset("gin", options={"undercut_bonus": "10"})
    assert tables_for(house, opening=False) is tables_for(GIN, opening=False)
    assert tables_for(GIN, opening=True) is not tables_for(GIN, opening=False)
    assert tables_for(GIN.with_options({"ace": "low_or_high"}), opening=False) is not tables_for(
        GIN, opening=False
    )


@pytest.mark.parametrize("rules", [GIN, KALOOKI, ROMMI, BOATHOUSE, CAROUSEL, *VARIANTS])
def test_every_run_group_is_a_legal_meld_with_the_jokers_it_needs(rules: Ruleset) -> None:
    tables = tables_for(rules, opening=False)
    search = GroupSearch(tables)
    for groups in tables.run_groups[:13]:
        for group in groups:
            for jokers in (group[1], group[2]):
                layout = search._layout(group, jokers)
                meld = [DECK[i] if i >= 0 else Card.joker(DECK[-1 - i]) for i in layout]
                assert check_meld(meld, rules).valid, format_cards(meld)


@pytest.mark.parametrize("ace", ["low", "low_or_high", "around_the_corner"])
@pytest.mark.parametrize("ruleset_id", ["gin", "kalooki", "rommi"])
def test_meld_tables_built_by_doubling_equal_the_pattern_by_pattern_definition(
    ruleset_id: str, ace: str
) -> None:
    ruleset = load_ruleset(ruleset_id).with_options({"ace": ace})
    tables = Tables(ruleset, opening=False)
    shortest = max(ruleset.run_min, ruleset.meld_min_natural)
    for pattern in range(1, 1 << 13):
        ranks = [r for r in range(13) if pattern >> r & 1]
        assert tables.suit_points[pattern] == sum(tables.points[r] for r in ranks)
        top = max(ranks, key=lambda r: (tables.points[r], -r))
        assert tables.suit_top[pattern] == tables.points[top] << 6 | 15 - top
        # Every run from the lowest rank up is inside the pattern of all ranks from there.
        every_run = tables.runs_at[(1 << 13) - (1 << ranks[0])]
        assert tables.runs_at[pattern] == tuple(run for run in every_run if run[0] & pattern == run[0])
        inside = [m for m, _ in tables.windows.get(shortest, []) if m & pattern == m]
        assert tables.run_union[pattern] == sum(1 << r for r in range(13) if any(m >> r & 1 for m in inside))
    assert tables.cards_of((1 << 52) - 1) == DECK


# -- the ranks turned, budgets and the race (every accepted hand answers in time) --------------


def turned(hand: CardsLike, rules: Ruleset, shift: int, objective: Objective = "deadwood") -> Arrangement:
    """The group search over tables whose ranks start ``shift`` above the ace."""
    cards = parse_cards(hand)
    counts = Counter(c.index for c in cards if not c.is_joker)
    ones = rotate(sum(1 << i for i in counts), shift)
    twos = rotate(sum(1 << i for i, n in counts.items() if n > 1), shift)
    search = GroupSearch(tables_for(rules, opening=objective == "opening", shift=shift))
    return Arrangement(*search.best(ones, twos, len(cards) - sum(counts.values())))


@PATHS
@given(
    st.sampled_from([*JOKER_RULES, BASIC.with_options({"jokers_per_deck": "2"})]),
    joker_hands((3, 11)),
    st.integers(0, 12),
    st.sampled_from(["deadwood", "opening"]),
)
def test_every_turning_of_the_ranks_finds_the_best_arrangement(
    rules: Ruleset, hand: list[Card], shift: int, objective: Objective
) -> None:
    hand = within_rules(hand, rules)
    reference = general(hand, rules, objective)
    arrangement = turned(hand, rules, shift, objective)
    assert_consistent(hand, arrangement, rules)
    assert arrangement.value == reference.value
    if objective == "deadwood":
        assert arrangement.deadwood_points == reference.deadwood_points


@given(st.integers(0, (1 << 52) - 1), st.integers(0, 12))
def test_turning_a_mask_moves_each_card_to_the_bit_that_stands_for_it(mask: int, shift: int) -> None:
    tables = tables_for(KALOOKI, opening=False, shift=shift)
    moved = rotate(mask, shift)
    assert moved.bit_count() == mask.bit_count()
    assert {tables.card_at[i] for i in range(52) if moved >> i & 1} == {i for i in range(52) if mask >> i & 1}
    assert rotate(moved, (13 - shift) % 13) == mask


@PATHS
@given(st.sampled_from(JOKER_RULES), joker_hands((3, 11)))
def test_cards_outside_reach_are_in_no_meld_of_the_best_arrangement(rules: Ruleset, hand: list[Card]) -> None:
    hand = within_rules(hand, rules)
    counts = Counter(c.index for c in hand if not c.is_joker)
    ones = sum(1 << i for i in counts)
    twos = sum(1 << i for i, n in counts.items() if n > 1)
    tables = tables_for(rules, opening=False)
    for meld in general(hand, rules).melds:
        jokers = sum(c.is_joker for c in meld)
        if jokers <= 1:
            inside = 0
            for card in meld:
                inside |= 0 if card.is_joker else 1 << card.index
            assert tables.reach(ones, twos, jokers) & inside == inside, format_cards(meld)


def test_a_search_out_of_budget_goes_on_from_where_it_stopped() -> None:
    hand = parse_cards("9S 9S TS JS JS QS 9H TH JH JH QH 9D 9D TD JD * *")
    counts = Counter(c.index for c in hand if not c.is_joker)
    ones = sum(1 << i for i in counts)
    twos = sum(1 << i for i, n in counts.items() if n > 1)
    search = GroupSearch(tables_for(ROMMI, opening=False))
    search.budget = 5
    with pytest.raises(OutOfBudget):
        search.best(ones, twos, 2)
    assert search.spent == 6
    search.budget = 1 << 62
    assert Arrangement(*search.best(ones, twos, 2)) == path_b_or_c(hand, ROMMI)


#: A 44-card one-deck Boathouse hand (two jokers) that took 20 s when the search always
#: started its ranks at the ace: 8C melds nowhere, which only the last ranks showed.
SLOW_BOATHOUSE = (
    "QH KS 5D 6H JD AD 7S 8C KH 5S 2S 6D TC AH 3S 3C 7H JS 7D 9H 9S 3H QS 7C 5H 2C AS TH AC 8D 2D "
    "4H 4D 9D KD QC KC 2H 4C 3D 5C 4S * *"
)


def test_a_large_hand_starts_its_ranks_where_it_is_thinnest() -> None:
    hand = parse_cards(SLOW_BOATHOUSE)
    counts = Counter(c.index for c in hand if not c.is_joker)
    ones = sum(1 << i for i in counts)
    # It holds 2 cards of 6, 8, T and J; of those T and J have the fewest beside them.
    assert solver_module._turnings(BOATHOUSE, ones, 0) == (9, 10, 7, 5)
    # A hand of 10 takes the usual turning: the ace last, where it may end a run.
    assert solver_module._turnings(BOATHOUSE, ones & (1 << 13) - 1, 0) == (1,)
    solver = Solver(BOATHOUSE)
    arrangement = solver.best(hand)
    assert_consistent(hand, arrangement, BOATHOUSE)
    assert arrangement.deadwood == (Card.parse("8C"),)
    assert arrangement.deadwood_points == 8
    assert turned(hand, BOATHOUSE, 7).deadwood_points == 8


@pytest.mark.parametrize("objective", ["deadwood", "opening"])
def test_a_race_whose_searches_run_out_of_budget_answers_like_one_search(
    monkeypatch: pytest.MonkeyPatch, objective: Objective
) -> None:
    rng = random.Random(5)
    monkeypatch.setattr(solver_module, "_FIRST_BUDGET", 3)
    monkeypatch.setattr(solver_module, "_LARGE_HAND", 0)
    raced_turnings = []
    for rules in (KALOOKI, BOATHOUSE, CAROUSEL):
        for _ in range(8):
            hand = rng.sample(list(DECK) * 2, 12) + [JOKER] * rng.randint(0, rules.max_jokers)
            raced = Solver(rules, objective=objective)
            arrangement = raced.best(hand)
            raced_turnings.append(len(raced._group_searches or ()))
            reference = general(hand, rules, objective)
            assert_consistent(hand, arrangement, rules)
            assert arrangement.value == reference.value
            if objective == "deadwood":
                assert arrangement.deadwood_points == reference.deadwood_points
                choice = Solver(rules).best_discard(hand)
                assert (
                    choice.arrangement.deadwood_points
                    == best_discard(hand, rules).arrangement.deadwood_points
                )


@pytest.mark.parametrize(
    ("lengths", "wrap"), [((3, 4, 5), False), ((3,), False), ((3, 4, 5), True), ((2, 7), True)]
)
def test_runs_at_lists_the_runs_inside_every_pattern(lengths: tuple[int, ...], wrap: bool) -> None:
    """The runs of each suit pattern, found by block length (doubling lists, for a referee
    command's start) or bit by bit where a run turns the corner: those of its lowest rank
    that the pattern holds, as looking at every pattern finds them."""
    from scorer.meldtables import _runs_at

    by_low: list[list[tuple[int, int]]] = [[] for _ in range(13)]
    for length in lengths:
        for low in range(13):
            ranks = [(low + i) % 13 for i in range(length)]
            if ranks[-1] < low and not wrap:
                continue
            mask = sum(1 << rank for rank in ranks)
            by_low[(mask & -mask).bit_length() - 1].append((mask, low * 10 + length))
    runs_at = _runs_at(by_low)
    for pattern in range(1, 1 << 13):
        lowest = (pattern & -pattern).bit_length() - 1
        assert runs_at[pattern] == tuple(run for run in by_low[lowest] if run[0] & pattern == run[0])
