"""Deals confirmed at the table on the app's screens, as plain Python (no Flet session): the
Scoreboard's Confirm and Dispute, the director's Disputes and Unconfirmed deals, the marks on
the director's screen and the TV view (scorer/ui/screens/confirm_model.py)."""

from __future__ import annotations

from typing import Any

from scorer.league.store import Store
from scorer.ui.screens.confirm_model import DirectorChecks, TableChecks, check_line, mark_text
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.night_model import NightModel
from scorer.ui.screens.scoreboard_model import ScoreboardModel
from scorer.ui.screens.tv_model import TvModel

FOUR = ["Anna", "Bea", "Cid", "Dan"]


def deal(bea: str = "KS AH *") -> dict[str, Any]:
    return {"hands": {"Anna": "", "Bea": bea, "Cid": "QD", "Dan": "KH QH JH"}, "out": "Anna"}


def night_table() -> tuple[Store, str, str]:
    store = Store.memory()
    store.create_league("Club")
    night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=1)
    return store, night.id, night.rounds[0].tables[0].game


def test_a_deal_saved_on_phone_a_is_confirmed_on_phone_b() -> None:
    store, _, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    phone_a, phone_b = TableChecks.load(store, game), TableChecks.load(store, game)
    assert phone_a.to_confirm("Anna") == []
    assert [check_line(c, me="Anna", language="en") for c in phone_a.checks] == [
        "Deal 1: waiting for confirmation"
    ]
    (shown,) = phone_b.to_confirm("Bea")
    assert check_line(shown, me="Bea", language="en") == "Deal 1 saved by Anna: is it right?"
    assert check_line(shown, me="Bea", language="fi") == "Jaon 1 tallensi Anna: onko se oikein?"
    side = phone_b.side(dict(shown.deal))
    assert side.out == "Anna" and [h.cards for h in side.hands][:2] == ["", "KS AH *"]
    assert phone_b.confirm(store, 1, by="Bea") and phone_b.to_confirm("Bea") == []
    phone_a.reload(store)
    assert [check_line(c, me="Anna", language="en") for c in phone_a.checks] == ["Deal 1 confirmed by Bea"]
    board = ScoreboardModel.load(store, game)
    history, _ = board.history()
    assert [e.action for e in history[1]] == ["recorded", "confirmed"]


def test_a_confirmation_of_a_deal_changed_meanwhile_says_so_and_saves_nothing() -> None:
    store, _, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    phone_b = TableChecks.load(store, game)
    store.replace_deal(game, 0, deal(bea="KS"), by="Anna", why="miscounted")
    assert not phone_b.confirm(store, 1, by="Bea")
    assert phone_b.error.startswith("deal 1 was changed meanwhile")
    assert [c.state for c in phone_b.checks] == ["unconfirmed"] and phone_b.checks[0].deal == deal(bea="KS")


def test_a_dispute_with_its_reason_goes_to_the_director_who_keeps_one() -> None:
    store, night_id, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    phone_b = TableChecks.load(store, game)
    phone_b.open_dispute(1)
    phone_b.set_why("I had no ace")
    assert phone_b.dispute(store, by="Bea") and phone_b.disputing == 0
    assert check_line(phone_b.checks[0], me="Bea", language="en") == (
        "Deal 1: Bea disputes it, the director decides"
    )
    director = DirectorChecks.load(store, night_id)
    (item,) = director.disputes
    assert (item.round, item.table, item.check.why, item.check.theirs) == (1, 1, "I had no ace", None)
    assert director.unconfirmed == []
    assert not director.keep(item, "saved", by="Director")  # a reason is needed
    assert director.error == "resolving deal 1 needs a reason: say why"
    director.set_reason(item, "the ace was seen")
    assert director.keep(item, "saved", by="Director") and director.disputes == []
    phone_b.reload(store)
    assert check_line(phone_b.checks[0], me="Bea", language="fi") == (
        "Jako 1: tuomari (Director) säilytti tallennetun version"
    )


def test_the_director_keeps_theirs_and_confirms_the_rest() -> None:
    store, night_id, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.dispute_deal(game, 1, by="Cid", why="Bea's ace", deal=deal(bea="KS *"))
    director = DirectorChecks.load(store, night_id)
    (item,) = director.disputes
    assert item.side(dict(item.check.theirs or {})).hands[1].cards == "KS *"
    director.set_reason(item, "Bea showed her hand")
    assert director.keep(item, "theirs", by="Director")
    assert store.game(game).document["deals"][0] == deal(bea="KS *")
    (waiting,) = director.unconfirmed
    assert waiting.check.number == 2 and director.confirm(waiting, by="Anna")  # the director may
    assert director.unconfirmed == [] and [c.state for c in store.deal_checks(game)] == [
        "resolved",
        "confirmed",
    ]


def test_the_director_screen_and_the_tv_mark_the_deals_waiting() -> None:
    store, night_id, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.dispute_deal(game, 2, by="Bea", why="no")
    night = NightModel.load(store, night_id)
    (card,) = night.current()
    assert (card.unconfirmed, card.disputed) == (2, 1)
    assert mark_text(card.unconfirmed, card.disputed, "en") == "Unconfirmed deals: 2, disputed: 1"
    assert mark_text(card.unconfirmed, card.disputed, "fi") == "Vahvistamattomia jakoja: 2, kiistettyjä: 1"
    assert all((line.unconfirmed, line.disputed) == (2, 1) for line in night.lines)
    assert not night.end_night() and night.error.startswith("the night cannot end with a dispute open")
    (table,) = TvModel.load(store, night_id).tables()
    assert (table.unconfirmed, table.disputed) == (2, 1)
    store.confirm_deal(game, 1, by="Cid")
    store.resolve_dispute(game, 2, keep="saved", why="seen", by="Director")
    night.reload()
    assert night.current()[0].unconfirmed == 0 and mark_text(0, 0, "en") == ""
    assert night.end_night()


def test_an_ordinary_game_shows_no_confirmations_unless_its_league_turned_them_on() -> None:
    store = Store.memory()
    store.create_league("Club")
    game = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(game, deal(), by="Anna")
    board = TableChecks.load(store, game)
    assert board.checks == () and board.to_confirm("Bea") == []
    store.set_confirmation("Club", on=True)
    confirmed = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(confirmed, deal(), by="Anna")
    board = TableChecks.load(store, confirmed)
    assert [c.number for c in board.to_confirm("Bea")] == [1] and board.confirm(store, 1, by="Bea")
    assert check_line(board.checks[0], me="Anna", language="en") == "Deal 1 confirmed by Bea"


def test_their_version_entered_on_the_deal_entry_form_goes_with_the_dispute() -> None:
    store, night_id, game = night_table()
    store.add_deal(game, deal(), by="Anna")
    entry = DealModel.load(store, game, 1, disputing=True)
    assert entry.disputing and entry.document() == deal()  # it starts from the deal as saved
    assert not entry.save(store, by="Bea")  # unchanged: it is the deal as saved
    assert entry.errors["deal"] == "your version of deal 1 is the deal as saved: confirm it instead"
    entry.set_cards("Bea", "KS *")
    entry.set_why("the ace was mine")
    assert entry.save(store, by="Bea")
    (check,) = store.deal_checks(game)
    assert (check.state, check.why, check.theirs) == ("disputed", "the ace was mine", deal(bea="KS *"))
    assert store.game(game).document["deals"][0] == deal()  # the deal stays as saved
    (item,) = DirectorChecks.load(store, night_id).disputes
    assert item.check.theirs == deal(bea="KS *")
