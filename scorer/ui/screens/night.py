"""Club night: ``/leagues/<id>/night`` starts one, ``/nights/<id>`` is the director's screen.

Starting a night checks in the players present, chooses the variant and its house rules (as
New game does), the seating method, fixed seats and the placement points. The night's screen
shows every table of the round being played, live (deal count, leader, finished), with the
link and QR code that open the table's game on its phone; earlier rounds below; the night's
standings; and the next round, seated once every table has ended, with a change of who plays
and how they are seated. Every figure is the store's (:mod:`scorer.ui.screens.night_model`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any, cast

import flet as ft

from scorer.errors import ScorerError
from scorer.league.store import Store
from scorer.ruleset_text import variant_description, variant_title
from scorer.seating import METHODS
from scorer.ui.components.confirm_panel import director_checks
from scorer.ui.components.countdown import Countdown
from scorer.ui.components.layout import (
    back_link,
    checkbox,
    error_text,
    headline,
    labelled_dropdown,
    navigate,
    screen,
    section,
)
from scorer.ui.components.stat_table import Cell, Column, figure, stat_table
from scorer.ui.context import use_services, use_settings, use_store
from scorer.ui.engine_text import engine_text, field_text
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.live import use_announce, use_live
from scorer.ui.roles import night_links, own_link, use_access
from scorer.ui.screens.confirm_model import DirectorChecks, mark_text
from scorer.ui.screens.director import desk_calls, table_penalties, table_replace, use_desk
from scorer.ui.screens.new_game import look_alike_question, rule_row
from scorer.ui.screens.new_game_model import variant_choices
from scorer.ui.screens.night_model import (
    NightLine,
    NightModel,
    NightStartModel,
    Roster,
    TableCard,
    evenness_text,
    tiebreak_text,
)
from scorer.ui.screens.share import ShareButton
from scorer.ui.screens.share_model import share_night
from scorer.ui.serving import qr_png_bytes, table_link

#: A table's QR code on the director's screen: big enough for a phone's camera at arm's length.
QR_SIZE = 160
ANY_TABLE = "0"
#: Lines a field's help may take: a field's helper is one line by default, cut with "…" on a phone.
HELP_LINES = 4


@lru_cache(maxsize=64)
def _qr_base64(link: str) -> str:
    """The link's QR code as the image's source (the same links are drawn at every change)."""
    return base64.b64encode(qr_png_bytes(link)).decode("ascii")


def _small(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.BODY_SMALL)


def _name_field(
    language: Language,
    *,
    value: str,
    set_value: Callable[[str], None],
    add: Callable[[str], bool],
    error: str,
) -> ft.Control:
    """A new player's name and the button that checks them in; under it, why a name was refused
    (the name stays in the field to be put right)."""

    def added() -> None:
        if add(value):
            set_value("")

    return ft.Row(
        spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        controls=[
            ft.TextField(
                label=tr("night.new_name", language),
                value=value,
                on_change=lambda e: set_value(e.control.value),
                on_submit=lambda _: added(),
                # A name is kept as typed: no keyboard capitalises it ("von", "aino").
                capitalization=ft.TextCapitalization.NONE,
                error=field_text(error, language) or None,
                error_max_lines=4,
                expand=True,
            ),
            ft.OutlinedButton(tr("night.add", language), icon=ft.Icons.PERSON_ADD, on_click=added),
        ],
    )


def _check_ins(roster: Roster, *, title: str, language: Language) -> list[ft.Control]:
    """Who is here: a row for each name, a tap anywhere on it checking the player in or out
    (the box itself too), and an undo of the last check while there is one."""
    present = set(roster.present)
    rows: list[ft.Control] = [
        ft.Container(
            col={"xs": 12, "sm": 6, "md": 4},
            on_click=partial(_toggled, roster.toggle, name),
            border_radius=8,
            padding=ft.Padding.only(right=8),
            content=checkbox(
                label=name, value=name in present, on_change=partial(_toggled, roster.toggle, name)
            ),
        )
        for name in roster.known
    ]
    controls: list[ft.Control] = [
        section(title),
        _small(tr("night.present_help", language)),
        ft.ResponsiveRow(spacing=4, run_spacing=0, controls=rows),
    ]
    last = roster.last_check
    if last is not None:
        name, checked_in = last
        label = tr("night.undo_in" if checked_in else "night.undo_out", language, name=name)
        controls.append(ft.TextButton(label, icon=ft.Icons.UNDO, on_click=lambda _e: roster.undo()))
    return controls


def _toggled(toggle: Callable[[str], None], name: str, _tap: object) -> None:
    """A tap on a player's row or box: ``toggle`` them (the box's new value or the row's tap
    event say nothing more)."""
    toggle(name)


def _fixed(model: NightStartModel, name: str, key: str) -> None:
    model.fix(name, int(key))


def _method_choice(value: str, choose: Callable[[str], None], language: Language) -> ft.Control:
    return labelled_dropdown(
        label=tr("night.method", language),
        value=value,
        options=[(m, tr(f"night.method_{m}", language)) for m in METHODS],
        on_select=choose,
    )


def _number_field(
    label: str, value: str, on_change: Callable[[str], None], *, helper: str, error: str, language: Language
) -> ft.Control:
    """A field of whole minutes or rounds (empty: none); under it, why a value was refused."""
    return ft.TextField(
        label=label,
        value=value,
        on_change=lambda e: on_change(e.control.value),
        keyboard_type=ft.KeyboardType.NUMBER,
        helper=helper,
        helper_max_lines=HELP_LINES,
        error=engine_text(error, language) or None,
        error_max_lines=4,
    )


def _night_rules(model: NightStartModel, language: Language) -> list[ft.Control]:
    """The round count, the round timer, the points for a bye and the handicap switch with
    what it does."""
    fields = [
        ("rounds", model.rounds, model.set_rounds, model.rounds_error),
        ("timer", model.timer, model.set_timer, model.timer_error),
        ("bye_points", model.bye_points, model.set_bye_points, model.bye_points_error),
    ]
    return [
        *[
            _number_field(
                tr(f"night.{key}", language),
                value,
                on_change,
                helper=tr(f"night.{key}_help", language),
                error=error,
                language=language,
            )
            for key, value, on_change, error in fields
        ],
        ft.Switch(
            label=tr("night.handicap", language),
            value=model.handicap,
            on_change=lambda e: model.set_handicap(bool(e.control.value)),
        ),
        _small(model.handicap_help(language)),
        ft.Switch(
            label=tr("night.late_byes", language),
            value=model.late_byes,
            on_change=lambda e: model.set_late_byes(bool(e.control.value)),
        ),
        _small(tr("night.late_byes_help", language)),
    ]


def _tiebreaks(model: NightStartModel, language: Language) -> list[ft.Control]:
    """The standings' order: the night points first, then each tie-break with a button that
    moves it up and one that takes it out; below, a list that adds one not in the order."""

    def line(place: int, criterion: str) -> ft.Control:
        name = tiebreak_text(criterion, language)
        buttons: list[ft.Control] = []
        if criterion != "points":
            if place > 1:
                buttons.append(
                    ft.IconButton(
                        icon=ft.Icons.ARROW_UPWARD,
                        tooltip=tr("night.tiebreak_up", language, name=name),
                        on_click=partial(model.raise_tiebreak, criterion),
                    )
                )
            buttons.append(
                ft.IconButton(
                    icon=ft.Icons.CLOSE,
                    tooltip=tr("night.tiebreak_remove", language, name=name),
                    on_click=partial(model.remove_tiebreak, criterion),
                )
            )
        return ft.Row(controls=[ft.Text(f"{place + 1}. {name}", expand=True), *buttons])

    controls: list[ft.Control] = [
        ft.Text(tr("night.tiebreaks", language), weight=ft.FontWeight.W_500),
        _small(tr("night.tiebreaks_help", language)),
        *[line(place, criterion) for place, criterion in enumerate(model.tiebreaks)],
    ]
    unused = model.unused_tiebreaks()
    if unused:
        controls.append(
            labelled_dropdown(
                label=tr("night.tiebreak_add", language),
                value="",
                options=[(c, tiebreak_text(c, language)) for c in unused],
                on_select=model.add_tiebreak,
            )
        )
    return controls


def _fixed_seats(model: NightStartModel, language: Language) -> list[ft.Control]:
    if not model.present:
        return []
    options = [(ANY_TABLE, tr("night.any_table", language))]
    options += [(str(t), tr("night.table", language, table=t)) for t in range(1, model.table_count() + 1)]
    return [
        ft.Text(tr("night.fixed", language), weight=ft.FontWeight.W_500),
        _small(tr("night.fixed_help", language)),
        ft.ResponsiveRow(
            controls=[
                ft.Container(
                    col={"xs": 12, "sm": 6},
                    content=labelled_dropdown(
                        label=tr("night.fixed_label", language, name=name),
                        value=str(model.fixed.get(name, 0)),
                        options=options,
                        on_select=partial(_fixed, model, name),
                    ),
                )
                for name in model.present
            ]
        ),
    ]


@ft.component
def NightStartScreen(*, league_id: str) -> ft.Control:
    settings = use_settings()
    language = settings.language
    store = use_store()
    state: tuple[NightStartModel, Callable[[NightStartModel], None]] = ft.use_state(
        lambda: NightStartModel.load(store, league_id)
    )
    model = state[0]
    announce = use_announce()
    typed, set_typed = ft.use_state("")
    choices = ft.use_memo(variant_choices, dependencies=[])

    def start() -> None:
        night_id = model.start(by=settings.signer)
        if night_id is not None:
            announce()
            navigate(f"/nights/{night_id}")

    ruleset = model.game.base
    # The form in blocks: who plays, the variant, the seating, the night's rules.
    controls: list[ft.Control] = [
        back_link(tr("night.back", language), f"/leagues/{model.league_id}"),
        headline(tr("night.start_title", language)),
        ft.Text(tr("night.league", language, name=model.league_name)),
        *_check_ins(model, title=tr("night.present", language, count=len(model.present)), language=language),
        _name_field(language, value=typed, set_value=set_typed, add=model.add_name, error=model.name_error),
        section(tr("night.variant", language)),
        labelled_dropdown(
            label=tr("night.variant", language),
            value=model.game.ruleset_id,
            options=[(c.id, engine_text(c.name, language)) for c in choices],
            on_select=model.game.choose_ruleset,
        ),
        _small(variant_description(ruleset, language)),
        section(tr("night.house_rules", language)),
        *[rule_row(model.game, rule, language) for rule in model.game.house_rules()],
        section(tr("night.seating", language)),
        _method_choice(model.method, model.choose_method, language),
        _small(tr(f"night.method_{model.method}", language)),
        *_fixed_seats(model, language),
        ft.TextField(
            label=tr("night.points", language),
            value=model.points,
            on_change=lambda e: model.set_points(e.control.value),
            helper=tr("night.points_help", language),
            helper_max_lines=HELP_LINES,
        ),
        *_tiebreaks(model, language),
        *_night_rules(model, language),
    ]
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    if model.look_alike is not None:
        controls += look_alike_question(
            model.look_alike,
            same_person=model.same_person,
            different_person=model.different_person,
            start=start,
            language=language,
        )
    controls.append(
        ft.FilledButton(tr("night.start", language), icon=ft.Icons.PLAY_ARROW, on_click=start, height=48)
    )
    return screen(*controls)


def _status(card: TableCard, language: Language) -> str:
    if card.status in ("abandoned", "deleted"):
        return tr(f"night.{card.status}", language)
    return tr("night.finished" if card.finished else "night.playing", language)


def _table_card(
    card: TableCard, language: Language, *, base: str | None, links: bool, extra: Sequence[ft.Control] = ()
) -> ft.Control:
    """A table: number, state, players by seat, deals, leader; for the round being played,
    the link that opens its game and the link's QR code."""
    if card.leader is None:
        leader = tr("night.no_deal", language)
    else:
        key = "night.table_winner" if card.finished else "night.leader"
        leader = tr(key, language, name=card.leader, total=card.leader_total)
    rows: list[ft.Control] = [
        ft.Row(
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            controls=[
                ft.Text(
                    tr("night.table", language, table=card.table),
                    theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                    weight=ft.FontWeight.W_600,
                ),
                ft.Text(_status(card, language), color=ft.Colors.PRIMARY if card.finished else None),
            ],
        ),
        ft.Text(", ".join(card.holders or card.players)),  # who sits there now
    ]
    if card.start:
        rows.append(_small(tr("night.start_points", language, points=card.start)))
    rows.append(ft.Text(f"{tr('night.deals', language, count=card.deals)} · {leader}"))
    if card.called is not None:
        rows.append(_small(tr("night.ended_on_time", language, number=card.called)))
    waiting = mark_text(card.unconfirmed, card.disputed, language)
    if waiting:  # the table's points rest on deals not yet confirmed
        rows.append(ft.Text(waiting, color=ft.Colors.ERROR if card.disputed else None))
    if links:
        rows.append(
            ft.Row(
                controls=[
                    ft.OutlinedButton(
                        tr("night.open_table", language, table=card.table),
                        icon=ft.Icons.OPEN_IN_NEW,
                        on_click=partial(navigate, card.route),
                    )
                ]
            )
        )
        if base:
            link = table_link(base, card.route)
            rows += [
                _small(tr("night.link_help", language)),
                ft.Text(link, font_family="monospace", size=12),
                ft.Image(
                    src=_qr_base64(link),
                    width=QR_SIZE,
                    height=QR_SIZE,
                    semantics_label=tr("night.qr_label", language, table=card.table),
                ),
            ]
    rows += extra  # the director's: the table's penalties and its Penalty action
    return ft.Card(content=ft.Container(padding=12, content=ft.Column(spacing=6, controls=rows)))


def _tables(cards: list[ft.Control]) -> ft.Control:
    """The round's tables: one under another on a phone, two abreast on a wider screen, so a
    director at a laptop sees more tables at once."""
    return ft.ResponsiveRow(
        spacing=8,
        run_spacing=8,
        controls=[ft.Container(col={"xs": 12, "sm": 6}, content=card) for card in cards],
    )


def _standings(model: NightModel, language: Language, *, flip: Callable[[], None]) -> list[ft.Control]:
    controls: list[ft.Control] = [section(tr("night.standings", language))]
    played = [line for line in model.lines if line.games]
    if not played:
        controls.append(ft.Text(tr("night.no_standings", language)))
        return controls
    first = played[0]
    key = "night.winner" if first.winner else "night.leading"
    controls.append(ft.Text(tr(key, language, name=first.name), weight=ft.FontWeight.W_600))

    def col(name: str, **kind: bool) -> Column:
        return Column(heading=tr(f"night.col_{name}", language), **kind)

    columns = [
        col("place", rank=True),
        col("player", numeric=False),
        col("points", phone=True),
        col("games", phone=True),
        col("wins", phone=True),
        col("places", numeric=False),
        col("ahead", numeric=False),
    ]
    marked = any(line.unconfirmed for line in model.lines)
    if marked:  # whose points rest on deals not yet confirmed at the table
        columns.append(Column(heading=tr("checks.col_unconfirmed", language), numeric=False))
    replaced = any(line.left_after or line.joined_after for line in model.lines)
    if replaced:  # a seat taken over mid-game (docs/rules.md, "Replacements")
        columns.append(col("seat", numeric=False))
    rows = [
        [
            figure(line.place),
            Cell(f"★ {line.name}" if line.winner else line.name, route=f"/players/{line.player_id}"),
            figure(line.points),
            figure(line.games),
            figure(line.wins),
            Cell(line.placements or "–"),
            Cell(tiebreak_text(line.tiebreak, language)),
            *([Cell(_waiting_cell(line, language))] if marked else []),
            *([Cell(line.seat_note(language) or "–")] if replaced else []),
        ]
        for line in model.lines
    ]
    controls.append(stat_table(columns, rows))
    if model.flipped:
        said = "; ".join(", ".join(group) for group in model.flipped)
        controls.append(ft.Text(tr("night.flipped", language, players=said)))
    if model.can_flip():
        level = "; ".join(", ".join(group) for group in model.level)
        controls += [
            _small(tr("night.flip_help", language, players=level)),
            ft.Row(
                controls=[ft.OutlinedButton(tr("night.flip", language), icon=ft.Icons.CASINO, on_click=flip)]
            ),
        ]
    return controls


def _next_round(
    model: NightModel,
    language: Language,
    *,
    next_round: Callable[[], None],
    end_night: Callable[[], None],
    typed: str,
    set_typed: Callable[[str], None],
) -> list[ft.Control]:
    waiting = model.waiting()
    controls: list[ft.Control] = [
        section(tr("night.next_round", language)),
        ft.Row(
            wrap=True,
            spacing=8,
            controls=[
                ft.FilledButton(
                    tr("night.next_round", language),
                    icon=ft.Icons.SKIP_NEXT,
                    on_click=next_round,
                    disabled=bool(waiting),
                ),
                ft.OutlinedButton(
                    tr("night.change_next", language),
                    icon=ft.Icons.EDIT,
                    on_click=model.toggle_editing,
                ),
                *(
                    [
                        ft.OutlinedButton(
                            tr("night.end", language), icon=ft.Icons.FLAG, on_click=model.toggle_ending
                        )
                    ]
                    if model.can_end()
                    else []
                ),
            ],
        ),
    ]
    if waiting:
        controls.append(ft.Text(engine_text(waiting, language)))
    if model.ending and model.can_end():
        controls += [
            ft.Text(tr("night.end_question", language, number=model.last.number)),
            ft.Row(
                wrap=True,
                spacing=8,
                controls=[
                    ft.FilledButton(tr("night.end_now", language), icon=ft.Icons.FLAG, on_click=end_night),
                    ft.TextButton(tr("night.end_keep", language), on_click=model.toggle_ending),
                ],
            ),
        ]
    if model.editing:
        controls += [
            *_check_ins(
                model, title=tr("night.next_players", language, count=len(model.present)), language=language
            ),
            _name_field(
                language, value=typed, set_value=set_typed, add=model.add_name, error=model.name_error
            ),
            _method_choice(model.method, model.choose_method, language),
            _small(tr(f"night.method_{model.method}", language)),
            _number_field(
                tr("night.next_timer", language),
                model.next_timer,
                model.set_next_timer,
                helper=tr("night.timer_help", language),
                error=model.timer_error,
                language=language,
            ),
        ]
    if model.error:
        controls.append(error_text(engine_text(model.error, language)))
    return controls


@ft.component
def NightScreen(*, night_id: str) -> ft.Control:
    settings = use_settings()
    language = settings.language
    store = use_store()
    state: tuple[NightModel, Callable[[NightModel], None]] = ft.use_state(
        lambda: NightModel.load(store, night_id)
    )
    model = state[0]
    use_live(model.reload)
    checks = _use_director_checks(store, night_id)
    desk = use_desk(night_id)
    announce = use_announce()
    # a viewer's code: a table card's penalties and replacements shown, no action on them
    acts: dict[str, Any] = {
        "signer": settings.signer,
        "announce": announce,
        "directs": not use_access().changes_nothing,
    }

    def director_part(card: TableCard) -> list[ft.Control]:
        return table_penalties(desk, card.game, card.table, card.players, language, **acts)

    typed, set_typed = ft.use_state("")
    # Links carry this session's own code, the club's only to its holder; a director's table
    # cards carry each table's code (scorer/ui/roles.py).
    grant = use_access().grant
    given = use_services().access_link
    base = own_link(given, grant, store) or (ft.context.page.url or "").split("?")[0] or None
    handed = night_links(given, grant, store, model.night)

    def next_round() -> None:
        if model.next_round(by=settings.signer):
            announce()

    def end_night() -> None:
        if model.end_night():
            announce()

    def flip() -> None:
        if model.flip_coin(by=settings.signer):
            announce()

    night = model.night
    last = model.last
    league = store.league(night.league_id)
    tv_route = f"/nights/{night.id}/tv"
    controls: list[ft.Control] = [
        back_link(tr("night.back", language), f"/leagues/{night.league_id}"),
        ft.Row(
            controls=[
                ft.Container(expand=True, content=headline(tr("night.title", language))),
                # The board for the club room's wall screen: opened here, or on the wall
                # screen's browser through the link below.
                ft.OutlinedButton(
                    tr("tv.view", language), icon=ft.Icons.TV, on_click=partial(navigate, tv_route)
                ),
            ],
        ),
        ft.Text(
            f"{tr('night.league', language, name=league.name)} · "
            f"{tr('night.started', language, date=local_time(night.created, language))}"
        ),
        # The wall screen is handed the viewer's code, never the director's.
        *(
            [
                _small(
                    tr("tv.link", language, link=table_link(handed.viewer_link if handed else base, tv_route))
                )
            ]
            if base
            else []
        ),
        *([_small(tr("access.viewer_code", language, code=handed.viewer_code))] if handed else []),
        *desk_calls(desk, language, signer=settings.signer, announce=announce),
        section(
            tr(
                "night.round" if night.planned is None else "night.round_of",
                language,
                number=last.number,
                planned=night.planned,
                variant=variant_title(last.ruleset, language),
            )
        ),
    ]
    if last.timer is not None:
        countdown: Any = Countdown  # keyed by the round: a new round's clock starts afresh
        controls.append(
            countdown(
                clock=store.clock,
                text=partial(model.timer_text, language),
                running=model.ticking,
                alert=lambda now: bool(model.unfinished()) and not model.ticking(now),
                what=f"night {night.id} round {last.number}",
                key=f"timer/{last.number}",
            )
        )
    evenness = evenness_text(last, language)
    if evenness:
        controls.append(_small(evenness))
    cards = [
        _table_card(
            card,
            language,
            base=handed.tables.get(card.table, base) if handed else base,
            links=True,
            extra=[
                *director_part(card),
                # a game still being played takes a replacement (the store refuses one that ended)
                *table_replace(
                    desk,
                    card.game,
                    card.table,
                    language,
                    **{**acts, "directs": acts["directs"] and card.status == "active" and not card.finished},
                ),
            ],
        )
        for card in model.current()
    ]
    controls.append(_tables(cards))
    if last.byes:
        controls.append(ft.Text(tr("night.byes", language, players=", ".join(last.byes))))
    controls.extend(_disputes(checks, model, language, by=settings.signer, announce=announce))
    controls.extend(_standings(model, language, flip=flip))
    if not use_access().changes_nothing:  # a viewer's code: no steps of the night to offer
        controls.extend(
            _next_round(
                model, language, next_round=next_round, end_night=end_night, typed=typed, set_typed=set_typed
            )
        )
    earlier = model.earlier()
    if earlier:
        rounds = {r.number: r for r in night.rounds}
        tiles = [
            ft.ExpansionTile(
                title=ft.Text(
                    tr(
                        "night.round",
                        language,
                        number=number,
                        variant=variant_title(rounds[number].ruleset, language),
                    )
                ),
                controls=[
                    *([_small(even)] if (even := evenness_text(rounds[number], language)) else []),
                    _tables(
                        [
                            _table_card(
                                card,
                                language,
                                base=base,
                                links=False,
                                extra=director_part(card),
                            )
                            for card in cards
                        ]
                    ),
                ],
            )
            for number, cards in earlier
        ]
        controls += [section(tr("night.earlier", language)), *tiles]
    controls.append(
        ShareButton(label=tr("share.night", language), make=partial(share_night, store, night.id))
    )
    return screen(*controls)


def _waiting_cell(line: NightLine, language: Language) -> str:
    """The standings' Unconfirmed cell: ``2``, ``2 (1 disputed)``, ``–`` for none."""
    if not line.unconfirmed:
        return "–"
    if line.disputed:
        return tr("checks.cell_disputed", language, count=line.unconfirmed, disputed=line.disputed)
    return str(line.unconfirmed)


def _use_director_checks(store: Store, night_id: str) -> DirectorChecks:
    """The night's disputes and unconfirmed deals, read again when the store changes."""
    state: tuple[DirectorChecks, Callable[[DirectorChecks], None]] = ft.use_state(
        lambda: DirectorChecks.load(store, night_id)
    )
    use_live(state[0].reload)
    return state[0]


def _disputes(
    checks: DirectorChecks,
    model: NightModel,
    language: Language,
    *,
    by: str | None,
    announce: Callable[[], None],
) -> list[ft.Control]:
    """``Disputes`` and ``Unconfirmed deals`` (scorer/ui/components/confirm_panel.py)."""

    def done(changed: bool) -> None:
        if changed:
            model.reload()  # the standings' marks, the tables' and whether the night is over
            announce()

    return director_checks(
        checks,
        language,
        keep=lambda item, keep: done(checks.keep(item, keep, by=by)),
        confirm=lambda item: done(checks.confirm(item, by=by)),
    )


def _missing(language: Language) -> ft.Control:
    return screen(
        headline(tr("night.no_night", language)),
        ft.TextButton(tr("leagues.back", language), on_click=partial(navigate, "/leagues")),
    )


@ft.component
def NightRoute() -> ft.Control:
    """``/nights/<id>``: the night, or a page saying there is none."""
    key = ft.use_route_params().get("id", "")
    try:
        night = use_store().find_night(key)
    except ScorerError:
        return _missing(use_settings().language)
    keyed: Any = NightScreen  # keyed by the night: another night starts from its own state
    return cast(ft.Control, keyed(night_id=night.id, key=f"night/{night.id}"))


@ft.component
def NightStartRoute() -> ft.Control:
    """``/leagues/<id>/night``: start a night in the league, or a page saying there is none."""
    key = ft.use_route_params().get("id", "")
    try:
        league = use_store().league(key)
    except ScorerError:
        return screen(
            headline(tr("leagues.no_league", use_settings().language)),
            ft.TextButton(
                tr("leagues.back", use_settings().language), on_click=partial(navigate, "/leagues")
            ),
        )
    keyed: Any = NightStartScreen
    return cast(ft.Control, keyed(league_id=league.id, key=f"night-start/{league.id}"))
