"""Import and export: game files and league exports, limits, repeats, merges of two devices."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.errors import InputTooLargeError
from scorer.gamefile import load_game
from scorer.league import exchange
from scorer.league.errors import ImportFileError, SeasonClosedError
from scorer.league.store import Store
from scorer.limits import MAX_DEPTH, MAX_DOCUMENT_BYTES

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
GIN_50 = {"target": 50}


@pytest.fixture(params=["memory", "files"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "memory":
        yield Store.memory()
    else:
        yield Store.open(tmp_path / "league")


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def what_a_reader_sees(store: Store) -> object:
    """Everything a reader sees: leagues, players and every game with its entries."""
    return (
        store.leagues(),
        store.players(),
        [(g, store.game(g.id).document) for g in store.games()],
    )


def gin_file(tmp_path: Path, name: str, deals: list[dict[str, object]], **extra: object) -> Path:
    data = {"ruleset": "gin", "options": GIN_50, "players": ["Anna", "Bea"], "deals": deals, **extra}
    return write(tmp_path / name, data)


KNOCK = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 15}}
UNDERCUT = {"knocker": "Bea", "deadwood": {"Bea": 9, "Anna": 4}}


def test_import_the_example_game_files(store: Store) -> None:
    store.create_league("Club")
    files = sorted(EXAMPLES.glob("*.json"))
    report = store.import_files("Club", files)
    deals = sum(len(load_game(f).deals) for f in files)
    assert report.to_dict() == {
        "games_added": len(files),
        "games_unchanged": 0,
        "deals_added": deals,
        "players_added": len({n for f in files for n in load_game(f).players}),
        "nights_added": 0,
        "nights_unchanged": 0,
        "rounds_added": 0,
        "conflicts": [],
    }
    totals = {g.ruleset: g.summary.totals for g in store.games()}
    anna = store.player("Anna").id
    assert totals["gin"][anna] == 257  # docs/game-format.md works this one out by hand


def test_the_same_import_twice_changes_nothing(store: Store) -> None:
    store.create_league("Club")
    files = sorted(EXAMPLES.glob("*.json"))
    store.import_files("Club", files)
    before = what_a_reader_sees(store)
    report = store.import_files("Club", files)
    assert (report.games_added, report.games_unchanged, report.deals_added, report.players_added) == (
        0,
        len(files),
        0,
        0,
    )
    assert what_a_reader_sees(store) == before


def test_a_partly_invalid_import_changes_nothing(store: Store, tmp_path: Path) -> None:
    store.create_league("Club")
    good = gin_file(tmp_path, "good.json", [KNOCK])
    bad = gin_file(tmp_path, "bad.json", [KNOCK, {"knocker": "Anna", "deadwood": {"Anna": 50, "Bea": 1}}])
    before = what_a_reader_sees(store)
    with pytest.raises(ImportFileError, match=r"'.*bad\.json': deal 2"):
        store.import_files("Club", [good, bad, EXAMPLES / "rommi.json"])
    assert what_a_reader_sees(store) == before
    assert store.games() == [] and store.players() == []


def test_a_file_that_is_neither_is_refused(store: Store, tmp_path: Path) -> None:
    store.create_league("Club")
    for data, message in [
        ([1, 2], "neither a game file nor a league export"),
        ({"ruleset": "gin", "players": ["Anna", "Bea"], "colour": 1}, "colour"),
        ({"format": "rummy-league", "version": 1}, "not a league export"),
    ]:
        with pytest.raises(ImportFileError, match=message):
            store.import_files("Club", [write(tmp_path / "x.json", data)])
    (tmp_path / "y.json").write_text("{not json")
    with pytest.raises(ImportFileError, match="is not JSON"):
        store.import_files("Club", [tmp_path / "y.json"])


def test_hostile_files_are_refused_cleanly(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_league("Club")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputTooLargeError, match=r"^file to import '.* nests 100,000 levels deep"):
        store.import_files("Club", [deep])
    too_deep = tmp_path / "deep2.json"
    too_deep.write_text('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1))
    with pytest.raises(
        InputTooLargeError, match=f"nests {MAX_DEPTH + 1} levels deep; a document nests at most"
    ):
        store.import_files("Club", [too_deep])
    huge = gin_file(tmp_path, "huge.json", [], players=["A" * 50_000, "Bea"])
    with pytest.raises(
        InputTooLargeError, match="holds a text of 50,000 characters; a text is at most 10,000"
    ):
        store.import_files("Club", [huge])
    monkeypatch.setattr(exchange, "MAX_FILE_BYTES", 100)
    big = gin_file(tmp_path, "big.json", [KNOCK, KNOCK])
    with pytest.raises(InputTooLargeError, match="bytes; a file to import is at most 100 bytes"):
        store.import_files("Club", [big])
    not_json = tmp_path / "bad.json"
    not_json.write_text('{"players": [')
    with pytest.raises(ImportFileError, match=r"^file to import '.* is not JSON"):
        store.import_files("Club", [not_json])
    assert store.games() == []


def test_an_import_may_be_larger_than_a_game_file(store: Store, tmp_path: Path) -> None:
    # A league export is far bigger than one game: the import reads up to its own limit.
    store.create_league("Club")
    padded = gin_file(tmp_path, "padded.json", [KNOCK])
    with padded.open("a") as handle:
        handle.write(" " * (MAX_DOCUMENT_BYTES + 1))
    assert store.import_files("Club", [padded]).games_added == 1


def test_a_game_file_with_a_huge_text_is_refused_like_an_import(tmp_path: Path) -> None:
    huge = gin_file(tmp_path, "huge.json", [], players=["A" * 50_000, "Bea"])
    with pytest.raises(InputTooLargeError, match="holds a text of 50,000 characters"):
        load_game(huge)


def test_a_game_file_id_is_its_identity(store: Store, tmp_path: Path) -> None:
    store.create_league("Club")
    first = store.import_files("Club", [gin_file(tmp_path, "a.json", [KNOCK], id="game-7")])
    assert (first.games_added, first.deals_added) == (1, 1)
    longer = store.import_files("Club", [gin_file(tmp_path, "b.json", [KNOCK, UNDERCUT], id="game-7")])
    assert (longer.games_added, longer.games_unchanged, longer.deals_added) == (0, 0, 1)
    [info] = store.games()
    assert info.deals == 2
    other = gin_file(tmp_path, "c.json", [UNDERCUT], id="game-7")
    clash = store.import_files("Club", [other])
    assert clash.conflicts == [
        {
            "game": info.id,
            "file": str(other),
            "reason": "deal 1 differs between the two copies",
            "reason_code": "store.copies_differ_deal",
            "reason_params": {"number": 1},
        }
    ]
    assert store.games()[0].deals == 2


def test_without_an_id_the_content_is_the_identity(store: Store, tmp_path: Path) -> None:
    store.create_league("Club")
    store.import_files("Club", [gin_file(tmp_path, "a.json", [KNOCK])])
    # the same content written differently (key order, card text) is the same game
    same = write(
        tmp_path / "b.json",
        {"deals": [KNOCK], "players": ["Anna", "Bea"], "options": GIN_50, "ruleset": "gin"},
    )
    assert store.import_files("Club", [same]).games_unchanged == 1
    assert store.import_files("Club", [gin_file(tmp_path, "c.json", [UNDERCUT])]).games_added == 1


def test_import_into_a_closed_season_is_refused(store: Store, tmp_path: Path) -> None:
    store.create_league("Club", season="2025")
    store.close_season("Club")
    with pytest.raises(SeasonClosedError):
        store.import_files("Club", [gin_file(tmp_path, "a.json", [KNOCK])])
    store.new_season("Club", "2026")
    with pytest.raises(SeasonClosedError):
        store.import_files("Club", [gin_file(tmp_path, "a.json", [KNOCK])], season="2025")
    assert store.import_files("Club", [gin_file(tmp_path, "a.json", [KNOCK])]).games_added == 1


def league_with_games(store: Store) -> None:
    store.create_league("Club", season="2025")
    for deals in ([KNOCK, KNOCK, KNOCK, KNOCK], [UNDERCUT, UNDERCUT, UNDERCUT, UNDERCUT], [KNOCK]):
        game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        for deal in deals:
            if not store.game(game.id).finished:
                store.add_deal(game.id, deal)
    store.new_season("Club", "2026")
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cid"], league="Club")
    store.add_deal(game.id, {"points": {"Anna": 0, "Bea": 20, "Cid": 40}, "out": "Anna"})


def test_export_then_import_into_an_empty_store_gives_the_same_standings(
    store: Store, tmp_path: Path
) -> None:
    league_with_games(store)
    export = write(tmp_path / "club.json", store.export_league("Club"))
    elsewhere = Store.open(tmp_path / "elsewhere")
    elsewhere.create_league("Club")
    report = elsewhere.import_files("Club", [export])
    assert (report.games_added, report.players_added, report.conflicts) == (4, 3, [])
    assert elsewhere.standings("Club") == store.standings("Club")
    assert elsewhere.standings("Club", season="2025") == store.standings("Club", season="2025")
    assert [g.id for g in elsewhere.games()] == [g.id for g in store.games()]
    assert [p.id for p in elsewhere.players()] == [p.id for p in store.players()]
    assert [(s.name, s.is_open) for s in elsewhere.league("Club").seasons] == [
        ("Season 1", True),
        ("2025", False),
        ("2026", False),
    ]
    again = elsewhere.import_files("Club", [export])
    assert (again.games_added, again.games_unchanged, again.deals_added) == (0, 4, 0)


def test_two_devices_exports_merge_as_a_union_with_conflicts_reported(tmp_path: Path) -> None:
    home = Store.open(tmp_path / "home")
    home.create_league("Club")
    shared = home.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club").id
    extended = home.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club").id
    home.add_deal(shared, KNOCK)
    home.add_deal(extended, KNOCK)
    phone = Store.memory()
    phone.create_league("Club")
    phone.import_files("Club", [write(tmp_path / "home.json", home.export_league("Club"))])
    phone.add_deal(shared, UNDERCUT)  # the two devices record different second deals
    home.add_deal(shared, KNOCK)
    phone.add_deal(extended, UNDERCUT)  # only the phone goes on with this one
    only_phone = phone.start_game(ruleset="rommi", players=["Bea", "Dan"], league="Club").id
    only_home = home.start_game(ruleset="rommi", players=["Anna", "Cid"], league="Club").id
    phone_file = write(tmp_path / "phone.json", phone.export_league("Club"))
    report = home.import_files("Club", [phone_file])
    assert report.games_added == 1 and report.deals_added == 1 and report.players_added == 1
    assert report.conflicts == [
        {
            "game": shared,
            "file": str(phone_file),
            "reason": "deal 2 differs between the two copies",
            "reason_code": "store.copies_differ_deal",
            "reason_params": {"number": 2},
        }
    ]
    assert {g.id for g in home.games()} == {shared, extended, only_phone, only_home}
    assert home.game(extended).document["deals"] == [KNOCK, UNDERCUT]
    assert home.game(shared).document["deals"] == [KNOCK, KNOCK]  # the conflict keeps this device's copy
    assert [p.name for p in home.players()] == ["Anna", "Bea", "Cid", "Dan"]


def test_csv_export_is_one_row_per_deal_per_player(store: Store) -> None:
    league_with_games(store)
    rows = list(csv.DictReader(io.StringIO(store.export_csv("Club"))))
    deals = sum(g.deals * len(g.players) for g in store.games())
    assert len(rows) == deals
    first = rows[0]
    assert first["league"] == "Club" and first["season"] == "2025" and first["player"] == "Anna"
    assert first["score"] == "10" and first["won"] == "1" and first["deal"] == "1"
