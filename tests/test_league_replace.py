"""A replacement takes over a seat mid-game (scorer/replacement.py, scorer/league/replacements.py,
the store's replace_player, the summary's split of a seat; docs/rules.md, "Replacements";
docs/cli.md, ``rummy league night replace``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import reopen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_league_director import db as db  # the CLI tests' store: a gin night of four
from test_league_director import run

from scorer.deal import Deal
from scorer.game import Game, Penalty
from scorer.gamefile import game_document, parse_game
from scorer.league.errors import GameStatusError, StoreInputError
from scorer.league.standings import head_to_head, standings
from scorer.league.store import Store
from scorer.league.summary import GameSummary, PlayedGame, summarize
from scorer.replacement import InvalidReplacementError, Replacement
from scorer.ruleset import load_ruleset

LONG = {"target": 500}  # rommi to 500: many deals before a game ends


@pytest.fixture()
def store(store_of_each_kind: Store) -> Store:
    store_of_each_kind.create_league("Club")
    return store_of_each_kind


def night_of_two_tables(store: Store) -> tuple[str, list[str], list[str]]:
    """A night of two rommi tables of three (to 500): table 1's game and its seats' names,
    and table 2's seats' names."""
    night = store.start_night(
        "Club", players=["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"], ruleset="rommi", seed=1, options=LONG
    )
    first, second = night.rounds[0].tables
    names = list(store.game(first.game).document["players"])
    return first.game, names, list(store.game(second.game).document["players"])


def deal(out: str, players: list[str]) -> dict[str, Any]:
    """A rommi deal: ``out`` goes out with 0, the next seats hold 36 and 30 points."""
    held = iter(["KS AH *", "KH QH JH"])
    return {"hands": {p: "" if p == out else next(held) for p in players}, "out": out}


# -- the store: a replacement, and what it changes ----------------------------------------------


def test_the_deals_before_stay_with_the_player_who_left(store: Store) -> None:
    game, names, _ = night_of_two_tables(store)
    a, b, _ = names
    store.add_deal(game, deal(a, names))  # b, c: 36 each
    store.add_deal(game, deal(b, names))  # a, c: 36 each
    stored = store.replace_player(game, "2", "Gus", why="Bea went home", by="Director")
    made = stored.game.replacements[0]
    assert (made.seat, made.player, made.replacement, made.after, made.why, made.by) == (
        1,
        b,
        "Gus",
        2,
        "Bea went home",
        "Director",
    )
    store.add_deal(game, deal(a, names))  # the seat is still named b in the deals: b 36 more
    again = reopen(store)
    result = again.game(game).result
    assert result.totals[b] == 72  # the seat's total goes on
    ids = {again.player(n).name: again.player(n).id for n in [*names, "Gus"]}
    info = next(g for g in again.games(league="Club") if g.id == game)
    summary = info.summary
    assert summary.totals[ids[b]] == 36 and summary.totals[ids["Gus"]] == 36
    assert summary.seated == {ids[b]: [1, 2], ids["Gus"]: [3, 3]}
    assert summary.left == (ids[b],)
    assert summary.deals_won[ids[b]] == 1 and summary.deals_won[ids["Gus"]] == 0
    _, rows = again.night_standings("Club")
    row = {r.player: r for r in rows}
    assert row[ids[b]].left_after == (2,) and row[ids["Gus"]].joined_after == (2,)
    events = again.events(game)
    assert events[-2].action == "replaced" and events[-2].why == "Bea went home"
    assert events[-2].was == {"seat": 2, "player": b, "replacement": "Gus", "after": 2}


def test_the_seats_result_goes_to_whoever_holds_it_at_the_end(store: Store) -> None:
    two = ["Anna", "Bea"]
    night = store.start_night("Club", players=two, ruleset="rommi", seed=1, options={"target": 60})
    table = night.rounds[0].tables[0]
    a, b = store.game(table.game).document["players"]
    store.add_deal(table.game, deal(a, [a, b]))  # b 36
    store.replace_player(table.game, a, "Gus", after=1)
    store.add_deal(table.game, deal(a, [a, b]))  # b 72: the game ends, seat a wins
    ids = {n: store.player(n).id for n in (a, b, "Gus")}
    info = next(g for g in store.games(league="Club") if g.id == table.game)
    assert info.finished and info.summary.winner == ids["Gus"]
    _, rows = store.night_standings("Club")
    row = {r.player: r for r in rows}
    assert row[ids["Gus"]].night_points == 3 and row[ids["Gus"]].games == 1 and row[ids["Gus"]].wins == 1
    assert row[ids[a]].night_points == 0 and row[ids[a]].games == 0 and row[ids[a]].left_after == (1,)
    assert row[ids[b]].night_points == 2
    league = {r.player: r for r in store.standings("Club")}
    assert league[ids[a]].games == 0 and league[ids[a]].deals == 1 and league[ids[a]].deals_won == 1
    assert league[ids["Gus"]].games == 1 and league[ids["Gus"]].wins == 1 and league[ids["Gus"]].deals == 1


def test_a_penalty_after_the_replacement_is_the_replacements(store: Store) -> None:
    game, names, _ = night_of_two_tables(store)
    store.add_deal(game, deal(names[0], names))
    store.penalise(game, names[1], 5, why="slow play")  # before: the player who left
    store.replace_player(game, names[1], "Gus")
    store.penalise(game, "Gus", 7, why="talking")  # the seat's player now, by name
    with pytest.raises(StoreInputError, match=f"player '{names[1]}' is not at table 1"):
        store.penalise(game, names[1], 1, why="gone")
    store.add_deal(game, deal(names[0], names))
    summary = next(g for g in store.games(league="Club") if g.id == game).summary
    bea, gus = store.player(names[1]).id, store.player("Gus").id
    assert summary.totals[bea] == 36 + 5 and summary.totals[gus] == 36 + 7
    assert store.game(game).result.totals[names[1]] == 36 + 36 + 5 + 7
    _, rows = store.night_standings("Club")  # the fewest-penalties tie-break's figure
    assert {r.player: r.penalties for r in rows if r.player in (bea, gus)} == {bea: 5, gus: 7}


def test_refusals_write_nothing(store: Store) -> None:
    game, names, others = night_of_two_tables(store)
    store.add_deal(game, deal(names[0], names))
    plain = store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club").id
    before = store.position
    with pytest.raises(StoreInputError, match=f"game '{plain}' is not a table of a club night"):
        store.replace_player(plain, "1", "Gus")
    with pytest.raises(StoreInputError, match="seat '4': choose a seat from 1 to 3"):
        store.replace_player(game, "4", "Gus")
    with pytest.raises(StoreInputError, match="seat 'Zed': choose a seat from 1 to 3"):
        store.replace_player(game, "Zed", "Gus")
    with pytest.raises(StoreInputError, match=f"'{others[0]}' plays at table 2 of round 1"):
        store.replace_player(game, "1", others[0])
    with pytest.raises(StoreInputError, match=f"'{names[1]}' already plays at table 1"):
        store.replace_player(game, "1", names[1])
    with pytest.raises(StoreInputError, match="after deal '2': a whole number from 0 to 1"):
        store.replace_player(game, "1", "Gus", after=2)
    assert store.position == before
    store.replace_player(game, "1", "Gus", after=1)
    with pytest.raises(StoreInputError, match="after deal '0': a whole number from 1 to 1"):
        store.replace_player(game, "Gus", "Hal", after=0)  # before the seat's last replacement


def test_a_finished_game_takes_no_replacement(store: Store) -> None:
    two = ["Anna", "Bea"]
    night = store.start_night("Club", players=two, ruleset="rommi", seed=1, options={"target": 30})
    table = night.rounds[0].tables[0]
    a, b = store.game(table.game).document["players"]
    store.add_deal(table.game, deal(a, [a, b]))
    with pytest.raises(GameStatusError, match="has ended: a replacement takes over a game still being"):
        store.replace_player(table.game, "1", "Gus")


def test_a_seat_replaced_twice_and_a_merge_of_the_replacement(store: Store) -> None:
    game, names, _ = night_of_two_tables(store)
    store.add_deal(game, deal(names[0], names))
    store.replace_player(game, "3", "Gus")
    store.add_deal(game, deal(names[0], names))
    store.replace_player(game, "Gus", "Hal")
    store.add_deal(game, deal(names[2], names))
    gus, hal = store.player("Gus").id, store.player("Hal").id
    summary = next(g for g in store.games(league="Club") if g.id == game).summary
    assert summary.seated[gus] == [2, 2] and summary.seated[hal] == [3, 3]
    assert summary.totals[gus] == 30 and summary.totals[hal] == 0  # seat 3 held 30 in deal 2
    store.add_player("Gustav")
    store.merge_players("Gustav", "Gus")
    summary = next(g for g in store.games(league="Club") if g.id == game).summary
    assert store.player("Gustav").id in summary.seated and gus not in summary.players


def test_an_export_and_the_facts_carry_the_replacement(store: Store, tmp_path: Path) -> None:
    game, names, _ = night_of_two_tables(store)
    store.add_deal(game, deal(names[0], names))
    store.replace_player(game, "2", "Gus", why="ill")
    store.add_deal(game, deal(names[1], names))
    path = tmp_path / "club.json"
    path.write_text(json.dumps(store.export_league("Club")))
    elsewhere = Store.open(tmp_path / "elsewhere")
    elsewhere.create_league("Club")
    report = elsewhere.import_files("Club", [path])
    assert report.conflicts == []
    moved = elsewhere.game(game)
    assert moved.game.replacements == store.game(game).game.replacements
    ids = {p.id: p.name for p in elsewhere.players()}
    ours = {p.id: p.name for p in store.players()}
    theirs = next(g for g in elsewhere.games(league="Club") if g.id == game).summary
    mine = next(g for g in store.games(league="Club") if g.id == game).summary
    assert {ids[p]: v for p, v in theirs.totals.items()} == {ours[p]: v for p, v in mine.totals.items()}
    assert {ids[p] for p in theirs.left} == {names[1]}


# -- late arrivals (docs/rules.md, "Byes") -------------------------------------------------------


@pytest.mark.parametrize("late_byes", [True, False])
def test_a_late_arrival_gets_a_bye_for_each_round_missed_when_the_night_says(
    store: Store, late_byes: bool
) -> None:
    four = ["Anna", "Bea", "Cid", "Dan"]
    night = store.start_night(
        "Club", players=four, ruleset="gin", seed=1, options={"target": 50}, bye_points=2, late_byes=late_byes
    )
    assert night.late_byes is late_byes
    for table in night.rounds[0].tables:
        a, b = store.game(table.game).document["players"]
        store.add_deal(table.game, {"knocker": a, "deadwood": {a: 0, b: 30}})
    store.next_round("Club", players=[*four, "Eve", "Fay"], seed=2)
    _, rows = reopen(store).night_standings("Club")
    late = {r.player: r for r in rows if r.player in (store.player("Eve").id, store.player("Fay").id)}
    assert len(late) == 2
    for row in late.values():
        assert (row.byes, row.night_points, row.games) == ((1, 2.0, 0) if late_byes else (0, 0.0, 0))


def test_with_late_byes_the_rounds_missed_count_as_sat_out_when_seating(store: Store) -> None:
    four = ["Anna", "Bea", "Cid", "Dan"]
    gin = {"target": 50}
    night = store.start_night("Club", players=four, ruleset="gin", seed=1, options=gin, late_byes=True)
    for table in night.rounds[0].tables:
        a, b = store.game(table.game).document["players"]
        store.add_deal(table.game, {"knocker": a, "deadwood": {a: 0, b: 30}})
    # Eve missed round 1: a bye already, so one of those who played it sits out now
    seated = store.next_round("Club", players=[*four, "Eve"], seed=5)
    assert len(seated.rounds[1].byes) == 1 and "Eve" not in seated.rounds[1].byes
    _, rows = store.night_standings("Club")
    eve = next(r for r in rows if r.player == store.player("Eve").id)
    assert eve.byes == 1


# -- the CLI ------------------------------------------------------------------------------------


def test_cli_replace_and_its_log(capsys: pytest.CaptureFixture[str], db: str) -> None:
    game_id = Store.open(db).night("Club").rounds[0].tables[0].game
    seat = Store.open(db).game(game_id).document["players"][1]
    status, data, _ = run(capsys, "league", "night", "replace", "--league", "Club", "--table", "1",
                          "--seat", "2", "--with", "Eve", "--why", "a train", "--by", "Dir",
                          "--json", "--db", db)  # fmt: skip
    assert status == 0
    made = data["replacement"]
    assert (made["seat"], made["player"], made["replacement"], made["after"], made["why"], made["by"]) == (
        2,
        seat,
        "Eve",
        0,
        "a train",
        "Dir",
    )
    status, text, _ = run(capsys, "league", "log", game_id, "--db", db)
    assert f"seat 2: Eve took over from {seat} after deal 0 by Dir: a train" in text
    status, data, _ = run(capsys, "league", "night", "standings", "--league", "Club", "--json", "--db", db)
    rows = {r["player"]: r for r in data["rows"]}
    assert (rows[seat]["left_after"], rows["Eve"]["joined_after"]) == ([0], [0])
    status, text, _ = run(
        capsys, "--lang", "fi", "league", "night", "standings", "--league", "Club", "--db", db
    )
    assert "vaihdot" in text and "lähti jaon 0 jälkeen" in text and "jatkoi jaon 0 jälkeen" in text
    status, _, err = run(capsys, "--lang", "fi", "league", "night", "replace", "--league", "Club",
                         "--table", "1", "--seat", "7", "--with", "Fay", "--db", db)  # fmt: skip
    assert status == 2 and "paikka '7': valitse paikka 1–2" in err and len(err.strip().splitlines()) == 1


# -- the engine ---------------------------------------------------------------------------------


def test_the_engine_refuses_a_replacement_that_does_not_fit() -> None:
    rules = load_ruleset("rommi")
    with pytest.raises(InvalidReplacementError, match="a replacement at seat 3: the game has 2 seats"):
        Game(ruleset=rules, players=("Anna", "Bea"), replacements=(Replacement(2, "Bea", "Cid", 0),))
    with pytest.raises(InvalidReplacementError, match="'Anna' already plays in this game"):
        Game(ruleset=rules, players=("Anna", "Bea"), replacements=(Replacement(1, "Bea", "Anna", 0),))
    with pytest.raises(InvalidReplacementError, match="a replacement of 'Anna' at seat 2: Bea holds"):
        Game(ruleset=rules, players=("Anna", "Bea"), replacements=(Replacement(1, "Anna", "Cid", 0),))


def test_a_game_file_keeps_its_replacements() -> None:
    game = Game(ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
    game = game.add(Deal.build(hands={"Anna": "", "Bea": "KS AH *"}, out="Anna"))
    game = game.with_replacements([Replacement(1, "Bea", "Cid", 1, why="ill", by="D", at="t", id="x")])
    again = parse_game(game_document(game, ruleset_id="rommi"))
    assert again.replacements == game.replacements and again.result.totals == game.result.totals


# -- hypothesis: a replacement moves no deal's points but at the replacement point ---------------

HANDS = ("", "KS AH *", "KH QH JH", "2C 3D")


@st.composite
def replaced_games(draw: st.DrawFn) -> tuple[Game, list[Replacement]]:
    players = ("Anna", "Bea", "Cid")
    count = draw(st.integers(1, 6))
    game = Game(ruleset=load_ruleset("rommi", options={"target": 2000}), players=players)
    for _ in range(count):
        out = draw(st.sampled_from(players))
        held = iter(draw(st.permutations(HANDS[1:])))
        hands = {p: "" if p == out else next(held) for p in players}
        game = game.add(Deal.build(hands=hands, out=out))
    made: list[Replacement] = []
    holders = list(players)
    fresh = iter(f"Sub{i}" for i in range(10))
    for _ in range(draw(st.integers(0, 4))):
        seat = draw(st.integers(0, 2))
        since = max((r.after for r in made if r.seat == seat), default=0)
        after = draw(st.integers(since, count))
        name = next(fresh)
        made.append(Replacement(seat, holders[seat], name, after, at=f"t{len(made)}"))
        holders[seat] = name
    penalties = [
        Penalty(draw(st.sampled_from(players)), draw(st.integers(1, 9)), at=f"t{draw(st.integers(0, 4))}")
        for _ in range(draw(st.integers(0, 2)))
    ]
    return game.with_penalties(penalties).with_replacements(made), made


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(replaced_games())
def test_players_points_add_up_to_the_seats_and_each_deal_stays_with_its_holder(
    case: tuple[Game, list[Replacement]],
) -> None:
    game, made = case
    plain = summarize(game.with_replacements([]))
    split = summarize(game)
    assert split.deals == plain.deals and sum(split.totals.values()) == sum(plain.totals.values())
    for seat, name in enumerate(game.players):
        chain = [name, *(r.replacement for r in made if r.seat == seat)]
        assert sum(split.totals[p] for p in chain) == plain.totals[name]
        assert sum(split.deals_won[p] for p in chain) == plain.deals_won[name]
        assert sum(split.played(p) for p in chain) == plain.deals
        mine: dict[str, int] = dict.fromkeys(chain, 0)
        for number, record in enumerate(game.result.deals, start=1):
            # the one who held the seat at the deal: the last replacement made before it
            holder = chain[sum(1 for r in made if r.seat == seat and r.after < number)]
            first, last = split.seated.get(holder, [1, plain.deals])
            assert first <= number <= last
            mine[holder] += record.score.scores[name]
        if not game.penalties:  # each who left has exactly the points of the deals they held
            assert all(split.totals[p] == mine[p] for p in chain[:-1])
        assert all(split.ranking[p] == plain.ranking[name] for p in chain)
        assert set(chain[:-1]) <= set(split.left) and chain[-1] not in split.left
    assert GameSummary.from_dict(split.to_dict()) == split
    rows = {r.player: r for r in standings([PlayedGame("g", "s", "t", split)])} if split.finished else {}
    assert all(rows[p].games == 0 for p in split.left if p in rows)
    if split.left and split.finished:
        head = head_to_head([PlayedGame("g", "s", "t", split)], split.left[0], game.players[0])
        assert head.overall.games == 0 or split.left[0] == game.players[0]
