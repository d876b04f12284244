"""The referee screen's state: the question, what the players typed, and the engine's verdict.

Every question ``rummy`` answers can be asked here: is this a meld, a layoff, the best
arrangement (with a discard first), a gin knock, a Kalooki opening (or could this hand open),
a Carousel table change. The model asks the engine and keeps its verdict as the engine
returned it; :meth:`RefereeModel.answer` words it in a language, so switching language
re-words the verdict on screen without asking again. It decides nothing itself.

>>> model = RefereeModel(ruleset_id="gin")
>>> model.set_input("cards", "QH KH AH")
>>> model.ask()
>>> answer = model.answer("en")
>>> answer.legal, answer.headline, answer.lines[0]
(False, 'Not a legal meld', 'not a run: QH KH AH (aces are low in gin rummy)')
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

import flet as ft

from scorer.cards import Card, format_cards, parse_cards, parse_melds
from scorer.errors import RulesetError, ScorerError
from scorer.knock import KnockVerdict, referee_knock
from scorer.melds import LayoffCheck, MeldCheck, check_layoff, check_meld
from scorer.opening import OpeningVerdict, best_opening, check_opening
from scorer.ruleset import (
    Ruleset,
    all_rulesets,
    bundled_ids,
    load_ruleset,
    require_card_supply,
    require_hand_fits,
)
from scorer.ruleset_text import variant_description, variant_title
from scorer.solver import Arrangement, DiscardChoice, Solver
from scorer.table import TableVerdict, check_rearrangement
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr

Question = Literal["meld", "layoff", "arrange", "knock", "opening", "hand_opening", "table"]
QUESTIONS: Final[tuple[Question, ...]] = get_args(Question)

Input = Literal[
    "cards",
    "meld",
    "knocker",
    "defender",
    "declared",
    "upcard",
    "melds",
    "layoffs",
    "onto",
    "before",
    "from_hand",
    "after",
    "options",
]
INPUTS: Final[tuple[Input, ...]] = get_args(Input)

#: The typed inputs each question reads, in screen order.
QUESTION_INPUTS: Final[dict[Question, tuple[Input, ...]]] = {
    "meld": ("cards",),
    "layoff": ("meld", "cards"),
    "arrange": ("cards",),
    "knock": ("knocker", "defender", "declared", "upcard"),
    "opening": ("melds", "layoffs", "onto"),
    "hand_opening": ("cards",),
    "table": ("before", "from_hand", "after"),
}

#: Inputs that hold melds separated by ``|`` rather than cards.
MELD_INPUTS: Final = frozenset({"declared", "melds", "onto", "before", "after"})

DEFAULT_RULESET: Final = "rommi"
#: The ruleset a question switches to when the chosen one cannot answer it.
QUESTION_RULESET: Final[dict[Question, str]] = {
    "knock": "gin",
    "opening": "kalooki",
    "hand_opening": "kalooki",
    "table": "carousel",
}


def opening_checks_onto() -> bool:
    """Whether the engine's opening check takes the other players' melds (``onto=``)."""
    return "onto" in inspect.signature(check_opening).parameters


def house_rules(text: str) -> tuple[dict[str, str], str]:
    """House rules typed as ``NAME=VALUE`` pairs (``undercut_bonus=10, knock_limit=5``), and
    the first piece that is not one ('' when all are). The engine checks names and values.

    >>> house_rules("undercut_bonus=10, target=none")
    ({'undercut_bonus': '10', 'target': 'none'}, '')
    >>> house_rules("undercut_bonus 10")
    ({}, 'undercut_bonus')
    """
    options: dict[str, str] = {}
    for piece in re.split(r"[\s,;]+", text.strip()):
        if not piece:
            continue
        name, sep, value = piece.partition("=")
        if not sep or not name or not value:
            return {}, piece
        options[name] = value
    return options, ""


def display_name(ruleset: Ruleset) -> str:
    """The variant's name for a heading or a picker (``Gin rummy``); it remembers its message,
    so a screen shows it in its language (:func:`scorer.ruleset_text.variant_title`)."""
    return variant_title(ruleset)


def answers(question: Question, ruleset: Ruleset) -> bool:
    """Can ``ruleset`` answer ``question``? Knocks are gin's, openings Kalooki's, tables Carousel's."""
    if question == "knock":
        return ruleset.family == "gin"
    if question in ("opening", "hand_opening"):
        return ruleset.opening_minimum > 0
    if question == "table":
        return ruleset.table_manipulation
    return True


@dataclass(frozen=True, slots=True)
class RulesetChoice:
    """One entry of the ruleset picker."""

    id: str
    name: str
    description: str


def ruleset_choices(question: Question = "meld") -> tuple[RulesetChoice, ...]:
    """The bundled rulesets that can answer ``question``, in the engine's order."""
    return tuple(
        RulesetChoice(r.id, display_name(r), r.description) for r in all_rulesets() if answers(question, r)
    )


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of an answer: the knocker's side, the table after, ..."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    """The engine's verdict in words. ``legal`` is ``None`` for an answer that is no verdict
    (the best arrangement); ``lines[0]`` is the reason or the summary."""

    legal: bool | None
    headline: str
    lines: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True, slots=True)
class Asked:
    """A question put to the engine and its reply: a verdict object, or the input's fault."""

    question: Question
    verdict: object = None
    error: str = ""
    #: An opening's layoffs were checked against the other players' melds.
    onto_checked: bool = False
    #: A house rule typed without NAME=VALUE.
    bad_option: str = ""
    #: The error is in the house rules (or the ruleset), not in the cards.
    rules_error: bool = False


# eq=False: the model is mutable state shared by components, so it compares by identity
# (Flet matches subscriptions and hook values with ==).
@dataclass(eq=False)
class RefereeModel(ft.Observable):
    """State of the referee screen.

    ``asked`` always answers the inputs on screen: changing the question, the ruleset, an
    input or a switch clears it, so the screen never shows an answer to another question.
    """

    question: Question = "meld"
    ruleset_id: str = DEFAULT_RULESET
    inputs: dict[str, str] = field(default_factory=lambda: dict.fromkeys(INPUTS, ""))
    discard_first: bool = False
    first_meld: bool = False
    asked: Asked | None = None

    # -- input -----------------------------------------------------------------------------

    def choose_question(self, question: str) -> None:
        for known in QUESTIONS:
            if question == known and question != self.question:
                self.question = known
                if not answers(known, self._ruleset_or_none() or load_ruleset(DEFAULT_RULESET)):
                    self.ruleset_id = QUESTION_RULESET.get(known, DEFAULT_RULESET)
                self.asked = None

    def choose_ruleset(self, ruleset_id: str) -> None:
        # Only a bundled id: load_ruleset() also reads a path, which a web client must not name.
        if ruleset_id != self.ruleset_id and ruleset_id in bundled_ids():
            self.ruleset_id = ruleset_id
            self.asked = None

    def set_input(self, name: str, text: str) -> None:
        if name in self.inputs and self.inputs[name] != text:
            # A new dict: observers see the field change.
            self.inputs = {**self.inputs, name: text}
            self.asked = None

    def set_discard_first(self, value: bool) -> None:
        if value != self.discard_first:
            self.discard_first = value
            self.asked = None

    def set_first_meld(self, value: bool) -> None:
        if value != self.first_meld:
            self.first_meld = value
            self.asked = None

    @property
    def cards(self) -> str:
        return self.inputs["cards"]

    @property
    def shown_inputs(self) -> tuple[Input, ...]:
        """The inputs the current question reads; the upcard only where the ruleset uses one."""
        shown = QUESTION_INPUTS[self.question]
        ruleset = self._ruleset_or_none()
        if "upcard" in shown and (ruleset is None or ruleset.knock_limit_source != "upcard"):
            shown = tuple(name for name in shown if name != "upcard")
        # Every question may be asked under house rules, as rummy's --option does.
        return (*shown, "options")

    @property
    def ruleset_description(self) -> str:
        """The chosen ruleset's one-line description, or '' if the id is unknown."""
        ruleset = self._ruleset_or_none()
        return variant_description(ruleset) if ruleset else ""

    # -- the question to the engine ----------------------------------------------------------

    def ask(self) -> None:
        """Put the current question to the engine and keep its reply in ``asked``."""
        question = self.question
        options, bad = house_rules(self.inputs["options"])
        if bad:
            self.asked = Asked(question, bad_option=bad)
            return
        try:
            verdict = self._ask(question, load_ruleset(self.ruleset_id, options=options))
        except ScorerError as exc:
            # The engine's message names the bad input; the inputs stay so it can be fixed.
            self.asked = Asked(question, error=str(exc), rules_error=isinstance(exc, RulesetError))
            return
        self.asked = Asked(question, verdict, onto_checked=question == "opening" and self._onto_given())

    def _fits(self, question: Question, ruleset: Ruleset) -> None:
        """Refuse, as ``rummy`` does, more cards than a hand in a turn (or a meld) holds, or
        than the decks hold: the referee answers about no larger hand, and a search over one
        could take minutes."""
        text = self.inputs
        if question == "meld":
            require_hand_fits(parse_cards(text["cards"]), ruleset, what="meld", meld=True)
        elif question == "layoff":
            require_hand_fits(parse_cards(text["meld"]), ruleset, what="meld", meld=True)
            require_hand_fits(parse_cards(text["cards"]), ruleset, what="cards")
        elif question == "arrange":
            hand = parse_cards(text["cards"])
            require_hand_fits(hand, ruleset, what="cards")
            # The search takes any cards; the other questions' engine checks count them itself.
            require_card_supply(hand, ruleset, where="in the hand")
        elif question == "knock":
            require_hand_fits(parse_cards(text["knocker"]), ruleset, what="knocker")
            require_hand_fits(parse_cards(text["defender"]), ruleset, what="defender")
        elif question == "opening":
            cards = [c for m in parse_melds(text["melds"]) for c in m] + list(parse_cards(text["layoffs"]))
            require_hand_fits(cards, ruleset, what="melds and layoffs")
        elif question == "hand_opening":
            require_hand_fits(parse_cards(text["cards"]), ruleset, what="hand")

    def _onto_given(self) -> bool:
        # Without the other players' melds the engine takes the layoffs as stated.
        return opening_checks_onto() and bool(self.inputs["onto"].strip())

    def _ask(self, question: Question, ruleset: Ruleset) -> object:
        text = self.inputs
        self._fits(question, ruleset)
        if question == "meld":
            return check_meld(text["cards"], ruleset)
        if question == "layoff":
            return check_layoff(text["meld"], text["cards"], ruleset)
        if question == "arrange":
            solver = Solver(ruleset)
            hand = parse_cards(text["cards"])
            return solver.best_discard(hand) if self.discard_first else solver.best(hand)
        if question == "knock":
            return referee_knock(
                knocker=text["knocker"],
                defender=text["defender"],
                ruleset=ruleset,
                melds=text["declared"] if text["declared"].strip() else None,
                upcard=text["upcard"] if "upcard" in self.shown_inputs and text["upcard"].strip() else None,
            )
        if question == "opening":
            check: Callable[..., OpeningVerdict] = check_opening
            extra: dict[str, Any] = {"onto": text["onto"]} if self._onto_given() else {}
            return check(melds=text["melds"], layoffs=text["layoffs"], ruleset=ruleset, **extra)
        if question == "hand_opening":
            return best_opening(text["cards"], ruleset)
        return check_rearrangement(
            before=text["before"],
            from_hand=text["from_hand"],
            after=text["after"],
            ruleset=ruleset,
            first=self.first_meld,
        )

    # -- the reply in words --------------------------------------------------------------------

    def answer(self, language: Language) -> Answer | None:
        """The reply to the last question in ``language``, or ``None`` before one is asked."""
        asked = self.asked
        if asked is None:
            return None
        if asked.bad_option:
            line = tr("referee.bad_option", language, text=asked.bad_option)
            return Answer(False, tr("referee.bad_rules", language), (line,))
        if asked.error:
            headline = tr("referee.bad_rules" if asked.rules_error else "referee.bad_input", language)
            return Answer(False, headline, (engine_text(asked.error, language),))
        return _word(asked, language=language)

    def _ruleset_or_none(self) -> Ruleset | None:
        try:
            return load_ruleset(self.ruleset_id)
        except ScorerError:
            return None


# -- wording each verdict -------------------------------------------------------------------------


def _word(asked: Asked, *, language: Language) -> Answer:
    verdict = asked.verdict
    if isinstance(verdict, MeldCheck):
        return _meld(verdict, language)
    if isinstance(verdict, LayoffCheck):
        return _layoff(verdict, language)
    if isinstance(verdict, (Arrangement, DiscardChoice)):
        return _arrangement(verdict, language)
    if isinstance(verdict, KnockVerdict):
        return _knock(verdict, language)
    if isinstance(verdict, OpeningVerdict):
        return _opening(
            verdict, language, hand=asked.question == "hand_opening", onto_checked=asked.onto_checked
        )
    if isinstance(verdict, TableVerdict):
        return _table(verdict, language)
    raise TypeError(f"no wording for {type(verdict).__name__}")


def _none(cards: Iterable[Card], language: Language) -> str:
    return format_cards(cards) or tr("none", language)


def _melds(melds: Iterable[Iterable[Card]], language: Language) -> str:
    return " | ".join(format_cards(m) for m in melds) or tr("none", language)


def _reason(reason: str | None, language: Language) -> str:
    return engine_text(reason or "", language)


def _meld(verdict: MeldCheck, language: Language) -> Answer:
    if not verdict.valid:
        return Answer(False, tr("referee.meld_illegal", language), (_reason(verdict.reason, language),))
    kinds = tr("kinds_separator", language).join(tr(f"kind_{k}", language) for k in verdict.kinds)
    lines = [tr("legal_meld", language, kinds=kinds, meld=format_cards(verdict.meld))]
    for number, options in enumerate(verdict.joker_options, start=1):
        if len(options) > 1:
            lines.append(
                tr("joker_options", language, number=number, cards=format_cards(options), example=options[0])
            )
    return Answer(True, tr("referee.meld_legal", language), tuple(lines))


def _layoff(verdict: LayoffCheck, language: Language) -> Answer:
    if not verdict.valid:
        return Answer(False, tr("referee.layoff_illegal", language), (_reason(verdict.reason, language),))
    lines = [tr("referee.layoff_result", language, meld=format_cards(verdict.result))]
    if verdict.freed_jokers:
        lines.append(tr("referee.freed_jokers", language, count=verdict.freed_jokers))
    return Answer(True, tr("referee.layoff_legal", language), tuple(lines))


def _arrangement(verdict: Arrangement | DiscardChoice, language: Language) -> Answer:
    lines: list[str] = []
    best = verdict.arrangement if isinstance(verdict, DiscardChoice) else verdict
    if isinstance(verdict, DiscardChoice):
        lines.append(tr("referee.discard_line", language, card=str(verdict.discard)))
    lines += [
        tr("melds_line", language, melds=_melds(best.melds, language)),
        tr("deadwood_line", language, cards=_none(best.deadwood, language)),
        tr("deadwood_points", language, points=best.deadwood_points),
    ]
    return Answer(None, tr("arrange_button", language), tuple(lines))


def _knock(verdict: KnockVerdict, language: Language) -> Answer:
    knocker, defender = verdict.knocker, verdict.defender
    knocker_lines = [
        tr("melds_line", language, melds=_melds(knocker.melds, language)),
        tr(
            "referee.deadwood_with_points",
            language,
            cards=_none(knocker.deadwood, language),
            points=knocker.deadwood_points,
        ),
    ]
    defender_lines = [
        tr(
            "referee.lays_off",
            language,
            cards=format_cards(lay.cards),
            meld=format_cards(knocker.melds[lay.meld]),
        )
        for lay in defender.layoffs
    ]
    defender_lines += [
        tr("melds_line", language, melds=_melds(defender.melds, language)),
        tr(
            "referee.deadwood_with_points",
            language,
            cards=_none(defender.deadwood, language),
            points=defender.deadwood_points,
        ),
    ]
    sections = (
        Section(tr("referee.knocker_side", language), tuple(knocker_lines)),
        Section(tr("referee.defender_side", language), tuple(defender_lines)),
    )
    if not verdict.legal:
        return Answer(
            False, tr("referee.knock_illegal", language), (_reason(verdict.reason, language),), sections
        )
    outcome = tr(f"referee.outcome_{verdict.outcome}", language)
    winner = tr(f"referee.role_{verdict.winner}", language)
    summary = tr("referee.knock_scores", language, outcome=outcome, winner=winner, points=verdict.points)
    return Answer(True, tr("referee.knock_legal", language), (summary,), sections)


def _opening(verdict: OpeningVerdict, language: Language, *, hand: bool, onto_checked: bool) -> Answer:
    value = tr("referee.opening_value", language, value=verdict.value, required=verdict.required)
    lines = [value]
    if not verdict.valid:
        reason = _reason(verdict.reason, language)
        # The engine's reason may already give the value ("opening worth 41, ...").
        lines = [reason] if str(verdict.value) in reason else [reason, value]
    sections = [Section(tr("referee.opening_melds", language), tuple(format_cards(m) for m in verdict.melds))]
    if verdict.layoffs:
        if onto_checked:
            # Where each layoff went: the engine's placement, by the other players' meld number.
            placed: tuple[int | None, ...] = getattr(verdict, "layoff_onto", ())
            laid = tuple(
                tr("referee.laid_on", language, card=str(card), number=where + 1)
                if where is not None
                else tr("referee.laid_nowhere", language, card=str(card))
                for card, where in zip(verdict.layoffs, placed, strict=False)
            ) or (format_cards(verdict.layoffs),)
        else:
            laid = (format_cards(verdict.layoffs), tr("referee.layoffs_unchecked", language))
        sections.append(Section(tr("referee.opening_layoffs", language), laid))
    key = (
        ("referee.hand_opens" if verdict.valid else "referee.hand_no_open")
        if hand
        else ("referee.opens" if verdict.valid else "referee.no_open")
    )
    return Answer(verdict.valid, tr(key, language), tuple(lines), tuple(s for s in sections if s.lines))


def _table(verdict: TableVerdict, language: Language) -> Answer:
    if not verdict.valid:
        return Answer(False, tr("referee.table_illegal", language), (_reason(verdict.reason, language),))
    after = Section(tr("referee.table_after", language), tuple(format_cards(m) for m in verdict.melds))
    return Answer(True, tr("referee.table_legal", language), (), (after,))
