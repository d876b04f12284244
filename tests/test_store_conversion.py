"""The differential test of the store's layout: a folder written by an earlier version reads
as that version read it.

``tests/data/store-v2/`` is a league store written by the store as it was before its inside
became a log of facts (made by ``tests/data/make_store_v2.py``: two leagues, corrections,
conflicts, merged players, imports, abandoned, deleted and moved games, two club nights),
and ``tests/data/store-v2-reads.json`` every public read of it as that version answered
(``store_reads.public_reads``). A copy of the folder is opened here, which converts it when
the layout has changed, and every read must give the same answer. The folder under
``tests/data`` itself is never opened: opening may write (a conversion, a cached summary made
again), and the test must find it as committed every time.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from store_reads import differences, public_reads

from scorer.league.store import Store

DATA = Path(__file__).parent / "data"
FOLDER = DATA / "store-v2"
READS = DATA / "store-v2-reads.json"


def _contents(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path) with the SHA-256 of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def committed() -> dict[str, str]:
    return _contents(FOLDER)


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    answers: dict[str, Any] = json.loads(READS.read_text(encoding="utf-8"))
    return answers


@pytest.fixture(scope="module")
def reads(tmp_path_factory: pytest.TempPathFactory, committed: dict[str, str]) -> dict[str, Any]:
    """Every public read of a copy of the folder, opened as a store (converted if need be)."""
    copy = tmp_path_factory.mktemp("store-v2") / "store"
    shutil.copytree(FOLDER, copy)
    assert _contents(copy) == committed
    answers = public_reads(Store.open(copy))
    assert Store.verify(copy) == [], "the opened copy is not whole"
    return answers


def test_the_data_is_there(committed: dict[str, str], expected: dict[str, Any]) -> None:
    """The folder and its reads are committed, and hold what the differential test needs."""
    assert "journal.jsonl" in committed
    assert any(name.startswith("games/") for name in committed)
    assert [lg["name"] for lg in expected["leagues"]] == ["Friday club", "Tuesday gin club"]
    statuses = {g["status"] for g in expected["games"]["all, deleted too"]}
    assert statuses == {"active", "abandoned", "deleted"}
    actions = {e["action"] for events in expected["events"].values() for e in events}
    assert actions >= {"corrected", "removed", "restored", "abandoned", "resumed", "deleted"}
    assert actions >= {"undeleted", "moved", "imported", "finished"}
    assert len(expected["nights"]["Friday club"]) == 2


@pytest.mark.parametrize(
    "read",
    json.loads(READS.read_text(encoding="utf-8")).keys() if READS.exists() else [],
)
def test_every_read_as_the_earlier_version_answered(
    read: str, reads: dict[str, Any], expected: dict[str, Any]
) -> None:
    """One test per kind of read, each failing with the paths where the answers part."""
    assert read in reads, f"the read {read!r} is no longer asked"
    found = differences(expected[read], reads[read], path=read)
    assert reads[read] == expected[read], "\n".join(found) or "the answers differ (in types only)"


def test_no_read_is_left_out(reads: dict[str, Any], expected: dict[str, Any]) -> None:
    assert list(reads) == list(expected)


def test_the_committed_folder_is_unchanged(reads: dict[str, Any], committed: dict[str, str]) -> None:
    """Opening and reading the copy (a conversion included) never touches the data folder."""
    assert reads  # the copy was opened and read first
    assert _contents(FOLDER) == committed
