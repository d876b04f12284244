"""``rummy league night confirm|dispute|resolve|deals``: a club night's deals confirmed at the
table, from the director's terminal (docs/cli.md, "Club night"; :mod:`scorer.league.confirm`).

A deal is named by its table and number (``--table 3 --deal 2``) in the night's latest round,
or in ``--round R``. ``confirm`` is the director's confirmation (of any deal, whoever saved
it), ``dispute`` a player's (``--why``, and ``--cards`` for their version of the deal as a
game file's deal object in JSON), ``resolve`` keeps one version of a disputed deal (``--keep
saved|theirs --why``), ``deals`` lists the deals waiting. A refusal (the saver confirming,
a deal not disputed, no reason given) exits 2 with one line, as every bad input does.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scorer.league.cli_kit import DONE, Result, _by, _common, _say, _store
from scorer.league.confirm import KEEPS, DealCheck
from scorer.league.errors import StoreInputError
from scorer.messages import Message
from scorer.names import printable

if TYPE_CHECKING:
    from scorer.league.night import Night, NightTable
    from scorer.league.store import Store


def _table_of(store: Store, args: argparse.Namespace) -> tuple[Night, int, NightTable]:
    """The night, the round's number and the table ``--table`` (of ``--round``, else the last)."""
    night = store.night(args.league, args.night)
    number = args.round if args.round is not None else len(night.rounds)
    if not 1 <= number <= len(night.rounds):
        raise StoreInputError(Message("confirm.no_round", round=number))
    tables = night.rounds[number - 1].tables
    table = next((t for t in tables if t.table == args.table), None)
    if table is None:
        raise StoreInputError(Message("confirm.no_table", round=number, table=args.table))
    return night, number, table


def _check_data(check: DealCheck, *, round_number: int, table: NightTable) -> dict[str, Any]:
    data: dict[str, Any] = {
        "round": round_number,
        "table": table.table,
        "game": table.game,
        "deal": check.number,
        "state": check.state,
        "saved_by": check.saved_by,
        "by": check.by or None,
        "why": check.why,
        "entries": dict(check.deal),
    }
    if check.state == "disputed":
        data["theirs"] = dict(check.theirs) if check.theirs is not None else None
    if check.kept is not None:
        data["kept"] = check.kept
    return data


def _done(args: argparse.Namespace, store: Store, code: str, **said: Any) -> Result:
    night, number, table = _table_of(store, args)
    check = store.deal_checks(table.game)[args.deal - 1]
    data = {"night": night.id, **_check_data(check, round_number=number, table=table)}
    return data, _say(args, code, number=args.deal, table=table.table, **said), DONE


def cmd_confirm(args: argparse.Namespace) -> Result:
    store = _store(args)
    _, _, table = _table_of(store, args)
    by = _by(args)
    store.confirm_deal(table.game, args.deal, by=by, director=True)
    return _done(args, store, "confirm.confirmed_line", name=printable(by))


def _cards(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        found = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreInputError(Message("confirm.bad_cards", value=repr(text[:40]), why=exc.msg)) from None
    if not isinstance(found, dict):
        raise StoreInputError(Message("confirm.bad_cards", value=repr(text[:40]), why=type(found).__name__))
    return found


def cmd_dispute(args: argparse.Namespace) -> Result:
    theirs = _cards(args.cards)
    store = _store(args)
    _, _, table = _table_of(store, args)
    by = _by(args)
    store.dispute_deal(table.game, args.deal, by=by, why=args.why, deal=theirs)
    return _done(args, store, "confirm.disputed_line", name=printable(by))


def cmd_resolve(args: argparse.Namespace) -> Result:
    store = _store(args)
    _, _, table = _table_of(store, args)
    by = _by(args)
    store.resolve_dispute(table.game, args.deal, keep=args.keep, why=args.why, by=by)
    kept = Message(f"confirm.kept_{args.keep}")
    return _done(args, store, "confirm.resolved_line", name=printable(by), kept=kept)


def cmd_deals(args: argparse.Namespace) -> Result:
    store = _store(args)
    night = store.night(args.league, args.night)
    rows: list[dict[str, Any]] = []
    lines: list[str] = []
    for round_doc in night.rounds:
        for table in round_doc.tables:
            for check in store.deal_checks(table.game):
                rows.append(_check_data(check, round_number=round_doc.number, table=table))
                if not check.open:
                    continue
                where = {"round": round_doc.number, "table": table.table, "number": check.number}
                state = Message(f"confirm.state_{check.state}")
                line = _say(args, "confirm.deals_line", **where, state=state)
                if check.state == "disputed":
                    name = printable(check.disputed_by or "?")
                    line = _say(args, "confirm.deals_disputed", line=line, name=name)
                elif check.saved_by:
                    line = _say(args, "confirm.deals_saved", line=line, name=printable(check.saved_by))
                if check.state == "disputed" and check.why:
                    line = _say(args, "confirm.deals_why", line=line, why=printable(check.why))
                lines.append(line)
    data = {
        "night": night.id,
        "confirmation": night.confirmation,
        "unconfirmed": night.unconfirmed,
        "disputed": night.disputed,
        "deals": rows,
    }
    if not night.confirmation:  # its deals need no confirmation: none waits, none is confirmed
        return data, _say(args, "confirm.night_off_line"), DONE
    return data, "\n".join(lines) or _say(args, "confirm.none_waiting"), DONE


def register(commands: Any, say: Callable[[str], str]) -> None:
    """Add ``confirm``, ``dispute``, ``resolve`` and ``deals`` to ``rummy league night``."""

    def deal_named(parser: argparse.ArgumentParser) -> None:
        _common(parser, say)
        parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
        parser.add_argument("--round", type=int, metavar="R", help=say("confirm.help_round"))
        parser.add_argument("--table", type=int, required=True, metavar="N", help=say("confirm.help_table"))
        parser.add_argument("--deal", type=int, required=True, metavar="K", help=say("confirm.help_deal"))
        parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))

    _deal_commands(commands, say, deal_named, runs=(cmd_confirm, cmd_dispute, cmd_resolve))

    parser = commands.add_parser("deals", help=say("confirm.help_deals"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_deals)


# -- a league's ordinary games: rummy league confirmation|confirm|dispute|resolve ---------------


def cmd_confirmation(args: argparse.Namespace) -> Result:
    league = _store(args).set_confirmation(args.league, on=args.state == "on", by=_by(args))
    code = "confirm.league_on" if league.confirmation else "confirm.league_off"
    data = {"league": league.name, "confirmation": league.confirmation}
    return data, _say(args, code, league=printable(league.name)), DONE


def _game_done(args: argparse.Namespace, store: Store, game_id: str, code: str, **said: Any) -> Result:
    check = store.deal_checks(game_id)[args.deal - 1]
    data: dict[str, Any] = {
        "game": game_id,
        "deal": check.number,
        "state": check.state,
        "saved_by": check.saved_by,
        "by": check.by or None,
        "why": check.why,
        "entries": dict(check.deal),
    }
    if check.state == "disputed":
        data["theirs"] = dict(check.theirs) if check.theirs is not None else None
    if check.kept is not None:
        data["kept"] = check.kept
    return data, _say(args, code, number=args.deal, game=game_id, **said), DONE


def cmd_game_confirm(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    by = _by(args)
    store.confirm_deal(game_id, args.deal, by=by, director=True)
    return _game_done(args, store, game_id, "confirm.game_confirmed_line", name=printable(by))


def cmd_game_dispute(args: argparse.Namespace) -> Result:
    theirs = _cards(args.cards)
    store = _store(args)
    game_id = store.find_game(args.game)
    by = _by(args)
    store.dispute_deal(game_id, args.deal, by=by, why=args.why, deal=theirs)
    return _game_done(args, store, game_id, "confirm.game_disputed_line", name=printable(by))


def cmd_game_resolve(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    by = _by(args)
    store.resolve_dispute(game_id, args.deal, keep=args.keep, why=args.why, by=by)
    kept = Message(f"confirm.kept_{args.keep}")
    return _game_done(args, store, game_id, "confirm.game_resolved_line", name=printable(by), kept=kept)


def register_league(sub: Any, say: Callable[[str], str]) -> None:
    """Add ``confirmation``, ``confirm``, ``dispute`` and ``resolve`` to ``rummy league``: a
    league's ordinary games that confirm their deals at the table, named by game."""
    parser = sub.add_parser("confirmation", help=say("confirm.help_confirmation"))
    _common(parser, say)
    parser.add_argument("state", choices=("on", "off"), help=say("confirm.help_on_off"))
    parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
    parser.set_defaults(run=cmd_confirmation)

    def deal_named(parser: argparse.ArgumentParser) -> None:
        _common(parser, say, league=False)
        parser.add_argument("game", metavar="GAME", help=say("league.help_game"))
        parser.add_argument("--deal", type=int, required=True, metavar="K", help=say("confirm.help_deal"))
        parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))

    _deal_commands(sub, say, deal_named, runs=(cmd_game_confirm, cmd_game_dispute, cmd_game_resolve))


def _deal_commands(
    commands: Any,
    say: Callable[[str], str],
    deal_named: Callable[[argparse.ArgumentParser], None],
    *,
    runs: tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]],
) -> None:
    """``confirm``, ``dispute`` and ``resolve`` under ``commands``, their deal named by
    ``deal_named`` (a night's table, or a game), each run by its part of ``runs``."""
    confirm, dispute, resolve = runs
    parser = commands.add_parser("confirm", help=say("confirm.help_confirm"))
    deal_named(parser)
    parser.set_defaults(run=confirm)

    parser = commands.add_parser("dispute", help=say("confirm.help_dispute"))
    deal_named(parser)
    parser.add_argument("--why", metavar="TEXT", help=say("confirm.help_why"))
    parser.add_argument("--cards", metavar="JSON", help=say("confirm.help_cards"))
    parser.set_defaults(run=dispute)

    parser = commands.add_parser("resolve", help=say("confirm.help_resolve"))
    deal_named(parser)
    parser.add_argument("--keep", required=True, choices=KEEPS, help=say("confirm.help_keep"))
    parser.add_argument("--why", required=True, metavar="TEXT", help=say("confirm.help_why"))
    parser.set_defaults(run=resolve)
