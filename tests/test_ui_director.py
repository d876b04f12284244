"""The director of a club night on screen, its view-models with no Flet session
(scorer/ui/screens/director_model.py): a table calls from its Scoreboard and sees the answer;
the director's desk lists the calls as they come, answers them, gives and lifts penalties; the
Scoreboard's totals follow (the engine's); in English and Finnish."""

from __future__ import annotations

from scorer.game import Penalty
from scorer.league.store import Store
from scorer.ui.screens.director_model import (
    DirectorDesk,
    TableDirector,
    answer_line,
    call_line,
    penalty_line,
    reason_text,
)
from scorer.ui.screens.history_model import deal_histories, event_line
from scorer.ui.screens.scoreboard_model import ScoreboardModel
from scorer.ui.screens.tv import _status
from scorer.ui.screens.tv_model import TvModel


def night_of_two_tables() -> tuple[Store, str, str, str]:
    """A gin night of two tables (rounds to 50): the store, the night, and the two games."""
    store = Store.memory()
    store.create_league("Club")
    night = store.start_night(
        "Club", players=["Anna", "Bea", "Cid", "Dan"], ruleset="gin", seed=1, options={"target": 50}
    )
    one, two = night.rounds[0].tables
    return store, night.id, one.game, two.game


def test_a_table_calls_the_director_and_sees_the_answer() -> None:
    store, night_id, game, _ = night_of_two_tables()
    table = TableDirector.load(store, game)
    desk = DirectorDesk.load(store, store.find_night(night_id))
    assert table.lines("en") == [] and desk.open_calls() == []
    table.ask()
    table.pick("rules")
    table.set_note("may I lay off on a knock?")
    assert table.call(by="Table 1")
    assert not table.asking and table.note == ""
    [waiting] = table.lines("en")
    assert waiting.endswith(": A rules question (may I lay off on a knock?) · waiting for the director")
    assert table.lines("fi")[0].endswith(": Sääntökysymys (may I lay off on a knock?) · odottaa tuomaria")
    desk.reload()  # the director's screen hears of it
    [call] = desk.open_calls()
    assert call_line(call, "en").startswith("Table 1 · ")
    assert call_line(call, "en").endswith(" · Table 1: A rules question (may I lay off on a knock?)")
    desk.start_answer(call.id)
    desk.set_answer("no: only the defender lays off")
    assert desk.answer_call(by="Director")
    assert desk.open_calls() == [] and [c.id for c in desk.answered_calls()] == [call.id]
    table.reload()
    [answered] = table.lines("en")
    assert " · answered at " in answered
    assert answered.endswith("by Director: no: only the defender lays off")
    in_finnish = answer_line(desk.answered_calls()[0], "fi")
    assert in_finnish.endswith("vastasi Director: no: only the defender lays off")


def test_a_refused_call_or_answer_shows_the_stores_message_and_saves_nothing() -> None:
    store, _, game, _ = night_of_two_tables()
    table = TableDirector.load(store, game)
    before = store.position
    table.ask()
    table.pick("lunch")
    assert not table.call()
    assert "call reason 'lunch'" in table.error and table.asking
    desk = DirectorDesk.load(store, store.find_night(store.night("Club").id))
    desk.start_answer("nope")
    assert not desk.answer_call()
    assert "there is no call 'nope'" in desk.error
    assert store.position == before
    plain = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
    other = TableDirector.load(store, plain)
    other.ask()
    assert not other.call() and "is not a table of a club night" in other.error


def test_a_penalty_given_on_the_desk_moves_the_tables_totals_and_is_lifted() -> None:
    store, night_id, game, _ = night_of_two_tables()
    board = ScoreboardModel.load(store, game)
    first, second = board.players
    store.add_deal(game, {"knocker": first, "deadwood": {first: 0, second: 10}})
    board.reload(store)
    won = board.totals[first]
    desk = DirectorDesk.load(store, store.find_night(night_id))
    desk.start_penalty(game)
    assert desk.player == first  # the first seat, to change
    desk.set_player(second)
    desk.set_points("4")
    desk.set_why("slow play")
    assert desk.penalise(by="Director")
    assert desk.penalising == ""
    [penalty] = desk.penalties_of(game)
    assert penalty_line(penalty, "en") == f"Penalty: {second}, 4 points (slow play), given by Director"
    board.reload(store)
    assert board.totals == {first: won, second: -4}  # gin: the highest wins, a penalty takes away
    assert board.total_labels() == [f"{first}: {won}", f"{second}: -4"]
    _, game_events = deal_histories(board.saved.events, deals=1)
    assert event_line(game_events[-1], "en").startswith(f"penalty given ({second}, 4 points) by Director at ")
    assert event_line(game_events[-1], "fi").endswith(": slow play")
    assert desk.lift(game, penalty.id, by="Director")
    assert desk.penalties_of(game) == ()
    board.reload(store)
    assert board.totals == {first: won, second: 0}


def test_a_refused_penalty_keeps_the_form_with_the_stores_message() -> None:
    store, night_id, game, _ = night_of_two_tables()
    desk = DirectorDesk.load(store, store.find_night(night_id))
    before = store.position
    desk.start_penalty(game)
    desk.set_points("0")
    desk.set_why("slow")
    assert not desk.penalise()
    assert desk.penalising == game and "penalty '0': a penalty is a whole number of points" in desk.error
    desk.set_points("2")
    desk.set_why("")
    assert not desk.penalise() and "a penalty needs its reason" in desk.error
    desk.set_player("Zed")
    desk.set_why("x")
    assert not desk.penalise() and "player 'Zed' is not at table 1" in desk.error
    assert store.position == before
    desk.cancel_penalty()
    assert desk.penalising == "" and desk.error == ""


def test_texts_in_both_languages() -> None:
    assert [reason_text(r, "en") for r in ("rules", "dispute", "penalty")] == [
        "A rules question",
        "A dispute",
        "A penalty",
    ]
    assert [reason_text(r, "fi") for r in ("rules", "dispute", "penalty")] == [
        "Sääntökysymys",
        "Erimielisyys",
        "Rangaistus",
    ]
    assert penalty_line(Penalty("Bea", 3, why="talking", by="Dir"), "fi") == (
        "Rangaistus: Bea, 3 pistettä (talking), antoi Dir"
    )


def test_the_tv_says_a_table_called_the_director_until_the_answer() -> None:
    store, night_id, _, game = night_of_two_tables()
    tv = TvModel.load(store, night_id)
    assert [t.called for t in tv.tables()] == [False, False]
    call = store.call_director(game, "dispute")
    tv.reload()
    one, two = tv.tables()
    assert (one.called, two.called) == (False, True)
    assert _status(two, "en") == "Director called" and _status(two, "fi") == "Tuomari kutsuttu"
    assert _status(one, "en") == "Playing"
    store.answer_call(call.id, "done")
    tv.reload()
    assert [t.called for t in tv.tables()] == [False, False]


def test_a_replacement_on_the_desk_shows_on_the_card_the_board_and_its_history() -> None:
    from scorer.ui.screens.director_model import replaced_line

    store, night_id, game, other = night_of_two_tables()
    board = ScoreboardModel.load(store, game)
    first, second = board.players
    store.add_deal(game, {"knocker": first, "deadwood": {first: 0, second: 10}})
    desk = DirectorDesk.load(store, store.find_night(night_id))
    desk.start_replace(game)
    assert (desk.replacing, desk.leaving, desk.after) == (game, first, "")  # the first seat, to change
    desk.set_leaving(second)
    desk.set_newcomer(store.game(other).document["players"][0])  # seated at table 2: refused
    assert not desk.replace(by="Director")
    assert desk.replacing == game and "plays at table 2 of round 1" in desk.error
    desk.set_newcomer("Gus")
    desk.set_replace_why("went home")
    assert desk.replace(by="Director")
    assert (desk.replacing, desk.error) == ("", "")
    [made] = desk.replacements_of(game)
    assert replaced_line(made, "en") == f"Gus took over from {second} after deal 1"
    assert replaced_line(made, "fi") == f"Gus jatkoi pelaajan {second} paikalla jaon 1 jälkeen"
    assert desk.holders_of(game) == (first, "Gus")
    board.reload(store)
    assert board.seat_changes(1, "en") == [f"Gus took over from {second} after deal 1"]
    assert board.seat_changes(0, "en") == []
    assert board.seat_changes(None, "fi") == [f"Gus jatkoi pelaajan {second} paikalla jaon 1 jälkeen"]
    _, game_events = deal_histories(board.saved.events, deals=1)
    line = event_line(game_events[-1], "en")
    assert line.startswith(f"player replaced (Gus took over from {second} after deal 1) by Director at ")
    assert line.endswith(": went home")
    # Deal entry names the seat's holder at the deal entered: the replacement from deal 2 on,
    # the player who left when an earlier deal is corrected; the hand stays keyed by the seat.
    from scorer.ui.i18n import tr
    from scorer.ui.screens.deal_model import DealModel

    entry = DealModel.load(store, game, None)
    assert entry.deal_number == 2
    assert (entry.seat_name(first), entry.seat_name(second)) == (first, "Gus")
    assert tr("deal.seat_of", "en", holder="Gus", player=second) == f"Gus (in {second}'s seat)"
    assert DealModel.load(store, game, 1).seat_name(second) == second
