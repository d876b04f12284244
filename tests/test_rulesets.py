"""Rulesets: every variant of docs/rules.md is a file; house rules override fields by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.cards import Card, parse_cards
from scorer.errors import RulesetError
from scorer.house_rules import NAMED_RULES, NamedRule
from scorer.options import ruleset_options
from scorer.ruleset import (
    IDENTITY_FIELDS,
    Ruleset,
    all_rulesets,
    bundled_ids,
    load_ruleset,
    rulesets_dir,
)

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
    # The project's rulebook, one section per variant.
    assert f"Rules: docs/rules.md, {load_ruleset(path.stem).title}." in text.splitlines()[0]


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
    with pytest.raises(RulesetError, match="unknown ruleset 'xyzzy'; known: basic-rummy, "):
        load_ruleset("xyzzy")


def test_a_close_miss_suggests_the_ruleset_id() -> None:
    with pytest.raises(
        RulesetError, match=r"unknown ruleset 'gni'; did you mean 'gin'\? known: basic-rummy, "
    ):
        load_ruleset("gni")
    with pytest.raises(RulesetError, match="did you mean 'kalooki'"):
        load_ruleset("kaloki")


def test_ruleset_ids_are_matched_case_insensitively() -> None:
    assert load_ruleset("Gin") is load_ruleset("gin")
    assert load_ruleset("OKLAHOMA-GIN").id == "oklahoma-gin"
    assert load_ruleset(" Kalooki ", options={"target": "300"}).target == 300


def test_display_names_are_capitalised_and_running_text_names_are_not() -> None:
    titles = {r.id: r.title for r in all_rulesets()}
    assert titles["basic-rummy"] == "Basic rummy" and titles["boathouse"] == "Boathouse rummy"
    assert titles["gin"] == "Gin rummy" and titles["rommi"] == "Rommi" and titles["kalooki"] == "Kalooki"
    assert all(title[0].isupper() for title in titles.values())
    # In a sentence only proper names keep their capital: "aces are low in gin rummy".
    assert load_ruleset("gin").ace_text == "aces are low in gin rummy"
    assert load_ruleset("straight-gin").name == "straight gin"
    assert load_ruleset("oklahoma-gin").name == "Oklahoma gin"


# -- house rules as a table names them ------------------------------------------------


def test_high_ace_sets_the_ace_mode_and_its_cost_together() -> None:
    # docs/rules.md, Basic rummy: with high ace, Q-K-A is a run and the ace costs 15.
    rules = load_ruleset("basic-rummy", options={"high_ace": "true"})
    assert (rules.ace, rules.ace_points) == ("low_or_high", 15)
    assert rules.points(Card.parse("AH")) == 15
    back = rules.with_options({"high_ace": False})
    assert (back.ace, back.ace_points) == ("low", 1)


def test_a_field_given_by_name_wins_over_a_named_rule() -> None:
    rules = load_ruleset("basic-rummy", options={"high_ace": "true", "ace_points": "11"})
    assert (rules.ace, rules.ace_points) == ("low_or_high", 11)


@pytest.mark.parametrize(
    ("option", "fields"),
    [
        ("block_rummy", {"block": True, "discard_reuse": "none"}),
        ("several_melds_per_turn", {"melds_per_turn": None}),
        ("own_meld_first", {"layoff_before_own_meld": False}),
    ],
)
def test_named_house_rules_set_every_field_they_imply(option: str, fields: dict[str, object]) -> None:
    rules = load_ruleset("basic-rummy", options={option: "true"})
    assert {name: getattr(rules, name) for name in fields} == fields


def test_block_rummy_by_name_is_the_block_rummy_ruleset() -> None:
    def rules_of(ruleset: Ruleset) -> dict[str, object]:
        return {k: v for k, v in ruleset.model_dump().items() if k not in IDENTITY_FIELDS}

    named = load_ruleset("basic-rummy", options={"block_rummy": "true"})
    assert rules_of(named) == rules_of(load_ruleset("block-rummy"))


def test_named_rules_refuse_other_values_and_other_games() -> None:
    with pytest.raises(RulesetError, match="house rule 'high_ace': 'sometimes' is not one of true, false"):
        load_ruleset("basic-rummy", options={"high_ace": "sometimes"})
    with pytest.raises(RulesetError, match="house rule 'high_ace' is for rummy games, not gin rummy"):
        load_ruleset("gin", options={"high_ace": "true"})


def test_two_named_rules_setting_one_field_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    one_meld = NamedRule("one_meld", {True: {"melds_per_turn": 1}}, frozenset({"rummy"}))
    monkeypatch.setattr("scorer.ruleset.NAMED_RULES", {**NAMED_RULES, "one_meld": one_meld})
    with pytest.raises(
        RulesetError, match="house rules 'several_melds_per_turn' and 'one_meld' both set 'melds_per_turn'"
    ):
        load_ruleset("basic-rummy", options={"several_melds_per_turn": "true", "one_meld": "true"})


def test_a_user_file_may_name_house_rules(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text(
        'base = "basic-rummy"\nid = "ours"\nname = "our rummy"\ndescription = "Ours."\n'
        "[options]\nhigh_ace = true\ntarget = 500\n",
        encoding="utf-8",
    )
    rules = load_ruleset(path)
    assert (rules.ace, rules.ace_points, rules.target) == ("low_or_high", 15, 500)


def test_none_is_a_value_where_the_field_has_a_choice_named_none() -> None:
    # discard_reuse has a choice "none" (never reused); target takes no value at all.
    rules = load_ruleset("rommi", options={"discard_reuse": "none", "target": "none"})
    assert rules.discard_reuse == "none" and rules.target is None
    assert load_ruleset("rommi", options={"discard_reuse": "None"}).discard_reuse == "none"
    with pytest.raises(RulesetError, match=r"ace_points: 'none' is not a whole number"):
        load_ruleset("rommi", options={"ace_points": "none"})


def test_a_table_by_player_count_is_written_as_pairs() -> None:
    rules = load_ruleset("rommi", options={"cards_dealt": "2=10, 3=10, 4=7, 5=7, 6=6, 7=10"})
    assert rules.cards_dealt[3] == 10
    with pytest.raises(RulesetError, match="option cards_dealt: '10' is not a table; write PLAYERS=NUMBER"):
        load_ruleset("rommi", options={"cards_dealt": "10"})


def test_unknown_option_suggests_a_close_name() -> None:
    with pytest.raises(RulesetError, match=r"did you mean 'undercut_bonus'\?"):
        load_ruleset("gin", options={"undercut_bonsu": "10"})
    with pytest.raises(RulesetError, match=r"did you mean 'high_ace'\?"):
        load_ruleset("basic-rummy", options={"hihg_ace": "true"})


# -- every option with its value and meaning ------------------------------------------


def test_every_field_has_a_one_line_meaning() -> None:
    for name, field in Ruleset.model_fields.items():
        assert field.description and "\n" not in field.description, name


def test_ruleset_options_lists_every_field_and_the_named_rules_that_apply() -> None:
    options = {o.name: o for o in ruleset_options(load_ruleset("basic-rummy"))}
    assert set(Ruleset.model_fields) - IDENTITY_FIELDS <= set(options)
    assert not IDENTITY_FIELDS & set(options)
    assert options["high_ace"].value is False and options["block_rummy"].value is False
    assert options["several_melds_per_turn"].value is False  # one meld a turn
    assert options["own_meld_first"].value is False
    assert "cost 15" in options["high_ace"].meaning and "Sets ace, ace_points." in options["high_ace"].meaning
    assert options["target"].value == 100 and options["target"].meaning
    assert all(o.meaning for o in options.values())


def test_ruleset_options_show_the_value_beside_the_default() -> None:
    rules = load_ruleset("basic-rummy", options={"high_ace": "true", "target": "500"})
    options = {o.name: o for o in ruleset_options(rules)}
    assert (options["high_ace"].value, options["high_ace"].default) == (True, False)
    assert (options["ace_points"].value, options["ace_points"].default) == (15, 1)
    assert (options["target"].value, options["target"].default) == (500, 100)


def test_named_rules_are_listed_only_where_the_fields_read_as_one_of_their_values() -> None:
    # Rommi's ace is high or low at 11: neither high ace (15) nor low ace (1). Gin has none.
    assert "high_ace" not in {o.name for o in ruleset_options(load_ruleset("rommi"))}
    assert {o.name for o in ruleset_options(load_ruleset("gin"))}.isdisjoint(
        {"high_ace", "block_rummy", "several_melds_per_turn", "own_meld_first"}
    )
    kalooki = {o.name: o.value for o in ruleset_options(load_ruleset("kalooki"))}
    assert kalooki["high_ace"] is True and kalooki["own_meld_first"] is True


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
    with pytest.raises(AttributeError, match="frozen"):
        rules.knock_limit = 5
    with pytest.raises(AttributeError, match="frozen"):
        del rules.knock_limit
    assert isinstance(rules, Ruleset)
    assert rules.knock_limit == 10


def test_hand_points_add_the_cards_values() -> None:
    # rommi: A 11 + K 10 + joker 15 + 7 = 43.
    assert load_ruleset("rommi").hand_points(parse_cards("AH KS * 7D")) == 43


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_a_bundled_ruleset_built_without_the_validator_is_the_validated_one(ruleset_id: str) -> None:
    """The referee commands build bundled rulesets without pydantic's validator (it costs most
    of their start); each must be exactly what the validator makes of the same file."""
    from scorer.ruleset import _load_bundled, validated_bundled

    trusted, checked = _load_bundled(ruleset_id), validated_bundled(ruleset_id)
    assert trusted == checked
    assert trusted.model_dump() == checked.model_dump()
    assert {k: type(v) for k, v in vars(trusted).items()} == {k: type(v) for k, v in vars(checked).items()}


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_the_fast_reader_reads_each_bundled_file_as_toml_does(ruleset_id: str) -> None:
    """Every referee command reads a bundled file with the plain reader (importing a TOML
    parser cost more than the rest of reading it): each file must stay in its form, and read
    as tomllib reads it."""
    import tomllib

    from scorer.ruleset import read_plain_ruleset, rulesets_dir

    text = (rulesets_dir() / f"{ruleset_id}.toml").read_text(encoding="utf-8")
    assert read_plain_ruleset(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "target = 100  # a comment after the value",
        "target = 07",
        "target = -1",
        "target = 1_000",
        "target = 1.5",
        'name = "a \\"quoted\\" word"',
        'name = """two\nlines"""',
        'name = "a\ttab"',
        "target=100",
        "a.b = 1",
        '"quoted" = 1',
        "[a.b]",
        "[[deals]]",
        "target = 1\ntarget = 2",
        "cards_dealt = 1\n[cards_dealt]",
        "[cards_dealt]\n[cards_dealt]",
        "cards_dealt = { 2 = 10 }",
    ],
)
def test_a_ruleset_line_outside_the_plain_form_is_read_as_toml(text: str, tmp_path: Path) -> None:
    import tomllib

    from scorer.ruleset import _read_toml, read_plain_ruleset

    with pytest.raises(ValueError):
        read_plain_ruleset(text)
    # A bundled file in another form is still read, by tomllib: the same fields, or its error.
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(RulesetError, match="is not valid TOML"):
            _read_toml(path, bundled=True)
    else:
        assert _read_toml(path, bundled=True) == expected


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_a_ruleset_goes_through_a_stored_snapshot_and_a_copy_unchanged(ruleset_id: str) -> None:
    """The league stores ``model_dump(mode="json")`` and reads it back with ``model_validate``
    (player counts as text keys in JSON); copies and pickles give the same ruleset."""
    import copy
    import json
    import pickle

    rules = load_ruleset(ruleset_id)
    snapshot = json.loads(json.dumps(rules.model_dump(mode="json")))
    assert all(isinstance(k, str) for k in snapshot["cards_dealt"])
    assert Ruleset.model_validate(snapshot) == rules
    assert pickle.loads(pickle.dumps(rules)) == copy.deepcopy(rules) == rules
    changed = rules.model_copy(update={"target": 7})
    assert changed.target == 7
    assert changed.model_dump(exclude={"target"}) == rules.model_dump(exclude={"target"})
    with pytest.raises(TypeError, match="unknown field 'targt'"):
        rules.model_copy(update={"targt": 7})


def test_bundled_files_found_without_pathlib_are_pathlibs() -> None:
    """The bundled files are found with os.path (a referee command does not import pathlib):
    the same folder and ids as ``Path(__file__).resolve()`` and ``glob("*.toml")`` give."""
    from pathlib import Path

    import scorer.ruleset as module

    here = Path(module.__file__).resolve().parent
    folder = next(f for f in (here / "rulesets", here.parent / "rulesets") if f.is_dir())
    assert module.rulesets_dir() == folder
    assert module.bundled_ids() == tuple(sorted(p.stem for p in folder.glob("*.toml")))
    assert module.load_ruleset("Gin") == module.load_ruleset(folder / "gin.toml")
