"""The card picker: every card by suit (and jokers) to tap into one player's hand.

Each card is a button named by its face (``K♠``), so screen readers and the browser tests
find it; a card with no copy left for this hand is disabled.
"""

from __future__ import annotations

import flet as ft

from scorer.cards import Card
from scorer.ui.components.card_face import card_color, card_label
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.deal_model import DealModel

TILE = 46  # a comfortable tap target; seven of them fit a phone's width


def _tile(model: DealModel, player: str, card: Card, language: Language) -> ft.Control:
    count = model.count(player, card)
    label = card_label(card) if not card.is_joker else tr("deal.joker", language)
    if count > 1:
        label = f"{label}×{count}"
    selected = count > 0
    disabled = model.disabled(player, card)

    def on_click() -> None:
        model.tap(player, card)

    return ft.Button(
        content=ft.Text(
            label,
            color=ft.Colors.ON_PRIMARY if selected else card_color(card),
            weight=ft.FontWeight.BOLD if selected else ft.FontWeight.NORMAL,
            size=16,
        ),
        width=None if card.is_joker or count > 1 else TILE,
        height=TILE,
        disabled=disabled,
        on_click=on_click,
        style=ft.ButtonStyle(
            padding=ft.Padding.symmetric(horizontal=2),
            shape=ft.RoundedRectangleBorder(radius=8),
            bgcolor=ft.Colors.PRIMARY if selected else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            elevation=0,
        ),
    )


@ft.component
def CardPicker(model: DealModel, player: str, language: Language) -> ft.Control:
    rows: list[ft.Control] = []
    cards = model.picker_cards
    for suit in range(4):
        suited = [c for c in cards if not c.is_joker and c.suit == suit]
        # A-7 and 8-K: side by side where there is room, two even lines on a phone.
        halves = [suited[:7], suited[7:]]
        rows.append(
            ft.Row(
                wrap=True,
                spacing=4,
                run_spacing=4,
                controls=[
                    ft.Row(tight=True, spacing=4, controls=[_tile(model, player, c, language) for c in half])
                    for half in halves
                ],
            )
        )
    jokers = [c for c in cards if c.is_joker]
    if jokers:
        rows.append(ft.Row(controls=[_tile(model, player, c, language) for c in jokers]))
    return ft.Column(spacing=6, controls=rows)
