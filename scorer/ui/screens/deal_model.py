"""The Deal entry screen's state: what each player has left, who went out, the engine's reading.

The table enters raw facts only (cards left, or points, who went out or knocked, the
variant's flags); the engine scores them. Before anything is saved the whole game is replayed
with the new or corrected deal (:meth:`scorer.game.Game.add`, :meth:`~scorer.game.Game.replace_deal`),
so an invalid deal is refused with the engine's message beside the field it names and nothing
is saved. For gin the knock referee (:func:`scorer.knock.referee_knock`) shows the knocker's
melds, the defender's layoffs and the outcome.

Mistakes the cards alone show (a card in two hands of a one-deck game, a hand larger than
this game's deal holds: :func:`scorer.deal.hand_problems`) are named at once, under every
hand they concern; what only makes the entry incomplete waits for Save deal, and meanwhile
says why there is no reading yet (:attr:`DealModel.pending`). Cards tapped are written with
the suit symbols, as on the picker; the game file keeps the engine's notation.

>>> store = Store.memory()
>>> game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
>>> model = DealModel.load(store, game_id)
>>> model.set_out("Anna")
>>> model.tap("Bea", Card.parse("KS")); model.tap("Bea", Card.parse("5H"))
>>> model.cards["Bea"], model.hand_value("Bea")
('K♠ 5♥', 15)
>>> model.save(store)
True
>>> store.game(game_id).result.totals
{'Anna': 0, 'Bea': 15}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import flet as ft

from scorer.cards import DECK, JOKER, Card, format_cards, parse_cards, sort_key
from scorer.deal import cards_to_deal, hand_problems
from scorer.errors import ScorerError
from scorer.game import Game, score_game
from scorer.gamefile import DealDocument
from scorer.knock import referee_knock
from scorer.league.errors import ConflictError
from scorer.league.records import GameEvent, StoredGame
from scorer.league.store import Store
from scorer.messages import Join, Message, Word, join
from scorer.ruleset import Ruleset
from scorer.solver import Solver
from scorer.ui.components.card_face import faces, melds_faces
from scorer.ui.live import same_game
from scorer.ui.screens.conflict_model import DealConflict, DealSide, describe_deal

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


@dataclass(eq=False)
class DealModel(ft.Observable):
    """One deal being entered (``number`` is None) or corrected (``number`` is the deal, 1-based).

    The entry knows which deal it records (:attr:`target`, fixed when it opens) and, for a
    correction, the deal as it started from it (:attr:`base`): the store refuses a save over
    another phone's (:attr:`conflict`), and the three ways on are :meth:`keep_theirs`,
    :meth:`save_as_next` and :meth:`replace_theirs`. :meth:`reload` follows the store while the
    entry is open (:attr:`latest`, for the header).
    """

    saved: StoredGame
    number: int | None = None
    target: int = 0  # the deal this entry records (1-based)
    base: dict[str, Any] | None = None  # a correction: the deal as it was when the entry opened
    latest: StoredGame | None = None  # the game as the store has it now
    conflict: DealConflict | None = None
    why: str = ""  # a correction's reason (optional)
    entry: Entry = "cards"
    cards: dict[str, str] = field(default_factory=dict)
    points: dict[str, str] = field(default_factory=dict)
    out: str = ""
    knocker: str = ""
    one_turn: bool = False
    ended: str = ""
    dead: bool = False
    upcard: str = ""
    big_gin: bool = False
    reading: Reading | None = None
    errors: dict[str, str] = field(default_factory=dict)
    tried: bool = False  # errors of an incomplete entry show once the player tries to save
    pending: str = ""  # before that, why there is no reading yet (the engine's message)
    opened: dict[str, Any] = field(default_factory=dict)  # the entry as it opened (drafted: changed)

    @classmethod
    def load(cls, store: Store, game_id: str, number: int | None = None) -> DealModel:
        """The entry for the next deal, or deal ``number``'s entries to correct."""
        saved = store.game(game_id)
        deals = saved.document.get("deals", [])
        model = cls(saved=saved, number=number, target=number or len(deals) + 1, latest=saved)
        if number is not None:
            if not 1 <= number <= len(deals):
                raise ValueError(f"deal {number}: there is no such deal (the game has {len(deals)})")
            model.base = dict(deals[number - 1])
            model._fill(deals[number - 1])
        model._refresh()
        model.opened = model.document()
        return model

    @property
    def refusal(self) -> str:
        """Why Save deal refused the entry, when it did and the reason is beside a field (the first
        such reason; ``""``: none). A reason of the whole deal (``errors["deal"]``) is shown once."""
        if not self.tried or self.reading is not None or "deal" in self.errors:
            return ""
        return next(iter(self.errors.values()), "")

    @property
    def drafted(self) -> bool:
        """Whether anything was entered since the entry opened (what leaving it would lose)."""
        return self.document() != self.opened or bool(self.why.strip()) or self.conflict is not None

    def reload(self, store: Store) -> None:
        """Read the game again. While the deal this entry records is as it was, the entry goes
        on from the game as it is now; once another phone saved or changed it, the header says
        so (:meth:`meanwhile`) and Save deal will show both."""
        try:
            latest = store.game(self.saved.id)
        except ScorerError:
            return  # the game is gone: the entry keeps what it has, and a save says why
        if self.latest is not None and same_game(latest, self.latest):
            return  # nothing new: nothing changes, nothing is redrawn
        self.latest = latest
        if latest.changed != self.saved.changed and self._still_open(latest):
            self.saved = latest
            self._refresh()

    def _still_open(self, game: StoredGame) -> bool:
        deals = game.document.get("deals", [])
        if self.number is None:
            return len(deals) == self.target - 1
        return self.target <= len(deals) and deals[self.target - 1] == self.base

    # -- what the screen asks ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.saved.game

    @property
    def ruleset(self) -> Ruleset:
        return self.saved.game.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        return self.saved.game.players

    @property
    def is_gin(self) -> bool:
        return self.ruleset.family == "gin"

    @property
    def deal_number(self) -> int:
        return self.target

    @property
    def status(self) -> str:
        """The game's state now: ``active``, ``abandoned`` or ``deleted``."""
        return (self.latest or self.saved).status

    @property
    def over(self) -> bool:
        """Whether this entry would record a deal after the game's end: a next deal of a
        finished game (a correction of one is fine). The screen offers no deal form then."""
        return self.number is None and self.saved.result.finished

    @property
    def offers_next(self) -> bool:
        """Whether a conflict may be settled by saving this entry as the next deal: not when
        theirs (or any deal since) ended the game."""
        latest = self.latest or self.saved
        return self.conflict is not None and not latest.result.finished

    def meanwhile(self) -> GameEvent | None:
        """The change another phone made to this entry's deal since it opened (None: none)."""
        latest = self.latest
        if latest is None or self._still_open(latest):
            return None
        return next((e for e in reversed(latest.events) if e.deal == self.target), None) or next(
            iter(reversed(latest.events)), None
        )

    def side(self, deal: dict[str, Any]) -> DealSide:
        """A deal document as the conflict screen shows it."""
        return describe_deal(deal, ruleset=self.ruleset, players=self.players)

    @property
    def dealer(self) -> str:
        seat = (self.game.first_dealer + self.deal_number - 1) % len(self.players)
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
    def ending(self) -> str:
        """How the deal ended, as one of :attr:`ending_choices` ("" while not said)."""
        if self.knocker and self.offers_knock:
            return f"knock:{self.knocker}"
        if self.out:
            return f"out:{self.out}"
        return self.ended

    def set_ending(self, choice: str) -> None:
        """Say how the deal ended: who went out, who knocked, or a way with nobody out."""
        kind, _, player = choice.partition(":")
        self.out = player if kind == "out" and player in self.players else ""
        self.knocker = player if kind == "knock" and player in self.players else ""
        self.ended = choice if choice in self.endings else ""
        self._refresh()

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

    def held(self, player: str) -> tuple[Card, ...]:
        """The cards typed or tapped for ``player`` (none while the text does not read as cards)."""
        try:
            return parse_cards(self.cards.get(player, ""))
        except ScorerError:
            return ()

    def hand_value(self, player: str) -> int | None:
        """What the cards tapped so far are worth in hand, or None while the text is unreadable."""
        text = self.cards.get(player, "")
        try:
            return self.ruleset.hand_points(parse_cards(text))
        except ScorerError:
            return None

    def deadwood(self, player: str) -> int | None:
        """Gin: the hand's deadwood after its best melds (the engine's solver), or None while
        the text is unreadable. A knocker's extra card is the best discard, unless all
        eleven meld (big gin)."""
        try:
            hand = parse_cards(self.cards.get(player, ""))
            solver = Solver(self.ruleset)
            best = solver.best(hand)
            dealt = cards_to_deal(self.ruleset, len(self.players))
            if best.deadwood_points and dealt is not None and len(hand) == dealt + 1:
                best = solver.best_discard(hand).arrangement
        except ScorerError:
            return None
        return best.deadwood_points

    def count(self, player: str, card: Card) -> int:
        return sum(1 for c in self.held(player) if c.undeclared == card.undeclared)

    def available(self, player: str, card: Card) -> bool:
        """Can another copy of ``card`` go into ``player``'s hand (decks, jokers, other hands)?"""
        limit = self.jokers if card.is_joker else self.decks
        everywhere = sum(self.count(p, card) for p in self.players)
        return everywhere < limit

    def disabled(self, player: str, card: Card) -> bool:
        """A card no copy of which is left for this hand (e.g. in another hand in a one-deck game)."""
        return self.count(player, card) == 0 and not self.available(player, card)

    # -- input ------------------------------------------------------------------------------

    def tap(self, player: str, card: Card) -> None:
        """Add a copy of the card to the hand if one is left, else take every copy back out."""
        if player not in self.players or (self.cards.get(player, "") and not self.held(player)):
            return  # the typed text does not read as cards: fix it first
        held = list(self.held(player))
        if self.available(player, card):
            held.append(card)
        else:
            held = [c for c in held if c.undeclared != card.undeclared]
        self.cards = self.cards | {player: faces(sorted(held, key=sort_key))}
        self.entry = "cards"
        self._refresh()

    def set_cards(self, player: str, text: str) -> None:
        if player in self.players and text != self.cards.get(player, ""):
            self.cards = self.cards | {player: text}
            self.entry = "cards"
            self._refresh()

    def set_points(self, player: str, text: str) -> None:
        if player in self.players and text != self.points.get(player, ""):
            self.points = self.points | {player: text}
            self.entry = "points"
            self._refresh()

    def set_entry(self, entry: Entry) -> None:
        if entry != self.entry:
            self.entry = entry
            self._refresh()

    def set_out(self, player: str) -> None:
        self.out = player if player in self.players else ""
        if self.out:
            self.ended = ""
        self._refresh()

    def set_knocker(self, player: str) -> None:
        self.knocker = player if player in self.players else ""
        if self.knocker:
            self.dead = False
        self._refresh()

    def set_one_turn(self, value: bool) -> None:
        self.one_turn = value
        self._refresh()

    def set_ended(self, ending: str) -> None:
        self.ended = ending if ending in self.endings else ""
        if self.ended:
            self.out = ""
        self._refresh()

    def set_dead(self, value: bool) -> None:
        self.dead = value
        if value:
            self.knocker = ""
        self._refresh()

    def set_upcard(self, text: str) -> None:
        self.upcard = text
        self._refresh()

    def set_big_gin(self, value: bool) -> None:
        self.big_gin = value
        self._refresh()

    # -- the deal ---------------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        """The deal as the game file keeps it (raw entries only)."""
        if self.is_gin and self.dead:
            return {"dead": True}
        deal: dict[str, Any] = {}
        if self.entry == "cards":
            hands = {p: _canonical(self.cards.get(p, "")) for p in self.players}
            deal["hands"] = {p: c for p, c in hands.items() if c or p == self.out}
        else:
            table = {}
            for player in self.players:
                text = self.points.get(player, "").strip()
                if not text and player == self.out:
                    text = "0"
                if text:
                    table[player] = int(text) if re.fullmatch(r"-?\d+", text) else text
            deal["deadwood" if self.is_gin else "points"] = table
        if self.out and self.offers_out:
            deal["out"] = self.out
        if self.knocker and self.offers_knock:
            deal["knocker"] = self.knocker
        if self.one_turn and self.offers_one_turn:
            deal["one_turn"] = True
        if self.ended:
            deal["ended"] = self.ended
        if self.upcard.strip() and self.offers_upcard:
            deal["upcard"] = self.upcard.strip()
        if self.big_gin and self.is_gin and self.entry == "points":
            deal["big_gin"] = True
        return deal

    def read(self) -> bool:
        """Ask the engine for its reading of the entry; False (and errors) if it refuses it."""
        self.tried = True
        self._refresh()
        return self.reading is not None

    def set_why(self, text: str) -> None:
        self.why = text

    def save(self, store: Store, *, by: str | None = None) -> bool:
        """Save the deal if the engine accepts it; the game as saved replaces :attr:`saved`.

        Signed ``by`` (the device's name). Another phone's save of the same deal is never
        overwritten or doubled: nothing is written and :attr:`conflict` holds both entries.
        """
        if not self.read():
            return False
        mine = self.document()
        try:
            if self.number is None:
                self.saved = store.add_deal(self.saved.id, mine, by=by, number=self.target)
            else:
                self.saved = store.replace_deal(
                    self.saved.id,
                    self.target - 1,
                    mine,
                    by=by,
                    why=self.why.strip() or None,
                    expected=self.base,
                )
        except ConflictError as exc:
            self.conflict = DealConflict.of(
                exc, doing="record" if self.number is None else "correct", mine=mine
            )
            self._catch_up(store)
            return False
        except ScorerError as exc:
            self.errors = self._place(exc.message)
            self.reading = None
            return False
        self.latest = self.saved
        return True

    # -- a conflict: the three ways on ---------------------------------------------------------

    def keep_theirs(self) -> None:
        """Drop this entry: theirs stays as saved (the screen goes back to the scoreboard)."""
        self.conflict = None

    def save_as_next(self, store: Store, *, by: str | None = None) -> bool:
        """Save this entry as one more deal after every deal saved so far."""
        conflict = self.conflict
        if conflict is None or not self.offers_next:
            return False

        def save() -> StoredGame:
            latest = store.game(self.saved.id)
            number = len(latest.document.get("deals", [])) + 1
            return store.add_deal(self.saved.id, conflict.mine, by=by, number=number)

        return self._resolve(conflict, save, doing="record", store=store)

    def replace_theirs(self, store: Store, *, by: str | None = None, why: str = "") -> bool:
        """Put this entry in place of theirs: a correction of that deal, with its reason.

        If theirs was removed meanwhile, this entry is put back where it was.
        """
        conflict = self.conflict
        if conflict is None:
            return False
        index = conflict.number - 1

        def save() -> StoredGame:
            if conflict.theirs is None:
                return store.restore_deal(self.saved.id, index, conflict.mine, by=by)
            return store.replace_deal(
                self.saved.id, index, conflict.mine, by=by, why=why.strip() or None, expected=conflict.theirs
            )

        return self._resolve(conflict, save, doing="correct", store=store)

    def _catch_up(self, store: Store) -> None:
        """The game as the store has it now (a conflict's ways on depend on it)."""
        try:
            self.latest = store.game(self.saved.id)
        except ScorerError:
            return

    def _resolve(
        self,
        conflict: DealConflict,
        save: Callable[[], StoredGame],
        *,
        doing: Literal["record", "correct"],
        store: Store,
    ) -> bool:
        """One way on from a conflict: saved, or caught again (yet another phone was quicker)."""
        try:
            self.saved = save()
        except ConflictError as exc:
            self.conflict = DealConflict.of(exc, doing=doing, mine=conflict.mine)
            self._catch_up(store)
            return False
        except ScorerError as exc:
            self.errors = {"deal": str(exc)}
            return False
        self.conflict = None
        self.latest = self.saved
        return True

    # -- helpers -----------------------------------------------------------------------------

    def _fill(self, deal: dict[str, Any]) -> None:
        if deal.get("dead"):
            self.dead = True
        if "hands" in deal:
            self.entry = "cards"
            self.cards = {p: _faces_of(str(c)) for p, c in deal["hands"].items()}
        for key in ("points", "deadwood"):
            if key in deal:
                self.entry = "points"
                self.points = {p: str(v) for p, v in deal[key].items()}
        self.out = str(deal.get("out") or "")
        self.knocker = str(deal.get("knocker") or "")
        self.one_turn = bool(deal.get("one_turn", False))
        self.ended = str(deal.get("ended") or "")
        self.upcard = str(deal.get("upcard") or "")
        self.big_gin = bool(deal.get("big_gin", False))

    def _refresh(self) -> None:
        """Recompute the reading. Cards that are not cards, or that cannot all be in this deal,
        are named at once under every hand concerned; what the engine refuses otherwise is
        named once the player tried to save, and until then says why there is no reading."""
        found: dict[str, list[Message]] = {}
        if self.entry == "cards":
            hands = {}
            for player in self.players:
                try:
                    hands[player] = parse_cards(self.cards.get(player, ""))
                except ScorerError as exc:
                    found.setdefault(f"cards:{player}", []).append(exc.message)
            for problem in hand_problems(hands, players=self.players, ruleset=self.ruleset):
                for player in problem.players:
                    found.setdefault(f"cards:{player}", []).append(_in_field(problem.message))
        if self.entry == "points":
            for player in self.players:
                text = self.points.get(player, "").strip()
                if text and not re.fullmatch(r"\d+", text):
                    wrong = Message("deal.points_not_number", player=player, value=repr(text))
                    found.setdefault(f"points:{player}", []).append(wrong)
        errors = {key: _together(said) for key, said in found.items()}
        reading, pending = None, ""
        if not errors:
            try:
                reading = self._reading()
            except ScorerError as exc:
                if self.tried:
                    errors = self._place(exc.message)
                else:
                    pending = str(_in_field(_within_deal(exc.message)))
        self.reading = reading
        self.errors = errors
        self.pending = pending

    def _reading(self) -> Reading:
        deal = DealDocument.model_validate(self.document()).to_deal()
        index = self.deal_number - 1
        deals = self.game.deals
        deals = (*deals, deal) if self.number is None else (*deals[:index], deal, *deals[index + 1 :])
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

    def _place(self, said: Message) -> dict[str, str]:
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
