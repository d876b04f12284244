"""The league store: every test runs against a store in memory and a store in a folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import reopen

from scorer.league import state as state_module
from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.checkpoint import load as load_checkpoint
from scorer.league.errors import (
    GameStatusError,
    SeasonClosedError,
    StoreInputError,
    UnknownGameError,
    UnknownLeagueError,
    UnknownPlayerError,
)
from scorer.league.log import checksum
from scorer.league.ratings import rate
from scorer.league.standings import player_stats, standings
from scorer.league.store import Store

GIN_50 = {"target": 50}
BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}  # 20 + 31 = 51
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}  # 30 + 25 = 55


@pytest.fixture()
def store(store_of_each_kind: Store) -> Store:
    return store_of_each_kind


def gin_game(store: Store, *, league: str | None = "Club", players: tuple[str, ...] = ("Anna", "Bea")) -> str:
    return store.start_game(ruleset="gin", players=list(players), options=GIN_50, league=league).id


def test_create_league_with_its_first_season(store: Store) -> None:
    league = store.create_league("Friday club", season="Autumn")
    assert league.name == "Friday club"
    assert [s.name for s in league.seasons] == ["Autumn"]
    assert league.season is not None and league.season.name == "Autumn"
    assert store.league("friday CLUB").id == league.id
    assert store.league(league.id).name == "Friday club"
    assert [lg.name for lg in reopen(store).leagues()] == ["Friday club"]


def test_a_league_name_is_used_once(store: Store) -> None:
    store.create_league("Club")
    with pytest.raises(StoreInputError, match="already exists"):
        store.create_league(" club ")


def test_unknown_league_is_bad_input_naming_it(store: Store) -> None:
    store.create_league("Club")
    with pytest.raises(UnknownLeagueError, match="no league named 'Clubb' \\(leagues: Club\\)"):
        store.league("Clubb")
    assert issubclass(UnknownLeagueError, ValueError)


def test_record_a_game_deal_by_deal(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    game = store.add_deal(game_id, BEA_GIN)
    assert game.result.totals == {"Anna": 0, "Bea": 235}  # 55, a shutout, the game bonus, a box
    assert game.finished
    again = reopen(store).game(game_id)
    assert again.result.totals == {"Anna": 0, "Bea": 235}
    assert again.document["deals"] == [BEA_GIN]
    assert again.document["options"] == GIN_50
    [info] = reopen(store).games(league="Club")
    assert info.finished and info.deals == 1
    assert info.names == ("Anna", "Bea")
    assert info.winner == store.player("Bea").id


def test_an_invalid_deal_changes_nothing(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}})
    with pytest.raises(ValueError, match="knoker"):
        store.add_deal(game_id, {"knoker": "Anna"})
    with pytest.raises(ValueError, match="deal 2"):
        store.add_deal(game_id, {"knocker": "Cid", "deadwood": {"Cid": 0, "Bea": 30}})
    assert len(reopen(store).game(game_id).document["deals"]) == 1
    assert reopen(store).games()[0].deals == 1


def test_a_deal_after_the_end_is_refused(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, BIG_GIN)
    with pytest.raises(ValueError, match="already over"):
        store.add_deal(game_id, BEA_GIN)


def test_replace_and_remove_a_deal_rescore_the_rest(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}})
    store.add_deal(game_id, {"knocker": "Bea", "deadwood": {"Bea": 2, "Anna": 10}})
    game = store.replace_deal(game_id, 0, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 15}})
    assert game.result.totals == {"Anna": 10, "Bea": 8}
    game = store.remove_deal(game_id, 0)
    assert game.result.totals == {"Anna": 0, "Bea": 8}
    assert reopen(store).games()[0].summary.totals[store.player("Bea").id] == 8
    with pytest.raises(ValueError, match="deal 5: there is no such deal"):
        store.remove_deal(game_id, 4)


def test_delete_a_game_is_undoable(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    standings = store.standings("Club")
    store.delete_game(game_id, by="Bea", why="entered twice")
    again = reopen(store)
    assert again.games() == []
    assert again.standings("Club") == []
    assert [g.status for g in again.games(deleted=True)] == ["deleted"]
    assert again.game(game_id).status == "deleted"
    with pytest.raises(GameStatusError, match="undo the deletion"):
        again.add_deal(game_id, {"deadwood": {"Anna": 0, "Bea": 10}, "knocker": "Anna"})
    back = again.undelete_game(game_id, by="Anna")
    assert back.status == "active"
    assert reopen(store).standings("Club") == standings
    actions = [(e.action, e.by, e.why) for e in reopen(store).events(game_id)][-2:]
    assert actions == [("deleted", "Bea", "entered twice"), ("undeleted", "Anna", None)]


def test_unknown_game_id_is_bad_input(store: Store) -> None:
    with pytest.raises(UnknownGameError, match=r"no game with id '\.\./x'"):
        store.game("../x")


def test_new_player_names_become_players_and_ids_seat_known_ones(store: Store) -> None:
    anna = store.add_player("Anna")
    game = store.start_game(ruleset="rommi", players=[anna.id, "Bea"])
    assert game.document["players"] == ["Anna", "Bea"]
    assert [p.name for p in reopen(store).players()] == ["Anna", "Bea"]
    with pytest.raises(StoreInputError, match="Anna named twice"):
        store.start_game(ruleset="rommi", players=["Anna", "anna"])
    with pytest.raises(StoreInputError, match=r"^players: Anna named twice;"):  # Bea, once, is not named
        store.start_game(ruleset="rommi", players=["Anna", "Bea", "anna"])


def test_players_by_league(store: Store) -> None:
    store.create_league("Club")
    store.create_league("Family")
    gin_game(store, league="Club", players=("Anna", "Bea"))
    gin_game(store, league="Family", players=("Cid", "Bea"))
    assert [p.name for p in store.players(league="Family")] == ["Bea", "Cid"]


def test_rename_keeps_the_games(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, BEA_GIN)
    store.rename_player("Bea", "Beatrice")
    [row, *_] = reopen(store).standings("Club")
    assert row.player == store.player("Beatrice").id and row.wins == 1
    with pytest.raises(UnknownPlayerError):
        store.player("Bea")
    with pytest.raises(StoreInputError, match="already exists"):
        store.rename_player("Anna", "beatrice")


def test_merge_players_moves_the_games(store: Store) -> None:
    store.create_league("Club")
    first = gin_game(store, players=("Anna", "Bea"))
    store.add_deal(first, BEA_GIN)
    second = gin_game(store, players=("Anna", "Bee"))
    store.add_deal(second, {"knocker": "Bee", "deadwood": {"Bee": 0, "Anna": 30}})
    old_bee = store.player("Bee").id
    kept = store.merge_players("Bea", "Bee")
    again = reopen(store)
    assert [p.name for p in again.players()] == ["Anna", "Bea"]
    assert again.player(old_bee).id == kept.id
    rows = {r.player: r for r in again.standings("Club")}
    assert rows[kept.id].wins == 2 and rows[kept.id].games == 2
    assert again.game(second).players == (store.player("Anna").id, kept.id)


def test_merge_refuses_two_people_of_one_game(store: Store) -> None:
    store.create_league("Club")
    gin_game(store)
    with pytest.raises(StoreInputError, match="played each other"):
        store.merge_players("Anna", "Bea")


def test_closing_a_season_freezes_its_games(store: Store) -> None:
    store.create_league("Club", season="2025")
    old = gin_game(store)
    store.add_deal(old, BEA_GIN)
    unfinished = gin_game(store)
    closed = store.close_season("Club")
    assert closed.name == "2025" and not closed.is_open
    with pytest.raises(SeasonClosedError, match="no open season"):
        gin_game(store)
    with pytest.raises(SeasonClosedError, match="closed season '2025'"):
        store.add_deal(unfinished, BIG_GIN)
    with pytest.raises(SeasonClosedError):
        store.delete_game(old)
    season = store.new_season("Club", "2026")
    new = gin_game(store)
    store.add_deal(new, BIG_GIN)
    again = reopen(store)
    assert [g.id for g in again.games(league="Club", season="2026")] == [new]
    assert {g.id for g in again.games(league="Club", season="2025")} == {old, unfinished}
    assert [s.name for s in again.league("Club").seasons] == ["2025", "2026"]
    assert again.league("Club").season == season
    anna = again.player("Anna").id
    assert [r.player for r in again.standings("Club", season="2026") if r.wins] == [anna]
    assert [r.wins for r in again.standings("Club")] == [1, 1]


def test_new_season_closes_the_open_one(store: Store) -> None:
    store.create_league("Club")
    store.new_season("Club")
    seasons = store.league("Club").seasons
    assert [(s.name, s.is_open) for s in seasons] == [("Season 1", False), ("Season 2", True)]


def test_games_filter_finished(store: Store) -> None:
    store.create_league("Club")
    done = gin_game(store)
    store.add_deal(done, BIG_GIN)
    going = gin_game(store)
    assert [g.id for g in store.games(finished=True)] == [done]
    assert [g.id for g in store.games(league="Club", finished=False)] == [going]


def test_standings_count_finished_games(store: Store) -> None:
    store.create_league("Club")
    for deal in (BIG_GIN, BIG_GIN, BEA_GIN):
        store.add_deal(gin_game(store), deal)
    gin_game(store)  # unfinished: counts nowhere
    rows = reopen(store).standings("Club")
    anna, bea = store.player("Anna").id, store.player("Bea").id
    assert [(r.player, r.games, r.wins, r.deals) for r in rows] == [(anna, 3, 2, 3), (bea, 3, 1, 3)]


def test_the_ruleset_snapshot_keeps_old_results(store: Store, tmp_path: Path) -> None:
    rules = tmp_path / "our-gin.toml"
    rules.write_text('base = "gin"\nid = "our-gin"\nname = "our gin"\ndescription = "ours"\ntarget = 50\n')
    store.create_league("Club")
    game = store.start_game(ruleset=str(rules), players=["Anna", "Bea"], league="Club")
    store.add_deal(game.id, BEA_GIN)
    rules.write_text('base = "gin"\nid = "our-gin"\nname = "our gin"\ndescription = "ours"\ntarget = 500\n')
    again = reopen(store).game(game.id)
    assert again.finished and again.game.ruleset.target == 50


def test_a_summary_from_other_code_is_rebuilt(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, BEA_GIN)
    if store.location is not None:
        store._ledger.save_checkpoint()  # type: ignore[attr-defined]  # its summaries under this code
    monkeypatch.setattr(state_module, "CODE_VERSION", "0.0.0+other")
    again = reopen(store)
    [info] = again.games()
    assert info.finished
    if store.location is not None:  # computed again by this code, not taken from the checkpoint
        assert again._ledger.state.summaries[game_id]["code"] == "0.0.0+other"


def test_standings_follow_every_change_even_from_another_program(store: Store) -> None:
    store.create_league("Club")
    store.add_deal(gin_game(store), BIG_GIN)
    first = store.standings("Club")
    assert store.standings("Club") == first
    other = reopen(store)  # another program on the same folder (the same store in memory)
    other.add_deal(gin_game(other), BEA_GIN)
    assert [r.games for r in store.standings("Club")] == [2, 2]
    other.rename_player("Bea", "Beatrice")
    store.delete_game(store.games()[-1].id)
    assert store.standings("Club") == first


def test_a_damaged_cached_summary_is_computed_again_not_trusted(store: Store) -> None:
    store.create_league("Club")
    game_id = gin_game(store)
    store.add_deal(game_id, BIG_GIN)
    if store.location is None:
        return  # only a file can be damaged from outside
    right = store.standings("Club")
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    saved = store.location / CHECKPOINT_NAME
    # after its sum, its head, then what reads need, then the games' bulky fields (compressed)
    _, head_text, rest = saved.read_bytes().split(b"\n", 2)
    head = json.loads(head_text)
    data = json.loads(rest[: head["light"]])
    rev, row = data["summaries"][game_id]  # totals: a figure for each seat, in their order
    data["summaries"][game_id] = [rev, [*row[:4], [1], *row[5:]]]  # one figure for two seats
    first = json.dumps(data).encode()
    head["light"] = len(first)
    changed = json.dumps(head).encode() + b"\n" + first + rest[len(rest) - head["bulk"] :]
    saved.write_bytes(checksum(changed).encode() + b"\n" + changed)  # its sum made to fit
    assert load_checkpoint(store.location, store=store._ledger.store_id) is not None  # type: ignore[attr-defined]
    assert Store.open(store.location).standings("Club") == right


def _add_deal_elsewhere(store: Store, game_id: str, deal: dict[str, object]) -> None:
    """Record a deal as another program would: a separate process on a folder store."""
    if store.location is None:
        store.add_deal(game_id, deal)  # a memory store has no other writer than itself
        return
    code = (
        "import json, sys; from scorer.league.store import Store; "
        "Store.open(sys.argv[1]).add_deal(sys.argv[2], json.loads(sys.argv[3]))"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(store.location), game_id, json.dumps(deal)], check=True, timeout=120
    )


def test_remembered_standings_and_ratings_follow_a_change_made_elsewhere(store: Store) -> None:
    store.create_league("Club")
    first = gin_game(store)
    store.add_deal(first, BIG_GIN)  # Anna wins the first game
    second = gin_game(store)
    before = store.standings("Club")
    assert [(r.player, r.games, r.wins) for r in before] == [
        (store.player("Anna").id, 1, 1),
        (store.player("Bea").id, 1, 0),
    ]
    store.standings("Club", ruleset="gin")
    store.player_stats("Club", "Bea")

    _add_deal_elsewhere(store, second, BEA_GIN)  # Bea wins the second game

    games = store.played_games("Club")
    for ruleset in (None, "gin"):
        remembered = store.standings("Club", ruleset=ruleset)
        assert remembered == standings(games, ruleset=ruleset)
        assert [(r.games, r.wins) for r in remembered] == [(2, 1), (2, 1)]
    assert store.ratings("Club").ratings == rate(games).ratings
    assert store.player_stats("Club", "Bea") == player_stats(games, store.player("Bea").id)
