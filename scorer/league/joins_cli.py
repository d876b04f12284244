"""``rummy league conflict GAME``: a game changed here and on another device apart, shown and
settled from the command line by the three choices of :mod:`scorer.league.joins`.

Without ``--keep`` it lists what the other device recorded (the facts a sync held back) and
changes nothing; ``--keep theirs|mine-next|replace`` (with ``--why`` for a replacement) makes
the choice, after which the next ``rummy league sync`` brings every store to the same game.
docs/cli.md has the ``--json`` of each.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from scorer.league.cli_kit import DONE, Result, _by, _common, _say, _store
from scorer.league.joins import CHOICES
from scorer.names import printable


def cmd_conflict(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    if args.keep is None:
        held = store.held_facts(game_id)
        rows = [
            {
                "kind": f.kind,
                "number": getattr(f.data, "number", None),
                "deal": getattr(f.data, "deal", None),
                "by": f.by,
                "at": f.at,
            }
            for f in held
        ]
        if not rows:
            return {"game": game_id, "theirs": []}, _say(args, "league.conflict_none", game=game_id), DONE
        lines = [_say(args, "league.conflict_theirs", game=game_id, count=len(rows))]
        for fact in held:
            number = getattr(fact.data, "number", None)
            what = f"{fact.kind} {number}" if number is not None else fact.kind
            who = f" ({printable(fact.by)})" if fact.by else ""
            lines.append(f"  {printable(fact.at[:16].replace('T', ' '))} UTC  {what}{who}")
        lines.append(_say(args, "league.conflict_choose", choices=", ".join(CHOICES)))
        return {"game": game_id, "theirs": rows}, "\n".join(lines), DONE
    settled = store.settle_conflict(game_id, args.keep, why=args.why, by=_by(args))
    deals = len(settled.document.get("deals") or [])
    data: dict[str, Any] = {"game": game_id, "keep": args.keep.strip().lower(), "deals": deals}
    return data, _say(args, "league.conflict_settled", game=game_id, deals=deals), DONE


def register(sub: Any, say: Callable[[str], str]) -> None:
    """Add ``rummy league conflict`` to ``rummy league``'s subcommands."""
    parser = sub.add_parser("conflict", help=say("league.help_conflict"))
    _common(parser, say, league=False)
    parser.add_argument("game", metavar="GAME", help=say("league.help_game"))
    parser.add_argument("--keep", metavar="CHOICE", help=say("league.help_conflict_keep"))
    parser.add_argument("--why", metavar="TEXT", help=say("league.help_conflict_why"))
    parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
    parser.set_defaults(run=cmd_conflict)
