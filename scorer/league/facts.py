"""Facts: what happened to a league, each a small typed value.

Every change to the store is one or more facts: a league made, a season opened, a player
renamed, a game started, a deal recorded or corrected, a night's round seated. A fact says what
happened, not how any record changed; the league's state is the fold of its facts
(:mod:`scorer.league.state`), and facts are what moves between devices (a fact sent twice is
one fact: each carries its own id, unique across devices).

Every fact has an ``id``, a ``kind``, its time ``at`` (UTC ISO), who made it (``by``, the name
given on the device; ``""`` when none was) and, where it applies, why. What else it says is
its kind's model below (checked, ``extra="forbid"``). This module is the one place that knows
the facts' JSON form: :func:`fact_from_json` reads every version written so far and
:data:`FACT_VERSION` is the one written now.

>>> fact = new_fact("player.added", at="2026-12-01T18:00:00+00:00", by="", player="p1", name="Anna")
>>> fact.kind, fact.data.name
('player.added', 'Anna')
>>> fact_from_json(fact.to_json()) == fact
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from scorer.league.errors import StoreError
from scorer.league.tiebreaks import check_order
from scorer.messages import Message

#: The version of the facts' JSON form written now; :func:`fact_from_json` reads every one up to it.
FACT_VERSION: Final = 1


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# -- leagues, seasons, players ----------------------------------------------------------------


class LeagueCreated(_Data):
    league: str
    name: str
    season: str
    season_name: str


class LeagueRenamed(_Data):
    league: str
    name: str


class SeasonOpened(_Data):
    """A season of the league; an imported one keeps its own creation time and close."""

    league: str
    season: str
    name: str
    number: int
    created: str | None = None
    closed: str | None = None


class SeasonClosed(_Data):
    season: str


class SeasonRenamed(_Data):
    season: str
    name: str


class PlayerAdded(_Data):
    player: str
    name: str


class PlayerRenamed(_Data):
    player: str
    name: str


class PlayerMerged(_Data):
    """``player`` is the same person as ``into``: everywhere it is named, ``into`` is meant."""

    player: str
    into: str


# -- games ---------------------------------------------------------------------------------------


class GameStarted(_Data):
    """A new game: its players' ids by seat, its game document (no deals yet) and the ruleset
    as played (the whole ruleset, so a later change to a ruleset file never changes it)."""

    game: str
    league: str | None
    season: str | None
    players: list[str]
    document: dict[str, Any]
    ruleset: dict[str, Any]
    night: str | None = None
    round: int | None = None
    table: int | None = None
    deadline: str | None = None
    #: Its deals are confirmed at the table: its league confirmed deals when it started (a
    #: night's table game follows its night instead; scorer/league/confirm.py).
    confirmation: bool = False


class DealRecorded(_Data):
    game: str
    number: int
    deal: dict[str, Any]


class DealCorrected(_Data):
    game: str
    number: int
    deal: dict[str, Any]


class DealRemoved(_Data):
    game: str
    number: int


class DealRestored(_Data):
    """A removed deal put back as deal ``number``."""

    game: str
    number: int
    deal: dict[str, Any]


class GameCalled(_Data):
    """The round's time ran out: the game ends after deal ``after``."""

    game: str
    after: int


class GameChanged(_Data):
    """A game's status changed (finished, abandoned, resumed, deleted, undeleted)."""

    game: str


class GameMoved(_Data):
    game: str
    league: str
    season: str


class GameImported(_Data):
    """A whole game brought from a file or another store: its record as it came (with its
    own signed history)."""

    game: str
    record: dict[str, Any]


class GameJoined(_Data):
    """A game changed on two devices apart, joined again by a choice made on one of them
    (``rummy league conflict``, the Scoreboard's notice): the fact's ``prev`` is the head of the
    history kept; ``retired``: the ids of the facts set aside (the other history after the two
    parted, in order), kept in every store's log but folded nowhere; ``record``: the game as
    the history kept leaves it (so a store folds the join without reading any history)."""

    game: str
    retired: list[str]
    record: dict[str, Any]


class GameExtended(_Data):
    """An imported copy of a game this store has, with more deals (the first ones the same)
    or tags this store's copy lacked: its document and tags are taken."""

    game: str
    document: dict[str, Any]
    tags: dict[str, Any]


# -- club nights ---------------------------------------------------------------------------------


class NightStarted(_Data):
    """A new club night; ``tiebreaks``: the order its standings are sorted by (``None``, as
    every night started before the director could choose: the default order)."""

    night: str
    league: str
    season: str
    points: list[int]
    planned: int | None = None
    handicap: bool = False
    tiebreaks: list[str] | None = None
    #: Night points for sitting out a round (a bye); 0 in every night started before.
    bye_points: int = 0
    #: Whether a late arrival gets a bye for each round seated before they came (docs/rules.md,
    #: "Byes"); no night started before had them.
    late_byes: bool = False
    #: Whether its deals are confirmed at the table (scorer/league/confirm.py); no night
    #: started before confirmations were kept asked for them.
    confirmation: bool = False

    @field_validator("tiebreaks")
    @classmethod
    def _an_order(cls, value: list[str] | None) -> list[str] | None:
        if value is not None:
            check_order(value)  # a TiebreakError is a ValueError: the field is wrong
        return value


class RoundSeated(_Data):
    """One more round of a night, seated: its players, tables and their games."""

    night: str
    round: dict[str, Any]


class NightEnded(_Data):
    """The director ended the night after its round ``rounds``: it plans no round after it."""

    night: str
    rounds: int


class CoinFlipped(_Data):
    """A coin flipped for players level in the night's standings where its tie-breaks reach
    the coin: ``players`` (ids) in the order the coin put them, best first."""

    night: str
    players: list[str]

    @field_validator("players")
    @classmethod
    def _two_or_more_once(cls, value: list[str]) -> list[str]:
        if len(value) < 2 or len(set(value)) != len(value):
            raise ValueError("a coin flip orders two or more players, each once")
        return value


class NightImported(_Data):
    night: str
    record: dict[str, Any]


class NightExtended(_Data):
    """An imported copy of a night with rounds this store's copy lacks."""

    night: str
    rounds: list[dict[str, Any]]


# -- deals confirmed at the table (scorer/league/confirm.py) ----------------------------------------


class DealConfirmed(_Data):
    """Deal ``number`` confirmed as it stood (``digest``, :func:`~scorer.league.confirm.digest_of`):
    by another player of the table, or by the director (``director``)."""

    game: str
    number: int
    digest: str
    director: bool = False


class DealDisputed(_Data):
    """Deal ``number`` (as it stood: ``digest``) disputed; ``deal``: the disputer's version of it
    (``None``: only a reason, the fact's ``why``)."""

    game: str
    number: int
    digest: str
    deal: dict[str, Any] | None = None


class LeagueConfirmation(_Data):
    """The league's ordinary games (those started from now on) confirm their deals at the table
    as a club night's do (``on``), or no longer (games started before keep what they had)."""

    league: str
    on: bool


class DisputeResolved(_Data):
    """The director kept one version of disputed deal ``number``: the saved one or ``theirs``
    (then written first as a signed ``deal.corrected``); ``digest``: the deal kept."""

    game: str
    number: int
    keep: str
    digest: str

    @field_validator("keep")
    @classmethod
    def _saved_or_theirs(cls, value: str) -> str:
        if value not in ("saved", "theirs"):
            raise ValueError("a resolution keeps the saved version or theirs")
        return value


# -- the director: calls from the tables, penalties ------------------------------------------------

#: Why a table calls the director (``night.called``).
CALL_REASONS: Final = ("rules", "dispute", "penalty")


class GamePenalised(_Data):
    """The director gave ``player`` (an id) ``points`` penalty points in the game; why: the
    fact's ``why``, who: its ``by``. The fact's id names the penalty (``game.penalty_lifted``)."""

    game: str
    player: str
    points: int

    @field_validator("points")
    @classmethod
    def _positive(cls, value: int) -> int:
        if isinstance(value, bool) or value < 1:
            raise ValueError("a penalty is a whole number of points, 1 or more")
        return value


class PenaltyLifted(_Data):
    """The director took back the penalty given by fact ``penalty`` (a mistake corrected)."""

    game: str
    penalty: str


class SeatReplaced(_Data):
    """``replacement`` (an id) took over seat ``seat`` (0-based) of the game from ``player``
    (an id, the seat's holder) after the game's deal ``after`` (docs/rules.md,
    "Replacements"); why: the fact's ``why``, who: its ``by``."""

    game: str
    seat: int
    player: str
    replacement: str
    after: int

    @field_validator("seat", "after")
    @classmethod
    def _not_negative(cls, value: int) -> int:
        if isinstance(value, bool) or value < 0:
            raise ValueError("a seat and a deal number are whole numbers, 0 or more")
        return value


class DirectorCalled(_Data):
    """A table called the director: ``call`` names the call, ``game`` is the table's game of
    the night's ``round``; ``reason`` one of :data:`CALL_REASONS`, with an optional note."""

    call: str
    night: str
    game: str
    round: int
    table: int
    reason: str
    note: str | None = None

    @field_validator("reason")
    @classmethod
    def _a_reason(cls, value: str) -> str:
        if value not in CALL_REASONS:
            raise ValueError(f"a call's reason is one of {', '.join(CALL_REASONS)}")
        return value


class CallAnswered(_Data):
    """The director answered call ``call`` (of ``game``'s table), with a note."""

    call: str
    night: str
    game: str
    note: str = ""


# -- a store written by an earlier layout ---------------------------------------------------------


class RecordKept(_Data):
    """A record of a store folder of an earlier layout, taken over as it was when the folder
    was converted (:mod:`scorer.league.convert`): ``table`` is players, leagues, seasons,
    games or nights."""

    table: str
    record: dict[str, Any]


#: Every kind of fact and its model.
KINDS: Final[dict[str, type[_Data]]] = {
    "league.created": LeagueCreated,
    "league.renamed": LeagueRenamed,
    "season.opened": SeasonOpened,
    "season.closed": SeasonClosed,
    "season.renamed": SeasonRenamed,
    "player.added": PlayerAdded,
    "player.renamed": PlayerRenamed,
    "player.merged": PlayerMerged,
    "game.started": GameStarted,
    "deal.recorded": DealRecorded,
    "deal.corrected": DealCorrected,
    "deal.removed": DealRemoved,
    "deal.restored": DealRestored,
    "game.called": GameCalled,
    "deal.confirmed": DealConfirmed,
    "deal.disputed": DealDisputed,
    "dispute.resolved": DisputeResolved,
    "league.confirmation": LeagueConfirmation,
    "game.finished": GameChanged,
    "game.abandoned": GameChanged,
    "game.resumed": GameChanged,
    "game.deleted": GameChanged,
    "game.undeleted": GameChanged,
    "game.moved": GameMoved,
    "game.imported": GameImported,
    "game.extended": GameExtended,
    "game.joined": GameJoined,
    "night.started": NightStarted,
    "night.round_seated": RoundSeated,
    "night.ended": NightEnded,
    "night.coin_flipped": CoinFlipped,
    "night.imported": NightImported,
    "night.extended": NightExtended,
    "game.penalised": GamePenalised,
    "game.penalty_lifted": PenaltyLifted,
    "seat.replaced": SeatReplaced,
    "night.called": DirectorCalled,
    "night.call_answered": CallAnswered,
    "record.kept": RecordKept,
}

_HEAD: Final = ("id", "kind", "at", "by", "why", "prev")


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """One thing that happened: its id, kind, time, who, why, and what (its kind's model)."""

    id: str
    kind: str
    at: str
    by: str
    why: str | None
    data: Any
    #: The fact before it about the same game or night (:func:`subject_of`), as the device that
    #: made this one had it: two devices that changed one game apart are told by it.
    prev: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fact as a JSON object: the head fields, then its kind's fields."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "at": self.at, "by": self.by}
        if self.why is not None:
            out["why"] = self.why
        if self.prev is not None:
            out["prev"] = self.prev
        out.update(self.data.model_dump(mode="json", exclude_defaults=True))
        return out

    @property
    def subject(self) -> str | None:
        """The game or night this fact is about (:func:`subject_of`)."""
        return subject_of(self)


#: The kinds that begin a game's or a night's facts (their ``prev`` is none).
BEGINNINGS: Final = frozenset({"game.started", "game.imported", "night.started", "night.imported"})


def subject_of(fact: Fact) -> str | None:
    """The game or club night a fact is about: its facts form one chain (each names the one
    before as ``prev``), so a game changed on two devices apart is noticed when they meet."""
    if fact.kind == "record.kept":
        table = fact.data.table
        return str(fact.data.record.get("id")) if table in ("games", "nights") else None
    for name in ("game", "night"):
        value = getattr(fact.data, name, None)
        if isinstance(value, str) and (name == "game" or fact.kind.startswith("night.")):
            return value
    return None


def fact_id() -> str:
    """A new fact's id: 96 random bits, unique across devices for any league's lifetime, in
    URL-safe base64, never starting with ``-``: the command line takes a start of one as an
    argument (``rummy league night lift --penalty ID``), and a value starting with ``-`` is
    read as an option there (one id in 64 was, and could not be typed after ``--penalty``)."""
    while True:
        made = secrets.token_urlsafe(12)
        if not made.startswith("-"):
            return made


def new_fact(
    kind: str, *, at: str, by: str, why: str | None = None, prev: str | None = None, **fields: Any
) -> Fact:
    """A new fact of ``kind`` (its fields checked by its model)."""
    model = KINDS[kind]
    return Fact(id=fact_id(), kind=kind, at=at, by=by, why=why, data=model(**fields), prev=prev)


class FactError(StoreError, ValueError):
    """A fact that is not one this version knows (from a file, another device or the log)."""


def fact_from_json(raw: Any, *, version: int = FACT_VERSION) -> Fact:
    """A fact from its JSON form written at ``version`` (older forms are upgraded here)."""
    if version > FACT_VERSION:
        raise FactError(Message("facts.newer", version=version, most=FACT_VERSION))
    if not isinstance(raw, Mapping):
        raise FactError(Message("facts.not_a_fact", found=type(raw).__name__))
    kind = raw.get("kind")
    model = KINDS.get(kind) if isinstance(kind, str) else None
    if model is None or not isinstance(kind, str):
        raise FactError(Message("facts.unknown_kind", kind=repr(str(kind))[:60]))
    fact_id, at, by, why, prev = raw.get("id"), raw.get("at"), raw.get("by"), raw.get("why"), raw.get("prev")
    if not (isinstance(fact_id, str) and fact_id and isinstance(at, str) and at and isinstance(by, str)):
        raise FactError(Message("facts.bad_head", kind=kind))
    if (why is not None and not isinstance(why, str)) or (prev is not None and not isinstance(prev, str)):
        raise FactError(Message("facts.bad_head", kind=kind))
    try:
        data = model.model_validate({k: v for k, v in raw.items() if k not in _HEAD})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or kind
        raise FactError(Message("facts.bad_field", kind=kind, field=where)) from None
    return Fact(id=fact_id, kind=kind, at=at, by=by, why=why, data=data, prev=prev)
