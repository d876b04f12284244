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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

import flet as ft

from scorer.cards import Card, parse_cards, sort_key
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.league.errors import ConflictError
from scorer.league.records import GameEvent, StoredGame
from scorer.league.store import Store
from scorer.replacement import holder_at, holders
from scorer.ruleset import Ruleset
from scorer.ui.components.card_face import faces
from scorer.ui.live import same_game
from scorer.ui.screens.conflict_model import DealConflict, DealSide, describe_deal
from scorer.ui.screens.deal_entry import (
    Entered,
    Entry,
    EntryRules,
    KnockReading,
    Reading,
    ReadingRow,
    entered_of,
)

__all__ = ["DealModel", "Entry", "KnockReading", "Reading", "ReadingRow"]


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
    #: A club night's dispute: this entry is the disputer's version of deal :attr:`number`,
    #: sent with :attr:`why` for the director to decide (scorer/league/confirm.py), never saved.
    disputing: bool = False
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
    def load(
        cls, store: Store, game_id: str, number: int | None = None, *, disputing: bool = False
    ) -> DealModel:
        """The entry for the next deal, or deal ``number``'s entries to correct (or, with
        ``disputing``, to dispute: the entry is the version the disputer says it should be)."""
        saved = store.game(game_id)
        deals = saved.document.get("deals", [])
        model = cls(saved=saved, number=number, target=number or len(deals) + 1, latest=saved)
        model.disputing = disputing and number is not None
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
    def rules(self) -> EntryRules:
        """What this game's entry offers and means (:mod:`scorer.ui.screens.deal_entry`)."""
        return EntryRules(self.saved.game)

    @property
    def game(self) -> Game:
        return self.saved.game

    @property
    def ruleset(self) -> Ruleset:
        return self.saved.game.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        return self.saved.game.players

    def seat_name(self, player: str) -> str:
        """Who holds ``player``'s seat at the deal being entered: ``player`` unless another took
        the seat over before it (docs/rules.md, "Replacements"). The deal's fields stay keyed by
        the seat's first player, as the game's deals are."""
        game = self.saved.game
        if not game.replacements or player not in game.players:
            return player
        seat = game.players.index(player)
        return holder_at(holders(game.players, game.replacements)[seat], self.target)

    @property
    def is_gin(self) -> bool:
        return self.rules.is_gin

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
        return self.rules.dealer(self.deal_number)

    @property
    def decks(self) -> int:
        return self.rules.decks

    @property
    def jokers(self) -> int:
        return self.rules.jokers

    @property
    def picker_cards(self) -> tuple[Card, ...]:
        """The cards a hand can hold: ranks by suit, then a joker where the ruleset has them."""
        return self.rules.picker_cards

    @property
    def offers_one_turn(self) -> bool:
        return self.rules.offers_one_turn

    @property
    def endings(self) -> tuple[str, ...]:
        """The ways a deal may end with nobody out, in this variant."""
        return self.rules.endings

    @property
    def one_ending_choice(self) -> bool:
        """Whether how the deal ended is one choice (:attr:`EntryRules.one_ending_choice`)."""
        return self.rules.one_ending_choice

    @property
    def ending_choices(self) -> tuple[str, ...]:
        """The ways this deal can have ended: ``out:NAME``, ``knock:NAME``, then the endings."""
        return self.rules.ending_choices

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
        return self.rules.offers_upcard

    @property
    def offers_knock(self) -> bool:
        return self.rules.offers_knock

    @property
    def offers_out(self) -> bool:
        return self.rules.offers_out

    def held(self, player: str) -> tuple[Card, ...]:
        """The cards typed or tapped for ``player`` (none while the text does not read as cards)."""
        try:
            return parse_cards(self.cards.get(player, ""))
        except ScorerError:
            return ()

    def hand_value(self, player: str) -> int | None:
        """What the cards tapped so far are worth in hand, or None while the text is unreadable."""
        return self.rules.hand_value(self.cards.get(player, ""))

    def deadwood(self, player: str) -> int | None:
        """Gin: the hand's deadwood after its best melds, or None while the text is unreadable."""
        return self.rules.deadwood(self.cards.get(player, ""))

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

    def entered(self) -> Entered:
        """What the table entered, as typed or tapped (this model's fields of :class:`Entered`)."""
        return Entered(**{name: getattr(self, name) for name in _ENTERED})

    def document(self) -> dict[str, Any]:
        """The deal as the game file keeps it (raw entries only)."""
        return self.rules.document(self.entered())

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
        if self.disputing:
            return self._dispute(store, mine, by=by)
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
            self.errors = self.rules.place(exc.message)
            self.reading = None
            return False
        self.latest = self.saved
        return True

    def _dispute(self, store: Store, mine: dict[str, Any], *, by: str | None) -> bool:
        """Send this entry as the disputer's version of the deal, with the reason typed: the
        deal stays as saved until the director decides. A refusal (the deal changed or was
        confirmed meanwhile, this entry is the deal as saved) is said under the form."""
        try:
            self.saved = store.dispute_deal(
                self.saved.id, self.target, by=by, why=self.why, deal=mine, expected=self.base
            )
        except ScorerError as exc:
            self.errors = {"deal": str(exc)}
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
                return store.put_back_deal(self.saved.id, index, conflict.mine, by=by)
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
        entered = entered_of(deal)
        for name in _ENTERED:
            value = getattr(entered, name)
            setattr(self, name, dict(value) if isinstance(value, Mapping) else value)

    def _refresh(self) -> None:
        """Ask the engine again (:meth:`EntryRules.read`): the reading, or the problems in place."""
        checked = self.rules.read(
            self.entered(), number=self.deal_number, correcting=self.number is not None, tried=self.tried
        )
        self.reading, self.errors, self.pending = checked.reading, checked.errors, checked.pending


#: The fields of the model that hold what the table entered, as :class:`Entered` names them.
_ENTERED: tuple[str, ...] = tuple(f.name for f in fields(Entered))
