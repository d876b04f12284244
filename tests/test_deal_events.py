"""The words players read about a deal: every event kind, in English and Finnish, from one table.

Each row is a real deal of the variant it belongs to, and the texts the score sheet shows for
it, every one, in order. The table covers every code of the catalogs' ``[event]`` area, and
every outcome of a gin knock; a new event kind without a row fails
:func:`test_the_table_covers_every_event_kind`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from scorer.deal import Deal
from scorer.game import Game, InvalidGameError
from scorer.messages import catalog, render
from scorer.ruleset import load_ruleset
from scorer.scoring import score_deal

TWO = ("Anna", "Bea")
THREE = ("Anna", "Bea", "Cid")


@dataclass(frozen=True)
class Told:
    """A deal and everything the score sheet says about it."""

    ruleset: str
    players: tuple[str, ...]
    deal: Deal
    english: tuple[str, ...]
    finnish: tuple[str, ...]
    options: dict[str, object] = field(default_factory=dict)
    scores: dict[str, int] | None = None


EVENTS: dict[str, Told] = {
    "out_collects": Told(
        "basic-rummy",
        THREE,
        Deal.build(hands={"Anna": "", "Bea": "KS 5H", "Cid": "AC"}, out="Anna"),
        ("Anna went out and collects 16",),
        ("Anna meni ulos ja saa 16",),
        scores={"Anna": 16, "Bea": 0, "Cid": 0},
    ),
    "going_rummy_double": Told(
        "basic-rummy",
        THREE,
        Deal.build(hands={"Anna": "", "Bea": "KS 5H", "Cid": "AC"}, out="Anna", one_turn=True),
        ("Anna went out and collects 16", "going rummy: x2 = 32"),
        ("Anna meni ulos ja saa 16", "rommi kerralla: x2 = 32"),
        scores={"Anna": 32, "Bea": 0, "Cid": 0},
    ),
    "going_rummy_bonus": Told(
        "basic-rummy",
        THREE,
        Deal.build(hands={"Anna": "", "Bea": "KS 5H", "Cid": "AC"}, out="Anna", one_turn=True),
        ("Anna went out and collects 16", "going rummy: +10 = 26"),
        ("Anna meni ulos ja saa 16", "rommi kerralla: +10 = 26"),
        options={"going_rummy": "bonus"},
        scores={"Anna": 26, "Bea": 0, "Cid": 0},
    ),
    "block_one": Told(
        "block-rummy",
        THREE,
        Deal.build(points={"Anna": 5, "Bea": 12, "Cid": 20}, ended="block"),
        ("blocked: Anna has the lowest hand (5) and collects 22",),
        ("jumissa: pelaajalla Anna on pienin käsi (5), hän saa 22",),
        scores={"Anna": 22, "Bea": 0, "Cid": 0},
    ),
    "block_shared": Told(
        "block-rummy",
        THREE,
        Deal.build(points={"Anna": 5, "Bea": 5, "Cid": 20}, ended="block"),
        ("blocked: Anna, Bea share the lowest hand (5): 15 split, 7 each",),
        ("jumissa: pienin käsi (5) yhteinen pelaajille Anna, Bea: 15 jaetaan, 7 kullekin",),
        scores={"Anna": 7, "Bea": 7, "Cid": 0},
    ),
    "block_penalty": Told(
        "block-rummy",
        TWO,
        Deal.build(points={"Anna": 5, "Bea": 12}, ended="block"),
        ("blocked: every player loses the points in hand",),
        ("jumissa: jokainen pelaaja menettää käden pisteet",),
        options={"block_scoring": "penalty"},
        scores={"Anna": -5, "Bea": -12},
    ),
    "stop": Told(
        "rommi-stop",
        TWO,
        Deal.build(points={"Anna": 5, "Bea": 12}, ended="stop"),
        ("stop: every player scores the points in hand",),
        ("stop: jokainen pelaaja saa käden pisteet",),
        scores={"Anna": 5, "Bea": 12},
    ),
    "out_penalty": Told(
        "rommi",
        TWO,
        Deal.build(hands={"Anna": "", "Bea": "5H 6H 7H KS"}, out="Anna"),
        ("Anna went out; the others score the points left in hand",),
        ("Anna meni ulos; muut saavat käteen jääneet pisteet",),
        scores={"Anna": 0, "Bea": 28},
    ),
    "melded_first": Told(
        "boathouse",
        TWO,
        Deal.build(hands={"Anna": "", "Bea": "5H 6H 7H KS"}, out="Anna"),
        (
            "Anna went out; the others score the points left in hand",
            "the others melded what they could before counting",
        ),
        (
            "Anna meni ulos; muut saavat käteen jääneet pisteet",
            "muut tekivät ensin yhdistelmät, jotka pystyivät, ennen laskemista",
        ),
        scores={"Anna": 0, "Bea": 10},
    ),
    "kalooki": Told(
        "kalooki",
        THREE,
        Deal.build(points={"Bea": 12, "Cid": 3}, out="Anna", one_turn=True),
        ("Anna went out; the others score the points left in hand", "kalooki: every other player +25"),
        ("Anna meni ulos; muut saavat käteen jääneet pisteet", "kalooki: jokainen muu pelaaja +25"),
        scores={"Anna": 0, "Bea": 37, "Cid": 28},
    ),
    "dead_hand": Told(
        "gin", TWO, Deal.build(dead=True), ("dead hand: no score",), ("kuollut jako: ei pisteitä",)
    ),
    "knock": Told(
        "gin",
        TWO,
        Deal.build(knocker="Anna", deadwood={"Anna": 5, "Bea": 30}),
        ("knock: Anna scores 25",),
        ("koputus: Anna saa 25",),
        scores={"Anna": 25, "Bea": 0},
    ),
    "knock (gin)": Told(
        "gin",
        TWO,
        Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 30}),
        ("gin: Anna scores 55",),
        ("gin: Anna saa 55",),
        scores={"Anna": 55, "Bea": 0},
    ),
    "knock (big gin)": Told(
        "gin",
        TWO,
        Deal.build(knocker="Anna", big_gin=True, deadwood={"Anna": 0, "Bea": 30}),
        ("big gin: Anna scores 61",),
        ("iso gin: Anna saa 61",),
        scores={"Anna": 61, "Bea": 0},
    ),
    "knock (undercut)": Told(
        "gin",
        TWO,
        Deal.build(knocker="Anna", deadwood={"Anna": 7, "Bea": 5}),
        ("undercut: Bea scores 27",),
        ("alitus: Bea saa 27",),
        scores={"Anna": 0, "Bea": 27},
    ),
    "lowest": Told(
        "carousel",
        TWO,
        Deal.build(points={"Anna": 2, "Bea": 9}, knocker="Anna"),
        ("Anna has the lowest hand (2) and scores the differences, 7",),
        ("pelaajalla Anna on pienin käsi (2), hän saa erotukset, 7",),
        scores={"Anna": 7, "Bea": 0},
    ),
    "knock_tie": Told(
        "carousel",
        THREE,
        Deal.build(points={"Anna": 3, "Bea": 3, "Cid": 20}, knocker="Anna"),
        (
            "Anna knocked and tied with Bea, who win: +10 each",
            "Bea has the lowest hand (3) and scores the differences, 17",
        ),
        (
            "Anna koputti ja tasasi pelaajien Bea kanssa, jotka voittavat: +10 kullekin",
            "pelaajalla Bea on pienin käsi (3), hän saa erotukset, 17",
        ),
        scores={"Anna": 0, "Bea": 27, "Cid": 0},
    ),
    "beat_knocker": Told(
        "carousel",
        THREE,
        Deal.build(points={"Anna": 4, "Bea": 2, "Cid": 20}, knocker="Anna"),
        ("Bea beat the knocker Anna: +10", "Bea has the lowest hand (2) and scores the differences, 20"),
        ("Bea voitti koputtajan Anna: +10", "pelaajalla Bea on pienin käsi (2), hän saa erotukset, 20"),
        scores={"Anna": 0, "Bea": 30, "Cid": 0},
    ),
    "stock_out": Told(
        "carousel",
        TWO,
        Deal.build(points={"Anna": 4, "Bea": 2}, ended="stock_out"),
        (
            "the stock ran out; after one more turn each, the lowest hand wins",
            "Bea has the lowest hand (2) and scores the differences, 2",
        ),
        (
            "nostopakka loppui; vielä yksi vuoro kullekin, pienin käsi voittaa",
            "pelaajalla Bea on pienin käsi (2), hän saa erotukset, 2",
        ),
        scores={"Anna": 0, "Bea": 2},
    ),
    "out_bonus": Told(
        "carousel",
        TWO,
        Deal.build(points={"Bea": 9}, out="Anna"),
        ("Anna has the lowest hand (0) and scores the differences, 9", "Anna went out with no cards: +25"),
        ("pelaajalla Anna on pienin käsi (0), hän saa erotukset, 9", "Anna meni ulos ilman kortteja: +25"),
        scores={"Anna": 34, "Bea": 0},
    ),
}


@pytest.mark.parametrize("kind", list(EVENTS))
def test_each_event_in_english_and_finnish(kind: str) -> None:
    told = EVENTS[kind]
    score = score_deal(
        told.deal, players=told.players, ruleset=load_ruleset(told.ruleset, options=told.options)
    )
    assert score.events == told.english
    assert tuple(render(m, "en") for m in score.messages) == told.english
    assert tuple(render(m, "fi") for m in score.messages) == told.finnish
    if told.scores is not None:
        assert score.scores == told.scores


def test_the_table_covers_every_event_kind() -> None:
    kinds = {code.removeprefix("event.") for code in catalog("en") if code.startswith("event.")}
    assert kinds == {kind.split(" ")[0] for kind in EVENTS}
    assert set(catalog("fi")) >= {f"event.{kind}" for kind in kinds}
    outcomes = {EVENTS[k].english[0].split(":")[0] for k in EVENTS if k.split(" ")[0] == "knock"}
    assert outcomes == {"knock", "gin", "big gin", "undercut"}


def test_the_score_sheet_shows_the_same_words_as_the_deal() -> None:
    told = EVENTS["knock_tie"]
    game = Game(load_ruleset(told.ruleset), told.players).add(told.deal)
    record = game.result.deals[0]
    assert record.score.events == told.english
    assert tuple(render(m, "fi") for m in record.score.messages) == told.finnish


# -- names and seats ----------------------------------------------------------------------


def test_a_doubled_name_is_named_and_the_one_beside_it_is_not() -> None:
    with pytest.raises(InvalidGameError) as raised:
        Game(load_ruleset("rommi"), ("Anna", "Bea", "Anna"))
    assert str(raised.value) == "players: Anna named twice; each player needs their own name"
    assert (
        render(raised.value.message, "fi") == "pelaajat: Anna kahdesti; jokainen pelaaja tarvitsee oman nimen"
    )


def test_two_doubled_names_are_both_named_in_order() -> None:
    with pytest.raises(InvalidGameError) as raised:
        Game(load_ruleset("rommi"), ("Cid", "Bea", "Anna", "Cid", "Dan", "Anna"))
    assert str(raised.value).startswith("players: Anna, Cid named twice;")


def test_the_deal_passes_left_when_the_deals_are_not_a_multiple_of_the_players() -> None:
    game = Game(load_ruleset("rommi"), THREE, first_dealer=1)
    for _ in range(4):
        game = game.add(Deal.build(points={"Bea": 3, "Cid": 4}, out="Anna"))
    assert [record.dealer for record in game.result.deals] == ["Bea", "Cid", "Anna", "Bea"]
    assert game.result.next_dealer == "Cid"
