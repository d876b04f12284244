"""The Leagues screens' view-models: leagues, standings per scope and variant, seasons, games."""

from __future__ import annotations

from collections.abc import Mapping

import flet as ft
import pytest
from league_evening import kalooki_and_carousel

from scorer.league.store import Store
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.leagues_model import ALL_TIME, OPEN, LeagueModel, LeaguesModel

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}  # Anna 51: game over
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}  # Bea 55: game over


def gin(store: Store, deal: Mapping[str, object], *, players: tuple[str, str] = ("Anna", "Bea")) -> str:
    game = store.start_game(ruleset="gin", players=list(players), options=GIN_50, league="Club")
    return store.add_deal(game.id, deal).id


def rommi(store: Store) -> str:
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], options={"target": 30}, league="Club")
    return store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"}).id


@pytest.fixture()
def store() -> Store:
    store = Store.memory()
    store.create_league("Club")
    return store


def test_leagues_list_names_the_open_season_and_counts_games(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    model = LeaguesModel.load(store)
    assert [(line.name, line.season, line.games) for line in model.leagues] == [("Club", "Season 1", 1)]


def test_every_player_is_listed_with_finished_games_and_wins_the_regulars_first(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    gin(store, {"knocker": "Bea", "deadwood": {"Bea": 0, "Cid": 30}}, players=("Bea", "Cid"))
    store.start_game(ruleset="gin", players=["Cid", "Dan"], options=GIN_50, league="Club")  # not over
    store.add_player("Eve")
    model = LeaguesModel.load(store)
    assert [(p.name, p.games, p.wins) for p in model.players] == [
        ("Bea", 3, 2),
        ("Anna", 2, 1),
        ("Cid", 1, 0),
        ("Dan", 0, 0),
        ("Eve", 0, 0),
    ]
    # Each opens the player's own screen.
    assert {p.id for p in model.players} == {p.id for p in store.players()}


def test_create_league_adds_it_and_a_taken_name_is_refused_in_words(store: Store) -> None:
    model = LeaguesModel.load(store)
    league_id = model.create("Family", season="Summer")
    assert league_id is not None and model.error == ""
    assert [(line.name, line.season) for line in model.leagues] == [
        ("Club", "Season 1"),
        ("Family", "Summer"),
    ]
    assert model.create(" club ") is None
    assert "already exists" in model.error
    assert len(model.leagues) == 2


def test_standings_have_the_cli_columns_plus_win_rate_and_average(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    lines = LeagueModel.load(store, "Club").standings()
    assert [(line.rank, line.name, line.games, line.wins) for line in lines] == [
        (1, "Anna", 3, 2),
        (2, "Bea", 3, 1),
    ]
    anna = lines[0]
    rows = {r.player: r for r in store.standings("Club")}
    row = rows[anna.player_id]
    assert (anna.deals, anna.deals_won, anna.points) == (row.deals, row.deals_won, row.points)
    assert anna.win_rate == "67%"
    assert anna.average == f"{row.points / row.deals:.1f}"
    assert anna.rating.endswith("?")  # fewer than five rated games: provisional
    assert anna.events.get("big_gin") == 2


def test_event_columns_are_the_events_shown_players_have(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    [table] = LeagueModel.load(store, "Club").tables()
    assert set(table.event_columns()) >= {"big_gin", "gin"}
    assert "kalooki" not in table.event_columns()


def test_one_variant_is_one_table_with_its_points_in_its_direction(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    gin(store, BEA_GIN)
    model = LeagueModel.load(store, "Club")
    [table] = model.tables()  # every variant together, and only gin was played: gin's table
    assert (table.ruleset, table.variant, table.lowest_wins) == ("gin", "gin rummy", False)
    assert not table.across_variants
    assert [line.points for line in table.lines] == [line.points for line in model.standings()]
    assert all(line.points is not None and line.average is not None for line in table.lines)


def test_every_variant_together_shares_no_points_and_each_variant_has_its_own_table(store: Store) -> None:
    # Added up, Cid's 250 Kalooki penalty points would count as Carousel's reward points do
    # and put the worst Kalooki player first.
    kalooki_and_carousel(store)
    model = LeagueModel.load(store, "Club")
    together, carousel, kalooki = model.tables()
    assert together.across_variants and together.lowest_wins is None
    assert [(line.name, line.wins, line.deals_won) for line in together.lines] == [
        ("Anna", 1, 2),
        ("Cid", 1, 1),
        ("Bea", 0, 0),
    ]
    assert {(line.points, line.average, line.best_deal) for line in together.lines} == {(None, None, None)}
    assert (kalooki.variant, kalooki.lowest_wins) == ("Kalooki", True)
    assert [(line.rank, line.name, line.points) for line in kalooki.lines] == [
        (1, "Anna", 0),
        (2, "Bea", 60),
        (3, "Cid", 250),
    ]
    assert (carousel.variant, carousel.lowest_wins) == ("Carousel", False)
    assert carousel.lines[0].name == "Cid" and carousel.lines[0].points == 275
    assert all(line.rating != "–" for line in kalooki.lines + carousel.lines)
    # The app and the command line agree: the same rows, in the same order.
    rows = store.standings_by_ruleset("Club")
    assert [line.player_id for line in kalooki.lines] == [r.player for r in rows["kalooki"]]
    model.choose_variant("kalooki")
    assert model.tables() == [kalooki]


def test_variant_filter_shows_one_variants_games(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    rommi(store)
    rommi(store)
    model = LeagueModel.load(store, "Club")
    assert [ruleset for ruleset, _ in model.variants()] == ["gin", "rommi"]
    assert {line.games for line in model.standings()} == {3}
    model.choose_variant("rommi")
    assert {line.games for line in model.standings()} == {2}
    model.choose_variant("gin")
    assert {line.games for line in model.standings()} == {1}
    model.choose_variant(None)
    assert {line.games for line in model.standings()} == {3}


def test_a_closed_season_stays_as_it_was_and_all_time_adds_the_new_one(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    model = LeagueModel.load(store, "Club")
    assert model.new_season("Spring")
    assert model.scope == OPEN and model.notice == "Spring"
    assert model.standings() == []  # the new season has no game yet
    gin(store, BEA_GIN)
    gin(store, BEA_GIN)
    model.reload()
    assert [(line.name, line.wins) for line in model.standings()] == [("Bea", 2), ("Anna", 0)]
    old = next(key for key, name in model.scopes() if name == "Season 1")
    model.choose_scope(old)
    assert [(line.name, line.wins) for line in model.standings()] == [("Anna", 1), ("Bea", 0)]
    model.choose_scope(ALL_TIME)
    assert [(line.name, line.wins, line.games) for line in model.standings()] == [
        ("Bea", 2, 3),
        ("Anna", 1, 3),
    ]


def test_close_season_freezes_it_and_shows_it(store: Store) -> None:
    gin(store, ANNA_BIG_GIN)
    model = LeagueModel.load(store, "Club")
    assert model.close_season()
    assert model.league.season is None
    assert [line.name for line in model.standings()] == ["Anna", "Bea"]  # the closed season is shown
    assert not model.close_season()
    assert model.error  # no open season to close: said in words
    model.choose_scope(OPEN)
    assert model.standings() == []


def test_a_season_name_used_twice_is_refused(store: Store) -> None:
    model = LeagueModel.load(store, "Club")
    assert not model.new_season("season 1")
    assert "already has a season" in model.error


def test_history_lists_finished_games_newest_first_and_correcting_one_recomputes(store: Store) -> None:
    first = gin(store, ANNA_BIG_GIN)
    second = gin(store, BEA_GIN)
    store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")  # unfinished
    model = LeagueModel.load(store, "Club")
    history = model.history()
    assert [line.id for line in history] == [second, first]
    assert history[0].winner == "Bea" and history[0].variant == "gin rummy"
    assert model.in_progress() == 1
    # Correcting the first game from its scoreboard: Bea wins it, and the standings follow.
    store.replace_deal(first, 0, BEA_GIN)
    model.reload()
    assert [(line.name, line.wins) for line in model.standings()] == [("Bea", 2), ("Anna", 0)]


def test_unknown_league_is_the_stores_error_naming_it(store: Store) -> None:
    with pytest.raises(ValueError, match="Nowhere"):
        LeagueModel.load(store, "Nowhere")


def test_each_variants_table_is_titled_in_the_screens_language(store: Store) -> None:
    from scorer.ui.screens.leagues import standings_tables

    kalooki_and_carousel(store)
    model = LeagueModel.load(store, "Club")

    def titles(language: Language) -> list[str]:
        shown = standings_tables(model, language)
        return [c.value for c in shown if isinstance(c, ft.Text) and c.weight == ft.FontWeight.W_600]

    assert titles("fi") == [tr("leagues.every_variant", "fi"), "Karuselli", "Kalooki"]
    assert titles("en") == [tr("leagues.every_variant", "en"), "Carousel", "Kalooki"]
