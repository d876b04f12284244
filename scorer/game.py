"""A whole game: deals replayed from their raw entries into totals and final bonuses.

A :class:`Game` is a value: the ruleset, the players and the deals as entered.
Its :attr:`Game.result` is the replay of every deal. The replay is incremental:
a deal's own score depends on that deal alone, so each deal is scored once and
kept, and the game remembers the score sheet after every deal. Adding a deal
scores only that deal; correcting or removing deal ``i`` keeps the score sheet
up to ``i`` and re-adds the kept scores after it (dealer, totals and the end of
the game depend on what came before). Hollywood gin scores three games at once
(:class:`Column`).

>>> from scorer.ruleset import load_ruleset
>>> from scorer.deal import Deal
>>> game = Game(ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
>>> game = game.add(Deal.build(hands={"Anna": "", "Bea": "KS AH *"}, out="Anna"))
>>> game.result.totals
{'Anna': 0, 'Bea': 36}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from scorer.deal import Deal, InvalidDealError, cards_to_deal, field_problem
from scorer.errors import ScorerError
from scorer.messages import Message, message_of
from scorer.replacement import Replacement, holders
from scorer.ruleset import Ruleset
from scorer.scoring import DealScore, score_deal


class InvalidGameError(ScorerError, ValueError):
    """A game that cannot be set up or extended: bad players, a deal after the end."""


@dataclass(frozen=True, slots=True)
class Column:
    """One game of the score sheet (Hollywood gin keeps three)."""

    totals: dict[str, int]
    hands_won: dict[str, int]
    hand_points: dict[str, int]
    finished: bool = False
    closed_after: int | None = None
    winner: str | None = None
    bonuses: dict[str, dict[str, int]] = field(default_factory=dict)
    called: bool = False


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One part of a player's change of running total at one deal.

    ``kind`` is ``"deal"``, the deal's own score, counted once in each game of ``games``
    (Hollywood gin credits a win to two or three games at once), or the name of a final bonus
    (``"shutout"``, ``"game"``, ``"boxes"``: :attr:`Column.bonuses`) landing at the deal that
    closed game ``games[0]`` (RULES.md section 3).
    Games are 0-based columns, as in :attr:`DealRecord.credited`.

    >>> ScorePart("deal", 55, (0, 1)).total
    110
    """

    kind: str
    points: int
    games: tuple[int, ...]

    @property
    def total(self) -> int:
        """What the part adds to the running total."""
        return self.points * len(self.games)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A scored deal in the game: its scores, events and the totals after it.

    ``parts`` itemise each player's change of running total at this deal (parts worth
    nothing are left out): the deal's score in each game credited, then the final bonuses of
    every game the deal closed. They add up to the change: see :meth:`change`.
    """

    number: int
    dealer: str
    score: DealScore
    credited: tuple[int, ...]
    running: dict[str, int]
    parts: dict[str, tuple[ScorePart, ...]]

    def change(self, player: str) -> int:
        """How much ``player``'s running total moved at this deal."""
        return sum(part.total for part in self.parts.get(player, ()))


@dataclass(frozen=True, slots=True)
class GameResult:
    """The replay of a game. ``start`` is each running total before the first deal (the
    game's starting points, counted in every game of the score sheet); ``totals`` are
    ``start`` plus every deal's :meth:`DealRecord.change`. ``called``: the game ended because
    it was called after a deal (:attr:`Game.ends_after`) before anyone reached the target."""

    players: tuple[str, ...]
    deals: tuple[DealRecord, ...]
    totals: dict[str, int]
    finished: bool
    winner: str | None
    bonuses: dict[str, dict[str, int]]
    columns: tuple[Column, ...]
    next_dealer: str
    cards_to_deal: int | None
    start: dict[str, int] = field(default_factory=dict)
    called: bool = False
    #: Each penalised player's penalty points, as given (each positive); ``totals`` count them
    #: in the variant's direction (:func:`penalty_effect`).
    penalties: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Penalty:
    """Points a club night's director gave a player as a penalty (docs/rules.md, "Penalties").

    It makes the player's result worse by ``points`` in the variant's direction: where the
    lowest total wins it adds them, where the highest wins it takes them away. It changes the
    game's totals, ranking and winner, never when the game ends (deals decide that). ``id``
    names it (the fact that gave it), ``why``, ``by`` and ``at`` say why, who and when.
    """

    player: str
    points: int
    why: str = ""
    by: str = ""
    at: str = ""
    id: str = ""


def penalty_effect(points: int, ruleset: Ruleset) -> int:
    """What ``points`` penalty points do to a total: worse in the variant's direction.

    >>> from scorer.ruleset import load_ruleset
    >>> penalty_effect(5, load_ruleset("rommi")), penalty_effect(5, load_ruleset("gin"))
    (5, -5)
    """
    return -points if ruleset.winner == "highest" else points


def _add(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {p: v + b.get(p, 0) for p, v in a.items()}


def _winner(totals: dict[str, int], *, ruleset: Ruleset) -> str | None:
    best = max(totals.values()) if ruleset.winner == "highest" else min(totals.values())
    leaders = [p for p, v in totals.items() if v == best]
    return leaders[0] if len(leaders) == 1 else None


def _reached(totals: dict[str, int], ruleset: Ruleset) -> list[str]:
    return [p for p, v in totals.items() if ruleset.target is not None and v >= ruleset.target]


def _close(column: Column, *, ruleset: Ruleset, deal_number: int, called: bool = False) -> Column:
    """Apply the final bonuses of a finished game (column) and name its winner.

    A game called before anyone reached the target (docs/rules.md, "Timed rounds") closes by
    the same rules: the game bonus goes only to whoever reached the target (so to nobody),
    boxes and the shutout are paid as ever, and the best total in the variant's direction wins.
    """
    players = list(column.totals)
    bonuses: dict[str, dict[str, int]] = {p: {} for p in players}
    if ruleset.scoring == "knock":
        leader = max(players, key=lambda p: column.totals[p])
        if ruleset.shutout and all(column.hands_won[p] == 0 for p in players if p != leader):
            extra = column.hand_points[leader] * (ruleset.shutout_multiplier - 1)
            if extra:
                bonuses[leader]["shutout"] = extra
        if ruleset.game_bonus and leader in _reached(column.totals, ruleset):
            bonuses[leader]["game"] = ruleset.game_bonus
    elif ruleset.game_bonus:
        for player in _reached(column.totals, ruleset):
            bonuses[player]["game"] = ruleset.game_bonus
    if ruleset.box_bonus:
        for player in players:
            if column.hands_won[player]:
                bonuses[player]["boxes"] = ruleset.box_bonus * column.hands_won[player]
    totals = {p: column.totals[p] + sum(bonuses[p].values()) for p in players}
    return replace(
        column,
        totals=totals,
        finished=True,
        closed_after=deal_number,
        winner=_winner(totals, ruleset=ruleset),
        bonuses={p: b for p, b in bonuses.items() if b},
        called=called,
    )


def _open_column(players: Sequence[str], start: Mapping[str, int]) -> Column:
    zero = dict.fromkeys(players, 0)
    totals = {p: start.get(p, 0) for p in players}
    return Column(totals=totals, hands_won=dict(zero), hand_points=dict(zero))


def _credit(column: Column, *, score: DealScore) -> Column:
    """An open column with one more deal counted in it."""
    won, hand_points = column.hands_won, column.hand_points
    if score.winners:
        won, hand_points = dict(won), dict(hand_points)
        for player in score.winners:
            won[player] += 1
            hand_points[player] += score.scores[player]
    return Column(totals=_add(column.totals, score.scores), hands_won=won, hand_points=hand_points)


def _is_over(column: Column, *, ruleset: Ruleset, deals_played: int) -> bool:
    if _reached(column.totals, ruleset):
        return True
    return ruleset.deals is not None and deals_played >= ruleset.deals


def _is_called(deals_played: int, ends_after: int | None) -> bool:
    """Whether the game was called after this deal (the round's time ran out)."""
    return ends_after is not None and deals_played >= ends_after


@dataclass(frozen=True, slots=True)
class _Replay:
    """The score sheet after each deal: ``columns[k]`` after ``k`` deals, one record per deal."""

    columns: tuple[tuple[Column, ...], ...]
    records: tuple[DealRecord, ...]


@dataclass(frozen=True, slots=True)
class Game:
    """The ruleset, the players in seating order and the deals as entered.

    ``start``: the points each player starts with (a club night's handicap; a player not
    named starts at 0), counted in every game of the score sheet and towards the target.
    ``ends_after``: the game is called after this many deals (a timed round ran out,
    docs/rules.md "Timed rounds"): the game ends after that deal whatever the totals.
    ``penalties``: the director's penalties (:class:`Penalty`), counted in the result's
    totals, ranking and winner, never in the deals' running totals or the game's end.
    ``replacements``: players who took over a seat mid-game (:class:`Replacement`); the
    seat's scores are the seat's whoever holds it (the league splits them by holder).
    """

    ruleset: Ruleset
    players: tuple[str, ...]
    deals: tuple[Deal, ...] = ()
    first_dealer: int = 0
    start: Mapping[str, int] = field(default_factory=dict)
    ends_after: int | None = None
    penalties: tuple[Penalty, ...] = ()
    replacements: tuple[Replacement, ...] = ()
    # Worked out once per game value and never part of it: a new value starts without them.
    _replay: _Replay | None = field(default=None, init=False, repr=False, compare=False)
    _result: GameResult | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [p.strip() for p in self.players]
        if any(not n for n in names):
            raise InvalidGameError(field_problem("players", Message("game.player_name")))
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            named = Message("game.players_twice", players=", ".join(twice))
            raise InvalidGameError(field_problem("players", named))
        rules = self.ruleset
        if not rules.players_min <= len(names) <= rules.players_max:
            allowed = rules.players_text.removesuffix(" players")
            if len(names) == 1:
                wrong = Message("game.player_count_one", name=rules.named, allowed=allowed)
            else:
                wrong = Message("game.player_count", count=len(names), name=rules.named, allowed=allowed)
            raise InvalidGameError(field_problem("players", wrong))
        if not 0 <= self.first_dealer < len(names):
            seat = Message("game.not_a_seat", seat=self.first_dealer, last=len(names) - 1)
            raise InvalidGameError(field_problem("first_dealer", seat))
        for player, points in self.start.items():
            if player not in self.players:
                known = ", ".join(self.players)
                unknown = Message("game.start_unknown", player=repr(player), players=known)
                raise InvalidGameError(field_problem("start", unknown))
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                wrong = Message("game.start_negative", player=player, points=repr(points))
                raise InvalidGameError(field_problem("start", wrong))
        for penalty in self.penalties:
            if penalty.player not in self.players:
                known = ", ".join(self.players)
                unknown = Message("game.penalty_unknown", player=repr(penalty.player), players=known)
                raise InvalidGameError(field_problem("penalties", unknown))
            if isinstance(penalty.points, bool) or not isinstance(penalty.points, int) or penalty.points < 1:
                wrong = Message("game.penalty_points", player=penalty.player, points=repr(penalty.points))
                raise InvalidGameError(field_problem("penalties", wrong))
        holders(self.players, self.replacements)  # each replacement fits the seats (or refused)
        if self.ends_after is not None and self.ends_after < 1:
            after = Message("game.ends_after_zero", value=self.ends_after)
            raise InvalidGameError(field_problem("ends_after", after))

    @property
    def result(self) -> GameResult:
        """The replay of every deal, worked out once for this game."""
        result = self._result
        if result is None:
            result = _result_of(self._replayed(), game=self)
            object.__setattr__(self, "_result", result)
        return result

    def add(self, deal: Deal) -> Game:
        """The game with one more deal; raises if the deal is invalid or the game is over."""
        return self.with_deals((*self.deals, deal))

    def replace_deal(self, index: int, deal: Deal) -> Game:
        """The game with deal ``index`` (0-based) corrected; everything after is recomputed."""
        self._check_index(index)
        return self.with_deals((*self.deals[:index], deal, *self.deals[index + 1 :]))

    def remove_deal(self, index: int) -> Game:
        """The game without deal ``index`` (0-based); everything after is recomputed.

        A call (:attr:`ends_after`) stays on the deal it was made after: removing an earlier
        deal moves it one deal back, and removing the called deal itself lifts the call.
        """
        self._check_index(index)
        deals = self.deals[:index] + self.deals[index + 1 :]
        called = self.ends_after
        if called is not None and index < called:
            return replace(self, ends_after=called - 1 if index < called - 1 else None).with_deals(deals)
        return self.with_deals(deals)

    def insert_deal(self, index: int, deal: Deal) -> Game:
        """The game with ``deal`` put in as deal ``index`` (0-based): the undo of :meth:`remove_deal`.
        A call made after a later deal moves one deal on with it."""
        deals = (*self.deals[:index], deal, *self.deals[index:])
        called = self.ends_after
        if called is not None and index < called:
            return replace(self, ends_after=called + 1).with_deals(deals)
        return self.with_deals(deals)

    def called_after(self, number: int | None) -> Game:
        """The game called after deal ``number`` (1-based; ``None``: the call lifted)."""
        return replace(self, ends_after=number).with_deals(self.deals)

    def with_penalties(self, penalties: Sequence[Penalty]) -> Game:
        """The game with these penalties (the deals' replay kept: a penalty changes no deal).

        >>> from scorer.ruleset import load_ruleset
        >>> game = Game(ruleset=load_ruleset("rommi"), players=("Anna", "Bea"))
        >>> game.with_penalties([Penalty("Bea", 10, why="slow play")]).result.totals
        {'Anna': 0, 'Bea': 10}
        """
        game = replace(self, penalties=tuple(penalties))
        object.__setattr__(game, "_replay", self._replay)
        return game

    def with_replacements(self, replacements: Sequence[Replacement]) -> Game:
        """The game with these replacements at its seats (the deals' replay kept: a
        replacement changes no deal and no total, docs/rules.md "Replacements")."""
        game = replace(self, replacements=tuple(replacements))
        object.__setattr__(game, "_replay", self._replay)
        return game

    def with_deals(self, deals: tuple[Deal, ...]) -> Game:
        """A new game with these deals, replayed first: an invalid one is refused, this one kept.

        Deals this game has already scored (the same objects) keep their scores; the
        replay restarts at the first deal that differs.
        """
        game = replace(self, deals=deals)
        known = self._replay
        if known is None:
            replay = _replay(game, kept=0, known=None, scores={})
        else:
            old = self.deals
            if deals[: len(old)] == old:  # deals added at the end (the tuples compare in C)
                kept = len(old)
            else:
                kept = next(
                    (i for i, (a, b) in enumerate(zip(old, deals, strict=False)) if a is not b and a != b),
                    len(deals),
                )
            later = zip(old[kept:], known.records[kept:], strict=True)
            replay = _replay(game, kept=kept, known=known, scores={id(d): r.score for d, r in later})
        object.__setattr__(game, "_replay", replay)
        return game

    def _replayed(self) -> _Replay:
        replay = self._replay
        if replay is None:
            replay = _replay(self, kept=0, known=None, scores={})
            object.__setattr__(self, "_replay", replay)
        return replay

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.deals):
            no_deal = Message("game.no_such_deal", count=len(self.deals))
            raise InvalidGameError(Message("deal.deal_number", number=index + 1, rest=no_deal))


def within_deal(said: str) -> str:
    """What a game said about one of its deals, without the deal's number in front
    (``deal 2: hands: ...`` -> ``hands: ...``): the text of the message inside, which still
    remembers its message. Other text is returned as it is.

    >>> from scorer.ruleset import load_ruleset
    >>> game = Game(load_ruleset("rommi"), ("Anna", "Bea"))
    >>> try:
    ...     game.add(Deal.build(points={"Bea": 3}, out="Dan"))
    ... except InvalidDealError as exc:
    ...     print(within_deal(str(exc)))
    out: unknown player 'Dan'; the players are Anna, Bea
    """
    message = message_of(said)
    if message is not None and message.code == "deal.deal_number":
        inner = message.params.get("rest")
        if isinstance(inner, Message):
            return str(inner)
    return said


def score_game(
    *,
    ruleset: Ruleset,
    players: Sequence[str],
    deals: Sequence[Deal],
    first_dealer: int = 0,
    start: Mapping[str, int] | None = None,
    ends_after: int | None = None,
    penalties: Sequence[Penalty] = (),
) -> GameResult:
    """Replay every deal: scores, running totals, the end of the game and its bonuses."""
    game = Game(
        ruleset=ruleset,
        players=tuple(players),
        deals=tuple(deals),
        first_dealer=first_dealer,
        start=dict(start or {}),
        ends_after=ends_after,
        penalties=tuple(penalties),
    )
    return game.result


def _replay(game: Game, *, kept: int, known: _Replay | None, scores: dict[int, DealScore]) -> _Replay:
    """The score sheet of ``game``: the first ``kept`` deals as in ``known``, then each
    later deal from its kept score (looked up by the deal's identity) or scored now."""
    ruleset, players = game.ruleset, game.players
    if known is None:
        columns_after = [tuple(_open_column(players, game.start) for _ in range(ruleset.games))]
        records: list[DealRecord] = []
    else:
        columns_after = list(known.columns[: kept + 1])
        records = list(known.records[:kept])
    columns = columns_after[-1]
    for number, deal in enumerate(game.deals[kept:], start=kept + 1):
        if all(c.finished for c in columns):
            over = Message("game.game_over", number=number - 1)
            raise InvalidGameError(Message("deal.deal_number", number=number, rest=over))
        score = scores.get(id(deal))
        if score is None:
            try:
                score = score_deal(deal, players=players, ruleset=ruleset)
            except InvalidDealError as exc:
                raise InvalidDealError(Message("deal.deal_number", number=number, rest=exc.message)) from None
        columns, record = _tally(
            columns,
            score=score,
            number=number,
            ruleset=ruleset,
            players=players,
            first_dealer=game.first_dealer,
            ends_after=game.ends_after,
        )
        columns_after.append(columns)
        records.append(record)
    return _Replay(tuple(columns_after), tuple(records))


def _tally(
    columns: tuple[Column, ...],
    *,
    score: DealScore,
    number: int,
    ruleset: Ruleset,
    players: tuple[str, ...],
    first_dealer: int,
    ends_after: int | None,
) -> tuple[tuple[Column, ...], DealRecord]:
    """The columns after one more deal, and that deal's record."""
    credited = _columns_credited(score, columns=columns)
    after = list(columns)
    for index in credited:
        after[index] = _credit(after[index], score=score)
    called = _is_called(number, ends_after)
    for index, column in enumerate(after):
        if column.finished:
            continue
        if _is_over(column, ruleset=ruleset, deals_played=number):
            after[index] = _close(column, ruleset=ruleset, deal_number=number)
        elif called:
            after[index] = _close(column, ruleset=ruleset, deal_number=number, called=True)
    running = {p: sum(c.totals[p] for c in after) for p in players}
    dealer = players[(first_dealer + number - 1) % len(players)]
    closed = [i for i, column in enumerate(after) if column.finished and not columns[i].finished]
    parts = {p: _parts_of(p, score=score, credited=credited, closed=closed, after=after) for p in players}
    return tuple(after), DealRecord(number, dealer, score, credited, running, parts)


def _parts_of(
    player: str, *, score: DealScore, credited: tuple[int, ...], closed: list[int], after: list[Column]
) -> tuple[ScorePart, ...]:
    """``player``'s change at a deal, itemised: the deal in each game credited, then each
    closed game's final bonuses (each game's :func:`_close` added exactly these)."""
    parts = [ScorePart("deal", score.scores[player], credited)] if credited and score.scores[player] else []
    for index in closed:
        bonuses = after[index].bonuses.get(player, {})
        parts += [ScorePart(name, points, (index,)) for name, points in bonuses.items() if points]
    return tuple(parts)


def _result_of(replay: _Replay, *, game: Game) -> GameResult:
    ruleset, players, first_dealer = game.ruleset, game.players, game.first_dealer
    columns = replay.columns[-1]
    records = replay.records
    given: dict[str, int] = {}
    for penalty in game.penalties:
        given[penalty.player] = given.get(penalty.player, 0) + penalty.points
    totals = {
        p: sum(c.totals[p] for c in columns) + penalty_effect(given.get(p, 0), ruleset) for p in players
    }
    finished = all(c.finished for c in columns)
    bonuses: dict[str, dict[str, int]] = {}
    for column in columns:
        for player, named in column.bonuses.items():
            for name, value in named.items():
                bonuses.setdefault(player, {})
                bonuses[player][name] = bonuses[player].get(name, 0) + value
    return GameResult(
        players=players,
        deals=records,
        totals=totals,
        finished=finished,
        winner=_winner(totals, ruleset=ruleset) if finished else None,
        bonuses=bonuses,
        columns=columns,
        next_dealer=players[(first_dealer + len(records)) % len(players)],
        cards_to_deal=cards_to_deal(ruleset, len(players)),
        start={p: game.start.get(p, 0) * len(columns) for p in players},
        called=finished and any(c.called for c in columns),
        penalties=given,
    )


def _columns_credited(score: DealScore, *, columns: Sequence[Column]) -> tuple[int, ...]:
    """Which games a deal counts in: all open ones, or in Hollywood the winner's.

    Hollywood gin (RULES.md section 3): a win is credited to every open game in which
    the winner already has a score, plus the first open game in which they have none,
    so a player shut out of a game that closed enters their next win in the next one.
    """
    if len(columns) == 1:
        return (0,) if not columns[0].finished else ()
    if not score.winners:
        return ()
    winner = score.winners[0]
    open_games = [i for i, column in enumerate(columns) if not column.finished]
    scored = [i for i in open_games if columns[i].hands_won[winner]]
    first_new = next((i for i in open_games if not columns[i].hands_won[winner]), None)
    return tuple(sorted(scored if first_new is None else [*scored, first_new]))
