"""A tap on Save deal is answered beside the button (issue 24, item 5): a refused entry says why
there as well as under the field concerned, which may be far above on a phone."""

from __future__ import annotations

from scorer.league.store import Store
from scorer.ui.engine_text import engine_text
from scorer.ui.screens.deal_model import DealModel


def test_a_refused_save_says_why_beside_the_button() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"]).id
    model = DealModel.load(store, game_id)
    for player, cards in {"Anna": "5C", "Bea": "KS", "Cid": "2D"}.items():
        model.set_cards(player, cards)
    assert model.refusal == ""  # not tried yet: the line says why there is no reading yet
    assert model.pending
    assert not model.save(store)  # who went out is not said
    assert model.refusal == model.errors["out"]
    assert engine_text(model.refusal, "fi") == "Kerro, kuka meni ulos tai miten jako päättyi."
    model.set_cards("Cid", "")  # put right: Cid went out; the reason goes, the reading comes
    model.set_out("Cid")
    assert model.refusal == "" and model.reading is not None
    assert model.save(store)


def test_a_reason_of_the_whole_deal_is_shown_once() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    model = DealModel.load(store, game_id)
    model.set_out("Anna")
    model.set_cards("Bea", "KS")
    store.abandon_game(game_id)  # meanwhile, on another phone
    assert not model.save(store)
    assert "deal" in model.errors and model.refusal == ""
