"""The app shell: page setup, theme, the bundled font, the routes and the shared context.

Each screen has its own route, so the browser's back button and reload work:

- ``/`` Home, ``/game/new`` New game, ``/game/<id>`` Scoreboard,
  ``/game/<id>/deal`` Deal entry (``/game/<id>/deal/<n>`` corrects deal n),
- ``/leagues``, ``/leagues/<id>`` leagues and standings, ``/players/<id>`` a player,
- ``/leagues/<id>/night`` start a club night, ``/nights/<id>`` the night (the director's screen),
  ``/nights/<id>/tv`` its TV view (a wall screen's board: no bar, outside the shell),
- ``/referee`` the rules referee, ``/rules`` the rules in short, ``/settings`` Settings.

The session's settings (language, theme), the game store and the platform services are
given to every screen through contexts (:mod:`scorer.ui.context`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import os
from collections.abc import Callable
from typing import Any, Final, cast

import flet as ft

from scorer.errors import ScorerError
from scorer.league.store import Store
from scorer.ui.club_sync import ClubSync
from scorer.ui.components.layout import error_text, headline, navigate, screen
from scorer.ui.context import (
    AppServices,
    AppSettings,
    ServicesContext,
    SettingsContext,
    StoreContext,
    device_name,
    use_settings,
    use_store,
)
from scorer.ui.i18n import Language, browser_language, system_language, tr
from scorer.ui.live import LiveSession, StoreWatch, connect_session, provide
from scorer.ui.roles import Access, RouteGuard, follow_connections, guarded, provide_access, session_grant
from scorer.ui.screens.deal_drafts import DealDrafts, DraftsContext
from scorer.ui.screens.home import HomeScreen
from scorer.ui.shell import dress_page, framed

log = logging.getLogger(__name__)


#: The screens Home does not need, by route: each is imported when it is first shown, so
#: the phone's first screen waits only for Home's modules (issue 25; scorer/web/startup.py
#: lists what the first screen must not import, and a test checks it).
LAZY_SCREENS: Final = {
    "deal": ("scorer.ui.screens.deal", "DealScreen"),
    "leagues": ("scorer.ui.screens.leagues", "LeaguesScreen"),
    "league": ("scorer.ui.screens.leagues", "LeagueRoute"),
    "new_game": ("scorer.ui.screens.new_game", "NewGameScreen"),
    "night": ("scorer.ui.screens.night", "NightRoute"),
    "scan": ("scorer.ui.screens.scan", "ScanRoute"),
    "night_start": ("scorer.ui.screens.night", "NightStartRoute"),
    "tv": ("scorer.ui.screens.tv", "TvRoute"),
    "player": ("scorer.ui.screens.player", "PlayerRoute"),
    "qr_show": ("scorer.ui.screens.qr_show", "QrShowRoute"),
    "referee": ("scorer.ui.screens.referee", "RefereeScreen"),
    "rules": ("scorer.ui.screens.rules", "RulesScreen"),
    "scoreboard": ("scorer.ui.screens.scoreboard", "ScoreboardScreen"),
    "settings": ("scorer.ui.screens.settings", "SettingsScreen"),
}


def screen_component(name: str) -> Any:
    """The component of the screen ``name`` (a key of :data:`LAZY_SCREENS`), imported on first use."""
    module, attribute = LAZY_SCREENS[name]
    return getattr(importlib.import_module(module), attribute)


def _lazy(name: str) -> Callable[[], ft.Control]:
    """A route's component that imports its screen when the route is first shown."""

    def show() -> ft.Control:
        return cast(ft.Control, screen_component(name)())

    show.__name__ = show.__qualname__ = f"Lazy{LAZY_SCREENS[name][1]}"
    return cast(Callable[[], ft.Control], ft.component(show))


@ft.component
def NotFound() -> ft.Control:
    language = use_settings().language
    return screen(
        headline(tr("nav.not_found", language)),
        ft.TextButton(tr("nav.home", language), on_click=lambda: navigate("/")),
    )


def _missing_game(game_id: str, language: Language) -> ft.Control:
    return screen(
        headline(tr("nav.no_game", language)),
        error_text(tr("nav.no_game_help", language, id=game_id)),
        ft.TextButton(tr("nav.home", language), on_click=lambda: navigate("/")),
    )


def _game_exists(store: Store, game_id: str) -> bool:
    try:
        store.game(game_id)
    except ScorerError:
        return False
    return True


@ft.component
def ScoreboardRoute() -> ft.Control:
    game_id = ft.use_route_params().get("id", "")
    if not _game_exists(use_store(), game_id):
        return _missing_game(game_id, use_settings().language)
    # Keyed by the game: another game's scoreboard is a new component with its own state.
    keyed: Any = screen_component("scoreboard")
    return cast(ft.Control, keyed(game_id=game_id, key=f"board/{game_id}"))


@ft.component
def DealRoute() -> ft.Control:
    params = ft.use_route_params()
    location = ft.use_route_location()
    game_id = params.get("id", "")
    text = params.get("n")
    store = use_store()
    language = use_settings().language
    if not _game_exists(store, game_id):
        return _missing_game(game_id, language)
    number = int(text) if text is not None and text.isdigit() else None
    played = len(store.game(game_id).game.deals)
    if text is not None and (number is None or not 1 <= number <= played):
        return screen(
            headline(tr("nav.no_deal", language, number=text)),
            ft.TextButton(tr("deal.back", language), on_click=lambda: navigate(f"/game/{game_id}")),
        )
    keyed: Any = screen_component("deal")  # keyed by game and deal: each entry starts from its own state
    if location.startswith(f"/game/{game_id}/dispute/") and number is not None:
        # A club night's dispute: the disputer's version of the deal (scorer/league/confirm.py).
        disputed = keyed(game_id=game_id, number=number, disputing=True, key=f"dispute/{game_id}/{text}")
        return cast(ft.Control, disputed)
    return cast(ft.Control, keyed(game_id=game_id, number=number, key=f"deal/{game_id}/{text}"))


@ft.component
def Shell() -> ft.Control:
    """Every screen under one bar: the title (home) and the ways to the other screens."""
    return framed(ft.use_route_location(), use_settings().language, ft.use_route_outlet())


#: Where the settings are kept on the device (SharedPreferences keys).
LANGUAGE_KEY: Final = "rummy-scorer.language"
THEME_KEY: Final = "rummy-scorer.theme"
NAME_KEY: Final = "rummy-scorer.name"
DEVICE_KEY: Final = "rummy-scorer.device"
#: Seconds a question to the phone's storage may take before it is asked again. Flet waits for
#: a client's answer without end, and a question sent as the browser reloaded goes to the
#: connection that left: the session, restored on the new one, never heard back, and Settings
#: waited for the device's kept name for ever.
PREFERENCE_SECONDS: Final = 3.0
#: Times the kept choices are asked for before the session goes on with its own.
PREFERENCE_TRIES: Final = 3


async def read_kept(preferences: ft.SharedPreferences) -> tuple[object, object, object, object] | None:
    """The language, theme, name and device name this phone kept (each ``None`` if never kept),
    or ``None`` when its storage did not answer in :data:`PREFERENCE_TRIES` tries of
    :data:`PREFERENCE_SECONDS` (no storage on this client, or a question lost in a reload)."""
    for _ in range(PREFERENCE_TRIES):
        try:
            return (
                await asyncio.wait_for(preferences.get(LANGUAGE_KEY), PREFERENCE_SECONDS),
                await asyncio.wait_for(preferences.get(THEME_KEY), PREFERENCE_SECONDS),
                await asyncio.wait_for(preferences.get(NAME_KEY), PREFERENCE_SECONDS),
                await asyncio.wait_for(preferences.get(DEVICE_KEY), PREFERENCE_SECONDS),
            )
        except (TimeoutError, RuntimeError) as exc:
            # A session closed while asked fails the question as it cancels this task, and
            # wait_for then raises the failure, not the cancel: asked again, the closed session
            # never answers, and the task lived on PREFERENCE_SECONDS a try.
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError from exc
            log.info("the phone's kept choices not read: %r", exc)
    return None


ROUTES: Final = [
    # The TV view is a board for a wall screen: the whole page, without the app's bar.
    ft.Route(path="nights/:id/tv", component=_lazy("tv")),
    ft.Route(
        component=Shell,
        children=[
            ft.Route(index=True, component=HomeScreen),
            ft.Route(path="game/new", component=_lazy("new_game")),
            ft.Route(path="game/:id/deal/:n", component=DealRoute),
            ft.Route(path="game/:id/dispute/:n", component=DealRoute),
            ft.Route(path="game/:id/deal", component=DealRoute),
            ft.Route(path="game/:id/qr", component=_lazy("qr_show")),
            ft.Route(path="game/:id", component=ScoreboardRoute),
            ft.Route(path="leagues", component=_lazy("leagues")),
            ft.Route(path="leagues/:id", component=_lazy("league")),
            ft.Route(path="leagues/:id/night", component=_lazy("night_start")),
            ft.Route(path="leagues/:id/scan", component=_lazy("scan")),
            ft.Route(path="nights/:id", component=_lazy("night")),
            ft.Route(path="players/:id", component=_lazy("player")),
            ft.Route(path="referee", component=_lazy("referee")),
            ft.Route(path="rules", component=_lazy("rules")),
            ft.Route(path="settings", component=_lazy("settings")),
        ],
    ),
]


@ft.component
def App(
    *,
    store: Store,
    services: AppServices,
    language: Language,
    live: LiveSession,
    access: Access | None = None,
) -> ft.Control:
    state: tuple[AppSettings, Callable[[AppSettings], None]] = ft.use_state(
        lambda: AppSettings(language=language)
    )
    settings = state[0]
    page = ft.context.page

    def apply_theme() -> None:
        # Only on a change: an update at mount would resend fields the player is typing into.
        title = tr("app_title", settings.language)
        if page.theme_mode != settings.theme_mode or page.title != title:
            page.theme_mode = settings.theme_mode
            page.title = title
            page.update()

    ft.use_effect(apply_theme, dependencies=[settings.theme, settings.language])

    # The language and theme chosen last time on this device, then every change kept for next
    # time; nothing is written before the stored choice has been read. A language never chosen
    # on this device is the browser's (the phone's, not the laptop's that serves the app).
    loaded = ft.use_ref(False)
    preferences = services.preferences

    async def load_preferences() -> None:
        try:
            await read_preferences()
        finally:
            settings.loaded = True  # whatever was read: Settings shows its fields

    async def read_preferences() -> None:
        if preferences is None:
            settings.kept(name=None, device=None, new_device=device_name(settings.language))
            await follow_the_browser(page, settings)
            return
        kept = await read_kept(preferences)
        if kept is None:  # no answer from this client's storage: the session's choices, not kept
            language_kept = theme_kept = name_kept = device_kept = None
        else:
            language_kept, theme_kept, name_kept, device_kept = kept
            loaded.current = True  # only what was read may be written over
        if isinstance(language_kept, str):
            settings.set_language(language_kept)
        if isinstance(theme_kept, str):
            settings.set_theme(theme_kept)
        settings.kept(name=name_kept, device=device_kept, new_device=device_name(settings.language))
        if kept is not None and (not isinstance(device_kept, str) or not device_kept.strip()):
            # The device's own name is made once: kept now, the same in every later session.
            with contextlib.suppress(TimeoutError, RuntimeError):
                await asyncio.wait_for(preferences.set(DEVICE_KEY, settings.device), PREFERENCE_SECONDS)
        await follow_the_browser(page, settings)

    async def keep_preferences() -> None:
        if preferences is None or not loaded.current:
            return
        try:
            if settings.language_chosen:  # else it follows the browser, next time too
                await asyncio.wait_for(preferences.set(LANGUAGE_KEY, settings.language), PREFERENCE_SECONDS)
            await asyncio.wait_for(preferences.set(THEME_KEY, settings.theme), PREFERENCE_SECONDS)
            await asyncio.wait_for(preferences.set(NAME_KEY, settings.name), PREFERENCE_SECONDS)
            await asyncio.wait_for(preferences.set(DEVICE_KEY, settings.device), PREFERENCE_SECONDS)
        except (TimeoutError, RuntimeError):
            return

    ft.use_effect(load_preferences, dependencies=[])
    ft.use_effect(
        keep_preferences, dependencies=[settings.language, settings.theme, settings.name, settings.device]
    )

    def routed() -> ft.Control:
        # Every route under the guard of the session's code (scorer/ui/roles.py).
        return ft.Router([ft.Route(component=RouteGuard, children=ROUTES)], not_found=NotFound)

    def guarded_routes() -> ft.Control:
        return provide_access(access or Access(), lambda: provide(live, routed))

    # The session's deals being entered, kept while the player is on another screen.
    kept: tuple[DealDrafts, Callable[[DealDrafts], None]] = ft.use_state(DealDrafts)
    drafts = kept[0]

    return SettingsContext(
        settings,
        lambda: StoreContext(
            store,
            lambda: ServicesContext(services, lambda: DraftsContext(drafts, guarded_routes)),
        ),
    )


async def follow_the_browser(page: ft.Page, settings: AppSettings) -> None:
    """Unless the player chose a language on this device, the first of the browser's languages
    (``navigator.languages``) that the app has; none of them: the language the session opened in."""
    if settings.language_chosen:
        return
    try:
        info = await asyncio.wait_for(page.get_device_info(), PREFERENCE_SECONDS)
    except (TimeoutError, RuntimeError) as exc:  # a client that cannot say: the session's language
        log.info("the browser's language not known: %s", exc)
        return
    if not isinstance(info, ft.WebDeviceInfo):
        return  # a desktop window: the system's language, as the app opened in
    found = browser_language([*(info.languages or []), info.language])
    if found is not None:
        settings.follow_language(found)


def app_main(
    store: Store,
    *,
    language: Language | None = None,
    access_link: str | None = None,
    club: ClubSync | None = None,
) -> Callable[[ft.Page], None]:
    """The Flet entry point for one store: each browser tab (session) gets its own page.

    ``access_link`` is the link with the access code when the app is served beyond loopback;
    the Settings screen shows it, and its QR code, to the phones at the table. ``club``: the
    process's sync with its club server (by default over HTTP, in a thread; the app in a
    browser gives its own).
    """
    session = app_session(store, language=language, access_link=access_link, club=club)

    def main(page: ft.Page) -> None:
        page.render(session(page))

    return main


def app_session(
    store: Store,
    *,
    language: Language | None = None,
    access_link: str | None = None,
    club: ClubSync | None = None,
) -> Callable[[ft.Page], Callable[[], ft.Control]]:
    """What :func:`app_main` renders on a page: for each page (set up for the app), its root
    component, to render (``page.render``) or to put in place of a screen drawn before the
    store was open (the phone build's, :mod:`scorer.web.first_screen`)."""
    chosen = language or system_language(os.environ.get("LC_ALL") or os.environ.get("LANG"))
    watch = StoreWatch(store)  # one for the process: every session hears of every change
    if club is None and store.keeps_club:
        club = ClubSync(store)
    if club is not None:
        watch.listeners.append(club.changed)  # a deal saved: synced a little later

    def session(page: ft.Page) -> Callable[[], ft.Control]:
        dress_page(page, chosen)
        wakelock, share, preferences = ft.Wakelock(), ft.Share(), ft.SharedPreferences()
        page.services.extend([wakelock, share, preferences])
        services = AppServices(
            wakelock=wakelock, share=share, access_link=access_link, preferences=preferences, club=club
        )
        live = connect_session(page, watch)
        if club is not None:
            club.start(page.session.connection.loop)  # once per process, whichever session is first
        # The code this session came in with (none on loopback: everything), enforced on the
        # store every screen is given and on the routes (scorer/ui/roles.py).
        access = Access(session_grant(gated=access_link is not None))
        follow_connections(page, access, gated=access_link is not None)
        return functools.partial(
            App, store=guarded(store, access), services=services, language=chosen, live=live, access=access
        )

    return session
