"""A game a sync found changed here and on another device apart: the other side's deals.

The sync never merges such a game in silence: it reports a conflict and holds the other side's
facts back, kept beside the facts (:meth:`Store.held_facts
<scorer.league.store.Store.held_facts>`). The Scoreboard shows them under *Changed on another
device too*: each deal the other device recorded, corrected or removed, by whom and when (or,
where their side chose on a conflict too, each deal as their choice left it that differs from
this side's), and
the three choices of one server (:class:`SyncedApart`): *Keep theirs*, *Save mine as the next
deal*, *Replace theirs* (then *Why (optional)* and *Save correction*). A choice is one write
(:meth:`Store.settle_conflict <scorer.league.store.Store.settle_conflict>`): the notice goes at
once, and the next sync brings the other devices to the same game.

>>> from scorer.league.store import Store
>>> their_deals(Store.memory(), "no-such-game")
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from scorer.errors import ScorerError
from scorer.league.store import Store

Change = Literal["recorded", "corrected", "removed", "restored"]


@dataclass(frozen=True, slots=True)
class TheirDeal:
    """One change the other device made to a deal of the game: what, by whom, when."""

    number: int  # 1-based, as on the board
    change: Change
    deal: dict[str, Any] | None  # the deal as they entered it (None: a removal or a restore)
    by: str
    at: str


def their_deals(store: Store, game_id: str) -> list[TheirDeal]:
    """The other device's changes to the deals of ``game_id``, in their order (none: no
    conflict held, or it has since been settled)."""
    try:
        facts = store.held_facts(game_id)
    except (ScorerError, OSError):
        return []
    found: list[TheirDeal] = []
    mine: list[Any] | None = None
    for fact in facts:
        if fact.kind == "game.joined":  # their choice on a conflict: their deals as it left them
            if mine is None:
                try:
                    mine = list(store.game(game_id).document.get("deals") or [])
                except (ScorerError, OSError):
                    mine = []
            theirs = list(fact.data.record.get("document", {}).get("deals") or [])
            for number, deal in enumerate(theirs, start=1):
                if number > len(mine) or mine[number - 1] != deal:
                    found.append(TheirDeal(number, "recorded", dict(deal), fact.by, fact.at))
            continue
        change = fact.kind.removeprefix("deal.")
        if fact.kind.startswith("deal.") and change in ("recorded", "corrected", "removed", "restored"):
            deal = getattr(fact.data, "deal", None)
            found.append(
                TheirDeal(
                    number=int(fact.data.number),
                    change=change,  # type: ignore[arg-type]
                    deal=dict(deal) if isinstance(deal, dict) else None,
                    by=fact.by,
                    at=fact.at,
                )
            )
    return found


@dataclass(slots=True)
class SyncedApart:
    """The notice's choices for one game: plain Python, callable from a test with no UI.

    ``replacing``: *Replace theirs* was pressed, the reason field and *Save correction* show;
    ``error``: why the last choice wrote nothing (the game as theirs left it refuses a deal of
    mine, say), in the engine's words."""

    game_id: str
    theirs: list[TheirDeal] = field(default_factory=list)
    replacing: bool = False
    why: str = ""
    error: str | None = None

    def read(self, store: Store) -> None:
        """Their deals as the store holds them now (none: settled, the notice goes)."""
        self.theirs = their_deals(store, self.game_id)
        if not self.theirs:
            self.replacing, self.why = False, ""

    def read_again(self, store: Store) -> bool:
        """:meth:`read` after a change to the store, which may be anyone's anywhere: only when
        the store may hold facts of the game or the notice shows some (their settling makes it
        go), else nothing is read. True when their deals changed."""
        if not self.theirs and not store.may_hold_facts(self.game_id):
            return False
        before = (list(self.theirs), self.replacing)
        self.read(store)
        return (self.theirs, self.replacing) != before

    def keep_theirs(self, store: Store, *, by: str | None = None) -> bool:
        return self._settle(store, "theirs", by=by)

    def save_mine_next(self, store: Store, *, by: str | None = None) -> bool:
        return self._settle(store, "mine-next", by=by)

    def start_replacing(self) -> None:
        """*Replace theirs*: ask for the reason first (*Save correction* then writes)."""
        self.replacing, self.error = True, None

    def replace_theirs(self, store: Store, *, by: str | None = None) -> bool:
        return self._settle(store, "replace", by=by, why=self.why.strip() or None)

    def _settle(self, store: Store, choice: str, *, by: str | None, why: str | None = None) -> bool:
        try:
            store.settle_conflict(self.game_id, choice, why=why, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            self.read(store)
            return False
        self.error = None
        self.read(store)
        return True


__all__ = ["SyncedApart", "TheirDeal", "their_deals"]
