"""Reading what a phone kept (its language, theme, name and device name) never waits for ever.

Flet waits for a client's answer without end; a question sent as the browser reloaded went to
the connection that left, and the session, restored on the new connection, never heard back:
Settings showed its progress ring for good (tests/test_ui_browser_gate.py saw it after a
reload). :func:`scorer.ui.app.read_kept` asks again after a time limit.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from scorer.ui import app
from scorer.ui.app import DEVICE_KEY, LANGUAGE_KEY, NAME_KEY, THEME_KEY, read_kept


class Storage:
    """A phone's storage whose first ``lost`` questions are never answered."""

    def __init__(self, kept: dict[str, object], *, lost: int = 0) -> None:
        self.kept = kept
        self.lost = lost
        self.asked: list[str] = []

    async def get(self, key: str) -> object:
        self.asked.append(key)
        if self.lost > 0:
            self.lost -= 1
            await asyncio.Event().wait()  # the answer went to a connection that left
        return self.kept.get(key)


def run(storage: Storage) -> object:
    """:func:`read_kept` of ``storage``, on an event loop of its own thread (a browser test's
    Playwright keeps a loop running on the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, read_kept(storage)).result()  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "PREFERENCE_SECONDS", 0.05)


KEPT = {LANGUAGE_KEY: "fi", THEME_KEY: "dark", NAME_KEY: "Anna", DEVICE_KEY: "Laite K7MP"}


def test_what_was_kept_is_read_in_order() -> None:
    storage = Storage(KEPT)
    assert run(storage) == ("fi", "dark", "Anna", "Laite K7MP")
    assert storage.asked == [LANGUAGE_KEY, THEME_KEY, NAME_KEY, DEVICE_KEY]


def test_a_question_lost_in_a_reload_is_asked_again() -> None:
    storage = Storage(KEPT, lost=1)
    assert run(storage) == ("fi", "dark", "Anna", "Laite K7MP")
    assert storage.asked[:2] == [LANGUAGE_KEY, LANGUAGE_KEY]


def test_a_storage_that_never_answers_gives_none_after_the_tries() -> None:
    storage = Storage(KEPT, lost=app.PREFERENCE_TRIES)
    assert run(storage) is None
    assert storage.asked == [LANGUAGE_KEY] * app.PREFERENCE_TRIES


class Closing(Storage):
    """A session closed as it is asked: the question fails in the same step as the task that
    asked is cancelled (Flet fails a closed session's questions)."""

    def __init__(self) -> None:
        super().__init__(KEPT)
        self.asker: asyncio.Task[object] | None = None

    async def get(self, key: str) -> object:
        self.asked.append(key)
        if len(self.asked) == 1 and self.asker is not None:
            self.asker.cancel()
            raise RuntimeError("the session is closed")
        await asyncio.Event().wait()  # a closed session never answers
        return None


def test_a_session_closed_as_it_is_asked_stops_asking() -> None:
    # asyncio.wait_for raised the failed question and not the cancel, and the task asked the
    # closed session again (PREFERENCE_SECONDS a try) and lived on after it.
    storage = Closing()

    async def closed() -> str:
        asker = asyncio.create_task(read_kept(storage))  # type: ignore[arg-type]
        storage.asker = asker
        try:
            await asker
        except asyncio.CancelledError:
            return "cancelled"
        return "went on"

    with ThreadPoolExecutor(max_workers=1) as thread:
        assert thread.submit(asyncio.run, closed()).result() == "cancelled"
    assert storage.asked == [LANGUAGE_KEY]
