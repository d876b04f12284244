"""A club night's tie-breaks (scorer/league/tiebreaks.py; docs/rules.md, "Tie-breaks (club
nights)"): the order the director chooses, each criterion deciding, head-to-head among the level
players, the coin flip as a fact, the command line, and an imported night's order and flips."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_league_night import finish

from scorer.cli import main
from scorer.league.documents import NightDoc, NightRoundDoc, NightTableDoc
from scorer.league.errors import ImportFileError, StoreInputError
from scorer.league.facts import FactError, fact_from_json, new_fact
from scorer.league.night import night_standings
from scorer.league.night_rules import NightRuleError, check_night
from scorer.league.store import Store
from scorer.league.summary import GameSummary
from scorer.league.tiebreaks import (
    CRITERIA,
    DEFAULT_ORDER,
    TIED,
    Standing,
    TiebreakError,
    check_order,
    head_to_head,
    level_at_coin,
    order_rows,
    parse_order,
)
from scorer.messages import Language, catalog

FOUR = ["Anna", "Bea", "Cid", "Dan"]
SHORT = {"target": 30}  # rommi to 30: one deal ends a game


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    store = Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")
    store.create_league("Club")
    yield store


def row(player: str, points: float = 0.0, wins: int = 0, deal_points: float = 0.0) -> Standing:
    return Standing(player=player, name=player.upper(), points=points, wins=wins, deal_points=deal_points)


def placed(rows: list[tuple[Standing, str | None]]) -> list[tuple[str, str | None]]:
    return [(s.player, why) for s, why in rows]


# -- the order the director chooses ---------------------------------------------------------------


def test_fewest_penalties_orders_two_otherwise_level_players() -> None:
    level = [
        Standing(player="a", name="Anna", points=3.0, wins=1, deal_points=2.0, penalties=5),
        Standing(player="b", name="Bea", points=3.0, wins=1, deal_points=2.0, penalties=2),
    ]
    assert placed(order_rows(level, order=("points", "wins", "penalties"))) == [
        ("b", "penalties"),
        ("a", None),
    ]
    assert placed(order_rows(level, order=("points", "wins"))) == [("a", TIED), ("b", None)]
    no_penalty = [level[0], Standing(player="c", name="Cid", points=3.0, wins=1, deal_points=2.0)]
    assert placed(order_rows(no_penalty, order=("points", "penalties"))) == [("c", "penalties"), ("a", None)]


def test_an_order_is_words_separated_by_commas_case_and_spaces_aside() -> None:
    assert parse_order(" Points , HEAD-TO-HEAD,coin ") == ("points", "head-to-head", "coin")
    assert check_order(list(CRITERIA)) == CRITERIA
    assert DEFAULT_ORDER == ("points", "wins", "deal-points")


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("points,wns", "night.bad_tiebreak", {"word": "'wns'", "allowed": ", ".join(CRITERIA)}),
        ("points,penalty", "night.bad_tiebreak", {"word": "'penalty'", "allowed": ", ".join(CRITERIA)}),
        ("points,wins,wins", "night.tiebreak_twice", {"word": "'wins'"}),
        ("points,points", "night.tiebreak_twice", {"word": "'points'"}),
        ("wins,points", "night.tiebreak_no_points", {"order": "'wins,points'"}),
        ("", "night.tiebreak_no_points", {"order": "''"}),
    ],
)
def test_an_order_that_cannot_be_used_is_refused_naming_why(
    text: str, code: str, params: dict[str, str]
) -> None:
    with pytest.raises(TiebreakError) as refused:
        parse_order(text)
    assert refused.value.message.code == code
    assert refused.value.message.params == params
    assert isinstance(refused.value, ValueError)
    for language in ("en", "fi"):
        said = refused.value.message.render(language)
        assert all(str(v) in said for v in params.values()), said


@pytest.mark.parametrize("language", ["en", "fi"])
def test_every_tiebreak_and_tied_has_a_name_for_the_decided_by_column(language: Language) -> None:
    texts = catalog(language)
    names = [texts[f"tiebreak.{c.replace('-', '_')}"] for c in (*CRITERIA, TIED)]
    assert len(set(names)) == len(CRITERIA) + 1


# -- each criterion deciding ----------------------------------------------------------------------


def test_points_decide_first_and_say_so() -> None:
    rows = order_rows([row("b", 2.0, wins=3), row("a", 3.0)], order=DEFAULT_ORDER)
    assert placed(rows) == [("a", "points"), ("b", None)]


def test_wins_decide_among_players_level_on_points() -> None:
    rows = order_rows([row("a", 3.0, wins=0, deal_points=9), row("b", 3.0, wins=1)], order=DEFAULT_ORDER)
    assert placed(rows) == [("b", "wins"), ("a", None)]


def test_deal_points_decide_where_wins_are_level_too() -> None:
    rows = order_rows([row("a", 3.0, 1, -2.5), row("b", 3.0, 1, 4.0)], order=DEFAULT_ORDER)
    assert placed(rows) == [("b", "deal-points"), ("a", None)]


def test_a_criterion_left_out_of_the_order_decides_nothing() -> None:
    rows = order_rows([row("a", 3.0, 0, 9.0), row("b", 3.0, 1, 0.0)], order=("points", "deal-points"))
    assert placed(rows) == [("a", "deal-points"), ("b", None)]


def test_players_level_on_everything_are_tied_and_listed_by_name() -> None:
    rows = order_rows([row("c", 1.0), row("a", 1.0), row("b", 0.5)], order=("points", "wins"))
    assert placed(rows) == [("a", TIED), ("c", "points"), ("b", None)]


def test_the_coin_decides_by_the_flip_made_for_exactly_the_level_players() -> None:
    level = [row("a", 1.0), row("b", 1.0), row("c", 1.0)]
    order = ("points", "coin")
    assert placed(order_rows(level, order=order)) == [("a", TIED), ("b", TIED), ("c", None)]
    assert level_at_coin(level, order=order) == [("a", "b", "c")]
    flipped = order_rows(level, order=order, flips=[["c", "a", "b"]])
    assert placed(flipped) == [("c", "coin"), ("a", "coin"), ("b", None)]
    assert level_at_coin(level, order=order, flips=[["c", "a", "b"]]) == []
    # a flip made when others were level decides nothing for these
    other = order_rows(level, order=order, flips=[["c", "a"], ["d", "c", "b", "a"]])
    assert placed(other) == [("a", TIED), ("b", TIED), ("c", None)]
    # the latest flip for the group is the one that counts
    again = order_rows(level, order=order, flips=[["c", "a", "b"], ["b", "c", "a"]])
    assert [s.player for s, _ in again] == ["b", "c", "a"]


def test_level_at_coin_finds_every_group_still_level_there() -> None:
    rows = [row("a", 3.0), row("b", 3.0), row("c", 2.0, 1), row("d", 2.0), row("e", 2.0), row("f", 1.0)]
    assert level_at_coin(rows, order=("points", "wins", "coin")) == [("a", "b"), ("d", "e")]
    assert level_at_coin(rows, order=DEFAULT_ORDER) == []


# -- head-to-head among the level players ---------------------------------------------------------


def test_head_to_head_counts_only_the_games_where_level_players_met() -> None:
    meetings = [{"a": 1, "b": 2, "x": 3}, {"x": 1, "c": 2}, {"b": 1, "c": 2}, {"a": 2, "c": 2}]
    assert head_to_head(["a", "b", "c"], meetings) == {"a": 1, "b": 0, "c": -1}


def test_head_to_head_among_three_level_players_tallied_once_for_the_group() -> None:
    # a, b and c level on points; d below. a beat b and c, b beat c; d beat everyone (not level)
    standings = [row("a", 4.0, deal_points=-9), row("b", 4.0, deal_points=5), row("c", 4.0, deal_points=9)]
    standings.append(row("d", 2.0))
    meetings = [{"a": 1, "b": 2, "d": 0}, {"a": 1, "c": 2}, {"b": 1, "c": 2}, {"d": 1, "a": 2, "c": 3}]
    order = ("points", "head-to-head", "deal-points")
    rows = order_rows(standings, order=order, meetings=meetings)
    assert placed(rows) == [("a", "head-to-head"), ("b", "head-to-head"), ("c", "points"), ("d", None)]
    # three in a circle: level on head-to-head, the next criterion decides among all three
    circle = [{"a": 1, "b": 2}, {"b": 1, "c": 2}, {"c": 1, "a": 2}]
    rows = order_rows(standings[:3], order=order, meetings=circle)
    assert placed(rows) == [("c", "deal-points"), ("b", "deal-points"), ("a", None)]


def _summary(ranking: dict[str, int], totals: dict[str, int]) -> GameSummary:
    return GameSummary(
        ruleset="rommi",
        players=tuple(ranking),
        finished=True,
        winner=None,
        totals=totals,
        ranking=ranking,
        deals=1,
        deals_won={p: 0 for p in ranking},
        best_deal={p: 0 for p in ranking},
        events={},
    )


def _night(tiebreaks: list[str], flips: list[list[str]] | None = None) -> tuple[NightDoc, dict[str, Any]]:
    """Three rounds of two tables of two: a and b end level on points and wins (a beat b),
    c and d too (c beat d); b and d score more per deal than a and c."""
    games = [
        [("g1", "a", "b", 10), ("g2", "c", "d", 10)],
        [("g3", "b", "c", 40), ("g4", "d", "a", 40)],
        [("g5", "a", "c", 10), ("g6", "b", "d", 10)],
    ]
    rounds = [
        NightRoundDoc(
            number=n,
            ruleset="rommi",
            method="random",
            players=["a", "b", "c", "d"],
            tables=[
                NightTableDoc(table=i, game=g, players=[w, loser])
                for i, (g, w, loser, _) in enumerate(tables, 1)
            ],
            started="2026-12-01T19:00:00+00:00",
        )
        for n, tables in enumerate(games, 1)
    ]
    doc = NightDoc(
        id="00000000-0000-4000-8000-000000000001",
        created="2026-12-01T19:00:00+00:00",
        changed="2026-12-01T19:00:00+00:00",
        league="l",
        season="s",
        points=[3, 2, 1],
        rounds=rounds,
        tiebreaks=tiebreaks,
        flips=flips or [],
    )
    summaries = {
        g: _summary({w: 1, loser: 2}, {w: 100 + margin, loser: 100})
        for tables in games
        for g, w, loser, margin in tables
    }
    return doc, summaries


def test_the_night_standings_follow_the_nights_order() -> None:
    names = {"a": "Anna", "b": "Bea", "c": "Cid", "d": "Dan"}
    doc, summaries = _night(list(DEFAULT_ORDER))
    rows = night_standings(doc, summaries, names=names)
    assert [(r.player, r.night_points, r.wins) for r in rows] == [
        ("b", 8, 2),
        ("a", 8, 2),
        ("d", 7, 1),
        ("c", 7, 1),
    ]
    assert [r.tiebreak for r in rows] == ["deal-points", None, "deal-points", None]
    doc, summaries = _night(["points", "head-to-head", "deal-points"])
    rows = night_standings(doc, summaries, names=names)
    assert [r.player for r in rows] == ["a", "b", "c", "d"]
    assert [r.tiebreak for r in rows] == ["head-to-head", None, "head-to-head", None]


# -- the coin flip, a fact ------------------------------------------------------------------------


def _facts(store: Store, kind: str) -> list[dict[str, Any]]:
    return [f for f in store.export_facts("Club")["facts"] if f["kind"] == kind]


def test_a_coin_flip_is_a_fact_and_orders_the_level_players(store: Store, tmp_path: Path) -> None:
    night = store.start_night(
        "Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, tiebreaks=["points", "coin"]
    )
    assert night.tiebreaks == ("points", "coin") and night.flips == ()
    [started] = _facts(store, "night.started")
    assert started["tiebreaks"] == ["points", "coin"]
    assert [sorted(g) for g in store.coin_groups("Club")] == [sorted(FOUR)]
    [flip] = store.flip_coin("Club", by="Director")
    assert store.coin_groups("Club") == []
    assert sorted(flip) == sorted(FOUR)
    [fact] = _facts(store, "night.coin_flipped")
    ids = {p.name: p.id for p in store.players()}
    assert fact["players"] == [ids[name] for name in flip] and fact["by"] == "Director"
    assert fact["night"] == night.id
    shown, rows = store.night_standings("Club")
    assert shown.flips == (flip,)
    names = {p.id: p.name for p in store.players()}
    assert tuple(names[r.player] for r in rows) == flip
    assert [r.tiebreak for r in rows] == ["coin", "coin", "coin", None]
    if store._ledger.__class__.__name__ != "MemoryLedger":  # the flip is kept
        assert tuple(Store.open(tmp_path / "league").night("Club").flips) == (flip,)


def test_a_flip_with_nobody_level_or_no_coin_is_refused_and_writes_nothing(store: Store) -> None:
    store.start_night("Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT)
    before = store.export_facts("Club")["facts"]
    assert store.coin_groups("Club") == []  # no coin in the order: nothing to flip for
    with pytest.raises(StoreInputError) as refused:
        store.flip_coin("Club")
    assert refused.value.message.code == "night.no_coin"
    assert refused.value.message.params == {"order": "'points,wins,deal-points'"}
    assert store.export_facts("Club")["facts"] == before
    store.start_night(
        "Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, tiebreaks=["points", "coin"]
    )
    store.flip_coin("Club")
    before = store.export_facts("Club")["facts"]
    with pytest.raises(StoreInputError) as refused:
        store.flip_coin("Club")
    assert refused.value.message.code == "night.none_level"
    assert store.export_facts("Club")["facts"] == before


def test_a_night_started_with_an_order_that_cannot_be_used_is_not_started(store: Store) -> None:
    with pytest.raises(TiebreakError) as refused:
        store.start_night("Club", players=FOUR, ruleset="rommi", tiebreaks=["wins"])
    assert refused.value.message.code == "night.tiebreak_no_points"
    assert store.nights("Club") == [] and store.players() == []


def test_the_coin_orders_each_group_level_when_it_is_reached(store: Store) -> None:
    night = store.start_night(
        "Club",
        players=FOUR,
        ruleset="rommi",
        seed=3,
        options={"target": 30},
        tiebreaks=["points", "wins", "coin"],
    )
    game = night.rounds[0].tables[0]
    players = list(store.game(game.game).document["players"])
    hands = dict(zip(players, ["", "KS AH", "KD AD", "KH QH JH"], strict=True))
    store.add_deal(game.game, {"hands": hands, "out": players[0]})  # 1st, two level 2nd, 4th
    flips = store.flip_coin("Club")
    assert [sorted(f) for f in flips] == [sorted(players[1:3])]
    _, rows = store.night_standings("Club")
    names = {p.id: p.name for p in store.players()}
    assert [names[r.player] for r in rows] == [players[0], *flips[0], players[3]]
    assert [r.tiebreak for r in rows] == [None, "coin", None, None]


# -- the command line -----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def test_cli_start_with_tiebreaks_flip_and_standings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "league")
    assert main(["league", "create", "Club", "--db", db]) == 0
    common = ("--league", "Club", "--db", db)
    status, _, err = run(
        capsys, "league", "night", "start", *common, "--players", ",".join(FOUR), "--ruleset", "rommi",
        "--tiebreaks", "points,wins,penalty",
    )  # fmt: skip
    assert status == 2 and "unknown tie-break 'penalty'" in err
    status, out, _ = run(
        capsys, "league", "night", "start", *common, "--players", ",".join(FOUR), "--ruleset", "rommi",
        "--tiebreaks", "points, wins, coin", "--json",
    )  # fmt: skip
    assert status == 0
    status, standing, _ = run(capsys, "league", "night", "standings", *common, "--json")
    assert status == 0 and standing["tiebreaks"] == ["points", "wins", "coin"]
    assert [r["tiebreak"] for r in standing["rows"]] == ["tied", "tied", "tied", None]
    status, flipped, _ = run(capsys, "league", "night", "flip", *common, "--json")
    assert status == 0 and list(flipped) == ["flips"]
    [flip] = flipped["flips"]
    assert sorted(flip) == sorted(FOUR)
    status, standing, _ = run(capsys, "league", "night", "standings", *common, "--json")
    assert [r["player"] for r in standing["rows"]] == flip
    assert [r["tiebreak"] for r in standing["rows"]] == ["coin", "coin", "coin", None]
    status, text, _ = run(capsys, "league", "night", "standings", *common)
    assert "decided by" in text.splitlines()[0] and "coin flip" in text.splitlines()[1]
    assert "tie-breaks: points, wins, coin" in text
    status, text, _ = run(capsys, "league", "night", "standings", *common, "--lang", "fi")
    assert "ratkaisi" in text and "kolikonheitto" in text
    status, refused, _ = run(capsys, "league", "night", "flip", *common, "--json")
    assert status == 2 and refused["code"] == "night.none_level"
    status, text, err = run(capsys, "league", "night", "flip", *common)
    assert status == 2 and "nobody is level" in err
    assert out["night"] == standing["night"]


def test_cli_flip_on_a_night_without_the_coin_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "league")
    assert main(["league", "create", "Club", "--db", db]) == 0
    common = ("--league", "Club", "--db", db)
    assert main(["league", "night", "start", *common, "--players", ",".join(FOUR), "--ruleset", "rommi"]) == 0
    capsys.readouterr()
    status, refused, _ = run(capsys, "league", "night", "flip", *common, "--json")
    assert status == 2 and refused["code"] == "night.no_coin"
    status, standing, _ = run(capsys, "league", "night", "standings", *common, "--json")
    assert standing["tiebreaks"] == list(DEFAULT_ORDER)


# -- an imported night's order and flips ----------------------------------------------------------


def _flipped_night(store: Store) -> tuple[str, tuple[str, ...]]:
    night = store.start_night(
        "Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, tiebreaks=["points", "coin"]
    )
    [flip] = store.flip_coin("Club")
    return night.id, flip


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def _fresh(tmp_path: Path, name: str) -> Store:
    store = Store.open(tmp_path / name)
    store.create_league("Club")
    return store


def test_an_imported_night_brings_its_order_and_flips(store: Store, tmp_path: Path) -> None:
    night_id, flip = _flipped_night(store)
    export = store.export_league("Club")
    [night] = export["nights"]
    assert night["tiebreaks"] == ["points", "coin"] and len(night["flips"]) == 1
    elsewhere = _fresh(tmp_path, "elsewhere")
    report = elsewhere.import_files("Club", [_write(tmp_path / "club.json", export)])
    assert (report.nights_added, report.conflicts) == (1, [])
    there = elsewhere.night("Club")
    assert there.id == night_id and there.tiebreaks == ("points", "coin") and there.flips == (flip,)
    names = {p.id: p.name for p in elsewhere.players()}
    assert tuple(names[r.player] for r in elsewhere.night_standings("Club")[1]) == flip
    # facts travel too: the flip is one more fact of the night
    facts = _fresh(tmp_path, "facts")
    facts.import_files("Club", [_write(tmp_path / "facts.json", store.export_facts("Club"))])
    assert facts.night("Club").flips == (flip,)


def test_two_copies_of_a_night_with_differing_flips_are_a_conflict_not_merged(
    store: Store, tmp_path: Path
) -> None:
    night_id, flip = _flipped_night(store)
    export = store.export_league("Club")
    export["nights"][0]["flips"] = [list(reversed(export["nights"][0]["flips"][0]))]
    report = store.import_files("Club", [_write(tmp_path / "other.json", export)])
    assert [(c["night"], c["reason_code"], c["reason_params"]) for c in report.conflicts] == [
        (night_id, "store.night_copies_differ_flip", {"number": 1})
    ]
    assert store.night("Club").flips == (flip,)


def test_a_copy_behind_in_flips_changes_nothing_and_one_ahead_brings_them(
    store: Store, tmp_path: Path
) -> None:
    night = store.start_night(
        "Club", players=FOUR, ruleset="rommi", seed=3, options=SHORT, tiebreaks=["points", "coin"]
    )
    laptop = _fresh(tmp_path, "laptop")
    before = _write(tmp_path / "before.json", store.export_league("Club"))
    laptop.import_files("Club", [before])
    [flip] = store.flip_coin("Club")
    back = store.import_files("Club", [before])  # a copy from before the flip
    assert (back.nights_unchanged, back.conflicts) == (1, [])
    assert store.night("Club").flips == (flip,)
    ahead = laptop.import_files("Club", [_write(tmp_path / "after.json", store.export_league("Club"))])
    assert (ahead.nights_unchanged, ahead.conflicts) == (0, [])
    assert laptop.night("Club").flips == (flip,) and laptop.coin_groups("Club") == []
    assert [f["kind"] for f in laptop.export_facts("Club")["facts"]].count("night.coin_flipped") == 1
    # a copy behind in rounds but ahead in flips was changed apart from this one
    flipped = store.export_league("Club")
    for table in night.rounds[0].tables:
        finish(store, table.game)
    store.next_round("Club")
    flipped["nights"][0]["flips"].append(list(reversed(flipped["nights"][0]["flips"][0])))
    apart = store.import_files("Club", [_write(tmp_path / "apart.json", flipped)])
    assert [(c["night"], c["reason_code"]) for c in apart.conflicts] == [
        (night.id, "store.night_copies_apart")
    ]
    assert store.night("Club").flips == (flip,) and len(store.night("Club").rounds) == 2


def _broken(store: Store, tmp_path: Path, change: Any) -> Any:
    _flipped_night(store)
    export = store.export_league("Club")
    change(export["nights"][0])
    with pytest.raises(ImportFileError) as refused:
        _fresh(tmp_path, "elsewhere").import_files("Club", [_write(tmp_path / "bad.json", export)])
    return refused.value.message.params["problem"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda n: n.update(tiebreaks=["wins", "points"]), "night_rule.tiebreaks"),
        (lambda n: n.update(tiebreaks=["points", "luck"]), "night_rule.tiebreaks"),
        (lambda n: n.update(tiebreaks=["points", "wins"]), "night_rule.flip_no_coin"),
        (lambda n: n["flips"][0].append("someone-else"), "night_rule.flip"),
        (lambda n: n["flips"][0].append(n["flips"][0][0]), "night_rule.flip"),
        (lambda n: n.update(flips=[n["flips"][0][:1]]), "night_rule.flip"),
    ],
)
def test_an_imported_night_with_an_order_or_flip_it_could_not_have_is_refused(
    store: Store, tmp_path: Path, change: Any, code: str
) -> None:
    problem = _broken(store, tmp_path, change)
    assert problem.code == code
    for language in ("en", "fi"):
        assert problem.render(language)


def test_check_night_names_the_broken_order_and_its_reason() -> None:
    doc, _ = _night(["points", "wins", "wins"])
    with pytest.raises(NightRuleError) as refused:
        check_night(doc, rules=lambda r: None)
    assert refused.value.message.code == "night_rule.tiebreaks"
    assert refused.value.message.params["why"].code == "night.tiebreak_twice"
    doc, _ = _night(["points", "coin"], flips=[["a", "b"], ["c", "d", "a"]])
    check_night(doc, rules=lambda r: None)  # flips of the night's players are fine


def test_an_old_night_without_the_fields_reads_with_the_default_order() -> None:
    doc, summaries = _night(list(DEFAULT_ORDER))
    data = doc.model_dump()
    del data["tiebreaks"], data["flips"]
    old = NightDoc.model_validate(data)
    assert old.tiebreaks == list(DEFAULT_ORDER) and old.flips == []
    assert night_standings(old, summaries) == night_standings(doc, summaries)


# -- the property: a total order consistent with the criteria -------------------------------------

STATIC = ("points", "wins", "deal-points")
_VALUE = {"points": lambda s: s.points, "wins": lambda s: s.wins, "deal-points": lambda s: s.deal_points}

standings_strategy = st.lists(
    st.builds(
        Standing,
        player=st.uuids().map(str),
        name=st.sampled_from(["Anna", "anna", "Bea", "Cid", ""]),
        points=st.sampled_from([0.0, 0.5, 1.0, 2.5, 3.0]),
        wins=st.integers(0, 2),
        deal_points=st.sampled_from([-1.5, 0.0, 2.0]),
    ),
    max_size=9,
    unique_by=lambda s: s.player,
)
orders = st.permutations(STATIC[1:]).flatmap(
    lambda rest: st.integers(0, len(rest)).map(lambda n: ("points", *rest[:n]))
)


@given(standings=standings_strategy, order=orders, seed=st.integers(0, 1000))
def test_order_rows_is_a_total_order_consistent_with_the_criteria(
    standings: list[Standing], order: tuple[str, ...], seed: int
) -> None:
    rows = order_rows(standings, order=order)
    shuffled = list(standings)
    random.Random(seed).shuffle(shuffled)
    assert order_rows(shuffled, order=order) == rows  # deterministic: the input order does not count
    assert sorted(s.player for s, _ in rows) == sorted(s.player for s in standings)
    # the same as sorting by the criteria in turn, then by name
    expected = sorted(standings, key=lambda s: (*(-_VALUE[c](s) for c in order), s.name.casefold(), s.player))
    assert [s for s, _ in rows] == expected
    for place, (above, why) in enumerate(rows):
        if place == len(rows) - 1:
            assert why is None
            continue
        below = rows[place + 1][0]
        if why == TIED:
            assert all(_VALUE[c](above) == _VALUE[c](below) for c in order)
            continue
        assert why in order
        before = order[: order.index(why)]
        assert all(_VALUE[c](above) == _VALUE[c](below) for c in before)
        assert _VALUE[why](above) > _VALUE[why](below)
    for i, (above, _) in enumerate(rows):  # any row above another is never worse where they first differ
        for below, _ in rows[i + 1 :]:
            differ = next((c for c in order if _VALUE[c](above) != _VALUE[c](below)), None)
            assert differ is None or _VALUE[differ](above) > _VALUE[differ](below)


meetings_strategy = st.lists(
    st.dictionaries(st.sampled_from("abcdef"), st.integers(1, 4), min_size=2, max_size=4), max_size=6
)


@given(
    points=st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=6, max_size=6),
    meetings=meetings_strategy,
    order=st.permutations(CRITERIA[1:]).map(lambda rest: ("points", *rest)),
    seed=st.integers(0, 1000),
)
def test_head_to_head_and_the_coin_still_give_one_deterministic_order(
    points: list[float], meetings: list[dict[str, int]], order: tuple[str, ...], seed: int
) -> None:
    standings = [row(p, value) for p, value in zip("abcdef", points, strict=True)]
    flips = level_at_coin(standings, order=order, meetings=meetings)
    rows = order_rows(standings, order=order, meetings=meetings, flips=[list(f) for f in flips])
    shuffled = list(standings)
    random.Random(seed).shuffle(shuffled)
    assert order_rows(shuffled, order=order, meetings=meetings, flips=[list(f) for f in flips]) == rows
    assert [s.points for s, _ in rows] == sorted(points, reverse=True)  # points first, always
    assert TIED not in [why for _, why in rows]  # every group level at the coin was flipped for
    assert level_at_coin(standings, order=order, meetings=meetings, flips=[list(f) for f in flips]) == []


def test_an_old_night_started_fact_reads_and_a_new_one_without_an_order_is_written_as_before() -> None:
    old = {
        "id": "f1",
        "kind": "night.started",
        "at": "2026-01-23T17:01:00+00:00",
        "by": "",
        "night": "n1",
        "league": "l1",
        "season": "s1",
        "points": [3, 2, 1],
    }
    fact = fact_from_json(old, version=1)
    assert fact.data.tiebreaks is None
    assert fact.to_json() == old  # no order chosen: the form every earlier version wrote
    chosen = new_fact(
        "night.started",
        at=old["at"],
        by="",
        night="n1",
        league="l1",
        season="s1",
        points=[3],
        tiebreaks=["points", "coin"],
    )
    assert fact_from_json(chosen.to_json()) == chosen and chosen.to_json()["tiebreaks"] == ["points", "coin"]
    flip = new_fact("night.coin_flipped", at=old["at"], by="Director", night="n1", players=["b", "a"])
    assert fact_from_json(flip.to_json()) == flip and flip.subject == "n1"
    for broken in ({"players": "a,b"}, {"players": ["a"]}, {"players": ["a", "a"]}):
        with pytest.raises(FactError) as refused:
            fact_from_json({**flip.to_json(), **broken})
        assert refused.value.message.params["field"] == "players"
    for order in (["wins"], [], ["points", "luck"]):  # a file or another device cannot bring one
        with pytest.raises(FactError) as refused:
            fact_from_json({**old, "tiebreaks": order})
        assert refused.value.message.code == "facts.bad_field"
        assert refused.value.message.params["field"] == "tiebreaks"
