"""Facts: their JSON form, the fold against the engine, and facts as the unit of exchange."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.game import Game
from scorer.gamefile import DealDocument, game_document
from scorer.league.errors import ImportFileError
from scorer.league.exchange import read_import
from scorer.league.facts import KINDS, FactError, fact_from_json, new_fact
from scorer.league.log import COPY_NAME, LOG_NAME
from scorer.league.store import Store
from scorer.ruleset import load_ruleset

GIN = {"target": None}


def knock(knocker: str, points: int) -> dict[str, Any]:
    other = "Bea" if knocker == "Anna" else "Anna"
    return {"knocker": knocker, "deadwood": {knocker: points % 10, other: 30 + points}}


# -- the JSON form ----------------------------------------------------------------------


def test_every_kind_of_fact_reads_back_as_it_was_written() -> None:
    store = Store.memory()
    store.create_league("Club")
    store.new_season("Club", "Autumn")
    store.rename_league("Club", "The club")
    store.rename_season("The club", "Autumn", "Fall")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="The club")
    store.add_deal(game.id, knock("Anna", 1), by="Anna's phone")
    store.replace_deal(game.id, 0, knock("Bea", 2), why="miscounted")
    store.remove_deal(game.id, 0, why="never dealt")
    store.put_back_deal(game.id, 0, knock("Bea", 2))
    store.abandon_game(game.id, why="late")
    store.resume_game(game.id)
    store.delete_game(game.id)
    store.undelete_game(game.id)
    store.add_player("Cid")
    store.rename_player("Cid", "Cidney")
    facts = store.facts_since(0)
    kinds = {f.kind for f in facts}
    assert kinds >= {"league.created", "season.opened", "season.closed", "deal.corrected", "game.undeleted"}
    for fact in facts:
        assert fact.kind in KINDS
        assert fact_from_json(json.loads(json.dumps(fact.to_json()))) == fact
    corrected = next(f for f in facts if f.kind == "deal.corrected")
    assert (corrected.why, corrected.data.number, corrected.prev) == (
        "miscounted",
        1,
        facts[facts.index(corrected) - 1].id,
    )


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ([], "facts.not_a_fact"),
        ({"kind": "deal.eaten", "id": "x", "at": "t", "by": ""}, "facts.unknown_kind"),
        ({"kind": "player.added", "at": "t", "by": "", "player": "p", "name": "A"}, "facts.bad_head"),
        (
            {"kind": "player.added", "id": "x", "at": "t", "by": 5, "player": "p", "name": "A"},
            "facts.bad_head",
        ),
        ({"kind": "player.added", "id": "x", "at": "t", "by": "", "player": "p"}, "facts.bad_field"),
        (
            {"kind": "player.added", "id": "x", "at": "t", "by": "", "player": "p", "name": "A", "x": 1},
            "facts.bad_field",
        ),
    ],
)
def test_a_fact_that_is_not_one_is_refused_naming_what_is_wrong(raw: Any, code: str) -> None:
    with pytest.raises(FactError) as caught:
        fact_from_json(raw)
    assert caught.value.message.code == code


def test_a_fact_of_a_newer_version_is_refused() -> None:
    fact = new_fact("player.added", at="t", by="", player="p", name="A")
    with pytest.raises(FactError, match="newer"):
        fact_from_json(fact.to_json(), version=2)


# -- the fold against the engine -----------------------------------------------------------------

OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "add", "correct", "remove", "put back", "call"]), st.integers(0, 40)
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPERATIONS)
def test_the_fold_keeps_the_document_the_engine_makes(operations: list[tuple[str, int]]) -> None:
    """The state's game document, folded from facts, is the engine's own game document after
    the same changes (deals added, corrected, removed, put back, the game called on time)."""
    clock = ["2026-12-01T18:00:00+00:00"]
    store = Store.memory(clock=lambda: clock[0])
    store.create_league("Club")
    game = store.start_game(
        ruleset="gin",
        players=["Anna", "Bea"],
        options=GIN,
        league="Club",
        deadline="2026-12-01T19:00:00+00:00",
    )
    rules = load_ruleset("gin", options=GIN)
    engine = Game(ruleset=rules, players=("Anna", "Bea"))
    removed: list[dict[str, Any]] = []
    for what, n in operations:
        deals = len(engine.deals)
        if what == "call":
            if engine.ends_after is None and deals and not engine.result.finished:
                clock[0] = "2026-12-01T19:30:00+00:00"  # time runs out: the next deal saved is the last
            continue
        if (what in ("correct", "remove") and not deals) or (what == "put back" and not removed):
            continue
        deal = knock("Anna" if n % 2 else "Bea", n) if what != "put back" else removed[-1]
        index = n % (deals + 1) if what == "put back" else n % max(deals, 1)
        try:
            changed = _engine_change(engine, what, index, deal, now=clock[0])
        except ValueError:  # the engine refuses it (the game is over): so does the store, writing nothing
            with pytest.raises(ValueError):
                _store_change(store, game.id, what, index, deal)
            continue
        if what == "remove":
            removed.append(dict(store.game(game.id).document["deals"][index]))
        elif what == "put back":
            removed.pop()
        _store_change(store, game.id, what, index, deal)
        engine = changed
    event(f"called: {engine.ends_after is not None}, deals: {min(len(engine.deals), 5)}")
    expected = game_document(engine, ruleset_id="gin", options=GIN)
    assert store.game(game.id).document == expected
    again = Store.memory()
    again.add_facts(store.facts_since(0))  # the facts alone make the same game elsewhere
    assert again.game(game.id).document == expected
    assert again.game(game.id).result == store.game(game.id).result


def _engine_change(game: Game, what: str, index: int, deal: dict[str, Any], *, now: str) -> Game:
    """The engine's game after one change; a deal saved as the last one once the deadline has
    passed ends the game (docs/rules.md, "Timed rounds"), a removed one put back last too."""
    parsed = DealDocument.model_validate(deal).to_deal()
    if what == "correct":
        return game.replace_deal(index, parsed)
    if what == "remove":
        return game.remove_deal(index)
    changed = game.add(parsed) if what == "add" else game.insert_deal(index, parsed)
    last = changed.deals[:-1] == game.deals  # the deals before, and one more after them
    late = now >= "2026-12-01T19:00:00+00:00" and changed.ends_after is None
    if last and late and not changed.result.finished:
        return changed.called_after(len(changed.deals))
    return changed


def _store_change(store: Store, game_id: str, what: str, index: int, deal: dict[str, Any]) -> None:
    if what == "add":
        store.add_deal(game_id, deal)
    elif what == "correct":
        store.replace_deal(game_id, index, deal)
    elif what == "remove":
        store.remove_deal(game_id, index)
    else:
        store.put_back_deal(game_id, index, deal)


# -- facts as the unit of exchange -----------------------------------------------------------------


def facts_file(store: Store, folder: Path, name: str = "facts.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(store.export_facts("Club")))
    return path


def reads(store: Store) -> object:
    games = store.games(deleted=True)
    return (
        [(g.id, g.status, store.game(g.id).document, store.events(g.id)) for g in games],
        sorted((p.id, p.name) for p in store.players()),
        store.standings("Club"),
        [n.id for n in store.nights("Club")],
    )


def test_two_devices_merge_exactly_by_their_facts(tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    first = phone.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 60}, league="Club")
    phone.add_deal(first.id, knock("Anna", 1), by="Anna's phone")
    phone.add_deal(first.id, knock("Anna", 2), by="Anna's phone")
    assert phone.game(first.id).finished
    laptop = Store.open(tmp_path / "laptop")
    laptop.create_league("Club")
    report = laptop.import_files("Club", [facts_file(phone, tmp_path)])
    assert (report.games_added, report.deals_added, report.conflicts) == (1, 2, [])
    # each goes on with its own game, then they meet again, both ways
    second = laptop.start_game(ruleset="rommi", players=["Anna", "Cid"], league="Club")
    laptop.add_deal(second.id, {"hands": {"Anna": "", "Cid": "KS AH *"}, "out": "Anna"})
    phone.add_player("Dan")
    phone.import_files("Club", [facts_file(laptop, tmp_path, "laptop.json")])
    laptop.import_files("Club", [facts_file(phone, tmp_path, "phone.json")])
    assert reads(phone) == reads(laptop)
    again = laptop.import_files("Club", [facts_file(phone, tmp_path, "phone.json")])  # a fact twice is one
    assert (again.games_added, again.deals_added, again.players_added, again.conflicts) == (0, 0, 0, [])
    assert Store.verify(tmp_path / "laptop") == [] and Store.verify(tmp_path / "phone") == []


def test_the_same_deal_recorded_on_two_devices_apart_is_a_conflict_never_merged(tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    game = phone.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="Club")
    laptop = Store.open(tmp_path / "laptop")
    laptop.create_league("Club")
    laptop.import_files("Club", [facts_file(phone, tmp_path)])
    phone.add_deal(game.id, knock("Anna", 3))
    laptop.add_deal(game.id, knock("Bea", 4))
    ours = laptop.game(game.id).document
    report = laptop.import_files("Club", [facts_file(phone, tmp_path)])
    [conflict] = report.conflicts
    assert conflict["game"] == game.id and conflict["reason_code"] == "store.conflict_apart"
    assert laptop.game(game.id).document == ours  # left as it is here
    preview = laptop.preview_import("Club", read_import([tmp_path / "facts.json"]))
    assert preview.conflicts == report.conflicts


def test_a_player_made_on_two_devices_apart_is_one_player(tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    game = phone.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="Club")
    phone.add_deal(game.id, knock("Anna", 2))
    laptop = Store.open(tmp_path / "laptop")
    laptop.create_league("Club")
    anna = laptop.add_player("Anna")
    laptop.import_files("Club", [facts_file(phone, tmp_path)])
    assert [p.name for p in laptop.players()] == ["Anna", "Bea"]
    assert laptop.game(game.id).players[0] == anna.id  # the game names this store's Anna


def test_a_damaged_file_of_facts_is_refused_whole_and_nothing_is_written(tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    phone.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="Club")
    document = phone.export_facts("Club")
    document["facts"][-1]["players"] = "not a list"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    laptop = Store.open(tmp_path / "laptop")
    laptop.create_league("Club")
    before = (tmp_path / "laptop" / LOG_NAME).read_bytes()
    with pytest.raises(ImportFileError, match=r"bad\.json': a fact cannot be brought in"):
        laptop.import_files("Club", [path])
    assert (tmp_path / "laptop" / LOG_NAME).read_bytes() == before


def test_export_facts_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, other = str(tmp_path / "a"), str(tmp_path / "b")
    store = Store.open(db)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="Club")
    store.add_deal(game.id, knock("Anna", 5))
    Store.open(other).create_league("Club")
    out = tmp_path / "club.facts.json"
    assert (
        main(["league", "export", "--league", "Club", "--facts", "--out", str(out), "--db", db, "--json"])
        == 0
    )
    said = json.loads(capsys.readouterr().out)
    assert said["format"] == "facts" and said["facts"] == len(json.loads(out.read_text())["facts"])
    assert main(["league", "import", "--league", "Club", str(out), "--db", other, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals_added"] == 1
    assert Store.open(other).game(game.id).result == store.game(game.id).result


# -- the two bugs of the earlier layout, as the log of facts keeps them away ------------------------


def test_a_backup_of_a_store_that_held_a_club_night_replaces_the_store(tmp_path: Path) -> None:
    """Regression: a Settings backup of any store that had held a club night was refused when
    put back ("an unknown table 'nights'")."""
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    store.start_night("Club", players=["A1", "A2", "A3", "A4"], ruleset="rommi", seed=1)
    right = (store.nights("Club"), [g.id for g in store.games()])
    backup = store.backup(tmp_path / "backups")
    with zipfile.ZipFile(backup) as archive:
        assert archive.namelist() == [LOG_NAME]
    store.create_league("Later")
    assert store.replace_from_backup(backup) == 1
    again = Store.open(tmp_path / "league")
    assert (again.nights("Club"), [g.id for g in again.games()]) == right
    assert [lg.name for lg in again.leagues()] == ["Club"]
    assert Store.verify(tmp_path / "league") == []


def test_a_restore_with_a_damaged_copy_and_no_checkpoint_leaves_a_store_that_opens(tmp_path: Path) -> None:
    """Regression: with the journal damaged and no good copy of index.json, restore made an
    index without its folder counts, after which the store never opened again."""
    store = Store.open(tmp_path / "league")
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN, league="Club")
    store.add_deal(game.id, knock("Anna", 1))
    (tmp_path / "league" / "checkpoint.json").unlink(missing_ok=True)
    copy = tmp_path / "league" / COPY_NAME
    copy.write_bytes(b"\x00" * 40 + copy.read_bytes()[40:])
    assert Store.restore(tmp_path / "league")
    assert Store.verify(tmp_path / "league") == []
    assert len(Store.open(tmp_path / "league").game(game.id).game.deals) == 1
    assert Store.restore(tmp_path / "league") == []


def test_a_new_fact_id_never_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A start of a fact's id is typed after an option (``night lift --penalty ID``); one
    starting with ``-`` was read as an option, so one penalty in 64 could not be lifted."""
    from scorer.league import facts

    drawn = iter(["-Zm9vYmFyYmF6cXV4", "_Zm9vYmFyYmF6cXV4", "Zm9vYmFyYmF6cXV4"])
    monkeypatch.setattr(facts.secrets, "token_urlsafe", lambda n: next(drawn))
    assert facts.fact_id() == "_Zm9vYmFyYmF6cXV4"  # only the dash is drawn again
    monkeypatch.undo()
    made = [facts.fact_id() for _ in range(2_000)]
    assert len(set(made)) == 2_000 and all(len(i) == 16 and not i.startswith("-") for i in made)
