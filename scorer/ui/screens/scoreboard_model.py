"""The Scoreboard's state: deal-by-deal scores, running totals, next dealer, the end of the game.

Everything shown comes from the engine's :class:`scorer.game.GameResult`; the model only
arranges it. Removing a deal keeps it for an undo (the store puts it back in one signed step);
a removal of a deal another phone changed meanwhile is refused and shows theirs. The game can
be abandoned or deleted (both undoable) and moved into a league.

>>> store = Store.memory()
>>> game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
>>> _ = store.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS"}, "out": "Anna"})
>>> board = ScoreboardModel.load(store, game_id)
>>> board.total_labels()
['Anna: 0', 'Bea: 10']
>>> board.next_dealer, board.cards_to_deal
('Bea', 10)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.game import GameResult, ScorePart
from scorer.league.errors import ConflictError
from scorer.league.night import start_text
from scorer.league.records import GameEvent, NightTag, StoredGame
from scorer.league.store import Store
from scorer.messages import render
from scorer.ruleset_text import variant_title
from scorer.ui.components.totals_chart import ChartPoint
from scorer.ui.i18n import Language, tr
from scorer.ui.live import same_game
from scorer.ui.screens.conflict_model import DealConflict
from scorer.ui.screens.history_model import deal_histories


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal on the board, each tuple in seat order.

    A row shows each player's change of running total (``changes``), which is the deal's
    own score (``scores``) as often as it was credited, plus any final bonus the deal set
    off; ``parts`` itemise it, as the engine did (:class:`scorer.game.ScorePart`).
    """

    number: int
    dealer: str
    scores: tuple[int, ...]  # the deal's own score
    running: tuple[int, ...]
    events: tuple[str, ...]
    columns: tuple[int, ...]  # Hollywood: which of the three games the deal counted in (1-based)
    changes: tuple[int, ...]
    parts: tuple[tuple[ScorePart, ...], ...]

    def itemised(self, seat: int) -> bool:
        """Whether the player's change is more than the deal's score counted once."""
        return any(part.kind != "deal" or len(part.games) > 1 for part in self.parts[seat])


def deal_rows(result: GameResult) -> list[DealRow]:
    """The engine's deal records as board rows (players in seat order)."""
    players = result.players
    return [
        DealRow(
            number=record.number,
            dealer=record.dealer,
            scores=tuple(record.score.scores[p] for p in players),
            running=tuple(record.running[p] for p in players),
            events=record.score.events,
            columns=tuple(i + 1 for i in record.credited),
            changes=tuple(record.change(p) for p in players),
            parts=tuple(record.parts[p] for p in players),
        )
        for record in result.deals
    ]


def part_text(part: ScorePart, language: Language, *, games: int = 1) -> str:
    """One part of a change in words: ``+55 deal``, ``+55 ×2 games``, ``+100 game bonus``;
    with ``games`` (the score sheet's) over 1, a bonus names its game: ``+100 game bonus (game 2)``.

    >>> part_text(ScorePart("deal", 55, (0, 1)), "en")
    '+55 ×2 games'
    >>> part_text(ScorePart("boxes", 50, (2,)), "fi", games=3)
    '+50 laatikot (peli 3)'
    """
    points = f"{part.points:+d}"
    if part.kind == "deal":
        if len(part.games) > 1:
            return tr("scoreboard.part_games", language, points=points, times=len(part.games))
        return tr("scoreboard.part_deal", language, points=points)
    bonus = tr(f"scoreboard.bonus_{part.kind}", language)
    if games > 1:
        game = part.games[0] + 1
        return tr("scoreboard.part_bonus_in_game", language, points=points, bonus=bonus, game=game)
    return tr("scoreboard.part_bonus", language, points=points, bonus=bonus)


def parts_text(parts: tuple[ScorePart, ...], language: Language, *, games: int = 1) -> str:
    """The parts of a change, in words and in order; ``0`` for none."""
    return ", ".join(part_text(part, language, games=games) for part in parts) or "0"


def clock_text(seconds: int) -> str:
    """Time left as a round timer shows it, minutes and seconds: ``12:05``, ``75:00``.

    >>> clock_text(725), clock_text(4500), clock_text(0)
    ('12:05', '75:00', '00:00')
    """
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes:02d}:{rest:02d}"


def seconds_between(now: str, deadline: str) -> int:
    """Whole seconds from ``now`` until ``deadline`` (UTC ISO stamps), rounded up; 0 once passed.

    >>> seconds_between("2026-12-04T18:29:58.500000+00:00", "2026-12-04T18:30:00.000000+00:00")
    2
    """
    left = (datetime.fromisoformat(deadline) - datetime.fromisoformat(now)).total_seconds()
    return max(0, -int(-left // 1))


def change_text(points: int) -> str:
    """A change of running total as the board shows it: ``+55``, ``-3``, ``0``."""
    return f"{points:+d}" if points else "0"


@dataclass(frozen=True, slots=True)
class ColumnRow:
    """One of Hollywood's three games: its totals, whether it is over and who won it."""

    number: int
    totals: tuple[int, ...]
    finished: bool
    winner: str | None


@dataclass(frozen=True, slots=True)
class Removed:
    """A removed deal, kept so that the removal can be undone."""

    index: int
    deal: dict[str, Any]


@dataclass(eq=False)
class ScoreboardModel(ft.Observable):
    saved: StoredGame
    removed: Removed | None = None
    error: str = ""  # the engine's or the store's message
    undo_refused: bool = False  # the removed deal no longer fits the game
    conflict: DealConflict | None = None  # a removal refused: another phone changed the deal first
    league: str = ""  # the league the game counts in ("": none)
    season: str = ""
    leagues: list[tuple[str, str]] = field(default_factory=list)  # (id, name): where it can move

    @classmethod
    def load(cls, store: Store, game_id: str) -> ScoreboardModel:
        model = cls(saved=store.game(game_id))
        model._read_leagues(store)
        return model

    def _read_leagues(self, store: Store) -> None:
        every = store.leagues()
        self.leagues = [(lg.id, lg.name) for lg in every]
        found = next((lg for lg in every if lg.id == self.saved.league_id), None)
        self.league = found.name if found else ""
        season = next((s for s in found.seasons if s.id == self.saved.season_id), None) if found else None
        self.season = season.name if season else ""

    # -- what the screen shows ---------------------------------------------------------------

    @property
    def result(self) -> GameResult:
        return self.saved.result

    @property
    def players(self) -> tuple[str, ...]:
        return self.saved.game.players

    @property
    def variant(self) -> str:
        """The variant's name as a heading shows it; it remembers its message, so the screen
        shows it in its language."""
        return variant_title(self.saved.game.ruleset)

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def winner(self) -> str | None:
        return self.result.winner

    @property
    def next_dealer(self) -> str:
        return self.result.next_dealer

    @property
    def cards_to_deal(self) -> int | None:
        return self.result.cards_to_deal

    @property
    def totals(self) -> dict[str, int]:
        return self.result.totals

    # -- a table of a club night -------------------------------------------------------------

    @property
    def night(self) -> NightTag | None:
        """The club night, round and table this game is a table of (``None``: an ordinary game)."""
        return self.saved.night

    def night_heading(self, language: Language) -> str:
        """``Club night · round 2 · table 3`` for a table of a night; empty for another game."""
        tag = self.night
        if tag is None:
            return ""
        if tag.table is None:
            return tr("scoreboard.night", language, round=tag.round)
        return tr("scoreboard.night_table", language, round=tag.round, table=tag.table)

    @property
    def timed(self) -> bool:
        """Whether the game is a table of a timed round (it has a deadline)."""
        return self.night is not None and self.night.deadline is not None

    def seconds_left(self, now: str) -> int | None:
        """Seconds until the round's deadline at ``now`` (the store's clock), 0 once it has
        passed; ``None`` when the round has no timer."""
        tag = self.night
        if tag is None or tag.deadline is None:
            return None
        return seconds_between(now, tag.deadline)

    def ticking(self, now: str) -> bool:
        """Whether the round's clock is still running for this game (the screen refreshes it)."""
        left = self.seconds_left(now)
        return left is not None and left > 0 and not self.finished and self.status == "active"

    def timer_text(self, language: Language, now: str) -> str:
        """The round timer as the board shows it at ``now``: the time left, then that time is
        up (the deal being played is the last), then, once the game was called, that it ended
        on time; empty when the round has no timer or the game ended otherwise."""
        left = self.seconds_left(now)
        if left is None:
            return ""
        if self.finished:
            called = self.saved.game.ends_after
            if self.result.called and called is not None:
                return tr("scoreboard.ended_on_time", language, number=called)
            return ""
        if self.status != "active":
            return ""
        if left > 0:
            return tr("scoreboard.time_left", language, left=clock_text(left))
        return tr("scoreboard.time_up", language)

    def handicap_text(self, language: Language) -> str:
        """``Handicap: Anna +12, Ben 0``: the starting points, when anyone has some."""
        start = self.saved.game.start
        if not any(start.values()):
            return ""
        return tr("scoreboard.handicap", language, points=start_text(self.players, start))

    def total_labels(self) -> list[str]:
        """``NAME: TOTAL`` per player: the scoreboard's accessible totals."""
        return [f"{p}: {self.result.totals[p]}" for p in self.players]

    def rows(self) -> list[DealRow]:
        return deal_rows(self.result)

    def seat_changes(self, after: int | None, language: Language) -> list[str]:
        """The replacements made after deal ``after`` (0: before the first; ``None``: all), shown
        under its row: ``Gus took over from Bea after deal 4`` (docs/rules.md, "Replacements")."""
        return [
            tr("director.replaced_line", language, replacement=r.replacement, player=r.player, after=r.after)
            for r in self.saved.game.replacements
            if after is None or r.after == after
        ]

    def breakdown(self, row: DealRow, language: Language) -> list[str]:
        """Under a row, for each player whose change is more than the deal's score once:
        ``Eve: +233 = +83 deal, +100 game bonus, +50 boxes``."""
        games = len(self.result.columns)
        return [
            tr(
                "scoreboard.parts_line",
                language,
                name=player,
                parts=parts_text(row.parts[seat], language, games=games),
                change=change_text(row.changes[seat]),
            )
            for seat, player in enumerate(self.players)
            if row.itemised(seat)
        ]

    def columns(self) -> list[ColumnRow]:
        """Hollywood's games side by side; empty for a one-game score sheet."""
        if len(self.result.columns) < 2:
            return []
        return [
            ColumnRow(i + 1, tuple(c.totals[p] for p in self.players), c.finished, c.winner)
            for i, c in enumerate(self.result.columns)
        ]

    def bonuses(self) -> list[tuple[str, str, int]]:
        """The final bonuses itemised: (player, bonus name, points)."""
        return [
            (player, name, points)
            for player in self.players
            for name, points in sorted(self.result.bonuses.get(player, {}).items())
        ]

    def chart(self) -> dict[str, list[int]]:
        """Each player's running total after every deal, starting at the starting points (0)."""
        series = {p: [self.result.start.get(p, 0)] for p in self.players}
        for record in self.result.deals:
            for player in self.players:
                series[player].append(record.running[player])
        return series

    def chart_points(self, language: Language) -> dict[str, list[ChartPoint]]:
        """The line chart: each player's running total after every deal, starting at the
        starting points (0 without a handicap).

        Where final bonuses land the line steps up at the same deal, from the total after
        the deal's own score to the total with the bonuses (a ``bonus`` point); each point's
        note says what moved it there.
        """
        games = len(self.result.columns)
        series = {p: [ChartPoint(0, self.result.start.get(p, 0), "")] for p in self.players}
        for record in self.result.deals:
            for player in self.players:
                before = series[player][-1].total
                parts = record.parts[player]
                dealt = tuple(part for part in parts if part.kind == "deal")
                bonuses = tuple(part for part in parts if part.kind != "deal")
                steps = [(dealt, False), (bonuses, True)] if bonuses else [(parts, False)]
                for shown, bonus in steps:
                    before += sum(part.total for part in shown)
                    note = tr(
                        "scoreboard.chart_point",
                        language,
                        name=player,
                        number=record.number,
                        parts=parts_text(shown, language, games=games),
                        total=before,
                    )
                    series[player].append(ChartPoint(record.number, before, note, bonus=bonus))
        return series

    def share_text(self, language: Language) -> str:
        """A finished game's result in plain words, for the platform's share sheet."""
        lines = [
            tr(
                "scoreboard.share_totals",
                language,
                variant=render(self.variant, language),
                totals=", ".join(self.total_labels()),
            )
        ]
        if self.winner:
            lines.append(tr("scoreboard.winner", language, name=self.winner))
        return "\n".join(lines)

    # -- following the store ----------------------------------------------------------------

    def subjects(self) -> tuple[str, ...]:
        """What the board shows, as the store's notices name it: the game, and the club night
        it is a table of (the night's own facts change its timer). A notice naming neither
        (only other games) changes nothing here."""
        night = self.night
        return (self.saved.id,) if night is None else (self.saved.id, night.night)

    def reload(self, store: Store) -> None:
        """Read the game again (another phone, or another program, may have changed it)."""
        try:
            fresh = store.game(self.saved.id)
            self._read_leagues(store)
        except ScorerError:
            return  # gone from the store: the board keeps what it showed
        if not same_game(fresh, self.saved):  # nothing new: nothing changes, nothing is redrawn
            self.saved = fresh

    @property
    def status(self) -> str:
        return self.saved.status

    def history(self) -> tuple[dict[int, list[GameEvent]], list[GameEvent]]:
        """Each deal's changes (by its number now), and the game's own (see :mod:`.history_model`)."""
        return deal_histories(self.saved.events, deals=len(self.result.deals))

    # -- corrections -------------------------------------------------------------------------

    def remove(self, store: Store, number: int, *, by: str | None = None, why: str = "") -> None:
        """Remove deal ``number`` (1-based) as this board shows it; everything after it is
        recomputed and Undo puts it back. If another phone changed or removed it meanwhile,
        nothing is removed and :attr:`conflict` shows theirs."""
        index = number - 1
        deals = self.saved.document.get("deals", [])
        if not 0 <= index < len(deals):
            self.error = f"deal {number}: there is no such deal (the game has {len(deals)})"
            return
        deal = dict(deals[index])
        try:
            self.saved = store.remove_deal(
                self.saved.id, index, by=by, why=why.strip() or None, expected=deal
            )
        except ConflictError as exc:
            self.conflict = DealConflict.of(exc, doing="remove", mine=deal)
            self.reload(store)
            return
        except ScorerError as exc:
            self.error = str(exc)
            return
        self.removed = Removed(index, deal)
        self.error = ""
        self.undo_refused = False

    def keep_theirs(self, store: Store) -> None:
        """Leave the deal as the other phone left it."""
        self.conflict = None
        self.reload(store)

    def remove_theirs(self, store: Store, *, by: str | None = None, why: str = "") -> None:
        """Remove the deal as the other phone left it (the removal this phone meant)."""
        conflict = self.conflict
        if conflict is None or conflict.theirs is None:
            self.conflict = None
            return
        self.conflict = None
        self.reload(store)
        self.remove(store, conflict.number, by=by, why=why)

    def undo(self, store: Store, *, by: str | None = None) -> None:
        """Put the removed deal back where it was (one signed event: ``restored``)."""
        if self.removed is None:
            return
        try:
            self.saved = store.put_back_deal(self.saved.id, self.removed.index, self.removed.deal, by=by)
        except ScorerError as exc:
            self.undo_refused = True
            self.error = str(exc)
            return
        self.removed = None
        self.error = ""
        self.undo_refused = False

    # -- the game itself ---------------------------------------------------------------------

    def _act(self, act: Callable[[], StoredGame | None], store: Store) -> bool:
        try:
            saved = act()
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error = ""
        if saved is not None:
            self.saved = saved
        self.reload(store)
        return True

    def abandon(self, store: Store, *, by: str | None = None, why: str = "") -> bool:
        """Give the game up (not in progress, counted nowhere); :meth:`resume` undoes it."""
        game_id = self.saved.id
        return self._act(lambda: store.abandon_game(game_id, by=by, why=why.strip() or None), store)

    def resume(self, store: Store, *, by: str | None = None) -> bool:
        game_id = self.saved.id
        return self._act(lambda: store.resume_game(game_id, by=by), store)

    def delete(self, store: Store, *, by: str | None = None, why: str = "") -> bool:
        """Delete the game (listed nowhere, counted nowhere, kept); :meth:`undelete` undoes it."""
        game_id = self.saved.id
        return self._act(lambda: store.delete_game(game_id, by=by, why=why.strip() or None), store)

    def undelete(self, store: Store, *, by: str | None = None) -> bool:
        game_id = self.saved.id
        return self._act(lambda: store.undelete_game(game_id, by=by), store)

    def move(self, store: Store, league: str, *, by: str | None = None) -> bool:
        """Move the game into ``league`` (its open season): it counts there from now on."""
        game_id = self.saved.id
        return self._act(lambda: store.move_game(game_id, league=league, by=by), store)
