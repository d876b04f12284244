"""The game file: a whole game as one JSON document (docs/game-format.md).

The document holds raw entries only; scores are recomputed when it is read.
It is validated by pydantic (unknown fields are errors), then every deal is
scored, so an invalid file is refused whole with a message naming the deal and
the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints, ValidationError

from scorer.cards import format_cards, format_melds
from scorer.deal import Deal
from scorer.errors import ScorerError
from scorer.game import Game, GameResult
from scorer.limits import MAX_DEALS, MAX_NAME_CHARS, read_document
from scorer.messages import Message, Param
from scorer.ruleset import load_ruleset
from scorer.validation import problems

FORMAT_VERSION = 1


class GameFileError(ScorerError, ValueError):
    """A game file that cannot be read: the message names the deal and the field."""


class DealDocument(BaseModel):
    """One deal's raw entries; CARDS and MELDS as on the command line."""

    model_config = ConfigDict(extra="forbid")

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


class GameDocument(BaseModel):
    """A whole game: the ruleset and its house options, the players, the deals."""

    model_config = ConfigDict(extra="forbid")

    format: Literal[1] = 1
    ruleset: str
    options: dict[str, StrictBool | StrictInt | str | None] = Field(default_factory=dict)
    players: list[Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]]
    first_dealer: StrictInt = 0
    deals: list[DealDocument] = Field(default_factory=list, max_length=MAX_DEALS)


def _where(location: tuple[int | str, ...]) -> Param:
    if len(location) >= 2 and location[0] == "deals" and isinstance(location[1], int):
        rest = ".".join(str(p) for p in location[2:])
        if rest:
            return Message("game.deal_field", number=location[1] + 1, field=rest)
        return Message("game.deal", number=location[1] + 1)
    return ".".join(str(p) for p in location)


def parse_game(data: Any) -> Game:
    """A :class:`Game` from a decoded JSON document; every deal is scored to check it."""
    try:
        document = GameDocument.model_validate(data)
    except ValidationError as exc:
        raise GameFileError(problems(exc, model=GameDocument, where=_where)) from None
    ruleset = load_ruleset(document.ruleset, options=dict(document.options))
    deals = []
    for number, deal_document in enumerate(document.deals, start=1):
        try:
            deals.append(deal_document.to_deal())
        except ScorerError as exc:
            raise GameFileError(Message("deal.deal_number", number=number, rest=exc.message)) from None
    game = Game(ruleset=ruleset, players=tuple(document.players), first_dealer=document.first_dealer)
    return game.with_deals(tuple(deals))


def load_game(path: str | Path) -> Game:
    """Read a game file; raises :class:`GameFileError` naming what is wrong.

    The file is read within the limits of :mod:`scorer.limits` (its size and
    nesting are checked before it is parsed).
    """
    return parse_game(read_document(path, what="game file", error=GameFileError))


def game_document(game: Game, *, ruleset_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready document of a game (the inverse of :func:`parse_game`)."""
    document = GameDocument(
        ruleset=ruleset_id,
        options=dict(options or {}),
        players=list(game.players),
        first_dealer=game.first_dealer,
        deals=[DealDocument.from_deal(d) for d in game.deals],
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
