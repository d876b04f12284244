"""Issue 24, items 8 and 9, in plain pytest: the screens' words and the view-models behind them.

Names as typed, refused names under their seat, Finnish with no English left in it, a
finished game that offers no next deal, a correction's history that says what changed, the
conflict panel's hands written once, and a device that always signs its changes. The layout
parts (help lines wrapping, the gin outcome beside Save deal) are in Chromium:
tests/test_ui_browser_texts.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft
import pytest

from scorer.league.records import GameEvent
from scorer.league.store import Store
from scorer.messages import Message, render
from scorer.names import InvalidNameError, clean_name
from scorer.ruleset import bundled_ids, load_ruleset
from scorer.ruleset_text import option_meaning
from scorer.ui.components.conflict_panel import side_lines
from scorer.ui.context import AppSettings, device_name
from scorer.ui.engine_text import engine_text, field_text
from scorer.ui.i18n import tr
from scorer.ui.screens.conflict_model import describe_deal
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.history_model import deal_event_line, event_line
from scorer.ui.screens.leagues_model import LeagueModel, season_name
from scorer.ui.screens.new_game import _player_row
from scorer.ui.screens.new_game_model import NewGameModel
from scorer.ui.screens.night import _name_field
from scorer.ui.screens.scoreboard_model import ScoreboardModel


def _fields(control: ft.Control) -> list[ft.TextField]:
    found = [control] if isinstance(control, ft.TextField) else []
    for child in getattr(control, "controls", None) or []:
        found += _fields(child)
    return found


# -- names as typed --------------------------------------------------------------------------


def test_a_players_name_field_never_capitalises_what_is_typed() -> None:
    """A phone's keyboard wrote "Von" for "von" and "Aino" for "aino": the fields asked it to."""
    model = NewGameModel(players=["aino", "Ludwig von B"])
    seat = _fields(_player_row(model, 0, "en"))
    typed = _name_field("en", value="aino", set_value=lambda _: None, add=lambda _: True, error="")
    new_player = _fields(typed)
    for field in seat + new_player:
        assert field.capitalization in (None, ft.TextCapitalization.NONE)


def test_a_refused_name_is_said_under_its_seat_in_the_screens_language_only() -> None:
    """At the bottom of New game, with the name escaped and the character's English Unicode
    name in the Finnish text: now under the seat, which character and why, in Finnish only."""
    store = Store.memory()
    model = NewGameModel(ruleset_id="rommi", players=["Anna", "Be\u202ea", "Cid"])
    assert model.start(store) is None
    assert model.error == "" and set(model.seat_errors) == {1}
    under = field_text(model.seat_errors[1], "fi")
    assert under == (
        "Merkki 3 on näkymätön kirjoitussuunnan ohjausmerkki, joka voi saada nimen näkymään "
        "takaperin: poista se."
    )
    assert "\\u" not in under and "RIGHT-TO-LEFT" not in under and "U+" not in under
    field = _fields(_player_row(model, 1, "fi"))[0]
    assert field.error == under
    assert not _fields(_player_row(model, 0, "fi"))[0].error
    assert store.games() == []  # nothing started
    model.set_player(1, "Bea")  # put right: the seat's message goes, and the game starts
    assert model.seat_errors == {}
    assert model.start(store) is not None


def test_a_new_players_refused_name_under_its_field_says_it_in_finnish_only() -> None:
    error = ""
    try:
        clean_name("Gus\u200b", what="player")
    except InvalidNameError as exc:
        error = str(exc)
    shown = _fields(
        _name_field("fi", value="Gus\u200b", set_value=lambda _: None, add=lambda _: False, error=error)
    )
    assert shown[0].error == "Merkki 4 ei näy: nimessä saa olla vain näkyviä merkkejä."


# -- Finnish screens with no English left in them -----------------------------------------------


def test_a_leagues_first_season_is_named_in_the_screens_language() -> None:
    """The store names a season nobody named "Season 1" (store.py's default): shown in Finnish
    as "Kausi 1"; a name someone gave is shown as given."""
    store = Store.memory()
    league = store.create_league("Klubi")
    (first,) = league.seasons
    assert first.name == "Season 1"
    assert season_name(first.name, "fi") == "Kausi 1"
    assert season_name(first.name, "en") == "Season 1"
    second = store.new_season("Klubi")
    assert season_name(second.name, "fi") == "Kausi 2"
    named = store.new_season("Klubi", "Kevät 2027")
    assert season_name(named.name, "fi") == "Kevät 2027"
    model = LeagueModel.load(store, league.id)
    shown = [season_name(name, "fi") for _, name in model.scopes()]
    assert shown == ["Kevät 2027", "Kausi 2", "Kausi 1"]


def test_a_house_rules_meaning_says_an_empty_field_in_finnish() -> None:
    """ "(none: ei tavoitetta)": the word --option takes, in a Finnish sentence."""
    model = NewGameModel(ruleset_id="rommi")
    meanings = {rule.name: rule.meaning("fi") for rule in model.house_rules()}
    assert meanings["target"] == "Peli päättyy, kun pelaaja saavuttaa tämän (tyhjä: ei tavoitetta)."
    for ruleset in bundled_ids():  # no variant's house rule keeps the English word
        for rule in NewGameModel(ruleset_id=ruleset).house_rules():
            assert "none" not in rule.meaning("fi"), (ruleset, rule.name)
    # The command line and the Rules screen keep the value --option takes.
    assert (
        option_meaning("target", "fi") == "Peli päättyy, kun pelaaja saavuttaa tämän (none: ei tavoitetta)."
    )


@pytest.mark.parametrize(
    ("ruleset", "finnish"),
    [
        ("rommi-stop", "Kerro, kuka meni ulos tai miten jako päättyi."),
        ("carousel", "Kerro, kuka koputti, kuka meni ulos tai miten jako päättyi."),
    ],
)
def test_how_the_deal_ended_is_asked_for_in_the_apps_words(ruleset: str, finnish: str) -> None:
    """ "kerro kuka meni ulos (out) tai miten jako päättyi (ended)": the game file's fields
    (out, ended, knocker), in English, inside the Finnish; the app names no field."""
    store = Store.memory()
    players = ["Anna", "Bea"]
    model = DealModel.load(store, store.start_game(ruleset=ruleset, players=players).id)
    model.set_cards("Bea", "KS")
    for said in (model.pending, *model.errors.values()):
        assert "(" not in engine_text(said, "fi")
    assert engine_text(model.pending, "fi") == finnish
    assert not model.save(store)
    assert engine_text(model.errors["out"], "fi") == finnish
    assert engine_text(model.errors["out"], "en") == tr(
        f"deal.{'say_how_carousel' if ruleset == 'carousel' else 'say_how'}_app", "en"
    )


def test_a_gin_deal_without_a_knocker_asks_for_one_in_the_apps_words() -> None:
    store = Store.memory()
    model = DealModel.load(store, store.start_game(ruleset="gin", players=["Anna", "Bea"]).id)
    model.set_cards("Bea", "KS")
    assert not model.save(store)
    assert engine_text(model.errors["out"], "fi") == "Kerro, kuka koputti, tai valitse Kuollut jako."


# -- a finished game has no next deal ------------------------------------------------------------

GIN_TO_50 = {"knocker": "Anna", "big_gin": True, "deadwood": {"Anna": 0, "Bea": 20}}  # Anna 51: over


def test_a_finished_game_offers_no_form_for_a_next_deal() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}).id
    assert not DealModel.load(store, game_id).over
    store.add_deal(game_id, GIN_TO_50)
    assert store.game(game_id).result.finished
    assert DealModel.load(store, game_id).over
    assert not DealModel.load(store, game_id, 1).over  # a correction of a finished game is fine


def test_a_conflict_over_the_deal_that_ended_the_game_offers_no_next_deal() -> None:
    """Both phones enter the last deal; theirs is saved first and ends the game: mine can be
    dropped or put in place of theirs, never saved as a deal after the end."""
    store = Store.memory()
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"], options={"target": 50}).id
    mine = DealModel.load(store, game_id)
    mine.set_entry("points")
    mine.set_knocker("Anna")
    mine.set_points("Anna", "0")
    mine.set_points("Bea", "12")
    store.add_deal(game_id, GIN_TO_50, by="Bea")  # the other phone, a moment earlier
    assert not mine.save(store, by="Cid")
    assert mine.conflict is not None
    assert not mine.offers_next
    assert not mine.save_as_next(store, by="Cid")
    assert len(store.game(game_id).game.deals) == 1
    assert mine.replace_theirs(store, by="Cid", why="ours was right")
    assert store.game(game_id).document["deals"][0]["deadwood"] == {"Anna": 0, "Bea": 12}


def test_a_conflict_in_a_game_still_going_offers_the_next_deal() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    mine = DealModel.load(store, game_id)
    mine.set_out("Anna")
    mine.set_cards("Bea", "KS")
    store.add_deal(game_id, {"hands": {"Anna": "5C", "Bea": ""}, "out": "Bea"}, by="Bea")
    assert not mine.save(store, by="Cid")
    assert mine.offers_next
    assert mine.save_as_next(store, by="Cid")


# -- the conflict panel writes each hand once -----------------------------------------------------


def _texts(controls: list[ft.Control]) -> list[str]:
    found = []
    for control in controls:
        if isinstance(control, ft.Text):
            found.append((control.value or "") + "".join(span.text or "" for span in control.spans or []))
    return found


def test_the_conflict_panel_writes_each_hand_once_with_the_suit_symbols() -> None:
    side = describe_deal(
        {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"},
        ruleset=load_ruleset("rommi"),
        players=("Anna", "Bea"),
    )
    for language in ("en", "fi"):
        lines = _texts(side_lines(side, language))
        bea = [line for line in lines if "K" in line and "5" in line]
        assert bea == ["Bea: K♠ 5♥ (15)"], lines
        assert not any("KS" in line for line in lines)


# -- every device signs its changes -------------------------------------------------------------


def test_a_device_makes_a_name_of_its_own_on_its_first_start_and_keeps_it() -> None:
    first = AppSettings(language="fi")
    first.kept(name=None, device=None, new_device=device_name("fi"))  # nothing kept: the first start
    assert re.fullmatch(r"Laite [A-HJ-NP-Z2-9]{4}", first.device)
    assert first.name == first.device and first.signer == first.device
    # The next session keeps the name and the device's own name it was given.
    later = AppSettings(language="fi")
    later.kept(name=first.name, device=first.device, new_device=device_name("fi"))
    assert (later.name, later.device) == (first.name, first.device)
    # Changed in Settings: the new name signs; emptied, or refused, the device's own name does.
    later.set_name("Bean puhelin")
    assert later.signer == "Bean puhelin"
    later.set_name("")
    assert later.signer == first.device
    later.set_name("Bea\u202e")
    assert later.name_problem and later.signer == first.device


def test_a_device_that_kept_an_empty_name_signs_with_its_own() -> None:
    """A device from before names of their own kept "" as its name: it signs now all the same."""
    settings = AppSettings()
    settings.kept(name="", device=None, new_device=device_name("en", tag="K7MP"))
    assert settings.name == "" and settings.signer == "Device K7MP"
    store = Store.memory()
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea"], by=settings.signer)
    assert store.events(game.id)[0].by == "Device K7MP"


# -- a correction's history says what it changed --------------------------------------------------


@pytest.fixture(params=["memory", "folder"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return Store.memory() if request.param == "memory" else Store.open(tmp_path / "league")


def test_a_corrections_history_line_shows_the_old_entry_and_its_score(store: Store) -> None:
    """ "corrected by Bea at 21:04: Bea went out" said who, when and why, not what changed."""
    game_id = store.start_game(ruleset="rommi", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"}, by="Cid")
    store.add_deal(game_id, {"hands": {"Anna": "3C", "Bea": ""}, "out": "Bea"}, by="Cid")
    store.replace_deal(
        game_id, 0, {"hands": {"Anna": "7C", "Bea": ""}, "out": "Bea"}, by="Bea", why="Bea went out"
    )
    board = ScoreboardModel.load(Store.open(store.location) if store.location else store, game_id)
    rows, _ = board.history()
    corrected = rows[1][-1]
    assert corrected.action == "corrected"
    assert corrected.was == {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"}
    game = board.saved.game
    en = deal_event_line(corrected, game=game, number=1, language="en")
    fi = deal_event_line(corrected, game=game, number=1, language="fi")
    assert en.endswith(": Bea went out · was: Anna went out, Bea K♠ 5♥; scored Anna 0, Bea 15"), en
    assert fi.endswith(": Bea went out · oli: Anna meni ulos, Bea K♠ 5♥; pisteet Anna 0, Bea 15"), fi
    # A line that changed nothing says nothing more; nor does a correction kept before `was`.
    recorded = rows[2][0]
    assert deal_event_line(recorded, game=game, number=2, language="en") == event_line(recorded, "en")
    older = GameEvent(seq=9, at=corrected.at, by="Bea", action="corrected", deal=1, why=None)
    assert deal_event_line(older, game=game, number=1, language="en") == event_line(older, "en")


def test_a_gin_corrections_history_names_the_knocker_and_the_points() -> None:
    store = Store.memory()
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    store.add_deal(game_id, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 30}})
    store.replace_deal(game_id, 0, {"knocker": "Anna", "deadwood": {"Anna": 5, "Bea": 40}}, by="Bea")
    event = store.events(game_id)[-1]
    line = deal_event_line(event, game=store.game(game_id).game, number=1, language="en")
    assert line.endswith(" · was: Anna knocked, Anna 5, Bea 30; scored Anna 25, Bea 0"), line


def test_the_apps_words_are_said_again_in_another_language() -> None:
    """What a view-model kept in one language is shown in another (the language switch)."""
    nested = Message("deal.deal_number", number=2, rest=Message("deal.say_how"))
    english = engine_text(nested, "en")
    assert english == "deal 2: Say who went out, or how the deal ended."
    assert engine_text(english, "fi") == "jako 2: Kerro, kuka meni ulos tai miten jako päättyi."
    plain = engine_text(Message("deal.no_entry", players="Cid"), "en")
    assert engine_text(plain, "fi") == render(Message("deal.no_entry", players="Cid"), "fi")
