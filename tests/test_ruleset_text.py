"""Rulesets in words: every variant and every option has its words in both languages.

The words are in the message catalogs (scorer/locales/), not in the ruleset files: a field
added to the ruleset, or a variant added to rulesets/, without a label and a meaning (or a
name and a description) in English and Finnish fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args, get_origin

import pytest

from scorer.house_rules import NAMED_RULES
from scorer.messages import LANGUAGES, catalog, render
from scorer.options import ruleset_options
from scorer.ruleset import IDENTITY_FIELDS, Ruleset, bundled_ids, load_ruleset
from scorer.ruleset_text import (
    VARIANT_AREAS,
    option_label,
    option_meaning,
    value_text,
    variant_description,
    variant_name,
    variant_title,
)

OPTIONS = sorted((set(Ruleset.model_fields) - IDENTITY_FIELDS) | set(NAMED_RULES))


def _choices() -> list[tuple[str, str]]:
    """(field, choice) for every field that takes one of a few words."""
    found = []
    for name, info in Ruleset.model_fields.items():
        if name in IDENTITY_FIELDS:
            continue
        for arg in (info.annotation, *get_args(info.annotation)):
            if get_origin(arg) is Literal:
                found += [(name, choice) for choice in get_args(arg)]
    return sorted(set(found))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_ruleset_field_and_named_rule_has_a_label_and_a_meaning(language: str) -> None:
    texts = catalog(language)  # type: ignore[arg-type]
    missing = [
        f"{area}.{name}"
        for name in OPTIONS
        for area in ("option", "option_about")
        if not texts.get(f"{area}.{name}", "").strip()
    ]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bundled_variant_has_a_name_a_title_and_a_description(language: str) -> None:
    texts = catalog(language)  # type: ignore[arg-type]
    missing = [
        f"{area}.{ruleset_id}"
        for ruleset_id in bundled_ids()
        for area in VARIANT_AREAS
        if not texts.get(f"{area}.{ruleset_id}", "").strip()
    ]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_of_every_field_has_its_words(language: str) -> None:
    texts = catalog(language)  # type: ignore[arg-type]
    choices = _choices()
    assert ("discard_reuse", "none") in choices and ("ace", "low_or_high") in choices
    assert [f"{f}.{c}" for f, c in choices if f"option_value.{f}.{c}" not in texts] == []


def test_the_catalog_words_no_option_or_variant_that_is_gone() -> None:
    texts = catalog("en")
    options = {code.split(".", 1)[1] for code in texts if code.startswith(("option.", "option_about."))}
    assert options == set(OPTIONS)
    variants = {code.split(".", 1)[1] for code in texts if code.split(".", 1)[0] in VARIANT_AREAS}
    assert variants == set(bundled_ids())


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_the_english_words_are_the_ruleset_files_own(ruleset_id: str) -> None:
    """The catalog shows a variant; the file's name is what the engine's messages and
    ``rummy rulesets --json`` give: the two say the same in English."""
    ruleset = load_ruleset(ruleset_id)
    assert variant_name(ruleset) == ruleset.name
    assert variant_title(ruleset) == ruleset.title
    assert variant_description(ruleset) == ruleset.description


def test_variants_have_the_finnish_names_the_rulebook_gives() -> None:
    """/work/shared/RULES.md and the Finnish sources: perusrommi, ginirommi, Karuselli, ..."""
    titles = {ruleset_id: variant_title(ruleset_id, "fi") for ruleset_id in bundled_ids()}
    assert titles == {
        "basic-rummy": "Perusrommi",
        "block-rummy": "Block-rommi",
        "boathouse": "Boathouse-rommi",
        "carousel": "Karuselli",
        "gin": "Ginirommi",
        "hollywood-gin": "Hollywood-gin",
        "kalooki": "Kalooki",
        "oklahoma-gin": "Oklahoma-gin",
        "rommi": "Rommi",
        "rommi-stop": "Pysäytysrommi",
        "sakausrommi": "Sakausrommi",
        "straight-gin": "Straight-gin",
    }
    assert variant_name("gin", "fi") == "ginirommi"


def test_a_ruleset_file_of_ones_own_is_named_as_the_file_names_it(tmp_path: Path) -> None:
    own = tmp_path / "friday.toml"
    own.write_text('base = "gin"\nname = "Friday gin"\ndescription = "Gin to 150."\ntarget = 150\n')
    ruleset = load_ruleset(own)
    assert ruleset.id == "gin"  # the base's id, kept
    assert (variant_title(ruleset, "fi"), variant_description(ruleset, "fi")) == ("Friday gin", "Gin to 150.")
    assert variant_title("no-such-variant", "fi") == "no-such-variant"


def test_the_engines_messages_name_a_bundled_variant_in_their_language(tmp_path: Path) -> None:
    from scorer.melds import check_meld

    reason = check_meld("QH KH AH", load_ruleset("gin")).reason
    assert render(reason, "fi") == "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)"
    assert render(reason, "en") == "not a run: QH KH AH (aces are low in gin rummy)"
    # Scripts read the English name, as before.
    assert reason.message.to_json()["params"]["why"]["params"] == {"name": "gin rummy"}
    own = tmp_path / "friday.toml"
    own.write_text('base = "gin"\nname = "Friday gin"\ndescription = "Gin."\n')
    reason = check_meld("QH KH AH", load_ruleset(own)).reason
    assert render(reason, "fi") == "ei ole suora: QH KH AH (ässät ovat pieniä pelissä Friday gin)"


def test_a_named_rule_says_which_fields_it_sets() -> None:
    assert option_meaning("high_ace").endswith(" Sets ace, ace_points.")
    assert option_meaning("high_ace", "fi").endswith(" Asettaa: ace, ace_points.")
    assert not option_meaning("high_ace", "fi", fields=False).endswith("ace_points.")
    assert option_label("high_ace", "fi") == "Korkea ässä: ässä pieni tai suuri, kädessä 15"


def test_values_by_field_where_a_word_means_two_things() -> None:
    assert value_text("scoring", "penalty", "fi") == "sakkopisteet"
    assert value_text("block_scoring", "penalty", "fi") == "jokainen menettää kätensä pisteet"
    assert value_text("discard_reuse", "none", "en") == "not reused"
    assert value_text("target", None, "en") == "no target"
    assert value_text("high_ace", None, "fi") == "ei kumpikaan (kentät asetettu erikseen)"


def test_the_engines_option_list_carries_the_catalogs_meaning() -> None:
    options = {o.name: o for o in ruleset_options(load_ruleset("gin"))}
    assert options["undercut_bonus"].meaning == "Bonus for the defender who undercuts the knocker."
    assert render(options["undercut_bonus"].meaning, "fi") == "Bonus puolustajalle, joka alittaa koputtajan."


def test_the_app_names_a_variant_in_the_screens_language() -> None:
    """Home, the scoreboard's heading and share text, leagues and the player screen keep the
    variant's name as a text that remembers its message; each screen shows it in its language."""
    from scorer.league.store import Store
    from scorer.ui.engine_text import engine_text
    from scorer.ui.screens.home_model import HomeModel
    from scorer.ui.screens.leagues_model import variant_name as league_variant_name
    from scorer.ui.screens.scoreboard_model import ScoreboardModel

    store = Store.memory()
    game_id = store.start_game(ruleset="carousel", players=["Anna", "Bea"]).id
    line = HomeModel.load(store).in_progress[0]
    assert (line.variant, engine_text(line.variant, "fi")) == ("Carousel", "Karuselli")
    board = ScoreboardModel.load(store, game_id)
    assert (board.variant, engine_text(board.variant, "fi")) == ("Carousel", "Karuselli")
    assert board.share_text("fi").startswith("Karuselli: ")
    assert engine_text(league_variant_name("gin"), "fi") == "ginirommi"
    assert league_variant_name("retired-variant") == "retired-variant"
