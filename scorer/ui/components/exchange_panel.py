"""Import and export of one league (on the league screen) and the backups (on Settings).

Every action goes through :mod:`scorer.ui.screens.exchange_model`; these components only
open the file dialogs and show what the model says: the import's preview with its
conflicts before anything is written, then what it did.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import flet as ft

from scorer.errors import ScorerError
from scorer.league.import_preview import ImportPreview
from scorer.league.store import Store
from scorer.ruleset_text import variant_title
from scorer.ui.components.file_dialogs import pick_json_files, save_export
from scorer.ui.components.layout import error_text, section
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.screens.exchange_model import (
    BackupModel,
    ExportFile,
    ImportModel,
    ImportPlan,
    export_game,
    export_league_csv,
    export_league_json,
)


def confirm_row(
    plan: ImportPlan, language: Language, *, confirm: Callable[[], object], cancel: Callable[[], object]
) -> ft.Control:
    """Import or cancel under a previewed import (Import only when it would change something)."""
    return ft.Row(
        spacing=8,
        controls=[
            ft.FilledButton(tr("exchange.confirm", language), on_click=confirm, disabled=not plan.changes),
            ft.TextButton(tr("exchange.cancel", language), on_click=cancel),
        ],
    )


def preview_lines(preview: ImportPreview, language: Language) -> list[str]:
    """What a file adds, told by name: the league if new here, each game with its deals and
    players, the new players."""
    lines: list[str] = []
    if preview.new_league:
        lines.append(tr("share.adds_league", language, name=preview.league))
    for game in preview.games:
        words = {
            "variant": variant_title(game.ruleset, language),
            "day": local_time(game.played, language),
            "deals": game.deals,
            "players": ", ".join(game.players),
        }
        lines.append(tr("share.adds_game" if game.new else "share.adds_deals", language, **words))
    if preview.players:
        lines.append(tr("share.adds_players", language, names=", ".join(preview.players)))
    return lines


def done_text(done: ImportPlan, language: Language) -> ft.Control:
    """What a confirmed import added, in one line."""
    return ft.Text(
        tr(
            "exchange.done",
            language,
            games=done.games_added,
            deals=done.deals_added,
            players=done.players_added,
        )
    )


def plan_view(plan: ImportPlan, language: Language) -> list[ft.Control]:
    lines: list[ft.Control] = []
    told = preview_lines(plan.preview, language) if plan.preview is not None else []
    if told:  # "This file adds: a Rommi game of ... with 25 deals: Anna, Bea, Cid; new players: ..."
        lines.append(ft.Text(tr("share.adds", language), weight=ft.FontWeight.W_600))
        lines.extend(ft.Text(f"• {line}") for line in told)
    lines.append(ft.Text(tr("exchange.plan", language), weight=ft.FontWeight.W_600))
    if plan.changes:
        lines.extend(
            ft.Text(text)
            for text in (
                tr("exchange.plan_games", language, count=plan.games_added),
                tr("exchange.plan_deals", language, count=plan.deals_added),
                tr("exchange.plan_players", language, count=plan.players_added),
                tr("exchange.plan_unchanged", language, count=plan.games_unchanged),
            )
        )
        if plan.nights_added or plan.rounds_added:  # an export of a league with club nights
            lines.append(ft.Text(tr("exchange.plan_nights", language, count=plan.nights_added)))
            lines.append(ft.Text(tr("exchange.plan_rounds", language, count=plan.rounds_added)))
    else:
        lines.append(ft.Text(tr("exchange.nothing_new", language)))
    if plan.conflicts:
        lines.append(
            ft.Text(tr("exchange.conflicts", language, count=len(plan.conflicts)), color=ft.Colors.ERROR)
        )
        lines.extend(ft.Text(f"• {c}", selectable=True) for c in plan.conflicts)
    return lines


def export_game_button(*, store: Store, game_id: str, name: str, language: Language) -> ft.Control:
    """A button that offers one game's file (``rummy score`` reads it) in a save dialog."""
    label = tr("exchange.export_game_of", language, game=name)

    async def export() -> None:
        try:
            file = export_game(store, game_id)
        except ScorerError:
            return  # the game was deleted meanwhile: the list shows it gone on its next read
        await save_export(file, title=tr("exchange.save_title", language, name=file.name))

    return ft.IconButton(
        icon=ft.Icon(ft.Icons.DOWNLOAD, semantics_label=label), tooltip=label, on_click=export
    )


@ft.component
def LeagueExchange(*, league_id: str, on_imported: Callable[[], None]) -> ft.Control:
    """Export the league (JSON, CSV); import files into it with a preview first."""
    settings = use_settings()
    language = settings.language
    store = use_store()
    model_state: tuple[ImportModel, Callable[[ImportModel], None]] = ft.use_state(
        lambda: ImportModel(store=store, league=league_id)
    )
    model = model_state[0]
    saved, set_saved = ft.use_state("")

    async def export(make: Callable[[], ExportFile]) -> None:
        try:
            file = make()
        except ScorerError as exc:
            model.error = str(exc)
            return
        path = await save_export(file, title=tr("exchange.save_title", language, name=file.name))
        set_saved(tr("exchange.exported", language, name=path or file.name))

    async def export_json() -> None:
        await export(lambda: export_league_json(store, league_id))

    async def export_csv() -> None:
        await export(lambda: export_league_csv(store, league_id))

    async def pick() -> None:
        files = await pick_json_files(title=tr("exchange.pick_title", language))
        if files:
            set_saved("")
            model.prepare(files)

    def confirm() -> None:
        if model.confirm(by=settings.signer):
            on_imported()

    controls: list[ft.Control] = [
        section(tr("exchange.files", language)),
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            controls=[
                ft.OutlinedButton(
                    tr("exchange.export_json", language), icon=ft.Icons.DOWNLOAD, on_click=export_json
                ),
                ft.OutlinedButton(
                    tr("exchange.export_csv", language), icon=ft.Icons.TABLE_VIEW, on_click=export_csv
                ),
                ft.OutlinedButton(tr("exchange.import", language), icon=ft.Icons.UPLOAD_FILE, on_click=pick),
            ],
        ),
        ft.Text(tr("exchange.import_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
    ]
    if saved:
        controls.append(ft.Text(saved))
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.plan is not None:
        controls.extend(plan_view(model.plan, language))
        controls.append(confirm_row(model.plan, language, confirm=confirm, cancel=model.cancel))
    if model.done is not None:
        done = model.done
        controls.append(done_text(done, language))
        if done.conflicts:
            controls.append(error_text("\n".join(done.conflicts)))
    return ft.Column(spacing=8, controls=controls)


@ft.component
def BackupSection() -> ft.Control:
    """Settings' backup actions: back up now, replace the store from a listed backup, repair
    damaged files."""
    language = use_settings().language
    store = use_store()
    state: tuple[BackupModel, Callable[[BackupModel], None]] = ft.use_state(lambda: BackupModel.load(store))
    model = state[0]
    asking, set_asking = ft.use_state("")  # the backup that waits for a yes to replace the store
    said, set_said = ft.use_state("")

    controls: list[ft.Control] = [section(tr("exchange.backup", language))]
    if not model.available:
        controls.append(ft.Text(tr("exchange.backup_memory", language)))
        return ft.Column(spacing=8, controls=controls)

    def backup_now() -> None:
        path = model.backup_now()
        set_said(tr("exchange.backed_up", language, name=path.name) if path else "")

    def replace() -> None:
        name = Path(asking).name
        written = model.replace_from_backup(asking)
        set_asking("")
        set_said(tr("exchange.replaced", language, name=name, count=written) if written is not None else "")

    def repair() -> None:
        done = model.repair()
        set_said(tr("exchange.repaired_none", language) if done == [] else model.message)

    controls.extend(
        [
            ft.Text(tr("exchange.backup_help", language)),
            ft.Text(str(model.folder), selectable=True, font_family="monospace"),
            ft.Row(
                wrap=True,
                spacing=8,
                controls=[
                    ft.FilledButton(
                        tr("exchange.backup_now", language), icon=ft.Icons.BACKUP, on_click=backup_now
                    ),
                    ft.OutlinedButton(tr("exchange.repair", language), icon=ft.Icons.BUILD, on_click=repair),
                ],
            ),
            ft.Text(tr("exchange.repair_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        ]
    )
    if said:
        controls.append(ft.Text(said))
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if not model.backups:
        controls.append(ft.Text(tr("exchange.no_backups", language)))
    for line in model.backups:
        label = tr("exchange.replace", language, name=line.name)
        controls.append(
            ft.ListTile(
                title=ft.Text(line.name),
                subtitle=ft.Text(line.size),
                trailing=ft.TextButton(label, on_click=partial(set_asking, line.path)),
            )
        )
    if asking:
        name = Path(asking).name
        controls.append(ft.Text(tr("exchange.replace_confirm", language, name=name), color=ft.Colors.ERROR))
        controls.append(
            ft.Row(
                spacing=8,
                controls=[
                    ft.FilledButton(tr("exchange.replace_yes", language), on_click=replace),
                    ft.TextButton(tr("exchange.cancel", language), on_click=lambda: set_asking("")),
                ],
            )
        )
    return ft.Column(spacing=8, controls=controls)
