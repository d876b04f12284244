"""The journal under the store: deleting or damaging any one file of the store loses nothing
that was acknowledged (README, "Where the data lives").

Random changes go through the store; then any one of its files is deleted or overwritten with
garbage: verify reports it, and restore gives back the same games, events and standings.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.league.errors import ScorerError
from scorer.league.journal import apply, diff
from scorer.league.store import Store

DEALS = [
    {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}},
    {"knocker": "Bea", "deadwood": {"Bea": 4, "Anna": 20}},
    {"dead": True},
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=12,
)


@given(json_values, json_values)
def test_a_patch_makes_the_old_value_new_and_leaves_the_new_one_alone(old: Any, new: Any) -> None:
    patch = diff(old, new)
    if patch is None:
        assert old == new
        return
    assert apply(old, patch) == new
    assert apply(new, patch) == new  # a change written twice after a kill is written once


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "start",
                "deal",
                "correct",
                "remove",
                "abandon",
                "resume",
                "delete",
                "undelete",
                "player",
                "move",
            ]
        ),
        st.integers(0, 20),
    ),
    min_size=1,
    max_size=12,
)


def _run(store: Store, operations: list[tuple[str, int]]) -> None:
    """Apply the operations; a refused one (a deal after the game ended, ...) changes nothing."""
    for action, n in operations:
        games = store.games(deleted=True)
        game = games[n % len(games)].id if games else None
        deal = DEALS[n % len(DEALS)]
        try:
            if action == "start" or game is None:
                league = "Club" if n % 2 else None
                store.start_game(ruleset="gin", players=["Anna", "Bea"], league=league, by=f"p{n}")
            elif action == "deal":
                store.add_deal(game, deal, by="Anna")
            elif action == "correct":
                store.replace_deal(game, 0, deal, by="Bea", why=f"fix {n}")
            elif action == "remove":
                store.remove_deal(game, 0, by="Bea")
            elif action == "abandon":
                store.abandon_game(game, by="Anna")
            elif action == "resume":
                store.resume_game(game)
            elif action == "delete":
                store.delete_game(game)
            elif action == "undelete":
                store.undelete_game(game)
            elif action == "player":
                store.add_player(f"Player {n}")
            elif action == "move":
                store.move_game(game, league="Club")
        except (ScorerError, ValueError):
            pass


def _everything(store: Store) -> Any:
    games = [
        (g.id, g.status, g.league_id, g.document, g.events)
        for g in (store.game(info.id) for info in store.games(deleted=True))
    ]
    return (
        games,
        [p.name for p in store.players()],
        [(lg.name, [s.name for s in lg.seasons]) for lg in store.leagues()],
        store.standings("Club"),
    )


def _files(folder: Path) -> list[Path]:
    files = [folder / "index.json", folder / "journal.jsonl"]
    for shard in sorted((folder / "games").iterdir()):
        files += sorted(shard.glob("*.json"))
        files.append(shard)  # a whole shard folder
    return files


def _damage(target: Path, how: str) -> None:
    if target.is_dir():
        shutil.rmtree(target)
    elif how == "delete":
        target.unlink()
    else:
        target.write_bytes(b"\x00garbage{" * 3)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(operations=OPERATIONS, pick=st.integers(0, 10_000), how=st.sampled_from(["delete", "garbage"]))
def test_any_one_file_damaged_loses_nothing(operations: list[tuple[str, int]], pick: int, how: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="journal-"))
    try:
        store = Store.open(folder)
        store.create_league("Club")
        _run(store, operations)
        before = _everything(store)
        files = _files(folder)
        target = files[pick % len(files)]
        _damage(target, how)
        assert Store.verify(folder), f"verify saw nothing wrong after damaging {target}"
        Store.restore(folder)
        assert Store.verify(folder) == []
        assert _everything(Store.open(folder)) == before
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _writer(folder: Path, seed: int) -> None:
    store = Store.open(folder)
    rng = random.Random(seed)
    _run(
        store,
        [(rng.choice(["start", "deal", "deal", "correct", "player"]), rng.randrange(20)) for _ in range(12)],
    )


@pytest.mark.parametrize("kind", ["index.json", "journal.jsonl", "game", "shard"])
def test_two_programs_writing_at_once_then_one_file_lost(tmp_path: Path, kind: str) -> None:
    store = Store.open(tmp_path)
    store.create_league("Club")
    store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    children = []
    for seed in (1, 2):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            code = 1
            try:
                _writer(tmp_path, seed)
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    for pid in children:
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    before = _everything(Store.open(tmp_path))
    assert Store.verify(tmp_path) == []
    shard = next(p for p in sorted((tmp_path / "games").iterdir()))
    target = {
        "index.json": tmp_path / "index.json",
        "journal.jsonl": tmp_path / "journal.jsonl",
        "game": next(p for p in sorted(shard.glob("*.json")) if p.name != "index.json"),
        "shard": shard / "index.json",
    }[kind]
    target.unlink()
    assert [p.path for p in Store.verify(tmp_path)] == [str(target)]
    Store.restore(tmp_path)
    assert _everything(Store.open(tmp_path)) == before
