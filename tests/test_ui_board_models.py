"""The Scoreboard and Home view-models: totals, Hollywood's columns, the end, corrections with undo."""

from __future__ import annotations

from pathlib import Path

from scorer.league.store import Store
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.home_model import HomeModel
from scorer.ui.screens.scoreboard_model import ScoreboardModel

PLAYERS = ["Anna", "Bea", "Cid", "Dan"]


def _rommi(store: Store) -> str:
    game_id = store.start_game(ruleset="rommi", players=PLAYERS).id
    store.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS", "Cid": "2C", "Dan": "5H"}, "out": "Anna"})
    store.add_deal(game_id, {"points": {"Anna": 7, "Bea": 0, "Cid": 30, "Dan": 3}, "out": "Bea"})
    store.add_deal(game_id, {"points": {"Anna": 1, "Bea": 2, "Cid": 0, "Dan": 4}, "out": "Cid"})
    return game_id


def test_rows_carry_each_deals_scores_and_running_totals_in_seat_order() -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _rommi(store))
    rows = board.rows()
    assert [r.scores for r in rows] == [(0, 10, 2, 5), (7, 0, 30, 3), (1, 2, 0, 4)]
    assert rows[-1].running == (8, 12, 32, 12)
    assert [r.dealer for r in rows] == PLAYERS[:3]
    assert board.total_labels() == ["Anna: 8", "Bea: 12", "Cid: 32", "Dan: 12"]
    assert board.next_dealer == "Dan"
    assert board.cards_to_deal == 7
    assert board.chart()["Cid"] == [0, 2, 32, 32]


def test_removing_a_deal_recomputes_and_undo_puts_it_back() -> None:
    store = Store.memory()
    game_id = _rommi(store)
    board = ScoreboardModel.load(store, game_id)
    board.remove(store, 2)
    assert board.total_labels() == ["Anna: 1", "Bea: 12", "Cid: 2", "Dan: 9"]
    assert ScoreboardModel.load(store, game_id).total_labels() == board.total_labels()
    board.undo(store)
    assert board.total_labels() == ["Anna: 8", "Bea: 12", "Cid: 32", "Dan: 12"]
    assert board.removed is None


def test_removing_a_deal_that_is_not_there_is_named() -> None:
    store = Store.memory()
    board = ScoreboardModel.load(store, _rommi(store))
    board.remove(store, 9)
    assert board.error == "deal 9: there is no such deal (the game has 3)"


def test_hollywood_shows_three_games_side_by_side() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="hollywood-gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 20}})
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 15}})
    board = ScoreboardModel.load(store, game_id)
    columns = board.columns()
    assert [c.number for c in columns] == [1, 2, 3]
    assert columns[0].totals == (45 + 10, 0)
    assert columns[1].totals == (10, 0)
    assert columns[2].totals == (0, 0)
    assert [r.columns for r in board.rows()] == [(1,), (1, 2)]


def test_a_finished_game_shows_its_bonuses_and_winner() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 90}})
    board = ScoreboardModel.load(store, game_id)
    assert board.finished and board.winner == "Anna"
    assert ("Anna", "game", 100) in board.bonuses()
    assert ("Anna", "boxes", 25) in board.bonuses()
    assert "Anna" in board.share_text("en") and "Anna" in board.share_text("fi")


def test_home_lists_games_in_progress_and_finished() -> None:
    store = Store.memory()
    _rommi(store)
    done = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    store.add_deal(done, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 90}})
    home = HomeModel.load(store)
    assert [(g.variant, g.deals) for g in home.in_progress] == [("Rommi", 3)]
    assert [(g.id, g.winner) for g in home.finished] == [(done, "Anna")]
    assert home.in_progress[0].totals == "Anna: 8, Bea: 12, Cid: 32, Dan: 12"


def test_a_game_in_progress_survives_closing_and_reopening_the_store(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    model = DealModel.load(store, game_id)
    model.set_out("Anna")
    model.set_cards("Bea", "KS 9H")
    assert model.save(store)
    again = Store.open(tmp_path / "league")
    assert ScoreboardModel.load(again, game_id).total_labels() == ["Anna: 0", "Bea: 19"]
    assert [line.id for line in HomeModel.load(again).in_progress] == [game_id]


def test_undo_of_the_first_deal_puts_it_back_before_the_others() -> None:
    store = Store.memory()
    game_id = _rommi(store)
    board = ScoreboardModel.load(store, game_id)
    before = board.saved.document["deals"]
    board.remove(store, 1)
    board.undo(store)
    assert board.saved.document["deals"] == before
    assert store.game(game_id).document["deals"] == before


def test_undo_is_refused_when_the_removed_deal_no_longer_fits_and_nothing_changes() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 40}})
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 30}})
    board = ScoreboardModel.load(store, game_id)
    board.remove(store, 1)
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 50}})  # ends the game
    board = ScoreboardModel(saved=store.game(game_id), removed=board.removed)
    before = store.game(game_id).document["deals"]
    board.undo(store)  # deal 1 back would put a deal after the game's end
    assert board.undo_refused
    assert store.game(game_id).document["deals"] == before


def test_two_phones_recording_into_one_game_lose_nothing_and_each_sees_the_other(tmp_path: Path) -> None:
    # Two sessions (or two app processes) on one store: both open the deal entry at once. The
    # second save is refused (never appended twice); saved as the next deal, both are kept.
    first, second = Store.open(tmp_path / "league"), Store.open(tmp_path / "league")
    game_id = first.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    phone_a, phone_b = DealModel.load(first, game_id), DealModel.load(second, game_id)
    phone_a.set_out("Anna")
    phone_a.set_cards("Bea", "KS 9H")
    phone_b.set_out("Bea")
    phone_b.set_cards("Anna", "5C")
    assert phone_a.save(first)
    assert not phone_b.save(second)
    assert phone_b.conflict is not None and phone_b.conflict.number == 1
    assert phone_b.save_as_next(second)
    # Each phone's next screen reads the store: both deals, in the order they were saved.
    for store in (first, second):
        board = ScoreboardModel.load(store, game_id)
        assert board.total_labels() == ["Anna: 5", "Bea: 19"]
        assert len(store.game(game_id).game.deals) == 2
