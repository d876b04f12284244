"""What every screen of the app shares: the player's settings and the league store.

The app's root component provides both with :data:`SettingsContext` and
:data:`StoreContext`; a screen reads the settings with :func:`use_settings`.
Outside a provider (a component rendered alone, in a test) the defaults apply: English, the
system theme, and no store.

>>> settings = AppSettings()
>>> settings.language, settings.theme
('en', 'system')
>>> settings.follow_language("fi"); settings.language, settings.language_chosen
('fi', False)
>>> settings.set_language("en"); settings.follow_language("fi"); settings.language
'en'
>>> settings.signer is None
True
>>> settings.set_name("  Bea  "); settings.signer
'Bea'

A device is never without a name: on its first start it makes one of its own
(:func:`device_name`), which fills the name field and signs whenever the field is empty.

>>> settings = AppSettings()
>>> settings.kept(name=None, device=None, new_device="Device K7MP"); settings.name, settings.signer
('Device K7MP', 'Device K7MP')
>>> settings.set_name(""); settings.signer
'Device K7MP'
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, get_args

import flet as ft

from scorer.names import InvalidNameError, clean_name
from scorer.ui.club_sync import ClubSync
from scorer.ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, tr

if TYPE_CHECKING:  # the store's module builds on pydantic: not before the phone's first screen
    from scorer.league.store import Store

Theme = Literal["system", "light", "dark"]

THEMES: Final[tuple[Theme, ...]] = get_args(Theme)
#: The longest name the store signs a change with.
NAME_LENGTH: Final = 100


# eq=False: shared mutable state compares by identity (Flet matches hook values with ==).
@dataclass(eq=False)
class AppSettings(ft.Observable):
    """The player's choices for the whole app; components re-render when one changes."""

    language: Language = DEFAULT_LANGUAGE
    theme: Theme = "system"
    #: Whether the player chose :attr:`language` on this device (Settings); until then it
    #: follows the browser's (:meth:`follow_language`) and is not kept for next time.
    language_chosen: bool = False
    #: Who this device is: every change it makes to a game is signed with it (empty: :attr:`device`).
    name: str = ""
    #: The device's own short name, made on its first start (:func:`device_name`) and kept.
    device: str = ""
    #: Whether what this device kept from its last session has been read (:meth:`kept`): until
    #: then Settings shows none of its fields, which would move under a tap as it lands.
    loaded: bool = False

    def set_language(self, language: str) -> None:
        """The player chose a language (Settings, or kept from last time); anything but a known
        language code is ignored."""
        for known in LANGUAGES:
            if language == known:
                self.language = known
                self.language_chosen = True

    def follow_language(self, language: Language) -> None:
        """The browser's language: the app's while the player has chosen none."""
        if not self.language_chosen:
            self.language = language

    def set_theme(self, theme: str) -> None:
        """Switch theme: ``system``, ``light`` or ``dark``; anything else is ignored."""
        for known in THEMES:
            if theme == known:
                self.theme = known

    def set_name(self, name: str) -> None:
        """The name this device signs its changes with, as typed (spaces are tidied in :attr:`signer`)."""
        self.name = name[:NAME_LENGTH]

    def kept(self, *, name: object, device: object, new_device: str = "") -> None:
        """What this device kept from its last session (``None``: nothing, its first start).

        A device that kept no name of its own is given ``new_device`` (:func:`device_name`);
        a device that kept no name at all (its first start) is called by its own name, which
        Settings shows and the player may change.
        """
        if isinstance(device, str) and device.strip():
            self.device = device
        elif not self.device:
            self.device = new_device
        if isinstance(name, str):
            self.set_name(name)
        elif not self.name:
            self.set_name(self.device)
        self.loaded = True

    @property
    def signer(self) -> str | None:
        """What the store's ``by=`` gets: the name, else (none given, or one that breaks the rule
        of names: :attr:`name_problem` says why on the Settings screen) the device's own name;
        ``None`` only for a device that has neither."""
        if self.name.strip() and not self.name_problem:
            return " ".join(self.name.split())
        return " ".join(self.device.split()) or None

    @property
    def name_problem(self) -> str:
        """Why the name typed cannot sign a change (a control or invisible character), or ``""``."""
        if not self.name.strip():
            return ""
        try:
            clean_name(self.name, what="device")
        except InvalidNameError as exc:
            return str(exc)
        return ""

    @property
    def theme_mode(self) -> ft.ThemeMode:
        """The Flet theme mode for :attr:`theme`."""
        return {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(self.theme, ft.ThemeMode.SYSTEM)


#: The letters of a device's own name: none that is read as another (0 and O, 1 and I).
_TAG_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def device_name(language: Language, *, tag: str | None = None) -> str:
    """A short name of the device's own, in ``language``: ``Device K7MP``, ``Laite K7MP``
    (``tag``: four letters drawn at random, unless given).

    >>> device_name("fi", tag="K7MP")
    'Laite K7MP'
    """
    drawn = tag or "".join(secrets.choice(_TAG_LETTERS) for _ in range(4))
    return tr("settings.device_name", language, tag=drawn)


SettingsContext: Final = ft.create_context(AppSettings())
"""The app's settings; the root component provides the session's own instance."""

_NO_STORE: Store | None = None
StoreContext: Final = ft.create_context(_NO_STORE)
"""The league store the app saves games in (``None`` outside the app)."""


def use_settings() -> AppSettings:
    """The current settings (a hook: call it inside a component)."""
    settings: AppSettings = ft.use_context(SettingsContext)
    return settings


@dataclass(frozen=True)
class AppServices:
    """The platform services one session uses: keep the screen awake, share a result, keep the
    settings, and the link that opens the app with its access code (``None`` when served on
    loopback only)."""

    wakelock: ft.Wakelock | None = None
    share: ft.Share | None = None
    access_link: str | None = None
    #: Where the player's settings are kept between sessions (the browser's local storage on
    #: the web); ``None``: they last for the session.
    preferences: ft.SharedPreferences | None = None
    #: The process's sync with its club server (Settings -> Club server); ``None``: no sync.
    club: ClubSync | None = None


ServicesContext: Final = ft.create_context(AppServices())


def use_store() -> Store:
    """Where games are kept (a hook). The app always provides one; alone, a component has none."""
    store: Store | None = ft.use_context(StoreContext)
    if store is None:
        raise LookupError("no game store: render the screen inside the app (scorer.ui.app.App)")
    return store


def use_services() -> AppServices:
    services: AppServices = ft.use_context(ServicesContext)
    return services
