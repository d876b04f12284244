"""The league's records, validated by pydantic: the rows of the state's tables.

The state (:mod:`scorer.league.state`, the fold of the store's facts) holds one table per
kind of record: ``players`` (:class:`PlayerDoc`), ``leagues`` (:class:`LeagueDoc`), ``seasons``
(:class:`SeasonDoc`), ``games`` (:class:`GameRecord`: the raw entries as a game file, the
players' ids by seat, the ruleset as played, the signed history) and ``nights``
(:class:`NightDoc`). This module is the one place their shape is written down; league exports
carry games and nights in these shapes too.

The earlier layout (a folder of documents, read once to be converted, :mod:`scorer.league.convert`)
kept a ``meta`` table with each document's schema version: :func:`migrate` brings an older
document up to :data:`SCHEMA_VERSION`, and a document from a newer version is refused.
:class:`GameEntry` is that layout's game list entry, read only from its backups.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scorer.league.errors import NewerStoreError, StoreError
from scorer.league.tiebreaks import DEFAULT_ORDER
from scorer.messages import Message

#: The version of the stored documents' shape; :data:`MIGRATIONS` leads up to it.
SCHEMA_VERSION = 2

Migration = Callable[[str, dict[str, Any]], dict[str, Any]]
"""``(kind, tables) -> tables``: one document one version up; kind is index, shard or game."""


def _to_journal(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 adds the journal, games' events and status (with defaults), and the index's
    count of games per shard folder (counted by the store once every document is migrated)."""
    if kind == "index":
        data.setdefault("shards", {})
    return data


#: ``MIGRATIONS[v]`` turns a version ``v`` document into a version ``v + 1`` one.
MIGRATIONS: dict[int, Migration] = {1: _to_journal}

M = TypeVar("M", bound=BaseModel)


def now() -> str:
    """The current time, ISO-8601 in UTC (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def canonical_hash(data: Any) -> str:
    """A SHA-256 of the canonical JSON of ``data`` (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Record(BaseModel):
    """Every record has a UUID and creation and change times."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str
    created: str
    changed: str


class PlayerDoc(Record):
    name: str
    merged_into: str | None = None


class LeagueDoc(Record):
    name: str
    confirmation: bool = Field(
        default=False, description="its games started from now on confirm their deals at the table"
    )


class SeasonDoc(Record):
    league: str
    name: str
    number: int
    closed: str | None = None


class GameEntry(Record):
    """One game in its shard index: enough to list it and rank it without reading it."""

    league: str | None
    season: str | None
    played: str
    ruleset: str
    players: list[str]
    rev: int
    entries: str = Field(description="canonical_hash of the game record's document and snapshot")
    code: str = Field(description="the code version that computed the summary")
    summary: dict[str, Any]
    pending: bool = Field(
        default=False, description="written ahead of the game record: check it against the record"
    )
    origin: str | None = Field(default=None, description="identity of an imported game's content")
    status: str = Field(default="active", description="active, abandoned or deleted")


class GameRecord(Record):
    """A game's raw entries: the game file, the players' ids by seat, the ruleset snapshot."""

    league: str | None
    season: str | None
    played: str
    rev: int
    players: list[str]
    document: dict[str, Any]
    snapshot: dict[str, Any]
    origin: str | None = None
    status: str = "active"
    events: list[dict[str, Any]] = Field(default_factory=list)
    night: str | None = Field(default=None, description="the club night this game is a table of")
    night_round: int | None = Field(default=None, description="the night's round (1-based)")
    night_table: int | None = Field(default=None, description="the table of the round (1-based)")
    deadline: str | None = Field(
        default=None,
        description="when the round's time runs out (UTC ISO): the first deal saved then ends it",
    )
    confirmation: bool = Field(
        default=False, description="an ordinary game whose deals are confirmed at the table (its league's)"
    )
    substitutes: list[str] = Field(
        default_factory=list,
        description="ids of the players who took over a seat, in the order of the document's replacements",
    )


class NightTableDoc(BaseModel):
    """One table of a night's round: its number (1-based), its game, its players' ids by seat."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    table: int
    game: str
    players: list[str]
    start: dict[str, int] = Field(default_factory=dict, description="handicap: player id -> starting points")


class NightRoundDoc(BaseModel):
    """One round of a club night: the variant and house rules, how it was seated, its tables."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    number: int
    ruleset: str
    options: dict[str, Any] = Field(default_factory=dict)
    method: str
    seed: int | None = None
    players: list[str] = Field(description="the players present this round (ids)")
    byes: list[str] = Field(default_factory=list)
    fixed: dict[str, int] = Field(default_factory=dict, description="player id -> table")
    tables: list[NightTableDoc]
    started: str
    timer: int | None = Field(default=None, description="minutes per round (None: no timer)")
    deadline: str | None = Field(default=None, description="started + timer (UTC ISO)")
    spread: float | None = Field(default=None, description="balanced: highest minus lowest table mean")
    best_spread: float | None = Field(default=None, description="balanced: the best spread, when exact")
    spread_bound: float | None = Field(default=None, description="balanced: a spread none can beat")
    repeats: int | None = Field(default=None, description="swiss: opponents met again this round")


class NightDoc(Record):
    """A club night of a league (in the index's ``nights`` table): its rounds, in order."""

    league: str
    season: str
    points: list[int] = Field(description="placement points, 1st place first")
    rounds: list[NightRoundDoc]
    planned: int | None = Field(default=None, description="the rounds planned (None: open-ended)")
    handicap: bool = Field(default=False, description="table games start with handicap points")
    tiebreaks: list[str] = Field(
        default_factory=lambda: list(DEFAULT_ORDER), description="the standings' tie-break order"
    )
    flips: list[list[str]] = Field(
        default_factory=list, description="coin flips made: player ids, in the order the coin put them"
    )
    bye_points: int = Field(default=0, description="night points for sitting out a round (a bye)")
    late_byes: bool = Field(default=False, description="a late arrival gets a bye for each round missed")
    confirmation: bool = Field(
        default=False, description="deals saved at its tables wait for a confirmation at the table"
    )


def shard_of(game_id: str) -> str:
    """The shard folder of a game: the first two characters of its id."""
    return f"games/{game_id[:2].lower()}"


def schema_of(data: Mapping[str, Any]) -> int:
    """The schema version a document was written with (``1`` when it has no ``meta``)."""
    meta = data.get("meta") or {}
    for row in meta.values():
        version = row.get("schema") if isinstance(row, dict) else None
        if isinstance(version, int) and not isinstance(version, bool):
            return version
    return 1


def migrate(kind: str, data: dict[str, Any], *, where: str) -> tuple[dict[str, Any], bool]:
    """The document at :data:`SCHEMA_VERSION`, and whether it changed.

    Raises :class:`NewerStoreError` for a document from a newer version.
    """
    version = schema_of(data)
    if version > SCHEMA_VERSION:
        raise NewerStoreError(
            Message("store.newer_version", path=f"'{where}'", version=version, most=SCHEMA_VERSION)
        )
    if version == SCHEMA_VERSION:
        return data, False
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise StoreError(Message("store.internal", text=f"no migration from data version {version}"))
        data = step(kind, data)
        version += 1
    data["meta"] = {"1": {"schema": SCHEMA_VERSION, "kind": kind}}
    return data, True


class RecordProblem(StoreError):
    """A stored row of the wrong shape; the store turns it into a DamagedFileError naming the file."""


#: What a record of each model is, in the player's words (the catalog's ``record`` area).
RECORD_KINDS: dict[str, str] = {
    "PlayerDoc": "player",
    "LeagueDoc": "league",
    "SeasonDoc": "season",
    "GameEntry": "game_entry",
    "GameRecord": "game",
    "NightDoc": "night",
}


def parse_record(model: type[M], row: Any) -> M:
    """A stored row as its model, or :class:`RecordProblem` saying what is wrong with it."""
    if not isinstance(row, Mapping):
        raise RecordProblem(Message("store.problem_record_shape"))
    try:
        return model.model_validate(dict(row))
    except ValidationError as exc:
        from scorer.validation import problems  # only for a damaged record

        known = RECORD_KINDS.get(model.__name__)
        kind: Message | str = Message(f"record.{known}") if known else model.__name__.lower()
        raise RecordProblem(
            Message("store.problem_record", kind=kind, problems=problems(exc, model=model))
        ) from None
