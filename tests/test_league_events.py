"""Signed changes and conflicts: every change to a game is an event, and a deal that another
device saved, corrected or removed first is never written over or appended twice.

Every test runs against a store in memory and a store in a folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.league.errors import ConflictError, GameStatusError, SeasonClosedError, StoreInputError
from scorer.league.store import Store

ANNA_KNOCKS = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}}  # Anna scores 25
BEA_KNOCKS = {"knocker": "Bea", "deadwood": {"Bea": 4, "Anna": 20}}  # Bea scores 16


@pytest.fixture(params=["memory", "files"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "memory":
        yield Store.memory()
    else:
        yield Store.open(tmp_path / "league")


def reopen(store: Store) -> Store:
    return Store.open(store.location) if store.location is not None else store


def gin(store: Store, **kwargs: object) -> str:
    """A gin game to 20: one knock of these ends it."""
    return store.start_game(  # type: ignore[misc]
        ruleset="gin", players=["Anna", "Bea"], options={"target": 20}, **kwargs
    ).id


def test_every_change_is_an_event_with_who_when_and_why(store: Store) -> None:
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"], by="Anna").id
    store.add_deal(game_id, ANNA_KNOCKS, by="Anna", number=1)
    store.add_deal(game_id, BEA_KNOCKS, by="Bea", number=2)
    store.replace_deal(game_id, 0, BEA_KNOCKS, by="Bea", why="  miscounted the jokers ")
    store.remove_deal(game_id, 1, by="Cai")
    store.put_back_deal(game_id, 1, BEA_KNOCKS, by="Cai")
    events = reopen(store).events(game_id)
    assert [(e.seq, e.action, e.by, e.deal, e.why) for e in events] == [
        (1, "started", "Anna", None, None),
        (2, "recorded", "Anna", 1, None),
        (3, "recorded", "Bea", 2, None),
        (4, "corrected", "Bea", 1, "miscounted the jokers"),
        (5, "removed", "Cai", 2, None),
        (6, "restored", "Cai", 2, None),
    ]
    assert all(e.at.endswith("+00:00") for e in events)
    assert [e.at for e in events] == sorted(e.at for e in events)
    assert reopen(store).game(game_id).events == tuple(events)


def test_a_change_that_ends_the_game_also_signs_its_finish(store: Store) -> None:
    game_id = gin(store)
    store.add_deal(game_id, ANNA_KNOCKS, by="Bea")
    assert [e.action for e in store.events(game_id)] == ["started", "recorded", "finished"]
    assert store.events(game_id)[-1].by == "Bea"


def test_the_same_deal_saved_on_two_phones_is_recorded_once(store: Store) -> None:
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, ANNA_KNOCKS, by="Bea", number=1)
    with pytest.raises(ConflictError, match="deal 1 was recorded meanwhile by Bea at ") as caught:
        store.add_deal(game_id, BEA_KNOCKS, by="Anna", number=1)
    conflict = caught.value
    assert (conflict.game_id, conflict.number) == (game_id, 1)
    assert conflict.theirs is not None and conflict.theirs["knocker"] == "Anna"
    assert conflict.event is not None and (conflict.event.by, conflict.event.action) == ("Bea", "recorded")
    assert isinstance(conflict, ValueError)
    assert len(reopen(store).game(game_id).game.deals) == 1
    # Mine as the next deal: the deal number the phone now sees.
    store.add_deal(game_id, BEA_KNOCKS, by="Anna", number=2)
    assert len(reopen(store).game(game_id).game.deals) == 2


def test_a_correction_started_from_an_older_deal_is_refused(store: Store) -> None:
    game_id = gin(store)
    store.add_deal(game_id, ANNA_KNOCKS)
    seen = dict(store.game(game_id).document["deals"][0])
    store.replace_deal(game_id, 0, BEA_KNOCKS, by="Bea", why="wrong knocker", expected=seen)
    with pytest.raises(ConflictError, match="deal 1 was changed meanwhile by Bea") as caught:
        store.replace_deal(game_id, 0, ANNA_KNOCKS, by="Anna", expected=seen)
    assert caught.value.theirs is not None and caught.value.theirs["knocker"] == "Bea"
    assert caught.value.event is not None and caught.value.event.why == "wrong knocker"
    with pytest.raises(ConflictError):
        store.remove_deal(game_id, 0, expected=seen)
    assert reopen(store).game(game_id).document["deals"][0]["knocker"] == "Bea"
    # Replace theirs: a correction that starts from theirs.
    store.replace_deal(game_id, 0, ANNA_KNOCKS, by="Anna", expected=caught.value.theirs)
    assert reopen(store).game(game_id).document["deals"][0]["knocker"] == "Anna"


@pytest.mark.parametrize("number", [0, -1])
def test_a_deal_number_below_1_is_no_deal_number_not_a_conflict(store: Store, number: int) -> None:
    """Issue 24, 12: ``number=0`` was reported as "deal 0 was recorded meanwhile"."""
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    for _ in range(2):  # on a new game, and on one with a deal
        with pytest.raises(StoreInputError) as caught:
            store.add_deal(game_id, ANNA_KNOCKS, by="Anna", number=number)
        assert not isinstance(caught.value, ConflictError)
        assert caught.value.message.code == "store.not_a_deal_number"
        assert str(caught.value) == f"{number} is not a deal number: a game's deals are numbered from 1"
        store.add_deal(game_id, ANNA_KNOCKS)
    assert len(reopen(store).game(game_id).game.deals) == 2


def test_a_correction_racing_a_removal(store: Store) -> None:
    game_id = gin(store)
    store.add_deal(game_id, ANNA_KNOCKS)
    seen = dict(store.game(game_id).document["deals"][0])
    store.remove_deal(game_id, 0, by="Bea", expected=seen)
    with pytest.raises(ConflictError, match="deal 1 was removed meanwhile by Bea") as caught:
        store.replace_deal(game_id, 0, BEA_KNOCKS, expected=seen)
    assert caught.value.theirs is None
    assert reopen(store).game(game_id).game.deals == ()


def test_abandon_and_resume(store: Store) -> None:
    store.create_league("Club")
    game_id = gin(store, league="Club")
    store.add_deal(game_id, ANNA_KNOCKS)
    store.add_deal(gin(store, league="Club"), BEA_KNOCKS)
    before = store.standings("Club")
    store.abandon_game(game_id, by="Anna", why="pizza arrived")
    assert [g.status for g in reopen(store).games()] == ["abandoned", "active"]
    assert reopen(store).standings("Club") != before
    with pytest.raises(GameStatusError, match="abandoned: resume it"):
        store.add_deal(game_id, ANNA_KNOCKS)
    store.resume_game(game_id, by="Anna")
    assert reopen(store).standings("Club") == before
    with pytest.raises(GameStatusError, match="not abandoned"):
        store.resume_game(game_id)


def test_a_deleted_abandoned_game_comes_back_abandoned(store: Store) -> None:
    game_id = gin(store)
    store.abandon_game(game_id)
    store.delete_game(game_id)
    with pytest.raises(GameStatusError, match="deleted already"):
        store.delete_game(game_id)
    assert store.undelete_game(game_id).status == "abandoned"
    with pytest.raises(GameStatusError, match="not deleted"):
        store.undelete_game(game_id)


def test_a_game_with_no_league_moves_into_one_and_counts_there(store: Store) -> None:
    store.create_league("Club")
    game_id = gin(store)
    store.add_deal(game_id, ANNA_KNOCKS)
    assert store.standings("Club") == []
    moved = store.move_game(game_id, league="club", by="Anna")
    league = store.league("Club")
    assert moved.league_id == league.id and moved.season_id == league.seasons[0].id
    rows = reopen(store).standings("Club")
    assert {r.player for r in rows} == {store.player("Anna").id, store.player("Bea").id}
    assert reopen(store).events(game_id)[-1].action == "moved"
    with pytest.raises(StoreInputError, match="already"):
        store.move_game(game_id, league="Club")


def test_no_game_moves_into_a_closed_season(store: Store) -> None:
    store.create_league("Club")
    store.close_season("Club")
    with pytest.raises(SeasonClosedError):
        store.move_game(gin(store), league="Club", season="Season 1")


def test_put_back_a_deal_only_where_the_game_has_room(store: Store) -> None:
    game_id = gin(store)
    with pytest.raises(StoreInputError, match="deal 3: the game has 0 deals"):
        store.put_back_deal(game_id, 2, ANNA_KNOCKS)


def test_a_signature_is_trimmed_and_bounded(store: Store) -> None:
    game_id = gin(store, by="  Bea  ")
    assert store.events(game_id)[0].by == "Bea"
    with pytest.raises(StoreInputError, match="too long"):
        store.add_deal(game_id, ANNA_KNOCKS, by="x" * 101)
    assert store.game(game_id).game.deals == ()


def test_an_export_brings_each_games_signed_changes_and_status(store: Store, tmp_path: Path) -> None:
    store.create_league("Club")
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", by="Anna").id
    store.add_deal(game_id, ANNA_KNOCKS, by="Bea")
    store.abandon_game(game_id, by="Anna", why="late")
    export = tmp_path / "club.json"
    export.write_text(json.dumps(store.export_league("Club")))
    other = Store.open(tmp_path / "other")
    other.create_league("Club")
    other.import_files("Club", [export], by="Cai")
    copy = other.game(game_id)
    assert copy.status == "abandoned"
    assert [(e.action, e.by) for e in copy.events] == [
        ("started", "Anna"),
        ("recorded", "Bea"),
        ("abandoned", "Anna"),
        ("imported", "Cai"),
    ]
    assert [e.seq for e in copy.events] == [1, 2, 3, 4]
