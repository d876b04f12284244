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
from types import MappingProxyType
from typing import Any

from scorer.frozen import Frozen


class NamedRule(Frozen):
    """A house rule by the name a table gives it; ``settings`` maps each value to the fields it sets.

    Its label and meaning, in each language, are in the catalogs (:mod:`scorer.ruleset_text`).
    """

    __slots__ = ("families", "name", "settings")

    name: str
    settings: Mapping[Any, Mapping[str, Any]]
    families: frozenset[str]

    def __init__(
        self, name: str, settings: Mapping[Any, Mapping[str, Any]], families: frozenset[str]
    ) -> None:
        self._fill(name, settings, families)

    @property
    def fields(self) -> tuple[str, ...]:
        """Every ruleset field the rule sets, in the order its values name them."""
        return tuple(dict.fromkeys(field for fields in self.settings.values() for field in fields))


def _rule(name: str, *, families: tuple[str, ...], settings: dict[Any, dict[str, Any]]) -> NamedRule:
    frozen = {value: MappingProxyType(fields) for value, fields in settings.items()}
    return NamedRule(name, MappingProxyType(frozen), frozenset(families))


NAMED_RULES: Mapping[str, NamedRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            _rule(
                "high_ace",
                families=("rummy",),
                settings={
                    True: {"ace": "low_or_high", "ace_points": 15},
                    False: {"ace": "low", "ace_points": 1},
                },
            ),
            _rule(
                "block_rummy",
                families=("rummy",),
                settings={
                    True: {"block": True, "discard_reuse": "none"},
                    False: {"block": False, "discard_reuse": "turn_over"},
                },
            ),
            _rule(
                "several_melds_per_turn",
                families=("rummy",),
                settings={True: {"melds_per_turn": None}, False: {"melds_per_turn": 1}},
            ),
            _rule(
                "own_meld_first",
                families=("rummy",),
                settings={True: {"layoff_before_own_meld": False}, False: {"layoff_before_own_meld": True}},
            ),
        )
    }
)


#: The house rules each bundled variant offers a table, as the rulebook lists them under the
#: variant (docs/rules.md, its "House rules" table; tests/test_rulebook.py holds the two
#: together): a field a table may set, or a named rule. A variant built on another (its file's
#: ``base``, in :data:`BUILT_ON`) offers its own first and then every one of that variant's.
OWN_HOUSE_RULES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "basic-rummy": (
            "going_rummy",
            "going_rummy_multiplier",
            "going_rummy_bonus",
            "high_ace",
            "ace",
            "ace_points",
            "melds_per_turn",
            "several_melds_per_turn",
            "layoff_before_own_meld",
            "own_meld_first",
            "must_discard_to_go_out",
            "target",
            "deals",
            "block_rummy",
        ),
        "block-rummy": ("block", "discard_reuse", "block_scoring"),
        "rommi": (
            "decks",
            "jokers_per_deck",
            "identical_cards_in_set",
            "joker_exchange",
            "discard_reuse",
            "ace_points",
            "joker_points",
            "melds_per_turn",
            "layoff_before_own_meld",
            "must_discard_to_go_out",
            "target",
            "deals",
        ),
        "rommi-stop": ("stop",),
        "boathouse": ("discard_draws_stock", "ace", "meld_whole_hand_first", "layoff_on_others"),
        "sakausrommi": ("must_discard_to_go_out",),
        "kalooki": (
            "opening_minimum",
            "opening_ace_points",
            "opening_court_points",
            "opening_counts_layoffs",
            "layoff_before_own_meld",
            "identical_cards_in_set",
            "joker_may_duplicate_in_meld",
            "joker_exchange",
            "ace_points",
            "joker_points",
            "kalooki_bonus",
            "target",
            "deals",
        ),
        "gin": (
            "knock_limit",
            "gin_bonus",
            "big_gin_bonus",
            "undercut_bonus",
            "undercut_on_tie",
            "layoff_after_gin",
            "target",
            "game_bonus",
            "box_bonus",
            "shutout",
            "shutout_multiplier",
        ),
        "oklahoma-gin": ("knock_limit_source", "ace_upcard_gin_only", "spade_doubles", "spade_multiplier"),
        "straight-gin": ("knock_limit",),
        "hollywood-gin": ("games",),
        "carousel": (
            "first_meld_whole",
            "knock_limit",
            "not_knocker_bonus",
            "knock_tie_bonus",
            "going_out_bonus",
            "stock_out_extra_turn",
            "joker_points",
            "target",
            "game_bonus",
            "box_bonus",
        ),
    }
)

#: The variant each bundled variant is built on (its ruleset file's ``base``).
BUILT_ON: Mapping[str, str] = MappingProxyType(
    {
        "block-rummy": "basic-rummy",
        "rommi-stop": "rommi",
        "boathouse": "rommi",
        "sakausrommi": "rommi",
        "oklahoma-gin": "gin",
        "straight-gin": "gin",
        "hollywood-gin": "gin",
    }
)


def house_rules_of(ruleset_id: str) -> tuple[str, ...]:
    """The house rules variant ``ruleset_id`` offers, its own first; none for a ruleset that is
    not bundled (a file of the user's own chooses its rules in the file).

    >>> house_rules_of("rommi-stop")[:3]
    ('stop', 'decks', 'jokers_per_deck')
    """
    own = OWN_HOUSE_RULES.get(ruleset_id, ())
    base = BUILT_ON.get(ruleset_id)
    return tuple(dict.fromkeys((*own, *(house_rules_of(base) if base else ()))))


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
