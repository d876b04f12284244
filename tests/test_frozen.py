"""The engine's value classes (scorer.frozen) behave as the frozen slotted dataclasses they
replaced: the same equality, hash, repr and field order, no assignment, copies and pickles."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from scorer.cards import Card, parse_cards
from scorer.frozen import Frozen
from scorer.house_rules import NAMED_RULES
from scorer.knock import DefenderSide, KnockerSide, KnockVerdict, Layoff, _KnockTables, _Meld, _Result
from scorer.melds import LayoffCheck, MeldCheck, Reading
from scorer.messages import Message
from scorer.opening import OpeningVerdict
from scorer.options import OptionInfo
from scorer.solver import Arrangement, DiscardChoice
from scorer.table import JokerMove, TableVerdict

FIVE, SIX = parse_cards("5H 6H")
MELD = parse_cards("5H 6H 7H")
READING = Reading("run", MELD)
ARRANGEMENT = Arrangement((MELD,), (Card.parse("KS"),), 10, 18)
SIDE = KnockerSide((MELD,), (), 0)

#: One value of every class, built with every field given.
VALUES: list[Frozen] = [
    READING,
    MeldCheck(MELD, (READING,), None, ()),
    LayoffCheck(MELD, (FIVE,), False, Message("meld.no_layoff_cards"), MELD, 1),
    ARRANGEMENT,
    DiscardChoice(SIX, ARRANGEMENT),
    Layoff(0, (FIVE,)),
    SIDE,
    DefenderSide((), (Layoff(0, (FIVE,)),), (SIX,), 6),
    KnockVerdict(True, None, "gin", "knocker", 25, SIDE, DefenderSide((), (), (), 0)),
    _Meld(7, (0, 1, 2), "run"),
    _Result("knock", "knocker", 12, (0, 3)),
    _KnockTables(None, (), frozenset()),  # type: ignore[arg-type]
    OpeningVerdict(True, 40, 40, None, (MELD,), (FIVE,), True, (0,)),
    TableVerdict(True, None, (MELD,)),
    JokerMove(1, Card.joker(FIVE), FIVE, 2),
    OptionInfo("knock_limit", 10, 10, "the most deadwood a knocker may hold"),
    NAMED_RULES["high_ace"],
]


def _dataclass_twin(value: Frozen) -> Any:
    """The same value as a frozen slotted dataclass of the same name and fields."""
    cls = type(value)
    twin = dataclasses.make_dataclass(
        cls.__name__, list(cls.__match_args__), frozen=True, slots=True, namespace={}
    )
    twin.__qualname__ = cls.__qualname__
    return twin(*(getattr(value, name) for name in cls.__match_args__))


def _hash(value: object) -> int | str:
    """The value's hash, or the error that hashing it raises (a named rule holds mappings)."""
    try:
        return hash(value)
    except TypeError as exc:
        return str(exc)


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_value_is_what_its_dataclass_was(value: Frozen) -> None:
    twin = _dataclass_twin(value)
    assert repr(value) == repr(twin)
    assert _hash(value) == _hash(twin)
    assert type(value).__match_args__ == type(twin).__match_args__
    assert not hasattr(value, "__dict__")
    again = type(value)(*(getattr(value, name) for name in type(value).__match_args__))
    assert again == value and _hash(again) == _hash(value) and again is not value
    assert value != twin  # another class, as two dataclasses are never equal


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_value_cannot_be_changed(value: Frozen) -> None:
    name = type(value).__match_args__[0]
    with pytest.raises(AttributeError, match=f"cannot assign to field '{name}'"):
        setattr(value, name, None)
    with pytest.raises(AttributeError, match=f"cannot delete field '{name}'"):
        delattr(value, name)
    with pytest.raises(AttributeError, match="cannot assign to field 'other'"):
        value.other = 1


@pytest.mark.parametrize("value", VALUES[:-1], ids=lambda v: type(v).__name__)
def test_a_value_is_copied_and_pickled_whole(value: Frozen) -> None:
    # NAMED_RULES' settings are read-only mappings, which no pickle takes.
    for again in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert again == value and type(again) is type(value)


def test_a_card_keeps_its_own_repr_and_checks() -> None:
    assert repr(Card.joker(FIVE)) == "Card.parse('*=5H')"
    assert Card(5, 1) == FIVE and hash(Card(5, 1)) == hash((5, 1, None))
    assert {FIVE: 1}[Card.parse("5h")] == 1
    with pytest.raises(ValueError, match="only a joker can stand for a card, not 5H"):
        Card(5, 1, SIX)
    with pytest.raises(AttributeError, match="cannot assign to field 'rank'"):
        FIVE.rank = 6


def test_a_subclass_adds_fields_after_its_bases() -> None:
    class Point(Frozen):
        __slots__ = ("x", "y")
        x: int
        y: int

        def __init__(self, x: int, y: int) -> None:
            self._fill(x, y)

    class Spot(Point):
        __slots__ = ("z",)
        z: int

        def __init__(self, x: int, y: int, z: int) -> None:
            self._fill(x, y, z)

    assert repr(Spot(1, 2, 3)).endswith(".Spot(x=1, y=2, z=3)") and Spot.__match_args__ == ("x", "y", "z")
    assert Point(1, 2) != Spot(1, 2, 3)
    with pytest.raises(TypeError, match=r"__slots__ must name the fields it annotates: \['w'\]"):

        class Loose(Point):
            w: int
