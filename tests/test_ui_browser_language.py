"""The served app speaks the phone's language, not the laptop's (issue 24, item 3), in Chromium
at 390 px.

``rummy app`` runs on a laptop whose system language is one; the phones that open it are in
another. A phone that never chose a language in Settings gets its browser's (as the static web
build does); one that chose keeps its choice, on that phone only; choosing a theme does not pin
the language.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from conftest import Server, open_app

from scorer.league.store import Store
from scorer.ui.i18n import Language, tr

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
#: A phone's browser language (``navigator.language``), by the app's language.
BROWSER_LOCALES: dict[Language, str] = {"en": "en-GB", "fi": "fi-FI"}
#: The laptop's system language (``LANG``), by the app's language.
SYSTEM_LOCALES: dict[Language, str] = {"en": "en_GB.UTF-8", "fi": "fi_FI.UTF-8"}
#: Where the app keeps a chosen language on the device (Flutter's SharedPreferences on the web).
LANGUAGE_ITEM = "flutter.rummy-scorer.language"
THEME_ITEM = "flutter.rummy-scorer.theme"


def laptop(tmp_path_factory: pytest.TempPathFactory, language: Language) -> Iterator[Server]:
    """``python -m scorer.ui`` on a laptop whose system speaks ``language``."""
    folder = tmp_path_factory.mktemp(f"laptop-{language}") / "league"
    Store.open(folder)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("LC_ALL", raising=False)
        patch.delenv("RUMMY_LANG", raising=False)
        patch.setenv("LANG", SYSTEM_LOCALES[language])
        server = Server(folder)  # its environment is read here
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def english_laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from laptop(tmp_path_factory, "en")


@pytest.fixture(scope="module")
def finnish_laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from laptop(tmp_path_factory, "fi")


def a_phone(chromium: Browser, language: Language) -> BrowserContext:
    """A phone of its own (a browser context: its own storage) whose browser speaks ``language``."""
    return chromium.new_context(viewport=PHONE, locale=BROWSER_LOCALES[language])


def open_on(phone: BrowserContext, url: str) -> Page:
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    open_app(page)
    return page


def speaks(page: Page, language: Language) -> None:
    """The screen is in ``language``: the bar's Settings button is named in it, and the other
    language's is gone (the first frame may come in the laptop's, before the browser answered)."""
    from playwright.sync_api import expect

    other: Language = "en" if language == "fi" else "fi"
    expect(page.get_by_role("button", name=tr("nav.settings", language), exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=tr("nav.settings", other), exact=True)).to_have_count(0)


def kept_language(page: Page) -> str | None:
    kept: str | None = page.evaluate(f"() => localStorage.getItem('{LANGUAGE_ITEM}')")
    return kept


def test_a_finnish_phone_opens_the_english_laptops_app_in_finnish(
    english_laptop: Server, chromium: Browser
) -> None:
    phone = a_phone(chromium, "fi")
    try:
        page = open_on(phone, english_laptop.url)
        speaks(page, "fi")
        headline = page.get_by_text(tr("settings.title", "fi"), exact=True)
        page.get_by_role("button", name=tr("nav.settings", "fi"), exact=True).click()
        headline.first.wait_for()
        # A theme chosen is kept; the language, never chosen, is not pinned with it.
        page.get_by_role("radio", name=tr("settings.theme_dark", "fi")).click()
        page.wait_for_function("(item) => localStorage.getItem(item) !== null", arg=THEME_ITEM)
        assert kept_language(page) is None
        page.close()
        again = open_on(phone, english_laptop.url)  # the next session on this phone: Finnish still
        speaks(again, "fi")
    finally:
        phone.close()


def test_a_language_chosen_in_settings_is_kept_on_that_phone_only(
    english_laptop: Server, chromium: Browser
) -> None:
    chooser, other = a_phone(chromium, "fi"), a_phone(chromium, "fi")
    try:
        page = open_on(chooser, english_laptop.url + "settings")
        speaks(page, "fi")
        page.get_by_role("radio", name="English").click()
        speaks(page, "en")
        page.wait_for_function(f"() => localStorage.getItem('{LANGUAGE_ITEM}') !== null")
        page.close()
        kept = open_on(chooser, english_laptop.url)
        speaks(kept, "en")  # chosen on this phone: kept, and it stays so once the browser answered
        kept.get_by_role("button", name=tr("nav.settings", "en"), exact=True).click()
        kept.get_by_role("radio", name="English").wait_for()
        speaks(kept, "en")
        speaks(open_on(other, english_laptop.url), "fi")  # another Finnish phone: its own language
    finally:
        chooser.close()
        other.close()


def test_an_english_phone_opens_the_finnish_laptops_app_in_english(
    finnish_laptop: Server, chromium: Browser
) -> None:
    phone = a_phone(chromium, "en")
    try:
        speaks(open_on(phone, finnish_laptop.url), "en")
    finally:
        phone.close()
