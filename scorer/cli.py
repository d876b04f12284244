"""The ``rummy`` command line: the referee and scoring from a terminal.

This interface is a documented contract (docs/cli.md): CARDS is one argument
(``"5H 6H 7H"``), MELDS separates melds with ``|``; ``--json`` prints one JSON
document. Exit status: 0 the answer is legal/valid, 1 it is illegal/invalid,
2 bad input or usage (a message on stderr naming the bad input; with ``--json`` also the
error's code and parameters on stdout).

Every answer, error and help text is a message from the catalog (:mod:`scorer.messages`),
in English or Finnish: ``--lang``, else ``RUMMY_LANG``, else the locale. A command imports
what it needs when it runs, so ``rummy check`` never loads the league store or the app.
The referee commands themselves are in :mod:`scorer.commands`; the league's in
:mod:`scorer.league.cli`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from scorer.commands import (
    EXIT_BAD_INPUT,
    EXIT_INVALID,
    EXIT_VALID,
    Result,
    cmd_app,
    cmd_arrange,
    cmd_check,
    cmd_knock,
    cmd_layoff,
    cmd_opening,
    cmd_rulesets,
    cmd_score,
    cmd_table,
)
from scorer.messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Language,
    Message,
    Param,
    environment_language,
    join,
    known_language,
    message_of,
    render,
)

__all__ = ["EXIT_BAD_INPUT", "EXIT_INVALID", "EXIT_VALID", "Parser", "build_parser", "main"]


# -- the parser -------------------------------------------------------------------------


class _Formatter(argparse.HelpFormatter):
    """argparse's help with its own words (``usage:``) in the command line's language."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        # argparse makes a formatter for every argument added, and its own width, the
        # terminal's less 2, imports shutil for it: a share of every command's start.
        if width is None:
            width = terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        if prefix is None:
            prefix = render(Message("cli.usage_prefix"), Parser.language)
        super().add_usage(usage, actions, groups, prefix)


def terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (``COLUMNS``, else
    standard output's terminal, else 80), without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse with usage errors in one line of the program's own words (exit 2), and its
    help in the command line's language (one per process: :attr:`language`)."""

    language: Language = DEFAULT_LANGUAGE
    #: ``--json`` was given: a usage error is also printed as the error document on stdout.
    json_errors: bool = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = render(Message("cli.help_positionals"), self.language)
        self._optionals.title = render(Message("cli.help_options"), self.language)
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = render(Message("cli.help_help"), self.language)

    def error(self, message: str) -> NoReturn:
        problem = usage_message(message)
        said = Message("cli.usage_failed", prog=self.prog, problem=problem)
        if self.json_errors:
            _print_json({"error": str(problem), **problem.to_json()})
        self.exit(EXIT_BAD_INPUT, render(said, self.language) + "\n")


def usage_message(message: str) -> Message:
    """argparse's message as the program's own: 'missing CARDS', 'unknown command 'chek' ...'.

    argparse words its errors in English; they are read here, at the boundary, once.
    """
    import re
    from difflib import get_close_matches

    from scorer.errors import quote

    missing = re.fullmatch(r"the following arguments are required: (.*)", message)
    if missing:
        return Message("cli.usage_missing", names=join(missing.group(1).split(", "), last="and"))
    choice = re.fullmatch(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)", message, re.S)
    if choice:
        name, given, known = choice.groups()
        options = [k.strip(" '") for k in known.split(",")]
        close = get_close_matches(given, options, n=1)
        return _unknown_choice(name, given, options, close[0] if close else None)
    unknown = re.fullmatch(r"unrecognized arguments: (.*)", message, re.S)
    if unknown:
        extra = unknown.group(1)
        code = "cli.usage_unknown_argument" if extra.startswith("-") else "cli.usage_unknown_cards"
        return Message(code, given=quote(extra))
    needs = re.fullmatch(r"argument (\S+?)(?:/\S+)?: expected one argument", message)
    if needs:
        return Message("cli.usage_needs_value", name=needs.group(1))
    return Message("cli.usage_other", text=quote(message, limit=200)[1:-1] if len(message) > 200 else message)


def _unknown_choice(name: str, given: str, options: Sequence[str], close: str | None) -> Message:
    from scorer.errors import quote

    known = ", ".join(options)
    hint: dict[str, Param] = {"close": repr(close)} if close else {}
    if name == "COMMAND":
        code = "cli.usage_unknown_command"
        return Message(code + "_hint" if close else code, given=quote(given), **hint, known=known)
    code = "cli.usage_unknown_value"
    return Message(code + "_hint" if close else code, name=name, given=quote(given), **hint, known=known)


def _language(argv: list[str]) -> tuple[Language, list[str]]:
    """The language asked for (``--lang``, anywhere), and the arguments without it.

    ``--lang`` is read before argparse so that the help itself is in that language.
    """
    rest: list[str] = []
    chosen: str | None = None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest.extend([word, *words])
            break
        if word == "--lang":
            chosen = next(words, None)
            if chosen is None or chosen.startswith("-"):
                _usage_exit(Message("cli.lang_needs_value"))
        elif word.startswith("--lang="):
            chosen = word.removeprefix("--lang=")
        else:
            rest.append(word)
    if chosen is None:
        return environment_language(), rest
    language = known_language(chosen)
    if language is None:
        _usage_exit(_unknown_choice("--lang", chosen, LANGUAGES, None))
    return language, rest


def _usage_exit(problem: Message) -> NoReturn:
    print(
        render(Message("cli.usage_failed", prog="rummy", problem=problem), environment_language()),
        file=sys.stderr,
    )
    raise SystemExit(EXIT_BAD_INPUT)


def _add_lang(parser: argparse.ArgumentParser, language: Language) -> None:
    # Read by _language() before argparse runs; declared here so that --help lists it.
    parser.add_argument("--lang", choices=LANGUAGES, help=render(Message("cli.help_lang"), language))


def _common(parser: argparse.ArgumentParser, language: Language, *, default_rules: str | None = None) -> None:
    def say(code: str, /, **params: Param) -> str:
        return render(Message(code, **params), language)

    parser.add_argument(
        "--rules",
        default=default_rules,
        metavar="ID-or-path",
        help=say("cli.help_rules_default", default=default_rules) if default_rules else say("cli.help_rules"),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=say("cli.help_option"),
    )
    parser.add_argument("--json", action="store_true", help=say("cli.help_json"))
    _add_lang(parser, language)


#: The commands, in the order the help lists them.
COMMANDS = ("rulesets", "check", "layoff", "arrange", "knock", "opening", "table", "score", "league", "app")


def build_parser(
    language: Language = DEFAULT_LANGUAGE, *, only: str | None = None
) -> argparse.ArgumentParser:
    """The ``rummy`` parser, its help in ``language``. Building it imports no command.

    With ``only`` (the command on the line, :func:`_command`), the parser has that command
    alone: a command's start does not pay for building every other one. With ``only=""``
    (the help, or no command) every command is listed by name and help, with no arguments.
    """

    def say(code: str, /, **params: Param) -> str:
        return render(Message(code, **params), language)

    Parser.language = language
    parser = Parser(prog="rummy", description=say("cli.help_description"), epilog=say("cli.help_epilog"))
    _add_lang(parser, language)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help_code: str, **kwargs: Any) -> argparse.ArgumentParser | None:
        if only and only != name:
            return None  # the line runs another command
        sub: argparse.ArgumentParser = commands.add_parser(name, help=say(help_code), **kwargs)
        return sub if only in (None, name) else None

    # No abbreviations here: '--option' must not be read as '--options'.
    if sub := command("rulesets", "cli.help_rulesets", allow_abbrev=False):
        sub.add_argument("--options", metavar="ID-or-path", help=say("cli.help_rulesets_options"))
        sub.add_argument("--json", action="store_true", help=say("cli.help_json"))
        _add_lang(sub, language)
        sub.set_defaults(run=cmd_rulesets)

    if sub := command("check", "cli.help_check"):
        _common(sub, language)
        sub.add_argument("cards", metavar="CARDS")
        sub.set_defaults(run=cmd_check)

    if sub := command("layoff", "cli.help_layoff"):
        _common(sub, language)
        sub.add_argument("--meld", required=True, metavar="CARDS", help=say("cli.help_layoff_meld"))
        sub.add_argument("cards", metavar="CARDS")
        sub.set_defaults(run=cmd_layoff)

    if sub := command("arrange", "cli.help_arrange"):
        _common(sub, language)
        sub.add_argument("--discard", action="store_true", help=say("cli.help_arrange_discard"))
        sub.add_argument("cards", metavar="CARDS")
        sub.set_defaults(run=cmd_arrange)

    if sub := command("knock", "cli.help_knock"):
        _common(sub, language)
        sub.add_argument("--knocker", required=True, metavar="CARDS", help=say("cli.help_knock_knocker"))
        sub.add_argument("--defender", required=True, metavar="CARDS", help=say("cli.help_knock_defender"))
        sub.add_argument("--melds", metavar="MELDS", help=say("cli.help_knock_melds"))
        sub.add_argument("--upcard", metavar="CARD", help=say("cli.help_knock_upcard"))
        sub.set_defaults(run=cmd_knock)

    if sub := command("opening", "cli.help_opening"):
        _common(sub, language, default_rules="kalooki")
        sub.add_argument("--melds", metavar="MELDS", help=say("cli.help_opening_melds"))
        sub.add_argument("--layoffs", metavar="CARDS", help=say("cli.help_opening_layoffs"))
        sub.add_argument("--onto", metavar="MELDS", help=say("cli.help_opening_onto"))
        sub.add_argument("--hand", metavar="CARDS", help=say("cli.help_opening_hand"))
        sub.set_defaults(run=cmd_opening)

    if sub := command("table", "cli.help_table"):
        _common(sub, language, default_rules="carousel")
        sub.add_argument("--before", required=True, metavar="MELDS", help=say("cli.help_table_before"))
        sub.add_argument("--from-hand", required=True, metavar="CARDS", help=say("cli.help_table_from_hand"))
        sub.add_argument("--after", required=True, metavar="MELDS", help=say("cli.help_table_after"))
        sub.add_argument("--first", action="store_true", help=say("cli.help_table_first"))
        sub.set_defaults(run=cmd_table)

    if sub := command("score", "cli.help_score"):
        _common(sub, language)
        sub.add_argument("file", metavar="FILE", help=say("cli.help_score_file"))
        sub.set_defaults(run=cmd_score)

    if only in (None, "league"):
        from scorer.league.cli import register as league_commands

        league_commands(commands, language)
    else:
        command("league", "league.help_leagues")

    if sub := command("app", "cli.help_app"):
        sub.add_argument("--host", default=None, help=say("cli.help_app_host"))
        sub.add_argument("--port", type=int, default=None, help=say("cli.help_app_port"))
        sub.add_argument("--db", metavar="PATH", help=say("cli.help_app_db"))
        sub.add_argument("--code", help=say("cli.help_app_code"))
        sub.add_argument(
            "--trusted-proxy",
            action="append",
            default=[],
            metavar="ADDRESS",
            help=say("cli.help_app_trusted_proxy"),
        )
        sub.add_argument("--public-url", metavar="URL", help=say("cli.help_app_public_url"))
        sub.add_argument(
            "--cors-origin", action="append", default=[], metavar="URL", help=say("cli.help_app_cors_origin")
        )
        sub.add_argument("--public-standings", action="store_true", help=say("cli.help_app_public_standings"))
        sub.add_argument("--desktop", action="store_true", help=say("cli.help_app_desktop"))
        sub.set_defaults(run=cmd_app, json=False)
    return parser


def _command(words: Sequence[str]) -> str | None:
    """The command the line runs, for :func:`build_parser`'s ``only``: its first word.

    ``""`` for the help or a word that is no command (then only the names are needed: to list
    them, or to say so); ``None`` (the whole parser) for a line starting with another option.
    """
    first = words[0] if words else ""
    if first in ("-h", "--help"):
        return ""
    if first.startswith("-"):
        return None
    return first if first in COMMANDS else ""


#: The exit status when the reader of the output went away (``| head``): 128 + SIGPIPE, what
#: a shell reports for a Unix tool that the closed pipe stopped.
EXIT_READER_GONE = 141


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()  # here, where a closed pipe can still be caught
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The reader of standard output closed it (``rummy ... | head``): stop quietly, as Unix
    tools do. Standard output is pointed at the null device so that the interpreter's own
    flush at exit finds no closed pipe to complain of."""
    import os

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
    return EXIT_READER_GONE


def _main(argv: Sequence[str] | None) -> int:
    language, words = _language(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser(language, only=_command(words))
    Parser.json_errors = "--json" in words
    args = parser.parse_args(words)
    args.lang = language
    run: Callable[[argparse.Namespace], Result] = args.run
    try:
        data, text, status = run(args)
    except ValueError as exc:  # every ScorerError that is the input's fault is a ValueError
        return _failed(args, exc)
    except BrokenPipeError:
        raise
    except OSError as exc:  # what the system refused, the path named (scorer.oserrors)
        from scorer.oserrors import refusal

        return _failed(args, refusal(exc))
    except Exception as exc:
        from scorer.errors import ScorerError

        if not isinstance(exc, ScorerError):
            raise
        return _failed(args, exc)
    if args.json:
        _print_json(data)
    else:
        print(text)
    return status


def _failed(args: argparse.Namespace, exc: Exception) -> int:
    """Say what went wrong: one line on stderr; with ``--json`` also its code on stdout."""
    from scorer.names import printable, printable_message

    message = message_of(exc)
    shown = render(printable_message(message), args.lang) if message is not None else printable(str(exc))
    print(render(Message("cli.failed", command=args.command, message=shown), args.lang), file=sys.stderr)
    if getattr(args, "json", False):
        found = message.to_json() if message is not None else {"code": None, "params": {}}
        _print_json({"error": str(exc), **found})
    return EXIT_BAD_INPUT


def _print_json(data: Any) -> None:
    import json

    print(json.dumps(data, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    sys.exit(main())
