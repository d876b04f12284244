"""The rulebook (docs/rules.md) held to the code, so the two cannot drift apart silently.

Every name the rulebook cites in backticks is a ruleset field, a named house rule, a bundled
ruleset id, a ``rummy`` command or a file of the project; every bundled ruleset has its own
section, headed with its name; every field is described somewhere; every value a clause or a
house-rule table gives is the value the bundled ruleset really has; and every named house rule
sets the fields the rulebook says it sets.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorer.cli import build_parser
from scorer.house_rules import BUILT_ON, house_rules_of
from scorer.league.tiebreaks import CRITERIA
from scorer.ruleset import IDENTITY_FIELDS, Ruleset, bundled_ids, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "docs" / "rules.md"

FENCED_BLOCK = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*")
HYPHENATED = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
PROJECT_PATH = re.compile(r"[\w.-]+/[\w./*-]*")
RULESET_LINE = re.compile(r"^Ruleset: `([^`]+)`", re.MULTILINE)
#: A field cited in a clause, and its value: a word, a number or a table (``2: 10, 3: 7``).
CLAUSE_FIELD = re.compile(r"`([a-z][a-z0-9_]*)`\s+(\d+: \d+(?:,\s+\d+: \d+)*|[\w-]+)")
FIELD_SETTING = re.compile(r"`([a-z][a-z0-9_]*)` = ([\w-]+)")


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    body: str

    @property
    def ruleset_id(self) -> str | None:
        found = RULESET_LINE.search(self.body)
        return found.group(1) if found else None


@dataclass(frozen=True, slots=True)
class OptionRow:
    ruleset_id: str
    option: str
    default: str
    meaning: str


def _rulebook() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


def _sections(text: str) -> list[Section]:
    parts = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    return [Section(title=part.split("\n", 1)[0].strip(), body=part.split("\n", 1)[1]) for part in parts]


def _variant_sections() -> list[Section]:
    return [s for s in _sections(_rulebook()) if s.ruleset_id is not None]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_separator(line: str) -> bool:
    return line.startswith("|") and set(line) <= set("|-: ")


def _table_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in ``text`` (not the headers), cells stripped."""
    rows = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        is_row = line.startswith("|")
        is_separator = _is_separator(line)
        below_separator = number >= 1 and lines[number - 1].startswith("|")
        header = is_row and number + 1 < len(lines) and _is_separator(lines[number + 1])
        if is_row and not is_separator and not header and below_separator:
            rows.append(_cells(line))
    return rows


def _option_rows() -> list[OptionRow]:
    rows = []
    for section in _variant_sections():
        assert section.ruleset_id is not None
        tables = section.body.split("### House rules", 1)
        assert len(tables) == 2, f"section {section.title!r} has no house-rules table"
        for cells in _table_rows(tables[1]):
            option = CODE_SPAN.fullmatch(cells[0])
            assert option, f"section {section.title!r}: option cell {cells[0]!r} is not a `name`"
            rows.append(OptionRow(section.ruleset_id, option.group(1), cells[1], cells[2]))
    return rows


def _named_rules() -> dict[str, dict[str, str]]:
    """Named house rules: name -> the field settings the rulebook says it makes."""
    section = next(s for s in _sections(_rulebook()) if s.title == "Named house rules")
    named = {}
    for cells in _table_rows(section.body):
        name = CODE_SPAN.fullmatch(cells[0])
        assert name, f"named house rule {cells[0]!r} is not a `name`"
        named[name.group(1)] = dict(FIELD_SETTING.findall(cells[1]))
    return named


def _as_written(value: object) -> str:
    """A ruleset value as the rulebook (and ``--option``) writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ", ".join(f"{key}: {item}" for key, item in value.items())
    return str(value)


def _commands() -> set[str]:
    """The ``rummy`` subcommands (argparse keeps them only in its private action list)."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    raise AssertionError("the rummy parser has no commands")


def test_every_bundled_ruleset_has_its_own_section() -> None:
    cited = [s.ruleset_id or "" for s in _variant_sections()]
    assert sorted(cited) == sorted(bundled_ids()), "each bundled ruleset needs exactly one ## section"


def test_variant_heading_is_the_ruleset_name_as_a_heading_shows_it() -> None:
    for section in _variant_sections():
        assert section.ruleset_id is not None
        name = load_ruleset(section.ruleset_id).name
        assert section.title == name[:1].upper() + name[1:]


def test_headings_are_regular() -> None:
    """One title, one ## per variant (and a few general ones), ### only for house rules."""
    headings = re.findall(r"^(#+) (.+)$", FENCED_BLOCK.sub("", _rulebook()), flags=re.MULTILINE)
    assert [level for level, _ in headings].count("#") == 1
    assert {title for level, title in headings if level == "###"} == {"House rules"}
    assert {level for level, _ in headings} == {"#", "##", "###"}
    titles = [title for level, title in headings if level == "##"]
    assert len(titles) == len(set(titles))
    for section in _sections(_rulebook()):
        assert ("### House rules" in section.body) == (section.ruleset_id is not None), section.title


def _unknown(span: str, *, names: set[str], ids: set[str], commands: set[str]) -> str | None:
    """What is wrong with a name cited in backticks, or None; cards and values pass unchecked."""
    if span == "rummy" or span.startswith("rummy "):
        command = span.split()[1] if " " in span else "rummy"
        return None if command in commands | {"rummy"} else f"command {span!r}"
    if PROJECT_PATH.fullmatch(span):
        return None if list(ROOT.glob(span)) else f"file {span!r}"
    if HYPHENATED.fullmatch(span):
        return None if span in ids else f"ruleset id {span!r}"
    if IDENTIFIER.fullmatch(span):
        return None if span in names | ids else f"field {span!r}"
    return None


def test_every_name_in_backticks_is_known() -> None:
    """Fields, named rules, ruleset ids, commands and files: a typo or a renamed field fails.
    A club night's tie-breaks (scorer/league/tiebreaks.py), its settings (the night's record),
    the standings' ``tiebreak`` field, a game's events and its file's ``replacements`` are
    names of the code too."""
    from dataclasses import fields

    from scorer.game import Game
    from scorer.league.documents import NightDoc
    from scorer.league.records import EVENT_ACTIONS

    names = set(Ruleset.model_fields) | set(_named_rules()) | set(CRITERIA) | {"tiebreak"}
    names |= set(NightDoc.model_fields) | set(EVENT_ACTIONS) | {f.name for f in fields(Game)}
    ids, commands = set(bundled_ids()) | set(CRITERIA), _commands()
    spans = CODE_SPAN.findall(FENCED_BLOCK.sub("", _rulebook()))
    unknown = [u for s in spans if (u := _unknown(s, names=names, ids=ids, commands=commands))]
    assert not unknown, "the rulebook cites names the code does not have: " + ", ".join(unknown)


def test_the_name_check_catches_typos() -> None:
    names, ids, commands = set(Ruleset.model_fields), set(bundled_ids()), _commands()
    assert _unknown("undercut_bonsu", names=names, ids=ids, commands=commands) == "field 'undercut_bonsu'"
    assert _unknown("oklahoma-gni", names=names, ids=ids, commands=commands) == "ruleset id 'oklahoma-gni'"
    assert _unknown("rummy chekc CARDS", names=names, ids=ids, commands=commands)
    assert _unknown("docs/nothing.md", names=names, ids=ids, commands=commands)
    assert _unknown("docs/nowhere/", names=names, ids=ids, commands=commands)
    fine_spans = (
        "undercut_bonus",
        "gin",
        "oklahoma-gin",
        "rummy check CARDS",
        "docs/cli.md",
        "rulesets/",
        "*=6H",
    )
    for fine in fine_spans:
        assert _unknown(fine, names=names, ids=ids, commands=commands) is None, fine


def test_every_ruleset_field_is_in_the_rulebook() -> None:
    cited = set(CODE_SPAN.findall(_rulebook()))
    missing = sorted(set(Ruleset.model_fields) - IDENTITY_FIELDS - cited)
    assert not missing, f"fields the rulebook does not describe: {', '.join(missing)}"


def test_every_variant_clause_cites_its_source() -> None:
    for section in _variant_sections():
        rules = section.body.split("### House rules", 1)[0]
        assert re.search(r"^Ruleset: `[^`]+`.*Sources?:", rules, flags=re.MULTILINE | re.DOTALL)
        for clause in re.split(r"^- ", rules, flags=re.MULTILINE)[1:]:
            if clause.startswith("**Everything as in"):
                continue
            assert "*Source:*" in clause, f"{section.title}: clause without a source: {clause[:60]!r}"


def _clause_values() -> list[tuple[str, str, str]]:
    """(ruleset id, field, value as written) for every field a variant clause cites."""
    cited: list[tuple[str, str, str]] = []
    for section in _variant_sections():
        assert section.ruleset_id is not None
        rules = section.body.split("### House rules", 1)[0]
        for fields in re.findall(r"\*Fields:\*(.*?)\*Source:\*", rules, flags=re.DOTALL):
            valued = CLAUSE_FIELD.findall(fields)
            cited.extend((section.ruleset_id, field, value) for field, value in valued)
            bare = set(CODE_SPAN.findall(fields)) - {field for field, _ in valued}
            assert not bare, f"{section.title}: fields cited without their value: {sorted(bare)}"
    return cited


def _value_cases() -> list[object]:
    rows = [(r.ruleset_id, r.option, r.default) for r in _option_rows() if r.option in Ruleset.model_fields]
    cases: list[object] = []
    for ruleset_id, field, written in dict.fromkeys([*rows, *_clause_values()]):
        cases.append(pytest.param(ruleset_id, field, written, id=f"{ruleset_id}-{field}"))
    return cases


@pytest.mark.parametrize(("ruleset_id", "field", "written"), _value_cases())
def test_values_in_the_rulebook_are_the_bundled_values(ruleset_id: str, field: str, written: str) -> None:
    """Clauses and house-rule tables give the value the bundled ruleset has."""
    assert written == _as_written(getattr(load_ruleset(ruleset_id), field))


def test_house_rule_tables_name_only_fields_and_named_rules() -> None:
    known = set(Ruleset.model_fields) - IDENTITY_FIELDS | set(_named_rules())
    assert {row.option for row in _option_rows()} <= known


def _named_cases() -> list[object]:
    cases: list[object] = []
    for row in _option_rows():
        if row.option in Ruleset.model_fields:
            continue
        cases.append(pytest.param(row, id=f"{row.ruleset_id}-{row.option}"))
    return cases


@pytest.mark.parametrize("row", _named_cases())
def test_named_house_rule_sets_every_field_it_names(row: OptionRow) -> None:
    settings = _named_rules()[row.option]
    assert settings, f"the rulebook does not say what {row.option} sets"
    plain = load_ruleset(row.ruleset_id)
    named = load_ruleset(row.ruleset_id, options={row.option: "true"})
    assert row.default == "false"
    for field, value in settings.items():
        assert _as_written(getattr(named, field)) == value
        assert f"`{field}` = {value}" in row.meaning
    assert named.model_dump(exclude=set(settings)) == plain.model_dump(exclude=set(settings))


def test_readme_points_at_the_rulebook() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme
    assert "RULES.md" not in readme


ALSO_APPLIES = re.compile(r"^Every house rule of (.+?) applies here too", re.MULTILINE)


def _offered_by_the_rulebook() -> dict[str, list[str]]:
    """Each variant's house rules as its section lists them: its own table, then every house
    rule of the variant it names ("Every house rule of rommi applies here too")."""
    by_title = {load_ruleset(s.ruleset_id).name: s.ruleset_id for s in _variant_sections() if s.ruleset_id}
    own: dict[str, list[str]] = {}
    for row in _option_rows():
        own.setdefault(row.ruleset_id, []).append(row.option)
    based: dict[str, str] = {}
    for section in _variant_sections():
        assert section.ruleset_id is not None
        found = ALSO_APPLIES.search(section.body)
        if found:
            based[section.ruleset_id] = by_title[found.group(1)]

    def offered(ruleset_id: str) -> list[str]:
        base = based.get(ruleset_id)
        return list(dict.fromkeys([*own[ruleset_id], *(offered(base) if base else [])]))

    return {ruleset_id: offered(ruleset_id) for ruleset_id in own}


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_each_variant_offers_the_house_rules_its_table_lists(ruleset_id: str) -> None:
    """A new game offers a variant's house rules (scorer.house_rules.house_rules_of): exactly
    those the rulebook lists for it, in its order, nothing from another variant's table."""
    assert list(house_rules_of(ruleset_id)) == _offered_by_the_rulebook()[ruleset_id]


def test_a_variant_is_built_on_the_variant_its_file_names() -> None:
    import tomllib

    bases = {}
    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        base = tomllib.loads(path.read_text(encoding="utf-8")).get("base")
        if base:
            bases[path.stem] = base
    assert dict(BUILT_ON) == bases
