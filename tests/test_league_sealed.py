"""Sealed segments of the log (scorer/league/log.py): once the live log passes SEAL_BYTES its
commits go, gzip-compressed, into a segment of each copy, and each live file starts again from
its continuation. The store reads the same, opened with a checkpoint or without, from either
copy; any one file of it damaged or deleted loses nothing; a seal cut short at any step leaves
a store that opens with every write it acknowledged (issue 23: bytes on disk, the promise)."""

from __future__ import annotations

import gzip
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from store_deals import gin_deal, rommi_deal
from test_store_damage import StoreMachine, public_reads, store_files

from scorer.league import ledger as ledger_module
from scorer.league import log
from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.errors import DamagedFileError
from scorer.league.ledger import whole_log
from scorer.league.log import COPY_NAME, LOG_NAME, lines_of, sealed_files, sealed_name
from scorer.league.store import Store

PLAYERS = ("Anna", "Bea", "Cleo")


@pytest.fixture
def small_seals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seal once the live log holds 4 KB of commits (a few games), not 1 MiB."""
    monkeypatch.setattr(log, "SEAL_BYTES", 4096)


def work(store: Store, games: int = 12) -> None:
    """Some of everything: games of two rulesets with deals, a correction, a removal."""
    store.create_league("Club")
    for number in range(games):
        game = store.start_game(ruleset="rommi", players=list(PLAYERS), league="Club")
        for deal in range(3):
            store.add_deal(game.id, rommi_deal(PLAYERS, (number + deal) % 3, [deal, 1 - deal % 2]))
        if number % 4 == 1:
            store.replace_deal(game.id, 0, rommi_deal(PLAYERS, 2, [0, 1]))
        if number % 5 == 2:
            store.remove_deal(game.id, 1)
    gin = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club", options={"target": None})
    store.add_deal(gin.id, gin_deal(("Anna", "Bea"), 0, 4, 30))


@pytest.fixture
def sealed(tmp_path: Path, small_seals: None) -> Iterator[tuple[Path, dict[str, Any], list[Any]]]:
    folder = tmp_path / "league"
    store = Store.open(folder)
    work(store)
    yield folder, public_reads(store), store.facts_since(0)


def test_a_long_log_is_sealed_in_segments_kept_twice_and_reads_the_same(sealed: Any) -> None:
    folder, reads, facts = sealed
    segments = sealed_files(folder, LOG_NAME)
    assert len(segments) >= 3
    assert [s for s, _ in segments] == [s for s, _ in sealed_files(folder, COPY_NAME)]
    for start, path in segments:
        assert path.read_bytes() == (folder / sealed_name(COPY_NAME, start)).read_bytes()
    assert (folder / LOG_NAME).read_bytes() == (folder / COPY_NAME).read_bytes()
    live = (folder / LOG_NAME).stat().st_size
    assert live < 4096 + 3000  # the live log is only what came after the last seal
    # the segments' lines and the live log's are the log, commit after commit
    whole = whole_log(folder)
    numbers = [line.n for line in lines_of(whole)]
    assert numbers == list(range(len(numbers)))
    assert sum(p.stat().st_size for _, p in segments) * 3 < len(whole)  # compressed
    # read again with the checkpoint, and without it (folded from the segments)
    assert public_reads(Store.open(folder)) == reads
    (folder / CHECKPOINT_NAME).unlink()
    again = Store.open(folder)
    assert public_reads(again) == reads
    assert [f.id for f in again.facts_since(0)] == [f.id for f in facts]
    assert Store.verify(folder) == []


def test_facts_since_a_sealed_position_come_from_the_segments(sealed: Any) -> None:
    folder, _, facts = sealed
    store = Store.open(folder)
    head = ledger_module.log_header((folder / LOG_NAME).read_bytes(), folder / LOG_NAME)
    assert head is not None and head.n > 3
    every = {f.id for f in facts}
    later = store.facts_since(3)
    assert {f.id for f in later} < every and len(later) > len(facts) // 2
    assert store.facts_since(store._ledger.position) == []  # type: ignore[attr-defined]


def test_a_second_program_sees_the_other_ones_seal(tmp_path: Path, small_seals: None) -> None:
    folder = tmp_path / "league"
    first, second = Store.open(folder), Store.open(folder)
    work(first, games=6)
    assert sealed_files(folder, LOG_NAME)
    assert public_reads(second) == public_reads(first)
    game = second.start_game(ruleset="rommi", players=list(PLAYERS), league="Club")
    second.add_deal(game.id, rommi_deal(PLAYERS, 0, [1, 0]))
    assert public_reads(first) == public_reads(second)


@pytest.mark.parametrize("then", ["goes on", "is killed"])
@pytest.mark.parametrize("step", range(6))
def test_a_seal_stopped_at_any_step_loses_nothing(
    tmp_path: Path, small_seals: None, monkeypatch: pytest.MonkeyPatch, step: int, then: str
) -> None:
    """The seal writes: both segments, the checkpoint, the copy's live file, the log's. A
    failure (a full disk) or a kill after any of them leaves every acknowledged write, and
    the program that saw the failure goes on writing."""
    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    game = store.start_game(ruleset="rommi", players=list(PLAYERS), league="Club")
    writes = 0

    def count_write() -> None:
        nonlocal writes
        writes += 1
        if writes == step + 1:  # once: the seal stops there, as a kill would stop it
            raise OSError(28, "No space left on device")

    write_synced, save = ledger_module.write_synced, ledger_module.checkpoint.save

    def failing_write(path: Path, payload: bytes) -> None:
        count_write()
        write_synced(path, payload)

    def failing_save(location: Path, **kwargs: Any) -> None:
        count_write()
        save(location, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(ledger_module, "write_synced", failing_write)
        patched.setattr(ledger_module.checkpoint, "save", failing_save)
        for deal in range(40):  # a seal every dozen deals, the first one stopped at ``step``
            store.add_deal(game.id, rommi_deal(PLAYERS, deal % 3, [0, 1]))
            if then == "is killed" and writes > step:
                break  # the files as the seal left them: nothing more written
    expected = public_reads(store)
    assert public_reads(Store.open(folder)) == expected
    repairs = Store.restore(folder)
    assert not [r for r in repairs if r.action == "lost"]
    assert Store.verify(folder) == []
    assert public_reads(Store.open(folder)) == expected


@pytest.mark.parametrize("which", ["first segment of the log", "last segment of the copy", "live log"])
@pytest.mark.parametrize("how", ["deleted", "garbled"])
def test_one_sealed_file_damaged_is_named_and_mended(sealed: Any, which: str, how: str) -> None:
    folder, reads, _ = sealed
    if which == "live log":
        path = folder / LOG_NAME
    elif which.endswith("of the log"):
        path = sealed_files(folder, LOG_NAME)[0][1]
    else:
        path = sealed_files(folder, COPY_NAME)[-1][1]
    before = store_files(folder)
    if how == "deleted":
        path.unlink()
    else:
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    assert public_reads(Store.open(folder)) == reads  # the other copy has it
    if path.exists() and path.read_bytes() == before[path.name]:
        return  # mended on open already (a live file settles when the copies differ)
    assert str(path) in {p.path for p in Store.verify(folder)}
    repairs = Store.restore(folder)
    assert str(path) in {r.path for r in repairs} and not [r for r in repairs if r.action == "lost"]
    assert Store.verify(folder) == []
    assert gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    assert store_files(folder)[path.name] == before[path.name]
    assert public_reads(Store.open(folder)) == reads


def test_segments_without_a_live_file_are_never_read_as_a_new_store(sealed: Any) -> None:
    folder, _, _ = sealed
    (folder / LOG_NAME).unlink()
    (folder / COPY_NAME).unlink()
    with pytest.raises(DamagedFileError) as refused:
        Store.open(folder).leagues()
    assert refused.value.path == folder / LOG_NAME
    assert not (folder / LOG_NAME).exists()  # nothing made over the segments
    assert [r.action for r in Store.restore(folder)] == ["lost"]


def test_a_backup_of_a_sealed_store_holds_the_whole_log_and_puts_it_back(sealed: Any, tmp_path: Path) -> None:
    folder, reads, _ = sealed
    store = Store.open(folder)
    zipped = store.backup(tmp_path / "backups")
    with zipfile.ZipFile(zipped) as archive:
        assert archive.namelist() == [LOG_NAME]
        assert archive.read(LOG_NAME) == whole_log(folder)
    old = whole_log(folder)
    other = store.start_game(ruleset="rommi", players=list(PLAYERS), league="Club")
    store.add_deal(other.id, rommi_deal(PLAYERS, 0, [1, 0]))
    store.replace_from_backup(zipped)
    assert public_reads(Store.open(folder)) == reads
    assert not sealed_files(folder, LOG_NAME) and not sealed_files(folder, COPY_NAME)
    kept = (folder / f"{LOG_NAME}.replaced").read_bytes()
    assert kept.startswith(old)  # the log it replaced, whole, with the deal after the backup
    assert Store.verify(folder) == []


class SealedStoreMachine(StoreMachine):
    """The damage machine of test_store_damage on a store that seals every few commits, so
    that a damage falls on segments too."""

    def __init__(self) -> None:
        self._seal_bytes = log.SEAL_BYTES
        log.SEAL_BYTES = 1500
        super().__init__()

    def teardown(self) -> None:
        log.SEAL_BYTES = self._seal_bytes
        super().teardown()


SealedStoreMachine.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestSealedStoreUnderDamage = SealedStoreMachine.TestCase


def test_a_games_facts_read_alone_are_those_of_the_whole_log_in_order(sealed: Any) -> None:
    """What a choice on a game changed apart reads (scorer.league.joins): only the lines that
    name the game are parsed, from the segments and the live log alike."""
    folder, _, facts = sealed
    store = Store.open(folder)
    ledger = store._ledger  # type: ignore[attr-defined]
    assert len(sealed_files(folder, LOG_NAME)) >= 3
    for game in {f.subject for f in facts if f.subject is not None}:
        expected = [f for f in facts if f.subject == game]
        assert ledger.subject_facts(game) == expected
        assert ledger_module.Ledger.subject_facts(ledger, game) == expected  # the plain scan agrees
    assert ledger.subject_facts("no-such-game") == []
