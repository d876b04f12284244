"""Scoring one deal, for every family of docs/rules.md; every number from the ruleset.

- winner collects (basic rummy, block rummy): section 1;
- penalty points (rommi and its variants, Kalooki): section 2;
- knock (gin rummy and its variants): section 3, refereed by :mod:`scorer.knock`;
- lowest hand (Carousel): section 4.

>>> from scorer.ruleset import load_ruleset
>>> from scorer.deal import Deal
>>> deal = Deal.build(hands={"Anna": "", "Bea": "KS 5H", "Cid": "AC"}, out="Anna")
>>> score_deal(deal, players=["Anna", "Bea", "Cid"], ruleset=load_ruleset("basic-rummy")).scores
{'Anna': 16, 'Bea': 0, 'Cid': 0}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.deal import Deal, InvalidDealError, field_problem, validate_deal
from scorer.errors import IllegalPlayError
from scorer.knock import KnockVerdict, knock_limit, referee_knock, settle_knock
from scorer.messages import Message, Word
from scorer.ruleset import Ruleset
from scorer.solver import Solver


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a deal scores: points per player, what happened, who won the deal.

    ``messages`` say what happened, for a player (``events``: the same in English);
    ``marks`` are the same happenings as stable ``(player, key)`` pairs for statistics
    (keys: see :data:`EVENT_KEYS`).
    """

    scores: dict[str, int]
    messages: tuple[Message, ...]
    winners: tuple[str, ...]
    hand_points: dict[str, int]
    outcome: str
    marks: tuple[tuple[str, str], ...] = ()

    @property
    def events(self) -> tuple[str, ...]:
        """What happened, in English; each text remembers its message."""
        return tuple(str(message) for message in self.messages)


EVENT_KEYS: dict[str, str] = {
    "going_rummy": "went out in one turn (basic rummy's going rummy)",
    "kalooki": "went out in one turn (Kalooki: every other player pays the bonus)",
    "knock": "knocked with deadwood (gin rummy) or knocked (Carousel)",
    "gin": "knocked with no deadwood (gin rummy)",
    "big_gin": "melded every card including the draw (big gin)",
    "undercut": "undercut the knocker (gin rummy)",
    "go_out": "went out with no cards and won the deal (Carousel)",
}
"""The stable keys of :attr:`DealScore.marks`, each with what it counts."""


def _hand_points(
    deal: Deal, *, players: Sequence[str], ruleset: Ruleset, meld_first: bool = False
) -> dict[str, int]:
    """Points left in each hand: counted from the cards, or as entered."""
    if deal.points:
        return {p: deal.points.get(p, 0) for p in players}
    if meld_first:
        solver = Solver(ruleset)
        return {p: solver.best(deal.hands.get(p, ())).deadwood_points for p in players}
    return {p: ruleset.hand_points(deal.hands.get(p, ())) for p in players}


def _zero(players: Sequence[str]) -> dict[str, int]:
    return dict.fromkeys(players, 0)


def _ended(deal: Deal, ruleset: Ruleset, code: str) -> Message:
    """``ended: 'x' does not end a deal in ...``, in the words of ``code``."""
    return field_problem("ended", Message(code, value=repr(deal.ended), name=ruleset.named))


# -- winner collects ----------------------------------------------------------------------


def _winner_collects(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    scores = _zero(players)
    hands = _hand_points(deal, players=players, ruleset=ruleset)
    if deal.ended is not None:
        if deal.ended != "block" or not ruleset.block:
            raise InvalidDealError(_ended(deal, ruleset, "deal.ended_not_here_out"))
        return _block(hands, players=players, ruleset=ruleset)
    out = deal.out
    if out is None:
        raise InvalidDealError(field_problem("out", Message("deal.say_out")))
    total = sum(v for p, v in hands.items() if p != out)
    events = [Message("event.out_collects", player=out, total=total)]
    if deal.one_turn:
        if ruleset.going_rummy == "off":
            raise InvalidDealError(
                field_problem("one_turn", Message("deal.no_one_turn_bonus", name=ruleset.named))
            )
        if ruleset.going_rummy == "double":
            total *= ruleset.going_rummy_multiplier
            multiplier = ruleset.going_rummy_multiplier
            events.append(Message("event.going_rummy_double", multiplier=multiplier, total=total))
        else:
            total += ruleset.going_rummy_bonus
            events.append(Message("event.going_rummy_bonus", bonus=ruleset.going_rummy_bonus, total=total))
    scores[out] = total
    marks = ((out, "going_rummy"),) if deal.one_turn else ()
    return DealScore(scores, tuple(events), (out,), hands, "out", marks)


def _block(hands: dict[str, int], *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    low = min(hands.values())
    lowest = tuple(p for p in players if hands[p] == low)
    if ruleset.block_scoring == "penalty":
        scores = {p: -hands[p] for p in players}
        return DealScore(scores, (Message("event.block_penalty"),), (), hands, "block")
    total = sum(v - low for v in hands.values())
    share = total // len(lowest)
    scores = {p: share if p in lowest else 0 for p in players}
    if len(lowest) == 1:
        event = Message("event.block_one", player=lowest[0], low=low, share=share)
    else:
        players_text = ", ".join(lowest)
        event = Message("event.block_shared", players=players_text, low=low, total=total, share=share)
    return DealScore(scores, (event,), lowest, hands, "block")


# -- penalty points -----------------------------------------------------------------------


def _penalty(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    if deal.ended is not None:
        if deal.ended != "stop" or not ruleset.stop:
            raise InvalidDealError(_ended(deal, ruleset, "deal.ended_not_here_empty"))
        hands = _hand_points(deal, players=players, ruleset=ruleset)
        return DealScore(dict(hands), (Message("event.stop"),), (), hands, "stop")
    out = deal.out
    if out is None:
        raise InvalidDealError(field_problem("out", Message("deal.say_out")))
    hands = _hand_points(deal, players=players, ruleset=ruleset, meld_first=ruleset.meld_whole_hand_first)
    scores = dict(hands)
    events = [Message("event.out_penalty", player=out)]
    if ruleset.meld_whole_hand_first and deal.hands:
        events.append(Message("event.melded_first"))
    if deal.one_turn:
        if not ruleset.kalooki_bonus:
            raise InvalidDealError(
                field_problem("one_turn", Message("deal.no_one_turn_bonus", name=ruleset.named))
            )
        for player in players:
            if player != out:
                scores[player] += ruleset.kalooki_bonus
        events.append(Message("event.kalooki", bonus=ruleset.kalooki_bonus))
    marks = ((out, "kalooki"),) if deal.one_turn else ()
    return DealScore(scores, tuple(events), (out,), hands, "out", marks)


# -- gin ----------------------------------------------------------------------------------


def _gin(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    if deal.dead:
        return DealScore(_zero(players), (Message("event.dead_hand"),), (), _zero(players), "dead")
    knocker = deal.knocker
    if knocker is None:
        raise InvalidDealError(field_problem("knocker", Message("deal.say_knocker")))
    defender = next(p for p in players if p != knocker)
    if deal.hands:
        try:
            verdict: KnockVerdict = referee_knock(
                knocker=deal.hands[knocker],
                defender=deal.hands[defender],
                ruleset=ruleset,
                melds=deal.melds.get(knocker),
                upcard=deal.upcard,
            )
        except IllegalPlayError as exc:  # hands the referee cannot read, named like every refusal
            raise InvalidDealError(field_problem("hands", exc.message)) from None
        if verdict.message is not None:
            illegal = Message("deal.knock_illegal", player=knocker, reason=verdict.message)
            raise InvalidDealError(field_problem("knocker", illegal))
        outcome, winner_role, points = verdict.outcome, verdict.winner, verdict.points
        hands = {knocker: verdict.knocker.deadwood_points, defender: verdict.defender.deadwood_points}
    else:
        limit = knock_limit(ruleset, deal.upcard)
        knocked = deal.deadwood[knocker]
        if knocked > limit:
            over = Message(
                "deal.deadwood_over_limit", player=knocker, points=knocked, limit=limit, name=ruleset.named
            )
            raise InvalidDealError(field_problem("deadwood", over))
        if deal.big_gin and knocked:
            raise InvalidDealError(
                field_problem("big_gin", Message("deal.big_gin_deadwood", player=knocker, points=knocked))
            )
        hands = {knocker: knocked, defender: deal.deadwood[defender]}
        outcome, winner_role, points = settle_knock(
            knocker_deadwood=knocked,
            defender_deadwood=deal.deadwood[defender],
            big_gin=deal.big_gin,
            ruleset=ruleset,
            upcard=deal.upcard,
        )
    winner = knocker if winner_role == "knocker" else defender
    scores = _zero(players)
    scores[winner] = points
    label = Word((outcome or "").replace("_", " "))
    kind = outcome or "knock"
    # An undercut knocker still knocked; the defender is credited with the undercut.
    marks = ((knocker, "knock"), (defender, "undercut")) if kind == "undercut" else ((knocker, kind),)
    scored = Message("event.knock", outcome=label, player=winner, points=points)
    return DealScore(scores, (scored,), (winner,), hands, kind, marks)


# -- Carousel -----------------------------------------------------------------------------


def _lowest_hand(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    hands = _hand_points(deal, players=players, ruleset=ruleset)
    if deal.ended is not None and (deal.ended != "stock_out" or not ruleset.stock_out_extra_turn):
        raise InvalidDealError(_ended(deal, ruleset, "deal.ended_not_here"))
    knocker = deal.knocker
    limit = ruleset.knock_limit
    if knocker is not None and limit is not None and hands[knocker] > limit:
        worth = Message(
            "deal.carousel_knock_limit",
            player=knocker,
            points=hands[knocker],
            limit=limit,
            name=ruleset.named,
        )
        raise InvalidDealError(field_problem("knocker", worth))
    went_out = {p for p in players if p == deal.out or (deal.hands and p in deal.hands and not deal.hands[p])}
    if deal.out is not None and hands[deal.out]:
        left = Message("deal.out_points_left", player=deal.out, points=hands[deal.out])
        raise InvalidDealError(field_problem("out", left))
    low = min(hands.values())
    lowest = [p for p in players if hands[p] == low]
    events: list[Message] = []
    bonus = 0
    if knocker is not None and knocker in lowest and len(lowest) > 1:
        lowest.remove(knocker)
        bonus = ruleset.knock_tie_bonus
        tied = ", ".join(lowest)
        events.append(Message("event.knock_tie", player=knocker, players=tied, bonus=bonus))
    elif knocker is not None and knocker not in lowest:
        bonus = ruleset.not_knocker_bonus
        beat = ", ".join(lowest)
        events.append(Message("event.beat_knocker", players=beat, player=knocker, bonus=bonus))
    elif deal.ended == "stock_out":
        events.append(Message("event.stock_out"))
    scores = _zero(players)
    marks: list[tuple[str, str]] = [(knocker, "knock")] if knocker is not None else []
    for winner in lowest:
        differences = sum(hands[p] - low for p in players if p != winner)
        scores[winner] = differences + bonus
        events.append(Message("event.lowest", player=winner, low=low, points=differences))
        if winner in went_out:
            scores[winner] += ruleset.going_out_bonus
            events.append(Message("event.out_bonus", player=winner, bonus=ruleset.going_out_bonus))
            marks.append((winner, "go_out"))
    outcome = "knock" if knocker else deal.ended or "out"
    return DealScore(scores, tuple(events), tuple(lowest), hands, outcome, tuple(marks))


def score_deal(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    """Validate the entry and score it; raises :class:`InvalidDealError` naming the problem."""
    validate_deal(deal, players=players, ruleset=ruleset)
    if ruleset.scoring == "winner_collects":
        return _winner_collects(deal, players=players, ruleset=ruleset)
    if ruleset.scoring == "penalty":
        return _penalty(deal, players=players, ruleset=ruleset)
    if ruleset.scoring == "knock":
        return _gin(deal, players=players, ruleset=ruleset)
    return _lowest_hand(deal, players=players, ruleset=ruleset)
