"""Import, export and backup as the screens offer them: files out, a preview before any write, backups."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest

from scorer.league.errors import StoreInputError
from scorer.league.store import Store
from scorer.ui.screens.exchange_model import (
    BackupModel,
    ImportModel,
    PickedFile,
    export_game,
    export_league_csv,
    export_league_json,
)

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}


def gin(store: Store, deal: Mapping[str, object], *, league: str = "Club") -> str:
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league=league)
    return store.add_deal(game.id, deal).id


def table(store: Store, league: str) -> list[tuple[str, int, int, int]]:
    names = {p.id: p.name for p in store.players()}
    return [(names[r.player], r.games, r.wins, r.points) for r in store.standings(league)]


@pytest.fixture()
def club() -> Store:
    store = Store.memory()
    store.create_league("Friday Club")
    gin(store, ANNA_BIG_GIN, league="Friday Club")
    gin(store, BEA_GIN, league="Friday Club")
    gin(store, ANNA_BIG_GIN, league="Friday Club")
    return store


def test_export_league_json_then_import_into_an_empty_store_gives_equal_standings(club: Store) -> None:
    exported = export_league_json(club, "Friday Club")
    assert exported.name == "friday-club.json"
    empty = Store.memory()
    empty.create_league("Friday Club")
    model = ImportModel(store=empty, league=empty.league("Friday Club").id)
    assert model.prepare([PickedFile(name=exported.name, data=exported.data)])
    plan = model.plan
    assert plan is not None
    assert (plan.games_added, plan.players_added, plan.deals_added, plan.conflicts) == (3, 2, 3, ())
    assert empty.games() == []  # a preview writes nothing
    assert model.confirm()
    assert model.done is not None and model.done.games_added == 3
    assert table(empty, "Friday Club") == table(club, "Friday Club")


def test_importing_the_same_export_again_adds_nothing(club: Store) -> None:
    exported = export_league_json(club, "Friday Club")
    model = ImportModel(store=club, league=club.league("Friday Club").id)
    assert model.prepare([PickedFile(name=exported.name, data=exported.data)])
    assert model.plan is not None and not model.plan.changes
    assert model.plan.games_unchanged == 3


def test_a_conflict_is_shown_before_anything_is_written(club: Store) -> None:
    game_id = club.games()[0].id
    exported = export_game(club, game_id)
    other = Store.memory()
    other.create_league("Club")
    changed = json.loads(exported.data)
    changed["deals"][0] = BEA_GIN  # the same game, its first deal recorded otherwise
    first = ImportModel(store=other, league=other.league("Club").id)
    assert first.prepare([PickedFile(name=exported.name, data=exported.data)]) and first.confirm()
    model = ImportModel(store=other, league=other.league("Club").id)
    assert model.prepare([PickedFile(name="phone.json", data=json.dumps(changed).encode())])
    assert model.plan is not None
    assert model.plan.conflicts == (f"phone.json: deal 1 differs between the two copies ({game_id})",)
    before = table(other, "Club")
    model.cancel()
    assert model.plan is None and table(other, "Club") == before


def test_a_bad_file_refuses_the_whole_import_naming_it_as_picked(club: Store) -> None:
    good = export_game(club, club.games()[0].id)
    model = ImportModel(store=club, league=club.league("Friday Club").id)
    assert not model.prepare(
        [PickedFile(name=good.name, data=good.data), PickedFile(name="notes.json", data=b"{ not json")]
    )
    assert model.error.startswith("file to import 'notes.json' is not JSON")
    assert "rummy-import" not in model.error  # never the temporary folder
    assert model.plan is None
    assert not model.confirm()


def test_picked_paths_are_read_from_disk(club: Store, tmp_path: Path) -> None:
    exported = export_league_json(club, "Friday Club")
    path = tmp_path / exported.name
    path.write_bytes(exported.data)
    empty = Store.memory()
    empty.create_league("Friday Club")
    model = ImportModel(store=empty, league=empty.league("Friday Club").id)
    assert model.prepare([PickedFile(name=path.name, path=str(path))]) and model.confirm()
    assert table(empty, "Friday Club") == table(club, "Friday Club")


def test_csv_export_has_one_row_per_deal_per_player(club: Store) -> None:
    exported = export_league_csv(club, "Friday Club")
    rows = list(csv.DictReader(io.StringIO(exported.data.decode())))
    assert exported.name == "friday-club.csv"
    assert len(rows) == 3 * 2
    assert {r["player"] for r in rows} == {"Anna", "Bea"}


def test_game_export_is_a_game_file_with_its_id(club: Store) -> None:
    game_id = club.games()[0].id
    exported = export_game(club, game_id)
    document = json.loads(exported.data)
    assert document["id"] == game_id and document["ruleset"] == "gin"
    assert document["players"] == ["Anna", "Bea"] and len(document["deals"]) == 1
    assert exported.name.startswith("gin-") and exported.name.endswith(".json")


def test_preview_import_writes_nothing_even_to_files(club: Store, tmp_path: Path) -> None:
    exported = export_league_json(club, "Friday Club")
    on_disk = Store.open(tmp_path / "league")
    on_disk.create_league("Friday Club")
    model = ImportModel(store=on_disk, league=on_disk.league("Friday Club").id)
    assert model.prepare([PickedFile(name="x.json", data=exported.data)])
    assert Store.open(tmp_path / "league").games() == []


# -- backups ---------------------------------------------------------------------------------


def test_backup_now_then_replacing_from_it_brings_the_league_back(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    gin(store, ANNA_BIG_GIN)
    model = BackupModel.load(store)
    assert model.available and model.backups == []
    path = model.backup_now()
    assert path is not None and path.parent == tmp_path / "league-backups"
    assert [line.name for line in model.backups] == [path.name]
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["facts.jsonl"]  # the log: everything else is made from it
    before = table(store, "Club")
    later = gin(store, BEA_GIN)
    assert table(store, "Club") != before
    assert model.replace_from_backup(str(path))
    assert table(store, "Club") == before  # the same program sees the files put back
    assert table(Store.open(tmp_path / "league"), "Club") == before
    assert later not in {g.id for g in store.games()}


def test_replacing_refuses_a_zip_that_is_not_a_backup_and_changes_nothing(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    gin(store, ANNA_BIG_GIN)
    bad = tmp_path / "other.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("../../etc/passwd.json", "{}")
    model = BackupModel.load(store)
    assert model.replace_from_backup(str(bad)) is None
    assert "no file of a league store" in model.error
    not_zip = tmp_path / "notes.zip"
    not_zip.write_text("hello")
    assert model.replace_from_backup(str(not_zip)) is None
    assert "not a backup of a league" in model.error
    assert len(table(store, "Club")) == 2


def test_repair_reports_nothing_to_do_on_a_whole_store(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    model = BackupModel.load(store)
    assert model.repair() == [] and model.error == ""


def test_a_store_in_memory_has_no_backups(club: Store) -> None:
    model = BackupModel.load(club)
    assert not model.available
    assert model.backup_now() is None and "in memory" in model.error
    with pytest.raises(StoreInputError, match="in memory"):
        club.backup("/tmp")
