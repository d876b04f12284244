"""The club night's TV view, ``/nights/<id>/tv``: a wall screen's board of the night.

No bar, no buttons, no fields: a dark, high-contrast board to be read across a club room.
At the top the night (league, round, when it started) and the round's timer, big (the
director's screen's countdown, :mod:`scorer.ui.components.countdown`); then the round's tables
as cards (number, state, each seat with its total, the leader starred, the deal count) and the
night's standings (place, player, night points, the tie-break that put a line above the next),
beside the tables on a wide screen, under them on a phone. What does not fit is paged, a page
every :data:`~scorer.ui.screens.tv_model.ROTATE_SECONDS`, its label saying which
(``Tables 1–4 of 8``). The layout follows the screen's size as it changes
(:func:`~scorer.ui.screens.tv_model.board`); the figures are the store's, read again at every
change like every screen (:mod:`scorer.ui.screens.tv_model`), and the screen is kept awake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any, Final, cast

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.components.countdown import Countdown
from scorer.ui.context import use_settings, use_store
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_live
from scorer.ui.screens.night_model import NightLine, tiebreak_text
from scorer.ui.screens.tv_model import (
    FULL_HEIGHT,
    FULL_WIDTH,
    LINE,
    ROTATE_SECONDS,
    STANDINGS_SHARE,
    Board,
    TvModel,
    TvTable,
    board,
    page_at,
    page_label,
)
from scorer.ui.services import use_wakelock

#: The board's colours: light on near-black, every text at a contrast of 7:1 or more.
BACKGROUND: Final = "#0B1015"
CARD: Final = "#19222C"
TEXT: Final = "#FFFFFF"
DIM: Final = "#C5D0DA"
ACCENT: Final = "#FFD54F"  # the leader, the timer
DONE: Final = "#8BD98F"  # a finished table
ALERT: Final = "#FF8A80"  # time is up
#: The standings' "Ahead by" column: its width in text sizes, and its text's size (smaller, a
#: note beside the figures: "head-to-head", "keskinäiset pelit").
AHEAD_WIDTH: Final = 7.5
AHEAD_TEXT: Final = 0.75


def use_screen_size() -> tuple[float, float]:
    """The page's size in logical pixels, following every resize (a hook). While it is shown
    the page is the board's: no padding around it, its background the board's colour."""
    page = ft.context.page
    state: tuple[tuple[float, float], Callable[[tuple[float, float]], None]] = ft.use_state(
        (page.width or FULL_WIDTH, page.height or FULL_HEIGHT)
    )
    size, set_size = state
    kept = ft.use_ref((page.padding, page.bgcolor))

    def follow() -> None:
        kept.current = (page.padding, page.bgcolor)

        def resized(event: ft.PageResizeEvent) -> None:
            set_size((event.width, event.height))

        page.on_resize = resized
        page.padding, page.bgcolor = 0, BACKGROUND
        page.update()
        if page.width and page.height:  # known by now where it was not at the first render
            set_size((page.width, page.height))

    def leave() -> None:
        page.on_resize = None
        if kept.current is not None:
            page.padding, page.bgcolor = kept.current
        page.update()

    ft.use_effect(follow, dependencies=[], cleanup=leave)
    return size


def use_rotation() -> int:
    """A tick that moves every :data:`ROTATE_SECONDS` while the board is shown (a hook): the
    page of tables and of standings shown is the tick's (:func:`page_at`)."""
    state: tuple[int, Callable[[int], None]] = ft.use_state(0)
    tick, set_tick = state

    async def turn() -> None:
        turned = 0
        while True:
            await asyncio.sleep(ROTATE_SECONDS)
            turned += 1
            set_tick(turned)

    ft.use_effect(turn, dependencies=[])
    return tick


def _text(value: str, size: int, *, color: str = TEXT, bold: bool = False, expand: bool = False) -> ft.Text:
    return ft.Text(
        value,
        size=size,
        color=color,
        weight=ft.FontWeight.BOLD if bold else ft.FontWeight.NORMAL,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
        expand=expand,
    )


def _line(b: Board, *controls: ft.Control) -> ft.Control:
    """One line of the board, :attr:`Board.line` high, its parts side by side."""
    return ft.Container(
        height=b.line,
        content=ft.Row(
            spacing=b.pad // 2, vertical_alignment=ft.CrossAxisAlignment.CENTER, controls=list(controls)
        ),
    )


def _status(table: TvTable, language: Language) -> str:
    """The table's state; while its call to the director waits, ``Director called``."""
    return tr("director.tv_called", language) if table.called else tr(f"night.{table.status}", language)


def _card(table: TvTable, b: Board, language: Language) -> ft.Control:
    """A table: its number and state, a line per seat (name, total; the leader starred), its deals."""
    finished = table.status == "finished"  # framed in green (an abandoned game is not)
    seats = [
        _line(
            b,
            _text(
                f"★ {seat.name}" if seat.leader else seat.name,
                b.text,
                color=ACCENT if seat.leader else TEXT,
                bold=seat.leader,
                expand=True,
            ),
            _text(
                "–" if seat.total is None else str(seat.total), b.text, color=ACCENT if seat.leader else TEXT
            ),
        )
        for seat in table.seats
    ]
    deals = tr("night.deals", language, count=table.deals) if table.deals else tr("night.no_deal", language)
    return ft.Container(
        expand=True,
        height=b.card_height,
        bgcolor=CARD,
        border_radius=b.pad // 2,
        border=ft.Border.all(2, DONE) if finished else None,
        padding=ft.Padding.symmetric(horizontal=b.pad, vertical=b.pad // 2),
        content=ft.Column(
            spacing=0,
            controls=[
                _line(
                    b,
                    _text(tr("night.table", language, table=table.table), b.text, bold=True, expand=True),
                    _text(
                        _status(table, language),
                        b.text,
                        color=ACCENT if table.called else DONE if finished else DIM,
                        bold=finished or table.called,
                    ),
                ),
                *seats,
                _line(b, _text(deals, b.text, color=DIM)),
            ],
        ),
    )


def _tables(model: TvModel, b: Board, tick: int, language: Language) -> list[ft.Control]:
    tables = model.tables()
    shown = page_at(tick, len(tables), b.tables_per_page)
    cards = [_card(tables[i], b, language) for i in shown]
    rows = []
    for at in range(0, len(cards), b.across):
        row = cards[at : at + b.across]
        row += [ft.Container(expand=True)] * (b.across - len(row))  # a last row's cards keep their width
        rows.append(ft.Row(spacing=b.pad, vertical_alignment=ft.CrossAxisAlignment.START, controls=row))
    label = page_label("tv.tables", shown, len(tables), language)
    return [_line(b, _text(label, b.text, color=DIM, bold=True)), *rows]


def _standing(line: NightLine, b: Board, *, leader: bool, language: Language) -> ft.Control:
    color = ACCENT if leader else TEXT
    return _line(
        b,
        *[
            ft.Container(width=b.text * 2, content=_text(str(line.place), b.text, color=color)),
            _text(f"★ {line.name}" if leader else line.name, b.text, color=color, bold=leader, expand=True),
            ft.Container(width=b.text * 4, content=_text(line.points, b.text, color=color, bold=leader)),
            ft.Container(
                width=b.text * AHEAD_WIDTH,
                content=_text(tiebreak_text(line.tiebreak, language), round(b.text * AHEAD_TEXT), color=DIM),
            ),
        ],
    )


def _standings(model: TvModel, b: Board, tick: int, language: Language) -> list[ft.Control]:
    lines = model.lines
    shown = page_at(tick, len(lines), b.lines_per_page)
    label = _line(
        b, _text(page_label("tv.standings", shown, len(lines), language), b.text, color=DIM, bold=True)
    )
    headline = model.headline(language)
    if not headline:
        return [label, _line(b, _text(tr("night.no_standings", language), b.text))]
    first = next(line for line in lines if line.games)

    def head(name: str, width: int | None) -> ft.Control:
        text = _text(tr(f"night.col_{name}", language), b.text, color=DIM, expand=width is None)
        return text if width is None else ft.Container(width=width, content=text)

    heads = _line(
        b,
        *[
            head("place", b.text * 2),
            head("player", None),
            head("points", b.text * 4),
            head("ahead", round(b.text * AHEAD_WIDTH)),
        ],
    )
    return [
        label,
        _line(b, _text(headline, b.text, color=ACCENT, bold=True)),
        heads,
        *[_standing(lines[i], b, leader=lines[i] is first, language=language) for i in shown],
    ]


def _header(model: TvModel, b: Board, league: str, language: Language) -> list[ft.Control]:
    controls: list[ft.Control] = [
        ft.Container(
            height=round(b.title * LINE),
            content=_text(model.title(league, language), b.title, bold=True),
        ),
        _line(b, _text(model.round_text(language), b.text, color=DIM)),
    ]
    byes = model.byes_text(language)
    if byes:
        controls.append(_line(b, _text(byes, b.text, color=DIM)))
    last = model.last
    if last.timer is not None:
        countdown: Any = Countdown  # keyed by the round: a new round's clock starts afresh
        controls.append(
            countdown(
                clock=model.store.clock,
                text=partial(model.timer_big, language),
                running=model.ticking,
                alert=lambda now: model.timer_state(now) == "up",
                what=f"TV of night {model.night.id} round {last.number}",
                size=b.timer,
                color=ACCENT,
                alert_color=ALERT,
                key=f"tv-timer/{last.number}",
            )
        )
    return controls


def _board(b: Board, *controls: ft.Control) -> ft.Control:
    return ft.Container(
        expand=True,
        bgcolor=BACKGROUND,
        padding=b.pad,
        content=ft.Column(spacing=b.pad, controls=list(controls)),
    )


@ft.component
def TvScreen(*, night_id: str) -> ft.Control:
    language = use_settings().language
    store = use_store()
    state: tuple[TvModel, Callable[[TvModel], None]] = ft.use_state(lambda: TvModel.load(store, night_id))
    model = state[0]
    use_live(model.reload)
    use_wakelock()
    width, height = use_screen_size()
    tick = use_rotation()
    b = board(
        width,
        height,
        seats=model.seats(),
        tables=len(model.last.tables),
        lines=len(model.lines),
        timed=model.last.timer is not None,
        byes=bool(model.last.byes),
    )
    league = store.league(model.night.league_id).name
    header = ft.Column(spacing=0, controls=_header(model, b, league, language))
    tables = ft.Column(spacing=b.pad, controls=_tables(model, b, tick, language))
    standings = ft.Column(spacing=0, controls=_standings(model, b, tick, language))
    if b.wide:
        body: ft.Control = ft.Row(
            expand=True,
            spacing=b.pad * 2,
            vertical_alignment=ft.CrossAxisAlignment.START,
            controls=[
                ft.Container(expand=round(100 * (1 - STANDINGS_SHARE)), content=tables),
                ft.Container(expand=round(100 * STANDINGS_SHARE), content=standings),
            ],
        )
        return _board(b, header, body)
    return _board(b, header, tables, standings)


@ft.component
def TvRoute() -> ft.Control:
    """``/nights/<id>/tv``: the night's board, or a board saying there is no such night."""
    key = ft.use_route_params().get("id", "")
    try:
        night = use_store().find_night(key)
    except ScorerError:
        return ft.Container(
            expand=True,
            bgcolor=BACKGROUND,
            padding=24,
            content=ft.Text(tr("night.no_night", use_settings().language), size=32, color=TEXT),
        )
    keyed: Any = TvScreen  # keyed by the night: another night starts from its own state
    return cast(ft.Control, keyed(night_id=night.id, key=f"tv/{night.id}"))
