"""The club server's sync API: a league's facts, read and sent a page at a time.

A device (``rummy league sync``, :mod:`scorer.league.sync`; or the app in a browser) reads the
league's facts after a position it has, and sends the facts the server lacks; the rules of a
page are :func:`scorer.league.merge.merge_page`'s (a fact the server has is skipped by id, a
game changed apart is a conflict reported and not applied, a league the server lacks is taken
whole with its ids). Every request carries a token (``Authorization: Bearer ...``), checked by
the gate for the action it asks (:mod:`scorer.league.tokens`); the commit a page makes names
the token that sent it. docs/serving.md, "Sync API", is the reference.

- ``GET /api/v1/leagues`` (read): ``{"leagues": [{"id", "name"}]}``.
- ``GET /api/v1/leagues/{league}/facts?after=N&limit=L`` (read): ``{"facts": [...],
  "position": M, "more": bool}``; ask again from ``M`` while ``more``.
- ``POST /api/v1/leagues/{league}/facts`` with ``{"facts": [...]}`` (record, or direct for
  the facts that need it: :func:`action_of`; a page of facts the server has, read):
  ``{"added": n, "held": k, "conflicts": [...], "settled": [game, ...], "position": M}``
  (``settled``: the games whose conflict a join in the page ended), the page applied whole or
  not at all.

A refusal is JSON, ``{"detail": {"code", "params", "text"}}``: 400 for a page that is not
one (the fact and the rule named), 404 for a league the server lacks, 503 while the store is
busy.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol, TypeVar

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from scorer.api.auth import refusal
from scorer.league.errors import StoreBusyError, StoreError, UnknownLeagueError
from scorer.league.store import Store
from scorer.league.sync import MOST_PAGE_FACTS, PAGE_FACTS, creation_fact, facts_page
from scorer.league.tokens import Action, TokenInfo, may
from scorer.messages import Message, message_of

#: The kinds a scorer's token may send (games and their deals, the players a new game seats,
#: a table's call to the director, a table's confirmation or dispute of a deal, and the join
#: that settles a game changed on two devices apart, scorekeeping's own choice); every
#: other kind (leagues, seasons, renaming and merging players, seating and running club
#: nights, answering calls, penalties, resolving disputes, a league's confirmation setting,
#: records of an earlier layout) needs a director's.
RECORD_KINDS: Final = frozenset(
    {
        "player.added",
        "game.started",
        "deal.recorded",
        "deal.corrected",
        "deal.removed",
        "deal.restored",
        "game.called",
        "game.finished",
        "game.abandoned",
        "game.resumed",
        "game.deleted",
        "game.undeleted",
        "game.moved",
        "game.imported",
        "game.extended",
        "game.joined",
        "night.called",
        "deal.confirmed",
        "deal.disputed",
    }
)

_T = TypeVar("_T")


class Gate(Protocol):
    """What checks a request's token (:class:`scorer.api.auth.TokenGate`): the token's
    holder, or an :class:`~fastapi.HTTPException` (401 no or a wrong token, 403 its role may
    not, 429 too many wrong tokens)."""

    def check(self, request: Request, action: Action) -> TokenInfo: ...


def action_of(kind: str) -> Action:
    """The action sending a fact of ``kind`` asks for.

    >>> action_of("deal.recorded"), action_of("night.round_seated"), action_of("player.merged")
    (<Action.RECORD: 'record'>, <Action.DIRECT: 'direct'>, <Action.DIRECT: 'direct'>)
    >>> action_of("night.called"), action_of("night.call_answered"), action_of("game.penalised")
    (<Action.RECORD: 'record'>, <Action.DIRECT: 'direct'>, <Action.DIRECT: 'direct'>)
    >>> action_of("deal.confirmed"), action_of("deal.disputed"), action_of("dispute.resolved")
    (<Action.RECORD: 'record'>, <Action.RECORD: 'record'>, <Action.DIRECT: 'direct'>)
    """
    return Action.RECORD if kind in RECORD_KINDS else Action.DIRECT


def facts_router(store: Store, gate: Gate) -> APIRouter:
    """The sync API's routes on ``store`` (mounted under ``/api/v1``)."""
    router = APIRouter()

    async def checked(request: Request, action: Action) -> TokenInfo:
        return await run_in_threadpool(gate.check, request, action)

    async def run(work: Callable[[], _T]) -> _T:
        """The store's work off the event loop, its refusals said as HTTP's."""
        try:
            return await run_in_threadpool(work)
        except UnknownLeagueError as exc:
            raise refusal(404, exc.message) from None
        except StoreBusyError as exc:
            raise refusal(503, exc.message) from None
        except ValueError as exc:  # the page's fault: a fact that is not one, a rule it breaks
            said = message_of(exc) or Message("store.os_said", text=str(exc))
            raise refusal(400, said) from None
        except StoreError as exc:
            raise refusal(503, exc.message) from None

    @router.get("/leagues")
    async def leagues(request: Request) -> dict[str, Any]:
        await checked(request, Action.READ)
        found = await run(store.leagues)
        return {"leagues": [{"id": lg.id, "name": lg.name} for lg in found]}

    @router.get("/leagues/{league}/facts")
    async def read_facts(
        request: Request,
        league: str,
        after: int = Query(0, ge=0),
        limit: int = Query(PAGE_FACTS, ge=1, le=MOST_PAGE_FACTS),
    ) -> dict[str, Any]:
        await checked(request, Action.READ)

        def page() -> dict[str, Any]:
            league_id = store.league(league).id
            commits, position = store.league_commits(league_id, after)
            first = creation_fact(store, league_id) if after == 0 else None
            return facts_page(commits, position, after=after, limit=limit, first=first)

        return await run(page)

    @router.post("/leagues/{league}/facts")
    async def send_facts(request: Request, league: str) -> dict[str, Any]:
        holder = await checked(request, Action.READ)
        facts = _page_of(await request.body())
        new = await run(lambda: store.unknown_facts(_ids(facts)))
        asked = {action_of(str(f.get("kind"))) for f in facts if f.get("id") in new}
        for action in sorted((asked | {Action.RECORD}) if asked else set()):
            if not may(holder.role, action):  # a page of facts the server has asks nothing more
                await checked(request, action)  # the gate says why (403), as for any request
        applied = await run(
            lambda: store.receive_facts(league, facts, source=holder.name, sender=holder.name)
        )
        return {
            "added": applied.added,
            "held": applied.held,
            "conflicts": applied.conflicts,
            "settled": sorted(applied.settled),
            "position": await run(lambda: store.position),
        }

    return router


def _page_of(body: bytes) -> list[dict[str, Any]]:
    """The facts of a sent page: ``{"facts": [...]}`` of JSON objects, at most
    :data:`MOST_PAGE_FACTS`; anything else is refused (400) saying what is wrong."""
    try:
        data = json.loads(body)
    except ValueError:
        raise refusal(400, Message("sync.page_not_json")) from None
    facts = data.get("facts") if isinstance(data, Mapping) else None
    if not isinstance(facts, list):
        raise refusal(400, Message("sync.page_no_facts"))
    if len(facts) > MOST_PAGE_FACTS:
        raise refusal(400, Message("sync.page_too_big", count=len(facts), most=MOST_PAGE_FACTS))
    for number, fact in enumerate(facts, start=1):
        if not isinstance(fact, dict):
            raise refusal(400, Message("facts.not_a_fact", found=f"{type(fact).__name__} (fact {number})"))
    return facts


def _ids(facts: Iterable[Mapping[str, Any]]) -> list[str]:
    return [str(f.get("id")) for f in facts]


__all__ = ["RECORD_KINDS", "Gate", "action_of", "facts_router"]
