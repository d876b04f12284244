"""The store's folder: the log kept twice, kills mid-write, two programs at once, damaged
copies, the checkpoint, a newer version, and the earlier layout converted."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.errors import DamagedFileError, NewerStoreError
from scorer.league.ledger import CHECKPOINT_EVERY, ENV_VAR, default_location
from scorer.league.log import COPY_NAME, LOG_NAME
from scorer.league.store import Store

ENDLESS_GIN = {"target": None}  # no target: deals can be recorded for ever
DEAL = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}}
EARLIER = Path(__file__).parent / "data" / "earlier-small"


def league_with_game(folder: Path, deals: int = 2) -> tuple[Store, str]:
    store = Store.open(folder)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=ENDLESS_GIN, league="Club")
    for _ in range(deals):
        store.add_deal(game.id, DEAL)
    return store, game.id


def reads(store: Store) -> object:
    """What a player sees of the store: its games with their deals and history, the standings."""
    games = store.games(deleted=True)
    return (
        [(g.id, g.status, g.deals, store.game(g.id).result.totals, store.events(g.id)) for g in games],
        [p.name for p in store.players()],
        {lg.name: store.standings(lg.id) for lg in store.leagues()},
    )


def mtimes(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file() and p.name != ".lock"}


# -- location ---------------------------------------------------------------------------


def test_rummy_db_chooses_the_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "here"))
    assert default_location() == tmp_path / "here"
    store = Store.open()
    assert store.location == tmp_path / "here"
    assert (tmp_path / "here" / LOG_NAME).is_file() and (tmp_path / "here" / COPY_NAME).is_file()


def test_the_default_folder_is_the_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert default_location().parts[-2:] == ("rummy-scorer", "league")


# -- writes ------------------------------------------------------------------------------


def test_a_deal_appends_one_line_to_each_copy_and_nothing_else(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in (LOG_NAME, COPY_NAME)}
    times = mtimes(tmp_path)
    store.add_deal(game_id, DEAL, by="Anna's phone")
    after = {name: (tmp_path / name).read_bytes() for name in (LOG_NAME, COPY_NAME)}
    assert after[LOG_NAME] == after[COPY_NAME]
    added = after[LOG_NAME][len(before[LOG_NAME]) :]
    assert after[LOG_NAME].startswith(before[LOG_NAME]) and added.count(b"\n") == 1
    body = json.loads(added.rsplit(b"\t", 1)[0])
    [fact] = body["facts"]
    assert (fact["kind"], fact["game"], fact["number"], fact["by"]) == (
        "deal.recorded",
        game_id,
        3,
        "Anna's phone",
    )
    assert {p for p, t in mtimes(tmp_path).items() if times.get(p) != t} == {
        tmp_path / LOG_NAME,
        tmp_path / COPY_NAME,
    }
    assert len(added) < 400  # a deal's fact is small: no document is written again


def test_reading_writes_nothing(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path)
    before = mtimes(tmp_path)
    again = Store.open(tmp_path)
    again.game(game_id)
    again.standings("Club")
    again.games()
    assert mtimes(tmp_path) == before


def test_a_checkpoint_is_saved_and_opening_reads_only_what_follows(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=0)
    for _ in range(CHECKPOINT_EVERY + 5):
        store.add_deal(game_id, DEAL)
    saved = json.loads(
        (tmp_path / CHECKPOINT_NAME).read_bytes().split(b"\n", 2)[1]
    )  # its sum, then its head, then its compressed parts
    assert 0 < saved["position"] <= store.position
    again = Store.open(tmp_path)
    assert again._ledger.position == store.position  # type: ignore[attr-defined]
    assert reads(again) == reads(store)


@pytest.mark.parametrize("damage", ["deleted", "garbled", "another store's", "older"])
def test_a_bad_checkpoint_is_ignored_and_the_state_folded_from_the_log(tmp_path: Path, damage: str) -> None:
    store, game_id = league_with_game(tmp_path, deals=2)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    path = tmp_path / CHECKPOINT_NAME
    older = path.read_bytes()
    store.add_deal(game_id, DEAL)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    right = reads(store)
    if damage == "deleted":
        path.unlink()
    elif damage == "garbled":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "another store's":
        other, _ = league_with_game(tmp_path / "other", deals=5)
        other._ledger.save_checkpoint()  # type: ignore[attr-defined]
        shutil.copy(tmp_path / "other" / CHECKPOINT_NAME, path)
    else:  # an older checkpoint is a good start: the commits after it are read
        path.write_bytes(older)
    assert reads(Store.open(tmp_path)) == right


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
        again = Store.open(tmp_path)  # a commit the kill left half-written is mended here, and said
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


# -- damaged copies ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [LOG_NAME, COPY_NAME])
@pytest.mark.parametrize("damage", ["deleted", "emptied", "cut short", "garbled", "a folder", "older"])
def test_one_copy_damaged_loses_nothing_and_is_mended_and_said(
    tmp_path: Path, name: str, damage: str
) -> None:
    store, _ = league_with_game(tmp_path, deals=3)
    right = reads(store)
    path = tmp_path / name
    whole = path.read_bytes()
    if damage == "deleted":
        path.unlink()
    elif damage == "emptied":
        path.write_bytes(b"")
    elif damage == "cut short":
        path.write_bytes(whole[: len(whole) // 2])
    elif damage == "garbled":
        path.write_bytes(whole[:200] + b"#" + whole[201:])
    elif damage == "a folder":
        path.unlink()
        path.mkdir()
    else:  # the copy as it was two commits ago
        path.write_bytes(whole[: whole.rstrip(b"\n").rfind(b"\n", 0, whole.rstrip(b"\n").rfind(b"\n")) + 1])
    assert Store.verify(tmp_path)  # said before anything is mended
    again = Store.open(tmp_path)
    assert reads(again) == right
    assert any(name in notice for notice in again.notices)
    assert Store.verify(tmp_path) == []
    assert (tmp_path / LOG_NAME).read_bytes() == (tmp_path / COPY_NAME).read_bytes() == whole


def test_restore_mends_a_copy_and_keeps_the_damaged_one(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path, deals=3)
    right = reads(store)
    path = tmp_path / COPY_NAME
    whole = path.read_bytes()
    path.write_bytes(whole[:150] + b"#" + whole[151:])
    [problem] = Store.verify(tmp_path)
    assert problem.path == str(path) and problem.message.code == "store.problem_line"
    [repair] = Store.restore(tmp_path)
    assert (repair.path, repair.action) == (str(path), "rebuilt")
    assert (tmp_path / f"{COPY_NAME}.damaged").read_bytes() == whole[:150] + b"#" + whole[151:]
    assert Store.verify(tmp_path) == []
    assert reads(Store.open(tmp_path)) == right


def test_each_copy_damaged_at_a_different_commit_comes_back_whole(tmp_path: Path) -> None:
    store, _ = league_with_game(tmp_path, deals=6)
    right = reads(store)
    whole = (tmp_path / LOG_NAME).read_bytes()
    lines = whole.splitlines(keepends=True)
    for name, spoiled in ((LOG_NAME, 2), (COPY_NAME, 5)):
        damaged = list(lines)
        damaged[spoiled] = damaged[spoiled][:30] + b"#" + damaged[spoiled][31:]
        (tmp_path / name).write_bytes(b"".join(damaged))
    assert {p.path for p in Store.verify(tmp_path)} == {str(tmp_path / LOG_NAME), str(tmp_path / COPY_NAME)}
    assert {r.action for r in Store.restore(tmp_path)} == {"rebuilt"}
    assert (tmp_path / LOG_NAME).read_bytes() == whole
    assert reads(Store.open(tmp_path)) == right


def test_a_commit_damaged_in_both_copies_is_said_lost_and_nothing_is_changed(tmp_path: Path) -> None:
    league_with_game(tmp_path, deals=4)
    lines = (tmp_path / LOG_NAME).read_bytes().splitlines(keepends=True)
    lines[3] = lines[3][:30] + b"#" + lines[3][31:]
    damaged = b"".join(lines)
    for name in (LOG_NAME, COPY_NAME):
        (tmp_path / name).write_bytes(damaged)
    repairs = Store.restore(tmp_path)
    assert [r.action for r in repairs] == ["lost"] and "commit 3" in repairs[0].detail
    assert (tmp_path / LOG_NAME).read_bytes() == damaged  # nothing dropped in silence
    with pytest.raises(DamagedFileError):
        Store.open(tmp_path).games()


def test_the_last_commit_damaged_in_both_copies_is_said_lost_not_dropped(tmp_path: Path) -> None:
    """A last line that ends with its newline was acknowledged: damaged in both copies, it is
    lost (said, nothing changed), never dropped as a change cut short."""
    league_with_game(tmp_path, deals=4)
    lines = (tmp_path / LOG_NAME).read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1][:30] + b"#" + lines[-1][31:]
    damaged = b"".join(lines)
    for name in (LOG_NAME, COPY_NAME):
        (tmp_path / name).write_bytes(damaged)
    assert "store.lost_commit" in {p.message.code for p in Store.verify(tmp_path)}
    repairs = Store.restore(tmp_path)
    assert [r.action for r in repairs] == ["lost"]
    assert (tmp_path / LOG_NAME).read_bytes() == damaged
    assert (tmp_path / COPY_NAME).read_bytes() == damaged


def test_a_copy_of_another_stores_log_is_refused_not_taken(tmp_path: Path) -> None:
    league_with_game(tmp_path / "ours", deals=2)
    league_with_game(tmp_path / "theirs", deals=5)
    shutil.copy(tmp_path / "theirs" / LOG_NAME, tmp_path / "ours" / COPY_NAME)
    ours = (tmp_path / "ours" / LOG_NAME).read_bytes()
    [problem] = [p for p in Store.verify(tmp_path / "ours") if p.message.code == "store.problem_other_store"]
    assert problem.path == str(tmp_path / "ours" / COPY_NAME)
    repairs = Store.restore(tmp_path / "ours")
    assert [r.action for r in repairs] == ["lost"]
    assert (tmp_path / "ours" / LOG_NAME).read_bytes() == ours
    with pytest.raises(DamagedFileError, match="two different stores"):
        Store.open(tmp_path / "ours")


def test_a_change_cut_short_by_a_crash_is_dropped_and_said(tmp_path: Path) -> None:
    _, game_id = league_with_game(tmp_path, deals=1)
    whole = (tmp_path / LOG_NAME).read_bytes()
    for name in (LOG_NAME, COPY_NAME):
        with (tmp_path / name).open("ab") as handle:
            handle.write(b'{"n":4,"prev":"0123456789abcdef","facts":[{"id":"x","ki')
    again = Store.open(tmp_path)
    assert sum("never saved" in n for n in again.notices) == 2
    assert (tmp_path / LOG_NAME).read_bytes() == (tmp_path / COPY_NAME).read_bytes() == whole
    assert len(again.game(game_id).game.deals) == 1
    assert Store.verify(tmp_path) == []


def test_a_commit_in_one_copy_only_is_written_into_the_other(tmp_path: Path) -> None:
    """A program stopped between its two appends: the commit is kept (it may have been seen)."""
    store, game_id = league_with_game(tmp_path, deals=1)
    short = (tmp_path / COPY_NAME).read_bytes()
    store.add_deal(game_id, DEAL)
    (tmp_path / COPY_NAME).write_bytes(short)
    again = Store.open(tmp_path)
    assert len(again.game(game_id).game.deals) == 2
    assert any(COPY_NAME in n for n in again.notices)
    assert Store.verify(tmp_path) == []


def test_a_write_under_way_elsewhere_is_not_read_half_written(tmp_path: Path) -> None:
    store, game_id = league_with_game(tmp_path, deals=1)
    reader = Store.open(tmp_path)
    with (tmp_path / LOG_NAME).open("ab") as handle:  # another program half-way through its append
        handle.write(b'{"n":4,"prev":"')
    assert len(reader.game(game_id).game.deals) == 1
    store.add_deal(game_id, DEAL)  # the writer (under the lock) mends it first
    assert len(reader.game(game_id).game.deals) == 2


def test_a_store_from_a_newer_version_is_refused_and_left_alone(tmp_path: Path) -> None:
    league_with_game(tmp_path)
    for name in (LOG_NAME, COPY_NAME):
        path = tmp_path / name
        text = path.read_bytes()
        first, _, rest = text.partition(b"\n")
        head = json.loads(first.rsplit(b"\t", 1)[0])
        head["v"] = 99
        from scorer.league.log import encode

        line, _ = encode(head)
        path.write_bytes(line + rest)
    before = (tmp_path / LOG_NAME).read_bytes()
    with pytest.raises(NewerStoreError, match="written by a newer Rummy Scorer"):
        Store.open(tmp_path)
    assert (tmp_path / LOG_NAME).read_bytes() == before


# -- the earlier layout -------------------------------------------------------------------


def earlier(tmp_path: Path) -> Path:
    folder = tmp_path / "league"
    shutil.copytree(EARLIER, folder)
    return folder


def test_an_earlier_layout_converts_itself_on_first_open_and_keeps_its_files(tmp_path: Path) -> None:
    folder = earlier(tmp_path)
    files = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    store = Store.open(folder)
    [notice] = store.notices
    assert "converted" in notice
    [aside] = [p for p in folder.iterdir() if p.name.startswith("earlier-layout-")]
    assert sorted(p.relative_to(aside) for p in aside.rglob("*") if p.is_file()) == files
    [gin, rommi] = store.games()
    assert (gin.ruleset, gin.deals, rommi.status) == ("gin", 2, "abandoned")
    assert [(e.action, e.by, e.why) for e in store.events(gin.id)] == [
        ("started", "Anna's phone", None),
        ("recorded", "Anna's phone", None),
        ("recorded", "Anna's phone", None),
        ("corrected", "Bea", "miscounted"),
    ]
    assert [p.name for p in store.players()] == ["Anna", "Bea", "Cid", "Daniel"]
    assert Store.verify(folder) == []
    store.add_deal(gin.id, DEAL)
    again = Store.open(folder)
    assert again.notices == [] and again.games()[0].deals == 3


def test_an_earlier_layout_with_a_damaged_file_converts_from_its_journal(tmp_path: Path) -> None:
    folder = earlier(tmp_path)
    index = folder / "index.json"
    index.write_bytes(index.read_bytes()[:20])
    store = Store.open(folder)
    assert [p.name for p in store.players()] == ["Anna", "Bea", "Cid", "Daniel"]


def test_an_earlier_layout_damaged_in_file_and_journal_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    folder = earlier(tmp_path)
    (folder / "index.json").write_bytes(b"{")
    (folder / "journal.jsonl").write_bytes(b"garbage")
    before = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    with pytest.raises(DamagedFileError, match=r"index\.json"):
        Store.open(folder)
    assert (
        sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and p.name != ".lock")
        == before
    )


def test_a_conversion_cut_short_converts_again(tmp_path: Path) -> None:
    """Killed after the earlier files were moved aside, before the new log was in place."""
    folder = earlier(tmp_path)
    Store.open(folder)
    for name in (LOG_NAME, COPY_NAME, CHECKPOINT_NAME):
        (folder / name).unlink(missing_ok=True)
    store = Store.open(folder)
    assert len(store.games()) == 2 and any("converted" in n for n in store.notices)
