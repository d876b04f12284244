"""The standings a store keeps between reads (scorer/league/store.py ``_league_games``,
scorer/league/state.py ``played_since``): after each change, only the games it put are read
again, and the standings, ratings and played games are those of a store that reads every game
afresh, on each kind of store: a deal that finishes a game, a new game, a deal removed, a game
abandoned, resumed, deleted, restored, moved to another league, players merged, and a refusal
rolled back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import reopen

from scorer.errors import ScorerError
from scorer.league.standings import standings
from scorer.league.state import State
from scorer.league.store import Store

GIN_50 = {"target": 50}


def _fresh(store: Store, league: str) -> tuple[Any, Any, Any]:
    """The league's standings, ratings and played games as a store that has kept nothing
    reads them (the state's own :meth:`played`, rated from the first game)."""
    from scorer.league.ratings import rate

    games = store.played_games(league)
    ratings = rate([g for g in games if g.summary.finished])
    return standings(games, ratings=ratings), ratings, games


def _alike(store: Store, league: str) -> None:
    rows, ratings, games = _fresh(store, league)
    assert store.standings(league) == rows
    assert store.ratings(league) == ratings
    assert store._games(store._ledger.state, league, season=None) == games


def _gin(store: Store, players: list[str], *, league: str = "Club", knocker: int = 0) -> str:
    game = store.start_game(ruleset="gin", players=players, options=GIN_50, league=league)
    a, b = players[knocker], players[1 - knocker]
    store.add_deal(game.id, {"knocker": a, "deadwood": {a: 0, b: 60}})  # ends it: 50 reached
    return game.id


def test_each_change_reads_again_only_its_games_with_the_same_answers(
    store_of_each_kind: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone_on: list[bool] = []
    since = State.played_since

    def spy(self: State, *args: Any, **kwargs: Any) -> Any:
        found = since(self, *args, **kwargs)
        gone_on.append(found is not None)
        return found

    monkeypatch.setattr(State, "played_since", spy)
    store = store_of_each_kind
    store.create_league("Club")
    store.create_league("Other")
    games = [_gin(store, ["Anna", "Bea"], knocker=n % 2) for n in range(4)]
    games.append(_gin(store, ["Cleo", "Dan"]))
    games.append(_gin(store, ["Fay", "Bea"]))
    _alike(store, "Club")
    open_game = store.start_game(ruleset="gin", players=["Anna", "Cleo"], options=GIN_50, league="Club").id
    steps: list[Callable[[], object]] = [
        lambda: store.add_deal(open_game, {"knocker": "Anna", "deadwood": {"Anna": 2, "Cleo": 30}}),
        lambda: store.add_deal(open_game, {"knocker": "Cleo", "deadwood": {"Anna": 40, "Cleo": 0}}),
        lambda: store.remove_deal(open_game, 1),
        lambda: _gin(store, ["Bea", "Dan"]),
        lambda: store.abandon_game(games[1]),
        lambda: store.resume_game(games[1]),
        lambda: store.delete_game(games[2]),
        lambda: store.undelete_game(games[2]),
        lambda: store.move_game(games[3], league="Other"),
        lambda: store.merge_players("Dan", "Fay"),
        lambda: _gin(store, ["Anna", "Eve"], league="Other"),
    ]
    for step in steps:
        gone_on.clear()
        step()
        _alike(store, "Club")
        _alike(store, "Other")
        assert gone_on and all(gone_on)  # went on from the games read before
    with pytest.raises(ScorerError):  # refused inside its write: the state rolled back
        store.add_deal(games[0], {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 9}})
    _alike(store, "Club")
    again = reopen(store)
    try:
        assert again.standings("Club") == store.standings("Club")
        assert again.standings("Other") == store.standings("Other")
    finally:
        if again is not store:
            again.close()


def test_the_ratings_of_a_league_go_on_without_sorting_its_games_again(
    store_of_each_kind: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's list of a league's games is in the order played already: the ratings go on
    from it as it is (at 100,000 games, sorting it again was most of the standings asked right
    after a deal), and give what rating every game from the first gives."""
    from scorer.league import ratings as ratings_module

    store = store_of_each_kind
    store.create_league("Club")
    for n in range(5):
        _gin(store, ["Anna", "Bea"], knocker=n % 2)
    store.ratings("Club")
    sorted_games: list[int] = []
    real = ratings_module.played_order
    monkeypatch.setattr(ratings_module, "played_order", lambda g: sorted_games.append(1) or real(g))
    _gin(store, ["Cleo", "Bea"])
    went_on = store.ratings("Club")
    assert sorted_games == []
    monkeypatch.undo()
    assert went_on == _fresh(store, "Club")[1]
