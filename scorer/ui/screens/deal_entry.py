"""A deal's entry and its game's rules: what the variant asks, the deal document, the engine's reading.

The Deal screen's state (:mod:`scorer.ui.screens.deal_model`) holds what the table typed or
tapped (:class:`Entered`); this module answers everything that follows from it and from the
game alone, asking the engine and never scoring by itself: which ways a deal may end in this
variant (:class:`EntryRules`), the deal as the game file keeps it (:meth:`EntryRules.document`),
the mistakes the cards alone show, the engine's reading of the whole game replayed with the deal
in its place (:meth:`EntryRules.read`), and where on the screen each refusal goes
(:meth:`EntryRules.place`, read from the message's code and parameters, never from its words).

>>> from scorer.game import Game
>>> from scorer.ruleset import load_ruleset
>>> rules = EntryRules(Game(ruleset=load_ruleset("gin"), players=("Anna", "Bea")))
>>> rules.ending_choices
('knock:Anna', 'knock:Bea', 'out:Anna', 'out:Bea')
>>> rules.document(Entered(entry="points", points={"Bea": "12"}, knocker="Anna"))
{'deadwood': {'Bea': 12}, 'knocker': 'Anna'}
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from scorer.cards import DECK, JOKER, Card, format_cards, parse_cards
from scorer.deal import cards_to_deal, hand_problems
from scorer.errors import ScorerError
from scorer.game import Game, score_game
from scorer.gamefile import DealDocument
from scorer.knock import referee_knock
from scorer.messages import Join, Message, Word, join
from scorer.ruleset import Ruleset
from scorer.solver import Solver
from scorer.ui.components.card_face import faces, melds_faces

Entry = Literal["cards", "points"]

#: The engine names the field a problem is in (``hands: ...``): a player's cards or points.
_ENTRY_KINDS = {"hands": "cards", "melds": "cards", "points": "points", "deadwood": "points"}
#: The other fields, as the screen's keys: how the deal ended is one choice.
_FIELD_KEYS = {"out": "out", "knocker": "out", "ended": "out", "upcard": "upcard"}
#: Problems that ask how the deal ended, which the engine names without a field.
_HOW_IT_ENDED = frozenset(
    {
        "deal.say_how",
        "deal.say_how_carousel",
        "deal.say_out",
        "deal.say_knocker",
        "deal.say_knocker_or_dead",
        "deal.out_and_ended",
        "deal.knock_and_ended",
        "deal.ended_not_here",
        "deal.ended_not_here_out",
        "deal.ended_not_here_empty",
    }
)
#: The parameters that name the players a problem concerns.
_PLAYER_PARAMS = frozenset({"player", "players"})


@dataclass(frozen=True, slots=True)
class KnockReading:
    """The knock referee's verdict, as the screen shows it."""

    knocker: str
    defender: str
    melds: str
    deadwood: str
    deadwood_points: int
    layoffs: str
    defender_melds: str
    defender_deadwood: str
    defender_points: int
    outcome: str
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class ReadingRow:
    player: str
    hand_points: int
    score: int
    total: int


@dataclass(frozen=True, slots=True)
class Reading:
    """What the engine makes of the entry: per player, the deal's events, a knock's verdict."""

    number: int
    rows: tuple[ReadingRow, ...]
    events: tuple[str, ...]
    outcome: str
    knock: KnockReading | None
    finished: bool
    winner: str | None


@dataclass(frozen=True, slots=True)
class Entered:
    """What the table entered for one deal, as typed or tapped (nothing read or scored yet)."""

    entry: Entry = "cards"
    cards: Mapping[str, str] = field(default_factory=dict)
    points: Mapping[str, str] = field(default_factory=dict)
    out: str = ""
    knocker: str = ""
    one_turn: bool = False
    ended: str = ""
    dead: bool = False
    upcard: str = ""
    big_gin: bool = False


@dataclass(frozen=True, slots=True)
class Checked:
    """The entry as the engine read it: its reading, or the problems per field, or why not yet."""

    reading: Reading | None
    errors: dict[str, str]
    pending: str = ""


@dataclass(frozen=True, slots=True)
class EntryRules:
    """What one game's deal entry offers and means: its variant, players and first dealer."""

    game: Game

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def is_gin(self) -> bool:
        return self.ruleset.family == "gin"

    def dealer(self, number: int) -> str:
        """Who deals deal ``number`` (1-based)."""
        seat = (self.game.first_dealer + number - 1) % len(self.players)
        return self.players[seat]

    @property
    def decks(self) -> int:
        return self.ruleset.decks_for(len(self.players))

    @property
    def jokers(self) -> int:
        return self.decks * self.ruleset.jokers_per_deck

    @property
    def picker_cards(self) -> tuple[Card, ...]:
        """The cards a hand can hold: ranks by suit, then a joker where the ruleset has them."""
        return DECK + ((JOKER,) if self.jokers else ())

    @property
    def offers_one_turn(self) -> bool:
        rules = self.ruleset
        return rules.family == "rummy" and (rules.going_rummy != "off" or rules.kalooki_bonus > 0)

    @property
    def endings(self) -> tuple[str, ...]:
        """The ways a deal may end with nobody out, in this variant."""
        rules = self.ruleset
        found = []
        if rules.stop:
            found.append("stop")
        if rules.block:
            found.append("block")
        if rules.stock_out_extra_turn:
            found.append("stock_out")
        return tuple(found)

    @property
    def one_ending_choice(self) -> bool:
        """Whether how the deal ended is one choice of several kinds (who went out, who knocked,
        or a way with nobody out): Carousel, and rommi with Stop or a block."""
        return not self.is_gin and (self.offers_knock or bool(self.endings))

    @property
    def ending_choices(self) -> tuple[str, ...]:
        """The ways this deal can have ended: ``out:NAME``, ``knock:NAME``, then the endings."""
        outs = tuple(f"out:{p}" for p in self.players)
        knocks = tuple(f"knock:{p}" for p in self.players) if self.offers_knock else ()
        return knocks + outs + self.endings

    @property
    def offers_upcard(self) -> bool:
        rules = self.ruleset
        return self.is_gin and (rules.knock_limit_source == "upcard" or rules.spade_doubles)

    @property
    def offers_knock(self) -> bool:
        return self.ruleset.family in ("gin", "carousel")

    @property
    def offers_out(self) -> bool:
        return not self.is_gin

    def hand_value(self, text: str) -> int | None:
        """What the cards written so far are worth in hand, or None while the text is unreadable."""
        try:
            return self.ruleset.hand_points(parse_cards(text))
        except ScorerError:
            return None

    def deadwood(self, text: str) -> int | None:
        """Gin: the hand's deadwood after its best melds (the engine's solver), or None while
        the text is unreadable. A knocker's extra card is the best discard, unless all
        eleven meld (big gin)."""
        try:
            hand = parse_cards(text)
            solver = Solver(self.ruleset)
            best = solver.best(hand)
            dealt = cards_to_deal(self.ruleset, len(self.players))
            if best.deadwood_points and dealt is not None and len(hand) == dealt + 1:
                best = solver.best_discard(hand).arrangement
        except ScorerError:
            return None
        return best.deadwood_points

    # -- the deal ---------------------------------------------------------------------------

    def document(self, entered: Entered) -> dict[str, Any]:
        """The deal as the game file keeps it (raw entries only)."""
        if self.is_gin and entered.dead:
            return {"dead": True}
        deal: dict[str, Any] = {}
        if entered.entry == "cards":
            hands = {p: _canonical(entered.cards.get(p, "")) for p in self.players}
            deal["hands"] = {p: c for p, c in hands.items() if c or p == entered.out}
        else:
            table = {}
            for player in self.players:
                text = entered.points.get(player, "").strip()
                if not text and player == entered.out:
                    text = "0"
                if text:
                    table[player] = int(text) if re.fullmatch(r"-?\d+", text) else text
            deal["deadwood" if self.is_gin else "points"] = table
        if entered.out and self.offers_out:
            deal["out"] = entered.out
        if entered.knocker and self.offers_knock:
            deal["knocker"] = entered.knocker
        if entered.one_turn and self.offers_one_turn:
            deal["one_turn"] = True
        if entered.ended:
            deal["ended"] = entered.ended
        if entered.upcard.strip() and self.offers_upcard:
            deal["upcard"] = entered.upcard.strip()
        if entered.big_gin and self.is_gin and entered.entry == "points":
            deal["big_gin"] = True
        return deal

    def read(self, entered: Entered, *, number: int, correcting: bool, tried: bool) -> Checked:
        """The engine's reading of deal ``number`` (1-based) as entered, recorded as the next
        deal or (``correcting``) in place of deal ``number``. Cards that are not cards, or that
        cannot all be in this deal, are named at once under every hand concerned; what the engine
        refuses otherwise is named once the player ``tried`` to save, and until then says why
        there is no reading (:attr:`Checked.pending`)."""
        found: dict[str, list[Message]] = {}
        if entered.entry == "cards":
            hands = {}
            for player in self.players:
                try:
                    hands[player] = parse_cards(entered.cards.get(player, ""))
                except ScorerError as exc:
                    found.setdefault(f"cards:{player}", []).append(exc.message)
            for problem in hand_problems(hands, players=self.players, ruleset=self.ruleset):
                for player in problem.players:
                    found.setdefault(f"cards:{player}", []).append(_in_field(problem.message))
        if entered.entry == "points":
            for player in self.players:
                text = entered.points.get(player, "").strip()
                if text and not re.fullmatch(r"\d+", text):
                    wrong = Message("deal.points_not_number", player=player, value=repr(text))
                    found.setdefault(f"points:{player}", []).append(wrong)
        if found:
            return Checked(None, {key: _together(said) for key, said in found.items()})
        try:
            return Checked(self._reading(entered, number=number, correcting=correcting), {})
        except ScorerError as exc:
            if tried:
                return Checked(None, self.place(exc.message))
            return Checked(None, {}, str(_in_field(_within_deal(exc.message))))

    def _reading(self, entered: Entered, *, number: int, correcting: bool) -> Reading:
        deal = DealDocument.model_validate(self.document(entered)).to_deal()
        index = number - 1
        deals = self.game.deals
        deals = (*deals[:index], deal, *deals[index + 1 :]) if correcting else (*deals, deal)
        # One replay of the whole game: it checks the deal in its place and gives the totals.
        result = score_game(
            ruleset=self.ruleset,
            players=self.players,
            deals=deals,
            first_dealer=self.game.first_dealer,
            start=self.game.start,
            ends_after=self.game.ends_after,
        )
        record = result.deals[index]
        score = record.score
        rows = tuple(
            ReadingRow(p, score.hand_points.get(p, 0), score.scores.get(p, 0), record.running[p])
            for p in self.players
        )
        knock = None
        if self.is_gin and deal.hands and deal.knocker is not None:
            knocker = deal.knocker
            defender = next(p for p in self.players if p != knocker)
            verdict = referee_knock(
                knocker=deal.hands[knocker],
                defender=deal.hands[defender],
                ruleset=self.ruleset,
                upcard=deal.upcard,
            )
            side, other = verdict.knocker, verdict.defender
            knock = KnockReading(
                knocker=knocker,
                defender=defender,
                melds=melds_faces(side.melds),
                deadwood=faces(side.deadwood),
                deadwood_points=side.deadwood_points,
                layoffs=faces(c for layoff in other.layoffs for c in layoff.cards),
                defender_melds=melds_faces(other.melds),
                defender_deadwood=faces(other.deadwood),
                defender_points=other.deadwood_points,
                outcome=verdict.outcome or "",
                winner=knocker if verdict.winner == "knocker" else defender,
                points=verdict.points,
            )
        return Reading(
            number=index + 1,
            rows=rows,
            events=score.events,
            outcome=score.outcome,
            knock=knock,
            finished=result.finished,
            winner=result.winner,
        )

    def place(self, said: Message) -> dict[str, str]:
        """Put the engine's message beside the field it concerns, under every player it names:
        read from the message's code and parameters (``deal.field`` names the field, a
        ``player`` or ``players`` parameter the hands), never from its words."""
        message = _within_deal(said)
        problem, where = message, ""
        if message.code == "deal.field":
            named, rest = message.params.get("field"), message.params.get("rest")
            if isinstance(named, Word) and isinstance(rest, Message):
                problem, where = rest, named.word
        if where in _ENTRY_KINDS:
            players = [p for p in self.players if p in set(_named_players(problem))]
            if players:
                return {f"{_ENTRY_KINDS[where]}:{p}": str(problem) for p in players}
        elif where in _FIELD_KEYS:
            return {_FIELD_KEYS[where]: str(problem)}
        if problem.code in _HOW_IT_ENDED:
            return {"out": str(problem)}
        return {"deal": str(message)}


def entered_of(deal: Mapping[str, Any]) -> Entered:
    """A saved deal as the entry shows it again, to correct it (cards with the suit symbols)."""
    entry: Entry = "cards"
    cards: dict[str, str] = {}
    points: dict[str, str] = {}
    if "hands" in deal:
        cards = {p: _faces_of(str(c)) for p, c in deal["hands"].items()}
    for key in ("points", "deadwood"):
        if key in deal:
            entry = "points"
            points = {p: str(v) for p, v in deal[key].items()}
    return Entered(
        entry=entry,
        cards=cards,
        points=points,
        out=str(deal.get("out") or ""),
        knocker=str(deal.get("knocker") or ""),
        one_turn=bool(deal.get("one_turn", False)),
        ended=str(deal.get("ended") or ""),
        dead=bool(deal.get("dead")),
        upcard=str(deal.get("upcard") or ""),
        big_gin=bool(deal.get("big_gin", False)),
    )


def _within_deal(message: Message) -> Message:
    """What a game said about one of its deals, without the deal's number (``deal 2: ...``)."""
    rest = message.params.get("rest")
    return rest if message.code == "deal.deal_number" and isinstance(rest, Message) else message


def _in_field(message: Message) -> Message:
    """A problem as its field shows it: ``hands: KS is ...`` under a hand is ``KS is ...``."""
    rest = message.params.get("rest")
    return rest if message.code == "deal.field" and isinstance(rest, Message) else message


def _named_players(message: Message) -> Iterator[str]:
    """Every name a message gives as a ``player`` or ``players`` parameter, however deep."""
    for key, value in message.params.items():
        yield from _names_in(value, named=key in _PLAYER_PARAMS)


def _names_in(value: object, *, named: bool) -> Iterator[str]:
    if isinstance(value, Message):
        yield from _named_players(value)
    elif isinstance(value, Join):
        for item in value.items:
            yield from _names_in(item, named=named)
    elif named and isinstance(value, str):
        yield value


def _together(said: list[Message]) -> str:
    """One field's problems, one a line."""
    if len(said) == 1:
        return str(said[0])
    return str(Message("deal.problems", problems=join(said, sep="\n")))


def _canonical(text: str) -> str:
    """Cards as the game file keeps them (``KS 5H``); text that is not cards as typed (the
    engine names it)."""
    try:
        return format_cards(parse_cards(text))
    except ScorerError:
        return text.strip()


def _faces_of(text: str) -> str:
    """Cards kept in the game file as the screen writes them (``K♠ 5♥``)."""
    try:
        return faces(parse_cards(text))
    except ScorerError:
        return text
