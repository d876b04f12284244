"""The gin knock referee: is a knock legal, and what does the hand score (docs/rules.md, Gin rummy).

The knocker spreads melds and deadwood; after a normal knock the defender lays
off deadwood on the knocker's melds, then the hand scores as a knock, an
undercut, gin or big gin. Exact, never a heuristic: unless the knocker declares
its melds, every arrangement within the knock limit is tried against the
defender's best reply, because how the melds are laid decides what the defender
can lay off. The reply tries every combination of layoffs (the defender may
break its own melds for them) with one :class:`Solver` for the rest of its hand.

>>> from scorer.ruleset import load_ruleset
>>> verdict = referee_knock(
...     knocker="7H 8H 9H 4C 4D 4S 2S 3S AS 5C",
...     defender="TH JH 6H KC QD KD 9C 9D 2D 3D",
...     ruleset=load_ruleset("gin"),
... )
>>> verdict.outcome, verdict.winner, verdict.points
('knock', 'knocker', 48)
>>> [format_cards(layoff.cards) for layoff in verdict.defender.layoffs]
['6H TH JH']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product
from typing import Literal

from scorer.cards import (
    ACE,
    DECK,
    Card,
    CardsLike,
    Melds,
    format_cards,
    format_melds,
    parse_cards,
    parse_melds,
)
from scorer.errors import IllegalPlayError
from scorer.frozen import Frozen, setfield
from scorer.melds import check_meld
from scorer.meldtables import Tables, tables_for
from scorer.messages import Message, Param, Whose, Word
from scorer.ruleset import Ruleset
from scorer.solver import Arrangement, Solver

Outcome = Literal["knock", "gin", "big_gin", "undercut"]
Winner = Literal["knocker", "defender"]

SPADES = 0  # Card.suit: S H D C


class Layoff(Frozen):
    """Cards the defender lays off on one of the knocker's melds."""

    __slots__ = ("cards", "meld")

    meld: int  # 0-based index into KnockVerdict.knocker.melds
    cards: tuple[Card, ...]

    def __init__(self, meld: int, cards: tuple[Card, ...]) -> None:
        self._fill(meld, cards)


class KnockerSide(Frozen):
    __slots__ = ("deadwood", "deadwood_points", "melds")

    melds: Melds
    deadwood: tuple[Card, ...]
    deadwood_points: int

    def __init__(self, melds: Melds, deadwood: tuple[Card, ...], deadwood_points: int) -> None:
        self._fill(melds, deadwood, deadwood_points)


class DefenderSide(Frozen):
    """The defender's hand after its layoffs: its own melds and what is left."""

    __slots__ = ("deadwood", "deadwood_points", "layoffs", "melds")

    melds: Melds
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int

    def __init__(
        self, melds: Melds, layoffs: tuple[Layoff, ...], deadwood: tuple[Card, ...], deadwood_points: int
    ) -> None:
        self._fill(melds, layoffs, deadwood, deadwood_points)


class KnockVerdict(Frozen):
    """The referee's decision. An illegal knock has a reason, no outcome, no winner, 0 points."""

    __slots__ = ("defender", "knocker", "legal", "message", "outcome", "points", "winner")

    legal: bool
    message: Message | None
    outcome: Outcome | None
    winner: Winner | None
    points: int
    knocker: KnockerSide
    defender: DefenderSide

    def __init__(
        self,
        legal: bool,
        message: Message | None,
        outcome: Outcome | None,
        winner: Winner | None,
        points: int,
        knocker: KnockerSide,
        defender: DefenderSide,
    ) -> None:
        self._fill(legal, message, outcome, winner, points, knocker, defender)

    @property
    def reason(self) -> str | None:
        """Why the knock is illegal, in English (``message`` is the reason as a value)."""
        return None if self.message is None else str(self.message)


class _Meld(Frozen):
    """A knocker's meld as the search sees it: a mask of card indices, and the table order."""

    __slots__ = ("kind", "mask", "order")

    mask: int
    order: tuple[int, ...]
    kind: Literal["set", "run"]

    def __init__(self, mask: int, order: tuple[int, ...], kind: Literal["set", "run"]) -> None:
        setfield(self, "mask", mask)
        setfield(self, "order", order)
        setfield(self, "kind", kind)


class _Result(Frozen):
    """One knocker arrangement against the defender's best reply (points before any multiplier)."""

    __slots__ = ("laid", "outcome", "points", "winner")

    outcome: Outcome
    winner: Winner
    points: int
    laid: tuple[int, ...]  # the mask of cards laid off on each meld, 0 for none

    def __init__(self, outcome: Outcome, winner: Winner, points: int, laid: tuple[int, ...]) -> None:
        setfield(self, "outcome", outcome)
        setfield(self, "winner", winner)
        setfield(self, "points", points)
        setfield(self, "laid", laid)


def knock_limit(ruleset: Ruleset, upcard: Card | None) -> int:
    """The most deadwood a knocker may hold: fixed, or the upcard's value (Oklahoma gin)."""
    if ruleset.knock_limit_source == "upcard":
        if upcard is None:
            raise IllegalPlayError(Message("knock.needs_upcard", name=ruleset.named))
        if upcard.is_joker:
            raise IllegalPlayError(Message("knock.upcard_joker", card=str(upcard), name=ruleset.named))
        return 0 if upcard.rank == ACE and ruleset.ace_upcard_gin_only else ruleset.points(upcard)
    if ruleset.knock_limit is None:
        raise IllegalPlayError(Message("knock.no_knock_limit", id=repr(ruleset.id), name=ruleset.named))
    return ruleset.knock_limit


def settle_knock(
    *,
    knocker_deadwood: int,
    defender_deadwood: int,
    big_gin: bool,
    ruleset: Ruleset,
    upcard: Card | None = None,
) -> tuple[Outcome, Winner, int]:
    """The outcome of a hand from the two deadwood counts (the defender's after layoffs).

    The score sheet's quick entry uses this when only the counts were written down;
    the referee uses it after working out both sides. The spade multiplier is included.

    >>> from scorer.ruleset import load_ruleset
    >>> settle_knock(knocker_deadwood=7, defender_deadwood=5, big_gin=False, ruleset=load_ruleset("gin"))
    ('undercut', 'defender', 27)
    """
    outcome, winner, points = _settle(
        knocker_points=knocker_deadwood, defender_points=defender_deadwood, big=big_gin, ruleset=ruleset
    )
    return outcome, winner, points * _multiplier(ruleset, upcard)


def _settle(
    *, knocker_points: int, defender_points: int, big: bool, ruleset: Ruleset
) -> tuple[Outcome, Winner, int]:
    if knocker_points == 0:
        bonus = ruleset.big_gin_bonus if big else ruleset.gin_bonus
        return ("big_gin" if big else "gin"), "knocker", bonus + defender_points
    if defender_points < knocker_points or (defender_points == knocker_points and ruleset.undercut_on_tie):
        return "undercut", "defender", knocker_points - defender_points + ruleset.undercut_bonus
    return "knock", "knocker", defender_points - knocker_points


def _multiplier(ruleset: Ruleset, upcard: Card | None) -> int:
    spade = ruleset.spade_doubles and upcard is not None and upcard.suit == SPADES
    return ruleset.spade_multiplier if spade else 1


def referee_knock(
    *,
    knocker: CardsLike,
    defender: CardsLike,
    ruleset: Ruleset,
    melds: str | Sequence[CardsLike] | None = None,
    upcard: CardsLike | None = None,
) -> KnockVerdict:
    """Decide a knock: legal or not, its outcome, the winner and the points.

    ``knocker`` is the spread hand (10 cards, 11 for big gin); ``melds`` the
    knocker's declared melds, or ``None`` for the referee to lay them out as
    well as the knocker can. Bad input raises :class:`IllegalPlayError`; a knock
    the rules forbid is a verdict with ``legal=False`` and the reason.
    """
    hand, rest, up = _validate(knocker=knocker, defender=defender, ruleset=ruleset, upcard=upcard)
    limit = knock_limit(ruleset, up)
    referee = _Referee(ruleset, knocker=_mask(hand), defender=_mask(rest))
    big = len(hand) == _hand_size(ruleset) + 1
    allowed = 0 if big else limit
    if melds is None:
        layouts = list(referee.arrangements(allowed))
        examined = _side(referee.solver.best(hand))
    else:
        declared = _declared(melds, hand=hand)
        checks = [check_meld(meld, ruleset) for meld in declared]
        layout: list[_Meld] = []
        for check in checks:
            if check.kind is None:
                left = referee.knocker & ~_mask(c for m in declared for c in m)
                side = KnockerSide(declared, _cards(left), referee.points_of(left))
                return referee.illegal(check.message, knocker=side)
            order = tuple(c.index for c in check.meld)
            layout.append(_Meld(_mask_of(order), order, check.kind))
        layouts = [tuple(layout)]
        examined = referee.knocker_side(layouts[0])

    best: tuple[tuple[int, int, list[tuple[int, ...]]], tuple[_Meld, ...], _Result] | None = None
    for candidate in layouts:
        points = referee.points_of(referee.knocker & ~_union(m.mask for m in candidate))
        if points > allowed:
            continue
        result = referee.judge(candidate, knocker_points=points, big=big)
        net = result.points if result.winner == "knocker" else -result.points
        key = (-net, points, sorted(m.order for m in candidate))
        if best is None or key < best[0]:
            best = (key, candidate, result)
    if best is None:
        why = _over_limit(examined.deadwood_points, big=big, limit=limit, ruleset=ruleset, upcard=up)
        return referee.illegal(why, knocker=examined)
    _, chosen, result = best
    return KnockVerdict(
        legal=True,
        message=None,
        outcome=result.outcome,
        winner=result.winner,
        points=result.points * _multiplier(ruleset, up),
        knocker=referee.knocker_side(chosen),
        defender=referee.defender_side(chosen, result.laid),
    )


class _KnockTables(Frozen):
    """What the referee needs of a ruleset, worked out once and shared by every knock."""

    __slots__ = ("run_ranks", "runs", "solver")

    solver: Tables
    #: Every run of every suit as (mask, lowest card, meld), suit by suit in run_windows order.
    runs: tuple[tuple[int, int, _Meld], ...]
    #: The ranks of every legal run, to check a run grown by layoffs.
    run_ranks: frozenset[frozenset[int]]

    def __init__(
        self, solver: Tables, runs: tuple[tuple[int, int, _Meld], ...], run_ranks: frozenset[frozenset[int]]
    ) -> None:
        self._fill(solver, runs, run_ranks)


_KNOCK_TABLES: dict[int, _KnockTables] = {}


def _knock_tables(ruleset: Ruleset) -> _KnockTables:
    """The referee's tables, kept with the solver's: rulesets with the same meld rules and
    points share them (the solver's tables live as long as the process)."""
    tables = tables_for(ruleset, opening=False)
    known = _KNOCK_TABLES.get(id(tables))
    if known is not None and known.solver is tables:
        return known
    windows = [window for length in sorted(tables.windows) for window in tables.windows[length]]
    runs: list[tuple[int, int, _Meld]] = []
    for suit in range(4):
        for _, offsets in windows:
            order = tuple(suit * 13 + offset for offset in offsets)
            mask = _mask_of(order)
            runs.append((mask, min(order), _Meld(mask, order, "run")))
    run_ranks = frozenset(frozenset(offset + 1 for offset in offsets) for _, offsets in windows)
    known = _KNOCK_TABLES[id(tables)] = _KnockTables(tables, tuple(runs), run_ranks)
    return known


class _Referee:
    """One knock decision: both hands as masks, one solver, and what has been worked out."""

    def __init__(self, ruleset: Ruleset, *, knocker: int, defender: int) -> None:
        self.ruleset = ruleset
        self.knocker = knocker
        self.defender = defender
        self.solver = Solver(ruleset)
        tables = _knock_tables(ruleset)
        self._tables = tables.solver
        self._values = tables.solver.points
        self._runs = tables.runs
        self._run_ranks = tables.run_ranks
        self._deadwood: dict[int, int] = {}
        self._options: dict[int, list[int]] = {}

    def points_of(self, mask: int) -> int:
        return self._tables.points_of(mask)

    def deadwood(self, mask: int) -> int:
        """The least deadwood the defender's cards ``mask`` can leave."""
        points = self._deadwood.get(mask)
        if points is None:
            points = self._deadwood[mask] = self.solver.best(_cards(mask)).deadwood_points
        return points

    def arrangements(self, limit: int) -> Iterator[tuple[_Meld, ...]]:
        """Every choice of disjoint melds in the knocker's hand leaving at most ``limit`` deadwood."""
        hand, rules = self.knocker, self.ruleset
        by_low: dict[int, list[_Meld]] = {}
        for rank in range(13):
            present = [s * 13 + rank for s in range(4) if hand >> (s * 13 + rank) & 1]
            for size in range(rules.set_min, min(rules.set_max, len(present)) + 1):
                for cards in combinations(present, size):
                    by_low.setdefault(cards[0], []).append(_Meld(_mask_of(cards), cards, "set"))
        for mask, low, meld in self._runs:
            if hand & mask == mask:
                by_low.setdefault(low, []).append(meld)

        def walk(left: int, spent: int, chosen: tuple[_Meld, ...]) -> Iterator[tuple[_Meld, ...]]:
            if not left:
                yield chosen
                return
            low = _low(left)  # every lower card is decided: it is deadwood or starts a meld
            if spent + self._values[low] <= limit:
                yield from walk(left & ~(1 << low), spent + self._values[low], chosen)
            for meld in by_low.get(low, ()):
                if left & meld.mask == meld.mask:
                    yield from walk(left & ~meld.mask, spent, (*chosen, meld))

        yield from walk(hand, 0, ())

    def layoff_options(self, meld: _Meld) -> list[int]:
        """Each group of the defender's cards that can be laid off on ``meld`` (0: none)."""
        options = self._options.get(meld.mask)
        if options is not None:
            return options
        options = [0]
        if meld.kind == "set":
            rank = meld.order[0] % 13
            held = [s * 13 + rank for s in range(4) if self.defender >> (s * 13 + rank) & 1]
            for size in range(1, min(self.ruleset.set_max - len(meld.order), len(held)) + 1):
                options.extend(_mask_of(cards) for cards in combinations(held, size))
        else:
            # A run grows card by card at either end and each step is a run, so the
            # layoffs are a held cards below and b above whose ranks make a legal run.
            below, above = self._reach(meld, step=-1), self._reach(meld, step=1)
            ranks = {i % 13 + 1 for i in meld.order}
            for a in range(len(below) + 1):
                for b in range(len(above) + 1):
                    extra = below[:a] + above[:b]
                    grown = frozenset(ranks | {i % 13 + 1 for i in extra})
                    if extra and len(grown) == len(ranks) + len(extra) and grown in self._run_ranks:
                        options.append(_mask_of(extra))
        self._options[meld.mask] = options
        return options

    def _reach(self, meld: _Meld, *, step: int) -> list[int]:
        """The defender's cards beyond the run's low (-1) or high (1) end, up to a gap."""
        suit, rank = divmod(meld.order[0] if step < 0 else meld.order[-1], 13)
        cards: list[int] = []
        for _ in range(13 - len(meld.order)):
            rank = (rank + step) % 13
            if not self.defender >> (suit * 13 + rank) & 1:
                break
            cards.append(suit * 13 + rank)
        return cards

    def reply(self, layout: tuple[_Meld, ...]) -> tuple[int, tuple[int, ...]]:
        """The defender's least deadwood after laying off on ``layout``, and the cards per meld."""
        nothing: tuple[int, ...] = ()
        best = (self.deadwood(self.defender), 0, nothing), (0,) * len(layout)
        for combo in product(*(self.layoff_options(m) for m in layout)):
            laid = 0
            for option in combo:
                if laid & option:
                    break
                laid |= option
            else:
                key = (self.deadwood(self.defender & ~laid), laid.bit_count(), tuple(_indices(laid)))
                if key < best[0]:
                    best = key, combo
        return best[0][0], best[1]

    def judge(self, layout: tuple[_Meld, ...], *, knocker_points: int, big: bool) -> _Result:
        rules = self.ruleset
        if knocker_points == 0:
            if rules.layoff_after_gin:
                defender_points, laid = self.reply(layout)
            else:
                defender_points, laid = self.deadwood(self.defender), (0,) * len(layout)
        else:
            defender_points, laid = self.reply(layout)
        outcome, winner, points = _settle(
            knocker_points=knocker_points, defender_points=defender_points, big=big, ruleset=rules
        )
        return _Result(outcome, winner, points, laid)

    def knocker_side(self, layout: tuple[_Meld, ...]) -> KnockerSide:
        left = self.knocker & ~_union(m.mask for m in layout)
        return KnockerSide(tuple(_cards(m.order) for m in layout), _cards(left), self.points_of(left))

    def defender_side(self, layout: tuple[_Meld, ...], laid: tuple[int, ...]) -> DefenderSide:
        layoffs: list[Layoff] = []
        for number, (meld, option) in enumerate(zip(layout, laid, strict=True)):
            if option:
                cards = _cards(option)
                grown = check_meld([*_cards(meld.order), *cards], self.ruleset).meld
                layoffs.append(Layoff(number, tuple(c for c in grown if c in cards)))
        side = _side(self.solver.best(_cards(self.defender & ~_union(laid))))
        return DefenderSide(side.melds, tuple(layoffs), side.deadwood, side.deadwood_points)

    def illegal(self, reason: Message | None, *, knocker: KnockerSide) -> KnockVerdict:
        side = self.defender_side((), ())
        return KnockVerdict(False, reason, None, None, 0, knocker, side)


# -- input and reasons ----------------------------------------------------------------


def _hand_size(ruleset: Ruleset) -> int:
    size = ruleset.cards_dealt.get(ruleset.players_min)
    if size is None:
        raise IllegalPlayError(
            Message("knock.no_hand_size", id=repr(ruleset.id), players=ruleset.players_min)
        )
    return size


def _validate(
    *, knocker: CardsLike, defender: CardsLike, ruleset: Ruleset, upcard: CardsLike | None
) -> tuple[tuple[Card, ...], tuple[Card, ...], Card | None]:
    name = ruleset.named
    if ruleset.family != "gin":
        raise IllegalPlayError(
            Message("knock.not_gin", id=repr(ruleset.id), name=name, family=Word(ruleset.family))
        )
    size = _hand_size(ruleset)
    hand, rest = parse_cards(knocker), parse_cards(defender)
    text = {"knocker": format_cards(hand), "defender": format_cards(rest)}
    if len(hand) not in (size, size + 1):
        raise IllegalPlayError(
            Message(
                "knock.knocker_size",
                size=size,
                big=size + 1,
                name=name,
                count=len(hand),
                text=repr(text["knocker"]),
            )
        )
    if len(rest) != size:
        raise IllegalPlayError(
            Message("knock.defender_size", size=size, name=name, count=len(rest), text=repr(text["defender"]))
        )
    seen: dict[Card, str] = {}
    for who, cards in (("knocker", hand), ("defender", rest)):
        for card in cards:
            if card.is_joker:
                raise IllegalPlayError(
                    Message("knock.hand_joker", who=Whose(who), text=repr(text[who]), name=name)
                )
            if card in seen:
                hands = {"knocker": repr(text["knocker"]), "defender": repr(text["defender"])}
                if seen[card] == who:
                    twice = Message(
                        "knock.card_twice_in_hand", card=str(card), who=Whose(who), **hands, name=name
                    )
                    raise IllegalPlayError(twice)
                raise IllegalPlayError(Message("knock.card_in_both", card=str(card), **hands, name=name))
            seen[card] = who
    if upcard is None:
        return hand, rest, None
    up = parse_cards(upcard)
    if len(up) != 1:
        raise IllegalPlayError(Message("knock.upcard_one", text=repr(format_cards(up))))
    # The upcard is one of the deck's cards and either player may have taken it,
    # so at the knock it may well be in a hand: only a joker is out of place.
    if up[0].is_joker:
        raise IllegalPlayError(Message("knock.upcard_joker_no_jokers", card=str(up[0]), name=name))
    return hand, rest, up[0]


def _declared(melds: str | Sequence[CardsLike], *, hand: tuple[Card, ...]) -> Melds:
    """The declared melds, every card from the knocker's hand and used once."""
    parsed = parse_melds(melds)
    used: set[Card] = set()
    for number, meld in enumerate(parsed, start=1):
        for card in meld:
            if card not in hand:
                raise IllegalPlayError(
                    Message(
                        "knock.declared_not_in_hand",
                        number=number,
                        meld=repr(format_cards(meld)),
                        card=str(card),
                        hand=repr(format_cards(hand)),
                    )
                )
            if card in used:
                raise IllegalPlayError(
                    Message("knock.declared_twice", card=str(card), melds=repr(format_melds(parsed)))
                )
            used.add(card)
    return parsed


def _over_limit(points: int, *, big: bool, limit: int, ruleset: Ruleset, upcard: Card | None) -> Message:
    if big:
        size = _hand_size(ruleset) + 1
        return Message("knock.big_gin_melded", size=size, all=size, points=points)
    over: dict[str, Param] = {"points": points, "limit": limit, "name": ruleset.named}
    if ruleset.knock_limit_source == "upcard" and upcard is not None:
        code = "knock.over_limit_ace" if limit == 0 else "knock.over_limit_upcard"
        return Message(code, **over, card=str(upcard))
    if limit == 0:
        return Message("knock.over_limit_gin", **over)
    return Message("knock.over_limit", **over)


# -- cards as bit masks of their indices ------------------------------------------------


def _side(arrangement: Arrangement) -> KnockerSide:
    return KnockerSide(arrangement.melds, arrangement.deadwood, arrangement.deadwood_points)


def _mask(cards: Iterable[Card]) -> int:
    return _mask_of(c.index for c in cards)


def _mask_of(indices: Iterable[int]) -> int:
    return _union(1 << i for i in indices)


def _union(masks: Iterable[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _indices(mask: int) -> Iterator[int]:
    while mask:
        yield _low(mask)
        mask &= mask - 1


def _cards(mask_or_order: int | Iterable[int]) -> tuple[Card, ...]:
    """The cards of a mask (in index order) or of card indices (in their order)."""
    indices = _indices(mask_or_order) if isinstance(mask_or_order, int) else mask_or_order
    return tuple(DECK[i] for i in indices)
