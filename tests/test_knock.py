"""The gin knock referee (docs/rules.md, Gin rummy), checked clause by clause and against a brute force.

Card points in gin rummy: A 1, 2-10 face value, J Q K 10. Defaults: knock limit 10,
gin bonus 25, big gin bonus 31, undercut bonus 25, a tie is an undercut.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import scorer.knock as knock_module
from scorer.cards import DECK, Card, parse_cards, parse_melds
from scorer.errors import IllegalPlayError
from scorer.knock import KnockVerdict, _knock_tables, knock_limit, referee_knock, settle_knock
from scorer.melds import check_layoff, check_meld, run_windows
from scorer.oracle import least_deadwood
from scorer.ruleset import Ruleset, load_ruleset

GIN = load_ruleset("gin")
OKLAHOMA = load_ruleset("oklahoma-gin")
STRAIGHT = load_ruleset("straight-gin")

# 7H 8H 9H | 4S 4D 4C | AS 2S 3S, deadwood 8C (8); the defender holds no meld and no layoff:
# KC QD KD JC 9C 9D 6C 5H 2D 3D = 10+10+10+10+9+9+6+5+2+3 = 74.
OK_KNOCKER = "7H 8H 9H 4C 4D 4S AS 2S 3S 8C"
OK_DEFENDER = "KC QD KD 9C 9D 2D 3D 6C 5H JC"


def index_of(card: Card) -> int:
    return card.index


def in_order(hand: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=index_of))


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


def meld_index(verdict: KnockVerdict, text: str) -> int:
    return [set(m) for m in verdict.knocker.melds].index(cards(text))


# -- knock and undercut -------------------------------------------------------------


def test_knock_scores_the_difference() -> None:
    # Knocker 7H 8H 9H | 4S 4D 4C | AS 2S 3S, deadwood 5C = 5 (no other layout is within 10).
    # Defender: TH JH 6H KC QD KD 9C 9D 2D 3D = 79 with no meld; lays off 6H, TH, JH (26) -> 53.
    # Knocker scores 53 - 5 = 48.
    verdict = referee_knock(
        knocker="7H 8H 9H 4C 4D 4S 2S 3S AS 5C", defender="TH JH 6H KC QD KD 9C 9D 2D 3D", ruleset=GIN
    )
    assert (verdict.legal, verdict.outcome, verdict.winner, verdict.points) == (True, "knock", "knocker", 48)
    assert verdict.knocker.deadwood_points == 5
    assert verdict.defender.deadwood_points == 53


def test_knock_at_exactly_the_limit_is_legal() -> None:
    # 7H 8H 9H | 4S 4D 4C | QS QH QD, deadwood KC = 10 = the limit.
    # Defender 2S 3S 5C 6C 8C 9C JC 2D 3D 5D = 2+3+5+6+8+9+10+2+3+5 = 53, no meld, no layoff:
    # the knocker scores 53 - 10 = 43.
    verdict = referee_knock(
        knocker="7H 8H 9H 4C 4D 4S QS QH QD KC", defender="2S 3S 5C 6C 8C 9C JC 2D 3D 5D", ruleset=GIN
    )
    assert (verdict.legal, verdict.outcome, verdict.points) == (True, "knock", 43)


def test_undercut_when_defender_deadwood_lower_after_layoffs() -> None:
    # Knocker 2C 3C 4C | 5S 5H 5D | 9S 9H 9D, deadwood 8C = 8.
    # Defender JS QS KS | 7S 7H 7D | AH 2H 3H and AC (1); AC lays off below 2C -> 0.
    # Undercut: 8 - 0 + 25 = 33 to the defender.
    verdict = referee_knock(
        knocker="2C 3C 4C 5S 5H 5D 9H 9S 9D 8C", defender="KS QS JS 7D 7H 7S AH 2H 3H AC", ruleset=GIN
    )
    assert (verdict.outcome, verdict.winner, verdict.points) == ("undercut", "defender", 33)
    assert [(lay.meld, lay.cards) for lay in verdict.defender.layoffs] == [
        (meld_index(verdict, "2C 3C 4C"), parse_cards("AC"))
    ]


TIE_KNOCKER = "2C 3C 4C 5S 5H 5D 9H 9S 9D 6D"  # deadwood 6D = 6
TIE_DEFENDER = "KS QS JS 7D 7H 7S AH 2H 3H 6S"  # JS QS KS | 7S 7H 7D | AH 2H 3H, deadwood 6S = 6


def test_undercut_when_defender_deadwood_equal_to_knockers() -> None:
    # 6 against 6, no layoff: a tie is an undercut, 6 - 6 + 25 = 25 to the defender.
    verdict = referee_knock(knocker=TIE_KNOCKER, defender=TIE_DEFENDER, ruleset=GIN)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("undercut", "defender", 25)


def test_tie_is_a_knock_when_undercut_on_tie_is_off() -> None:
    # Same 6 against 6: the knocker wins, scoring 6 - 6 = 0.
    ruleset = GIN.with_options({"undercut_on_tie": False})
    verdict = referee_knock(knocker=TIE_KNOCKER, defender=TIE_DEFENDER, ruleset=ruleset)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("knock", "knocker", 0)


def test_undercut_bonus_option() -> None:
    # Undercut bonus 10: the 6-6 tie scores 0 + 10 = 10.
    ruleset = GIN.with_options({"undercut_bonus": "10"})
    verdict = referee_knock(knocker=TIE_KNOCKER, defender=TIE_DEFENDER, ruleset=ruleset)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("undercut", "defender", 10)


# -- gin and big gin ----------------------------------------------------------------

GIN_KNOCKER = "7H 8H 9H 4C 4D 4S 4H AS 2S 3S"  # 7H 8H 9H | 4S 4H 4D 4C | AS 2S 3S: all 10 melded
GIN_DEFENDER = "TH JH 6H KC QD KD 9C 9D 2D 3D"  # no meld: 10+10+6+10+10+10+9+9+2+3 = 79


def test_gin_cannot_be_undercut() -> None:
    # Gin 2C 3C 4C | 5S 5H 5D | 9S 9H 9D 9C against a defender with no deadwood
    # (JS QS KS | 7S 7H 7D | AH 2H 3H 4H): still the knocker's, 25 + 0 = 25.
    verdict = referee_knock(
        knocker="2C 3C 4C 5S 5H 5D 9H 9S 9D 9C", defender="KS QS JS 7D 7H 7S AH 2H 3H 4H", ruleset=GIN
    )
    assert (verdict.outcome, verdict.winner, verdict.points) == ("gin", "knocker", 25)


def test_no_layoffs_after_gin() -> None:
    # 6H, TH and JH would go on 7H 8H 9H after a knock; after gin they stay: 25 + 79 = 104.
    verdict = referee_knock(knocker=GIN_KNOCKER, defender=GIN_DEFENDER, ruleset=GIN)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("gin", "knocker", 104)
    assert verdict.defender.layoffs == ()
    assert verdict.defender.deadwood_points == 79


def test_layoff_after_gin_option() -> None:
    # With the option the defender lays off 6H TH JH (26): 79 - 26 = 53, and 25 + 53 = 78.
    verdict = referee_knock(
        knocker=GIN_KNOCKER, defender=GIN_DEFENDER, ruleset=GIN.with_options({"layoff_after_gin": True})
    )
    assert (verdict.outcome, verdict.points) == ("gin", 78)


def test_big_gin() -> None:
    # 11 cards 7H 8H 9H TH | 4S 4H 4D 4C | AS 2S 3S all melded. Defender
    # KC QD KD 9C 9D 2D 3D 6C 8C JC, no meld: 10+10+10+9+9+2+3+6+8+10 = 77. 31 + 77 = 108.
    verdict = referee_knock(
        knocker="7H 8H 9H TH 4C 4D 4S 4H AS 2S 3S", defender="KC QD KD 9C 9D 2D 3D 6C 8C JC", ruleset=GIN
    )
    assert (verdict.outcome, verdict.winner, verdict.points) == ("big_gin", "knocker", 108)
    assert sum(len(m) for m in verdict.knocker.melds) == 11


def test_eleven_cards_not_all_melded_is_illegal() -> None:
    # 7H 8H 9H TH | 4S 4D 4C | AS 2S 3S leaves 5C: 11 cards with deadwood are no knock.
    verdict = referee_knock(
        knocker="7H 8H 9H TH 4C 4D 4S AS 2S 3S 5C", defender="KC QD KD 9C 9D 2D 3D 6C 8C JC", ruleset=GIN
    )
    assert (verdict.legal, verdict.outcome, verdict.winner, verdict.points) == (False, None, None, 0)
    assert verdict.reason is not None
    assert "11 cards are a big gin only when all 11 are melded" in verdict.reason
    assert verdict.knocker.deadwood_points == 5


# -- the knock limit ----------------------------------------------------------------


def test_knock_over_limit_is_illegal() -> None:
    # 7H 8H 9H TH | 4S 4D 4C, deadwood KC AS AD = 10 + 1 + 1 = 12 > 10.
    verdict = referee_knock(
        knocker="7H 8H 9H TH 4C 4D 4S KC AS AD", defender="QC QD KD 9C 9D 2D 3D 6C 8C JC", ruleset=GIN
    )
    assert (verdict.legal, verdict.outcome, verdict.winner, verdict.points) == (False, None, None, 0)
    assert verdict.reason == "knocker's deadwood 12 is over the knock limit of 10 in gin rummy"
    assert verdict.knocker.deadwood == tuple(parse_cards("AS AD KC"))
    assert verdict.defender.layoffs == ()


def test_knock_limit_is_fixed_outside_oklahoma() -> None:
    assert knock_limit(GIN, None) == 10
    assert knock_limit(GIN, Card.parse("3S")) == 10
    assert knock_limit(STRAIGHT, None) == 0


def test_oklahoma_limit_from_upcard() -> None:
    # Knocker deadwood 8C = 8. Upcard 5D: limit 5, illegal. Upcard QC: limit 10, and the
    # knocker scores 74 - 8 = 66.
    assert knock_limit(OKLAHOMA, Card.parse("5D")) == 5
    assert knock_limit(OKLAHOMA, Card.parse("KD")) == 10
    low = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="5D")
    assert not low.legal
    assert (
        low.reason
        == "knocker's deadwood 8 is over the knock limit of 5 in Oklahoma gin (set by the upcard 5D)"
    )
    high = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="QC")
    assert (high.legal, high.outcome, high.points) == (True, "knock", 66)


def test_oklahoma_ace_upcard_gin_only() -> None:
    # An ace upcard: limit 0, so deadwood 8 may not knock but gin may (25 + 79 = 104).
    assert knock_limit(OKLAHOMA, Card.parse("AD")) == 0
    assert knock_limit(OKLAHOMA.with_options({"ace_upcard_gin_only": False}), Card.parse("AD")) == 1
    knock = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="AD")
    assert not knock.legal
    assert knock.reason is not None and "knock limit of 0" in knock.reason and "only gin" in knock.reason
    gin = referee_knock(knocker=GIN_KNOCKER, defender=GIN_DEFENDER, ruleset=OKLAHOMA, upcard="AD")
    assert (gin.outcome, gin.points) == ("gin", 104)


def test_oklahoma_upcard_may_be_in_either_hand() -> None:
    # The upcard is one of the 52 cards and either player may have taken it. The knocker's
    # own deadwood 8C as the upcard sets a limit of 8: legal, 74 - 8 = 66. The defender's KC
    # sets a limit of 10: the same 66. The knocker's 4S sets 4: over the limit, not bad input.
    mine = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="8C")
    assert (mine.legal, mine.outcome, mine.points) == (True, "knock", 66)
    theirs = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="KC")
    assert (theirs.legal, theirs.outcome, theirs.points) == (True, "knock", 66)
    low = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="4S")
    assert not low.legal
    assert (
        low.reason
        == "knocker's deadwood 8 is over the knock limit of 4 in Oklahoma gin (set by the upcard 4S)"
    )


def test_spade_upcard_doubles_when_option_on() -> None:
    # Upcard QS: limit 10; the knock's 66 is doubled to 132 with the option, 66 without it,
    # and a heart upcard never doubles.
    doubling = OKLAHOMA.with_options({"spade_doubles": True})
    assert (
        referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=doubling, upcard="QS").points == 132
    )
    assert referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=OKLAHOMA, upcard="QS").points == 66
    assert referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=doubling, upcard="QH").points == 66


def test_straight_gin_knock_is_illegal() -> None:
    # Straight gin: limit 0. Deadwood 8 may not knock; gin scores 25 + 79 = 104 as usual.
    verdict = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=STRAIGHT)
    assert not verdict.legal
    assert verdict.reason == (
        "knocker's deadwood 8 is over the knock limit of 0 in straight gin (only gin may end the hand)"
    )
    assert referee_knock(knocker=GIN_KNOCKER, defender=GIN_DEFENDER, ruleset=STRAIGHT).points == 104


# -- layoffs and the knocker's layout -----------------------------------------------


def test_layoff_extends_run_card_by_card_at_both_ends() -> None:
    # 7H 8H 9H takes 6H below, then TH and JH above (JH only touches after TH).
    verdict = referee_knock(
        knocker="7H 8H 9H 4C 4D 4S 2S 3S AS 5C", defender="TH JH 6H KC QD KD 9C 9D 2D 3D", ruleset=GIN
    )
    (layoff,) = verdict.defender.layoffs
    assert layoff.meld == meld_index(verdict, "7H 8H 9H")
    assert set(layoff.cards) == cards("6H TH JH")
    assert check_layoff(verdict.knocker.melds[layoff.meld], layoff.cards, GIN).valid


def test_set_takes_its_missing_fourth_card() -> None:
    # Knocker 5S 5H 5D | 9S 9H 9D | 2C 3C 4C, deadwood 6D. Defender JS QS KS | 7S 7H 7D |
    # AH 2H 3H and 5C: 5C goes on the 5s (or after 4C): deadwood 0, undercut 6 - 0 + 25 = 31.
    verdict = referee_knock(
        knocker="2C 3C 4C 5S 5H 5D 9H 9S 9D 6D", defender="KS QS JS 7D 7H 7S AH 2H 3H 5C", ruleset=GIN
    )
    assert (verdict.outcome, verdict.points, verdict.defender.deadwood_points) == ("undercut", 31, 0)


RUNS = "2S 3S 4S | 2H 3H 4H | 2D 3D 4D"
RUNS_KNOCKER = "2S 3S 4S 2H 3H 4H 2D 3D 4D AC"  # deadwood AC = 1
RUNS_DEFENDER = "5S 5H 5D 6S QS QH QD 7C 8C 9C"  # 5S 5H 5D | QS QH QD | 7C 8C 9C, deadwood 6S = 6


def test_defender_breaks_own_meld_to_lay_off() -> None:
    # With the runs declared, the defender breaks its set 5S 5H 5D: 5S then 6S on the spades,
    # 5H on the hearts, 5D on the diamonds: deadwood 0. Undercut: 1 - 0 + 25 = 26.
    # (Keeping the set leaves 6S, which cannot be laid off alone: 1 - 6 -> a knock for 5.)
    verdict = referee_knock(knocker=RUNS_KNOCKER, defender=RUNS_DEFENDER, ruleset=GIN, melds=RUNS)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("undercut", "defender", 26)
    laid = {lay.meld: set(lay.cards) for lay in verdict.defender.layoffs}
    assert laid == {0: cards("5S 6S"), 1: cards("5H"), 2: cards("5D")}


def test_knocker_best_arrangement_denies_a_layoff() -> None:
    # Left to choose, the knocker lays the same cards as sets 2S 2H 2D | 3S 3H 3D | 4S 4H 4D:
    # the defender holds no 2C, 3C or 4C, keeps 6S (6), and the knocker wins 6 - 1 = 5
    # instead of losing 26 with the runs.
    verdict = referee_knock(knocker=RUNS_KNOCKER, defender=RUNS_DEFENDER, ruleset=GIN)
    assert (verdict.outcome, verdict.winner, verdict.points) == ("knock", "knocker", 5)
    assert {frozenset(m) for m in verdict.knocker.melds} == {
        frozenset(cards(f"{r}S {r}H {r}D")) for r in "234"
    }


def test_knocker_may_leave_a_meld_unmelded_to_deny_layoffs() -> None:
    # Knocker AH 2H 3H | 7S 7D 7C | QS QH QD, deadwood 4S (4). Defender KS KD KC | 9S 9D 9C,
    # deadwood 4H 5H 8D 8C = 4 + 5 + 8 + 8 = 25.
    # Melding AH 2H 3H: the defender lays off 4H 5H, 25 - 9 = 16, a knock for 16 - 4 = 12.
    # Leaving AH 2H 3H as deadwood: knocker 4 + 6 = 10 (at the limit), a knock for 25 - 10 = 15.
    verdict = referee_knock(
        knocker="AH 2H 3H 7S 7D 7C QS QH QD 4S", defender="4H 5H KS KD KC 9S 9D 9C 8D 8C", ruleset=GIN
    )
    assert (verdict.outcome, verdict.points) == ("knock", 15)
    assert verdict.knocker.deadwood == tuple(parse_cards("4S AH 2H 3H"))
    assert verdict.defender.layoffs == ()


def test_declared_melds_used() -> None:
    # The declared runs are kept as declared (in canonical card order), deadwood AC.
    verdict = referee_knock(knocker=RUNS_KNOCKER, defender=RUNS_DEFENDER, ruleset=GIN, melds=RUNS)
    assert verdict.knocker.melds == parse_melds(RUNS)
    assert verdict.knocker.deadwood == (Card.parse("AC"),)
    as_list = referee_knock(
        knocker=RUNS_KNOCKER, defender=RUNS_DEFENDER, ruleset=GIN, melds=["4S 3S 2S", "2H 3H 4H", "2D 3D 4D"]
    )
    assert as_list == verdict


def test_declared_meld_that_is_not_legal_makes_an_illegal_knock() -> None:
    verdict = referee_knock(
        knocker="QH KH AH 4C 4D 4S 2S 3S 7C 5C",
        defender="TH JH 6H KC QD KD 9C 9D 2D 3D",
        ruleset=GIN,
        melds="QH KH AH | 4C 4D 4S",
    )
    assert (verdict.legal, verdict.outcome, verdict.winner, verdict.points) == (False, None, None, 0)
    assert verdict.reason == "not a run: QH KH AH (aces are low in gin rummy)"
    assert verdict.knocker.melds == parse_melds("QH KH AH | 4C 4D 4S")


def test_declared_melds_over_the_limit_make_an_illegal_knock() -> None:
    # Declaring only 4S 4D 4C leaves 7H 8H 9H AS 2S 3S 5C = 24 + 6 + 5 = 35.
    verdict = referee_knock(
        knocker="7H 8H 9H 4C 4D 4S 2S 3S AS 5C",
        defender="TH JH 6H KC QD KD 9C 9D 2D 3D",
        ruleset=GIN,
        melds="4C 4D 4S",
    )
    assert verdict.reason == "knocker's deadwood 35 is over the knock limit of 10 in gin rummy"


# -- bad input ----------------------------------------------------------------------

HAND = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
OTHER = "TH JH 6H KC QD KD 9C 9D 2D 3D"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"ruleset": load_ruleset("rommi")},
            "ruleset 'rommi' (rommi) is a rummy game; only gin has knocks",
        ),
        (
            {"knocker": "7H 8H 9H"},
            "the knocker spreads 10 cards (11 for big gin) in gin rummy, got 3: '7H 8H 9H'",
        ),
        ({"defender": OTHER + " 5D 6D"}, "the defender holds 10 cards in gin rummy, got 12: "),
        ({"knocker": "7H 7H 9H 4C 4D 4S 2S 3S AS 5C"}, "7H is twice in the knocker's hand"),
        ({"defender": "7H JH 6H KC QD KD 9C 9D 2D 3D"}, "7H is in both hands"),
        ({"knocker": "7H 8H 9H 4C 4D 4S 2S 3S AS *"}, "holds a joker"),
        (
            {"melds": "7H 8H 9H | 4C 4D 4H"},
            "declared meld 2 '4C 4D 4H' uses 4H, which is not in the knocker's hand",
        ),
        ({"melds": "7H 8H 9H | 9H 9S 9D"}, "9H is declared twice in the melds '7H 8H 9H | 9H 9S 9D'"),
        (
            {"ruleset": OKLAHOMA},
            "Oklahoma gin takes the knock limit from the upcard: no upcard given",
        ),
        ({"upcard": "*"}, "the upcard * is a joker; gin rummy has no jokers"),
        ({"upcard": "QS QC"}, "the upcard is one card, got 'QS QC'"),
    ],
)
def test_bad_input_raises_illegal_play_error(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"knocker": HAND, "defender": OTHER, "ruleset": GIN, **kwargs}
    with pytest.raises(IllegalPlayError) as caught:
        referee_knock(**arguments)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_ruleset_without_a_knock_limit_is_bad_input() -> None:
    with pytest.raises(IllegalPlayError, match="sets no knock limit"):
        knock_limit(GIN.with_options({"knock_limit": "none"}), None)


# -- properties on random deals -----------------------------------------------------

VARIANTS = [
    GIN,
    GIN.with_options({"undercut_on_tie": False, "undercut_bonus": 10}),
    GIN.with_options({"layoff_after_gin": True}),
    GIN.with_options({"ace": "low_or_high"}),
    GIN.with_options({"ace": "around_the_corner"}),
    OKLAHOMA.with_options({"spade_doubles": True}),
    STRAIGHT,
]


def draw_melds(draw: st.DrawFn, *, avoid: set[Card], room: int, most: int) -> list[Card]:
    """Up to ``most`` random runs and sets, of at most ``room`` cards in all, none in ``avoid``."""
    cards: list[Card] = []
    for _ in range(draw(st.integers(0, most))):
        if draw(st.booleans()):
            suit, length = draw(st.integers(0, 3)), draw(st.integers(3, 5))
            start = draw(st.integers(1, 14 - length))
            meld = [Card(rank, suit) for rank in range(start, start + length)]
        else:
            rank = draw(st.integers(1, 13))
            meld = [
                Card(rank, s) for s in draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            ]
        if len(cards) + len(meld) <= room and not set(meld) & (avoid | set(cards)):
            cards += meld
    return cards


def draw_some(draw: st.DrawFn, pool: list[Card], count: int) -> list[Card]:
    return draw(st.lists(st.sampled_from(pool), min_size=count, max_size=count, unique=True)) if count else []


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], list[Card], Ruleset, Card]:
    """A knocker built from melds and low filler; a defender with melds and the knocker's neighbours."""
    size = draw(st.sampled_from([10, 10, 10, 11]))
    knocker = draw_melds(draw, avoid=set(), room=size, most=4)
    rest = [c for c in DECK if c not in knocker]
    low = [c for c in rest if c.rank <= 4]
    pool = low if draw(st.booleans()) and len(low) >= size - len(knocker) else rest
    knocker += draw_some(draw, pool, size - len(knocker))
    near = {
        c
        for k in knocker
        for c in DECK
        if (c.suit == k.suit and abs(c.rank - k.rank) <= 2) or c.rank == k.rank
    }
    near_cards = sorted(near - set(knocker), key=index_of)
    defender = draw_some(draw, near_cards, draw(st.integers(0, min(5, len(near_cards)))))
    defender += draw_melds(draw, avoid=set(knocker) | set(defender), room=10 - len(defender), most=2)
    rest = [c for c in DECK if c not in knocker and c not in defender]
    defender += draw_some(draw, rest, 10 - len(defender))
    upcard = draw(st.sampled_from(DECK))  # either player may have taken the upcard
    return knocker, defender, draw(st.sampled_from(VARIANTS)), upcard


def _runs_in_distinct_suits(draw: st.DrawFn, lengths: list[int]) -> list[Card]:
    """One run of each length, each in a suit of its own (so none overlaps another)."""
    suits = draw(st.permutations(range(4)))
    cards: list[Card] = []
    for suit, length in zip(suits, lengths, strict=False):
        start = draw(st.integers(1, 14 - length))
        cards += [Card(rank, suit) for rank in range(start, start + length)]
    return cards


def _low_cards(avoid: Iterable[Card], *, most_rank: int) -> list[Card]:
    taken = set(avoid)
    return [c for c in DECK if c.rank <= most_rank and c not in taken]


def _defender_rest(draw: st.DrawFn, knocker: list[Card], defender: list[Card]) -> list[Card]:
    rest = [c for c in DECK if c not in knocker and c not in defender]
    return defender + draw_some(draw, rest, 10 - len(defender))


#: The variants a knock with deadwood can be legal in, whatever the upcard.
KNOCKING = [v for v in VARIANTS if v.knock_limit_source != "upcard" and (v.knock_limit or 0) >= 10]


@st.composite
def undercuts(draw: st.DrawFn) -> tuple[list[Card], list[Card], Ruleset, Card]:
    """A knocker within the limit with aces to threes left over, a defender of melds and aces
    and twos: after its layoffs its deadwood is often at or under the knocker's."""
    knocker = _runs_in_distinct_suits(draw, draw(st.sampled_from([[4, 3], [3, 3, 3], [4, 4]])))
    knocker += draw_some(draw, _low_cards(knocker, most_rank=3), 10 - len(knocker))
    defender = draw_melds(draw, avoid=set(knocker), room=9, most=4)
    for most_rank in (2, 3, 13):
        low = _low_cards([*knocker, *defender], most_rank=most_rank)
        defender += draw_some(draw, low, min(len(low), 10 - len(defender)))
    event("drawn: undercut")
    return knocker, defender, draw(st.sampled_from(KNOCKING)), draw(st.sampled_from(DECK))


@st.composite
def near_big_gins(draw: st.DrawFn) -> tuple[list[Card], list[Card], Ruleset, Card]:
    """Eleven cards: ten melded and one more, which extends a meld (big gin) or is a low card
    (an illegal big gin, one to three points short)."""
    knocker = _runs_in_distinct_suits(draw, draw(st.sampled_from([[4, 3, 3], [3, 4, 3], [5, 5]])))
    extenders = [
        c
        for c in DECK
        if c not in knocker and any(k.suit == c.suit and abs(k.rank - c.rank) == 1 for k in knocker)
    ]
    pool = extenders if draw(st.booleans()) and extenders else _low_cards(knocker, most_rank=3)
    knocker += draw_some(draw, pool, 1)
    event("drawn: near big gin")
    defender = draw_melds(draw, avoid=set(knocker), room=10, most=2)
    return (
        knocker,
        _defender_rest(draw, knocker, defender),
        draw(st.sampled_from(VARIANTS)),
        draw(st.sampled_from(DECK)),
    )


@st.composite
def two_meld_layoffs(draw: st.DrawFn) -> tuple[list[Card], list[Card], Ruleset, Card]:
    """The knocker holds a set of a rank and a run of the missing suit that reaches that rank:
    the defender's card of that rank and suit could be laid off on either meld."""
    rank, suit = draw(st.integers(2, 12)), draw(st.integers(0, 3))
    knocker = [Card(rank, other) for other in range(4) if other != suit]
    step = draw(st.sampled_from([-1, 1])) if 4 <= rank <= 10 else (-1 if rank > 10 else 1)
    knocker += [Card(rank + step * k, suit) for k in (1, 2, 3)]
    knocker += draw_melds(draw, avoid=set(knocker) | {Card(rank, suit)}, room=4, most=1)
    low = _low_cards([*knocker, Card(rank, suit)], most_rank=2)
    knocker += draw_some(draw, low, 10 - len(knocker))
    defender = [Card(rank, suit)]
    near = [
        c
        for c in DECK
        if c.suit == suit and abs(c.rank - rank) <= 5 and c not in knocker and c not in defender
    ]
    defender += draw_some(draw, near, draw(st.integers(0, min(3, len(near)))))
    event("drawn: a layoff for two melds")
    return (
        knocker,
        _defender_rest(draw, knocker, defender),
        draw(st.sampled_from(VARIANTS)),
        draw(st.sampled_from(DECK)),
    )


def steered_deals() -> st.SearchStrategy[tuple[list[Card], list[Card], Ruleset, Card]]:
    """The deals the referee's hard cases come from, each drawn often: built deals as ever, and
    undercuts, near big gins and layoffs that could go on two melds."""
    return st.one_of(deals().map(_drawn_built), undercuts(), near_big_gins(), two_meld_layoffs())


def _drawn_built(
    deal: tuple[list[Card], list[Card], Ruleset, Card],
) -> tuple[list[Card], list[Card], Ruleset, Card]:
    event("drawn: built")
    return deal


def report_mix(verdict: KnockVerdict, *, knocker: list[Card], defender: list[Card], ruleset: Ruleset) -> None:
    """What the example was, for ``--hypothesis-show-statistics``."""
    event(f"outcome: {verdict.outcome or 'illegal'}{' (11 cards)' if len(knocker) == 11 else ''}")
    if verdict.legal and verdict.outcome != "gin" and verdict.outcome != "big_gin":
        melds = verdict.knocker.melds
        if any(sum(check_layoff(m, [card], ruleset).valid for m in melds) >= 2 for card in defender):
            event("a defender's card fits two of the knocker's melds")
        if verdict.defender.layoffs:
            event("the defender laid off")


def check_verdict_is_consistent(
    verdict: KnockVerdict, *, knocker: list[Card], defender: list[Card], ruleset: Ruleset
) -> None:
    assert verdict.points >= 0
    if verdict.legal:
        assert verdict.reason is None and verdict.outcome is not None and verdict.winner is not None
        assert verdict.winner == ("defender" if verdict.outcome == "undercut" else "knocker")
    else:
        assert verdict.reason and verdict.outcome is None and verdict.winner is None and verdict.points == 0
    side = verdict.knocker
    assert sorted([*side.deadwood, *(c for m in side.melds for c in m)], key=index_of) == sorted(
        knocker, key=index_of
    )
    assert side.deadwood_points == sum(ruleset.points(c) for c in side.deadwood)
    assert all(check_meld(m, ruleset).valid for m in side.melds)
    other = verdict.defender
    laid = [c for lay in other.layoffs for c in lay.cards]
    assert sorted([*other.deadwood, *laid, *(c for m in other.melds for c in m)], key=index_of) == sorted(
        defender, key=index_of
    )
    assert other.deadwood_points == sum(ruleset.points(c) for c in other.deadwood)
    for lay in other.layoffs:
        assert check_layoff(side.melds[lay.meld], lay.cards, ruleset).valid


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK), st.sampled_from([10, 11]), st.sampled_from(VARIANTS))
def test_random_deals_give_a_consistent_verdict(deck: list[Card], size: int, ruleset: Ruleset) -> None:
    knocker, defender, upcard = deck[:size], deck[size : size + 10], deck[size + 10]
    verdict = referee_knock(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    check_verdict_is_consistent(verdict, knocker=knocker, defender=defender, ruleset=ruleset)


@settings(max_examples=150, deadline=None)
@given(steered_deals())
def test_built_deals_give_a_consistent_verdict(deal: tuple[list[Card], list[Card], Ruleset, Card]) -> None:
    knocker, defender, ruleset, upcard = deal
    verdict = referee_knock(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    check_verdict_is_consistent(verdict, knocker=knocker, defender=defender, ruleset=ruleset)


# -- the brute-force reference ------------------------------------------------------


_LEAST: dict[tuple[frozenset[Card], int], int] = {}


def reference_deadwood(hand: frozenset[Card], ruleset: Ruleset) -> int:
    """The oracle's least deadwood, remembered (rulesets are not hashable: keyed by identity)."""
    key = (hand, id(ruleset))
    if key not in _LEAST:
        _LEAST[key] = least_deadwood(in_order(hand), ruleset)
    return _LEAST[key]


def reference_layoffs(
    melds: tuple[tuple[Card, ...], ...], *, defender: frozenset[Card], ruleset: Ruleset
) -> set[frozenset[Card]]:
    """Every set of the defender's cards that can be laid off one at a time (check_layoff)."""
    start = (tuple(frozenset(m) for m in melds), frozenset[Card]())
    seen = {start}
    todo = [start]
    while todo:
        table, laid = todo.pop()
        for card in defender - laid:
            for i, meld in enumerate(table):
                if check_layoff(in_order(meld), [card], ruleset).valid:
                    state = ((*table[:i], meld | {card}, *table[i + 1 :]), laid | {card})
                    if state not in seen:
                        seen.add(state)
                        todo.append(state)
    return {laid for _, laid in seen}


def reference_packings(hand: list[Card], ruleset: Ruleset) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every choice of disjoint legal melds, by check_meld on every subset."""
    melds = [
        m
        for size in range(3, len(hand) + 1)
        for m in combinations(hand, size)
        if check_meld(m, ruleset).valid
    ]

    def walk(
        start: int, used: frozenset[Card], chosen: tuple[tuple[Card, ...], ...]
    ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if not used & set(melds[i]):
                yield from walk(i + 1, used | set(melds[i]), (*chosen, melds[i]))

    return walk(0, frozenset(), ())


def reference_result(
    melds: tuple[tuple[Card, ...], ...], *, knocker: list[Card], defender: list[Card], ruleset: Ruleset
) -> tuple[str, int, int, int]:
    """(outcome, knocker's net, knocker's deadwood, defender's deadwood) for one layout."""
    held = frozenset(defender)
    knocker_dw = sum(ruleset.points(c) for c in knocker) - sum(ruleset.points(c) for m in melds for c in m)
    if knocker_dw > 0 or ruleset.layoff_after_gin:
        defender_dw = min(
            reference_deadwood(held - laid, ruleset)
            for laid in reference_layoffs(melds, defender=held, ruleset=ruleset)
        )
    else:
        defender_dw = reference_deadwood(held, ruleset)
    if knocker_dw == 0:
        bonus = ruleset.big_gin_bonus if len(knocker) == 11 else ruleset.gin_bonus
        return ("big_gin" if len(knocker) == 11 else "gin"), bonus + defender_dw, 0, defender_dw
    if defender_dw < knocker_dw or (defender_dw == knocker_dw and ruleset.undercut_on_tie):
        return "undercut", defender_dw - knocker_dw - ruleset.undercut_bonus, knocker_dw, defender_dw
    return "knock", defender_dw - knocker_dw, knocker_dw, defender_dw


@settings(max_examples=200, deadline=None)
@given(steered_deals())
def test_referee_matches_brute_force(deal: tuple[list[Card], list[Card], Ruleset, Card]) -> None:
    knocker, defender, ruleset, upcard = deal
    verdict = referee_knock(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    report_mix(verdict, knocker=knocker, defender=defender, ruleset=ruleset)
    limit = 0 if len(knocker) == 11 else knock_limit(ruleset, upcard)
    total = sum(ruleset.points(c) for c in knocker)
    results = [
        reference_result(melds, knocker=knocker, defender=defender, ruleset=ruleset)
        for melds in reference_packings(knocker, ruleset)
        if total - sum(ruleset.points(c) for m in melds for c in m) <= limit
    ]
    assert verdict.legal == bool(results)
    if not results:
        assert verdict.knocker.deadwood_points == reference_deadwood(frozenset(knocker), ruleset)
        return
    outcome, net, knocker_dw, _ = max(results, key=lambda r: (r[1], -r[2]))
    multiplier = ruleset.spade_multiplier if ruleset.spade_doubles and upcard.suit == 0 else 1
    assert (verdict.outcome, verdict.points, verdict.knocker.deadwood_points) == (
        outcome,
        abs(net) * multiplier,
        knocker_dw,
    )
    chosen = reference_result(verdict.knocker.melds, knocker=knocker, defender=defender, ruleset=ruleset)
    assert verdict.defender.deadwood_points == chosen[3]


# -- the referee's tables, shared per ruleset ---------------------------------------------


@pytest.mark.parametrize("ruleset", VARIANTS, ids=lambda r: f"{r.id}-{r.ace}")
def test_shared_knock_tables_hold_every_run_of_the_ruleset(ruleset: Ruleset) -> None:
    # The runs as the referee once built them on every knock, straight from run_windows.
    lengths = range(ruleset.run_min, min(13, ruleset.run_max or 13) + 1)
    windows = [window for length in lengths for window in run_windows(length, ruleset)]
    expected = []
    for suit in range(4):
        for window in windows:
            order = tuple(suit * 13 + rank - 1 for rank in window)
            expected.append((sum(1 << i for i in order), min(order), order))
    tables = _knock_tables(ruleset)
    assert [(mask, low, meld.order) for mask, low, meld in tables.runs] == expected
    assert all(meld.kind == "run" and meld.mask == mask for mask, _, meld in tables.runs)
    assert tables.run_ranks == {frozenset(window) for window in windows}
    assert tables.solver.points == tuple(ruleset.points(c) for c in DECK)


def test_knock_tables_are_built_once_and_shared_by_rulesets_with_the_same_melds() -> None:
    first = _knock_tables(GIN)
    assert _knock_tables(GIN) is first
    # Other bonuses, same melds and points: the same tables, yet each ruleset's own scores.
    assert _knock_tables(VARIANTS[1]) is first
    assert _knock_tables(GIN.with_options({"ace": "low_or_high"})) is not first
    same = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=GIN)
    other = referee_knock(knocker=OK_KNOCKER, defender=OK_DEFENDER, ruleset=VARIANTS[1])
    assert same == other and same.points == 74 - 8


@settings(max_examples=100, deadline=None)
@given(deals())
def test_warm_tables_give_the_cold_verdict(
    deal: tuple[list[Card], list[Card], Ruleset, Card],
) -> None:
    knocker, defender, ruleset, upcard = deal
    warm = referee_knock(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    saved = dict(knock_module._KNOCK_TABLES)
    knock_module._KNOCK_TABLES.clear()
    try:
        cold = referee_knock(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    finally:
        knock_module._KNOCK_TABLES.update(saved)
    assert cold == warm


# -- what the mutation run found unpinned (bench/mutation.py) ---------------------------------


def test_settle_knock_scores_each_outcome_and_doubles_only_a_spade_upcard() -> None:
    doubling = OKLAHOMA.with_options({"spade_doubles": True})
    assert settle_knock(knocker_deadwood=5, defender_deadwood=30, big_gin=False, ruleset=GIN) == (
        "knock",
        "knocker",
        25,
    )
    assert settle_knock(knocker_deadwood=0, defender_deadwood=30, big_gin=True, ruleset=GIN) == (
        "big_gin",
        "knocker",
        61,
    )
    spade = parse_cards("7S")[0]
    heart = parse_cards("7H")[0]
    assert settle_knock(
        knocker_deadwood=5, defender_deadwood=30, big_gin=False, ruleset=doubling, upcard=spade
    ) == ("knock", "knocker", 50)
    assert settle_knock(
        knocker_deadwood=5, defender_deadwood=30, big_gin=False, ruleset=doubling, upcard=heart
    ) == ("knock", "knocker", 25)


def test_an_upcard_given_in_plain_gin_is_not_named_as_the_limit() -> None:
    # Plain gin's limit is fixed: the reason names it, never the upcard. 2C 3C 4C | 5S 5H 5D,
    # deadwood 9H 9S JD KC = 38.
    verdict = referee_knock(
        knocker="2C 3C 4C 5S 5H 5D 9H 9S JD KC",
        defender="KS QS JS 7D 7H 7S AH 2H 3H AC",
        ruleset=GIN,
        upcard="4H",
    )
    assert not verdict.legal and verdict.message is not None
    assert verdict.message.code == "knock.over_limit"
    assert verdict.reason == "knocker's deadwood 38 is over the knock limit of 10 in gin rummy"


def test_the_knock_limit_of_a_joker_upcard_is_refused() -> None:
    with pytest.raises(IllegalPlayError) as raised:
        knock_limit(OKLAHOMA, parse_cards("*")[0])
    assert raised.value.message.code == "knock.upcard_joker"
    assert str(raised.value) == "the upcard * is a joker; Oklahoma gin is played without jokers"


def test_a_layoff_above_a_king_high_run_is_its_own_suits_ace_only() -> None:
    # Q-K-A is a run where aces are high or low: the hearts' run J Q K takes AH, never the
    # ace of the next suit (AD), which the defender holds instead.
    rules = GIN.with_options({"ace": "low_or_high"})
    verdict = referee_knock(
        knocker="JH QH KH 2S 2C 2D 5C 6C 7C 3S", defender="AD 9S 9D 4H 8S TS 6D 3D 8D TC", ruleset=rules
    )
    assert verdict.legal and verdict.defender.layoffs == ()
    assert Card.parse("AD") in verdict.defender.deadwood
    with_heart = referee_knock(
        knocker="JH QH KH 2S 2C 2D 5C 6C 7C 3S", defender="AH 9S 9D 4H 8S TS 6D 3D 8D TC", ruleset=rules
    )
    assert [(lay.meld, lay.cards) for lay in with_heart.defender.layoffs] == [
        (meld_index(with_heart, "JH QH KH"), (Card.parse("AH"),))
    ]


def test_a_card_that_fits_two_melds_is_always_laid_off_on_the_same_one() -> None:
    # 7C fits the set 7S 7H 7D and the run 4C 5C 6C: the verdict names one, the same every
    # time (the later meld of the layout).
    verdict = referee_knock(
        knocker="7S 7H 7D 4C 5C 6C 2S 3S 4S AH", defender="7C KS QD JD 9H 9D 2D 3D 8H TC", ruleset=GIN
    )
    assert [(lay.meld, lay.cards) for lay in verdict.defender.layoffs] == [
        (meld_index(verdict, "4C 5C 6C"), (Card.parse("7C"),))
    ]


def test_a_set_at_its_largest_takes_no_layoff() -> None:
    knocker, defender = "7S 7H 7D 2S 3S 4S 8H 9H TH AC", "7C KS QD JD 9C 9D 2D 3D 8S TC"
    laid = referee_knock(knocker=knocker, defender=defender, ruleset=GIN)
    assert [lay.cards for lay in laid.defender.layoffs] == [(Card.parse("7C"),)]
    threes = referee_knock(knocker=knocker, defender=defender, ruleset=GIN.with_options({"set_max": 3}))
    assert threes.legal and threes.defender.layoffs == ()
    assert Card.parse("7C") in threes.defender.deadwood


def test_a_set_of_kings_is_a_meld_of_the_knockers() -> None:
    # KS KH KD | 7H 8H 9H | 4C 4D 4S, deadwood 5C: legal only with the kings melded (else 35).
    # The defender holds no meld and nothing to lay off: 10+10+9+9+2+3+6+5+2+3 = 59 - 5 = 54.
    verdict = referee_knock(
        knocker="KS KH KD 7H 8H 9H 4C 4D 4S 5C", defender="QC JD 9C 9D 2D 3D 6C 5H 2H 3S", ruleset=GIN
    )
    assert (verdict.legal, verdict.outcome, verdict.points) == (True, "knock", 54)
    assert cards("KS KH KD") in [set(meld) for meld in verdict.knocker.melds]
    assert verdict.knocker.deadwood == (Card.parse("5C"),)


def test_four_of_a_kind_is_no_set_where_a_set_holds_at_most_three() -> None:
    # 7S 7H 7D 7C | 2S 3S 4S | 9H TH JH: gin with sets of four; with sets of three at most,
    # one seven is deadwood (no run takes it) and the knock scores 74 - 7 = 67.
    knocker, defender = "7S 7H 7D 7C 2S 3S 4S 9H TH JH", "KC QD KD JC 9C 9D 2D 3D 6C 5H"
    assert referee_knock(knocker=knocker, defender=defender, ruleset=GIN).outcome == "gin"
    threes = referee_knock(knocker=knocker, defender=defender, ruleset=GIN.with_options({"set_max": 3}))
    assert (threes.legal, threes.outcome, threes.points) == (True, "knock", 67)
    assert threes.knocker.deadwood_points == 7 and len(threes.knocker.deadwood) == 1
    assert all(len(meld) == 3 for meld in threes.knocker.melds)


@pytest.mark.parametrize("missing", ["S", "H", "D", "C"])
def test_a_set_of_three_takes_its_missing_fourth_card_whichever_suit_it_is(missing: str) -> None:
    # Three sevens, KS KH KD, AC 2C 3C, deadwood 4D; the defender holds the fourth seven and
    # no meld: 5+9+10+10+6+8+10+2+9 = 69 after laying it off, 69 - 4 = 65.
    sevens = " ".join(f"7{suit}" for suit in "SHDC" if suit != missing)
    verdict = referee_knock(
        knocker=f"{sevens} KS KH KD AC 2C 3C 4D",
        defender=f"7{missing} 5S 9H JD TC 6H 8D QC 2H 9S",
        ruleset=GIN,
    )
    assert [(lay.meld, lay.cards) for lay in verdict.defender.layoffs] == [
        (meld_index(verdict, sevens), (Card.parse(f"7{missing}"),))
    ]
    assert (verdict.outcome, verdict.points) == ("knock", 65)


def test_an_ace_is_no_layoff_above_a_king_where_aces_are_low() -> None:
    # In plain gin an ace is low only: J Q K A is no run, so the defender keeps AH.
    verdict = referee_knock(
        knocker="JH QH KH 2S 2C 2D 5C 6C 7C 3S", defender="AH 9S 9D 4H 8S TS 6D 3D 8D TC", ruleset=GIN
    )
    assert verdict.legal and verdict.defender.layoffs == ()
    assert Card.parse("AH") in verdict.defender.deadwood
