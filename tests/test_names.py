"""Names: every name kept is NFC-normalised and trimmed, or refused in one line; look-alikes
of a player are never silently new players; nothing printed carries a control character.

Property tests: any string is either kept clean or refused, whichever way it enters (the
store, the command line, a game file); names a store of an older version kept are escaped on
the way to the terminal.
"""

from __future__ import annotations

import json
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.errors import ScorerError
from scorer.gamefile import GameFileError, parse_game
from scorer.league.documents import LeagueDoc, PlayerDoc, SeasonDoc
from scorer.league.errors import LookAlikeError
from scorer.league.facts import new_fact
from scorer.league.store import Store
from scorer.names import (
    InvalidNameError,
    clean_name,
    hidden_kind,
    looks_alike,
    name_key,
    printable,
    skeleton,
)
from scorer.ui.screens.new_game_model import NewGameModel

#: Characters the issue names, and their neighbours: every one is refused in a name.
HOSTILE = (
    [chr(c) for c in range(0x00, 0x20)]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + [chr(c) for c in range(0x200B, 0x2010)]
    + ["\u2060", "\ufeff", "\u00ad", "\u2028", "\u2029", "\u061c", "\u180e", "\U000e0001", "\u3164"]
)

#: Any text, with the hostile characters drawn often.
TEXTS = st.text(
    alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(HOSTILE), st.sampled_from(" \u00a0Aaé")),
    max_size=80,
)

BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def clean_of(text: str) -> bool:
    return all(hidden_kind(c) is None for c in text)


def one_clean_line(text: str) -> bool:
    return "\n" not in text.strip() and clean_of(text.strip())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- the rule ---------------------------------------------------------------------------------


@given(TEXTS)
def test_any_name_is_kept_nfc_trimmed_or_refused_in_one_line(text: str) -> None:
    try:
        kept = clean_name(text, what="player")
    except InvalidNameError as exc:
        assert one_clean_line(str(exc)) and one_clean_line(exc.message.render("fi")), repr(str(exc))
        return
    assert kept == unicodedata.normalize("NFC", text).strip()
    assert kept and clean_of(kept) and len(kept) <= 60


@pytest.mark.parametrize("char", HOSTILE, ids=lambda c: f"U+{ord(c):04X}")
def test_every_hostile_character_is_refused_naming_it(char: str) -> None:
    with pytest.raises(InvalidNameError) as error:
        clean_name(f"An{char}na", what="league")
    said = str(error.value)
    assert f"U+{ord(char):04X}" in said and "(character 3)" in said and one_clean_line(said)


def test_names_are_kept_nfc_and_trimmed_and_found_so() -> None:
    store = Store.memory()
    decomposed = "  Ja\u0308rvi  "  # a and a combining diaeresis
    assert store.add_player(decomposed).name == "Järvi"
    assert store.player("JÄRVI").name == "Järvi"
    assert store.player("ja\u0308rvi").name == "Järvi"
    league = store.create_league(" Club\u00a0")
    assert league.name == "Club" and store.league("club").id == league.id


def test_the_emoji_of_a_phone_keyboard_is_a_name() -> None:
    assert clean_name("Anna \u2764\ufe0f", what="player") == "Anna \u2764\ufe0f"


@given(TEXTS)
def test_the_store_keeps_a_name_clean_or_changes_nothing(text: str) -> None:
    store = Store.memory()
    store.create_league("Club")
    before = store.changes()
    try:
        player = store.add_player(text)
    except ScorerError as exc:
        assert one_clean_line(str(exc))
        assert store.players() == [] and store.changes() == before
        return
    assert player.name == unicodedata.normalize("NFC", text).strip() and clean_of(player.name)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.create_league("Club\n2"),
        lambda s: s.rename_league("Club", "\u202eCLUB"),
        lambda s: s.new_season("Club", "2026\x1b[2J"),
        lambda s: s.rename_season("Club", "Season 1", "\u200b"),
        lambda s: s.rename_player("Anna", "Anna\x00"),
        lambda s: s.start_game(ruleset="rommi", players=["Anna", "Be\ufeffa"], league="Club"),
        lambda s: s.abandon_game(s.games()[0].id, by="phone\tA"),
    ],
)
def test_every_name_the_store_keeps_follows_the_rule(change: Any) -> None:
    store = Store.memory()
    store.create_league("Club")
    store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    before = store.changes()
    with pytest.raises(ScorerError) as error:
        change(store)
    assert error.value.message.code.startswith("name.") and store.changes() == before


# -- game files and imports ---------------------------------------------------------------------


@given(TEXTS)
def test_a_game_files_player_name_is_held_to_the_rule(text: str) -> None:
    document = {"ruleset": "rommi", "players": [text, "Bea"], "deals": []}
    try:
        game = parse_game(document)
    except ScorerError as exc:
        assert one_clean_line(str(exc))
        return
    assert game.players[0] == unicodedata.normalize("NFC", text).strip() and clean_of(game.players[0])


def test_a_game_file_in_another_normal_form_reads_as_one() -> None:
    game = parse_game(
        {
            "ruleset": "rommi",
            "players": ["Ja\u0308rvi", " Bea"],
            "deals": [{"hands": {"Bea": "KS"}, "out": "Järvi "}],
        }
    )
    assert game.players == ("Järvi", "Bea") and game.result.totals["Bea"] > 0


def test_a_hostile_name_in_a_game_file_names_the_file_and_the_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"ruleset": "gin", "players": ["Anna", "Bea\u202e"]}))
    status, out, err = run(capsys, "score", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("rummy score: game file '") and err.count("\n") == 1
    assert ": player 2: player name 'Bea\\u202e' holds the direction control U+202E" in err


def test_an_exports_hostile_names_are_refused_naming_the_file(tmp_path: Path) -> None:
    source = Store.memory()
    source.create_league("Club")
    source.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    export = source.export_league("Club")
    store = Store.memory()
    store.create_league("Club")
    for where, value in (("players", "Anna\x1b[31m"), ("seasons", "S\u2066")):
        changed = json.loads(json.dumps(export))
        changed[where][0]["name"] = value
        path = tmp_path / f"{where}.json"
        path.write_text(json.dumps(changed))
        with pytest.raises(ScorerError) as error:
            store.import_files("Club", [path])
        said = str(error.value)
        assert said.startswith(f"'{path}': {where[:-1]} 1 (") and one_clean_line(said), said
    assert store.players() == []


# -- look-alikes ------------------------------------------------------------------------------

#: Latin letters and a look-alike of each from another script.
HOMOGLYPHS = {
    "A": "\u0410",
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "c": "\u0441",
    "B": "\u0392",
}


@given(
    st.text(alphabet="AaBeopcnst ", min_size=1, max_size=12).filter(
        lambda t: any(c in HOMOGLYPHS for c in t)
    ),
    st.data(),
)
def test_a_name_with_a_letter_of_another_script_looks_alike(name: str, data: st.DataObject) -> None:
    spots = [i for i, c in enumerate(name) if c in HOMOGLYPHS]
    spot = data.draw(st.sampled_from(spots))
    twin = name[:spot] + HOMOGLYPHS[name[spot]] + name[spot + 1 :]
    assert twin != name and looks_alike(name, twin) and skeleton(name) == skeleton(twin)


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Anna", "\u0410nna", True),  # Cyrillic capital A
        ("Anna", "Anna\u2009Bea", False),
        ("Anna Bea", "Anna\u00a0Bea", True),  # a no-break space for a space
        ("mia", "rnia", True),  # 'rn' for 'm'
        ("Ilkka", "llkka", True),  # capital I and small l
        ("Anna", "Anne", False),
        ("Jose", "José", False),
    ],
)
def test_looks_alike(a: str, b: str, alike: bool) -> None:
    assert looks_alike(a, b) is alike


def test_the_store_refuses_a_look_alike_player_unless_told_it_is_another_person() -> None:
    store = Store.memory()
    store.create_league("Club")
    store.start_game(ruleset="rommi", players=["Anna", "Bea"], league="Club")
    before = store.changes()
    with pytest.raises(LookAlikeError) as error:
        store.start_game(ruleset="rommi", players=["\u0410nna", "Bea"], league="Club")
    assert (error.value.name, error.value.existing) == ("\u0410nna", "Anna")
    assert "U+0410 CYRILLIC CAPITAL LETTER A" in str(error.value) and store.changes() == before
    with pytest.raises(LookAlikeError):
        store.add_player("\u0412ea")
    with pytest.raises(LookAlikeError):
        store.rename_player("Bea", "\u0430nna")
    store.start_game(ruleset="rommi", players=["\u0410nna", "Bea"], league="Club", new_players=["\u0410nna"])
    assert sorted(p.name for p in store.players()) == ["Anna", "Bea", "\u0410nna"]
    assert store.add_player("\u0412ea", new_player=True).name == "\u0412ea"


def game_file(folder: Path, name: str, *players: str) -> str:
    path = folder / name
    path.write_text(json.dumps({"ruleset": "gin", "players": list(players)}), encoding="utf-8")
    return str(path)


def test_the_command_line_refuses_a_look_alike_unless_new_player(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "league")
    assert run(capsys, "league", "create", "Club", "--db", db)[0] == 0
    assert (
        run(
            capsys,
            "league",
            "import",
            "--league",
            "Club",
            "--db",
            db,
            game_file(tmp_path, "1.json", "Anna", "Bea"),
        )[0]
        == 0
    )
    twin = game_file(tmp_path, "2.json", "\u0410nna", "Bea")
    status, out, err = run(capsys, "league", "import", "--league", "Club", "--db", db, twin)
    assert (status, out) == (2, "")
    assert (
        "'\u0410nna' looks just like the player 'Anna'" in err
        and "--new-player" in err
        and err.count("\n") == 1
    )
    assert sorted(p.name for p in Store.open(db).players()) == ["Anna", "Bea"]
    assert len(Store.open(db).games()) == 1
    status, out, err = run(capsys, "league", "import", "--league", "Club", "--db", db, "--new-player", twin)
    assert status == 0, err
    assert sorted(p.name for p in Store.open(db).players()) == ["Anna", "Bea", "\u0410nna"]


def test_the_new_game_screen_asks_whether_a_look_alike_is_the_same_person() -> None:
    store = Store.memory()
    store.start_game(ruleset="rommi", players=["Anna", "Bea"])
    model = NewGameModel()
    model.set_player(0, "\u0410nna")
    model.set_player(1, "Bea")
    assert model.start(store) is None
    assert model.look_alike == ("\u0410nna", "Anna") and model.error == "" and len(store.games()) == 1
    model.same_person()
    assert model.players == ["Anna", "Bea"] and model.look_alike is None
    assert model.start(store) is not None and len(store.players()) == 2

    other = NewGameModel()
    other.set_player(0, "\u0410nna")
    other.set_player(1, "Bea")
    assert other.start(store) is None
    other.different_person()
    assert other.start(store) is not None
    assert sorted(p.name for p in store.players()) == ["Anna", "Bea", "\u0410nna"]


# -- nothing printed carries a control character ------------------------------------------------


def legacy_store(db: str, name: str) -> Store:
    """A store as an older version (or a hand edit) could leave it: ``name`` kept as it is for a
    player, the league and its season."""
    store = Store.open(db)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club")
    store.add_deal(game.id, BEA_GIN)
    store.abandon_game(game.id, why=f"why {name}")
    store.resume_game(game.id)
    with store._ledger.write() as state:  # records kept around the rule, as an older version did
        index = state.index()
        player = next(p for p in index.players.values() if p.name == "Anna")
        league = next(iter(index.leagues.values()))
        season = next(iter(index.seasons.values()))
        for table, doc in (("players", player), ("leagues", league), ("seasons", season)):
            assert isinstance(doc, PlayerDoc | LeagueDoc | SeasonDoc)
            record = doc.model_copy(update={"name": name}).model_dump()
            store._ledger.emit(new_fact("record.kept", at=doc.changed, by="", table=table, record=record))
    return store


@SLOW
@given(st.text(alphabet=st.sampled_from(HOSTILE + list("Ab =")), min_size=1, max_size=12))
def test_stored_text_never_reaches_the_terminal_raw(capsys: pytest.CaptureFixture[str], name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "league")
        store = legacy_store(db, name)
        game_id = store.games()[0].id
        league = store.leagues()[0].id
        for argv in (
            ("league", "list"),
            ("league", "standings", "--league", league),
            ("league", "player", "Bea", "--league", league),
            ("league", "log", game_id),
            ("league", "export", "--league", league, "--format", "csv"),
            ("league", "h2h", "Bea", "Nobody", "--league", league),
        ):
            status, out, err = run(capsys, *argv, "--db", db)
            for line in (out + err).splitlines():
                assert clean_of(line), (argv, line)
            assert status in (0, 2) and len(out.splitlines()) < 20


def test_a_league_name_that_clears_the_screen_is_shown_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "league")
    legacy_store(db, "Club\x1b[2J\nforged line")
    status, out, _ = run(capsys, "league", "list", "--db", db)
    assert status == 0 and "Club\\x1b[2J\\nforged line" in out and "\x1b" not in out
    status, out, _ = run(capsys, "league", "list", "--db", db, "--json")
    assert json.loads(out)[0]["name"] == "Club\x1b[2J\nforged line"  # JSON keeps the text, escaped


def test_printable_escapes_only_what_cannot_be_seen() -> None:
    assert printable("Järvi ❤️ Anna") == "Järvi ❤️ Anna"
    assert printable("a\x1b[2Jb\u202ec\nd") == "a\\x1b[2Jb\\u202ec\\nd"
    assert name_key(" ANNA ") == name_key("anna")
    with pytest.raises(GameFileError):
        parse_game({"ruleset": "rommi", "players": ["A\u200bnna", "Bea"]})


def test_a_devices_name_that_breaks_the_rule_is_said_on_settings_and_signs_nothing() -> None:
    from scorer.ui.context import AppSettings

    settings = AppSettings()
    settings.set_name("Bea\u202e")
    assert "U+202E" in settings.name_problem and settings.signer is None
    settings.set_name("  Bea  ")
    assert settings.name_problem == "" and settings.signer == "Bea"


@SLOW
@given(TEXTS)
def test_the_command_line_keeps_a_name_clean_or_refuses_it_in_one_line(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "league")
        status, out, err = run(capsys, "league", "create", "--db", db, "--json", "--", text)
        if status == 0:
            assert json.loads(out)["name"] == unicodedata.normalize("NFC", text).strip()
            assert [lg.name for lg in Store.open(db).leagues()] == [json.loads(out)["name"]]
        else:
            assert status == 2 and err.count("\n") == 1 and one_clean_line(err), repr(err)
            assert Store.open(db).leagues() == []
