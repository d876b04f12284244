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
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from scorer.errors import QUOTE_CHARS, quote
from scorer.messages import Join, Message, Param, Word, join, message_of

Location = tuple[int | str, ...]

#: How many problems one message lists before it says how many more there are.
MAX_PROBLEMS = 3

# What a value of each kind is called, for "... is not a whole number": its message code.
_KINDS: dict[str, str] = {
    "int_type": "doc.kind_whole_number",
    "int_parsing": "doc.kind_whole_number",
    "int_from_float": "doc.kind_whole_number",
    "bool_type": "doc.kind_true_or_false",
    "bool_parsing": "doc.kind_true_or_false",
    "string_type": "doc.kind_text",
    "float_type": "doc.kind_number",
    "float_parsing": "doc.kind_number",
    "dict_type": "doc.kind_table",
    "model_type": "doc.kind_table",
    "model_attributes_type": "doc.kind_table",
    "list_type": "doc.kind_list",
    "none_required": "doc.kind_empty",
}
_BOUNDS: dict[str, str] = {
    "greater_than_equal": "at least",
    "greater_than": "more than",
    "less_than_equal": "at most",
    "less_than": "less than",
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


def _choices(expected: str) -> Join:
    """pydantic's ``"'a', 'b' or 'c'"`` as its items, joined again in the message's language."""
    head, _, last = expected.rpartition(" or ")
    return join([*head.split(", "), last], last="or")


def _problem(
    error: ErrorDetails, *, kinds: Sequence[str], model: type[BaseModel]
) -> tuple[Location, Message]:
    """Where the problem is (a location) and what it is, in words."""
    location: Location = tuple(error["loc"])
    kind = error["type"]
    value = error.get("input")
    context = error.get("ctx") or {}
    if kind == "extra_forbidden":
        name = str(location[-1])
        from difflib import get_close_matches

        close = get_close_matches(name, fields_at(model, location[:-1]), n=1, cutoff=0.6)
        if close:
            return location[:-1], Message("doc.field_unknown_hint", field=quote(name), close=repr(close[0]))
        return location[:-1], Message("doc.field_unknown", field=quote(name))
    if kind == "missing":
        return location[:-1], Message("doc.field_missing", field=quote(str(location[-1])))
    if len(kinds) > 1:
        wanted = [Message(code) for code in dict.fromkeys(_KINDS.get(k, "doc.kind_other") for k in kinds)]
        return location, Message(
            "doc.value_kind", value=shown(value), kinds=join(wanted, last="or", each=True)
        )
    if kind in _KINDS:
        return location, Message("doc.value_kind", value=shown(value), kinds=Message(_KINDS[kind]))
    if kind == "literal_error":
        expected = str(context.get("expected", ""))
        if " or " in expected:
            return location, Message("doc.value_not_one_of", value=shown(value), values=_choices(expected))
        return location, Message("doc.value_only", value=shown(value), expected=expected)
    if kind in _BOUNDS:
        bound = next(iter(context.values()), "")
        return location, Message(
            "doc.value_bound", value=shown(value), relation=Word(_BOUNDS[kind]), bound=str(bound)
        )
    if kind == "string_pattern_mismatch":
        return location, Message("doc.value_slug", value=shown(value))
    if kind == "string_too_long":
        return location, Message(
            "doc.value_too_long", value=shown(value), most=str(context.get("max_length"))
        )
    if kind in ("too_long", "too_short"):
        size = context.get("max_length" if kind == "too_long" else "min_length")
        relation = Word("at most" if kind == "too_long" else "at least")
        count = context.get("actual_length", "?")
        return location, Message("doc.entries_count", count=f"{count:,}", relation=relation, size=f"{size:,}")
    if kind in ("value_error", "assertion_error"):
        found = message_of(context.get("error"))
        if found is not None:
            return location, found
        text = str(error["msg"])
        for prefix in ("Value error, ", "Assertion failed, "):
            text = text.removeprefix(prefix)
        return location, Message("doc.library", text=text)
    return location, Message("doc.value_not_here", value=shown(value))


def location_words(location: Location) -> Param:
    """A place in a document in words, never a dotted path: ``cards_dealt, 2``, ``decks, item 2``.

    >>> str(Message("doc.problem_at", place=location_words(("melds", 1, "cards")), problem="x"))
    'melds, item 2, cards: x'
    """
    parts: list[Param] = [
        Message("doc.item", number=p + 1) if isinstance(p, int) else str(p) for p in location
    ]
    return join(parts, sep=", ") if parts else ""


def problems(
    exc: ValidationError,
    *,
    model: type[BaseModel],
    where: Callable[[Location], Param] | None = None,
) -> Message:
    """Every problem pydantic found, in words: ``'deal 2: unknown field ...; deal 3: ...'``.

    ``where`` names a location (``('deals', 1)`` -> ``'deal 2'``); by default
    :func:`location_words`. A value that fits no member of a union is one problem.
    """
    name: Callable[[Location], Param] = where or location_words
    grouped: dict[Location, list[ErrorDetails]] = {}
    for error in exc.errors():
        location = tuple(error["loc"])
        if location and isinstance(location[-1], str) and location[-1] in _UNION_TAGS:
            location = location[:-1]
        grouped.setdefault(location, []).append({**error, "loc": location})
    found: list[Message] = []
    for errors in grouped.values():
        kinds = [e["type"] for e in errors] if all(e["type"] in _KINDS for e in errors) else []
        location, problem = _problem(errors[0], kinds=kinds, model=model)
        place = name(location)
        found.append(Message("doc.problem_at", place=place, problem=problem) if place else problem)
    if len(found) > MAX_PROBLEMS:
        more = len(found) - MAX_PROBLEMS
        extra = Message("doc.more_problems", more=more) if more > 1 else Message("doc.more_problem")
        found = [*found[:MAX_PROBLEMS], extra]
    return Message("doc.problems", problems=join(found, sep="; "))
