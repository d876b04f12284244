"""Club nights in league exports and imports (scorer/league/exchange.py, scorer/league/merge.py;
docs/cli.md, ``rummy league import`` and ``export``): a night, its rounds and tables, and its
games' night tags survive export -> import, merge with what a store holds, and are refused
whole when the file names a game or player it does not hold."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile_exports import JSON, assert_in_words, assert_refused_in_words, mutated, places
from test_league_night import NINE, SHORT, finish

from scorer.cli import main
from scorer.league.documents import GameRecord, NightDoc
from scorer.league.errors import ImportFileError, StoreInputError
from scorer.league.exchange import CSV_COLUMNS, EXPORT_VERSION, STORE_ONLY, TAGS, read_import
from scorer.league.store import Store
from scorer.ui.screens.exchange_model import ImportModel, PickedFile, export_league_json
from scorer.ui.screens.league_import_model import LeagueImportModel


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The league "Club" in memory and on disk."""
    store = Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")
    store.create_league("Club")
    yield store


def two_rounds(store: Store) -> str:
    """A night of nine at three rommi tables: round 1 played out, round 2 half played."""
    night = store.start_night("Club", players=NINE, ruleset="rommi", seed=4, options=SHORT, points=[5, 3, 1])
    for table in night.rounds[0].tables:
        finish(store, table.game)
    second = store.next_round("Club", method="swiss").rounds[1]
    finish(store, second.tables[0].game)
    return night.id


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def fresh(tmp_path: Path, name: str = "elsewhere") -> Store:
    """An empty store on another laptop, with the league made there."""
    store = Store.open(tmp_path / name)
    store.create_league("Club")
    return store


def tags(store: Store) -> dict[str, tuple[object, ...]]:
    return {g.id: tuple(getattr(store._ledger.state.record(g.id), t) for t in TAGS) for g in store.games()}


def exported_nights(store: Store) -> list[dict[str, Any]]:
    """The league's nights as its export has them, less what each store has its own way: the
    league's id, the season's ("Season 1" is made with the league in each store, under its own
    id), the time of the last change (a night given rounds by an import changed then)."""
    export = store.export_league("Club")
    seasons = {s["id"]: s["name"] for s in export["seasons"]}
    return [{**n, "league": None, "season": seasons[n["season"]], "changed": None} for n in export["nights"]]


def test_the_export_carries_the_nights_and_every_games_tags(store: Store) -> None:
    night_id = two_rounds(store)
    export = store.export_league("Club")
    assert export["version"] == EXPORT_VERSION == 2
    [night] = export["nights"]
    assert set(night) == set(NightDoc.model_fields)  # every field of the stored night
    assert night["id"] == night_id and night["points"] == [5, 3, 1]
    assert [r["method"] for r in night["rounds"]] == ["random", "swiss"]
    tagged = {g["id"]: (g["night"], g["night_round"]) for g in export["games"]}
    for round_doc in night["rounds"]:
        for table in round_doc["tables"]:
            assert tagged[table["game"]] == (night_id, round_doc["number"])
    assert {p["name"] for p in export["players"]} == set(NINE)
    # a game travels as its stored record (a field added to it later travels too)
    assert all(set(g) == set(GameRecord.model_fields) - STORE_ONLY | {"game"} for g in export["games"])


def test_round_trip_into_an_empty_store_keeps_nights_tags_and_standings(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    elsewhere = fresh(tmp_path)
    report = elsewhere.import_files("Club", [write(tmp_path / "club.json", store.export_league("Club"))])
    assert (report.games_added, report.nights_added, report.conflicts) == (6, 1, [])
    here_night, here_rows = store.night_standings("Club")
    there_night, there_rows = elsewhere.night_standings("Club")
    assert there_rows == here_rows and there_rows[0].night_points == 10  # two wins at 5
    club = elsewhere.league("Club")
    assert there_night == replace(here_night, league_id=club.id, season_id=club.seasons[0].id)
    assert tags(elsewhere) == tags(store)
    assert exported_nights(elsewhere) == exported_nights(store)
    assert Store.verify(tmp_path / "elsewhere") == []  # written with the journal
    # the night goes on there: its last round's tables finish and a third round is seated
    for table in there_night.rounds[1].tables[1:]:
        finish(elsewhere, table.game)
    assert len(elsewhere.next_round("Club").rounds) == 3


def test_importing_the_same_export_twice_adds_nothing(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    export = write(tmp_path / "club.json", store.export_league("Club"))
    elsewhere = fresh(tmp_path)
    elsewhere.import_files("Club", [export])
    before = (exported_nights(elsewhere), tags(elsewhere), elsewhere.games())
    again = elsewhere.import_files("Club", [export])
    assert again.to_dict() == {
        "games_added": 0,
        "games_unchanged": 6,
        "deals_added": 0,
        "players_added": 0,
        "nights_added": 0,
        "nights_unchanged": 1,
        "rounds_added": 0,
        "conflicts": [],
    }
    assert (exported_nights(elsewhere), tags(elsewhere), elsewhere.games()) == before
    mine = store.import_files("Club", [export])  # the store the export came from
    assert (mine.nights_added, mine.nights_unchanged, mine.conflicts) == (0, 1, [])
    assert len(store.nights("Club")) == 1


def test_a_copy_further_on_adds_its_rounds_and_an_earlier_one_changes_nothing(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    night = home.start_night("Club", players=NINE, ruleset="rommi", seed=8, options=SHORT)
    early = write(tmp_path / "early.json", home.export_league("Club"))
    laptop = fresh(tmp_path, "laptop")
    laptop.import_files("Club", [early])
    for table in night.rounds[0].tables:
        finish(home, table.game)
    home.next_round("Club", method="swiss")
    later = laptop.import_files("Club", [write(tmp_path / "later.json", home.export_league("Club"))])
    assert (later.nights_added, later.rounds_added, later.games_added, later.deals_added) == (0, 1, 3, 3)
    assert later.conflicts == []
    assert laptop.night_standings("Club")[1] == home.night_standings("Club")[1]
    assert exported_nights(laptop) == exported_nights(home)
    back = home.import_files("Club", [early])  # a backup from earlier in the evening
    assert (back.nights_unchanged, back.rounds_added, back.conflicts) == (1, 0, [])
    assert len(home.night("Club").rounds) == 2


def test_a_night_whose_copies_differ_is_reported_and_kept_as_it_is_here(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    night = home.start_night("Club", players=NINE, ruleset="rommi", seed=8, options=SHORT)
    for table in night.rounds[0].tables:
        finish(home, table.game)
    laptop = fresh(tmp_path, "laptop")
    laptop.import_files("Club", [write(tmp_path / "home.json", home.export_league("Club"))])
    # round 2 seated on both laptops, differently
    home.next_round("Club", method="random", seed=1)
    laptop.next_round("Club", method="random", seed=2)
    kept = exported_nights(home)
    from_laptop = write(tmp_path / "laptop.json", laptop.export_league("Club"))
    report = home.import_files("Club", [from_laptop])
    assert report.games_added == 3  # the laptop's round-2 games come, as every game does
    assert report.conflicts == [
        {
            "night": night.id,
            "file": str(from_laptop),
            "reason": "round 2 of the night differs between the two copies",
            "reason_code": "store.night_copies_differ_round",
            "reason_params": {"number": 2},
        }
    ]
    assert exported_nights(home) == kept  # never overwritten
    points = json.loads(from_laptop.read_text())
    points["nights"][0]["points"] = [9, 1]
    head = home.import_files("Club", [write(tmp_path / "points.json", points)]).conflicts
    assert [(c["reason_code"], c["reason_params"]) for c in head] == [
        ("store.night_copies_differ_in", {"field": "points"})
    ]
    assert exported_nights(home) == kept


def test_the_command_line_reports_nights_and_their_conflicts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = fresh(tmp_path, "home")
    night = home.start_night("Club", players=NINE, ruleset="rommi", seed=8, options=SHORT)
    export = home.export_league("Club")
    db = str(tmp_path / "laptop")
    fresh(tmp_path, "laptop")
    path = write(tmp_path / "home.json", export)
    capsys.readouterr()
    assert main(["league", "import", "--league", "Club", "--db", db, str(path)]) == 0
    assert "1 club nights added, 0 unchanged, 0 rounds added" in capsys.readouterr().out
    export["nights"][0]["points"] = [1]
    changed = write(tmp_path / "changed.json", export)
    assert main(["league", "import", "--league", "Club", "--db", db, "--json", str(changed)]) == 1
    said = json.loads(capsys.readouterr().out)
    assert said["nights_unchanged"] == 0 and said["conflicts"][0]["night"] == night.id
    assert main(["league", "import", "--league", "Club", "--db", db, "--lang", "fi", str(changed)]) == 1
    out = capsys.readouterr().out
    assert f"ristiriita: kerhoilta {night.id} tiedostosta" in out and "illan kopiot eroavat" in out


def test_players_matched_here_by_name_are_named_by_their_ids_here(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    elsewhere = fresh(tmp_path)
    for name in NINE:  # the same people, entered on this laptop first: other ids
        elsewhere.add_player(name)
    ids = {p.name: p.id for p in elsewhere.players()}
    report = elsewhere.import_files("Club", [write(tmp_path / "club.json", store.export_league("Club"))])
    assert (report.players_added, report.nights_added, report.conflicts) == (0, 1, [])
    night = elsewhere.night("Club")
    for round_doc in night.rounds:
        for table in round_doc.tables:
            assert table.ids == tuple(ids[name] for name in table.players)
            assert elsewhere.game(table.game).players == table.ids
    names = {p.id: p.name for p in store.players()}
    here = [(names[r.player], r.night_points, r.placements) for r in store.night_standings("Club")[1]]
    there = [(r.player, r.night_points, r.placements) for r in elsewhere.night_standings("Club")[1]]
    assert there == [(ids[name], points, placements) for name, points, placements in here]


def test_a_player_who_only_sat_out_travels_with_the_night(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    night = home.start_night("Club", players=["Anna", "Bea", "Cid", "Dan", "Eve"], ruleset="gin", seed=3)
    [rested] = night.rounds[0].byes
    elsewhere = fresh(tmp_path)
    elsewhere.import_files("Club", [write(tmp_path / "club.json", home.export_league("Club"))])
    assert elsewhere.night("Club").rounds[0].byes == (rested,)
    assert elsewhere.player(rested).id == home.player(rested).id


def test_a_night_whose_game_was_a_conflict_is_not_added(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    home.start_night("Club", players=NINE, ruleset="rommi", seed=8, options=SHORT)
    export = write(tmp_path / "home.json", home.export_league("Club"))
    laptop = fresh(tmp_path, "laptop")
    laptop.create_league("Other")
    laptop.import_files("Other", [export])  # the night's games are another league's here
    report = laptop.import_files("Club", [export])
    assert [c["reason_code"] for c in report.conflicts if "game" in c] == ["store.conflict_other_league"] * 3
    [night] = [c for c in report.conflicts if "night" in c]
    assert night["reason_code"] == "store.night_game_missing"
    assert night["reason_params"] == {"round": 1, "table": 1}
    assert laptop.nights("Club") == []


# -- refused files --------------------------------------------------------------------------------


def everything(store: Store) -> object:
    return (store.players(), store.games(), store.leagues(), [store.nights(lg.id) for lg in store.leagues()])


@pytest.mark.parametrize(
    ("change", "code", "missing"),
    [
        (
            lambda n: n["rounds"][0]["tables"][1].update(game="0c1f0000-0000-4000-8000-000000000000"),
            "store.export_night_no_game",
            "0c1f0000-0000-4000-8000-000000000000",
        ),
        (
            lambda n: n["rounds"][0]["players"].append("5e0a0000-0000-4000-8000-000000000000"),
            "store.export_night_no_player",
            "5e0a0000-0000-4000-8000-000000000000",
        ),
        (
            lambda n: n["rounds"][0]["fixed"].update({"5e0a0000-0000-4000-8000-000000000001": 1}),
            "store.export_night_no_player",
            "5e0a0000-0000-4000-8000-000000000001",
        ),
        (lambda n: n.update(season="no-such-season"), "store.export_no_season", "no-such-season"),
    ],
)
def test_a_night_naming_what_the_file_lacks_is_refused_naming_both(
    store: Store, tmp_path: Path, change: Any, code: str, missing: str
) -> None:
    night_id = two_rounds(store)
    export = store.export_league("Club")
    change(export["nights"][0])
    path = write(tmp_path / "bad.json", export)
    elsewhere = fresh(tmp_path)
    before = everything(elsewhere)
    with pytest.raises(ImportFileError) as refused:
        elsewhere.import_files("Club", [path])
    message = refused.value.message
    assert message.code == "store.export_game_problem"
    assert message.params["problem"].code == code
    for language in ("en", "fi"):
        said = message.render(language)
        assert night_id in said and missing in said, said
        assert_in_words(said, path)
    assert everything(elsewhere) == before


def test_an_export_of_version_1_without_nights_still_imports_then_the_nights_come(
    store: Store, tmp_path: Path
) -> None:
    two_rounds(store)
    new = store.export_league("Club")
    old = json.loads(json.dumps(new))
    old["version"] = 1
    del old["nights"]
    for game in old["games"]:
        for tag in TAGS:
            del game[tag]
    elsewhere = fresh(tmp_path)
    report = elsewhere.import_files("Club", [write(tmp_path / "old.json", old)])
    assert (report.games_added, report.nights_added, report.conflicts) == (6, 0, [])
    assert elsewhere.nights("Club") == []
    untagged = tuple(GameRecord.model_fields[t].get_default(call_default_factory=True) for t in TAGS)
    assert {repr(t) for t in tags(elsewhere).values()} == {repr(untagged)}  # a tag may be a list
    assert elsewhere.standings("Club") == store.standings("Club")
    # the same league exported since: the nights come, and the games take their tags
    later = elsewhere.import_files("Club", [write(tmp_path / "new.json", new)])
    assert (later.nights_added, later.games_unchanged, later.conflicts) == (1, 6, [])
    assert tags(elsewhere) == tags(store)
    assert elsewhere.night_standings("Club")[1] == store.night_standings("Club")[1]


def test_a_game_tagged_with_a_round_its_night_lacks_is_refused_whole(store: Store, tmp_path: Path) -> None:
    """Issue 24, 10: a game tagged with round 7 of a night of two rounds was a conflict at best;
    a file whose games and nights disagree is refused whole, here and in an empty store."""
    two_rounds(store)
    export = store.export_league("Club")
    path = write(tmp_path / "club.json", export)
    elsewhere = fresh(tmp_path)
    elsewhere.import_files("Club", [path])
    export["games"][0]["night_round"] = 7
    before = everything(elsewhere)
    with pytest.raises(ImportFileError) as refused:
        elsewhere.import_files("Club", [write(tmp_path / "other.json", export)])
    assert refused.value.message.params["problem"].code == "store.export_night_game_tags"
    assert everything(elsewhere) == before and tags(elsewhere) == tags(store)
    export = store.export_league("Club")
    del export["nights"][0]["rounds"][1]  # round 2 gone, its games kept: they name what is not there
    with pytest.raises(ImportFileError) as refused:
        fresh(tmp_path, "third").import_files("Club", [write(tmp_path / "third.json", export)])
    assert refused.value.message.params["problem"].code == "store.export_game_night_missing"
    assert "tagged with round 2 of night '" in str(refused.value)


def test_a_newer_export_is_refused_as_newer_whatever_it_holds(tmp_path: Path) -> None:
    newer = {"format": "rummy-league", "version": EXPORT_VERSION + 1, "tournaments": []}
    path = write(tmp_path / "newer.json", newer)
    with pytest.raises(ImportFileError) as refused:
        read_import([path])
    assert refused.value.message.code == "store.export_newer"


NIGHT_EXPORT: dict[str, Any] = {}


def night_export() -> dict[str, Any]:
    if not NIGHT_EXPORT:
        store = Store.memory()
        store.create_league("Club")
        night = store.start_night("Club", players=NINE[:4], ruleset="rommi", seed=1, options=SHORT)
        finish(store, night.rounds[0].tables[0].game)
        NIGHT_EXPORT.update(store.export_league("Club"))
    return NIGHT_EXPORT


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), JSON, st.booleans())
def test_a_malformed_night_is_refused_in_words_naming_the_file(
    data: st.DataObject, value: Any, delete: bool
) -> None:
    document = night_export()
    at = data.draw(st.sampled_from([p for p in places(document) if p[:1] == ("nights",)]))
    assert_refused_in_words(mutated(document, at, value, delete=delete))


def test_a_nights_problem_says_which_round_and_table(tmp_path: Path) -> None:
    export = json.loads(json.dumps(night_export()))
    export["nights"][0]["rounds"][0]["tables"][0]["table"] = "one"
    path = write(tmp_path / "bad.json", export)
    with pytest.raises(ImportFileError) as refused:
        read_import([path])
    said = str(refused.value)
    assert f"night 1 ('{export['nights'][0]['id']}'), round 1, table 1, table:" in said, said
    assert "ilta 1" in refused.value.message.render("fi")


# -- CSV and the app's import screen ---------------------------------------------------------------


def test_csv_rows_end_with_the_night_and_round_of_their_game(store: Store) -> None:
    night_id = two_rounds(store)
    plain = store.start_game(ruleset="rommi", players=["Anna", "Bea"], options=SHORT, league="Club")
    finish(store, plain.id)
    text = store.export_csv("Club")
    header = text.splitlines()[0].split(",")
    assert header == list(CSV_COLUMNS) and header[-2:] == ["night", "round"]
    assert ",".join(header[:11]) == "league,season,game,played,ruleset,deal,dealer,player,score,total,won"
    rows = list(csv.DictReader(io.StringIO(text)))
    night = store.night("Club")
    rounds = {t.game: r.number for r in night.rounds for t in r.tables}
    for row in rows:
        if row["game"] == plain.id:
            assert (row["night"], row["round"]) == ("", "")
        else:
            assert (row["night"], row["round"]) == (night_id, str(rounds[row["game"]]))
    assert {row["round"] for row in rows} == {"", "1", "2"}


def test_the_apps_import_screen_brings_the_nights(store: Store) -> None:
    two_rounds(store)
    exported = export_league_json(store, "Club")
    elsewhere = Store.memory()
    elsewhere.create_league("Club")
    model = ImportModel(store=elsewhere, league=elsewhere.league("Club").id)
    assert model.prepare([PickedFile(name=exported.name, data=exported.data)])
    assert model.plan is not None and model.plan.conflicts == ()
    assert elsewhere.nights("Club") == []  # a preview writes nothing
    assert model.confirm()
    assert elsewhere.night_standings("Club")[1] == store.night_standings("Club")[1]
    changed = json.loads(exported.data)
    changed["nights"][0]["points"] = [1]
    again = ImportModel(store=elsewhere, league=elsewhere.league("Club").id)
    assert again.prepare([PickedFile(name="laptop.json", data=json.dumps(changed).encode())])
    assert again.plan is not None
    night_id = changed["nights"][0]["id"]
    said = f"laptop.json: the two copies of the night differ in points ({night_id})"
    assert again.plan.conflicts == (said,)


def test_one_player_entered_on_two_laptops_is_one_player_in_both_nights(tmp_path: Path) -> None:
    files = []
    for laptop in ("phone", "laptop"):  # each made its own Dan: two ids for one name
        there = fresh(tmp_path, laptop)
        there.start_night("Club", players=["Anna", "Bea", "Dan"], ruleset="rommi", seed=1)
        files.append(write(tmp_path / f"{laptop}.json", there.export_league("Club")))
    home = fresh(tmp_path, "home")
    report = home.import_files("Club", files)
    assert (report.nights_added, report.players_added, report.conflicts) == (2, 3, [])
    known = {p.id for p in home.players()}
    for night in home.nights("Club"):
        ids = {p for r in night.rounds for t in r.tables for p in t.ids}
        assert ids <= known and len(ids) == 3
        assert sorted(p for r in night.rounds for t in r.tables for p in t.players) == ["Anna", "Bea", "Dan"]


def test_the_leagues_screen_imports_a_league_with_its_nights_into_an_empty_store(store: Store) -> None:
    two_rounds(store)
    exported = export_league_json(store, "Club")
    phone = Store.memory()
    model = LeagueImportModel(store=phone)
    assert model.prepare([PickedFile(name=exported.name, data=exported.data)]) and model.new_league
    assert model.confirm(by="Anna") is not None
    assert phone.night_standings("Club")[1] == store.night_standings("Club")[1]
    assert tags(phone) == tags(store)


def test_the_apps_import_offers_nights_when_every_game_is_here_already(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    exported = export_league_json(store, "Club")
    old = json.loads(exported.data)
    old["version"] = 1
    del old["nights"]
    elsewhere = Store.memory()
    elsewhere.create_league("Club")
    elsewhere.import_files("Club", [write(tmp_path / "old.json", old)])
    model = ImportModel(store=elsewhere, league=elsewhere.league("Club").id)
    assert model.prepare([PickedFile(name=exported.name, data=exported.data)])
    plan = model.plan
    assert plan is not None and (plan.games_added, plan.nights_added, plan.rounds_added) == (0, 1, 0)
    assert plan.changes  # the screen's "Import now" is offered
    assert model.confirm()
    assert elsewhere.night_standings("Club")[1] == store.night_standings("Club")[1]


def test_a_player_merged_since_the_night_travels_as_the_player_kept(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    home.start_night("Club", players=["Ann", "Bea", "Cid"], ruleset="rommi", seed=1)
    home.start_game(ruleset="rommi", players=["Anna", "Dan"], league="Club")
    anna = home.merge_players("Anna", "Ann")  # Ann was Anna, entered twice
    export = home.export_league("Club")
    assert [p["name"] for p in export["players"]].count("Ann") == 0
    elsewhere = fresh(tmp_path)
    elsewhere.import_files("Club", [write(tmp_path / "club.json", export)])
    assert sorted(p.name for p in elsewhere.players()) == ["Anna", "Bea", "Cid", "Dan"]
    [table] = elsewhere.night("Club").rounds[0].tables
    assert anna.id in table.ids and "Anna" in table.players


def test_a_new_night_from_another_laptop_is_added_beside_the_one_here(tmp_path: Path) -> None:
    home = fresh(tmp_path, "home")
    first = home.start_night("Club", players=NINE, ruleset="rommi", seed=8, options=SHORT)
    laptop = fresh(tmp_path, "laptop")
    laptop.import_files("Club", [write(tmp_path / "home.json", home.export_league("Club"))])
    second = laptop.start_night("Club", players=NINE[:6], ruleset="gin", seed=2)  # next week, on the laptop
    report = home.import_files("Club", [write(tmp_path / "laptop.json", laptop.export_league("Club"))])
    assert (report.nights_added, report.nights_unchanged, report.games_added) == (1, 1, 3)
    assert report.conflicts == []
    assert [n.id for n in home.nights("Club")] == [first.id, second.id]
    assert exported_nights(home) == exported_nights(laptop)


# -- a night of a file is checked by the rules the store seats a night by (issue 24, 10) -----------


def _rule(message: Any) -> str:
    """The code of the night rule a refusal names (inside "round N: ...", if it is a round's)."""
    problem = message.params["problem"]
    return str(problem.params["rule"].code if problem.code == "night_rule.in_round" else problem.code)


def _swap_rounds(n: dict[str, Any]) -> None:
    n["rounds"].reverse()


def _a_player_at_two_tables(n: dict[str, Any]) -> None:
    tables = n["rounds"][0]["tables"]
    tables[1]["players"].append(tables[0]["players"][0])


HOSTILE_NIGHTS = [
    ("rounds out of order", _swap_rounds, "night_rule.order"),
    ("a round numbered twice", lambda n: n["rounds"][1].update(number=1), "night_rule.order"),
    ("a player at two tables", _a_player_at_two_tables, "night_rule.two_tables"),
    (
        "a game at two tables",
        lambda n: n["rounds"][0]["tables"][1].update(game=n["rounds"][0]["tables"][0]["game"]),
        "night_rule.game_twice",
    ),
    (
        "a ruleset that does not exist",
        lambda n: n["rounds"][0].update(ruleset="no-such"),
        "night_rule.ruleset",
    ),
    ("a ruleset's path", lambda n: n["rounds"][0].update(ruleset="../../x.toml"), "night_rule.ruleset"),
    ("a method that does not exist", lambda n: n["rounds"][1].update(method="fair"), "night_rule.method"),
    ("negative placement points", lambda n: n.update(points=[3, -1]), "night_rule.points"),
    ("placement points of 30 digits", lambda n: n.update(points=[10**30, 1]), "night_rule.points"),
    ("a plan of 30 digits", lambda n: n.update(planned=10**30), "night_rule.planned"),
    ("a seed of 30 digits", lambda n: n["rounds"][0].update(seed=-(10**30)), "night_rule.seed"),
    (
        "a table number of 30 digits",
        lambda n: n["rounds"][0]["tables"][2].update(table=10**30),
        "night_rule.table_order",
    ),
    ("a night id with path characters", lambda n: n.update(id="../../index"), "night_rule.id"),
    ("a round timer of a billion minutes", lambda n: n["rounds"][0].update(timer=10**9), "night_rule.timer"),
    ("fewer rounds planned than held", lambda n: n.update(planned=1), "night_rule.past_plan"),
    (
        "starting points without handicap",
        lambda n: n["rounds"][0]["tables"][0]["start"].update({n["rounds"][0]["tables"][0]["players"][0]: 5}),
        "night_rule.start_no_handicap",
    ),
]


@pytest.mark.parametrize(("what", "change", "code"), HOSTILE_NIGHTS, ids=[h[0] for h in HOSTILE_NIGHTS])
def test_a_night_the_store_would_not_seat_is_refused_whole_naming_night_and_rule(
    store: Store, tmp_path: Path, what: str, change: Any, code: str
) -> None:
    night_id = two_rounds(store)
    export = store.export_league("Club")
    change(export["nights"][0])
    path = write(tmp_path / "bad.json", export)
    elsewhere = fresh(tmp_path)
    before, changes = everything(elsewhere), elsewhere.changes()
    with pytest.raises(ImportFileError) as refused:
        elsewhere.import_files("Club", [path])
    assert _rule(refused.value.message) == code, what
    for language in ("en", "fi"):
        said = refused.value.message.render(language)
        assert_in_words(said, path)
        assert (night_id if code != "night_rule.id" else "../../index") in said, said
    assert everything(elsewhere) == before and elsewhere.changes() == changes


def test_a_version_given_as_a_text_is_refused(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    export = store.export_league("Club")
    export["version"] = "2"
    with pytest.raises(ImportFileError) as refused:
        read_import([write(tmp_path / "text.json", export)])
    assert refused.value.message.code == "store.not_an_export" and "version" in str(refused.value)


def test_two_nights_of_one_id_are_one_night_when_alike_and_refused_whole_when_not(
    store: Store, tmp_path: Path
) -> None:
    two_rounds(store)
    export = store.export_league("Club")
    export["nights"].append(json.loads(json.dumps(export["nights"][0])))
    elsewhere = fresh(tmp_path)
    report = elsewhere.import_files("Club", [write(tmp_path / "twice.json", export)])
    assert (report.nights_added, report.nights_unchanged, report.conflicts) == (1, 0, [])
    export["nights"][1]["points"] = [9, 1]
    other = fresh(tmp_path, "other")
    before = everything(other)
    with pytest.raises(ImportFileError) as refused:
        other.import_files("Club", [write(tmp_path / "differ.json", export)])
    assert refused.value.message.params["problem"].code == "store.export_night_twice"
    assert "as night 1, and the two differ" in str(refused.value)
    assert everything(other) == before


def test_a_tables_game_must_seat_the_table_and_play_the_rounds_rules(store: Store, tmp_path: Path) -> None:
    two_rounds(store)
    export = store.export_league("Club")
    game = next(
        g for g in export["games"] if g["id"] == export["nights"][0]["rounds"][0]["tables"][0]["game"]
    )
    game["players"].reverse()
    with pytest.raises(ImportFileError) as refused:
        read_import([write(tmp_path / "seats.json", export)])
    assert refused.value.message.params["problem"].code == "store.export_night_game_players"
    export = store.export_league("Club")
    export["nights"][0]["rounds"][0]["options"] = {"target": 500}
    with pytest.raises(ImportFileError) as refused:
        read_import([write(tmp_path / "rules.json", export)])
    assert _rule(refused.value.message) == "night_rule.ruleset"
    assert "not the round's" in str(refused.value)


def test_the_store_seats_no_night_an_import_would_refuse(store: Store) -> None:
    """One set of rules: what a file may not bring, the store does not seat either."""
    with pytest.raises(StoreInputError) as refused:
        store.start_night("Club", players=NINE, ruleset="rommi", points=[3, -1])
    assert refused.value.message.code == "night_rule.points"
    with pytest.raises(StoreInputError) as refused:
        store.start_night("Club", players=NINE, ruleset="rommi", seed=10**30)
    assert refused.value.message.params["rule"].code == "night_rule.seed"
    with pytest.raises(StoreInputError) as refused:
        store.start_night("Club", players=NINE, ruleset="rommi", rounds=10**30)
    assert refused.value.message.code == "night_rule.planned"
    assert store.games() == [] and store.nights("Club") == []


def test_a_nights_bye_points_travel_and_reopen_with_it(store: Store, tmp_path: Path) -> None:
    """A night's ``bye_points`` is a fact of its start: kept by a reopened store, by an export
    and its import, and by the facts file, with the standings it gives."""
    night = store.start_night(
        "Club", players=["A", "B", "C", "D", "E"], ruleset="gin", seed=3, points=[3, 1], bye_points=1
    )
    [rested] = night.rounds[0].byes
    _, rows = store.night_standings("Club")
    assert [(r.night_points, r.byes) for r in rows if store.player(r.player).name == rested] == [(1.0, 1)]
    elsewhere = fresh(tmp_path)
    elsewhere.import_files("Club", [write(tmp_path / "club.json", store.export_league("Club"))])
    facts = fresh(tmp_path / "by-facts")
    facts.import_files("Club", [write(tmp_path / "club.facts.json", store.export_facts("Club"))])
    for other in (elsewhere, facts):
        there, there_rows = other.night_standings("Club")
        assert there.bye_points == 1
        assert [(r.night_points, r.byes) for r in there_rows] == [(r.night_points, r.byes) for r in rows]
    if store.location is not None:
        assert Store.open(store.location).night("Club").bye_points == 1
