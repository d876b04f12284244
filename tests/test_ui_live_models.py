"""Two phones on one game, without a browser: the view-models over one store (issue 13).

Each phone is a view-model over its own :class:`Store` on one folder (two sessions or two app
processes), or over one in-memory store (two sessions of one process): every test runs
against both. What is checked: the change token wakes every screen; a deal two phones save is
never saved twice and each of the three ways on does what it says; a correction racing a
removal is caught either way round; every change is signed and shown as history; games are
abandoned, deleted, brought back and moved; a league export goes into an empty store.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scorer.league.records import GameEvent
from scorer.league.store import Store
from scorer.ui.context import AppSettings
from scorer.ui.live import LiveSession, Revision, StoreWatch
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.exchange_model import PickedFile
from scorer.ui.screens.history_model import deal_histories, event_line, local_time
from scorer.ui.screens.home_model import HomeModel
from scorer.ui.screens.league_import_model import LeagueImportModel
from scorer.ui.screens.leagues_model import LeagueModel, LeaguesModel
from scorer.ui.screens.player_model import PlayerModel
from scorer.ui.screens.scoreboard_model import ScoreboardModel

Phones = Callable[[], tuple[Store, Store]]

ANNA_OUT = {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"}  # Bea 10
BEA_OUT = {"hands": {"Anna": "5C", "Bea": ""}, "out": "Bea"}  # Anna 5


@pytest.fixture(params=["memory", "folder"])
def phones(request: pytest.FixtureRequest, tmp_path: Path) -> Phones:
    """Two phones' stores: one store in memory shared, or two opened on one folder."""
    if request.param == "memory":
        store = Store.memory()
        return lambda: (store, store)
    return lambda: (Store.open(tmp_path / "league"), Store.open(tmp_path / "league"))


def rommi(store: Store, *deals: dict[str, object]) -> str:
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"], by="Cid").id
    for deal in deals:
        store.add_deal(game_id, deal, by="Cid")
    return game_id


def enter(model: DealModel, *, out: str, cards: dict[str, str]) -> DealModel:
    model.set_out(out)
    for player, text in cards.items():
        model.set_cards(player, text)
    return model


# -- the change token wakes every screen ------------------------------------------------------


def test_the_watch_publishes_each_change_by_another_program_once(tmp_path: Path) -> None:
    app, other = Store.open(tmp_path / "league"), Store.open(tmp_path / "league")
    heard: list[str] = []
    watch = StoreWatch(app, publish=heard.append)
    assert not watch.check()
    rommi(other)  # another process on the same folder
    assert watch.check()
    assert not watch.check()  # told once
    assert heard == [app.changes()]


def test_a_session_hears_a_change_once_and_its_screens_read_it(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a)
    board, home = ScoreboardModel.load(a, game_id), HomeModel.load(a)
    revision = Revision.at(a.changes())
    watch = StoreWatch(a, publish=revision.notice)
    b.add_deal(game_id, ANNA_OUT, by="Bea")
    watch.check()
    assert revision.number == 1
    # What a screen does when the revision moves (use_live): read the store again.
    board.reload(a)
    home.reload(a)
    assert board.total_labels() == ["Anna: 0", "Bea: 10"]
    assert [line.deals for line in home.in_progress] == [1]
    watch.check()
    assert revision.number == 1  # nothing new: no second read


def test_a_session_that_writes_tells_the_others_at_once(phones: Phones) -> None:
    a, _ = phones()
    game_id = rommi(a)
    heard: list[str] = []
    watch = StoreWatch(a, publish=heard.append)
    mine = LiveSession(watch=watch, revision=Revision.at(watch.token))
    other = Revision.at(watch.token)
    a.add_deal(game_id, ANNA_OUT)
    mine.announce()
    assert heard == [a.changes()]
    assert [other.notice(token) for token in heard] == [True]  # every session hears it


def test_reading_again_with_nothing_new_changes_nothing_a_screen_would_redraw(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT)
    board, entry, home = ScoreboardModel.load(a, game_id), DealModel.load(a, game_id), HomeModel.load(a)
    changed: list[str | None] = []

    def listen(_sender: object, name: str | None) -> None:  # held here: listeners are weak
        changed.append(name)

    for model in (board, entry, home):
        model.subscribe(listen)
    board.reload(a)
    entry.reload(a)
    home.reload(a)
    assert changed == []
    b.add_deal(game_id, BEA_OUT)
    board.reload(a)
    assert "saved" in changed


def test_a_reconnect_reads_again_even_with_no_new_token() -> None:
    revision = Revision.at("t")
    revision.touch()
    assert revision.number == 1 and revision.token == "t"


def test_the_league_screens_read_a_game_finished_elsewhere(phones: Phones) -> None:
    a, b = phones()
    a.create_league("Club")
    leagues, league = LeaguesModel.load(a), LeagueModel.load(a, "Club")
    game_id = b.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club").id
    b.add_deal(game_id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 60}})
    leagues.reload()
    league.reload()
    assert [line.games for line in leagues.leagues] == [1]
    assert [line.id for line in league.history()] == [game_id]


def test_deal_entry_follows_the_store_until_its_deal_is_taken(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a)
    entry = DealModel.load(a, game_id)
    b.add_deal(game_id, ANNA_OUT, by="Bea")
    entry.reload(a)
    assert entry.deal_number == 1  # still the deal it records
    assert entry.latest is not None and len(entry.latest.game.deals) == 1
    taken = entry.meanwhile()
    assert taken is not None and (taken.action, taken.by, taken.deal) == ("recorded", "Bea", 1)
    # A correction of another deal elsewhere leaves a new entry's deal free: it goes on from it.
    fresh = DealModel.load(a, game_id)
    b.replace_deal(game_id, 0, BEA_OUT, by="Bea")
    fresh.reload(a)
    assert fresh.meanwhile() is None and fresh.saved.document["deals"] == [BEA_OUT]


# -- two phones save one deal ---------------------------------------------------------------


def _both_save_deal_one(a: Store, b: Store) -> tuple[str, DealModel]:
    game_id = rommi(a)
    phone_a, phone_b = DealModel.load(a, game_id), DealModel.load(b, game_id)
    enter(phone_a, out="Anna", cards={"Bea": "KS"})
    enter(phone_b, out="Bea", cards={"Anna": "5C"})
    assert phone_a.save(a, by="Anna")
    assert not phone_b.save(b, by="Bea")
    conflict = phone_b.conflict
    assert conflict is not None
    assert (conflict.doing, conflict.number, conflict.mine, conflict.theirs) == (
        "record",
        1,
        BEA_OUT,
        ANNA_OUT,
    )
    assert conflict.event is not None and (conflict.event.by, conflict.event.action) == ("Anna", "recorded")
    assert b.game(game_id).document["deals"] == [ANNA_OUT]  # nothing of B's written
    return game_id, phone_b


def test_both_save_deal_one_keep_theirs_writes_nothing(phones: Phones) -> None:
    a, b = phones()
    game_id, phone_b = _both_save_deal_one(a, b)
    phone_b.keep_theirs()
    assert phone_b.conflict is None
    assert b.game(game_id).document["deals"] == [ANNA_OUT]


def test_both_save_deal_one_save_mine_as_the_next_deal(phones: Phones) -> None:
    a, b = phones()
    game_id, phone_b = _both_save_deal_one(a, b)
    assert phone_b.save_as_next(b, by="Bea")
    assert phone_b.conflict is None
    assert a.game(game_id).document["deals"] == [ANNA_OUT, BEA_OUT]
    assert [(e.action, e.by, e.deal) for e in a.events(game_id)][-1] == ("recorded", "Bea", 2)


def test_save_mine_as_the_next_deal_is_caught_again_if_another_is_quicker_still(phones: Phones) -> None:
    a, b = phones()
    game_id, phone_b = _both_save_deal_one(a, b)
    # save_as_next reads the game then saves deal 2: a third phone saves deal 2 in between.
    real_game = b.game

    def third_phone_first(game: str) -> object:
        seen = real_game(game)
        a.add_deal(game_id, ANNA_OUT, by="Cid", number=2)
        b.game = real_game  # type: ignore[method-assign]
        return seen

    b.game = third_phone_first  # type: ignore[assignment,method-assign]
    assert not phone_b.save_as_next(b, by="Bea")
    assert phone_b.conflict is not None and phone_b.conflict.number == 2
    assert len(a.game(game_id).game.deals) == 2


def test_both_save_deal_one_replace_theirs_is_a_signed_correction_with_its_reason(phones: Phones) -> None:
    a, b = phones()
    game_id, phone_b = _both_save_deal_one(a, b)
    assert phone_b.replace_theirs(b, by="Bea", why="Bea went out")
    assert a.game(game_id).document["deals"] == [BEA_OUT]
    last = a.events(game_id)[-1]
    assert (last.action, last.by, last.deal, last.why) == ("corrected", "Bea", 1, "Bea went out")


def test_replace_theirs_is_refused_if_theirs_changed_again(phones: Phones) -> None:
    a, b = phones()
    game_id, phone_b = _both_save_deal_one(a, b)
    a.replace_deal(game_id, 0, {"hands": {"Anna": "", "Bea": "QS"}, "out": "Anna"}, by="Anna")
    assert not phone_b.replace_theirs(b, by="Bea")
    assert phone_b.conflict is not None
    assert phone_b.conflict.theirs == {"hands": {"Anna": "", "Bea": "QS"}, "out": "Anna"}


# -- a correction racing a removal ----------------------------------------------------------


def test_a_correction_of_a_deal_removed_meanwhile_is_caught_and_can_put_it_back(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT, BEA_OUT)
    correction = DealModel.load(a, game_id, 2)
    correction.set_cards("Anna", "5C 2C")
    correction.set_why("the two of clubs")
    ScoreboardModel.load(b, game_id).remove(b, 2, by="Bea", why="never dealt")
    assert not correction.save(a, by="Anna")
    conflict = correction.conflict
    assert conflict is not None and (conflict.doing, conflict.number, conflict.theirs) == ("correct", 2, None)
    assert conflict.event is not None and (conflict.event.action, conflict.event.by) == ("removed", "Bea")
    assert a.game(game_id).document["deals"] == [ANNA_OUT]
    # Replace theirs: mine goes back where the removed deal was.
    assert correction.replace_theirs(a, by="Anna")
    assert a.game(game_id).document["deals"] == [
        ANNA_OUT,
        {"hands": {"Anna": "5C 2C", "Bea": ""}, "out": "Bea"},
    ]


def test_a_removal_of_a_deal_corrected_meanwhile_is_caught(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT, BEA_OUT)
    board = ScoreboardModel.load(b, game_id)  # B's scoreboard shows deal 2 as first saved
    corrected = {"hands": {"Anna": "5C 2C", "Bea": ""}, "out": "Bea"}
    correction = DealModel.load(a, game_id, 2)
    correction.set_cards("Anna", "5C 2C")
    assert correction.save(a, by="Anna")
    board.remove(b, 2, by="Bea")
    conflict = board.conflict
    assert conflict is not None and (conflict.doing, conflict.mine, conflict.theirs) == (
        "remove",
        BEA_OUT,
        corrected,
    )
    assert a.game(game_id).document["deals"] == [ANNA_OUT, corrected]
    assert board.total_labels() == ["Anna: 7", "Bea: 10"]  # the board shows theirs now
    board.keep_theirs(b)
    assert board.conflict is None and a.game(game_id).document["deals"] == [ANNA_OUT, corrected]
    # Or remove theirs after all.
    board.remove(b, 2, by="Bea")
    assert board.conflict is None and a.game(game_id).document["deals"] == [ANNA_OUT]


def test_remove_theirs_removes_the_deal_as_the_other_phone_left_it(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT, BEA_OUT)
    board = ScoreboardModel.load(b, game_id)
    a.replace_deal(game_id, 1, ANNA_OUT, by="Anna")
    board.remove(b, 2, by="Bea", why="a mistake")
    assert board.conflict is not None
    board.remove_theirs(b, by="Bea", why="a mistake")
    assert board.conflict is None and a.game(game_id).document["deals"] == [ANNA_OUT]
    assert a.events(game_id)[-1].why == "a mistake"


def test_undo_of_a_removal_is_one_restored_event(phones: Phones) -> None:
    a, _ = phones()
    game_id = rommi(a, ANNA_OUT, BEA_OUT, ANNA_OUT)
    board = ScoreboardModel.load(a, game_id)
    board.remove(a, 1, by="Bea")
    board.undo(a, by="Bea")
    assert a.game(game_id).document["deals"] == [ANNA_OUT, BEA_OUT, ANNA_OUT]
    assert [e.action for e in a.events(game_id)][-2:] == ["removed", "restored"]


# -- every change signed, and shown as history -----------------------------------------------


def test_the_device_name_signs_its_changes_and_empty_signs_none() -> None:
    settings = AppSettings()
    assert settings.signer is None
    settings.set_name("  Bea   Lee ")
    assert settings.name == "  Bea   Lee "  # as typed: a space can be typed between names
    assert settings.signer == "Bea Lee"
    settings.set_name("x" * 300)
    assert len(settings.name) == 100


def test_history_lines_in_both_languages() -> None:
    today = datetime(2026, 12, 1, 21, 30, tzinfo=UTC)
    at = datetime(2026, 12, 1, 19, 4, tzinfo=UTC).isoformat()
    when_en, when_fi = local_time(at, "en", today=today), local_time(at, "fi", today=today)
    event = GameEvent(seq=3, at=at, by="Bea", action="corrected", deal=2, why="miscounted the jokers")
    assert event_line(event, "en", today=today) == f"corrected by Bea at {when_en}: miscounted the jokers"
    assert event_line(event, "fi", today=today) == f"korjattu: Bea klo {when_fi}: miscounted the jokers"
    assert len(when_en) == 5 and when_en[2] == ":" and when_fi[2] == "."
    unsigned = GameEvent(seq=4, at=at, by="", action="removed", deal=2, why=None)
    assert event_line(unsigned, "en", with_deal=True, today=today) == f"Deal 2: removed at {when_en}"
    older = datetime(2026, 11, 20, 19, 4, tzinfo=UTC).isoformat()
    assert local_time(older, "en", today=today).startswith("2026-11-")


def test_each_deal_row_gets_its_own_history_after_a_removal_renumbers_them(phones: Phones) -> None:
    a, _ = phones()
    game_id = rommi(a, ANNA_OUT, BEA_OUT, ANNA_OUT)
    a.remove_deal(game_id, 0, by="Bea", why="dealt twice")
    a.replace_deal(game_id, 1, BEA_OUT, by="Anna", why="miscounted")
    board = ScoreboardModel.load(a, game_id)
    rows, game = board.history()
    # Old deals 2 and 3 are deals 1 and 2 now: each keeps its own recording.
    assert [(e.action, e.deal) for e in rows[1]] == [("recorded", 2)]
    assert [(e.action, e.by, e.why) for e in rows[2]] == [
        ("recorded", "Cid", None),
        ("corrected", "Anna", "miscounted"),
    ]
    assert [(e.action, e.by) for e in game] == [("started", "Cid"), ("removed", "Bea")]


def test_history_of_a_game_older_than_its_events_falls_back_to_the_numbers() -> None:
    event = GameEvent(seq=1, at="2026-12-01T19:04:00+00:00", by="", action="corrected", deal=3, why=None)
    rows, game = deal_histories([event], deals=3)
    assert rows == {3: [event]} and game == []


# -- abandon, delete, undo, move ------------------------------------------------------------


def test_abandon_and_resume(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT)
    board = ScoreboardModel.load(a, game_id)
    assert board.abandon(a, by="Anna", why="late")
    home = HomeModel.load(b)
    assert home.in_progress == [] and [line.id for line in home.abandoned] == [game_id]
    entry = DealModel.load(b, game_id)
    assert entry.status == "abandoned"
    assert not enter(entry, out="Anna", cards={"Bea": "KS"}).save(b)  # the store refuses it
    assert board.resume(a, by="Anna")
    home.reload(b)
    assert [line.id for line in home.in_progress] == [game_id] and home.abandoned == []
    assert [e.action for e in a.events(game_id)][-2:] == ["abandoned", "resumed"]


def test_delete_and_undo(phones: Phones) -> None:
    a, b = phones()
    game_id = rommi(a, ANNA_OUT)
    board = ScoreboardModel.load(a, game_id)
    assert board.delete(a, by="Anna")
    assert board.status == "deleted"
    home = HomeModel.load(b)
    assert home.in_progress == home.abandoned == home.finished == []  # listed nowhere
    assert board.undelete(a, by="Anna")
    home.reload(b)
    assert [line.id for line in home.in_progress] == [game_id]


def test_a_game_of_no_league_moves_into_one_and_counts_there(phones: Phones) -> None:
    a, b = phones()
    a.create_league("Club")
    game_id = b.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}).id
    b.add_deal(game_id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 60}})
    board = ScoreboardModel.load(a, game_id)
    assert board.league == "" and [name for _, name in board.leagues] == ["Club"]
    assert board.move(a, board.leagues[0][0], by="Anna")
    assert board.league == "Club" and board.season == "Season 1"
    assert [line.id for line in LeagueModel.load(b, "Club").history()] == [game_id]
    assert not board.move(a, board.leagues[0][0])  # there already: the store says so
    assert board.error


# -- a league export into an empty store ------------------------------------------------------


def _club_export(tmp_path: Path) -> PickedFile:
    club = Store.open(tmp_path / "club")
    club.create_league("Friday club", season="Autumn")
    club.new_season("Friday club", "Winter")
    game_id = club.start_game(
        ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Friday club"
    )
    club.add_deal(game_id.id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 60}})
    data = json.dumps(club.export_league("Friday club")).encode("utf-8")
    return PickedFile(name="friday-club.json", data=data)


def test_a_league_export_goes_into_an_empty_store_with_its_league_made(
    phones: Phones, tmp_path: Path
) -> None:
    a, _ = phones()
    picked = _club_export(tmp_path)
    model = LeagueImportModel(store=a)
    assert model.prepare([picked])
    assert (model.league, model.new_league) == ("Friday club", True)
    assert model.plan is not None and (model.plan.games_added, model.plan.players_added) == (1, 2)
    assert a.leagues() == []  # nothing written before the player confirms
    league_id = model.confirm(by="Bea")
    assert league_id is not None and model.done is not None and model.done.games_added == 1
    (game,) = a.games(league="Friday club")
    assert [(e.action, e.by) for e in a.events(game.id)][-1] == ("imported", "Bea")
    league = a.league("Friday club")
    assert league.id == league_id
    assert league.season is not None and league.season.name == "Winter"  # new games go where they went
    club = Store.open(tmp_path / "club")
    assert a.standings("Friday club", season=None) == club.standings("Friday club", season=None)
    # Again: into the league it names, which is there now; nothing new.
    again = LeagueImportModel(store=a)
    assert again.prepare([picked]) and not again.new_league
    assert again.plan is not None and not again.plan.changes


def test_game_files_name_no_league_and_two_exports_two_leagues(tmp_path: Path) -> None:
    store = Store.memory()
    game_file = PickedFile(
        name="game.json",
        data=json.dumps({"ruleset": "rommi", "players": ["Anna", "Bea"], "deals": [ANNA_OUT]}).encode(),
    )
    model = LeagueImportModel(store=store)
    assert not model.prepare([game_file]) and model.problem == "leagues.import_no_league"
    other = Store.memory()
    other.create_league("Tuesday")
    second = PickedFile(name="tuesday.json", data=json.dumps(other.export_league("Tuesday")).encode())
    assert not model.prepare([_club_export(tmp_path), second])
    assert model.problem == "leagues.import_two_leagues" and model.names == "Friday club, Tuesday"
    broken = PickedFile(name="broken.json", data=b"{")
    assert not model.prepare([broken]) and "broken.json" in model.error
    assert store.leagues() == []


def test_an_abandoned_league_game_leaves_the_league_screens(phones: Phones) -> None:
    a, b = phones()
    a.create_league("Club")
    game_id = a.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club").id
    a.add_deal(game_id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 60}})
    open_game = a.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
    league, leagues = LeagueModel.load(b, "Club"), LeaguesModel.load(b)
    anna = PlayerModel.load(b, "Anna")
    assert [line.id for line in league.history()] == [game_id] and league.in_progress() == 1
    assert anna.stats.overall is not None and anna.stats.overall.games == 1
    ScoreboardModel.load(a, game_id).abandon(a, by="Anna")
    ScoreboardModel.load(a, open_game).abandon(a, by="Anna")
    league.reload()
    leagues.reload()
    assert league.history() == [] and league.in_progress() == 0 and league.variants() == []
    assert [(p.name, p.games, p.wins) for p in leagues.players] == [("Anna", 0, 0), ("Bea", 0, 0)]
    anna.reload()
    assert anna.stats.overall is None and anna.recent() == []


def test_lists_keep_the_stored_time_for_the_screen_to_show_in_local_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Home, the league's games, a player's games and nights keep the store's UTC stamp; the
    screens show it with :func:`local_time`, in the device's zone and the language's format
    (they showed the UTC text, two or three hours off in Finland)."""
    import time

    store = Store.memory()
    store.create_league("Club")
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club", options={"target": 30})
    store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *"}, "out": "Anna"})
    store.start_night("Club", players=["Anna", "Bea", "Cid"], ruleset="rommi", seed=1)
    stored = store.game(game.id)
    league = LeagueModel.load(store, "Club")
    [line] = [h for h in league.history() if h.id == game.id]
    [night] = league.nights
    player = PlayerModel.load(store, "Anna")
    [recent] = [g for g in player.recent() if g.id == game.id]
    assert line.played == stored.played and recent.played == stored.played
    assert HomeModel.load(store).finished[0].changed == stored.changed
    assert night.date == player.nights()[0].date == store.night("Club").created
    monkeypatch.setenv("TZ", "Europe/Helsinki")
    time.tzset()
    try:
        today = datetime(2026, 12, 1, 21, 30, tzinfo=UTC)
        at = datetime(2026, 11, 30, 19, 5, tzinfo=UTC).isoformat()
        assert local_time(at, "fi", today=today) == "30.11.2026 21.05"  # UTC+2 in winter
        assert local_time(at, "en", today=today) == "2026-11-30 21:05"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
