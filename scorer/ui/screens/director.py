"""The director of a club night on screen (docs/app.md, "Club night").

On a night table's Scoreboard, :func:`TableDirectorPanel`: the game's penalties (a line
each), ``Call director`` with the reason (``A rules question``, ``A dispute``, ``A penalty``)
and an optional note, then ``Call``; the table's latest calls, waiting or answered with the
director's note. On the night's screen, :func:`desk_calls` (the ``Calls`` section at the top:
the open calls as they come, each with ``Answer``, a note and ``Done``; the answered ones
folded below) and :func:`table_penalties` (a table card's penalties, each with ``Lift``, and
its ``Penalty`` action: player, points, reason) and :func:`table_replace` (a table card's
replacements, and its ``Replace player`` action: who leaves, who takes over, after which
deal, why). The view-models are in :mod:`.director_model`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import flet as ft

from scorer.game import Penalty
from scorer.league.facts import CALL_REASONS
from scorer.ui.components.layout import error_text, section
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_announce, use_live
from scorer.ui.screens.director_model import (
    DirectorDesk,
    TableDirector,
    answer_line,
    call_line,
    penalty_line,
    reason_text,
    replaced_line,
)


def _panel(*controls: ft.Control) -> ft.Control:
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        content=ft.Column(spacing=8, controls=list(controls)),
    )


def _field(label: str, value: str, on_change: Callable[[str], None], *, number: bool = False) -> ft.Control:
    """A form's text field, dense, ``on_change`` given the text typed (a number pad for a number)."""
    return ft.TextField(
        label=label,
        value=value,
        on_change=lambda e: on_change(e.control.value),
        keyboard_type=ft.KeyboardType.NUMBER if number else ft.KeyboardType.TEXT,
        dense=True,
    )


def _choice(value: str, options: Sequence[tuple[str, str]], on_pick: Callable[[str], None]) -> ft.Control:
    def picked(e: ft.Event[ft.RadioGroup]) -> None:
        if e.control.value is not None:
            on_pick(str(e.control.value))

    return ft.RadioGroup(
        value=value,
        on_change=picked,
        content=ft.Column(spacing=0, controls=[ft.Radio(value=key, label=text) for key, text in options]),
    )


@ft.component
def TableDirectorPanel(*, game_id: str, penalties: tuple[Penalty, ...]) -> ft.Control:
    """A night table's director part of its Scoreboard (penalties from the board's game)."""
    settings = use_settings()
    language = settings.language
    store = use_store()
    state: tuple[TableDirector, Callable[[TableDirector], None]] = ft.use_state(
        lambda: TableDirector.load(store, game_id)
    )
    model = state[0]
    use_live(model.reload)
    announce = use_announce()

    def call() -> None:
        if model.call(by=settings.signer):
            announce()

    controls: list[ft.Control] = []
    if penalties:
        controls.append(section(tr("director.penalties", language)))
        controls += [ft.Text(penalty_line(p, language)) for p in penalties]
    controls += [ft.Text(line) for line in model.lines(language)]
    if model.asking:
        controls.append(
            _panel(
                ft.Text(tr("director.call_title", language), weight=ft.FontWeight.BOLD),
                _choice(model.reason, [(r, reason_text(r, language)) for r in CALL_REASONS], model.pick),
                ft.TextField(
                    label=tr("director.note", language),
                    value=model.note,
                    on_change=lambda e: model.set_note(e.control.value),
                    dense=True,
                ),
                ft.Row(
                    wrap=True,
                    controls=[
                        ft.FilledButton(tr("director.send", language), icon=ft.Icons.CAMPAIGN, on_click=call),
                        ft.TextButton(tr("director.cancel", language), on_click=model.cancel),
                    ],
                ),
            )
        )
    else:
        controls.append(
            ft.Row(
                controls=[
                    ft.OutlinedButton(
                        tr("director.call", language), icon=ft.Icons.CAMPAIGN_OUTLINED, on_click=model.ask
                    )
                ]
            )
        )
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    return ft.Column(spacing=8, controls=controls)


def use_desk(night_id: str) -> DirectorDesk:
    """The night screen's director desk, following the store (a hook)."""
    store = use_store()
    state: tuple[DirectorDesk, Callable[[DirectorDesk], None]] = ft.use_state(
        lambda: DirectorDesk.load(store, store.find_night(night_id))
    )
    desk = state[0]
    use_live(desk.reload)
    return desk


def desk_calls(
    desk: DirectorDesk, language: Language, *, signer: str | None, announce: Callable[[], None]
) -> list[ft.Control]:
    """The ``Calls`` section: open calls (table, local time, who, reason, note), each with
    ``Answer``; the answered ones folded below."""

    def done() -> None:
        if desk.answer_call(by=signer):
            announce()

    controls: list[ft.Control] = [section(tr("director.calls", language))]
    waiting = desk.open_calls()
    if not waiting:
        controls.append(ft.Text(tr("director.no_calls", language)))
    for call in waiting:
        line = ft.Text(call_line(call, language), weight=ft.FontWeight.W_500)
        if desk.answering == call.id:
            controls.append(
                _panel(
                    line,
                    ft.TextField(
                        label=tr("director.answer_note", language),
                        value=desk.answer,
                        on_change=lambda e: desk.set_answer(e.control.value),
                        dense=True,
                    ),
                    ft.Row(
                        wrap=True,
                        controls=[
                            ft.FilledButton(
                                tr("director.done", language), icon=ft.Icons.CHECK, on_click=done
                            ),
                            ft.TextButton(
                                tr("director.cancel", language), on_click=partial(desk.start_answer, "")
                            ),
                        ],
                    ),
                )
            )
        else:
            controls.append(
                ft.Row(  # not wrapping: an expanded child of a wrapping row gets no width
                    controls=[
                        ft.Container(expand=True, content=line),
                        ft.OutlinedButton(
                            tr("director.answer", language), on_click=partial(desk.start_answer, call.id)
                        ),
                    ],
                )
            )
    answered = desk.answered_calls()
    if answered:
        controls.append(
            ft.ExpansionTile(
                title=ft.Text(tr("director.answered_calls", language, count=len(answered))),
                controls=[
                    ft.ListTile(
                        title=ft.Text(call_line(call, language)),
                        subtitle=ft.Text(answer_line(call, language)),
                    )
                    for call in answered
                ],
            )
        )
    if desk.error and not desk.penalising:
        controls.append(error_text(engine_text(desk.error, language)))
    return controls


def table_penalties(
    desk: DirectorDesk,
    game_id: str,
    table: int,
    players: Sequence[str],
    language: Language,
    *,
    signer: str | None,
    announce: Callable[[], None],
    directs: bool = True,
) -> list[ft.Control]:
    """A table card's penalties (each with ``Lift``) and its ``Penalty`` action; a session
    that may not direct the night (a viewer's code) sees the penalties only."""

    def give() -> None:
        if desk.penalise(by=signer):
            announce()

    def lift(penalty_id: str) -> None:
        if desk.lift(game_id, penalty_id, by=signer):
            announce()

    controls: list[ft.Control] = []
    if not directs:
        return [ft.Text(penalty_line(p, language), size=13) for p in desk.penalties_of(game_id)]
    for penalty in desk.penalties_of(game_id):
        controls.append(
            ft.Row(
                controls=[
                    ft.Container(expand=True, content=ft.Text(penalty_line(penalty, language), size=13)),
                    ft.TextButton(
                        tr("director.lift", language),
                        tooltip=tr(
                            "director.lift_label", language, player=penalty.player, points=penalty.points
                        ),
                        on_click=partial(lift, penalty.id),
                    ),
                ],
            )
        )
    if desk.penalising != game_id:
        controls.append(
            ft.Row(
                controls=[
                    ft.OutlinedButton(
                        tr("director.penalty", language),
                        icon=ft.Icons.GAVEL,
                        on_click=partial(desk.start_penalty, game_id),
                    )
                ]
            )
        )
        return controls
    form: list[ft.Control] = [
        ft.Text(tr("director.penalty_title", language, table=table), weight=ft.FontWeight.BOLD),
        _choice(desk.player, [(p, p) for p in players], desk.set_player),
        _field(tr("director.points", language), desk.points, desk.set_points, number=True),
        _field(tr("director.why", language), desk.why, desk.set_why),
        ft.Row(
            wrap=True,
            controls=[
                ft.FilledButton(tr("director.give", language), icon=ft.Icons.GAVEL, on_click=give),
                ft.TextButton(tr("director.cancel", language), on_click=desk.cancel_penalty),
            ],
        ),
    ]
    if desk.error:
        form.append(error_text(engine_text(desk.error, language)))
    controls.append(_panel(*form))
    return controls


def table_replace(
    desk: DirectorDesk,
    game_id: str,
    table: int,
    language: Language,
    *,
    signer: str | None,
    announce: Callable[[], None],
    directs: bool = True,
) -> list[ft.Control]:
    """A table card's replacements (a line each) and its ``Replace player`` action
    (docs/rules.md, "Replacements"); a session that may not direct the night sees the lines."""

    def save() -> None:
        if desk.replace(by=signer):
            announce()

    controls: list[ft.Control] = [
        ft.Text(replaced_line(made, language), size=13) for made in desk.replacements_of(game_id)
    ]
    if not directs:
        return controls
    if desk.replacing != game_id:
        controls.append(
            ft.Row(
                controls=[
                    ft.OutlinedButton(
                        tr("director.replace", language),
                        icon=ft.Icons.SWAP_HORIZ,
                        on_click=partial(desk.start_replace, game_id),
                    )
                ]
            )
        )
        return controls
    holders = desk.holders_of(game_id)
    form: list[ft.Control] = [
        ft.Text(tr("director.replace_title", language, table=table), weight=ft.FontWeight.BOLD),
        ft.Text(tr("director.replace_seat", language)),
        _choice(desk.leaving, [(p, p) for p in holders], desk.set_leaving),
        _field(tr("director.replace_with", language), desk.newcomer, desk.set_newcomer),
        _field(tr("director.replace_after", language), desk.after, desk.set_after, number=True),
        _field(tr("director.replace_why", language), desk.replace_why, desk.set_replace_why),
        ft.Row(
            wrap=True,
            controls=[
                ft.FilledButton(
                    tr("director.replace_save", language), icon=ft.Icons.SWAP_HORIZ, on_click=save
                ),
                ft.TextButton(tr("director.cancel", language), on_click=desk.cancel_replace),
            ],
        ),
    ]
    if desk.error:
        form.append(error_text(engine_text(desk.error, language)))
    controls.append(_panel(*form))
    return controls
