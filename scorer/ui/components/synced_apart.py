"""The Scoreboard's notice of a game changed here and on another device apart (a sync found it):
*Changed on another device too*, and the other device's deals as the sync received them.

Nothing is merged: each side keeps its own deals until the table decides (docs/app.md,
"Club server"). The notice reads the store again on every change, so it goes once the
other side's deals have come in."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ruleset import Ruleset
from scorer.ui.components.conflict_panel import side_lines
from scorer.ui.context import use_settings, use_store
from scorer.ui.i18n import tr
from scorer.ui.live import use_live
from scorer.ui.screens.conflict_model import describe_deal
from scorer.ui.screens.synced_apart_model import TheirDeal, their_deals


@ft.component
def ChangedElsewhere(*, game_id: str, ruleset: Ruleset, players: tuple[str, ...]) -> ft.Control:
    language = use_settings().language
    store = use_store()
    state: tuple[list[TheirDeal], Callable[[list[TheirDeal]], None]] = ft.use_state(
        lambda: their_deals(store, game_id)
    )
    theirs, set_theirs = state
    use_live(lambda: set_theirs(their_deals(store, game_id)))
    if not theirs:
        return ft.Container(visible=False)
    lines: list[ft.Control] = [
        ft.Text(tr("scoreboard.elsewhere", language), weight=ft.FontWeight.BOLD, size=16),
        ft.Text(tr("scoreboard.elsewhere_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
    ]
    for deal in theirs:
        when = deal.at.replace("T", " ")[:16]
        lines.append(
            ft.Text(
                tr(f"scoreboard.elsewhere_{deal.change}", language, number=deal.number, by=deal.by, at=when),
                weight=ft.FontWeight.W_600,
            )
        )
        if deal.deal is not None:
            lines += side_lines(describe_deal(deal.deal, ruleset=ruleset, players=players), language)
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        content=ft.Column(spacing=4, controls=lines),
    )
