"""The game file (docs/game-format.md) and `rummy score`, on the examples in docs/examples/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.gamefile import GameFileError, game_document, load_game, parse_game

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

# Totals worked out by hand (the working is in tests/test_scoring.py and tests/test_game.py for
# each rule, and in docs/game-format.md for the examples).
EXPECTED: dict[str, tuple[dict[str, int], bool, str | None]] = {
    "basic-rummy": ({"Anna": 18, "Bea": 56, "Cid": 0}, False, None),
    "block-rummy": ({"Anna": 1, "Bea": 22, "Cid": 1}, False, None),
    "rommi": ({"Anna": 7, "Bea": 56, "Cid": 5}, False, None),
    "rommi-stop": ({"Anna": 25, "Bea": 11}, False, None),
    "boathouse": ({"Anna": 2, "Bea": 10}, False, None),
    "sakausrommi": ({"Anna": 12, "Bea": 18}, False, None),
    "kalooki": ({"Anna": 20, "Bea": 65, "Cid": 55}, False, None),
    "gin": ({"Anna": 257, "Bea": 117}, True, "Anna"),
    "oklahoma-gin": ({"Anna": 14, "Bea": 74}, False, None),
    "straight-gin": ({"Anna": 58, "Bea": 0}, False, None),
    "hollywood-gin": ({"Anna": 530, "Bea": 285}, True, "Anna"),
    "carousel": ({"Anna": 225, "Bea": 66, "Cid": 0}, True, "Anna"),
}


def score_json(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, Any, str]:
    status = main(["score", str(path), "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else None, captured.err


def test_there_is_an_example_for_every_ruleset() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.json")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_rummy_score_on_each_example(capsys: pytest.CaptureFixture[str], name: str) -> None:
    totals, finished, winner = EXPECTED[name]
    status, out, err = score_json(capsys, EXAMPLES / f"{name}.json")
    assert status == 0, err
    assert out["totals"] == totals
    assert out["finished"] is finished and out["winner"] == winner
    assert len(out["deals"]) == len(json.loads((EXAMPLES / f"{name}.json").read_text())["deals"])
    for deal in out["deals"]:
        assert set(deal) >= {"scores", "events"} and deal["events"]


def test_gin_example_bonuses(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = score_json(capsys, EXAMPLES / "gin.json")
    assert out["bonuses"] == {"Anna": {"game": 100, "boxes": 50}, "Bea": {"boxes": 50}}
    assert [d["scores"]["Anna"] - d["scores"]["Bea"] for d in out["deals"]] == [26, -40, -27, 0, 81]


def test_hollywood_example_has_three_games(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = score_json(capsys, EXAMPLES / "hollywood-gin.json")
    assert [g["totals"] for g in out["games"]] == [
        {"Anna": 235, "Bea": 0},
        {"Anna": 63, "Bea": 215},
        {"Anna": 232, "Bea": 70},
    ]
    assert all(g["finished"] for g in out["games"])
    assert [g["winner"] for g in out["games"]] == ["Anna", "Bea", "Anna"]


def test_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "gin.json")]) == 0
    text = capsys.readouterr().out
    assert "knock: Anna scores 26" in text and "game over: Anna wins" in text


def write(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


GOOD = {"ruleset": "rommi", "players": ["Anna", "Bea"], "deals": [{"out": "Anna", "hands": {"Bea": "5H"}}]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"deals": [{"out": "Anna", "hands": {"Bea": "5H"}}, {"out": "Dan", "hands": {"Bea": "5H"}}]},
            "deal 2: out: unknown player 'Dan'",
        ),
        ({"deals": [{"out": "Anna", "hands": {"Bea": "5X"}}]}, "deal 1: invalid card '5X' at position 1"),
        (
            {"deals": [{"out": "Anna", "points": {"Bea": 2.5}}]},
            "deal 1, points of 'Bea': 2.5 is not a whole number",
        ),
        (
            {"deals": [{"out": "Anna", "pints": {"Bea": 2}}]},
            "deal 1: unknown field 'pints' (did you mean 'points'?)",
        ),
        (
            {"deals": [{"out": "Anna", "ended": "late", "hands": {"Bea": "5H"}}]},
            "deal 1, ended: 'late' is not one of 'stop', 'block' or 'stock_out'",
        ),
        ({"ruleset": "gim"}, "unknown ruleset 'gim'"),
        ({"options": {"target": "many"}}, "target: 'many' is not a whole number"),
        ({"players": ["Anna"]}, "players: 1 player, but rommi is for 2-7 players"),
        ({"format": 2}, "format: 2 is not 1, the only value allowed"),
    ],
)
def test_invalid_file_exits_2_naming_the_deal_and_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    status, out, err = score_json(capsys, write(tmp_path, GOOD | change))
    assert status == 2 and message in err
    # --json: the error on stdout too, in English with its code and parameters (docs/cli.md).
    assert message in out["error"] and out["code"] and isinstance(out["params"], dict)


def test_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(GameFileError, match="cannot read game file"):
        load_game(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(GameFileError, match="is not JSON"):
        load_game(bad)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_document_round_trip(name: str) -> None:
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    game = parse_game(data)
    again = parse_game(game_document(game, ruleset_id=data["ruleset"], options=data.get("options")))
    assert again == game


def test_score_takes_its_ruleset_from_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLES / "gin.json"), "--rules", "rommi"]) == 2
    assert "the game file names its ruleset" in capsys.readouterr().err
