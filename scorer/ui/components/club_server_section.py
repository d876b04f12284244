"""Settings -> *Club server*: address, token, league, *Save*, *Sync now*, and the last sync.

Every action goes through :class:`~scorer.ui.screens.club_server_model.ClubServerModel`; a
sync runs in the process's :class:`~scorer.ui.club_sync.ClubSync` (off the event loop), and a
sync made on its own shows here when it ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import flet as ft

from scorer.ui.components.layout import error_text, labelled_dropdown, section
from scorer.ui.context import use_services, use_settings, use_store
from scorer.ui.engine_text import engine_text, field_text
from scorer.ui.i18n import tr
from scorer.ui.live import use_live
from scorer.ui.screens.club_server_model import ClubServerModel, result_text


@ft.component
def ClubServerSection() -> ft.Control:
    language = use_settings().language
    store = use_store()
    club = use_services().club
    state: tuple[ClubServerModel, Callable[[ClubServerModel], None]] = ft.use_state(
        lambda: ClubServerModel.load(store, club)
    )
    model = state[0]
    said, set_said = ft.use_state("")
    use_live(model.reload)  # what a sync received, and its outcome
    page = ft.context.page

    # This session's listener of the process's sync (added at mount, removed at unmount).
    kept: tuple[list[Callable[[], None]], Callable[[list[Callable[[], None]]], None]] = ft.use_state(list)
    mine = kept[0]

    def follow() -> None:
        if club is None:
            return

        async def reread() -> None:
            model.reload()

        def told() -> None:  # from the sync's thread: run on this session's loop
            with contextlib.suppress(RuntimeError):
                page.run_task(reread)

        mine.append(told)
        club.listeners.append(told)

    def unfollow() -> None:
        for told in mine:
            if club is not None and told in club.listeners:
                club.listeners.remove(told)
        mine.clear()

    ft.use_effect(follow, dependencies=[], cleanup=unfollow)

    if not store.keeps_club:
        return ft.Column(
            spacing=8,
            controls=[section(tr("settings.club", language)), ft.Text(tr("settings.club_here", language))],
        )

    def save() -> None:
        set_said(tr("settings.club_saved", language) if model.save() else "")

    async def sync_now() -> None:
        set_said("")
        await model.sync_now()

    leagues = model.leagues()
    league_field: ft.Control = (
        labelled_dropdown(
            label=tr("settings.club_league", language),
            value=model.league,
            options=leagues,
            on_select=model.set_league,
        )
        if leagues
        else ft.TextField(
            label=tr("settings.club_league_name", language),
            value=model.league,
            on_change=lambda e: model.set_league(e.control.value),
        )
    )
    controls: list[ft.Control] = [
        section(tr("settings.club", language)),
        ft.Text(tr("settings.club_help", language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        ft.TextField(
            label=tr("settings.club_url", language),
            value=model.url,
            hint_text="https://",
            keyboard_type=ft.KeyboardType.URL,
            on_change=lambda e: model.set_url(e.control.value),
            error=field_text(model.url_problem, language) or None,
            autocorrect=False,
            enable_suggestions=False,
        ),
        ft.TextField(
            label=tr("settings.club_token", language),
            value=model.token,
            password=True,
            can_reveal_password=True,
            on_change=lambda e: model.set_token(e.control.value),
            error=field_text(model.token_problem, language) or None,
            helper=tr("settings.club_token_saved", language, tail=model.token_tail)
            if model.token_tail
            else None,
            autocorrect=False,
            enable_suggestions=False,
        ),
        league_field,
        ft.Row(
            wrap=True,
            spacing=8,
            run_spacing=8,
            controls=[
                ft.FilledButton(tr("settings.club_save", language), on_click=save),
                ft.OutlinedButton(
                    tr("settings.club_sync", language),
                    icon=ft.Icons.SYNC,
                    on_click=sync_now,
                    disabled=model.saved is None or model.syncing,
                ),
                *(
                    [ft.TextButton(tr("settings.club_forget", language), on_click=model.forget)]
                    if model.saved is not None
                    else []
                ),
            ],
        ),
    ]
    if said:
        controls.append(ft.Text(said))
    if model.problem:
        controls.append(error_text(engine_text(model.problem, language)))
    if model.syncing:
        controls.append(ft.Text(tr("settings.club_syncing", language)))
    elif model.outcome is not None:
        text = result_text(model.outcome, language, store=store)
        line = tr(
            "settings.club_last", language, at=model.outcome.at.replace("T", " ")[:16] + " UTC", text=text
        )
        controls.append(error_text(line) if not model.outcome.ok else ft.Text(line))
    return ft.Column(spacing=8, controls=controls)
