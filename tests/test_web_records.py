"""The browser's ledger (scorer/web/browser_store.py) over records in memory, as IndexedDB holds
them: one record per commit, the checkpoint and the summary as records, the earlier layout
(IDBFS files) converted on first open. The same code runs in Chromium (tests/test_web_build.py)
over IndexedDB itself."""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from scorer.league.errors import DamagedFileError, StoreError
from scorer.league.store import Store
from scorer.web import browser_store
from scorer.web.browser_store import (
    BACKUPS,
    LEAGUE,
    BrowserLedger,
    BrowserStore,
    open_ledger,
    put_backups_in_place,
)
from scorer.web.records import MemoryRecords

DATA = Path(__file__).parent / "data"
T = TypeVar("T")
GIN_KNOCK = {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 34}}  # Anna scores 29
#: A game long enough for the deals of a test.
LONG = {"target": 1000}


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``coroutine`` run to its end in a thread of its own (the browser tests' Playwright may
    hold this thread's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def opened(records: MemoryRecords, tmp_path: Path) -> BrowserStore:
    ledger = run(open_ledger(records, scratch=tmp_path / "scratch", location=tmp_path / "league"))
    return BrowserStore(ledger)


def ledger_of(store: BrowserStore) -> BrowserLedger:
    ledger = store._browser
    assert isinstance(ledger, BrowserLedger)
    return ledger


def deals(store: Store, game_id: str) -> int:
    return next(g.deals for g in store.games() if g.id == game_id)


def reads(store: Store) -> dict[str, object]:
    """What a player sees of the store: its games and their events, leagues, standings."""
    games = store.games(deleted=True)
    found: dict[str, object] = {
        "games": [(g.id, g.ruleset, g.names, g.deals, g.finished, g.status, g.summary.totals) for g in games],
        "events": {g.id: list(store.events(g.id)) for g in games},
        "leagues": [lg.name for lg in store.leagues()],
    }
    for league in store.leagues():
        found[f"standings {league.name}"] = store.standings(league.name)
    return found


def test_a_new_store_is_one_record_and_each_save_sends_one_commit_and_the_summary(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    assert sorted(records.commits) == [0]  # the log's first line, naming the store
    assert json.loads(records.commits[0]["line"].split("\t")[0])["store"] == ledger_of(store).store_id
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    before = len(records.writes)
    store.add_deal(game.id, GIN_KNOCK)
    assert len(records.writes) == before + 1  # one transaction for the save
    change = records.writes[-1]
    assert [n for n, *_ in change.commits] == [store.position]  # one new commit record
    assert set(change.meta) == {"summary"}  # no checkpoint yet (one is due every 200 commits)
    value = records.commits[store.position]
    # the line as the log file holds it, with its sum and the previous line's sum beside it
    assert value["line"].endswith("\t" + value["sum"] + "\n")
    assert value["prev"] == records.commits[store.position - 1]["sum"]
    assert change.size() < 2_000  # a line, not the whole log


def test_the_summary_is_the_leagues_and_games_in_progress_as_the_store_lists_them(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    store.add_deal(game.id, GIN_KNOCK)
    done = store.start_game(ruleset="gin", players=["Cid", "Dan"], options={"target": 10})
    store.add_deal(done.id, {"knocker": "Cid", "deadwood": {"Cid": 0, "Dan": 30}})  # Cid reaches 10
    summary = records.meta["summary"]
    assert summary["v"] == 1 and summary["position"] == store.position
    assert summary["leagues"] == ["Club"]
    [line] = summary["games"]  # the finished game is not in progress
    assert line["players"] == ["Anna", "Bea"] and line["totals"] == [["Anna", 29], ["Bea", 0]]
    assert line["variant"] == {"en": "Gin rummy", "fi": "Ginirommi"} and line["deals"] == 1
    assert line["changed"] == store.game(game.id).changed


def test_a_reopened_store_reads_the_same(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    for _ in range(3):
        store.add_deal(game.id, GIN_KNOCK)
    again = opened(records, tmp_path)
    assert reads(again) == reads(store)
    assert again.facts_since(0) == store.facts_since(0)


def test_a_checkpoint_is_written_when_due_and_opening_reads_only_the_commits_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser_store, "CHECKPOINT_EVERY", 4)
    records = MemoryRecords()
    store = opened(records, tmp_path)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options=LONG)
    for _ in range(4):
        store.add_deal(game.id, GIN_KNOCK)
    with_checkpoint = [i for i, w in enumerate(records.writes) if "checkpoint" in w.meta]
    assert len(with_checkpoint) == 1  # in the transaction of the commit it was due at
    at = records.meta["checkpoint"]["position"]
    assert records.writes[with_checkpoint[0]].commits[0][0] == at
    store.add_deal(game.id, GIN_KNOCK)  # one commit after it

    loaded = run(records.load())
    assert loaded.first == at and len(loaded.lines) == store.position - at + 1
    again = opened(records, tmp_path)
    assert ledger_of(again).first_in_memory == at  # the commits before it were not read
    assert reads(again) == reads(store)
    run(ledger_of(again).read_older())
    assert again.facts_since(0) == store.facts_since(0)
    assert again.facts_since(2) == store.facts_since(2)


def test_without_the_background_read_the_whole_log_is_read_when_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser_store, "CHECKPOINT_EVERY", 3)
    records = MemoryRecords()
    store = opened(records, tmp_path)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=LONG)
    for _ in range(4):
        store.add_deal(game.id, GIN_KNOCK)
    again = opened(records, tmp_path)
    assert ledger_of(again).log_bytes() == ledger_of(store).log_bytes()  # read at once where it can wait
    assert again.facts_since(0) == store.facts_since(0)


def test_a_checkpoint_that_does_not_fit_is_ignored_and_every_commit_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser_store, "CHECKPOINT_EVERY", 2)
    records = MemoryRecords()
    store = opened(records, tmp_path)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=LONG)
    for _ in range(3):
        store.add_deal(game.id, GIN_KNOCK)
    body = bytearray(base64.b64decode(records.meta["checkpoint"]["body"]))
    body[len(body) // 2] ^= 0x01  # one bit changed inside the compressed state
    records.meta["checkpoint"]["body"] = base64.b64encode(bytes(body)).decode("ascii")
    again = opened(records, tmp_path)
    assert ledger_of(again).first_in_memory == 1
    assert reads(again) == reads(store)
    records.meta["checkpoint"]["sum"] = "0" * 16  # it names another commit than the one there
    assert reads(opened(records, tmp_path)) == reads(store)


def test_a_damaged_commit_record_is_refused_naming_it(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=LONG)
    store.add_deal(game.id, GIN_KNOCK)
    store.add_deal(game.id, GIN_KNOCK)
    records.commits[2]["line"] = records.commits[2]["line"].replace("Anna", "Anne")
    with pytest.raises(DamagedFileError, match=r"commits/2.*checksum"):
        opened(records, tmp_path)
    del records.commits[2]  # a gap: commit 3 does not follow commit 1
    with pytest.raises(DamagedFileError, match=r"commits/2.*a line is missing"):
        opened(records, tmp_path)


def test_a_save_the_browser_refuses_is_refused_and_nothing_of_it_kept(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=LONG)
    position = store.position
    records.fail_next = "QuotaExceededError"
    with pytest.raises(StoreError, match="the browser's storage refused the change: QuotaExceededError"):
        store.add_deal(game.id, GIN_KNOCK)
    assert store.position == position and deals(store, game.id) == 0
    assert sorted(records.commits) == list(range(position + 1))
    store.add_deal(game.id, GIN_KNOCK)  # the next save goes through, as the next commit
    assert deals(store, game.id) == 1 and sorted(records.commits) == list(range(position + 2))


def test_a_backup_is_a_record_and_replacing_from_it_replaces_the_commits_keeping_the_old_log(
    tmp_path: Path,
) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=LONG)
    store.add_deal(game.id, GIN_KNOCK)
    path = store.backup(tmp_path / "backups")
    assert records.saved_backups == {path.name: path.read_bytes()}
    store.add_deal(game.id, GIN_KNOCK)
    assert deals(store, game.id) == 2
    before = ledger_of(store).log_bytes()

    assert store.replace_from_backup(path) == 1
    assert deals(store, game.id) == 1
    [kept] = records.kept.values()
    assert kept["log"].encode("utf-8") == before  # the log it replaced, never deleted
    assert "checkpoint" not in records.meta and records.meta["summary"]["games"][0]["deals"] == 1
    again = opened(records, tmp_path)
    assert reads(again) == reads(store) and deals(again, game.id) == 1

    # the zips come back into the backups folder when the app starts again
    shelf = tmp_path / "shelf"
    assert run(put_backups_in_place(records, shelf)) == 1
    assert (shelf / path.name).read_bytes() == path.read_bytes()


def earlier_records(folder: Path, *, backups: Path | None = None) -> list[tuple[str, bytes | None]]:
    """The IDBFS records (path, contents; None for a folder) of a store folder in /rummy/league."""
    found: list[tuple[str, bytes | None]] = [("/rummy", None), (LEAGUE, None)]
    for base, mount in ((folder, LEAGUE), (backups, BACKUPS)):
        if base is None:
            continue
        if mount != LEAGUE:
            found.append((mount, None))
        for path in sorted(base.rglob("*")):
            key = f"{mount}/{path.relative_to(base).as_posix()}"
            found.append((key, None if path.is_dir() else path.read_bytes()))
    return found


def test_the_earlier_idbfs_layout_converts_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "old" / "league"
    old = Store.open(folder)  # the store as the earlier browser build kept it: a folder
    old.create_league("Club")
    game = old.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    old.add_deal(game.id, GIN_KNOCK)
    old.start_game(ruleset="rommi", players=["Cid", "Dan", "Eve"])
    zipped = old.backup(tmp_path / "old" / "league-backups")
    earlier = earlier_records(folder, backups=zipped.parent)
    records = MemoryRecords(earlier)

    with caplog.at_level("WARNING", logger="scorer.web.browser_store"):
        store = opened(records, tmp_path)
    assert reads(store) == reads(old)
    assert store.facts_since(0) == old.facts_since(0)
    assert records.saved_backups == {zipped.name: zipped.read_bytes()}
    assert records.meta["converted"]["from"] == "IndexedDB /rummy FILE_DATA"
    assert records.meta["summary"]["position"] == store.position  # written at once
    assert "those records are kept there as they were" in caplog.text
    assert records.earlier_records == earlier  # read, never written
    again = opened(records, tmp_path)  # converted once: the next start reads the records
    assert reads(again) == reads(old)


def test_an_even_earlier_layout_in_the_idbfs_records_converts_too(tmp_path: Path) -> None:
    folder = tmp_path / "earlier"
    shutil.copytree(DATA / "earlier-small", folder)
    expected = reads(Store.open(shutil.copytree(folder, tmp_path / "reference")))
    records = MemoryRecords(earlier_records(folder))
    assert reads(opened(records, tmp_path)) == expected


def test_a_torn_last_line_in_the_earlier_layout_is_dropped_as_on_a_computer(tmp_path: Path) -> None:
    folder = tmp_path / "old" / "league"
    old = Store.open(folder)
    game = old.start_game(ruleset="gin", players=["Anna", "Bea"])
    expected = reads(old)
    old.add_deal(game.id, GIN_KNOCK)
    for name in ("facts.jsonl", "facts-copy.jsonl"):  # a crash cut the last commit short
        path = folder / name
        path.write_bytes(path.read_bytes()[:-5])
    store = opened(MemoryRecords(earlier_records(folder)), tmp_path)
    assert reads(store) == expected


def test_no_earlier_store_makes_a_new_one(tmp_path: Path) -> None:
    records = MemoryRecords([("/rummy", None), (BACKUPS, None)])  # IDBFS with no league in it
    store = opened(records, tmp_path)
    assert store.games() == [] and "converted" not in records.meta


def test_the_summary_shows_a_seat_taken_over_by_its_holder_with_the_seats_total(tmp_path: Path) -> None:
    """While Python starts, the page shows Home's lines: a seat someone took over mid-game is
    its holder's, with the seat's whole total (docs/rules.md, "Replacements"), as Home shows
    it; before, the player who left, with only the points made before leaving."""
    records = MemoryRecords()
    store = opened(records, tmp_path)
    store.create_league("Club")
    night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin", seed=1)
    table = night.rounds[0].tables[0]
    store.add_deal(table.game, GIN_KNOCK)  # Anna 29
    store.replace_player(table.game, "Anna", "Cid")  # a night's table: the director's
    store.add_deal(table.game, GIN_KNOCK)  # the seat (still "Anna" in the deals) 29 more
    [line] = records.meta["summary"]["games"]
    now = ["Cid" if name == "Anna" else name for name in table.players]
    assert line["players"] == now
    assert line["totals"] == [[name, 58 if name == "Cid" else 0] for name in now]


def test_the_summary_names_the_games_changed_last_and_counts_the_others(tmp_path: Path) -> None:
    records = MemoryRecords()
    store = opened(records, tmp_path)
    games = [
        store.start_game(ruleset="gin", players=["Anna", "Bea"], league=None)
        for n in range(browser_store.SUMMARY_GAMES + 2)
    ]
    store.add_deal(games[0].id, GIN_KNOCK)  # the oldest game, changed last
    summary = records.meta["summary"]
    assert len(summary["games"]) == browser_store.SUMMARY_GAMES and summary["more"] == 2
    assert summary["games"][0]["id"] == games[0].id
    assert games[1].id not in [g["id"] for g in summary["games"]]  # changed first of all
