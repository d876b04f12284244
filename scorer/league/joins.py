"""Joining a game's two histories: the three choices of a game changed on two devices apart.

Every fact about a game names the one before it (``prev``), so a game's facts form a chain.
Two devices that changed a game apart (offline, each recorded deal 3) meet at a sync as a
conflict: each keeps its own chain and holds the other's facts back
(:meth:`~scorer.league.store.Store.held_facts`). One device then chooses, as on one server:

- ``theirs`` (*Keep theirs*): their history is kept, this device's since the two parted is set
  aside;
- ``mine-next`` (*Save mine as the next deal*): theirs kept, then this device's deals since the
  two parted recorded again after theirs, as ordinary ``deal.recorded`` facts;
- ``replace`` (*Replace theirs*): theirs kept, then each of their deals since the two parted
  corrected to this device's (an ordinary signed ``deal.corrected``, with the reason given),
  and any further deals of this device's recorded after them.

Every choice is one join, then ordinary facts. The join (``game.joined``) names the head of
the history kept as its ``prev``, the facts set aside as ``retired`` (in every store's log, in
order, but folded nowhere) and carries the game as the history kept leaves it (``record``), so
that every store folds it alike without reading any history. The rules every store applies
(:meth:`scorer.league.state.State.apply`, :meth:`scorer.league.merge._FactMerger.join`):

- a fact whose ``prev`` is not the game's last folded fact is *off the chain*: kept, not folded;
- a join folds when the last fact here is the head it keeps, or one it sets aside, and the
  history it keeps is all here (in the log or held back): the held facts of that history and
  those it sets aside go into the log before it, and the game's conflict is over;
- any other join (the two devices both chose before they met again) is a new conflict, held
  back and shown like any other: choosing once more on either device settles it, never a fact
  lost.

This module finds what a choice joins (:func:`plan`); the store writes it
(:meth:`~scorer.league.store.Store.settle_conflict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from scorer.league.errors import StoreInputError
from scorer.league.facts import Fact
from scorer.league.state import State, off_chain
from scorer.messages import Message

#: The three choices, as ``rummy league conflict --keep`` names them.
CHOICES: Final = ("theirs", "mine-next", "replace")


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """What a choice joins: their facts to take into the log (off the chain here; with those a
    join of their history set aside, where this store holds them), the head
    kept (``kept``), the ids set aside (``retired``), the game as their history leaves it
    (``record``), and this device's deals since the two histories parted (``mine``, game-file
    deal objects) with the number of the first (``first``, 1-based)."""

    theirs: tuple[Fact, ...]
    kept: str
    retired: tuple[str, ...]
    record: dict[str, Any]
    mine: tuple[dict[str, Any], ...]
    first: int


def folded_chain(facts: Sequence[Fact]) -> list[Fact]:
    """Of a game's facts in its log's order, those folded into it (the state's rule: one off the
    chain is not), in order: folded alone, they make the game as the state has it."""
    head: str | None = None
    chain: list[Fact] = []
    for fact in facts:
        if off_chain(fact, head):
            continue
        chain.append(fact)
        head = fact.id
    return chain


def plan(state: State, game: str, *, logged: Sequence[Fact], held: Sequence[Fact]) -> Plan:
    """The join of ``game``'s history here (``logged``: its facts in this store's log, in
    order) with the held history ``held`` (the last one held and the facts it follows).
    Refused (:class:`~scorer.league.errors.StoreInputError`) when nothing of the game is held
    back, or the held facts do not lead back to this store's history."""
    if not held:
        raise StoreInputError(Message("joins.no_conflict", game=game))
    ours = folded_chain(logged)
    on_chain = {f.id: n for n, f in enumerate(ours)}
    known = {f.id: f for f in [*logged, *held]}
    named = {f.prev for f in held}
    tip = next(f for f in reversed(held) if f.id not in named)
    after: list[Fact] = []
    at: Fact | None = tip
    while at is not None and at.id not in on_chain:
        after.append(at)
        at = known.get(at.prev) if at.prev is not None else None
    if at is None:
        raise StoreInputError(Message("joins.apart_from_start", game=game))
    after.reverse()
    fork = on_chain[at.id]
    record = state.folded_alone(game, [*ours[: fork + 1], *after])
    seen = state.seen
    mine_deals = list(state.record(game).document.get("deals") or [])
    theirs_deals = list(record["document"].get("deals") or [])
    same = 0
    for a, b in zip(mine_deals, theirs_deals, strict=False):
        if a != b:
            break
        same += 1
    # what a join of their history set aside and this store holds: into the log too, first
    aside = {i for f in after if f.kind == "game.joined" for i in f.data.retired}
    taken = [f for f in held if f.id in aside and f.id not in seen]
    return Plan(
        theirs=tuple([*taken, *(f for f in after if f.id not in seen)]),
        kept=tip.id,
        retired=tuple(f.id for f in ours[fork + 1 :]),
        record=record,
        mine=tuple(dict(d) for d in mine_deals[same:]),
        first=same + 1,
    )


def choice_of(text: str) -> str:
    """A choice as given (``theirs``, ``mine-next``, ``replace``); anything else is refused
    naming it."""
    value = text.strip().lower()
    if value not in CHOICES:
        raise StoreInputError(Message("joins.bad_choice", choice=repr(text), choices=", ".join(CHOICES)))
    return value


__all__ = ["CHOICES", "Plan", "choice_of", "folded_chain", "plan"]
