"""The meld referee screen's state: what the player typed and what the engine said.

The model asks the engine and formats its answers; it decides nothing itself. Its methods
are plain Python, so tests call them with no Flet session; Flet components re-render when a
field changes because the model is an :class:`flet.Observable`.

>>> model = RefereeModel(ruleset_id="gin", cards="QH KH AH")
>>> model.check()
>>> model.verdict
'not a run: QH KH AH (aces are low in gin rummy)'
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from scorer.cards import format_cards, format_melds
from scorer.errors import ScorerError
from scorer.melds import check_meld
from scorer.ruleset import Ruleset, all_rulesets, bundled_ids, load_ruleset
from scorer.solver import best_arrangement
from scorer.ui.i18n import DEFAULT_LANGUAGE, Language, tr

DEFAULT_RULESET = "rommi"


@dataclass(frozen=True, slots=True)
class RulesetChoice:
    """One entry of the ruleset picker."""

    id: str
    name: str
    description: str


def ruleset_choices() -> tuple[RulesetChoice, ...]:
    """The bundled rulesets, in the engine's order, for the picker."""
    return tuple(RulesetChoice(r.id, r.name, r.description) for r in all_rulesets())


# eq=False: the model is mutable state shared by components, so it compares by identity
# (Flet matches subscriptions and hook values with ==).
@dataclass(eq=False)
class RefereeModel(ft.Observable):
    """State of the meld referee screen.

    ``verdict``, ``arrangement`` and ``error`` always describe the current ``cards`` and
    ruleset: changing either clears them, so the screen never shows an answer to a question
    that is no longer on it.
    """

    ruleset_id: str = DEFAULT_RULESET
    cards: str = ""
    verdict: str = ""
    arrangement: str = ""
    error: str = ""
    language: Language = DEFAULT_LANGUAGE

    # -- input -----------------------------------------------------------------------------

    def set_cards(self, text: str) -> None:
        if text != self.cards:
            self.cards = text
            self._clear()

    def choose_ruleset(self, ruleset_id: str) -> None:
        # Only a bundled id: load_ruleset() also reads a path, which a web client must not name.
        if ruleset_id != self.ruleset_id and ruleset_id in bundled_ids():
            self.ruleset_id = ruleset_id
            self._clear()

    # -- questions to the engine -----------------------------------------------------------

    def check(self) -> None:
        """Is ``cards`` one legal meld under the ruleset? Fills ``verdict`` or ``error``."""
        try:
            verdict = check_meld(self.cards, self._ruleset())
        except ScorerError as exc:
            self._fail(exc)
            return
        if not verdict.valid:
            self._answer(verdict=verdict.reason or "")
            return
        language = self.language
        kinds = tr("kinds_separator", language).join(tr(f"kind_{k}", language) for k in verdict.kinds)
        lines = [tr("legal_meld", language, kinds=kinds, meld=format_cards(verdict.meld))]
        for number, options in enumerate(verdict.joker_options, start=1):
            if len(options) > 1:
                lines.append(
                    tr(
                        "joker_options",
                        self.language,
                        number=number,
                        cards=format_cards(options),
                        example=options[0],
                    )
                )
        self._answer(verdict="\n".join(lines))

    def arrange(self) -> None:
        """The engine's best arrangement of ``cards``. Fills ``arrangement`` or ``error``."""
        try:
            best = best_arrangement(self.cards, self._ruleset())
        except ScorerError as exc:
            self._fail(exc)
            return
        none = tr("none", self.language)
        lines = [
            tr("melds_line", self.language, melds=format_melds(best.melds) or none),
            tr("deadwood_line", self.language, cards=format_cards(best.deadwood) or none),
            tr("deadwood_points", self.language, points=best.deadwood_points),
        ]
        self._answer(arrangement="\n".join(lines))

    @property
    def ruleset_description(self) -> str:
        """The chosen ruleset's one-line description, or '' if the id is unknown."""
        try:
            return self._ruleset().description
        except ScorerError:
            return ""

    # -- helpers ---------------------------------------------------------------------------

    def _ruleset(self) -> Ruleset:
        return load_ruleset(self.ruleset_id)

    def _answer(self, *, verdict: str | None = None, arrangement: str | None = None) -> None:
        # The other answer stays: both describe the same cards, since new cards clear them.
        if verdict is not None:
            self.verdict = verdict
        if arrangement is not None:
            self.arrangement = arrangement
        self.error = ""

    def _fail(self, exc: ScorerError) -> None:
        # The engine's message names the bad input; the cards text stays so it can be fixed.
        self.verdict = ""
        self.arrangement = ""
        self.error = str(exc)

    def _clear(self) -> None:
        self.verdict = ""
        self.arrangement = ""
        self.error = ""
