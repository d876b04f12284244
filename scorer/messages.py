"""Messages as values: a stable code and its parameters, rendered once from a catalog.

Everything the engine, the league store and the command line say to a person is a
:class:`Message`: a code (``meld.not_a``) and parameters (cards, names, numbers, a nested
message, one of the engine's words). Exceptions carry one (``exc.message``), verdicts carry
one (``MeldCheck.message``). :func:`render` writes it in a language from that language's
catalog, ``scorer/locales/<language>.toml``: one line per code, the same ``{names}`` in every
language. A script matches the code (``rummy ... --json`` prints it beside the text), a
translator writes one line per code, and the wording can improve without breaking anyone.

A parameter is shown by its kind:

- :class:`Message`: rendered in the same language in turn (a reason inside a verdict);
- :class:`Word`: one of the engine's words (``run``, ``knocker``, ``big gin``), from the
  catalog's ``[word]`` table; :class:`Whose` likewise from ``[whose]`` (``knocker's``);
- :class:`Join`: several parameters joined (``a, b and c``, ``x; y``), the joining word
  translated;
- a number or a string (cards, names, quoted input): as it is; a catalog text may format a
  number (``{size:,}``).

``str(message)`` is its English text, and it stays attached: the text is a :class:`Text`, a
``str`` that remembers the message it was rendered from, so a view-model that keeps
``str(exc)`` can still show it in another language (``render(text, "fi")``).

>>> reason = Message("meld.not_a", kind=Word("run"), cards="QH KH AH",
...                  why=Message("meld.ace_low", name=VariantName("gin", "gin rummy")))
>>> str(reason)
'not a run: QH KH AH (aces are low in gin rummy)'
>>> render(reason, "fi")
'ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)'
>>> reason.code, reason.to_json()["params"]["kind"]
('meld.not_a', 'run')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Final, Literal, TypeAlias, get_args

Language = Literal["en", "fi"]

LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
DEFAULT_LANGUAGE: Final[Language] = "en"


# Plain classes, not dataclasses: this module is imported by every command before it
# parses its arguments, and the dataclasses module alone would cost a noticeable share.


class Word:
    """One of the engine's words inside a message, translated: ``Word("run")``."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word

    @property
    def key(self) -> str:
        return "word." + self.word.replace(" ", "-")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and type(other) is type(self) and other.word == self.word

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.word))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.word!r})"


class Whose(Word):
    """Whose it is, translated: ``Whose("knocker")`` is ``knocker's``."""

    __slots__ = ()

    @property
    def key(self) -> str:
        return "whose." + self.word


class VariantName(Word):
    """A bundled variant's name inside a message, in the message's language:
    ``VariantName("gin", "gin rummy")`` is ``ginirommi`` in Finnish. Its JSON is the English
    name, as a plain name's is."""

    __slots__ = ("variant",)

    def __init__(self, variant: str, word: str) -> None:
        super().__init__(word)
        self.variant = variant

    @property
    def key(self) -> str:
        return "variant." + self.variant

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VariantName) and (other.variant, other.word) == (self.variant, self.word)

    def __hash__(self) -> int:
        return hash((self.variant, self.word))

    def __repr__(self) -> str:
        return f"VariantName({self.variant!r}, {self.word!r})"


class Join:
    """Parameters joined into one: ``Join(("a", "b", "c"), last="and")`` is ``a, b and c``.

    ``sep`` goes between the items; ``last``, a word from the catalog (``and``, ``or``),
    goes before the last one instead when given, or between every two with ``each``
    (``a or b or c``).
    """

    __slots__ = ("each", "items", "last", "sep")

    def __init__(
        self, items: tuple[Param, ...], sep: str = ", ", last: str | None = None, each: bool = False
    ) -> None:
        self.items, self.sep, self.last, self.each = items, sep, last, each

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Join) and (self.items, self.sep, self.last, self.each) == (
            other.items,
            other.sep,
            other.last,
            other.each,
        )

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return f"Join({self.items!r}, sep={self.sep!r}, last={self.last!r}, each={self.each!r})"


Param: TypeAlias = "str | int | Message | Word | Whose | Join"


class Message:
    """A stable ``code`` and its parameters: ``Message("card.bad_suit", suit=7, why=...)``."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, /, **params: Param) -> None:
        self.code = code
        self.params: Mapping[str, Param] = params

    def render(self, language: str = DEFAULT_LANGUAGE) -> str:
        return render(self, language)

    def __str__(self) -> str:
        return render(self)

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.code!r}{params})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)

    def replace(self, old: str, new: str) -> Message:
        """The message with ``old`` replaced by ``new`` in every text it holds, however deep
        (a temporary path shown as the name the player picked)."""
        return Message(self.code, **{k: _replaced(v, old, new) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}}``: words as their English key, nested messages alike."""
        return {"code": self.code, "params": {k: _json(v) for k, v in self.params.items()}}


class Text(str):
    """A message's text that remembers the message: ``str(exc)`` keeps what it says."""

    __slots__ = ("message",)

    message: Message

    def __new__(cls, text: str, message: Message) -> Text:
        made = super().__new__(cls, text)
        made.message = message
        return made

    def __reduce__(self) -> tuple[type[Text], tuple[str, Message]]:
        # Copied or pickled with its message (str's own way would lose it, or fail).
        return (Text, (str(self), self.message))


def message_of(said: object) -> Message | None:
    """The message in an exception, a verdict's text or a message; ``None`` for a bare string."""
    if isinstance(said, Message):
        return said
    found = getattr(said, "message", None)
    return found if isinstance(found, Message) else None


def _replaced(value: Param, old: str, new: str) -> Param:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, Message):
        return value.replace(old, new)
    if isinstance(value, Join):
        return Join(tuple(_replaced(i, old, new) for i in value.items), value.sep, value.last, value.each)
    return value


def _json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Word | Whose):
        return value.word
    if isinstance(value, Join):
        return [_json(item) for item in value.items]
    return value


# -- the catalogs ----------------------------------------------------------------------


class CatalogError(Exception):
    """A broken message catalog: a programming error, found by the catalog test."""


@cache
def catalog(language: Language) -> dict[str, str]:
    """Code -> text for ``language``, from ``scorer/locales/<language>.toml``. Read once."""
    # A file beside this module (the wheel ships scorer/locales/): importlib.resources would
    # cost every command its import time.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales", f"{language}.toml")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        return read_plain_catalog(text)
    except ValueError:
        return read_catalog(text, name=f"{language}.toml")


def read_catalog(text: str, *, name: str) -> dict[str, str]:
    """A catalog's TOML read whole: ``[area]`` tables of ``code = "text"``."""
    import tomllib

    texts: dict[str, str] = {}
    for area, table in tomllib.loads(text).items():
        if not isinstance(table, dict):
            raise CatalogError(f"{name}: {area!r} is not a table")
        for code, said in table.items():
            texts[f"{area}.{code}"] = str(said)
    return texts


def read_plain_catalog(text: str) -> dict[str, str]:
    """A catalog written in the plain form the catalogs keep to, read fast; ``ValueError``
    for any line outside that form (then :func:`read_catalog` reads the file as TOML).

    Every command renders a message, and a TOML parser takes longer over the catalog than the
    rest of a referee command's start; the plain form is one ``[area]`` or one
    ``code = "text"`` per line, and the text a JSON string, which a TOML basic string without
    ``\\U`` escapes also is. A test requires both readers to agree on the shipped catalogs.
    """
    texts: dict[str, str] = {}
    area = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            area = line[1:-1].strip()
            if not area.isidentifier():
                raise ValueError(line)
            continue
        code, equals, said = line.partition(" = ")
        if not equals or area is None or not said.startswith('"') or "\\U" in said:
            raise ValueError(line)
        if code.startswith('"'):
            code = str(_json_string(code))
        elif not code.replace("_", "a").isalnum():
            raise ValueError(line)
        # Most texts hold no escape: the text between the quotes is the text.
        plain = said.endswith('"') and len(said) > 1 and '"' not in said[1:-1] and "\\" not in said
        value = said[1:-1] if plain else _json_string(said)
        if not isinstance(value, str) or f"{area}.{code}" in texts:
            raise ValueError(line)
        texts[f"{area}.{code}"] = value
    return texts


def _json_string(text: str) -> object:
    import json  # only for the few texts with an escape in them

    return json.loads(text)


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a catalog text fills in."""
    from string import Formatter  # for the catalog tests and the app's: no command needs it

    return frozenset(name for _, name, _, _ in Formatter().parse(text) if name)


def known_language(value: str | None) -> Language | None:
    """The language ``value`` names (``fi``, ``fi_FI.UTF-8``, ``fi-FI``), or ``None``."""
    prefix = (value or "").replace("-", "_").split("_")[0].split(".")[0].lower()
    for language in LANGUAGES:
        if prefix == language:
            return language
    return None


def language_of(value: str | None) -> Language:
    """The language for ``--lang``, ``RUMMY_LANG`` or a locale; English for any other."""
    return known_language(value) or DEFAULT_LANGUAGE


def environment_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language the environment asks for: ``RUMMY_LANG``, else the locale, else English.

    The locale is read as gettext does: the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    that is set decides (``C`` and ``POSIX`` are English).
    """
    environ = os.environ if environ is None else environ
    if environ.get("RUMMY_LANG"):
        return language_of(environ["RUMMY_LANG"])
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name])
    return DEFAULT_LANGUAGE


# -- rendering -------------------------------------------------------------------------


def render(said: Message | str, language: str = DEFAULT_LANGUAGE) -> str:
    """``said`` in ``language``: a message from the catalog; a :class:`Text` by its message.

    The text returned remembers its message (a :class:`Text`), so it can be shown again in
    another language. A plain string (a library's words that reached this far, a person's
    own input) is returned as it is: there is nothing to translate it from.
    """
    message = message_of(said)
    if message is None:
        return str(said)
    lang: Language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    text = catalog(lang).get(message.code) or catalog(DEFAULT_LANGUAGE).get(message.code)
    if text is None:
        raise CatalogError(f"no text for message code {message.code!r}")
    values = {name: _value(value, lang) for name, value in message.params.items()}
    return Text(text.format(**values), message)


def _value(value: Param, language: Language) -> object:
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, Word | Whose):
        texts = catalog(language)
        return texts.get(value.key) or catalog(DEFAULT_LANGUAGE).get(value.key, value.word)
    if isinstance(value, Join):
        items = [str(_value(item, language)) for item in value.items]
        if value.last is not None and len(items) > 1:
            word = str(_value(Word(value.last), language))
            if value.each:
                return f" {word} ".join(items)
            return value.sep.join(items[:-1]) + f" {word} " + items[-1]
        return value.sep.join(items)
    return value


def join(items: Iterable[Param], *, last: str | None = None, sep: str = ", ", each: bool = False) -> Join:
    """:class:`Join` from any iterable: ``join(names, last="and")``."""
    return Join(tuple(items), sep, last, each)
