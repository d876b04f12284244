"""The ``rummy`` command line: the referee and scoring from a terminal.

This interface is a documented contract (docs/cli.md): CARDS is one argument
(``"5H 6H 7H"``), MELDS separates melds with ``|``; ``--json`` prints one JSON
document. Exit status: 0 the answer is legal/valid, 1 it is illegal/invalid,
2 bad input or usage (a message on stderr naming the bad input).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from difflib import get_close_matches
from typing import Any, NoReturn

from scorer.cards import Card, Melds, format_cards, parse_cards, parse_melds
from scorer.errors import ScorerError, quote
from scorer.gamefile import load_game, result_document
from scorer.house_rules import option_text
from scorer.knock import referee_knock
from scorer.league.cli import register as league_commands
from scorer.melds import check_layoff, check_meld
from scorer.opening import best_opening, check_opening
from scorer.ruleset import (
    Ruleset,
    all_rulesets,
    load_ruleset,
    require_card_supply,
    require_hand_fits,
    ruleset_options,
)
from scorer.solver import Solver
from scorer.table import check_rearrangement

EXIT_VALID, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2

Result = tuple[Any, str, int]


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _melds(melds: Iterable[Iterable[Card]]) -> list[list[str]]:
    return [_cards(m) for m in melds]


def _text_melds(melds: Iterable[Iterable[Card]]) -> str:
    return " | ".join(format_cards(m) for m in melds) or "none"


def _exit(valid: bool) -> int:
    return EXIT_VALID if valid else EXIT_INVALID


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ScorerError(f"bad --option {quote(pair)}: write it as KEY=VALUE, e.g. undercut_bonus=10")
        options[key.strip()] = value.strip()
    return options


def _ruleset(args: argparse.Namespace) -> Ruleset:
    if args.rules is None:
        raise ScorerError("--rules ID-or-path is required (see 'rummy rulesets')")
    return load_ruleset(args.rules, options=_options(args.option))


def _within(cards: Sequence[Card], rules: Ruleset, *, what: str, meld: bool = False) -> None:
    """Refuse cards no table could hold: more than a hand (or a meld) holds, or more
    copies of a card, or more jokers, than the decks have."""
    require_hand_fits(cards, rules, what=what, meld=meld)
    require_card_supply(cards, rules, where=f"in {what}")


def _one_card(text: str | None, *, what: str) -> Card | None:
    if text is None:
        return None
    cards = parse_cards(text)
    if len(cards) != 1:
        raise ScorerError(f"{what}: {quote(text)} is not one card")
    return cards[0]


def _declared_melds(text: str | None, rules: Ruleset) -> Melds | None:
    if text is None:
        return None
    melds = parse_melds(text)
    _within([c for m in melds for c in m], rules, what="--melds")
    return melds


# -- commands ---------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace) -> Result:
    if args.options is not None:
        return _ruleset_options(load_ruleset(args.options))
    rulesets = all_rulesets()
    data = [
        {"id": r.id, "name": r.name, "title": r.title, "family": r.family, "description": r.description}
        for r in rulesets
    ]
    width, titles = max(len(r.id) for r in rulesets), max(len(r.title) for r in rulesets)
    text = "\n".join(f"{r.id:<{width}}  {r.title:<{titles}}  {r.description}" for r in rulesets)
    return data, text, EXIT_VALID


def _ruleset_options(rules: Ruleset) -> Result:
    options = ruleset_options(rules)
    data = [{"name": o.name, "value": o.value, "meaning": o.meaning, "default": o.default} for o in options]
    names = max(len(o.name) for o in options)
    values = max(len(option_text(o.value)) for o in options)
    lines = [f"{rules.title} ({rules.id}): set an option with --option NAME=VALUE"]
    for o in options:
        changed = f" (default {option_text(o.default)})" if o.value != o.default else ""
        lines.append(f"{o.name:<{names}}  {option_text(o.value):<{values}}  {o.meaning}{changed}")
    return data, "\n".join(lines), EXIT_VALID


def cmd_check(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    cards = parse_cards(args.cards)
    if not cards:
        raise ScorerError("no cards given: CARDS is the meld to check, e.g. '5H 6H 7H'")
    _within(cards, rules, what="CARDS", meld=True)
    verdict = check_meld(cards, rules)
    data = {
        "valid": verdict.valid,
        "kind": verdict.kind,
        "kinds": list(verdict.kinds),
        "reason": verdict.reason,
        "jokers": [_cards(o) for o in verdict.joker_options],
        "meld": _cards(verdict.meld),
    }
    if verdict.valid:
        text = f"legal {' or '.join(verdict.kinds)}: {format_cards(verdict.meld)}"
        for number, options in enumerate(verdict.joker_options, start=1):
            if len(options) > 1:
                text += (
                    f"\njoker {number} can stand for {format_cards(options)}: declare it, e.g. *={options[0]}"
                )
    else:
        text = verdict.reason or ""
    return data, text, _exit(verdict.valid)


def cmd_layoff(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    meld, cards = parse_cards(args.meld), parse_cards(args.cards)
    _within(meld, rules, what="--meld", meld=True)
    _within(cards, rules, what="CARDS")
    require_card_supply([*meld, *cards], rules, where="in --meld and CARDS together")
    verdict = check_layoff(meld, cards, rules)
    data = {
        "valid": verdict.valid,
        "reason": verdict.reason,
        "meld": _cards(verdict.result),
        "freed_jokers": verdict.freed_jokers,
    }
    if verdict.valid:
        text = f"legal layoff: {format_cards(verdict.result)}"
        if verdict.freed_jokers:
            text += f" ({verdict.freed_jokers} joker{'s' * (verdict.freed_jokers > 1)} back to the hand)"
    else:
        text = verdict.reason or ""
    return data, text, _exit(verdict.valid)


def cmd_arrange(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    hand = parse_cards(args.cards)
    _within(hand, rules, what="CARDS")
    solver = Solver(rules)
    discard: Card | None = None
    if args.discard:
        choice = solver.best_discard(hand)
        discard, best = choice.discard, choice.arrangement
    else:
        best = solver.best(hand)
    data = {
        "melds": _melds(best.melds),
        "deadwood": _cards(best.deadwood),
        "deadwood_points": best.deadwood_points,
        "discard": str(discard) if discard else None,
    }
    lines = [f"melds: {_text_melds(best.melds)}", f"deadwood: {format_cards(best.deadwood) or 'none'}"]
    lines.append(f"deadwood points: {best.deadwood_points}")
    if discard:
        lines.insert(0, f"discard: {discard}")
    return data, "\n".join(lines), EXIT_VALID


def cmd_knock(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    spread, held = parse_cards(args.knocker), parse_cards(args.defender)
    _within(spread, rules, what="--knocker")
    _within(held, rules, what="--defender")
    verdict = referee_knock(
        knocker=spread,
        defender=held,
        ruleset=rules,
        melds=_declared_melds(args.melds, rules),
        upcard=_one_card(args.upcard, what="--upcard"),
    )
    knocker, defender = verdict.knocker, verdict.defender
    data = {
        "legal": verdict.legal,
        "reason": verdict.reason,
        "outcome": verdict.outcome,
        "winner": verdict.winner,
        "points": verdict.points,
        "knocker": {
            "melds": _melds(knocker.melds),
            "deadwood": _cards(knocker.deadwood),
            "deadwood_points": knocker.deadwood_points,
        },
        "defender": {
            "melds": _melds(defender.melds),
            "layoffs": [{"meld": lay.meld, "cards": _cards(lay.cards)} for lay in defender.layoffs],
            "deadwood": _cards(defender.deadwood),
            "deadwood_points": defender.deadwood_points,
        },
    }
    if verdict.legal:
        head = f"{(verdict.outcome or '').replace('_', ' ')}: {verdict.winner} scores {verdict.points}"
    else:
        head = f"illegal knock: {verdict.reason}"
    lines = [
        head,
        f"knocker: {_text_melds(knocker.melds)}; deadwood {format_cards(knocker.deadwood) or 'none'}"
        f" ({knocker.deadwood_points})",
        f"defender: {_text_melds(defender.melds)}; deadwood {format_cards(defender.deadwood) or 'none'}"
        f" ({defender.deadwood_points})",
    ]
    for lay in defender.layoffs:
        lines.append(f"  lays off {format_cards(lay.cards)} on {format_cards(knocker.melds[lay.meld])}")
    return data, "\n".join(lines), _exit(verdict.legal)


def cmd_opening(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    if not rules.opening_minimum:
        raise ScorerError(f"Kalooki opening needs a ruleset with an opening minimum; {rules.name} has none")
    if (args.melds is None) == (args.hand is None):
        raise ScorerError("give either --melds MELDS (with optional --layoffs and --onto) or --hand CARDS")
    if args.hand is not None:
        if args.layoffs or args.onto is not None:
            raise ScorerError("--layoffs and --onto go with --melds, not with --hand")
        hand = parse_cards(args.hand)
        _within(hand, rules, what="--hand")
        verdict = best_opening(hand, rules)
    else:
        melds, layoffs = parse_melds(args.melds), parse_cards(args.layoffs or "")
        _within([*(c for m in melds for c in m), *layoffs], rules, what="--melds and --layoffs")
        verdict = check_opening(melds=melds, layoffs=layoffs, onto=args.onto, ruleset=rules)
    data = {
        "valid": verdict.valid,
        "value": verdict.value,
        "required": verdict.required,
        "reason": verdict.reason,
        "melds": _melds(verdict.melds),
        "layoffs": _cards(verdict.layoffs),
        "layoffs_checked": verdict.layoffs_checked,
        "layoff_onto": list(verdict.layoff_onto),
    }
    if verdict.valid:
        laid = f" + layoffs {format_cards(verdict.layoffs)}" if verdict.layoffs else ""
        text = f"opening worth {verdict.value} (needs {verdict.required}): {_text_melds(verdict.melds)}{laid}"
    else:
        text = verdict.reason or ""
    if verdict.layoffs and not verdict.layoffs_checked:
        text += "\nlayoffs not checked: give --onto MELDS (the melds on the table) to check them"
    return data, text, _exit(verdict.valid)


def cmd_table(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    verdict = check_rearrangement(
        before=args.before,
        from_hand=args.from_hand,
        after=args.after,
        ruleset=rules,
        first=args.first,
    )
    data = {"valid": verdict.valid, "reason": verdict.reason}
    text = "legal rearrangement" if verdict.valid else f"illegal rearrangement: {verdict.reason}"
    return data, text, _exit(verdict.valid)


def cmd_score(args: argparse.Namespace) -> Result:
    if args.rules is not None or args.option:
        raise ScorerError("the game file names its ruleset and options; --rules and --option do not apply")
    result = load_game(args.file).result
    data = result_document(result)
    players = list(result.players)
    width = max(6, *(len(p) for p in players))
    games = len(result.columns) > 1
    # Every row's label takes the same width, so the players' columns line up.
    lead = len("game 9  ") if games else len("deal  ")
    lines = ["deal".ljust(lead) + "  ".join(f"{p:>{width}}" for p in players) + "  what happened"]
    for record in result.deals:
        cells = "  ".join(f"{record.score.scores[p]:>{width}}" for p in players)
        lines.append(f"{record.number:>4}".ljust(lead) + f"{cells}  {'; '.join(record.score.events)}")
    for name, column in enumerate(result.columns, start=1):
        if games:
            state = f"closed, won by {column.winner or 'a tie'}" if column.finished else "open"
            cells = "  ".join(f"{column.totals[p]:>{width}}" for p in players)
            lines.append(f"game {name}".ljust(lead) + f"{cells}  {state}")
    for player, named in result.bonuses.items():
        lines.append(f"bonuses for {player}: " + ", ".join(f"{k} {v}" for k, v in named.items()))
    lines.append("total".ljust(lead) + "  ".join(f"{result.totals[p]:>{width}}" for p in players))
    if result.finished:
        lines.append(f"game over: {result.winner} wins" if result.winner else "game over: a tie")
    else:
        lines.append(f"game goes on: {result.next_dealer} deals next")
    return data, "\n".join(lines), EXIT_VALID


# -- the parser -------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse with usage errors in one line of the program's own words (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {_usage_words(message)} (see '{self.prog} --help')\n")


def _usage_words(message: str) -> str:
    """argparse's message rewritten: 'missing CARDS', 'unknown command 'chek' (did you mean ...)'."""
    missing = re.fullmatch(r"the following arguments are required: (.*)", message)
    if missing:
        names = missing.group(1).split(", ")
        return "missing " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    choice = re.fullmatch(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)", message, re.S)
    if choice:
        name, given, known = choice.groups()
        options = [k.strip(" '") for k in known.split(",")]
        close = get_close_matches(given, options, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        kind = "command" if name == "COMMAND" else f"value for {name}"
        return f"unknown {kind} {quote(given)}{hint}; one of {', '.join(options)}"
    unknown = re.fullmatch(r"unrecognized arguments: (.*)", message, re.S)
    if unknown:
        extra = unknown.group(1)
        hint = "" if extra.startswith("-") else ' (CARDS is one argument: quote it, "5H 6H 7H")'
        return f"unknown argument {quote(extra)}{hint}"
    needs = re.fullmatch(r"argument (\S+?)(?:/\S+)?: expected one argument", message)
    if needs:
        return f"{needs.group(1)} needs a value"
    return quote(message, limit=200)[1:-1] if len(message) > 200 else message


def _common(parser: argparse.ArgumentParser, *, default_rules: str | None = None) -> None:
    parser.add_argument(
        "--rules",
        default=default_rules,
        metavar="ID-or-path",
        help="ruleset id (see 'rummy rulesets') or a path to a ruleset TOML file"
        + (f" (default {default_rules})" if default_rules else ""),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="house-rule option overriding a ruleset field, e.g. undercut_bonus=10 (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="rummy",
        description="Rules referee and score keeper for rummy-family card games.",
        epilog="Cards: ranks A 2-10 T J Q K, suits S H D C (or symbols); jokers * JK joker, "
        "a declared joker *=6H. MELDS separates melds with '|'. "
        "Exit status: 0 legal/valid, 1 illegal/invalid, 2 bad input.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    # No abbreviations here: '--option' must not be read as '--options'.
    sub = commands.add_parser(
        "rulesets", help="list the ruleset ids, or one ruleset's options", allow_abbrev=False
    )
    sub.add_argument(
        "--options",
        metavar="ID-or-path",
        help="list every option of this ruleset with its value and meaning",
    )
    sub.add_argument("--json", action="store_true", help="print one JSON document")
    sub.set_defaults(run=cmd_rulesets)

    sub = commands.add_parser("check", help="is CARDS one legal meld?")
    _common(sub)
    sub.add_argument("cards", metavar="CARDS")
    sub.set_defaults(run=cmd_check)

    sub = commands.add_parser("layoff", help="can CARDS be laid off on --meld?")
    _common(sub)
    sub.add_argument("--meld", required=True, metavar="CARDS", help="the meld on the table")
    sub.add_argument("cards", metavar="CARDS")
    sub.set_defaults(run=cmd_layoff)

    sub = commands.add_parser("arrange", help="the melds that leave the least deadwood")
    _common(sub)
    sub.add_argument("--discard", action="store_true", help="first choose the best card to discard")
    sub.add_argument("cards", metavar="CARDS")
    sub.set_defaults(run=cmd_arrange)

    sub = commands.add_parser("knock", help="referee a gin knock")
    _common(sub)
    sub.add_argument("--knocker", required=True, metavar="CARDS", help="the 10 spread cards (11: big gin)")
    sub.add_argument("--defender", required=True, metavar="CARDS", help="the defender's 10 cards")
    sub.add_argument("--melds", metavar="MELDS", help="the knocker's declared melds (default: best)")
    sub.add_argument("--upcard", metavar="CARD", help="the first upcard (Oklahoma gin)")
    sub.set_defaults(run=cmd_knock)

    sub = commands.add_parser("opening", help="is this a legal opening (Kalooki 51)?")
    _common(sub, default_rules="kalooki")
    sub.add_argument("--melds", metavar="MELDS", help="the melds of the opening")
    sub.add_argument("--layoffs", metavar="CARDS", help="cards laid off on others' melds in that turn")
    sub.add_argument(
        "--onto",
        metavar="MELDS",
        help="the other players' melds on the table: check the layoffs against them",
    )
    sub.add_argument("--hand", metavar="CARDS", help="could this hand open? (best opening)")
    sub.set_defaults(run=cmd_opening)

    sub = commands.add_parser("table", help="is this table rearrangement legal (Carousel)?")
    _common(sub, default_rules="carousel")
    sub.add_argument("--before", required=True, metavar="MELDS", help="the table before ('' if empty)")
    sub.add_argument("--from-hand", required=True, metavar="CARDS", help="cards put down from the hand")
    sub.add_argument("--after", required=True, metavar="MELDS", help="the table after")
    sub.add_argument("--first", action="store_true", help="this is the player's first meld")
    sub.set_defaults(run=cmd_table)

    sub = commands.add_parser("score", help="score a game file (docs/game-format.md)")
    _common(sub)
    sub.add_argument("file", metavar="FILE", help="a game file (JSON)")
    sub.set_defaults(run=cmd_score)

    league_commands(commands)

    sub = commands.add_parser("app", help="serve the app to a web browser (or a desktop window)")
    sub.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    sub.add_argument("--port", type=int, default=None, help="port to listen on (default 8550)")
    sub.add_argument("--db", metavar="PATH", help="the league store's folder (default $RUMMY_DB or per-user)")
    sub.add_argument(
        "--code",
        help="the access code the phones need beyond loopback (default: a new random one; none on loopback)",
    )
    sub.add_argument(
        "--desktop", action="store_true", help="open a desktop window instead (needs flet-desktop)"
    )
    sub.set_defaults(run=cmd_app, json=False)
    return parser


def cmd_app(args: argparse.Namespace) -> Result:
    # Imported here: the app pulls in Flet, which the referee commands never need.
    from scorer.ui.serve import DEFAULT_HOST, DEFAULT_PORT, serve

    serve(
        host=args.host or DEFAULT_HOST,
        port=args.port or DEFAULT_PORT,
        db=args.db,
        code=args.code,
        desktop=args.desktop,
    )
    return None, "", EXIT_VALID


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], Result] = args.run
    try:
        data, text, status = run(args)
    except (ScorerError, ValueError) as exc:
        print(f"rummy {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
