"""New game ``/game/new``: the variant, its house rules, the players in seating order, the dealer."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ruleset_text import variant_description
from scorer.ui.components.layout import error_text, headline, icon_button, navigate, screen, section
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text, field_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_announce
from scorer.ui.screens.new_game_model import (
    HouseRule,
    NewGameModel,
    known_leagues,
    known_players,
    variant_choices,
)

NO_LEAGUE = "-"


def _labelled_dropdown(
    *,
    label: str,
    value: str,
    options: list[ft.DropdownOption],
    on_select: Callable[[ft.Event[ft.Dropdown]], None],
) -> ft.Control:
    # Flutter gives a dropdown's button no name of its own; screen readers need one.
    return ft.Semantics(
        label=label,
        content=ft.Dropdown(label=label, value=value, options=options, on_select=on_select, expand=True),
    )


def rule_row(model: NewGameModel, rule: HouseRule, language: Language) -> ft.Control:
    """A house rule: its label and meaning (both wrap on a phone), the default and the value in
    use in words, and the field that changes it."""
    label = rule.label(language)

    def on_text(e: ft.Event[ft.TextField]) -> None:
        model.set_rule(rule.name, e.control.value)

    def on_choice(e: ft.Event[ft.Dropdown]) -> None:
        model.set_rule(rule.name, str(e.control.value))

    if rule.choices:
        field: ft.Control = _labelled_dropdown(
            label=label,
            value=rule.text,
            options=[ft.DropdownOption(key=key, text=text) for key, text in rule.choice_texts(language)],
            on_select=on_choice,
        )
    else:
        field = ft.TextField(
            label=label,
            value=rule.text,
            on_change=on_text,
            keyboard_type=ft.KeyboardType.NUMBER,
            error=engine_text(rule.error, language) or None,
            error_max_lines=4,
            dense=True,
        )
    return ft.ResponsiveRow(
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        controls=[
            ft.Column(
                col={"xs": 12, "sm": 7},
                spacing=2,
                controls=[
                    ft.Text(label, weight=ft.FontWeight.W_500),
                    ft.Text(rule.meaning(language), theme_style=ft.TextThemeStyle.BODY_SMALL),
                    ft.Text(
                        rule.status(language),
                        theme_style=ft.TextThemeStyle.BODY_SMALL,
                        color=ft.Colors.PRIMARY,
                    ),
                ],
            ),
            ft.Container(col={"xs": 12, "sm": 5}, content=field),
        ],
    )


def _player_row(model: NewGameModel, seat: int, language: Language) -> ft.Control:
    def on_name(e: ft.Event[ft.TextField]) -> None:
        model.set_player(seat, e.control.value)

    number = seat + 1
    return ft.Row(
        spacing=4,
        controls=[
            ft.TextField(
                label=tr("new_game.player", language, number=number),
                value=model.players[seat],
                on_change=on_name,
                error=field_text(model.seat_errors.get(seat), language) or None,
                error_max_lines=4,
                expand=True,
                # A name is kept as typed: no keyboard capitalises it ("von", "aino").
                capitalization=ft.TextCapitalization.NONE,
            ),
            icon_button(
                ft.Icons.ARROW_UPWARD,
                tr("new_game.move_up", language, number=number),
                lambda: model.move_player(seat, -1),
                disabled=seat == 0,
            ),
            icon_button(
                ft.Icons.CLOSE,
                tr("new_game.remove_player", language, number=number),
                lambda: model.remove_player(seat),
                disabled=not model.can_remove_player(),
            ),
        ],
    )


def look_alike_question(
    look_alike: tuple[str, str],
    *,
    same_person: Callable[[], None],
    different_person: Callable[[], None],
    start: Callable[[], None],
    language: Language,
) -> list[ft.Control]:
    """Asked when a new name looks just like a player's: the same person, or a new one? Either
    answer starts again (the game here, a club night on its screen)."""
    name, existing = look_alike

    def answer(choose: Callable[[], None]) -> None:
        choose()
        start()

    return [
        ft.Text(tr("names.look_alike", language, name=name, existing=existing), color=ft.Colors.ERROR),
        ft.Row(
            wrap=True,
            controls=[
                ft.FilledButton(
                    tr("names.same_person", language, existing=existing),
                    on_click=lambda: answer(same_person),
                ),
                ft.OutlinedButton(
                    tr("names.different_person", language), on_click=lambda: answer(different_person)
                ),
            ],
        ),
    ]


@ft.component
def NewGameScreen() -> ft.Control:
    settings = use_settings()
    store = use_store()
    language = settings.language
    state: tuple[NewGameModel, Callable[[NewGameModel], None]] = ft.use_state(NewGameModel)
    model = state[0]
    announce = use_announce()
    choices = ft.use_memo(variant_choices, dependencies=[])
    known = ft.use_memo(lambda: known_players(store), dependencies=[])
    leagues = ft.use_memo(lambda: known_leagues(store), dependencies=[])
    ruleset = model.base

    def on_variant(e: ft.Event[ft.Dropdown]) -> None:
        model.choose_ruleset(str(e.control.value))

    def on_league(e: ft.Event[ft.Dropdown]) -> None:
        model.set_league("" if e.control.value in (None, NO_LEAGUE) else str(e.control.value))

    def on_dealer(e: ft.Event[ft.Dropdown]) -> None:
        model.set_first_dealer(int(str(e.control.value)))

    def start() -> None:
        game_id = model.start(store, by=settings.signer)
        if game_id is not None:
            announce()
            navigate(f"/game/{game_id}/deal")

    players = [_player_row(model, seat, language) for seat in range(len(model.players))]
    waiting = [name for name in known if name not in model.players]
    dealer_names = [
        p.strip() or tr("new_game.player", language, number=i + 1) for i, p in enumerate(model.players)
    ]
    return screen(
        headline(tr("new_game.title", language)),
        _labelled_dropdown(
            label=tr("new_game.variant", language),
            value=model.ruleset_id,
            options=[ft.DropdownOption(key=c.id, text=engine_text(c.name, language)) for c in choices],
            on_select=on_variant,
        ),
        ft.Text(variant_description(ruleset, language), theme_style=ft.TextThemeStyle.BODY_SMALL),
        section(tr("new_game.players", language, low=ruleset.players_min, high=ruleset.players_max)),
        *players,
        ft.Row(
            wrap=True,
            controls=[
                ft.OutlinedButton(
                    tr("new_game.add_player", language),
                    icon=ft.Icons.PERSON_ADD,
                    disabled=not model.can_add_player(),
                    on_click=lambda: model.add_player(),
                ),
                *[
                    ft.Chip(
                        label=ft.Text(name),
                        on_click=lambda name=name: model.seat_known(name),
                        tooltip=tr("new_game.seat_known", language, name=name),
                    )
                    for name in waiting[:8]
                ],
            ],
        ),
        _labelled_dropdown(
            label=tr("new_game.first_dealer", language),
            value=str(model.first_dealer),
            options=[ft.DropdownOption(key=str(i), text=name) for i, name in enumerate(dealer_names)],
            on_select=on_dealer,
        ),
        section(tr("new_game.house_rules", language)),
        *[rule_row(model, rule, language) for rule in model.house_rules()],
        section(tr("new_game.league", language)),
        ft.ResponsiveRow(
            controls=[
                ft.Container(
                    col={"xs": 12, "sm": 6},
                    content=_labelled_dropdown(
                        label=tr("new_game.league_name", language),
                        value=model.league or NO_LEAGUE,
                        options=[ft.DropdownOption(key=NO_LEAGUE, text=tr("new_game.no_league", language))]
                        + [ft.DropdownOption(key=name, text=name) for name in leagues],
                        on_select=on_league,
                    ),
                ),
                ft.TextField(
                    col={"xs": 12, "sm": 6},
                    label=tr("new_game.season", language),
                    value=model.season,
                    on_change=lambda e: model.set_season(e.control.value),
                ),
            ]
        ),
        *([error_text(engine_text(model.error, language))] if model.error else []),
        *(
            look_alike_question(
                model.look_alike,
                same_person=model.same_person,
                different_person=model.different_person,
                start=start,
                language=language,
            )
            if model.look_alike
            else []
        ),
        ft.FilledButton(tr("new_game.start", language), icon=ft.Icons.PLAY_ARROW, on_click=start, height=48),
    )
