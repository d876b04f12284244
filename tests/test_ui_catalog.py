"""The message catalogs: every key in every language, with the same placeholders."""

from __future__ import annotations

import pytest

from scorer.ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, placeholders, system_language, tr


def test_every_key_is_in_every_language() -> None:
    texts = catalog()
    keys = set(texts[DEFAULT_LANGUAGE])
    assert keys, "the catalogs are empty"
    for language in LANGUAGES:
        missing = sorted(keys - set(texts[language]))
        extra = sorted(set(texts[language]) - keys)
        assert not missing, f"{language}: missing {missing}"
        assert not extra, f"{language}: keys not in {DEFAULT_LANGUAGE}: {extra}"


def test_every_translation_has_the_same_placeholders() -> None:
    texts = catalog()
    for key, text in texts[DEFAULT_LANGUAGE].items():
        for language in LANGUAGES:
            assert placeholders(texts[language][key]) == placeholders(text), f"{language}: {key}"


def test_no_translation_is_empty() -> None:
    for language, texts in catalog().items():
        empty = sorted(k for k, v in texts.items() if not v.strip())
        assert not empty, f"{language}: empty {empty}"


def test_tr_fills_placeholders_in_finnish() -> None:
    assert tr("deadwood_points", "fi", points=22) == "irtokorttien pisteet: 22"


@pytest.mark.parametrize(
    ("locale", "language"),
    [("fi-FI", "fi"), ("fi_FI.UTF-8", "fi"), ("en-GB", "en"), ("sv-SE", "en"), (None, "en"), ("", "en")],
)
def test_system_language(locale: str | None, language: str) -> None:
    assert system_language(locale) == language
