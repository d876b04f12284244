"""Frozen values without the dataclasses module: the base of the engine's value classes.

A referee command starts as a fresh process, and importing :mod:`dataclasses` (it imports
:mod:`inspect`, :mod:`ast` and :mod:`dis`) and generating each dataclass's methods was a
good share of its start (bench/README.md, "Command-line startup benchmark"). A
:class:`Frozen` subclass annotates its fields, in order, names them in ``__slots__`` too,
and sets them in its ``__init__`` with :meth:`Frozen._fill`, or one by one with
:func:`setfield` where many are made (as fast as a dataclass's own ``__init__``). It gets
what ``@dataclass(frozen=True, slots=True)`` gave it: equality and a hash over the fields,
the same ``repr``, ``__match_args__``, no assignment once made, copies and pickles.

>>> class Point(Frozen):
...     __slots__ = ("x", "y")
...     x: int
...     y: int
...     def __init__(self, x: int, y: int = 0) -> None:
...         self._fill(x, y)
>>> Point(1, 2), Point(1, 2) == Point(1, 2), hash(Point(1, 2)) == hash((1, 2))
(Point(x=1, y=2), True, True)
>>> Point(1).x = 3
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'x'
"""

from __future__ import annotations

#: Sets one field of a frozen value in its ``__init__``: ``setfield(self, "rank", rank)``.
setfield = object.__setattr__


class Frozen:
    """A frozen value compared, hashed and shown by its fields (its annotated slots)."""

    __slots__ = ()
    #: The fields in order, for ``match`` (a dataclass sets it too).
    __match_args__: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # The fields in the order the class annotates them, after its base's, as a dataclass
        # takes them (inspect.get_annotations would import inspect, what this module avoids).
        inherited = cls.__match_args__
        own = [name for name in cls.__dict__.get("__annotations__", {}) if name not in inherited]  # noqa: RUF063
        if set(own) != set(cls.__dict__.get("__slots__", ())):
            raise TypeError(f"{cls.__name__}: __slots__ must name the fields it annotates: {own}")
        cls.__match_args__ = (*inherited, *own)  # type: ignore[misc]  # mypy takes it as fixed

    def _fill(self, *values: object) -> None:
        """Set the fields, in the order the class annotates them."""
        for name, value in zip(self.__match_args__, values, strict=True):
            setfield(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ and isinstance(other, Frozen):
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Frozen], tuple[object, ...]]:
        # Copies and pickles are made by calling the class with the fields: the default way
        # sets each slot with setattr, which a frozen value refuses.
        return (self.__class__, self._values())
