"""The referee screen's model, with no Flet session: it asks the engine and formats the answer."""

from __future__ import annotations

import pytest

from scorer.cards import format_melds
from scorer.errors import InvalidCardError
from scorer.melds import check_meld
from scorer.ruleset import all_rulesets, load_ruleset
from scorer.solver import best_arrangement
from scorer.ui.i18n import catalog, tr
from scorer.ui.model import DEFAULT_RULESET, RefereeModel, ruleset_choices


def referee(cards: str, ruleset_id: str = DEFAULT_RULESET) -> RefereeModel:
    model = RefereeModel(ruleset_id=ruleset_id)
    model.set_cards(cards)
    return model


# -- the meld check -------------------------------------------------------------------------


def test_default_ruleset_is_rommi() -> None:
    assert RefereeModel().ruleset_id == "rommi"


def test_legal_run() -> None:
    model = referee("5H 6H 7H")
    model.check()
    assert model.verdict == "legal run: 5H 6H 7H"
    assert model.error == ""


def test_legal_set() -> None:
    model = referee("8C 8D 8S")
    model.check()
    assert model.verdict == "legal set: 8S 8D 8C"


def test_illegal_run_shows_the_engine_reason() -> None:
    model = referee("QH KH AH", "gin")
    model.check()
    assert model.verdict == check_meld("QH KH AH", load_ruleset("gin")).reason
    assert model.verdict == "not a run: QH KH AH (aces are low in gin rummy)"
    assert model.error == ""


def test_gap_in_a_run_shows_the_engine_reason() -> None:
    model = referee("5H 6H 8H")
    model.check()
    assert model.verdict == "not a run: 5H 6H 8H (not consecutive: 7H missing)"


def test_joker_with_several_possibilities_lists_them() -> None:
    model = referee("5H 6H *")
    model.check()
    assert model.verdict.splitlines() == [
        "legal run: * 5H 6H",
        "joker 1 can stand for 4H 7H: declare it, e.g. *=4H",
    ]


def test_joker_with_one_possibility_is_declared_in_the_meld() -> None:
    model = referee("5H * 7H")
    model.check()
    assert model.verdict == "legal run: 5H *=6H 7H"


def test_two_jokers_each_get_their_line() -> None:
    model = referee("5H * *")
    model.check()
    lines = model.verdict.splitlines()
    assert lines[0] == "legal set or run: * 5H *"
    assert [line.split(" can ")[0] for line in lines[1:]] == ["joker 1", "joker 2"]


def test_jokers_in_a_ruleset_without_jokers_show_the_engine_reason() -> None:
    model = referee("5H * 7H", "gin")
    model.check()
    assert model.verdict == "not a meld: 5H * 7H (1 joker, and gin rummy plays with 0)"


def test_no_cards_is_the_engines_question_too() -> None:
    model = referee("")
    model.check()
    assert model.verdict == check_meld("", load_ruleset("rommi")).reason
    assert model.error == ""


# -- bad input --------------------------------------------------------------------------------


def test_bad_card_shows_the_engine_error_and_keeps_the_cards() -> None:
    model = referee("5H 6H 7H")
    model.check()
    model.set_cards("5H 6H XQ")
    model.check()
    with pytest.raises(InvalidCardError) as error:
        check_meld("5H 6H XQ", load_ruleset("rommi"))
    assert model.error == str(error.value)
    assert model.error == "invalid card 'XQ' at position 3: rank must be one of A 2-10 T J Q K"
    assert model.cards == "5H 6H XQ", "the cards stay as typed, to be corrected"
    assert model.verdict == ""


def test_bad_card_in_arrange_shows_the_engine_error() -> None:
    model = referee("5H 6H 7H 8C 8D 8S KC QD 2S 1S")
    model.arrange()
    assert model.error.startswith("invalid card '1S' at position 10: ")
    assert model.arrangement == ""
    assert model.cards == "5H 6H 7H 8C 8D 8S KC QD 2S 1S"


def test_fixing_the_card_clears_the_error() -> None:
    model = referee("5H 6H XH")
    model.check()
    assert model.error
    model.set_cards("5H 6H 7H")
    assert model.error == ""
    model.check()
    assert (model.verdict, model.error) == ("legal run: 5H 6H 7H", "")


def test_unknown_ruleset_shows_the_engine_error() -> None:
    model = referee("5H 6H 7H", "no-such-rules")
    model.check()
    assert model.error.startswith("unknown ruleset 'no-such-rules'; known: ")
    assert model.ruleset_description == ""


def test_only_a_bundled_ruleset_can_be_chosen() -> None:
    model = RefereeModel()
    for not_an_id in ("/etc/passwd", "../rulesets/gin.toml", "nope"):
        model.choose_ruleset(not_an_id)
        assert model.ruleset_id == "rommi"
    model.choose_ruleset("gin")
    assert model.ruleset_id == "gin"


# -- the best arrangement ---------------------------------------------------------------------


def test_arrange_shows_melds_deadwood_and_points() -> None:
    hand = "5H 6H 7H 8C 8D 8S KC QD 2S 3S"
    model = referee(hand, "gin")
    model.arrange()
    best = best_arrangement(hand, load_ruleset("gin"))
    assert model.arrangement.splitlines() == [
        f"melds: {format_melds(best.melds)}",
        "deadwood: 2S 3S QD KC",
        "deadwood points: 25",
    ]
    assert model.error == ""


def test_arrange_with_a_joker_uses_the_rulesets_points() -> None:
    model = referee("5H 6H 7H 8C 8D 8S KC QD 2S *", "rommi")
    model.arrange()
    assert model.arrangement.splitlines()[1:] == ["deadwood: 2S QD KC", "deadwood points: 22"]
    assert "*=4H 5H 6H 7H" in model.arrangement


def test_arrange_without_melds_says_none() -> None:
    model = referee("QH KH AH", "gin")
    model.arrange()
    assert model.arrangement.splitlines() == ["melds: none", "deadwood: AH QH KH", "deadwood points: 21"]


def test_check_and_arrange_of_the_same_cards_both_stay() -> None:
    model = referee("QH KH AH", "gin")
    model.check()
    model.arrange()
    assert model.verdict == "not a run: QH KH AH (aces are low in gin rummy)"
    assert model.arrangement.startswith("melds: none")


def test_new_cards_or_ruleset_clear_the_old_answers() -> None:
    model = referee("QH KH AH", "gin")
    model.check()
    model.arrange()
    model.choose_ruleset("rommi")
    assert (model.verdict, model.arrangement, model.error) == ("", "", "")
    model.check()
    assert model.verdict == "legal run: QH KH AH"
    model.set_cards("QH KH AH 2H")
    assert model.verdict == ""


# -- what the components rely on --------------------------------------------------------------


def test_a_change_notifies_subscribers() -> None:
    model = referee("5H 6H 7H")
    changed: list[str | None] = []

    def listener(_sender: object, field: str | None) -> None:
        changed.append(field)

    # Observable keeps listeners weakly: hold this one for the test's length.
    model.subscribe(listener)
    model.check()
    assert "verdict" in changed


def test_ruleset_choices_are_the_engines_rulesets() -> None:
    choices = ruleset_choices()
    assert [(c.id, c.name, c.description) for c in choices] == [
        (r.id, r.name, r.description) for r in all_rulesets()
    ]
    assert DEFAULT_RULESET in {c.id for c in choices}


def test_ruleset_description_follows_the_choice() -> None:
    model = RefereeModel()
    model.choose_ruleset("gin")
    assert model.ruleset_description == load_ruleset("gin").description


def test_finnish_verdict_and_arrangement() -> None:
    model = referee("5H 6H *")
    model.language = "fi"
    model.check()
    assert model.verdict.splitlines() == [
        "sallittu suora: * 5H 6H",
        "jokeri 1 voi olla 4H 7H: ilmoita se, esim. *=4H",
    ]
    model.arrange()
    assert model.arrangement.splitlines()[0] == "yhdistelmät: *=4H 5H 6H"
    assert model.arrangement.splitlines()[1] == "irtokortit: ei yhtään"


# -- strings ----------------------------------------------------------------------------------


def test_screen_labels_are_the_ones_the_browser_test_finds() -> None:
    assert (tr("ruleset_label"), tr("cards_label"), tr("check_button"), tr("arrange_button")) == (
        "Ruleset",
        "Cards",
        "Check meld",
        "Best arrangement",
    )
    assert tr("cards_hint") == "5H 6H 7H or 5H * 7H"


def test_finnish_card_terms() -> None:
    help_text = catalog()["fi"]["cards_help"]
    for term in ("ässä", "jätkä", "rouva", "kuningas", "pata", "hertta", "ruutu", "risti", "jokeri"):
        assert term in help_text
    assert (tr("kind_run", "fi"), tr("kind_set", "fi")) == ("suora", "setti")
    assert tr("deadwood_line", "fi", cards="2S").startswith("irtokortit")
