"""The Kalooki opening: is a first meld worth enough, and could this hand open?

A player's first meld ("opening") in Kalooki (docs/rules.md, Kalooki) must be worth at
least the ruleset's ``opening_minimum``: 2-10 face value, J Q K 10, A 15, a joker
as the card it stands for. Where ``opening_counts_layoffs`` says so, cards laid off
on other players' melds in the same turn count too. A ruleset with no minimum
(``opening_minimum = 0``) only has its melds checked.

The layoffs are checked against the melds they go onto when those are given
(``onto``): each card must extend one of them legally (:func:`scorer.melds.check_layoff`;
cards laid off one after another may extend the same meld), and only the cards
that fit count. Without ``onto`` the layoffs are taken as the player states them
(``layoffs_checked`` is false).

>>> from scorer.ruleset import load_ruleset
>>> kalooki = load_ruleset("kalooki")
>>> check_opening(melds="9H TH JH | 4S 4D 4C", ruleset=kalooki).reason
'opening worth 41, Kalooki needs at least 51'
>>> verdict = check_opening(melds="QH KH * | 7S 7D 7C", ruleset=kalooki)
>>> verdict.valid, verdict.value, format_melds(verdict.melds)
(True, 56, 'QH KH *=AH | 7S 7D 7C')
>>> best_opening("5H 6H 7H 8H 2C 2D KS", kalooki).reason
'the best opening in this hand is worth 26, Kalooki needs at least 51'
>>> check_opening(melds="KS KH KD | 6C 7C 8C", layoffs="9D 2C", onto="6D 7D 8D", ruleset=kalooki).reason
'layoff 2C fits none of the melds on the table: 6D 7D 8D'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from scorer.cards import Card, CardsLike, format_cards, format_melds, parse_cards, parse_melds, sort_key
from scorer.errors import IllegalPlayError
from scorer.frozen import Frozen
from scorer.melds import MeldCheck, Reading, check_layoff, check_meld
from scorer.messages import Message, Param, join
from scorer.ruleset import Ruleset, require_card_supply
from scorer.solver import Solver


class OpeningVerdict(Frozen):
    """The verdict on an opening.

    ``melds`` are the melds as read, each joker declared as the card that gives the
    meld its highest value; ``value`` counts the layoffs only where the ruleset
    lets them count. When a meld is not legal, ``value`` counts the legal melds
    (and the layoffs) only, and ``reason`` names the meld that is not.

    ``layoffs_checked`` says whether the layoffs were checked against the melds on
    the table; then ``layoff_onto`` gives, for each layoff, the index of the table
    meld it extends, or ``None`` for a card that fits none (which does not count,
    and makes the opening invalid: that card cannot be laid off).
    """

    __slots__ = (
        "layoff_onto",
        "layoffs",
        "layoffs_checked",
        "melds",
        "message",
        "required",
        "valid",
        "value",
    )

    valid: bool
    value: int
    required: int
    message: Message | None
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[Card, ...]
    layoffs_checked: bool
    layoff_onto: tuple[int | None, ...]

    def __init__(
        self,
        valid: bool,
        value: int,
        required: int,
        message: Message | None,
        melds: tuple[tuple[Card, ...], ...],
        layoffs: tuple[Card, ...] = (),
        layoffs_checked: bool = False,
        layoff_onto: tuple[int | None, ...] = (),
    ) -> None:
        self._fill(valid, value, required, message, melds, layoffs, layoffs_checked, layoff_onto)

    @property
    def reason(self) -> str | None:
        """Why this does not open, in English (``message`` is the reason as a value)."""
        return None if self.message is None else str(self.message)

    def __str__(self) -> str:
        verdict = "opens" if self.valid else f"does not open: {self.reason}"
        laid = f" + layoffs {format_cards(self.layoffs)}" if self.layoffs else ""
        return f"{format_melds(self.melds)}{laid} (worth {self.value}) {verdict}"


def _reading_value(reading: Reading, ruleset: Ruleset) -> int:
    return sum(ruleset.opening_points(card.stands_for or card) for card in reading.cards)


def check_opening(
    *,
    melds: str | Sequence[CardsLike],
    ruleset: Ruleset,
    layoffs: CardsLike = (),
    onto: str | Sequence[CardsLike] | None = None,
) -> OpeningVerdict:
    """Is this opening, the ``melds`` and same-turn ``layoffs`` on others' melds, worth enough?

    ``onto`` are the other players' melds on the table: given, each layoff must
    extend one of them and only what fits counts; ``None`` takes the layoffs on
    trust. A joker laid off must be declared (``*=7H``). Raises
    :class:`IllegalPlayError` for no cards at all, an undeclared joker among the
    layoffs, a table meld that is not legal, or more copies of a card than the
    ruleset's decks hold.
    """
    groups = parse_melds(melds)
    laid = parse_cards(layoffs)
    table = None if onto is None else parse_melds(onto)
    if not groups and not laid:
        raise IllegalPlayError(Message("opening.opening_empty"))
    on_table = [card for meld in table or () for card in meld]
    require_card_supply(
        [*(card for group in groups for card in group), *laid, *on_table],
        ruleset,
        where="in the melds, layoffs and table melds" if table else "in the melds and layoffs",
    )
    for position, card in enumerate(laid, start=1):
        if card.is_joker and card.stands_for is None:
            raise IllegalPlayError(
                Message("opening.layoff_undeclared", number=position, text=repr(format_cards(laid)))
            )

    read: list[tuple[Card, ...]] = []
    problems: list[Message] = []
    meld_value = 0
    for number, group in enumerate(groups, start=1):
        check = check_meld(group, ruleset)
        if check.message is not None:
            problems.append(Message("opening.meld_number", number=number, reason=check.message))
            read.append(group)
            continue
        # max() keeps the first of equal readings, so the verdict is deterministic.
        best = max(check.readings, key=lambda reading: _reading_value(reading, ruleset))
        read.append(best.cards)
        meld_value += _reading_value(best, ruleset)
    placed: tuple[int | None, ...] = ()
    if table is not None:
        placed = fit_layoffs(laid, table=table, ruleset=ruleset)
        unfit = [card for card, where in zip(laid, placed, strict=True) if where is None]
        if unfit:
            several = len(unfit) > 1
            shown = format_cards(unfit) if several else str(unfit[0])
            code = "opening.layoffs_fit" if several else "opening.layoff_fits"
            if table:
                problem = Message(code + "_none", cards=shown, table=format_melds(table))
            else:
                problem = Message(code + "_no_table", cards=shown)
            problems.insert(0, problem)
    counted = (
        laid if table is None else [c for c, where in zip(laid, placed, strict=True) if where is not None]
    )
    layoff_value = sum(_card_value(card, ruleset) for card in counted)
    counts_layoffs = ruleset.opening_counts_layoffs
    value = meld_value + (layoff_value if counts_layoffs else 0)
    required = ruleset.opening_minimum

    def verdict(reason: Message | None) -> OpeningVerdict:
        return OpeningVerdict(
            reason is None, value, required, reason, tuple(read), laid, table is not None, placed
        )

    if problems:
        return verdict(
            problems[0]
            if len(problems) == 1
            else Message("opening.problems", problems=join(problems, sep="; "))
        )
    if not groups and not ruleset.layoff_before_own_meld:
        return verdict(Message("opening.layoffs_alone", name=ruleset.named))
    if value >= required:
        return verdict(None)
    short: dict[str, Param] = {"value": value, "name": ruleset.named, "required": required}
    if laid and counts_layoffs:
        return verdict(
            Message("opening.opening_short_layoffs", **short, melds=meld_value, layoffs=layoff_value)
        )
    if laid:
        return verdict(Message("opening.opening_short_no_layoffs", **short))
    return verdict(Message("opening.opening_short", **short))


def _card_value(card: Card, ruleset: Ruleset) -> int:
    return ruleset.opening_points(card.stands_for or card)


def fit_layoffs(
    laid: Sequence[Card], *, table: Sequence[Sequence[Card]], ruleset: Ruleset
) -> tuple[int | None, ...]:
    """Where each laid-off card goes on the ``table`` melds: the placement that lays off most value.

    The result gives, per card, the index of the meld it extends, or ``None`` for a
    card that fits none. Cards laid off on one meld are checked together
    (:func:`scorer.melds.check_layoff`), so 4H and 5H both fit 6H 7H 8H though 4H
    alone does not. Exact: every group of cards that can extend each meld, then
    the best choice of disjoint groups, meld by meld.

    >>> from scorer.ruleset import load_ruleset
    >>> table = parse_melds("6H 7H 8H | 9H 9D 9C")
    >>> fit_layoffs(parse_cards("4H 5H 9S 2C"), table=table, ruleset=load_ruleset("kalooki"))
    (0, 0, 1, None)
    """
    checks = [check_meld(meld, ruleset) for meld in table]
    for number, (meld, check) in enumerate(zip(table, checks, strict=True), start=1):
        if check.message is not None:
            raise IllegalPlayError(
                Message(
                    "opening.table_meld_quoted",
                    number=number,
                    meld=repr(format_cards(meld)),
                    reason=check.message,
                )
            )
    fitting = [[card for card in laid if _may_extend(card, check)] for check in checks]
    groups = [_layoff_groups(meld, cards, ruleset) for meld, cards in zip(table, fitting, strict=True)]
    # later[i]: the cards that could still go on meld i or after, so that the search's
    # states forget cards no later meld can take.
    later = [set(card for cards in fitting[i:] for card in cards) for i in range(len(table) + 1)]

    @cache
    def best(i: int, left: tuple[Card, ...]) -> tuple[int, tuple[tuple[Card, ...], ...]]:
        if i == len(table):
            return 0, ()
        value, plan = best(i + 1, _keep(left, later[i + 1]))
        choice: tuple[tuple[Card, ...], ...] = ((), *plan)
        pool = Counter(left)
        for group in groups[i]:
            need = Counter(group)
            if need <= pool:
                rest, rest_plan = best(i + 1, _keep(tuple((pool - need).elements()), later[i + 1]))
                gained = rest + sum(_card_value(card, ruleset) for card in group)
                if gained > value:
                    value, choice = gained, (group, *rest_plan)
        return value, choice

    _, plan = best(0, _keep(tuple(laid), later[0]))
    placed: list[int | None] = [None] * len(laid)
    for onto, group in enumerate(plan):
        for card in group:
            k = next(k for k, other in enumerate(laid) if other == card and placed[k] is None)
            placed[k] = onto
    return tuple(placed)


def _keep(cards: Sequence[Card], wanted: set[Card]) -> tuple[Card, ...]:
    return tuple(sorted((card for card in cards if card in wanted), key=sort_key))


def _layoff_groups(meld: Sequence[Card], cards: Sequence[Card], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """Every group of ``cards`` that can be laid off on ``meld`` together, in canonical order.

    Grown one card at a time: a group that can be laid off stays one without its
    outermost card (a run's end, any card of a set), so every group is reached
    through smaller groups that can be laid off too.
    """
    supply = Counter(cards)
    kinds = sorted(supply, key=sort_key)
    seen: set[tuple[Card, ...]] = {()}
    frontier: list[tuple[Card, ...]] = [()]
    found: list[tuple[Card, ...]] = []
    while frontier:
        grown: list[tuple[Card, ...]] = []
        for group in frontier:
            for card in kinds:
                bigger = tuple(sorted((*group, card), key=sort_key))
                if bigger in seen or bigger.count(card) > supply[card]:
                    continue
                seen.add(bigger)
                if check_layoff(meld, bigger, ruleset).valid:
                    grown.append(bigger)
        found.extend(grown)
        frontier = grown
    return found


def _may_extend(card: Card, check: MeldCheck) -> bool:
    """Could ``card`` belong to the table meld at all: a joker, the set's rank or the run's suit."""
    real = card.stands_for or card
    shown = [c.stands_for or c for c in check.meld if not c.is_joker or c.stands_for]
    if real.is_joker or not shown:
        return True
    return ("set" in check.kinds and real.rank == shown[0].rank) or (
        "run" in check.kinds and real.suit == shown[0].suit
    )


def best_opening(hand: CardsLike, ruleset: Ruleset) -> OpeningVerdict:
    """Could this hand open? The most valuable set of disjoint melds in it, and the verdict.

    The search is :class:`scorer.solver.Solver` with the ``opening`` objective:
    exact, a joker counted as the card it is declared to stand for in ``melds``.
    """
    cards = parse_cards(hand)
    require_card_supply(cards, ruleset, where="in the hand")
    arrangement = Solver(ruleset, objective="opening").best(cards)
    value, required = arrangement.value, ruleset.opening_minimum
    reason: Message | None = None
    if not arrangement.melds:
        reason = Message("opening.hand_no_meld", name=ruleset.named)
    elif value < required:
        reason = Message("opening.hand_short", value=value, name=ruleset.named, required=required)
    return OpeningVerdict(reason is None, value, required, reason, arrangement.melds)
