"""Limits on what the program reads, so hostile input is refused fast and cleanly.

Every file is sized before it is parsed (a stat, then at most ``limit + 1``
bytes read), decoded as UTF-8 with a message naming the file, and checked for
nesting depth before a parser sees it, so no input can run the program out of
memory, time or stack; once parsed, no text in it (a value or a key) may be longer
than :data:`MAX_TEXT_CHARS`. :func:`read_document` is the one way to read a JSON file
(game files, imported files); :func:`read_text` serves other formats (TOML).

>>> parse_document("[" * 1000 + "]" * 1000, what="game file 'deep.json'")
Traceback (most recent call last):
...
scorer.errors.InputTooLargeError: game file 'deep.json' nests 1,000 levels deep; a document nests at most 32
"""

from __future__ import annotations

import os
import re
import stat
from typing import TYPE_CHECKING, Any, Literal

from scorer.errors import InputTooLargeError, ScorerError, quote
from scorer.messages import Message, Param, Word

if TYPE_CHECKING:  # pathlib and json only where used: every command imports this module
    from pathlib import Path

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

#: The longest text (a value or a key) a JSON document may hold: a name, a hand and
#: a ruleset id are far shorter; anything longer is refused before it is looked at.
MAX_TEXT_CHARS = 10_000

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


def require_depth(text: str, *, what: Param, syntax: Syntax = "json") -> None:
    """Raise :class:`InputTooLargeError` when the text nests deeper than :data:`MAX_DEPTH`."""
    depth = nesting_depth(text, syntax=syntax)
    if depth > MAX_DEPTH:
        raise InputTooLargeError(Message("limit.file_nests", what=what, depth=depth, most=MAX_DEPTH))


def require_length(text: str, *, what: str, limit: int) -> None:
    """Raise :class:`InputTooLargeError` when a text argument is longer than ``limit`` characters."""
    if len(text) > limit:
        raise InputTooLargeError(
            Message("limit.text_too_long", what=Word(what), text=quote(text), most=limit)
        )


def require_path(text: str, *, what: Param) -> None:
    """Raise :class:`InputTooLargeError` for a path (or ruleset id) no file system takes."""
    longest = max((len(part.encode("utf-8", "replace")) for part in re.split(r"[/\\]", text)), default=0)
    if len(text) > MAX_PATH_CHARS or longest > MAX_PATH_NAME_BYTES:
        raise InputTooLargeError(
            Message(
                "limit.path_too_long",
                what=what,
                text=quote(text),
                most=MAX_PATH_CHARS,
                name_bytes=MAX_PATH_NAME_BYTES,
            )
        )


def require_texts(data: Any, *, what: Param) -> None:
    """Raise :class:`InputTooLargeError` when a parsed document holds a text (value or key)
    longer than :data:`MAX_TEXT_CHARS`; walks the document without recursion.

    >>> require_texts({"players": ["Anna", "B" * 20_000]}, what="file 'g'")
    Traceback (most recent call last):
    ...
    scorer.errors.InputTooLargeError: file 'g' holds a text of 20,000 characters; a text is at most 10,000
    """
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            texts: list[Any] = [value]
        elif isinstance(value, dict):
            texts = list(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
            continue
        else:
            continue
        for text in texts:
            if isinstance(text, str) and len(text) > MAX_TEXT_CHARS:
                raise InputTooLargeError(
                    Message("limit.text_in_file_too_long", what=what, length=len(text), most=MAX_TEXT_CHARS)
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
    shown = named_file(what, text_path)
    require_path(text_path, what=Word(what))
    try:
        status = os.stat(text_path)
        if stat.S_ISDIR(status.st_mode):
            raise error(Message("limit.file_folder", what=shown))
        if not stat.S_ISREG(status.st_mode):
            raise error(Message("limit.file_not_regular", what=shown))
        if status.st_size > limit:
            raise InputTooLargeError(_too_big(shown, size=status.st_size, what=what, limit=limit))
        with open(text_path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        from scorer.oserrors import os_reason

        raise error(Message("limit.file_unreadable", what=shown, why=os_reason(exc))) from None
    if len(data) > limit:
        raise InputTooLargeError(_too_big(shown, size=None, what=what, limit=limit))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(Message("limit.file_not_utf8", what=shown, byte=exc.start + 1, line=line)) from None


def named_file(what: str, path: str | Path) -> Message:
    """A file as messages name it: its kind (a word, ``game file``) and its quoted path."""
    return Message("limit.named_file", file=Word(what), path=quote(str(path)))


def _too_big(shown: Message, *, size: int | None, what: str, limit: int) -> Message:
    if size is None:
        return Message("limit.file_too_big_more", what=shown, file=Word(what), most=limit)
    return Message("limit.file_too_big", what=shown, size=size, file=Word(what), most=limit)


def parse_document(text: str, *, what: Param, error: type[ScorerError] = InputTooLargeError) -> Any:
    """Decode JSON text after the depth check, then check its texts; ``what`` names it in messages."""
    import json

    require_depth(text, what=what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(
            Message("limit.file_not_json", what=what, why=exc.msg, line=exc.lineno, column=exc.colno)
        ) from None
    except ValueError:
        # The decoder's own limit: an integer of thousands of digits.
        raise error(Message("limit.file_big_number", what=what)) from None
    require_texts(data, what=what)
    return data


def read_document(
    path: str | Path,
    *,
    what: str = "game file",
    limit: int = MAX_DOCUMENT_BYTES,
    error: type[ScorerError] = InputTooLargeError,
) -> Any:
    """Read a JSON file within the limits: size, UTF-8, nesting depth, :func:`json.loads`, texts.

    Every problem raises a :class:`~scorer.errors.ScorerError` (also a ``ValueError``)
    whose message names the file: ``error`` for an unreadable or malformed file,
    :class:`InputTooLargeError` for one beyond a limit.
    """
    text = read_text(path, what=what, limit=limit, error=error)
    return parse_document(text, what=named_file(what, path), error=error)
