"""The Rules screen's model: each variant in short and every house rule's value, from the rulesets."""

from __future__ import annotations

import pytest

from scorer.messages import catalog
from scorer.options import ruleset_options
from scorer.ruleset import IDENTITY_FIELDS, Ruleset, all_rulesets, load_ruleset
from scorer.ruleset_text import value_text
from scorer.ui.i18n import LANGUAGES
from scorer.ui.screens.referee_model import display_name
from scorer.ui.screens.rules_model import DEFAULT_RULESET, RulesModel, variant_choices

IDS = [r.id for r in all_rulesets()]


def test_the_chooser_offers_every_bundled_variant() -> None:
    assert [(c.id, c.name) for c in variant_choices()] == [(r.id, display_name(r)) for r in all_rulesets()]
    assert RulesModel().ruleset_id == DEFAULT_RULESET
    finnish = {c.id: c.name for c in variant_choices("fi")}
    assert (finnish["gin"], finnish["carousel"], finnish["basic-rummy"]) == (
        "Ginirommi",
        "Karuselli",
        "Perusrommi",
    )


def test_only_a_bundled_variant_can_be_chosen() -> None:
    model = RulesModel()
    for not_an_id in ("/etc/passwd", "../rulesets/gin.toml", "nope"):
        model.choose(not_an_id)
    assert model.ruleset_id == DEFAULT_RULESET
    model.choose("kalooki")
    assert model.ruleset.name == "Kalooki"


def test_gin_in_short() -> None:
    summary = dict(RulesModel(ruleset_id="gin").summary("en"))
    assert summary == {
        "Players": "2",
        "Cards dealt": "2 players: 10",
        "Decks and jokers": "decks: 1; jokers per deck: 0",
        "Aces": "low only",
        "Cards left in hand": "2-10 face value, J Q K 10, A 1, joker 0",
        "Melds": "sets of 3-4 cards, runs of 3 or more in one suit",
        "Knocking": "with 10 or less deadwood",
        "Scoring": "the knock, gin or undercut scores the difference in deadwood",
        "End of the game": "when a total reaches 100; the highest total wins",
    }


def test_kalooki_in_short_in_finnish() -> None:
    kalooki = load_ruleset("kalooki")
    summary = dict(RulesModel(ruleset_id="kalooki").summary("fi"))
    assert (
        summary["Avaus"]
        == f"ensimmäisen yhdistelmän arvo vähintään {kalooki.opening_minimum} (A 15, J Q K 10)"
    )
    assert summary["Pelaajat"] == f"{kalooki.players_min}–{kalooki.players_max}"
    assert summary["Pelin loppu"] == f"kun jonkun summa on {kalooki.target}; voittaja: pienin summa"
    assert "Koputus" not in summary


def test_oklahoma_knock_limit_comes_from_the_upcard() -> None:
    assert dict(RulesModel(ruleset_id="oklahoma-gin").summary("en"))["Knocking"] == (
        "the first upcard's value sets the limit"
    )


def test_hollywood_scores_three_games_at_once() -> None:
    end = dict(RulesModel(ruleset_id="hollywood-gin").summary("en"))["End of the game"]
    assert end.endswith("; 3 games are scored at once")


def test_two_deck_variants_say_when_they_use_two() -> None:
    decks = dict(RulesModel(ruleset_id="rommi").summary("en"))["Decks and jokers"]
    assert decks == "decks: 1; jokers per deck: 2; 7 players: 2 decks"


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_house_rule_is_shown_with_its_value(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    rows = RulesModel(ruleset_id=ruleset_id).house_rules("en")
    fields = [row.key for row in rows if row.key in Ruleset.model_fields]
    assert fields == [n for n in Ruleset.model_fields if n not in IDENTITY_FIELDS]
    for row in rows:
        if row.key in Ruleset.model_fields:
            assert row.value == value_text(row.key, getattr(ruleset, row.key), "en")


@pytest.mark.parametrize("ruleset_id", IDS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_every_variant_comes_from_the_catalog(ruleset_id: str, language: str) -> None:
    model = RulesModel(ruleset_id=ruleset_id)
    lang = "fi" if language == "fi" else "en"
    for heading, text in model.summary(lang):
        assert heading and text
    texts = catalog(lang)
    for option in ruleset_options(model.ruleset):
        assert f"option.{option.name}" in texts and f"option_about.{option.name}" in texts
        if isinstance(option.value, str):
            assert f"option_value.{option.name}.{option.value}" in texts, option


def test_a_house_rule_changed_from_the_default_is_marked() -> None:
    rows = {row.key: row for row in RulesModel(ruleset_id="gin").house_rules("en")}
    assert rows["undercut_bonus"].changed  # gin's 25, not the field's 0
    assert not rows["set_min"].changed


def test_values_in_words() -> None:
    assert (value_text("stop", True, "en"), value_text("stop", False, "fi")) == ("yes", "ei")
    assert value_text("cards_dealt_two_decks", None, "en") == "not used"
    assert value_text("deals", None, "fi") == "ei rajaa"
    assert value_text("cards_dealt", {3: 2, 2: 1}, "en") == "2: 1, 3: 2"
    assert value_text("ace", "around_the_corner", "fi") == "pieniä tai suuria, myös kulman yli"
    assert value_text("undercut_bonus", 25, "fi") == "25"


def test_house_rules_in_finnish_have_finnish_labels_meanings_and_values() -> None:
    rows = {row.key: row for row in RulesModel(ruleset_id="rommi").house_rules("fi")}
    assert (rows["stop"].label, rows["stop"].value) == (
        "Pysäytys: jako voi päättyä niin, että kaikki saavat käden pisteet",
        "ei",
    )
    assert rows["stop"].meaning.startswith("Jako päättyy myös, kun nostopakka on loppu")
    assert rows["several_melds_per_turn"].value == "kyllä"  # a named rule, first in the list
    assert rows["target"].label == "Peli päättyy pisteisiin" and rows["target"].value == "500"
    for row in rows.values():
        assert row.label != row.key and row.meaning and "false" not in row.value, row
