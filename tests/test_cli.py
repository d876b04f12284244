"""The `rummy` command line: the documented contract (docs/cli.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.ruleset import Ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, parsed JSON (when --json) or text, and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def test_rulesets_json_is_a_list_of_objects_with_id(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rulesets", "--json")
    assert status == 0
    assert isinstance(out, list) and {"gin", "kalooki", "carousel"} <= {r["id"] for r in out}
    assert all(set(r) >= {"id", "description"} for r in out)


def test_check_valid_meld(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--rules", "gin", "5H 6H 7H", "--json")
    assert status == 0
    assert out["valid"] is True and out["kind"] == "run" and out["reason"] is None and out["jokers"] == []


def test_check_invalid_meld_exits_1_with_reason(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--rules", "gin", "QH KH AH", "--json")
    assert status == 1
    assert out == {
        "valid": False,
        "kind": None,
        "kinds": [],
        "reason": "not a run: QH KH AH (aces are low in gin rummy)",
        "reason_code": "meld.not_a",
        "reason_params": {
            "kind": "run",
            "cards": "QH KH AH",
            "why": {"code": "meld.ace_low", "params": {"name": "gin rummy"}},
        },
        "jokers": [],
        "meld": ["QH", "KH", "AH"],
    }
    status, text, _ = run(capsys, "check", "--rules", "gin", "QH KH AH")
    assert (status, text) == (1, "not a run: QH KH AH (aces are low in gin rummy)\n")


def test_check_lists_each_jokers_possibilities(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--rules", "rommi", "5H 6H *", "--json")
    assert status == 0 and out["jokers"] == [["4H", "7H"]]
    status, text, _ = run(capsys, "check", "--rules", "rommi", "5H 6H *")
    assert "joker 1 can stand for 4H 7H" in text


def test_cards_typed_with_suit_symbols_black_or_white(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--rules", "gin", "5♥ 6♡ 7♥️", "--json")
    assert status == 0
    assert out["valid"] is True and out["kind"] == "run"
    status, _, err = run(capsys, "check", "--rules", "gin", "5P 6P 7P")
    assert status == 2
    assert "'5P' at position 1: suit must be one of S H D C" in err


def test_layoff(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "layoff", "--rules", "gin", "--meld", "5H 6H 7H", "9H 8H", "--json")
    assert status == 0 and out["valid"] and out["meld"] == ["5H", "6H", "7H", "8H", "9H"]
    status, out, _ = run(capsys, "layoff", "--rules", "gin", "--meld", "5H 6H 7H", "9H", "--json")
    assert status == 1 and out["reason"] == "cannot lay off 9H on 5H 6H 7H: not consecutive: 8H missing"


def test_arrange_with_discard(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "arrange", "--rules", "gin", "--discard", "5H 6H 7H 8C 8D 8S KC QD 2S 3S 4S", "--json"
    )
    assert status == 0
    assert out["deadwood_points"] == 10 and out["discard"] in {"KC", "QD"}
    assert sorted(map(sorted, out["melds"])) == sorted(
        map(sorted, [["2S", "3S", "4S"], ["8S", "8D", "8C"], ["5H", "6H", "7H"]])
    )
    status, out, _ = run(capsys, "arrange", "--rules", "gin", "5H 6H 7H KC", "--json")
    assert out["discard"] is None and out["deadwood"] == ["KC"]


def test_house_rule_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run(capsys, "check", "--rules", "gin", "--option", "ace=low_or_high", "QH KH AH", "--json")
    assert status == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--rules", "gin", "5H XQ"], "invalid card 'XQ' at position 2"),
        (["check", "--rules", "gim", "5H"], "unknown ruleset 'gim'"),
        (["check", "5H 6H 7H"], "--rules ID-or-path is required"),
        (["check", "--rules", "gin", "--option", "foo", "5H"], "bad --option 'foo'"),
        (
            ["check", "--rules", "gin", "--option", "undercut_bonsu=3", "5H"],
            "unknown option 'undercut_bonsu'",
        ),
        (["check", "--rules", "nowhere/x.toml", "5H"], "ruleset file 'nowhere/x.toml' does not exist"),
        (["arrange", "--rules", "gin", "--discard", ""], "cannot discard from an empty hand"),
    ],
)
def test_bad_input_exits_2_naming_it(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err and out == ""


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as excinfo:
        main(["check"])
    assert excinfo.value.code == 2


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("rummy")
    done = subprocess.run(
        [str(script), "check", "--rules", "gin", "AH 2H 3H", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kind"] == "run"


#: What a referee command's start must not pay for: pydantic (its import and validator were
#: most of it; a bundled ruleset needs neither), a TOML parser, the league store, the app, and
#: dataclasses with the inspect module it imports (the engine's values are scorer.frozen's),
#: shutil, which argparse imports for the help's width, and pathlib (a bundled ruleset is found
#: with os.path; a user's ruleset file still uses it).
HEAVY = (
    "pydantic",
    "pydantic_core",
    "tomllib",
    "tinydb",
    "flet",
    "scorer.league",
    "scorer.ui",
    "dataclasses",
    "inspect",
    "shutil",
    "pathlib",
)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--rules", "gin", "5H 6H 7H"],
        ["--lang", "fi", "check", "--rules", "Gin", "--json", "5H XQ"],
        ["layoff", "--rules", "gin", "--meld", "5H 6H 7H", "8H"],
        ["knock", "--rules", "gin", "--knocker", "7H 8H 9H 4C 4D 4S 2S 3S AS 5C", "--defender", "TH JH 6H"],
        ["arrange", "--rules", "rommi", "7H 8H 9H 4C 4D 4S"],
        ["opening", "--melds", "QH KH AH | 9C 9D 9S"],
        ["table", "--before", "", "--from-hand", "5H 6H 7H", "--after", "5H 6H 7H"],
    ],
)
def test_a_referee_command_imports_nothing_heavy(argv: list[str]) -> None:
    """The start-up target of issue 15 (under 150 ms, measured by bench/cli_startup.py, never
    here): a fresh process runs the command and lists what it imported."""
    code = (
        "import sys\nfrom scorer.cli import main\nstatus = main(sys.argv[1:])\n"
        f"print(status, sorted({{m for m in sys.modules if m.startswith({HEAVY!r})}}))"
    )
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=False)
    status, loaded = done.stdout.splitlines()[-1].split(" ", 1)
    assert status in {"0", "1", "2"}, done.stderr
    assert loaded == "[]"


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "abc", "40", "200"])
def test_help_width_is_shutils(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    """The help's width is the terminal's as argparse takes it (``shutil.get_terminal_size``),
    read without importing shutil, which a command's start would pay for on every argument."""
    import shutil

    from scorer.cli import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


KNOCKER = "AS 2S 3S 5H 6H 7H 9C 9D 9S 4D"
DEFENDER = "KC QC JC 4S 8H 2D 3D TD TH 5C"


def test_knock_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    # Knocker deadwood 4D = 4; the defender lays off 4S and 8H and keeps 30: knock, 26.
    status, out, _ = run(
        capsys, "knock", "--rules", "gin", "--knocker", KNOCKER, "--defender", DEFENDER, "--json"
    )
    assert status == 0
    assert (out["legal"], out["outcome"], out["winner"], out["points"]) == (True, "knock", "knocker", 26)
    assert out["knocker"]["deadwood"] == ["4D"] and out["knocker"]["deadwood_points"] == 4
    assert out["defender"]["deadwood_points"] == 30
    laid = {card for lay in out["defender"]["layoffs"] for card in lay["cards"]}
    assert laid == {"4S", "8H"}
    for lay in out["defender"]["layoffs"]:
        assert 0 <= lay["meld"] < len(out["knocker"]["melds"])


def test_illegal_knock_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "knock", "--rules", "straight-gin", "--knocker", KNOCKER, "--defender", DEFENDER, "--json"
    )
    assert status == 1 and out["legal"] is False and out["outcome"] is None and out["winner"] is None
    assert "knock limit of 0" in out["reason"]


def test_knock_with_declared_melds_and_upcard(capsys: pytest.CaptureFixture[str]) -> None:
    melds = "AS 2S 3S | 5H 6H 7H | 9C 9D 9S"
    status, out, _ = run(
        capsys,
        "knock",
        "--rules",
        "oklahoma-gin",
        "--knocker",
        KNOCKER,
        "--defender",
        DEFENDER,
        "--melds",
        melds,
        "--upcard",
        "6D",
        "--json",
    )
    assert status == 0 and out["points"] == 26
    status, _, err = run(
        capsys, "knock", "--rules", "oklahoma-gin", "--knocker", KNOCKER, "--defender", DEFENDER
    )
    assert status == 2 and "no upcard" in err


def test_oklahoma_upcard_in_a_hand_is_legal(capsys: pytest.CaptureFixture[str]) -> None:
    # 4D is the knocker's own deadwood (limit 4, deadwood 4); KC is in the defender's hand.
    for upcard in ("4D", "KC"):
        status, out, err = run(
            capsys,
            "knock",
            "--rules",
            "oklahoma-gin",
            "--knocker",
            KNOCKER,
            "--defender",
            DEFENDER,
            "--upcard",
            upcard,
            "--json",
        )
        assert (status, err, out["legal"], out["outcome"]) == (0, "", True, "knock")
        assert out["knocker"]["deadwood"] == ["4D"]


def test_oklahoma_game_file_with_the_upcard_in_a_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = {
        "format": 1,
        "ruleset": "oklahoma-gin",
        "players": ["Anna", "Bea"],
        "deals": [{"knocker": "Anna", "upcard": "4D", "hands": {"Anna": KNOCKER, "Bea": DEFENDER}}],
    }
    path = tmp_path / "oklahoma.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    status, out, err = run(capsys, "score", str(path), "--json")
    assert (status, err) == (0, "")
    knock = run(
        capsys,
        "knock",
        "--rules",
        "oklahoma-gin",
        "--knocker",
        KNOCKER,
        "--defender",
        DEFENDER,
        "--upcard",
        "4D",
        "--json",
    )[1]
    assert out["totals"]["Anna"] == knock["points"] > 0


def test_knock_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "knock", "--rules", "gin", "--knocker", "AS 2S 3S", "--defender", DEFENDER)
    assert status == 2 and "AS 2S 3S" in err


def test_opening_with_same_turn_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    # 9 + 10 + 10 + 4 + 4 + 4 = 41 in melds; QH laid off counts 10: 51.
    status, out, _ = run(capsys, "opening", "--melds", "9H TH JH | 4S 4D 4C", "--json")
    assert status == 1 and (out["value"], out["required"]) == (41, 51)
    status, out, _ = run(capsys, "opening", "--melds", "9H TH JH | 4S 4D 4C", "--layoffs", "QH", "--json")
    assert status == 0 and out["valid"] and out["value"] == 51 and out["layoffs"] == ["QH"]


def test_opening_from_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "opening", "--rules", "kalooki", "--hand", "5H 6H 7H 8H 2C 2D KS", "--json")
    assert status == 1 and out["value"] == 26
    status, _, err = run(capsys, "opening", "--hand", "5H", "--melds", "5H 6H 7H")
    assert status == 2 and "either --melds" in err


def test_table_rearrangement(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "table",
        "--before",
        "4H 5H 6H 7H | 7S 7D *=7H",
        "--from-hand",
        "8C 9C",
        "--after",
        "4H 5H 6H | 7S 7D 7H | * 8C 9C",
        "--json",
    )
    assert status == 0 and out == {"valid": True, "reason": None, "reason_code": None, "reason_params": None}
    status, out, _ = run(
        capsys, "table", "--before", "4H 5H 6H 7H", "--from-hand", "8H", "--after", "4H 5H 6H 8H", "--json"
    )
    assert status == 1 and out["valid"] is False and "7H" in out["reason"]
    status, out, _ = run(
        capsys, "table", "--before", "", "--from-hand", "5H 6H 7H", "--after", "5H 6H 7H", "--first", "--json"
    )
    assert status == 0


# -- rulesets and their options ------------------------------------------------------------------


def exit_status(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """The exit status of a usage error, whether argparse raises it or main returns it."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


def test_rulesets_list_shows_display_names(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rulesets", "--json")
    by_id = {r["id"]: r for r in out}
    assert (by_id["gin"]["title"], by_id["gin"]["name"]) == ("Gin rummy", "gin rummy")
    assert by_id["basic-rummy"]["title"] == "Basic rummy"
    _, text, _ = run(capsys, "rulesets")
    assert "Boathouse rummy" in text and "Basic rummy" in text


def test_rulesets_options_lists_every_option_with_value_and_meaning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "rulesets", "--options", "basic-rummy", "--json")
    assert status == 0 and all(set(o) == {"name", "value", "meaning", "default", "label"} for o in out)
    by_name = {o["name"]: o for o in out}
    assert set(Ruleset.model_fields) - {"id", "name", "description", "family"} <= set(by_name)
    assert by_name["high_ace"]["value"] is False and "cost 15" in by_name["high_ace"]["meaning"]
    assert by_name["target"] == {
        "name": "target",
        "value": 100,
        "meaning": Ruleset.model_fields["target"].description,
        "default": 100,
        "label": "Game ends at",
    }
    assert by_name["cards_dealt"]["value"] == {"2": 10, "3": 7, "4": 7, "5": 6, "6": 6}
    status, text, _ = run(capsys, "rulesets", "--options", "Gin")
    assert status == 0 and text.startswith("Gin rummy (gin): set an option with --option NAME=VALUE")
    line = next(line for line in text.splitlines() if line.startswith("knock_limit "))
    assert line.split()[:2] == ["knock_limit", "10"] and "Most deadwood a knocker may hold" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["rulesets", "--rules", "nosuch"],
        ["rulesets", "--option", "x=1"],
        ["rulesets", "--options", "gin", "--option", "target=50"],
    ],
)
def test_rulesets_takes_no_rules_or_options(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, err = exit_status(capsys, *argv)
    assert status == 2 and err


def test_rulesets_options_of_an_unknown_ruleset_suggests_the_id(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "rulesets", "--options", "gni")
    assert status == 2 and "unknown ruleset 'gni'; did you mean 'gin'? known: basic-rummy" in err


def test_ruleset_ids_are_case_insensitive_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--rules", "Gin", "QH KH AH", "--json")
    assert status == 1 and out["reason"] == "not a run: QH KH AH (aces are low in gin rummy)"


def test_high_ace_option_sets_the_mode_and_the_cost(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run(capsys, "check", "--rules", "basic-rummy", "--option", "high_ace=true", "QH KH AH")
    assert status == 0
    # The ace costs 15 left in hand: 15 + 10 = 25.
    status, out, _ = run(
        capsys, "arrange", "--rules", "basic-rummy", "--option", "high_ace=true", "AS KD", "--json"
    )
    assert out["deadwood_points"] == 25


def test_discard_reuse_none_is_the_choice_none(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "check", "--rules", "rommi", "--option", "discard_reuse=none", "5H 6H 7H")
    assert (status, err) == (0, "")


# -- opening: the ruleset and the table -------------------------------------------------------------


def test_opening_needs_a_ruleset_with_a_minimum(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "opening", "--rules", "gin", "--melds", "5H 6H 7H")
    assert (status, out) == (2, "")
    assert "Kalooki opening needs a ruleset with an opening minimum; gin rummy has none" in err


def test_opening_layoffs_onto_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    melds, table = "9H TH JH | 4S 4D 4C", "QS QD QC | 7C 8C 9C"
    status, out, _ = run(capsys, "opening", "--melds", melds, "--layoffs", "QH 2C", "--onto", table, "--json")
    assert status == 1 and out["value"] == 51 and out["layoffs_checked"] is True
    assert out["layoff_onto"] == [0, None]
    assert out["reason"] == "layoff 2C fits none of the melds on the table: QS QD QC | 7C 8C 9C"
    status, text, _ = run(capsys, "opening", "--melds", melds, "--layoffs", "QH 6C", "--onto", table)
    assert status == 0 and text.strip() == "opening worth 57 (needs 51): 9H TH JH | 4S 4D 4C + layoffs QH 6C"


def test_opening_layoffs_without_the_table_say_they_were_not_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    melds = "9H TH JH | 4S 4D 4C"
    status, out, _ = run(capsys, "opening", "--melds", melds, "--layoffs", "QH 2C", "--json")
    assert status == 0 and out["value"] == 53 and out["layoffs_checked"] is False
    _, text, _ = run(capsys, "opening", "--melds", melds, "--layoffs", "QH 2C")
    assert (
        text.splitlines()[-1]
        == "layoffs not checked: give --onto MELDS (the melds on the table) to check them"
    )
    status, _, err = run(capsys, "opening", "--hand", "5H 6H 7H", "--onto", "8H 8S 8D")
    assert status == 2 and "--onto go with --melds" in err


# -- score: the text table -----------------------------------------------------------------------


def test_hollywood_text_table_columns_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    # Deal rows, the game 1/2/3 rows and the total row put each player's numbers in one column.
    status, text, _ = run(capsys, "score", str(EXAMPLES / "hollywood-gin.json"))
    lines = text.splitlines()
    rows = [line for line in lines if re.match(r" *\d+ |game \d|total", line)]
    assert status == 0 and [row[:6] for row in rows if row.startswith("game")] == [
        "game 1",
        "game 2",
        "game 3",
    ]
    ends = {lines[0].index("Anna") + len("Anna"), lines[0].index("Bea") + len("Bea")}
    for row in rows:
        numbers = [match.end() + 8 for match in re.finditer(r"\d+", row[8:])]
        assert set(numbers[:2]) == ends, row


def test_game_file_options_may_name_house_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # High ace: Bea's AS costs 15, so Anna collects 15 + 5 = 20.
    game = {
        "ruleset": "basic-rummy",
        "options": {"high_ace": True},
        "players": ["Anna", "Bea"],
        "deals": [{"out": "Anna", "hands": {"Bea": "AS 5H"}}],
    }
    path = tmp_path / "high-ace.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    status, out, _ = run(capsys, "score", str(path), "--json")
    assert status == 0 and out["totals"] == {"Anna": 20, "Bea": 0}
