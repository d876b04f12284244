"""Rulesets: every variant of RULES.md is a file; house rules override fields by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.cards import Card, parse_cards
from scorer.errors import RulesetError
from scorer.ruleset import Ruleset, all_rulesets, bundled_ids, load_ruleset, rulesets_dir

REQUIRED_IDS = {
    "basic-rummy",
    "rommi",
    "rommi-stop",
    "boathouse",
    "sakausrommi",
    "block-rummy",
    "kalooki",
    "gin",
    "oklahoma-gin",
    "straight-gin",
    "hollywood-gin",
    "carousel",
}


def test_every_variant_has_a_ruleset() -> None:
    assert set(bundled_ids()) >= REQUIRED_IDS
    assert {r.id for r in all_rulesets()} == set(bundled_ids())


@pytest.mark.parametrize("path", sorted(Path(rulesets_dir()).glob("*.toml")), ids=lambda p: p.stem)
def test_each_ruleset_file_cites_its_source_and_matches_its_name(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#")
    assert "Source:" in text.split("\n\n")[0] or "Source:" in text[:400]
    assert load_ruleset(path.stem).id == path.stem


def test_basic_rummy_deal_sizes_and_values() -> None:
    rules = load_ruleset("basic-rummy")
    assert rules.cards_dealt == {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
    assert rules.ace == "low"
    assert rules.melds_per_turn == 1
    assert (
        rules.points(Card.parse("KS")),
        rules.points(Card.parse("AS")),
        rules.points(Card.parse("7D")),
    ) == (
        10,
        1,
        7,
    )
    assert rules.going_rummy == "double" and rules.going_rummy_bonus == 10
    assert rules.target == 100


def test_rommi_penalty_values_ace_11_joker_15() -> None:
    rules = load_ruleset("rommi")
    assert rules.points(Card.parse("AH")) == 11
    assert rules.points(Card.parse("*")) == 15
    assert rules.points(Card.parse("QH")) == 10
    assert rules.ace == "low_or_high"
    assert rules.decks_for(7) == 2 and rules.decks_for(3) == 1
    assert rules.target == 500 and rules.winner == "lowest"


def test_rommi_variants_start_from_rommi() -> None:
    assert load_ruleset("rommi-stop").stop
    boathouse = load_ruleset("boathouse")
    assert boathouse.ace == "around_the_corner"
    assert boathouse.discard_draws_stock and boathouse.meld_whole_hand_first
    assert not boathouse.layoff_on_others
    assert load_ruleset("sakausrommi").must_discard_to_go_out
    assert load_ruleset("block-rummy").block and load_ruleset("block-rummy").discard_reuse == "none"


def test_kalooki_numbers() -> None:
    rules = load_ruleset("kalooki")
    assert rules.max_decks == 2 and rules.max_jokers == 4
    assert rules.cards_dealt == {2: 15, 3: 15, 4: 15, 5: 13, 6: 11}
    assert rules.opening_minimum == 51
    assert rules.opening_points(Card.parse("AS")) == 15
    assert rules.points(Card.parse("AS")) == 15 and rules.points(Card.parse("*")) == 25
    assert rules.kalooki_bonus == 25 and rules.target == 250
    assert not rules.joker_may_duplicate_in_meld


def test_gin_numbers_and_variants() -> None:
    gin = load_ruleset("gin")
    assert (gin.knock_limit, gin.gin_bonus, gin.big_gin_bonus, gin.undercut_bonus) == (10, 25, 31, 25)
    assert (gin.target, gin.game_bonus, gin.box_bonus, gin.shutout) == (100, 100, 25, True)
    assert load_ruleset("oklahoma-gin").knock_limit_source == "upcard"
    assert load_ruleset("straight-gin").knock_limit == 0
    assert load_ruleset("hollywood-gin").games == 3


def test_carousel_numbers() -> None:
    rules = load_ruleset("carousel")
    assert rules.decks_for(2) == 1 and rules.decks_for(3) == 2
    assert rules.jokers_per_deck == 1
    assert rules.knock_limit == 5 and rules.points(Card.parse("*")) == 25
    assert (rules.not_knocker_bonus, rules.going_out_bonus, rules.target, rules.game_bonus) == (
        10,
        25,
        150,
        100,
    )


def test_options_override_fields_by_name_from_text() -> None:
    rules = load_ruleset("gin", options={"undercut_bonus": "10", "shutout": "false", "target": "none"})
    assert rules.undercut_bonus == 10 and rules.shutout is False and rules.target is None
    assert load_ruleset("gin").undercut_bonus == 25


def test_unknown_option_is_named() -> None:
    with pytest.raises(RulesetError, match="unknown option 'undercut_bonsu' for ruleset 'gin'"):
        load_ruleset("gin", options={"undercut_bonsu": "10"})


def test_bad_option_value_is_named() -> None:
    with pytest.raises(RulesetError, match=r"undercut_bonus: 'ten' is not a whole number$"):
        load_ruleset("gin", options={"undercut_bonus": "ten"})
    with pytest.raises(
        RulesetError, match="ace: 'high' is not one of 'low', 'low_or_high' or 'around_the_corner'"
    ):
        load_ruleset("gin", options={"ace": "high"})
    with pytest.raises(RulesetError, match="set_min 5 > set_max 4"):
        load_ruleset("gin", options={"set_min": "5"})


def test_identity_cannot_be_an_option() -> None:
    with pytest.raises(RulesetError, match="option 'id' cannot be changed"):
        load_ruleset("gin", options={"id": "other"})


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(RulesetError, match="unknown ruleset 'gim'; known: basic-rummy, "):
        load_ruleset("gim")


def test_user_ruleset_file_with_base_and_options(tmp_path: Path) -> None:
    path = tmp_path / "our-gin.toml"
    path.write_text(
        'base = "gin"\nid = "our-gin"\nname = "our gin"\ndescription = "Gin at our table."\n'
        "[options]\nundercut_bonus = 20\nbox_bonus = 20\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(path))
    assert (rules.id, rules.undercut_bonus, rules.box_bonus, rules.gin_bonus) == ("our-gin", 20, 20, 25)
    assert load_ruleset(path, options={"gin_bonus": "20"}).gin_bonus == 20


def test_typo_in_a_ruleset_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('base = "gin"\nid = "typo"\nundercut_bonsu = 20\n', encoding="utf-8")
    with pytest.raises(
        RulesetError,
        match=r"invalid ruleset file .*; unknown field 'undercut_bonsu' \(did you mean 'undercut_bonus'\?\)",
    ):
        load_ruleset(str(path))


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset file 'nowhere\.toml' does not exist"):
        load_ruleset("nowhere.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("id = ", encoding="utf-8")
    with pytest.raises(RulesetError, match="is not valid TOML"):
        load_ruleset(str(bad))


def test_rulesets_are_frozen() -> None:
    rules = load_ruleset("gin")
    with pytest.raises(ValueError):
        rules.knock_limit = 5  # type: ignore[misc]
    assert isinstance(rules, Ruleset)


def test_hand_points_add_the_cards_values() -> None:
    # rommi: A 11 + K 10 + joker 15 + 7 = 43.
    assert load_ruleset("rommi").hand_points(parse_cards("AH KS * 7D")) == 43
