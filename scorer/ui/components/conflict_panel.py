"""Two entries of one deal side by side: mine and theirs, who saved theirs and when.

Shown by Deal entry when its save was refused (another phone saved that deal first) and by
the Scoreboard when a removal was; the buttons (what to do) are the caller's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorer.ui.components.card_face import card_spans
from scorer.ui.components.layout import headline
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.conflict_model import DealConflict, DealSide
from scorer.ui.screens.history_model import event_line

#: Where a hand's cards go in its line (drawn as spans of their own).
_CARDS = "\x00"


def side_lines(side: DealSide, language: Language) -> list[ft.Control]:
    """One deal as entered, a line each: who went out or knocked, each hand, the flags."""
    lines: list[ft.Control] = []
    if side.dead:
        lines.append(ft.Text(tr("conflict.dead", language)))
    if side.out:
        lines.append(ft.Text(tr("conflict.went_out", language, name=side.out)))
    if side.knocker:
        lines.append(ft.Text(tr("conflict.knocked", language, name=side.knocker)))
    if side.ended:
        lines.append(ft.Text(tr("conflict.ended", language, how=tr(f"deal.ended_{side.ended}", language))))
    for hand in side.hands:
        if hand.out and not hand.cards and hand.points in (0, None, "0"):
            lines.append(ft.Text(tr("conflict.out", language, name=hand.player)))
        elif hand.cards is not None:
            # One line, the cards written once as on every screen (K♠ 5♥, in their colours).
            points = "?" if hand.points is None else hand.points
            line = tr("conflict.cards", language, name=hand.player, cards=_CARDS, points=points)
            before, _, after = line.partition(_CARDS)
            lines.append(ft.Text(spans=[ft.TextSpan(before), *card_spans(hand.cards), ft.TextSpan(after)]))
        else:
            lines.append(ft.Text(tr("conflict.points", language, name=hand.player, points=hand.points)))
    if side.one_turn:
        lines.append(ft.Text(tr("conflict.one_turn", language)))
    if side.upcard:
        lines.append(ft.Text(tr("conflict.upcard", language, card=side.upcard)))
    if side.big_gin:
        lines.append(ft.Text(tr("conflict.big_gin", language)))
    return lines


def side_column(title: str, lines: list[ft.Control]) -> ft.Control:
    """One side of two, titled: beside the other on a wide screen, under it on a phone."""
    return ft.Container(
        col={"xs": 12, "sm": 6},
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        content=ft.Column(
            spacing=4,
            controls=[ft.Text(title, weight=ft.FontWeight.BOLD, size=16), *lines],
        ),
    )


def conflict_panel(
    conflict: DealConflict,
    *,
    side: Callable[[dict[str, Any]], DealSide],
    language: Language,
    actions: list[ft.Control],
) -> ft.Control:
    """The conflict: a title, who saved theirs and when, mine and theirs, then ``actions``."""
    number = conflict.number
    title = "conflict.title_recorded" if conflict.doing == "record" else "conflict.title_changed"
    controls: list[ft.Control] = [headline(tr(title, language, number=number))]
    if conflict.event is not None:
        controls.append(
            ft.Text(event_line(conflict.event, language, with_deal=True), weight=ft.FontWeight.W_600)
        )
    controls.append(ft.Text(tr("conflict.nothing_saved", language)))
    theirs: list[ft.Control] = (
        side_lines(side(conflict.theirs), language)
        if conflict.theirs is not None
        else [ft.Text(tr("conflict.gone", language, number=number))]
    )
    controls.append(
        ft.ResponsiveRow(
            spacing=8,
            run_spacing=8,
            controls=[
                side_column(tr("conflict.mine", language), side_lines(side(conflict.mine), language)),
                side_column(tr("conflict.theirs", language), theirs),
            ],
        )
    )
    controls.append(ft.Row(wrap=True, spacing=8, run_spacing=8, controls=actions))
    return ft.Container(
        padding=12,
        border_radius=12,
        border=ft.Border.all(2, ft.Colors.ERROR),
        content=ft.Column(spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls),
    )
