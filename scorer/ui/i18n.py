"""Every user-visible string of the UI, by language, from the message catalogs.

The catalogs are TOML files in ``scorer/ui/locales/``, one per area of the app (``referee.toml``,
``deal.toml``, ...), each with an ``[en]`` and a ``[fi]`` table holding the same keys. A key is
unique across all files; a test fails when a key is missing in either language or the two
languages disagree on a ``{placeholder}``. The engine's, the store's and the command line's
messages have their own catalogs beside the engine (:mod:`scorer.messages`, one per language),
shown here with :func:`scorer.ui.engine_text.engine_text`; the language names are the same.

Card text itself is always typed the engine's way (``QH``, ``10S``, ``*``), whatever the
language; the Finnish help text says which letter is which card.

>>> tr("deadwood_points", "fi", points=22)
'irtokorttien pisteet: 22'
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Final

from scorer.messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    CatalogError,
    Language,
    known_language,
    placeholders,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "CatalogError",
    "Language",
    "browser_language",
    "catalog",
    "placeholders",
    "system_language",
    "tr",
]

#: The language names as each language writes its own, for the language switch.
LANGUAGE_NAMES: Final[dict[Language, str]] = {"en": "English", "fi": "suomi"}


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


def tr(key: str, language: Language = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The string ``key`` in ``language``, with ``{placeholders}`` filled from ``values``."""
    texts = catalog()
    text = texts[language].get(key) or texts[DEFAULT_LANGUAGE][key]
    return text.format(**values) if values else text


def browser_language(languages: Iterable[str | None]) -> Language | None:
    """The first of a browser's languages, in its order of preference, that the app has
    (``navigator.languages``); ``None`` when it has none of them.

    >>> browser_language(["sv-FI", "fi-FI", "en-GB"])
    'fi'
    >>> browser_language(["de-DE"]) is None
    True
    """
    return next((found for name in languages if (found := known_language(name)) is not None), None)


def system_language(locale_name: str | None) -> Language:
    """The app's language for a system or browser locale (``'fi-FI'``, ``'fi_FI.UTF-8'``)."""
    return known_language(locale_name) or DEFAULT_LANGUAGE


def local_time(at: str, language: Language, *, today: datetime | None = None) -> str:
    """An event's time in the device's local time: ``21:04`` today, else with its date."""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone()
    now = (today or datetime.now(UTC)).astimezone()
    clock = local.strftime("%H.%M" if language == "fi" else "%H:%M")
    if local.date() == now.date():
        return clock
    day = f"{local.day}.{local.month}.{local.year}" if language == "fi" else local.strftime("%Y-%m-%d")
    return f"{day} {clock}"
