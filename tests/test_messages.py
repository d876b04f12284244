"""Messages as values: every message has a code, a text in English and in Finnish, and the
same parameters in both; nothing the engine, the store or the command line says is a bare string.

A broad set of inputs (the engine tests' own cases, and more) makes the engine speak: each
message is a :class:`~scorer.messages.Message`, every code and word in it has a text in both
catalogs, its English is the engine's wording, and its Finnish has no English left. A scan of
the source finds any error raised with a plain string, and any code with no catalog text.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorer.deal import Deal
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.knock import knock_limit, referee_knock
from scorer.league.store import Store
from scorer.melds import check_layoff, check_meld
from scorer.messages import (
    LANGUAGES,
    Join,
    Message,
    Text,
    Whose,
    Word,
    catalog,
    environment_language,
    message_of,
    placeholders,
    render,
)
from scorer.opening import best_opening, check_opening
from scorer.ruleset import all_rulesets, load_ruleset
from scorer.scoring import score_deal
from scorer.solver import Solver
from scorer.table import check_rearrangement
from scorer.ui.engine_text import APP_WORDS, engine_text

ROOT = Path(__file__).resolve().parent.parent
GIN = load_ruleset("gin")
KALOOKI = load_ruleset("kalooki")
CAROUSEL = load_ruleset("carousel")
ROMMI = load_ruleset("rommi")
OKLAHOMA = load_ruleset("oklahoma-gin")
HAND = "7H 8H 9H 4C 4D 4S 2S 3S AS 5C"
OTHER = "TH JH 6H KC QD KD 9C 9D 2D 3D"
NAMES = ["Anna", "Bea", "Cid", "Dan"]


def said(ask: Callable[[], object]) -> list[Message]:
    """What the engine says: the error it raises, or the reason and events in its verdict.

    Every error is a ScorerError carrying a Message, and every verdict's reason and every
    event is one: a bare string fails here.
    """
    try:
        verdict = ask()
    except ScorerError as exc:
        assert isinstance(exc.message, Message), f"a bare message: {exc!r}"
        assert isinstance(str(exc), Text) and str(exc) == render(exc.message, "en")
        return [exc.message]
    found: list[object] = [getattr(verdict, "message", None), *getattr(verdict, "messages", ())]
    for text in (getattr(verdict, "reason", None), *getattr(verdict, "events", ())):
        assert text is None or message_of(text) is not None, f"a bare string in a verdict: {text!r}"
    assert all(m is None or isinstance(m, Message) for m in found), found
    return [m for m in found if isinstance(m, Message)]


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


def engine_messages() -> list[Message]:
    found: dict[str, Message] = {}
    for ask in ASKS:
        for message in said(ask):
            found.setdefault(str(message), message)
    return [found[text] for text in sorted(found)]


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


def parts(message: Message) -> Iterator[Message | Word | Whose]:
    """The message, and every message and word inside it, however deep."""
    yield message
    stack: list[object] = list(message.params.values())
    while stack:
        value = stack.pop()
        if isinstance(value, Message):
            yield value
            stack.extend(value.params.values())
        elif isinstance(value, Word | Whose):
            yield value
        elif isinstance(value, Join):
            stack.extend(value.items)


def require_catalog_texts(message: Message) -> None:
    """Every code and word in ``message`` has a text in every language, with its parameters."""
    for part in parts(message):
        for language in LANGUAGES:
            if isinstance(part, Message):
                text = catalog(language).get(part.code)
                assert text is not None, f"{language}: no text for {part.code!r}"
                assert placeholders(text) == set(part.params), f"{language}: {part.code} {set(part.params)}"
                # The escape hatch for a library's words that reached a person untranslated.
                assert part.code != "doc.library", f"untranslated library words: {part!r}"
            else:
                assert part.key in catalog(language), f"{language}: no text for the word {part.key!r}"


def test_the_inputs_make_the_engine_say_many_things() -> None:
    assert len(MESSAGES) > 150


@pytest.mark.parametrize("message", MESSAGES, ids=str)
def test_every_engine_message_has_a_code_and_reads_in_finnish(message: Message) -> None:
    require_catalog_texts(message)
    finnish = render(message, "fi")
    assert finnish != str(message)
    assert not english_left(finnish), f"English left in {finnish!r} (from {str(message)!r})"


def _in_app_words(message: Message) -> bool:
    """Whether the app says ``message`` (or a message inside it) in its own words: the engine
    names a game file's fields, the app its controls (scorer.ui.engine_text.APP_WORDS)."""
    return message.code in APP_WORDS or any(
        isinstance(v, Message) and _in_app_words(v) for v in message.params.values()
    )


def test_english_is_rendered_from_the_catalog_and_shown_unchanged() -> None:
    for message in MESSAGES:
        assert render(message, "en") == str(message)
        if not _in_app_words(message):
            assert engine_text(str(message), "en") == str(message)


def test_a_plain_string_is_shown_as_it_is() -> None:
    assert engine_text("the moon is made of cheese", "fi") == "the moon is made of cheese"
    assert render("the moon is made of cheese", "fi") == "the moon is made of cheese"


def test_the_text_of_an_error_remembers_its_message() -> None:
    with pytest.raises(ScorerError) as error:
        Solver(GIN).best("5H XQ")
    text = str(error.value)
    assert text == "invalid card 'XQ' at position 2: rank must be one of A 2-10 T J Q K"
    assert message_of(text) == error.value.message and error.value.message.code == "card.bad_card"
    assert engine_text(text, "fi") == engine_text(error.value, "fi") == render(error.value.message, "fi")
    assert engine_text(text, "fi").startswith("virheellinen kortti 'XQ' kohdassa 2")


def test_messages_inside_messages_are_rendered_in_the_same_language() -> None:
    game = Game(GIN, ("Anna", "Bea"))
    bad = Deal.build(
        knocker="Anna",
        hands={"Anna": "QH KH AH 4C 4D 4S 2S 3S 5S 5C", "Bea": OTHER},
        melds={"Anna": "QH KH AH"},
    )
    with pytest.raises(ScorerError) as error:
        game.add(Deal.build(dead=True)).add(bad)
    message = error.value.message
    assert str(message) == (
        "deal 2: knocker: Anna's knock is illegal: not a run: QH KH AH (aces are low in gin rummy)"
    )
    assert [part.code for part in parts(message) if isinstance(part, Message)][:3] == [
        "deal.deal_number",
        "deal.field",
        "deal.knock_illegal",
    ]
    assert render(message, "fi") == (
        "jako 2: koputtaja: pelaajan Anna koputus ei ole sallittu: "
        "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)"
    )


def test_several_problems_joined_are_each_rendered() -> None:
    verdict = check_opening(melds="5H 5H 6H | 4S", ruleset=KALOOKI)
    assert verdict.reason is not None and "; meld 2: " in verdict.reason
    finnish = engine_text(verdict.reason, "fi")
    assert finnish.startswith("yhdistelmä 1: ei ole ")
    assert "; yhdistelmä 2: ei ole yhdistelmä: 4S" in finnish


def test_a_message_as_json_is_its_code_and_parameters() -> None:
    reason = check_meld("QH KH AH", GIN).message
    assert reason is not None
    assert reason.to_json() == {
        "code": "meld.not_a",
        "params": {
            "kind": "run",
            "cards": "QH KH AH",
            "why": {"code": "meld.ace_low", "params": {"name": "gin rummy"}},
        },
    }


# -- the catalogs ---------------------------------------------------------------------------------


def test_every_code_has_a_text_in_both_languages_with_the_same_parameters() -> None:
    english, finnish = catalog("en"), catalog("fi")
    assert sorted(set(english) ^ set(finnish)) == []
    differ = [code for code in english if placeholders(english[code]) != placeholders(finnish[code])]
    assert differ == []


def test_the_catalogs_are_one_file_per_language_in_the_package() -> None:
    for language in LANGUAGES:
        data = tomllib.loads((ROOT / "scorer" / "locales" / f"{language}.toml").read_text("utf-8"))
        assert all(isinstance(table, dict) for table in data.values())


def _python_files() -> list[Path]:
    return sorted((ROOT / "scorer").rglob("*.py"))


def _codes_in_source() -> Iterator[tuple[Path, str]]:
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) in {"Message", "Said"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                yield path, node.args[0].value


def test_every_code_the_source_names_has_a_catalog_text() -> None:
    found = list(_codes_in_source())
    assert len(found) > 300
    missing = [f"{path.relative_to(ROOT)}: {code}" for path, code in found if code not in catalog("en")]
    assert missing == []


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _scorer_errors() -> frozenset[str]:
    """The names of every error that says something to a person: the ScorerError family
    (a broken catalog, an internal invariant, a builtin's own error are not in it)."""
    import scorer.cli
    import scorer.league.store
    import scorer.ui.screens.exchange_model
    import scorer.ui.serve  # noqa: F401  (the app's errors: its access code, its port)

    return frozenset({"ScorerError", "error", *(cls.__name__ for cls in _subclasses(ScorerError))})


_ERRORS = _scorer_errors()


def _bare_raises(tree: ast.AST) -> Iterator[ast.Raise]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in _ERRORS or not node.exc.args:
            continue
        first = node.exc.args[0]
        if isinstance(first, ast.JoinedStr) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str)
        ):
            yield node


def test_no_error_is_raised_with_a_plain_string() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _python_files()
        for node in _bare_raises(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bare == []


def test_the_static_check_finds_a_plain_string() -> None:
    tree = ast.parse('raise IllegalPlayError(f"not a run: {cards}")\nraise RulesetError("no")\n')
    assert len(list(_bare_raises(tree))) == 2
    assert list(_bare_raises(ast.parse('raise IllegalPlayError(Message("meld.not_a"))'))) == []


# -- messages the inputs above do not reach ---------------------------------------------------------


def _unreached() -> list[Message]:
    """Messages no input here reaches but the engine says: built as the engine builds them."""
    return [
        Message(
            "deal.field",
            field=Word("points"),
            rest=Message("deal.points_over_all", total=400, name="rommi", players=2, most=300),
        ),
        Message(
            "deal.field",
            field=Word("players"),
            rest=Message("game.player_count_one", name="gin rummy", allowed="2"),
        ),
    ]


@pytest.mark.parametrize("message", _unreached(), ids=str)
def test_messages_no_input_here_reaches_read_in_finnish(message: Message) -> None:
    require_catalog_texts(message)
    assert not english_left(render(message, "fi"))


def _file_messages(folder: Path) -> list[Message]:
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


def test_messages_of_files_beyond_the_limits_read_in_finnish(tmp_path: Path) -> None:
    messages = _file_messages(tmp_path)
    assert len(messages) == 5
    assert str(messages[1]).startswith("game file '")
    assert str(messages[1]).endswith(" is 100 bytes; a game file is at most 10 bytes")
    for message in messages:
        require_catalog_texts(message)
        # The JSON decoder's own description of the fault is quoted as it says it.
        finnish = re.sub(r"JSONia: .* rivillä", "JSONia: rivillä", render(message, "fi"))
        assert not english_left(finnish), finnish


def _later() -> Iterator[Callable[[], object]]:
    """The opening against the table, and named house rules."""
    yield lambda: check_opening(melds="KS KH KD | 6C 7C 8C", layoffs="2C", onto="6D 7D 8D", ruleset=KALOOKI)
    yield lambda: check_opening(melds="5H 6H 8H", layoffs="9D 2C", onto="", ruleset=KALOOKI)
    yield lambda: check_opening(melds="KS KH KD", layoffs="9D", onto="5H 6H 8H", ruleset=KALOOKI)
    yield lambda: check_opening(melds="6H 6H 6H", layoffs="6H", onto="6H 7H 8H", ruleset=KALOOKI)
    yield lambda: referee_knock(
        knocker=HAND, defender=OTHER, ruleset=OKLAHOMA.with_options({"jokers_per_deck": "0"}), upcard="*"
    )
    yield lambda: load_ruleset("gni")
    yield lambda: load_ruleset("gin", options={"zz": "1"})
    yield lambda: load_ruleset("rommi", options={"high_ace": "true", "low_ace": "true"})
    yield lambda: load_ruleset("gin", options={"high_ace": "true"})
    yield lambda: load_ruleset("rommi", options={"high_ace": "maybe"})
    yield lambda: load_ruleset("gin", options={"cards_dealt": "x"})


@pytest.mark.parametrize("ask", list(_later()))
def test_messages_of_the_opening_against_the_table_and_named_house_rules(ask: Callable[[], object]) -> None:
    messages = said(ask)
    assert messages
    for message in messages:
        require_catalog_texts(message)
        assert not english_left(render(message, "fi").replace("rummy ja carousel", "")), str(message)


# -- the league store's messages ------------------------------------------------------------------


def _store_errors(tmp_path: Path) -> list[ScorerError]:
    """What the league store raises at what a club does on the league and player screens."""
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
        lambda: store.backup(tmp_path),
        lambda: store.replace_from_backup(tmp_path / "nothing.zip"),
        lambda: store.league("Saturday"),
        lambda: store.game("zz"),
        lambda: store.import_files("Friday", []),
    ]
    errors = []
    for attempt in attempts:
        with pytest.raises(ScorerError) as error:
            attempt()
        errors.append(error.value)
    return errors


def test_the_league_stores_messages_read_in_finnish(tmp_path: Path) -> None:
    errors = _store_errors(tmp_path)
    assert str(errors[0]) == "a league named 'Friday' already exists"
    for error in errors:
        require_catalog_texts(error.message)
        assert error.message.code.startswith("store."), error.message
    finnish = [render(error.message, "fi") for error in errors]
    assert finnish[:3] == [
        "liiga nimeltä 'Friday' on jo olemassa",
        "liiga tarvitsee nimen",
        "liiga: nimi 'xxxxxxxxxxxxxxxxxxxx'... on liian pitkä (enintään 100 merkkiä)",
    ]
    assert finnish[5] == 'pelaaja nimeltä "O\'Neil" on jo olemassa'


def test_a_damaged_store_file_is_said_with_its_problem_as_a_value(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.create_league("Friday")
    for name in ("facts.jsonl", "facts-copy.jsonl"):  # both copies: nothing to read the store from
        log = tmp_path / name
        log.write_bytes(b"x" + log.read_bytes()[1:])
    with pytest.raises(ScorerError) as error:
        Store.open(tmp_path).leagues()
    message = error.value.message
    assert message.code == "store.damaged_file"
    assert message.params["problem"] == Message("store.problem_log_head")
    assert "(its first line, which names the store, is damaged)" in str(message)
    assert "(sen ensimmäinen rivi, joka nimeää tallennuksen, on vioittunut)" in render(message, "fi")
    problems = Store.verify(tmp_path)
    assert problems and all(isinstance(p.message, Message) for p in problems)
    assert problems[0].to_dict()["code"].startswith("store.problem_")


# -- the language a command line asks for --------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "fi_FI"}, "fi"),
        ({"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}, "en"),
        ({"LC_ALL": "fi", "RUMMY_LANG": "en"}, "en"),
        ({"RUMMY_LANG": "fi-FI"}, "fi"),
        ({"RUMMY_LANG": "sv"}, "en"),
    ],
)
def test_the_environment_chooses_the_language(environ: dict[str, str], language: str) -> None:
    assert environment_language(environ) == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fast_catalog_reader_reads_what_toml_reads(language: str) -> None:
    from scorer.messages import read_catalog, read_plain_catalog

    text = (ROOT / "scorer" / "locales" / f"{language}.toml").read_text(encoding="utf-8")
    assert read_plain_catalog(text) == read_catalog(text, name=language) == catalog(language)  # type: ignore[arg-type]


def test_a_catalog_line_outside_the_plain_form_is_read_as_toml() -> None:
    from scorer.messages import read_plain_catalog

    for text in ('[card]\nbad = """two\nlines"""\n', 'bad = "no area"\n', '[card]\nx = "\\U0001F0A1"\n'):
        with pytest.raises(ValueError):
            read_plain_catalog(text)


def test_a_text_keeps_its_message_when_copied_or_pickled() -> None:
    import copy
    import pickle

    text = check_meld("QH KH AH", GIN).reason
    assert text is not None and message_of(text) is not None
    for again in (copy.copy(text), copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert again == text and message_of(again) == message_of(text)
        assert engine_text(again, "fi").startswith("ei ole suora")
