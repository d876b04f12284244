"""The app's sync with its club server (Settings -> *Club server*), one per app process.

While the store has a club server (:meth:`Store.club_server
<scorer.league.store.Store.club_server>`), :class:`ClubSync` syncs its league
(:func:`scorer.league.sync.sync`): when Settings' *Sync now* asks (:meth:`ClubSync.sync_now`,
run off the event loop), every :data:`SYNC_EVERY` seconds, and :data:`AFTER_SAVE` seconds
after the last change to the store (a deal saved: the process's
:class:`~scorer.ui.live.StoreWatch` tells it). One background task per process, never two
syncs at once (a lock: a second asks finds one under way and waits for nothing). A sync that
fails is logged (never the token) and kept as the last outcome, which Settings shows; while
the server is out of reach the next try waits longer each time, up to :data:`BACKOFF_MOST`.

What it received reaches every session as any other change does: the store's watch publishes it.

>>> backoff(1), backoff(2), backoff(10)
(30.0, 60.0, 1800.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from scorer.errors import ScorerError
from scorer.league.club_server import ClubServer
from scorer.messages import Message

if TYPE_CHECKING:
    from scorer.league.store import Store
    from scorer.league.sync import SyncReport, Transport

log = logging.getLogger(__name__)

#: Seconds between two syncs while nothing changes.
SYNC_EVERY: Final = 300.0
#: Seconds after the last change to the store before it is synced (a night's deals come in
#: bursts: one sync after the burst).
AFTER_SAVE: Final = 10.0
#: Seconds before the first try again after a failed sync, doubled at each failure, at most.
BACKOFF_FIRST: Final = 30.0
BACKOFF_MOST: Final = 1800.0
#: Seconds before a sync on its own is tried again while the device says it is offline.
OFFLINE_WAIT: Final = 60.0

TransportFor = Callable[[ClubServer], "Transport"]


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failed syncs in a row."""
    return min(BACKOFF_FIRST * 2.0 ** max(failures - 1, 0), BACKOFF_MOST)


def http_transport(server: ClubServer) -> Transport:
    """The sync API over HTTP (the standard library's ``urllib``: the served app)."""
    from scorer.league.sync import HttpTransport

    return HttpTransport(server.url, server.token)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """One sync's end: when, with which server, and what it did, or why it stopped."""

    at: str
    url: str
    report: SyncReport | None = None
    error: Message | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class ClubSync:
    """Syncs one store with its club server: on request, on a timer, after changes.

    ``transport_for`` makes the connection to a server (tests: the server in-process; the app
    in a browser: :mod:`scorer.web.browser_transport`); ``threaded``: run a sync in a thread
    (the served app), or on the event loop itself (a browser's Python has no threads: its
    requests wait in its web worker, never in the page)."""

    def __init__(
        self,
        store: Store,
        *,
        transport_for: TransportFor = http_transport,
        threaded: bool = True,
        clock: Callable[[], float] = time.monotonic,
        online: Callable[[], bool] = lambda: True,
    ) -> None:
        self.store = store
        #: Whether the device is online (a browser's ``navigator.onLine``): offline, a sync on
        #: its own waits (Sync now still tries, and says why it failed).
        self.online = online
        self.transport_for = transport_for
        self.threaded = threaded
        self.clock = clock
        self.last: SyncOutcome | None = None
        self.failures = 0
        #: Told (from any thread) when a sync starts and when it ends: the sessions' screens.
        self.listeners: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._due = clock() + AFTER_SAVE  # soon after the app starts: what changed while it was off
        self._save_due: float | None = None
        self._synced_at = -1  # the store's position after the last sync
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: Future[None] | asyncio.Task[None] | None = None

    @property
    def syncing(self) -> bool:
        """Whether a sync is under way."""
        return self._lock.locked()

    # -- one sync ------------------------------------------------------------------------------

    def sync_now(self) -> SyncOutcome | None:
        """Sync once with the store's club server, now (blocking: the app runs it off its event
        loop). ``None``: no club server set, or a sync already under way (its outcome will be
        :attr:`last`)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            try:
                server = self.store.club_server()
            except (ScorerError, OSError) as exc:
                log.warning("the club server's settings cannot be read: %s", exc)
                return None
            if server is None:
                return None
            self._tell()
            outcome = self._sync(server)
            self.last = outcome
            self.failures = 0 if outcome.ok else self.failures + 1
            self._due = self.clock() + (SYNC_EVERY if outcome.ok else backoff(self.failures))
            if outcome.report is not None:
                # A change made here while it ran is not sent yet: it is due as any save.
                self._save_due = self.clock() + AFTER_SAVE if self._unsent(server, outcome.report) else None
            return outcome
        finally:
            self._lock.release()
            self._tell()

    def _unsent(self, server: ClubServer, report: SyncReport) -> bool:
        """Whether this store holds commits made after the sync's send (the sent mark moves
        past those that only hold what was received)."""
        try:
            position = self.store.position
            sent, _ = self.store.sync_mark(server.url, report.league)
        except (ScorerError, OSError):
            return False
        self._synced_at = position
        return sent < position

    def _sync(self, server: ClubServer) -> SyncOutcome:
        from scorer.league.sync import sync

        try:
            report = sync(self.store, self.transport_for(server), league=server.league)
        except ScorerError as exc:  # the server out of reach, the token refused, a page refused
            log.warning("sync with the club server %s failed: %s", server.url, exc)
            return SyncOutcome(at=_now(), url=server.url, error=exc.message)
        except OSError as exc:  # the store's own folder refused the marks
            log.warning("sync with the club server %s failed: %s", server.url, exc)
            said = Message("sync.unreachable", url=server.url, reason=exc.strerror or str(exc))
            return SyncOutcome(at=_now(), url=server.url, error=said)
        log.info(
            "synced with the club server %s: %d sent, %d received, %d conflicts",
            server.url,
            report.sent,
            report.received,
            len(report.conflicts),
        )
        return SyncOutcome(at=_now(), url=server.url, report=report)

    async def sync_off_loop(self) -> SyncOutcome | None:
        """:meth:`sync_now`, awaited without holding up the event loop where there are threads."""
        if self.threaded:
            return await asyncio.to_thread(self.sync_now)
        return self.sync_now()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a session gone: the others are still told
                log.debug("a club sync listener failed", exc_info=True)

    # -- on its own ------------------------------------------------------------------------------

    def changed(self) -> None:
        """The store changed (the watch's notice; from any thread): sync :data:`AFTER_SAVE`
        seconds after the last change, unless the change was the sync's own."""
        if self.syncing:
            return  # the sync's own writes, or a change it finds unsent when it ends
        try:
            if self.store.position <= self._synced_at:
                return  # what the last sync received
        except (ScorerError, OSError):
            return
        self._save_due = self.clock() + AFTER_SAVE
        self._poke()

    def configured(self) -> None:
        """The club server was set or changed (Settings): try it soon, forgetting past failures."""
        self.failures = 0
        self._due = self.clock()
        self._poke()

    def came_online(self) -> None:
        """The device is online again (a browser's ``online`` event): sync soon if a change
        waits, or a try failed while offline."""
        if self._save_due is not None or self.failures:
            self.failures = 0
            self._due = self.clock()
            self._poke()

    def due_in(self) -> float:
        """Seconds until the next sync on its own (after a save, or on the timer; while failing,
        a save waits for the backoff too)."""
        due = self._due
        if self._save_due is not None:
            due = max(self._save_due, self._due) if self.failures else min(self._save_due, self._due)
        return max(0.0, due - self.clock())

    def _poke(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the app is ending
                loop.call_soon_threadsafe(wake.set)

    async def run(self, *, most_wait: float = SYNC_EVERY) -> None:
        """Sync whenever due, forever (one task per process: :meth:`start`)."""
        self._wake = asyncio.Event()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=min(self.due_in(), most_wait))
            self._wake.clear()
            if self.due_in() > 0:
                continue
            try:
                set_up = self.store.club_server() is not None
            except (ScorerError, OSError):
                set_up = False
            if not set_up:
                self._due, self._save_due = self.clock() + SYNC_EVERY, None
                continue
            if not self.online():  # tried again when the browser says it is online (came_online)
                self._due = self.clock() + OFFLINE_WAIT
                continue
            await self.sync_off_loop()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run :meth:`run` on ``loop``, once per process (every session calls it)."""
        if self._task is not None and not self._task.done():
            return
        self._loop = loop
        self._task = asyncio.run_coroutine_threadsafe(self.run(), loop)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


__all__ = [
    "AFTER_SAVE",
    "BACKOFF_FIRST",
    "BACKOFF_MOST",
    "OFFLINE_WAIT",
    "SYNC_EVERY",
    "ClubSync",
    "SyncOutcome",
    "backoff",
    "http_transport",
]
