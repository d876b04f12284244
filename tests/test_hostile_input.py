"""Impossible and hostile input: refused fast, with one short message in a player's words.

Every case here once crashed with a traceback, answered as if the input were
possible, or printed a message of millions of characters.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.deal import Deal, InvalidDealError, validate_deal
from scorer.errors import InputTooLargeError, quote
from scorer.gamefile import GameFileError, load_game, parse_game
from scorer.limits import (
    MAX_DEALS,
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_RULESET_BYTES,
    nesting_depth,
)
from scorer.ruleset import RulesetError, bundled_ids, load_ruleset

#: About two lines of a terminal: the longest message any refusal may print.
SHORT = 200

LIBRARY_WORDS = ("Input should", "Extra inputs", "Field required", "valid dictionary", "Traceback")

GIN = load_ruleset("gin")
ROMMI = load_ruleset("rommi")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one-line message of a command refused as bad input (exit 2)."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, ""), err
    assert err.count("\n") == 1 and len(err) <= SHORT, err
    assert not any(words in err for words in LIBRARY_WORDS), err
    return err.strip()


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) <= SHORT, err
    return err.strip()


def game(**change: Any) -> dict[str, Any]:
    return {"ruleset": "gin", "players": ["Anna", "Bea"], "deals": []} | change


# -- quoting -------------------------------------------------------------------------------


def test_a_long_input_is_quoted_by_its_start_and_its_length() -> None:
    assert quote("KH KH") == "'KH KH'"
    assert quote("KH " * 1_000_000) == (
        "'KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH ...' (3,000,000 characters)"
    )


def test_three_million_characters_of_cards_get_a_short_message(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "check", "--rules", "gin", "KH " * 1_000_000)
    assert err.startswith("rummy check: cards 'KH KH KH") and "(3,000,000 characters): too long" in err


def test_a_long_bad_card_is_quoted_short(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "check", "--rules", "gin", "X" * 1500)
    assert "invalid card 'XXXX" in err and "(1,500 characters)" in err


# -- impossible cards: exit 2 in every command ----------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("check", "--rules", "gin", "5H 5H 5H"), "5H 3 times in CARDS, and gin rummy plays with one deck"),
        (("check", "--rules", "gin", "5H * 7H"), "a joker in CARDS, and gin rummy has no jokers"),
        (("check", "--rules", "rommi", "* * * * * 5H"), "5 jokers in CARDS, and rommi plays with 4"),
        (
            ("layoff", "--rules", "gin", "--meld", "5H 6H 7H", "5H"),
            "5H twice in --meld and CARDS together, and gin rummy plays with one deck",
        ),
        (("layoff", "--rules", "gin", "--meld", "5H 6H 7H", "*"), "a joker in CARDS"),
        (("arrange", "--rules", "gin", "5H 5H 5H 9C"), "5H 3 times in CARDS"),
        (("arrange", "--rules", "rommi", "* * * * * 5H"), "5 jokers in CARDS, and rommi plays with 4"),
        (("arrange", "--rules", "gin", "--discard", "5H 5H 5H 9C"), "5H 3 times in CARDS"),
        (
            ("knock", "--rules", "gin", "--knocker", "5H 5H 5H 6H 7H 8H 9H TH JH QH", "--defender", "AS"),
            "5H 3 times in --knocker",
        ),
    ],
)
def test_cards_the_decks_do_not_hold_are_bad_input(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in refused(capsys, *argv)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("arrange", "--rules", "gin", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"),
            "CARDS: 12 cards, but a hand in gin rummy holds at most 11 (10 dealt and 1 drawn in a turn)",
        ),
        (
            ("arrange", "--rules", "kalooki", " ".join(["AS 2S 3S 4S 5S 6S 7S 8S 9S"] * 2)),
            "CARDS: 18 cards, but a hand in Kalooki holds at most 16 (15 dealt and 1 drawn in a turn)",
        ),
        (
            ("check", "--rules", "gin", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 5H"),
            "CARDS: 14 cards, but a meld in gin rummy holds at most 13",
        ),
        (
            ("layoff", "--rules", "gin", "--meld", "5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
            "CARDS: 12 cards, but a hand in gin rummy holds at most 11",
        ),
        (
            (
                "knock",
                "--rules",
                "gin",
                "--knocker",
                "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                "--defender",
                "AS",
            ),
            "--knocker: 12 cards, but a hand in gin rummy holds at most 11",
        ),
    ],
)
def test_a_hand_larger_than_the_variant_holds_is_bad_input(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in refused(capsys, *argv)


def test_check_without_cards_says_no_cards_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "check", "--rules", "gin", " ").startswith("rummy check: no cards given")


def test_the_hand_limit_is_the_largest_deal_and_one_turns_draws() -> None:
    assert (GIN.max_hand, load_ruleset("kalooki").max_hand, load_ruleset("carousel").max_hand) == (11, 16, 13)
    assert load_ruleset("boathouse").max_hand == 12  # a discard taken brings a stock card with it
    assert load_ruleset("rommi").max_hand == 11


def test_a_carousel_hand_can_outgrow_a_turn_but_not_the_decks() -> None:
    carousel = load_ruleset("carousel")
    assert carousel.hand_grows and not GIN.hand_grows
    # Three players, two 53-card decks, the two others holding their 10 each.
    assert carousel.max_held == 2 * 53 - 2 * 10
    assert GIN.max_held == GIN.max_hand


def test_the_longest_meld_is_a_run_of_every_rank() -> None:
    assert GIN.max_meld == 13
    assert GIN.with_options({"run_max": "5"}).max_meld == 5


# -- quick entries within what the cards allow ----------------------------------------------


def test_gin_deadwood_is_at_most_what_ten_cards_cost() -> None:
    assert GIN.most_points(10) == 100
    validate_deal(
        Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 100}), players=("Anna", "Bea"), ruleset=GIN
    )
    with pytest.raises(
        InvalidDealError,
        match=r"^deadwood: Bea's 101 is more than 10 cards can cost in gin rummy \(at most 100\)$",
    ):
        validate_deal(
            Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 101}), players=("Anna", "Bea"), ruleset=GIN
        )


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_the_most_a_hand_can_cost_is_its_dearest_cards_for_every_variant_and_house_points(
    ruleset_id: str,
) -> None:
    """The dearest cards counted one by one from the ruleset's own points (the answer is
    remembered by what it depends on: a house rule changing a card's points changes it)."""
    from scorer.cards import DECK, JOKER

    base = load_ruleset(ruleset_id)
    for ruleset in (base, base.model_copy(update={"ace_points": 25, "court_points": 7, "joker_points": 50})):
        for decks in (1, 2):
            supply = [*DECK * decks, *[JOKER] * (decks * ruleset.jokers_per_deck)]
            costs = sorted((ruleset.points(card) for card in supply), reverse=True)
            for cards in (1, 7, 10, 13, 15, len(supply)):
                assert ruleset.most_points(cards, decks=decks) == sum(costs[:cards]), (decks, cards)


def test_penalty_points_are_at_most_what_a_hand_can_cost() -> None:
    # Two-player rommi: one deck, two jokers at 15, aces at 11, courts at 10; a hand holds 11.
    most = 2 * 15 + 4 * 11 + 5 * 10
    assert ROMMI.most_points(11, decks=1) == most
    validate_deal(Deal.build(out="Anna", points={"Bea": most}), players=("Anna", "Bea"), ruleset=ROMMI)
    with pytest.raises(
        InvalidDealError, match=rf"^points: Bea's {most + 1} is more than a hand of at most 11"
    ):
        validate_deal(
            Deal.build(out="Anna", points={"Bea": most + 1}), players=("Anna", "Bea"), ruleset=ROMMI
        )


def test_points_of_all_hands_together_are_at_most_the_decks() -> None:
    players = ("A", "B", "C", "D", "E", "F")
    # Six-player rommi: one deck, 6 dealt; no hand holds more than 7 (6 dealt, 1 drawn).
    each = ROMMI.most_points(7, decks=1)
    everyone = ROMMI.most_points(7 * 6, decks=1)
    assert everyone == 410 - 4 * (2 + 3 + 4)  # every card but the twelve cheapest
    assert 5 * each > everyone
    with pytest.raises(
        InvalidDealError, match=rf"in all is more than the hands can cost together .*{everyone}"
    ):
        validate_deal(
            Deal.build(out="A", points=dict.fromkeys(players[1:], each)), players=players, ruleset=ROMMI
        )


def test_a_hand_in_a_deal_is_at_most_what_this_games_deal_holds() -> None:
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    with pytest.raises(
        InvalidDealError,
        match=r"^hands: Bea holds 12 cards; in rommi with 2 players a hand holds at most 11 "
        r"\(10 dealt and 1 drawn in a turn\)$",
    ):
        validate_deal(Deal.build(out="Anna", hands={"Bea": hand}), players=("Anna", "Bea"), ruleset=ROMMI)
    # Four players are dealt 7: eight cards are the most a hand holds (issue 16).
    four = ("Anna", "Bea", "Cid", "Dan")
    eight, nine = {"Bea": hand[:23], "Cid": "", "Dan": ""}, {"Bea": hand[:26], "Cid": "", "Dan": ""}
    validate_deal(Deal.build(out="Anna", hands=eight), players=four, ruleset=ROMMI)
    with pytest.raises(InvalidDealError, match=r"^hands: Bea holds 9 cards; in rommi with 4 .* most 8 "):
        validate_deal(Deal.build(out="Anna", hands=nine), players=four, ruleset=ROMMI)


# -- a card twice in a deal, in the players' words ------------------------------------------


def test_a_card_twice_in_one_hand_names_the_hand() -> None:
    deal = Deal.build(knocker="Anna", hands={"Anna": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "Bea": "5H 5H " * 5})
    with pytest.raises(InvalidDealError, match=r"^hands: 5H is in Bea's hand 10 times, but gin rummy"):
        validate_deal(deal, players=("Anna", "Bea"), ruleset=GIN)
    deal = Deal.build(out="Anna", hands={"Bea": "5H 5H 7C"})
    with pytest.raises(InvalidDealError, match=r"^hands: 5H is in Bea's hand twice, but rommi"):
        validate_deal(deal, players=("Anna", "Bea"), ruleset=ROMMI)


def test_a_joker_in_a_game_without_jokers_names_the_hand() -> None:
    deal = Deal.build(
        knocker="Anna", hands={"Anna": "AS 2S 3S 4S 5S 6S 7S 8S 9S *", "Bea": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"}
    )
    with pytest.raises(
        InvalidDealError, match=r"^hands: a joker in Anna's hand, but gin rummy .* has no jokers$"
    ):
        validate_deal(deal, players=("Anna", "Bea"), ruleset=GIN)


# -- game files: pydantic's findings in the file's words -------------------------------------


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (game(deals=[{"knoker": "Anna"}]), "deal 1: unknown field 'knoker' (did you mean 'knocker'?)"),
        (game(plyers=["Anna"]), "unknown field 'plyers' (did you mean 'players'?)"),
        ({"players": ["Anna", "Bea"]}, "missing field 'ruleset'"),
        (game(players="Anna"), "players: 'Anna' is not a list"),
        (game(first_dealer="one"), "first_dealer: 'one' is not a whole number"),
        (game(deals=[{"dead": "yes"}]), "deal 1, dead: 'yes' is not true or false"),
        (game(deals=[{"hands": ["5H"]}]), 'deal 1, hands: ["5H"] is not a table of names and values'),
        (
            game(options={"target": [1]}),
            "option 'target': [1] is not true or false or a whole number or text",
        ),
        (game(players=["Anna"]), "players: 1 player, but gin rummy is for 2 players"),
        (game(players=["A" * 5000, "Bea"]), "player 1: 'AAAA"),
        (game(ruleset="x" * 5000), "ruleset id or path 'xxxx"),
        ([1, 2], "is not a table of names and values"),
    ],
)
def test_game_file_problems_in_the_players_words(document: Any, message: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_game(document)
    text = str(error.value)
    assert message in text and len(text) <= SHORT, text
    assert not any(words in text for words in LIBRARY_WORDS), text


# -- files: size, encoding, nesting, paths ---------------------------------------------------


def test_json_nested_a_thousand_levels_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"deals": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    with pytest.raises(
        InputTooLargeError, match=f"nests 1,001 levels deep; a document nests at most {MAX_DEPTH}"
    ):
        load_game(path)


def test_brackets_inside_strings_are_not_nesting() -> None:
    assert nesting_depth('{"a": "[[[[{{{{", "b": [1, "]]]]"]}') == 2
    assert nesting_depth('a = "[[[["\n# [[[[ a comment\nb = [[1]]', syntax="toml") == 2


def test_a_ten_megabyte_game_file_is_refused_by_its_size(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(game(deals=[{"knocker": "Anna", "dead": False}] * 300_000)), encoding="utf-8")
    size = path.stat().st_size
    assert size > 10 * MAX_DOCUMENT_BYTES
    err = refused(capsys, "score", str(path))
    assert f"is {size:,} bytes; a game file is at most {MAX_DOCUMENT_BYTES:,} bytes" in err


def test_a_device_is_not_read_as_a_file() -> None:
    # /dev/zero reports size 0 and never ends.
    with pytest.raises(GameFileError, match="cannot read game file '/dev/zero': it is not a regular file"):
        load_game("/dev/zero")


def test_invalid_utf8_names_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"ruleset": "gin", "players": ["Ann\xe9", "Bea"]}')
    err = refused(capsys, "score", str(path))
    assert err.startswith(f"rummy score: game file {quote(str(path))} is not UTF-8 text: byte 36 (line 1)")


def test_a_number_of_thousands_of_digits_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "digits.json"
    path.write_text('{"first_dealer": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(GameFileError, match="holds a number too long to be a score"):
        load_game(path)


def test_a_folder_is_not_a_game_file(tmp_path: Path) -> None:
    with pytest.raises(GameFileError, match=r"cannot read game file .*: it is a folder"):
        load_game(tmp_path)


@pytest.mark.parametrize("name", ["g" * 300, "/tmp/" + "g" * 300 + ".toml", "rules/" + "é" * 200])
def test_a_ruleset_id_or_path_too_long_for_a_file_system(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    err = refused(capsys, "check", "--rules", name, "5H 6H 7H")
    assert "rummy check: ruleset id or path '" in err and "too long" in err


def test_a_game_file_path_too_long_for_a_file_system(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "score", "/tmp/" + "g" * 300 + ".json")
    assert "game file '/tmp/ggg" in err and "(310 characters): too long" in err


def test_a_ruleset_file_nested_too_deep_or_too_big(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text('base = "gin"\nid = "deep"\nx = ' + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    with pytest.raises(InputTooLargeError, match="nests 1,000 levels deep"):
        load_ruleset(str(deep))
    big = tmp_path / "big.toml"
    big.write_text('base = "gin"\n' + "# padding\n" * (MAX_RULESET_BYTES // 10 + 1), encoding="utf-8")
    with pytest.raises(InputTooLargeError, match=f"a ruleset file is at most {MAX_RULESET_BYTES:,} bytes"):
        load_ruleset(str(big))


def test_a_ruleset_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'base = "gin"\nname = "gin \xe0 la maison"\n')
    with pytest.raises(
        RulesetError, match=r"^ruleset file '/.* is not UTF-8 text: byte 26 \(line 2\) cannot be read$"
    ):
        load_ruleset(str(path))


# -- usage errors: one line, the missing argument named --------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("check",), "rummy check: missing CARDS (see 'rummy check --help')"),
        (
            ("knock", "--rules", "gin", "--knocker", "5H"),
            "rummy knock: missing --defender (see 'rummy knock --help')",
        ),
        (
            ("table", "--before", ""),
            "rummy table: missing --from-hand and --after (see 'rummy table --help')",
        ),
        ((), "rummy: missing COMMAND (see 'rummy --help')"),
        (("chek",), "rummy: unknown command 'chek' (did you mean 'check'?); one of rulesets, check"),
        (("check", "--rules"), "rummy check: --rules needs a value (see 'rummy check --help')"),
        (
            ("check", "--rules", "gin", "5H", "6H", "7H"),
            "rummy: unknown argument '6H 7H' (CARDS is one argument: quote it, \"5H 6H 7H\")",
        ),
    ],
)
def test_usage_errors_are_one_line_naming_the_argument(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in usage_error(capsys, *argv)


def test_a_game_file_holds_at_most_the_deal_limit() -> None:
    deals = [{"dead": True}] * (MAX_DEALS + 1)
    with pytest.raises(GameFileError, match=rf"^deals: {MAX_DEALS + 1:,} entries; at most {MAX_DEALS:,}$"):
        parse_game(game(deals=deals))
    assert len(parse_game(game(deals=deals[:MAX_DEALS])).deals) == MAX_DEALS


def test_opening_hand_larger_than_kalooki_holds_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    hand = " ".join(["AS 2S 3S 4S 5S 6S 7S 8S 9S"] * 2)
    err = refused(capsys, "opening", "--hand", hand)
    assert err == (
        "rummy opening: --hand: 18 cards, but a hand in Kalooki holds at most 16 "
        "(15 dealt and 1 drawn in a turn)"
    )


def test_an_unknown_option_suggests_the_field_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "check", "--rules", "gin", "--option", "undercut_bonsu=3", "5H 6H 7H")
    assert err == (
        "rummy check: unknown option 'undercut_bonsu' for ruleset 'gin'; did you mean 'undercut_bonus'? "
        "(every option: 'rummy rulesets --options gin')"
    )
    assert "(3,000 characters)" in refused(
        capsys, "check", "--rules", "gin", "--option", "q" * 3000, "5H 6H 7H"
    )


def test_a_ruleset_base_too_long_for_a_file_system(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text(f'base = "{"x" * 300}"\n', encoding="utf-8")
    with pytest.raises(
        InputTooLargeError, match=r"^base of ruleset file 'long.toml' 'xxx.* \(300 characters\): too long"
    ):
        load_ruleset(str(path))


def test_an_oversized_hand_is_refused_before_any_message_quotes_it() -> None:
    hand = " ".join(["AS 2S 3S"] * 10)
    with pytest.raises(
        InvalidDealError, match=r"^hands: Anna holds 30 cards; in rommi with 2 players .* at most 11"
    ):
        validate_deal(Deal.build(out="Anna", hands={"Anna": hand}), players=("Anna", "Bea"), ruleset=ROMMI)
    melds = " | ".join(["AS 2S 3S"] * 4)
    with pytest.raises(
        InvalidDealError, match=r"^melds: Anna's melds hold 12 cards; a hand in gin rummy holds"
    ):
        validate_deal(
            Deal.build(knocker="Anna", deadwood={"Anna": 0, "Bea": 0}, melds={"Anna": melds}),
            players=("Anna", "Bea"),
            ruleset=GIN,
        )


def test_the_upcard_is_one_card(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(
        capsys,
        "knock",
        "--rules",
        "oklahoma-gin",
        "--knocker",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "--defender",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
        "--upcard",
        "KD " * 500,
    )
    assert err == f"rummy knock: --upcard: {quote('KD ' * 500)} is not one card"
    assert "(1,500 characters)" in err


def test_declared_melds_hold_no_more_than_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    melds = " | ".join(["AS 2S 3S", "4S 5S 6S", "7S 8S 9S", "TS JS QS"])
    hands = ("--knocker", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "--defender", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH")
    err = refused(capsys, "knock", "--rules", "gin", *hands, "--melds", melds)
    assert err.startswith("rummy knock: --melds: 12 cards, but a hand in gin rummy holds at most 11")
    opening = " | ".join(["AS 2S 3S 4S 5S 6S"] * 3)
    err = refused(capsys, "opening", "--melds", opening)
    assert err.startswith(
        "rummy opening: --melds and --layoffs: 18 cards, but a hand in Kalooki holds at most 16"
    )
