"""``rummy league ...``: leagues, imports, exports and standings from a terminal (docs/cli.md).

Every subcommand takes ``--db PATH`` (default ``$RUMMY_DB``, else the per-user data
folder) and ``--json``. Exit status: 0 done, 1 refused without bad input (an import with
conflicts, a damaged file restore cannot mend), 2 bad input, with a message naming it.
Players are shown by name; ``--json`` adds their ids. The store is imported when a league
command runs, so the other ``rummy`` commands start without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scorer.league.errors import StoreInputError
from scorer.messages import DEFAULT_LANGUAGE, Language, Message, Word, render
from scorer.names import printable

if TYPE_CHECKING:
    from scorer.league.exchange import ImportReport
    from scorer.league.ratings import Rating
    from scorer.league.standings import Record, StandingRow
    from scorer.league.store import Store

from scorer.league.cli_kit import (
    DONE,
    REFUSED,
    Result,
    _by,
    _common,
    _conflict_reason,
    _heads,
    _names,
    _printable_csv,
    _say,
    _store,
    _table,
)

# -- commands --------------------------------------------------------------------------------


def cmd_create(args: argparse.Namespace) -> Result:
    league = _store(args).create_league(args.name, season=args.season)
    season = league.seasons[0]
    data = {"id": league.id, "name": league.name, "season": {"id": season.id, "name": season.name}}
    return data, _say(args, "league.created", league=league.name, season=season.name, id=league.id), DONE


def cmd_list(args: argparse.Namespace) -> Result:
    store = _store(args)
    data: list[dict[str, Any]] = []
    rows: list[list[Any]] = []
    for league in store.leagues():
        games = store.games(league=league.id)
        players = len(store.players(league=league.id))
        closed = _say(args, "league.closed_mark")
        seasons = ", ".join(s.name + closed * (not s.is_open) for s in league.seasons)
        rows.append([league.name, players, len(games), seasons])
        data.append(
            {
                "id": league.id,
                "name": league.name,
                "players": players,
                "games": len(games),
                "seasons": [{"id": s.id, "name": s.name, "closed": not s.is_open} for s in league.seasons],
            }
        )
    heads = _heads(args, "league", "players", "games", "seasons")
    text = _table(heads, rows) if data else _say(args, "league.no_leagues")
    return data, text, DONE


def cmd_import(args: argparse.Namespace) -> Result:
    from scorer.league.errors import LookAlikeError

    store = _store(args)
    try:
        report = store.import_files(
            args.league, args.files, season=args.season, by=_by(args), new_players=args.new_player
        )
    except LookAlikeError as exc:  # said with the way on: the option that says who is new
        raise LookAlikeError(
            Message("league.looks_like_hint", problem=exc.message), name=exc.name, existing=exc.existing
        ) from None
    return cmd_import_report(args, report)


def cmd_import_report(args: argparse.Namespace, report: ImportReport) -> Result:
    """What an import did, as ``rummy league import`` says it (``rummy league scan`` too)."""
    data = report.to_dict()
    lines = [
        _say(
            args,
            "league.imported",
            games=report.games_added,
            unchanged=report.games_unchanged,
            deals=report.deals_added,
            players=report.players_added,
        )
    ]
    if report.nights_added or report.nights_unchanged or report.rounds_added:
        lines.append(
            _say(
                args,
                "league.imported_nights",
                nights=report.nights_added,
                unchanged=report.nights_unchanged,
                rounds=report.rounds_added,
            )
        )
    for c in report.conflicts:  # a game's, or a club night's
        key = "game" if "game" in c else "night"
        code = "league.import_conflict" if key == "game" else "league.import_night_conflict"
        lines.append(_say(args, code, **{key: c[key]}, file=c["file"], reason=_conflict_reason(c)))
    return data, "\n".join(lines), REFUSED if report.conflicts else DONE


def cmd_export(args: argparse.Namespace) -> Result:
    import json
    from pathlib import Path

    store = _store(args)
    if args.format == "csv":
        import csv
        import io

        payload = store.export_csv(args.league)
        summary = {"format": "csv", "rows": max(sum(1 for _ in csv.reader(io.StringIO(payload))) - 1, 0)}
    elif args.facts or args.game is not None or args.night is not None:
        game = store.find_game(args.game) if args.game is not None else None
        night = store.find_night(args.night).id if args.night is not None else None
        document = store.export_facts(args.league, game=game, night=night)
        payload = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
        summary = {"format": "facts", "facts": len(document["facts"])}
    else:
        document = store.export_league(args.league)
        payload = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        summary = {"format": "json", "games": len(document["games"])}
    if args.out is None:
        if args.format == "csv":
            return {"csv": payload}, _printable_csv(payload).rstrip("\n"), DONE
        return json.loads(payload), payload.rstrip("\n"), DONE
    from scorer.league.log import write_synced
    from scorer.oserrors import os_reason

    out = Path(args.out)
    try:
        write_synced(out, payload.encode("utf-8"))
    except OSError as exc:
        raise StoreInputError(Message("store.out_unwritable", out=f"'{out}'", why=os_reason(exc))) from None
    data = {**summary, "out": str(out)}
    return data, _say(args, "league.exported", league=args.league, out=str(out)), DONE


def _row(row: StandingRow, names: Mapping[str, str]) -> dict[str, Any]:
    from dataclasses import asdict

    data = asdict(row)
    data["id"] = row.player
    data["player"] = names.get(row.player, row.player)
    return data


def cmd_standings(args: argparse.Namespace) -> Result:
    store = _store(args)
    rows = store.standings(args.league, season=args.season, ruleset=args.ruleset)
    names = _names(store)
    data: dict[str, Any] = {"rows": [_row(r, names) for r in rows]}
    if not rows:
        if args.ruleset is None:
            data["rulesets"] = {}
        return data, _say(args, "league.no_finished_games"), DONE
    if args.ruleset is not None:
        return data, _standings_text(args, [(None, rows)], names), DONE
    # Every variant: one table of what they share, then each variant's own, points and all.
    by_ruleset = store.standings_by_ruleset(args.league, season=args.season)
    data["rulesets"] = {
        ruleset: {"lowest_wins": table[0].lowest_wins, "rows": [_row(r, names) for r in table]}
        for ruleset, table in by_ruleset.items()
    }
    if not rows[0].across_variants:
        return data, _standings_text(args, [(None, rows)], names), DONE
    shared = [
        [names.get(r.player, r.player), r.games, r.wins, f"{r.win_rate:.0%}", r.deals, r.deals_won]
        for r in rows
    ]
    parts = [
        _say(args, "league.across_variants"),
        _table(_heads(args, "player", "games", "wins", "rate", "deals", "won"), shared),
    ]
    titled = [
        (_say(args, "league.ruleset_lowest" if t[0].lowest_wins else "league.ruleset_highest", ruleset=r), t)
        for r, t in by_ruleset.items()
    ]
    parts.append(_standings_text(args, titled, names))
    return data, "\n".join(parts), DONE


def _standings_text(
    args: argparse.Namespace, tables: Sequence[tuple[str | None, list[StandingRow]]], names: Mapping[str, str]
) -> str:
    """Rulesets' standings, each a table of its own points and ratings (under its title, if any)."""
    heads = _heads(args, "player", "games", "wins", "deals", "won", "points", "rating")
    parts = []
    for title, rows in tables:
        table = [
            [
                names.get(r.player, r.player),
                r.games,
                r.wins,
                r.deals,
                r.deals_won,
                r.points,
                None if r.rating is None else f"{r.rating:.1f}" + ("?" * r.provisional),
            ]
            for r in rows
        ]
        if title is not None:
            parts.extend(["", title])
        parts.append(_table(heads, table))
    if any(r.provisional for _, rows in tables for r in rows):
        parts.append(_say(args, "league.provisional_mark"))
    return "\n".join(parts)


def _rating(rating: Rating) -> dict[str, Any]:
    return {
        "ordinal": rating.ordinal,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "provisional": rating.provisional,
        "history": [{"game": p.game, "ordinal": p.ordinal} for p in rating.history],
    }


def cmd_player(args: argparse.Namespace) -> Result:
    store = _store(args)
    player = store.player(args.name)
    stats = store.player_stats(args.league, player.id)
    names = _names(store)
    data = {
        "player": player.name,
        "id": player.id,
        "overall": None if stats.overall is None else _row(stats.overall, names),
        "rulesets": {k: _row(v, names) for k, v in stats.by_ruleset.items()},
        "ratings": {k: _rating(v) for k, v in stats.ratings.items()},
    }
    if stats.overall is None:
        return data, _say(args, "league.player_no_games", player=player.name, league=args.league), DONE
    lines = [_say(args, "league.player_in", player=player.name, league=args.league)]
    table = [
        [
            ruleset,
            r.games,
            r.wins,
            f"{r.win_rate:.0%}",
            r.points,
            r.average_per_deal,
            r.best_deal,
            r.longest_streak,
        ]
        for ruleset, r in [(_say(args, "league.all"), stats.overall), *stats.by_ruleset.items()]
    ]
    heads = _heads(args, "ruleset", "games", "wins", "rate", "points", "per_deal", "best_deal", "streak")
    lines.append(_table(heads, table))
    events = ", ".join(f"{k} {v}" for k, v in sorted(stats.overall.events.items()))
    if events:
        lines.append(_say(args, "league.events", events=events))
    for ruleset, rating in stats.ratings.items():
        code = "league.rating_provisional" if rating.provisional else "league.rating"
        lines.append(_say(args, code, ruleset=ruleset, rating=f"{rating.ordinal:.1f}", games=rating.games))
    return data, "\n".join(lines), DONE


def _record(record: Record, names: Mapping[str, str]) -> dict[str, Any]:
    return {
        "games": record.games,
        "wins": {names.get(k, k): v for k, v in record.wins.items()},
        "ahead": {names.get(k, k): v for k, v in record.ahead.items()},
        "ties": record.ties,
    }


def cmd_h2h(args: argparse.Namespace) -> Result:
    store = _store(args)
    a, b = store.player(args.a), store.player(args.b)
    result = store.head_to_head(args.league, a.id, b.id)
    names = _names(store)
    data = {
        "a": a.name,
        "b": b.name,
        **_record(result.overall, names),
        "rulesets": {k: _record(v, names) for k, v in result.by_ruleset.items()},
    }
    lines = [_say(args, "league.h2h", a=a.name, b=b.name, games=result.overall.games)]
    for label, record in [(_say(args, "league.all"), result.overall), *result.by_ruleset.items()]:
        lines.append(
            _say(
                args,
                "league.h2h_line",
                label=label,
                a=a.name,
                a_won=record.wins[a.id],
                b=b.name,
                b_won=record.wins[b.id],
                a_ahead=record.ahead[a.id],
                b_ahead=record.ahead[b.id],
                ties=record.ties,
            )
        )
    return data, "\n".join(lines), DONE


def cmd_season(args: argparse.Namespace) -> Result:
    store = _store(args)
    if args.action == "close":
        season = store.close_season(args.league)
        text = _say(args, "league.season_closed", season=season.name)
    elif args.action == "rename":
        if args.season is None or args.name is None:
            raise StoreInputError(Message("store.season_rename_needs"))
        season = store.rename_season(args.league, args.season, args.name)
        text = _say(args, "league.season_renamed", season=season.name)
    else:
        season = store.new_season(args.league, args.name)
        text = _say(args, "league.season_started", season=season.name)
    data = {"id": season.id, "name": season.name, "closed": not season.is_open}
    return data, text, DONE


def cmd_rename(args: argparse.Namespace) -> Result:
    league = _store(args).rename_league(args.league, args.name)
    return {"id": league.id, "name": league.name}, _say(args, "league.renamed", league=league.name), DONE


def cmd_restore(args: argparse.Namespace) -> Result:
    from scorer.league.store import Store

    repairs = Store.restore(args.db)
    data = {
        "repairs": [
            {
                "path": r.path,
                "action": r.action,
                "detail": r.detail,
                "detail_code": r.message.code,
                "detail_params": r.message.to_json()["params"],
            }
            for r in repairs
        ]
    }
    text = "\n".join(
        _say(args, "league.repair_line", action=Word(r.action), path=r.path, detail=r.message)
        for r in repairs
    )
    if any(r.action in {"lost", "recovered"} for r in repairs):
        return data, text, REFUSED  # something could not come back whole: the user must look
    if args.league is not None:
        _store(args).league(args.league)  # the league is there again
    if not repairs:
        return data, _say(args, "league.nothing_to_restore"), DONE
    return data, text, DONE


def cmd_verify(args: argparse.Namespace) -> Result:
    from scorer.league.store import Store

    problems = Store.verify(args.db)
    data = {"problems": [p.to_dict() for p in problems]}
    if not problems:
        return data, _say(args, "league.store_whole"), DONE
    text = "\n".join(_say(args, "league.problem_line", path=p.path, problem=p.message) for p in problems)
    from scorer.league.recovery import LOST, SIDE

    lost = any(p.message.code in LOST for p in problems)  # what restore cannot make again
    if all(p.message.code in SIDE for p in problems):  # each says what to do: restore does not
        return data, text, REFUSED
    return data, text + "\n" + _say(args, "league.restore_cannot" if lost else "league.restore_hint"), REFUSED


def cmd_log(args: argparse.Namespace) -> Result:
    from scorer.league.records import action_word

    store = _store(args)
    game_id = store.find_game(args.game)
    events = store.events(game_id)
    sent = store.senders(game_id)
    data = {"game": game_id, "events": [e.to_dict() for e in events], "sent": sent}
    lines = [_say(args, "league.game", game=game_id)]
    for e in events:
        what = Word(action_word(e.action))
        if e.deal is not None:
            done = _say(args, "league.log_deal", action=what, deal=e.deal)
        elif e.action in ("penalised", "penalty_lifted") and e.was:  # whose penalty, how many points
            player, points = printable(str(e.was.get("player", ""))), e.was.get("points", 0)
            done = _say(args, "league.log_penalty", action=what, player=player, points=points)
        elif e.action == "replaced" and e.was:  # who left the seat, who came, after which deal
            done = _say(
                args,
                "league.log_replaced",
                player=printable(str(e.was.get("player", ""))),
                replacement=printable(str(e.was.get("replacement", ""))),
                seat=e.was.get("seat", 0),
                after=e.was.get("after", 0),
            )
        else:
            done = _say(args, "league.log_action", action=what)
        who = _say(args, "league.log_by", by=e.by) if e.by else ""
        why = f": {printable(e.why)}" if e.why else ""
        lines.append(f"{e.seq:>4}  {printable(e.at[:19].replace('T', ' '))} UTC  {done}{who}{why}")
    for s in sent:
        lines.append(_say(args, "league.log_sent", sender=s["sender"], facts=s["facts"], commit=s["commit"]))
    return data, "\n".join(lines), DONE


def _game_state(store: Store, game_id: str, text: str) -> Result:
    game = store.game(game_id)
    data = {"game": game.id, "status": game.status, "league": game.league_id, "season": game.season_id}
    return data, text, DONE


def cmd_abandon(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    if args.undo:
        store.resume_game(game_id, by=_by(args))
        return _game_state(store, game_id, _say(args, "league.game_resumed", game=game_id))
    store.abandon_game(game_id, by=_by(args), why=args.why)
    return _game_state(store, game_id, _say(args, "league.game_abandoned", game=game_id))


def cmd_delete(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    if args.undo:
        store.undelete_game(game_id, by=_by(args))
        return _game_state(store, game_id, _say(args, "league.game_back", game=game_id))
    store.delete_game(game_id, by=_by(args), why=args.why)
    return _game_state(store, game_id, _say(args, "league.game_deleted", game=game_id))


def cmd_move(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    store.move_game(game_id, league=args.league, season=args.season, by=_by(args))
    moved = _say(args, "league.game_moved", game=game_id, league=store.league(args.league).name)
    return _game_state(store, game_id, moved)


def cmd_sync(args: argparse.Namespace) -> Result:
    import os

    from scorer.league.sync import TOKEN_ENV, HttpTransport, SyncError, sync

    token = args.token or os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise SyncError(Message("sync.no_token"))
    transport = HttpTransport(args.with_, token)
    store = _store(args)
    league = args.league
    if league is None:
        here = store.leagues()
        if len(here) != 1:
            raise SyncError(Message("sync.no_league_here"))
        league = here[0].id
    report = sync(store, transport, league=league)
    name = store.league(report.league).name
    lines = [
        _say(args, "sync.done", league=name, url=transport.url, sent=report.sent, received=report.received)
    ]
    for c in report.conflicts:
        key = "game" if "game" in c else "night"
        code = "sync.conflict" if key == "game" else "sync.night_conflict"
        lines.append(_say(args, code, **{key: c[key]}, file=c["file"], reason=_conflict_reason(c)))
    if report.not_applied:
        lines.append(_say(args, "sync.not_applied", count=report.not_applied))
    return report.to_dict(), "\n".join(lines), REFUSED if report.conflicts else DONE


# -- the parser --------------------------------------------------------------------------------


def register(commands: Any, language: Language = DEFAULT_LANGUAGE) -> None:
    """Add ``rummy league`` and its subcommands to the ``rummy`` parser's subcommands, their
    help in ``language``."""

    def say(code: str) -> str:
        return render(Message(code), language)

    league = commands.add_parser("league", help=say("league.help_leagues"))
    sub = league.add_subparsers(dest="league_command", metavar="SUBCOMMAND", required=True)

    parser = sub.add_parser("create", help=say("league.help_create"))
    _common(parser, say, league=False)
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--season", metavar="NAME", help=say("league.help_create_season"))
    parser.set_defaults(run=cmd_create)

    parser = sub.add_parser("list", help=say("league.help_list"))
    _common(parser, say, league=False)
    parser.set_defaults(run=cmd_list)

    parser = sub.add_parser("import", help=say("league.help_import"))
    _common(parser, say)
    parser.add_argument("--season", metavar="NAME", help=say("league.help_import_season"))
    parser.add_argument("--by", metavar="NAME", help=say("league.help_import_by"))
    parser.add_argument("--new-player", action="store_true", help=say("league.help_import_new_player"))
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.set_defaults(run=cmd_import)

    parser = sub.add_parser("export", help=say("league.help_export"))
    _common(parser, say)
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.add_argument("--facts", action="store_true", help=say("league.help_export_facts"))
    parser.add_argument("--game", metavar="ID", help=say("league.help_export_game"))
    parser.add_argument("--night", metavar="ID", help=say("league.help_export_night"))
    parser.add_argument("--out", metavar="PATH", help=say("league.help_export_out"))
    parser.set_defaults(run=cmd_export)

    parser = sub.add_parser("standings", help=say("league.help_standings"))
    _common(parser, say)
    parser.add_argument("--season", metavar="NAME")
    parser.add_argument("--ruleset", metavar="ID")
    parser.set_defaults(run=cmd_standings)

    parser = sub.add_parser("player", help=say("league.help_player"))
    _common(parser, say)
    parser.add_argument("name", metavar="NAME")
    parser.set_defaults(run=cmd_player)

    parser = sub.add_parser("h2h", help=say("league.help_h2h"))
    _common(parser, say)
    parser.add_argument("a", metavar="A")
    parser.add_argument("b", metavar="B")
    parser.set_defaults(run=cmd_h2h)

    parser = sub.add_parser("season", help=say("league.help_season"))
    _common(parser, say)
    parser.add_argument("action", choices=["close", "new", "rename"])
    parser.add_argument("--name", metavar="NAME", help=say("league.help_season_name"))
    parser.add_argument("--season", metavar="NAME", help=say("league.help_season_season"))
    parser.set_defaults(run=cmd_season)

    parser = sub.add_parser("rename", help=say("league.help_rename"))
    _common(parser, say)
    parser.add_argument("name", metavar="NAME")
    parser.set_defaults(run=cmd_rename)

    parser = sub.add_parser("restore", help=say("league.help_restore"))
    _common(parser, say, required=False)
    parser.set_defaults(run=cmd_restore)

    parser = sub.add_parser("verify", help=say("league.help_verify"))
    _common(parser, say, league=False)
    parser.set_defaults(run=cmd_verify)

    for name, run, what in (
        ("abandon", cmd_abandon, say("league.help_abandon")),
        ("delete", cmd_delete, say("league.help_delete")),
    ):
        parser = sub.add_parser(name, help=what)
        _common(parser, say, league=False)
        parser.add_argument("game", metavar="GAME", help=say("league.help_game"))
        parser.add_argument("--undo", action="store_true", help=say("league.help_undo"))
        parser.add_argument("--why", metavar="TEXT", help=say("league.help_why"))
        parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
        parser.set_defaults(run=run)

    parser = sub.add_parser("move", help=say("league.help_move"))
    _common(parser, say)
    parser.add_argument("game", metavar="GAME", help=say("league.help_game"))
    parser.add_argument("--season", metavar="NAME")
    parser.add_argument("--by", metavar="NAME", help=say("league.help_by"))
    parser.set_defaults(run=cmd_move)

    parser = sub.add_parser("log", help=say("league.help_log"))
    _common(parser, say, league=False)
    parser.add_argument("game", metavar="GAME", help=say("league.help_game"))
    parser.set_defaults(run=cmd_log)

    parser = sub.add_parser("sync", help=say("league.help_sync"))
    _common(parser, say, league=False)
    parser.add_argument(
        "--with", dest="with_", required=True, metavar="URL", help=say("league.help_sync_with")
    )
    parser.add_argument("--token", metavar="TOKEN", help=say("league.help_sync_token"))
    parser.add_argument("--league", metavar="L", help=say("league.help_sync_league"))
    parser.set_defaults(run=cmd_sync)

    from scorer.league.confirm_cli import register_league as confirm_commands  # confirmed deals

    confirm_commands(sub, say)

    from scorer.league.night_cli import register as night_commands  # club nights

    night_commands(sub, say)

    from scorer.league.token_cli import register as token_commands  # a club server's tokens

    token_commands(sub, say)

    from scorer.league.joins_cli import register as conflict_commands  # a game changed apart

    conflict_commands(sub, say)

    from scorer.league.handoff_cli import register as handoff_commands  # codes between devices

    handoff_commands(sub, say)
