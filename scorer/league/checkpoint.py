"""The checkpoint: the state saved at a log position, so that opening reads only what follows.

``checkpoint.json`` is, after the sum of the rest (its first line), one line of JSON saying
what it holds (its form, :data:`CHECKPOINT_FORM`; the fold's version,
:data:`~scorer.league.state.STATE_VERSION`; the store; the log position it was saved at: the
commit's number, its sum and where its line starts and ends; and the lengths of the two parts
after it), then two parts:

- **what reads need**, as JSON (not compressed: opening parses it whole, and unpacking it
  took a fifth of the open of 5,000 games): the TinyDB tables, each as its rows' field names
  once with each row's values in that order (:func:`columns`: not every row's names again,
  which took twice as long to parse), each game's row less its bulky fields (its game
  document, ruleset snapshot and events); the ids of the facts folded, the last fact of each
  game and night, the games' summaries (each in the short form of
  :meth:`~scorer.league.summary.GameSummary.to_row`, with the code version that made them:
  those of another are not read), the ratings as far as they were rated (a
  :class:`~scorer.league.ratings.RatingRun` for each league and season, every league's
  brought up to the checkpoint's position before it is saved; each rating's history one
  JSON text, read when a page shows it), and where each game's bulky fields are in the
  second part;
- **the bulky fields**: each game's as one JSON text, one after another, zlib-compressed in runs of
  about :data:`CHUNK` bytes. Opening decompresses and parses the first part only; a game's
  bulky fields are parsed when something first asks for them, its run decompressed then
  (:class:`~scorer.league.state.Bulk`), so opening and the standings of thousands of games
  never parse every deal, and they replay no game and take no openskill step for a game
  rated before the checkpoint.

The whole file's sum is checked before anything in it is read. It is only a faster start: one
that is missing, damaged (its sum does not match), of another form or fold version (a
checkpoint of the earlier form, one JSON document, among them), of another store, or whose
position the log does not have as it says, is ignored, and the state is folded from the log.
Nothing in it is ever the only copy of anything, so it is never backed up or repaired.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from scorer.league.log import checksum, read_bytes, write_synced
from scorer.league.ratings import RatingRun
from scorer.league.state import STATE_VERSION, TABLES, Bulk, BulkChunk, State, no_collection

CHECKPOINT_NAME: Final = "checkpoint.json"
#: The checkpoint's own form: one of another form is not used.
CHECKPOINT_FORM: Final = 6
#: The games' bulky fields are compressed in runs of about this many bytes of JSON each, so
#: that the first game opened decompresses one run, not every game's (zlib looks back 32 KiB
#: only: longer runs would compress no better).
CHUNK: Final = 256 * 1024
#: zlib's level: the checkpoint is written every 200 commits, so a fast one (level 6 makes it
#: a quarter smaller and takes three times as long).
LEVEL: Final = 1


@dataclass(frozen=True, slots=True)
class Saved:
    state: State
    position: int
    sum: str
    start: int  # where the commit's line starts in the log
    offset: int  # and where it ends


def _compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def columns(tables: dict[str, Any]) -> dict[str, list[Any]]:
    """Each TinyDB table (``{doc_id: row}``) as the checkpoint keeps it: its rows grouped by
    their field names, each group ``[names, [[doc_id, value, ...], ...]]`` (rows of one table
    mostly have one shape; the groups keep any that differ). :func:`tables_of` reads it back."""
    kept: dict[str, list[Any]] = {}
    for table, rows in tables.items():
        groups: dict[tuple[str, ...], list[list[Any]]] = {}
        for doc_id, row in rows.items():
            groups.setdefault(tuple(row), []).append([doc_id, *row.values()])
        kept[table] = [[list(names), values] for names, values in groups.items()]
    return kept


def tables_of(kept: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """The tables :func:`columns` wrote, each in its doc ids' order (raises ``ValueError``,
    ``TypeError`` or ``KeyError`` when ``kept`` is not of that form)."""
    if not isinstance(kept, dict):
        raise TypeError("the tables are not an object")
    tables: dict[str, dict[str, dict[str, Any]]] = {}
    for table, groups in kept.items():
        rows: dict[str, dict[str, Any]] = {}
        for names, values in groups:
            if not (isinstance(names, list) and all(type(n) is str for n in names)):
                raise TypeError(f"a group of table {table!r} has no field names")
            width = len(names) + 1
            for doc_id, *fields in values:
                if len(fields) + 1 != width or type(doc_id) is not str:
                    raise ValueError(f"a row of table {table!r} does not fit its names")
                rows[doc_id] = dict(zip(names, fields, strict=True))
        if len(groups) > 1:  # one group is in order already
            rows = dict(sorted(rows.items(), key=lambda item: int(item[0])))
        tables[table] = rows
    return tables


def encode(*, store: str, position: int, sum: str, start: int, offset: int, state: State) -> bytes:
    """The checkpoint's bytes for ``state`` saved at the log position given, every league's
    ratings brought up to date first (:meth:`~scorer.league.state.State.rate_leagues`): a
    checkpoint saved by a program that showed no standings still spares the next open's."""
    with no_collection():
        state.rate_leagues()
    tables, bulky = state.saved_form()
    code, summaries = state.kept_summaries()
    spans, runs = _bulk_runs(bulky, state)
    light = {
        "tables": columns(tables),
        "seen": sorted(state.seen),
        "code": code,
        "summaries": summaries,
        "heads": state.heads,
        "ratings": {key: run.to_dict() for key, run in state.rating_runs.items()},
        "current": state.current_runs(),
        "bulk": spans,
        "chunks": [len(r) for r in runs],
    }
    first = _compact(light)
    second = b"".join(runs)
    head = {
        "checkpoint": CHECKPOINT_FORM,
        "state": STATE_VERSION,
        "store": store,
        "position": position,
        "sum": sum,
        "start": start,
        "offset": offset,
        "light": len(first),
        "bulk": len(second),
    }
    body = _compact(head) + b"\n" + first + second
    # its sum first: a byte changed anywhere in it, it is ignored, never read as the state
    return checksum(body).encode("ascii") + b"\n" + body


def _bulk_runs(
    bulky: Sequence[tuple[str, Callable[[], bytes]]], state: State
) -> tuple[dict[str, list[int]], list[bytes]]:
    """The games' bulky texts compressed in runs of about :data:`CHUNK` bytes, and where each
    game's text is: ``{game: [run, start, end]}``. A full run of the last checkpoint whose games
    are the next ones here, none put since, is taken as it was (neither its texts made nor
    compressed again: a growing league's games are added at the end, so a checkpoint compresses
    mostly the games since the last one); the full runs made are kept for the next one."""
    unchanged = state.unchanged_chunks()
    spans: dict[str, list[int]] = {}
    runs: list[bytes] = []
    made: list[BulkChunk] = []
    games: list[str] = []
    texts: list[bytes] = []
    at = 0

    def close(*, full: bool) -> None:
        nonlocal at
        data = zlib.compress(b"".join(texts), LEVEL)
        if full:
            made.append(BulkChunk(tuple(games), tuple(spans[g][2] for g in games), data))
        runs.append(data)
        games.clear()
        texts.clear()
        at = 0

    i = 0
    while i < len(bulky):
        game_id, text_of = bulky[i]
        chunk = unchanged.get(game_id)
        if chunk is not None and tuple(g for g, _ in bulky[i : i + len(chunk.games)]) == chunk.games:
            if texts:
                close(full=False)
            start = 0
            for game, end in zip(chunk.games, chunk.ends, strict=True):
                spans[game] = [len(runs), start, end]
                start = end
            runs.append(chunk.data)
            made.append(chunk)
            i += len(chunk.games)
            continue
        text = text_of()
        if at and at + len(text) > CHUNK:
            close(full=True)
        spans[game_id] = [len(runs), at, at + len(text)]
        games.append(game_id)
        texts.append(text)
        at += len(text)
        i += 1
    if texts:
        close(full=False)
    state.keep_chunks(made)
    return spans, runs


def save(folder: Path, *, store: str, position: int, sum: str, start: int, offset: int, state: State) -> None:
    payload = encode(store=store, position=position, sum=sum, start=start, offset=offset, state=state)
    write_synced(folder / CHECKPOINT_NAME, payload)


def load(folder: Path, *, store: str) -> Saved | None:
    """The checkpoint if it is one this version saved for this store, else ``None``."""
    try:
        raw = read_bytes(folder / CHECKPOINT_NAME)
    except OSError:
        return None
    if raw is None:
        return None
    return decode(raw, store=store)


def decode(raw: bytes, *, store: str, kind: type[State] = State) -> Saved | None:
    """The checkpoint ``raw`` holds if it is whole, of this form and for this store, else ``None``
    (``kind``: the class of the state made, :class:`~scorer.league.state.State` or one that
    adds to it, as the PostgreSQL ledger's does)."""
    with no_collection():
        return _decode(raw, store=store, kind=kind)


def _decode(raw: bytes, *, store: str, kind: type[State]) -> Saved | None:
    # read through a view, never copied whole (each copy of megabytes was a tenth of the open)
    view = memoryview(raw)
    first = raw.find(b"\n")
    second = raw.find(b"\n", first + 1) if first >= 0 else -1
    if second < 0 or checksum(view[first + 1 :]).encode("ascii") != raw[:first]:
        return None
    rest = view[second + 1 :]
    try:
        head: Any = json.loads(raw[first + 1 : second])
    except ValueError:
        return None
    if (
        not isinstance(head, dict)
        or head.get("checkpoint") != CHECKPOINT_FORM
        or head.get("state") != STATE_VERSION
        or head.get("store") != store
    ):
        return None  # an earlier form (one JSON document) has no such head: it is ignored
    position, total, start, offset = (
        head.get("position"),
        head.get("sum"),
        head.get("start"),
        head.get("offset"),
    )
    light_size, bulk_size = head.get("light"), head.get("bulk")
    if not (
        isinstance(position, int)
        and isinstance(total, str)
        and isinstance(start, int)
        and isinstance(offset, int)
        and isinstance(light_size, int)
        and isinstance(bulk_size, int)
        and light_size >= 0
        and bulk_size >= 0
        and light_size + bulk_size == len(rest)
    ):
        return None
    try:
        light: Any = json.loads(str(rest[:light_size], "utf-8"))
        tables: Any = tables_of(light["tables"]) if isinstance(light, dict) else None
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(light, dict):
        return None
    seen, summaries = light.get("seen"), light.get("summaries")
    heads, spans, chunks = light.get("heads"), light.get("bulk"), light.get("chunks")
    if not (
        isinstance(tables, dict)
        and all(isinstance(tables.get(t, {}), dict) for t in TABLES)
        and isinstance(seen, list)
        and isinstance(summaries, dict)
        and isinstance(heads, dict)
        and isinstance(spans, dict)
        and isinstance(chunks, list)
    ):
        return None
    try:
        bulk = Bulk(bytes(rest[light_size:]), chunks, spans)  # its own copy: the raw bytes can go
        runs = light.get("ratings")
        kept = {str(k): RatingRun.from_dict(v) for k, v in runs.items()} if isinstance(runs, dict) else {}
        state = kind(
            tables,
            seen=[str(s) for s in seen],
            kept=summaries,  # each entry checked when its game is first asked for
            kept_code=str(light.get("code")),
            heads=heads,
            bulk=bulk,
            rating_runs={k: run for k, run in kept.items() if run is not None},
            current_runs=[str(k) for k in light.get("current") or ()],
        )
    except (KeyError, TypeError, ValueError):
        return None
    return Saved(state=state, position=position, sum=total, start=start, offset=offset)
