"""Deals confirmed at the table, as the screens show them (:mod:`scorer.league.confirm`).

At a club night each deal saved at a table waits for another player's confirmation. On the
Scoreboard of a table's game (:class:`TableChecks`) a phone sees the deals another phone saved
as they were entered, with ``Confirm`` and ``Dispute`` (a reason, optional); the deals it saved
itself say ``Waiting for confirmation``; confirmed, disputed and resolved deals say who. On the
director's screen (:class:`DirectorChecks`) each open dispute shows both versions, with ``Keep
saved`` and ``Keep theirs`` and the reason the director gives, and every deal still unconfirmed
a ``Confirm``. The store decides everything (who may confirm, what a resolution writes); these
models only keep what was typed and say what the store said.

>>> store = Store.memory()
>>> _ = store.create_league("Club")
>>> night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin", seed=1)
>>> game = night.rounds[0].tables[0].game
>>> first, second = store.game(game).game.players
>>> _ = store.add_deal(game, {"knocker": first, "deadwood": {first: 0, second: 30}}, by="Anna")
>>> board = TableChecks.load(store, game)
>>> [check_line(c, me="Anna", language="en") for c in board.checks]
['Deal 1: waiting for confirmation']
>>> [c.number for c in board.to_confirm("Bea")]
[1]
>>> board.confirm(store, 1, by="Bea")
True
>>> [check_line(c, me="Anna", language="en") for c in board.checks]
['Deal 1 confirmed by Bea']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.league.confirm import DealCheck
from scorer.league.store import Store
from scorer.names import name_key
from scorer.ruleset import Ruleset
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.conflict_model import DealSide, describe_deal


def mine(check: DealCheck, me: str | None) -> bool:
    """Whether this phone (signing as ``me``) saved the deal as it stands."""
    return bool(me) and bool(check.saved_by) and name_key(check.saved_by) == name_key(me or "")


def check_line(check: DealCheck, *, me: str | None, language: Language) -> str:
    """A deal's confirmation in one line, as the phone signing as ``me`` sees it.

    >>> check = DealCheck(number=2, state="disputed", deal={}, saved_by="Anna", by="Bea", disputed_by="Bea")
    >>> check_line(check, me="Anna", language="fi")
    'Jako 2: Bea kiistää sen, tuomari ratkaisee'
    """
    number = check.number
    if check.state == "confirmed":
        return tr("checks.line_confirmed", language, number=number, name=check.by)
    if check.state == "disputed":
        return tr("checks.line_disputed", language, number=number, name=check.disputed_by or "?")
    if check.state == "resolved":
        kept = tr(f"checks.kept_{check.kept or 'saved'}", language)
        return tr("checks.line_resolved", language, number=number, name=check.by, kept=kept)
    if mine(check, me):
        return tr("checks.line_waiting", language, number=number)
    return tr("checks.line_to_confirm", language, number=number, name=check.saved_by or "?")


def mark_text(unconfirmed: int, disputed: int, language: Language) -> str:
    """``Unconfirmed deals: 2`` (``…, disputed: 1``); "" when none waits.

    >>> mark_text(2, 1, "en"), mark_text(0, 0, "en")
    ('Unconfirmed deals: 2, disputed: 1', '')
    """
    if not unconfirmed:
        return ""
    if disputed:
        return tr("checks.mark_disputed", language, count=unconfirmed, disputed=disputed)
    return tr("checks.mark", language, count=unconfirmed)


@dataclass(eq=False)
class TableChecks(ft.Observable):
    """The Scoreboard's confirmations of one table's game (none for a game that needs none)."""

    game_id: str
    ruleset: Ruleset
    players: tuple[str, ...]
    checks: tuple[DealCheck, ...] = ()
    disputing: int = 0  # the deal whose dispute this phone is writing (0: none)
    why: str = ""
    error: str = ""

    @classmethod
    def load(cls, store: Store, game_id: str) -> TableChecks:
        saved = store.game(game_id)
        model = cls(game_id=game_id, ruleset=saved.game.ruleset, players=saved.game.players)
        model.reload(store)
        return model

    def reload(self, store: Store) -> None:
        """Read the checks again (another phone confirmed, disputed or changed a deal)."""
        try:
            checks = store.deal_checks(self.game_id)
        except ScorerError:
            return  # gone from the store: the board keeps what it showed
        if checks != self.checks:
            self.checks = checks
        if self.disputing and not any(c.number == self.disputing and c.open for c in checks):
            self.disputing, self.why = 0, ""  # settled meanwhile: nothing left to dispute

    def to_confirm(self, me: str | None) -> list[DealCheck]:
        """The deals this phone may confirm or dispute: unconfirmed, saved by another phone."""
        return [c for c in self.checks if c.state == "unconfirmed" and not mine(c, me)]

    def side(self, deal: dict[str, Any]) -> DealSide:
        """A deal as entered, as the conflict panel shows one side."""
        return describe_deal(deal, ruleset=self.ruleset, players=self.players)

    def confirm(self, store: Store, number: int, *, by: str | None) -> bool:
        """Confirm deal ``number`` as this board shows it; False with :attr:`error` holding the
        store's message (the deal changed meanwhile, this phone saved it)."""
        shown = next((c for c in self.checks if c.number == number), None)
        expected = dict(shown.deal) if shown is not None else None
        return self._done(store, lambda: store.confirm_deal(self.game_id, number, by=by, expected=expected))

    def open_dispute(self, number: int) -> None:
        self.disputing, self.why, self.error = number, "", ""

    def cancel(self) -> None:
        self.disputing, self.why = 0, ""

    def set_why(self, text: str) -> None:
        self.why = text

    def dispute(self, store: Store, *, by: str | None) -> bool:
        """Dispute the deal being disputed, with the reason typed (it may be empty)."""
        number = self.disputing
        shown = next((c for c in self.checks if c.number == number), None)
        if shown is None:
            self.cancel()
            return False
        expected, why = dict(shown.deal), self.why
        if not self._done(
            store, lambda: store.dispute_deal(self.game_id, number, by=by, why=why, expected=expected)
        ):
            return False
        self.cancel()
        return True

    def _done(self, store: Store, act: Any) -> bool:
        try:
            act()
        except ScorerError as exc:
            self.error = str(exc)
            self.reload(store)
            return False
        self.error = ""
        self.reload(store)
        return True


@dataclass(frozen=True, slots=True)
class NightDeal:
    """A deal of a night's table waiting for the director: where it is, and its check."""

    round: int
    table: int
    game: str
    players: tuple[str, ...]
    ruleset: Ruleset
    check: DealCheck

    @property
    def key(self) -> str:
        return f"{self.game}/{self.check.number}"

    def side(self, deal: dict[str, Any]) -> DealSide:
        return describe_deal(deal, ruleset=self.ruleset, players=self.players)


@dataclass(eq=False)
class DirectorChecks(ft.Observable):
    """The director's screen's disputes and unconfirmed deals of one night."""

    store: Store
    night_id: str
    disputes: list[NightDeal] = field(default_factory=list)
    unconfirmed: list[NightDeal] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # what the director typed, by deal
    error: str = ""
    _rules: dict[str, tuple[Ruleset, tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store, night_id: str) -> DirectorChecks:
        model = cls(store=store, night_id=night_id)
        model.reload()
        return model

    def reload(self) -> None:
        """Read the night's deals waiting again (a phone confirmed or disputed one)."""
        try:
            night = self.store.find_night(self.night_id)
        except ScorerError:
            return
        disputes: list[NightDeal] = []
        unconfirmed: list[NightDeal] = []
        for round_ in night.rounds:
            for table in round_.tables:
                if not table.unconfirmed:
                    continue
                ruleset, players = self._game(table.game)
                for check in self.store.deal_checks(table.game):
                    item = NightDeal(round_.number, table.table, table.game, players, ruleset, check)
                    if check.state == "disputed":
                        disputes.append(item)
                    elif check.state == "unconfirmed":
                        unconfirmed.append(item)
        if disputes != self.disputes:
            self.disputes = disputes
        if unconfirmed != self.unconfirmed:
            self.unconfirmed = unconfirmed

    def _game(self, game_id: str) -> tuple[Ruleset, tuple[str, ...]]:
        if game_id not in self._rules:
            game = self.store.game(game_id).game
            self._rules[game_id] = (game.ruleset, game.players)
        return self._rules[game_id]

    def set_reason(self, item: NightDeal, text: str) -> None:
        self.reasons = {**self.reasons, item.key: text}

    def keep(self, item: NightDeal, keep: str, *, by: str | None) -> bool:
        """Keep the ``saved`` version of a disputed deal or ``theirs``, with the reason typed;
        False with :attr:`error` holding the store's message (no reason given, theirs not
        given, the dispute resolved meanwhile)."""
        why = self.reasons.get(item.key, "")
        number = item.check.number
        done = self._done(lambda: self.store.resolve_dispute(item.game, number, keep=keep, why=why, by=by))
        if done:
            self.reasons = {k: v for k, v in self.reasons.items() if k != item.key}
        return done

    def confirm(self, item: NightDeal, *, by: str | None) -> bool:
        """The director confirms a deal still unconfirmed, as shown."""
        number, expected = item.check.number, dict(item.check.deal)
        return self._done(
            lambda: self.store.confirm_deal(item.game, number, by=by, director=True, expected=expected)
        )

    def _done(self, act: Any) -> bool:
        try:
            act()
        except ScorerError as exc:
            self.error = str(exc)
            self.reload()
            return False
        self.error = ""
        self.reload()
        return True
