"""Issue 24, items 8 and 9, in plain pytest: the screens' words and the view-models behind them.

Names as typed, refused names under their seat, Finnish with no English left in it, a
finished game that offers no next deal, a correction's history that says what changed, the
conflict panel's hands written once, and a device that always signs its changes. The layout
parts (help lines wrapping, the gin outcome beside Save deal) are in Chromium:
tests/test_ui_browser_texts.py.
"""

from __future__ import annotations

import flet as ft

from scorer.ui.screens.new_game import _player_row
from scorer.ui.screens.new_game_model import NewGameModel
from scorer.ui.screens.night import _name_field


def _fields(control: ft.Control) -> list[ft.TextField]:
    found = [control] if isinstance(control, ft.TextField) else []
    for child in getattr(control, "controls", None) or []:
        found += _fields(child)
    return found


# -- names as typed --------------------------------------------------------------------------


def test_a_players_name_field_never_capitalises_what_is_typed() -> None:
    """A phone's keyboard wrote "Von" for "von" and "Aino" for "aino": the fields asked it to."""
    model = NewGameModel(players=["aino", "Ludwig von B"])
    seat = _fields(_player_row(model, 0, "en"))
    typed = _name_field("en", value="aino", set_value=lambda _: None, add=lambda _: True, error="")
    new_player = _fields(typed)
    for field in seat + new_player:
        assert field.capitalization in (None, ft.TextCapitalization.NONE)
