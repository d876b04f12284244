"""The club night's TV view model (scorer/ui/screens/tv_model.py): what the wall screen shows
of a real night (tables, totals, leader, standings, the round's timer), and how it lays out and
pages at a wall screen's and a phone's size."""

from __future__ import annotations

import pytest
from conftest import reopen
from test_league_night import NINE, finish
from test_ui_night import gin_club, gin_start, started
from test_ui_scoreboard_night import DEADLINE, START, Clock

from scorer.league.store import Store
from scorer.ruleset_text import variant_title
from scorer.ui.screens.home_model import HomeModel
from scorer.ui.screens.leagues_model import LeagueModel
from scorer.ui.screens.player_model import PlayerModel
from scorer.ui.screens.tv_model import (
    TvModel,
    board,
    page_at,
    page_label,
    pages,
    rotates,
)

#: The screens the TV is shown on: a 1080p wall screen (and one turned upright), a laptop, a
#: tablet, a phone upright and on its side.
SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (800, 1280), (390, 844), (844, 390)]
#: Thirty-two players: rommi seats them at eight tables of four (a big club night).
THIRTY_TWO = [f"Player {n:02d}" for n in range(1, 33)]


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Store:
    if request.param == "memory":
        store = Store.memory()
    else:
        store = Store.open(tmp_path_factory.mktemp("tv") / "league")
    store.create_league("Club")
    return store


def test_the_tables_show_each_seat_with_its_stored_total_and_the_leader(store: Store) -> None:
    night = started(store)  # nine players: three rommi tables of three, to 30
    tv = TvModel.load(store, night.night.id)
    first = tv.last.tables[0]
    assert [(t.table, t.status, t.deals) for t in tv.tables()] == [
        (1, "playing", 0),
        (2, "playing", 0),
        (3, "playing", 0),
    ]
    assert all(seat.total is None and not seat.leader for t in tv.tables() for seat in t.seats)
    finish(store, first.game)  # the first seat goes out, the others pay 36 and 10: over 30
    tv.reload()
    shown = tv.tables()[0]
    summary = next(g for g in store.games(league="Club") if g.id == first.game).summary
    assert shown.status == "finished" and shown.deals == 1
    assert [(s.name, s.total) for s in shown.seats] == [
        (name, summary.totals[pid]) for name, pid in zip(first.players, first.ids, strict=True)
    ]
    assert [s.total for s in shown.seats] == [0, 36, 10]
    assert [s.name for s in shown.seats if s.leader] == [
        first.players[0]
    ]  # the leader, as on the director's screen
    assert tv.current()[0].leader == first.players[0]
    assert [t.status for t in tv.tables()[1:]] == ["playing", "playing"]


def test_the_standings_and_headline_are_the_director_screens(store: Store) -> None:
    night = started(store)
    tv = TvModel.load(store, night.night.id)
    assert tv.headline("en") == ""  # no table has finished: nobody leads yet
    for table in tv.last.tables:
        finish(store, table.game)
    tv.reload()
    night.reload()
    assert tv.lines == night.lines  # the same reads: place, name, points, the tie-break
    leader = night.lines[0].name
    assert tv.headline("en") == f"Leading the night: {leader}"  # open-ended: leading until it ends
    assert tv.headline("fi") == f"Illan johdossa: {leader}"
    tv.end_night()
    tv.reload()
    assert tv.headline("en") == f"Winner of the night: {leader}"


def test_an_abandoned_table_says_so(store: Store) -> None:
    night = started(store)
    game = night.last.tables[1].game
    store.abandon_game(game)
    tv = TvModel.load(store, night.night.id)
    assert [t.status for t in tv.tables()] == ["playing", "abandoned", "playing"]


def test_who_sits_the_round_out_is_named_on_a_line_of_the_header() -> None:
    store = gin_club()
    night = store.start_night("Club", players=["Anna", "Bea", "Cid", "Dan", "Eve"], ruleset="gin", seed=1)
    tv = TvModel.load(store, night.id)
    (bye,) = night.rounds[0].byes  # gin seats two a table: one of five sits out
    assert tv.byes_text("en") == f"Sitting out: {bye}" and tv.byes_text("fi") == f"Tauolla: {bye}"
    plain, sitting = (board(1920, 1080, seats=2, tables=2, lines=5, byes=b) for b in (False, True))
    assert sitting.header_height == plain.header_height + plain.line
    full = TvModel.load(store, gin_start(store).start() or "")
    assert full.byes_text("en") == ""


def test_the_header_names_the_league_the_night_and_the_round() -> None:
    store = gin_club()
    night_id = gin_start(store, rounds="3").start()
    assert night_id is not None
    tv = TvModel.load(store, night_id)
    assert tv.title("Club", "en") == "Club · Club night"
    assert tv.title("Club", "fi") == "Club · Kerhoilta"
    assert tv.round_text("en").startswith("Round 1 of 3: Gin rummy · Started ")
    fi = tv.round_text("fi")
    assert fi.startswith(f"Kierros 1/3: {variant_title('gin', 'fi')} · Aloitettu ") and fi != tv.round_text(
        "en"
    )
    assert tv.seats() == 2


def test_the_timer_counts_down_then_says_time_is_up_then_that_the_round_is_over() -> None:
    clock = Clock()
    store = gin_club(clock)
    night_id = gin_start(store, timer="30").start()
    assert night_id is not None
    tv = TvModel.load(store, night_id)
    assert tv.timer_state(START) == "running" and tv.timer_big("en", START) == "Time left 30:00"
    later = "2026-12-04T18:17:26.000000+00:00"
    assert tv.timer_big("en", later) == "Time left 12:34"
    assert tv.timer_big("fi", later) == "Aikaa jäljellä 12:34"
    assert tv.timer_state(DEADLINE) == "up" and not tv.ticking(DEADLINE)
    assert tv.timer_big("en", DEADLINE) == "Time is up: the last deal at each table"
    assert tv.timer_big("fi", DEADLINE) == "Aika loppui: pöytien viimeinen jako"
    clock.now = "2026-12-04T18:31:00.000000+00:00"
    for table in tv.last.tables:  # the first deal after the deadline ends each game
        first, second = table.players
        store.add_deal(table.game, {"knocker": first, "deadwood": {first: 0, second: 10}})
    tv.reload()
    assert tv.timer_state(clock.now) == "over"
    assert tv.timer_big("en", clock.now) == "Round 1: every table has finished"
    assert tv.timer_big("fi", clock.now) == "Kierros 1: kaikki pöydät ovat päättyneet"


def test_a_round_without_a_timer_shows_none() -> None:
    store = gin_club()
    night_id = gin_start(store).start()
    assert night_id is not None
    tv = TvModel.load(store, night_id)
    assert tv.timer_state(START) == "none" and tv.timer_big("en", START) == ""


def test_pages_cover_every_item_once_in_order() -> None:
    for count in range(0, 20):
        for per_page in range(1, 9):
            shown = [i for page in pages(count, per_page) for i in page]
            assert shown == list(range(count))
            assert all(1 <= len(p) <= per_page for p in pages(count, per_page)) or count == 0


def test_the_page_at_each_tick_goes_round_and_starts_again() -> None:
    assert [page_at(tick, 8, 3) for tick in range(4)] == [range(0, 3), range(3, 6), range(6, 8), range(0, 3)]
    labels = [page_label("tv.tables", page_at(tick, 8, 4), 8, "en") for tick in range(3)]
    assert labels == ["Tables 1–4 of 8", "Tables 5–8 of 8", "Tables 1–4 of 8"]
    assert page_label("tv.tables", page_at(1, 8, 4), 8, "fi") == "Pöydät 5–8 / 8"
    assert page_label("tv.standings", page_at(0, 32, 12), 32, "en") == "Standings 1–12 of 32"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_night_of_one_table_never_rotates(width: int, height: int) -> None:
    shape = board(width, height, seats=7, tables=1, lines=7)
    assert not rotates(1, shape.tables_per_page)
    assert all(page_at(tick, 1, shape.tables_per_page) == range(0, 1) for tick in range(5))


def test_eight_tables_rotate_on_a_wall_screen_in_pages_that_fit(store: Store) -> None:
    night = started(store, THIRTY_TWO)
    tv = TvModel.load(store, night.night.id)
    assert len(tv.tables()) == 8 and tv.seats() == 4
    shape = board(1920, 1080, seats=tv.seats(), tables=8, lines=len(tv.lines))
    assert shape.wide and shape.text >= 28 and shape.timer >= 48  # to be read across a room
    assert rotates(8, shape.tables_per_page) and shape.tables_per_page == 4
    rows = -(-shape.tables_per_page // shape.across)
    # A page of cards, the tables' label and the header fit on the screen's height.
    used = (
        2 * shape.pad + shape.header_height + shape.pad + shape.line + rows * (shape.card_height + shape.pad)
    )
    assert used <= 1080
    # The standings' page fits beside them: its label, the leader's line, the column heads, its lines.
    assert 2 * shape.pad + shape.header_height + shape.pad + (3 + shape.lines_per_page) * shape.line <= 1080
    assert rotates(32, shape.lines_per_page)


def test_on_a_phone_more_than_two_tables_rotate_and_the_sizes_shrink() -> None:
    wall = board(1920, 1080, seats=3, tables=3, lines=9)
    phone = board(390, 844, seats=3, tables=3, lines=9)
    assert not phone.wide and phone.across == 1
    assert phone.tables_per_page == 2 and rotates(3, phone.tables_per_page)
    assert not rotates(3, wall.tables_per_page)
    assert 18 <= phone.text < wall.text and phone.timer < wall.timer
    # Tables and standings stacked fit the phone's height.
    used = 2 * phone.pad + phone.header_height + 2 * phone.pad + phone.line
    used += phone.tables_per_page * (phone.card_height + phone.pad) + (3 + phone.lines_per_page) * phone.line
    assert used <= 844


def test_an_upright_wall_screen_reads_as_large_as_a_wide_one() -> None:
    wide, upright = (
        board(1920, 1080, seats=4, tables=8, lines=32),
        board(1080, 1920, seats=4, tables=8, lines=32),
    )
    assert upright.text == wide.text and upright.timer == wide.timer and not upright.wide
    assert upright.tables_per_page >= 2 and upright.lines_per_page >= 8


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_size_shows_at_least_a_table_and_a_line(width: int, height: int) -> None:
    shape = board(width, height, seats=4, tables=8, lines=32)
    assert shape.tables_per_page >= 1 and shape.lines_per_page >= 1
    assert shape.wide == (width > height)  # a phone on its side: side by side


def test_a_night_of_nine_needs_no_paging_on_a_wall_screen(store: Store) -> None:
    night = started(store, NINE)
    tv = TvModel.load(store, night.night.id)
    shape = board(1920, 1080, seats=tv.seats(), tables=len(tv.tables()), lines=len(tv.lines))
    assert not rotates(len(tv.tables()), shape.tables_per_page)
    assert not rotates(len(tv.lines), shape.lines_per_page)
    assert page_label("tv.tables", page_at(3, 3, shape.tables_per_page), 3, "en") == "Tables"


def test_a_replaced_seat_shows_who_holds_it_now_with_the_seats_whole_total(store_of_each_kind: Store) -> None:
    """A replacement takes the seat on (docs/rules.md, "Replacements"): the wall screen, the
    night's table cards, Home and the league's games show the newcomer with the seat's running
    total, not the part of it the player who left made; a seat's leader and winner is its
    holder now (each kind of store, read by a new program as well)."""
    store = store_of_each_kind
    store.create_league("Club")
    night = store.start_night(
        "Club",
        players=["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"],
        ruleset="rommi",
        seed=1,
        options={"target": 100},
    )
    table = night.rounds[0].tables[0]
    a, b, c = table.players

    def deal(out: str) -> dict[str, object]:  # out goes out; the next seats hold 36 and 30
        held = iter(["KS AH *", "KH QH JH"])
        return {"hands": {p: "" if p == out else next(held) for p in (a, b, c)}, "out": out}

    store.add_deal(table.game, deal(b))  # a 36, c 30
    store.add_deal(table.game, deal(a))  # b 36, c 30
    store.replace_player(table.game, b, "Gus", why="Bea went home")
    store.add_deal(table.game, deal(b))  # Gus goes out: a 36, c 30
    shown = TvModel.load(reopen(store), night.id).tables()[0]
    assert [(s.name, s.total) for s in shown.seats] == [(a, 72), ("Gus", 36), (c, 90)]
    tv = TvModel.load(store, night.id)
    assert [(s.name, s.total, s.leader) for s in tv.tables()[0].seats] == [
        (a, 72, False),
        ("Gus", 36, True),  # rommi: the lowest total leads
        (c, 90, False),
    ]
    summary = next(g for g in store.games(league="Club") if g.id == table.game).summary
    assert summary.totals[store.player("Gus").id] == 0  # Gus's own part: the seat's is both's
    (card, *_) = tv.current()
    assert card.holders == (a, "Gus", c) and card.players == (a, b, c)
    assert (card.leader, card.leader_total) == ("Gus", 36)
    (line,) = [g for g in HomeModel.load(store).in_progress if g.id == table.game]
    assert line.players == f"{a}, Gus, {c}" and line.totals == f"{a}: 72, Gus: 36, {c}: 90"
    store.rename_player("Gus", "Gustav")  # a holder is shown by their name now
    tv.reload()
    assert [s.name for s in tv.tables()[0].seats] == [a, "Gustav", c]
    store.add_deal(table.game, deal(b))  # a 108, c 120: the game ends, the seat's 36 wins
    (done,) = [h for h in LeagueModel.load(store, "Club").history() if h.id == table.game]
    assert done.winner == "Gustav" and done.totals == f"{a}: 108, Gustav: 36, {c}: 120"
    # the player's own page lists the game taken over, won, with their own part of the seat
    gus = PlayerModel.load(store, "Gustav")
    (recent,) = gus.recent()
    assert (recent.id, recent.players, recent.total, recent.won) == (table.game, f"{a}, Gustav, {c}", 0, True)
    assert {name for _, name in gus.opponents()} >= {a, c}
