"""``rummy league qr`` / ``scan`` (issue 28): PNG files written, read back by zxing-cpp and
merged on another store with identical reads; refusals in one line, nothing merged; and the
share file (``rummy league export --game``) that imports with identical reads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import segno
from store_reads import differences, public_reads
from sync_kit import play

from scorer.cli import main
from scorer.league.handoff import Collector, Part
from scorer.league.handoff_cli import read_codes
from scorer.league.store import Store

PLAYERS = ["Anna", "Bea", "Cid"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def game_reads(store: Store, game: str) -> object:
    """Every read of one game, and of the players and standings it makes."""
    return (
        store.game(game).document,
        store.game(game).finished,
        store.events(game),
        [(g.id, g.status) for g in store.games(deleted=True) if g.id == game],
        sorted((p.id, p.name) for p in store.players()),
        store.standings("Club"),
    )


@pytest.fixture()
def phone(tmp_path: Path) -> tuple[Path, str]:
    """A phone's store whose league has one game of 25 deals (some codes' worth); its game."""
    store = Store.open(tmp_path / "phone")
    store.create_league("Club")
    game = play(store, "Club", PLAYERS, 25, seed=2)
    return tmp_path / "phone", game


def laptop(tmp_path: Path) -> Path:
    Store.open(tmp_path / "laptop").create_league("Club")
    return tmp_path / "laptop"


def test_qr_writes_pngs_that_scan_reads_and_merges_with_identical_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], phone: tuple[Path, str]
) -> None:
    db, game = phone
    status, out, err = run(
        capsys, "league", "qr", game[:6], "--db", str(db), "--out", str(tmp_path / "codes"), "--json"
    )
    assert status == 0 and err == ""
    assert set(out) == {"game", "facts", "codes", "files"} and out["game"] == game
    files = [Path(f) for f in out["files"]]
    assert out["codes"] == len(files) > 1
    assert [f.name for f in files] == [
        f"{game}-{i:02d}-of-{len(files):02d}.png" for i in range(1, len(files) + 1)
    ]
    document = Store.open(db).export_facts("Club", game=game)
    collector = Collector()
    for path in files:  # a real decode of every picture
        codes = read_codes(path)
        assert len(codes) == 1
        collector.add(codes[0])
    document["exported"] = collector.document()["exported"]
    assert collector.document() == document
    other = laptop(tmp_path)
    assert only_the_league_differs(Store.open(db), Store.open(other)) != []  # the check checks
    shuffled = [str(f) for f in reversed(files)] + [str(files[0])]  # any order, a repeat
    status, out, err = run(
        capsys, "league", "scan", "--league", "Club", "--db", str(other), *shuffled, "--json"
    )
    assert status == 0 and err == ""
    assert out["handoff"] == collector.handoff and out["codes"] == len(files)
    assert (out["games_added"], out["deals_added"], out["players_added"], out["conflicts"]) == (1, 25, 3, [])
    assert game_reads(Store.open(other), game) == game_reads(Store.open(db), game)
    assert only_the_league_differs(Store.open(db), Store.open(other)) == []
    # scanned again: nothing applied twice
    status, text, _ = run(capsys, "league", "scan", "--league", "Club", "--db", str(other), *shuffled)
    assert status == 0
    assert text.splitlines()[0] == f"hand-off {collector.handoff}: {len(files)} codes read"
    assert text.splitlines()[1] == "0 games added, 0 unchanged, 0 deals added, 0 new players"
    assert game_reads(Store.open(other), game) == game_reads(Store.open(db), game)
    status, text, _ = run(capsys, "league", "qr", game, "--db", str(db), "--out", str(tmp_path / "again"))
    assert (status, text.strip()) == (0, f"{len(files)} codes of game {game} written to {tmp_path / 'again'}")


def only_the_league_differs(phone: Store, laptop: Store) -> list[str]:
    """Every public read of the two stores (tests/store_reads.py) that differs other than by the
    league itself: each store's league and season are its own (their ids, their creation),
    so those, and only those, may differ; ``[]`` when nothing else does."""
    league = phone.league("Club")
    ids = {league.id, *(s.id for s in league.seasons)}
    found = differences(public_reads(phone), public_reads(laptop), limit=10_000)
    return [
        d
        for d in found
        if not any(f"expected '{i}'" in d for i in ids) and not re.search(r"\.(created|changed): ", d)
    ]


def blank_png(path: Path) -> Path:
    from PIL import Image

    Image.new("L", (200, 200), 255).save(path)
    return path


@pytest.mark.parametrize("language", ["en", "fi"])
def test_scan_refuses_in_one_line_and_merges_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], phone: tuple[Path, str], language: str
) -> None:
    db, game = phone
    run(capsys, "league", "qr", game, "--db", str(db), "--out", str(tmp_path / "codes"))
    files = sorted((tmp_path / "codes").glob("*.png"))
    second = play(Store.open(db), "Club", PLAYERS, 2)
    run(capsys, "league", "qr", second, "--db", str(db), "--out", str(tmp_path / "second"))
    foreign = sorted((tmp_path / "second").glob("*.png"))[0]
    blank = blank_png(tmp_path / "blank.png")
    other = laptop(tmp_path)
    before = Store.open(other).export_facts("Club")["facts"]
    handoff = Part.parse(read_codes(files[0])[0]).handoff
    foreign_id = Part.parse(read_codes(foreign)[0]).handoff
    damaged = tmp_path / "damaged.png"
    raw = read_codes(files[0])[0]
    segno.make(raw[:-1] + bytes([raw[-1] ^ 1]), error="m", micro=False).save(str(damaged), scale=4)
    cases = [
        (
            [*files, damaged],
            "handoff.damaged",
            {"en": f"'{damaged}': a damaged code", "fi": "vaurioitunut koodi"},
        ),
        (
            [blank, *files],
            "handoff.no_code",
            {"en": f"'{blank}': no code found", "fi": f"'{blank}': kuvasta ei"},
        ),
        (
            [*files, foreign],
            "handoff.mixed",
            {
                "en": f"a code of hand-off {foreign_id}, not of {handoff}",
                "fi": f"luovutuksen {foreign_id} koodi",
            },
        ),
        (files[1:], "handoff.incomplete", {"en": "parts 1 of", "fi": "osat 1/"}),
        ([tmp_path / "nothing.png"], "handoff.unreadable", {"en": "not a picture", "fi": "kuvaa ei voi"}),
    ]
    for pictures, code, words in cases:
        argv = [
            "--lang",
            language,
            "league",
            "scan",
            "--league",
            "Club",
            "--db",
            str(other),
            *map(str, pictures),
        ]
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and words[language] in err, err
        status, out, _ = run(capsys, *argv, "--json")
        assert status == 2 and out["code"] == code
    assert Store.open(other).export_facts("Club")["facts"] == before


# -- the share file ---------------------------------------------------------------------------


def test_the_share_file_of_a_game_imports_on_another_store_with_identical_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], phone: tuple[Path, str]
) -> None:
    db, game = phone
    left_out = play(Store.open(db), "Club", PLAYERS, 3, seed=1)  # another game: not in the file
    out = tmp_path / f"{game}.rummy.json"
    status, summary, _ = run(
        capsys,
        "league",
        "export",
        "--league",
        "Club",
        "--db",
        str(db),
        "--game",
        game[:5],
        "--out",
        str(out),
        "--json",
    )
    assert status == 0 and summary["format"] == "facts" and summary["out"] == str(out)
    document = json.loads(out.read_text())
    assert all(f.get("subject") != left_out for f in document["facts"])
    other = laptop(tmp_path)
    status, report, _ = run(
        capsys, "league", "import", "--league", "Club", "--db", str(other), str(out), "--json"
    )
    assert status == 0 and (report["games_added"], report["deals_added"], report["conflicts"]) == (1, 25, [])
    phone_store, laptop_store = Store.open(db), Store.open(other)
    assert [g.id for g in laptop_store.games(deleted=True)] == [game]
    assert (
        game_reads(laptop_store, game)[:5] == game_reads(phone_store, game)[:5]
    )  # standings: one game there
    status, _, err = run(capsys, "league", "export", "--league", "Club", "--db", str(db), "--game", "zzzz")
    assert status == 2 and "no game with id 'zzzz'" in err


def test_the_share_file_of_a_club_night_brings_the_night_and_its_games_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    night = phone.start_night(
        "Club", players=[*PLAYERS, "Dora", "Eeva", "Frans", "Gus", "Hilla"], ruleset="rommi", seed=3
    )
    games = sorted(t.game for r in night.rounds for t in r.tables)
    assert len(games) >= 2
    outside = play(phone, "Club", PLAYERS, 2)
    out = tmp_path / "night.rummy.json"
    status, _, err = run(
        capsys,
        "league",
        "export",
        "--league",
        "Club",
        "--db",
        str(tmp_path / "phone"),
        "--night",
        night.id[:8],
        "--out",
        str(out),
    )
    assert status == 0 and err == ""
    other = laptop(tmp_path)
    status, report, _ = run(
        capsys, "league", "import", "--league", "Club", "--db", str(other), str(out), "--json"
    )
    assert status == 0 and report["nights_added"] == 1 and report["games_added"] == len(games)
    here = Store.open(other)
    assert sorted(g.id for g in here.games(deleted=True)) == games and outside not in games
    assert [n.id for n in here.nights("Club")] == [night.id]
    assert here.night("Club").rounds == Store.open(tmp_path / "phone").night("Club").rounds
    for game in games:
        assert game_reads(here, game)[:4] == game_reads(Store.open(tmp_path / "phone"), game)[:4]
