"""The Scoreboard's notice of a game changed here and on another device apart (a sync found it):
*Changed on another device too*, and the other device's deals as the sync received them.

Nothing is merged: each side keeps its own deals until the table decides (docs/app.md,
"Club server") with the three buttons of one server: `Keep theirs`, `Save mine as the next
deal`, `Replace theirs` (then `Why (optional)` and `Save correction`). At every change to the
store the notice asks whether it holds any of the game's facts back, and reads them only when
it may, so it comes when a sync holds some and goes once a choice is made here or the other
side's deals have come in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorer.ruleset import Ruleset
from scorer.ui.components.conflict_panel import side_lines
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_live
from scorer.ui.screens.conflict_model import describe_deal
from scorer.ui.screens.synced_apart_model import SyncedApart


@ft.component
def ChangedElsewhere(*, game_id: str, ruleset: Ruleset, players: tuple[str, ...]) -> ft.Control:
    settings = use_settings()
    language = settings.language
    store = use_store()

    def fresh() -> SyncedApart:
        model = SyncedApart(game_id)
        model.read(store)
        return model

    state: tuple[SyncedApart, Callable[[SyncedApart], None]] = ft.use_state(fresh)
    model, set_model = state
    _, set_version = ft.use_state(0)

    def changed() -> None:
        set_version(lambda v: v + 1)

    def reread() -> None:
        if model.game_id != game_id:
            set_model(fresh())
            return
        # Asked at every change (a sync may hold facts back with no commit naming the game:
        # the game's own facts are the ones it does not apply), read only when the store may
        # hold some (every phone hears of every save: most have none, and read nothing), drawn
        # again only when their deals changed.
        if model.read_again(store):
            changed()

    use_live(reread)
    if not model.theirs:
        return ft.Container(visible=False)
    lines: list[ft.Control] = [
        ft.Text(tr("scoreboard.elsewhere", language), weight=ft.FontWeight.BOLD, size=16),
        ft.Text(tr("scoreboard.elsewhere_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
    ]
    for deal in model.theirs:
        when = deal.at.replace("T", " ")[:16]
        lines.append(
            ft.Text(
                tr(f"scoreboard.elsewhere_{deal.change}", language, number=deal.number, by=deal.by, at=when),
                weight=ft.FontWeight.W_600,
            )
        )
        if deal.deal is not None:
            lines += side_lines(describe_deal(deal.deal, ruleset=ruleset, players=players), language)
    lines += _choices(model, store=store, signer=settings.signer, language=language, changed=changed)
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        content=ft.Column(spacing=4, controls=lines),
    )


def _choices(
    model: SyncedApart, *, store: Any, signer: str | None, language: Language, changed: Callable[[], None]
) -> list[ft.Control]:
    """The three choices (or, after *Replace theirs*, its reason and *Save correction*), and
    why the last one wrote nothing."""

    def act(choice: Callable[[], object]) -> None:
        choice()
        changed()

    def typed(event: ft.Event[ft.TextField]) -> None:
        model.why = str(event.control.value or "")

    if model.replacing:
        buttons: list[ft.Control] = [
            ft.TextField(
                label=tr("history.why_label", language),
                value=model.why,
                on_change=typed,
                max_length=500,
            ),
            ft.FilledButton(
                tr("conflict.replace_confirm", language),
                on_click=lambda: act(lambda: model.replace_theirs(store, by=signer)),
            ),
        ]
    else:
        buttons = [
            ft.FilledButton(
                tr("conflict.keep_theirs", language),
                on_click=lambda: act(lambda: model.keep_theirs(store, by=signer)),
            ),
            ft.OutlinedButton(
                tr("conflict.save_next", language),
                on_click=lambda: act(lambda: model.save_mine_next(store, by=signer)),
            ),
            ft.OutlinedButton(
                tr("conflict.replace", language),
                on_click=lambda: act(model.start_replacing),
            ),
        ]
    found: list[ft.Control] = [ft.Row(wrap=True, spacing=8, run_spacing=8, controls=buttons)]
    if model.error:
        found.append(ft.Text(engine_text(model.error, language), color=ft.Colors.ERROR))
    return found
