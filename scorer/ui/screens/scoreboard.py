"""Scoreboard ``/game/<id>``: deal-by-deal scores with running totals, next dealer, the chart.

Hollywood gin shows its three games side by side; a finished game shows the final bonuses
itemised and the winner. Any deal can be corrected (Deal entry ``/game/<id>/deal/<n>``) or
removed with undo; the engine recomputes everything after it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import flet as ft

from scorer.ui.components.layout import error_text, headline, icon_button, navigate, screen, section
from scorer.ui.components.totals_chart import totals_chart
from scorer.ui.context import use_services, use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.scoreboard_model import ScoreboardModel
from scorer.ui.services import use_wakelock

log = logging.getLogger(__name__)

CELL = 60
NUMBER_CELL = 30


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


def _table(model: ScoreboardModel, language: Language, *, remove: Callable[[int], None]) -> ft.Control:
    game_id = model.saved.id
    header = ft.Row(
        spacing=0,
        controls=[
            _cell("#", width=NUMBER_CELL, bold=True),
            *[_cell(p, bold=True) for p in model.players],
        ],
    )
    rows: list[ft.Control] = [header, ft.Divider(height=1)]
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
                        _cell(f"{score:+d}" if score else "0", small=str(total))
                        for score, total in zip(row.scores, row.running, strict=True)
                    ],
                    icon_button(
                        ft.Icons.EDIT,
                        tr("scoreboard.correct", language, number=number),
                        partial(navigate, f"/game/{game_id}/deal/{number}"),
                    ),
                    icon_button(
                        ft.Icons.DELETE_OUTLINE,
                        tr("scoreboard.remove", language, number=number),
                        partial(remove, number),
                    ),
                    *([ft.Text(columns, theme_style=ft.TextThemeStyle.BODY_SMALL)] if columns else []),
                ],
            )
        )
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
    use_wakelock()
    state: tuple[ScoreboardModel, Callable[[ScoreboardModel], None]] = ft.use_state(
        lambda: ScoreboardModel.load(store, game_id)
    )
    model = state[0]

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
    controls: list[ft.Control] = [
        headline(model.variant),
        ft.Text(", ".join(model.players)),
        section(tr("scoreboard.totals", language)),
        totals,
    ]
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
        controls += [
            ft.Text(dealing, size=16),
            ft.FilledButton(
                tr("scoreboard.record_deal", language),
                icon=ft.Icons.ADD,
                height=48,
                on_click=lambda: navigate(f"/game/{game_id}/deal"),
            ),
        ]
    if model.removed is not None:
        controls.append(
            ft.Container(
                padding=10,
                border_radius=10,
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                content=ft.Row(
                    wrap=True,
                    controls=[
                        ft.Text(
                            tr("scoreboard.removed", language, number=model.removed.index + 1), expand=True
                        ),
                        ft.TextButton(tr("scoreboard.undo", language), on_click=lambda: model.undo(store)),
                    ],
                ),
            )
        )
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.undo_refused and model.removed is not None:
        controls.append(error_text(tr("scoreboard.undo_refused", language, number=model.removed.index + 1)))
    controls += _hollywood(model, language)
    if model.rows():
        controls += [
            section(tr("scoreboard.deals", language)),
            _table(model, language, remove=lambda n: model.remove(store, n)),
            section(tr("scoreboard.chart", language)),
            totals_chart(model.chart(), language),
        ]
    return screen(*controls)
