"""The app's frame: the page's theme and font, and the bar over every screen.

Apart from :mod:`scorer.ui.app` so that the phone build draws the same frame around Home before
the store (and the app's routes, which need it) is imported (:mod:`scorer.web.first_screen`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import flet as ft

from scorer.ui.components.layout import app_theme, icon_button, navigate
from scorer.ui.i18n import Language, tr

#: Bundled with the package: the web client's own font has no suit symbols.
ASSETS_DIR: Final = str(Path(__file__).resolve().parent / "assets")
FONT_FAMILY: Final = "DejaVu Sans"
FONTS: Final = {FONT_FAMILY: "fonts/DejaVuSans.ttf"}
SEED_COLOR: Final = ft.Colors.GREEN_800


def dress_page(page: ft.Page, language: Language) -> None:
    """The page's title, theme (light and dark, as the device is), padding and font."""
    page.title = tr("app_title", language)
    page.theme_mode = ft.ThemeMode.SYSTEM
    page.padding = ft.Padding.all(8)
    page.fonts = dict(FONTS)
    page.theme = app_theme(font_family=FONT_FAMILY, seed=SEED_COLOR)
    page.dark_theme = app_theme(font_family=FONT_FAMILY, seed=SEED_COLOR)


def _nav_button(icon: ft.IconData, label: str, route: str) -> ft.Control:
    return icon_button(icon, label, lambda: navigate(route))


def app_bar(language: Language) -> ft.Control:
    """The bar: the title (home) and the ways to the other screens."""
    return ft.Container(
        padding=ft.Padding.only(left=4, right=4, top=2, bottom=2),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
        border_radius=12,
        # On a phone the title and the ways on share the width; if they cannot, they wrap.
        content=ft.Row(
            wrap=True,
            spacing=0,
            run_spacing=0,
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                ft.TextButton(
                    content=ft.Text(
                        tr("app_title", language),
                        size=18,
                        weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_PRIMARY_CONTAINER,
                    ),
                    on_click=lambda: navigate("/"),
                ),
                ft.Row(
                    tight=True,
                    spacing=0,
                    controls=[
                        _nav_button(ft.Icons.HOME, tr("nav.home", language), "/"),
                        _nav_button(ft.Icons.ADD_CIRCLE_OUTLINE, tr("nav.new_game", language), "/game/new"),
                        _nav_button(ft.Icons.LEADERBOARD, tr("leagues.title", language), "/leagues"),
                        _nav_button(ft.Icons.GAVEL, tr("nav.referee", language), "/referee"),
                        _nav_button(ft.Icons.MENU_BOOK, tr("nav.rules", language), "/rules"),
                        _nav_button(ft.Icons.SETTINGS, tr("nav.settings", language), "/settings"),
                    ],
                ),
            ],
        ),
    )


def framed(location: str, language: Language, screen: ft.Control | None) -> ft.Control:
    """``screen`` under the bar, in a column of its own keyed by the route ``location``."""
    # Each screen scrolls in a column of its own, keyed by the route: the next screen starts at
    # its top with a new scroll position. One scrolling page for every route carried the last
    # screen's offset over, and Flutter then placed the next screen's accessibility nodes
    # (what a screen reader or a test taps) that far from where the screen was drawn.
    return ft.Column(
        key=f"screen:{location}",
        expand=True,
        scroll=ft.ScrollMode.AUTO,
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[app_bar(language), screen] if screen is not None else [app_bar(language)],
    )
