"""A line chart of each player's running total over the deals (flet-charts)."""

from __future__ import annotations

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


def totals_chart(series: dict[str, list[int]], language: Language) -> ft.Control:
    """``series``: player -> total after deal 0, 1, 2, ... (from the scoreboard model)."""
    values = [v for totals in series.values() for v in totals]
    deals = max((len(t) for t in series.values()), default=1) - 1
    low, high = min(values, default=0), max(values, default=0)
    step = grid_step(max(high - min(low, 0), 1))
    lines = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(x=i, y=v) for i, v in enumerate(totals)],
            color=SERIES_COLORS[seat % len(SERIES_COLORS)],
            stroke_width=3,
            point=True,
        )
        for seat, totals in enumerate(series.values())
    ]
    legend = ft.Row(
        wrap=True,
        spacing=12,
        controls=[
            ft.Row(
                tight=True,
                spacing=4,
                controls=[
                    ft.Container(width=14, height=4, bgcolor=SERIES_COLORS[seat % len(SERIES_COLORS)]),
                    ft.Text(name),
                ],
            )
            for seat, name in enumerate(series)
        ],
    )
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
