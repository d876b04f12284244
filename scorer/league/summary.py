"""What standings need from one game, computed once from its result.

A :class:`GameSummary` is small, JSON-friendly and keyed by player, so a store can cache
it beside the game and the standings never replay deals. Events are counted from the
deal scores' stable marks (:data:`scorer.scoring.EVENT_KEYS`) and from the final bonuses
of each game column: ``box`` (one per hand won, when the ruleset pays boxes), ``shutout``
and ``game`` (one per column that earned it).

>>> from scorer.ruleset import load_ruleset
>>> from scorer.deal import Deal
>>> from scorer.game import Game, penalty_effect
>>> game = Game(ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
>>> summary = summarize(game.add(Deal.build(hands={"Anna": "", "Bea": "KS AH *"}, out="Anna")))
>>> summary.deals, summary.deals_won, summary.ranking
(1, {'Anna': 1, 'Bea': 0}, {'Anna': 1, 'Bea': 2})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from scorer.errors import ScorerError
from scorer.game import Game, penalty_effect
from scorer.messages import Message
from scorer.replacement import Holder, holder_when, holders
from scorer.ruleset import Ruleset
from scorer.scoring import EVENT_KEYS

BONUS_EVENTS: dict[str, str] = {"boxes": "box", "shutout": "shutout", "game": "game"}
"""Final bonus name -> event key: a column's bonus counts once (boxes: once per box)."""

EVENTS: dict[str, str] = {
    **EVENT_KEYS,
    "box": "won a hand, paid as a box at the end of the game (gin rummy, Carousel)",
    "shutout": "won a game in which the others won no hand (gin rummy)",
    "game": "reached the target and earned the game bonus",
}
"""Every event key a summary counts, with what it counts (for tables and legends)."""


class InvalidSummaryError(ScorerError, ValueError):
    """A stored summary that does not have the shape of one (a damaged cache entry)."""


def rank(totals: Mapping[str, int], *, lowest_wins: bool) -> dict[str, int]:
    """Competition ranking: 1 is best, tied players share a rank and the next rank is skipped.

    >>> rank({"Anna": 10, "Bea": 30, "Cid": 30}, lowest_wins=False)
    {'Anna': 3, 'Bea': 1, 'Cid': 1}
    """
    sign = 1 if lowest_wins else -1
    return {p: 1 + sum(1 for v in totals.values() if sign * v < sign * total) for p, total in totals.items()}


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What standings need from one game, computed once from its GameResult and cached by the store."""

    ruleset: str
    players: tuple[str, ...]
    finished: bool
    winner: str | None
    totals: dict[str, int]
    ranking: dict[str, int]
    deals: int
    deals_won: dict[str, int]
    best_deal: dict[str, int]
    events: dict[str, dict[str, int]]
    lowest_wins: bool = False  # the ruleset's winner rule: the direction of "better" points
    #: The players of a seat someone took over mid-game (docs/rules.md, "Replacements"): the
    #: deals each held it for, ``[first, last]`` (1-based; none for a seat never replaced).
    seated: dict[str, list[int]] = field(default_factory=dict)
    #: The players who left their seat: their deals count, the seat's result is the holder's.
    left: tuple[str, ...] = ()

    def played(self, player: str) -> int:
        """The deals of the game that were the player's."""
        span = self.seated.get(player)
        return self.deals if span is None else max(0, span[1] - span[0] + 1)

    def seat_holders(self, seats: int) -> list[tuple[str, ...]]:
        """Each of the game's first ``seats`` players' seat: its holders in order, who sat
        there first first (docs/rules.md, "Replacements"). The holders' totals add up to the
        seat's (:meth:`seat_total`). The later holders are the players :func:`_split_seats`
        adds after the seats' own, seat by seat, each seat's up to its holder now, the one
        who did not leave.

        >>> s = GameSummary("gin", ("a", "b", "x", "y"), False, None, {}, {}, 3, {}, {}, {}, left=("b", "x"))
        >>> s.seat_holders(2)
        [('a',), ('b', 'x', 'y')]
        """
        later = iter(self.players[seats:])
        held = []
        for player in self.players[:seats]:
            chain = [player]
            while chain[-1] in self.left and (holder := next(later, None)) is not None:
                chain.append(holder)
            held.append(tuple(chain))
        return held

    def seat_total(self, holders: Sequence[str]) -> int:
        """A seat's total: its holders' points (:meth:`seat_holders`)."""
        return sum(self.totals.get(p, 0) for p in holders)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        return {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "finished": self.finished,
            "winner": self.winner,
            "totals": dict(self.totals),
            "ranking": dict(self.ranking),
            "deals": self.deals,
            "deals_won": dict(self.deals_won),
            "best_deal": dict(self.best_deal),
            "events": {p: dict(e) for p, e in self.events.items()},
            "lowest_wins": self.lowest_wins,
        } | (
            {"seated": {p: list(v) for p, v in self.seated.items()}, "left": list(self.left)}
            if self.seated
            else {}
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSummary:
        """Read a dict written by :meth:`to_dict`; raises :class:`InvalidSummaryError` if it is damaged.

        The checks (names are text, counts are whole numbers, the same players everywhere) are
        made first on the whole dicts at once (:func:`_whole`: at thousands of games a fraction
        of the standings' time); only a dict that fails them is read field by field, which
        names what is wrong."""
        if "seated" in data:  # a replaced seat's (rare): read field by field
            return _with_seats(
                cls.from_dict({k: v for k, v in data.items() if k not in ("seated", "left")}), data
            )
        if _whole(data):
            return cls(
                ruleset=data["ruleset"],
                players=tuple(data["players"]),
                finished=data["finished"],
                winner=data["winner"],
                totals=dict(data["totals"]),
                ranking=dict(data["ranking"]),
                deals=data["deals"],
                deals_won=dict(data["deals_won"]),
                best_deal=dict(data["best_deal"]),
                events={k: dict(e) for k, e in data["events"].items()},
                lowest_wins=data["lowest_wins"],
            )
        try:
            players = tuple(_text(p, "players") for p in data["players"])
            winner = data["winner"]
            summary = cls(
                ruleset=_text(data["ruleset"], "ruleset"),
                players=players,
                finished=_flag(data["finished"], "finished"),
                winner=None if winner is None else _text(winner, "winner"),
                totals=_counts(data["totals"], "totals"),
                ranking=_counts(data["ranking"], "ranking"),
                deals=_int(data["deals"], "deals"),
                deals_won=_counts(data["deals_won"], "deals_won"),
                best_deal=_counts(data["best_deal"], "best_deal"),
                events={_text(p, "events"): _counts(e, "events") for p, e in dict(data["events"]).items()},
                lowest_wins=_flag(data["lowest_wins"], "lowest_wins"),
            )
        except KeyError as exc:
            raise InvalidSummaryError(Message("store.summary_missing", field=repr(exc.args[0]))) from None
        except InvalidSummaryError:
            raise
        except (TypeError, AttributeError, ValueError):
            raise InvalidSummaryError(Message("store.summary_shape")) from None
        known = set(players)
        for name in ("totals", "ranking", "deals_won"):
            if set(getattr(summary, name)) != known:
                raise InvalidSummaryError(Message("store.summary_players", field=name))
        if winner is not None and winner not in known:
            raise InvalidSummaryError(Message("store.summary_winner", winner=repr(winner)))
        return summary

    def to_row(self) -> list[Any] | None:
        """The summary as one short JSON-ready list, each figure in the players' order (the
        form a checkpoint keeps, which parses in a third of the time of :meth:`to_dict`'s:
        each player's id once, not once per figure); ``None`` when a figure names someone
        not among its players (then it has no such form). :meth:`from_row` reads it back."""
        players = self.players
        seated = set(players)
        if self.seated:  # a replaced seat's summary keeps its dict form
            return None
        if not (
            self.best_deal.keys() <= seated
            and self.events.keys() <= seated
            and (self.winner is None or self.winner in seated)
        ):
            return None
        totals, ranking, won, best = self.totals, self.ranking, self.deals_won, self.best_deal
        return [
            self.ruleset,
            list(players),
            self.finished,
            None if self.winner is None else players.index(self.winner),
            [totals[p] for p in players],
            [ranking[p] for p in players],
            self.deals,
            [won[p] for p in players],
            [best.get(p) for p in players],
            [self.events.get(p) for p in players],
            self.lowest_wins,
        ]

    @classmethod
    def from_row(cls, row: Sequence[Any], *, checked: bool = True) -> GameSummary:
        """Read a list written by :meth:`to_row` (raises :class:`InvalidSummaryError` when its
        parts do not fit together, or a name is not text or a count not a whole number). The
        checks are made on whole lists at once: a checkpoint holds thousands.

        ``checked=False`` leaves out the checks of each part's type, for a row that this code
        version's :meth:`to_row` wrote and whose bytes a sum vouches for (a checkpoint's: its
        checks were half the standings of a fresh open); a row of the wrong length or shape
        is still refused."""
        try:
            ruleset, players, finished, winner, totals, ranking, deals, won, best, events, lowest = row
            seats = tuple(players)
            n = len(seats)
            if not (
                len(totals) == len(ranking) == len(won) == len(best) == len(events) == n
                and (winner is None or (type(winner) is int and 0 <= winner < n))
            ) or (
                checked
                and not (
                    {type(ruleset), *map(type, seats)} == {str}
                    and {type(finished), type(lowest)} == {bool}
                    and {type(deals), *map(type, totals), *map(type, ranking), *map(type, won)} == {int}
                    and {*map(type, best)} <= {int, type(None)}
                    and {*map(type, events)} <= {dict, type(None)}
                    and {type(k) for e in events if e for k in e} <= {str}
                    and {type(c) for e in events if e for c in e.values()} <= {int}
                )
            ):
                raise InvalidSummaryError(Message("store.summary_shape"))
        except (TypeError, ValueError):
            raise InvalidSummaryError(Message("store.summary_shape")) from None
        # positional, and the events' dicts as parsed (each row is read once): a third faster
        make = _summary if cls is GameSummary else cls
        return make(
            ruleset,
            seats,
            finished,
            None if winner is None else seats[winner],
            dict(zip(seats, totals, strict=False)),
            dict(zip(seats, ranking, strict=False)),
            deals,
            dict(zip(seats, won, strict=False)),
            dict(zip(seats, best, strict=False))
            if None not in best
            else {p: v for p, v in zip(seats, best, strict=False) if v is not None},
            dict(zip(seats, events, strict=False))
            if None not in events
            else {p: e for p, e in zip(seats, events, strict=False) if e is not None},
            lowest,
        )

    def with_players(self, mapping: Mapping[str, str]) -> GameSummary:
        """The same summary with player keys renamed (a name missing from ``mapping`` is kept).

        Raises :class:`InvalidSummaryError` if two players of the game would get one key.
        """
        players = tuple(mapping.get(p, p) for p in self.players)
        if len(set(players)) != len(players):
            raise InvalidSummaryError(
                Message("store.summary_rename", players=", ".join(self.players), renamed=", ".join(players))
            )

        def keyed(values: Mapping[str, Any]) -> dict[str, Any]:
            return {mapping.get(p, p): v for p, v in values.items()}

        return GameSummary(
            ruleset=self.ruleset,
            players=players,
            finished=self.finished,
            winner=None if self.winner is None else mapping.get(self.winner, self.winner),
            totals=keyed(self.totals),
            ranking=keyed(self.ranking),
            deals=self.deals,
            deals_won=keyed(self.deals_won),
            best_deal=keyed(self.best_deal),
            events={k: dict(v) for k, v in keyed(self.events).items()},
            lowest_wins=self.lowest_wins,
            seated={mapping.get(p, p): list(v) for p, v in self.seated.items()},
            left=tuple(mapping.get(p, p) for p in self.left),
        )


#: Each field's slot of :class:`GameSummary`, in its order, to set it directly.
_SLOTS: Final = tuple(GameSummary.__dict__[name].__set__ for name in GameSummary.__dataclass_fields__)


def _summary(
    ruleset: str,
    players: tuple[str, ...],
    finished: bool,
    winner: str | None,
    totals: dict[str, int],
    ranking: dict[str, int],
    deals: int,
    deals_won: dict[str, int],
    best_deal: dict[str, int],
    events: dict[str, dict[str, int]],
    lowest_wins: bool,
) -> GameSummary:
    """A :class:`GameSummary` of these fields, each set in its slot: the frozen dataclass's
    ``__init__`` sets each through ``object.__setattr__``, which for the thousands a
    checkpoint's rows become took twice as long. The summary is as frozen as any other."""
    summary: GameSummary = object.__new__(GameSummary)
    a, b, c, d, e, f, g, h, i, j, k = _SLOTS[:11]
    a(summary, ruleset)
    b(summary, players)
    c(summary, finished)
    d(summary, winner)
    e(summary, totals)
    f(summary, ranking)
    g(summary, deals)
    h(summary, deals_won)
    i(summary, best_deal)
    j(summary, events)
    k(summary, lowest_wins)
    _NO_SEATS[0](summary, {})
    _NO_SEATS[1](summary, ())
    return summary


_NO_SEATS: Final = _SLOTS[11:]


def _with_seats(summary: GameSummary, data: Mapping[str, Any]) -> GameSummary:
    """``summary`` with the replaced seats of ``data`` (:meth:`GameSummary.from_dict`)."""
    try:
        seated = {
            _text(p, "seated"): [_int(v, "seated") for v in span] for p, span in dict(data["seated"]).items()
        }
        left = tuple(_text(p, "left") for p in data["left"])
    except (KeyError, TypeError, ValueError):
        raise InvalidSummaryError(Message("store.summary_shape")) from None
    known = set(summary.players)
    if not (
        seated.keys() <= known and set(left) <= seated.keys() and all(len(v) == 2 for v in seated.values())
    ):
        raise InvalidSummaryError(Message("store.summary_shape"))
    return replace(summary, seated=seated, left=left)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game as standings and ratings see it: player keys in the summary are player ids.

    It lives here, beside :class:`GameSummary`, so that standings and ratings both read it
    and neither imports the other for it.
    """

    id: str
    season: str
    played: str  # ISO-8601 time the game started; games are ordered by (played, id)
    summary: GameSummary


def summarize(game: Game) -> GameSummary:
    """The summary of a game, from ``game.result`` and ``game.ruleset`` only."""
    ruleset: Ruleset = game.ruleset
    result = game.result
    players = result.players
    lowest_wins = ruleset.winner == "lowest"
    deals_won = dict.fromkeys(players, 0)
    best: dict[str, int] = {}
    events: dict[str, dict[str, int]] = {p: {} for p in players}
    for record in result.deals:
        score = record.score
        for player in score.winners:
            deals_won[player] += 1
        for player in players:
            value = score.scores[player]
            if player not in best or (value < best[player] if lowest_wins else value > best[player]):
                best[player] = value
        for player, key in score.marks:
            events[player][key] = events[player].get(key, 0) + 1
    for column in result.columns:
        for player, bonuses in column.bonuses.items():
            for name, value in bonuses.items():
                event = BONUS_EVENTS.get(name)
                if event is None or not value:
                    continue
                count = value // ruleset.box_bonus if name == "boxes" and ruleset.box_bonus else 1
                events[player][event] = events[player].get(event, 0) + count
    summary = GameSummary(
        ruleset=ruleset.id,
        players=players,
        finished=result.finished,
        winner=result.winner,
        totals=dict(result.totals),
        ranking=rank(result.totals, lowest_wins=lowest_wins),
        deals=len(result.deals),
        deals_won=deals_won,
        best_deal=best,
        events={p: e for p, e in events.items() if e},
        lowest_wins=lowest_wins,
    )
    return _split_seats(summary, game) if game.replacements else summary


def _split_seats(summary: GameSummary, game: Game) -> GameSummary:
    """The summary with each replaced seat's figures split between its holders
    (docs/rules.md, "Replacements"): each who left is credited the seat's deal points,
    deals won, best deal and events of the deals they played, and a penalty given while
    they held the seat; the holder at the end has the rest of the seat's total (so the
    holders' points add up to the seat's), its bonuses, its place and its win. Each holder
    shares the seat's place in ``ranking`` (a head-to-head leaves out who left)."""
    seats = holders(game.players, game.replacements)
    deals = game.result.deals
    totals, ranking, won = dict(summary.totals), dict(summary.ranking), dict(summary.deals_won)
    best, events = dict(summary.best_deal), {p: dict(e) for p, e in summary.events.items()}
    players, seated, left = list(summary.players), dict[str, list[int]](), list[str]()
    winner = summary.winner
    for number, seat in enumerate(seats):
        if len(seat) == 1:
            continue
        name, final = seat[0].player, seat[-1]
        given = _penalties_by_holder(game, seat, number)
        parts = {h.player: _part(h, name=name, game=game, penalty=given.get(h.player, 0)) for h in seat[:-1]}
        seat_total, seat_rank, seat_won = totals[name], ranking[name], won[name]
        seat_events = events.pop(name, {})
        best.pop(name, None)
        for holder in seat:
            part = parts.get(holder.player)
            if part is None:  # the holder at the end: the rest of the seat
                totals[holder.player] = seat_total - sum(p.points for p in parts.values())
                won[holder.player] = seat_won - sum(p.won for p in parts.values())
                mine = _deal_figures(holder, name=name, deals=deals, lowest_wins=summary.lowest_wins)
                if mine.best is not None:
                    best[holder.player] = mine.best
                rest = dict(seat_events)
                for other in parts.values():
                    for key, count in other.events.items():
                        rest[key] = rest.get(key, 0) - count
                if any(rest.values()):
                    events[holder.player] = {k: v for k, v in rest.items() if v}
            else:
                totals[holder.player], won[holder.player] = part.points, part.won
                if part.best is not None:
                    best[holder.player] = part.best
                if part.events:
                    events[holder.player] = dict(part.events)
            ranking[holder.player] = seat_rank
            seated[holder.player] = [
                holder.first,
                len(deals) if holder.last is None else min(holder.last, len(deals)),
            ]
            if holder.player != name:
                players.append(holder.player)
        left.extend(h.player for h in seat[:-1])
        if winner == name:
            winner = final.player
    return replace(
        summary,
        players=tuple(players),
        winner=winner,
        totals=totals,
        ranking=ranking,
        deals_won=won,
        best_deal=best,
        events=events,
        seated=seated,
        left=tuple(left),
    )


@dataclass(frozen=True, slots=True)
class _Part:
    """A seat's holder's deals: points, deals won, best deal, events."""

    points: int
    won: int
    best: int | None
    events: dict[str, int]


def _deal_figures(holder: Holder, *, name: str, deals: Sequence[Any], lowest_wins: bool) -> _Part:
    points = won = 0
    best: int | None = None
    events: dict[str, int] = {}
    for record in deals[holder.first - 1 : holder.last]:
        score = record.score
        value = score.scores[name]
        points += value
        won += name in score.winners
        if best is None or (value < best if lowest_wins else value > best):
            best = value
        for player, key in score.marks:
            if player == name:
                events[key] = events.get(key, 0) + 1
    return _Part(points, won, best, events)


def _part(holder: Holder, *, name: str, game: Game, penalty: int) -> _Part:
    """What a holder who left is credited: the deals they played and their penalties."""
    figures = _deal_figures(
        holder, name=name, deals=game.result.deals, lowest_wins=game.ruleset.winner == "lowest"
    )
    return replace(figures, points=figures.points + penalty_effect(penalty, game.ruleset))


def _penalties_by_holder(game: Game, seat: Sequence[Holder], number: int) -> dict[str, int]:
    name = seat[0].player
    given: dict[str, int] = {}
    for penalty in game.penalties:
        if penalty.player == name:
            who = holder_when(seat, game.replacements, seat_number=number, at=penalty.at)
            given[who] = given.get(who, 0) + penalty.points
    return given


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidSummaryError(Message("store.summary_not_name", field=field, value=repr(value)))
    return value


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidSummaryError(Message("store.summary_not_number", field=field, value=repr(value)))
    return value


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidSummaryError(Message("store.summary_not_flag", field=field, value=repr(value)))
    return value


def _counts(values: Any, field: str) -> dict[str, int]:
    return {_text(k, field): _int(v, field) for k, v in dict(values).items()}


def _whole(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is a summary as :meth:`GameSummary.to_dict` writes it, checked on the
    whole dicts at once (``False``: read it field by field to say what is wrong)."""
    try:
        players = tuple(data["players"])
        known = set(players)
        winner, events = data["winner"], data["events"]
        counts = (data["totals"], data["ranking"], data["deals_won"], data["best_deal"])
        return (
            type(data["ruleset"]) is str
            and all(type(p) is str for p in players)
            and type(data["finished"]) is bool
            and type(data["lowest_wins"]) is bool
            and type(data["deals"]) is int
            and (winner is None or (type(winner) is str and winner in known))
            and all(type(c) is dict for c in counts)
            and known == counts[0].keys() == counts[1].keys() == counts[2].keys()
            and all(type(k) is str for k in counts[3])
            and {type(v) for c in counts for v in c.values()} <= {int}
            and type(events) is dict
            and all(type(k) is str and type(e) is dict for k, e in events.items())
            and all(type(w) is str and type(n) is int for e in events.values() for w, n in e.items())
        )
    except (KeyError, TypeError, AttributeError):
        return False
