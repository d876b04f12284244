"""The store's promise under damage: any one file of the store deleted or damaged loses
nothing acknowledged, and nothing is dropped in silence (issue 23, README "the promise").

A hypothesis state machine works a store through :class:`Store` alone (games of several
rulesets with deals, corrections, removals and conflicts, club nights, merged players,
seasons, a checkpoint saved now and then). At any step, a copy of the folder has one file
damaged: deleted, garbled, cut short at any byte, replaced by an older version of itself, or
the log's two copies swapped or one put in place of the other. Then:

- opening the damaged store answers every public read as before (the other copy of the log
  has everything), a folder standing where a copy should be aside, which it refuses;
- ``verify`` names a problem, unless the store is whole as it is (see :func:`_whole_as_is`);
- ``restore`` loses nothing (no ``lost``), after it every public read is as before, ``verify``
  is empty and the store opens.

Beside it: two processes writing at once lose nothing, and a kill at any byte of an append
(both copies as the kill leaves them) loses no write that returned, while the commit that
never returned is dropped, and said, or kept whole, and said.
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from store_deals import gin_deal, rommi_deal

from scorer.errors import ScorerError
from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.errors import ConflictError, DamagedFileError, StoreError
from scorer.league.facts import fact_from_json
from scorer.league.log import COPY_NAME, LOG_NAME, sealed_files
from scorer.league.store import Store

GIN_50 = {"target": 50}
ENDLESS_GIN = {"target": None}  # no target: deals can be recorded for ever
PEOPLE = ["Anna", "Bea", "Cleo", "Dan", "Eve"]
FILES = [LOG_NAME, COPY_NAME, CHECKPOINT_NAME]
#: Cards left in each seat's hand at a rommi deal's end (no card in two seats: one deck).


def public_reads(store: Store) -> dict[str, Any]:
    """Every public read of the store that damage could change, as plain values."""
    leagues = store.leagues()
    games = store.games(deleted=True)
    out: dict[str, Any] = {
        "leagues": [repr(lg) for lg in leagues],
        "players": [repr(p) for p in store.players()],
        "games": [repr(g) for g in games],
        "results": {g.id: (repr(store.game(g.id).result), store.game(g.id).status) for g in games},
        "events": {g.id: [e.to_dict() for e in store.events(g.id)] for g in games},
    }
    for league in leagues:
        out[f"standings {league.id}"] = repr(store.standings(league.id))
        out[f"by ruleset {league.id}"] = repr(store.standings_by_ruleset(league.id))
        out[f"nights {league.id}"] = repr(store.nights(league.id))
        out[f"night results {league.id}"] = repr(store.night_results(league.id))
        for season in league.seasons:
            out[f"season {season.id}"] = repr(store.standings(league.id, season=season.id))
    return out


def store_names(folder: Path) -> list[str]:
    """The store's files: the log, its copy, the checkpoint, and each copy's sealed segments."""
    sealed = [path.name for live in (LOG_NAME, COPY_NAME) for _, path in sealed_files(folder, live)]
    return [*FILES, *sealed]


def store_files(folder: Path) -> dict[str, bytes | None]:
    """The bytes of each of the store's files in ``folder`` (``None``: not there)."""
    return {
        name: (folder / name).read_bytes() if (folder / name).is_file() else None
        for name in store_names(folder)
    }


# -- damage -------------------------------------------------------------------------------------

#: One damage: (what it is called, a function that does it to a folder).
Damage = tuple[str, Callable[[Path], None]]


def _delete(name: str) -> Callable[[Path], None]:
    return lambda folder: (folder / name).unlink(missing_ok=True)


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda folder: (folder / name).write_bytes(data)


def _swap(folder: Path) -> None:
    a, b = (folder / LOG_NAME).read_bytes(), (folder / COPY_NAME).read_bytes()
    (folder / LOG_NAME).write_bytes(b)
    (folder / COPY_NAME).write_bytes(a)


def _copy_over(source: str, target: str) -> Callable[[Path], None]:
    return lambda folder: shutil.copyfile(folder / source, folder / target)


def _folder_instead(name: str) -> Callable[[Path], None]:
    def damage(folder: Path) -> None:
        (folder / name).unlink(missing_ok=True)
        (folder / name).mkdir()

    return damage


#: A place in a file is drawn as a share of its length in these steps, never as a byte count:
#: a compressed checkpoint's length differs from run to run (its ids and times are new each
#: run), and Hypothesis wants the same draws to stay possible when it runs a case again.
STEPS = 1 << 16


def _place(draw: st.DrawFn, size: int, *, end: bool) -> int:
    """A byte offset in a file of ``size`` bytes (``end``: the offset just after it too)."""
    last = size if end else max(size - 1, 0)
    step = draw(st.integers(0, STEPS))
    return last if step == STEPS else step * (last + 1) // STEPS


@st.composite
def damages(
    draw: st.DrawFn, files: dict[str, bytes | None], older: dict[str, list[bytes]], only: str | None = None
) -> Damage:
    """One damage to one file (``only``, else any) of a store whose files are ``files``
    (and were ``older``)."""
    present = [n for n in files if files[n] is not None and only in (None, n)] or [LOG_NAME]
    name = draw(st.sampled_from(present))
    data = files[name]
    assert data is not None
    kinds = ["deleted", "garbled", "cut short", "overwritten", "swapped", "copied over", "a folder"]
    if older.get(name):
        kinds.append("an older version")
    kind = draw(st.sampled_from(kinds))
    if kind == "deleted":
        return f"{name} deleted", _delete(name)
    if kind == "garbled":
        at = _place(draw, len(data), end=False)
        bit = draw(st.integers(0, 7))
        garbled = bytearray(data)
        if garbled:
            garbled[at] ^= 1 << bit
        return f"{name} byte {at} bit {bit} flipped", _write(name, bytes(garbled))
    if kind == "overwritten":
        at = _place(draw, len(data), end=True)
        junk = draw(st.binary(min_size=1, max_size=40))
        return f"{name} overwritten at {at}", _write(name, data[:at] + junk + data[at + len(junk) :])
    if kind == "cut short":
        at = _place(draw, len(data), end=True)
        return f"{name} cut at byte {at} of {len(data)}", _write(name, data[:at])
    if kind == "an older version":
        version = draw(st.sampled_from(older[name]))
        return f"{name} an older version ({len(version)} bytes)", _write(name, version)
    if kind == "swapped":
        return "the log's two copies swapped", _swap
    if kind == "copied over":
        source, target = draw(st.sampled_from([(LOG_NAME, COPY_NAME), (COPY_NAME, LOG_NAME)]))
        return f"{target} replaced by {source}", _copy_over(source, target)
    return f"a folder in place of {name}", _folder_instead(name)


def _whole_as_is(before: dict[str, bytes | None], folder: Path, older: list[bytes]) -> bool:
    """Whether the damage left the store whole, so that ``verify`` rightly says nothing:

    - every file byte for byte as it was (a swap of two identical copies, one copy put in
      place of the other, a cut at the very end);
    - the log's copies as they were, and the checkpoint gone: it is only a faster start,
      folded again from the log, which has everything (issue 23: "a checkpoint that is
      missing ... is ignored and rebuilt");
    - the log's copies as they were, and the checkpoint one the store saved earlier: saved at
      a commit the log still has, it is as good a start as the newer one, the commits after
      it folded on top (the reads of the store opened so are checked to be the same).
    """
    now = store_files(folder)
    if (folder / CHECKPOINT_NAME).is_dir():
        return False
    if now == before:
        return True
    same_logs = set(now) == set(before) and all(now[n] == before[n] for n in before if n != CHECKPOINT_NAME)
    return same_logs and (now[CHECKPOINT_NAME] is None or now[CHECKPOINT_NAME] in older)


def check_damage(folder: Path, damage: Damage, expected: dict[str, Any], older: list[bytes]) -> None:
    """Damage a copy of the store in ``folder`` and check the promise on it."""
    name, hurt = damage
    event(f"damage: {name.split(' ')[0]} {' '.join(name.split(' ')[1:2])}")
    with tempfile.TemporaryDirectory(prefix="rummy-damage-") as scratch:
        copy = Path(scratch) / "league"
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".lock"))
        before = store_files(copy)
        hurt(copy)
        whole = _whole_as_is(before, copy, older)
        # one file damaged, the other copy has everything: the store opens and answers as
        # before (what it mends is mended by the next write, and said)
        try:
            opened = public_reads(Store.open(copy))
        except IsADirectoryError:  # a folder where a copy of the log should be: refused, in one line
            event("damaged store refused on open (a folder)")
        else:
            assert opened == expected, f"{name}: the damaged store reads differently"
        shutil.rmtree(copy)
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".lock"))
        hurt(copy)
        problems = Store.verify(copy)
        if whole:
            assert problems == [], f"{name}: verify says {problems} of a store that is whole"
        else:
            assert problems, f"{name}: verify says nothing"
            assert all("\n" not in p.problem for p in problems)
        repairs = Store.restore(copy)
        assert not [r for r in repairs if r.action == "lost"], f"{name}: restore lost {repairs}"
        assert Store.verify(copy) == [], f"{name}: verify after restore ({repairs})"
        assert public_reads(Store.open(copy)) == expected, f"{name}: reads after restore ({repairs})"


# -- the state machine --------------------------------------------------------------------------


class StoreMachine(RuleBasedStateMachine):
    """Random work on one store folder, with damage checked on copies of it as it goes."""

    def __init__(self) -> None:
        super().__init__()
        self.base = Path(tempfile.mkdtemp(prefix="rummy-machine-"))
        self.folder = self.base / "league"
        self.store = Store.open(self.folder)
        self.store.create_league("Club")
        self.older: dict[str, list[bytes]] = {n: [] for n in FILES}
        self.nights = 0

    def teardown(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def _remember(self) -> None:
        for name, data in store_files(self.folder).items():
            kept = self.older.setdefault(name, [])
            if data is not None and (not kept or kept[-1] != data):
                kept.append(data)
                del kept[:-4]  # a few older versions are enough

    def _attempt(self, what: str, change: Callable[[], object]) -> None:
        """A change through the store; a refusal writes nothing (counted as an event)."""
        self._remember()
        try:
            change()
        except ConflictError:
            event(f"{what}: conflict")
        except ScorerError as refused:
            event(f"{what}: refused ({type(refused).__name__})")
        else:
            event(f"{what}: done")

    @initialize(deals=st.integers(1, 4), seed=st.integers(0, 1000), night=st.booleans(), saved=st.booleans())
    def a_league_under_way(self, deals: int, seed: int, night: bool, saved: bool) -> None:
        """Every example starts from a league with some of everything, to damage from step one."""
        store = self.store
        gin = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
        store.add_deal(gin.id, {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}})
        rommi = store.start_game(
            ruleset="rommi", players=["Anna", "Bea", "Cleo"], league="Club", by="Referee"
        )
        for number in range(deals):
            store.add_deal(rommi.id, rommi_deal(("Anna", "Bea", "Cleo"), number, [seed, number]))
        store.replace_deal(rommi.id, 0, rommi_deal(("Anna", "Bea", "Cleo"), seed, [number]), why="miscounted")
        if night:
            self.nights += 1
            tonight = store.start_night("Club", players=PEOPLE[:4], ruleset="gin", options=GIN_50, seed=seed)
            for table in tonight.rounds[-1].tables:
                table_game = store.game(table.game)
                store.add_deal(table.game, gin_deal(tuple(table_game.document["players"]), seed, 0, 25))
        if saved:
            self.checkpoint()

    def _game(self, pick: int) -> Any:
        games = self.store.games(deleted=True)
        return self.store.game(games[pick % len(games)].id) if games else None

    @rule(
        ruleset=st.sampled_from(["gin", "gin-endless", "rommi"]),
        who=st.permutations(PEOPLE),
        league=st.booleans(),
    )
    def start_game(self, ruleset: str, who: list[str], league: bool) -> None:
        if ruleset == "rommi":
            args: dict[str, Any] = {"ruleset": "rommi", "players": who[:3]}
        else:
            args = {
                "ruleset": "gin",
                "players": who[:2],
                "options": GIN_50 if ruleset == "gin" else ENDLESS_GIN,
            }
        self._attempt("start", lambda: self.store.start_game(**args, league="Club" if league else None))

    @rule(
        pick=st.integers(0, 50),
        a=st.integers(0, 7),
        b=st.integers(0, 40),
        c=st.integers(0, 40),
        stale=st.booleans(),
    )
    def add_deal(self, pick: int, a: int, b: int, c: int, stale: bool) -> None:
        game = self._game(pick)
        if game is None:
            return
        players = tuple(game.document["players"])
        if game.document["ruleset"] == "gin":
            deal = gin_deal(players, a, b % 11, c)
        else:
            deal = rommi_deal(players, a, [b, c, a])
        deals = len(game.document.get("deals") or [])
        number = deals if stale and deals else None  # a deal another device saved first
        self._attempt("deal", lambda: self.store.add_deal(game.id, deal, number=number, by="Referee"))

    @rule(
        pick=st.integers(0, 50),
        which=st.integers(0, 9),
        a=st.integers(0, 7),
        b=st.integers(0, 10),
        stale=st.booleans(),
    )
    def correct_deal(self, pick: int, which: int, a: int, b: int, stale: bool) -> None:
        game = self._game(pick)
        deals = (game.document.get("deals") or []) if game is not None else []
        if not deals:
            return
        index = which % len(deals)
        players = tuple(game.document["players"])
        deal = (
            gin_deal(players, a, b, 30) if game.document["ruleset"] == "gin" else rommi_deal(players, a, [b])
        )
        expected = {"stale": True} if stale else deals[index]  # stale: another device changed it
        self._attempt(
            "correct",
            lambda: self.store.replace_deal(game.id, index, deal, why="miscounted", expected=expected),
        )

    @rule(pick=st.integers(0, 50), which=st.integers(0, 9))
    def remove_and_maybe_put_back_deal(self, pick: int, which: int) -> None:
        game = self._game(pick)
        deals = (game.document.get("deals") or []) if game is not None else []
        if not deals:
            return
        index = which % len(deals)
        self._attempt("remove", lambda: self.store.remove_deal(game.id, index, why="entered twice"))
        if which % 2:
            self._attempt("put back deal", lambda: self.store.put_back_deal(game.id, index, deals[index]))

    @rule(pick=st.integers(0, 50), how=st.sampled_from(["abandon", "resume", "delete", "undelete", "move"]))
    def game_status(self, pick: int, how: str) -> None:
        game = self._game(pick)
        if game is None:
            return
        if how == "move":
            if not any(lg.name == "Other" for lg in self.store.leagues()):
                self._attempt("league", lambda: self.store.create_league("Other"))
            self._attempt("move", lambda: self.store.move_game(game.id, league="Other"))
            return
        change = getattr(self.store, f"{how}_game")
        self._attempt(how, lambda: change(game.id))

    @precondition(lambda self: self.nights < 2)
    @rule(seed=st.integers(0, 1000), who=st.permutations(PEOPLE))
    def start_night(self, seed: int, who: list[str]) -> None:
        self.nights += 1
        self._attempt(
            "night",
            lambda: self.store.start_night("Club", players=who[:4], ruleset="gin", options=GIN_50, seed=seed),
        )

    @precondition(lambda self: self.nights > 0)
    @rule(seed=st.integers(0, 1000))
    def next_round(self, seed: int) -> None:
        self._attempt("next round", lambda: self.store.next_round("Club", seed=seed))

    @rule(first=st.sampled_from([*PEOPLE, "Danny"]), second=st.sampled_from([*PEOPLE, "Danny"]))
    def merge_players(self, first: str, second: str) -> None:
        if second == "Danny":
            self._attempt("add player", lambda: self.store.add_player("Danny"))
        self._attempt("merge", lambda: self.store.merge_players(first, second))

    @rule(close=st.booleans())
    def season(self, close: bool) -> None:
        if close:
            self._attempt("close season", lambda: self.store.close_season("Club"))
        else:
            self._attempt("new season", lambda: self.store.new_season("Club"))

    @rule()
    def checkpoint(self) -> None:
        self._remember()
        self.store._ledger.save_checkpoint()  # type: ignore[attr-defined]  # as every 200 commits

    def _damage(self, data: st.DataObject, only: str | None) -> None:
        self._remember()
        expected = public_reads(self.store)
        files = store_files(self.folder)
        older = {n: [v for v in self.older.get(n, []) if v != files[n]] for n in files}
        check_damage(self.folder, data.draw(damages(files, older, only)), expected, older[CHECKPOINT_NAME])

    # damage is checked on a copy of the folder, the store worked on goes on whole: a rule
    # for each file makes a damage check about one step in three
    @rule(data=st.data())
    def damage_any_file(self, data: st.DataObject) -> None:
        self._damage(data, None)

    @rule(data=st.data())
    def damage_the_log(self, data: st.DataObject) -> None:
        self._damage(data, LOG_NAME)

    @rule(data=st.data())
    def damage_its_copy(self, data: st.DataObject) -> None:
        self._damage(data, COPY_NAME)

    @rule(data=st.data())
    def damage_the_checkpoint(self, data: st.DataObject) -> None:
        self._damage(data, CHECKPOINT_NAME)

    @invariant()
    def healthy(self) -> None:
        files = store_files(self.folder)
        assert files[LOG_NAME] == files[COPY_NAME]  # the two copies byte for byte
        sealed = [n for n in files if n.endswith(".gz")]
        copies = {n.removeprefix("facts-copy.") for n in sealed if n.startswith("facts-copy.")}
        assert copies == {n.removeprefix("facts.") for n in sealed if n.startswith("facts.")}
        for name in copies:  # each segment kept twice, the same
            assert files[f"facts.{name}"] == files[f"facts-copy.{name}"]


StoreMachine.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestStoreUnderDamage = StoreMachine.TestCase


@pytest.fixture(scope="module")
def saved_store() -> Any:
    """A store with a checkpoint (and an older one), commits after it, and its reads."""
    base = Path(tempfile.mkdtemp(prefix="rummy-saved-"))
    folder = base / "league"
    store = Store.open(folder)
    store.create_league("Club")
    store.start_night("Club", players=PEOPLE[:4], ruleset="gin", options=GIN_50, seed=3)
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    older = [(folder / CHECKPOINT_NAME).read_bytes()]
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cleo"], league="Club")
    store.add_deal(game.id, rommi_deal(("Anna", "Bea", "Cleo"), 0, [1]))
    store._ledger.save_checkpoint()  # type: ignore[attr-defined]
    store.add_deal(game.id, rommi_deal(("Anna", "Bea", "Cleo"), 1, [0]))  # a commit after it
    yield folder, public_reads(store), older
    shutil.rmtree(base)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damage_to_the_checkpoint_loses_nothing(saved_store: Any, data: st.DataObject) -> None:
    """The checkpoint is only a faster start: damaged in any way, it is never read as the state."""
    folder, expected, older = saved_store
    files = store_files(folder)
    history = {LOG_NAME: [], COPY_NAME: [], CHECKPOINT_NAME: older}
    check_damage(folder, data.draw(damages(files, history, CHECKPOINT_NAME)), expected, older)


def test_a_commit_damaged_in_both_copies_is_refused_and_never_cut_off(tmp_path: Path) -> None:
    """Two files damaged is beyond the promise, but nothing may be dropped in silence: the
    store refuses to open (it opened with the commits before the damage, and its next write cut
    every later commit off both copies, saying "cut short by a crash, nothing saved was lost"),
    and restore says what is lost and changes nothing."""
    folder = tmp_path / "league"
    store = Store.open(folder)
    for name in ("Club", "Second", "Third"):
        store.create_league(name)
    for name in (LOG_NAME, COPY_NAME):
        lines = (folder / name).read_bytes().splitlines(keepends=True)
        damaged = bytearray(lines[2])  # commit 2, "Second", with a commit after it
        damaged[20] ^= 1
        lines[2] = bytes(damaged)
        (folder / name).write_bytes(b"".join(lines))
    files = store_files(folder)
    with pytest.raises(DamagedFileError, match="commit 2 is damaged or missing in both copies"):
        Store.open(folder)
    assert store_files(folder) == files  # nothing cut off
    assert Store.verify(folder)
    repairs = Store.restore(folder)
    assert [r.action for r in repairs] == ["lost"] and "commit 2" in repairs[0].detail
    assert store_files(folder) == files


@pytest.mark.parametrize(
    "broken",
    [
        {"kind": "game.started", "ruleset": {"id": "gin", "decks": "many"}},
        {"kind": "deal.recorded", "deal": {"knocker": "Zed"}},
    ],
)
def test_facts_from_elsewhere_that_would_break_a_game_are_refused_whole(
    tmp_path: Path, broken: dict[str, Any]
) -> None:
    """A fact from another device (or a damaged exchange file) whose game no longer scores
    was kept, after which every list of games and every standings table refused to read."""
    source = Store.open(tmp_path / "phone")
    source.create_league("Club")
    game = source.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    source.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 0, "Bea": 20}})
    raw = [f.to_json() for f in source.facts_since(0)]
    for fact in raw:
        if fact["kind"] == broken["kind"]:
            fact.update({k: v for k, v in broken.items() if k != "kind"})
    club = Store.open(tmp_path / "club")
    before = store_files(tmp_path / "club")
    with pytest.raises(StoreError, match="no longer scores"):
        club.add_facts([fact_from_json(f) for f in raw])
    assert store_files(tmp_path / "club") == before  # nothing kept
    assert club.games() == [] and club.leagues() == []
    assert Store.verify(tmp_path / "club") == []


# -- two processes at once -----------------------------------------------------------------------


def _deal_many(folder: str, game_id: str, count: int, knocker: str, other: str) -> None:
    store = Store.open(folder)
    for _ in range(count):
        store.add_deal(game_id, {"knocker": knocker, "deadwood": {knocker: 2, other: 9}})


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    store = Store.open(folder)
    store.create_league("Club")
    first = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=ENDLESS_GIN, league="Club")
    second = store.start_game(ruleset="gin", players=["Cleo", "Dan"], options=ENDLESS_GIN, league="Club")
    count = 25
    context = multiprocessing.get_context("spawn")  # a fresh interpreter each, as two programs are
    workers = [
        context.Process(target=_deal_many, args=(str(folder), first.id, count, "Anna", "Bea")),
        context.Process(target=_deal_many, args=(str(folder), second.id, count, "Cleo", "Dan")),
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    reopened = Store.open(folder)
    assert len(reopened.game(first.id).document["deals"]) == count
    assert len(reopened.game(second.id).document["deals"]) == count
    assert reopened.position == 3 + 2 * count  # a league, two games, every deal its own commit
    assert Store.verify(folder) == []
    assert (folder / LOG_NAME).read_bytes() == (folder / COPY_NAME).read_bytes()
    # the first store, open all along, catches up with both
    assert len(store.game(first.id).document["deals"]) == count
    assert len(store.game(second.id).document["deals"]) == count


# -- a kill at any byte of an append ---------------------------------------------------------


@pytest.fixture(scope="module")
def last_commit() -> Any:
    """A store's files before and after its last commit, and the reads of each."""
    base = Path(tempfile.mkdtemp(prefix="rummy-kill-"))
    folder = base / "league"
    store = Store.open(folder)
    store.create_league("Club")
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cleo"], league="Club")
    store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH", "Cleo": "2C"}, "out": "Anna"})
    before = (folder / LOG_NAME).read_bytes()
    reads_before = public_reads(store)
    store.add_deal(game.id, {"hands": {"Anna": "5D", "Bea": "", "Cleo": "2C 3C"}, "out": "Bea"})
    after = (folder / LOG_NAME).read_bytes()
    reads_after = public_reads(store)
    yield folder, before, after, reads_before, reads_after
    shutil.rmtree(base)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), where=st.sampled_from(["the log", "the copy", "both"]))
def test_a_kill_at_any_byte_of_an_append_loses_no_write_that_returned(
    last_commit: Any, data: st.DataObject, where: str
) -> None:
    source, before, after, reads_before, reads_after = last_commit
    line = after[len(before) :]
    cut = data.draw(st.integers(0, len(line)), label="bytes of the line written")
    if cut in (len(line) - 1, len(line)):
        event(f"cut at {'the newline' if cut == len(line) - 1 else 'the end'}")
    torn = before + line[:cut]
    if where == "the log":  # killed while appending to the first copy: the second has nothing yet
        log, copy = torn, before
    elif where == "the copy":  # the first copy synced, killed while appending to the second
        log, copy = after, torn
    else:  # as a file system that kept part of each might leave them
        log, copy = torn, before + line[: data.draw(st.integers(0, len(line)), label="of the copy")]
    acknowledged_never = log != after and copy != after  # whole in neither: never acknowledged
    with tempfile.TemporaryDirectory(prefix="rummy-killed-") as scratch:
        for first in (True, False):  # the store opened again, or restore run first
            folder = Path(scratch) / f"league-{first}"
            shutil.copytree(source, folder, ignore=shutil.ignore_patterns(".lock", CHECKPOINT_NAME))
            (folder / LOG_NAME).write_bytes(log)
            (folder / COPY_NAME).write_bytes(copy)
            if first:
                store = Store.open(folder)
                reads = public_reads(store)
                # the commit whole in a copy is kept; one whole in neither is dropped
                assert reads == (reads_before if acknowledged_never else reads_after)
                store.create_league("After the kill")  # a write that returns
                changed = log != copy or log not in (before, after)
                assert bool(store.notices) == changed, store.notices  # what was mended is said
            else:
                repairs = Store.restore(folder)
                assert not [r for r in repairs if r.action == "lost"]
                torn_somewhere = any(d not in (before, after) for d in (log, copy))
                if torn_somewhere and acknowledged_never:
                    assert any(r.action == "dropped" for r in repairs), repairs  # said, not silent
                store = Store.open(folder)
                assert public_reads(store) == (reads_before if acknowledged_never else reads_after)
                store.create_league("After the kill")
            reopened = Store.open(folder)
            assert Store.verify(folder) == []
            names = sorted(lg.name for lg in reopened.leagues())
            assert names == ["After the kill", "Club"]  # the write that returned is there
            reads = public_reads(reopened)
            expected = reads_before if acknowledged_never else reads_after
            assert reads["games"] == expected["games"] and reads["events"] == expected["events"]


@pytest.mark.parametrize("at", ["first line", "a commit's line"])
def test_a_newline_a_damage_puts_inside_a_copy_is_no_commit_lost(tmp_path: Path, at: str) -> None:
    """A damage that writes a newline inside a line of one copy splits it in two: the line
    count of that copy is one more than its commits, which is no acknowledged commit beyond
    the other copy's (restore once said 'commit 7 is damaged or missing in both copies')."""
    store = Store.open(tmp_path)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    store.add_deal(game.id, gin_deal(("Anna", "Bea"), 0, 3, 20))
    expected = public_reads(store)
    copy = tmp_path / COPY_NAME
    data = bytearray(copy.read_bytes())
    place = 5 if at == "first line" else data.index(b"\n") + 12
    data[place : place + 3] = b"x\ny"
    copy.write_bytes(bytes(data))
    assert str(copy) in {p.path for p in Store.verify(tmp_path)}
    repairs = Store.restore(tmp_path)
    assert [r.action for r in repairs if r.path == str(copy)] == ["rebuilt"]
    assert not [r for r in repairs if r.action == "lost"]
    assert copy.read_bytes() == (tmp_path / LOG_NAME).read_bytes()
    assert Store.verify(tmp_path) == []
    assert public_reads(Store.open(tmp_path)) == expected
