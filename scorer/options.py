"""The house-rule options a table may choose: each one with its value, default and meaning.

The options are the ruleset's named house rules (:mod:`scorer.house_rules`) and its fields
(:mod:`scorer.ruleset`), their meanings the catalog's words (:mod:`scorer.ruleset_text`):
this module is where the two meet, so that neither imports the other.
"""

from __future__ import annotations

from typing import Any

from scorer.frozen import Frozen
from scorer.house_rules import NAMED_RULES, current_value
from scorer.ruleset import FIELD_NAMES, IDENTITY_FIELDS, Ruleset, _load_bundled, bundled_ids, load_ruleset
from scorer.ruleset_text import option_meaning

__all__ = ["OptionInfo", "load_ruleset", "ruleset_options"]


class OptionInfo(Frozen):
    """One house-rule option of a ruleset: its name, value, default and a one-line meaning.

    The meaning is the catalog's English (:func:`scorer.ruleset_text.option_meaning`), a text
    that remembers its message: ``render(info.meaning, "fi")`` says it in Finnish.

    Values are as the ruleset holds them (``True``, ``15``, ``None`` for no value,
    ``{2: 10}`` for a table by player count); :func:`scorer.house_rules.option_text`
    writes them as a player would.
    """

    __slots__ = ("default", "meaning", "name", "value")

    name: str
    value: Any
    default: Any
    meaning: str

    def __init__(self, name: str, value: Any, default: Any, meaning: str) -> None:
        self._fill(name, value, default, meaning)


def ruleset_options(ruleset: Ruleset, *, defaults: Ruleset | None = None) -> tuple[OptionInfo, ...]:
    """Every option of ``ruleset`` with its value: its named house rules, then every field.

    A named rule is listed for the games it belongs to where the fields hold one of
    its values (rommi's ace at 11 is neither high ace nor low ace, so it has no
    ``high_ace``). ``default`` is the value in ``defaults``: by default the bundled
    ruleset of the same id, or ``ruleset`` itself for a ruleset of the user's own.

    >>> [(o.name, o.value) for o in ruleset_options(load_ruleset("basic-rummy"))][:2]
    [('high_ace', False), ('block_rummy', False)]
    """
    if defaults is None:
        defaults = _load_bundled(ruleset.id) if ruleset.id in bundled_ids() else ruleset
    now, before = ruleset.model_dump(), defaults.model_dump()
    options: list[OptionInfo] = []
    for rule in NAMED_RULES.values():
        if ruleset.family not in rule.families:
            continue
        value, default = current_value(rule, now), current_value(rule, before)
        if value is not None or default is not None:
            options.append(OptionInfo(rule.name, value, default, option_meaning(rule.name)))
    for name in FIELD_NAMES:
        if name not in IDENTITY_FIELDS:
            options.append(OptionInfo(name, now[name], before[name], option_meaning(name)))
    return tuple(options)
