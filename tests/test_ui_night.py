"""The club night screens' view-models (scorer/ui/screens/night_model.py), the nights in the
league's and a player's models, and the store's read-only night queries they use."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_league_night import NINE, finish
from test_ui_scoreboard_night import DEADLINE, START, Clock

from scorer.league.errors import StoreInputError
from scorer.league.night import NightRound, NightTable, start_text
from scorer.league.store import Store
from scorer.league.tiebreaks import CRITERIA
from scorer.messages import Message, render
from scorer.seating import Evenness
from scorer.ui.engine_text import engine_text
from scorer.ui.screens.leagues_model import LeagueModel
from scorer.ui.screens.night_model import NightModel, NightStartModel, evenness_text, tiebreak_text
from scorer.ui.screens.player_model import PlayerModel
from scorer.ui.serving import table_link


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    store = Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")
    store.create_league("Club")
    yield store


def started(store: Store, players: list[str] = NINE) -> NightModel:
    """A night of rommi to 30 started through the start screen's model."""
    start = NightStartModel.load(store, "Club")
    for name in players:
        start.add_name(name)
    start.game.set_rule("target", "30")
    night_id = start.start()
    assert night_id is not None, start.error
    return NightModel.load(store, night_id)


def test_checking_in_a_known_player_and_adding_a_name_once_whatever_its_case(store: Store) -> None:
    store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    start = NightStartModel.load(store, "Club")
    assert start.known == ["Anna", "Bea"] and start.present == []
    start.toggle("Anna")
    start.add_name("  bea ")  # Bea, not a new player
    start.add_name("Cid")
    assert start.present == ["Anna", "Bea", "Cid"]
    assert start.known == ["Anna", "Bea", "Cid"]
    start.fix("Cid", 1)
    start.toggle("Cid")  # checked out: the fixed seat goes too
    assert start.present == ["Anna", "Bea"] and start.fixed == {}


def test_each_check_in_and_out_is_taken_back_by_undo_last_first(store: Store) -> None:
    store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    start = NightStartModel.load(store, "Club")
    assert start.last_check is None
    start.toggle("Anna")
    start.add_name("Cid")  # a new name, checked in
    start.fix("Anna", 2)
    start.toggle("Anna")  # checked out: her fixed seat goes
    assert start.present == ["Cid"] and start.fixed == {} and start.last_check == ("Anna", False)
    start.undo()  # back in, at her table
    assert start.present == ["Anna", "Cid"] and start.fixed == {"Anna": 2}
    assert start.last_check == ("Cid", True)
    start.undo()  # the typed name goes from the list again
    assert start.present == ["Anna"] and start.known == ["Anna", "Bea"]
    start.undo()
    assert start.present == [] and start.last_check is None
    start.undo()  # nothing left: nothing changes
    assert start.present == [] and start.known == ["Anna", "Bea"]
    start.add_name("anna")  # a name already here checks her in: one check
    start.add_name("Anna")  # already in: nothing to take back
    assert start.present == ["Anna"] and len(start.checks) == 1


def test_start_seats_every_player_present_with_the_house_rule_method_fixed_seat_and_points(
    store: Store,
) -> None:
    start = NightStartModel.load(store, "Club")
    for name in NINE:
        start.add_name(name)
    start.game.set_rule("target", "30")
    start.choose_method("balanced")
    start.fix("Ida", 3)
    start.set_points("5,3,1")
    assert start.table_count() == 3
    night_id = start.start()
    assert night_id is not None and start.error == ""
    night = store.find_night(night_id)
    first = night.rounds[0]
    assert first.method == "balanced" and night.points == (5, 3, 1)
    assert sorted(p for t in first.tables for p in t.players) == sorted(NINE)
    assert "Ida" in first.tables[2].players
    assert store.game(first.tables[0].game).game.ruleset.target == 30


@pytest.mark.parametrize(
    ("players", "points", "code"),
    [
        (["Anna"], "3,2,1", "night.too_few"),
        (NINE, "3,x", "night.bad_points"),
        (NINE, "1,2,3", "night.bad_points"),
    ],
)
def test_a_refused_night_says_why_in_both_languages_and_saves_nothing(
    store: Store, players: list[str], points: str, code: str
) -> None:
    start = NightStartModel.load(store, "Club")
    for name in players:
        start.add_name(name)
    start.set_points(points)
    assert start.start() is None
    assert engine_text(start.error, "en") != engine_text(start.error, "fi")
    message = start.error.message  # type: ignore[attr-defined]
    assert message.code == code
    assert store.nights("Club") == []
    assert store.games() == []


def test_a_house_rule_typed_wrong_is_refused_before_the_store_is_asked(store: Store) -> None:
    start = NightStartModel.load(store, "Club")
    for name in NINE:
        start.add_name(name)
    start.game.set_rule("target", "lots")
    assert start.start() is None
    assert "lots" in engine_text(start.error, "en")
    assert store.nights("Club") == []


def test_tables_show_deal_count_and_leader_from_the_games_summary_and_follow_the_store(store: Store) -> None:
    night = started(store)
    cards = night.current()
    assert [c.table for c in cards] == [1, 2, 3]
    assert all(c.deals == 0 and c.leader is None and not c.finished for c in cards)
    assert [c.route for c in cards] == [f"/game/{t.game}" for t in night.last.tables]

    # Another phone records table 2's deal: the screen reads it on its next reload.
    finish(store, cards[1].game)
    night.reload()
    table = night.current()[1]
    summary = store.game(table.game)
    seats = list(summary.document["players"])
    assert (table.deals, table.finished, table.leader) == (1, True, seats[0])
    assert table.leader_total == 0
    assert night.unfinished() == [1, 3]


def test_next_round_waits_for_every_table_and_says_which_still_play(store: Store) -> None:
    night = started(store)
    finish(store, night.current()[0].game)
    night.reload()
    assert night.waiting() == "round 1 is not over: these tables are still playing: 2, 3"
    assert (
        engine_text(night.waiting(), "fi") == "kierros 1 on vielä kesken: näissä pöydissä pelataan yhä: 2, 3"
    )
    assert not night.next_round()
    assert night.error and night.error.message.code == "night.unfinished"  # type: ignore[attr-defined]
    assert len(store.find_night(night.night.id).rounds) == 1


def test_next_round_with_a_late_arrival_an_early_leaver_and_another_method(store: Store) -> None:
    night = started(store)
    for card in night.current():
        finish(store, card.game)
    night.reload()
    assert not night.over() and night.waiting() == ""  # open-ended: over once the director ends it
    assert sorted(night.present) == sorted(NINE) and night.method == "random"
    night.toggle_editing()
    night.toggle("Ida")  # leaves early
    night.toggle("Eve")  # tapped by mistake: taken back
    assert night.last_check == ("Eve", False)
    night.undo()
    assert "Eve" in night.present and night.last_check == ("Ida", False)
    night.add_name("Jon")  # arrives late
    night.choose_method("swiss")
    assert night.next_round()
    assert night.checks == []  # the next round's roster starts with nothing to take back
    assert night.error == "" and not night.editing
    second = night.last
    assert second.number == 2 and second.method == "swiss"
    assert sorted(p for t in second.tables for p in t.players) == sorted([*NINE[:8], "Jon"])
    assert [n for n, _ in night.earlier()] == [1]
    assert all(c.finished for c in night.earlier()[0][1])


def test_standings_are_the_stores_and_the_winner_is_marked_once_the_director_ends_the_night(
    store: Store,
) -> None:
    """Issue 24, 7: an open-ended night named its winner after every round; it leads until the
    director ends the night, as the store and the command line say."""
    night = started(store)
    cards = night.current()
    finish(store, cards[0].game)
    night.reload()
    assert not any(line.winner for line in night.lines)  # tables still playing: no winner yet
    assert night.can_end()
    night.toggle_ending()
    assert night.ending and night.end_night()  # the round being played becomes the last
    assert not night.over() and not any(line.winner for line in night.lines)
    assert not night.can_end() and night.waiting().startswith("the night had 1 rounds")
    for card in cards[1:]:
        finish(store, card.game)
    night.reload()
    assert night.over() and store.find_night(night.night.id).over
    _, rows = store.night_standings("Club", night.night.id)
    names = {p.id: p.name for p in store.players()}
    assert [(line.name, line.points, line.games, line.wins) for line in night.lines] == [
        (names[r.player], f"{r.night_points:g}", r.games, r.wins) for r in rows
    ]
    assert [line.winner for line in night.lines] == [True] + [False] * (len(rows) - 1)
    assert night.lines[0].placements == "1"


def test_the_league_lists_its_nights_with_winners_and_the_one_under_way(store: Store) -> None:
    night = started(store)
    league = LeagueModel.load(store, "Club")
    assert [(n.id, n.rounds, n.tables, n.under_way, n.winner) for n in league.nights] == [
        (night.night.id, 1, 3, True, None)
    ]
    assert league.open_night() == night.night.id
    for card in night.current():
        finish(store, card.game)
    league.reload()
    night.reload()
    # every table ended, but an open-ended night goes on until the director ends it
    assert league.open_night() == night.night.id and league.nights[0].winner is None
    assert night.end_night()
    league.reload()
    assert league.open_night() is None
    assert league.nights[0].winner == night.lines[0].name


def test_a_players_page_lists_the_nights_played_with_place_and_points(store: Store) -> None:
    night = started(store)
    for card in night.current():
        finish(store, card.game)
    night.reload()
    line = next(line for line in night.lines if line.name == "Anna")
    player = PlayerModel.load(store, "Anna")
    assert [(n.id, n.league, n.place, n.points) for n in player.nights()] == [
        (night.night.id, "Club", line.place, line.points)
    ]
    store.add_player("Zed")
    assert PlayerModel.load(store, "Zed").nights() == []


def test_find_night_by_id_or_its_start_and_a_missing_one_named(store: Store) -> None:
    night = started(store, NINE[:4])
    assert store.find_night(night.night.id[:8]).id == night.night.id
    with pytest.raises(StoreInputError) as caught:
        store.find_night("nope")
    assert render(caught.value.message, "en") == "there is no club night 'nope'"
    assert render(caught.value.message, "fi") == "kerhoiltaa 'nope' ei ole"


def test_a_table_link_keeps_the_access_code_and_a_loopback_link_has_none() -> None:
    assert (
        table_link("http://10.0.0.5:8550/?code=ABCDEFGH", "/game/x1")
        == "http://10.0.0.5:8550/game/x1?code=ABCDEFGH"
    )
    assert table_link("http://127.0.0.1:8550/leagues", "/game/x1") == "http://127.0.0.1:8550/game/x1"
    # On loopback the director's session's own address is the base: Flet gives its WebSocket's.
    assert table_link("ws://127.0.0.1:8550", "/game/x1") == "http://127.0.0.1:8550/game/x1"


def test_a_new_name_that_breaks_the_name_rule_is_refused_as_it_is_added_naming_it(store: Store) -> None:
    start = NightStartModel.load(store, "Club")
    assert [start.add_name(name) for name in ["Anna", "Bea", "Cid\u202e"]] == [True, True, False]
    assert start.present == ["Anna", "Bea"] and start.known == ["Anna", "Bea"]
    assert start.name_error.message.code == "name.bidi"  # type: ignore[attr-defined]
    assert "U+202E" in engine_text(start.name_error, "fi")
    start.add_name("Cid")  # typed again, right: the message goes
    assert start.name_error == "" and start.present == ["Anna", "Bea", "Cid"]
    assert store.nights("Club") == [] and store.players() == []


def test_a_round_seated_on_another_screen_resets_the_next_rounds_choices(store: Store) -> None:
    night = started(store)
    other = NightModel.load(store, night.night.id)
    for card in night.current():
        finish(store, card.game)
    night.reload()
    night.toggle_editing()
    night.toggle("Ida")  # this director was about to let Ida go
    assert other.next_round()  # another director seated round 2 with everyone
    night.reload()
    assert night.last.number == 2 and not night.editing
    assert sorted(night.present) == sorted(NINE)
    assert not night.next_round()  # round 2 has only begun: nothing is seated twice
    assert len(store.find_night(night.night.id).rounds) == 2


@pytest.mark.parametrize("same", [True, False])
def test_a_look_alike_new_name_is_asked_about_before_the_night_starts(store: Store, same: bool) -> None:
    store.add_player("Anna")
    start = NightStartModel.load(store, "Club")
    for name in ["\u0410nna", "Bea", "Cid", "Dan"]:  # a Cyrillic A
        start.add_name(name)
    start.fix("\u0410nna", 1)
    assert start.start() is None
    assert start.look_alike == ("\u0410nna", "Anna") and start.error == ""
    assert store.nights("Club") == []
    if same:
        start.same_person()
    else:
        start.different_person()
    night_id = start.start()
    assert night_id is not None, start.error
    seated = [p for t in store.find_night(night_id).rounds[0].tables for p in t.players]
    assert ("Anna" in seated) is same and ("\u0410nna" in seated) is not same


def test_a_night_of_planned_rounds_has_its_winner_only_after_the_last_one(store: Store) -> None:
    night_id = store.start_night(
        "Club", players=NINE, ruleset="rommi", seed=2, options={"target": 30}, rounds=2
    ).id
    night = NightModel.load(store, night_id)
    for card in night.current():
        finish(store, card.game)
    night.reload()
    assert night.waiting() == "" and not night.over()  # round 1 ended: round 2 is to come
    assert not any(line.winner for line in night.lines)
    league = LeagueModel.load(store, "Club")
    assert league.nights[0].under_way and league.open_night() == night_id
    assert night.next_round()
    for card in night.current():
        finish(store, card.game)
    night.reload()
    assert night.over() and night.lines[0].winner
    assert night.waiting() == "the night had 2 rounds and all are seated: start a new night for more"
    assert not night.next_round()
    assert night.error.message.code == "night.all_rounds"  # type: ignore[attr-defined]
    league.reload()
    assert not league.nights[0].under_way and league.nights[0].winner == night.lines[0].name
    assert [p.place for p in PlayerModel.load(store, night.lines[0].name).nights()] == [1]


def gin_club(clock: Clock | None = None) -> Store:
    """A league where Anna has won five gin games from Bea: rated above her."""
    store = Store.memory(clock=clock) if clock is not None else Store.memory()
    store.create_league("Club")
    for _ in range(5):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
        store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 80}})
    return store


def gin_start(store: Store, *, rounds: str = "", timer: str = "", handicap: bool = False) -> NightStartModel:
    start = NightStartModel.load(store, "Club")
    for name in ["Anna", "Bea", "Cid", "Dan"]:
        start.add_name(name)
    start.game.choose_ruleset("gin")
    start.set_rounds(rounds)
    start.set_timer(timer)
    start.set_handicap(handicap)
    return start


def test_the_start_forms_round_count_timer_and_handicap_reach_the_store() -> None:
    store = gin_club()
    start = gin_start(store, rounds="3", timer="20", handicap=True)
    night_id = start.start()
    assert night_id is not None, start.error
    night = store.night("Club", night_id)
    assert (night.planned, night.handicap, night.rounds[0].timer) == (3, True, 20)
    assert any(t.start for t in night.rounds[0].tables)
    plain = gin_start(store).start()
    assert plain is not None
    assert (store.night("Club", plain).planned, store.night("Club", plain).handicap) == (None, False)
    assert store.night("Club", plain).rounds[0].timer is None


def test_a_bad_round_count_or_timer_is_refused_under_its_field_with_nothing_saved() -> None:
    store = gin_club()
    start = gin_start(store, rounds="0", timer="abc")
    assert start.start() is None
    assert engine_text(start.rounds_error, "en") == (
        "rounds '0': a night plans a whole number of rounds, 1 or more"
    )
    assert "'0'" in engine_text(start.rounds_error, "fi")
    assert engine_text(start.rounds_error, "fi") != engine_text(start.rounds_error, "en")
    assert engine_text(start.timer_error, "en").startswith("timer 'abc': ")
    assert engine_text(start.timer_error, "fi").startswith("ajastin 'abc': ")
    assert store.nights("Club") == []
    start.set_timer("601")
    assert start.timer_error == "" and start.start() is None and "'601'" in start.timer_error
    start.set_rounds("2")
    start.set_timer("")
    assert start.start() is not None and len(store.nights("Club")) == 1


def test_the_handicap_switch_says_what_it_does_in_the_variants_direction() -> None:
    start = gin_start(gin_club())
    assert start.handicap_help("en") == (
        "Weaker players start with points from the rating gap to the table's strongest player."
    )
    start.game.choose_ruleset("kalooki")  # the lowest total wins
    assert start.handicap_help("en").startswith("Stronger players start with penalty points")
    assert start.handicap_help("fi").startswith("Vahvemmat pelaajat aloittavat miinuspisteillä")


def test_the_rounds_timer_line_counts_down_then_says_time_is_up() -> None:
    clock = Clock()
    store = gin_club(clock)
    night_id = gin_start(store, timer="30").start()
    assert night_id is not None
    model = NightModel.load(store, night_id)
    assert model.timer_text("en", START) == "Timer: 30 min · time left 30:00" and model.ticking(START)
    assert model.timer_text("en", "2026-12-04T18:17:26.000000+00:00") == "Timer: 30 min · time left 12:34"
    assert model.timer_text("fi", "2026-12-04T18:17:26.000000+00:00") == (
        "Aikaraja: 30 min · aikaa jäljellä 12:34"
    )
    assert model.timer_text("en", DEADLINE) == (
        "Timer: 30 min · time is up: the deal being played at each table is its last"
    )
    assert not model.ticking(DEADLINE)
    clock.now = "2026-12-04T18:31:00.000000+00:00"
    for table in model.last.tables:  # the first deal after the deadline ends each game
        first, second = table.players
        store.add_deal(table.game, {"knocker": first, "deadwood": {first: 0, second: 10}})
    model.reload()
    assert [card.called for card in model.current()] == [1, 1]
    assert model.timer_text("en", clock.now) == "Timer: 30 min"
    assert model.timer_text("fi", clock.now) == "Aikaraja: 30 min"


def test_a_card_shows_the_starting_points_kept_with_the_game() -> None:
    store = gin_club()
    night_id = gin_start(store, handicap=True).start()
    assert night_id is not None
    model = NightModel.load(store, night_id)
    cards = {card.game: card for card in model.current()}
    handicapped = [t for t in model.last.tables if t.start]
    assert handicapped
    for table in handicapped:
        game_start = store.game(table.game).game.start
        assert cards[table.game].start == start_text(table.players, game_start)
    assert all(cards[t.game].start == "" for t in model.last.tables if not t.start)
    assert all(card.called is None for card in cards.values())


def test_a_next_rounds_timer_can_be_changed_or_turned_off(store: Store) -> None:
    model = started(store)
    for table in model.last.tables:
        finish(store, table.game)
    model.reload()
    model.set_next_timer("abc")
    assert not model.next_round() and len(store.night("Club").rounds) == 1
    assert engine_text(model.timer_error, "en").startswith("timer 'abc': ")
    model.set_next_timer("45")
    assert model.next_round()
    assert store.night("Club").rounds[1].timer == 45 and model.next_timer == "45"
    for table in model.last.tables:
        finish(store, table.game)
    model.reload()
    model.set_next_timer("")
    assert model.next_round()
    assert store.night("Club").rounds[2].timer is None


def test_the_seatings_evenness_is_shown_for_balanced_and_swiss(store: Store) -> None:
    start = NightStartModel.load(store, "Club")
    for name in NINE:
        start.add_name(name)
    start.game.set_rule("target", "30")
    start.choose_method("balanced")
    night_id = start.start()
    assert night_id is not None
    model = NightModel.load(store, night_id)
    even = model.last.evenness
    assert even is not None and even.best is not None
    assert evenness_text(model.last, "en") == (
        f"Table strengths within {even.spread:.1f} of each other; the best possible {even.best:.1f}."
    )
    assert evenness_text(model.last, "fi").startswith("Pöytien vahvuudet enintään")
    for table in model.last.tables:
        finish(store, table.game)
    model.reload()
    model.choose_method("swiss")
    assert model.next_round()
    swiss = store.night("Club").rounds[1]  # three tables of three: new opponents for all
    assert swiss.repeats == 0
    assert evenness_text(swiss, "en") == "No opponent met again."
    assert evenness_text(swiss, "fi") == "Kukaan ei kohtaa samaa vastustajaa uudelleen."


@pytest.mark.parametrize(
    ("seated", "shown"),
    [
        (4, "Opponents met again: 2; no seating avoids it."),
        (14, "Opponents met again: 2; the fewest the search found."),
    ],
)
def test_swiss_repeats_say_whether_no_seating_avoids_them(seated: int, shown: str) -> None:
    names = tuple(f"P{i}" for i in range(seated))
    table = NightTable(table=1, game="g", players=names, ids=names)
    round_ = NightRound(
        number=2, ruleset="rommi", method="swiss", seed=1, tables=(table,), byes=(), repeats=2
    )
    assert evenness_text(round_, "en") == shown


def test_a_balanced_round_beyond_the_exact_search_gives_the_bound() -> None:
    round_ = NightRound(
        number=1,
        ruleset="rommi",
        method="balanced",
        seed=1,
        tables=(),
        byes=(),
        evenness=Evenness(spread=1.23, best=None, bound=0.91),
    )
    assert evenness_text(round_, "en") == (
        "Table strengths within 1.2 of each other; no seating gets below 0.9."
    )
    random = NightRound(number=1, ruleset="rommi", method="random", seed=1, tables=(), byes=())
    assert evenness_text(random, "en") == ""


# -- tie-breaks: the start's order, the standings' "Ahead by", the coin flip -----------------------


def test_the_start_forms_tiebreak_order_is_chosen_in_order_and_reaches_the_store(store: Store) -> None:
    start = NightStartModel.load(store, "Club")
    assert start.tiebreaks == ["points", "wins", "deal-points"]
    assert start.unused_tiebreaks() == ["head-to-head", "penalties", "coin"]
    start.add_tiebreak("head-to-head")
    start.add_tiebreak("coin")
    start.add_tiebreak("coin")  # in the order already: nothing changes
    start.add_tiebreak("luck")  # not a tie-break: nothing changes
    start.raise_tiebreak("head-to-head")
    start.raise_tiebreak("head-to-head")
    start.raise_tiebreak("head-to-head")  # never above the night points
    start.raise_tiebreak("points")
    start.remove_tiebreak("deal-points")
    start.remove_tiebreak("points")  # the night points stay first
    assert start.tiebreaks == ["points", "head-to-head", "wins", "coin"]
    assert start.unused_tiebreaks() == ["deal-points", "penalties"]
    for name in ["Anna", "Bea", "Cid", "Dan"]:
        start.add_name(name)
    start.game.set_rule("target", "30")
    night_id = start.start()
    assert night_id is not None, start.error
    assert store.find_night(night_id).tiebreaks == ("points", "head-to-head", "wins", "coin")


def test_standings_say_what_put_each_line_ahead_and_the_coin_is_flipped_from_the_screen(store: Store) -> None:
    start = NightStartModel.load(store, "Club")
    start.add_tiebreak("coin")
    for name in ["Anna", "Bea", "Cid", "Dan"]:
        start.add_name(name)
    start.game.set_rule("target", "30")
    night_id = start.start()
    assert night_id is not None, start.error
    night = NightModel.load(store, night_id)
    assert [line.tiebreak for line in night.lines] == ["tied", "tied", "tied", None]
    assert night.can_flip() and [sorted(g) for g in night.level] == [["Anna", "Bea", "Cid", "Dan"]]
    assert night.flip_coin(by="Director")
    [flip] = night.flipped
    assert tuple(line.name for line in night.lines) == flip
    assert [line.tiebreak for line in night.lines] == ["coin", "coin", "coin", None]
    assert not night.can_flip() and night.level == []
    assert not night.flip_coin()  # nobody level any more: refused, said, nothing saved
    assert night.error == render(Message("night.none_level"))
    assert store.find_night(night_id).flips == (flip,)


def test_a_night_without_the_coin_offers_no_flip(store: Store) -> None:
    night = started(store, ["Anna", "Bea", "Cid", "Dan"])
    assert not night.can_flip()
    assert not night.flip_coin()
    assert "no coin flip" in night.error


def test_a_tiebreaks_name_on_the_screen_is_in_its_language() -> None:
    assert [tiebreak_text(c, "en") for c in CRITERIA] == [
        "night points",
        "wins",
        "head-to-head",
        "deal points",
        "fewest penalties",
        "coin flip",
    ]
    assert tiebreak_text("penalties", "fi") == "vähiten rangaistuksia"
    assert tiebreak_text("tied", "fi") == "tasan" and tiebreak_text("coin", "fi") == "kolikonheitto"
    assert tiebreak_text(None, "fi") == ""


def test_points_for_a_bye_reach_the_store_and_a_bad_one_is_refused_under_its_field() -> None:
    store = gin_club()
    start = gin_start(store)
    start.add_name("Eve")  # five at gin: one sits out
    start.set_points("3,1")
    start.set_bye_points("4")
    assert start.start() is None and store.nights("Club") == []
    assert engine_text(start.bye_points_error, "en") == (
        "bye points '4': a bye earns a whole number of night points, from 0 to the 1st place's 3"
    )
    assert engine_text(start.bye_points_error, "fi").startswith("vapaakierroksen pisteet '4': ")
    start.set_bye_points("1")
    assert start.bye_points_error == ""
    night_id = start.start()
    assert night_id is not None, start.error
    night = store.night("Club", night_id)
    [rested] = night.rounds[0].byes
    assert night.bye_points == 1
    line = next(line for line in NightModel.load(store, night_id).lines if line.name == rested)
    assert line.points == "1"  # the director's standings count the bye as the round is seated
