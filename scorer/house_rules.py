"""House rules as a table names them: one name that sets every ruleset field it implies.

A table says "we play high ace", not "ace=low_or_high and ace_points=15"; choosing
high ace changes the ace mode and its cost together (docs/rules.md, Basic rummy). A
named rule exists only where one name sets more than one field, or reads better
than the field it sets (``own_meld_first=true`` rather than
``layoff_before_own_meld=false``). Rules that are already a field with a clear
name stay fields: ``going_rummy`` (off, double or bonus), ``block_scoring``,
``must_discard_to_go_out``, ``spade_doubles``, ``shutout``.

The table is data: each value of a named rule is the fields it sets. A ruleset
reads as a value of the rule when its fields hold exactly that value's settings.

>>> dict(NAMED_RULES["high_ace"].settings[True])
{'ace': 'low_or_high', 'ace_points': 15}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class NamedRule:
    """A house rule by the name a table gives it; ``settings`` maps each value to the fields it sets."""

    name: str
    meaning: str
    settings: Mapping[Any, Mapping[str, Any]]
    families: frozenset[str]

    @property
    def fields(self) -> tuple[str, ...]:
        """Every ruleset field the rule sets, in the order its values name them."""
        return tuple(dict.fromkeys(field for fields in self.settings.values() for field in fields))


def _rule(
    name: str, meaning: str, *, families: tuple[str, ...], settings: dict[Any, dict[str, Any]]
) -> NamedRule:
    frozen = {value: MappingProxyType(fields) for value, fields in settings.items()}
    return NamedRule(name, meaning, MappingProxyType(frozen), frozenset(families))


NAMED_RULES: Mapping[str, NamedRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            _rule(
                "high_ace",
                "Aces are high or low (Q-K-A and A-2-3, never K-A-2) and cost 15 in hand.",
                families=("rummy",),
                settings={
                    True: {"ace": "low_or_high", "ace_points": 15},
                    False: {"ace": "low", "ace_points": 1},
                },
            ),
            _rule(
                "block_rummy",
                "The discard pile is never reused: an empty stock with the discard refused ends the deal.",
                families=("rummy",),
                settings={
                    True: {"block": True, "discard_reuse": "none"},
                    False: {"block": False, "discard_reuse": "turn_over"},
                },
            ),
            _rule(
                "several_melds_per_turn",
                "A player may put down any number of melds in one turn (false: one meld a turn).",
                families=("rummy",),
                settings={True: {"melds_per_turn": None}, False: {"melds_per_turn": 1}},
            ),
            _rule(
                "own_meld_first",
                "No laying off on other players' melds before one's own first meld.",
                families=("rummy",),
                settings={True: {"layoff_before_own_meld": False}, False: {"layoff_before_own_meld": True}},
            ),
        )
    }
)


def option_text(value: Any) -> str:
    """An option value as a player writes it: ``true``, ``none``, ``15``, ``2=10, 3=7``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{option_text(k)}={option_text(v)}" for k, v in value.items()) or "none"
    return str(value)


def named_value(rule: NamedRule, given: Any) -> Any:
    """The value of ``rule`` that ``given`` names (``'true'``, ``True``); ``KeyError`` when none."""
    written = option_text(given).strip().lower()
    for value in rule.settings:
        if option_text(value) == written and (not isinstance(given, bool) or given is value):
            return value
    raise KeyError(given)


def current_value(rule: NamedRule, fields: Mapping[str, Any]) -> Any:
    """The value of ``rule`` that the fields hold, or ``None`` when they hold none of its settings."""
    for value, settings in rule.settings.items():
        if all(fields.get(field, _MISSING) == setting for field, setting in settings.items()):
            return value
    return None


_MISSING = object()
