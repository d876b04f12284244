"""Rulesets in words: a variant's name and description, an option's label, meaning and value.

The words are in the message catalogs (``scorer/locales/<language>.toml``), beside the
engine's messages, so the app and the command line say the same in every language:

- ``[variant]``: a bundled variant's name in running text (``gin rummy``, ``ginirommi``);
  ``[variant_title]`` the same as a heading or a list shows it (``Gin rummy``);
  ``[variant_about]`` one line on what sets the variant apart;
- ``[option]``: a ruleset field's or a named house rule's label (``Undercut bonus``);
  ``[option_about]`` its one-line meaning;
- ``[option_value]``: the words for a value, by field where a word means different things in
  two fields (``scoring.penalty``, ``block_scoring.penalty``): ``yes``, ``no``, ``not set``.

A ruleset file of the user's own is not in the catalogs: its name and description are shown
as the file gives them. Each function returns a text that remembers its message
(:class:`scorer.messages.Text`): a view-model may keep it, in English, and the screen show it
in its own language (``render(text, "fi")``).

>>> variant_title("gin", "fi"), variant_name("carousel", "fi")
('Ginirommi', 'Karuselli')
>>> option_label("undercut_bonus", "fi"), value_text("undercut_on_tie", True, "fi")
('Alitusbonus', 'kyllä')
>>> value_text("scoring", "penalty", "en"), value_text("block_scoring", "penalty", "en")
('penalty points', 'everyone loses the points in hand')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorer.house_rules import NAMED_RULES
from scorer.messages import DEFAULT_LANGUAGE, Message, catalog, placeholders, render

if TYPE_CHECKING:
    from scorer.ruleset import Ruleset

#: The catalog areas holding a variant's words, by what they say.
VARIANT_AREAS = ("variant", "variant_title", "variant_about")


def _known(code: str) -> bool:
    return code in catalog(DEFAULT_LANGUAGE)


def _variant(area: str, ruleset: Ruleset | str, language: str) -> str:
    """A variant's words from ``area`` of the catalog; a ruleset of the user's own, or one no
    longer bundled, as it names itself (or its id)."""
    if isinstance(ruleset, str):
        if _known(f"{area}.{ruleset}"):
            return render(Message(f"{area}.{ruleset}"), language)
        loaded = _loaded(ruleset)
        return ruleset if loaded is None else _own_words(area, loaded)
    # A file of the user's own may keep a bundled id (``base = "gin"`` and no id of its own):
    # its name tells the two apart.
    bundled = catalog(DEFAULT_LANGUAGE).get(f"variant.{ruleset.id}")
    if bundled == ruleset.name and _known(f"{area}.{ruleset.id}"):
        return render(Message(f"{area}.{ruleset.id}"), language)
    return _own_words(area, ruleset)


def _own_words(area: str, ruleset: Ruleset) -> str:
    if area == "variant":
        return ruleset.name
    if area == "variant_title":
        return ruleset.title
    return ruleset.description


def _loaded(ruleset_id: str) -> Ruleset | None:
    from scorer.errors import ScorerError
    from scorer.ruleset import load_ruleset

    try:
        return load_ruleset(ruleset_id)
    except (ScorerError, OSError):
        return None


def variant_name(ruleset: Ruleset | str, language: str = DEFAULT_LANGUAGE) -> str:
    """The variant's name in running text: ``gin rummy``, in Finnish ``ginirommi``."""
    return _variant("variant", ruleset, language)


def variant_title(ruleset: Ruleset | str, language: str = DEFAULT_LANGUAGE) -> str:
    """The variant's name as a heading or a list shows it: ``Gin rummy``, ``Ginirommi``."""
    return _variant("variant_title", ruleset, language)


def variant_description(ruleset: Ruleset | str, language: str = DEFAULT_LANGUAGE) -> str:
    """One line on what sets the variant apart."""
    return _variant("variant_about", ruleset, language)


def option_label(name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A ruleset field's or named house rule's label (``Undercut bonus``); its name when the
    catalog does not know it."""
    code = f"option.{name}"
    return render(Message(code), language) if _known(code) else name


def option_meaning(
    name: str, language: str = DEFAULT_LANGUAGE, *, fields: bool = True, none: str = "none"
) -> str:
    """An option's one-line meaning; a named house rule's also says which fields it sets,
    unless ``fields`` is false (a screen that shows those fields in words). ``none`` is how
    no value is given where the option may have none: ``none`` as ``--option`` takes it, or
    the app's word for an empty field, in its language.

    >>> option_meaning("own_meld_first")
    "No laying off on other players' melds before one's own first meld. Sets layoff_before_own_meld."
    >>> option_meaning("target")
    'The game ends when a player reaches this (none: no target).'
    >>> option_meaning("target", "fi", none="tyhjä")
    'Peli päättyy, kun pelaaja saavuttaa tämän (tyhjä: ei tavoitetta).'
    """
    code = f"option_about.{name}"
    if not _known(code):
        return ""
    given = {"none": none} if "none" in placeholders(catalog(DEFAULT_LANGUAGE)[code]) else {}
    meaning = Message(code, **given)
    rule = NAMED_RULES.get(name)
    if rule is None or not fields:
        return render(meaning, language)
    sets = ", ".join(rule.fields)
    return render(Message("ruleset.named_rule_meaning", meaning=meaning, fields=sets), language)


def value_text(name: str, value: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """The value of option ``name`` in words: yes or no, a number, a table by player count,
    the word for a choice (``low or high, not around the corner``), what no value means there.

    A named house rule's value is ``None`` where its fields hold none of its settings.
    """
    if isinstance(value, bool):
        return _value_word("yes" if value else "no", language)
    if value is None:
        if name in NAMED_RULES:
            return _value_word("neither", language)
        return _value_word(f"{name}.none" if _known(f"option_value.{name}.none") else "none", language)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {v}" for k, v in sorted(value.items())) or _value_word("none", language)
    if isinstance(value, str) and _known(f"option_value.{name}.{value}"):
        return _value_word(f"{name}.{value}", language)
    return str(value)


def _value_word(key: str, language: str) -> str:
    return render(Message(f"option_value.{key}"), language)
