"""Whole-store backups: the store's log in a zip, listed, taken, and checked whole before
replacing the store writes anything; a backup of the earlier layout still replaces it
(converted)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from scorer.league.backup import list_backups, read_backup
from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.errors import StoreInputError
from scorer.league.exchange import read_import
from scorer.league.log import COPY_NAME, LOG_NAME
from scorer.league.store import Store

GIN_50 = {"target": 50}
ANNA_BIG_GIN = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}
#: A store folder as the earlier layout (index.json, games/XY/...) left it, written by the
#: code before the log of facts, and the reads that code answered for it.
EARLIER = Path(__file__).parent / "data" / "earlier-layout"
EARLIER_READS = Path(__file__).parent / "data" / "earlier-layout-reads.json"


def gin(store: Store) -> str:
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    return store.add_deal(game.id, ANNA_BIG_GIN).id


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    gin(store)
    return store


def test_a_backup_holds_the_log_and_nothing_that_can_be_made_again(store: Store, tmp_path: Path) -> None:
    assert store.location is not None
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    assert (store.location / CHECKPOINT_NAME).exists()
    path = store.backup(tmp_path / "backups")
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == [LOG_NAME]  # not the copy, the checkpoint, the lock
        assert archive.read(LOG_NAME) == (store.location / LOG_NAME).read_bytes()
    assert list_backups(tmp_path / "backups") == [path]
    assert read_backup(path) == {LOG_NAME: (store.location / LOG_NAME).read_bytes()}


def test_two_backups_in_one_second_are_both_kept(store: Store, tmp_path: Path) -> None:
    first = store.backup(tmp_path / "backups")
    second = store.backup(tmp_path / "backups")
    assert first != second and len(list_backups(tmp_path / "backups")) == 2
    assert set(list_backups(tmp_path / "backups")) == {first, second}


def test_backups_are_listed_newest_first_and_nothing_else_is(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    assert list_backups(folder) == []  # no folder yet
    folder.mkdir()
    for name in ("rummy-league-20250101-000000.zip", "rummy-league-20260101-000000.zip"):
        (folder / name).write_bytes(b"")
    (folder / "notes.zip").write_bytes(b"")
    (folder / "rummy-league-20270101-000000.zip").mkdir()  # a folder is no backup
    assert [p.name for p in list_backups(folder)] == [
        "rummy-league-20260101-000000.zip",
        "rummy-league-20250101-000000.zip",
    ]


def test_replacing_from_a_backup_drops_what_came_since_and_keeps_the_log_it_replaced(
    store: Store, tmp_path: Path
) -> None:
    assert store.location is not None
    path = store.backup(tmp_path / "backups")
    first_log = (store.location / LOG_NAME).read_bytes()
    later = gin(store)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    replaced = (store.location / LOG_NAME).read_bytes()
    assert store.replace_from_backup(path) == 1
    assert later not in {g.id for g in store.games()}
    assert (store.location / LOG_NAME).read_bytes() == first_log
    assert (store.location / COPY_NAME).read_bytes() == first_log
    assert (store.location / f"{LOG_NAME}.replaced").read_bytes() == replaced  # kept, not deleted
    assert Store.verify(store.location) == []  # the checkpoint of the later log is not kept
    assert len(Store.open(store.location).games()) == 1
    # a second replacement keeps the one replaced before, too
    gin(store)
    assert store.replace_from_backup(path) == 1
    assert (store.location / f"{LOG_NAME}.replaced.1").read_bytes() == replaced
    assert (store.location / f"{LOG_NAME}.replaced").exists()
    assert len(Store.open(store.location).games()) == 1


def test_a_backup_of_a_store_with_a_night_replaces_the_store(tmp_path: Path) -> None:
    """Issue 23's first bug: a backup of any store that has held a club night was refused."""
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    store.start_night("Club", players=["Anna", "Bea", "Cleo", "Dan"], ruleset="gin", seed=1)
    path = store.backup(tmp_path / "backups")
    store.create_league("Later")
    assert store.replace_from_backup(path) == 1
    assert [lg.name for lg in store.leagues()] == ["Club"]
    assert len(store.nights("Club")) == 1
    assert store.location is not None and Store.verify(store.location) == []


def test_a_damaged_log_in_the_zip_refuses_the_whole_replacement(store: Store, tmp_path: Path) -> None:
    assert store.location is not None
    log = (store.location / LOG_NAME).read_bytes()
    cut = tmp_path / "cut.zip"
    with zipfile.ZipFile(cut, "w") as archive:
        archive.writestr(LOG_NAME, log[:-5])
    last = log.count(b"\n")  # the line cut short: the last commit, never whole in the zip
    with pytest.raises(StoreInputError, match=rf"file 'facts.jsonl': line {last}: the line is damaged"):
        store.replace_from_backup(cut)
    assert len(store.games()) == 1
    assert (store.location / LOG_NAME).read_bytes() == log


def test_a_damaged_file_of_an_earlier_backup_refuses_the_whole_replacement(
    store: Store, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("index.json", '{"players": {')
    with pytest.raises(StoreInputError, match=r"'index.json': the file ends too soon"):
        store.replace_from_backup(bad)
    assert len(store.games()) == 1


def test_a_zip_with_neither_the_log_nor_the_index_is_no_backup(tmp_path: Path) -> None:
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as archive:
        shard = {"meta": {"1": {"schema": 2, "kind": "shard"}}, "games": {}}
        archive.writestr("games/ab/index.json", json.dumps(shard))
    with pytest.raises(StoreInputError, match=r"not a backup of a league"):
        read_backup(path)


def test_a_zip_with_both_layouts_is_no_backup(store: Store, tmp_path: Path) -> None:
    assert store.location is not None
    path = tmp_path / "both.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(LOG_NAME, (store.location / LOG_NAME).read_bytes())
        archive.writestr("index.json", (EARLIER / "index.json").read_bytes())
    with pytest.raises(StoreInputError, match=r"not a backup of a league"):
        store.replace_from_backup(path)
    assert len(store.games()) == 1


def earlier_backup(tmp_path: Path) -> Path:
    """A backup zip as the earlier layout's Settings wrote it: index.json and games/XY/*.json."""
    path = tmp_path / "rummy-league-20260101-000000.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(EARLIER.rglob("*.json")):
            archive.write(file, arcname=file.relative_to(EARLIER).as_posix())
    return path


def public_reads(store: Store) -> dict[str, object]:
    """What ``tests/data/earlier-layout-reads.json`` holds, read through the new store."""
    games = sorted(
        [
            g.id,
            [list(kv) for kv in sorted(store.game(g.id).result.totals.items())],
            [e.to_dict() for e in store.events(g.id)],
        ]
        for g in store.games()
    )
    return {
        "leagues": sorted(lg.name for lg in store.leagues()),
        "players": sorted(p.name for p in store.players()),
        "games": games,
        "standings": [[r.player, r.games, r.wins, r.points] for r in store.standings("Club")],
    }


def test_a_backup_of_the_earlier_layout_is_converted_and_put_in_place(store: Store, tmp_path: Path) -> None:
    assert store.location is not None
    path = earlier_backup(tmp_path)
    files = read_backup(path)
    assert LOG_NAME not in files and "index.json" in files
    assert store.replace_from_backup(path) == 1
    assert public_reads(store) == json.loads(EARLIER_READS.read_text())
    assert (store.location / f"{LOG_NAME}.replaced").exists()
    assert not list(store.location.glob(".replace-*"))  # its scratch folder is gone
    assert Store.verify(store.location) == []
    assert public_reads(Store.open(store.location)) == json.loads(EARLIER_READS.read_text())


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
