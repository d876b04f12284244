"""Deals confirmed at the table: the Scoreboard's part and the director's (Disputes).

Every action goes through :mod:`scorer.ui.screens.confirm_model`; these components only
draw it. A deal is shown as entered the way the conflict panel shows one side
(:func:`~scorer.ui.components.conflict_panel.side_lines`), a dispute's two versions side by
side as the conflict panel shows mine and theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import flet as ft

from scorer.ui.components.conflict_panel import side_column, side_lines
from scorer.ui.components.layout import error_text, navigate, section
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.confirm_model import DirectorChecks, NightDeal, TableChecks, check_line


def _small(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL)


def _box(controls: list[ft.Control], *, alert: bool = False) -> ft.Control:
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border=ft.Border.all(2, ft.Colors.ERROR) if alert else None,
        content=ft.Column(spacing=6, controls=controls),
    )


def table_checks(
    model: TableChecks,
    *,
    me: str | None,
    language: Language,
    confirm: Callable[[int], None],
    send: Callable[[], None],
) -> list[ft.Control]:
    """The Scoreboard's ``Confirm the deals``: each deal another phone saved, as entered, with
    ``Confirm deal N`` and ``Dispute deal N`` (a reason, optional, then ``Send dispute``); the
    others' state in a line each (waiting, confirmed by whom, disputed, resolved)."""
    if not model.checks:
        return []
    controls: list[ft.Control] = [section(tr("checks.title", language)), _small(tr("checks.help", language))]
    for check in model.to_confirm(me):
        number = check.number
        lines: list[ft.Control] = [
            ft.Text(check_line(check, me=me, language=language), weight=ft.FontWeight.W_600),
            *side_lines(model.side(dict(check.deal)), language),
        ]
        if model.disputing == number:
            lines += [
                ft.Text(tr("checks.dispute_title", language, number=number), weight=ft.FontWeight.BOLD),
                ft.TextField(
                    label=tr("checks.why_label", language),
                    value=model.why,
                    on_change=lambda e: model.set_why(e.control.value),
                    dense=True,
                ),
                ft.Row(
                    wrap=True,
                    controls=[
                        ft.FilledButton(tr("checks.send", language), icon=ft.Icons.REPORT, on_click=send),
                        # Their version through the deal entry form, sent with its reason there.
                        ft.OutlinedButton(
                            tr("checks.enter_version", language),
                            icon=ft.Icons.EDIT_NOTE,
                            on_click=partial(navigate, f"/game/{model.game_id}/dispute/{number}"),
                        ),
                        ft.TextButton(tr("checks.cancel", language), on_click=model.cancel),
                    ],
                ),
            ]
        else:
            lines.append(
                ft.Row(
                    wrap=True,
                    spacing=8,
                    controls=[
                        ft.FilledButton(
                            tr("checks.confirm", language, number=number),
                            icon=ft.Icons.CHECK,
                            on_click=partial(confirm, number),
                        ),
                        ft.OutlinedButton(
                            tr("checks.dispute", language, number=number),
                            icon=ft.Icons.REPORT_OUTLINED,
                            on_click=partial(model.open_dispute, number),
                        ),
                    ],
                )
            )
        controls.append(_box(lines, alert=model.disputing == number))
    shown = {c.number for c in model.to_confirm(me)}
    others = [c for c in model.checks if c.number not in shown]
    controls += [_small(check_line(c, me=me, language=language)) for c in others]
    if model.error:
        controls.append(error_text(model.error))
    return controls


def _dispute(
    item: NightDeal,
    model: DirectorChecks,
    language: Language,
    *,
    keep: Callable[[NightDeal, str], None],
) -> ft.Control:
    check = item.check
    head = tr(
        "checks.dispute_head",
        language,
        round=item.round,
        table=item.table,
        number=check.number,
        name=check.disputed_by or "?",
    )
    theirs: list[ft.Control] = (
        side_lines(item.side(dict(check.theirs)), language)
        if check.theirs is not None
        else [ft.Text(tr("checks.only_reason", language))]
    )
    controls: list[ft.Control] = [ft.Text(head, weight=ft.FontWeight.BOLD)]
    if check.why:
        controls.append(ft.Text(tr("checks.reason_said", language, why=check.why)))
    controls += [
        ft.ResponsiveRow(
            spacing=8,
            run_spacing=8,
            controls=[
                side_column(
                    tr("checks.saved", language, name=check.saved_by or "?"),
                    side_lines(item.side(dict(check.deal)), language),
                ),
                side_column(tr("checks.theirs", language, name=check.disputed_by or "?"), theirs),
            ],
        ),
        ft.TextField(
            label=tr("checks.reason_label", language),
            value=model.reasons.get(item.key, ""),
            on_change=lambda e: model.set_reason(item, e.control.value),
            dense=True,
        ),
    ]
    buttons: list[ft.Control] = [
        ft.FilledButton(tr("checks.keep_saved", language), on_click=lambda: keep(item, "saved"))
    ]
    if check.theirs is not None:
        label = tr("checks.keep_theirs", language)
        buttons.append(ft.OutlinedButton(label, on_click=lambda: keep(item, "theirs")))
    controls.append(ft.Row(wrap=True, spacing=8, controls=buttons))
    return ft.Container(
        padding=12,
        border_radius=12,
        border=ft.Border.all(2, ft.Colors.ERROR),
        content=ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls),
    )


def director_checks(
    model: DirectorChecks,
    language: Language,
    *,
    keep: Callable[[NightDeal, str], None],
    confirm: Callable[[NightDeal], None],
) -> list[ft.Control]:
    """The director's ``Disputes`` (each with both versions, a reason, ``Keep saved`` and
    ``Keep theirs``) and ``Unconfirmed deals`` (each with ``Confirm deal N at table T``)."""
    controls: list[ft.Control] = []
    if model.disputes:
        controls.append(section(tr("checks.disputes", language)))
        controls += [_dispute(item, model, language, keep=keep) for item in model.disputes]
    if model.unconfirmed:
        controls.append(section(tr("checks.unconfirmed", language)))
        for item in model.unconfirmed:
            check = item.check
            controls.append(
                ft.Row(
                    wrap=True,
                    spacing=8,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    controls=[
                        ft.Text(
                            tr(
                                "checks.unconfirmed_line",
                                language,
                                round=item.round,
                                table=item.table,
                                number=check.number,
                                name=check.saved_by or "?",
                            )
                        ),
                        ft.OutlinedButton(
                            tr("checks.director_confirm", language, number=check.number, table=item.table),
                            icon=ft.Icons.CHECK,
                            on_click=partial(confirm, item),
                        ),
                    ],
                )
            )
    if model.error:
        controls.append(error_text(model.error))
    return controls
