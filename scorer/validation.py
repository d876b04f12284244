"""Pydantic's findings in a player's words, translated once at the boundary.

Game files and ruleset files are validated by pydantic models; what pydantic
reports (``Extra inputs are not permitted``) is rewritten here into the words
of the file (``deal 2: unknown field 'knoker' (did you mean 'knocker'?)``),
quoting at most the start of a long value.

>>> from pydantic import BaseModel, ConfigDict, ValidationError
>>> class Entry(BaseModel):
...     model_config = ConfigDict(extra="forbid")
...     knocker: str | None = None
>>> try:
...     Entry.model_validate({"knoker": "Anna"})
... except ValidationError as exc:
...     print(problems(exc, model=Entry))
unknown field 'knoker' (did you mean 'knocker'?)
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from scorer.errors import QUOTE_CHARS, quote

Location = tuple[int | str, ...]

#: How many problems one message lists before it says how many more there are.
MAX_PROBLEMS = 3

# What a value of each kind is called, for "... is not a whole number".
_KINDS: dict[str, str] = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "float_type": "a number",
    "float_parsing": "a number",
    "dict_type": "a table of names and values",
    "model_type": "a table of names and values",
    "model_attributes_type": "a table of names and values",
    "list_type": "a list",
    "none_required": "empty (null)",
}

# The member tags pydantic adds to the location of a value that fits no member of a union.
_UNION_TAGS = frozenset({"bool", "int", "str", "float", "none", "list", "dict"})


def shown(value: Any) -> str:
    """A value as a message shows it: text quoted, anything else as JSON, cut short when long."""
    if isinstance(value, str):
        return quote(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= QUOTE_CHARS:
        return text
    return f"{text[:QUOTE_CHARS]} ... ({len(text):,} characters)"


def _step(annotation: Any, part: int | str) -> Any:
    """The type found one step down a location, or ``None``."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        for arg in get_args(annotation):
            found = _step(arg, part)
            if found is not None:
                return found
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        field = annotation.model_fields.get(str(part))
        return field.annotation if field is not None else None
    if origin is list and isinstance(part, int):
        return get_args(annotation)[0]
    if origin is dict:
        return get_args(annotation)[1]
    return None


def fields_at(model: type[BaseModel], location: Location) -> list[str]:
    """The field names of the table at ``location`` in ``model``'s documents."""
    annotation: Any = model
    for part in location:
        annotation = _step(annotation, part)
        if annotation is None:
            return []
    for arg in (annotation, *get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return list(arg.model_fields)
    return []


def _problem(error: ErrorDetails, *, kinds: Sequence[str], model: type[BaseModel]) -> tuple[Location, str]:
    """Where the problem is (a location) and what it is, in words."""
    location: Location = tuple(error["loc"])
    kind = error["type"]
    value = error.get("input")
    context = error.get("ctx") or {}
    if kind == "extra_forbidden":
        name = str(location[-1])
        close = get_close_matches(name, fields_at(model, location[:-1]), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return location[:-1], f"unknown field {quote(name)}{hint}"
    if kind == "missing":
        return location[:-1], f"missing field {quote(str(location[-1]))}"
    if len(kinds) > 1:
        wanted = " or ".join(dict.fromkeys(_KINDS.get(k, "another kind of value") for k in kinds))
        return location, f"{shown(value)} is not {wanted}"
    if kind in _KINDS:
        return location, f"{shown(value)} is not {_KINDS[kind]}"
    if kind == "literal_error":
        expected = str(context.get("expected", ""))
        if " or " in expected:
            return location, f"{shown(value)} is not one of {expected}"
        return location, f"{shown(value)} is not {expected}, the only value allowed"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        words = {
            "greater_than_equal": "at least",
            "greater_than": "more than",
            "less_than_equal": "at most",
            "less_than": "less than",
        }[kind]
        bound = next(iter(context.values()), "")
        return location, f"{shown(value)} is not allowed: it must be {words} {bound}"
    if kind == "string_pattern_mismatch":
        return location, f"{shown(value)} may hold only lowercase letters, digits and '-'"
    if kind == "string_too_long":
        return location, f"{shown(value)} is too long: at most {context.get('max_length')} characters"
    if kind in ("too_long", "too_short"):
        size = context.get("max_length" if kind == "too_long" else "min_length")
        words = "at most" if kind == "too_long" else "at least"
        return location, f"{context.get('actual_length', '?'):,} entries; {words} {size:,}"
    if kind in ("value_error", "assertion_error"):
        message = str(error["msg"])
        for prefix in ("Value error, ", "Assertion failed, "):
            message = message.removeprefix(prefix)
        return location, message
    return location, f"{shown(value)} is not allowed here"


def problems(
    exc: ValidationError,
    *,
    model: type[BaseModel],
    where: Callable[[Location], str] | None = None,
) -> str:
    """Every problem pydantic found, in words: ``'deal 2: unknown field ...; deal 3: ...'``.

    ``where`` names a location (``('deals', 1)`` -> ``'deal 2'``); by default the
    field names joined by dots. A value that fits no member of a union is one problem.
    """
    name = where or (lambda location: ".".join(str(p) for p in location))
    grouped: dict[Location, list[ErrorDetails]] = {}
    for error in exc.errors():
        location = tuple(error["loc"])
        if location and isinstance(location[-1], str) and location[-1] in _UNION_TAGS:
            location = location[:-1]
        grouped.setdefault(location, []).append({**error, "loc": location})
    texts: list[str] = []
    for errors in grouped.values():
        kinds = [e["type"] for e in errors] if all(e["type"] in _KINDS for e in errors) else []
        location, text = _problem(errors[0], kinds=kinds, model=model)
        place = name(location)
        texts.append(f"{place}: {text}" if place else text)
    if len(texts) > MAX_PROBLEMS:
        more = len(texts) - MAX_PROBLEMS
        texts = [*texts[:MAX_PROBLEMS], f"and {more} more problem{'s' * (more > 1)}"]
    return "; ".join(texts)
