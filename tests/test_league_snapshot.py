"""Whole-store backups: a zip of every store file, checked whole before a restore writes anything."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from scorer.league.snapshot import list_backups, read_backup, store_files

from scorer.league.errors import StoreInputError
from scorer.league.exchange import read_import
from scorer.league.store import Store

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}


def gin(store: Store) -> str:
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    return store.add_deal(game.id, ANNA_BIG_GIN).id


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    gin(store)
    return store


def test_a_backup_holds_every_store_file_and_none_of_their_old_versions(store: Store, tmp_path: Path) -> None:
    path = store.backup(tmp_path / "backups")
    assert store.location is not None
    with zipfile.ZipFile(path) as archive:
        names = sorted(archive.namelist())
    assert names == sorted(p.as_posix() for p in store_files(store.location))
    assert not any(n.endswith((".1", ".2", ".3", ".lock")) for n in names)
    assert list_backups(tmp_path / "backups") == [path]


def test_two_backups_in_one_second_are_both_kept(store: Store, tmp_path: Path) -> None:
    first = store.backup(tmp_path / "backups")
    second = store.backup(tmp_path / "backups")
    assert first != second and len(list_backups(tmp_path / "backups")) == 2


def test_restore_sets_aside_games_recorded_since_and_keeps_replaced_versions(
    store: Store, tmp_path: Path
) -> None:
    path = store.backup(tmp_path / "backups")
    later = gin(store)
    assert store.restore_backup(path) > 0
    assert later not in {g.id for g in store.games()}
    assert store.location is not None
    assert list(store.location.rglob("*.replaced"))  # the later game's file, set aside, not deleted
    assert (store.location / "index.json.1").exists()  # the index as it was before the restore
    assert len(Store.open(store.location).games()) == 1


def test_a_damaged_file_in_the_zip_refuses_the_whole_restore(store: Store, tmp_path: Path) -> None:
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("index.json", '{"players": {')
    with pytest.raises(StoreInputError, match=r"'index.json': the file ends too soon"):
        store.restore_backup(bad)
    assert len(store.games()) == 1


def test_a_zip_without_the_index_is_no_backup(tmp_path: Path) -> None:
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as archive:
        shard = {"meta": {"1": {"schema": 2, "kind": "shard"}}, "games": {}}
        archive.writestr("games/ab/index.json", json.dumps(shard))
    with pytest.raises(StoreInputError, match=r"no index\.json"):
        read_backup(path)


def test_preview_import_reports_without_writing(store: Store, tmp_path: Path) -> None:
    exported = tmp_path / "club.json"
    exported.write_text(json.dumps(store.export_league("Club")))
    other = Store.open(tmp_path / "other")
    other.create_league("Club")
    batch = read_import([exported])
    report = other.preview_import("Club", batch)
    assert (report.games_added, report.players_added) == (1, 2)
    assert other.games() == [] and other.players() == []
    assert other.import_batch("Club", batch).games_added == 1
