"""Deals being entered, kept for the session while the player is on another screen.

A browser reload reconnects to the same Flet session, so an entry half typed survives it. Leaving
Deal entry (its Back, the browser's back, the bar) unmounts the screen, and its state went with
it: the typed hands were thrown away without a question. The session now keeps each entry that
has something in it, by game and deal, until it is saved or dropped on purpose (the conflict's
``Keep theirs``); opening that entry again goes on from it, reading the game afresh (another
phone's save of the same deal meanwhile shows as it does while the entry is open, and ``Save
deal`` then shows both).

>>> from scorer.league.store import Store
>>> store = Store.memory()
>>> game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
>>> drafts = DealDrafts()
>>> entry = drafts.open(store, game_id, number=None)
>>> entry.set_out("Anna"); entry.set_cards("Bea", "KS")
>>> drafts.open(store, game_id, number=None) is entry  # back again: the same entry
True
>>> drafts.drop(game_id, None)
>>> drafts.open(store, game_id, number=None).cards
{}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import flet as ft

if TYPE_CHECKING:  # the deal screen's model is imported with the deal screen (scorer/web/startup.py)
    from scorer.league.store import Store
    from scorer.ui.screens.deal_model import DealModel

DraftKey = tuple[str, int | None]


class DealDrafts:
    """One session's entries, by (game id, deal number; ``None``: the next deal)."""

    def __init__(self) -> None:
        self._entries: dict[DraftKey, DealModel] = {}

    def open(self, store: Store, game_id: str, *, number: int | None) -> DealModel:
        """The entry of ``number`` (``None``: the next deal): the one kept, if anything was entered
        in it, read up to the store; else a new one. Kept from now on, as it is typed."""
        key = (game_id, number)
        kept = self._entries.get(key)
        if kept is not None and kept.drafted:
            kept.reload(store)
            return kept
        from scorer.ui.screens.deal_model import DealModel

        entry = DealModel.load(store, game_id, number)
        self._entries[key] = entry
        return entry

    def drop(self, game_id: str, number: int | None) -> None:
        """The entry was saved, or dropped on purpose: the next one starts empty."""
        self._entries.pop((game_id, number), None)


_NO_DRAFTS: DealDrafts | None = None
DraftsContext: Final = ft.create_context(_NO_DRAFTS)
"""The session's :class:`DealDrafts` (``None`` outside the app: an entry lasts while shown)."""


def use_deal_entry(
    store: Store, game_id: str, *, number: int | None, disputing: bool = False
) -> tuple[DealModel, DealDrafts | None]:
    """The entry Deal entry shows (a hook): the session's kept one, or a new one; a dispute's
    version of a deal is never kept (it starts from the deal as saved each time)."""
    drafts: DealDrafts | None = ft.use_context(DraftsContext)

    from scorer.ui.screens.deal_model import DealModel

    def opened() -> DealModel:
        if drafts is None or disputing:
            return DealModel.load(store, game_id, number, disputing=disputing)
        return drafts.open(store, game_id, number=number)

    state: tuple[DealModel, object] = ft.use_state(opened)
    return state[0], drafts
