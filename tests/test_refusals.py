"""Every refusal of the engine entered with a real input, and what the player reads.

One table: each row is a deal, a game or a call a table could really make, the error it
must raise, and where the message says the problem is (the deal's number, its field, the
rule's code). Each row is rendered in English and Finnish. ``bench/refusals.py`` lists every
``raise`` of ``scorer/*.py`` that no test enters; this file is where the missing ones go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorer.cards import JOKER_RANK, Card
from scorer.deal import Deal, InvalidDealError
from scorer.errors import IllegalPlayError, InputTooLargeError, InvalidCardError, RulesetError, ScorerError
from scorer.game import Game, InvalidGameError
from scorer.knock import referee_knock
from scorer.limits import read_text
from scorer.messages import CatalogError, Message, Word, read_catalog, read_plain_catalog, render
from scorer.ruleset import load_ruleset
from scorer.seating import SeatingError, table_sizes

ANNA_BEA = ("Anna", "Bea")
#: An 11-card knocker's hand of ten melded cards and one point left (AD): not big gin.
ELEVEN_ONE_LEFT = "2S 3S 4S 4H 5H 6H 7C 8C 9C TC AD"
DEFENDER = "KC QC JC 5S 8H 2D 3D TD TH 5C"


def add(ruleset: str, deal: Deal, *, players: tuple[str, ...] = ANNA_BEA, **options: object) -> None:
    """Deal 2 of a game of ``ruleset`` (deal 1 a plain one), so the number is not a default."""
    game = Game(load_ruleset(ruleset, options=options), players)
    game.add(_first_deal(game)).add(deal)


def _first_deal(game: Game) -> Deal:
    rules = game.ruleset
    if rules.family == "gin":
        return Deal.build(knocker="Anna", deadwood={"Anna": 5, "Bea": 30}, upcard="7H")
    if rules.family == "carousel":
        return Deal.build(points={"Anna": 3, "Bea": 20}, knocker="Anna")
    return Deal.build(points={"Bea": 12}, out="Anna")


@dataclass(frozen=True)
class Refusal:
    """A real input, the error it raises and where its message places the problem."""

    act: Callable[[], object]
    error: type[Exception]
    code: str
    field: str | None = None
    deal: int | None = None
    english: str | None = None


def _layers(message: Message) -> tuple[int | None, str | None, Message]:
    """The deal's number, the field and the rule's own message inside ``deal N: field: ...``."""
    number = field = None
    if message.code == "deal.deal_number":
        number = message.params["number"]
        assert isinstance(number, int)
        inner = message.params["rest"]
        assert isinstance(inner, Message)
        message = inner
    if message.code == "deal.field":
        word = message.params["field"]
        assert isinstance(word, Word)
        field = word.word
        inner = message.params["rest"]
        assert isinstance(inner, Message)
        message = inner
    return number, field, message


def _user_file(tmp: Path, text: str) -> Callable[[], object]:
    path = tmp / "ours.toml"
    path.write_text(text)
    return lambda: load_ruleset(path)


REFUSALS: dict[str, Refusal] = {
    # -- the ones issue 29 names ----------------------------------------------------------
    "one-turn bonus in basic rummy without going rummy": Refusal(
        lambda: add(
            "basic-rummy", Deal.build(points={"Bea": 12}, out="Anna", one_turn=True), going_rummy="off"
        ),
        InvalidDealError,
        "deal.no_one_turn_bonus",
        field="one_turn",
        deal=2,
        english="deal 2: one_turn: basic rummy has no bonus for going out in one turn",
    ),
    "one-turn bonus in rommi, which has no kalooki bonus": Refusal(
        lambda: add("rommi", Deal.build(points={"Bea": 12}, out="Anna", one_turn=True)),
        InvalidDealError,
        "deal.no_one_turn_bonus",
        field="one_turn",
        deal=2,
    ),
    "Carousel deal ended by stop": Refusal(
        lambda: add("carousel", Deal.build(points={"Anna": 3, "Bea": 20}, ended="stop")),
        InvalidDealError,
        "deal.ended_not_here",
        field="ended",
        deal=2,
    ),
    "Carousel deal ended by block": Refusal(
        lambda: add("carousel", Deal.build(points={"Anna": 3, "Bea": 20}, ended="block")),
        InvalidDealError,
        "deal.ended_not_here",
        field="ended",
        deal=2,
    ),
    "big gin called with one point of deadwood (quick entry)": Refusal(
        lambda: add("gin", Deal.build(knocker="Anna", big_gin=True, deadwood={"Anna": 1, "Bea": 20})),
        InvalidDealError,
        "deal.big_gin_deadwood",
        field="big_gin",
        deal=2,
    ),
    "11-card hand with one point of deadwood (cards entered)": Refusal(
        lambda: add("gin", Deal.build(knocker="Anna", hands={"Anna": ELEVEN_ONE_LEFT, "Bea": DEFENDER})),
        InvalidDealError,
        "deal.knock_illegal",
        field="knocker",
        deal=2,
    ),
    "joker upcard in Oklahoma gin's quick entry": Refusal(
        lambda: add("oklahoma-gin", Deal.build(knocker="Anna", deadwood={"Anna": 1, "Bea": 20}, upcard="*")),
        InvalidDealError,
        "knock.upcard_joker",
        field="upcard",
        deal=2,
        english="deal 2: upcard: the upcard * is a joker; Oklahoma gin is played without jokers",
    ),
    "joker upcard in Oklahoma gin with both hands entered": Refusal(
        lambda: add(
            "oklahoma-gin",
            Deal.build(knocker="Anna", hands={"Anna": ELEVEN_ONE_LEFT[:-3], "Bea": DEFENDER}, upcard="*"),
        ),
        InvalidDealError,
        "knock.upcard_joker",
        field="upcard",
        deal=2,
    ),
    "no upcard in Oklahoma gin's quick entry": Refusal(
        lambda: add("oklahoma-gin", Deal.build(knocker="Anna", deadwood={"Anna": 1, "Bea": 20})),
        InvalidDealError,
        "knock.needs_upcard",
        field="upcard",
        deal=2,
    ),
    "first dealer equal to the number of players": Refusal(
        lambda: Game(load_ruleset("rommi"), ("Anna", "Bea", "Cid"), first_dealer=3),
        InvalidGameError,
        "game.not_a_seat",
        field="first_dealer",
        english="first_dealer: 3 is not a seat (0-2)",
    ),
    "first dealer before the first seat": Refusal(
        lambda: Game(load_ruleset("rommi"), ("Anna", "Bea", "Cid"), first_dealer=-1),
        InvalidGameError,
        "game.not_a_seat",
        field="first_dealer",
    ),
    # -- the rest no test entered (bench/refusals.py) -------------------------------------
    "gin melds naming a card the knocker does not hold": Refusal(
        lambda: add(
            "gin",
            Deal.build(
                knocker="Anna",
                hands={"Anna": "2S 3S 4S 4H 5H 6H 7C 8C 9C AD", "Bea": DEFENDER},
                melds={"Anna": "2S 3S 4S | 4H 5H 6H | 7C 8C 9C TC"},
            ),
        ),
        InvalidDealError,
        "deal.melds_not_in_hand",
        field="melds",
        deal=2,
    ),
    "a joker given a suit": Refusal(
        lambda: Card(JOKER_RANK, 2),
        InvalidCardError,
        "card.joker_suit",
        english="a joker has no suit, got suit 2",
    ),
    "a gin ruleset that deals no hand to two players, asked to referee a knock": Refusal(
        lambda: referee_knock(
            knocker="2S 3S 4S 4H 5H 6H 7C 8C 9C AD",
            defender=DEFENDER,
            ruleset=load_ruleset("gin", options={"cards_dealt": {3: 10}}),
        ),
        IllegalPlayError,
        "knock.no_hand_size",
    ),
    "a gin ruleset that deals no hand to two players, a deal with both hands": Refusal(
        lambda: add(
            "gin",
            Deal.build(knocker="Anna", hands={"Anna": "2S 3S 4S 4H 5H 6H 7C 8C 9C AD", "Bea": DEFENDER}),
            cards_dealt={3: 10},
        ),
        InvalidDealError,
        "knock.no_hand_size",
        field="hands",
        deal=2,
    ),
    "a club night of one player": Refusal(
        lambda: table_sizes(1, low=2, high=4), SeatingError, "night.too_few", english=None
    ),
    "house rules with more players at least than at most": Refusal(
        lambda: load_ruleset("rommi", options={"players_min": 8}),
        RulesetError,
        "ruleset.options_invalid",
        english="invalid options for ruleset 'rommi': players_min 8 > players_max 7",
    ),
    "house rules with a set's least size over its most": Refusal(
        lambda: load_ruleset("rommi", options={"set_min": 5}),
        RulesetError,
        "ruleset.options_invalid",
        english="invalid options for ruleset 'rommi': set_min 5 > set_max 4",
    ),
    "house rules with a run's least length over its most": Refusal(
        lambda: load_ruleset("rommi", options={"run_max": 2}), RulesetError, "ruleset.options_invalid"
    ),
    "house rules with three decks for two players": Refusal(
        lambda: load_ruleset("rommi", options={"decks_by_players": {2: 3}}),
        RulesetError,
        "ruleset.options_invalid",
        english="invalid options for ruleset 'rommi': decks_by_players[2] = 3: one or two decks",
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_each_refusal_is_entered_and_says_where(name: str) -> None:
    refusal = REFUSALS[name]
    with pytest.raises(refusal.error) as raised:
        refusal.act()
    assert isinstance(raised.value, ScorerError)
    number, field, inner = _layers(raised.value.message)
    assert inner.code == refusal.code, raised.value.message
    assert field == refusal.field
    assert number == refusal.deal
    if refusal.english is not None:
        assert str(raised.value) == refusal.english
    english, finnish = render(raised.value.message, "en"), render(raised.value.message, "fi")
    assert english != finnish and "{" not in finnish
    if number is not None:
        assert finnish.startswith(f"jako {number}: ")


def test_the_inner_rule_of_an_illegal_eleven_card_knock_is_big_gin_melded() -> None:
    with pytest.raises(InvalidDealError) as raised:
        REFUSALS["11-card hand with one point of deadwood (cards entered)"].act()
    _, _, illegal = _layers(raised.value.message)
    reason = illegal.params["reason"]
    assert isinstance(reason, Message) and reason.code == "knock.big_gin_melded"
    assert str(raised.value) == (
        "deal 2: knocker: Anna's knock is illegal: 11 cards are a big gin only when all 11 are melded; "
        "knocker's deadwood is 1"
    )


def test_the_same_eleven_cards_all_melded_are_big_gin() -> None:
    game = Game(load_ruleset("gin"), ANNA_BEA)
    hands = {"Anna": "2S 3S 4S 4H 5H 6H 7C 8C 9C TC JC", "Bea": "KD QC JD 5S 8H 2D 3D TD TH 5C"}
    game = game.add(Deal.build(knocker="Anna", hands=hands))
    assert game.result.deals[0].score.outcome == "big_gin"


def test_a_user_ruleset_whose_options_are_not_a_table(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as raised:
        _user_file(tmp_path, 'base = "gin"\nid = "ours"\noptions = 3\n')()
    assert raised.value.message.code == "ruleset.ruleset_options_table"
    assert str(tmp_path / "ours.toml") in str(raised.value)


def test_a_file_longer_than_its_size_said(tmp_path: Path) -> None:
    # /proc files say they are empty and then give more: the read itself is bounded.
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("no /proc on this system")
    with pytest.raises(InputTooLargeError) as raised:
        read_text(status, what="game file", limit=10)
    assert raised.value.message.code == "limit.file_too_big_more"


def test_a_message_with_no_text_in_the_catalogs_is_refused() -> None:
    with pytest.raises(CatalogError, match=r"^no text for message code 'deal\.no_such_code'$"):
        render(Message("deal.no_such_code"), "fi")


@pytest.mark.parametrize(
    "line",
    [
        '[not an area]\nx = "y"',
        'x = "y"',
        "[a]\nx = 1",
        '[a]\n"x" = "\\U0001F600"',
        '[a]\nx-y = "z"',
        '[a]\nx = "1"\nx = "2"',
    ],
)
def test_the_plain_catalog_reader_refuses_what_is_not_its_form(line: str) -> None:
    with pytest.raises(ValueError):
        read_plain_catalog(line)


def test_a_catalog_area_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(CatalogError, match=r"^fi.toml: 'x' is not a table$"):
        read_catalog('x = "y"', name="fi.toml")
