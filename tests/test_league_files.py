"""The store's folder: kills mid-write, two programs at once, damaged files, schema versions."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from scorer.league import documents
from scorer.league import repository as store_module
from scorer.league.documents import game_name, shard_name
from scorer.league.errors import DamagedFileError, NewerStoreError
from scorer.league.storage import ENV_VAR, default_location
from scorer.league.store import Store

ENDLESS_GIN = {"target": None}  # no target: deals can be recorded for ever
DEAL = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}}


def file_of(store: Store, name: str) -> Path:
    assert store.location is not None
    return store.location / f"{name}.json"


def league_with_game(folder: Path, deals: int = 2) -> tuple[Store, str]:
    store = Store.open(folder)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=ENDLESS_GIN, league="Club")
    for _ in range(deals):
        store.add_deal(game.id, DEAL)
    return store, game.id


# -- location ---------------------------------------------------------------------------


def test_rummy_db_chooses_the_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "here"))
    assert default_location() == tmp_path / "here"
    store = Store.open()
    assert store.location == tmp_path / "here"
    assert (tmp_path / "here" / "index.json").is_file()


def test_the_default_folder_is_the_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert default_location().parts[-2:] == ("rummy-scorer", "league")


# -- writes ------------------------------------------------------------------------------


def test_a_write_keeps_the_previous_version_as_a_backup(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=1)
    path = file_of(store, game_name(game_id))
    store.add_deal(game_id, DEAL)
    backup = json.loads(path.with_name(path.name + ".1").read_text())
    [row] = backup["game"].values()
    assert len(row["document"]["deals"]) == 1
    assert not list(tmp_path.glob("**/.*.tmp"))


def test_recording_a_deal_rewrites_only_its_game_and_shard(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.glob("**/*.json")}
    store.add_deal(game_id, DEAL)
    changed = {p for p in tmp_path.glob("**/*.json") if before.get(p) != p.stat().st_mtime_ns}
    assert changed == {file_of(store, game_name(game_id)), file_of(store, shard_name(game_id))}


def test_reading_writes_nothing(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.glob("**/*.json")}
    again = Store.open(tmp_path)
    again.game(game_id)
    again.standings("Club")
    again.games()
    assert {p: p.stat().st_mtime_ns for p in tmp_path.glob("**/*.json")} == before


def deal_for(name: str) -> dict[str, object]:
    """A deal like DEAL, for another player."""
    return {"knocker": "Anna", "deadwood": {"Anna": 0, name: 10}}


def _record_until_killed(folder: Path, game_id: str, report: int) -> None:
    """Child: record deals, and now and then a new game, telling the parent what returned."""
    store = Store.open(folder)
    count = len(store.game(game_id).game.deals)
    while True:
        if count % 7 == 6:
            new = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=ENDLESS_GIN, league="Club")
            os.write(report, f"game {new.id}\n".encode())
        if count % 5 == 4:  # an import: a game file with a new player
            name = f"Imported {os.getpid()} {count}"
            game_file = folder.parent / f"import-{os.getpid()}-{count}.json"
            document = {"format": 1, "ruleset": "gin", "players": ["Anna", name], "deals": [deal_for(name)]}
            game_file.write_text(json.dumps(document))
            store.import_files("Club", [game_file])
            os.write(report, f"player {name}\n".encode())
        store.add_deal(game_id, DEAL)
        count += 1
        os.write(report, f"deal {count}\n".encode())


def test_a_kill_at_any_instant_loses_no_returned_write(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path, deals=0)
    rng = random.Random(7)
    games_started: set[str] = {game_id}
    imported: set[str] = set()
    recorded = 0
    for _ in range(12):
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child is killed
            os.close(reader)
            try:
                _record_until_killed(tmp_path, game_id, writer)
            finally:
                os._exit(1)
        os.close(writer)
        lines = os.fdopen(reader)
        first: list[str] = []
        while not first or first[-1].startswith("game"):  # wait for its first deal to return
            first.append(lines.readline())
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with lines:
            for line in [*first, *lines.read().splitlines()]:
                what, _, value = line.strip().partition(" ")
                if what == "deal":
                    recorded = int(value)
                elif what == "game":
                    games_started.add(value)
                elif what == "player":
                    imported.add(value)
        again = Store.open(tmp_path)  # a change the kill left half-written is written again here
        assert Store.verify(tmp_path) == []
        deals = len(again.game(game_id).game.deals)
        assert recorded <= deals <= recorded + 1
        [info] = [i for i in again.games() if i.id == game_id]
        assert info.deals == deals  # the cached summary agrees with the entries
        assert games_started <= {i.id for i in again.games()}
        assert imported <= {p.name for p in again.players()}
        recorded = deals
    assert recorded >= 12  # every round recorded at least one deal before the kill


def _record_deals(folder: Path, game_id: str, deals: int) -> None:
    store = Store.open(folder)
    for number in range(deals):
        store.add_deal(game_id, DEAL)
        store.add_player(f"Player {os.getpid()} {number}")


def test_two_programs_recording_at_once_lose_nothing(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=0)
    children = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            code = 1
            try:
                _record_deals(tmp_path, game_id, 15)
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    for pid in children:
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    again = Store.open(tmp_path)
    assert Store.verify(tmp_path) == []
    assert len(again.game(game_id).game.deals) == 30
    assert again.games()[0].deals == 30
    assert len(again.players()) == 2 + 30
    assert len(store.game(game_id).game.deals) == 30  # the first program sees them too


# -- damaged files ----------------------------------------------------------------------


def test_a_corrupt_index_is_named_never_overwritten_and_rebuilt_whole(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path)
    store.add_player("Cid")
    index = file_of(store, "index")
    index.write_text('{"players": {"1": {"id": 1,,,')
    damaged = index.read_bytes()
    with pytest.raises(DamagedFileError) as caught:
        Store.open(tmp_path)
    message = str(caught.value)
    assert f"'{index}' is damaged" in message
    assert "rummy league restore" in message
    with pytest.raises(DamagedFileError):
        store.add_player("Dan")
    assert index.read_bytes() == damaged
    repairs = Store.restore(tmp_path)
    assert [(r.path, r.action) for r in repairs] == [(str(index), "rebuilt")]
    assert Path(f"{index}.damaged").read_bytes() == damaged
    again = Store.open(tmp_path)
    assert [p.name for p in again.players()] == ["Anna", "Bea", "Cid"]  # nothing acknowledged is lost
    assert len(again.games()) == 1


def test_a_truncated_game_file_comes_back_with_its_last_deal(tmp_path: Path) -> None:
    """Regression: restore brought back the backup, one deal short of what was acknowledged."""
    store, game_id = league_with_game(tmp_path, deals=3)
    path = file_of(store, game_name(game_id))
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(DamagedFileError, match="cut off"):
        Store.open(tmp_path).game(game_id)
    actions = {Path(r.path).name: r.action for r in Store.restore(tmp_path)}
    assert actions == {path.name: "rebuilt"}
    again = Store.open(tmp_path)
    assert len(again.game(game_id).game.deals) == 3
    assert again.games()[0].deals == 3
    assert [e.action for e in again.events(game_id)] == ["started", *["recorded"] * 3]


def test_a_damaged_shard_is_rebuilt(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=3)
    rows = store.standings("Club")
    shard = file_of(store, shard_name(game_id))
    shard.write_text("")
    with pytest.raises(DamagedFileError, match=r"file is empty\).*rummy league restore"):
        Store.open(tmp_path).games()
    [repair] = Store.restore(tmp_path)
    assert repair.action == "rebuilt"
    again = Store.open(tmp_path)
    assert again.standings("Club") == rows
    assert again.games()[0].deals == 3


def test_a_game_file_with_no_backup_comes_back_from_the_journal(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    path = file_of(store, game_name(game_id))
    for backup in path.parent.glob(f"{path.name}.*"):
        backup.unlink()
    path.write_text("not json")
    with pytest.raises(DamagedFileError, match="makes it again from the store's journal"):
        Store.open(tmp_path).game(game_id)
    assert [r.action for r in Store.restore(tmp_path)] == ["rebuilt"]
    assert Path(f"{path}.damaged").read_text() == "not json"
    assert len(Store.open(tmp_path).game(game_id).game.deals) == 2


@pytest.mark.parametrize("what", ["index", "game file", "shard index", "shard folder"])
def test_a_deleted_file_is_noticed_on_opening_and_comes_back_whole(tmp_path: Path, what: str) -> None:
    """Regression: a deleted game file or shard folder made a game vanish with nothing said."""
    store, game_id = league_with_game(tmp_path, deals=2)
    rows = store.standings("Club")
    events = store.events(game_id)
    target = {
        "index": file_of(store, "index"),
        "game file": file_of(store, game_name(game_id)),
        "shard index": file_of(store, shard_name(game_id)),
        "shard folder": file_of(store, shard_name(game_id)).parent,
    }[what]
    if target.is_dir():
        for path in target.iterdir():
            path.unlink()
        target.rmdir()
    else:
        target.unlink()
    with pytest.raises(DamagedFileError, match=r"the file is missing|finds 0"):
        Store.open(tmp_path).games()
    assert Store.verify(tmp_path)
    assert {r.action for r in Store.restore(tmp_path)} == {"rebuilt"}
    assert Store.verify(tmp_path) == []
    again = Store.open(tmp_path)
    assert again.standings("Club") == rows
    assert again.events(game_id) == events
    assert again.games()[0].deals == 2


def test_a_lost_journal_is_noticed_and_made_again_from_the_files(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path, deals=2)
    journal = tmp_path / "journal.jsonl"
    journal.unlink()
    with pytest.raises(DamagedFileError, match=r"journal.jsonl' is damaged \(the file is missing\)"):
        Store.open(tmp_path)
    assert [p.problem for p in Store.verify(tmp_path)] == ["the file is missing"]
    [repair] = Store.restore(tmp_path)
    assert (repair.path, repair.action) == (str(journal), "rebuilt")
    assert Store.verify(tmp_path) == []
    again = Store.open(tmp_path)
    again.add_deal(game_id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 10}})
    assert Store.verify(tmp_path) == []


def test_a_damaged_journal_line_is_reported_and_the_journal_made_again(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path, deals=2)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1][:60] + b"#" + lines[1][61:]
    journal.write_bytes(b"".join(lines))
    [problem] = Store.verify(tmp_path)
    assert problem.path == str(journal) and problem.problem.startswith("line 2: the line is damaged")
    assert Store.restore(tmp_path)[-1].action == "rebuilt"
    assert Store.verify(tmp_path) == []
    assert len(Store.open(tmp_path).game(game_id).game.deals) == 2


def test_a_file_that_differs_from_the_journal_is_reported_and_rebuilt(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    path = file_of(store, game_name(game_id))
    older = path.with_name(path.name + ".1").read_bytes()  # the version before the last deal
    path.write_bytes(older)
    [problem] = Store.verify(tmp_path)
    assert problem.path == str(path) and "differs from what the journal says" in problem.problem
    Store.restore(tmp_path)
    assert len(Store.open(tmp_path).game(game_id).game.deals) == 2


def test_a_change_cut_short_by_a_crash_is_dropped_and_said(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path, deals=1)
    journal = tmp_path / "journal.jsonl"
    whole = journal.read_bytes()
    with journal.open("ab") as handle:
        handle.write(b'{"sum":"0123456789abcdef","tx":{"seq":99,"docs":{"ind')
    again = Store.open(tmp_path)
    assert any("unfinished change was dropped" in n for n in again.notices)
    assert journal.read_bytes() == whole
    assert len(again.game(game_id).game.deals) == 1
    assert Store.verify(tmp_path) == []


def test_a_change_journaled_but_not_yet_written_is_written_on_the_next_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, game_id = league_with_game(tmp_path, deals=1)

    def crash(self: object, name: str, data: object) -> None:
        raise KeyboardInterrupt("killed after the journal, before the files")

    with monkeypatch.context() as patched:
        patched.setattr(store_module.FolderBackend, "_store", crash)
        with pytest.raises(KeyboardInterrupt):
            store.add_deal(game_id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 10}})
    again = Store.open(tmp_path)
    assert any("written again" in n for n in again.notices)
    assert len(again.game(game_id).game.deals) == 2
    assert again.games()[0].deals == 2
    assert Store.verify(tmp_path) == []


def test_a_record_of_the_wrong_shape_is_a_damaged_file(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path)
    index = file_of(store, "index")
    data = json.loads(index.read_text())
    next(iter(data["players"].values()))["name"] = 5
    index.write_text(json.dumps(data))
    with pytest.raises(DamagedFileError, match="player record, name: 5 is not text"):
        Store.open(tmp_path).players()


# -- schema versions --------------------------------------------------------------------


def test_a_store_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path)
    index = file_of(store, "index")
    data = json.loads(index.read_text())
    data["meta"]["1"]["schema"] = documents.SCHEMA_VERSION + 1
    index.write_text(json.dumps(data))
    with pytest.raises(NewerStoreError, match="written by a newer Rummy Scorer"):
        Store.open(tmp_path)
    assert json.loads(index.read_text()) == data


def test_an_older_store_is_migrated_file_by_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    rows = store.standings("Club")
    seen: list[str] = []

    def rename_club(kind: str, tables: dict[str, object]) -> dict[str, object]:
        seen.append(kind)
        if kind == "index":
            leagues = tables["leagues"]
            assert isinstance(leagues, dict)
            for row in leagues.values():
                row["name"] = row["name"].upper()
        return tables

    version = documents.SCHEMA_VERSION
    monkeypatch.setattr(documents, "SCHEMA_VERSION", version + 1)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", version + 1)
    monkeypatch.setitem(documents.MIGRATIONS, version, rename_club)
    again = Store.open(tmp_path)
    assert sorted(seen) == ["game", "index", "shard"]
    assert again.league("CLUB").name == "CLUB"
    assert again.standings("CLUB") == rows
    for path in tmp_path.glob("**/*.json"):
        assert json.loads(path.read_text())["meta"]["1"]["schema"] == version + 1, path
    assert len(Store.open(tmp_path).game(game_id).game.deals) == 2
    assert seen == sorted(seen, key=["game", "shard", "index"].index) or len(seen) == 3


def test_a_journal_overwritten_whole_is_damage_not_a_change_cut_short(tmp_path: Path) -> None:
    """Regression: garbage with no newline was taken for one line cut short, so restore took the
    journal for empty and set every file of the store aside."""
    _, game_id = league_with_game(tmp_path, deals=2)
    (tmp_path / "journal.jsonl").write_bytes(b"\x00garbage{" * 3)
    [problem] = Store.verify(tmp_path)
    assert problem.problem.startswith("line 1: the line is damaged")
    assert [r.action for r in Store.restore(tmp_path)] == ["rebuilt"]
    assert not list(tmp_path.glob("**/*.unknown"))
    assert len(Store.open(tmp_path).game(game_id).game.deals) == 2


def test_a_store_from_before_the_journal_gets_one_on_opening(tmp_path: Path) -> None:
    """A version 1 store (no journal, no game counts, no events) opens whole, with its journal."""
    store, game_id = league_with_game(tmp_path, deals=2)
    rows = store.standings("Club")
    (tmp_path / "journal.jsonl").unlink()
    (tmp_path / ".generation").write_text("0" * 32)  # the marker version 1 wrote
    for path in tmp_path.glob("**/*.json"):
        data = json.loads(path.read_text())
        data["meta"]["1"]["schema"] = 1
        data.pop("shards", None)
        for row in (data.get("game") or {}).values():
            row.pop("events")
            row.pop("status")
        for row in (data.get("games") or {}).values():
            row.pop("status")
        path.write_text(json.dumps(data))
    again = Store.open(tmp_path)
    assert (tmp_path / "journal.jsonl").exists()
    assert Store.verify(tmp_path) == []
    assert again.standings("Club") == rows
    assert again.events(game_id) == []
    again.add_deal(game_id, DEAL, by="Anna")
    assert [e.action for e in Store.open(tmp_path).events(game_id)] == ["recorded"]
    assert Store.verify(tmp_path) == []
    (tmp_path / file_of(again, shard_name(game_id)).relative_to(tmp_path)).unlink()
    with pytest.raises(DamagedFileError, match="the file is missing"):
        Store.open(tmp_path)
