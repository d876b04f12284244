"""Scoreboard ``/game/<id>``: deal-by-deal scores with running totals, next dealer, the chart.

Each deal's cell is the change of the player's running total; where it is more than the
deal's score once (a Hollywood deal credited to two games, a game's final bonuses) the parts
are itemised under the row and add up to it.

Hollywood gin shows its three games side by side; a finished game shows the final bonuses
itemised and the winner. A table of a club night says so (round and table), shows the starting
points of a handicap above the totals, and the round's timer: the time left, refreshed every
second while the screen is open, then that the deal being played is the last, then that the
game ended on time; its penalties, a line each, and ``Call director`` (:mod:`.director`). Any
deal can be corrected (Deal entry ``/game/<id>/deal/<n>``) or
removed with undo; the engine recomputes everything after it. At a club night each deal
another phone saved waits for this phone's ``Confirm deal N`` or ``Dispute deal N``
(:mod:`scorer.ui.components.confirm_panel`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from scorer.league.records import GameEvent
from scorer.league.store import Store
from scorer.ui.components.confirm_panel import table_checks
from scorer.ui.components.conflict_panel import conflict_panel
from scorer.ui.components.countdown import Countdown
from scorer.ui.components.layout import (
    error_text,
    headline,
    icon_button,
    labelled_dropdown,
    navigate,
    screen,
    section,
)
from scorer.ui.components.synced_apart import ChangedElsewhere
from scorer.ui.components.totals_chart import totals_chart
from scorer.ui.context import use_services, use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import Follow, use_announce
from scorer.ui.roles import use_access
from scorer.ui.screens.confirm_model import TableChecks
from scorer.ui.screens.conflict_model import describe_deal
from scorer.ui.screens.director import TableDirectorPanel
from scorer.ui.screens.history_model import deal_event_line, event_line
from scorer.ui.screens.leagues_model import season_name
from scorer.ui.screens.scoreboard_model import ScoreboardModel, change_text
from scorer.ui.screens.share import game_handoff
from scorer.ui.services import use_wakelock

log = logging.getLogger(__name__)

CELL = 60
NUMBER_CELL = 30
BREAKDOWN_WIDTH = 370  # a deal's parts under its row: wraps within a 390 px phone


def NightClock(*, model: ScoreboardModel, language: Language, clock: Callable[[], str]) -> ft.Control:
    """A club night round's timer: the time left (redrawn every second while it runs, the
    loop ending when the time is up or the screen unmounts), then what the rule says."""
    return Countdown(
        clock=clock,
        text=partial(model.timer_text, language),
        running=model.ticking,
        alert=lambda now: not model.ticking(now) and not model.finished,
        what=f"game {model.saved.id}",
    )


def _cell(text: str, *, width: int = CELL, bold: bool = False, small: str = "") -> ft.Control:
    lines: list[ft.Control] = [
        ft.Text(text, weight=ft.FontWeight.BOLD if bold else None, text_align=ft.TextAlign.END)
    ]
    if small:
        lines.append(ft.Text(small, theme_style=ft.TextThemeStyle.BODY_SMALL, text_align=ft.TextAlign.END))
    return ft.Container(
        width=width,
        padding=ft.Padding.symmetric(horizontal=4, vertical=2),
        content=ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END, controls=lines),
    )


def _history_lines(
    model: ScoreboardModel, number: int, events: list[GameEvent], language: Language
) -> ft.Control:
    """Deal ``number``'s history under its row; a correction says what it changed."""
    game = model.saved.game
    return ft.Column(
        spacing=0,
        controls=[
            ft.Text(
                deal_event_line(e, game=game, number=number, language=language),
                theme_style=ft.TextThemeStyle.BODY_SMALL,
                italic=True,
            )
            for e in events
        ],
    )


def _table(
    model: ScoreboardModel, language: Language, *, remove: Callable[[int], None], recording: bool = True
) -> ft.Control:
    game_id = model.saved.id
    # Corrections only where this session's code may record (scorer/ui/roles.py; refused there too).
    active = model.status == "active" and recording
    history, _ = model.history()
    header = ft.Row(
        spacing=0,
        controls=[
            _cell("#", width=NUMBER_CELL, bold=True),
            *[_cell(p, bold=True) for p in model.players],
        ],
    )
    rows: list[ft.Control] = [header, ft.Divider(height=1)]
    breakdown_width = max(BREAKDOWN_WIDTH, NUMBER_CELL + CELL * len(model.players) + 2 * 48)

    def seat_changes(after: int) -> list[ft.Control]:  # a player took over a seat: where it happened
        return [
            ft.Container(
                width=breakdown_width,
                padding=ft.Padding.only(left=NUMBER_CELL + 4, bottom=4),
                content=ft.Text(line, weight=ft.FontWeight.W_500, theme_style=ft.TextThemeStyle.BODY_SMALL),
            )
            for line in model.seat_changes(after, language)
        ]

    rows += seat_changes(0)
    for row in model.rows():
        number = row.number
        columns = (
            tr("scoreboard.in_games", language, games=", ".join(map(str, row.columns)))
            if len(model.columns())
            else ""
        )
        rows.append(
            ft.Row(
                spacing=0,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
                controls=[
                    _cell(str(number), width=NUMBER_CELL),
                    *[
                        _cell(change_text(change), small=str(total))
                        for change, total in zip(row.changes, row.running, strict=True)
                    ],
                    icon_button(
                        ft.Icons.EDIT,
                        tr("scoreboard.correct", language, number=number),
                        partial(navigate, f"/game/{game_id}/deal/{number}"),
                        disabled=not active,
                    ),
                    icon_button(
                        ft.Icons.DELETE_OUTLINE,
                        tr("scoreboard.remove", language, number=number),
                        partial(remove, number),
                        disabled=not active,
                    ),
                    *([ft.Text(columns, theme_style=ft.TextThemeStyle.BODY_SMALL)] if columns else []),
                ],
            )
        )
        # A change that is more than the deal's score once (Hollywood's games, the final
        # bonuses), itemised under its row so that it adds up.
        rows += [
            ft.Container(
                width=breakdown_width,  # in the table's scrolling row a text has no width to wrap in
                padding=ft.Padding.only(left=NUMBER_CELL + 4, bottom=2),
                content=ft.Text(line, theme_style=ft.TextThemeStyle.BODY_SMALL),
            )
            for line in model.breakdown(row, language)
        ]
        if number in history:  # who recorded and changed it, when, why: under its row
            rows.append(
                ft.Container(
                    width=breakdown_width,  # wrapped as the parts are: a correction says what changed
                    padding=ft.Padding.only(left=NUMBER_CELL + 4, bottom=4),
                    content=_history_lines(model, number, history[number], language),
                )
            )
        rows += seat_changes(number)
    return ft.Row(scroll=ft.ScrollMode.AUTO, controls=[ft.Column(spacing=2, controls=rows)])


def _hollywood(model: ScoreboardModel, language: Language) -> list[ft.Control]:
    """Hollywood's three games as three columns: each player's total in each, and its state."""
    columns = model.columns()
    if not columns:
        return []
    header = ft.Row(
        spacing=0,
        controls=[
            _cell("", width=CELL),
            *[
                _cell(tr("scoreboard.game_number", language, number=c.number), bold=True, width=CELL + 20)
                for c in columns
            ],
        ],
    )
    lines: list[ft.Control] = [header]
    for seat, player in enumerate(model.players):
        lines.append(
            ft.Row(
                spacing=0,
                controls=[
                    _cell(player, bold=True, width=CELL),
                    *[_cell(str(c.totals[seat]), width=CELL + 20) for c in columns],
                ],
            )
        )
    states = []
    for column in columns:
        if not column.finished:
            state = tr("scoreboard.game_open", language)
        elif column.winner:
            state = tr("scoreboard.game_won", language, name=column.winner)
        else:
            state = tr("scoreboard.game_tied", language)
        states.append(_cell(state, width=CELL + 20))
    lines.append(ft.Row(spacing=0, controls=[_cell("", width=CELL), *states]))
    return [
        section(tr("scoreboard.games", language)),
        ft.Row(scroll=ft.ScrollMode.AUTO, controls=[ft.Column(spacing=2, controls=lines)]),
    ]


@ft.component
def ScoreboardScreen(*, game_id: str) -> ft.Control:
    settings = use_settings()
    store = use_store()
    services = use_services()
    language = settings.language
    recording = use_access().may_record(store, game_id)
    use_wakelock()
    state: tuple[ScoreboardModel, Callable[[ScoreboardModel], None]] = ft.use_state(
        lambda: ScoreboardModel.load(store, game_id)
    )
    model = state[0]
    checks = _use_checks(store, game_id)
    announce = use_announce()

    def read_again() -> None:
        model.reload(store)
        checks.reload(store)  # the deals' confirmations (a table of a club night)

    signer = settings.signer
    # A removal waits for its optional reason: the deal's number (0: none asked) and the reason.
    asking, set_asking = ft.use_state(0)
    reason, set_reason = ft.use_state("")
    moving_to, set_moving_to = ft.use_state("")

    def done(changed: bool = True) -> None:
        set_asking(0)
        if model.conflict is None:  # a refused removal keeps its reason for Remove theirs
            set_reason("")
        if changed:
            announce()

    def confirm_remove() -> None:
        model.remove(store, asking, by=signer, why=reason)
        done(model.conflict is None and not model.error)

    def remove_theirs() -> None:
        model.remove_theirs(store, by=signer, why=reason)
        done(model.conflict is None and not model.error)

    def keep_theirs() -> None:
        model.keep_theirs(store)
        set_reason("")

    def act(action: Callable[[], bool]) -> None:
        if action():
            announce()

    async def share() -> None:
        if services.share is None:
            return
        try:
            await services.share.share_text(model.share_text(language), subject=tr("app_title", language))
        except Exception as exc:  # the platform has no share sheet
            log.info("share not available: %s", exc)

    totals = ft.Row(
        wrap=True,
        spacing=8,
        run_spacing=8,
        controls=[
            ft.Container(
                padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                border_radius=20,
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
                content=ft.Text(
                    label, size=18, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY_CONTAINER
                ),
            )
            for label in model.total_labels()
        ],
    )
    # The store followed from a child: the board is drawn again when what it shows changed,
    # not at each save anywhere; a save at another table is not even read here.
    controls: list[ft.Control] = [
        Follow(reload=read_again, subjects=model.subjects),
        headline(engine_text(model.variant, language)),
    ]
    night = model.night_heading(language)
    if night:
        controls.append(ft.Text(night, weight=ft.FontWeight.BOLD))
        if model.timed:
            controls.append(NightClock(model=model, language=language, clock=store.clock))
    controls.append(ft.Text(", ".join(model.players)))
    # a seat taken over mid-game: said under the players too (the totals stay the seat's)
    controls += [ft.Text(line, weight=ft.FontWeight.W_500) for line in model.seat_changes(None, language)]
    controls.append(section(tr("scoreboard.totals", language)))
    handicap = model.handicap_text(language)
    if handicap:
        controls.append(ft.Text(handicap))
    controls.append(totals)
    if model.night is not None:  # a night's table: its penalties and its calls to the director
        panel: Any = TableDirectorPanel  # keyed: its state (a call being written) stays its own
        penalties = model.saved.game.penalties
        controls.append(panel(game_id=game_id, penalties=penalties, key=f"director/{game_id}"))
    if model.finished:
        winner = model.winner
        controls.append(
            ft.Text(
                tr("scoreboard.winner", language, name=winner) if winner else tr("scoreboard.tie", language),
                size=24,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.PRIMARY,
            )
        )
        bonuses = model.bonuses()
        if bonuses:
            controls.append(section(tr("scoreboard.bonuses", language)))
            controls += [
                ft.Text(
                    tr(
                        "scoreboard.bonus_line",
                        language,
                        name=player,
                        bonus=tr(f"scoreboard.bonus_{name}", language),
                        points=points,
                    )
                )
                for player, name, points in bonuses
            ]
        controls.append(
            ft.OutlinedButton(tr("scoreboard.share", language), icon=ft.Icons.SHARE, on_click=share)
        )
    else:
        cards = model.cards_to_deal
        dealing = tr("scoreboard.next_dealer", language, name=model.next_dealer)
        if cards is not None:
            dealing += " · " + tr("scoreboard.cards_to_deal", language, cards=cards)
        controls.append(ft.Text(dealing, size=16))
        if model.status == "active" and recording:
            controls.append(
                ft.FilledButton(
                    tr("scoreboard.record_deal", language),
                    icon=ft.Icons.ADD,
                    height=48,
                    on_click=lambda: navigate(f"/game/{game_id}/deal"),
                )
            )
    if model.status == "abandoned":
        controls.append(
            _banner(
                tr("scoreboard.abandoned", language),
                ft.TextButton(
                    tr("scoreboard.resume", language),
                    on_click=lambda: act(lambda: model.resume(store, by=signer)),
                ),
            )
        )
    elif model.status == "deleted":
        controls.append(
            _banner(
                tr("scoreboard.deleted", language),
                ft.TextButton(
                    tr("scoreboard.undo", language),
                    on_click=lambda: act(lambda: model.undelete(store, by=signer)),
                ),
            )
        )
    if model.conflict is not None:
        conflict = model.conflict
        actions: list[ft.Control] = [
            ft.FilledButton(tr("conflict.keep_theirs", language), on_click=keep_theirs)
        ]
        if conflict.theirs is not None:
            actions.append(ft.OutlinedButton(tr("conflict.remove_theirs", language), on_click=remove_theirs))
        controls.append(
            conflict_panel(
                conflict,
                side=lambda deal: describe_deal(
                    deal, ruleset=model.saved.game.ruleset, players=model.players
                ),
                language=language,
                actions=actions,
            )
        )
    elif asking:
        controls.append(
            ft.Container(
                padding=10,
                border_radius=10,
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                content=ft.Column(
                    spacing=8,
                    controls=[
                        ft.Text(
                            tr("scoreboard.remove_title", language, number=asking), weight=ft.FontWeight.BOLD
                        ),
                        ft.TextField(
                            label=tr("history.why_label", language),
                            value=reason,
                            on_change=lambda e: set_reason(e.control.value),
                            dense=True,
                        ),
                        ft.Row(
                            wrap=True,
                            controls=[
                                ft.FilledButton(
                                    tr("scoreboard.remove_confirm", language),
                                    icon=ft.Icons.DELETE_OUTLINE,
                                    on_click=confirm_remove,
                                ),
                                ft.TextButton(
                                    tr("scoreboard.cancel", language), on_click=lambda: done(changed=False)
                                ),
                            ],
                        ),
                    ],
                ),
            )
        )
    if model.removed is not None:
        controls.append(
            ft.Container(
                padding=10,
                border_radius=10,
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                content=ft.Row(
                    wrap=True,
                    controls=[
                        ft.Text(tr("scoreboard.removed", language, number=model.removed.index + 1)),
                        ft.TextButton(
                            tr("scoreboard.undo", language),
                            on_click=lambda: act(lambda: _undone(model, store, signer)),
                        ),
                    ],
                ),
            )
        )
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.undo_refused and model.removed is not None:
        controls.append(error_text(tr("scoreboard.undo_refused", language, number=model.removed.index + 1)))
    controls.append(
        ChangedElsewhere(game_id=game_id, ruleset=model.saved.game.ruleset, players=model.players)
    )
    controls += _confirmations(checks, model, store, signer=signer, language=language, announce=announce)
    controls += _hollywood(model, language)
    if model.rows():
        controls += [
            section(tr("scoreboard.deals", language)),
            _table(model, language, remove=set_asking, recording=recording),
            section(tr("scoreboard.chart", language)),
            totals_chart(model.chart_points(language), language),
        ]
    controls += _game_section(
        model,
        language,
        moving_to=moving_to,
        set_moving_to=set_moving_to,
        act=act,
        store=store,
        signer=signer,
    )
    return screen(*controls)


def _use_checks(store: Store, game_id: str) -> TableChecks:
    """The deals' confirmations (a table of a club night), read again with the board."""
    state: tuple[TableChecks, Callable[[TableChecks], None]] = ft.use_state(
        lambda: TableChecks.load(store, game_id)
    )
    return state[0]


def _confirmations(
    checks: TableChecks,
    model: ScoreboardModel,
    store: Store,
    *,
    signer: str | None,
    language: Language,
    announce: Callable[[], None],
) -> list[ft.Control]:
    """``Confirm the deals``: what this phone may confirm or dispute, and the others' state."""

    def done(changed: bool) -> None:
        if changed:
            model.reload(store)  # the deal's history says who confirmed or disputed it
            announce()

    return table_checks(
        checks,
        me=signer,
        language=language,
        confirm=lambda number: done(checks.confirm(store, number, by=signer)),
        send=lambda: done(checks.dispute(store, by=signer)),
    )


def _undone(model: ScoreboardModel, store: Store, signer: str | None) -> bool:
    model.undo(store, by=signer)
    return model.removed is None


def _banner(text: str, button: ft.Control) -> ft.Control:
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        # No expand inside a wrapping row: Flutter's Wrap cannot give it a width (nothing shows).
        content=ft.Row(wrap=True, controls=[ft.Text(text), button]),
    )


def _game_section(
    model: ScoreboardModel,
    language: Language,
    *,
    moving_to: str,
    set_moving_to: Callable[[str], None],
    act: Callable[[Callable[[], bool]], None],
    store: Store,
    signer: str | None,
) -> list[ft.Control]:
    """The game's own history; abandon or delete it; move it into a league."""
    _, events = model.history()
    controls: list[ft.Control] = [section(tr("history.title", language))]
    controls += [
        ft.Text(event_line(e, language, with_deal=True), theme_style=ft.TextThemeStyle.BODY_SMALL)
        for e in events
    ]
    controls.append(section(tr("scoreboard.this_game", language)))
    if model.league:
        controls.append(
            ft.Text(
                tr(
                    "scoreboard.in_league",
                    language,
                    name=model.league,
                    season=season_name(model.season, language),
                )
            )
        )
    else:
        controls.append(ft.Text(tr("scoreboard.no_league", language)))
    if model.league and model.status != "deleted":  # a league game travels to another phone
        controls += game_handoff(store=store, game_id=model.saved.id, language=language)
    buttons: list[ft.Control] = []
    if model.status == "active":
        buttons.append(
            ft.OutlinedButton(
                tr("scoreboard.abandon", language),
                icon=ft.Icons.PAUSE_CIRCLE_OUTLINE,
                on_click=lambda: act(lambda: model.abandon(store, by=signer)),
            )
        )
    if model.status != "deleted":
        buttons.append(
            ft.OutlinedButton(
                tr("scoreboard.delete", language),
                icon=ft.Icons.DELETE_FOREVER,
                on_click=lambda: act(lambda: model.delete(store, by=signer)),
            )
        )
    controls.append(ft.Row(wrap=True, spacing=8, run_spacing=8, controls=buttons))
    others = [(key, name) for key, name in model.leagues if name != model.league]
    if model.status == "deleted":
        return controls
    if not others:
        if not model.league:
            controls.append(
                ft.Text(tr("scoreboard.no_leagues", language), theme_style=ft.TextThemeStyle.BODY_SMALL)
            )
        return controls
    chosen = moving_to if any(key == moving_to for key, _ in others) else others[0][0]
    controls.append(
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                labelled_dropdown(
                    label=tr("scoreboard.move_to", language),
                    value=chosen,
                    options=others,
                    on_select=set_moving_to,
                    width=260,
                ),
                ft.OutlinedButton(
                    tr("scoreboard.move", language),
                    icon=ft.Icons.DRIVE_FILE_MOVE_OUTLINE,
                    on_click=lambda: act(lambda: model.move(store, chosen, by=signer)),
                ),
            ],
        )
    )
    return controls
