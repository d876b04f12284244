"""Names people type: players, leagues, seasons, and the device that signs a change.

A name enters the program in many places (the command line, the app, a game file, an
imported league export); :func:`clean_name` takes it in every one of them, so every name
the store keeps is NFC-normalised, trimmed, and holds only what can be seen on one line:
no control character (C0 and C1: newline, tab, ESC, NUL), no direction control (which can
make a name read backwards), nothing invisible (zero-width characters, the byte order mark,
format characters of category Cf, Unicode's default-ignorable characters). A name that
breaks the rule is refused with a message naming the character, never stored changed.

Two different names can look the same (a Cyrillic ``А`` for a Latin ``A``):
:func:`looks_alike` compares their *skeletons* under Unicode's confusables (UTS #39), from
the ``confusable-homoglyphs`` package's copy of ``confusables.txt``, so that a look-alike of a
player is never silently a new player.

Text read back from an older store (or a file edited by hand) may still hold such
characters: :func:`printable` and :func:`printable_message` escape them before anything
is printed to a terminal.

>>> clean_name("  Anna ", what="player")
'Anna'
>>> try:
...     clean_name("Anna\\u202e", what="player")
... except InvalidNameError as exc:
...     print(exc.message.code, exc.message.params["char"])
name.bidi U+202E RIGHT-TO-LEFT OVERRIDE
>>> looks_alike("Anna", "\\u0410nna"), looks_alike("Anna", "Anne")
(True, False)
>>> printable("Anna\\x1b[2J")
'Anna\\\\x1b[2J'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache

from scorer.errors import ScorerError, quote
from scorer.limits import MAX_NAME_CHARS
from scorer.messages import Join, Message, Param, Word

#: The longest name of a league, a season or a signing device.
MAX_LONG_NAME_CHARS = 100

#: Direction controls: embeddings, overrides and isolates, and the marks.
_BIDI = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt), drawn as
#: nothing. The variation selectors (U+FE00-FE0F, U+E0100-E01EF) are taken apart: they only
#: choose how the character before them is drawn (the emoji in a name typed on a phone).
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE00FF),
    (0xE01F0, 0xE0FFF),
)
_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


#: The control characters a name most often holds by mistake (Unicode gives them no name).
_CONTROL_NAMES = {
    "\0": "NULL",
    "\t": "TAB",
    "\n": "LINE FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
}


class InvalidNameError(ScorerError, ValueError):
    """A name that cannot be kept: empty, too long, or holding what cannot be seen."""


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def hidden_kind(char: str) -> str | None:
    """Why ``char`` has no place in a name: ``control``, ``bidi`` or ``invisible``; else None.

    >>> hidden_kind("\\n"), hidden_kind("\\u2067"), hidden_kind("\\u200b"), hidden_kind("é")
    ('control', 'bidi', 'invisible', None)
    """
    category = unicodedata.category(char)
    if category in ("Cc", "Zl", "Zp", "Cs"):
        return "control"
    if char in _BIDI:
        return "bidi"
    if category == "Cf" or _within(ord(char), _IGNORABLE):
        return "invisible"
    return None


def char_name(char: str) -> str:
    """A character as a message names it: ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    return f"U+{ord(char):04X} {unicodedata.name(char, _CONTROL_NAMES.get(char, ''))}".rstrip()


def normal(text: str) -> str:
    """A name as it is compared and kept: NFC-normalised and trimmed (nothing refused)."""
    return unicodedata.normalize("NFC", text).strip()


def name_key(text: str) -> str:
    """What two names are compared by: ``Anna``, ``anna`` and ``ANNA `` are one name."""
    return normal(text).casefold()


def clean_name(
    value: str | None,
    *,
    what: str,
    most: int = MAX_LONG_NAME_CHARS,
    error: type[ScorerError] = InvalidNameError,
) -> str:
    """The name as it is kept, or ``error`` saying what is wrong with it.

    ``what`` is the engine's word for what is named (``player``, ``league``, ``season``,
    ``device``); a player's name is at most :data:`~scorer.limits.MAX_NAME_CHARS` long.
    """
    text = normal(value or "")
    if not text:
        raise error(Message("store.needs_name", what=Word(what)))
    for position, char in enumerate(text, start=1):
        kind = hidden_kind(char)
        if kind is not None:
            raise error(
                Message(
                    f"name.{kind}",
                    what=Word(what),
                    value=printable(quote(text)),
                    char=char_name(char),
                    position=position,
                )
            )
    limit = MAX_NAME_CHARS if what == "player" else most
    if len(text) > limit:
        value = printable(repr(text[:20]))
        raise error(Message("store.name_too_long", what=Word(what), value=value, most=limit))
    return text


# -- look-alikes ------------------------------------------------------------------------------


@cache
def _prototypes() -> Mapping[str, str]:
    """Each confusable character -> the text every character like it is compared as.

    The package keeps ``confusables.txt`` both ways (a character and its prototype each list
    the other), wrapping right-to-left characters in marks for display: each group of
    characters that look alike is a star around its prototype, which is the one text of
    several characters in the group if there is one, else the centre (of two, the lower).
    """
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    def bare(text: str) -> str:
        return text.replace("\u200e", "").replace("\u200f", "")

    linked: dict[str, set[str]] = {}
    for key, homoglyphs in confusables_data.items():
        for glyph in homoglyphs:
            a, b = bare(key), bare(glyph["c"])
            linked.setdefault(a, set()).add(b)
            linked.setdefault(b, set()).add(a)
    prototype: dict[str, str] = {}
    for char, neighbours in linked.items():
        if len(char) != 1:
            continue
        if len(neighbours) > 1:  # the centre of its star
            prototype[char] = char
            continue
        (other,) = neighbours
        centre = len(other) > 1 or len(linked[other]) > 1
        prototype[char] = other if centre else min(char, other)
    return prototype


def _drawn(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", text) if not _within(ord(c), _IGNORABLE + _SELECTORS)
    )


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton: what a text looks like, whatever its characters.

    >>> skeleton("\\u0410nna") == skeleton("Anna")
    True
    """
    prototypes = _prototypes()
    shown = _drawn(text)
    for _ in range(4):  # a prototype of several characters is mapped in turn
        mapped = _drawn("".join(prototypes.get(c, c) for c in shown))
        if mapped == shown:
            break
        shown = mapped
    return shown


def looks_alike(a: str, b: str) -> bool:
    """Whether two different names look the same (under confusables, in any case)."""
    a, b = normal(a), normal(b)
    return skeleton(a) == skeleton(b) or skeleton(a.casefold()) == skeleton(b.casefold())


def look_alike_message(name: str, existing: str) -> Message:
    """``'Аnna' looks like the player 'Anna' (U+0410 CYRILLIC CAPITAL LETTER A)``."""
    name, existing = normal(name), normal(existing)
    differs = next((n for n, e in zip(name, existing, strict=False) if n != e), None)
    if differs is None:
        longer = name if len(name) > len(existing) else existing
        differs = longer[min(len(name), len(existing)) :][:1] or name[:1]
    return Message(
        "name.looks_like",
        value=printable(quote(name)),
        player=printable(quote(existing)),
        char=char_name(differs),
    )


# -- what is printed to a terminal ------------------------------------------------------------


def printable(text: str) -> str:
    """The text with every character :func:`hidden_kind` names escaped (``\\x1b``, ``\\u202e``).

    Nothing read from a store (written by an older version, or edited by hand) reaches a
    terminal raw: an escape sequence cannot clear the screen, a newline cannot forge a line.
    """
    if text.isascii() and text.isprintable():  # the common case, at once
        return text
    return "".join(c if hidden_kind(c) is None else c.encode("unicode_escape").decode("ascii") for c in text)


def printable_message(message: Message) -> Message:
    """The message with every text inside it (however deep) made :func:`printable`."""
    return Message(message.code, **{k: _printable_param(v) for k, v in message.params.items()})


def _printable_param(value: Param) -> Param:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, Message):
        return printable_message(value)
    if isinstance(value, Join):
        return Join(tuple(_printable_param(i) for i in value.items), value.sep, value.last, value.each)
    return value
