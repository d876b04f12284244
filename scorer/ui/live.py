"""Live screens: every open screen follows the store, whoever changed it.

One mechanism for the whole app, in two parts:

- :class:`StoreWatch`, one per app process, notices that the store changed, by comparing
  :meth:`Store.changes() <scorer.league.store.Store.changes>` (a token that differs after
  every write by any program) with the last one it saw. A session that writes asks it at once
  (:meth:`StoreWatch.check`); a background task asks it every :data:`POLL_SECONDS` for writes
  made by other programs (another app process on the same folder, ``rummy league import``).
  On a PostgreSQL database the store says when another process commits (LISTEN/NOTIFY:
  :meth:`Store.listen() <scorer.league.store.Store.listen>`): a thread hears it and asks at
  once, and the poll only looks every :data:`LISTENING_POLL_SECONDS`, in case a notice was
  missed while the database was out of reach.
  Whatever it notices it publishes to every session through Flet's pub/sub, and keeps what
  the change was about (the games and nights it named: :meth:`Store.changed_since()
  <scorer.league.store.Store.changed_since>`), so that a screen showing one game need not
  read the store again for a save at another table.
- :class:`Revision`, one per session (browser tab), is the observable "store revision" that
  screens depend on: it counts the changes the session has been told of. A screen reads the
  store again whenever its number moves (:func:`use_live`), and on mount. A browser reload
  reconnects to the same session, so a reconnect moves it too: a reload always reads afresh.

Both are plain Python; only :func:`connect_session` and the hooks touch Flet.

>>> revision = Revision.at("a")
>>> revision.notice("a"), revision.number
(False, 0)
>>> revision.notice("b"), revision.number
(True, 1)
>>> revision.touch(); revision.number
2
>>> revision.notice("c", frozenset({"game 1"})), revision.names(2, ["game 2"]), revision.names(2, ["game 1"])
(True, False, True)
>>> revision.names(1, ["game 2"])  # the reconnect in between: anything may have changed
True
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import flet as ft

from scorer.league.errors import StoreError
from scorer.league.records import StoredGame

if TYPE_CHECKING:  # the store's module builds on pydantic: not before the phone's first screen
    from scorer.league.store import Store

log = logging.getLogger(__name__)

#: How often the store's change token is read for changes made by other programs.
POLL_SECONDS: Final = 0.5
#: How often the token is read where the store tells of other processes' commits itself.
LISTENING_POLL_SECONDS: Final = 10.0
#: The longest wait before listening again after the database went out of reach.
LISTEN_RETRY_SECONDS: Final = 30.0
#: The pub/sub topic on which the sessions of one app process hear of a change.
TOPIC: Final = "rummy-scorer.store"
#: How many changes' subjects the watch and each session's revision keep: a screen that
#: missed more than this reads the store again, whatever they named.
KEPT_CHANGES: Final = 64

Publish = Callable[[str], object]


class StoreWatch:
    """Notices changes to one store and tells every session of the app process.

    ``publish`` receives the new token (the app gives it Flet's pub/sub); tests give a list's
    ``append``.
    """

    def __init__(self, store: Store, *, publish: Publish | None = None) -> None:
        self.store = store
        self.token = store.changes()
        self.publish = publish
        self._task: Future[None] | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        #: Told of every change noticed, after the sessions (the club sync: a deal saved).
        self.listeners: list[Callable[[], object]] = []
        #: What each of the last tokens changed since the one before (``None``: anything).
        self._changed: dict[str, frozenset[str] | None] = {}
        self._checking = threading.Lock()

    def what_changed(self, token: str) -> frozenset[str] | None:
        """The games and nights changed between the token before ``token`` and it; ``None``
        when something else may have changed too, or ``token`` is not one of the last ones."""
        return self._changed.get(token)

    def check(self) -> bool:
        """Read the token; when it moved, publish it. True if the store changed since last time."""
        try:
            token = self.store.changes()
        except (OSError, StoreError) as exc:  # the folder being mended, the database out of reach
            log.warning("store changes not readable: %s", exc)
            return False
        # A session's write is checked on its handler's thread while the poll checks on the
        # loop: the token moves, and what it changed is kept, once (a second check of the same
        # token would find nothing new after it and say nothing changed).
        with self._checking:
            if token == self.token:
                return False
            self._changed[token] = self.store.changed_since(self.token)
            while len(self._changed) > KEPT_CHANGES:
                del self._changed[next(iter(self._changed))]
            self.token = token
        if self.publish is not None:
            self.publish(token)
        for listener in self.listeners:
            listener()
        return True

    async def poll(self, *, interval: float = POLL_SECONDS) -> None:
        """Check forever, every ``interval`` seconds (the changes other programs make)."""
        while True:
            await asyncio.sleep(interval)
            self.check()

    def follow(self, loop: asyncio.AbstractEventLoop, *, stop: threading.Event) -> bool:
        """Hear the store's notices of commits until ``stop`` is set, asking :meth:`check` on
        ``loop`` at each (the thread :meth:`start` runs); listening again, after a pause that
        grows to :data:`LISTEN_RETRY_SECONDS`, whenever the database goes out of reach. False
        at once where the store cannot tell (a folder: the poll alone)."""
        pause = 1.0
        while not stop.is_set():
            changes = self.store.listen(stop=stop)
            if changes is None:
                return False
            try:
                for _changed in changes:
                    pause = 1.0
                    loop.call_soon_threadsafe(self.check)
            except StoreError as exc:
                log.warning("not hearing the store's changes, listening again in %.0f s: %s", pause, exc)
                stop.wait(pause)
                pause = min(pause * 2, LISTEN_RETRY_SECONDS)
                if not stop.is_set():
                    loop.call_soon_threadsafe(self.check)  # what was made while not listening
            except RuntimeError:  # the app's event loop is closed: the app is ending
                break
        return True

    def start(self, publish: Publish, *, loop: asyncio.AbstractEventLoop) -> None:
        """Run :meth:`poll` on ``loop``, once per process, publishing with ``publish``; where
        the store tells of commits, a thread of :meth:`follow` as well, and a slower poll."""
        if self.publish is None:
            self.publish = publish
        if self._task is None or self._task.done():
            listening = self.store.listens
            if listening and (self._listener is None or not self._listener.is_alive()):
                self._stop = threading.Event()
                self._listener = threading.Thread(
                    target=self.follow,
                    args=(loop,),
                    kwargs={"stop": self._stop},
                    name="rummy-store-listen",
                    daemon=True,
                )
                self._listener.start()
            interval = LISTENING_POLL_SECONDS if listening else POLL_SECONDS
            self._task = asyncio.run_coroutine_threadsafe(self.poll(interval=interval), loop)

    def stop(self) -> None:
        self._stop.set()
        self._listener = None
        if self._task is not None:
            self._task.cancel()
            self._task = None


# eq=False: shared mutable state compares by identity (Flet matches hook values with ==).
@dataclass(eq=False)
class Revision(ft.Observable):
    """The store as one session last heard of it: screens re-read it when ``number`` moves.

    The token is private (``_token``): only a new number re-renders the screens.
    """

    number: int = 0
    _token: str = field(default="", repr=False)
    #: What each of the last numbers was about: ``(number, subjects)``, ``None`` for anything.
    _recent: deque[tuple[int, frozenset[str] | None]] = field(
        default_factory=lambda: deque(maxlen=KEPT_CHANGES), repr=False
    )

    @classmethod
    def at(cls, token: str) -> Revision:
        """A session's revision, starting from the store's ``token``."""
        revision = cls()
        revision._token = token
        return revision

    @property
    def token(self) -> str:
        return self._token

    def notice(self, token: str, subjects: frozenset[str] | None = None) -> bool:
        """A change token heard of, and the games and nights it changed (``None``: anything);
        True (and a new number) when it is not the one held."""
        if token == self._token:
            return False
        self._token = token
        self._recent.append((self.number + 1, subjects))
        self.number += 1
        return True

    def touch(self) -> None:
        """Read again whatever the token says (the browser reconnected: a reload)."""
        self._recent.append((self.number + 1, None))
        self.number += 1

    def names(self, since: int, subjects: Iterable[str]) -> bool:
        """Whether the changes heard after number ``since`` may concern ``subjects`` (games or
        nights): one that named them, or one that may have changed anything."""
        after = [named for number, named in self._recent if number > since]
        if len(after) < self.number - since:  # some no longer kept: anything may have changed
            return True
        wanted = set(subjects)
        return any(named is None or not named.isdisjoint(wanted) for named in after)


@dataclass(eq=False)
class LiveSession:
    """One session's part: its revision, and the process's watch to tell of its own writes."""

    watch: StoreWatch
    revision: Revision = field(default_factory=Revision)

    def announce(self) -> None:
        """This session wrote to the store: every session hears of it now (this one too: a
        write by another program in between is read as well; a view-model that finds nothing
        new changes nothing, so its screen sends nothing)."""
        self.watch.check()


def connect_session(page: ft.Page, watch: StoreWatch) -> LiveSession:
    """Wire one Flet session: hear the process's changes, start the poll, re-read on reconnect."""
    session = LiveSession(watch=watch, revision=Revision.at(watch.token))

    async def heard(token: str) -> None:
        session.revision.notice(token, watch.what_changed(token))

    def on_message(_topic: str, message: Any) -> None:
        # Run on this session's own page (its context), whichever session published. A session
        # whose browser is away (a phone locked, a tab gone to another page) has no connection
        # to run it on until the browser comes back, and then it reads again (reconnected).
        if page.session.connection is None:
            return
        page.run_task(heard, str(message))

    pubsub = page.pubsub
    pubsub.subscribe_topic(TOPIC, on_message)

    def publish(token: str) -> None:
        try:
            pubsub.send_all_on_topic(TOPIC, token)
        except RuntimeError:  # pub/sub without an event loop (the app inside the browser): one session
            session.revision.notice(token)

    watch.start(publish, loop=page.session.connection.loop)

    def reconnected(_event: Any) -> None:
        session.revision.touch()

    def closed(_event: Any) -> None:
        pubsub.unsubscribe_all()  # type: ignore[no-untyped-call]

    page.on_connect = reconnected
    page.on_close = closed
    return session


def same_game(a: StoredGame, b: StoredGame) -> bool:
    """The same state of one game (every change to a game is a signed event, and stamps it).

    A view-model that reads the store again keeps what it has when nothing is new: its screen
    then renders as before and sends the browser nothing (a menu being opened stays open).
    """

    def state(g: StoredGame) -> tuple[object, ...]:
        return (g.id, g.changed, g.status, len(g.events), g.league_id, g.season_id)

    return state(a) == state(b)


_NO_SESSION: LiveSession | None = None
LiveContext: Final = ft.create_context(_NO_SESSION)
"""The session's :class:`LiveSession` (``None`` outside the app: nothing is live)."""


def use_live(
    reload: Callable[[], object], *, subjects: Callable[[], Iterable[str]] | None = None
) -> LiveSession | None:
    """Call ``reload`` whenever the store changed since the component mounted (a hook).

    The component re-renders when the session's revision moves; ``reload`` runs after it, so a
    view-model re-reads the store and the screen shows what it reads. (The view-model reads the
    store as the component mounts; a browser reload moves the revision too.) With ``subjects``
    (the games and nights the screen shows), only a change that may concern one of them is
    read: one saved at another table is not.
    """
    session: LiveSession | None = ft.use_context(LiveContext)
    # The observable revision from a context: its changes re-render this component.
    revision: Revision | None = ft.use_context(_RevisionContext)
    number = revision.number if revision is not None else 0
    # The view-model was read from the store as the component mounted (its use_state): the
    # effect's first run, at mount, has nothing new to read.
    seen = ft.use_ref(number)

    def read_again() -> None:
        if seen.current != number:
            since, seen.current = seen.current or 0, number
            if subjects is None or revision is None or revision.names(since, subjects()):
                reload()

    ft.use_effect(read_again, dependencies=[number])
    return session


@ft.component
def Follow(
    *, reload: Callable[[], object], subjects: Callable[[], Iterable[str]] | None = None
) -> ft.Control:
    """:func:`use_live` from a child of the screen (nothing to see): ``reload`` reads the
    screen's observable view-models again, and the screen is drawn again only when they
    changed. A screen that calls :func:`use_live` itself is drawn again, its whole tree built
    and diffed, at every change anyone makes to the store: in a club room, every phone of the
    process at every save (bench/README.md, "32 phones on a club server")."""
    use_live(reload, subjects=subjects)
    return ft.Container(visible=False)


_NO_REVISION: Revision | None = None
_RevisionContext: Final = ft.create_context(_NO_REVISION)


def provide(session: LiveSession, render: Callable[[], ft.Control]) -> ft.Control:
    """Give ``session`` (and its observable revision) to every screen under ``render``."""
    return LiveContext(session, lambda: _RevisionContext(session.revision, render))


def use_announce() -> Callable[[], None]:
    """A hook: the function a screen calls after it wrote to the store."""
    session: LiveSession | None = ft.use_context(LiveContext)

    def told() -> None:
        if session is not None:
            session.announce()

    return told
