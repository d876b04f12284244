"""The Deal entry view-model: cards tapped or typed, the engine's reading, errors in place."""

from __future__ import annotations

import pytest

from scorer.cards import JOKER, Card, parse_cards
from scorer.league.store import Store
from scorer.messages import Message, render
from scorer.ui.i18n import catalog, tr
from scorer.ui.screens.deal_model import DealModel

KNOCKER = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"  # deadwood 5C
DEFENDER = "TH JH QH KC KD KS 5D 6D 7D AC"  # deadwood AC: an undercut


@pytest.fixture()
def store() -> Store:
    return Store.memory()


def _model(store: Store, ruleset: str, players: list[str], number: int | None = None) -> DealModel:
    game_id = store.start_game(ruleset=ruleset, players=players).id
    return DealModel.load(store, game_id, number)


def _tap_all(model: DealModel, player: str, cards: str) -> None:
    for card in parse_cards(cards):
        model.tap(player, card)


def test_gin_undercut_tapped_card_by_card_is_read_by_the_knock_referee(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_knocker("Anna")
    _tap_all(model, "Anna", KNOCKER)
    _tap_all(model, "Bea", DEFENDER)
    assert model.hand_value("Anna") == 5 + 4 + 4 + 4 + 7 + 8 + 9 + 2 + 3 + 1
    reading = model.reading
    assert reading is not None and reading.knock is not None
    assert reading.knock.outcome == "undercut"
    assert reading.knock.winner == "Bea"
    assert reading.knock.deadwood == "5♣"  # one notation on screen: the suit symbols
    assert reading.knock.melds == "A♠ 2♠ 3♠ | 4♠ 4♦ 4♣ | 7♥ 8♥ 9♥"
    assert [(r.player, r.score) for r in reading.rows] == [("Anna", 0), ("Bea", 29)]
    assert model.save(store)
    assert store.game(model.saved.id).result.totals == {"Anna": 0, "Bea": 29}


def test_one_deck_a_card_in_another_hand_is_disabled_for_the_others(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    king = Card.parse("KS")
    model.tap("Anna", king)
    assert model.disabled("Bea", king)
    assert not model.disabled("Anna", king)
    model.tap("Bea", king)  # refused: the only KS is Anna's
    assert model.cards.get("Bea", "") == ""
    model.tap("Anna", king)  # tapped again: back out of Anna's hand
    assert model.cards["Anna"] == ""
    assert not model.disabled("Bea", king)


def test_two_decks_a_card_may_be_in_two_hands_and_jokers_up_to_the_supply(store: Store) -> None:
    model = _model(store, "kalooki", ["Anna", "Bea", "Cid"])
    seven = Card.parse("7H")
    model.tap("Anna", seven)
    model.tap("Bea", seven)
    assert model.disabled("Cid", seven)
    for _ in range(4):
        model.tap("Cid", JOKER)
    assert model.count("Cid", JOKER) == 4
    assert model.disabled("Anna", JOKER)


def test_kalooki_jokers_typed_score_their_penalty(store: Store) -> None:
    model = _model(store, "kalooki", ["Anna", "Bea", "Cid"])
    model.set_out("Anna")
    model.set_cards("Bea", "* * 5H")
    model.set_cards("Cid", "KS AH")
    assert model.hand_value("Bea") == 55
    assert model.reading is not None
    assert {r.player: r.score for r in model.reading.rows} == {"Anna": 0, "Bea": 55, "Cid": 25}
    assert model.save(store)


def test_typed_cards_that_are_not_cards_are_named_beside_the_field(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea"])
    model.set_cards("Bea", "KS 1X")
    assert "1X" in model.errors["cards:Bea"]
    assert model.hand_value("Bea") is None
    assert model.reading is None


def test_an_incomplete_deal_is_refused_on_save_with_the_error_beside_the_player(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_knocker("Anna")
    model.set_cards("Anna", KNOCKER)
    model.set_cards("Bea", "TH JH QH KC KD KS 5D 6D 7D")  # nine cards
    assert model.errors == {}  # not yet tried: no error while the table is still entering
    assert not model.save(store)
    assert "Bea has 9 cards" in model.errors["cards:Bea"]
    assert store.game(model.saved.id).game.deals == ()


def test_an_illegal_knock_is_named_beside_who_knocked(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_knocker("Anna")
    model.set_cards("Anna", "KH QD JC 9S 8D 7C 6H 5S 4D 3C")
    model.set_cards("Bea", DEFENDER.replace("5D", "2H"))
    assert not model.save(store)
    assert "illegal" in model.errors["out"]


def test_someone_who_went_out_holding_cards_is_refused_under_their_hand(store: Store) -> None:
    # "Ann" is inside "Anna": the message's parameters, not its words, say whose hand it is.
    model = _model(store, "rommi", ["Ann", "Anna"])
    model.set_out("Anna")
    model.set_cards("Anna", "KS")
    model.set_cards("Ann", "5H")
    assert not model.save(store)
    assert model.errors == {"cards:Anna": "Anna went out but still holds KS; going out empties the hand"}


def test_points_only_entry_scores_like_cards(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea", "Cid"])
    model.set_out("Cid")
    model.set_points("Anna", "12")
    model.set_points("Bea", "40")
    assert model.document() == {"points": {"Anna": 12, "Bea": 40, "Cid": 0}, "out": "Cid"}
    assert model.save(store)
    assert store.game(model.saved.id).result.totals == {"Anna": 12, "Bea": 40, "Cid": 0}


def test_points_that_are_not_a_number_are_named(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea"])
    model.set_points("Bea", "ten")
    assert "'ten' is not a whole number" in model.errors["points:Bea"]


def test_gin_quick_entry_is_deadwood_with_big_gin(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_knocker("Bea")
    model.set_points("Anna", "20")
    model.set_points("Bea", "0")
    model.set_big_gin(True)
    assert model.document() == {"deadwood": {"Anna": 20, "Bea": 0}, "knocker": "Bea", "big_gin": True}
    assert model.reading is not None and model.reading.outcome == "big_gin"


def test_a_dead_hand_is_recorded_without_cards(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_dead(True)
    assert model.document() == {"dead": True}
    assert model.save(store)


def test_correcting_deal_n_loads_its_entries_and_recomputes_the_rest(store: Store) -> None:
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"})
    store.add_deal(game_id, {"hands": {"Anna": "5H", "Bea": ""}, "out": "Bea"})
    model = DealModel.load(store, game_id, 1)
    assert model.cards == {"Anna": "", "Bea": "K♠"} and model.out == "Anna"
    model.set_cards("Bea", "KS QS")
    assert model.save(store)
    assert store.game(game_id).result.totals == {"Anna": 5, "Bea": 20}


def test_the_variants_flags_are_offered_where_they_apply(store: Store) -> None:
    assert _model(store, "rommi-stop", ["A", "B"]).endings == ("stop",)
    assert _model(store, "block-rummy", ["A", "B"]).endings == ("block",)
    assert _model(store, "carousel", ["A", "B"]).endings == ("stock_out",)
    assert _model(store, "basic-rummy", ["A", "B"]).offers_one_turn
    assert _model(store, "kalooki", ["A", "B"]).offers_one_turn
    assert not _model(store, "rommi", ["A", "B"]).offers_one_turn
    assert _model(store, "oklahoma-gin", ["A", "B"]).offers_upcard
    assert not _model(store, "gin", ["A", "B"]).offers_upcard
    assert JOKER in _model(store, "rommi", ["A", "B"]).picker_cards
    assert JOKER not in _model(store, "gin", ["A", "B"]).picker_cards


def test_a_stop_ends_the_deal_with_everyone_scoring_their_hand(store: Store) -> None:
    model = _model(store, "rommi-stop", ["Anna", "Bea"])
    model.set_ended("stop")
    model.set_cards("Anna", "2C")
    model.set_cards("Bea", "KS")
    assert model.reading is not None
    assert {r.player: r.score for r in model.reading.rows} == {"Anna": 2, "Bea": 10}


# -- issue 16: mistakes named as they are typed, in full -------------------------------------


def test_a_card_typed_into_two_hands_is_named_at_once_under_every_hand(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea", "Cid"])
    model.set_out("Anna")
    model.set_cards("Bea", "KS 5H")
    model.set_cards("Cid", "KS")
    assert not model.tried
    both = "KS is in Bea's hand and in Cid's hand, but rommi with 3 players plays with one deck"
    assert model.errors == {"cards:Bea": both, "cards:Cid": both}
    assert model.reading is None
    model.set_cards("Anna", "5H")  # a second mistake in Bea's hand: both are named there
    assert model.errors["cards:Bea"].splitlines() == [
        "KS is in Bea's hand and in Cid's hand, but rommi with 3 players plays with one deck",
        "5H is in Anna's hand and in Bea's hand, but rommi with 3 players plays with one deck",
    ]
    assert model.errors["cards:Anna"].startswith("5H is in Anna's hand and in Bea's hand")
    model.set_cards("Anna", "")
    model.set_cards("Cid", "QS")
    assert model.errors == {} and model.reading is not None


def test_too_many_cards_is_the_deals_own_limit_named_at_once(store: Store) -> None:
    # Four-player rommi deals 7: a hand holds at most 8 (one drawn), not the variant's 11.
    model = _model(store, "rommi", ["Anna", "Bea", "Cid", "Dan"])
    model.set_cards("Bea", "AS 2S 3S 4S 5S 6S 7S 8S")
    assert "cards:Bea" not in model.errors
    model.set_cards("Bea", "AS 2S 3S 4S 5S 6S 7S 8S 9S")
    assert model.errors["cards:Bea"] == (
        "Bea holds 9 cards; in rommi with 4 players a hand holds at most 8 (7 dealt and 1 drawn in a turn)"
    )
    assert not model.tried and model.reading is None


@pytest.mark.parametrize(
    ("ruleset", "players", "most"),
    [
        ("kalooki", 5, 14),  # 13 dealt to five players, one drawn
        ("kalooki", 2, 16),
        ("sakausrommi", 6, 7),
        ("carousel", 2, 43),  # no discard pile: every card but the other's ten
        ("boathouse", 4, 54 - 3 * 7),  # a discard taken draws a stock card too: the hand grows
    ],
)
def test_each_variant_limits_a_hand_to_its_own_deal(
    store: Store, ruleset: str, players: int, most: int
) -> None:
    names = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"][:players]
    model = _model(store, ruleset, names)
    deck = [c for c in model.picker_cards for _ in range(model.decks if not c.is_joker else model.jokers)]
    model.set_cards("Bea", " ".join(str(c) for c in deck[:most]))
    assert "cards:Bea" not in model.errors
    model.set_cards("Bea", " ".join(str(c) for c in deck[: most + 1]))
    assert f"holds {most + 1} cards" in model.errors["cards:Bea"]
    assert f"at most {most} " in model.errors["cards:Bea"]


def test_the_reading_waits_saying_why_until_the_deal_is_whole(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea", "Cid"])
    model.set_out("Anna")
    model.set_cards("Bea", "KS")
    assert model.reading is None and model.errors == {}
    assert model.pending == "no entry for Cid"
    model.set_cards("Cid", "5H")
    assert model.reading is not None and model.pending == ""


def test_a_refusal_naming_several_players_shows_under_each(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea", "Cid"])
    model.set_out("Anna")
    assert not model.save(store)
    assert model.errors == {"cards:Bea": "no entry for Bea, Cid", "cards:Cid": "no entry for Bea, Cid"}


def test_saying_nobody_went_out_is_named_at_the_choice_of_how_the_deal_ended(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea"])
    model.set_cards("Anna", "KS")
    model.set_cards("Bea", "5H")
    assert not model.save(store)
    assert model.errors == {"out": "say who went out (out) or how the deal ended (ended)"}


# -- issue 16: gin shows deadwood; one notation ------------------------------------------------


def test_gin_hands_show_their_deadwood_after_the_best_melds(store: Store) -> None:
    model = _model(store, "gin", ["Anna", "Bea"])
    model.set_cards("Anna", KNOCKER)
    model.set_cards("Bea", "KS KD KC QH QS QD JH JD JC TS")  # 100 in cards, no meld but sets
    assert model.deadwood("Anna") == 5
    assert model.hand_value("Anna") == 47
    assert model.deadwood("Bea") == 10
    # A knocker's eleventh card is the best discard; all eleven melded is big gin.
    model.set_cards("Anna", KNOCKER + " KD")
    assert model.deadwood("Anna") == 5
    model.set_cards("Anna", "AS 2S 3S 4S 5H 6H 7H 8H 9C 9D 9S")
    assert model.deadwood("Anna") == 0
    model.set_cards("Anna", "7H 8X")
    assert model.deadwood("Anna") is None


def test_cards_tapped_show_suit_symbols_and_are_saved_in_the_engines_notation(store: Store) -> None:
    model = _model(store, "rommi", ["Anna", "Bea"])
    model.set_out("Anna")
    model.tap("Bea", Card.parse("TH"))
    model.tap("Bea", Card.parse("KS"))
    assert model.cards["Bea"] == "K♠ 10♥"
    model.set_cards("Bea", model.cards["Bea"] + " 2♡ 3c")  # typed: symbols, white or black, or letters
    assert model.hand_value("Bea") == 25
    assert model.document()["hands"] == {"Anna": "", "Bea": "KS TH 2H 3C"}
    assert model.save(store)
    assert store.game(model.saved.id).document["deals"][0]["hands"]["Bea"] == "KS TH 2H 3C"


# -- issue 16: Carousel says how the deal ended with one choice ------------------------------


def test_carousel_how_the_deal_ended_is_one_choice(store: Store) -> None:
    model = _model(store, "carousel", ["Anna", "Bea"])
    assert model.one_ending_choice
    assert model.ending_choices == ("knock:Anna", "knock:Bea", "out:Anna", "out:Bea", "stock_out")
    model.set_cards("Anna", "2C 3D")
    model.set_cards("Bea", "KS 9H")
    model.set_ending("knock:Anna")
    assert model.ending == "knock:Anna"
    assert model.reading is not None and model.reading.outcome == "knock"
    model.set_ending("stock_out")
    assert (model.knocker, model.out, model.ended) == ("", "", "stock_out")
    assert model.reading is not None and model.reading.outcome == "stock_out"
    model.set_cards("Anna", "")
    model.set_ending("out:Anna")
    assert model.document() == {"hands": {"Anna": "", "Bea": "KS 9H"}, "out": "Anna"}
    assert model.reading is not None
    assert {r.player: r.score for r in model.reading.rows} == {"Anna": 19 + 25, "Bea": 0}


def test_one_choice_where_a_deal_ends_more_than_one_way(store: Store) -> None:
    assert _model(store, "rommi-stop", ["A", "B"]).ending_choices == ("out:A", "out:B", "stop")
    assert _model(store, "rommi-stop", ["A", "B"]).one_ending_choice
    assert not _model(store, "rommi", ["A", "B"]).one_ending_choice
    assert not _model(store, "gin", ["A", "B"]).one_ending_choice


def test_finnish_says_meni_ulos_for_going_out_on_the_deal_screen_as_in_its_reading() -> None:
    # The control said "Meni loppuun", the reading "meni ulos" (issue 16): the rules say "ulos".
    assert tr("deal.went_out", "fi") == "Meni ulos"
    assert tr("deal.ending_out", "fi", name="Anna") == "Anna meni ulos"
    assert "meni ulos" in render(Message("event.out_collects", player="Anna", total=5), "fi")
    going_out = [k for k in catalog()["fi"] if k.startswith(("deal.", "conflict."))]
    assert not [k for k in going_out if "loppuun" in catalog()["fi"][k]]


@pytest.mark.parametrize(
    ("ruleset", "players", "deal"),
    [
        (
            "basic-rummy",
            ["Anna", "Bea"],
            {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna", "one_turn": True},
        ),
        ("rommi", ["Anna", "Bea", "Cai"], {"points": {"Anna": 0, "Bea": 15, "Cai": 40}, "out": "Anna"}),
        ("gin", ["Anna", "Bea"], {"deadwood": {"Anna": 5, "Bea": 12}, "knocker": "Anna"}),
        ("gin", ["Anna", "Bea"], {"deadwood": {"Anna": 0, "Bea": 30}, "knocker": "Anna", "big_gin": True}),
        (
            "oklahoma-gin",
            ["Anna", "Bea"],
            {"hands": {"Anna": KNOCKER, "Bea": DEFENDER}, "knocker": "Anna", "upcard": "7C"},
        ),
        ("gin", ["Anna", "Bea"], {"dead": True}),
        (
            "rommi-stop",
            ["Anna", "Bea", "Cai"],
            {"points": {"Anna": 10, "Bea": 15, "Cai": 40}, "ended": "stop"},
        ),
    ],
)
def test_a_saved_deal_opened_to_correct_gives_back_the_same_document(
    store: Store, ruleset: str, players: list[str], deal: dict[str, object]
) -> None:
    """The entry's rules (scorer/ui/screens/deal_entry.py) read a saved deal back into what the
    table entered, and that entry writes the very deal again: a correction that changes nothing
    saves nothing new."""
    from scorer.ui.screens.deal_entry import EntryRules, entered_of

    model = _model(store, ruleset, players)
    rules = EntryRules(model.game)
    assert rules.document(entered_of(deal)) == deal
    store.add_deal(model.saved.id, deal)
    reopened = DealModel.load(store, model.saved.id, 1)
    assert reopened.document() == deal
    assert not reopened.drafted
