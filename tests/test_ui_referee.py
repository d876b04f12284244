"""The referee screen's view-model, with no Flet session: it asks the engine and words the answer.

The expected verdicts come from the engine's own functions where the point is that the screen
carries them; the wording (headline, lines, sections) is checked as the player reads it.
"""

from __future__ import annotations

import flet as ft
import pytest

from scorer.cards import Card, format_melds
from scorer.errors import IllegalPlayError, InvalidCardError
from scorer.knock import referee_knock
from scorer.melds import check_meld
from scorer.opening import check_opening
from scorer.ruleset import all_rulesets, load_ruleset
from scorer.solver import best_arrangement
from scorer.table import check_rearrangement
from scorer.ui.components.card_face import RED, card_color
from scorer.ui.components.referee_inputs import ASK_KEYS
from scorer.ui.components.referee_verdict import (
    ILLEGAL_COLOR,
    LEGAL_COLOR,
    cards_line,
    verdict_view,
    with_suits,
)
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import catalog, tr
from scorer.ui.screens.referee_model import (
    DEFAULT_RULESET,
    QUESTION_INPUTS,
    QUESTIONS,
    Answer,
    RefereeModel,
    answers,
    opening_checks_onto,
    ruleset_choices,
)

KNOCKER = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
DEFENDER = "TH JH 6H KC QD KD 9C 9D 2D 3D"


def referee(cards: str, ruleset_id: str = DEFAULT_RULESET, question: str = "meld") -> RefereeModel:
    model = RefereeModel(ruleset_id=ruleset_id)
    model.choose_question(question)
    model.set_input("cards", cards)
    return model


def asked(model: RefereeModel, language: str = "en") -> Answer:
    model.ask()
    answer = model.answer("fi" if language == "fi" else "en")
    assert answer is not None
    return answer


def knock(**inputs: str) -> RefereeModel:
    model = RefereeModel()
    model.choose_question("knock")
    for name, text in {"knocker": KNOCKER, "defender": DEFENDER, **inputs}.items():
        model.set_input(name, text)
    return model


# -- the meld check -------------------------------------------------------------------------


def test_default_question_and_ruleset() -> None:
    model = RefereeModel()
    assert (model.question, model.ruleset_id) == ("meld", "rommi")
    assert model.answer("en") is None


def test_legal_run() -> None:
    answer = asked(referee("5H 6H 7H"))
    assert (answer.legal, answer.headline, answer.lines) == (True, "Legal meld", ("legal run: 5H 6H 7H",))


def test_legal_set() -> None:
    assert asked(referee("8C 8D 8S")).lines == ("legal set: 8S 8D 8C",)


def test_illegal_run_shows_the_engine_reason() -> None:
    answer = asked(referee("QH KH AH", "gin"))
    assert answer.legal is False
    assert answer.headline == "Not a legal meld"
    assert answer.lines == (check_meld("QH KH AH", load_ruleset("gin")).reason,)
    assert answer.lines == ("not a run: QH KH AH (aces are low in gin rummy)",)


def test_gap_in_a_run_shows_the_engine_reason() -> None:
    assert asked(referee("5H 6H 8H")).lines == ("not a run: 5H 6H 8H (not consecutive: 7H missing)",)


def test_joker_with_several_possibilities_lists_them() -> None:
    assert asked(referee("5H 6H *")).lines == (
        "legal run: * 5H 6H",
        "joker 1 can stand for 4H 7H: declare it, e.g. *=4H",
    )


def test_joker_with_one_possibility_is_declared_in_the_meld() -> None:
    assert asked(referee("5H * 7H")).lines == ("legal run: 5H *=6H 7H",)


def test_two_jokers_each_get_their_line() -> None:
    lines = asked(referee("5H * *")).lines
    assert lines[0] == "legal set or run: * 5H *"
    assert [line.split(" can ")[0] for line in lines[1:]] == ["joker 1", "joker 2"]


def test_jokers_in_a_ruleset_without_jokers_show_the_engine_reason() -> None:
    answer = asked(referee("5H * 7H", "gin"))
    assert answer.lines == ("not a meld: 5H * 7H (1 joker, and gin rummy plays with 0)",)


def test_no_cards_is_the_engines_question_too() -> None:
    assert asked(referee("")).lines == (check_meld("", load_ruleset("rommi")).reason,)


# -- bad input ------------------------------------------------------------------------------


def test_bad_card_shows_the_engine_error_and_keeps_the_cards() -> None:
    model = referee("5H 6H XQ")
    answer = asked(model)
    with pytest.raises(InvalidCardError) as error:
        check_meld("5H 6H XQ", load_ruleset("rommi"))
    assert answer.lines == (str(error.value),)
    assert answer.lines == ("invalid card 'XQ' at position 3: rank must be one of A 2-10 T J Q K",)
    assert (answer.legal, answer.headline) == (False, "Check the cards")
    assert model.cards == "5H 6H XQ", "the cards stay as typed, to be corrected"


def test_bad_card_in_finnish() -> None:
    answer = asked(referee("5H 6H XQ"), "fi")
    assert answer.headline == "Tarkista kortit"
    assert answer.lines == ("virheellinen kortti 'XQ' kohdassa 3: arvo on yksi näistä: A 2-10 T J Q K",)


def test_fixing_the_card_clears_the_answer() -> None:
    model = referee("5H 6H XH")
    asked(model)
    model.set_input("cards", "5H 6H 7H")
    assert model.answer("en") is None
    assert asked(model).lines == ("legal run: 5H 6H 7H",)


def test_unknown_ruleset_shows_the_engine_error() -> None:
    answer = asked(referee("5H 6H 7H", "no-such-rules"))
    assert answer.lines[0].startswith("unknown ruleset 'no-such-rules'; known: ")
    assert RefereeModel(ruleset_id="no-such-rules").ruleset_description == ""


def test_only_a_bundled_ruleset_can_be_chosen() -> None:
    model = RefereeModel()
    for not_an_id in ("/etc/passwd", "../rulesets/gin.toml", "nope"):
        model.choose_ruleset(not_an_id)
        assert model.ruleset_id == "rommi"
    model.choose_ruleset("gin")
    assert model.ruleset_id == "gin"


def test_only_a_known_question_or_input_can_be_set() -> None:
    model = RefereeModel()
    model.choose_question("delete everything")
    model.set_input("password", "x")
    assert model.question == "meld"
    assert "password" not in model.inputs


# -- the best arrangement -------------------------------------------------------------------


def test_arrange_shows_melds_deadwood_and_points() -> None:
    hand = "5H 6H 7H 8C 8D 8S KC QD 2S 3S"
    answer = asked(referee(hand, "gin", "arrange"))
    best = best_arrangement(hand, load_ruleset("gin"))
    assert answer.legal is None
    assert answer.headline == "Best arrangement"
    assert answer.lines == (
        f"melds: {format_melds(best.melds)}",
        "deadwood: 2S 3S QD KC",
        "deadwood points: 25",
    )


def test_arrange_with_a_discard_first() -> None:
    model = referee("5H 6H 7H 8C 8D 8S KC QD 2S 3S QS", "gin", "arrange")
    model.set_discard_first(True)
    answer = asked(model)
    assert answer.lines[0] == "discard: QS"
    assert answer.lines[-1] == "deadwood points: 25"


def test_arrange_without_melds_says_none() -> None:
    assert asked(referee("QH KH AH", "gin", "arrange")).lines == (
        "melds: none",
        "deadwood: AH QH KH",
        "deadwood points: 21",
    )


def test_arrange_in_finnish() -> None:
    lines = asked(referee("5H 6H *", "rommi", "arrange"), "fi").lines
    assert lines[:2] == ("yhdistelmät: *=4H 5H 6H", "irtokortit: ei yhtään")


# -- layoffs --------------------------------------------------------------------------------


def test_legal_layoff_shows_the_meld_it_makes() -> None:
    model = referee("8H", question="layoff")
    model.set_input("meld", "5H 6H 7H")
    answer = asked(model)
    assert (answer.legal, answer.headline, answer.lines) == (
        True,
        "Legal layoff",
        ("the meld becomes 5H 6H 7H 8H",),
    )


def test_layoff_that_exchanges_a_joker_says_so() -> None:
    model = referee("6H", "kalooki", "layoff")
    model.set_input("meld", "5H *=6H 7H")
    assert asked(model).lines[-1] == "jokers back to the hand: 1"


def test_illegal_layoff_gives_the_reason_in_finnish() -> None:
    model = referee("9H", question="layoff")
    model.set_input("meld", "5H 6H 7H")
    answer = asked(model, "fi")
    assert answer.headline == "Ei sallittu lisäys"
    assert answer.lines == (
        "korttia 9H ei voi lisätä yhdistelmään 5H 6H 7H: kortit eivät ole peräkkäin: puuttuu 8H",
    )


# -- gin knocks -----------------------------------------------------------------------------


def test_knock_question_switches_to_a_gin_ruleset() -> None:
    model = RefereeModel()
    model.choose_question("knock")
    assert model.ruleset_id == "gin"
    assert all(load_ruleset(c.id).family == "gin" for c in ruleset_choices("knock"))


def test_legal_knock_shows_the_arrangement_layoffs_and_points() -> None:
    answer = asked(knock())
    verdict = referee_knock(knocker=KNOCKER, defender=DEFENDER, ruleset=load_ruleset("gin"))
    assert (verdict.outcome, verdict.points) == ("knock", 48)
    assert (answer.legal, answer.headline, answer.lines) == (
        True,
        "Legal knock",
        ("knock: the knocker scores 48",),
    )
    knocker, defender = answer.sections
    assert knocker.title == "Knocker"
    assert knocker.lines == ("melds: AS 2S 3S | 4S 4D 4C | 7H 8H 9H", "deadwood: 5C (5)")
    assert defender.title == "Defender"
    assert defender.lines[0] == "lays off 6H TH JH on 7H 8H 9H"
    assert defender.lines[-1] == f"deadwood: 2D 3D 9D QD KD 9C KC ({verdict.defender.deadwood_points})"


def test_undercut_scores_for_the_defender() -> None:
    knocker = "2C 3C 4C 5S 5H 5D 9H 9S 9D 8C"
    defender = "KS QS JS 7D 7H 7S AH 2H 3H AC"
    verdict = referee_knock(knocker=knocker, defender=defender, ruleset=load_ruleset("gin"))
    assert verdict.outcome == "undercut"
    answer = asked(knock(knocker=knocker, defender=defender))
    assert answer.lines == (f"undercut: the defender scores {verdict.points}",)
    assert verdict.points == 33
    finnish = asked(knock(knocker=knocker, defender=defender), "fi")
    assert finnish.lines == ("alitus: puolustaja saa 33 pistettä",)
    assert finnish.sections[1].lines[0] == "lisää AC yhdistelmään 2C 3C 4C"


def test_house_rules_change_the_engines_answer() -> None:
    knocker, defender = "2C 3C 4C 5S 5H 5D 9H 9S 9D 8C", "KS QS JS 7D 7H 7S AH 2H 3H AC"
    model = knock(knocker=knocker, defender=defender, options="undercut_bonus=10")
    gin = load_ruleset("gin", options={"undercut_bonus": "10"})
    points = referee_knock(knocker=knocker, defender=defender, ruleset=gin).points
    assert points == 18  # 8 - 0 + 10
    assert asked(model).lines == ("undercut: the defender scores 18",)
    assert "options" in model.shown_inputs


def test_a_house_rule_without_a_value_says_how_to_write_it() -> None:
    model = knock(options="undercut_bonus 10")
    answer = asked(model)
    assert (answer.legal, answer.headline) == (False, "Check the house rules")
    assert answer.lines == ("write each house rule as NAME=VALUE, e.g. undercut_bonus=10: undercut_bonus",)


def test_an_unknown_house_rule_is_the_engines_error_in_finnish() -> None:
    answer = asked(knock(options="knoker=5"), "fi")
    assert answer.lines[0].startswith("tuntematon sääntö 'knoker' säännöissä 'gin'")
    assert answer.headline == "Tarkista kotisäännöt"


def test_illegal_knock_gives_the_reason_and_the_knockers_hand() -> None:
    model = knock(knocker="7H 8H 9H TH 4C 4D 4S KC AS AD", defender="QC QD KD 9C 9D 2D 3D 6C 8C JC")
    answer = asked(model)
    assert (answer.legal, answer.headline) == (False, "Illegal knock")
    assert answer.lines == ("knocker's deadwood 12 is over the knock limit of 10 in gin rummy",)
    assert answer.sections[0].lines[-1] == "deadwood: AS AD KC (12)"
    fi = asked(model, "fi")
    assert fi.lines == ("koputtajan irtokorttien pisteet 12 ylittävät koputusrajan 10 pelissä ginirommi",)


def test_declared_melds_are_used() -> None:
    answer = asked(knock(declared="7H 8H 9H | 4C 4D 2S"))
    assert answer.legal is False
    assert answer.lines[0].startswith("not a meld: 4C 4D 2S")


def test_upcard_is_asked_only_where_the_ruleset_uses_one() -> None:
    model = knock()
    assert "upcard" not in model.shown_inputs
    model.choose_ruleset("oklahoma-gin")
    assert "upcard" in model.shown_inputs
    answer = asked(model)
    assert answer.lines == ("Oklahoma gin takes the knock limit from the upcard: no upcard given",)
    model.set_input("upcard", "2H")
    answer = asked(model)
    assert answer.lines == (
        "knocker's deadwood 5 is over the knock limit of 2 in Oklahoma gin (set by the upcard 2H)",
    )


def test_bad_knock_input_is_the_engines_error() -> None:
    answer = asked(knock(knocker="7H 8H 9H"))
    with pytest.raises(IllegalPlayError) as error:
        referee_knock(knocker="7H 8H 9H", defender=DEFENDER, ruleset=load_ruleset("gin"))
    assert answer.lines == (str(error.value),)


# -- Kalooki openings -----------------------------------------------------------------------


def opening(melds: str, layoffs: str = "", language: str = "en") -> Answer:
    model = RefereeModel()
    model.choose_question("opening")
    model.set_input("melds", melds)
    model.set_input("layoffs", layoffs)
    return asked(model, language)


def test_opening_question_switches_to_kalooki() -> None:
    model = RefereeModel()
    model.choose_question("opening")
    assert model.ruleset_id == "kalooki"
    assert [c.id for c in ruleset_choices("opening")] == [
        r.id for r in all_rulesets() if r.opening_minimum > 0
    ]


def test_legal_opening_with_its_value_and_melds() -> None:
    answer = opening("QH KH * | 7S 7D 7C")
    assert (answer.legal, answer.headline, answer.lines) == (True, "Legal opening", ("worth 56, needs 51",))
    assert answer.sections[0].lines == ("QH KH *=AH", "7S 7D 7C")


def test_short_opening_gives_the_engines_reason() -> None:
    answer = opening("9H TH JH | 4S 4D 4C")
    reason = check_opening(melds="9H TH JH | 4S 4D 4C", ruleset=load_ruleset("kalooki")).reason
    assert (answer.legal, answer.headline, answer.lines) == (False, "Not a legal opening", (reason,))


def test_same_turn_layoffs_count_and_are_marked_unchecked() -> None:
    answer = opening("9H TH JH | 4S 4D 4C", "KS")
    assert answer.legal is True
    assert answer.lines == ("worth 51, needs 51",)
    layoffs = answer.sections[1]
    assert layoffs.title == "Laid off"
    assert layoffs.lines[0] == "KS"
    assert layoffs.lines[1] == "counted, not checked against the other players' melds"


def test_layoffs_are_checked_against_the_other_players_melds() -> None:
    # The engine's opening check takes the other players' melds (onto=) and says where each
    # layoff went; with none typed, the layoffs are counted as stated.
    assert opening_checks_onto()
    answer = opening("9H TH JH | 4S 4D 4C", "KS 2C")
    assert answer.sections[1].lines[1] == "counted, not checked against the other players' melds"

    model = RefereeModel()
    model.choose_question("opening")
    model.set_input("melds", "9H TH JH | 4S 4D 4C")
    model.set_input("layoffs", "KS 2C")
    model.set_input("onto", "QS JS TS")
    answer = asked(model)
    assert answer.sections[1].lines == ("KS on their meld 1", "2C fits none of their melds")


def test_opening_in_finnish() -> None:
    answer = opening("9H TH JH | 4S 4D 4C", language="fi")
    assert answer.headline == "Ei sallittu avaus"
    assert answer.lines == ("avauksen arvo 41, pelissä Kalooki vaaditaan vähintään 51",)


def test_could_this_hand_open() -> None:
    model = referee("5H 6H 7H 8H 2C 2D KS", "kalooki", "hand_opening")
    answer = asked(model)
    assert (answer.legal, answer.headline) == (False, "This hand cannot open")
    assert answer.lines == ("the best opening in this hand is worth 26, Kalooki needs at least 51",)
    model.set_input("cards", "QH KH AH 7S 7D 7C 2D")
    answer = asked(model)
    assert (answer.legal, answer.headline) == (True, "This hand can open")


# -- Carousel tables ------------------------------------------------------------------------


def table(before: str, from_hand: str, after: str, *, first: bool = False) -> RefereeModel:
    model = RefereeModel()
    model.choose_question("table")
    model.set_input("before", before)
    model.set_input("from_hand", from_hand)
    model.set_input("after", after)
    model.set_first_meld(first)
    return model


def test_table_question_switches_to_carousel() -> None:
    model = RefereeModel()
    model.choose_question("table")
    assert model.ruleset_id == "carousel"


def test_legal_table_change_shows_the_table_after() -> None:
    answer = asked(table("5H 6H 7H | 9S 9D *=9C", "9C 8H", "5H 6H 7H 8H * | 9S 9D 9C"))
    assert (answer.legal, answer.headline) == (True, "Legal rearrangement")
    assert answer.sections[0].lines == ("*=4H 5H 6H 7H 8H", "9S 9D 9C")


def test_illegal_table_change_gives_the_reason() -> None:
    model = table("5H 6H 7H | 9S 9D *=9C", "9C", "5H 6H 7H | 9S 9D 9C")
    reason = check_rearrangement(
        before="5H 6H 7H | 9S 9D *=9C",
        from_hand="9C",
        after="5H 6H 7H | 9S 9D 9C",
        ruleset=load_ruleset("carousel"),
    ).reason
    answer = asked(model)
    assert (answer.legal, answer.headline, answer.lines) == (False, "Illegal rearrangement", (reason,))
    assert asked(model, "fi").lines == ("kortin 9C korvaaman jokerin on jäätävä pöydälle tällä vuorolla",)


def test_first_meld_switch_is_the_engines_first_flag() -> None:
    model = table("5H 6H 7H", "8H", "5H 6H 7H 8H", first=True)
    assert asked(model).lines == ("a first meld must be a legal set or run from the hand",)
    model.set_first_meld(False)
    assert asked(model).legal is True


# -- changing the question, ruleset or inputs ---------------------------------------------------


def test_a_change_clears_the_answer() -> None:
    model = referee("QH KH AH", "gin")
    for change in (
        lambda: model.set_input("cards", "QH KH"),
        lambda: model.choose_ruleset("rommi"),
        lambda: model.choose_question("arrange"),
        lambda: model.set_discard_first(True),
    ):
        model.ask()
        assert model.answer("en") is not None
        change()
        assert model.answer("en") is None


def test_each_question_reads_its_own_inputs_and_keeps_the_others() -> None:
    model = referee("5H 6H 7H")
    model.choose_question("knock")
    model.choose_question("meld")
    assert model.cards == "5H 6H 7H"
    assert set(QUESTION_INPUTS) == set(QUESTIONS)


def test_switching_language_rewords_the_same_verdict() -> None:
    model = referee("QH KH AH", "gin")
    model.ask()
    english, finnish = model.answer("en"), model.answer("fi")
    assert english is not None and finnish is not None
    assert finnish.lines == (engine_text(english.lines[0], "fi"),)
    assert finnish.headline == "Ei sallittu yhdistelmä"


def test_a_change_notifies_subscribers() -> None:
    model = referee("5H 6H 7H")
    changed: list[str | None] = []

    def listener(_sender: object, field: str | None) -> None:
        changed.append(field)

    # Observable keeps listeners weakly: hold this one for the test's length.
    model.subscribe(listener)
    model.ask()
    assert "asked" in changed


def test_every_question_has_a_ruleset_that_answers_it() -> None:
    for question in QUESTIONS:
        assert ruleset_choices(question), question
        assert answers(question, load_ruleset(ruleset_choices(question)[0].id))


def test_ruleset_description_follows_the_choice() -> None:
    model = RefereeModel()
    model.choose_ruleset("gin")
    assert model.ruleset_description == load_ruleset("gin").description


# -- the verdict on screen ------------------------------------------------------------------


def test_legal_and_illegal_look_different_and_say_so_in_words() -> None:
    legal = verdict_view(asked(referee("5H 6H 7H")))
    illegal = verdict_view(asked(referee("5H 6H 8H")))
    assert isinstance(legal, ft.Container) and isinstance(illegal, ft.Container)
    assert legal.border is not None and illegal.border is not None
    assert legal.border.top.color == LEGAL_COLOR
    assert illegal.border.top.color == ILLEGAL_COLOR
    assert LEGAL_COLOR != ILLEGAL_COLOR
    texts = [c.value for c in _texts(illegal)]
    assert "Not a legal meld" in texts
    assert "not a run: 5H 6H 8H (not consecutive: 7H missing)" in texts


def test_cards_in_the_arrangement_show_suit_symbols_in_red_and_black() -> None:
    assert with_suits("lays off AC TH on 2C 3C 4C | *=4H (12)") == "lays off A♣ 10♥ on 2♣ 3♣ 4♣ | *=4H (12)"
    line = cards_line("deadwood: 8C 9D (17)")
    assert line.spans is not None
    assert "".join(span.text or "" for span in line.spans) == "deadwood: 8♣ 9♦ (17)"
    colors = {(span.text or "").strip(): span.style.color if span.style else None for span in line.spans}
    assert (colors["8♣"], colors["9♦"], colors["deadwood:"]) == (card_color(Card.parse("8C")), RED, None)
    assert card_color(Card.parse("8C")) != RED


def test_reasons_keep_the_cards_as_typed() -> None:
    view = verdict_view(asked(referee("QH KH AH", "gin")))
    assert "not a run: QH KH AH (aces are low in gin rummy)" in [t.value for t in _texts(view)]


def _texts(control: ft.Control) -> list[ft.Text]:
    found: list[ft.Text] = []
    if isinstance(control, ft.Text):
        found.append(control)
    for child in [getattr(control, "content", None), *getattr(control, "controls", [])]:
        if isinstance(child, ft.Control):
            found += _texts(child)
    return found


# -- strings --------------------------------------------------------------------------------


def test_screen_labels_are_the_ones_the_browser_tests_find() -> None:
    assert (tr("ruleset_label"), tr("cards_label"), tr("check_button"), tr("arrange_button")) == (
        "Ruleset",
        "Cards",
        "Check meld",
        "Best arrangement",
    )
    assert tr("referee.question_label") == "Question"
    assert set(ASK_KEYS) == set(QUESTIONS)


def test_finnish_card_terms() -> None:
    help_text = catalog()["fi"]["cards_help"]
    for term in ("ässä", "jätkä", "rouva", "kuningas", "pata", "hertta", "ruutu", "risti", "jokeri"):
        assert term in help_text
    assert (tr("kind_run", "fi"), tr("kind_set", "fi")) == ("suora", "setti")


# -- hands larger than the variant holds -------------------------------------------------------

#: 60 cards from two decks with both jokers: a Carousel hand holds at most 13 in a turn.
SIXTY = (
    "TS 5S 5H 8C 6C JH AS 7C 2C 2D AC * QS AS 3D TD KC 4S 2S KD KC 3S AH 9H 3C JC 8D 5D JD 6D "
    "TC KD 3H QH 5S 8S 8H QS TH 3H 4C 9S 2S 9C AC 8S 9D 6H 8D QC 7S 6H 7C TS 9D 5H 5C * QH QD"
)


def test_a_hand_larger_than_the_variant_holds_is_refused_as_rummy_refuses_it() -> None:
    answer = asked(referee(SIXTY, "carousel", "arrange"))
    message = "cards: 60 cards, but a hand in Carousel holds at most 13 (10 dealt and 3 drawn in a turn)"
    assert answer.lines == (message,)
    finnish = asked(referee(SIXTY, "carousel", "arrange"), "fi")
    assert finnish.lines == (
        "kortit: 60 korttia, mutta pelissä Karuselli kädessä on enintään 13 "
        "(10 jaettua ja 3 vuorolla nostettua)",
    )


@pytest.mark.parametrize(
    ("question", "inputs", "what"),
    [
        ("meld", {"cards": "5H 6H 7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H"}, "meld: 14 cards, but a meld"),
        ("layoff", {"meld": "5H 6H 7H", "cards": SIXTY}, "cards: 60 cards, but a hand"),
        ("knock", {"knocker": SIXTY, "defender": DEFENDER}, "knocker: 60 cards, but a hand"),
        ("hand_opening", {"cards": SIXTY}, "hand: 60 cards, but a hand"),
    ],
)
def test_every_question_refuses_more_cards_than_the_variant_holds(
    question: str, inputs: dict[str, str], what: str
) -> None:
    ruleset_id = {"knock": "gin", "hand_opening": "kalooki"}.get(question, "rommi")
    model = RefereeModel(ruleset_id=ruleset_id)
    model.choose_question(question)
    for name, text in inputs.items():
        model.set_input(name, text)
    answer = asked(model)
    assert answer.lines[0].startswith(what), answer.lines


@pytest.mark.parametrize(
    ("ruleset_id", "cards", "english", "finnish"),
    [
        (
            "gin",
            "5H 5H 5H 9C",
            "5H 3 times in the hand, and gin rummy plays with one deck",
            "5H 3 kertaa kädessä, ja peli ginirommi pelataan yhdellä pakalla",
        ),
        (
            "gin",
            "5H 5H 9C",
            "5H twice in the hand, and gin rummy plays with one deck",
            "5H kahdesti kädessä, ja peli ginirommi pelataan yhdellä pakalla",
        ),
        ("gin", "5H * 9C", "a joker in the hand, and gin rummy has no jokers", None),
        ("rommi", "* * * * * 5H", "5 jokers in the hand, and rommi plays with 4", None),
    ],
)
def test_best_arrangement_refuses_cards_the_decks_do_not_hold_as_rummy_does(
    ruleset_id: str, cards: str, english: str, finnish: str | None
) -> None:
    assert asked(referee(cards, ruleset_id, "arrange")).lines == (english,)
    in_finnish = asked(referee(cards, ruleset_id, "arrange"), "fi").lines[0]
    assert in_finnish != english
    if finnish is not None:
        assert in_finnish == finnish
