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

from scorer.deal import Deal, InvalidDealError, validate_deal
from scorer.knock import KnockVerdict, knock_limit, referee_knock, settle_knock
from scorer.ruleset import Ruleset
from scorer.solver import Solver


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a deal scores: points per player, what happened, who won the deal.

    ``events`` are sentences for a player; ``marks`` are the same happenings as stable
    ``(player, key)`` pairs for statistics (keys: see :data:`EVENT_KEYS`).
    """

    scores: dict[str, int]
    events: tuple[str, ...]
    winners: tuple[str, ...]
    hand_points: dict[str, int]
    outcome: str
    marks: tuple[tuple[str, str], ...] = ()


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


# -- winner collects ----------------------------------------------------------------------


def _winner_collects(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    scores = _zero(players)
    hands = _hand_points(deal, players=players, ruleset=ruleset)
    if deal.ended is not None:
        if deal.ended != "block" or not ruleset.block:
            raise InvalidDealError(
                f"ended: {deal.ended!r} does not end a deal in {ruleset.name}; "
                "a deal ends when someone goes out"
            )
        return _block(hands, players=players, ruleset=ruleset)
    out = deal.out
    if out is None:
        raise InvalidDealError("out: say who went out")
    total = sum(v for p, v in hands.items() if p != out)
    events = [f"{out} went out and collects {total}"]
    if deal.one_turn:
        if ruleset.going_rummy == "off":
            raise InvalidDealError(f"one_turn: {ruleset.name} has no bonus for going out in one turn")
        if ruleset.going_rummy == "double":
            total *= ruleset.going_rummy_multiplier
            events.append(f"going rummy: x{ruleset.going_rummy_multiplier} = {total}")
        else:
            total += ruleset.going_rummy_bonus
            events.append(f"going rummy: +{ruleset.going_rummy_bonus} = {total}")
    scores[out] = total
    marks = ((out, "going_rummy"),) if deal.one_turn else ()
    return DealScore(scores, tuple(events), (out,), hands, "out", marks)


def _block(hands: dict[str, int], *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    low = min(hands.values())
    lowest = tuple(p for p in players if hands[p] == low)
    if ruleset.block_scoring == "penalty":
        scores = {p: -hands[p] for p in players}
        return DealScore(scores, ("blocked: every player loses the points in hand",), (), hands, "block")
    total = sum(v - low for v in hands.values())
    share = total // len(lowest)
    scores = {p: share if p in lowest else 0 for p in players}
    if len(lowest) == 1:
        event = f"blocked: {lowest[0]} has the lowest hand ({low}) and collects {share}"
    else:
        event = f"blocked: {', '.join(lowest)} share the lowest hand ({low}): {total} split, {share} each"
    return DealScore(scores, (event,), lowest, hands, "block")


# -- penalty points -----------------------------------------------------------------------


def _penalty(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    if deal.ended is not None:
        if deal.ended != "stop" or not ruleset.stop:
            raise InvalidDealError(
                f"ended: {deal.ended!r} does not end a deal in {ruleset.name}; "
                "a deal ends when someone empties the hand"
            )
        hands = _hand_points(deal, players=players, ruleset=ruleset)
        return DealScore(dict(hands), ("stop: every player scores the points in hand",), (), hands, "stop")
    out = deal.out
    if out is None:
        raise InvalidDealError("out: say who went out")
    hands = _hand_points(deal, players=players, ruleset=ruleset, meld_first=ruleset.meld_whole_hand_first)
    scores = dict(hands)
    events = [f"{out} went out; the others score the points left in hand"]
    if ruleset.meld_whole_hand_first and deal.hands:
        events.append("the others melded what they could before counting")
    if deal.one_turn:
        if not ruleset.kalooki_bonus:
            raise InvalidDealError(f"one_turn: {ruleset.name} has no bonus for going out in one turn")
        for player in players:
            if player != out:
                scores[player] += ruleset.kalooki_bonus
        events.append(f"kalooki: every other player +{ruleset.kalooki_bonus}")
    marks = ((out, "kalooki"),) if deal.one_turn else ()
    return DealScore(scores, tuple(events), (out,), hands, "out", marks)


# -- gin ----------------------------------------------------------------------------------


def _gin(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    if deal.dead:
        return DealScore(_zero(players), ("dead hand: no score",), (), _zero(players), "dead")
    knocker = deal.knocker
    if knocker is None:
        raise InvalidDealError("knocker: say who knocked")
    defender = next(p for p in players if p != knocker)
    if deal.hands:
        verdict: KnockVerdict = referee_knock(
            knocker=deal.hands[knocker],
            defender=deal.hands[defender],
            ruleset=ruleset,
            melds=deal.melds.get(knocker),
            upcard=deal.upcard,
        )
        if not verdict.legal:
            raise InvalidDealError(f"knocker: {knocker}'s knock is illegal: {verdict.reason}")
        outcome, winner_role, points = verdict.outcome, verdict.winner, verdict.points
        hands = {knocker: verdict.knocker.deadwood_points, defender: verdict.defender.deadwood_points}
    else:
        limit = knock_limit(ruleset, deal.upcard)
        knocked = deal.deadwood[knocker]
        if knocked > limit:
            raise InvalidDealError(
                f"deadwood: {knocker} knocked with {knocked}, "
                f"over the knock limit of {limit} in {ruleset.name}"
            )
        if deal.big_gin and knocked:
            raise InvalidDealError(f"big_gin: {knocker} has {knocked} deadwood; big gin melds every card")
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
    label = (outcome or "").replace("_", " ")
    kind = outcome or "knock"
    # An undercut knocker still knocked; the defender is credited with the undercut.
    marks = ((knocker, "knock"), (defender, "undercut")) if kind == "undercut" else ((knocker, kind),)
    return DealScore(scores, (f"{label}: {winner} scores {points}",), (winner,), hands, kind, marks)


# -- Carousel -----------------------------------------------------------------------------


def _lowest_hand(deal: Deal, *, players: Sequence[str], ruleset: Ruleset) -> DealScore:
    hands = _hand_points(deal, players=players, ruleset=ruleset)
    if deal.ended is not None and (deal.ended != "stock_out" or not ruleset.stock_out_extra_turn):
        raise InvalidDealError(f"ended: {deal.ended!r} does not end a deal in {ruleset.name}")
    knocker = deal.knocker
    limit = ruleset.knock_limit
    if knocker is not None and limit is not None and hands[knocker] > limit:
        raise InvalidDealError(
            f"knocker: {knocker}'s hand is worth {hands[knocker]}; "
            f"a knock needs {limit} or less in {ruleset.name}"
        )
    went_out = {p for p in players if p == deal.out or (deal.hands and p in deal.hands and not deal.hands[p])}
    if deal.out is not None and hands[deal.out]:
        raise InvalidDealError(f"out: {deal.out} went out but has {hands[deal.out]} points left")
    low = min(hands.values())
    lowest = [p for p in players if hands[p] == low]
    events: list[str] = []
    bonus = 0
    if knocker is not None and knocker in lowest and len(lowest) > 1:
        lowest.remove(knocker)
        bonus = ruleset.knock_tie_bonus
        events.append(f"{knocker} knocked and tied with {', '.join(lowest)}, who win: +{bonus} each")
    elif knocker is not None and knocker not in lowest:
        bonus = ruleset.not_knocker_bonus
        events.append(f"{', '.join(lowest)} beat the knocker {knocker}: +{bonus}")
    elif deal.ended == "stock_out":
        events.append("the stock ran out; after one more turn each, the lowest hand wins")
    scores = _zero(players)
    marks: list[tuple[str, str]] = [(knocker, "knock")] if knocker is not None else []
    for winner in lowest:
        differences = sum(hands[p] - low for p in players if p != winner)
        scores[winner] = differences + bonus
        events.append(f"{winner} has the lowest hand ({low}) and scores the differences, {differences}")
        if winner in went_out:
            scores[winner] += ruleset.going_out_bonus
            events.append(f"{winner} went out with no cards: +{ruleset.going_out_bonus}")
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
