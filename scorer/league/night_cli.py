"""``rummy league night ...``: a club night from a terminal (docs/cli.md, "Club night").

``start`` seats the first round and starts every table's game, ``next`` seats the next round
once every table of the last one has ended (exit 1 naming the tables still playing),
``standings`` shows the night's placement points and who leads it (its winner once it is
over, each row with the tie-break that put it above the next), ``flip`` flips a coin for the
players level where the night's tie-breaks reach the coin, ``end`` ends it (no round after the
last seated), ``list`` the league's nights, ``codes`` the night's access codes per role
(:mod:`scorer.league.night_codes`); the director's ``call``, ``calls``, ``answer``,
``penalise``, ``lift`` and ``penalties`` are in :mod:`scorer.league.director_cli`; ``confirm``,
``dispute``, ``resolve`` and ``deals`` are the deals confirmed at the table
(:mod:`scorer.league.confirm_cli`).
An impossible request (too few players for a table, a fixed table that does not exist, a
player named twice) exits 2 with one line, as every other bad input does.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from scorer.league import confirm_cli
from scorer.league.cli_kit import DONE, REFUSED, Result, _by, _common, _heads, _say, _store, _table
from scorer.league.errors import StoreInputError
from scorer.league.night import (
    DEFAULT_POINTS,
    KEEP,
    RoundUnfinishedError,
    parse_bye_points,
    parse_points,
    parse_rounds,
    parse_timer,
    start_text,
)
from scorer.league.night_codes import night_codes
from scorer.league.tiebreaks import parse_order
from scorer.messages import Message
from scorer.names import printable
from scorer.seating import METHODS, parse_fixed

if TYPE_CHECKING:
    from scorer.league.night import Night, NightRow, NightTable


def _players(text: str | None) -> list[str] | None:
    """``"Anna, Bea,Cid"`` as names (empty items dropped)."""
    if text is None:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def _house_rules(pairs: Sequence[str]) -> dict[str, str] | None:
    """``--option KEY=VALUE`` items as house-rule options (``None``: none given)."""
    if not pairs:
        return None
    found: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not (sep and key.strip()):
            raise StoreInputError(Message("cli.bad_option", pair=repr(pair)))
        found[key.strip()] = value.strip()
    return found


def _night_keys(night: Night) -> dict[str, Any]:
    """What every night command's JSON says of the night's plan."""
    timer = night.rounds[-1].timer if night.rounds else None
    return {
        "planned": night.planned,
        "timer": timer,
        "handicap": night.handicap,
        "over": night.over,
        "bye_points": night.bye_points,
        "late_byes": night.late_byes,
        "confirmation": night.confirmation,
        "unconfirmed": night.unconfirmed,
        "disputed": night.disputed,
    }


def _table_data(table: NightTable) -> dict[str, Any]:
    data: dict[str, Any] = {
        "table": table.table,
        "game": table.game,
        "players": list(table.players),
        "ids": list(table.ids),
    }
    if table.deadline is not None:
        data["deadline"] = table.deadline
    if table.start:
        data["start"] = {p: table.start.get(p, 0) for p in table.players}
    if table.unconfirmed:
        data["unconfirmed"] = table.unconfirmed
        data["disputed"] = table.disputed
    return data


def _round_result(args: argparse.Namespace, night: Night) -> Result:
    last = night.rounds[-1]
    data: dict[str, Any] = {
        "night": night.id,
        "round": last.number,
        **_night_keys(night),
        "ruleset": last.ruleset,
        "method": last.method,
        "seed": last.seed,
        "tables": [_table_data(t) for t in last.tables],
        "byes": list(last.byes),
    }
    heading = "night.round_seated_of" if night.planned is not None else "night.round_seated"
    lines = [
        _say(
            args,
            heading,
            round=last.number,
            rounds=night.planned or 0,
            night=night.id,
            ruleset=last.ruleset,
            method=last.method,
        )
    ]
    if last.deadline is not None and last.timer is not None:
        lines.append(_say(args, "night.timer_line", minutes=last.timer, deadline=_clock(last.deadline)))
    for table in last.tables:
        players = ", ".join(printable(p) for p in table.players)
        lines.append(_say(args, "night.table_line", table=table.table, players=players, game=table.game))
        if table.start:
            lines.append(_say(args, "night.start_line", points=start_text(table.players, table.start)))
    if last.byes:
        lines.append(_say(args, "night.byes_line", players=", ".join(printable(p) for p in last.byes)))
    if last.evenness is not None:
        data["spread"] = last.evenness.spread
        data["best_spread"] = last.evenness.best
        data["spread_bound"] = last.evenness.bound
        even = last.evenness
        spread = f"{even.spread:.2f}"
        if even.best is not None:
            lines.append(_say(args, "night.spread_line", spread=spread, best=f"{even.best:.2f}"))
        else:
            lines.append(_say(args, "night.spread_bound_line", spread=spread, bound=f"{even.bound:.2f}"))
    if last.repeats is not None:
        data["repeats"] = last.repeats
        lines.append(_say(args, "night.repeats_line", count=last.repeats))
    return data, "\n".join(lines), DONE


def _clock(stamp: str) -> str:
    """A deadline as the clock on the wall shows it, in UTC: ``19:45 UTC``."""
    return f"{stamp[11:16]} UTC"


def cmd_start(args: argparse.Namespace) -> Result:
    players = _players(args.players) or []
    fixed = parse_fixed(args.fixed)
    points = parse_points(args.points) if args.points is not None else DEFAULT_POINTS
    rounds = parse_rounds(args.rounds) if args.rounds is not None else None
    timer = parse_timer(args.timer) if args.timer is not None else None
    tiebreaks = parse_order(args.tiebreaks) if args.tiebreaks is not None else None
    bye_points = parse_bye_points(args.bye_points, points) if args.bye_points is not None else 0
    store = _store(args)
    night = store.start_night(
        args.league,
        players=players,
        ruleset=args.ruleset,
        method=args.method,
        seed=args.seed,
        fixed=fixed,
        options=_house_rules(args.option),
        points=points,
        by=_by(args),
        rounds=rounds,
        timer=timer,
        handicap=args.handicap,
        confirmation=not args.no_confirmation,
        tiebreaks=tiebreaks,
        bye_points=bye_points,
        late_byes=args.late_byes,
    )
    return _round_result(args, night)


def cmd_next(args: argparse.Namespace) -> Result:
    timer = parse_timer(args.timer) if args.timer is not None else KEEP
    store = _store(args)
    try:
        night = store.next_round(
            args.league,
            night=args.night,
            players=_players(args.players),
            ruleset=args.ruleset,
            method=args.method,
            seed=args.seed,
            fixed=parse_fixed(args.fixed),
            options=_house_rules(args.option),
            by=_by(args),
            timer=timer,
        )
    except RoundUnfinishedError as exc:
        text = _say(args, "night.unfinished", **exc.message.params)
        return {"error": text, **exc.message.to_json()}, text, REFUSED
    return _round_result(args, night)


def _row(row: NightRow, names: dict[str, str]) -> dict[str, Any]:
    return {
        "player": names.get(row.player, row.player),
        "id": row.player,
        "night_points": row.night_points,
        "games": row.games,
        "wins": row.wins,
        "placements": list(row.placements),
        "relative_per_deal": row.relative,
        "tiebreak": row.tiebreak,
        "byes": row.byes,
        "penalties": row.penalties,
        "unconfirmed": row.unconfirmed,
        "disputed": row.disputed,
        "left_after": list(row.left_after),
        "joined_after": list(row.joined_after),
    }


def _seat_note(args: argparse.Namespace, row: NightRow) -> str:
    """A row's replacements tonight: ``left after deal 4`` / ``took over after deal 2``."""
    notes = [_say(args, "night.left_after", after=n) for n in row.left_after]
    notes += [_say(args, "night.joined_after", after=n) for n in row.joined_after]
    return "; ".join(notes)


def _decided_by(args: argparse.Namespace, row: NightRow) -> str:
    """The "decided by" column: the tie-break that put the row above the next, in words."""
    return _say(args, f"tiebreak.{row.tiebreak.replace('-', '_')}") if row.tiebreak is not None else ""


def cmd_standings(args: argparse.Namespace) -> Result:
    store = _store(args)
    night, rows = store.night_standings(args.league, args.night)
    names = {p.id: p.name for p in store.players()}
    first = next((r for r in rows if r.games), None)
    leader = None if first is None else names.get(first.player, first.player)
    data = {
        "night": night.id,
        **_night_keys(night),
        "rounds": len(night.rounds),
        "points": list(night.points),
        "tiebreaks": list(night.tiebreaks),
        "winner": leader if night.over else None,
        "leader": leader,
        "rows": [_row(r, names) for r in rows],
    }
    table = [
        [
            names.get(r.player, r.player),
            f"{r.night_points:g}",
            r.games,
            r.wins,
            " ".join(str(p) for p in r.placements) or "-",
            _decided_by(args, r),
        ]
        for r in rows
    ]
    heads = [*_heads(args, "player"), _say(args, "night.head_points"), *_heads(args, "games", "wins")]
    heads += [_say(args, "night.head_placements"), _say(args, "night.head_tiebreak")]
    if night.unconfirmed:  # whose points rest on deals not yet confirmed at the table
        heads.append(_say(args, "confirm.head_unconfirmed"))
        for line, r in zip(table, rows, strict=True):
            line.append(f"{r.unconfirmed}!" if r.disputed else r.unconfirmed or "")
    if any(r.left_after or r.joined_after for r in rows):  # a seat taken over mid-game
        heads.append(_say(args, "night.head_seat"))
        for line, r in zip(table, rows, strict=True):
            line.append(_seat_note(args, r))
    text = _table(heads, table)
    text += "\n" + _say(args, "night.tiebreaks_line", order=", ".join(night.tiebreaks))
    if night.bye_points:
        text += "\n" + _say(args, "night.bye_points_line", points=night.bye_points)
    if night.late_byes:
        text += "\n" + _say(args, "night.late_byes_line")
    if leader is not None:  # the night's winner once it is over, who leads it until then
        text += "\n" + _say(args, "night.winner" if night.over else "night.leader", player=printable(leader))
    if night.planned is not None:
        text += "\n" + _say(
            args,
            "night.over" if night.over else "night.rounds_line",
            seated=len(night.rounds),
            rounds=night.planned,
        )
    if night.unconfirmed:
        text += "\n" + _say(args, "confirm.unconfirmed_line", count=night.unconfirmed)
    if night.disputed:
        text += "\n" + _say(args, "confirm.disputed_count_line", count=night.disputed)
    return data, text, DONE


def cmd_flip(args: argparse.Namespace) -> Result:
    store = _store(args)
    flips = store.flip_coin(args.league, night=args.night, by=_by(args))
    lines = [_say(args, "night.flip_line", players=", ".join(printable(p) for p in flip)) for flip in flips]
    return {"flips": [list(flip) for flip in flips]}, "\n".join(lines), DONE


def cmd_list(args: argparse.Namespace) -> Result:
    store = _store(args)
    names = {p.id: p.name for p in store.players()}
    data = []
    rows = []
    for night in store.nights(args.league):
        _, standing = store.night_standings(args.league, night.id)
        leader = next((names.get(r.player, r.player) for r in standing if r.games), None)
        seated = len(night.rounds)
        data.append(
            {
                "night": night.id,
                "created": night.created,
                **_night_keys(night),
                "rounds": seated,
                "winner": leader if night.over else None,
                "leader": leader,
            }
        )
        shown = f"{seated}/{night.planned}" if night.planned is not None else seated
        rows.append([night.id[:8], night.created[:10], shown, leader if night.over else None])
    heads = [_say(args, "night.head_night"), _say(args, "night.head_date"), _say(args, "night.head_rounds")]
    return data, _table([*heads, _say(args, "night.head_winner")], rows), DONE


def cmd_end(args: argparse.Namespace) -> Result:
    store = _store(args)
    night = store.end_night(args.league, night=args.night)
    _, rows = store.night_standings(args.league, night.id)
    names = {p.id: p.name for p in store.players()}
    first = next((r for r in rows if r.games), None)
    leader = None if first is None else names.get(first.player, first.player)
    data = {
        "night": night.id,
        **_night_keys(night),
        "rounds": len(night.rounds),
        "winner": leader if night.over else None,
        "leader": leader,
    }
    lines = [_say(args, "night.ended_line", night=night.id, rounds=len(night.rounds))]
    if night.over and leader is not None:
        lines.append(_say(args, "night.winner", player=printable(leader)))
    elif not night.over:
        lines.append(_say(args, "night.ended_waiting", round=night.rounds[-1].number))
    return data, "\n".join(lines), DONE


def cmd_codes(args: argparse.Namespace) -> Result:
    store = _store(args)
    night = store.night(args.league, args.night)
    codes = night_codes(store.code_secret(), night)
    lines = [
        _say(args, "night.codes_heading", night=night.id),
        _say(args, "night.codes_director", code=codes.director),
        _say(args, "night.codes_viewer", code=codes.viewer),
        *(_say(args, "night.codes_table", table=table, code=code) for table, code in codes.tables),
    ]
    return codes.to_json(), "\n".join(lines), DONE


def register(sub: Any, say: Callable[[str], str]) -> None:
    """Add ``rummy league night`` and its subcommands to ``rummy league``'s subcommands."""
    night = sub.add_parser("night", help=say("night.help_night"))
    commands = night.add_subparsers(dest="night_command", metavar="SUBCOMMAND", required=True)

    def seating(parser: argparse.ArgumentParser, *, first: bool) -> None:
        parser.add_argument("--players", required=first, metavar='"A,B,..."', help=say("night.help_players"))
        parser.add_argument("--ruleset", required=first, metavar="ID", help=say("night.help_ruleset"))
        parser.add_argument(
            "--method", choices=METHODS, default="random" if first else None, help=say("night.help_method")
        )
        parser.add_argument("--seed", type=int, metavar="N", help=say("night.help_seed"))
        for flag, metavar, code in (
            ("--fixed", "NAME=TABLE", "night.help_fixed"),
            ("--option", "KEY=VALUE", "cli.help_option"),
        ):
            parser.add_argument(flag, action="append", default=[], metavar=metavar, help=say(code))
        parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))

    parser = commands.add_parser("start", help=say("night.help_start"))
    _common(parser, say)
    seating(parser, first=True)
    parser.add_argument("--points", metavar="3,2,1", help=say("night.help_points"))
    parser.add_argument("--rounds", metavar="N", help=say("night.help_rounds"))
    parser.add_argument("--timer", metavar="MINUTES", help=say("night.help_timer"))
    parser.add_argument("--handicap", action="store_true", help=say("night.help_handicap"))
    parser.add_argument("--no-confirmation", action="store_true", help=say("confirm.help_no_confirmation"))
    parser.add_argument("--tiebreaks", metavar="points,wins,...", help=say("night.help_tiebreaks"))
    parser.add_argument("--bye-points", metavar="N", help=say("night.help_bye_points"))
    parser.add_argument("--late-byes", action="store_true", help=say("night.help_late_byes"))
    parser.set_defaults(run=cmd_start)

    parser = commands.add_parser("next", help=say("night.help_next"))
    _common(parser, say)
    seating(parser, first=False)
    parser.add_argument("--timer", metavar="MINUTES", help=say("night.help_timer_next"))
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_next)

    parser = commands.add_parser("standings", help=say("night.help_standings"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_standings)

    parser = commands.add_parser("flip", help=say("night.help_flip"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
    parser.set_defaults(run=cmd_flip)

    parser = commands.add_parser("end", help=say("night.help_end"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_end)

    parser = commands.add_parser("codes", help=say("night.help_codes"))
    _common(parser, say)
    parser.add_argument("--night", metavar="ID", help=say("night.help_id"))
    parser.set_defaults(run=cmd_codes)

    parser = commands.add_parser("list", help=say("night.help_list"))
    _common(parser, say)
    parser.set_defaults(run=cmd_list)

    from scorer.league import director_cli

    director_cli.register(commands, say)

    confirm_cli.register(commands, say)  # confirm, dispute, resolve, deals
