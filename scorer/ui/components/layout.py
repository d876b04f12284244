"""Shared layout pieces: the app's theme, a screen's readable column, its headline and labelled controls."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

import flet as ft

#: The least height, in logical pixels, of anything a finger taps: Material's touch target.
TOUCH_TARGET: Final = 48
#: A button's label line is 20 px high: 14 above and below make it :data:`TOUCH_TARGET`.
_BUTTON_PADDING: Final = ft.Padding.symmetric(vertical=(TOUCH_TARGET - 20) // 2, horizontal=20)
#: An icon is 24 px: 12 around it make an icon button :data:`TOUCH_TARGET` square.
_ICON_PADDING: Final = ft.Padding.all((TOUCH_TARGET - 24) // 2)


def app_theme(*, font_family: str, seed: ft.ColorValue) -> ft.Theme:
    """The app's theme (light or dark alike): every button at least :data:`TOUCH_TARGET` high.

    Set once for the page, so every button of every screen has it, not only those that ask.
    The density is pinned to the standard one: Flutter otherwise picks the compact density
    for a browser on a desktop system (buttons 32 px high), which a phone emulated by the
    desktop browser, or a tablet in desktop mode, would then get too.
    """
    button = ft.ButtonStyle(padding=_BUTTON_PADDING, visual_density=ft.VisualDensity.STANDARD)
    return ft.Theme(
        font_family=font_family,
        color_scheme_seed=seed,
        visual_density=ft.VisualDensity.STANDARD,
        button_theme=ft.ButtonTheme(style=button),
        filled_button_theme=ft.FilledButtonTheme(style=button),
        outlined_button_theme=ft.OutlinedButtonTheme(style=button),
        text_button_theme=ft.TextButtonTheme(style=button),
        icon_button_theme=ft.IconButtonTheme(
            style=ft.ButtonStyle(padding=_ICON_PADDING, visual_density=ft.VisualDensity.STANDARD)
        ),
    )


def screen(*controls: ft.Control) -> ft.Control:
    """Full width on a phone at the table, a readable column on a wide screen."""
    return ft.ResponsiveRow(
        alignment=ft.MainAxisAlignment.CENTER,
        controls=[
            ft.Column(
                col={"xs": 12, "md": 10, "lg": 8, "xl": 7},
                spacing=14,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                controls=list(controls),
            )
        ],
    )


def headline(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.HEADLINE_SMALL, weight=ft.FontWeight.W_600)


def section(text: str) -> ft.Control:
    return ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.W_600)


def error_text(text: str) -> ft.Control:
    return ft.Text(text, color=ft.Colors.ERROR, selectable=True)


def navigate(route: str) -> None:
    ft.context.page.navigate(route)


def back_link(label: str, route: str) -> ft.Control:
    """A screen's first line: an arrow back to ``route``."""
    return ft.Row(
        controls=[ft.TextButton(label, icon=ft.Icons.ARROW_BACK, on_click=partial(navigate, route))]
    )


def icon_button(
    icon: ft.IconData,
    label: str,
    on_click: Callable[[], object],
    *,
    disabled: bool = False,
    selected: bool = False,
) -> ft.Control:
    """An icon button with an accessible name (a tooltip alone gives it none in the web client)."""
    return ft.IconButton(
        icon=ft.Icon(icon, semantics_label=label),
        tooltip=label,
        on_click=on_click,
        disabled=disabled,
        selected=selected,
    )


def labelled_dropdown(
    *,
    label: str,
    value: str,
    options: list[tuple[str, str]],
    on_select: Callable[[str], None],
    width: int | None = None,
) -> ft.Control:
    """A dropdown of ``(key, text)`` options that hands the chosen key to ``on_select``.

    As wide as its column unless given a width.
    """

    def select(e: ft.Event[ft.Dropdown]) -> None:
        if e.control.value is not None:
            on_select(str(e.control.value))

    # Flutter gives a dropdown's button no name of its own; screen readers need one.
    return ft.Semantics(
        label=label,
        content=ft.Dropdown(
            label=label,
            value=value,
            options=[ft.DropdownOption(key=key, text=text) for key, text in options],
            on_select=select,
            width=width,
            # In Flet 1.0.5 expanded_insets alone does not widen it.
            expand=True if width is None else None,
        ),
    )


def checkbox(*, label: str, value: bool, on_change: Callable[[bool], None]) -> ft.Control:
    """A labelled checkbox that hands whether it is ticked to ``on_change``."""
    return ft.Checkbox(label=label, value=value, on_change=lambda e: on_change(bool(e.control.value)))
