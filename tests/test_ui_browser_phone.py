"""The served app on a phone, end to end in Chromium: touch targets, screen readers, installing.

- Every button of the main screens is at least 48 px high (docs/app.md), measured on the
  accessibility nodes, whose boxes are the controls' as Flutter lays them out.
- After a scrolled screen, the next screen's accessibility nodes are where it is drawn: a tap
  at a node, sent to the drawing and not to the node, does what the node says.
- The page names the app and links a web app manifest ("Add to home screen") whose icons load.

Each test waits for what it checks (a condition polled in the page), never for a fixed time:
Flutter's first frame comes before the app's theme, and a loaded machine is slow to draw.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest
from conftest import Server, _chromium_path, free_port, open_app, open_page, server_process

from scorer.league.store import Store
from scorer.ui.components.layout import TOUCH_TARGET
from scorer.ui.manifest import APP_NAME, THEME_COLOR

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
#: Games in progress on Home: more than a phone shows, so Home scrolls.
FILLER_GAMES = 12

#: Every button node on the page: its accessible name and its box.
BUTTONS_JS = """() => [...document.querySelectorAll('flt-semantics[role=button]')].map(node => {
    const box = node.getBoundingClientRect();
    return {name: (node.getAttribute('aria-label') || node.textContent).trim(),
            y: box.y, height: box.height, cut: box.bottom >= window.innerHeight - 10};
})"""

#: True once every button named in ``names`` is on the page and every button is tall enough.
#: A button the screen's bottom edge cuts (``cut``: its foot within the page's 8 px padding of
#: the window's) has its node clipped to what shows, so its height is not its own.
TALL_ENOUGH_JS = f"""(names) => {{
    const buttons = ({BUTTONS_JS})();
    return names.every(name => buttons.some(b => b.name === name))
        && buttons.every(b => b.height >= {TOUCH_TARGET} || b.cut);
}}"""

#: The box of the button whose name starts with ``prefix``, once it lies in the window and has
#: kept still for five polls (the screen has settled); false until then.
SETTLED_BOX_JS = """(prefix) => {
    const node = [...document.querySelectorAll('flt-semantics[role=button]')]
        .find(n => (n.getAttribute('aria-label') || n.textContent).trim().startsWith(prefix));
    if (!node) return false;
    const r = node.getBoundingClientRect();
    const key = [r.x, r.y, r.width, r.height].join();
    const seen = (window.__settled = window.__settled || {});
    seen[prefix] = seen[prefix] && seen[prefix].key === key ? {key, n: seen[prefix].n + 1} : {key, n: 0};
    const inside = r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    return inside && seen[prefix].n >= 5 ? {x: r.x, y: r.y, width: r.width, height: r.height} : false;
}"""


class Table(NamedTuple):
    server: Server
    game: str  # a rommi game with a deal, in a league
    league: str  # that league, whose standings list a finished game's players
    fresh: str  # a rommi game with no deal yet: its scoreboard is shorter than Home


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """The app on a store with two rommi games and, after them, enough games to make Home scroll."""
    folder = tmp_path_factory.mktemp("phone") / "league"
    store = Store.open(folder)
    store.create_league("Friday club")
    fresh = store.start_game(ruleset="rommi", players=["Cid", "Dan"]).id  # the oldest: last on Home
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Friday club").id
    store.add_deal(game, {"hands": {"Anna": "", "Bea": "KS QS"}, "out": "Anna"})
    done = store.start_game(
        ruleset="rommi", players=["Anna", "Bea"], league="Friday club", options={"target": 30}
    )
    store.add_deal(done.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"})
    for number in range(FILLER_GAMES):
        store.start_game(ruleset="gin", players=[f"Eve {number}", f"Fay {number}"])
    server = Server(folder)
    try:
        yield Table(server, game, store.league("Friday club").id, fresh)
    finally:
        server.stop()


def phone(chromium: Browser, url: str) -> Page:
    return open_page(chromium, url, width=PHONE["width"], height=PHONE["height"])


def buttons(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(BUTTONS_JS)
    return found


@pytest.mark.parametrize(
    ("route", "names"),
    [
        ("", ["New game", "Referee", "Rules", "Home", "Settings"]),
        ("game/{game}", ["Record deal", "Abandon game", "Delete game"]),
        ("leagues", ["Leagues"]),
        ("leagues/{league}", ["Start a night", "Anna", "Bea"]),  # the standings' names open a player
        ("referee", ["Referee"]),
    ],
    ids=["home", "scoreboard", "leagues", "league", "referee"],
)
def test_every_button_is_a_touch_target(
    table: Table, chromium: Browser, route: str, names: list[str]
) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = phone(chromium, table.server.url + route.format(game=table.game, league=table.league))
    try:
        page.wait_for_function(TALL_ENOUGH_JS, arg=names, polling=200, timeout=20_000)
    except PlaywrightTimeout:
        short = [
            (b["name"], b["height"]) for b in buttons(page) if b["height"] < TOUCH_TARGET and not b["cut"]
        ]
        pytest.fail(f"/{route}: buttons lower than {TOUCH_TARGET} px, or {names} missing: {short}")
    finally:
        page.context.close()


def settled_box(page: Page, prefix: str) -> dict[str, float]:
    """The box of the button named ``prefix``..., once it is in the window and keeps still."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        box: dict[str, float] = page.wait_for_function(
            SETTLED_BOX_JS, arg=prefix, polling=100, timeout=20_000
        ).json_value()
    except PlaywrightTimeout:
        pytest.fail(f"no button {prefix!r} came to rest inside the window: {buttons(page)}")
    return box


def tap_the_drawing(page: Page, box: dict[str, float]) -> None:
    """Tap the middle of ``box`` on what Flutter drew, as a finger does, not on the node.

    With the accessibility nodes out of the way of the pointer, the tap reaches the drawn
    control under that point: it does what the node says only if the node is where that
    control is drawn.
    """
    page.add_style_tag(content="flt-semantics-host { pointer-events: none !important; }")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_after_a_scroll_the_next_screen_is_tapped_where_it_is_drawn(table: Table, chromium: Browser) -> None:
    from playwright.sync_api import expect

    page = phone(chromium, table.server.url)
    try:
        tile = page.get_by_role("button", name=re.compile(r"^Rommi: Cid, Dan"))
        expect(tile).to_be_attached(timeout=20_000)
        start = tile.bounding_box()
        assert start is not None and start["y"] > PHONE["height"], "Home should need a scroll to the game"
        # The oldest game is last on Home: scroll down to it with the wheel, as a reader does.
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        page.mouse.wheel(0, 20 * PHONE["height"])
        settled_box(page, "Rommi: Cid, Dan")
        tile.click()  # by its accessible name
        page.wait_for_url(re.compile(rf"/game/{table.fresh}$"))

        # The scoreboard opens at its top, its accessibility nodes where it is drawn: tapping the
        # drawing at the node named "Record deal" opens deal entry.
        title = settled_box(page, "Rummy Scorer")
        assert title["y"] < TOUCH_TARGET, f"the scoreboard's nodes are not where it is drawn: {title}"
        tap_the_drawing(page, settled_box(page, "Record deal"))
        page.wait_for_url(re.compile(rf"/game/{table.fresh}/deal$"))
        expect(page.get_by_role("button", name="Save deal")).to_be_visible(timeout=20_000)
    finally:
        page.context.close()


# -- "Add to home screen" ---------------------------------------------------------------------

CODE = "T4BLEK3Y"

#: The manifest the page links to, fetched as the browser fetches a manifest (no cookies),
#: and each of its icons decoded to its size; plus the touch icon an iPhone uses.
MANIFEST_JS = """async () => {
    const link = document.querySelector('link[rel=manifest]');
    const answer = await fetch(link.href, {credentials: 'omit'});
    const manifest = await answer.json();
    const size = async (href) => {
        const icon = await fetch(href, {credentials: 'omit'});
        const bitmap = await createImageBitmap(await icon.blob());
        return {status: icon.status, type: icon.headers.get('content-type'),
                size: `${bitmap.width}x${bitmap.height}`};
    };
    const icons = [];
    for (const icon of manifest.icons) {
        icons.push({...icon, loaded: await size(new URL(icon.src, link.href).href)});
    }
    const touch = await size(document.querySelector('link[rel=apple-touch-icon]').href);
    return {status: answer.status, manifest, icons, touch,
            start: new URL(manifest.start_url, link.href).href, page: location.origin + '/'};
}"""


@pytest.fixture(scope="module")
def gated_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``rummy app`` on every interface behind its code, as the phones at the table reach it."""
    port = free_port("0.0.0.0")
    folder = tmp_path_factory.mktemp("install")
    rummy = Path(sys.executable).with_name("rummy")
    command = [str(rummy), "app", "--host", "0.0.0.0", "--port", str(port), "--code", CODE]
    command += ["--db", str(folder / "league")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with server_process(command, port=port, log=folder / "server.log", env=env, name="rummy app"):
        yield f"http://127.0.0.1:{port}/"


def test_the_served_app_can_be_put_on_a_home_screen(gated_url: str, chromium: Browser) -> None:
    with tempfile.TemporaryDirectory() as profile:
        # A browser with a profile of its own: Chromium never offers to install from incognito,
        # which a plain Playwright context is.
        browser = chromium.browser_type.launch_persistent_context(
            profile,
            executable_path=_chromium_path(),
            args=["--no-sandbox", "--enable-unsafe-swiftshader"],
            viewport=PHONE,
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            page.goto(f"{gated_url}?code={CODE}", wait_until="domcontentloaded")
            open_app(page, timeout_ms=30_000)
            page.wait_for_function(f"document.title === {APP_NAME!r}")

            found = page.evaluate(MANIFEST_JS)
            manifest = found["manifest"]
            assert found["status"] == 200  # past the gate, though fetched without the cookie
            assert (manifest["name"], manifest["short_name"]) == (APP_NAME, "Rummy")
            assert manifest["display"] == "standalone"
            assert manifest["theme_color"] == THEME_COLOR
            assert found["start"] == found["page"]
            for icon in found["icons"]:
                assert icon["loaded"] == {"status": 200, "type": "image/png", "size": icon["sizes"]}, icon
            assert {icon["sizes"] for icon in found["icons"]} >= {"192x192", "512x512"}
            assert any(icon.get("purpose") == "maskable" for icon in found["icons"])
            assert found["touch"] == {"status": 200, "type": "image/png", "size": "192x192"}

            # And Chromium's own verdict: it reads the manifest with no error and would install.
            devtools = browser.new_cdp_session(page)
            assert devtools.send("Page.getAppManifest")["errors"] == []
            assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        finally:
            browser.close()
