"""The checkpoint: the state saved at a log position, so that opening reads only what follows.

``checkpoint.json`` holds, after the sum of the rest (its first line), the state's TinyDB
tables, the ids of the facts folded into it and the games' summaries, with the log position it
was saved at (the commit's number, its sum and where its line ends). It is only a faster
start: one that is missing, damaged (its sum does not match), saved by another version of the
fold (:data:`~scorer.league.state.STATE_VERSION`), or whose position the log does not have as
it says, is ignored, and the state is folded from the log. Nothing in it is ever the only copy
of anything, so it is never backed up or repaired.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from scorer.league.log import checksum, read_bytes, write_synced
from scorer.league.state import STATE_VERSION, TABLES, State

CHECKPOINT_NAME: Final = "checkpoint.json"


@dataclass(frozen=True, slots=True)
class Saved:
    state: State
    position: int
    sum: str
    start: int  # where the commit's line starts in the log
    offset: int  # and where it ends


def save(folder: Path, *, store: str, position: int, sum: str, start: int, offset: int, state: State) -> None:
    text = dump(store=store, position=position, sum=sum, start=start, offset=offset, state=state)
    write_synced(folder / CHECKPOINT_NAME, text)


def dump(*, store: str, position: int, sum: str, start: int, offset: int, state: State) -> bytes:
    """The checkpoint's bytes (as :func:`save` writes them; a store kept elsewhere, the browser's,
    keeps them as they are)."""
    body = {
        "state": STATE_VERSION,
        "store": store,
        "position": position,
        "sum": sum,
        "start": start,
        "offset": offset,
        "tables": state.export(),
        "seen": sorted(state.seen),
        "summaries": state.summaries,
        "heads": state.heads,
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # its sum first: a byte changed anywhere in it, it is ignored, never read as the state
    return checksum(text).encode("ascii") + b"\n" + text


def load(folder: Path, *, store: str) -> Saved | None:
    """The checkpoint if it is one this version saved for this store, else ``None``."""
    try:
        raw = read_bytes(folder / CHECKPOINT_NAME)
    except OSError:
        return None
    if raw is None:
        return None
    return parse(raw, store=store)


def parse(raw: bytes, *, store: str) -> Saved | None:
    """The checkpoint in ``raw`` (:func:`dump`'s bytes) if this version saved it for this store."""
    mark, _, text = raw.partition(b"\n")
    if checksum(text).encode("ascii") != mark:
        return None
    try:
        body: Any = json.loads(text)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("state") != STATE_VERSION or body.get("store") != store:
        return None
    tables, seen, summaries = body.get("tables"), body.get("seen"), body.get("summaries")
    heads = body.get("heads")
    position, total, offset = body.get("position"), body.get("sum"), body.get("offset")
    start = body.get("start")
    if not (
        isinstance(tables, dict)
        and all(isinstance(tables.get(t, {}), dict) for t in TABLES)
        and isinstance(seen, list)
        and isinstance(summaries, dict)
        and isinstance(heads, dict)
        and isinstance(position, int)
        and isinstance(total, str)
        and isinstance(offset, int)
        and isinstance(start, int)
    ):
        return None
    try:
        state = State(tables, seen=[str(s) for s in seen], summaries=summaries, heads=heads)
    except (KeyError, TypeError, ValueError):
        return None
    return Saved(state=state, position=position, sum=total, start=start, offset=offset)
