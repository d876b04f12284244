"""Who may do what in one session of the app: the grant of the code it came in with, enforced.

The gate (:mod:`scorer.ui.gate`) decides a request's grant (:class:`~scorer.league.night_codes.Grant`:
the app-wide code's, or a club night's director, table or viewer code) and sets it in
:data:`~scorer.league.night_codes.CURRENT_GRANT` while the request is handled. A Flet session runs inside
its WebSocket's request: its ``main`` reads the grant there (:func:`~scorer.ui.gate.request_grant`)
and keeps it in the session's :class:`Access`; a session taken up again by a new WebSocket
(a reload, a phone waking) reads it again on ``page.on_connect``. On loopback no gate runs and
the grant is everything: nothing changes there.

Two places enforce it, whatever the screens show:

- **the store** each session is given (:class:`GuardedStore`): every change a screen asks for
  is checked against the grant (:func:`check`) before it reaches the store, and refused with
  :class:`AccessRefused` (a message in the player's language, shown where the screen shows a
  refused save). What each role may do is :func:`scorer.league.tokens.may`, the club server's
  own table; a method of the store this module does not name needs the app-wide code;
- **the routes** (:func:`route_refusal`): a table's code opens its game's scoreboard and deal
  entry only; the viewer's opens no screen that changes anything (deal entry, a new game, a new
  night).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import flet as ft

from scorer.errors import ScorerError
from scorer.league.night import Night
from scorer.league.night_codes import (
    CURRENT_GRANT,
    EVERYTHING,
    Grant,
    derive,
    night_codes,
    night_games,
    table_games,
)
from scorer.league.store import Store
from scorer.league.tokens import Action, Role, may
from scorer.messages import Message
from scorer.ui.components.layout import headline, navigate, screen
from scorer.ui.context import use_settings, use_store
from scorer.ui.i18n import tr

#: The store's methods that only read: any code may call them.
READS: Final = frozenset(
    {
        "notices",
        "notice_messages",
        "location",
        "address",
        "listens",
        "listen",
        "changes",
        "changed_since",
        "position",
        "facts_since",
        "commits_since",
        "league_commits",
        "senders",
        "unknown_facts",
        "sync_mark",
        "leagues",
        "league",
        "players",
        "player",
        "game",
        "games",
        "find_game",
        "events",
        "export_facts",
        "preview_import",
        "import_preview",
        "export_league",
        "export_csv",
        "played_games",
        "ratings",
        "standings",
        "standings_by_ruleset",
        "player_stats",
        "head_to_head",
        "coin_groups",
        "night",
        "nights",
        "night_standings",
        "find_night",
        "night_results",
        "player_nights",
        "clock",
        "calls",
        "game_calls",
        "deal_checks",
        "night_penalties",
        "night_replacements",
        "table_game",
        "held_facts",
        "may_hold_facts",
        "game_league",
        "keeps_club",
        "club_server",
    }
)
#: Changes to one game (its id the first argument), and the action each is.
GAME_CHANGES: Final[Mapping[str, Action]] = {
    "add_deal": Action.RECORD,
    "replace_deal": Action.RECORD,
    "remove_deal": Action.RECORD,
    "put_back_deal": Action.RECORD,
    # a game changed on two devices apart, settled by one of the three choices, as a table
    # settles two phones' saves of one deal on one server (replace_deal)
    "settle_conflict": Action.RECORD,
    "abandon_game": Action.DIRECT,
    "resume_game": Action.DIRECT,
    "delete_game": Action.DIRECT,
    "undelete_game": Action.DIRECT,
    "move_game": Action.DIRECT,
    # a table's own say on its deals, and its call to the director
    "confirm_deal": Action.RECORD,
    "dispute_deal": Action.RECORD,
    "call_director": Action.RECORD,
    # the director's, on a game of the night
    "resolve_dispute": Action.DIRECT,
    "penalise": Action.DIRECT,
    "lift_penalty": Action.DIRECT,
    "replace_player": Action.DIRECT,
}
#: Changes to one club night (its league the first argument, the night ``night=``).
NIGHT_CHANGES: Final = frozenset({"next_round", "end_night", "flip_coin"})
#: A night's director answering one of its calls (the call's id the first argument).
CALL_ANSWERS: Final = frozenset({"answer_call"})


class AccessRefused(ScorerError, PermissionError):
    """The session's code may not do what was asked (``access.viewer``, ``access.table``,
    ``access.night``)."""


def _refusal(grant: Grant) -> AccessRefused:
    if grant.role is Role.VIEWER:
        return AccessRefused(Message("access.viewer"))
    if grant.table is not None:
        return AccessRefused(Message("access.table", table=grant.table))
    return AccessRefused(Message("access.night", night=grant.night or ""))


def check(grant: Grant, store: Store, method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """Refuse (:class:`AccessRefused`) a call of the store's ``method`` that ``grant`` may not make.

    The app-wide code may do everything; any code may read. A night's codes change that night
    only: its director any of its games and the night itself, a table's code (role ``scorer``)
    the deals of that table's games, a viewer nothing.
    """
    if grant.everything or method in READS:
        return
    if method == "code_secret" and grant.role is Role.DIRECTOR:  # a night's director hands out its codes
        return
    action = GAME_CHANGES.get(method, Action.DIRECT)
    if not may(grant.role, action) or grant.night is None:
        raise _refusal(grant)
    night = store.find_night(grant.night)
    if method in GAME_CHANGES:
        game = args[0] if args else kwargs.get("game_id")
        allowed = set(table_games(night, grant.table)) if grant.table is not None else night_games(night)
        if isinstance(game, str) and (game in allowed or store.game(game).id in allowed):
            return
        raise _refusal(grant)
    if method in NIGHT_CHANGES and grant.table is None:
        league = args[0] if args else kwargs.get("league", "")
        if store.night(str(league), kwargs.get("night")).id == night.id:
            return
    if method in CALL_ANSWERS and grant.table is None:
        call = args[0] if args else kwargs.get("call_id")
        if any(c.id == call for c in store.calls(night.league_id, night.id)):
            return
    raise _refusal(grant)


class Access:
    """One session's grant (mutable: a session taken up by a new connection reads it again)."""

    __slots__ = ("grant",)

    def __init__(self, grant: Grant = EVERYTHING) -> None:
        self.grant = grant

    def may_record(self, store: Store, game_id: str) -> bool:
        """May this session record and correct the deals of ``game_id``?"""
        try:
            check(self.grant, store, "add_deal", (game_id,), {})
        except (AccessRefused, ScorerError):
            return False
        return True

    @property
    def changes_nothing(self) -> bool:
        """A viewer's session: it looks only."""
        return self.grant.role is Role.VIEWER


#: A gated session whose grant cannot be told (never, while the gate is in front): it looks only.
LOOKS_ONLY: Final = Grant(Role.VIEWER)


def session_grant(*, gated: bool) -> Grant:
    """The grant of the request under way: the gate's; with no gate (loopback), everything.
    Served behind the gate, a request that carries none (never) is given the least, never the most."""
    found = CURRENT_GRANT.get()
    if found is not None:
        return found
    return LOOKS_ONLY if gated else EVERYTHING


def follow_connections(page: ft.Page, access: Access, *, gated: bool) -> None:
    """Read the grant again whenever a new connection takes the session up (``page.on_connect``,
    run in that WebSocket's request, so with the code that browser holds now), before the
    handler set earlier (:func:`scorer.ui.live.connect_session`'s) runs."""
    earlier = page.on_connect

    def connected(event: Any) -> None:
        access.grant = session_grant(gated=gated)
        if earlier is not None:
            cast(Any, earlier)(event)

    page.on_connect = connected


class GuardedStore:
    """The store as one session sees it: reads pass, each change is :func:`check`-ed first.

    Given to the screens in place of the store (:func:`guarded`), so that every view-model's
    save, correction, removal or night's step is refused where it happens, not only hidden.
    """

    __slots__ = ("_access", "_store")

    def __init__(self, store: Store, access: Access) -> None:
        self._store = store
        self._access = access

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name.startswith("_") or not callable(found) or name in READS:
            return found
        store, access = self._store, self._access

        def guarded_call(*args: Any, **kwargs: Any) -> Any:
            check(access.grant, store, name, args, kwargs)
            return found(*args, **kwargs)

        return guarded_call


def guarded(store: Store, access: Access) -> Store:
    """``store`` as a session of ``access`` may use it (the store itself for the app-wide code
    on loopback is the same: :func:`check` lets everything through)."""
    return cast(Store, GuardedStore(store, access))


def route_refusal(grant: Grant, store: Store, location: str) -> tuple[str, dict[str, Any], str | None] | None:
    """Why ``grant`` may not open ``location`` (a route's path): the text's key, its
    parameters and the route to offer instead; ``None``: it may.

    A table's code opens its table's games (scoreboard, deal entry, a dispute's version) only,
    and is offered its table's game now; the viewer's opens no deal entry (nor a dispute's
    version), no new game and no new night.
    """
    if grant.everything or (grant.role is Role.DIRECTOR and grant.night is not None):
        return None
    parts = [part for part in location.split("/") if part]
    if grant.table is not None and grant.night is not None:
        try:
            games = table_games(store.find_night(grant.night), grant.table)
        except ScorerError:
            games = []
        # its games' scoreboard, deal entry and the form of a dispute's own version
        if (
            len(parts) >= 2
            and parts[0] == "game"
            and parts[1] in games
            and parts[2:3] in ([], ["deal"], ["dispute"])
        ):
            return None
        return ("access.table_only", {"table": grant.table}, f"/game/{games[-1]}" if games else None)
    deal_entry = len(parts) >= 3 and parts[0] == "game" and parts[2] in ("deal", "dispute")
    new_night = len(parts) == 3 and parts[0] == "leagues" and parts[2] == "night"
    if deal_entry or parts[:2] == ["game", "new"] or new_night:
        return ("access.viewer_only", {}, "/" if not deal_entry else f"/game/{parts[1]}")
    return None


def unguarded(store: Store) -> Store:
    """The store behind a session's :class:`GuardedStore` (for what the session's code may know:
    its own code, a director's table codes)."""
    return store._store if isinstance(store, GuardedStore) else store


def with_code(link: str, code: str) -> str:
    """``link`` carrying ``code`` in its query in place of the one it had.

    >>> with_code("http://192.168.1.20:8550/?code=K7MPQ2XA", "TSTXZ35H")
    'http://192.168.1.20:8550/?code=TSTXZ35H'
    """
    parts = urlsplit(link)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "code"] + [("code", code)]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def own_link(base: str | None, grant: Grant, store: Store) -> str | None:
    """The app's access link as this session may show it: with its own code, never the
    app-wide one unless that is its code (``base``: the app-wide link; ``None``: none)."""
    if base is None or grant.everything:
        return base
    if grant.night is None:
        return None
    secret = unguarded(store).code_secret()
    return with_code(base, derive(secret, night=grant.night, role=grant.role, table=grant.table))


@dataclass(frozen=True, slots=True)
class NightLinks:
    """What a night's director hands out: the viewer's code and link, each table's link."""

    viewer_code: str
    viewer_link: str
    tables: dict[int, str]


def night_links(base: str | None, grant: Grant, store: Store, night: Night) -> NightLinks | None:
    """The night's codes in links, for its director (the app-wide code's session, or the
    night's director code's); ``None`` for any other session, or with no gate (no codes)."""
    director = grant.everything or (grant.role is Role.DIRECTOR and grant.night == night.id)
    if base is None or not director:
        return None
    codes = night_codes(unguarded(store).code_secret(), night)
    return NightLinks(
        viewer_code=codes.viewer,
        viewer_link=with_code(base, codes.viewer),
        tables={table: with_code(base, code) for table, code in codes.tables},
    )


_NO_ACCESS = Access()
AccessContext: Final = ft.create_context(_NO_ACCESS)
"""The session's :class:`Access` (outside the app: everything)."""


def use_access() -> Access:
    """The session's access (a hook)."""
    access: Access = ft.use_context(AccessContext)
    return access


@ft.component
def RouteGuard() -> ft.Control:
    """The routes' outer layout: the screen asked for, or why this session's code may not open
    it, with the way to the screen it may (a table's game now)."""
    outlet = ft.use_route_outlet()
    grant = use_access().grant
    refused = route_refusal(grant, use_store(), ft.use_route_location())
    if refused is None:
        return outlet if outlet is not None else ft.Container()
    key, params, offered = refused
    language = use_settings().language
    controls: list[ft.Control] = [
        headline(tr("access.not_here", language)),
        ft.Text(tr(key, language, **params), size=16),
    ]
    if offered is not None:
        label = tr("access.to_table" if grant.table is not None else "access.to_allowed", language, **params)
        controls.append(ft.Button(label, on_click=lambda: navigate(offered)))
    return screen(*controls)


def provide_access(access: Access, render: Callable[[], ft.Control]) -> ft.Control:
    """Render ``render``'s tree with ``access`` as the session's."""
    control: ft.Control = AccessContext(access, render)
    return control


__all__ = [
    "CALL_ANSWERS",
    "GAME_CHANGES",
    "LOOKS_ONLY",
    "NIGHT_CHANGES",
    "READS",
    "Access",
    "AccessContext",
    "AccessRefused",
    "GuardedStore",
    "NightLinks",
    "RouteGuard",
    "check",
    "follow_connections",
    "guarded",
    "night_links",
    "own_link",
    "provide_access",
    "route_refusal",
    "session_grant",
    "unguarded",
    "use_access",
    "with_code",
]
