"""A game a sync found changed here and on another device apart: the other side's deals.

The sync never merges such a game in silence: it reports a conflict and holds the other side's
facts back, kept beside the facts (:meth:`Store.held_facts
<scorer.league.store.Store.held_facts>`). The Scoreboard shows them under *Changed on another
device too*: each deal the other device recorded, corrected or removed, by whom and when.

>>> from scorer.league.store import Store
>>> their_deals(Store.memory(), "no-such-game")
[]
"""

from __future__ import annotations

from dataclasses import dataclass
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
    for fact in facts:
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


__all__ = ["TheirDeal", "their_deals"]
