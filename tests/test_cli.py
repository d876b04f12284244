"""The `rummy` command line: the documented contract (docs/cli.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main


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
