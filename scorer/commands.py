"""The referee commands of the ``rummy`` command line: what each asks the engine and prints.

Each ``cmd_*`` takes the parsed arguments (:mod:`scorer.cli` builds the parser and runs
them) and returns the JSON document, the text in the command's language (``args.lang``) and
the exit status. Each imports the engine modules it needs when it runs, so that starting one
command never loads what another needs (the league store, the app, the solver).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from scorer.messages import DEFAULT_LANGUAGE, Message, Param, Word, join, render

if TYPE_CHECKING:
    from scorer.cards import Card, Melds
    from scorer.ruleset import Ruleset

EXIT_VALID, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2

Result = tuple[Any, str, int]


def _say(args: argparse.Namespace, code: str, /, **params: Param) -> str:
    """The catalog's text ``code`` in the command's language."""
    return render(Message(code, **params), getattr(args, "lang", DEFAULT_LANGUAGE))


def _said(args: argparse.Namespace, message: Message | None) -> str:
    return "" if message is None else render(message, getattr(args, "lang", DEFAULT_LANGUAGE))


def _reason(message: Message | None) -> dict[str, Any]:
    """A verdict's reason for ``--json``: the English text, its code and its parameters."""
    if message is None:
        return {"reason": None, "reason_code": None, "reason_params": None}
    found = message.to_json()
    return {"reason": str(message), "reason_code": found["code"], "reason_params": found["params"]}


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _melds(melds: Iterable[Iterable[Card]]) -> list[list[str]]:
    return [_cards(m) for m in melds]


def _text_melds(args: argparse.Namespace, melds: Iterable[Iterable[Card]]) -> str:
    from scorer.cards import format_cards

    return " | ".join(format_cards(m) for m in melds) or _say(args, "cli.none")


def _text_cards(args: argparse.Namespace, cards: Iterable[Card]) -> str:
    from scorer.cards import format_cards

    return format_cards(cards) or _say(args, "cli.none")


def _exit(valid: bool) -> int:
    return EXIT_VALID if valid else EXIT_INVALID


def _error(message: Message) -> Exception:
    from scorer.errors import ScorerError

    return ScorerError(message)


def _options(pairs: Sequence[str]) -> dict[str, str]:
    from scorer.errors import quote

    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise _error(Message("cli.bad_option", pair=quote(pair)))
        options[key.strip()] = value.strip()
    return options


def _ruleset(args: argparse.Namespace) -> Ruleset:
    from scorer.ruleset import load_ruleset

    if args.rules is None:
        raise _error(Message("cli.rules_required"))
    return load_ruleset(args.rules, options=_options(args.option))


def _argument(name: str) -> Message:
    return Message("cli.argument", name=name)


def _within(cards: Sequence[Card], rules: Ruleset, *, what: str, meld: bool = False) -> None:
    """Refuse cards no table could hold: more than a hand (or a meld) holds, or more
    copies of a card, or more jokers, than the decks have."""
    from scorer.ruleset import require_card_supply, require_hand_fits

    require_hand_fits(cards, rules, what=_argument(what), meld=meld)
    require_card_supply(cards, rules, where=Message("cli.in_argument", name=what))


def _one_card(text: str | None, *, what: str) -> Card | None:
    from scorer.cards import parse_cards
    from scorer.errors import quote

    if text is None:
        return None
    cards = parse_cards(text)
    if len(cards) != 1:
        problem = Message("deal.upcard_not_one", text=quote(text))
        raise _error(Message("cli.argument_problem", name=what, problem=problem))
    return cards[0]


def _declared_melds(text: str | None, rules: Ruleset) -> Melds | None:
    from scorer.cards import parse_melds

    if text is None:
        return None
    melds = parse_melds(text)
    _within([c for m in melds for c in m], rules, what="--melds")
    return melds


# -- commands ---------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace) -> Result:
    from scorer.ruleset import all_rulesets, load_ruleset
    from scorer.ruleset_text import variant_description, variant_title

    if args.options is not None:
        return _ruleset_options(args, load_ruleset(args.options))
    rulesets = all_rulesets()
    data = [
        {"id": r.id, "name": r.name, "title": r.title, "family": r.family, "description": r.description}
        for r in rulesets
    ]
    language = getattr(args, "lang", DEFAULT_LANGUAGE)
    shown = [(r.id, variant_title(r, language), variant_description(r, language)) for r in rulesets]
    width, titles = max(len(i) for i, _, _ in shown), max(len(title) for _, title, _ in shown)
    text = "\n".join(f"{i:<{width}}  {title:<{titles}}  {about}" for i, title, about in shown)
    return data, text, EXIT_VALID


def _ruleset_options(args: argparse.Namespace, rules: Ruleset) -> Result:
    from scorer.house_rules import option_text
    from scorer.options import ruleset_options
    from scorer.ruleset_text import option_label, variant_title

    options = ruleset_options(rules)
    data = [
        {
            "name": o.name,
            "value": o.value,
            "meaning": o.meaning,
            "default": o.default,
            "label": option_label(o.name),
        }
        for o in options
    ]
    names = max(len(o.name) for o in options)
    values = max(len(option_text(o.value)) for o in options)
    language = getattr(args, "lang", DEFAULT_LANGUAGE)
    lines = [_say(args, "cli.options_header", title=variant_title(rules, language), id=rules.id)]
    for o in options:
        changed = (
            _say(args, "cli.option_default", value=option_text(o.default)) if o.value != o.default else ""
        )
        lines.append(
            f"{o.name:<{names}}  {option_text(o.value):<{values}}  {render(o.meaning, language)}{changed}"
        )
    return data, "\n".join(lines), EXIT_VALID


def cmd_check(args: argparse.Namespace) -> Result:
    from scorer.cards import format_cards, parse_cards
    from scorer.melds import check_meld

    rules = _ruleset(args)
    cards = parse_cards(args.cards)
    if not cards:
        raise _error(Message("cli.no_cards"))
    _within(cards, rules, what="CARDS", meld=True)
    verdict = check_meld(cards, rules)
    data = {
        "valid": verdict.valid,
        "kind": verdict.kind,
        "kinds": list(verdict.kinds),
        **_reason(verdict.message),
        "jokers": [_cards(o) for o in verdict.joker_options],
        "meld": _cards(verdict.meld),
    }
    if verdict.valid:
        kinds = join((Word(kind) for kind in verdict.kinds), last="or", each=True)
        text = _say(args, "cli.legal_meld", kinds=kinds, meld=format_cards(verdict.meld))
        for number, options in enumerate(verdict.joker_options, start=1):
            if len(options) > 1:
                example = str(options[0])
                text += "\n" + _say(
                    args, "cli.joker_options", number=number, cards=format_cards(options), example=example
                )
    else:
        text = _said(args, verdict.message)
    return data, text, _exit(verdict.valid)


def cmd_layoff(args: argparse.Namespace) -> Result:
    from scorer.cards import format_cards, parse_cards
    from scorer.melds import check_layoff
    from scorer.ruleset import require_card_supply

    rules = _ruleset(args)
    meld, cards = parse_cards(args.meld), parse_cards(args.cards)
    _within(meld, rules, what="--meld", meld=True)
    _within(cards, rules, what="CARDS")
    require_card_supply([*meld, *cards], rules, where=Message("cli.in_meld_and_cards"))
    verdict = check_layoff(meld, cards, rules)
    reason = _reason(verdict.message)
    data = {
        "valid": verdict.valid,
        "reason": reason.pop("reason"),
        "meld": _cards(verdict.result),
        "freed_jokers": verdict.freed_jokers,
        **reason,
    }
    if verdict.valid:
        result, freed = format_cards(verdict.result), verdict.freed_jokers
        if freed > 1:
            text = _say(args, "cli.legal_layoff_freed", meld=result, count=freed)
        elif freed:
            text = _say(args, "cli.legal_layoff_freed_one", meld=result)
        else:
            text = _say(args, "cli.legal_layoff", meld=result)
    else:
        text = _said(args, verdict.message)
    return data, text, _exit(verdict.valid)


def cmd_arrange(args: argparse.Namespace) -> Result:
    from scorer.cards import parse_cards
    from scorer.solver import Solver

    rules = _ruleset(args)
    hand = parse_cards(args.cards)
    _within(hand, rules, what="CARDS")
    solver = Solver(rules)
    discard: Card | None = None
    if args.discard:
        choice = solver.best_discard(hand)
        discard, best = choice.discard, choice.arrangement
    else:
        best = solver.best(hand)
    data = {
        "melds": _melds(best.melds),
        "deadwood": _cards(best.deadwood),
        "deadwood_points": best.deadwood_points,
        "discard": str(discard) if discard else None,
    }
    lines = [
        _say(args, "cli.melds_line", melds=_text_melds(args, best.melds)),
        _say(args, "cli.deadwood_line", cards=_text_cards(args, best.deadwood)),
        _say(args, "cli.deadwood_points", points=best.deadwood_points),
    ]
    if discard:
        lines.insert(0, _say(args, "cli.discard_line", card=str(discard)))
    return data, "\n".join(lines), EXIT_VALID


def cmd_knock(args: argparse.Namespace) -> Result:
    from scorer.cards import format_cards, parse_cards
    from scorer.knock import referee_knock

    rules = _ruleset(args)
    spread, held = parse_cards(args.knocker), parse_cards(args.defender)
    _within(spread, rules, what="--knocker")
    _within(held, rules, what="--defender")
    verdict = referee_knock(
        knocker=spread,
        defender=held,
        ruleset=rules,
        melds=_declared_melds(args.melds, rules),
        upcard=_one_card(args.upcard, what="--upcard"),
    )
    knocker, defender = verdict.knocker, verdict.defender
    reason = _reason(verdict.message)
    data = {
        "legal": verdict.legal,
        "reason": reason.pop("reason"),
        "outcome": verdict.outcome,
        "winner": verdict.winner,
        "points": verdict.points,
        "knocker": {
            "melds": _melds(knocker.melds),
            "deadwood": _cards(knocker.deadwood),
            "deadwood_points": knocker.deadwood_points,
        },
        "defender": {
            "melds": _melds(defender.melds),
            "layoffs": [{"meld": lay.meld, "cards": _cards(lay.cards)} for lay in defender.layoffs],
            "deadwood": _cards(defender.deadwood),
            "deadwood_points": defender.deadwood_points,
        },
        **reason,
    }
    if verdict.legal:
        outcome = Word((verdict.outcome or "").replace("_", " "))
        head = _say(
            args, "cli.knock_scored", outcome=outcome, winner=Word(str(verdict.winner)), points=verdict.points
        )
    else:
        head = _say(args, "cli.knock_illegal", reason=verdict.message or "")
    lines = [
        head,
        _say(
            args,
            "cli.knocker_line",
            melds=_text_melds(args, knocker.melds),
            cards=_text_cards(args, knocker.deadwood),
            points=knocker.deadwood_points,
        ),
        _say(
            args,
            "cli.defender_line",
            melds=_text_melds(args, defender.melds),
            cards=_text_cards(args, defender.deadwood),
            points=defender.deadwood_points,
        ),
    ]
    for lay in defender.layoffs:
        onto = format_cards(knocker.melds[lay.meld])
        lines.append(_say(args, "cli.lays_off", cards=format_cards(lay.cards), meld=onto))
    return data, "\n".join(lines), _exit(verdict.legal)


def cmd_opening(args: argparse.Namespace) -> Result:
    from scorer.cards import format_cards, parse_cards, parse_melds
    from scorer.opening import best_opening, check_opening

    rules = _ruleset(args)
    if not rules.opening_minimum:
        raise _error(Message("cli.no_opening_minimum", name=rules.named))
    if (args.melds is None) == (args.hand is None):
        raise _error(Message("cli.melds_or_hand"))
    if args.hand is not None:
        if args.layoffs or args.onto is not None:
            raise _error(Message("cli.layoffs_with_melds"))
        hand = parse_cards(args.hand)
        _within(hand, rules, what="--hand")
        verdict = best_opening(hand, rules)
    else:
        melds, layoffs = parse_melds(args.melds), parse_cards(args.layoffs or "")
        _within([*(c for m in melds for c in m), *layoffs], rules, what="--melds and --layoffs")
        verdict = check_opening(melds=melds, layoffs=layoffs, onto=args.onto, ruleset=rules)
    reason = _reason(verdict.message)
    data = {
        "valid": verdict.valid,
        "value": verdict.value,
        "required": verdict.required,
        "reason": reason.pop("reason"),
        "melds": _melds(verdict.melds),
        "layoffs": _cards(verdict.layoffs),
        "layoffs_checked": verdict.layoffs_checked,
        "layoff_onto": list(verdict.layoff_onto),
        **reason,
    }
    if verdict.valid:
        worth: dict[str, Param] = {
            "value": verdict.value,
            "required": verdict.required,
            "melds": _text_melds(args, verdict.melds),
        }
        if verdict.layoffs:
            text = _say(args, "cli.opening_worth_layoffs", **worth, layoffs=format_cards(verdict.layoffs))
        else:
            text = _say(args, "cli.opening_worth", **worth)
    else:
        text = _said(args, verdict.message)
    if verdict.layoffs and not verdict.layoffs_checked:
        text += "\n" + _say(args, "cli.layoffs_unchecked")
    return data, text, _exit(verdict.valid)


def cmd_table(args: argparse.Namespace) -> Result:
    from scorer.table import check_rearrangement

    rules = _ruleset(args)
    verdict = check_rearrangement(
        before=args.before,
        from_hand=args.from_hand,
        after=args.after,
        ruleset=rules,
        first=args.first,
    )
    data = {"valid": verdict.valid, **_reason(verdict.message)}
    if verdict.valid:
        text = _say(args, "cli.table_legal")
    else:
        text = _say(args, "cli.table_illegal", reason=verdict.message or "")
    return data, text, _exit(verdict.valid)


def cmd_score(args: argparse.Namespace) -> Result:
    from scorer.gamefile import load_game, result_document

    if args.rules is not None or args.option:
        raise _error(Message("cli.score_takes_file_rules"))
    result = load_game(args.file).result
    data = result_document(result)
    players = list(result.players)
    width = max(6, *(len(p) for p in players))
    games = len(result.columns) > 1
    game_label = [_say(args, "cli.heading_game", number=n) for n in range(1, len(result.columns) + 1)]
    deal, total = _say(args, "cli.heading_deal"), _say(args, "cli.heading_total")
    # Every row's label takes the same width, so the players' columns line up.
    lead = max(
        len(deal) + 2,
        len(total) + 1,
        len(_say(args, "cli.heading_start")) + 2 if any(result.start.values()) else 0,
        *(len(label) + 2 for label in game_label if games),
    )
    what = _say(args, "cli.heading_what")
    lines = [deal.ljust(lead) + "  ".join(f"{p:>{width}}" for p in players) + f"  {what}"]
    if any(result.start.values()):  # a handicap's starting points
        start = _say(args, "cli.heading_start")
        lines.append(start.ljust(lead) + "  ".join(f"{result.start.get(p, 0):>{width}}" for p in players))
    for record in result.deals:
        cells = "  ".join(f"{record.score.scores[p]:>{width}}" for p in players)
        happened = "; ".join(_said(args, message) for message in record.score.messages)
        lines.append(f"{record.number:>4}".ljust(lead) + f"{cells}  {happened}")
    for label, column in zip(game_label, result.columns, strict=True):
        if games:
            if not column.finished:
                state = _say(args, "cli.game_open")
            elif column.winner:
                state = _say(args, "cli.game_closed_won", winner=column.winner)
            else:
                state = _say(args, "cli.game_closed_tie")
            cells = "  ".join(f"{column.totals[p]:>{width}}" for p in players)
            lines.append(label.ljust(lead) + f"{cells}  {state}")
    for player, named in result.bonuses.items():
        bonuses = ", ".join(f"{k} {v}" for k, v in named.items())
        lines.append(_say(args, "cli.bonuses_for", player=player, bonuses=bonuses))
    lines.append(total.ljust(lead) + "  ".join(f"{result.totals[p]:>{width}}" for p in players))
    if result.called:
        lines.append(_say(args, "cli.game_called", number=len(result.deals)))
    if result.finished:
        if result.winner:
            lines.append(_say(args, "cli.game_won", winner=result.winner))
        else:
            lines.append(_say(args, "cli.game_tie"))
    else:
        lines.append(_say(args, "cli.game_goes_on", player=str(result.next_dealer)))
    return data, "\n".join(lines), EXIT_VALID


def cmd_app(args: argparse.Namespace) -> Result:
    # Imported here: the app pulls in Flet, which the referee commands never need.
    from scorer.ui.serve import DEFAULT_HOST, DEFAULT_PORT, serve

    serve(
        host=args.host or DEFAULT_HOST,
        port=args.port or DEFAULT_PORT,
        db=args.db,
        code=args.code,
        desktop=args.desktop,
        proxies=args.trusted_proxy,
        public=args.public_url,
        cors_origins=args.cors_origin,
        public_standings=args.public_standings,
    )
    return None, "", EXIT_VALID
