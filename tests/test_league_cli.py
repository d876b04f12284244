"""`rummy league ...`: the documented contract (docs/cli.md), every subcommand with --json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from league_evening import kalooki_and_carousel

from scorer.cli import main
from scorer.league.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
GIN_50 = {"target": 50}
BEA_GIN = {"knocker": "Bea", "deadwood": {"Bea": 0, "Anna": 30}}


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "league")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, parsed JSON (when --json) or text, and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def club(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, Any]:
    status, out, _ = run(capsys, "league", "create", "Club", "--season", "2026", "--db", db, "--json")
    assert status == 0
    return dict(out)


def finished_gin(db: str, players: tuple[str, str] = ("Anna", "Bea")) -> str:
    store = Store.open(db)
    game = store.start_game(ruleset="gin", players=list(players), options=GIN_50, league="Club")
    store.add_deal(game.id, {"knocker": players[1], "deadwood": {players[1]: 0, players[0]: 30}})
    return game.id


def test_create(capsys: pytest.CaptureFixture[str], db: str) -> None:
    out = club(capsys, db)
    assert set(out) == {"id", "name", "season"}
    assert out["name"] == "Club" and out["season"]["name"] == "2026" and set(out["season"]) == {"id", "name"}
    status, _, err = run(capsys, "league", "create", "club", "--db", db, "--json")
    assert status == 2 and "a league named 'club' already exists" in err


def test_rummy_db_is_the_default_folder(
    capsys: pytest.CaptureFixture[str], db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMY_DB", db)
    assert run(capsys, "league", "create", "Club")[0] == 0
    assert [lg.name for lg in Store.open(db).leagues()] == ["Club"]


def test_list(capsys: pytest.CaptureFixture[str], db: str) -> None:
    league = club(capsys, db)
    finished_gin(db)
    status, out, _ = run(capsys, "league", "list", "--db", db, "--json")
    assert status == 0
    assert out == [
        {
            "id": league["id"],
            "name": "Club",
            "players": 2,
            "games": 1,
            "seasons": [{"id": league["season"]["id"], "name": "2026", "closed": False}],
        }
    ]
    status, text, _ = run(capsys, "league", "list", "--db", db)
    assert "Club" in text and "2026" in text


def test_import_then_the_same_import_again(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    files = [str(p) for p in sorted(EXAMPLES.glob("*.json"))]
    status, out, _ = run(capsys, "league", "import", "--league", "Club", *files, "--db", db, "--json")
    assert status == 0
    assert set(out) == {
        "games_added",
        "games_unchanged",
        "deals_added",
        "players_added",
        "nights_added",
        "nights_unchanged",
        "rounds_added",
        "conflicts",
    }
    assert out["games_added"] == len(files) and out["players_added"] == 3 and out["conflicts"] == []
    status, out, _ = run(capsys, "league", "import", "--league", "Club", *files, "--db", db, "--json")
    assert status == 0
    assert (out["games_added"], out["games_unchanged"], out["deals_added"]) == (0, len(files), 0)


def test_import_a_bad_file_exits_2_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    club(capsys, db)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"ruleset": "gin", "players": ["Anna", "Bea"], "deals": [{"knoker": "Anna"}]}))
    status, out, err = run(
        capsys,
        "league",
        "import",
        "--league",
        "Club",
        str(EXAMPLES / "gin.json"),
        str(bad),
        "--db",
        db,
        "--json",
    )
    assert status == 2
    assert "bad.json" in err and "deal 1" in err and "knoker" in err
    # --json: the error on stdout too, with its code (docs/cli.md); nothing else.
    assert set(out) == {"error", "code", "params"}
    assert Store.open(db).games() == []


def test_import_with_conflicts_exits_1(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    club(capsys, db)
    game = {"id": "g1", "ruleset": "gin", "options": GIN_50, "players": ["Anna", "Bea"]}
    first = tmp_path / "a.json"
    first.write_text(json.dumps(game | {"deals": [{"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 15}}]}))
    other = tmp_path / "b.json"
    other.write_text(json.dumps(game | {"deals": [{"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 25}}]}))
    assert run(capsys, "league", "import", "--league", "Club", str(first), "--db", db)[0] == 0
    status, out, _ = run(capsys, "league", "import", "--league", "Club", str(other), "--db", db, "--json")
    assert status == 1
    assert [c["reason"] for c in out["conflicts"]] == ["deal 1 differs between the two copies"]


def test_export_json_and_csv(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    club(capsys, db)
    game_id = finished_gin(db)
    status, out, _ = run(capsys, "league", "export", "--league", "Club", "--db", db, "--json")
    assert status == 0
    assert out["format"] == "rummy-league" and [g["id"] for g in out["games"]] == [game_id]
    target = tmp_path / "club.csv"
    status, out, _ = run(
        capsys,
        "league",
        "export",
        "--league",
        "Club",
        "--format",
        "csv",
        "--out",
        str(target),
        "--db",
        db,
        "--json",
    )
    assert status == 0 and out == {"format": "csv", "rows": 2, "out": str(target)}
    assert target.read_text().splitlines()[0].startswith("league,season,game")
    status, text, _ = run(capsys, "league", "export", "--league", "Club", "--format", "csv", "--db", db)
    assert status == 0 and len(text.splitlines()) == 3


def test_export_then_import_elsewhere_gives_the_same_standings(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    club(capsys, db)
    finished_gin(db)
    finished_gin(db, players=("Bea", "Anna"))
    finished_gin(db, players=("Anna", "Cid"))
    export = tmp_path / "club.json"
    assert run(capsys, "league", "export", "--league", "Club", "--out", str(export), "--db", db)[0] == 0
    other = str(tmp_path / "other")
    assert run(capsys, "league", "create", "Club", "--db", other)[0] == 0
    assert run(capsys, "league", "import", "--league", "Club", str(export), "--db", other)[0] == 0
    here = run(capsys, "league", "standings", "--league", "Club", "--db", db, "--json")[1]
    there = run(capsys, "league", "standings", "--league", "Club", "--db", other, "--json")[1]
    assert here == there


def test_standings(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    finished_gin(db)
    finished_gin(db)
    finished_gin(db, players=("Bea", "Anna"))
    status, out, _ = run(capsys, "league", "standings", "--league", "Club", "--db", db, "--json")
    assert status == 0
    rows = out["rows"]
    assert [r["player"] for r in rows] == ["Bea", "Anna"]
    assert {"player", "games", "wins", "deals", "deals_won", "points", "rating", "provisional"} <= set(
        rows[0]
    )
    bea = rows[0]
    assert (bea["games"], bea["wins"], bea["deals"], bea["deals_won"], bea["provisional"]) == (
        3,
        2,
        3,
        2,
        True,
    )
    assert isinstance(bea["rating"], float) and bea["rating"] > rows[1]["rating"]
    status, out, _ = run(
        capsys, "league", "standings", "--league", "Club", "--ruleset", "rommi", "--db", db, "--json"
    )
    assert status == 0 and out == {"rows": []}
    status, _, err = run(capsys, "league", "standings", "--league", "Clu", "--db", db, "--json")
    assert status == 2 and "no league named 'Clu'" in err
    status, text, _ = run(capsys, "league", "standings", "--league", "Club", "--db", db)
    assert text.splitlines()[1].startswith("Bea")


def test_standings_across_variants_never_add_penalty_and_reward_points(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    club(capsys, db)
    kalooki_and_carousel(Store.open(db))
    status, out, _ = run(capsys, "league", "standings", "--league", "Club", "--db", db, "--json")
    assert status == 0
    # Together: one win in two games for Anna and Cid; Anna won more deals. No points.
    assert [(r["player"], r["wins"], r["deals_won"], r["points"]) for r in out["rows"]] == [
        ("Anna", 1, 2, None),
        ("Cid", 1, 1, None),
        ("Bea", 0, 0, None),
    ]
    assert {r["lowest_wins"] for r in out["rows"]} == {None}
    kalooki, carousel = out["rulesets"]["kalooki"], out["rulesets"]["carousel"]
    assert kalooki["lowest_wins"] is True and carousel["lowest_wins"] is False
    assert [(r["player"], r["points"]) for r in kalooki["rows"]] == [("Anna", 0), ("Bea", 60), ("Cid", 250)]
    cid, *level = [(r["player"], r["points"]) for r in carousel["rows"]]  # Anna and Bea tie: by id
    assert cid == ("Cid", 275) and sorted(level) == [("Anna", 0), ("Bea", 0)]
    assert {r["rated_in"] for r in kalooki["rows"]} == {"kalooki"}
    status, alone, _ = run(
        capsys, "league", "standings", "--league", "Club", "--ruleset", "kalooki", "--db", db, "--json"
    )
    assert status == 0 and alone == {"rows": kalooki["rows"]}
    status, text, _ = run(capsys, "league", "standings", "--league", "Club", "--db", db)
    lines = text.splitlines()
    assert lines[0].startswith("every variant together") and "points" not in lines[1]
    assert "kalooki: the lowest total wins (penalty points: fewer is better)" in lines
    assert "carousel: the highest total wins" in lines
    kalooki_head = lines.index("kalooki: the lowest total wins (penalty points: fewer is better)")
    assert lines[kalooki_head + 2].split()[:6] == ["Anna", "1", "1", "2", "2", "0"]


def test_player(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    finished_gin(db)
    status, out, _ = run(capsys, "league", "player", "bea", "--league", "Club", "--db", db, "--json")
    assert status == 0
    assert out["player"] == "Bea" and out["overall"]["wins"] == 1
    assert out["rulesets"]["gin"]["games"] == 1 and out["overall"]["events"]["gin"] == 1
    assert out["ratings"]["gin"]["provisional"] is True and len(out["ratings"]["gin"]["history"]) == 1
    status, _, err = run(capsys, "league", "player", "Zed", "--league", "Club", "--db", db, "--json")
    assert status == 2 and "no player named 'Zed'" in err


def test_h2h(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    finished_gin(db)
    finished_gin(db, players=("Bea", "Anna"))
    status, out, _ = run(capsys, "league", "h2h", "Anna", "Bea", "--league", "Club", "--db", db, "--json")
    assert status == 0
    assert out["games"] == 2 and out["wins"] == {"Anna": 1, "Bea": 1} and out["ties"] == 0
    assert out["rulesets"]["gin"]["games"] == 2
    status, _, err = run(capsys, "league", "h2h", "Anna", "anna", "--league", "Club", "--db", db)
    assert status == 2 and "choose two different players" in err


def test_season_close_and_new(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    status, out, _ = run(capsys, "league", "season", "close", "--league", "Club", "--db", db, "--json")
    assert status == 0 and out["name"] == "2026" and out["closed"] is True
    status, _, err = run(capsys, "league", "season", "close", "--league", "Club", "--db", db)
    assert status == 2 and "no open season" in err
    status, out, _ = run(
        capsys, "league", "season", "new", "--league", "Club", "--name", "2027", "--db", db, "--json"
    )
    assert status == 0 and out["name"] == "2027" and out["closed"] is False


def test_restore(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    finished_gin(db)
    status, out, _ = run(capsys, "league", "restore", "--league", "Club", "--db", db, "--json")
    assert status == 0 and out == {"repairs": []}
    status, before, _ = run(capsys, "league", "standings", "--league", "Club", "--db", db, "--json")
    path = Path(db) / "facts.jsonl"
    whole = path.read_bytes()
    path.write_bytes(whole[:10])
    status, out, _ = run(capsys, "league", "verify", "--db", db, "--json")
    assert status == 1 and {p["path"] for p in out["problems"]} == {str(path)}
    assert "store.problem_log_head" in {p["code"] for p in out["problems"]}
    status, out, _ = run(capsys, "league", "restore", "--league", "Club", "--db", db, "--json")
    assert status == 0 and [(r["path"], r["action"]) for r in out["repairs"]] == [(str(path), "rebuilt")]
    status, out, _ = run(capsys, "league", "verify", "--db", db, "--json")
    assert status == 0 and out == {"problems": []}
    # damaged again: the next command mends it from the other copy, says so, and answers the same
    path.write_bytes(whole[:10])
    status, out, err = run(capsys, "league", "standings", "--league", "Club", "--db", db, "--json")
    assert (status, out) == (0, before)
    assert "facts.jsonl' was mended" in err
    assert run(capsys, "league", "verify", "--db", db, "--json")[0] == 0


def test_log_prints_a_games_signed_changes(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    game_id = finished_gin(db)
    status, out, _ = run(capsys, "league", "log", game_id[:8], "--db", db, "--json")
    assert status == 0 and out["game"] == game_id
    assert out["events"][0]["action"] == "started"
    assert set(out["events"][0]) == {"seq", "at", "by", "action", "deal", "why"}
    assert [e["seq"] for e in out["events"]] == list(range(1, len(out["events"]) + 1))
    status, text, _ = run(capsys, "league", "log", game_id, "--db", db)
    assert status == 0 and "started" in text
    status, _, err = run(capsys, "league", "log", "zz", "--db", db)
    assert status == 2 and "no game with id 'zz'" in err


def test_log_says_a_removed_deal_was_put_back_and_json_keeps_the_action_restored(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """'restore' is the mending of a folder's files: a deal brought back is said "put back",
    while ``--json`` keeps the documented action name ``restored`` (docs/cli.md)."""
    club(capsys, db)
    store = Store.open(db)
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], options=GIN_50, league="Club")
    store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}})
    deal = store.game(game.id).document["deals"][0]
    store.remove_deal(game.id, 0, by="Cai")
    store.put_back_deal(game.id, 0, deal, by="Cai")
    status, out, _ = run(capsys, "league", "log", game.id, "--db", db, "--json")
    assert status == 0 and [e["action"] for e in out["events"]][-2:] == ["removed", "restored"]
    status, text, _ = run(capsys, "league", "log", game.id, "--db", db)
    last = text.splitlines()[-1]
    assert status == 0 and "put back deal 1 by Cai" in last and "restored" not in text
    status, text, _ = run(capsys, "--lang", "fi", "league", "log", game.id, "--db", db)
    assert status == 0 and "palautettu, jako 1" in text.splitlines()[-1]


def test_every_subcommand_takes_db_and_json() -> None:
    from scorer.cli import build_parser

    parser = build_parser()
    for argv in (
        ["create", "X"],
        ["list"],
        ["import", "--league", "L", "f.json"],
        ["export", "--league", "L"],
        ["standings", "--league", "L"],
        ["player", "A", "--league", "L"],
        ["h2h", "A", "B", "--league", "L"],
        ["season", "close", "--league", "L"],
        ["season", "new", "--league", "L"],
        ["season", "rename", "--league", "L", "--season", "S", "--name", "T"],
        ["rename", "--league", "L", "M"],
        ["restore", "--league", "L"],
    ):
        args = parser.parse_args(["league", *argv, "--db", "somewhere", "--json"])
        assert args.db == "somewhere" and args.json


def test_abandon_delete_and_move_a_game(capsys: pytest.CaptureFixture[str], db: str) -> None:
    club(capsys, db)
    store = Store.open(db)
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    status, out, _ = run(
        capsys, "league", "move", game_id[:6], "--league", "Club", "--by", "Cai", "--db", db, "--json"
    )
    assert status == 0 and out["league"] == Store.open(db).league("Club").id
    status, out, _ = run(capsys, "league", "abandon", game_id, "--why", "late", "--db", db, "--json")
    assert status == 0 and out["status"] == "abandoned"
    status, _, err = run(capsys, "league", "abandon", game_id, "--db", db)
    assert status == 2 and "resume it" in err
    assert run(capsys, "league", "abandon", game_id, "--undo", "--db", db, "--json")[1]["status"] == "active"
    assert run(capsys, "league", "delete", game_id, "--db", db, "--json")[1]["status"] == "deleted"
    assert run(capsys, "league", "list", "--db", db, "--json")[1][0]["games"] == 0
    assert run(capsys, "league", "delete", game_id, "--undo", "--db", db, "--json")[1]["status"] == "active"
    events = run(capsys, "league", "log", game_id, "--db", db, "--json")[1]["events"]
    assert [(e["action"], e["why"]) for e in events] == [
        ("started", None),
        ("moved", None),
        ("abandoned", "late"),
        ("resumed", None),
        ("deleted", None),
        ("undeleted", None),
    ]
    assert events[1]["by"] == "Cai" and events[2]["by"]  # the login name when --by is not given


def test_verify_of_a_commit_lost_in_both_copies_does_not_promise_restore_mends_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scorer.league.log import COPY_NAME, LOG_NAME

    store = Store.open(tmp_path)
    store.create_league("Club")
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club")
    store.add_deal(game.id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}})
    lines = (tmp_path / LOG_NAME).read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1][:30] + b"#" + lines[-1][31:]
    for name in (LOG_NAME, COPY_NAME):
        (tmp_path / name).write_bytes(b"".join(lines))
    status, out, err = run(capsys, "league", "verify", "--db", str(tmp_path))
    assert status == 1
    assert "cannot mend this" in out + err and "makes them again" not in out + err
