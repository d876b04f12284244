"""Player ``/players/<id>``: figures per variant, the rating's history, games, head-to-head.

The figures cover every league or one; the chart shows the rating (openskill ordinal)
after each game of one variant. The record itself can be renamed (the history stays the
player's) or merged with another record of the same person.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, cast

import flet as ft
import flet_charts as fch  # type: ignore[import-untyped]  # flet-charts 1.0.5 ships no py.typed

from scorer.errors import ScorerError
from scorer.ui.components.layout import (
    back_link,
    error_text,
    headline,
    labelled_dropdown,
    navigate,
    screen,
    section,
)
from scorer.ui.components.stat_table import Cell, Column, figure, stat_table
from scorer.ui.components.totals_chart import grid_step
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.live import use_live
from scorer.ui.screens.player_model import EVERY_LEAGUE, PlayerModel, VariantStats

NONE = "-"


def _stats_table(lines: list[VariantStats], language: Language) -> ft.Control:
    events = sorted({e for line in lines for e in line.events})
    keys = [
        "games",
        "wins",
        "rating",
        "win_rate",
        "points",
        "average",
        "deals",
        "deals_won",
        "best_deal",
        "streak",
    ]
    phone = {"games", "wins", "rating"}
    columns = [Column(heading=tr("player.col_variant", language), numeric=False)]
    columns += [Column(heading=tr(f"leagues.col_{k}", language), phone=k in phone) for k in keys]
    columns += [Column(heading=tr(f"leagues.event_{e}", language)) for e in events]
    rows = [
        [
            Cell(engine_text(line.variant, language) or tr("player.all_variants", language)),
            *(figure(value) for value in (line.games, line.wins, line.rating, line.win_rate, line.points)),
            *(
                figure(value)
                for value in (line.average, line.deals, line.deals_won, line.best_deal, line.streak)
            ),
            *(figure(line.events.get(e)) for e in events),  # – : none in that variant
        ]
        for line in lines
    ]
    return stat_table(columns, rows)


def rating_chart(history: list[float], *, label: str, language: Language) -> ft.Control:
    """The rating after each game (x: the player's game number in the variant)."""
    low, high = min(history), max(history)
    pad = max((high - low) * 0.1, 1.0)
    # The rating axis at round steps, from a step below the lowest to a step above the highest:
    # its labels are then evenly spaced, none crowding the top one.
    step = grid_step(math.ceil(high - low + 2 * pad))
    bottom, top = math.floor((low - pad) / step) * step, math.ceil((high + pad) / step) * step
    count = len(history)
    every = max(1, count // 8)
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=i, y=v) for i, v in enumerate(history, start=1)],
                color=ft.Colors.PRIMARY,
                stroke_width=3,
                point=True,
            )
        ],
        min_x=0.7,  # room for the first and last points' dots
        max_x=max(count, 2) + 0.3,
        min_y=bottom,
        max_y=top,
        height=220,
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        bottom_axis=fch.ChartAxis(
            title=ft.Text(tr("player.chart_games", language)),
            labels=[fch.ChartAxisLabel(value=i, label=str(i)) for i in range(1, count + 1, every)],
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=1),
    )
    # The canvas has no text of its own: the chart's name says what it shows.
    return ft.Semantics(label=label, container=True, content=chart)


def _rating(model: PlayerModel, language: Language) -> list[ft.Control]:
    choices = model.rating_variants()
    if not choices:
        return []
    variant = engine_text(dict(choices).get(model.variant, model.variant), language)
    history = model.rating_history()
    label = tr(
        "player.chart_label",
        language,
        variant=variant,
        count=len(history),
        first=f"{history[0]:.1f}",
        last=f"{history[-1]:.1f}",
    )
    return [
        section(tr("player.rating", language)),
        labelled_dropdown(
            label=tr("player.rating_variant", language),
            value=model.variant,
            options=[(key, engine_text(name, language)) for key, name in choices],
            on_select=model.choose_variant,
            width=260,
        ),
        ft.Text(tr("player.rating_now", language, variant=variant, rating=model.rating_now())),
        rating_chart(history, label=label, language=language),
    ]


def _recent(model: PlayerModel, language: Language) -> list[ft.Control]:
    controls: list[ft.Control] = [section(tr("player.recent", language))]
    games = model.recent()
    if not games:
        controls.append(ft.Text(tr("player.no_recent", language)))
    for game in games:
        if game.rank is None:
            status = tr("player.unfinished", language)
        elif game.won:
            status = tr("player.won", language)
        else:
            status = tr("player.rank", language, rank=game.rank)
        controls.append(
            ft.ListTile(
                title=ft.Text(f"{engine_text(game.variant, language)}: {game.players}"),
                subtitle=ft.Text(
                    f"{local_time(game.played, language)} · {status} · "
                    + tr("player.total", language, total=game.total)
                ),
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                on_click=partial(navigate, f"/game/{game.id}"),
            )
        )
    return controls


def _nights(model: PlayerModel, language: Language) -> list[ft.Control]:
    nights = model.nights()
    if not nights:
        return []
    controls: list[ft.Control] = [section(tr("player.nights", language))]
    for night in nights:
        line = tr(
            "player.night_line",
            language,
            date=local_time(night.date, language),
            league=night.league,
            place=night.place,
            points=night.points,
        )
        controls.append(
            ft.ListTile(
                title=ft.Text(line),
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                on_click=partial(navigate, f"/nights/{night.id}"),
            )
        )
    return controls


def _head_to_head(model: PlayerModel, language: Language) -> list[ft.Control]:
    opponents = model.opponents()
    if not opponents:
        return []
    controls: list[ft.Control] = [
        section(tr("player.h2h", language)),
        labelled_dropdown(
            label=tr("player.rival", language),
            value=model.rival or NONE,
            options=[(NONE, "–"), *opponents],
            on_select=lambda key: model.choose_rival("" if key == NONE else key),
            width=260,
        ),
    ]
    rivalry = model.rivalry()
    if rivalry is None:
        controls.append(ft.Text(tr("player.no_rival", language)))
        return controls
    names = {"name": model.name, "other": rivalry.other}
    controls.append(
        ft.Text(
            tr(
                "player.h2h_line",
                language,
                games=rivalry.games,
                wins=rivalry.wins,
                losses=rivalry.losses,
                ties=rivalry.ties,
                **names,
            ),
            weight=ft.FontWeight.W_600,
        )
    )
    for variant, games, wins, losses in rivalry.by_variant:
        controls.append(
            ft.Text(
                tr(
                    "player.h2h_variant",
                    language,
                    variant=engine_text(variant, language),
                    games=games,
                    wins=wins,
                    losses=losses,
                    **names,
                )
            )
        )
    return controls


def _record(
    model: PlayerModel, language: Language, *, name: str, set_name: Callable[[str], None]
) -> list[ft.Control]:
    def rename() -> None:
        if model.rename(name):
            model.notice = tr("player.renamed", language)

    def merge(key: str) -> None:
        if key != NONE and model.merge(key):
            model.notice = tr("player.merged", language, name=model.notice)

    candidates = model.merge_candidates()
    controls: list[ft.Control] = [
        section(tr("player.record", language)),
        ft.Row(
            wrap=True,
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                ft.TextField(
                    label=tr("player.rename_label", language),
                    value=name,
                    on_change=lambda e: set_name(e.control.value),
                    width=260,
                ),
                ft.OutlinedButton(tr("player.rename", language), icon=ft.Icons.EDIT, on_click=rename),
            ],
        ),
        ft.Text(tr("player.merge_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
    ]
    if candidates:
        controls.append(
            labelled_dropdown(
                label=tr("player.merge_label", language),
                value=NONE,
                options=[(NONE, "–"), *candidates],
                on_select=merge,
                width=260,
            )
        )
    else:
        controls.append(ft.Text(tr("player.no_merge", language)))
    if model.notice:
        controls.append(ft.Text(model.notice))
    return controls


@ft.component
def PlayerScreen(*, player_id: str) -> ft.Control:
    language = use_settings().language
    store = use_store()
    state: tuple[PlayerModel, Callable[[PlayerModel], None]] = ft.use_state(
        lambda: PlayerModel.load(store, player_id)
    )
    model = state[0]
    use_live(model.reload)
    new_name, set_new_name = ft.use_state("")
    leagues = model.leagues()
    controls: list[ft.Control] = [
        back_link(tr("leagues.title", language), "/leagues"),
        headline(model.name),
    ]
    if len(leagues) > 1:
        controls.append(
            labelled_dropdown(
                label=tr("player.league", language),
                value=model.league or EVERY_LEAGUE,
                options=[(EVERY_LEAGUE, tr("player.every_league", language)), *leagues],
                on_select=model.choose_league,
                width=260,
            )
        )
    controls.append(section(tr("player.stats", language)))
    lines = model.variants()
    if lines:
        controls.append(_stats_table(lines, language))
    else:
        controls.append(ft.Text(tr("player.no_games", language, name=model.name)))
    controls.extend(_rating(model, language))
    controls.extend(_recent(model, language))
    controls.extend(_nights(model, language))
    controls.extend(_head_to_head(model, language))
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    controls.extend(_record(model, language, name=new_name, set_name=set_new_name))
    return screen(*controls)


@ft.component
def PlayerRoute() -> ft.Control:
    """``/players/<id>``: the player (a merged record's old id shows the one kept), or none."""
    key = ft.use_route_params().get("id", "")
    language = use_settings().language
    try:
        player = use_store().player(key)
    except ScorerError:
        return screen(
            headline(tr("player.no_player", language)),
            ft.TextButton(tr("leagues.back", language), on_click=partial(navigate, "/leagues")),
        )
    keyed: Any = PlayerScreen
    return cast(ft.Control, keyed(player_id=player.id, key=f"player/{player.id}"))
