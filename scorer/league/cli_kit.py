"""What the league's commands share (``rummy league`` and ``rummy league night``): the store
opened with what it mended said, who signs a change, the command's words and tables, the
options every subcommand takes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from scorer.messages import DEFAULT_LANGUAGE, Message, Param, message_of, render
from scorer.names import printable, printable_message

if TYPE_CHECKING:
    from scorer.league.store import Store

DONE, REFUSED = 0, 1

Result = tuple[Any, str, int]


def _store(args: argparse.Namespace) -> Store:
    import sys

    from scorer.league.store import Store

    store = Store.open(args.db)
    for notice in store.notice_messages:  # what the store mended on its own: said, never silent
        said = Message("cli.failed", command="league", message=notice)
        print(render(printable_message(said), getattr(args, "lang", "en")), file=sys.stderr)
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


def _say(args: argparse.Namespace, code: str, /, **params: Param) -> str:
    """The catalog's text ``code`` in the command's language, every text in it printable (a
    name read from the store never brings a control character to the terminal)."""
    return render(printable_message(Message(code, **params)), getattr(args, "lang", DEFAULT_LANGUAGE))


def _heads(args: argparse.Namespace, *names: str) -> list[str]:
    """A table's column headings in the command's language."""
    return [_say(args, f"league.head_{name}") for name in names]


def _conflict_reason(conflict: Mapping[str, Any]) -> Param:
    """An import conflict's reason: its message where the text remembers one."""
    return message_of(conflict["reason"]) or str(conflict["reason"])


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
    return printable(str(value))


def _printable_csv(payload: str) -> str:
    """CSV text as a terminal shows it: each cell :func:`printable` (a line break inside a
    quoted cell shown as ``\\n``), then written again; the file written with ``--out`` is as is."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv.reader(io.StringIO(payload)):
        writer.writerow([printable(cell) for cell in row])
    return out.getvalue()


def _common(
    parser: argparse.ArgumentParser, say: Callable[[str], str], *, league: bool = True, required: bool = True
) -> None:
    parser.add_argument("--db", metavar="PATH", help=say("league.help_db"))
    parser.add_argument("--json", action="store_true", help=say("cli.help_json"))
    if league:
        parser.add_argument("--league", required=required, metavar="L", help=say("league.help_league"))
