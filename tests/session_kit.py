"""The app's real Flet sessions in plain pytest, with no browser: a client that is not there.

:class:`Phones` opens sessions of :func:`scorer.ui.app.app_main` on one store, in one process
(as one ``rummy app`` serves them), each on a :class:`AbsentClient`: a Flet connection that
msgpack-encodes each message the session sends, as the web client receives them, and keeps
them, so that a test can count what a phone was sent and how much. Nothing answers the
session's questions to the client (its wakelock, its kept settings): they wait, as they would
for a slow phone. Uses Flet's internal modules (``flet.messaging``): pinned with Flet 1.0.5.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import Message, MessageAction, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorer.league.store import Store
from scorer.ui.app import app_main

ENCODE = configure_encode_object_for_msgpack(BaseControl)


class AbsentClient(Connection):
    """A session's connection to a phone that takes every message and says nothing."""

    def __init__(
        self, *, loop: asyncio.AbstractEventLoop, hub: PubSubHub, executor: ThreadPoolExecutor
    ) -> None:
        super().__init__()
        self.loop = loop
        self.executor = executor
        self.pubsubhub = hub
        self.page_url = "http://127.0.0.1/"
        #: Every message, as the web client receives it.
        self.sent: list[bytes] = []
        #: Of those, the changes to what the phone shows (not the session's questions to it).
        self.patches: list[bytes] = []

    def send_message(self, message: Message) -> None:
        packed = msgpack.packb([message.action, message.body], default=ENCODE)
        self.sent.append(packed)
        if message.action == MessageAction.PATCH_CONTROL:
            self.patches.append(packed)

    def bytes_patched(self) -> int:
        return sum(len(m) for m in self.patches)


class Phones:
    """Sessions of the app on ``store``; use inside a running event loop (:func:`run`), as
    ``async with Phones(store) as phones``: their sessions are closed after the block."""

    def __init__(self, store: Store) -> None:
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(max_workers=2)
        self.hub = PubSubHub(loop=self.loop, executor=self.executor)
        self.main = app_main(store, language="en")
        self.sessions: list[Session] = []

    async def open(self, route: str) -> tuple[Session, AbsentClient]:
        """A phone opening the app at ``route``, once its screen is drawn."""
        client = AbsentClient(loop=self.loop, hub=self.hub, executor=self.executor)
        session = Session(client)
        self.sessions.append(session)
        _context_page.set(session.page)
        session.apply_page_patch({"route": route, "width": 400, "height": 800, "web": True})
        # The page as the client registers it (encoding it marks what the next patches leave out).
        first = msgpack.packb(session.get_page_patch(), default=ENCODE)
        client.sent.append(first)
        client.patches.append(first)
        self.main(session.page)
        await session.after_event(session.page)
        await self.settle()
        return session, client

    async def settle(self, seconds: float = 0.3) -> None:
        """Let every session's scheduled renders and effects run."""
        await asyncio.sleep(seconds)

    def close(self) -> None:
        for session in self.sessions:
            session.close()
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def __aenter__(self) -> Phones:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.close()


def run(test: Coroutine[Any, Any, None]) -> None:
    """Run ``test`` on an event loop of its own, on a thread of its own (in the whole suite the
    browser tests' Playwright keeps a loop running on the main thread, and a second loop is
    refused there), then end the sessions' tasks without waiting for their questions to the
    phone (``asyncio.run`` would wait for the executor's threads). What ``test`` raised is
    raised here."""
    failed: list[BaseException] = []

    def on_its_thread() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(test)
        except BaseException as exc:  # handed to the test's own thread
            failed.append(exc)
        finally:
            left = asyncio.all_tasks(loop)
            for task in left:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.close()

    thread = threading.Thread(target=on_its_thread, name="session-kit")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def texts(sent: list[bytes]) -> list[Any]:
    """The decoded messages (``[action, body]``), for a test that reads what was sent."""
    return [msgpack.unpackb(m, strict_map_key=False) for m in sent]
