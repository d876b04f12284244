"""The club night screens' state: starting a night, and a night as it is played.

Everything comes from the league store: the seating and the games from
:meth:`Store.start_night <scorer.league.store.Store.start_night>` and
:meth:`~scorer.league.store.Store.next_round`, each table's deal count and leader from its
game's cached summary, the standings from :meth:`~scorer.league.store.Store.night_standings`.
This module only chooses what to show and keeps what the director typed. The variant and its
house rules are chosen as on New game (:class:`~scorer.ui.screens.new_game_model.NewGameModel`).

>>> store = Store.memory()
>>> _ = store.create_league("Club")
>>> start = NightStartModel.load(store, "Club")
>>> [start.add_name(name) for name in ["Anna", "Bea", "Cid", "Dan"]]
[True, True, True, True]
>>> start.game.set_rule("target", "30")
>>> night_id = start.start()
>>> night = NightModel.load(store, night_id)
>>> [(card.table, sorted(card.players), card.deals, card.finished) for card in night.current()]
[(1, ['Anna', 'Bea', 'Cid', 'Dan'], 0, False)]
>>> night.waiting()
'round 1 is not over: these tables are still playing: 1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeAlias

import flet as ft

from scorer.errors import ScorerError
from scorer.league.errors import LookAlikeError
from scorer.league.night import (
    DEFAULT_POINTS,
    Night,
    NightOverError,
    NightRound,
    NightTable,
    RoundUnfinishedError,
    parse_bye_points,
    parse_minutes,
    parse_points,
    parse_rounds,
    start_text,
)
from scorer.league.records import GameInfo
from scorer.league.store import Store
from scorer.league.tiebreaks import CRITERIA, DEFAULT_ORDER
from scorer.messages import Message
from scorer.names import clean_name, name_key
from scorer.seating import EXACT_PLAYERS, METHODS, Method, table_sizes
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.new_game_model import NewGameModel
from scorer.ui.screens.scoreboard_model import clock_text, seconds_between

#: The placement points a new night starts with, as the field shows them.
DEFAULT_POINTS_TEXT: Final = ",".join(str(p) for p in DEFAULT_POINTS)


def _method(text: str) -> Method | None:
    return next((m for m in METHODS if m == text), None)


def fixed_seats(fixed: dict[str, int]) -> dict[str, int]:
    """The fixed seats the store is asked for: only those given a table (0 is none)."""
    return {name: table for name, table in fixed.items() if table > 0}


def timer_field(text: str) -> int | None:
    """The timer field's minutes: empty is no timer, else :func:`parse_minutes`'s (1 to 600,
    or the store's error naming what was typed).

    >>> timer_field(""), timer_field(" 30 ")
    (None, 30)
    """
    return parse_minutes(text) if text.strip() else None


def rounds_field(text: str) -> int | None:
    """The round count field: empty is open-ended, else :func:`parse_rounds`'s.

    >>> rounds_field(""), rounds_field("3")
    (None, 3)
    """
    return parse_rounds(text) if text.strip() else None


def timer_text(round_: NightRound, language: Language, now: str, *, playing: bool) -> str:
    """The round's timer as the director's screen shows it at ``now``: ``Timer: 30 min ·
    time left 12:34``, then that time is up while a table still plays (``playing``); only
    the minutes once every table has ended; empty for a round without a timer."""
    if round_.timer is None or round_.deadline is None:
        return ""
    minutes = tr("night.timer_minutes", language, minutes=round_.timer)
    if not playing:
        return minutes
    left = seconds_between(now, round_.deadline)
    if left > 0:
        return f"{minutes} · {tr('night.time_left', language, left=clock_text(left))}"
    return f"{minutes} · {tr('night.time_up', language)}"


def evenness_text(round_: NightRound, language: Language) -> str:
    """How good the round's seating is, as its seating reported it: for ``balanced`` the
    spread of table strengths and the best possible (or a bound none beats), for ``swiss``
    the opponents met again; empty for a round that reported nothing."""
    even = round_.evenness
    if round_.method == "balanced" and even is not None:
        spread = f"{even.spread:.1f}"
        if even.best is not None:
            return tr("night.spread_best", language, spread=spread, best=f"{even.best:.1f}")
        return tr("night.spread_bound", language, spread=spread, bound=f"{even.bound:.1f}")
    if round_.method == "swiss" and round_.repeats is not None:
        if round_.repeats == 0:
            return tr("night.no_repeats", language)
        exact = sum(len(t.players) for t in round_.tables) <= EXACT_PLAYERS
        key = "night.repeats_unavoidable" if exact else "night.repeats_fewest"
        return tr(key, language, count=round_.repeats)
    return ""


def toggled(known: list[str], present: list[str], name: str) -> list[str]:
    """Who is present once ``name`` (one of ``known``) is checked in, or out again."""
    if name in present:
        return [p for p in present if p != name]
    return [*present, name] if name in known else present


def checked_in(known: list[str], present: list[str], name: str) -> tuple[list[str], list[str]]:
    """The names known and present once a typed ``name`` is checked in: a name already known
    (whatever its case or spacing) is that player, never a second one.

    >>> checked_in(["Anna"], [], " anna ")
    (['Anna'], ['Anna'])
    >>> checked_in(["Anna"], ["Anna"], "Bea")
    (['Anna', 'Bea'], ['Anna', 'Bea'])
    """
    typed = name.strip()
    if not typed:
        return known, present
    same = next((k for k in known if name_key(k) == name_key(typed)), None)
    if same is None:
        known, same = [*known, typed], typed
    return known, present if same in present else [*present, same]


#: One check-in or check-out as :attr:`Roster.checks` keeps it.
Check: TypeAlias = tuple[str, bool, list[str], list[str], dict[str, int]]


class Roster:
    """Who plays (the names known, those checked in) and how they are seated: a night's start
    and each next round (an early leaver checked out, a late arrival typed in)."""

    known: list[str]
    present: list[str]
    method: Method
    error: str
    name_error: str  # the name typed last, refused by the name rule
    #: Each check-in or check-out, last last: ``(name, checked in, known before, present
    #: before, fixed seats before)``, for :meth:`undo`.
    checks: list[Check]

    def toggle(self, name: str) -> None:
        """Check a player in, or out again."""
        if name in self.known:
            self._remember(name)
        self.present = toggled(self.known, self.present, name)
        self.error = ""

    def _remember(self, name: str) -> None:
        check = (name, name not in self.present, list(self.known), list(self.present), self._seats())
        self.checks = [*self.checks, check]

    def _seats(self) -> dict[str, int]:
        """The fixed seats a check may take with it (none here; a night's start has some)."""
        return {}

    def _seat(self, seats: dict[str, int]) -> None:
        """Put back the fixed seats :meth:`_seats` gave (see :meth:`undo`)."""

    @property
    def last_check(self) -> tuple[str, bool] | None:
        """The check :meth:`undo` would take back: the name, and whether it was a check-in."""
        return (self.checks[-1][0], self.checks[-1][1]) if self.checks else None

    def undo(self) -> None:
        """Take back the last check-in or check-out (a name typed in goes from the list again,
        a fixed seat a check-out took comes back)."""
        if not self.checks:
            return
        *self.checks, (_, _, known, present, seats) = self.checks
        self.known, self.present = known, present
        self._seat(seats)
        self.error = ""

    def add_name(self, name: str) -> bool:
        """A name typed in: checked in (a new player once seated), or refused at once with the
        name rule's message in :attr:`name_error` (:func:`scorer.names.clean_name`, the
        store's). A name already listed is checked in, not added twice. True: checked in."""
        if not name.strip():
            return False
        try:
            clean_name(name, what="player")
        except ScorerError as exc:
            self.name_error = str(exc)
            return False
        known, present = checked_in(self.known, self.present, name)
        if present != self.present:
            self._remember(name.strip())
        self.known, self.present = known, present
        self.error = self.name_error = ""
        return True

    def choose_method(self, text: str) -> None:
        method = _method(text)
        if method is not None:
            self.method = method


@dataclass(eq=False)
class NightStartModel(Roster, ft.Observable):
    """What the director chose for a new night: who is here, the variant, the seating."""

    store: Store
    league_id: str
    league_name: str
    game: NewGameModel = field(default_factory=NewGameModel)  # the variant and its house rules
    known: list[str] = field(default_factory=list)  # the league's players and names added here
    present: list[str] = field(default_factory=list)  # checked in, in the order checked
    checks: list[Check] = field(default_factory=list)  # the check-ins, for undo
    method: Method = "random"
    fixed: dict[str, int] = field(default_factory=dict)  # name -> table (1-based)
    points: str = DEFAULT_POINTS_TEXT
    rounds: str = ""  # the rounds planned; empty: open-ended
    timer: str = ""  # minutes per round; empty: no timer
    handicap: bool = False
    late_byes: bool = False  # a late arrival gets a bye for each round missed
    tiebreaks: list[str] = field(default_factory=lambda: list(DEFAULT_ORDER))  # the standings' order
    bye_points: str = "0"  # night points for a round sat out
    error: str = ""
    name_error: str = ""
    rounds_error: str = ""
    timer_error: str = ""
    bye_points_error: str = ""
    look_alike: tuple[str, str] | None = None
    new_players: tuple[str, ...] = ()

    @classmethod
    def load(cls, store: Store, league: str) -> NightStartModel:
        found = store.league(league)
        names = sorted((p.name for p in store.players(league=found.id)), key=str.casefold)
        return cls(store=store, league_id=found.id, league_name=found.name, known=names)

    def toggle(self, name: str) -> None:
        """Check a player in, or out again (a fixed seat goes with them)."""
        super().toggle(name)
        if name not in self.present:
            self.fixed = {k: v for k, v in self.fixed.items() if k != name}

    def _seats(self) -> dict[str, int]:
        return dict(self.fixed)

    def _seat(self, seats: dict[str, int]) -> None:
        self.fixed = seats

    def fix(self, name: str, table: int) -> None:
        """Fix a player present to a table (1-based; 0 frees them)."""
        if name in self.present and table >= 0:
            self.fixed = {**self.fixed, name: table}
            self.error = ""

    def table_count(self) -> int:
        """How many tables the players present make (at least one, for fixing seats)."""
        ruleset = self.game.base
        try:
            sizes = table_sizes(len(self.present), low=ruleset.players_min, high=ruleset.players_max)
        except ScorerError:  # too few for a table: the store says so at the start
            return 1
        return max(1, len(sizes.sizes))

    def set_points(self, text: str) -> None:
        self.points = text
        self.error = ""

    def set_rounds(self, text: str) -> None:
        self.rounds, self.rounds_error = text, ""

    def set_timer(self, text: str) -> None:
        self.timer, self.timer_error = text, ""

    def set_handicap(self, on: bool) -> None:
        self.handicap = on

    def set_late_byes(self, on: bool) -> None:
        self.late_byes = on

    def set_bye_points(self, text: str) -> None:
        self.bye_points, self.bye_points_error = text, ""

    # -- the tie-break order: night points first, then the director's choice, in order ---------

    def unused_tiebreaks(self) -> list[str]:
        """The tie-breaks not in the order yet, as the "Add a tie-break" list offers them."""
        return [c for c in CRITERIA if c not in self.tiebreaks]

    def add_tiebreak(self, criterion: str) -> None:
        """Put a tie-break at the end of the order (one it has, or not one, changes nothing)."""
        if criterion in self.unused_tiebreaks():
            self.tiebreaks = [*self.tiebreaks, criterion]

    def remove_tiebreak(self, criterion: str) -> None:
        """Take a tie-break out of the order; the night points stay first."""
        if criterion != "points":
            self.tiebreaks = [c for c in self.tiebreaks if c != criterion]

    def raise_tiebreak(self, criterion: str) -> None:
        """Move a tie-break one place up, never above the night points."""
        order = list(self.tiebreaks)
        if criterion in order and order.index(criterion) > 1:
            at = order.index(criterion)
            order[at - 1], order[at] = order[at], order[at - 1]
            self.tiebreaks = order

    def handicap_help(self, language: Language) -> str:
        """What handicap does in the variant chosen, in its direction (docs/rules.md)."""
        lowest = self.game.base.winner == "lowest"
        return tr("night.handicap_lowest" if lowest else "night.handicap_highest", language)

    def _fields(self) -> tuple[int | None, int | None, int] | None:
        """The round count, timer and bye points typed, or None with each refused one's error
        set (the bye points against the placement points typed, when those read)."""
        rounds = timer = None
        bye_points = 0
        try:
            rounds = rounds_field(self.rounds)
        except ScorerError as exc:
            self.rounds_error = str(exc)
        try:
            timer = timer_field(self.timer)
        except ScorerError as exc:
            self.timer_error = str(exc)
        try:
            placement = parse_points(self.points)
        except ScorerError:
            placement = None  # the start says so, under the form
        if placement is not None:
            try:
                bye_points = parse_bye_points(self.bye_points or "0", placement)
            except ScorerError as exc:
                self.bye_points_error = str(exc)
        if self.rounds_error or self.timer_error or self.bye_points_error:
            return None
        return rounds, timer, bye_points

    def same_person(self) -> None:
        """The answer to :attr:`look_alike`: that player; the name checked in becomes theirs."""
        if self.look_alike is not None:
            name, existing = self.look_alike
            self.present = list(dict.fromkeys(existing if p == name else p for p in self.present))
            self.known = list(dict.fromkeys(existing if k == name else k for k in self.known))
            self.fixed = {existing if k == name else k: table for k, table in self.fixed.items()}
            self.look_alike = None
            self.checks = []  # the name it was is gone: nothing before it to take back

    def different_person(self) -> None:
        if self.look_alike is not None:
            self.new_players = (*self.new_players, self.look_alike[0])
            self.look_alike = None

    def start(self, *, by: str | None = None) -> str | None:
        """Start the night (round 1 seated, every table's game started): its id, or ``None``
        with :attr:`error` holding the store's message; a refused night writes nothing."""
        broken = [rule for rule in self.game.house_rules() if rule.error]
        fields = self._fields()
        if fields is None:
            return None
        rounds, timer, bye_points = fields
        try:
            if broken:
                self.error = broken[0].error
                return None
            night = self.store.start_night(
                self.league_id,
                players=list(self.present),
                ruleset=self.game.ruleset_id,
                method=self.method,
                fixed=fixed_seats(self.fixed),
                options=self.game.options,
                points=parse_points(self.points),
                by=by,
                new_players=self.new_players,
                rounds=rounds,
                timer=timer,
                handicap=self.handicap,
                tiebreaks=list(self.tiebreaks),
                bye_points=bye_points,
                late_byes=self.late_byes,
            )
        except LookAlikeError as exc:
            self.look_alike, self.error = (exc.name, exc.existing), ""
            return None
        except ScorerError as exc:
            self.error = str(exc)
            return None
        self.error = ""
        return night.id


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table of a round as the director sees it."""

    table: int
    game: str
    players: tuple[str, ...]  # by seat
    deals: int
    leader: str | None  # the best placed (first by seat where tied); None before a deal
    leader_total: int | None
    finished: bool
    status: str  # the game's: active, abandoned, deleted
    start: str = ""  # handicap: the starting points by seat ("Anna +12, Ben 0"); "" for none
    called: int | None = None  # the game ended on time after this deal (a timed round)
    unconfirmed: int = 0  # deals waiting for a confirmation at the table (scorer/league/confirm.py)
    disputed: int = 0  # of them, disputed: the director keeps one version
    #: Who holds each seat now (docs/rules.md, "Replacements"; :attr:`players` if nobody was
    #: replaced), and each seat's total, its holders' together (None before a deal).
    holders: tuple[str, ...] = ()
    totals: tuple[int | None, ...] = ()

    @property
    def route(self) -> str:
        """The app's route of the table's game: its Scoreboard."""
        return f"/game/{self.game}"


@dataclass(frozen=True, slots=True)
class NightLine:
    """A player's line in the night's standings."""

    place: int
    player_id: str
    name: str
    points: str  # "2.5", "3"
    games: int
    wins: int
    placements: str  # "1, 2"
    winner: bool
    #: The tie-break that put the line above the next (``"tied"``: none did); ``None`` where
    #: the night points did, and on the last line (scorer/league/tiebreaks.py).
    tiebreak: str | None = None
    #: Deals of the player's tables waiting for a confirmation, and of them disputed.
    unconfirmed: int = 0
    disputed: int = 0
    #: The deals after which the player left a game tonight, and took over a seat
    #: (docs/rules.md, "Replacements").
    left_after: tuple[int, ...] = ()
    joined_after: tuple[int, ...] = ()

    def seat_note(self, language: Language) -> str:
        """``left after deal 4``, ``took over after deal 2`` ("" when neither).

        >>> NightLine(1, "p", "Bea", "0", 0, 0, "", False, left_after=(4,)).seat_note("en")
        'left after deal 4'
        """
        notes = [tr("night.left_after", language, after=n) for n in self.left_after]
        notes += [tr("night.joined_after", language, after=n) for n in self.joined_after]
        return "; ".join(notes)


def tiebreak_text(criterion: str | None, language: Language) -> str:
    """A tie-break's name as the screen shows it ("" for none).

    >>> tiebreak_text("head-to-head", "en"), tiebreak_text(None, "en")
    ('head-to-head', '')
    """
    return tr(f"night.tiebreak_{criterion.replace('-', '_')}", language) if criterion else ""


def points_text(value: float) -> str:
    """Night points as shown: whole when whole, else one decimal.

    >>> points_text(3.0), points_text(2.5)
    ('3', '2.5')
    """
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


@dataclass(eq=False)
class NightModel(Roster, ft.Observable):
    """A night: its rounds' tables, live; its standings; seating the next round."""

    store: Store
    night: Night
    infos: dict[str, GameInfo] = field(default_factory=dict)
    lines: list[NightLine] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # names that may be checked in
    present: list[str] = field(default_factory=list)  # who plays the next round
    checks: list[Check] = field(default_factory=list)  # the check-ins, for undo
    method: Method = "random"
    error: str = ""
    name_error: str = ""
    editing: bool = False  # the next round's players and method are shown for change
    ending: bool = False  # the director is asked whether to end the night
    next_timer: str = ""  # the next round's minutes; empty: no timer
    timer_error: str = ""
    called: dict[tuple[str, str], int | None] = field(default_factory=dict)  # (game, changed)
    level: list[tuple[str, ...]] = field(default_factory=list)  # who a coin flip would order now
    flipped: list[tuple[str, ...]] = field(default_factory=list)  # the flips made on this screen

    @classmethod
    def load(cls, store: Store, key: str) -> NightModel:
        """The night by id (or an unambiguous start of it); the store's error if there is none."""
        model = cls(store=store, night=store.find_night(key))
        model.reload()
        model.reset_next()
        return model

    def reload(self) -> None:
        """Read the night, its games and standings again (a phone may have saved a deal, another
        director's screen seated the next round: its choices then start from that round)."""
        seated = len(self.night.rounds)
        self.night = self.store.find_night(self.night.id)
        if len(self.night.rounds) != seated:
            self.reset_next()
            self.editing = False
        games = self.store.games(league=self.night.league_id, deleted=True)
        mine = {t.game for r in self.night.rounds for t in r.tables}
        self.infos = {info.id: info for info in games if info.id in mine}
        _, rows = self.store.night_standings(self.night.league_id, self.night.id)
        names = {p.id: p.name for p in self.store.players()}
        first = next((r for r in rows if r.games), None)
        self.lines = [
            NightLine(
                place=place,
                player_id=row.player,
                name=names.get(row.player, row.player),
                points=points_text(row.night_points),
                games=row.games,
                wins=row.wins,
                placements=", ".join(str(p) for p in row.placements),
                winner=row is first and self.over(),
                tiebreak=row.tiebreak,
                unconfirmed=row.unconfirmed,
                disputed=row.disputed,
                left_after=row.left_after,
                joined_after=row.joined_after,
            )
            for place, row in enumerate(rows, start=1)
        ]
        self.level = self.store.coin_groups(self.night.league_id, night=self.night.id)

    def can_flip(self) -> bool:
        """Whether the screen offers "Flip a coin": the night's order has the coin and some
        players are level there that no flip has ordered."""
        return bool(self.level)

    def flip_coin(self, *, by: str | None = None) -> bool:
        """Flip a coin for the players level where the order reaches it (the store records
        each flip); False with :attr:`error` holding the store's message, nothing saved."""
        try:
            self.flipped = self.store.flip_coin(self.night.league_id, night=self.night.id, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error = ""
        self.reload()
        return True

    def reset_next(self) -> None:
        """The next round's choices start as the last round's players and method."""
        last = self.last
        everyone = sorted(
            {p for r in self.night.rounds for t in r.tables for p in t.players}, key=str.casefold
        )
        byes = list(last.byes)
        self.present = [p for t in last.tables for p in t.players] + byes
        self.known = sorted({*everyone, *byes}, key=str.casefold)
        self.checks = []  # nothing of another round to take back
        self.method = _method(last.method) or "random"
        self.next_timer = str(last.timer) if last.timer is not None else ""
        self.timer_error = ""

    @property
    def last(self) -> NightRound:
        return self.night.rounds[-1]

    # -- what is shown ---------------------------------------------------------------------

    def cards(self, round_: NightRound) -> list[TableCard]:
        return [self._card(t) for t in round_.tables]

    def current(self) -> list[TableCard]:
        """The tables of the round being played (the last one seated)."""
        return self.cards(self.last)

    def earlier(self) -> list[tuple[int, list[TableCard]]]:
        """Each earlier round (newest first) with its tables."""
        return [(r.number, self.cards(r)) for r in reversed(self.night.rounds[:-1])]

    def _card(self, table: NightTable) -> TableCard:
        game, players, ids = table.game, table.players, table.ids
        start = start_text(players, table.start) if any(table.start.values()) else ""
        info = self.infos.get(game)
        if info is None:  # a game the store no longer lists: nothing to show but its seats
            return TableCard(
                table.table,
                game,
                players,
                0,
                None,
                None,
                False,
                "deleted",
                start,
                holders=players,
                totals=(None,) * len(players),
            )
        waiting = {"unconfirmed": table.unconfirmed, "disputed": table.disputed}
        summary = info.summary
        # who holds each seat now (the name seated, unless someone took the seat over) and the
        # seat's total (a replacement's goes on from the seat's)
        seats = info.seats()
        holders = tuple(
            seated if holder == first else name
            for (holder, name, _), first, seated in zip(seats, ids, players, strict=True)
        )
        totals = tuple(total if summary.deals else None for _, _, total in seats)
        leader: str | None = None
        total: int | None = None
        if summary.deals:
            best = min(range(len(ids)), key=lambda i: (summary.ranking.get(ids[i], len(ids) + 1), i))
            leader, total = holders[best], totals[best]
        return TableCard(
            table=table.table,
            game=game,
            players=players,
            deals=summary.deals,
            leader=leader,
            leader_total=total,
            finished=info.finished,
            status=info.status,
            start=start,
            called=self._called(info) if table.deadline is not None else None,
            holders=holders,
            totals=totals,
            **waiting,
        )

    def _called(self, info: GameInfo) -> int | None:
        """The deal after which a timed table's game was called (None: not called), read from
        the stored game once per change of it."""
        if not info.finished or info.status != "active":
            return None
        key = (info.id, info.changed)
        if key not in self.called:
            game = self.store.game(info.id).game
            self.called[key] = game.ends_after if game.result.called else None
        return self.called[key]

    def timer_text(self, language: Language, now: str) -> str:
        """The round being played's timer at ``now`` (:func:`timer_text`)."""
        return timer_text(self.last, language, now, playing=bool(self.unfinished()))

    def ticking(self, now: str) -> bool:
        """Whether the round's clock still runs: time left and a table still playing."""
        deadline = self.last.deadline
        return deadline is not None and seconds_between(now, deadline) > 0 and bool(self.unfinished())

    def set_next_timer(self, text: str) -> None:
        self.next_timer, self.timer_error = text, ""

    def unfinished(self) -> list[int]:
        """The tables of the last round still playing (an abandoned or deleted game has ended)."""
        return [c.table for c in self.current() if c.status == "active" and not c.finished]

    def all_seated(self) -> int | None:
        """The rounds the night planned, once it has seated them all; else None."""
        planned = self.night.planned
        return planned if planned is not None and len(self.night.rounds) >= planned else None

    def over(self) -> bool:
        """The night has a winner: the store's :attr:`Night.over` (every round it plans seated,
        an open-ended night's once the director ended it, and every table ended)."""
        return self.night.over

    def can_end(self) -> bool:
        """Whether the director may end the night: it would seat another round otherwise."""
        return self.all_seated() is None

    def toggle_ending(self) -> None:
        """Ask (or stop asking) whether to end the night."""
        self.ending = not self.ending

    def end_night(self) -> bool:
        """End the night: no round after the last seated (the store's ``end_night``); False
        with :attr:`error` holding the store's message, and nothing saved."""
        try:
            self.night = self.store.end_night(self.night.league_id, night=self.night.id)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error = ""
        self.ending = self.editing = False
        self.reload()
        return True

    def waiting(self) -> str:
        """Why the next round cannot be seated, as the store says it; "" when it can."""
        planned = self.all_seated()
        if planned is not None:
            return str(NightOverError(Message("night.all_rounds", rounds=planned)))
        if not self.unfinished():
            return ""
        tables = ", ".join(str(t) for t in self.unfinished())
        return str(RoundUnfinishedError(Message("night.unfinished", round=self.last.number, tables=tables)))

    # -- the next round --------------------------------------------------------------------

    def toggle_editing(self) -> None:
        """Show (or hide) the next round's players and method for change."""
        self.editing = not self.editing

    def next_round(self, *, by: str | None = None) -> bool:
        """Seat the next round with the players and method chosen; False with :attr:`error`
        holding the store's message (a table still playing, too few players), or
        :attr:`timer_error` the timer's, and nothing saved."""
        try:
            timer = timer_field(self.next_timer)
        except ScorerError as exc:
            self.timer_error = str(exc)
            return False
        try:
            self.night = self.store.next_round(
                self.night.league_id,
                night=self.night.id,
                players=list(self.present),
                method=self.method,
                by=by,
                timer=timer,
            )
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.error = ""
        self.editing = False
        self.reload()
        self.reset_next()
        return True
