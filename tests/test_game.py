"""Whole games: running totals, the end of the game, final bonuses, Hollywood, corrections."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.deal import Deal, InvalidDealError
from scorer.game import Game, InvalidGameError, cards_to_deal, score_game, within_deal
from scorer.messages import Message
from scorer.ruleset import load_ruleset

AB = ("Anna", "Bea")
ABC = ("Anna", "Bea", "Cid")


def gin_game(*deals: Deal, **options: str) -> Game:
    return Game(ruleset=load_ruleset("gin", options=options), players=AB, deals=deals)


def knock(knocker: str, mine: int, theirs: int) -> Deal:
    other = "Bea" if knocker == "Anna" else "Anna"
    return Deal.build(knocker=knocker, deadwood={knocker: mine, other: theirs})


def test_gin_game_bonus_and_box_bonuses() -> None:
    # Anna: gin 25 + 30 = 55, then gin 25 + 40 = 65: 120 >= 100. Bea: knock 20 - 5 = 15.
    # Final: Anna 120 + game 100 + 2 boxes 50 = 270; Bea 15 + 1 box 25 = 40.
    result = gin_game(knock("Anna", 0, 30), knock("Bea", 5, 20), knock("Anna", 0, 40)).result
    assert result.finished and result.winner == "Anna"
    assert result.bonuses == {"Anna": {"game": 100, "boxes": 50}, "Bea": {"boxes": 25}}
    assert result.totals == {"Anna": 270, "Bea": 40}


def test_gin_shutout_doubles_hand_points_then_adds_bonuses() -> None:
    # Anna wins 55 and 65 = 120, Bea wins nothing: 120 doubled = 240, + game 100 + boxes 50 = 390.
    result = gin_game(knock("Anna", 0, 30), knock("Anna", 0, 40)).result
    assert result.bonuses == {"Anna": {"shutout": 120, "game": 100, "boxes": 50}}
    assert result.totals == {"Anna": 390, "Bea": 0}


def test_shutout_option_off() -> None:
    result = gin_game(knock("Anna", 0, 30), knock("Anna", 0, 40), shutout="false").result
    assert result.totals == {"Anna": 270, "Bea": 0}


def test_dead_hand_is_won_by_nobody_and_earns_no_box() -> None:
    result = gin_game(Deal.build(dead=True), knock("Anna", 0, 30)).result
    assert result.totals == {"Anna": 55, "Bea": 0} and not result.finished
    assert result.deals[0].score.winners == ()


def test_no_deal_after_the_game_is_over() -> None:
    game = gin_game(knock("Anna", 0, 80))
    assert game.result.finished
    with pytest.raises(InvalidGameError, match="deal 2: the game is already over after deal 1"):
        game.add(knock("Bea", 0, 10))


def test_hollywood_first_win_in_game_1_second_in_1_and_2_third_in_all() -> None:
    rules = load_ruleset("hollywood-gin")
    deals = [knock("Anna", 2, 12), knock("Anna", 2, 12), knock("Anna", 2, 12), knock("Bea", 1, 11)]
    result = score_game(ruleset=rules, players=AB, deals=deals)
    # Anna's 10s: game 1 gets all three (30), game 2 the last two (20), game 3 the last (10).
    # Bea's first win (10) goes to game 1 only.
    assert [c.totals for c in result.columns] == [
        {"Anna": 30, "Bea": 10},
        {"Anna": 20, "Bea": 0},
        {"Anna": 10, "Bea": 0},
    ]
    assert [record.credited for record in result.deals] == [(0,), (0, 1), (0, 1, 2), (0,)]
    assert result.totals == {"Anna": 60, "Bea": 10} and not result.finished


def test_hollywood_column_1_closes_first_with_its_own_bonuses() -> None:
    rules = load_ruleset("hollywood-gin", options={"target": "50"})
    # Deal 1: Anna gin 55 closes game 1 (shutout: 55 more, game 100, one box 25 = 235).
    # Deal 2: Bea's first win: game 1 is closed, so it is her first score in game 2: 20.
    # Deal 3: Anna has no score in an open game: her win is her first in game 2: 38.
    deals = [knock("Anna", 0, 30), knock("Bea", 5, 25), knock("Anna", 2, 40)]
    result = score_game(ruleset=rules, players=AB, deals=deals)
    first, second, third = result.columns
    assert first.finished and first.closed_after == 1 and first.winner == "Anna"
    assert first.totals == {"Anna": 235, "Bea": 0}
    assert first.bonuses == {"Anna": {"shutout": 55, "game": 100, "boxes": 25}}
    assert [record.credited for record in result.deals] == [(0,), (1,), (1,)]
    assert second.totals == {"Anna": 38, "Bea": 20} and not second.finished
    assert third.totals == {"Anna": 0, "Bea": 0}
    assert not result.finished


def test_hollywood_a_win_is_never_lost_after_a_shut_out_game_closes() -> None:
    rules = load_ruleset("hollywood-gin", options={"target": "50"})
    # Game 1 closes on Anna's gin with Bea shut out. Every later win of Bea's counts
    # somewhere: her first in game 2, her second in games 2 and 3.
    deals = [knock("Anna", 0, 30), knock("Bea", 5, 15), knock("Bea", 4, 14)]
    result = score_game(ruleset=rules, players=AB, deals=deals)
    assert [record.credited for record in result.deals] == [(0,), (1,), (1, 2)]
    assert [c.totals["Bea"] for c in result.columns] == [0, 20, 10]
    assert sum(record.score.scores["Bea"] for record in result.deals) == 20
    assert result.totals["Bea"] == 30


def test_hollywood_a_win_counts_in_every_open_game_with_a_score_plus_the_first_without() -> None:
    rules = load_ruleset("hollywood-gin", options={"target": "60"})
    # Anna's three wins of 10 fill games 1, 1-2 and 1-3; Bea's gin (25 + 40 = 65)
    # closes game 1. Anna's next win counts in games 2 and 3, where she has scores;
    # Bea's next one in game 2 (her first open game without a score) and nowhere else.
    deals = [
        knock("Anna", 2, 12),
        knock("Anna", 2, 12),
        knock("Anna", 2, 12),
        knock("Bea", 0, 40),
        knock("Anna", 2, 12),
        knock("Bea", 2, 12),
    ]
    result = score_game(ruleset=rules, players=AB, deals=deals)
    credited = [record.credited for record in result.deals]
    assert credited == [(0,), (0, 1), (0, 1, 2), (0,), (1, 2), (1,)]
    assert result.columns[0].finished and result.columns[0].closed_after == 4
    assert [c.totals for c in result.columns[1:]] == [{"Anna": 30, "Bea": 10}, {"Anna": 20, "Bea": 0}]


def test_penalty_game_ends_at_the_limit_and_lowest_wins() -> None:
    rules = load_ruleset("rommi", options={"target": "40"})
    game = Game(ruleset=rules, players=AB)
    game = game.add(Deal.build(out="Anna", hands={"Bea": "KS QS JS"}))
    game = game.add(Deal.build(out="Anna", hands={"Bea": "TS"}))
    result = game.result
    assert result.totals == {"Anna": 0, "Bea": 40}
    assert result.finished and result.winner == "Anna"


def test_carousel_game_each_player_over_150_gets_100_and_25_per_deal_won() -> None:
    rules = load_ruleset("carousel")
    deals = [
        Deal.build(knocker="Anna", points={"Anna": 0, "Bea": 90, "Cid": 0}),
        Deal.build(knocker="Bea", points={"Anna": 30, "Bea": 0, "Cid": 130}),
    ]
    result = score_game(ruleset=rules, players=ABC, deals=deals)
    # Deal 1: Anna and Cid tie at 0 (Anna knocked): Cid wins, 90 + 10 = 100.
    # Deal 2: Bea 30 + 130 = 160. Bea >= 150: +100. Boxes: Cid 25, Bea 25.
    assert result.finished
    assert result.bonuses == {"Bea": {"game": 100, "boxes": 25}, "Cid": {"boxes": 25}}
    assert result.totals == {"Anna": 0, "Bea": 285, "Cid": 125}
    assert result.winner == "Bea"


def test_game_to_an_agreed_number_of_deals() -> None:
    rules = load_ruleset("rommi", options={"deals": "2", "target": "none"})
    deals = [Deal.build(out="Anna", hands={"Bea": "5H"}), Deal.build(out="Bea", hands={"Anna": "9H"})]
    result = score_game(ruleset=rules, players=AB, deals=deals)
    assert result.finished and result.winner == "Bea"


def test_tie_for_the_win_names_nobody() -> None:
    rules = load_ruleset("rommi", options={"deals": "1", "target": "none"})
    result = score_game(
        ruleset=rules, players=ABC, deals=[Deal.build(out="Anna", points={"Bea": 5, "Cid": 0})]
    )
    assert result.finished and result.winner is None


def test_dealer_rotates_and_cards_to_deal_follow_the_player_count() -> None:
    rules = load_ruleset("rommi")
    deals = [Deal.build(out="Anna", hands={"Bea": "5H", "Cid": "6H"})] * 3
    result = score_game(ruleset=rules, players=ABC, deals=deals, first_dealer=1)
    assert [r.dealer for r in result.deals] == ["Bea", "Cid", "Anna"]
    assert result.next_dealer == "Bea"
    assert result.cards_to_deal == 7
    assert cards_to_deal(load_ruleset("rommi"), 7) == 10
    assert cards_to_deal(load_ruleset("kalooki"), 5) == 13


def test_invalid_deal_names_its_number_and_nothing_is_recorded() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=AB)
    game = game.add(Deal.build(out="Anna", hands={"Bea": "5H"}))
    with pytest.raises(InvalidDealError, match="deal 2: out: unknown player 'Dan'"):
        game.add(Deal.build(out="Dan", hands={"Bea": "5H"}))
    assert len(game.deals) == 1


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Anna",), "players: 1 player, but rommi is for 2-7 players"),
        (("Anna", "Anna"), "players: Anna named twice"),
        (("Anna", " "), "players: a player needs a name"),
    ],
)
def test_bad_players(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(InvalidGameError, match=message):
        Game(ruleset=load_ruleset("rommi"), players=players)


def test_correcting_an_earlier_deal_recomputes_everything_after() -> None:
    game = gin_game(knock("Anna", 0, 30), knock("Bea", 5, 20))
    corrected = game.replace_deal(0, knock("Anna", 4, 30))
    assert corrected.result.totals == {"Anna": 26, "Bea": 15}
    assert corrected.remove_deal(0).result.totals == {"Anna": 0, "Bea": 15}
    with pytest.raises(InvalidGameError, match="deal 5: there is no such deal"):
        game.remove_deal(4)


def test_correction_that_would_end_the_game_early_is_refused() -> None:
    game = gin_game(knock("Anna", 0, 30), knock("Bea", 5, 20))
    with pytest.raises(InvalidGameError, match="deal 2: the game is already over after deal 1"):
        game.replace_deal(0, knock("Anna", 0, 90))
    assert game.result.totals == {"Anna": 55, "Bea": 15}


# -- properties ---------------------------------------------------------------------------

PLAYERS = ("Anna", "Bea", "Cid")
HAND_CARDS = ["AS", "KH", "5D", "9C", "TS", "2H", "QD", "7C", "*", "JH", "3S", "8D"]


@st.composite
def rommi_deals(draw: st.DrawFn) -> Deal:
    out = draw(st.sampled_from(PLAYERS))
    pool = list(HAND_CARDS)
    hands = {}
    for player in PLAYERS:
        if player == out:
            continue
        chosen = draw(st.lists(st.sampled_from(pool), max_size=3, unique=True))
        for card in chosen:
            pool.remove(card)
        hands[player] = " ".join(chosen)
    return Deal.build(out=out, hands=hands)


UNLIMITED = load_ruleset("rommi", options={"target": "none"})


@settings(max_examples=80, deadline=None)
@given(st.lists(rommi_deals(), max_size=6))
def test_replay_is_deterministic_and_penalty_totals_are_card_values(deals: list[Deal]) -> None:
    first = score_game(ruleset=UNLIMITED, players=PLAYERS, deals=deals)
    assert score_game(ruleset=UNLIMITED, players=PLAYERS, deals=deals) == first
    expected = dict.fromkeys(PLAYERS, 0)
    for deal in deals:
        for player, cards in deal.hands.items():
            expected[player] += sum(UNLIMITED.points(c) for c in cards)
    assert first.totals == expected


@settings(max_examples=80, deadline=None)
@given(st.lists(rommi_deals(), min_size=1, max_size=6), rommi_deals(), st.data())
def test_editing_a_deal_and_editing_it_back_restores_every_total(
    deals: list[Deal], other: Deal, data: st.DataObject
) -> None:
    game = Game(ruleset=UNLIMITED, players=PLAYERS, deals=tuple(deals))
    index = data.draw(st.integers(0, len(deals) - 1))
    before = game.result
    edited = game.replace_deal(index, other)
    restored = edited.replace_deal(index, deals[index])
    assert restored.result == before


def test_within_deal_strips_the_deals_number_and_leaves_other_text_as_it_is() -> None:
    game = Game(load_ruleset("rommi"), ("Anna", "Bea"))
    with pytest.raises(InvalidDealError) as raised:
        game.add(Deal.build(points={"Bea": 3}, out="Dan"))
    assert str(raised.value) == "deal 1: out: unknown player 'Dan'; the players are Anna, Bea"
    assert within_deal(str(raised.value)) == "out: unknown player 'Dan'; the players are Anna, Bea"
    assert within_deal("the store is locked") == "the store is locked"  # a plain text, no message


def test_a_removed_deal_put_back_restores_the_game_called_or_not() -> None:
    rules = load_ruleset("rommi")
    deals = [Deal.build(points={"Bea": n}, out="Anna") for n in (3, 5, 7)]
    game = Game(rules, ("Anna", "Bea"), deals=tuple(deals))
    again = game.remove_deal(1).insert_deal(1, deals[1])
    assert again.result.totals == game.result.totals == {"Anna": 0, "Bea": 15}
    assert again.ends_after is None
    called = game.called_after(3)
    put_back = called.remove_deal(0).insert_deal(0, deals[0])
    assert put_back.ends_after == 3 and put_back.result.called
    assert put_back.result.totals == called.result.totals


def test_a_deal_nobody_won_still_counts_in_a_one_game_score_sheet() -> None:
    # Stop: every player scores the points in hand, and nobody wins the deal.
    game = Game(load_ruleset("rommi-stop"), ("Anna", "Bea"))
    game = game.add(Deal.build(points={"Anna": 5, "Bea": 12}, ended="stop"))
    assert game.result.deals[0].credited == (0,)
    assert game.result.totals == {"Anna": 5, "Bea": 12}


def test_games_compare_and_show_by_their_entries_not_their_worked_out_replay() -> None:
    deal = Deal.build(points={"Bea": 3}, out="Anna")
    worked = Game(load_ruleset("rommi"), ("Anna", "Bea")).add(deal)
    assert worked.result.totals == {"Anna": 0, "Bea": 3}
    fresh = Game(load_ruleset("rommi"), ("Anna", "Bea"), deals=(deal,))
    assert worked == fresh
    assert repr(worked) == repr(fresh) and "_replay" not in repr(worked)


def test_a_deal_past_the_last_cannot_be_corrected_or_removed() -> None:
    deal = Deal.build(points={"Bea": 3}, out="Anna")
    game = Game(load_ruleset("rommi"), ("Anna", "Bea"), deals=(deal, deal))
    acts = (lambda: game.replace_deal(2, deal), lambda: game.remove_deal(2), lambda: game.remove_deal(-1))
    for act in acts:
        with pytest.raises(InvalidGameError) as raised:
            act()
        assert raised.value.message.params["rest"] == Message("game.no_such_deal", count=2)
