"""``rummy league ...``: leagues, imports, exports and standings from a terminal (docs/cli.md).

Every subcommand takes ``--db PATH`` (default ``$RUMMY_DB``, else the per-user data
folder) and ``--json``. Exit status: 0 done, 1 refused without bad input (an import with
conflicts, a damaged file with no backup to restore), 2 bad input, with a message naming it.
Players are shown by name; ``--json`` adds their ids. The store is imported when a league
command runs, so the other ``rummy`` commands start without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorer.league.errors import StoreInputError
from scorer.messages import Message, render

if TYPE_CHECKING:
    from scorer.league.ratings import Rating
    from scorer.league.standings import Record, StandingRow
    from scorer.league.store import Store

DONE, REFUSED = 0, 1

Result = tuple[Any, str, int]


def _store(args: argparse.Namespace) -> Store:
    import sys

    from scorer.league.store import Store

    store = Store.open(args.db)
    for notice in store.notice_messages:  # what the store mended on its own: said, never silent
        said = Message("cli.failed", command="league", message=notice)
        print(render(said, getattr(args, "lang", "en")), file=sys.stderr)
    return store


def _by(args: argparse.Namespace) -> str:
    """Who signs the changes this command makes: ``--by``, else the user's login name."""
    if getattr(args, "by", None):
        return str(args.by)
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container with no user entry)
        return ""


def _names(store: Store) -> dict[str, str]:
    return {p.id: p.name for p in store.players()}


def _table(header: list[str], rows: list[list[Any]]) -> str:
    cells = [header, *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in cells
    )


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


# -- commands --------------------------------------------------------------------------------


def cmd_create(args: argparse.Namespace) -> Result:
    league = _store(args).create_league(args.name, season=args.season)
    season = league.seasons[0]
    data = {"id": league.id, "name": league.name, "season": {"id": season.id, "name": season.name}}
    return data, f"league {league.name} created (season {season.name}): {league.id}", DONE


def cmd_list(args: argparse.Namespace) -> Result:
    store = _store(args)
    data: list[dict[str, Any]] = []
    rows: list[list[Any]] = []
    for league in store.leagues():
        games = store.games(league=league.id)
        players = len(store.players(league=league.id))
        seasons = ", ".join(s.name + " (closed)" * (not s.is_open) for s in league.seasons)
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
    text = _table(["league", "players", "games", "seasons"], rows) if data else "no leagues yet"
    return data, text, DONE


def cmd_import(args: argparse.Namespace) -> Result:
    report = _store(args).import_files(args.league, args.files, season=args.season, by=_by(args))
    data = report.to_dict()
    lines = [
        f"{report.games_added} games added, {report.games_unchanged} unchanged, "
        f"{report.deals_added} deals added, {report.players_added} new players"
    ]
    lines += [f"conflict: game {c['game']} from {c['file']}: {c['reason']}" for c in report.conflicts]
    return data, "\n".join(lines), REFUSED if report.conflicts else DONE


def cmd_export(args: argparse.Namespace) -> Result:
    import json
    from pathlib import Path

    store = _store(args)
    if args.format == "csv":
        payload = store.export_csv(args.league)
        summary = {"format": "csv", "rows": max(payload.count("\n") - 1, 0)}
    else:
        document = store.export_league(args.league)
        payload = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        summary = {"format": "json", "games": len(document["games"])}
    if args.out is None:
        if args.format == "csv":
            return {"csv": payload}, payload.rstrip("\n"), DONE
        return json.loads(payload), payload.rstrip("\n"), DONE
    from scorer.league.storage import write_atomic

    out = Path(args.out)
    try:
        write_atomic(out, payload.encode("utf-8"), backup=False)
    except OSError as exc:
        raise StoreInputError(
            Message("store.out_unwritable", out=f"'{out}'", why=str(exc.strerror))
        ) from None
    data = {**summary, "out": str(out)}
    return data, f"exported {args.league} to {out}", DONE


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
    data = {"rows": [_row(r, names) for r in rows]}
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
    text = _table(["player", "games", "wins", "deals", "won", "points", "rating"], table)
    if not rows:
        text = "no finished games yet"
    elif any(r.provisional for r in rows):
        text += "\n? provisional: fewer than 5 rated games"
    return data, text, DONE


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
        return data, f"{player.name} has no finished game in {args.league}", DONE
    lines = [f"{player.name} in {args.league}"]
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
        for ruleset, r in [("all", stats.overall), *stats.by_ruleset.items()]
    ]
    lines.append(
        _table(["ruleset", "games", "wins", "rate", "points", "per deal", "best deal", "streak"], table)
    )
    events = ", ".join(f"{k} {v}" for k, v in sorted(stats.overall.events.items()))
    if events:
        lines.append(f"events: {events}")
    for ruleset, rating in stats.ratings.items():
        mark = " (provisional)" if rating.provisional else ""
        lines.append(f"rating in {ruleset}: {rating.ordinal:.1f} after {rating.games} games{mark}")
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
    lines = [f"{a.name} v {b.name}: {result.overall.games} games together"]
    for label, record in [("all", result.overall), *result.by_ruleset.items()]:
        lines.append(
            f"{label}: {a.name} won {record.wins[a.id]}, {b.name} won {record.wins[b.id]}; "
            f"ahead {record.ahead[a.id]}-{record.ahead[b.id]}, level {record.ties}"
        )
    return data, "\n".join(lines), DONE


def cmd_season(args: argparse.Namespace) -> Result:
    store = _store(args)
    if args.action == "close":
        season = store.close_season(args.league)
        text = f"season {season.name} closed: its games and standings are final"
    elif args.action == "rename":
        if args.season is None or args.name is None:
            raise StoreInputError(Message("store.season_rename_needs"))
        season = store.rename_season(args.league, args.season, args.name)
        text = f"season renamed {season.name}"
    else:
        season = store.new_season(args.league, args.name)
        text = f"season {season.name} started: new games go to it"
    data = {"id": season.id, "name": season.name, "closed": not season.is_open}
    return data, text, DONE


def cmd_rename(args: argparse.Namespace) -> Result:
    league = _store(args).rename_league(args.league, args.name)
    return {"id": league.id, "name": league.name}, f"league renamed {league.name}", DONE


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
    text = "\n".join(f"{r.action}: {r.path}: {r.detail}" for r in repairs)
    if any(r.action in {"lost", "recovered"} for r in repairs):
        return data, text, REFUSED  # something could not come back whole: the user must look
    if args.league is not None:
        _store(args).league(args.league)  # the league is there again
    if not repairs:
        return data, "nothing to restore: every file reads back whole", DONE
    return data, text, DONE


def cmd_verify(args: argparse.Namespace) -> Result:
    from scorer.league.store import Store

    problems = Store.verify(args.db)
    data = {"problems": [p.to_dict() for p in problems]}
    if not problems:
        return data, "the store is whole: every file is as its journal says", DONE
    text = "\n".join(f"{p.path}: {p.problem}" for p in problems)
    return data, text + "\n'rummy league restore' makes them again", REFUSED


def cmd_log(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    events = store.events(game_id)
    data = {"game": game_id, "events": [e.to_dict() for e in events]}
    lines = [f"game {game_id}"]
    for e in events:
        what = e.action + (f" deal {e.deal}" if e.deal is not None else "")
        who = f" by {e.by}" if e.by else ""
        why = f": {e.why}" if e.why else ""
        lines.append(f"{e.seq:>4}  {e.at[:19].replace('T', ' ')} UTC  {what}{who}{why}")
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
        return _game_state(store, game_id, f"game {game_id} resumed")
    store.abandon_game(game_id, by=_by(args), why=args.why)
    return _game_state(store, game_id, f"game {game_id} abandoned ('--undo' resumes it)")


def cmd_delete(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    if args.undo:
        store.undelete_game(game_id, by=_by(args))
        return _game_state(store, game_id, f"game {game_id} is back")
    store.delete_game(game_id, by=_by(args), why=args.why)
    return _game_state(store, game_id, f"game {game_id} deleted ('--undo' brings it back)")


def cmd_move(args: argparse.Namespace) -> Result:
    store = _store(args)
    game_id = store.find_game(args.game)
    store.move_game(game_id, league=args.league, season=args.season, by=_by(args))
    return _game_state(store, game_id, f"game {game_id} moved into league {store.league(args.league).name}")


# -- the parser --------------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser, *, league: bool = True, required: bool = True) -> None:
    parser.add_argument(
        "--db", metavar="PATH", help="the league folder (default: $RUMMY_DB, else the user data folder)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    if league:
        parser.add_argument("--league", required=required, metavar="L", help="the league's name or id")


def register(commands: Any) -> None:
    """Add ``rummy league`` and its subcommands to the ``rummy`` parser's subcommands."""
    league = commands.add_parser("league", help="leagues: games kept for years, standings, import and export")
    sub = league.add_subparsers(dest="league_command", metavar="SUBCOMMAND", required=True)

    parser = sub.add_parser("create", help="create a league with its first season")
    _common(parser, league=False)
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--season", metavar="NAME", help="the first season's name (default 'Season 1')")
    parser.set_defaults(run=cmd_create)

    parser = sub.add_parser("list", help="the leagues, their players, games and seasons")
    _common(parser, league=False)
    parser.set_defaults(run=cmd_list)

    parser = sub.add_parser("import", help="import game files and league exports")
    _common(parser)
    parser.add_argument("--season", metavar="NAME", help="the season for game files (default: the open one)")
    parser.add_argument("--by", metavar="NAME", help="who imports (default: your login name)")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.set_defaults(run=cmd_import)

    parser = sub.add_parser(
        "export", help="export a league (JSON: everything; CSV: one row per deal per player)"
    )
    _common(parser)
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.add_argument("--out", metavar="PATH", help="write to this file instead of printing")
    parser.set_defaults(run=cmd_export)

    parser = sub.add_parser("standings", help="the league's standings, best first")
    _common(parser)
    parser.add_argument("--season", metavar="NAME")
    parser.add_argument("--ruleset", metavar="ID")
    parser.set_defaults(run=cmd_standings)

    parser = sub.add_parser("player", help="one player's statistics and ratings")
    _common(parser)
    parser.add_argument("name", metavar="NAME")
    parser.set_defaults(run=cmd_player)

    parser = sub.add_parser("h2h", help="two players head to head")
    _common(parser)
    parser.add_argument("a", metavar="A")
    parser.add_argument("b", metavar="B")
    parser.set_defaults(run=cmd_h2h)

    parser = sub.add_parser("season", help="close the open season, or start a new one")
    _common(parser)
    parser.add_argument("action", choices=["close", "new", "rename"])
    parser.add_argument("--name", metavar="NAME", help="the new season's name (default 'Season N')")
    parser.add_argument("--season", metavar="NAME", help="the season to rename")
    parser.set_defaults(run=cmd_season)

    parser = sub.add_parser("rename", help="rename a league")
    _common(parser)
    parser.add_argument("name", metavar="NAME")
    parser.set_defaults(run=cmd_rename)

    parser = sub.add_parser(
        "restore", help="make damaged or missing files again from the journal (or the journal from them)"
    )
    _common(parser, required=False)
    parser.set_defaults(run=cmd_restore)

    parser = sub.add_parser("verify", help="check every file of the store against its journal")
    _common(parser, league=False)
    parser.set_defaults(run=cmd_verify)

    for name, run, what in (
        ("abandon", cmd_abandon, "give a game up: it counts nowhere ('--undo': resume it)"),
        ("delete", cmd_delete, "delete a game, undoably ('--undo': bring it back)"),
    ):
        parser = sub.add_parser(name, help=what)
        _common(parser, league=False)
        parser.add_argument("game", metavar="GAME", help="the game's id, or the start of it")
        parser.add_argument("--undo", action="store_true", help="undo it")
        parser.add_argument("--why", metavar="TEXT", help="the reason, kept in the game's log")
        parser.add_argument("--by", metavar="NAME", help="who does it (default: your login name)")
        parser.set_defaults(run=run)

    parser = sub.add_parser("move", help="move a game into a league (its open season, or --season)")
    _common(parser)
    parser.add_argument("game", metavar="GAME", help="the game's id, or the start of it")
    parser.add_argument("--season", metavar="NAME")
    parser.add_argument("--by", metavar="NAME", help="who does it (default: your login name)")
    parser.set_defaults(run=cmd_move)

    parser = sub.add_parser("log", help="a game's signed changes, oldest first")
    _common(parser, league=False)
    parser.add_argument("game", metavar="GAME", help="the game's id, or the start of it")
    parser.set_defaults(run=cmd_log)
