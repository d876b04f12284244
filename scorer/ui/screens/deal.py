"""Deal entry ``/game/<id>/deal`` (the next deal) and ``/game/<id>/deal/<n>`` (correct deal n).

Each player's cards left are tapped on the card picker or typed (``KH 7D 7C``, ``K♥ 7♦``), or
only their points are entered; how the deal ended and the variant's flags complete the deal.
The engine's reading is shown before saving; nothing is saved until the engine accepts the deal.
Mistakes in the cards are named under every hand concerned as they are typed, in full (an error
under a field wraps); cards on screen are written with the suit symbols.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.league.store import Store
from scorer.messages import message_of
from scorer.ruleset_text import variant_name
from scorer.ui.components.card_face import cards_text, with_faces
from scorer.ui.components.card_picker import CardPicker
from scorer.ui.components.conflict_panel import conflict_panel
from scorer.ui.components.layout import checkbox, error_text, headline, icon_button, navigate, screen, section
from scorer.ui.context import use_settings, use_store
from scorer.ui.engine_text import engine_text
from scorer.ui.i18n import Language, tr
from scorer.ui.live import use_announce, use_live
from scorer.ui.screens.deal_drafts import use_deal_entry
from scorer.ui.screens.deal_model import DealModel, KnockReading, Reading
from scorer.ui.screens.history_model import event_line
from scorer.ui.screens.slips import SlipTools
from scorer.ui.services import use_wakelock

NOBODY = "-"
#: Lines an error under a field may take: the reason is the end of the message, never cut.
ERROR_LINES = 8


def _said(said: str, language: Language) -> str:
    """The engine's message in ``language``, its cards written with the suit symbols."""
    message = message_of(said)
    return engine_text(with_faces(message) if message is not None else said, language)


def _choice(
    *,
    label: str,
    value: str,
    options: list[tuple[str, str]],
    on_select: Callable[[str], None],
    error: str,
    language: Language,
) -> ft.Control:
    def selected(e: ft.Event[ft.Dropdown]) -> None:
        on_select("" if e.control.value in (None, NOBODY) else str(e.control.value))

    dropdown = ft.Semantics(
        label=label,
        content=ft.Dropdown(
            label=label,
            value=value or NOBODY,
            options=[ft.DropdownOption(key=k or NOBODY, text=t) for k, t in options],
            on_select=selected,
            # A dropdown's own error text is one line, cut: the reason goes under it in full.
            border_color=ft.Colors.ERROR if error else None,
            expand=True,
        ),
    )
    if not error:
        return dropdown
    return ft.Column(
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[dropdown, error_text(_said(error, language))],
    )


def _player_block(
    model: DealModel, player: str, *, language: Language, picking: bool, pick: Callable[[], None]
) -> ft.Control:
    controls: list[ft.Control]
    name = model.seat_name(player)  # who holds the seat at this deal (a replacement's name)
    title = name if name == player else tr("deal.seat_of", language, holder=name, player=player)
    if model.entry == "cards":
        # Gin counts a hand by its deadwood after the best melds; the others by its cards.
        value = model.deadwood(player) if model.is_gin else model.hand_value(player)
        worth = ""
        if value is not None:
            worth = tr("deal.deadwood" if model.is_gin else "deal.hand_value", language, points=value)

        def on_cards(e: ft.Event[ft.TextField]) -> None:
            model.set_cards(player, e.control.value)

        controls = [
            ft.Row(
                controls=[
                    ft.Text(title, weight=ft.FontWeight.BOLD, size=16, expand=True),
                    ft.Text(worth),
                    icon_button(
                        ft.Icons.STYLE if not picking else ft.Icons.EXPAND_LESS,
                        tr("deal.pick_cards", language, name=name),
                        pick,
                        selected=picking,
                    ),
                ]
            ),
            ft.TextField(
                label=tr("deal.cards_left", language, name=name),
                value=model.cards.get(player, ""),
                on_change=on_cards,
                error=_said(model.errors.get(f"cards:{player}", ""), language) or None,
                error_max_lines=ERROR_LINES,
                hint_text=tr("deal.cards_hint", language),
                autocorrect=False,
                enable_suggestions=False,
                dense=True,
            ),
        ]
        if model.cards.get(player):
            controls.append(cards_text(model.cards[player]))
        if picking:
            controls.append(CardPicker(model, player, language))
    else:

        def on_points(e: ft.Event[ft.TextField]) -> None:
            model.set_points(player, e.control.value)

        controls = [
            ft.TextField(
                label=tr("deal.points", language, name=name),
                value=model.points.get(player, ""),
                on_change=on_points,
                error=_said(model.errors.get(f"points:{player}", ""), language) or None,
                error_max_lines=ERROR_LINES,
                keyboard_type=ft.KeyboardType.NUMBER,
                dense=True,
            )
        ]
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        content=ft.Column(spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls),
    )


def _knock_outcome(knock: KnockReading, language: Language) -> ft.Control:
    """The knock's outcome and its points, shown beside Save deal: on a phone the reading above
    is below the fold while the hands are entered, and this is what Save deal saves."""
    return ft.Text(
        tr(
            "deal.knock_outcome",
            language,
            outcome=tr(f"deal.outcome_{knock.outcome}", language),
            name=knock.winner,
            points=knock.points,
        ),
        size=20,
        weight=ft.FontWeight.BOLD,
    )


def _reading(model: DealModel, reading: Reading, language: Language) -> ft.Control:
    lines: list[ft.Control] = [section(tr("deal.reading", language))]
    knock = reading.knock
    if knock is not None:
        none = tr("deal.none", language)
        lines += [
            ft.Text(tr("deal.knock_melds", language, name=knock.knocker, melds=knock.melds or none)),
            ft.Text(
                tr(
                    "deal.knock_deadwood",
                    language,
                    cards=knock.deadwood or none,
                    points=knock.deadwood_points,
                )
            ),
            ft.Text(tr("deal.layoffs", language, name=knock.defender, cards=knock.layoffs or none)),
            ft.Text(
                tr(
                    "deal.defender_deadwood",
                    language,
                    cards=knock.defender_deadwood or none,
                    points=knock.defender_points,
                )
            ),
        ]
    for row in reading.rows:
        lines.append(
            ft.Text(
                tr(
                    "deal.reading_row",
                    language,
                    name=row.player,
                    hand=row.hand_points,
                    score=row.score,
                    total=row.total,
                )
            )
        )
    lines += [
        ft.Text(_said(event, language), theme_style=ft.TextThemeStyle.BODY_SMALL) for event in reading.events
    ]
    if reading.finished:
        lines.append(ft.Text(tr("deal.game_ends", language), weight=ft.FontWeight.BOLD))
    return ft.Container(
        padding=12,
        border_radius=10,
        border=ft.Border.all(1, ft.Colors.PRIMARY),
        content=ft.Column(spacing=4, controls=lines),
    )


@ft.component
def DealScreen(*, game_id: str, number: int | None, disputing: bool = False) -> ft.Control:
    settings = use_settings()
    store = use_store()
    language = settings.language
    use_wakelock()
    # Kept for the session until saved: leaving the screen and coming back goes on from it.
    model, drafts = use_deal_entry(store, game_id, number=number, disputing=disputing)
    use_live(lambda: model.reload(store))
    announce = use_announce()
    # No picker open at first: who went out comes first, and a phone shows the whole form.
    picking, set_picking = ft.use_state("")
    # A conflict's Replace theirs asks for a reason first: (asking, the reason typed so far).
    replacing, set_replacing = ft.use_state(False)
    reason, set_reason = ft.use_state("")
    players = model.players
    board = f"/game/{game_id}"

    def done() -> None:
        """The entry is saved, or dropped on purpose: the next one starts empty."""
        if drafts is not None and not model.disputing:
            drafts.drop(game_id, number)
        _announce_and_go(announce, board)

    def save() -> None:
        if model.save(store, by=settings.signer):
            done()

    if model.conflict is not None:
        return _conflict_view(
            model,
            language=language,
            replacing=replacing,
            reason=reason,
            set_replacing=set_replacing,
            set_reason=set_reason,
            done=done,
            signer=settings.signer,
            store=store,
        )

    if model.over:  # a finished game has no next deal: its deals are corrected from the Scoreboard
        return screen(
            headline(tr("deal.over_title", language)),
            ft.Text(tr("deal.over", language, count=len(model.game.deals))),
            ft.FilledButton(tr("deal.back", language), on_click=lambda: navigate(board), height=48),
        )

    def picker_for(player: str) -> Callable[[], None]:
        return lambda: set_picking("" if picking == player else player)

    if model.disputing:
        title = tr("checks.version_title", language, number=model.deal_number)
    elif model.number is None:
        title = tr("deal.title", language, number=model.deal_number)
    else:
        title = tr("deal.title_correct", language, number=model.deal_number)
    controls: list[ft.Control] = [
        headline(title),
        ft.Text(
            tr("deal.subtitle", language, variant=variant_name(model.ruleset, language), dealer=model.dealer)
        ),
        ft.Switch(
            label=tr("deal.points_only", language),
            value=model.entry == "points",
            on_change=lambda e: model.set_entry("points" if e.control.value else "cards"),
        ),
    ]
    controls.append(_how_it_ended(model, language))
    flags: list[ft.Control] = []
    if model.offers_one_turn:
        flags.append(
            checkbox(
                label=tr("deal.one_turn", language),
                value=model.one_turn,
                on_change=model.set_one_turn,
            )
        )
    if model.is_gin:
        flags.append(
            checkbox(
                label=tr("deal.dead", language),
                value=model.dead,
                on_change=model.set_dead,
            )
        )
        if model.entry == "points":
            flags.append(
                checkbox(
                    label=tr("deal.big_gin", language),
                    value=model.big_gin,
                    on_change=model.set_big_gin,
                )
            )
    if flags:
        controls.append(ft.Row(wrap=True, controls=flags))
    if model.offers_upcard:
        controls.append(
            ft.TextField(
                label=tr("deal.upcard", language),
                value=model.upcard,
                on_change=lambda e: model.set_upcard(e.control.value),
                error=_said(model.errors.get("upcard", ""), language) or None,
                error_max_lines=ERROR_LINES,
                dense=True,
            )
        )
    if not (model.is_gin and model.dead):
        controls += [
            _player_block(model, p, language=language, picking=picking == p, pick=picker_for(p))
            for p in players
        ]
        controls.append(SlipTools(model=model, language=language))
    if model.reading is not None:
        controls.append(_reading(model, model.reading, language))
    elif model.pending:
        waiting = tr("deal.waiting", language, reason=_said(model.pending, language))
        controls.append(ft.Text(waiting, theme_style=ft.TextThemeStyle.BODY_SMALL, italic=True))
    elif model.refusal:
        # Save deal refused the entry: said here, beside the button tapped, as well as under the
        # field it concerns (which may be off the screen, above). Plain text, not selectable:
        # a screen reader reads it.
        refused = tr("deal.not_saved", language, reason=_said(model.refusal, language))
        controls.append(ft.Text(refused, color=ft.Colors.ERROR))
    if "deal" in model.errors:
        controls.append(error_text(_said(model.errors["deal"], language)))
    if model.number is not None:
        controls.append(
            ft.TextField(
                label=tr("checks.why_label" if model.disputing else "history.why_label", language),
                value=model.why,
                on_change=lambda e: model.set_why(e.control.value),
                dense=True,
            )
        )
    knock = model.reading.knock if model.reading is not None else None
    saving = tr("checks.send" if model.disputing else "deal.save", language)
    controls.append(
        ft.Row(
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                ft.FilledButton(saving, icon=ft.Icons.SAVE, on_click=save, height=48),
                *([_knock_outcome(knock, language)] if knock is not None else []),
                ft.TextButton(tr("deal.back", language), on_click=lambda: navigate(f"/game/{game_id}")),
            ],
        )
    )
    # Below everything the player taps: a line that arrives from elsewhere moves nothing.
    controls += _from_elsewhere(model, language)
    return screen(*controls)


def _how_it_ended(model: DealModel, language: Language) -> ft.Control:
    """One choice says how the deal ended: who went out (rummy), who knocked (gin), or, where a
    deal ends more than one way (Carousel, Stop, a block), each way in one list."""
    error = model.errors.get("out", "")
    if model.one_ending_choice:
        options = [("", tr("deal.not_said", language))]
        for choice in model.ending_choices:
            kind, _, name = choice.partition(":")
            if kind == "knock":
                options.append((choice, tr("deal.ending_knock", language, name=name)))
            elif kind == "out":
                options.append((choice, tr("deal.ending_out", language, name=name)))
            else:
                options.append((choice, tr(f"deal.ended_{choice}", language)))
        return _choice(
            label=tr("deal.ended", language),
            value=model.ending,
            options=options,
            on_select=model.set_ending,
            error=error,
            language=language,
        )
    # One way with a player's name: who knocked (gin) or who went out (rummy).
    knock = model.offers_knock
    return _choice(
        label=tr("deal.knocked" if knock else "deal.went_out", language),
        value=model.knocker if knock else model.out,
        options=[("", tr("deal.nobody", language))] + [(p, model.seat_name(p)) for p in model.players],
        on_select=model.set_knocker if knock else model.set_out,
        error=error,
        language=language,
    )


def _from_elsewhere(model: DealModel, language: Language) -> list[ft.Control]:
    """The game as saved now (live: another phone's saves show here), and what changed meanwhile.

    Shown under Save deal, never above a control: a line that appears or grows when another
    phone saves would push the form down under the finger about to tap it (issue 24)."""
    latest = model.latest or model.saved
    totals = ", ".join(f"{p}: {latest.result.totals[p]}" for p in latest.game.players)
    lines: list[ft.Control] = [
        ft.Text(
            tr("deal.game_now", language, count=len(latest.game.deals), totals=totals),
            theme_style=ft.TextThemeStyle.BODY_SMALL,
        )
    ]
    if model.status != "active":
        status = tr(f"history.{model.status}", language)
        lines.append(error_text(tr("deal.not_active", language, status=status)))
    event = model.meanwhile()
    if event is not None:
        line = event_line(event, language, with_deal=True)
        lines.append(ft.Text(tr("deal.taken", language, line=line), color=ft.Colors.ERROR))
    return lines


def _conflict_view(
    model: DealModel,
    *,
    language: Language,
    replacing: bool,
    reason: str,
    set_replacing: Callable[[bool], None],
    set_reason: Callable[[str], None],
    done: Callable[[], object],
    signer: str | None,
    store: Store,
) -> ft.Control:
    """Save deal was refused: mine and theirs side by side, and the three ways on."""
    conflict = model.conflict
    assert conflict is not None  # the caller checked: a narrowing for the type checker

    def keep_theirs() -> None:
        model.keep_theirs()
        done()

    def save_next() -> None:
        if model.save_as_next(store, by=signer):
            done()

    def replace() -> None:
        if model.replace_theirs(store, by=signer, why=reason):
            set_replacing(False)
            set_reason("")
            done()

    actions: list[ft.Control]
    if replacing:
        actions = [
            ft.TextField(
                label=tr("history.why_label", language),
                value=reason,
                on_change=lambda e: set_reason(e.control.value),
                autofocus=True,
                width=320,
            ),
            ft.FilledButton(tr("conflict.replace_confirm", language), icon=ft.Icons.SAVE, on_click=replace),
            ft.TextButton(tr("conflict.cancel", language), on_click=lambda: set_replacing(False)),
        ]
    else:
        actions = [
            ft.FilledButton(tr("conflict.keep_theirs", language), on_click=keep_theirs),
            # Not after the game's end: a finished game has no next deal.
            *(
                [ft.OutlinedButton(tr("conflict.save_next", language), on_click=save_next)]
                if model.offers_next
                else []
            ),
            ft.OutlinedButton(tr("conflict.replace", language), on_click=lambda: set_replacing(True)),
        ]
    controls: list[ft.Control] = [
        conflict_panel(conflict, side=model.side, language=language, actions=actions)
    ]
    if "deal" in model.errors:
        controls.append(error_text(_said(model.errors["deal"], language)))
    return screen(*controls)


def _announce_and_go(announce: Callable[[], None], route: str) -> None:
    announce()
    navigate(route)
