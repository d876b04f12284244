"""The engine's messages in Finnish: every verdict and error the engine says, translated whole.

A broad set of inputs (the engine tests' own cases, and more) makes the engine speak; each
message must be translated with no English left, so a new engine message without a Finnish
text fails here. A scan of the engine's source also finds every literal message text and
requires it in the catalog's English templates.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorer.deal import Deal
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.knock import knock_limit, referee_knock
from scorer.league.store import Store
from scorer.melds import check_layoff, check_meld
from scorer.opening import best_opening, check_opening
from scorer.ruleset import all_rulesets, load_ruleset
from scorer.scoring import score_deal
from scorer.solver import Solver
from scorer.table import check_rearrangement
from scorer.ui.engine_text import PATTERNS, engine_text, translate
from scorer.ui.i18n import catalog, placeholders

ROOT = Path(__file__).resolve().parent.parent
GIN = load_ruleset("gin")
KALOOKI = load_ruleset("kalooki")
CAROUSEL = load_ruleset("carousel")
ROMMI = load_ruleset("rommi")
OKLAHOMA = load_ruleset("oklahoma-gin")
HAND = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
OTHER = "TH JH 6H KC QD KD 9C 9D 2D 3D"
NAMES = ["Anna", "Bea", "Cid", "Dan"]


def said(ask: Callable[[], object]) -> list[str]:
    """What the engine says: the error it raises, or the reason and events in its verdict."""
    try:
        verdict = ask()
    except ScorerError as exc:
        return [str(exc)]
    found = [getattr(verdict, "reason", None), *getattr(verdict, "events", ())]
    return [text for text in found if text]


def _melds() -> Iterator[Callable[[], object]]:
    groups = [
        "QH KH AH",
        "5H 6H 8H",
        "5H 6H 7H",
        "5H 5H 6H",
        "5H * 7H",
        "5H * *",
        "8C 8D 8S 8H 8C",
        "8C 8C 8D",
        "",
        "5H",
        "5H 6H",
        "5H 6D 7C",
        "5H 6H 7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H",
        "* * 5H",
        "*=8C 8C 8D",
        "* * * 5H",
        "5H XH 6H",
        "5H 6H 7H=*",
        "*=* 5H",
        "*= 5H",
        "1S 2S 3S",
        "5H 9H *",
        "QS KS AS 2S",
        "5H 6H * * * *",
        "8C 8D 8S 8H *",
        "8C 8D * * *",
    ]
    for ruleset in all_rulesets():
        for group in groups:
            yield lambda group=group, ruleset=ruleset: check_meld(group, ruleset)


def _layoffs() -> Iterator[Callable[[], object]]:
    for ruleset in (ROMMI, KALOOKI, GIN):
        for meld, cards in [
            ("5H 6H 7H", "8H"), ("5H 6H 7H", "9H"), ("5H 6H 8H", "9H"), ("5H 6H 7H", ""),
            ("5H *=6H 7H", "6H"), ("8C 8D 8S", "8H 9H"), ("8C 8D 8S", "8C"), ("7H 7D", "7C"),
            ("5H 6H *", "5S"), ("8C 8D 8S", "*"),
        ]:  # fmt: skip
            yield lambda meld=meld, cards=cards, ruleset=ruleset: check_layoff(meld, cards, ruleset)


def _knocks() -> Iterator[Callable[[], object]]:
    cases: list[dict[str, object]] = [
        {"ruleset": ROMMI},
        {"knocker": "7H 8H 9H"},
        {"defender": OTHER + " 5D 6D"},
        {"knocker": "7H 7H 9H 4C 4D 4S 2S 3S AS 5C"},
        {"defender": "7H JH 6H KC QD KD 9C 9D 2D 3D"},
        {"knocker": "7H 8H 9H 4C 4D 4S 2S 3S AS *"},
        {"defender": "TH JH 6H KC QD KD 9C 9D 2D *"},
        {"melds": "7H 8H 9H | 4C 4D 4H"},
        {"melds": "7H 8H 9H | 9H 9S 9D"},
        {"melds": "7H 8H 9H | 4C 4D 2S"},
        {"melds": "4C 4D 4S"},
        {"ruleset": OKLAHOMA},
        {"ruleset": OKLAHOMA, "upcard": "*"},
        {"ruleset": OKLAHOMA, "upcard": "AD"},
        {"ruleset": OKLAHOMA, "upcard": "2H"},
        {"ruleset": load_ruleset("straight-gin")},
        {"upcard": "AS"},
        {"upcard": "KC"},
        {"upcard": "QS QC"},
        {"knocker": "7H 8H 9H 4C 4D 4S 2S 3S AS 5C QS"},
        {"knocker": "7H 8H 9H TH 4C 4D 4S 2S 3S 4S", "defender": "KC QC JC 9C 9D 2D 3D AD AH 5S"},
        {"knocker": "KH QH JH KS QS JS KD QD JD 2C", "defender": OTHER.replace("KC QD KD", "AC 5S 6S")},
    ]
    for case in cases:
        arguments = {"knocker": HAND, "defender": OTHER, "ruleset": GIN, **case}
        yield lambda arguments=arguments: referee_knock(**arguments)  # type: ignore[arg-type]
    yield lambda: knock_limit(GIN.with_options({"knock_limit": "none"}), None)


def _openings() -> Iterator[Callable[[], object]]:
    for melds, layoffs in [
        ("9H TH JH | 4S 4D 4C", ""), ("9H TH JH | 4S 4D 4C", "5S 6D"), ("QH KH * | 7S 7D 7C", ""),
        ("", ""), ("", "5S"), ("9H TH JH", "*"), ("9H TH JH | 5H 5H 6H | 4S", ""), ("9H 9H 9H 9H 9H", ""),
        ("* * * * *", ""), ("5H 6H 7H | ", ""),
    ]:  # fmt: skip
        for ruleset in (KALOOKI, KALOOKI.with_options({"opening_counts_layoffs": "false"})):
            yield lambda melds=melds, layoffs=layoffs, ruleset=ruleset: check_opening(
                melds=melds, layoffs=layoffs, ruleset=ruleset
            )
    no_early = KALOOKI.with_options({"layoff_before_own_meld": "false"})
    yield lambda: check_opening(melds="", layoffs="5S", ruleset=no_early)
    for hand in ("5H 6H 7H 8H 2C 2D KS", "2C 5D 9S", "5H 5H 5H 5H 5H"):
        yield lambda hand=hand: best_opening(hand, KALOOKI)


def _tables() -> Iterator[Callable[[], object]]:
    cases = [
        ("5H 6H 7H | 9S 9D *=9C", "9C", "5H 6H 7H | 9S 9D 9C"),
        ("5H 6H 7H | 9S 9D *=9C", "9C 8H", "5H 6H 7H 8H * | 9S 9D 9C"),
        ("5H 6H 7H", "", "5H 6H 7H"),
        ("5H 6H 7H", "8H", "5H 6H 7H"),
        ("5H 6H 7H", "8H", "5H 6H 7H 8H 9H"),
        ("5H 6H 7H", "8H", "5H 6H | 7H 8H"),
        ("5H 6H 7H | 9S 9D 9C", "8H", "5H 6H 7H 8H | 9S 9D"),
        ("5H 6H 7H", "9H", "5H 6H 7H 9H"),
        ("5H 6H 8H", "9H", "5H 6H 8H 9H"),
        ("9S 9D *", "9C", "9S 9D 9C *"),
        ("5H *=6H 7H", "4S", "5H * 7H 4S"),
        ("5H 6H *=7H | 9S 9D *=9C", "8H", "5H 6H * 8H | 9S 9D *"),
        ("5H 6H *=7H | 9S 9D *=9C", "8D", "5H 6H *=7H | 9S 9D 8D *=9C"),
        ("5H 6H 7H", "5H 5H 5H", "5H 6H 7H 5H 5H 5H"),
    ]
    for before, from_hand, after in cases:
        for first in (False, True):
            yield lambda before=before, from_hand=from_hand, after=after, first=first: check_rearrangement(
                before=before, from_hand=from_hand, after=after, ruleset=CAROUSEL, first=first
            )
    yield lambda: check_rearrangement(before="", from_hand="5H 6H 7H", after="5H 6H 7H", ruleset=ROMMI)
    yield lambda: check_rearrangement(before="", from_hand="5H 6H 8H", after="5H 6H 8H", ruleset=CAROUSEL)
    yield lambda: check_rearrangement(
        before="5H 6H 7H", from_hand="8H 9H TH", after="5H 6H 7H | 8H 9H TH", ruleset=CAROUSEL, first=True
    )


def _deals() -> Iterator[Callable[[], object]]:
    two, four = NAMES[:2], NAMES
    hands_gin = {"Anna": HAND, "Bea": OTHER}
    entries: list[tuple[str, list[str], dict[str, object]]] = [
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 0}, "out": "Anna"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10}, "out": "Anna"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3, "Eve": 1}, "out": "Anna"}),
        ("rommi", four, {"points": {"Bea": -5, "Cid": 10, "Dan": 3}, "out": "Anna"}),
        ("rommi", four, {"points": {"Bea": "x", "Cid": 10, "Dan": 3}, "out": "Anna"}),
        ("rommi", four, {"points": {"Anna": 4, "Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna"}),
        ("rommi", four, {"hands": {"Anna": "5H", "Bea": "KS", "Cid": "2C", "Dan": "3D"}, "out": "Anna"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "ended": "stop"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "one_turn": True}),
        ("rommi", four, {"points": {"Anna": 1, "Bea": 5, "Cid": 10, "Dan": 3}, "ended": "block"}),
        ("rommi", four, {"points": {"Anna": 1, "Bea": 5, "Cid": 10, "Dan": 3}, "ended": "bogus"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "knocker": "Bea"}),
        ("rommi", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "dead": True}),
        ("rommi", four, {"points": {"Bea": 5}, "hands": {"Cid": "5H"}, "out": "Anna"}),
        ("rommi", four, {"hands": {"Anna": "", "Bea": "5H 5H 5H", "Cid": "5H", "Dan": "2C"}, "out": "Anna"}),
        ("rommi", four, {"hands": {"Anna": "", "Bea": "* * *", "Cid": "* * *", "Dan": "2C"}, "out": "Anna"}),
        ("gin", two, {"hands": {"Anna": "", "Bea": "5H 5H"}, "out": "Anna"}),
        (
            "rommi",
            four,
            {
                "hands": {"Anna": "", "Bea": "5H", "Cid": "2C", "Dan": "3D"},
                "out": "Anna",
                "melds": {"Bea": "5S 6S 7S"},
            },
        ),
        ("rommi-stop", four, {"points": {"Anna": 1, "Bea": 5, "Cid": 10, "Dan": 3}, "ended": "stop"}),
        ("basic-rummy", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "one_turn": True}),
        ("basic-rummy", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna"}),
        ("basic-rummy", four, {"points": {"Anna": 1, "Bea": 5, "Cid": 10, "Dan": 3}, "ended": "stop"}),
        ("block-rummy", four, {"points": {"Anna": 1, "Bea": 5, "Cid": 10, "Dan": 3}, "ended": "block"}),
        ("block-rummy", four, {"points": {"Anna": 1, "Bea": 1, "Cid": 10, "Dan": 3}, "ended": "block"}),
        (
            "block-rummy",
            four,
            {"points": {"Anna": 1, "Bea": 1, "Cid": 10, "Dan": 3}, "ended": "block"},
        ),
        ("kalooki", four, {"points": {"Bea": 5, "Cid": 10, "Dan": 3}, "out": "Anna", "one_turn": True}),
        (
            "kalooki",
            four,
            {"hands": {"Anna": "", "Bea": "5H 6H 7H 2C", "Cid": "KS", "Dan": "2D"}, "out": "Anna"},
        ),
        ("gin", two, {"knocker": "Anna", "hands": hands_gin}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 3}, "big_gin": True}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 11, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 4, "Bea": 3}, "big_gin": True}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 4}}),
        ("gin", two, {"knocker": "Anna"}),
        ("gin", two, {"deadwood": {"Anna": 4, "Bea": 3}}),
        ("gin", two, {"dead": True}),
        ("gin", two, {"dead": True, "knocker": "Anna"}),
        ("gin", two, {"knocker": "Anna", "points": {"Anna": 4, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "out": "Anna", "deadwood": {"Anna": 4, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "hands": hands_gin, "deadwood": {"Anna": 4, "Bea": 3}}),
        ("gin", two, {"knocker": "Anna", "hands": {"Anna": "7H 8H 9H", "Bea": OTHER}}),
        ("gin", two, {"knocker": "Anna", "hands": {"Anna": HAND, "Bea": "TH JH"}}),
        ("gin", two, {"knocker": "Anna", "hands": hands_gin, "big_gin": True}),
        ("gin", two, {"knocker": "Anna", "hands": {"Anna": "7H 8H 9H 4C 4D 4S 2S 3S AS KC", "Bea": OTHER}}),
        ("rommi", four, {"points": {"Bea": 9999, "Cid": 1, "Dan": 1}, "out": "Anna"}),
        ("gin", two, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 999}}),
        ("rommi", two, {"hands": {"Anna": "", "Bea": " ".join(["5H"] * 30)}, "out": "Anna"}),
        (
            "rommi",
            two,
            {
                "hands": {"Anna": "", "Bea": "5H"},
                "melds": {"Bea": " | ".join(["5S 6S 7S"] * 10)},
                "out": "Anna",
            },
        ),
        ("gin", two, {"knocker": "Anna", "hands": {"Anna": HAND, "Bea": "* " + OTHER[3:]}}),
        ("gin", two, {"knocker": "Anna", "hands": {"Anna": HAND, "Bea": OTHER.replace("TH", "7H")}}),
        ("rommi", four, {"hands": {"Anna": "", "Bea": "5H 5H", "Cid": "5H", "Dan": "2C"}, "out": "Anna"}),
        ("oklahoma-gin", two, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 3}, "upcard": "AD"}),
        ("oklahoma-gin", two, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 3}, "upcard": "AD 2D"}),
        ("carousel", four, {"points": {"Anna": 3, "Bea": 5, "Cid": 10, "Dan": 3}, "knocker": "Anna"}),
        ("carousel", four, {"points": {"Anna": 9, "Bea": 5, "Cid": 10, "Dan": 3}, "knocker": "Anna"}),
        ("carousel", four, {"points": {"Anna": 4, "Bea": 2, "Cid": 10, "Dan": 3}, "knocker": "Anna"}),
        ("carousel", four, {"points": {"Anna": 4, "Bea": 2, "Cid": 10, "Dan": 3}}),
        ("carousel", four, {"points": {"Anna": 4, "Bea": 2, "Cid": 10, "Dan": 3}, "ended": "stock_out"}),
        ("carousel", four, {"points": {"Anna": 4, "Bea": 2, "Cid": 10, "Dan": 3}, "ended": "block"}),
        ("carousel", four, {"points": {"Bea": 2, "Cid": 10, "Dan": 3}, "out": "Anna"}),
        ("carousel", four, {"points": {"Anna": 3, "Bea": 2, "Cid": 10, "Dan": 3}, "out": "Anna"}),
        (
            "carousel",
            four,
            {"points": {"Anna": 4, "Bea": 2, "Cid": 10, "Dan": 3}, "knocker": "Anna", "ended": "stock_out"},
        ),
    ]
    for ruleset_id, players, entry in entries:
        ruleset = load_ruleset(ruleset_id)
        yield lambda entry=entry, players=players, ruleset=ruleset: score_deal(
            Deal.build(**entry),  # type: ignore[arg-type]
            players=players,
            ruleset=ruleset,
        )


def _games() -> Iterator[Callable[[], object]]:
    yield lambda: Game(ROMMI, ("Anna", " "))
    yield lambda: Game(ROMMI, ("Anna", "Bea", "Anna"))
    yield lambda: Game(GIN, ("Anna", "Bea", "Cid"))
    yield lambda: Game(ROMMI, ("Anna", "Bea"), first_dealer=5)
    yield lambda: Game(ROMMI, ("Anna", "Bea")).replace_deal(3, Deal.build(points={"Bea": 3}, out="Anna"))
    short = GIN.with_options({"target": "10"})
    won = Game(short, ("Anna", "Bea")).add(Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 30}))
    yield lambda: won.add(Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 30}))
    yield lambda: Game(ROMMI, ("Anna", "Bea")).add(Deal.build(points={"Bea": 3}, out="Dan"))


def _rulesets_and_cards() -> Iterator[Callable[[], object]]:
    yield lambda: load_ruleset("no-such-rules")
    yield lambda: load_ruleset("gin", options={"name": "x"})
    yield lambda: load_ruleset("gin", options={"knoker": "3"})
    yield lambda: load_ruleset("missing/file.toml")
    for options in (
        {"knock_limit": "-3"},
        {"target": "abc", "knock_limit": "x", "undercut_bonus": "-1"},
        {"winner": "middle", "stop": "maybe"},
        {"cards_dealt": "2=x"},
        {"knock_limit_source": "moon"},
    ):
        yield lambda options=options: load_ruleset("gin", options=options)
    yield lambda: Solver(ROMMI).best("5H " * 2000)
    yield lambda: Solver(GIN).best_discard("")
    yield lambda: Solver(GIN).best("5H 6H Z")
    for text in ("5H 6H XQ", "5H 6", "5H 6H 7Z", "*=", "5H=6H", "*=QX", "AS 10h 6♥ *=7H 11S"):
        yield lambda text=text: Solver(ROMMI).best(text)


ASKS: list[Callable[[], object]] = [
    *_melds(),
    *_layoffs(),
    *_knocks(),
    *_openings(),
    *_tables(),
    *_deals(),
    *_games(),
    *_rulesets_and_cards(),
]


def engine_messages() -> list[str]:
    return sorted({message for ask in ASKS for message in said(ask)})


MESSAGES = engine_messages()

#: English words the engine uses that never appear in a Finnish sentence; the engine's own
#: field names (``one_turn``, ``knocker`` in brackets) and quoted input are left out first.
_ENGLISH_WORDS = (
    "a an the is are and or not of in at with for by has have holds needs least most cards card "
    "meld melds set run joker jokers hand hands deal player players points twice deck decks must "
    "cannot only no one say who went out scores score table opening layoff layoffs knocker defender "
    "knock knocked deadwood upcard over limit illegal legal invalid unknown missing rank suit "
    "consecutive lay off before after from stays stand stands lowest collects each every"
)
ENGLISH = frozenset(_ENGLISH_WORDS.split(" "))
RULESET_NAMES = sorted((r.name for r in all_rulesets()), key=len, reverse=True)


def english_left(finnish: str) -> set[str]:
    text = re.sub(r"'[^']*'", " ", finnish)  # quoted input, as typed
    text = text.split("tunnetut: ")[0]  # the option names a ruleset knows
    text = text.replace("A 2-10 T J Q K", " ")  # the rank letters, typed the engine's way
    text = text.replace("dead, deadwood, big_gin, upcard ja melds", " ").replace(
        "out, ended ja one_turn", " "
    )
    text = re.sub(r"\([a-z_]+\)", " ", text)  # the engine's field names: (knocker), (dead)
    for name in RULESET_NAMES:
        text = text.replace(name, " ")
    for name in NAMES:
        text = text.replace(name, " ")
    return {word for word in re.findall(r"[^\W\d]+", text) if word.lower() in ENGLISH}


def test_the_inputs_make_the_engine_say_many_things() -> None:
    assert len(MESSAGES) > 150


@pytest.mark.parametrize("message", MESSAGES)
def test_every_engine_message_is_translated_into_finnish(message: str) -> None:
    finnish = translate(message, "fi")
    assert finnish is not None, f"no Finnish for the engine message: {message!r}"
    assert finnish != message
    assert not english_left(finnish), f"English left in {finnish!r} (from {message!r})"


@pytest.mark.parametrize("message", MESSAGES)
def test_english_template_gives_the_engines_words_back(message: str) -> None:
    assert translate(message, "en") in (message, None) or _loose(message)


def _loose(message: str) -> bool:
    # A few patterns accept the engine's variants (is/are, joker/jokers) with one English text.
    english = translate(message, "en") or ""
    return re.sub(r"\b(is|are|jokers?|decks?)\b", "", english) == re.sub(
        r"\b(is|are|jokers?|decks?)\b", "", message
    )


def test_english_is_unchanged() -> None:
    for message in MESSAGES:
        assert engine_text(message, "en") == message


def test_an_unknown_message_falls_back_to_english() -> None:
    assert engine_text("the moon is made of cheese", "fi") == "the moon is made of cheese"
    assert translate("the moon is made of cheese", "fi") is None


def test_messages_inside_messages_are_translated() -> None:
    message = "deal 2: knocker: Anna's knock is illegal: not a run: QH KH AH (aces are low in gin rummy)"
    assert engine_text(message, "fi") == (
        "jako 2: koputtaja: pelaajan Anna koputus ei ole sallittu: "
        "ei ole suora: QH KH AH (ässät ovat pieniä pelissä gin rummy)"
    )


def test_several_problems_joined_are_each_translated() -> None:
    verdict = check_opening(melds="5H 5H 6H | 4S", ruleset=KALOOKI)
    assert verdict.reason is not None and "; meld 2: " in verdict.reason
    finnish = engine_text(verdict.reason, "fi")
    assert finnish.startswith("yhdistelmä 1: ei ole ")
    assert "; yhdistelmä 2: ei ole yhdistelmä: 4S" in finnish


def test_every_pattern_has_catalog_texts_with_its_groups() -> None:
    texts = catalog()
    for key, pattern in PATTERNS:
        for language in ("en", "fi"):
            text = texts[language].get(f"engine.{key}")
            assert text is not None, f"{language}: engine.{key} missing"
            assert placeholders(text) == set(pattern.groupindex), f"{language}: engine.{key}"


def test_every_engine_catalog_text_has_a_pattern() -> None:
    keys = {f"engine.{key}" for key, _ in PATTERNS}
    unused = [
        k
        for k in catalog()["en"]
        if k.startswith("engine.") and not k.startswith(("engine.word.", "engine.whose."))
    ]
    assert sorted(set(unused) - keys) == []


# -- every message text in the engine's source has a catalog text ---------------------------------

ENGINE_MODULES = (
    "cards",
    "deal",
    "game",
    "knock",
    "melds",
    "opening",
    "ruleset",
    "scoring",
    "solver",
    "table",
)
MESSAGE_CALLS = frozenset(
    {"fail", "MeldCheck", "LayoffCheck", "TableVerdict", "DealScore", "verdict", "append"}
)


def _message_literals(tree: ast.AST) -> Iterator[str]:
    """The literal parts of strings given to an error, a verdict, or returned as a reason."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            # A bare ValueError is a ruleset validator's, reported inside pydantic's own wording.
            if (name.endswith("Error") and name != "ValueError") or name in MESSAGE_CALLS:
                for argument in node.args:
                    yield from _parts(argument)
        elif isinstance(node, ast.Return) and node.value is not None:
            yield from _parts(node.value)


def _parts(node: ast.AST) -> Iterator[str]:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            yield inner.value
        elif isinstance(inner, ast.JoinedStr):
            for value in inner.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.value


def test_every_message_text_in_the_engine_source_is_in_the_catalog() -> None:
    templates = " ".join(
        "".join(literal for literal, _, _, _ in string.Formatter().parse(text))
        for key, text in catalog()["en"].items()
        if key.startswith("engine.")
    )
    missing: list[str] = []
    for module in ENGINE_MODULES:
        tree = ast.parse((ROOT / "scorer" / f"{module}.py").read_text(encoding="utf-8"))
        for literal in _message_literals(tree):
            # A field's name before the problem ("out: ...") has its own pattern.
            words = re.sub(r"^[a-z_]+: ", "", literal).strip(" ;:,()'")
            # Words of a sentence, not a separator, a card, a field value or a key.
            if len(words) >= 8 and " " in words and words not in templates:
                missing.append(f"{module}.py: {literal!r}")
    assert missing == []


#: Messages of the engine's opening check against the other players' melds (``onto``) and of
#: its named house rules, as that engine words them: translated before they reach the app.
LATER_MESSAGES = [
    "layoff 2C fits none of the melds on the table: 6D 7D 8D",
    "layoffs 9D 2C fit none of the melds on the table: none; "
    "meld 1: not a run: 5H 6H 8H (not consecutive: 7H missing)",
    "table meld 1 '5H 6H 8H' is not legal: not a run: 5H 6H 8H (not consecutive: 7H missing)",
    "6H 3 times in the melds, layoffs and table melds, and Kalooki plays with 2 decks",
    "the upcard * is a joker; Oklahoma gin has no jokers",
    "unknown ruleset 'gni'; did you mean 'gin'? known: gin, rommi",
    "unknown option 'knoker' for ruleset 'gin'; did you mean 'knocker'? "
    "(every option: 'rummy rulesets --options gin')",
    "unknown option 'zz' for ruleset 'gin' (every option: 'rummy rulesets --options gin')",
    "house rules 'high_ace' and 'low_ace' both set 'ace_points': choose one",
    "house rule 'high_ace' is for rummy and carousel games, not gin rummy",
    "house rule 'high_ace': 'maybe' is not one of true, false",
    "option cards_dealt: 'x' is not a table; write PLAYERS=NUMBER pairs, e.g. 2=10, 3=7",
]


#: Messages no input here reaches but the engine words: a deal's points beyond what every hand
#: together can cost, a game for one player.
UNREACHED_MESSAGES = [
    "points: 400 in all is more than the hands can cost together in rommi with 2 players (at most 300)",
    "players: 1 player, but gin rummy is for 2 players",
    "hands: 5H is the upcard and in Anna's hand twice, but gin rummy with 2 players plays with one deck",
]


@pytest.mark.parametrize("message", UNREACHED_MESSAGES)
def test_messages_no_input_here_reaches_are_translated(message: str) -> None:
    finnish = translate(message, "fi")
    assert finnish is not None, message
    assert not english_left(finnish), finnish
    assert translate(message, "en") == message


def _file_messages(folder: Path) -> list[str]:
    """What the engine says of a game file it cannot take: a folder, too big, not UTF-8, too deep."""
    from scorer.limits import MAX_DEPTH, read_document

    big = folder / "big.json"
    big.write_bytes(b" " * 100)
    latin = folder / "latin.json"
    latin.write_bytes(b'{"name": "\xe4"}')
    deep = folder / "deep.json"
    deep.write_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    broken = folder / "broken.json"
    broken.write_text("{")
    asks: list[Callable[[], object]] = [
        lambda: read_document(folder),
        lambda: read_document(big, limit=10),
        lambda: read_document(latin),
        lambda: read_document(deep),
        lambda: read_document(broken),
    ]
    return [message for ask in asks for message in said(ask)]


def test_messages_of_files_beyond_the_limits_are_translated(tmp_path: Path) -> None:
    messages = _file_messages(tmp_path)
    assert len(messages) == 5
    for message in messages:
        finnish = translate(message, "fi")
        assert finnish is not None, message
        # The JSON decoder's own description of the fault is quoted as it says it.
        decoder = re.sub(r"JSONia: .* rivillä", "JSONia: rivillä", finnish)
        assert not english_left(decoder), finnish


@pytest.mark.parametrize("message", LATER_MESSAGES)
def test_messages_of_the_opening_against_the_table_and_named_house_rules(message: str) -> None:
    finnish = translate(message, "fi")
    assert finnish is not None, message
    assert not english_left(finnish.replace("rummy ja carousel", "")), finnish


# -- the league store's messages, as the league and player screens show them -----------------------


def _store_errors() -> list[str]:
    """Messages the league store raises at what a club does on the league and player screens."""
    store = Store.memory()
    store.create_league("Friday")
    store.add_player("Anna")
    store.add_player("Bea")
    attempts: list[Callable[[], object]] = [
        lambda: store.create_league("Friday"),
        lambda: store.create_league("   "),
        lambda: store.create_league("x" * 101),
        lambda: store.new_season("Friday", "Season 1"),
        lambda: store.add_player("Anna"),
        lambda: store.rename_player("Bea", "O'Neil") and store.add_player("O'Neil"),
        lambda: store.merge_players("Anna", "Anna"),
        lambda: store.backup("/tmp"),
        lambda: store.restore_backup("/tmp/nothing.zip"),
    ]
    messages = []
    for attempt in attempts:
        with pytest.raises(ScorerError) as error:
            attempt()
        messages.append(str(error.value))
    return messages


def test_the_league_stores_messages_read_in_finnish() -> None:
    messages = _store_errors()
    assert messages[0] == "a league named 'Friday' already exists"
    finnish = [translate(message, "fi") for message in messages]
    assert None not in finnish, [m for m, f in zip(messages, finnish, strict=True) if f is None]
    assert finnish[:3] == [
        "liiga nimeltä 'Friday' on jo olemassa",
        "liiga tarvitsee nimen",
        "liiga: nimi 'xxxxxxxxxxxxxxxxxxxx'... on liian pitkä (enintään 100 merkkiä)",
    ]
    assert finnish[5] == 'pelaaja nimeltä "O\'Neil" on jo olemassa'
