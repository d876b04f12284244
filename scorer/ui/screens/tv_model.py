"""The club night's TV view (``/nights/<id>/tv``): what a wall screen shows, and how it pages.

The figures are the director's screen's (:class:`~scorer.ui.screens.night_model.NightModel`:
the night, its tables' game summaries and its standings, read from the store again at every
change); this module only chooses what a board across the room shows and how much of it fits:

- :func:`board` lays the screen out from its size in logical pixels: the text sizes (about
  34 px on a 1080p screen, never below a phone's 18), the table cards side by side, and how
  many tables and standings lines one page holds;
- :func:`page_at` says which page of tables (or of standings lines) a tick shows: the view
  turns the page every :data:`ROTATE_SECONDS` when they do not all fit.

>>> store = Store.memory()
>>> _ = store.create_league("Club")
>>> night = store.start_night("Club", players=["Anna", "Bea", "Cid", "Dan"], ruleset="gin", seed=1)
>>> tv = TvModel.load(store, night.id)
>>> [(t.table, t.status, [s.name for s in t.seats]) for t in tv.tables()]
[(1, 'playing', ['Anna', 'Dan']), (2, 'playing', ['Bea', 'Cid'])]
>>> b = board(1920, 1080, seats=2, tables=8, lines=4)
>>> b.wide, b.across, b.tables_per_page
(True, 2, 4)
>>> [page_at(tick, 8, b.tables_per_page) for tick in range(3)]
[range(0, 4), range(4, 8), range(0, 4)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from scorer.league.store import Store
from scorer.ruleset_text import variant_title
from scorer.ui.i18n import Language, local_time, tr
from scorer.ui.screens.night_model import NightModel
from scorer.ui.screens.scoreboard_model import clock_text, seconds_between

#: Seconds a page of tables (and of standings) stays on the screen before the next.
ROTATE_SECONDS: Final = 12
#: The screen the sizes are made for: a 1080p wall screen (on an upright screen, the same
#: turned: 1080 x 1920).
FULL_WIDTH: Final = 1920
FULL_HEIGHT: Final = 1080
#: Text sizes on :data:`FULL_WIDTH` x :data:`FULL_HEIGHT`, and the least on a phone.
TEXT_SIZE: Final = 34
TEXT_LEAST: Final = 18
TITLE_SIZE: Final = 52
TITLE_LEAST: Final = 24
TIMER_SIZE: Final = 72
TIMER_LEAST: Final = 30
#: A line's height as a share of its text size (the bundled font's ascent and descent, and air).
LINE: Final = 1.45
#: The least width of a table card on a wide screen (a name and a total at the text size).
CARD_WIDTH: Final = 14  # text sizes
#: The share of a narrow screen's height below the header that the tables may take.
NARROW_TABLES_SHARE: Final = 0.55
#: The share of a wide screen's width the standings take (the tables the rest).
STANDINGS_SHARE: Final = 0.4

TimerState = Literal["none", "running", "up", "over"]


@dataclass(frozen=True, slots=True)
class Board:
    """The TV's layout at one screen size; every length in logical pixels."""

    width: int
    height: int
    wide: bool  # standings beside the tables (else under them)
    timed: bool  # the round has a timer: a line of its own under the round
    byes: bool  # players sit the round out: a line naming them under the round
    text: int  # the body text's size
    title: int
    timer: int
    pad: int  # around the board and between its parts
    line: int  # a line of text (a card's, a standings row)
    across: int  # table cards side by side
    card_height: int
    tables_per_page: int
    lines_per_page: int

    @property
    def header_height(self) -> int:
        """The title, the round, who sits it out, and the timer's line (two on a narrow screen,
        where "time is up" wraps), one under another."""
        timer = round(self.timer * LINE) * (1 if self.wide else 2) if self.timed else 0
        return round(self.title * LINE) + self.line * (2 if self.byes else 1) + timer


def _scaled(size: int, least: int, scale: float) -> int:
    return max(least, round(size * scale))


def board(
    width: float,
    height: float,
    *,
    seats: int,
    tables: int,
    lines: int,
    timed: bool = True,
    byes: bool = False,
) -> Board:
    """The layout of a ``width`` x ``height`` screen for a round whose largest table seats
    ``seats``, with ``tables`` tables and ``lines`` standings lines (``timed``: it has a timer;
    ``byes``: players sit it out).

    The sizes follow the screen (1 on 1920 x 1080, or on 1080 x 1920 upright), never below a
    phone's least; a table card is its number and state, a line per seat, and its deal count.
    On a screen wider than high the standings take :data:`STANDINGS_SHARE` of the width beside
    the tables (a phone on its side too: its height holds too little for both); on an upright
    one (a phone, a wall screen turned) the
    tables take at most :data:`NARROW_TABLES_SHARE` of the height and the standings the rest.
    At least one table and one line always show.

    >>> phone = board(390, 844, seats=3, tables=3, lines=9)
    >>> phone.wide, phone.text, phone.tables_per_page
    (False, 18, 2)
    >>> board(390, 844, seats=3, tables=1, lines=9).lines_per_page > phone.lines_per_page
    True
    """
    w, h = max(int(width), 1), max(int(height), 1)
    wide = w > h
    long, short = (FULL_WIDTH, FULL_HEIGHT) if wide else (FULL_HEIGHT, FULL_WIDTH)
    scale = min(w / long, h / short, 1.0)
    text = _scaled(TEXT_SIZE, TEXT_LEAST, scale)
    title = _scaled(TITLE_SIZE, TITLE_LEAST, scale)
    timer = _scaled(TIMER_SIZE, TIMER_LEAST, scale)
    pad = max(8, round(24 * scale))
    line = round(text * LINE)
    card_height = (max(seats, 1) + 2) * line + pad
    shape = Board(w, h, wide, timed, byes, text, title, timer, pad, line, 1, card_height, 1, 1)
    # Below the header (a gap between each part and the next, and between a part's label and
    # each row of its cards): the tables' label and cards, the standings' label, headline and
    # column heads, then its lines.
    body = h - 2 * pad - shape.header_height - pad
    if wide:
        tables_width = w * (1 - STANDINGS_SHARE) - 3 * pad
        across = max(1, min(3, int((tables_width + pad) // (CARD_WIDTH * text + pad))))
        rows = max(1, int((body - line) // (card_height + pad)))
        standings = body - 3 * line
    else:
        across = 2 if w - 2 * pad >= 2 * CARD_WIDTH * text + pad else 1
        needed = -(-max(tables, 1) // across)
        fit = int((body * NARROW_TABLES_SHARE - line) // (card_height + pad))
        rows = max(1, min(needed, fit))
        standings = body - line - rows * (card_height + pad) - pad - 3 * line
    return Board(
        width=w,
        height=h,
        wide=wide,
        timed=timed,
        byes=byes,
        text=text,
        title=title,
        timer=timer,
        pad=pad,
        line=line,
        across=across,
        card_height=card_height,
        tables_per_page=rows * across,
        lines_per_page=max(1, int(standings // line)),
    )


def pages(count: int, per_page: int) -> list[range]:
    """``count`` items in pages of ``per_page`` (indexes from 0); one empty page for none.

    >>> pages(8, 3)
    [range(0, 3), range(3, 6), range(6, 8)]
    >>> pages(0, 3)
    [range(0, 0)]
    """
    per_page = max(per_page, 1)
    return [range(at, min(at + per_page, count)) for at in range(0, count, per_page)] or [range(0)]


def page_at(tick: int, count: int, per_page: int) -> range:
    """The page of :func:`pages` shown at ``tick`` (the pages shown in turn, the first again
    after the last); a single page at every tick.

    >>> page_at(0, 3, 4), page_at(7, 3, 4)
    (range(0, 3), range(0, 3))
    """
    shown = pages(count, per_page)
    return shown[tick % len(shown)]


def page_label(key: str, shown: range, count: int, language: Language) -> str:
    """A part's label: its name (``tv.tables``) when it all fits, else the items shown and of
    how many (``Tables 1–4 of 8``, ``Table 3 of 3``).

    >>> page_label("tv.tables", range(0, 4), 8, "en"), page_label("tv.tables", range(0, 3), 3, "en")
    ('Tables 1–4 of 8', 'Tables')
    >>> page_label("tv.tables", range(2, 3), 3, "en")
    'Table 3 of 3'
    """
    if len(shown) >= count:
        return tr(key, language)
    if len(shown) == 1:
        return tr(f"{key}_one", language, number=shown.start + 1, count=count)
    return tr(f"{key}_page", language, first=shown.start + 1, last=shown.stop, count=count)


def rotates(count: int, per_page: int) -> bool:
    """Whether the part turns its pages (more than fit on one)."""
    return len(pages(count, per_page)) > 1


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a table, with their total (None before the game's first deal)."""

    name: str
    total: int | None
    leader: bool  # the table's best placed (:attr:`TableCard.leader <NightModel>`)


@dataclass(frozen=True, slots=True)
class TvTable:
    """A table of the round being played as the TV shows it."""

    table: int
    status: str  # playing, finished, abandoned, deleted
    seats: tuple[Seat, ...]
    deals: int
    called: bool = False  # the table called the director and waits for the answer
    unconfirmed: int = 0  # deals waiting for a confirmation at the table
    disputed: int = 0


class TvModel(NightModel):
    """A night as the wall screen shows it: the director's screen's reads, nothing written."""

    #: The tables of the round being played whose call to the director waits for its answer.
    calling: frozenset[int] = frozenset()

    def reload(self) -> None:
        super().reload()
        calls = self.store.calls(self.night.league_id, self.night.id)
        last = self.last.number
        calling = frozenset(c.table for c in calls if c.open and c.round == last)
        if calling != self.calling:
            self.calling = calling

    @classmethod
    def load(cls, store: Store, key: str) -> TvModel:
        model = cls(store=store, night=store.find_night(key))
        model.reload()
        return model

    def tables(self) -> list[TvTable]:
        """The round's tables: each seat's total from its game's summary, the leader marked."""
        shown = []
        for card in self.current():
            # who holds each seat now, with the seat's total (a replacement takes the seat on)
            seats = tuple(
                Seat(name=name, total=total, leader=name == card.leader)
                for name, total in zip(card.holders, card.totals, strict=True)
            )
            if card.status in ("abandoned", "deleted"):
                status = card.status
            else:
                status = "finished" if card.finished else "playing"
            called = card.table in self.calling
            shown.append(
                TvTable(
                    card.table,
                    status,
                    seats,
                    card.deals,
                    called=called,
                    unconfirmed=card.unconfirmed,
                    disputed=card.disputed,
                )
            )
        return shown

    def seats(self) -> int:
        """The most players at one table of the round (a card's height)."""
        return max((len(t.players) for t in self.last.tables), default=1)

    def byes_text(self, language: Language) -> str:
        """Who sits the round out (``Sitting out: Eve``), as the director's screen says it; "" for none."""
        byes = self.last.byes
        return tr("night.byes", language, players=", ".join(byes)) if byes else ""

    def title(self, league: str, language: Language) -> str:
        """``Friday club · Club night``."""
        return f"{league} · {tr('night.title', language)}"

    def round_text(self, language: Language) -> str:
        """``Round 2 of 4: Rommi`` (``Round 2: Rommi`` open-ended), and when it started."""
        night, last = self.night, self.last
        key = "night.round" if night.planned is None else "night.round_of"
        heading = tr(
            key,
            language,
            number=last.number,
            planned=night.planned,
            variant=variant_title(last.ruleset, language),
        )
        return f"{heading} · {tr('night.started', language, date=local_time(night.created, language))}"

    def timer_state(self, now: str) -> TimerState:
        """The round's timer at ``now``: none, running, up (a table still plays) or over (every
        table of the round has ended)."""
        deadline = self.last.deadline
        if self.last.timer is None or deadline is None:
            return "none"
        if not self.unfinished():
            return "over"
        return "running" if seconds_between(now, deadline) > 0 else "up"

    def timer_big(self, language: Language, now: str) -> str:
        """The timer as the board shows it: ``Time left 12:34``, then that time is up and the
        deal being played at each table is its last (the director's screen's words, short
        enough for one line across the room); once every table has ended, that the round is over."""
        state, deadline = self.timer_state(now), self.last.deadline
        if state == "running" and deadline is not None:
            return tr("tv.time_left", language, left=clock_text(seconds_between(now, deadline)))
        if state == "up":
            return tr("tv.time_up", language)
        if state == "over":
            return tr("tv.round_over", language, number=self.last.number)
        return ""

    def headline(self, language: Language) -> str:
        """Who leads the night (``Leading the night: Anna``), its winner once it is over; "" before
        a table has finished."""
        first = next((line for line in self.lines if line.games), None)
        if first is None:
            return ""
        return tr("night.winner" if first.winner else "night.leading", language, name=first.name)
