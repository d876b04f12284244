"""The director of a club night on screen: a table's calls and penalties on its Scoreboard
(:class:`TableDirector`), and the director's desk on the night's screen (:class:`DirectorDesk`):
the calls as they come, each answered with a note, and penalties given and lifted per table.

Everything is the store's (:mod:`scorer.league.director`): a call, an answer, a penalty and
its lifting are each one fact; the totals a penalty changes are the engine's.

>>> store = Store.memory()
>>> _ = store.create_league("Club")
>>> night = store.start_night("Club", players=["Anna", "Bea"], ruleset="gin", seed=1)
>>> table = TableDirector.load(store, night.rounds[0].tables[0].game)
>>> table.ask(); table.pick("dispute"); table.set_note("who dealt?")
>>> table.call(by="Table 1")
True
>>> line = table.lines("en")[0]
>>> line.startswith("Called the director at ")
True
>>> line.endswith(": A dispute (who dealt?) · waiting for the director")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import flet as ft

from scorer.errors import ScorerError
from scorer.game import Penalty
from scorer.league.director import Call
from scorer.league.facts import CALL_REASONS
from scorer.league.night import Night
from scorer.league.store import Store
from scorer.replacement import Replacement
from scorer.ui.i18n import Language, local_time, tr

#: How many of a table's calls its Scoreboard shows (newest first).
SHOWN_CALLS = 3


def reason_text(reason: str, language: Language) -> str:
    """A call's reason in words: ``A rules question``, ``A dispute``, ``A penalty``.

    >>> reason_text("rules", "en"), reason_text("penalty", "fi")
    ('A rules question', 'Rangaistus')
    """
    return tr(f"director.reason_{reason}", language)


def penalty_line(penalty: Penalty, language: Language) -> str:
    """``Penalty: Anna, 5 points (slow play), given by Dir`` (who gave it left out when unsigned).

    >>> penalty_line(Penalty("Anna", 5, why="slow play", by="Dir"), "en")
    'Penalty: Anna, 5 points (slow play), given by Dir'
    >>> penalty_line(Penalty("Anna", 1, why="talking"), "fi")
    'Rangaistus: Anna, 1 piste (talking)'
    """
    key = "director.penalty_one" if penalty.points == 1 else "director.penalty_line"
    line = tr(key, language, player=penalty.player, points=penalty.points, why=penalty.why)
    return tr("director.given_by", language, line=line, by=penalty.by) if penalty.by else line


def replaced_line(made: Replacement, language: Language) -> str:
    """``Gus took over from Bea after deal 4`` (docs/rules.md, "Replacements").

    >>> replaced_line(Replacement(1, "Bea", "Gus", 4), "en")
    'Gus took over from Bea after deal 4'
    """
    return tr(
        "director.replaced_line", language, replacement=made.replacement, player=made.player, after=made.after
    )


def call_line(call: Call, language: Language) -> str:
    """A call as the director's list shows it: ``Table 3 · 21:04 · Bea: A rules question: may I?``."""
    reason = reason_text(call.reason, language)
    said = tr("director.call_note", language, reason=reason, note=call.note) if call.note else reason
    who = call.by or tr("director.nobody", language)
    return tr(
        "director.call_line",
        language,
        table=call.table,
        time=local_time(call.at, language),
        by=who,
        said=said,
    )


def answer_line(call: Call, language: Language) -> str:
    """``Answered at 21:06 by Dir: yes`` (the note left out when there is none)."""
    who = call.answered_by or tr("director.nobody", language)
    when = local_time(call.answered or "", language)
    if call.answer:
        return tr("director.answered_note", language, time=when, by=who, note=call.answer)
    return tr("director.answered", language, time=when, by=who)


@dataclass(eq=False)
class TableDirector(ft.Observable):
    """A night table's calls to the director, on its Scoreboard: ``Call director`` opens the
    choice of reason and an optional note; then the board says the call waits, then the answer."""

    store: Store
    game_id: str
    calls: list[Call] = field(default_factory=list)
    asking: bool = False
    reason: str = CALL_REASONS[0]
    note: str = ""
    error: str = ""

    @classmethod
    def load(cls, store: Store, game_id: str) -> TableDirector:
        model = cls(store=store, game_id=game_id)
        model.reload()
        return model

    def reload(self) -> None:
        try:
            calls = self.store.game_calls(self.game_id)
        except ScorerError:
            return  # the game is gone: keep what was shown
        if calls != self.calls:
            self.calls = calls

    def ask(self) -> None:
        self.asking, self.error = True, ""

    def pick(self, reason: str) -> None:
        self.reason = reason

    def set_note(self, text: str) -> None:
        self.note = text

    def cancel(self) -> None:
        self.asking, self.note, self.error = False, "", ""

    def call(self, *, by: str | None = None) -> bool:
        """Call the director with the chosen reason and note (one fact); the store's message
        in :attr:`error` and nothing saved when refused."""
        try:
            self.store.call_director(self.game_id, self.reason, self.note, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.asking, self.note, self.error = False, "", ""
        self.reload()
        return True

    def lines(self, language: Language) -> list[str]:
        """The table's latest calls, newest first: each waiting, or answered with the note."""
        shown = []
        for call in self.calls[:SHOWN_CALLS]:
            reason = reason_text(call.reason, language)
            said = tr("director.call_note", language, reason=reason, note=call.note) if call.note else reason
            head = tr("director.table_called", language, said=said, time=local_time(call.at, language))
            tail = tr("director.waiting", language) if call.open else answer_line(call, language)
            shown.append(f"{head} · {tail}")
        return shown


@dataclass(eq=False)
class DirectorDesk(ft.Observable):
    """The director's part of the night's screen: the calls as they come (open first, each
    answered with a note) and the penalties of the night's tables (given and lifted)."""

    store: Store
    night: Night
    calls: list[Call] = field(default_factory=list)
    penalties: dict[str, tuple[Penalty, ...]] = field(default_factory=dict)  # by game id
    answering: str = ""  # the call whose answer is being written
    answer: str = ""
    penalising: str = ""  # the game whose penalty is being written
    player: str = ""
    points: str = ""
    why: str = ""
    error: str = ""
    replacements: dict[str, tuple[Replacement, ...]] = field(default_factory=dict)  # by game id
    replacing: str = ""  # the game whose replacement is being written
    leaving: str = ""  # the seat's player who leaves (a name, as the table shows it)
    newcomer: str = ""
    after: str = ""
    replace_why: str = ""

    @classmethod
    def load(cls, store: Store, night: Night) -> DirectorDesk:
        model = cls(store=store, night=night)
        model.reload()
        return model

    def reload(self) -> None:
        try:
            night = self.store.find_night(self.night.id)
            calls = self.store.calls(night.league_id, night.id)
            penalties = self.store.night_penalties(night.league_id, night.id)
            replacements = self.store.night_replacements(night.league_id, night.id)
        except ScorerError:
            return
        self.night = night
        if replacements != self.replacements:
            self.replacements = replacements
        if calls != self.calls:
            self.calls = calls
        if penalties != self.penalties:
            self.penalties = penalties

    # -- calls -------------------------------------------------------------------------------

    def open_calls(self) -> list[Call]:
        """The calls waiting, newest first."""
        return [c for c in self.calls if c.open]

    def answered_calls(self) -> list[Call]:
        return [c for c in self.calls if not c.open]

    def start_answer(self, call_id: str) -> None:
        self.answering, self.answer, self.error = call_id, "", ""

    def set_answer(self, text: str) -> None:
        self.answer = text

    def answer_call(self, *, by: str | None = None) -> bool:
        """Answer the call being answered with the note written (``Done``)."""
        try:
            self.store.answer_call(self.answering, self.answer, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.answering, self.answer, self.error = "", "", ""
        self.reload()
        return True

    # -- penalties ---------------------------------------------------------------------------

    def players_of(self, game_id: str) -> tuple[str, ...]:
        """The players (names, by seat) of a table's game of the night."""
        tables = (t for r in self.night.rounds for t in r.tables if t.game == game_id)
        return next((t.players for t in tables), ())

    def start_penalty(self, game_id: str) -> None:
        """Open the ``Penalty`` form of a table (its first seat chosen, to change)."""
        players = self.players_of(game_id)
        self.penalising, self.error = game_id, ""
        self.player = players[0] if players else ""
        self.points, self.why = "", ""

    def cancel_penalty(self) -> None:
        self.penalising, self.points, self.why, self.error = "", "", "", ""

    def set_player(self, name: str) -> None:
        self.player = name

    def set_points(self, text: str) -> None:
        self.points = text

    def set_why(self, text: str) -> None:
        self.why = text

    def penalise(self, *, by: str | None = None) -> bool:
        """Give the penalty written (the store checks the player, the points and the reason)."""
        try:
            self.store.penalise(self.penalising, self.player, self.points, why=self.why, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.cancel_penalty()
        self.reload()
        return True

    def lift(self, game_id: str, penalty_id: str, *, by: str | None = None) -> bool:
        try:
            self.store.lift_penalty(game_id, penalty_id, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error = ""
        self.reload()
        return True

    def penalties_of(self, game_id: str) -> Sequence[Penalty]:
        return self.penalties.get(game_id, ())

    # -- replacements (docs/rules.md, "Replacements") -----------------------------------------

    def holders_of(self, game_id: str) -> tuple[str, ...]:
        """Who sits at each seat of a table's game now (a replacement in place of who left)."""
        players = list(self.players_of(game_id))
        for made in self.replacements.get(game_id, ()):
            if 0 <= made.seat < len(players):
                players[made.seat] = made.replacement
        return tuple(players)

    def replacements_of(self, game_id: str) -> Sequence[Replacement]:
        return self.replacements.get(game_id, ())

    def start_replace(self, game_id: str) -> None:
        """Open the ``Replace player`` form of a table (its first seat chosen, to change;
        after the deals played so far, to change)."""
        holders = self.holders_of(game_id)
        self.replacing, self.error = game_id, ""
        self.leaving = holders[0] if holders else ""
        self.newcomer, self.after, self.replace_why = "", "", ""

    def cancel_replace(self) -> None:
        self.replacing, self.newcomer, self.after, self.replace_why, self.error = "", "", "", "", ""

    def set_leaving(self, name: str) -> None:
        self.leaving = name

    def set_newcomer(self, text: str) -> None:
        self.newcomer = text

    def set_after(self, text: str) -> None:
        self.after = text

    def set_replace_why(self, text: str) -> None:
        self.replace_why = text

    def replace(self, *, by: str | None = None) -> bool:
        """Seat the replacement written (the store checks the seat, the player and the deal;
        an empty ``After deal``: the deals played so far)."""
        try:
            self.store.replace_player(
                self.replacing,
                self.leaving,
                self.newcomer,
                after=self.after.strip() or None,
                why=self.replace_why,
                by=by,
            )
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.cancel_replace()
        self.reload()
        return True
