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
        min_y=min(low, 0),
        max_y=max(high, 1) * 1.1,
        height=220,
        left_axis=fch.ChartAxis(label_size=44),
        bottom_axis=fch.ChartAxis(
            title=ft.Text(tr("scoreboard.chart_deals", language)),
            labels=[fch.ChartAxisLabel(value=i, label=str(i)) for i in range(deals + 1)],
        ),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
    )
    return ft.Column(spacing=6, controls=[chart, legend])
