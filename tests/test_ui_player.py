"""The Player screen's view-model: figures per variant, rating history, games, rivals, the record."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from scorer.league.store import Store
from scorer.ui.screens.player import rating_chart
from scorer.ui.screens.player_model import EVERY_LEAGUE, PlayerModel

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}


def gin(store: Store, deal: Mapping[str, object], *, league: str | None = "Club") -> str:
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league=league)
    return store.add_deal(game.id, deal).id


def rommi(store: Store, *, players: tuple[str, str] = ("Anna", "Cid")) -> str:
    game = store.start_game(ruleset="rommi", players=list(players), options={"target": 30}, league="Club")
    first, second = players
    return store.add_deal(game.id, {"hands": {first: "", second: "KS AH *"}, "out": first}).id


@pytest.fixture()
def store() -> Store:
    store = Store.memory()
    store.create_league("Club")
    store.create_league("Family")
    return store


def anna(store: Store) -> PlayerModel:
    return PlayerModel.load(store, store.player("Anna").id)


def test_stats_per_variant_with_the_variants_events(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    rommi(store)
    model = anna(store)
    lines = model.variants()
    assert [(line.variant, line.games, line.wins) for line in lines] == [
        ("", 3, 2),
        ("gin rummy", 2, 1),
        ("rommi", 1, 1),
    ]
    # Every variant together: gin's and rommi's points are not added; ratings are per variant.
    assert (lines[0].points, lines[0].average, lines[0].best_deal, lines[0].rating) == (None, None, None, "–")
    assert all(line.points is not None and line.rating != "–" for line in lines[1:])
    gin_line = lines[1]
    assert gin_line.win_rate == "50%"
    assert gin_line.events == {"big_gin": 1, "box": 1, "game": 1, "shutout": 1}
    assert "big_gin" not in lines[2].events  # rommi has no gins


def test_rating_history_has_one_point_per_game_of_the_variant(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    rommi(store)
    model = anna(store)
    assert model.variant == "gin"  # the variant played most
    history = model.rating_history()
    assert len(history) == 3
    assert history[1] > history[0]  # a second win raises the rating
    assert history[2] < history[1]  # a loss lowers it
    assert model.rating_now().endswith("?")
    model.choose_variant("rommi")
    assert len(model.rating_history()) == 1
    model.choose_variant("kalooki")  # never played: the choice stays
    assert model.variant == "rommi"


def test_recent_games_newest_first_with_rank_and_unfinished_ones(store: Store) -> None:
    first = gin(store, ANNA_BIG_GIN)
    second = gin(store, BEA_GIN)
    open_game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club").id
    recent = anna(store).recent()
    assert [g.id for g in recent] == [open_game, second, first]
    assert (recent[0].rank, recent[1].rank, recent[2].rank) == (None, 2, 1)
    assert recent[2].won and not recent[1].won


def test_head_to_head_wins_each_per_variant(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    rommi(store, players=("Bea", "Anna"))
    model = anna(store)
    assert [name for _, name in model.opponents()] == ["Bea"]
    assert model.rivalry() is None
    model.choose_rival(store.player("Bea").id)
    rivalry = model.rivalry()
    assert rivalry is not None
    assert (rivalry.other, rivalry.games, rivalry.wins, rivalry.losses) == ("Bea", 4, 2, 2)
    assert rivalry.by_variant == (("gin rummy", 3, 2, 1), ("rommi", 1, 0, 1))


def test_league_filter_counts_only_that_leagues_games(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN, league="Family")
    model = anna(store)
    assert model.variants()[0].games == 2
    assert [name for _, name in model.leagues()] == ["Club", "Family"]
    model.choose_league(store.league("Family").id)
    assert (model.variants()[0].games, model.variants()[0].wins) == (1, 0)
    model.choose_league("no such league")
    assert model.league == EVERY_LEAGUE


def test_rename_keeps_the_history(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    model = anna(store)
    assert model.rename("Anna K")
    assert model.name == "Anna K" and model.variants()[0].games == 1
    assert store.player("Anna K").id == model.player.id
    assert not model.rename("Bea")
    assert "already exists" in model.error and model.name == "Anna K"


def test_merge_makes_two_records_one_person(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    other = store.start_game(ruleset="gin", players=["Anne", "Bea"], options=GIN_50, league="Club")
    store.add_deal(other.id, {"knocker": "Anne", "big_gin": True, "deadwood": {"Anne": 0, "Bea": 20}})
    model = anna(store)
    anne = store.player("Anne").id
    assert anne in {key for key, _ in model.merge_candidates()}
    assert store.player("Bea").id not in {key for key, _ in model.merge_candidates()}  # they met at a table
    assert model.merge(anne)
    assert model.notice == "Anne"
    assert (model.variants()[0].games, model.variants()[0].wins) == (2, 2)
    assert store.player(anne).id == model.player.id


def test_merging_two_who_played_each_other_is_refused(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    model = anna(store)
    assert not model.merge(store.player("Bea").id)
    assert "cannot be merged" in model.error


def test_a_player_with_no_finished_game_shows_nothing_yet(store: Store) -> None:
    model = PlayerModel.load(store, store.add_player("Dora").id)
    assert model.variants() == [] and model.rating_history() == [] and model.rating_now() == "–"


@pytest.mark.parametrize(
    "history", [[3.4, 1.4, 4.5, 7.3, 9.7, 7.1, 9.4], [-2.3], [25.0, 25.0], [0.2, 41.7, 13.0]]
)
def test_the_rating_axis_runs_in_round_steps_around_every_rating(history: list[float]) -> None:
    chart = rating_chart(history, label="Rating", language="en").content
    step = chart.left_axis.label_spacing
    assert step == chart.horizontal_grid_lines.interval and step in (1, 2, 5, 10, 20, 50)
    # Whole steps from bottom to top (no label crowding the last), every rating inside.
    assert chart.min_y % step == 0 and chart.max_y % step == 0
    assert chart.min_y < min(history) and max(history) < chart.max_y
    assert (chart.max_y - chart.min_y) / step <= 8


def test_the_rating_variant_picker_names_the_variants_in_the_screens_language(store: Store) -> None:
    import flet as ft

    from scorer.ui.screens.player import _rating

    gin(store, ANNA_BIG_GIN)
    rommi(store)
    semantics = next(c for c in _rating(anna(store), "fi") if isinstance(c, ft.Semantics))
    dropdown = semantics.content
    assert isinstance(dropdown, ft.Dropdown)
    assert [option.text for option in dropdown.options or []] == ["ginirommi", "rommi"]
