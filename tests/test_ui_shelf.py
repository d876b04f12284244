"""The app's game shelf: games kept whole, invalid changes refused, every test on memory and disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.errors import ScorerError
from scorer.ui.shelf import GameShelf, ShelfError


@pytest.fixture(params=["memory", "file"])
def shelf(request: pytest.FixtureRequest, tmp_path: Path) -> GameShelf:
    if request.param == "memory":
        return GameShelf.memory()
    return GameShelf.open(tmp_path / "games.json")


def _deal(out: str, **hands: str) -> dict[str, object]:
    return {"hands": dict(hands), "out": out}


def test_a_started_game_is_kept_with_its_players_and_options(shelf: GameShelf) -> None:
    saved = shelf.start_game(
        ruleset="rommi", players=["Anna", "Bea"], options={"target": 300}, first_dealer=1
    )
    again = shelf.game(saved.id)
    assert again.game.players == ("Anna", "Bea")
    assert again.game.ruleset.target == 300
    assert again.result.next_dealer == "Bea"
    assert not again.finished


def test_deals_are_added_corrected_removed_and_put_back(shelf: GameShelf) -> None:
    saved = shelf.start_game(ruleset="rommi", players=["Anna", "Bea"])
    shelf.add_deal(saved.id, _deal("Anna", Anna="", Bea="KS 5H"))
    shelf.add_deal(saved.id, _deal("Bea", Anna="2C", Bea=""))
    assert shelf.game(saved.id).result.totals == {"Anna": 2, "Bea": 15}
    shelf.replace_deal(saved.id, 0, _deal("Anna", Anna="", Bea="3H"))
    assert shelf.game(saved.id).result.totals == {"Anna": 2, "Bea": 3}
    removed = shelf.game(saved.id).document["deals"][0]
    shelf.remove_deal(saved.id, 0)
    assert shelf.game(saved.id).result.totals == {"Anna": 2, "Bea": 0}
    shelf.insert_deal(saved.id, 0, removed)
    assert shelf.game(saved.id).result.totals == {"Anna": 2, "Bea": 3}


def test_an_invalid_deal_is_refused_and_nothing_is_saved(shelf: GameShelf) -> None:
    saved = shelf.start_game(ruleset="rommi", players=["Anna", "Bea"])
    with pytest.raises(ScorerError, match="Anna went out but still holds"):
        shelf.add_deal(saved.id, _deal("Anna", Anna="KS", Bea="5H"))
    assert shelf.game(saved.id).document.get("deals", []) == []


def test_a_game_with_a_player_named_twice_is_never_started(shelf: GameShelf) -> None:
    with pytest.raises(ScorerError, match="Anna named twice"):
        shelf.start_game(ruleset="rommi", players=["Anna", "Anna"])
    assert shelf.games() == []


def test_an_unknown_game_or_deal_is_named(shelf: GameShelf) -> None:
    with pytest.raises(ShelfError, match="no game 'nope'"):
        shelf.game("nope")
    saved = shelf.start_game(ruleset="gin", players=["Anna", "Bea"])
    with pytest.raises(ShelfError, match="deal 3: there is no such deal"):
        shelf.remove_deal(saved.id, 2)


def test_games_list_the_most_recently_changed_first_and_filter_finished(shelf: GameShelf) -> None:
    first = shelf.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 10})
    second = shelf.start_game(ruleset="rommi", players=["Cid", "Dan"])
    shelf.add_deal(first.id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 30}})
    assert [g.id for g in shelf.games()] == [first.id, second.id]
    assert [g.id for g in shelf.games(finished=True)] == [first.id]
    assert [g.id for g in shelf.games(finished=False)] == [second.id]


def test_a_game_survives_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    saved = GameShelf.open(path).start_game(ruleset="rommi", players=["Anna", "Bea"])
    GameShelf.open(path).add_deal(saved.id, _deal("Anna", Anna="", Bea="KS"))
    assert GameShelf.open(path).game(saved.id).result.totals == {"Anna": 0, "Bea": 10}
    assert not list(tmp_path.glob("*.tmp"))


def test_a_broken_data_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(ShelfError, match="is not JSON"):
        GameShelf.open(path)
