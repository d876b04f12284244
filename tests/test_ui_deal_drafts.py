"""The session's deals being entered, without a browser (issue 24, item 4): leaving Deal entry
keeps what was typed until it is saved, as a reload does.

Over one in-memory store (two sessions of one process) and two stores on one folder (two app
processes): each phone's entry is its own, and another phone's save meanwhile is never
overwritten by a kept entry (Save deal shows both, as it does while the entry is open).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorer.league.store import Store
from scorer.ui.screens.deal_drafts import DealDrafts

Phones = Callable[[], tuple[Store, Store]]

ANNA_OUT = {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"}  # Bea 10


@pytest.fixture(params=["memory", "folder"])
def phones(request: pytest.FixtureRequest, tmp_path: Path) -> Phones:
    if request.param == "memory":
        store = Store.memory()
        return lambda: (store, store)
    return lambda: (Store.open(tmp_path / "league"), Store.open(tmp_path / "league"))


def rommi(store: Store) -> str:
    return store.start_game(ruleset="rommi", players=["Anna", "Bea"], by="Cid").id


def test_an_entry_left_half_typed_is_there_again_and_saves(phones: Phones) -> None:
    store, _ = phones()
    game_id = rommi(store)
    drafts = DealDrafts()
    entry = drafts.open(store, game_id, number=None)
    entry.set_out("Anna")
    entry.set_cards("Bea", "KS 5H")
    again = drafts.open(store, game_id, number=None)  # Back, then Record deal
    assert again is entry
    assert (again.out, again.cards, again.hand_value("Bea")) == ("Anna", {"Bea": "KS 5H"}, 15)
    assert again.save(store)
    drafts.drop(game_id, None)
    after = drafts.open(store, game_id, number=None)
    assert (after.deal_number, after.cards, after.out) == (2, {}, "")


def test_an_entry_with_nothing_in_it_is_not_kept(phones: Phones) -> None:
    mine, theirs = phones()
    game_id = rommi(mine)
    drafts = DealDrafts()
    opened = drafts.open(mine, game_id, number=None)
    assert not opened.drafted
    opened.set_entry("cards")  # what it was: nothing entered
    theirs.add_deal(game_id, ANNA_OUT, by="Bea")  # another phone saves deal 1 meanwhile
    fresh = drafts.open(mine, game_id, number=None)
    assert fresh is not opened and fresh.deal_number == 2 and fresh.meanwhile() is None


def test_a_kept_entry_whose_deal_another_phone_saved_asks_before_dropping(phones: Phones) -> None:
    mine, theirs = phones()
    game_id = rommi(mine)
    drafts = DealDrafts()
    entry = drafts.open(mine, game_id, number=None)
    entry.set_out("Bea")
    entry.set_cards("Anna", "5C")
    theirs.add_deal(game_id, ANNA_OUT, by="Bea")
    kept = drafts.open(mine, game_id, number=None)  # read up to the store as it opens
    assert kept is entry and kept.deal_number == 1
    event = kept.meanwhile()
    assert event is not None and event.by == "Bea"
    assert not kept.save(mine)  # nothing written over theirs: both are shown
    assert kept.conflict is not None
    assert len(mine.game(game_id).game.deals) == 1
    assert drafts.open(mine, game_id, number=None) is kept  # the question stays until answered
    kept.keep_theirs()
    drafts.drop(game_id, None)
    assert drafts.open(mine, game_id, number=None).deal_number == 2


def test_a_correction_is_kept_apart_from_the_next_deal(phones: Phones) -> None:
    store, _ = phones()
    game_id = rommi(store)
    store.add_deal(game_id, ANNA_OUT, by="Cid")
    drafts = DealDrafts()
    correction = drafts.open(store, game_id, number=1)
    assert not correction.drafted  # the deal as saved: nothing changed yet
    correction.set_cards("Bea", "KS QS")
    correction.set_why("two kings")
    following = drafts.open(store, game_id, number=None)
    following.set_out("Bea")
    assert drafts.open(store, game_id, number=1) is correction
    assert drafts.open(store, game_id, number=None) is following
    assert correction.save(store)
    drafts.drop(game_id, 1)
    assert drafts.open(store, game_id, number=1).cards == {"Anna": "", "Bea": "K♠ Q♠"}
    assert drafts.open(store, game_id, number=None) is following


def test_each_session_keeps_its_own(phones: Phones) -> None:
    mine, theirs = phones()
    game_id = rommi(mine)
    my_drafts, their_drafts = DealDrafts(), DealDrafts()
    my_drafts.open(mine, game_id, number=None).set_cards("Bea", "KS")
    assert their_drafts.open(theirs, game_id, number=None).cards == {}
