"""Leagues ``/leagues`` and one league ``/leagues/<id>``.

The list shows each league with its open season and creates new ones. A league shows its
standings (the columns of ``rummy league standings`` plus win rate, average per deal and the
variant's events) for the open season, a past season or all time, for one variant or all
(every variant together: what they share, then each variant's own table, as the command line
prints them); a phone shows each player on two lines (:mod:`scorer.ui.components.stat_table`);
its seasons (close the open one, start a new one); import and export; and every finished
game, which opens the game's scoreboard, where a correction recomputes the standings.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, cast

import flet as ft

from scorer.errors import ScorerError
from scorer.ui.camera import scanning_available
from scorer.ui.components.exchange_panel import LeagueExchange, confirm_row, export_game_button, plan_view
from scorer.ui.components.file_dialogs import pick_json_files
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
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.live import use_announce, use_live
from scorer.ui.screens.league_import_model import LeagueImportModel
from scorer.ui.screens.leagues_model import (
    ALL_TIME,
    LeagueModel,
    LeaguesModel,
    StandingLine,
    StandingsTable,
    season_name,
)
from scorer.ui.screens.opened_files import OPENED, OpenedFiles
from scorer.ui.screens.share import ShareButton
from scorer.ui.screens.share_model import share_league

ALL_VARIANTS = "*"


@ft.component
def LeaguesScreen() -> ft.Control:
    language = use_settings().language
    store = use_store()
    state: tuple[LeaguesModel, Callable[[LeaguesModel], None]] = ft.use_state(
        lambda: LeaguesModel.load(store)
    )
    model = state[0]
    use_live(model.reload)
    announce = use_announce()
    name, set_name = ft.use_state("")
    season, set_season = ft.use_state("")

    def create() -> None:
        league_id = model.create(name, season=season)
        if league_id is not None:
            announce()
            navigate(f"/leagues/{league_id}")

    controls: list[ft.Control] = [headline(tr("leagues.title", language))]
    if not model.leagues:
        controls.append(ft.Text(tr("leagues.none", language)))
    for line in model.leagues:
        season_text = (
            tr("leagues.open_season", language, name=season_name(line.season, language))
            if line.season
            else tr("leagues.all_closed", language)
        )
        controls.append(
            ft.Card(
                content=ft.ListTile(
                    title=ft.Text(line.name),
                    subtitle=ft.Text(f"{season_text} · {tr('leagues.games', language, count=line.games)}"),
                    trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                    on_click=partial(navigate, f"/leagues/{line.id}"),
                )
            )
        )
    if model.players:
        controls.append(section(tr("leagues.players", language)))
    for player in model.players:
        controls.append(
            ft.Card(
                content=ft.ListTile(
                    title=ft.Text(player.name),
                    subtitle=ft.Text(
                        tr("leagues.player_line", language, games=player.games, wins=player.wins)
                    ),
                    trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                    on_click=partial(navigate, f"/players/{player.id}"),
                )
            )
        )
    controls.extend(
        [
            section(tr("leagues.create", language)),
            ft.TextField(
                label=tr("leagues.new_name", language),
                value=name,
                on_change=lambda e: set_name(e.control.value),
            ),
            ft.TextField(
                label=tr("leagues.new_season_name", language),
                value=season,
                on_change=lambda e: set_season(e.control.value),
            ),
            ft.Row(
                controls=[ft.FilledButton(tr("leagues.create", language), icon=ft.Icons.ADD, on_click=create)]
            ),
        ]
    )
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    controls.append(LeagueImport())
    return screen(*controls)


@ft.component
def LeagueImport() -> ft.Control:
    """Import a league export into the league it names; the league is made if there is none."""
    settings = use_settings()
    language = settings.language
    store = use_store()
    announce = use_announce()
    state: tuple[LeagueImportModel, Callable[[LeagueImportModel], None]] = ft.use_state(
        lambda: LeagueImportModel(store=store)
    )
    model = state[0]
    held: tuple[OpenedFiles, Callable[[OpenedFiles], None]] = ft.use_state(lambda: OPENED)
    inbox = held[0]
    opened, set_opened = ft.use_state("")

    def take_opened() -> None:
        files = inbox.take()  # opened with the installed app (scorer/web/launched.py)
        if files:
            set_opened(", ".join(f.name for f in files))
            model.prepare(files)

    ft.use_effect(take_opened, dependencies=[len(inbox.files)])

    async def pick() -> None:
        files = await pick_json_files(title=tr("exchange.pick_title", language))
        if files:
            set_opened("")
            model.prepare(files)

    def confirm() -> None:
        league_id = model.confirm(by=settings.signer)
        if league_id is not None:
            announce()
            navigate(f"/leagues/{league_id}")

    controls: list[ft.Control] = [
        section(tr("leagues.import_league", language)),
        ft.Text(tr("leagues.import_league_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        ft.Row(
            controls=[
                ft.OutlinedButton(
                    tr("leagues.import_league", language), icon=ft.Icons.UPLOAD_FILE, on_click=pick
                )
            ]
        ),
    ]
    if opened:
        controls.append(ft.Text(tr("share.launched", language, name=opened), weight=ft.FontWeight.W_600))
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.problem:
        controls.append(error_text(tr(model.problem, language, names=model.names)))
    if model.plan is not None:
        where = "leagues.import_new" if model.new_league else "leagues.import_into"
        controls.append(ft.Text(tr(where, language, name=model.league), weight=ft.FontWeight.W_600))
        controls.extend(plan_view(model.plan, language))
        controls.append(confirm_row(model.plan, language, confirm=confirm, cancel=model.cancel))
    return ft.Column(spacing=8, controls=controls)


def _columns(table: StandingsTable, language: Language, events: list[str]) -> list[Column]:
    def col(key: str, **kind: bool) -> Column:
        return Column(heading=tr(f"leagues.col_{key}", language), **kind)

    phone = {"phone": True}
    columns = [
        col("rank", rank=True),
        col("player", numeric=False),
        col("games", **phone),
        col("wins", **phone),
    ]
    if table.across_variants:  # ratings and points are each variant's own: not here
        columns += [col("win_rate", **phone), col("deals"), col("deals_won")]
    else:
        columns += [col("rating", **phone), col("win_rate"), col("points"), col("average")]
        columns += [col("deals"), col("deals_won")]
    columns += [Column(heading=tr(f"leagues.event_{e}", language)) for e in events]
    if not table.across_variants:
        columns.append(col("best_deal"))
    columns.append(col("streak"))
    return columns


def _cells(table: StandingsTable, line: StandingLine, events: list[str]) -> list[Cell]:
    """A line's cells, in the order of :func:`_columns`."""
    cells = [figure(line.rank), Cell(line.name, route=f"/players/{line.player_id}")]
    cells += [figure(line.games), figure(line.wins)]
    if table.across_variants:
        cells += [figure(line.win_rate), figure(line.deals), figure(line.deals_won)]
    else:
        cells += [figure(line.rating), figure(line.win_rate), figure(line.points), figure(line.average)]
        cells += [figure(line.deals), figure(line.deals_won)]
    cells += [figure(line.events.get(e, 0)) for e in events]
    if not table.across_variants:
        cells.append(figure(line.best_deal))
    cells.append(figure(line.streak))
    return cells


def _caption(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL)


def standings_tables(model: LeagueModel, language: Language) -> list[ft.Control]:
    tables = model.tables()
    if not tables:
        return [ft.Text(tr("leagues.no_standings", language))]
    shown: list[ft.Control] = []
    for table in tables:
        if len(tables) > 1:
            title = engine_text(table.variant, language) or tr("leagues.every_variant", language)
            shown.append(
                ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_SMALL, weight=ft.FontWeight.W_600)
            )
        if table.across_variants:
            shown.append(_caption(tr("leagues.across_variants", language)))
        else:
            shown.append(
                _caption(tr("leagues.lowest_wins" if table.lowest_wins else "leagues.highest_wins", language))
            )
        events = table.event_columns()
        shown.append(
            stat_table(
                _columns(table, language, events), [_cells(table, line, events) for line in table.lines]
            )
        )
    if any(
        line.rating.endswith("?") for table in tables if not table.across_variants for line in table.lines
    ):
        shown.append(_caption(tr("leagues.provisional", language)))
    return shown


def _scope_options(model: LeagueModel, language: Language) -> list[tuple[str, str]]:
    options = []
    for key, name in model.scopes():
        text = "leagues.season_open" if key == "open" else "leagues.season_closed"
        options.append((key, tr(text, language, name=season_name(name, language))))
    options.append((ALL_TIME, tr("leagues.all_time", language)))
    return options


def _seasons(
    model: LeagueModel, language: Language, *, name: str, set_name: Callable[[str], None]
) -> list[ft.Control]:
    def close() -> None:
        if model.close_season():
            model.notice = tr(
                "leagues.season_closed_notice", language, name=season_name(model.notice, language)
            )

    def start() -> None:
        if model.new_season(name):
            model.notice = tr(
                "leagues.season_started_notice", language, name=season_name(model.notice, language)
            )
            set_name("")

    controls: list[ft.Control] = [
        section(tr("leagues.seasons", language)),
        ft.Text(tr("leagues.close_season_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        ft.TextField(
            label=tr("leagues.new_season_label", language),
            value=name,
            on_change=lambda e: set_name(e.control.value),
        ),
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            controls=[
                ft.OutlinedButton(
                    tr("leagues.close_season", language),
                    icon=ft.Icons.LOCK,
                    on_click=close,
                    disabled=model.league.season is None,
                ),
                ft.FilledButton(tr("leagues.new_season", language), icon=ft.Icons.NEW_LABEL, on_click=start),
            ],
        ),
    ]
    if model.notice:
        controls.append(ft.Text(model.notice))
    return controls


def _history(model: LeagueModel, language: Language) -> list[ft.Control]:
    controls: list[ft.Control] = [section(tr("leagues.history", language))]
    waiting = model.in_progress()
    if waiting:
        controls.append(ft.Text(tr("leagues.in_progress", language, count=waiting)))
    history = model.history()
    if not history:
        controls.append(ft.Text(tr("leagues.no_history", language)))
    for line in history:
        result = (
            tr("leagues.winner", language, name=line.winner) if line.winner else tr("leagues.tie", language)
        )
        when = local_time(line.played, language)
        tile = ft.ListTile(
            title=ft.Text(f"{engine_text(line.variant, language)}: {line.players}"),
            subtitle=ft.Text(f"{line.totals}\n{result} · {when} · {season_name(line.season, language)}"),
            is_three_line=True,
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT, semantics_label=tr("leagues.open_game", language)),
            on_click=partial(navigate, f"/game/{line.id}"),
        )
        # The export button beside the card, not in it: each keeps its own accessible name.
        export = export_game_button(
            store=model.store,
            game_id=line.id,
            name=f"{engine_text(line.variant, language)}, {local_time(line.played, language)}",
            language=language,
        )
        controls.append(
            ft.Row(
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
                controls=[ft.Card(expand=True, content=tile), export],
            )
        )
    return controls


def _night_button(model: LeagueModel, language: Language) -> ft.Control:
    """The club night under way, or a new one."""
    open_night = model.open_night()
    if open_night is not None:
        button = ft.FilledButton(
            tr("leagues.club_night", language),
            icon=ft.Icons.GROUPS,
            on_click=partial(navigate, f"/nights/{open_night}"),
        )
    else:
        button = ft.FilledButton(
            tr("leagues.start_night", language),
            icon=ft.Icons.GROUPS,
            on_click=partial(navigate, f"/leagues/{model.league.id}/night"),
        )
    return ft.Row(controls=[button])


def _nights(model: LeagueModel, language: Language) -> list[ft.Control]:
    """Every club night of the league, newest first, with its winner."""
    controls: list[ft.Control] = [section(tr("leagues.nights", language))] if model.nights else []
    for line in model.nights:
        if line.under_way:
            result = tr("leagues.night_under_way", language)
        elif line.winner is not None:
            result = tr("leagues.night_winner", language, name=line.winner)
        else:
            result = tr("leagues.night_no_winner", language)
        controls.append(
            ft.Card(
                content=ft.ListTile(
                    title=ft.Text(result),
                    subtitle=ft.Text(
                        tr(
                            "leagues.night_line",
                            language,
                            date=local_time(line.date, language),
                            rounds=line.rounds,
                            tables=line.tables,
                        )
                    ),
                    trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                    on_click=partial(navigate, f"/nights/{line.id}"),
                )
            )
        )
    return controls


@ft.component
def LeagueScreen(*, league_id: str) -> ft.Control:
    language = use_settings().language
    store = use_store()
    state: tuple[LeagueModel, Callable[[LeagueModel], None]] = ft.use_state(
        lambda: LeagueModel.load(store, league_id)
    )
    model = state[0]
    use_live(model.reload)
    announce = use_announce()
    season_name, set_season_name = ft.use_state("")

    def on_variant(key: str) -> None:
        model.choose_variant(None if key == ALL_VARIANTS else key)

    def imported() -> None:
        model.reload()  # the new games change the model's fields: the screen shows them
        announce()

    variants = [
        (ALL_VARIANTS, tr("leagues.all_variants", language)),
        *((key, engine_text(name, language)) for key, name in model.variants()),
    ]
    controls: list[ft.Control] = [
        back_link(tr("leagues.back", language), "/leagues"),
        headline(model.league.name),
        ft.Row(
            wrap=True, spacing=8, controls=[_night_button(model, language), scan_button(league_id, language)]
        ),
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            controls=[
                labelled_dropdown(
                    label=tr("leagues.season", language),
                    value=model.scope,
                    options=_scope_options(model, language),
                    on_select=model.choose_scope,
                    width=260,
                ),
                labelled_dropdown(
                    label=tr("leagues.variant", language),
                    value=model.variant or ALL_VARIANTS,
                    options=variants,
                    on_select=on_variant,
                    width=260,
                ),
            ],
        ),
        section(tr("leagues.standings", language)),
        *standings_tables(model, language),
    ]
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    controls.extend(_nights(model, language))
    controls.extend(_history(model, language))
    controls.extend(_seasons(model, language, name=season_name, set_name=set_season_name))
    keyed: Any = LeagueExchange
    controls.append(
        cast(ft.Control, keyed(league_id=model.league.id, on_imported=imported, key=f"x/{league_id}"))
    )
    controls.append(
        ShareButton(
            label=tr("share.league", language), make=partial(share_league, model.store, model.league.id)
        )
    )
    return screen(*controls)


def scan_button(league_id: str, language: Language) -> ft.Control:
    """The league screen's way here (the camera, or photos where this app has no camera); shown
    as unavailable where this app cannot read codes (no decoder installed)."""
    if not scanning_available():
        return ft.Text(tr("scan.unavailable", language), theme_style=ft.TextThemeStyle.BODY_SMALL)
    return ft.OutlinedButton(
        tr("scan.open", language),
        icon=ft.Icons.QR_CODE_SCANNER,
        on_click=partial(navigate, f"/leagues/{league_id}/scan"),
    )


def routed_league() -> str | None:
    """The league of the route's ``id`` (a hook: call it from a route's component); None if the
    store has no such league."""
    league_id = ft.use_route_params().get("id", "")
    try:
        use_store().league(league_id)
    except ScorerError:
        return None
    return league_id


def no_league_page(language: Language) -> ft.Control:
    """A league's route with no such league: say so, and the way to the leagues."""
    return screen(
        headline(tr("leagues.no_league", language)),
        ft.TextButton(tr("leagues.back", language), on_click=partial(navigate, "/leagues")),
    )


@ft.component
def LeagueRoute() -> ft.Control:
    """``/leagues/<id>``: the league, or a page saying there is none."""
    league_id = routed_league()
    if league_id is None:
        return no_league_page(use_settings().language)
    keyed: Any = LeagueScreen  # keyed by the league: another league starts from its own state
    return cast(ft.Control, keyed(league_id=league_id, key=f"league/{league_id}"))
