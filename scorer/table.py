"""Carousel table rearrangement: may a player rebuild the table like this?

docs/rules.md, Carousel. A player puts cards from the hand on the table and may
rearrange every meld there, as long as (a) at least one card came from the hand,
(b) no card leaves the table, (c) every group ends as a legal set or run, and the
jokers keep their cards: (d) a joker's card changes only when the real card
replaces it, from the hand or from another table meld, and (e) a replaced joker
stays on the table. (f) A player's first meld holds a legal set or run made of
cards from the hand alone.

Only the table before and after is known, not the moves between, so rule (d) is a
count per card X: every card a joker stood for before is still on the table
after, as a joker standing for X or as the real X, each real X standing in for at
most one joker: ``jokers for X after + real X after >= jokers for X before``. So
a joker may move to another meld where it stands for the same card.

>>> from scorer.ruleset import load_ruleset
>>> carousel = load_ruleset("carousel")
>>> check_rearrangement(before="5H 6H 7H | 9S 9D *=9C", from_hand="9C 8H",
...                     after="5H 6H 7H 8H * | 9S 9D 9C", ruleset=carousel).valid
True
>>> check_rearrangement(before="5H 6H 7H | 9S 9D *=9C", from_hand="9C",
...                     after="5H 6H 7H | 9S 9D 9C", ruleset=carousel).reason
'the joker replaced by 9C must stay on the table this turn'
>>> [str(move) for move in joker_moves(table="9S 9D *=9C | 9C TC JC QC", hand="9C", ruleset=carousel)]
['9C from the hand frees *=9C in meld 1', '9C from meld 2 frees *=9C in meld 1']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement, product

from scorer.cards import JOKER, Card, CardsLike, Melds, format_cards, parse_cards, parse_melds, sort_key
from scorer.errors import IllegalPlayError
from scorer.frozen import Frozen
from scorer.melds import check_meld
from scorer.messages import Message, join
from scorer.ruleset import Ruleset, require_card_supply

#: One way to read a legal group: the cards its jokers stand for (sorted), and
#: the group with every joker declared.
_JokerReading = tuple[tuple[Card, ...], tuple[Card, ...]]


class TableVerdict(Frozen):
    """The verdict on a rearrangement; when legal, ``melds`` are the groups after as read."""

    __slots__ = ("melds", "message", "valid")

    valid: bool
    message: Message | None
    melds: Melds

    def __init__(self, valid: bool, message: Message | None, melds: Melds = ()) -> None:
        self._fill(valid, message, melds)

    @property
    def reason(self) -> str | None:
        """Why the rearrangement is illegal, in English (``message`` is the reason as a value)."""
        return None if self.message is None else str(self.message)


class JokerMove(Frozen):
    """A real card that can replace a joker on the table, and so free it.

    ``meld`` numbers the table meld holding the joker (from 1); ``from_meld`` the
    table meld the card is taken from, or ``None`` for the hand.
    """

    __slots__ = ("card", "from_meld", "joker", "meld")

    meld: int
    joker: Card
    card: Card
    from_meld: int | None

    def __init__(self, meld: int, joker: Card, card: Card, from_meld: int | None = None) -> None:
        self._fill(meld, joker, card, from_meld)

    def __str__(self) -> str:
        source = "the hand" if self.from_meld is None else f"meld {self.from_meld}"
        return f"{self.card} from {source} frees {self.joker} in meld {self.meld}"


def _require_manipulation(ruleset: Ruleset) -> None:
    if not ruleset.table_manipulation:
        raise IllegalPlayError(Message("table.no_table_rule", name=ruleset.named))


def _text(cards: Iterable[Card]) -> str:
    return format_cards(sorted(cards, key=sort_key))


def _several(code: str, cards: Counter[Card]) -> Message:
    """The message ``code`` about ``cards``: its ``_one`` form for one card."""
    return Message(code if cards.total() > 1 else code + "_one", cards=_text(cards.elements()))


def _why(group: tuple[Card, ...], ruleset: Ruleset) -> Message:
    """Why ``group`` is no meld."""
    return check_meld(group, ruleset).message or Message("meld.rank_or_suit")


def _joker_readings(group: tuple[Card, ...], ruleset: Ruleset) -> list[_JokerReading]:
    """Every distinct reading of the jokers in ``group``; empty when it is no legal meld.

    check_meld gives each free joker's options; trying every multiset of them,
    declared, finds the legal combinations (a set's readings name one choice of
    suits for its jokers, and the table may hold any other).
    """
    check = check_meld(group, ruleset)
    if not check.valid:
        return []
    fixed = [card for card in group if not card.is_joker or card.stands_for is not None]
    free = len(group) - len(fixed)
    declared = [card.stands_for for card in fixed if card.stands_for is not None]
    options = sorted({option for choices in check.joker_options for option in choices}, key=sort_key)
    found: dict[tuple[Card, ...], tuple[Card, ...]] = {}
    for choice in combinations_with_replacement(options, free):
        trial = check_meld([*fixed, *(Card.joker(card) for card in choice)], ruleset)
        if trial.valid:
            found.setdefault(tuple(sorted([*declared, *choice], key=sort_key)), trial.readings[0].cards)
    return sorted(found.items(), key=lambda item: [sort_key(card) for card in item[0]])


def _table_jokers(groups: Melds, ruleset: Ruleset) -> tuple[Counter[Card], Melds]:
    """The cards the table's jokers stand for, and the melds read; raises for an illegal table."""
    stands_for: Counter[Card] = Counter()
    read: list[tuple[Card, ...]] = []
    for number, group in enumerate(groups, start=1):
        readings = _joker_readings(group, ruleset)
        if not readings:
            raise IllegalPlayError(
                Message("table.table_meld_number", number=number, reason=_why(group, ruleset))
            )
        if len(readings) > 1:
            choices = join((format_cards(cards) for cards, _ in readings), last="or")
            raise IllegalPlayError(
                Message(
                    "table.declare_table_joker", number=number, cards=format_cards(group), choices=choices
                )
            )
        stands_for.update(readings[0][0])
        read.append(readings[0][1])
    return stands_for, tuple(read)


def _conservation(
    *, before: Melds, hand: tuple[Card, ...], after: Melds, jokers: Counter[Card]
) -> Message | None:
    """Rules (b) and (e): the cards after are exactly those before plus those from the hand."""
    on_table = Counter(card.undeclared for group in before for card in group)
    placed = Counter(card.undeclared for group in after for card in group)
    supply = on_table + Counter(card.undeclared for card in hand)
    missing, extra = supply - placed, placed - supply
    left_table = missing & on_table
    problems: list[Message] = []
    if left_table[JOKER]:
        # A joker went missing: name the card that replaced it, if a real one did.
        replaced = [card for card in sorted(jokers, key=sort_key) if placed[card] > on_table[card]]
        replaced = replaced or [card for card in sorted(jokers, key=sort_key) if placed[card]]
        if replaced:
            problems.append(Message("table.replaced_joker_stays", card=str(replaced[0])))
        else:
            problems.append(Message("table.joker_left"))
        del left_table[JOKER]
    if left_table:
        problems.append(Message("table.cards_left", cards=_text(left_table.elements())))
    unplaced = missing - on_table
    if unplaced:
        problems.append(_several("table.hand_cards_unplaced", unplaced))
    if extra:
        problems.append(_several("table.cards_from_nowhere", extra))
    if len(problems) > 1:
        return Message("table.problems", problems=join(problems, sep="; "))
    return problems[0] if problems else None


def _keep_jokers(
    readings: list[list[_JokerReading]], *, naturals: Counter[Card], jokers: Counter[Card]
) -> Melds | None:
    """Rule (d): one reading per group in which every joker's card is still on the table."""
    if not jokers:
        return tuple(options[0][1] for options in readings)
    for choice in product(*readings):
        stand_ins = Counter(card for cards, _ in choice for card in cards)
        if all(stand_ins[card] + naturals[card] >= count for card, count in jokers.items()):
            return tuple(group for _, group in choice)
    return None


def _joker_reason(
    readings: list[list[_JokerReading]], *, naturals: Counter[Card], jokers: Counter[Card]
) -> Message:
    for card in sorted(jokers, key=sort_key):
        most = sum(max(cards.count(card) for cards, _ in options) for options in readings)
        if most + naturals[card] < jokers[card]:
            return Message("table.joker_keeps_card", card=str(card))
    cards = join(_text(jokers).split(" "), last="and", each=True)
    return Message("table.jokers_keep_cards", cards=cards)


def check_rearrangement(
    *,
    before: str | Sequence[CardsLike],
    from_hand: CardsLike,
    after: str | Sequence[CardsLike],
    ruleset: Ruleset,
    first: bool = False,
) -> TableVerdict:
    """Is turning the table ``before`` into ``after``, with ``from_hand`` added, legal?

    Raises :class:`IllegalPlayError` when the ruleset has no table manipulation,
    when the table before holds an illegal meld or a joker whose card is not
    settled (declare it: ``*=6H``), or more copies of a card than the decks hold.
    ``first`` marks the player's first meld (rule (f), where ``first_meld_whole``).
    """
    _require_manipulation(ruleset)
    old, hand, new = parse_melds(before), parse_cards(from_hand), parse_melds(after)
    require_card_supply(
        [*(card for group in old for card in group), *hand], ruleset, where="on the table and from the hand"
    )
    jokers, _ = _table_jokers(old, ruleset)
    if not hand:
        return TableVerdict(False, Message("table.table_needs_hand"))
    problem = _conservation(before=old, hand=hand, after=new, jokers=jokers)
    if problem:
        return TableVerdict(False, problem)
    readings: list[list[_JokerReading]] = []
    for number, group in enumerate(new, start=1):
        options = _joker_readings(group, ruleset)
        if not options:
            return TableVerdict(
                False, Message("table.group_after", number=number, reason=_why(group, ruleset))
            )
        readings.append(options)
    naturals = Counter(card for group in new for card in group if not card.is_joker)
    melds = _keep_jokers(readings, naturals=naturals, jokers=jokers)
    if melds is None:
        return TableVerdict(False, _joker_reason(readings, naturals=naturals, jokers=jokers))
    if first and ruleset.first_meld_whole:
        from_hand_only = Counter(card.undeclared for card in hand)
        if not any(Counter(card.undeclared for card in group) <= from_hand_only for group in new):
            return TableVerdict(False, Message("table.first_meld_whole"))
    return TableVerdict(True, None, melds)


def joker_moves(
    *, table: str | Sequence[CardsLike], hand: CardsLike, ruleset: Ruleset
) -> tuple[JokerMove, ...]:
    """Which real cards could replace each joker on the table, and so free it?

    For each joker (its card settled: declared, or the only reading of its meld),
    the real card it stands for, from the hand, or from another table meld whose
    other cards still form a legal meld without it. Kept simple: a card cut from
    the middle of a run (leaving two runs) is not offered, and the freed joker
    must still find a place on the table this turn, which is not checked here.
    """
    _require_manipulation(ruleset)
    groups, cards = parse_melds(table), parse_cards(hand)
    require_card_supply(
        [*(card for group in groups for card in group), *cards], ruleset, where="on the table and in the hand"
    )
    _, read = _table_jokers(groups, ruleset)
    moves: list[JokerMove] = []
    for number, group in enumerate(read, start=1):
        for joker in (card for card in group if card.is_joker):
            real = joker.stands_for
            if real is None:  # _table_jokers settles every joker's card
                continue
            if real in cards:
                moves.append(JokerMove(number, joker, real))
            for donor_number, donor in enumerate(groups, start=1):
                if donor_number == number or real not in donor:
                    continue
                rest = list(donor)
                rest.remove(real)
                if check_meld(rest, ruleset).valid:
                    moves.append(JokerMove(number, joker, real, donor_number))
    return tuple(dict.fromkeys(moves))
