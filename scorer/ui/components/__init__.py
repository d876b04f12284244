"""Declarative Flet components of the referee screen, one per file; each is a function of the model."""

from scorer.ui.components.cards_field import CardsField
from scorer.ui.components.referee_actions import RefereeActions
from scorer.ui.components.result_panel import ResultPanel
from scorer.ui.components.ruleset_picker import RulesetPicker

__all__ = ["CardsField", "RefereeActions", "ResultPanel", "RulesetPicker"]
