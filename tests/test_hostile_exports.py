"""Exports and imports under hostile input: CSV a spreadsheet cannot run, and import errors in a
player's words that always name the file.

Property tests: any names give CSV that parses back to the same rows with no cell a
spreadsheet would run; any malformed document is refused naming the file, never with
pydantic's field paths or phrases.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.errors import ScorerError
from scorer.league.exchange import CSV_COLUMNS, FORMULA_STARTS, export_csv, read_import
from scorer.league.store import Store

COLUMNS = list(CSV_COLUMNS)
TEXT_COLUMNS = {"league", "season", "game", "played", "ruleset", "dealer", "player", "night"}

#: What pydantic says, and how it names a place (``players.0.name``): never shown to a player.
LIBRARY_WORDS = (
    "Input should",
    "Extra inputs",
    "Field required",
    "valid dictionary",
    "validation error",
    "Value error",
    "Traceback",
    "type=",
)
FIELD_PATH = re.compile(r"\b[a-z_]+\.\d+\b")

SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- CSV --------------------------------------------------------------------------------------

NAMES = st.text(
    alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from("=+-@\t\r\n,;\"' \x00")), max_size=20
)
ROWS = st.lists(
    st.fixed_dictionaries(
        {
            **{c: NAMES for c in TEXT_COLUMNS},
            "deal": st.integers(1, 500),
            "score": st.integers(-5_000, 5_000),
            "total": st.integers(-50_000, 50_000),
            "won": st.integers(0, 1),
            "round": st.integers(1, 50),
        }
    ),
    max_size=6,
)


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@given(ROWS)
def test_any_names_give_csv_that_parses_back_to_the_same_rows(rows: list[dict[str, Any]]) -> None:
    back = read_csv(export_csv(rows))
    assert back[0] == COLUMNS and len(back) == len(rows) + 1
    for row, cells in zip(rows, back[1:], strict=True):
        for column, cell in zip(COLUMNS, cells, strict=True):
            value = row[column]
            if column in TEXT_COLUMNS:
                assert cell == ("'" + value if value.startswith(FORMULA_STARTS) else value)
                assert not cell.startswith(FORMULA_STARTS)  # no cell a spreadsheet runs
            else:
                assert cell == str(value) and int(cell) == value  # numbers stay numbers


FORMULAS = ["=1+2", "+Anna", "-Bea", "@SUM(A1)", '=HYPERLINK("http://x","y")', 'Cid, "the" dealer']


def test_a_league_of_formula_names_exports_inert_csv(tmp_path: Path) -> None:
    store = Store.memory()
    store.create_league("=cmd|' /C calc'!A0", season="+2026")
    players = FORMULAS[:4]
    game = store.start_game(ruleset="rommi", players=players, league="=cmd|' /C calc'!A0", new_players=True)
    hands = dict(zip(players[1:], ["KS", "QS", "JS"], strict=True))
    store.add_deal(game.id, {"hands": hands, "out": players[0]})
    rows = read_csv(store.export_csv(game.league_id or ""))
    assert rows[0] == COLUMNS and len(rows) == 1 + len(players)
    for cells in rows[1:]:
        record = dict(zip(COLUMNS, cells, strict=True))
        assert record["league"] == "'=cmd|' /C calc'!A0" and record["season"] == "'+2026"
        assert record["player"].lstrip("'") in players and not record["player"].startswith(FORMULA_STARTS)
        assert int(record["total"]) == int(record["score"]) >= 0


def test_csv_on_a_terminal_and_in_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "league")
    store = Store.open(db)
    store.create_league("Club")
    game = store.start_game(ruleset="rommi", players=["=Anna", 'Bea, "B"'], league="Club")
    store.add_deal(game.id, {"hands": {'Bea, "B"': "KS"}, "out": "=Anna"})
    out = tmp_path / "deals.csv"
    assert (
        main(["league", "export", "--league", "Club", "--format", "csv", "--out", str(out), "--db", db]) == 0
    )
    rows = read_csv(out.read_bytes().decode("utf-8"))
    assert [r[7] for r in rows[1:]] == ["'=Anna", 'Bea, "B"']
    capsys.readouterr()
    assert main(["league", "export", "--league", "Club", "--format", "csv", "--db", db, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)["csv"]
    assert read_csv(printed) == rows


# -- import messages --------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(alphabet="abc xyz", max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("abcxyz", max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def valid_export() -> dict[str, Any]:
    store = Store.memory()
    store.create_league("Club", season="2026")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}, league="Club")
    store.add_deal(game.id, {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}})
    return store.export_league("Club")


EXPORT = valid_export()
GAME_FILE = {
    "ruleset": "gin",
    "players": ["Anna", "Bea"],
    "deals": [{"knocker": "Bea", "deadwood": {"Bea": 0}}],
}


def places(document: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a document (keys and list positions), the document itself first."""
    yield at
    if isinstance(document, dict):
        for key, value in document.items():
            yield from places(value, (*at, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from places(value, (*at, index))


def mutated(document: Any, at: tuple[Any, ...], value: Any, *, delete: bool) -> Any:
    if not at:
        return value
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in at[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        del parent[at[-1]]
    else:
        parent[at[-1]] = value
    return copy


def assert_in_words(said: str, path: Path) -> None:
    assert f"'{path}'" in said, said  # the file is named
    assert not any(words in said for words in LIBRARY_WORDS), said
    assert not FIELD_PATH.search(said), said
    assert "\n" not in said.strip(), said


@SOME
@given(st.sampled_from([EXPORT, GAME_FILE]), st.data(), JSON, st.booleans())
def test_a_malformed_file_is_refused_in_words_naming_it(
    document: dict[str, Any], data: st.DataObject, value: Any, delete: bool
) -> None:
    at = data.draw(st.sampled_from(list(places(document))))
    assert_refused_in_words(mutated(document, at, value, delete=delete))


def assert_refused_in_words(broken: Any) -> None:
    """A file holding ``broken`` imports, or is refused in words naming it (in both languages)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.json"
        path.write_text(json.dumps(broken), encoding="utf-8")
        try:
            read_import([path])
        except ScorerError as exc:
            assert_in_words(str(exc), path)
            assert_in_words(exc.message.render("fi"), path)


@pytest.mark.parametrize("text", ["[]", "null", '"x"', "3", "true", "[{}]"])
def test_a_whole_file_of_another_kind_is_refused_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    path = tmp_path / "g.json"
    path.write_text(text)
    db = str(tmp_path / "league")
    Store.open(db).create_league("Club")
    assert main(["league", "import", "--league", "Club", "--db", db, str(path)]) == 2
    assert_in_words(capsys.readouterr().err, path)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "game file '" in err and not any(words in err for words in LIBRARY_WORDS), err


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d["players"][0].update(name=5), "player 1 ('"),
        (lambda d: d["players"][1].pop("name"), "player 2 ('"),
        (lambda d: d["games"][0].pop("played"), "game 1 ('"),
        (
            lambda d: d["games"][0]["events"][0].update(action="danced"),
            ", change 1, action: 'danced' is not one of",
        ),
        (lambda d: d["games"][0]["game"].update(players=["Anna", 7]), "game 1 ("),
        (lambda d: d["games"][0]["game"]["deals"][0].update(deadwood={"Bea": "x"}), "deadwood of 'Bea'"),
        (
            lambda d: d["games"][0]["snapshot"].update(decks="two"),
            "its rules (the ruleset kept with the game)",
        ),
        (lambda d: d["seasons"][0].update(number=None), "season 1 ('"),
        (
            lambda d: d["games"][0]["snapshot"]["cards_dealt"].update({"2": None}),
            "cards_dealt, 2: null is not",
        ),
        (
            lambda d: d["games"][0]["snapshot"].update(cards_dealt={}),
            "its rules (the ruleset kept with the game) cannot",
        ),
    ],
)
def test_an_exports_problem_says_which_player_game_or_deal(tmp_path: Path, change: Any, said: str) -> None:
    document = json.loads(json.dumps(EXPORT))
    change(document)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ScorerError) as error:
        read_import([path])
    assert said in str(error.value)
    assert_in_words(str(error.value), path)


def test_a_deal_saved_from_the_app_is_refused_in_words() -> None:
    store = Store.memory()
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"])
    with pytest.raises(ScorerError) as error:
        store.add_deal(game.id, {"knocker": "Bea", "deadwood": {"Bea": "none"}})
    assert str(error.value) == "the deal: deadwood of 'Bea': 'none' is not a whole number"
    with pytest.raises(ScorerError) as error:
        store.replace_deal(game.id, 0, {"knoker": "Bea"})
    assert str(error.value) == "deal 1: unknown field 'knoker' (did you mean 'knocker'?)"
