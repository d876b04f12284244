"""Limits on what the program reads, so hostile input is refused fast and cleanly.

Every file is sized before it is parsed (a stat, then at most ``limit + 1``
bytes read), decoded as UTF-8 with a message naming the file, and checked for
nesting depth before a parser sees it, so no input can run the program out of
memory, time or stack. :func:`read_document` is the one way to read a JSON file
(game files, imported files); :func:`read_text` serves other formats (TOML).

>>> parse_document("[" * 1000 + "]" * 1000, what="game file 'deep.json'")
Traceback (most recent call last):
...
scorer.errors.InputTooLargeError: game file 'deep.json' nests 1,000 levels deep; a document nests at most 32
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Literal

from scorer.errors import InputTooLargeError, ScorerError, quote

#: The largest game file (or imported document) read, in bytes. A game of a
#: thousand deals with every hand written out is about a fifth of this.
MAX_DOCUMENT_BYTES = 1_000_000

#: The largest ruleset file read, in bytes; a bundled one is about 2,000.
MAX_RULESET_BYTES = 100_000

#: How deeply a document's lists and tables may nest; a game file nests 4 deep.
MAX_DEPTH = 32

#: The longest ruleset id or file path taken.
MAX_PATH_CHARS = 1_000

#: The longest name in a path, in UTF-8 bytes: most file systems stop at 255, and a
#: ruleset id gets ``.toml`` added.
MAX_PATH_NAME_BYTES = 250

#: The longest text of cards or melds taken: every card of two decks with four
#: jokers, each written at its longest (``*=10♥,``), fits in it.
MAX_CARDS_TEXT = 2_000

#: The most deals one game file holds: a long evening is a few dozen, a Hollywood
#: match of high targets a few hundred, and scoring 500 stays within a second.
MAX_DEALS = 500

#: The longest player name taken.
MAX_NAME_CHARS = 60

Syntax = Literal["json", "toml"]

# Tokens that matter for nesting: strings (skipped whole, brackets inside them do not
# count), comments in TOML, and the brackets themselves.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_TOML_TOKENS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]'
)
_OPENERS = frozenset("[{")
_CLOSERS = frozenset("]}")


def nesting_depth(text: str, *, syntax: Syntax = "json") -> int:
    """How deeply the text's lists and tables nest, brackets inside strings not counted.

    >>> nesting_depth('{"a": [1, [2]], "b": "[[["}')
    3
    """
    tokens = _JSON_TOKENS if syntax == "json" else _TOML_TOKENS
    depth = deepest = 0
    for match in tokens.finditer(text):
        token = match.group()
        if token in _OPENERS:
            depth += 1
            deepest = max(deepest, depth)
        elif token in _CLOSERS:
            depth = max(depth - 1, 0)
    return deepest


def require_depth(text: str, *, what: str, syntax: Syntax = "json") -> None:
    """Raise :class:`InputTooLargeError` when the text nests deeper than :data:`MAX_DEPTH`."""
    depth = nesting_depth(text, syntax=syntax)
    if depth > MAX_DEPTH:
        raise InputTooLargeError(f"{what} nests {depth:,} levels deep; a document nests at most {MAX_DEPTH}")


def require_length(text: str, *, what: str, limit: int) -> None:
    """Raise :class:`InputTooLargeError` when a text argument is longer than ``limit`` characters."""
    if len(text) > limit:
        raise InputTooLargeError(f"{what} {quote(text)}: too long, at most {limit:,} characters")


def require_path(text: str, *, what: str) -> None:
    """Raise :class:`InputTooLargeError` for a path (or ruleset id) no file system takes."""
    longest = max((len(part.encode("utf-8", "replace")) for part in re.split(r"[/\\]", text)), default=0)
    if len(text) > MAX_PATH_CHARS or longest > MAX_PATH_NAME_BYTES:
        raise InputTooLargeError(
            f"{what} {quote(text)}: too long "
            f"(at most {MAX_PATH_CHARS:,} characters, {MAX_PATH_NAME_BYTES} bytes per name)"
        )


def read_text(
    path: str | Path,
    *,
    what: str,
    limit: int,
    error: type[ScorerError] = InputTooLargeError,
) -> str:
    """The UTF-8 text of a file of at most ``limit`` bytes.

    ``what`` names the file in messages (``'game file'``); a file that cannot be
    read or is not UTF-8 raises ``error``, one that is too big raises
    :class:`InputTooLargeError`.
    """
    text_path = str(path)
    shown = f"{what} {quote(text_path)}"
    require_path(text_path, what=what)
    try:
        status = os.stat(text_path)
        if stat.S_ISDIR(status.st_mode):
            raise error(f"cannot read {shown}: it is a folder")
        if not stat.S_ISREG(status.st_mode):
            raise error(f"cannot read {shown}: it is not a regular file")
        if status.st_size > limit:
            raise InputTooLargeError(_too_big(shown, size=status.st_size, what=what, limit=limit))
        with open(text_path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputTooLargeError(_too_big(shown, size=None, what=what, limit=limit))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(
            f"{shown} is not UTF-8 text: byte {exc.start + 1:,} (line {line:,}) cannot be read"
        ) from None


def _too_big(shown: str, *, size: int | None, what: str, limit: int) -> str:
    measured = f"{size:,} bytes" if size is not None else f"more than {limit:,} bytes"
    return f"{shown} is {measured}; a {what} is at most {limit:,} bytes"


def parse_document(text: str, *, what: str, error: type[ScorerError] = InputTooLargeError) -> Any:
    """Decode JSON text after the depth check; ``what`` names it in messages."""
    require_depth(text, what=what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not JSON: {exc.msg} at line {exc.lineno:,}, column {exc.colno:,}") from None
    except ValueError:
        # The decoder's own limit: an integer of thousands of digits.
        raise error(f"{what} holds a number too long to be a score") from None


def read_document(
    path: str | Path,
    *,
    what: str = "game file",
    limit: int = MAX_DOCUMENT_BYTES,
    error: type[ScorerError] = InputTooLargeError,
) -> Any:
    """Read a JSON file within the limits: size, UTF-8, nesting depth, then :func:`json.loads`.

    Every problem raises a :class:`~scorer.errors.ScorerError` (also a ``ValueError``)
    whose message names the file: ``error`` for an unreadable or malformed file,
    :class:`InputTooLargeError` for one beyond a limit.
    """
    text = read_text(path, what=what, limit=limit, error=error)
    return parse_document(text, what=f"{what} {quote(str(path))}", error=error)
