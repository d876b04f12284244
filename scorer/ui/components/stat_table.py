"""A table of figures that fits the screen it is on: the standings, a player's statistics.

On a wide screen (the ``md`` breakpoint, 768 px, and up) it is the full table; when that is
wider than the screen's column it scrolls sideways, its scrollbar always shown so the columns
beyond the edge are seen to be there. On a phone each row takes two lines: first its label and
the figures marked ``phone`` (a player at the table looks for games, wins and rating), in
columns under their headings; then every other figure with its name ("Win rate 60%"),
wrapping as the width asks, leaving out those that do not apply. Nothing is cut and nothing
scrolls sideways.

Both layouts are sent; the client shows the one its width calls for (a column of 0 for a
breakpoint hides a control in a ResponsiveRow), so turning the phone redraws no server state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial
from typing import Final

import flet as ft

from scorer.ui.components.layout import TOUCH_TARGET, navigate

#: Below this breakpoint the rows take two lines (Flet's ``md``: 768 px).
WIDE: Final = "md"
#: A figure's width on the phone's first line: "Luokitus" in small type, "-12.3?" in body type.
FIGURE_WIDTH: Final = 60
RANK_WIDTH: Final = 28
#: A figure that does not apply (no points across variants, no rating yet).
NONE: Final = "–"


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its heading, whether it holds numbers, whether a phone shows it first."""

    heading: str
    numeric: bool = True
    phone: bool = False  # on the phone's first line (else on its second)
    rank: bool = False  # a row's place: narrow, and named on no second line


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell's text; with a route, tapping it opens that screen (a player's)."""

    text: str
    route: str | None = None


def figure(value: object) -> Cell:
    """A figure's cell: its text, or a dash when there is none."""
    return Cell(NONE if value is None else str(value))


def stat_table(columns: list[Column], rows: list[list[Cell]]) -> ft.Control:
    """The full table on a wide screen, two lines a row on a phone (see the module docstring).

    The first non-numeric column is the row's label (a player, a variant).

    The table is keyed by what it shows: when a live update changes any cell, the table is
    sent whole in place of the old one, not patched. Patched, a cell that went from empty to
    text (a night's "Ahead by" filling in as tables finish) kept its old, empty reading on
    the web client until the page was loaded again.
    """
    return ft.ResponsiveRow(
        key=_digest(columns, rows),
        spacing=0,
        run_spacing=0,
        controls=[
            ft.Column(col={"xs": 12, WIDE: 0}, spacing=0, controls=_phone(columns, rows)),
            ft.Row(col={"xs": 0, WIDE: 12}, scroll=ft.ScrollMode.ALWAYS, controls=[_wide(columns, rows)]),
        ],
    )


def _digest(columns: list[Column], rows: list[list[Cell]]) -> str:
    """A short digest of everything the table shows (its key)."""
    return hashlib.blake2b(repr((columns, rows)).encode("utf-8"), digest_size=8).hexdigest()


def _label(cell: Cell) -> ft.Control:
    text = ft.Text(cell.text)
    if cell.route is None:
        return text
    return ft.TextButton(
        content=text,
        # a name is tapped at the table as any button is: TOUCH_TARGET high
        style=ft.ButtonStyle(
            padding=ft.Padding.symmetric(horizontal=2, vertical=(TOUCH_TARGET - 20) // 2),
            alignment=ft.Alignment.CENTER_LEFT,
        ),
        on_click=partial(navigate, cell.route),
    )


def _wide(columns: list[Column], rows: list[list[Cell]]) -> ft.Control:
    def cell(column: Column, value: Cell) -> ft.DataCell:
        # The label may wrap: the web client sizes the columns before the bundled font arrives,
        # and a label kept on one line would then be cut at the column's edge.
        return ft.DataCell(_label(value) if not column.numeric else ft.Text(value.text))

    return ft.DataTable(
        columns=[ft.DataColumn(label=ft.Text(c.heading), numeric=c.numeric) for c in columns],
        rows=[ft.DataRow(cells=[cell(c, v) for c, v in zip(columns, row, strict=True)]) for row in rows],
        column_spacing=18,
        horizontal_margin=8,
    )


def _first_line(columns: list[Column], cells: list[Cell], *, heading: bool) -> ft.Control:
    controls: list[ft.Control] = []
    for column, cell in zip(columns, cells, strict=True):
        if column.rank:
            controls.append(
                ft.Container(
                    width=RANK_WIDTH,
                    content=ft.Text(cell.text) if not heading else _phone_text(cell.text, heading=True),
                )
            )
        elif not column.numeric:  # the label takes what the figures leave, and wraps
            content = _phone_text(cell.text, heading=heading) if heading else _label(cell)
            controls.append(ft.Container(expand=True, alignment=ft.Alignment.CENTER_LEFT, content=content))
        else:
            text = _phone_text(cell.text, heading=heading)
            controls.append(
                ft.Container(width=FIGURE_WIDTH, alignment=ft.Alignment.CENTER_RIGHT, content=text)
            )
    return ft.Row(spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER, controls=controls)


def _phone_text(text: str, *, heading: bool) -> ft.Text:
    if heading:
        return ft.Text(text, theme_style=ft.TextThemeStyle.LABEL_MEDIUM, weight=ft.FontWeight.W_600)
    return ft.Text(text, text_align=ft.TextAlign.RIGHT)


def _phone(columns: list[Column], rows: list[list[Cell]]) -> list[ft.Control]:
    label = next(i for i, c in enumerate(columns) if not c.numeric)
    first = [i for i, c in enumerate(columns) if c.rank or c.phone or i == label]
    rest = [i for i in range(len(columns)) if i not in first]
    shown = [columns[i] for i in first]
    lines: list[ft.Control] = [
        _first_line(shown, [Cell(c.heading) for c in shown], heading=True),
        ft.Divider(height=1),
    ]
    indent = RANK_WIDTH + 6 if shown[0].rank else 0  # the second line starts under the label
    for row in rows:
        line: list[ft.Control] = [_first_line(shown, [row[i] for i in first], heading=False)]
        if rest:
            details: list[ft.Control] = [
                ft.Text(f"{columns[i].heading} {row[i].text}", theme_style=ft.TextThemeStyle.BODY_SMALL)
                for i in rest
                if row[i].text != NONE
            ]
            line.append(
                ft.Container(
                    padding=ft.Padding.only(left=indent),
                    content=ft.Row(wrap=True, spacing=14, run_spacing=2, controls=details),
                )
            )
        lines.append(
            ft.Container(
                padding=ft.Padding.only(top=4, bottom=6), content=ft.Column(spacing=0, controls=line)
            )
        )
        lines.append(ft.Divider(height=1))
    return lines
