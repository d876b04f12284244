"""The New game view-model: variant, house rules with their defaults, players, first dealer."""

from __future__ import annotations

import pytest

from scorer.house_rules import house_rules_of
from scorer.league.store import Store
from scorer.ruleset import bundled_ids, load_ruleset
from scorer.ui.engine_text import engine_text
from scorer.ui.screens.new_game_model import NewGameModel, known_players, variant_choices


def test_every_bundled_variant_is_offered() -> None:
    ids = [v.id for v in variant_choices()]
    assert {"gin", "rommi", "kalooki", "hollywood-gin", "carousel"} <= set(ids)


def test_house_rules_show_the_default_and_the_value_in_use() -> None:
    model = NewGameModel(ruleset_id="gin")
    assert [r.name for r in model.house_rules()] == list(house_rules_of("gin"))
    target = model.rule("target")
    assert (target.default, target.in_use, target.text, target.changed) == (100, 100, "100", False)
    model.set_rule("target", "150")
    assert (model.rule("target").in_use, model.rule("target").changed) == (150, True)
    model.set_rule("undercut_on_tie", "false")
    assert model.options == {"target": 150, "undercut_on_tie": False}
    assert model.rule("undercut_on_tie").choices == (True, False)


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_each_variant_offers_the_house_rules_its_rulebook_table_lists(ruleset_id: str) -> None:
    """tests/test_rulebook.py holds house_rules_of to docs/rules.md's tables."""
    assert [r.name for r in NewGameModel(ruleset_id=ruleset_id).house_rules()] == list(
        house_rules_of(ruleset_id)
    )


def test_rommi_offers_neither_kalooki_bonus_nor_stop_which_are_other_variants() -> None:
    rommi = [r.name for r in NewGameModel(ruleset_id="rommi").house_rules()]
    assert "kalooki_bonus" not in rommi and "stop" not in rommi
    assert {"jokers_per_deck", "joker_points", "discard_reuse", "deals"} <= set(rommi)
    assert next(r.name for r in NewGameModel(ruleset_id="rommi-stop").house_rules()) == "stop"
    assert "kalooki_bonus" in [r.name for r in NewGameModel(ruleset_id="kalooki").house_rules()]
    model = NewGameModel(ruleset_id="rommi")
    model.set_rule("kalooki_bonus", "25")  # not offered here: ignored
    assert model.options == {}


def test_house_rules_in_finnish_words() -> None:
    model = NewGameModel(ruleset_id="gin")
    tie = model.rule("undercut_on_tie")
    assert (tie.label("fi"), tie.status("fi")) == ("Tasapeli on alitus", "oletus: kyllä")
    assert tie.meaning("fi") == "Yhtä suuret irtokortit ovat alitus."
    assert tie.choice_texts("fi") == (("true", "kyllä"), ("false", "ei"))
    model.set_rule("target", "150")
    assert model.rule("target").status("fi") == "käytössä: 150 (oletus: 100)"
    assert model.rule("target").status("en") == "in use: 150 (default: 100)"
    rommi = NewGameModel(ruleset_id="rommi")
    assert rommi.rule("must_discard_to_go_out").status("fi") == "oletus: ei"
    assert rommi.rule("deals").status("fi") == "oletus: ei rajaa"
    assert dict(rommi.rule("discard_reuse").choice_texts("fi"))["shuffle"] == "poistopakka sekoitetaan"
    for rule in rommi.house_rules():
        assert rule.label("fi") != rule.name and rule.meaning("fi"), rule.name


def test_variants_are_named_in_the_screens_language() -> None:
    names = {c.id: (engine_text(c.name, "fi"), engine_text(c.description, "fi")) for c in variant_choices()}
    assert names["gin"][0] == "Ginirommi" and names["carousel"][0] == "Karuselli"
    assert names["rommi-stop"][1].startswith("Rommi, jossa jako päättyy myös")
    assert {c.id: c.name for c in variant_choices()}["gin"] == load_ruleset("gin").title


def test_a_named_house_rule_sets_its_fields_and_each_row_shows_it() -> None:
    model = NewGameModel(ruleset_id="basic-rummy")
    assert model.rule("high_ace").choices == (True, False)
    model.set_rule("high_ace", "true")
    assert model.options == {"high_ace": True}
    rows = {r.name: r for r in model.house_rules()}
    assert (rows["high_ace"].in_use, rows["ace"].in_use, rows["ace_points"].in_use) == (
        True,
        "low_or_high",
        15,
    )
    assert rows["ace_points"].status("fi") == "käytössä: 15 (oletus: 1)"
    # A field set apart from the named rule: the rule is then neither of its values.
    model.set_rule("ace_points", "20")
    assert model.rule("high_ace").status("en") == "in use: neither (its fields set one by one) (default: no)"
    assert model.ruleset.ace_points == 20


def test_a_change_that_changes_nothing_is_dropped() -> None:
    model = NewGameModel(ruleset_id="basic-rummy")
    model.set_rule("high_ace", "true")
    model.set_rule("ace_points", "15")  # what high ace already sets
    assert model.options == {"high_ace": True}
    model.set_rule("high_ace", "false")
    assert model.options == {}


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
    assert model.seat_errors[1] == "a player needs a name"  # said under the seat (issue 24)
    model.set_player(1, "Anna")
    assert model.start(Store.memory()) is None
    assert "Anna named twice" in model.error
    # A name that appears once beside the doubled one is not named with it.
    model.set_player(1, "Bea")
    model.add_player("Anna")
    assert model.start(Store.memory()) is None
    assert model.error == "players: Anna named twice; each player needs their own seat"


def test_known_players_fill_the_first_empty_seat() -> None:
    store = Store.memory()
    store.start_game(ruleset="gin", players=["Anna", "Bea"])
    model = NewGameModel(ruleset_id="rommi")
    for name in known_players(store):
        model.seat_known(name)
    assert model.players == ["Anna", "Bea"]
    model.seat_known("Cid")
    assert model.players == ["Anna", "Bea", "Cid"]


def test_an_empty_field_is_no_value_in_any_language() -> None:
    model = NewGameModel(ruleset_id="rommi")
    deals = model.rule("deals")
    assert (deals.in_use, deals.text, deals.status("fi")) == (None, "", "oletus: ei rajaa")
    model.set_rule("deals", "12")
    assert model.options == {"deals": 12}
    model.set_rule("deals", "")  # emptied again: back to no limit, the default
    assert model.options == {} and model.rules == {}
    model.set_rule("target", " ")
    assert model.options == {"target": None}
    assert model.rule("target").status("fi") == "käytössä: ei tavoitetta (oletus: 500)"
    model.set_rule("ace_points", "")  # a number every game needs: refused, not emptied
    assert "ace_points" in model.rule("ace_points").error


def test_an_emptied_field_stays_empty_until_typed() -> None:
    """Issue 24, item 6: emptying a number that may have no value (no target) wrote "none" into
    the field, so typing 30 after it gave "none30" and the game would not start."""
    model = NewGameModel(ruleset_id="rommi")
    for typed in ("50", "5", ""):  # 500 erased key by key
        model.set_rule("target", typed)
    emptied = model.rule("target")
    assert (emptied.text, emptied.in_use, emptied.error) == ("", None, "")
    assert model.options == {"target": None}  # empty is still no target
    for typed in ("3", "30"):
        model.set_rule("target", typed)
    assert model.rule("target").text == "30"
    assert model.options == {"target": 30}
    model.set_rule("ace_points", "")  # a number every game needs: empty too, and refused
    assert model.rule("ace_points").text == ""
    assert model.rule("ace_points").error
    model.set_player(0, "Anna")
    model.set_player(1, "Bea")
    model.set_rule("ace_points", "15")
    game_id = model.start(Store.memory())
    assert game_id is not None and model.error == ""
