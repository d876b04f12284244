"""The ``rummy`` command line: the referee and scoring from a terminal.

This interface is a documented contract (docs/cli.md): CARDS is one argument
(``"5H 6H 7H"``), MELDS separates melds with ``|``; ``--json`` prints one JSON
document. Exit status: 0 the answer is legal/valid, 1 it is illegal/invalid,
2 bad input or usage (a message on stderr naming the bad input).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from scorer.cards import Card, format_cards, parse_cards
from scorer.errors import ScorerError
from scorer.gamefile import load_game, result_document
from scorer.knock import referee_knock
from scorer.league.cli import register as league_commands
from scorer.melds import check_layoff, check_meld
from scorer.opening import best_opening, check_opening
from scorer.ruleset import Ruleset, all_rulesets, load_ruleset
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
            raise ScorerError(f"bad --option {pair!r}: write it as KEY=VALUE, e.g. undercut_bonus=10")
        options[key.strip()] = value.strip()
    return options


def _ruleset(args: argparse.Namespace) -> Ruleset:
    if args.rules is None:
        raise ScorerError("--rules ID-or-path is required (see 'rummy rulesets')")
    return load_ruleset(args.rules, options=_options(args.option))


# -- commands ---------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace) -> Result:
    rulesets = all_rulesets()
    data = [{"id": r.id, "name": r.name, "family": r.family, "description": r.description} for r in rulesets]
    width = max(len(r.id) for r in rulesets)
    text = "\n".join(f"{r.id:<{width}}  {r.description}" for r in rulesets)
    return data, text, EXIT_VALID


def cmd_check(args: argparse.Namespace) -> Result:
    rules = _ruleset(args)
    verdict = check_meld(args.cards, rules)
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
    verdict = check_layoff(args.meld, args.cards, rules)
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
    verdict = referee_knock(
        knocker=args.knocker,
        defender=args.defender,
        ruleset=rules,
        melds=args.melds,
        upcard=args.upcard,
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
    if (args.melds is None) == (args.hand is None):
        raise ScorerError("give either --melds MELDS (with optional --layoffs) or --hand CARDS")
    if args.hand is not None:
        if args.layoffs:
            raise ScorerError("--layoffs goes with --melds, not with --hand")
        verdict = best_opening(args.hand, rules)
    else:
        verdict = check_opening(melds=args.melds, layoffs=args.layoffs or "", ruleset=rules)
    data = {
        "valid": verdict.valid,
        "value": verdict.value,
        "required": verdict.required,
        "reason": verdict.reason,
        "melds": _melds(verdict.melds),
        "layoffs": _cards(verdict.layoffs),
    }
    if verdict.valid:
        laid = f" + layoffs {format_cards(verdict.layoffs)}" if verdict.layoffs else ""
        text = f"opening worth {verdict.value} (needs {verdict.required}): {_text_melds(verdict.melds)}{laid}"
    else:
        text = verdict.reason or ""
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
    lines = ["deal  " + "  ".join(f"{p:>{width}}" for p in players) + "  what happened"]
    for record in result.deals:
        cells = "  ".join(f"{record.score.scores[p]:>{width}}" for p in players)
        lines.append(f"{record.number:>4}  {cells}  {'; '.join(record.score.events)}")
    for name, column in enumerate(result.columns, start=1):
        if len(result.columns) > 1:
            state = f"closed, won by {column.winner or 'a tie'}" if column.finished else "open"
            cells = "  ".join(f"{column.totals[p]:>{width}}" for p in players)
            lines.append(f"game {name}  {cells}  {state}")
    for player, named in result.bonuses.items():
        lines.append(f"bonuses for {player}: " + ", ".join(f"{k} {v}" for k, v in named.items()))
    lines.append("total " + "  ".join(f"{result.totals[p]:>{width}}" for p in players))
    if result.finished:
        lines.append(f"game over: {result.winner} wins" if result.winner else "game over: a tie")
    else:
        lines.append(f"game goes on: {result.next_dealer} deals next")
    return data, "\n".join(lines), EXIT_VALID


# -- the parser -------------------------------------------------------------------------


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
    parser = argparse.ArgumentParser(
        prog="rummy",
        description="Rules referee and score keeper for rummy-family card games.",
        epilog="Cards: ranks A 2-10 T J Q K, suits S H D C (or symbols); jokers * JK joker, "
        "a declared joker *=6H. MELDS separates melds with '|'. "
        "Exit status: 0 legal/valid, 1 illegal/invalid, 2 bad input.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sub = commands.add_parser("rulesets", help="list the ruleset ids")
    _common(sub)
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
        "--desktop", action="store_true", help="open a desktop window instead (needs flet-desktop)"
    )
    sub.set_defaults(run=cmd_app, json=False)
    return parser


def cmd_app(args: argparse.Namespace) -> Result:
    # Imported here: the app pulls in Flet, which the referee commands never need.
    from scorer.ui.serve import DEFAULT_HOST, DEFAULT_PORT, serve

    serve(host=args.host or DEFAULT_HOST, port=args.port or DEFAULT_PORT, db=args.db, desktop=args.desktop)
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
