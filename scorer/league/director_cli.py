"""``rummy league night call|calls|answer|penalise|lift|penalties|replace``: the director of a club
night from a terminal (docs/cli.md, "Club night"; :mod:`scorer.league.director`).

``call`` is a table calling the director (a rules question, a dispute, a penalty), ``calls``
lists the night's calls newest first (open and answered), ``answer`` answers one with a note;
``penalise`` gives a player of a table penalty points with the reason, ``lift`` takes one back,
``penalties`` lists those given tonight; ``replace`` seats a player in a table's seat mid-game
(docs/rules.md, "Replacements"). A refusal exits 2 with one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from scorer.league.cli_kit import DONE, Result, _by, _common, _say, _store
from scorer.league.director import Call
from scorer.names import printable


def _time(at: str) -> str:
    return printable(at[:19].replace("T", " "))


def _reason(args: argparse.Namespace, call: Call) -> str:
    return _say(args, f"director.reason_{call.reason}")


def _game(args: argparse.Namespace) -> str:
    return _store(args).table_game(args.league, args.table, night=args.night, round=args.round)


def call_lines(args: argparse.Namespace, call: Call) -> list[str]:
    """A call as ``calls`` prints it: its line, then its answer or that it waits."""
    note = f": {printable(call.note)}" if call.note else ""
    by = call.by or _say(args, "director.nobody")
    lines = [
        _say(
            args,
            "director.call_line",
            id=call.id[:8],
            time=_time(call.at),
            table=call.table,
            round=call.round,
            reason=_reason(args, call),
            note=note,
            by=printable(by),
        )
    ]
    if call.answered is None:
        lines.append(_say(args, "director.call_waiting"))
    else:
        answer = call.answer or "-"
        who = call.answered_by or _say(args, "director.nobody")
        lines.append(
            _say(
                args,
                "director.call_answered",
                time=_time(call.answered),
                by=printable(who),
                answer=printable(answer),
            )
        )
    return lines


def cmd_call(args: argparse.Namespace) -> Result:
    store = _store(args)
    call = store.call_director(_game(args), args.reason, args.note, by=_by(args))
    text = _say(args, "director.called", table=call.table, reason=_reason(args, call), id=call.id[:8])
    return call.to_json(), text, DONE


def cmd_calls(args: argparse.Namespace) -> Result:
    calls = _store(args).calls(args.league, args.night)
    lines = [line for call in calls for line in call_lines(args, call)]
    return [c.to_json() for c in calls], "\n".join(lines) or _say(args, "director.no_calls"), DONE


def cmd_answer(args: argparse.Namespace) -> Result:
    call = _store(args).answer_call(args.call, args.note or "", by=_by(args))
    return call.to_json(), _say(args, "director.answered", id=call.id[:8], table=call.table), DONE


def _penalty_data(table: int, penalty: Any) -> dict[str, Any]:
    return {
        "table": table,
        "id": penalty.id,
        "player": penalty.player,
        "points": penalty.points,
        "why": penalty.why,
        "by": penalty.by,
        "at": penalty.at,
    }


def cmd_penalise(args: argparse.Namespace) -> Result:
    stored = _store(args).penalise(_game(args), args.player, args.points, why=args.why, by=_by(args))
    penalty = stored.game.penalties[-1]
    text = _say(
        args,
        "director.penalised",
        table=args.table,
        player=printable(penalty.player),
        points=penalty.points,
        why=printable(penalty.why),
        id=penalty.id[:8],
    )
    data = {"game": stored.id, "penalty": _penalty_data(args.table, penalty), "totals": stored.result.totals}
    return data, text, DONE


def cmd_lift(args: argparse.Namespace) -> Result:
    stored = _store(args).lift_penalty(_game(args), args.penalty, by=_by(args))
    data = {"game": stored.id, "lifted": args.penalty, "totals": stored.result.totals}
    return data, _say(args, "director.lifted", table=args.table, id=printable(args.penalty)), DONE


def cmd_penalties(args: argparse.Namespace) -> Result:
    store = _store(args)
    night = store.night(args.league, args.night)
    given = store.night_penalties(args.league, night.id)
    data: list[dict[str, Any]] = []
    lines: list[str] = []
    for round_ in night.rounds:
        for table in round_.tables:
            for penalty in given.get(table.game, ()):
                data.append({"round": round_.number, **_penalty_data(table.table, penalty)})
                lines.append(
                    _say(
                        args,
                        "director.penalty_line",
                        id=penalty.id[:8],
                        player=printable(penalty.player),
                        points=penalty.points,
                        why=printable(penalty.why),
                        by=printable(penalty.by or _say(args, "director.nobody")),
                    )
                )
    return data, "\n".join(lines) or _say(args, "director.no_penalties"), DONE


def cmd_replace(args: argparse.Namespace) -> Result:
    stored = _store(args).replace_player(
        _game(args),
        args.seat,
        args.replacement,
        after=args.after,
        why=args.why,
        by=_by(args),
        new_player=args.new_player,
    )
    made = stored.game.replacements[-1]
    text = _say(
        args,
        "replace.done",
        table=args.table,
        seat=made.seat + 1,
        player=printable(made.player),
        replacement=printable(made.replacement),
        after=made.after,
    )
    data = {
        "game": stored.id,
        "table": args.table,
        "replacement": {
            "id": made.id,
            "seat": made.seat + 1,
            "player": made.player,
            "replacement": made.replacement,
            "after": made.after,
            "why": made.why,
            "by": made.by,
            "at": made.at,
        },
        "totals": stored.result.totals,
    }
    return data, text, DONE


def register(commands: Any, say: Callable[[str], str]) -> None:
    """Add the director's commands to ``rummy league night``'s subcommands."""

    def table(parser: argparse.ArgumentParser) -> None:
        _common(parser, say)
        parser.add_argument("--table", required=True, type=int, metavar="N", help=say("director.help_table"))
        parser.add_argument("--round", type=int, metavar="N", help=say("director.help_round"))
        parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
        parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))

    parser = commands.add_parser("call", help=say("director.help_call"))
    table(parser)
    # no argparse choices: the store refuses another reason in one line, in the chosen language
    parser.add_argument(
        "--reason", required=True, metavar="rules|dispute|penalty", help=say("director.help_reason")
    )
    parser.add_argument("--note", metavar="TEXT", help=say("director.help_note"))
    parser.set_defaults(run=cmd_call)

    parser = commands.add_parser("calls", help=say("director.help_calls"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_calls)

    parser = commands.add_parser("answer", help=say("director.help_answer"))
    _common(parser, say, league=False)
    parser.add_argument("call", metavar="CALL_ID", help=say("director.help_call_id"))
    parser.add_argument("--note", metavar="TEXT", help=say("director.help_note"))
    parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
    parser.set_defaults(run=cmd_answer)

    parser = commands.add_parser("penalise", help=say("director.help_penalise"))
    table(parser)
    parser.add_argument("--player", required=True, metavar="NAME", help=say("director.help_player"))
    parser.add_argument("--points", required=True, metavar="N", help=say("director.help_points_penalty"))
    parser.add_argument("--why", required=True, metavar="TEXT", help=say("director.help_why"))
    parser.set_defaults(run=cmd_penalise)

    parser = commands.add_parser("lift", help=say("director.help_lift"))
    table(parser)
    parser.add_argument("--penalty", required=True, metavar="ID", help=say("director.help_penalty_id"))
    parser.set_defaults(run=cmd_lift)

    parser = commands.add_parser("replace", help=say("replace.help"))
    table(parser)
    parser.add_argument("--seat", required=True, metavar="N|NAME", help=say("replace.help_seat"))
    parser.add_argument(
        "--with", dest="replacement", required=True, metavar="NAME", help=say("replace.help_with")
    )
    parser.add_argument("--after", metavar="DEAL", help=say("replace.help_after"))
    parser.add_argument("--why", metavar="TEXT", help=say("replace.help_why"))
    parser.add_argument("--new-player", action="store_true", help=say("league.help_import_new_player"))
    parser.set_defaults(run=cmd_replace)

    parser = commands.add_parser("penalties", help=say("director.help_penalties"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_penalties)
