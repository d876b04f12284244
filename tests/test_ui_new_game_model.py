"""The New game view-model: variant, house rules with their defaults, players, first dealer."""

from __future__ import annotations

from scorer.league.store import Store
from scorer.ruleset import Ruleset
from scorer.ui.screens.new_game_model import (
    ALL_HOUSE_RULES,
    HOUSE_RULES,
    NewGameModel,
    known_players,
    variant_choices,
)


def test_every_bundled_variant_is_offered() -> None:
    ids = [v.id for v in variant_choices()]
    assert {"gin", "rommi", "kalooki", "hollywood-gin", "carousel"} <= set(ids)


def test_house_rules_show_the_default_and_the_value_in_use() -> None:
    model = NewGameModel(ruleset_id="gin")
    assert [r.name for r in model.house_rules()] == list(HOUSE_RULES["knock"])
    target = model.rule("target")
    assert (target.default, target.in_use, target.changed) == ("100", "100", False)
    model.set_rule("target", "150")
    assert (model.rule("target").in_use, model.rule("target").changed) == ("150", True)
    model.set_rule("undercut_on_tie", "false")
    assert model.options == {"target": 150, "undercut_on_tie": False}
    assert model.rule("undercut_on_tie").choices == ("true", "false")


def test_setting_a_rule_back_to_its_default_drops_the_change() -> None:
    model = NewGameModel(ruleset_id="gin")
    model.set_rule("target", "150")
    model.set_rule("target", "100")
    assert model.options == {}


def test_a_bad_house_rule_value_is_named_and_stops_the_start() -> None:
    model = NewGameModel(ruleset_id="gin")
    model.set_player(0, "Anna")
    model.set_player(1, "Bea")
    model.set_rule("knock_limit", "lots")
    assert "knock_limit" in model.rule("knock_limit").error
    assert model.start(Store.memory()) is None
    assert "knock_limit" in model.error


def test_changing_variant_fits_the_seats_to_its_player_count() -> None:
    model = NewGameModel(ruleset_id="rommi")
    for _ in range(5):
        model.add_player()
    assert len(model.players) == 7
    model.choose_ruleset("gin")
    assert len(model.players) == 2
    assert not model.can_add_player()
    assert not model.can_remove_player()


def test_seating_order_first_dealer_and_start() -> None:
    store = Store.memory()
    league = store.create_league("Friday club")
    model = NewGameModel(ruleset_id="rommi")
    model.set_player(0, "Anna")
    model.set_player(1, "Bea")
    model.add_player("Cid")
    model.move_player(2, -1)
    assert model.players == ["Anna", "Cid", "Bea"]
    model.set_first_dealer(2)
    model.set_league("Friday club")
    game_id = model.start(store)
    assert game_id is not None
    saved = store.game(game_id)
    assert saved.game.players == ("Anna", "Cid", "Bea")
    assert saved.result.next_dealer == "Bea"
    assert saved.league_id == league.id
    assert saved.season_id == league.seasons[0].id


def test_an_unknown_league_is_named() -> None:
    model = NewGameModel(ruleset_id="gin")
    model.set_player(0, "Anna")
    model.set_player(1, "Bea")
    model.set_league("Nowhere")
    assert model.start(Store.memory()) is None
    assert "Nowhere" in model.error


def test_a_missing_or_repeated_name_is_refused_in_the_players_words() -> None:
    model = NewGameModel(ruleset_id="rommi")
    model.set_player(0, "Anna")
    assert model.start(Store.memory()) is None
    assert "a player needs a name" in model.error
    model.set_player(1, "Anna")
    assert model.start(Store.memory()) is None
    assert "Anna named twice" in model.error


def test_known_players_fill_the_first_empty_seat() -> None:
    store = Store.memory()
    store.start_game(ruleset="gin", players=["Anna", "Bea"])
    model = NewGameModel(ruleset_id="rommi")
    for name in known_players(store):
        model.seat_known(name)
    assert model.players == ["Anna", "Bea"]
    model.seat_known("Cid")
    assert model.players == ["Anna", "Bea", "Cid"]


def test_every_house_rule_is_a_ruleset_field() -> None:
    assert set(ALL_HOUSE_RULES) <= set(Ruleset.model_fields)
