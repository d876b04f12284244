"""Home ``/``: games in progress to continue, recent finished games, the ways to the rest.

:func:`home_view` draws it from its model alone: the phone build draws the same Home from the
store's summary record before the store is open (:mod:`scorer.web.first_screen`).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ui.components.layout import headline, navigate, screen, section
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.live import use_live
from scorer.ui.screens.home_model import GameLine, HomeModel


def _game_tile(line: GameLine, language: Language) -> ft.Control:
    if line.winner:
        status = tr("home.winner", language, name=line.winner)
    else:
        status = tr("home.deals_played", language, count=line.deals)
    return ft.Card(
        content=ft.ListTile(
            title=ft.Text(f"{engine_text(line.variant, language)}: {line.players}"),
            subtitle=ft.Text(f"{line.totals}\n{status} · {local_time(line.changed, language)}"),
            is_three_line=True,
            on_click=lambda: navigate(f"/game/{line.id}"),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        )
    )


@ft.component
def HomeScreen() -> ft.Control:
    settings = use_settings()
    store = use_store()
    state: tuple[HomeModel, Callable[[HomeModel], None]] = ft.use_state(lambda: HomeModel.load(store))
    model = state[0]
    use_live(lambda: model.reload(store))
    return home_view(model, settings.language)


def home_view(model: HomeModel, language: Language) -> ft.Control:
    """Home as ``model`` lists the games."""
    controls: list[ft.Control] = [
        headline(tr("home.title", language)),
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            controls=[
                ft.FilledButton(
                    tr("home.new_game", language), icon=ft.Icons.ADD, on_click=lambda: navigate("/game/new")
                ),
                ft.OutlinedButton(
                    tr("nav.referee", language), icon=ft.Icons.GAVEL, on_click=lambda: navigate("/referee")
                ),
                ft.OutlinedButton(
                    tr("nav.rules", language), icon=ft.Icons.MENU_BOOK, on_click=lambda: navigate("/rules")
                ),
            ],
        ),
        section(tr("home.in_progress", language)),
    ]
    if model.in_progress:
        controls.extend(_game_tile(line, language) for line in model.in_progress)
    else:
        controls.append(ft.Text(tr("home.none_in_progress", language)))
    if model.finished:
        controls.append(section(tr("home.finished", language)))
        controls.extend(_game_tile(line, language) for line in model.finished)
    if model.abandoned:
        controls.append(section(tr("home.abandoned", language)))
        controls.extend(_game_tile(line, language) for line in model.abandoned)
    return screen(*controls)
