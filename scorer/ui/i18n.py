"""Every user-visible string of the UI, by language, from the message catalogs.

The catalogs are TOML files in ``scorer/ui/locales/``, one per area of the app (``referee.toml``,
``deal.toml``, ...), each with an ``[en]`` and a ``[fi]`` table holding the same keys. A key is
unique across all files; a test fails when a key is missing in either language or the two
languages disagree on a ``{placeholder}``.

Card text itself is always typed the engine's way (``QH``, ``10S``, ``*``), whatever the
language; the Finnish help text says which letter is which card.

>>> tr("deadwood_points", "fi", points=22)
'irtokorttien pisteet: 22'
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources
from typing import Final, Literal, get_args

Language = Literal["en", "fi"]

LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
DEFAULT_LANGUAGE: Final[Language] = "en"
#: The language names as each language writes its own, for the language switch.
LANGUAGE_NAMES: Final[dict[Language, str]] = {"en": "English", "fi": "suomi"}


class CatalogError(Exception):
    """A broken message catalog: a programming error, found by the catalog test."""


@cache
def catalog() -> dict[Language, dict[str, str]]:
    """All catalogs merged: language -> key -> text. Read once per process."""
    merged: dict[Language, dict[str, str]] = {language: {} for language in LANGUAGES}
    owner: dict[str, str] = {}
    folder = resources.files("scorer.ui") / "locales"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        for language in LANGUAGES:
            table = data.get(language, {})
            for key, text in table.items():
                if language == DEFAULT_LANGUAGE and key in owner:
                    raise CatalogError(f"key {key!r} is in both {owner[key]} and {entry.name}")
                owner.setdefault(key, entry.name)
                merged[language][key] = str(text)
    return merged


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a catalog text fills in."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


def tr(key: str, language: Language = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The string ``key`` in ``language``, with ``{placeholders}`` filled from ``values``."""
    texts = catalog()
    text = texts[language].get(key) or texts[DEFAULT_LANGUAGE][key]
    return text.format(**values) if values else text


def system_language(locale_name: str | None) -> Language:
    """The app's language for a system or browser locale (``'fi-FI'``, ``'fi_FI.UTF-8'``)."""
    prefix = (locale_name or "").replace("-", "_").split("_")[0].lower()
    for language in LANGUAGES:
        if prefix == language:
            return language
    return DEFAULT_LANGUAGE
