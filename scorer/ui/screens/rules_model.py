"""The Rules screen's state and wording: a variant in short, and every house rule's value.

Everything comes from the bundled rulesets (the numbers are the ruleset's fields, never
written here) and the catalogs' words for them (:mod:`scorer.ruleset_text`); the model only
chooses the variant and words its fields in a language.

>>> model = RulesModel(ruleset_id="gin")
>>> dict(model.summary("en"))["Knocking"]
'with 10 or less deadwood'
>>> dict((row.key, row.value) for row in model.house_rules("fi"))["undercut_on_tie"]
'kyllä'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import flet as ft
from pydantic_core import PydanticUndefined

from scorer.messages import render
from scorer.options import ruleset_options
from scorer.ruleset import Ruleset, all_rulesets, bundled_ids, load_ruleset
from scorer.ruleset_text import option_label, value_text, variant_title
from scorer.ui.i18n import DEFAULT_LANGUAGE, Language, tr

DEFAULT_RULESET: Final = "rommi"


def _field_defaults() -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for name, info in Ruleset.model_fields.items():
        default = None if info.default is PydanticUndefined else info.default
        if info.default_factory is not None:
            default = info.default_factory()  # type: ignore[call-arg]
        defaults[name] = default
    return defaults


@dataclass(frozen=True, slots=True)
class RuleRow:
    """A house rule as the screen shows it: the option name, its label and meaning, its value."""

    key: str
    label: str
    meaning: str
    value: str
    changed: bool  # the variant's own value, not the field's default


@dataclass(frozen=True, slots=True)
class VariantChoice:
    id: str
    name: str


def variant_choices(language: Language = DEFAULT_LANGUAGE) -> tuple[VariantChoice, ...]:
    return tuple(VariantChoice(r.id, variant_title(r, language)) for r in all_rulesets())


# eq=False: shared mutable state compares by identity (Flet matches hook values with ==).
@dataclass(eq=False)
class RulesModel(ft.Observable):
    """Which variant the Rules screen shows."""

    ruleset_id: str = DEFAULT_RULESET

    def choose(self, ruleset_id: str) -> None:
        # Only a bundled id: load_ruleset() also reads a path, which a web client must not name.
        if ruleset_id in bundled_ids():
            self.ruleset_id = ruleset_id

    @property
    def ruleset(self) -> Ruleset:
        return load_ruleset(self.ruleset_id)

    def summary(self, language: Language) -> tuple[tuple[str, str], ...]:
        """The variant in short: (heading, text) for players, cards, aces, melds, scoring, end."""
        r = self.ruleset

        def t(key: str, **values: object) -> str:
            return tr(key, language, **values)

        dealt = [t("rules.cards_dealt_value", players=p, cards=c) for p, c in sorted(r.cards_dealt.items())]
        if r.cards_dealt_two_decks is not None:
            dealt.append(t("rules.cards_dealt_two_decks_value", cards=r.cards_dealt_two_decks))
        decks = [t("rules.decks_value", decks=r.decks, jokers=r.jokers_per_deck)]
        decks += [
            t("rules.decks_by_players_value", players=p, decks=d)
            for p, d in sorted(r.decks_by_players.items())
        ]
        melds = (
            t("rules.melds_value", set_min=r.set_min, set_max=r.set_max, run_min=r.run_min)
            if r.run_max is None
            else t(
                "rules.melds_value_max",
                set_min=r.set_min,
                set_max=r.set_max,
                run_min=r.run_min,
                run_max=r.run_max,
            )
        )
        players = (
            t("rules.players_exactly", players=r.players_min)
            if r.players_min == r.players_max
            else t("rules.players_value", least=r.players_min, most=r.players_max)
        )
        lines = [
            (t("rules.players"), players),
            (t("rules.cards_dealt"), "; ".join(dealt)),
            (t("rules.decks"), "; ".join(decks)),
            (t("rules.aces"), value_text("ace", r.ace, language)),
            (
                t("rules.card_points"),
                t("rules.card_points_value", court=r.court_points, ace=r.ace_points, joker=r.joker_points),
            ),
            (t("rules.melds"), melds),
        ]
        if r.opening_minimum:
            opening = t(
                "rules.opening_value",
                minimum=r.opening_minimum,
                ace=r.opening_ace_points,
                court=r.opening_court_points,
            )
            lines.append((t("rules.opening"), opening))
        if r.knock_limit_source == "upcard":
            lines.append((t("rules.knocking"), t("rules.knock_upcard_value")))
        elif r.knock_limit is not None:
            lines.append((t("rules.knocking"), t("rules.knock_value", limit=r.knock_limit)))
        lines.append((t("rules.scoring"), t(f"rules.scoring_{r.scoring}")))
        winner = value_text("winner", r.winner, language)
        if r.target is not None:
            end = t("rules.end_target", target=r.target, winner=winner)
        elif r.deals is not None:
            end = t("rules.end_deals", deals=r.deals, winner=winner)
        else:
            end = t("rules.end_open", winner=winner)
        if r.games > 1:
            end += "; " + t("rules.end_games", games=r.games)
        lines.append((t("rules.end"), end))
        return tuple(lines)

    def house_rules(self, language: Language) -> tuple[RuleRow, ...]:
        """Every house rule of the variant with its value in use, in the engine's order (the
        rules a table names, such as ``high_ace``, then every field)."""
        defaults = _field_defaults()
        return tuple(
            RuleRow(
                key=option.name,
                label=option_label(option.name, language),
                meaning=render(option.meaning, language),
                value=value_text(option.name, option.value, language),
                changed=defaults.get(option.name) is not None and option.value != defaults[option.name],
            )
            for option in ruleset_options(self.ruleset)
        )
