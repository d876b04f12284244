"""The browser tests' shared hands: find what a player sees, choose from a menu, type into a
field, tap cards. One copy, used by every ``tests/test_ui_*browser*.py``.

Each helper waits for a condition the page shows (the menu's choice is there, the menu has
closed, the field is empty, the field holds what was typed, the app shows the typed hand)
instead of sleeping a fixed time.
Keys are typed at a person's pace (:data:`KEY_DELAY_MS`): a CPU-starved Chromium loses keys
sent back to back (docs: /work/shared/FLET_NOTES.md). The call signatures are those of the
copies they replace (``choose(page, label, option)``, ``type_into(page, label, text)``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from scorer.cards import Card, parse_cards, sort_key
from scorer.ui.components.card_face import card_label, card_spans
from scorer.ui.components.card_face import faces as ui_faces

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

#: A pause after each key, in milliseconds: a person's pace, at which no key is lost.
KEY_DELAY_MS = 100
#: How long a condition may take on a loaded 2-core machine before the helper gives up.
WAIT_MS = 15_000
#: A menu opened while the screen re-renders can close again at once: tries before failing.
MENU_TRIES = 4
#: Typing again when the field does not hold what was typed (a key lost on the way).
TYPE_TRIES = 3
#: :func:`settled`: the screen looked at every this many milliseconds, and how many looks in a
#: row must find it unchanged.
SETTLE_POLL_MS = 100
SETTLE_LOOKS = 4

#: What the player sees, as one text: every semantics node's label or text and its place.
_SCREEN = """() => [...document.querySelectorAll('flt-semantics')].map(e => {
  const r = e.getBoundingClientRect();
  return (e.getAttribute('aria-label') || e.innerText || '') + '@' + Math.round(r.x) + ',' + Math.round(r.y);
}).join('|')"""


def shown(page: Page, text: str) -> Locator:
    """``text`` as the player sees it: within Flutter's semantics tree (a live region's text is
    also copied into an aria-live announcement element, which is not what the player sees)."""
    return page.locator("flt-semantics").get_by_text(text, exact=True)


def wait_shown(page: Page, text: str, *, timeout: int = WAIT_MS) -> None:
    """Wait until ``text`` is visible (its first occurrence)."""
    from playwright.sync_api import expect

    expect(shown(page, text).first).to_be_visible(timeout=timeout)


#: The name the referee tests gave :func:`wait_shown`.
expect_shown = wait_shown


def settled(page: Page, *, timeout: int = WAIT_MS) -> None:
    """Wait until the screen stops changing: what it shows and where, the same in
    :data:`SETTLE_LOOKS` looks in a row :data:`SETTLE_POLL_MS` apart (the app's first updates
    after a screen opens have landed, so a menu opened now is not closed by one of them).
    A screen that never stops (a round's clock ticking) is waited for ``timeout`` at most."""
    deadline = time.monotonic() + timeout / 1000
    last, same = None, 0
    while time.monotonic() < deadline:
        now = page.evaluate(_SCREEN)
        same = same + 1 if now == last else 0
        if same >= SETTLE_LOOKS:
            return
        last = now
        page.wait_for_timeout(SETTLE_POLL_MS)


def choose(page: Page, label: str, option: str) -> None:
    """Open the menu ``label`` and choose ``option``; return once the menu has closed.

    The menu's options are buttons of their own. A re-render arriving as the menu opens can
    close it again: then it is opened once more (never clicked shut while it is open).
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    menu = page.get_by_role("button", name=label)
    choices = page.get_by_role("button", name=option, exact=True)
    menu.first.wait_for(timeout=WAIT_MS)
    closed = choices.count()  # the same name outside the menu (a player's row, a label)
    for _ in range(MENU_TRIES):
        if choices.count() <= closed:
            menu.first.click()
            try:
                expect(choices).not_to_have_count(closed, timeout=WAIT_MS // 2)
            except AssertionError:
                continue  # the menu closed as it opened
        try:
            choices.last.click(timeout=WAIT_MS // 2)
        except PlaywrightTimeout:
            continue
        try:
            expect(choices).to_have_count(closed, timeout=WAIT_MS)  # the menu has closed
        except AssertionError:
            continue
        return
    pytest.fail(f"{label}: no choice {option!r} after {MENU_TRIES} tries")


def type_into(page: Page, label: str, text: str) -> None:
    """Type ``text`` into the field ``label`` key by key, replacing what it held.

    ``fill()`` would set the DOM value without Flutter seeing an edit. The editing element
    holds what Flutter received: when a key was lost on the way, the field is typed again.
    """
    from playwright.sync_api import expect

    field = page.get_by_role("textbox", name=label)
    for _ in range(TYPE_TRIES):
        # The field is tapped where it is drawn, scrolled into the window and still
        # (:func:`tap_still`), and typed into only once it holds the focus: a tap below the
        # fold or on a moving screen lands on whatever is drawn there (another field, whose
        # text the keys would edit, or a player's row it would tick), and an empty field
        # "cleared" proves nothing about where the keys went.
        tap_still(page, field)
        try:
            expect(field).to_be_focused(timeout=WAIT_MS // 3)
        except AssertionError:
            continue
        field.press("Control+A")
        field.press("Backspace")
        try:
            expect(field).to_have_value("", timeout=WAIT_MS // 3)
        except AssertionError:
            continue
        field.press_sequentially(text, delay=KEY_DELAY_MS)
        try:
            expect(field).to_have_value(text, timeout=WAIT_MS // 3)
        except AssertionError:
            continue
        return
    pytest.fail(f"{label}: typed {text!r}, the field holds {field.input_value()!r}")


def cards_echo(text: str) -> str:
    """The line Deal entry shows under a hand's field once the app holds ``text``: the cards
    with their suit symbols (``KS 5H``: ``K♠ 5♥``), or the text as typed when it is no cards."""
    return "".join(str(span.text) for span in card_spans(text))


def type_cards(page: Page, label: str, cards: str) -> None:
    """Type ``cards`` into the hand's field ``label`` (:func:`type_into`), then wait until the
    app shows them under the field.

    The field's own value is the browser's: on a loaded machine the app can still be working
    through the last keys when it holds them all, and a tap then (on Save deal) lands on a
    screen that moves under it as the app's answer to those keys re-lays it out (the line
    under the hand, its error, the engine's reading). The line under the hand is drawn from
    what the app received, so once it shows these cards, every key has arrived and the screen
    drawn from it is in place. Counted, because another hand may show the same line.
    """
    field = page.get_by_role("textbox", name=label)
    field.wait_for(timeout=WAIT_MS)
    echo = cards_echo(cards)
    lines = shown(page, echo)
    # The app is up to date here (each earlier field was waited for): count what it shows now.
    before = lines.count() if echo else 0
    held = field.input_value()
    type_into(page, label, cards)
    if not echo:
        return
    wanted = before if held and cards_echo(held) == echo else before + 1
    from playwright.sync_api import expect

    expect(lines.nth(wanted - 1)).to_be_attached(timeout=WAIT_MS)


def _picker_owner(page: Page, button: Locator) -> str | None:
    """Whose hand the card picker holding ``button`` fills: the player whose "Cards left" field
    is the nearest above it (the picker opens under that field), or None while it is not laid out."""
    box = button.bounding_box()
    if box is None:
        return None
    owner, nearest = None, None
    fields = page.get_by_role("textbox", name="Cards left: ")
    for i in range(fields.count()):
        field = fields.nth(i)
        place = field.bounding_box()
        name = field.get_attribute("aria-label") or ""
        if place is None or place["y"] >= box["y"]:
            continue
        if nearest is None or place["y"] > nearest:
            owner, nearest = name.removeprefix("Cards left: "), place["y"]
    return owner


def tap_still(page: Page, button: Locator) -> None:
    """Tap ``button`` once it is enabled, on the screen and has stopped moving.

    Playwright's own click scrolls Flutter's accessibility layer into view but not its drawing,
    so a tap below the fold lands on whatever is drawn there. The page is scrolled the way a
    player would, with the mouse wheel over it, until the button is inside the window; then
    it is tapped where it is drawn, once two looks :data:`SETTLE_POLL_MS` apart agree.
    """
    from playwright.sync_api import expect

    expect(button).to_be_enabled(timeout=WAIT_MS)
    viewport = page.viewport_size or {"width": 900, "height": 700}
    deadline = time.monotonic() + WAIT_MS / 1000
    last = None
    while time.monotonic() < deadline:
        box = button.bounding_box()
        if box is None:
            page.wait_for_timeout(SETTLE_POLL_MS)
            continue
        middle = box["y"] + box["height"] / 2
        if middle > viewport["height"] - box["height"] or middle < box["height"]:
            page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
            page.mouse.wheel(0, middle - viewport["height"] / 2)
            last = None
            page.wait_for_timeout(SETTLE_POLL_MS)
            continue
        if box == last:
            page.mouse.click(box["x"] + box["width"] / 2, middle)
            return
        last = box
        page.wait_for_timeout(SETTLE_POLL_MS)
    pytest.fail(f"{button}: never still on the screen to be tapped")


def tap_cards(page: Page, player: str, cards: str) -> None:
    """Tap each card of ``cards`` on ``player``'s open card picker (opened with its "Pick cards
    for" button), starting from an empty hand.

    The picker is first waited for under the player's own field (opening it moves it there
    from another hand). After each tap the line under the hand must show the cards held so
    far, in the app's order: the app received the tap and drew its answer. A tap that left the
    line as it was (lost while the screen moved) is tapped again, never one that landed.
    """
    from playwright.sync_api import expect

    wanted = parse_cards(cards)
    first = page.get_by_role("button", name=card_label(wanted[0]), exact=True)
    for _ in range(WAIT_MS // SETTLE_POLL_MS):
        if first.count() == 1 and _picker_owner(page, first) == player:
            break
        page.wait_for_timeout(SETTLE_POLL_MS)
    else:
        pytest.fail(f"the card picker never opened under {player}'s hand")
    held: list[Card] = []
    for card in wanted:
        held.append(card)
        # Counted: a lone card's line reads as its button does, and another hand may match.
        line = shown(page, cards_echo(ui_faces(sorted(held, key=sort_key))))
        before = line.count()
        button = page.get_by_role("button", name=card_label(card), exact=True)
        for _ in range(MENU_TRIES):
            tap_still(page, button)
            try:
                expect(line).to_have_count(before + 1, timeout=WAIT_MS // 2)
            except AssertionError:
                continue
            break
        else:
            pytest.fail(f"{player}: {card_label(card)} tapped {MENU_TRIES} times, the hand never showed it")


def tick(box: Locator) -> None:
    """Turn on the checkbox or switch ``box`` and wait until it shows as on. A tap that a
    re-render swallowed (the box still off) is tapped again, never one that landed."""
    from playwright.sync_api import expect

    for _ in range(MENU_TRIES):
        if box.is_checked():
            return
        box.click()
        try:
            expect(box).to_be_checked(timeout=WAIT_MS // 3)
        except AssertionError:
            continue
        return
    pytest.fail(f"{box}: still off after {MENU_TRIES} taps")
