"""The game file: a whole game as one JSON document (docs/game-format.md).

The document holds raw entries only; scores are recomputed when it is read.
It is validated by pydantic (unknown fields are errors), then every deal is
scored, so an invalid file is refused whole with a message naming the deal and
the field.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints, ValidationError

from scorer.cards import format_cards, format_melds
from scorer.deal import Deal
from scorer.errors import ScorerError, quote
from scorer.game import Game, GameResult, Penalty
from scorer.limits import MAX_DEALS, MAX_NAME_CHARS, named_file, read_document
from scorer.messages import Message, Param
from scorer.names import InvalidNameError, clean_name, normal
from scorer.replacement import Replacement
from scorer.ruleset import Ruleset, load_ruleset
from scorer.validation import problems

FORMAT_VERSION = 1


class GameFileError(ScorerError, ValueError):
    """A game file that cannot be read: the message names the deal and the field."""


class DealDocument(BaseModel):
    """One deal's raw entries; CARDS and MELDS as on the command line."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    hands: dict[str, str] | None = None
    points: dict[str, StrictInt] | None = None
    out: str | None = None
    one_turn: StrictBool = False
    ended: Literal["stop", "block", "stock_out"] | None = None
    knocker: str | None = None
    melds: dict[str, str] | None = None
    upcard: str | None = None
    dead: StrictBool = False
    deadwood: dict[str, StrictInt] | None = None
    big_gin: StrictBool = False

    def to_deal(self) -> Deal:
        return Deal.build(
            hands=self.hands,
            points=self.points,
            out=self.out,
            one_turn=self.one_turn,
            ended=self.ended,
            knocker=self.knocker,
            melds=self.melds,
            upcard=self.upcard,
            dead=self.dead,
            deadwood=self.deadwood,
            big_gin=self.big_gin,
        )

    @classmethod
    def from_deal(cls, deal: Deal) -> DealDocument:
        return cls(
            hands={p: format_cards(c) for p, c in deal.hands.items()} or None,
            points=dict(deal.points) or None,
            out=deal.out,
            one_turn=deal.one_turn,
            ended=deal.ended,
            knocker=deal.knocker,
            melds={p: format_melds(m) for p, m in deal.melds.items()} or None,
            upcard=str(deal.upcard) if deal.upcard else None,
            dead=deal.dead,
            deadwood=dict(deal.deadwood) or None,
            big_gin=deal.big_gin,
        )


class PenaltyDocument(BaseModel):
    """A director's penalty (:class:`~scorer.game.Penalty`): the player (by name, as in the
    deals), the points, why, who gave it and when, and its id (the fact that gave it)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    player: str
    points: StrictInt
    why: str = ""
    by: str = ""
    at: str = ""
    id: str = ""

    def to_penalty(self) -> Penalty:
        return Penalty(self.player, self.points, why=self.why, by=self.by, at=self.at, id=self.id)


class ReplacementDocument(BaseModel):
    """A player who took over a seat (:class:`~scorer.replacement.Replacement`): the seat
    (0-based), the player who left and the one who came (by name), after which deal, why,
    who made it and when, and its id (the fact that made it)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    seat: StrictInt
    player: str
    replacement: str
    after: StrictInt
    why: str = ""
    by: str = ""
    at: str = ""
    id: str = ""

    def to_replacement(self) -> Replacement:
        return Replacement(**self.model_dump())


class GameDocument(BaseModel):
    """A whole game: the ruleset and its house options, the players, the deals."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    format: Literal[1] = 1
    ruleset: str
    options: dict[str, StrictBool | StrictInt | str | None] = Field(default_factory=dict)
    players: list[Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]]
    first_dealer: StrictInt = 0
    start: dict[str, StrictInt] = Field(default_factory=dict)
    ends_after: StrictInt | None = None
    deals: list[DealDocument] = Field(default_factory=list, max_length=MAX_DEALS)
    penalties: list[PenaltyDocument] = Field(default_factory=list, max_length=MAX_DEALS)
    replacements: list[ReplacementDocument] = Field(default_factory=list, max_length=MAX_DEALS)

    def game(self, ruleset: Ruleset, deals: tuple[Deal, ...] = ()) -> Game:
        """The game of this document under ``ruleset`` (its deals given, already read)."""
        game = Game(
            ruleset=ruleset,
            players=tuple(self.players),
            first_dealer=self.first_dealer,
            start=dict(self.start),
            ends_after=self.ends_after,
            penalties=tuple(p.to_penalty() for p in self.penalties),
            replacements=tuple(r.to_replacement() for r in self.replacements),
        )
        return game.with_deals(deals)


#: The fields of a deal that are tables keyed by player, and those that name one player.
_KEYED_BY_PLAYER = ("hands", "points", "melds", "deadwood")
_NAMING_PLAYER = ("out", "knocker")


def where(location: tuple[int | str, ...]) -> Param:
    """A place in a game file in the player's words: ``player 2``, ``deal 3, hands of 'Anna'``."""
    head, rest = location[:1], location[1:]
    if head == ("players",) and rest and isinstance(rest[0], int):
        return Message("game.player_seat", number=rest[0] + 1)
    if head == ("options",) and rest:
        return Message("game.option", name=quote(str(rest[0])))
    if head == ("deals",) and rest and isinstance(rest[0], int):
        number, fields = rest[0] + 1, rest[1:]
        if fields:
            return Message("game.deal_field", number=number, field=deal_where(fields))
        return Message("game.deal", number=number)
    return ", ".join(str(p) for p in location)


def deal_where(location: tuple[int | str, ...]) -> Param:
    """A place in a deal in the player's words: ``dead``, ``hands of 'Anna'``."""
    if len(location) == 2 and location[0] in _KEYED_BY_PLAYER:
        return Message("game.player_field", field=str(location[0]), player=quote(str(location[1])))
    return ", ".join(str(p) for p in location)


def _normal_names(data: Any) -> Any:
    """The document with every player's name NFC-normalised and trimmed, in the players and
    in the deals alike (a table whose keys would become one is left as it is, and refused)."""
    if not isinstance(data, dict):
        return data
    found = dict(data)
    if isinstance(found.get("players"), list):
        found["players"] = [normal(p) if isinstance(p, str) else p for p in found["players"]]
    start = found.get("start")
    if isinstance(start, dict):
        renamed = {normal(k) if isinstance(k, str) else k: v for k, v in start.items()}
        found["start"] = renamed if len(renamed) == len(start) else start
    if isinstance(found.get("deals"), list):
        found["deals"] = [_normal_deal(d) for d in found["deals"]]
    if isinstance(found.get("penalties"), list):
        found["penalties"] = [
            {**p, "player": normal(p["player"])}
            if isinstance(p, dict) and isinstance(p.get("player"), str)
            else p
            for p in found["penalties"]
        ]
    if isinstance(found.get("replacements"), list):
        found["replacements"] = [
            {
                k: normal(v) if k in ("player", "replacement") and isinstance(v, str) else v
                for k, v in r.items()
            }
            if isinstance(r, dict)
            else r
            for r in found["replacements"]
        ]
    return found


def _normal_penalty(penalty: Any) -> Any:
    if isinstance(penalty, dict) and isinstance(penalty.get("player"), str):
        return {**penalty, "player": normal(penalty["player"])}
    return penalty


def _normal_deal(deal: Any) -> Any:
    if not isinstance(deal, dict):
        return deal
    found = dict(deal)
    for key in _KEYED_BY_PLAYER:
        table = found.get(key)
        if isinstance(table, dict):
            renamed = {normal(k) if isinstance(k, str) else k: v for k, v in table.items()}
            found[key] = renamed if len(renamed) == len(table) else table
    for key in _NAMING_PLAYER:
        if isinstance(found.get(key), str):
            found[key] = normal(found[key])
    return found


def checked_document(data: Any) -> GameDocument:
    """A decoded game file's fields, checked (:class:`GameFileError` names what is wrong).

    Player names are taken as every name is (:func:`scorer.names.clean_name`): NFC-normalised
    and trimmed, and refused when they hold a control, direction or invisible character.
    """
    try:
        document = GameDocument.model_validate(_normal_names(data))
    except ValidationError as exc:
        raise GameFileError(problems(exc, model=GameDocument, where=where)) from None
    for seat, name in enumerate(document.players, start=1):
        try:
            clean_name(name, what="player")
        except InvalidNameError as exc:
            place = Message("game.player_seat", number=seat)
            raise GameFileError(Message("doc.problem_at", place=place, problem=exc.message)) from None
    return document


def parse_game(data: Any) -> Game:
    """A :class:`Game` from a decoded JSON document (:func:`checked_document`); every deal is
    scored to check it."""
    document = checked_document(data)
    ruleset = load_ruleset(document.ruleset, options=dict(document.options))
    deals = []
    for number, deal_document in enumerate(document.deals, start=1):
        try:
            deals.append(deal_document.to_deal())
        except ScorerError as exc:
            raise GameFileError(Message("deal.deal_number", number=number, rest=exc.message)) from None
    return document.game(ruleset, tuple(deals))


def load_game(path: str | Path) -> Game:
    """Read a game file; raises :class:`GameFileError` naming what is wrong.

    The file is read within the limits of :mod:`scorer.limits` (its size and
    nesting are checked before it is parsed).
    """
    data = read_document(path, what="game file", error=GameFileError)
    try:
        return parse_game(data)
    except ScorerError as exc:  # every message about the file names it (the error keeps its kind)
        exc.message = Message("game.file_problem", file=named_file("game file", path), problem=exc.message)
        exc.args = (exc.message,)
        raise


def game_document(game: Game, *, ruleset_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready document of a game (the inverse of :func:`parse_game`)."""
    document = GameDocument(
        ruleset=ruleset_id,
        options=dict(options or {}),
        players=list(game.players),
        first_dealer=game.first_dealer,
        start={p: v for p, v in game.start.items() if v},
        ends_after=game.ends_after,
        deals=[DealDocument.from_deal(d) for d in game.deals],
        penalties=[
            PenaltyDocument(player=p.player, points=p.points, why=p.why, by=p.by, at=p.at, id=p.id)
            for p in game.penalties
        ],
        replacements=[ReplacementDocument.model_validate(asdict(r)) for r in game.replacements],
    )
    return document.model_dump(exclude_defaults=True, exclude_none=True) | {"format": FORMAT_VERSION}


def result_document(result: GameResult) -> dict[str, Any]:
    """What ``rummy score --json`` prints."""
    data: dict[str, Any] = {
        "players": list(result.players),
        "deals": [
            {
                "number": record.number,
                "dealer": record.dealer,
                "scores": record.score.scores,
                "events": list(record.score.events),
                "event_messages": [message.to_json() for message in record.score.messages],
                "winners": list(record.score.winners),
                "running": record.running,
                "parts": {
                    player: [
                        {"kind": part.kind, "points": part.points, "games": list(part.games)}
                        for part in parts
                    ]
                    for player, parts in record.parts.items()
                },
            }
            for record in result.deals
        ],
        "totals": result.totals,
        "start": result.start,
        "called": result.called,
        "penalties": result.penalties,
        "finished": result.finished,
        "winner": result.winner,
        "bonuses": result.bonuses,
        "next_dealer": result.next_dealer,
        "cards_to_deal": result.cards_to_deal,
    }
    if len(result.columns) > 1:
        data["games"] = [
            {"totals": c.totals, "finished": c.finished, "winner": c.winner, "bonuses": c.bonuses}
            for c in result.columns
        ]
    return data
