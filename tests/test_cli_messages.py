"""The command line's messages: codes beside the English in --json, and Finnish on request.

docs/cli.md: ``--json`` errors print ``{"error", "code", "params"}`` on stdout (and the line
on stderr as before), verdicts carry ``reason_code`` and ``reason_params`` beside ``reason``;
``--lang fi``, ``RUMMY_LANG`` or the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) choose
Finnish for the answers, the errors, the tables and the help of the referee commands.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG", "RUMMY_LANG")


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the machine's locale, each test sets the language it means."""
    for name in LOCALE:
        monkeypatch.delenv(name, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


def test_a_verdict_in_json_carries_its_code_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "layoff", "--rules", "gin", "--meld", "5H 6H 7H", "9H", "--json")
    assert status == 1
    assert out["reason"] == "cannot lay off 9H on 5H 6H 7H: not consecutive: 8H missing"
    assert out["reason_code"] == "meld.layoff_fails"
    assert out["reason_params"] == {
        "cards": "9H",
        "meld": "5H 6H 7H",
        "why": {"code": "meld.gap", "params": {"cards": "8H"}},
    }
    status, out, _ = run(capsys, "layoff", "--rules", "gin", "--meld", "5H 6H 7H", "8H", "--json")
    assert status == 0 and out["reason"] is None and out["reason_code"] is None


@pytest.mark.parametrize(
    "argv",
    [
        ["knock", "--rules", "gin", "--knocker", "7H 8H 9H", "--defender", "2C", "--json"],
        ["opening", "--melds", "9H TH JH | 4S 4D 4C", "--json"],
        ["table", "--before", "4H 5H 6H 7H", "--from-hand", "", "--after", "4H 5H 6H 7H", "--json"],
        ["check", "--rules", "gin", "QH KH AH", "--json"],
    ],
)
def test_every_referee_verdict_or_error_has_a_code(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, _ = run(capsys, *argv)
    if status == 2:
        assert out["code"] and out["error"]
    else:
        assert status == 1 and out["reason"] and out["reason_code"]


def test_an_error_in_json_is_its_english_code_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "--rules", "gin", "5H XQ", "--json")
    assert status == 2
    assert err == "rummy check: invalid card 'XQ' at position 2: rank must be one of A 2-10 T J Q K\n"
    assert out == {
        "error": "invalid card 'XQ' at position 2: rank must be one of A 2-10 T J Q K",
        "code": "card.bad_card",
        "params": {"token": "'XQ'", "position": 2, "why": {"code": "card.rank_help", "params": {}}},
    }


def test_an_error_without_json_prints_nothing_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "--rules", "gin", "5H XQ")
    assert (status, out) == (2, "") and "invalid card 'XQ'" in err


def test_score_json_gives_each_events_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", str(EXAMPLES / "gin.json"), "--json")
    assert status == 0
    deal = out["deals"][0]
    assert len(deal["event_messages"]) == len(deal["events"])
    assert all(m["code"].startswith("event.") for d in out["deals"] for m in d["event_messages"])


def test_lang_fi_answers_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = run(capsys, "--lang", "fi", "check", "--rules", "gin", "QH KH AH")
    assert (status, text) == (1, "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)\n")
    status, text, _ = run(capsys, "check", "--rules", "rommi", "5H 6H *", "--lang=fi")
    assert status == 0 and text.startswith("sallittu suora: ") and "jokeri 1 voi olla 4H 7H" in text
    status, text, _ = run(capsys, "arrange", "--lang", "fi", "--rules", "gin", "5H 6H 7H KC")
    assert text == "yhdistelmät: 5H 6H 7H\nirtokortit: KC\nirtokorttien pisteet: 10\n"


def test_errors_and_usage_errors_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "--lang", "fi", "check", "--rules", "gin", "5H XQ")
    assert status == 2
    assert err == "rummy check: virheellinen kortti 'XQ' kohdassa 2: arvo on yksi näistä: A 2-10 T J Q K\n"
    with pytest.raises(SystemExit) as exit_info:
        main(["--lang", "fi", "chek"])
    assert exit_info.value.code == 2
    assert "tuntematon komento 'chek' (tarkoititko 'check'?)" in capsys.readouterr().err


def test_the_json_stays_english_whatever_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = run(capsys, "--lang", "fi", "check", "--rules", "gin", "QH KH AH", "--json")
    assert out["reason"] == "not a run: QH KH AH (aces are low in gin rummy)" and err == ""


def test_the_score_table_has_finnish_headings(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = run(capsys, "--lang", "fi", "score", str(EXAMPLES / "rommi.json"))
    lines = text.splitlines()
    assert status == 0 and lines[0].startswith("jako ") and lines[0].endswith("mitä tapahtui")
    assert any(line.startswith("yhteensä ") for line in lines)


@pytest.mark.parametrize(
    ("name", "value"),
    [("RUMMY_LANG", "fi"), ("LANG", "fi_FI.UTF-8"), ("LC_MESSAGES", "fi_FI"), ("LC_ALL", "fi_FI.UTF-8")],
)
def test_the_environment_chooses_finnish(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    _, text, _ = run(capsys, "table", "--before", "", "--from-hand", "5H 6H 7H", "--after", "5H 6H 7H")
    assert text == "sallittu järjestely\n"


def test_lang_wins_over_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMY_LANG", "fi")
    _, text, _ = run(
        capsys, "--lang", "en", "table", "--before", "", "--from-hand", "5H 6H 7H", "--after", "5H 6H 7H"
    )
    assert text == "legal rearrangement\n"


def test_help_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "fi", "knock", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("käyttö: rummy knock")
    assert "valitsimet:" in text and "näytä tämä ohje ja lopeta" in text
    assert "puolustajan 10 korttia" in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Rules referee and score keeper" in capsys.readouterr().out


def test_an_unknown_language_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--lang", "sv", "rulesets"])
    assert exit_info.value.code == 2
    assert "unknown value for --lang 'sv'; one of en, fi" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rulesets", "--lang"])
    assert "--lang needs a value" in capsys.readouterr().err


def test_a_usage_error_with_json_is_an_error_document_too(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--json"])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == "rummy check: missing CARDS (see 'rummy check --help')\n"
    assert json.loads(captured.out) == {
        "error": "missing CARDS",
        "code": "cli.usage_missing",
        "params": {"names": ["CARDS"]},
    }


def test_every_league_action_and_repair_has_a_word_in_both_languages() -> None:
    from typing import get_args

    from scorer.league.records import EventAction, action_word
    from scorer.messages import LANGUAGES, Word, catalog

    actions = [
        *(action_word(a) for a in get_args(EventAction)),
        "restored",  # a file mended from its other copy (recovery's repairs)
        "rebuilt",
        "checked",
        "recovered",
        "lost",
        "dropped",
        "set aside",
    ]
    for language in LANGUAGES:
        missing = [a for a in actions if Word(a).key not in catalog(language)]
        assert missing == [], (language, missing)


def test_the_league_commands_speak_finnish(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "db")
    status, text, _ = run(capsys, "league", "create", "Kerho", "--season", "2026", "--db", db, "--lang", "fi")
    assert status == 0 and text.startswith("liiga Kerho luotu (kausi 2026): ")
    status, text, _ = run(
        capsys, "league", "import", "--league", "Kerho", str(EXAMPLES / "gin.json"), "--db", db
    )
    assert status == 0 and text.startswith("1 games added, 0 unchanged")  # English without --lang
    status, text, _ = run(capsys, "--lang", "fi", "league", "standings", "--league", "Kerho", "--db", db)
    assert status == 0 and text.splitlines()[0].split()[:3] == ["pelaaja", "pelit", "voitot"]
    status, text, _ = run(capsys, "--lang", "fi", "league", "verify", "--db", db)
    assert (status, text) == (0, "varasto on ehjä: lokin kummassakin kopiossa on jokainen muutos ehjänä\n")
    status, _, err = run(capsys, "--lang", "fi", "league", "standings", "--league", "Lauantai", "--db", db)
    assert status == 2 and err.startswith("rummy league: liigaa nimeltä 'Lauantai' ei ole (liigat: Kerho)")


def test_league_help_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "fi", "league", "verify", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("käyttö: rummy league verify") and "liigan kansio" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--rules", "gin", "5H 6H 7H", "--json"],
        ["knock", "--knocker", "7H", "--defender", "8H", "--upcard", "AS"],
        ["table", "--before", "", "--from-hand", "5H", "--after", "5H", "--first"],
        ["league", "standings", "--league", "Club", "--season", "2026"],
        ["app", "--port", "9000"],
        ["rulesets", "--options", "gin"],
    ],
)
def test_the_parser_built_for_one_command_reads_it_as_the_whole_parser_does(argv: list[str]) -> None:
    from scorer.cli import _command, build_parser

    assert vars(build_parser(only=_command(argv)).parse_args(argv)) == vars(build_parser().parse_args(argv))


# -- the rulesets in Finnish: the catalog's words, the app's too (scorer/ruleset_text.py) --------


def test_rulesets_in_finnish_name_and_describe_each_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = run(capsys, "--lang", "fi", "rulesets")
    lines = {line.split()[0]: line for line in text.splitlines()}
    assert status == 0 and len(lines) == 12
    assert lines["gin"].split()[1] == "Ginirommi" and "koputus enintään 10:llä" in lines["gin"]
    assert lines["carousel"].split()[1] == "Karuselli"
    assert lines["basic-rummy"].split()[1] == "Perusrommi"
    assert "Gin rummy" not in text and "Finnish family rummy" not in text


def test_rulesets_json_stays_english_whatever_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    _, english, _ = run(capsys, "rulesets", "--json")
    _, finnish, _ = run(capsys, "--lang", "fi", "rulesets", "--json")
    assert finnish == english
    assert {r["id"]: r["title"] for r in finnish}["gin"] == "Gin rummy"


def test_ruleset_options_in_finnish_give_each_meaning_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = run(capsys, "--lang", "fi", "rulesets", "--options", "gin")
    assert status == 0 and text.startswith("Ginirommi (gin): ")
    line = next(line for line in text.splitlines() if line.startswith("undercut_bonus "))
    assert line.split()[:2] == ["undercut_bonus", "25"]
    assert line.endswith("  Bonus puolustajalle, joka alittaa koputtajan.")
    assert "Bonus for the defender" not in text
    _, out, _ = run(capsys, "--lang", "fi", "rulesets", "--options", "gin", "--json")
    by_name = {o["name"]: o for o in out}
    assert by_name["undercut_bonus"]["meaning"] == "Bonus for the defender who undercuts the knocker."
    assert by_name["undercut_bonus"]["label"] == "Undercut bonus"


@pytest.mark.parametrize("argv", [["--help"], ["-h", "check"], ["--he", "check"], ["--lang", "fi", "-h"]])
def test_the_help_before_a_command_lists_every_command(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """A command's parser is built alone; the help asked before any command lists them all."""
    from scorer.cli import COMMANDS

    with pytest.raises(SystemExit):
        main(argv)
    listed = re.findall(r"^ {4}(\w+) ", capsys.readouterr().out, re.M)
    assert listed == list(COMMANDS)
