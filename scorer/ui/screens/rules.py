"""The Rules screen (``/rules``): each variant in short, and every house rule's value.

A variant chooser, then the variant's players, cards, aces, card points, melds, opening,
knocking, scoring and end of the game, then every house rule with its value; all from the
bundled rulesets (:mod:`scorer.ui.screens.rules_model`). One column, readable on a phone.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ruleset_text import variant_description, variant_title
from scorer.ui.components.layout import headline, labelled_dropdown, screen, section
from scorer.ui.context import use_settings
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.rules_model import RuleRow, RulesModel, variant_choices


def _variant_picker(model: RulesModel, language: Language) -> ft.Control:
    return labelled_dropdown(
        label=tr("rules.variant_label", language),
        value=model.ruleset_id,
        options=[(c.id, c.name) for c in variant_choices(language)],
        on_select=model.choose,
    )


def _fact(heading: str, text: str) -> ft.Control:
    return ft.Column(
        spacing=2,
        controls=[
            ft.Text(heading, theme_style=ft.TextThemeStyle.LABEL_LARGE, color=ft.Colors.PRIMARY),
            ft.Text(text, theme_style=ft.TextThemeStyle.BODY_LARGE),
        ],
    )


def _rule(row: RuleRow) -> ft.Control:
    # One text of three lines (the label, its meaning, the option's name as the command line's
    # --option and game files write it): a node for a screen reader rather than three, for a
    # screen of some seventy rules that a loaded phone must lay out.
    small = ft.TextStyle(size=12)
    return ft.Row(
        vertical_alignment=ft.CrossAxisAlignment.START,
        controls=[
            ft.Text(
                expand=True,
                spans=[
                    ft.TextSpan(row.label, style=ft.TextStyle(weight=ft.FontWeight.W_500)),
                    ft.TextSpan("\n" + row.meaning, style=small),
                    ft.TextSpan(
                        "\n" + row.key, style=ft.TextStyle(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
                    ),
                ],
            ),
            # At most a third of a phone's width, so the label keeps room to wrap.
            ft.Container(
                width=120,
                content=ft.Text(row.value, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.END),
            ),
        ],
    )


@ft.component
def RulesScreen() -> ft.Control:
    # (The annotation pins use_state's type variable; mypy cannot infer it from a class.)
    state: tuple[RulesModel, Callable[[RulesModel], None]] = ft.use_state(RulesModel)
    model = state[0]
    language = use_settings().language
    ruleset = model.ruleset
    return screen(
        headline(tr("rules.title", language)),
        _variant_picker(model, language),
        ft.Text(
            variant_title(ruleset, language),
            theme_style=ft.TextThemeStyle.TITLE_LARGE,
            weight=ft.FontWeight.W_600,
        ),
        ft.Text(variant_description(ruleset, language)),
        section(tr("rules.summary", language)),
        *(_fact(heading, text) for heading, text in model.summary(language)),
        section(tr("rules.house_rules", language)),
        ft.Text(tr("rules.house_rules_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        *(_rule(row) for row in model.house_rules(language)),
    )
