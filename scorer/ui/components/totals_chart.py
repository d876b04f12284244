"""A line chart of each player's running total over the deals (flet-charts).

Each point carries a note (its tooltip) saying what moved the total there; where a game's
final bonuses land, the line steps up at the same deal to a square point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import flet as ft
import flet_charts as fch  # type: ignore[import-untyped]  # flet-charts 1.0.5 ships no py.typed

from scorer.ui.i18n import Language, tr

#: Line colours by seat, distinct in both themes.
SERIES_COLORS: Final = (
    ft.Colors.BLUE_600,
    ft.Colors.RED_600,
    ft.Colors.GREEN_600,
    ft.Colors.ORANGE_600,
    ft.Colors.PURPLE_400,
    ft.Colors.TEAL_600,
    ft.Colors.BROWN_400,
)


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """A player's running total ``total`` at deal ``deal`` (0: the start), and why (``note``).

    A ``bonus`` point is the step a game's final bonuses add at the deal that closed it.
    """

    deal: int
    total: int
    note: str
    bonus: bool = False


def _point(point: ChartPoint, color: str) -> fch.LineChartDataPoint:
    shape = fch.ChartSquarePoint(color=color, size=10, stroke_width=0) if point.bonus else True
    return fch.LineChartDataPoint(
        x=point.deal, y=point.total, point=shape, tooltip=point.note, show_tooltip=bool(point.note)
    )


def totals_chart(series: dict[str, list[ChartPoint]], language: Language) -> ft.Control:
    """``series``: player -> points from deal 0 on (from the scoreboard model)."""
    values = [p.total for points in series.values() for p in points]
    deals = max((p.deal for points in series.values() for p in points), default=0)
    low, high = min(values, default=0), max(values, default=0)
    step = grid_step(max(high - min(low, 0), 1))
    lines = [
        fch.LineChartData(
            points=[_point(p, SERIES_COLORS[seat % len(SERIES_COLORS)]) for p in points],
            color=SERIES_COLORS[seat % len(SERIES_COLORS)],
            stroke_width=3,
            point=True,
        )
        for seat, points in enumerate(series.values())
    ]
    keys: list[ft.Control] = [
        ft.Row(
            tight=True,
            spacing=4,
            controls=[
                ft.Container(width=14, height=4, bgcolor=SERIES_COLORS[seat % len(SERIES_COLORS)]),
                ft.Text(name),
            ],
        )
        for seat, name in enumerate(series)
    ]
    if any(p.bonus for points in series.values() for p in points):
        keys.append(
            ft.Row(
                tight=True,
                spacing=4,
                controls=[
                    ft.Container(width=10, height=10, bgcolor=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text(tr("scoreboard.chart_bonus", language)),
                ],
            )
        )
    legend = ft.Row(wrap=True, spacing=12, controls=keys)
    chart = fch.LineChart(
        data_series=lines,
        min_x=0,
        max_x=max(deals, 1),
        min_y=-_round_up(-low, step) if low < 0 else 0,
        max_y=_round_up(max(high, 1), step),
        height=220,
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        bottom_axis=fch.ChartAxis(
            title=ft.Text(tr("scoreboard.chart_deals", language)),
            labels=[fch.ChartAxisLabel(value=i, label=str(i)) for i in range(deals + 1)],
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=1),
        tooltip=fch.LineChartTooltip(max_width=240, fit_inside_horizontally=True, fit_inside_vertically=True),
    )
    # Room on the right for the last deal's label.
    return ft.Column(
        spacing=6, controls=[ft.Container(padding=ft.Padding.only(right=16), content=chart), legend]
    )


def grid_step(span: int) -> int:
    """A round grid step giving at most six lines over ``span`` points: 1, 2, 5, 10, 20, 50 ...

    >>> [grid_step(span) for span in (5, 20, 41, 370)]
    [1, 5, 10, 100]
    """
    step = 1
    while span / step > 6:
        for factor in (2, 5 / 2, 2):
            step = int(step * factor)
            if span / step <= 6:
                break
    return step


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step
