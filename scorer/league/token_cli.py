"""``rummy league token ...``: the club server's access tokens, made, listed and revoked.

A token is made on the server's own store (``--db``: its folder or its database) and given to
one device or person (``--name``) with a role (``--role viewer|scorer|director``:
:mod:`scorer.league.tokens`). ``add`` prints the token's secret once: the store keeps only its
SHA-256, so it cannot be shown again (a lost one is revoked and made anew). docs/cli.md has the
``--json`` of each, a stable contract.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from scorer.league.cli_kit import DONE, Result, _common, _heads, _say, _store, _table
from scorer.messages import Word


def cmd_token_add(args: argparse.Namespace) -> Result:
    info, secret = _store(args).add_token(args.name, args.role)
    data = {"name": info.name, "role": info.role.value, "token": secret}
    lines = [
        _say(args, "league.token_added", name=repr(info.name), role=Word(info.role.value)),
        secret,  # URL-safe characters only: printed as it is, to be copied
        _say(args, "league.token_shown_once"),
    ]
    return data, "\n".join(lines), DONE


def cmd_token_list(args: argparse.Namespace) -> Result:
    tokens = _store(args).tokens()
    data = [{"name": t.name, "role": t.role.value, "created": t.created} for t in tokens]
    rows: list[list[Any]] = [[t.name, _say(args, f"word.{t.role.value}"), t.created[:16]] for t in tokens]
    if not tokens:
        return data, _say(args, "league.no_tokens"), DONE
    return data, _table(_heads(args, "token", "role", "created"), rows), DONE


def cmd_token_revoke(args: argparse.Namespace) -> Result:
    info = _store(args).revoke_token(args.name)
    data = {"name": info.name, "role": info.role.value, "created": info.created, "revoked": info.revoked}
    return data, _say(args, "league.token_revoked", name=repr(info.name)), DONE


def register(sub: Any, say: Callable[[str], str]) -> None:
    """Add ``rummy league token`` and its subcommands to ``rummy league``'s subcommands."""
    token = sub.add_parser("token", help=say("league.help_token"))
    commands = token.add_subparsers(dest="token_command", metavar="SUBCOMMAND", required=True)

    parser = commands.add_parser("add", help=say("league.help_token_add"))
    _common(parser, say, league=False)
    parser.add_argument("--name", required=True, metavar="NAME", help=say("league.help_token_name"))
    parser.add_argument("--role", required=True, metavar="ROLE", help=say("league.help_token_role"))
    parser.set_defaults(run=cmd_token_add)

    parser = commands.add_parser("list", help=say("league.help_token_list"))
    _common(parser, say, league=False)
    parser.set_defaults(run=cmd_token_list)

    parser = commands.add_parser("revoke", help=say("league.help_token_revoke"))
    _common(parser, say, league=False)
    parser.add_argument("name", metavar="NAME", help=say("league.help_token_name"))
    parser.set_defaults(run=cmd_token_revoke)
