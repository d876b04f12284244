"""Scoring deals, named after the rules of docs/rules.md; every expected number worked by hand."""

from __future__ import annotations

import pytest

from scorer.deal import Deal, InvalidDealError
from scorer.game import Game
from scorer.ruleset import Ruleset, load_ruleset
from scorer.scoring import DealScore, score_deal

ABC = ["Anna", "Bea", "Cid"]
AB = ["Anna", "Bea"]


def score(ruleset: str | Ruleset, players: list[str], **entries: object) -> DealScore:
    rules = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return score_deal(Deal.build(**entries), players=players, ruleset=rules)  # type: ignore[arg-type]


# -- section 1: basic rummy, winner collects --------------------------------------------------


def test_winner_collects_the_cards_left_in_every_other_hand() -> None:
    # Bea KS 5H = 15, Cid AC 2C = 1 + 2 = 3: Anna collects 18.
    result = score("basic-rummy", ABC, out="Anna", hands={"Bea": "KS 5H", "Cid": "AC 2C"})
    assert result.scores == {"Anna": 18, "Bea": 0, "Cid": 0}
    assert result.winners == ("Anna",)


def test_going_rummy_doubles_by_default() -> None:
    # QD 10 + 9S 9H 18 = 28, doubled 56.
    result = score("basic-rummy", ABC, out="Bea", one_turn=True, hands={"Anna": "QD", "Cid": "9S 9H"})
    assert result.scores["Bea"] == 56


def test_going_rummy_bonus_option_adds_ten() -> None:
    rules = load_ruleset("basic-rummy", options={"going_rummy": "bonus"})
    result = score(rules, ABC, out="Bea", one_turn=True, hands={"Anna": "QD", "Cid": "9S 9H"})
    assert result.scores["Bea"] == 38


def test_high_ace_option_makes_the_ace_cost_15() -> None:
    rules = load_ruleset("basic-rummy", options={"ace": "low_or_high", "ace_points": "15"})
    assert score(rules, AB, out="Anna", hands={"Bea": "AS AH"}).scores["Anna"] == 30


def test_block_lowest_hand_collects_the_differences() -> None:
    # Anna 7, Bea 10, Cid 12: Anna collects 3 + 5 = 8.
    result = score("block-rummy", ABC, ended="block", hands={"Anna": "3S 4S", "Bea": "KD", "Cid": "TC 2H"})
    assert result.scores == {"Anna": 8, "Bea": 0, "Cid": 0}


def test_block_tied_lowest_share_rounded_down() -> None:
    # Anna 7, Bea 10, Cid 7: 3 to share, 1 each.
    result = score("block-rummy", ABC, ended="block", hands={"Anna": "3S 4S", "Bea": "KD", "Cid": "5C 2H"})
    assert result.scores == {"Anna": 1, "Bea": 0, "Cid": 1}
    assert result.winners == ("Anna", "Cid")


def test_block_nobody_scores_option_records_negatives() -> None:
    rules = load_ruleset("block-rummy", options={"block_scoring": "penalty"})
    result = score(rules, ABC, ended="block", points={"Anna": 7, "Bea": 10, "Cid": 0})
    assert result.scores == {"Anna": -7, "Bea": -10, "Cid": 0}


def test_block_ending_needs_block_rummy() -> None:
    with pytest.raises(InvalidDealError, match="'block' does not end a deal in basic rummy"):
        score("basic-rummy", AB, ended="block", points={"Anna": 3, "Bea": 4})


# -- section 2: rommi, penalty points --------------------------------------------------------


def test_rommi_penalty_ace_11_joker_15() -> None:
    # Bea AH KS * = 11 + 10 + 15 = 36; Cid 2C 3D = 5.
    result = score("rommi", ABC, out="Anna", hands={"Bea": "AH KS *", "Cid": "2C 3D"})
    assert result.scores == {"Anna": 0, "Bea": 36, "Cid": 5}


def test_stop_everyone_scores_the_hand() -> None:
    result = score("rommi-stop", AB, ended="stop", hands={"Anna": "5H", "Bea": "AS"})
    assert result.scores == {"Anna": 5, "Bea": 11}


def test_stop_is_not_plain_rommi() -> None:
    with pytest.raises(InvalidDealError, match="'stop' does not end a deal in rommi"):
        score("rommi", AB, ended="stop", hands={"Anna": "5H", "Bea": "AS"})


def test_boathouse_loser_melds_before_counting() -> None:
    # Bea melds 5H 6H 7H and counts KS only: 10. Anna melds QH KH AH (around the corner
    # is legal, but this is Q-K-A) and counts 2C: 2.
    assert score("boathouse", AB, out="Anna", hands={"Bea": "5H 6H 7H KS"}).scores["Bea"] == 10
    assert score("boathouse", AB, out="Bea", hands={"Anna": "KH AH 2H 9C"}).scores["Anna"] == 9


def test_kalooki_every_other_player_gets_25() -> None:
    # Bea AS * = 15 + 25 = 40 (+25), Cid 2D = 2 (+25).
    result = score("kalooki", ABC, out="Anna", one_turn=True, hands={"Bea": "AS *", "Cid": "2D"})
    assert result.scores == {"Anna": 0, "Bea": 65, "Cid": 27}


def test_one_turn_without_a_bonus_is_an_error() -> None:
    with pytest.raises(InvalidDealError, match="rommi has no bonus for going out in one turn"):
        score("rommi", AB, out="Anna", one_turn=True, hands={"Bea": "5H"})


# -- section 3: gin ---------------------------------------------------------------------------


def test_gin_knock_from_hands_with_layoffs() -> None:
    # Anna AS 2S 3S | 5H 6H 7H | 9C 9D 9S, deadwood 4D (4). Bea melds JC QC KC, lays off 4S and
    # 8H, keeps 2D 3D TD TH 5C = 30: Anna scores 26.
    result = score(
        "gin",
        AB,
        knocker="Anna",
        hands={"Anna": "AS 2S 3S 5H 6H 7H 9C 9D 9S 4D", "Bea": "KC QC JC 4S 8H 2D 3D TD TH 5C"},
    )
    assert result.scores == {"Anna": 26, "Bea": 0}
    assert result.outcome == "knock"


def test_gin_from_hands_refuses_the_defenders_layoffs() -> None:
    # Anna: AS 2S 3S 4S | 5H 6H 7H | 9C 9D 9S, gin. Bea could lay off 5S and 8H after a knock,
    # but not after gin: Bea keeps all of 5S 8H KD QC JH 2D 3C 4C 6D TD
    # = 5 + 8 + 10 + 10 + 10 + 2 + 3 + 4 + 6 + 10 = 68. Anna scores 25 + 68 = 93.
    result = score(
        "gin",
        AB,
        knocker="Anna",
        hands={"Anna": "AS 2S 3S 4S 5H 6H 7H 9C 9D 9S", "Bea": "5S 8H KD QC JH 2D 3C 4C 6D TD"},
    )
    assert result.outcome == "gin" and result.scores == {"Anna": 93, "Bea": 0}
    assert result.hand_points == {"Anna": 0, "Bea": 68}


def test_undercut_from_deadwood_entries() -> None:
    # Anna knocks with 7, Bea has 5: 2 + 25.
    result = score("gin", AB, knocker="Anna", deadwood={"Anna": 7, "Bea": 5})
    assert result.scores == {"Anna": 0, "Bea": 27} and result.outcome == "undercut"


def test_tie_is_an_undercut_unless_the_option_says_otherwise() -> None:
    assert score("gin", AB, knocker="Anna", deadwood={"Anna": 6, "Bea": 6}).scores["Bea"] == 25
    rules = load_ruleset("gin", options={"undercut_on_tie": "false"})
    result = score(rules, AB, knocker="Anna", deadwood={"Anna": 6, "Bea": 6})
    assert result.outcome == "knock" and result.scores == {"Anna": 0, "Bea": 0}


def test_gin_and_big_gin_bonuses() -> None:
    assert score("gin", AB, knocker="Bea", deadwood={"Bea": 0, "Anna": 15}).scores["Bea"] == 40
    assert score("gin", AB, knocker="Bea", big_gin=True, deadwood={"Bea": 0, "Anna": 15}).scores["Bea"] == 46


def test_dead_hand_scores_nothing() -> None:
    result = score("gin", AB, dead=True)
    assert result.scores == {"Anna": 0, "Bea": 0} and result.winners == ()


def test_knock_over_the_limit_is_refused() -> None:
    with pytest.raises(
        InvalidDealError, match="Anna knocked with 11, over the knock limit of 10 in gin rummy"
    ):
        score("gin", AB, knocker="Anna", deadwood={"Anna": 11, "Bea": 30})


def test_oklahoma_limit_from_upcard_and_spade_doubling() -> None:
    with pytest.raises(InvalidDealError, match="over the knock limit of 7"):
        score("oklahoma-gin", AB, knocker="Anna", upcard="7H", deadwood={"Anna": 8, "Bea": 30})
    rules = load_ruleset("oklahoma-gin", options={"spade_doubles": "true"})
    assert score(rules, AB, knocker="Anna", upcard="7S", deadwood={"Anna": 6, "Bea": 20}).scores["Anna"] == 28
    with pytest.raises(InvalidDealError, match="knock limit of 0"):
        score(rules, AB, knocker="Anna", upcard="AH", deadwood={"Anna": 1, "Bea": 20})


def test_oklahoma_upcard_may_be_in_a_hand() -> None:
    # The knocker's deadwood 4D is the upcard: limit 4. Defender: KC QC JC run; 4S on AS 2S 3S,
    # 8H on 5H 6H 7H; left 2D 3D TD TH 5C = 30. Anna scores 30 - 4 = 26.
    hands = {"Anna": "AS 2S 3S 5H 6H 7H 9C 9D 9S 4D", "Bea": "KC QC JC 4S 8H 2D 3D TD TH 5C"}
    result = score("oklahoma-gin", AB, knocker="Anna", upcard="4D", hands=hands)
    assert result.scores == {"Anna": 26, "Bea": 0}
    assert score("oklahoma-gin", AB, knocker="Anna", upcard="QC", hands=hands).scores["Anna"] == 26


def test_straight_gin_only_gin_ends_a_hand() -> None:
    with pytest.raises(InvalidDealError, match="knock limit of 0"):
        score("straight-gin", AB, knocker="Anna", deadwood={"Anna": 3, "Bea": 30})


def test_illegal_knock_from_hands_is_refused() -> None:
    with pytest.raises(InvalidDealError, match="Anna's knock is illegal"):
        score(
            "gin",
            AB,
            knocker="Anna",
            hands={"Anna": "AS 2S 3S 5H 6H 7H 9C 9D KS QD", "Bea": "KC QC JC 4S 8H 2D 3D TD TH 5C"},
        )


def test_gin_game_winner_has_the_most_points_after_all_bonuses() -> None:
    # docs/rules.md, Gin rummy: the winner has the most points after all the bonuses, which can be
    # the player who did not reach the target. Bea wins nine knocks by 1 (deadwood 9 against
    # 10): 9 points. Anna's gin, 25 + 75 = 100, reaches the target and ends the game.
    # Anna: 100 + game 100 + one box 25 = 225. Bea: 9 + nine boxes 225 = 234. No shutout.
    game = Game(ruleset=load_ruleset("gin"), players=("Anna", "Bea"))
    for _ in range(9):
        game = game.add(Deal.build(knocker="Bea", deadwood={"Bea": 9, "Anna": 10}))
    game = game.add(Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 75}))
    result = game.result
    assert result.finished
    assert result.bonuses == {"Anna": {"game": 100, "boxes": 25}, "Bea": {"boxes": 225}}
    assert result.totals == {"Anna": 225, "Bea": 234}
    assert result.winner == "Bea"


# -- section 4: Carousel ------------------------------------------------------------------------


def test_carousel_knocker_lowest_scores_sum_of_differences() -> None:
    # Anna 3, Bea 5, Cid 20: 2 + 17 = 19.
    result = score("carousel", ABC, knocker="Anna", hands={"Anna": "AS 2D", "Bea": "5H", "Cid": "KS QS"})
    assert result.scores == {"Anna": 19, "Bea": 0, "Cid": 0}


def test_carousel_winner_not_the_knocker_gets_10() -> None:
    # Bea knocks with 3, Anna has 2, Cid 9: Anna 1 + 7 + 10 = 18.
    result = score("carousel", ABC, knocker="Bea", hands={"Anna": "2C", "Bea": "3C", "Cid": "9D"})
    assert result.scores == {"Anna": 18, "Bea": 0, "Cid": 0}


def test_carousel_two_players_winner_scores_the_difference() -> None:
    result = score("carousel", AB, knocker="Anna", points={"Anna": 4, "Bea": 9})
    assert result.scores == {"Anna": 5, "Bea": 0}


def test_carousel_knocker_ties_with_one_player_who_wins_plus_10() -> None:
    # Cid knocks with 4, Anna 4, Bea 7: Anna wins, 0 + 3 + 10 = 13.
    result = score("carousel", ABC, knocker="Cid", hands={"Anna": "4S", "Bea": "7C", "Cid": "AH 3H"})
    assert result.scores == {"Anna": 13, "Bea": 0, "Cid": 0}


def test_carousel_two_players_knocker_tie_goes_to_the_other_player() -> None:
    # Anna knocks with 5, Bea has 5: Bea wins, difference 0 + 10.
    result = score("carousel", AB, knocker="Anna", points={"Anna": 5, "Bea": 5})
    assert result.scores == {"Anna": 0, "Bea": 10} and result.winners == ("Bea",)


def test_carousel_knocker_ties_with_two_both_score_as_winners() -> None:
    # Cid knocks with 4, Anna 4, Bea 4, Dan 9: Anna and Bea each 0 + 0 + 5 + 10 = 15.
    result = score(
        "carousel",
        ["Anna", "Bea", "Cid", "Dan"],
        knocker="Cid",
        points={"Anna": 4, "Bea": 4, "Cid": 4, "Dan": 9},
    )
    assert result.scores == {"Anna": 15, "Bea": 15, "Cid": 0, "Dan": 0}


def test_carousel_going_out_with_no_cards_plus_25() -> None:
    # Bea knocks with no cards: 6 + 10 + 25 = 41.
    result = score("carousel", ABC, knocker="Bea", hands={"Anna": "6D", "Bea": "", "Cid": "TS"})
    assert result.scores["Bea"] == 41


def test_carousel_stock_out_lowest_wins_without_knock_bonus() -> None:
    result = score("carousel", ABC, ended="stock_out", points={"Anna": 8, "Bea": 3, "Cid": 5})
    assert result.scores == {"Anna": 0, "Bea": 7, "Cid": 0}


def test_carousel_knock_needs_5_or_less() -> None:
    with pytest.raises(InvalidDealError, match="Anna's hand is worth 6; a knock needs 5 or less in Carousel"):
        score("carousel", AB, knocker="Anna", points={"Anna": 6, "Bea": 9})


# -- validation: nothing recorded when invalid ----------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "players", "entries", "message"),
    [
        (
            "rommi",
            AB,
            {"out": "Dan", "hands": {"Bea": "5H"}},
            "out: unknown player 'Dan'; the players are Anna, Bea",
        ),
        ("rommi", AB, {"out": "Anna", "hands": {"Bea": "5H", "Eve": "6H"}}, "hands: unknown player 'Eve'"),
        (
            "gin",
            AB,
            {
                "knocker": "Anna",
                "hands": {"Anna": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "Bea": "TS JS QS KS AH 2H 3H 4H 5H 6H"},
            },
            "hands: TS is in Anna's hand and in Bea's hand, but gin rummy with 2 players plays with one deck",
        ),
        (
            "kalooki",
            ABC,
            {"out": "Anna", "hands": {"Bea": "5H 5H", "Cid": "5H"}},
            "hands: 5H is in Bea's hand twice and in Cid's hand, "
            "but Kalooki with 3 players plays with 2 decks",
        ),
        (
            "rommi",
            AB,
            {"out": "Anna", "hands": {"Bea": "* * *"}},
            "hands: 3 jokers, but rommi with 2 players has 2",
        ),
        (
            "gin",
            AB,
            {"knocker": "Anna", "hands": {"Anna": "AS 2S 3S", "Bea": "KC QC JC 4S 8H 2D 3D TD TH 5C"}},
            "hands: Anna has 3 cards; in gin rummy the knocker spreads 10 cards (11 for big gin)",
        ),
        (
            "rommi",
            AB,
            {"out": "Anna", "hands": {"Anna": "5H", "Bea": "6H"}},
            "hands: Anna went out but still holds 5H; going out empties the hand",
        ),
        ("rommi", AB, {"out": "Anna", "points": {"Anna": 0, "Bea": -4}}, "points: Bea's -4 is negative"),
        (
            "rommi",
            AB,
            {"out": "Anna", "points": {"Anna": 0, "Bea": 2.5}},
            "points: Bea's 2.5 is not a whole number",
        ),
        ("rommi", AB, {"out": "Anna"}, "hands: no entry for Bea"),
        ("rommi", AB, {"hands": {"Anna": "5H", "Bea": "6H"}}, "say who went out (out) or how the deal ended"),
        ("gin", AB, {"deadwood": {"Anna": 3, "Bea": 4}}, "knocker: say who knocked, or record a dead hand"),
        ("gin", AB, {"knocker": "Anna", "points": {"Anna": 3, "Bea": 4}}, "gin records deadwood"),
        ("rommi", AB, {"knocker": "Anna", "out": "Anna", "hands": {"Bea": "5H"}}, "rommi has no knocking"),
    ],
)
def test_invalid_entries_are_named(
    ruleset: str, players: list[str], entries: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidDealError) as excinfo:
        score(ruleset, players, **entries)
    assert message in str(excinfo.value)


def test_upcard_must_be_one_card() -> None:
    with pytest.raises(InvalidDealError, match="upcard: '7H 8H' is not one card"):
        Deal.build(knocker="Anna", upcard="7H 8H", deadwood={"Anna": 3, "Bea": 9})


def test_gin_entries_are_refused_in_rummy() -> None:
    with pytest.raises(InvalidDealError, match="are gin entries, not rommi's"):
        score("rommi", AB, out="Anna", dead=True, hands={"Bea": "5H"})


def test_dead_hand_has_nothing_else() -> None:
    with pytest.raises(InvalidDealError, match="a dead hand has no knocker, hands or deadwood"):
        score("gin", AB, dead=True, knocker="Anna", deadwood={"Anna": 3, "Bea": 9})


def _two_of_each(ranks: str, suits: str) -> str:
    return " ".join(f"{rank}{suit}" for suit in suits for rank in ranks for _ in range(2))


def test_boathouse_loser_melds_the_largest_hand_before_counting() -> None:
    # Seven players use two decks, and a hand can grow to every card the others were not
    # dealt: 108 - 6 * 10 = 48. Such a hand is accepted and melded before counting.
    players = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus"]
    rules = load_ruleset("boathouse")
    assert rules.max_held == 48
    others = {"Cid": "QS", "Dan": "KS", "Eve": "QH", "Fay": "KH", "Gus": "QS"}
    # Two of each A-J in hearts and spades meld; QC KD QD KC meet no other club or diamond
    # and no other queen or king: 40 in hand.
    plain = _two_of_each("A23456789TJ", "HS") + " QC KD QD KC"
    assert len(plain.split()) == 48
    assert score(rules, players, out="Anna", hands={"Bea": plain, **others}).scores["Bea"] == 40
    # With two jokers instead of QD KC: they meld QC (or KD) with them, the other stays: 10.
    jokers = _two_of_each("A23456789TJ", "HS") + " QC KD * *"
    assert score(rules, players, out="Anna", hands={"Bea": jokers, **others}).scores["Bea"] == 10
    # Four jokers and two of every card A-7 in hearts, spades and diamonds, and 8H 8S: every
    # card fits runs and sets both, and everything melds.
    dense = _two_of_each("A234567", "HSD") + " 8H 8S * * * *"
    assert len(dense.split()) == 48
    assert score(rules, players, out="Anna", hands={"Bea": dense, **others}).scores["Bea"] == 0


# -- what the mutation run found unpinned (bench/mutation.py) ---------------------------------


def test_winner_collects_every_card_left_even_a_meld_in_hand() -> None:
    # Basic rummy counts the cards left as they are (only Boathouse melds first): Bea's
    # 5H 6H 7H is a run, still 5 + 6 + 7 + KS 10 = 28 in hand.
    result = score("basic-rummy", AB, out="Anna", hands={"Bea": "5H 6H 7H KS"})
    assert result.scores == {"Anna": 28, "Bea": 0}
    assert result.hand_points == {"Anna": 0, "Bea": 28}


def test_a_player_left_out_of_the_points_entry_holds_nothing() -> None:
    result = score("basic-rummy", ABC, out="Anna", points={"Bea": 12, "Cid": 3})
    assert result.hand_points == {"Anna": 0, "Bea": 12, "Cid": 3}
    carousel = score("carousel", AB, out="Anna", points={"Bea": 9})
    assert carousel.hand_points == {"Anna": 0, "Bea": 9}


def test_quick_entry_knock_at_exactly_the_limit_is_legal() -> None:
    result = score("gin", AB, knocker="Anna", deadwood={"Anna": 10, "Bea": 30})
    assert (result.outcome, result.scores) == ("knock", {"Anna": 20, "Bea": 0})
    over = r"^deadwood: Anna knocked with 11, over the knock limit of 10 in gin rummy$"
    with pytest.raises(InvalidDealError, match=over):
        score("gin", AB, knocker="Anna", deadwood={"Anna": 11, "Bea": 30})


def test_an_undercut_marks_the_knock_and_the_undercut_and_a_knock_only_the_knock() -> None:
    undercut = score("gin", AB, knocker="Anna", deadwood={"Anna": 7, "Bea": 5})
    assert undercut.marks == (("Anna", "knock"), ("Bea", "undercut"))
    knock = score("gin", AB, knocker="Anna", deadwood={"Anna": 5, "Bea": 30})
    assert knock.marks == (("Anna", "knock"),)
    gin = score("gin", AB, knocker="Anna", deadwood={"Anna": 0, "Bea": 30})
    assert gin.marks == (("Anna", "gin"),)


def test_carousel_outcomes_and_marks_say_how_the_deal_ended() -> None:
    stock_out = score("carousel", AB, ended="stock_out", points={"Anna": 4, "Bea": 2})
    assert (stock_out.outcome, stock_out.marks) == ("stock_out", ())
    out = score("carousel", AB, out="Anna", points={"Bea": 9})
    assert (out.outcome, out.marks) == ("out", (("Anna", "go_out"),))
    knocked = score("carousel", AB, knocker="Anna", points={"Anna": 2, "Bea": 9})
    assert (knocked.outcome, knocked.marks) == ("knock", (("Anna", "knock"),))


def test_carousel_stock_out_is_refused_where_the_extra_turn_is_off() -> None:
    rules = load_ruleset("carousel", options={"stock_out_extra_turn": False})
    with pytest.raises(InvalidDealError, match=r"^ended: 'stock_out' does not end a deal in Carousel"):
        score(rules, AB, ended="stock_out", points={"Anna": 4, "Bea": 2})
