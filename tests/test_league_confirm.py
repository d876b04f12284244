"""Deals confirmed at the table (docs/rules.md, "Confirmed deals (club nights)"): the store's
rules for confirming, disputing and resolving a club night's deals, on every storage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import reopen
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.errors import ScorerError
from scorer.league.confirm import KEEPS, ConfirmError
from scorer.league.errors import ConflictError, StoreInputError
from scorer.league.store import Store

FOUR = ["Anna", "Bea", "Cid", "Dan"]


@pytest.fixture()
def store(store_of_each_kind: Store) -> Store:
    """A store of each kind (conftest) with the league Club."""
    store_of_each_kind.create_league("Club")
    return store_of_each_kind


def deal(bea: str = "KS AH *", cid: str = "QD") -> dict[str, Any]:
    """A rommi deal at the table of four: Anna goes out, the others pay for their cards."""
    return {"hands": {"Anna": "", "Bea": bea, "Cid": cid, "Dan": "KH QH JH"}, "out": "Anna"}


def table_game(store: Store, **night: Any) -> str:
    started = store.start_night("Club", players=FOUR, ruleset="rommi", seed=1, **night)
    return started.rounds[0].tables[0].game


class _Refused:
    """``with _Refused("confirm.own_deal"):`` the block raises ConfirmError with that code."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.raises = pytest.raises(ConfirmError)

    def __enter__(self) -> None:
        self.info = self.raises.__enter__()

    def __exit__(self, *exc: Any) -> bool:
        handled = bool(self.raises.__exit__(*exc))
        assert self.info.value.message.code == self.code, str(self.info.value)
        return handled


def test_a_deal_saved_at_a_night_table_waits_until_another_phone_confirms_it(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna's phone")
    (check,) = store.deal_checks(game)
    assert (check.state, check.saved_by, check.number) == ("unconfirmed", "Anna's phone", 1)
    store.confirm_deal(game, 1, by="Bea's phone", expected=deal())
    (check,) = store.deal_checks(game)
    assert (check.state, check.by) == ("confirmed", "Bea's phone")
    event = store.events(game)[-1]
    assert (event.action, event.by, event.deal) == ("confirmed", "Bea's phone", 1)
    assert store.deal_checks(game) == reopen(store).deal_checks(game)


def test_the_phone_that_saved_a_deal_cannot_confirm_it_nor_can_an_unnamed_phone(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    position = store.position
    with _Refused("confirm.own_deal"):
        store.confirm_deal(game, 1, by=" anna ")  # the same name, as the store compares names
    with _Refused("confirm.unsigned"):
        store.confirm_deal(game, 1, by="")
    with _Refused("confirm.own_dispute"):
        store.dispute_deal(game, 1, by="Anna", why="oops")
    with _Refused("confirm.no_deal"):
        store.confirm_deal(game, 2, by="Bea")
    assert store.position == position and store.deal_checks(game)[0].state == "unconfirmed"
    store.confirm_deal(game, 1, by="Anna", director=True)  # the director confirms any deal
    assert store.deal_checks(game)[0].by == "Anna"
    with _Refused("confirm.already"):
        store.confirm_deal(game, 1, by="Bea")


def test_a_confirmation_is_of_the_deal_as_the_confirmer_saw_it(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    store.replace_deal(game, 0, deal(cid="QD QS"), by="Cid", why="two queens")
    with pytest.raises(ConflictError):
        store.confirm_deal(game, 1, by="Bea", expected=deal())
    assert store.deal_checks(game)[0].state == "unconfirmed"


def test_ordinary_games_and_nights_without_confirmation_need_none(store: Store) -> None:
    ordinary = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(ordinary, deal(), by="Anna")
    assert store.deal_checks(ordinary) == ()
    with _Refused("confirm.not_a_night"):
        store.confirm_deal(ordinary, 1, by="Bea")
    game = table_game(store, confirmation=False)
    store.add_deal(game, deal(), by="Anna")
    with _Refused("confirm.night_off"):
        store.confirm_deal(game, 1, by="Bea")
    night, rows = store.night_standings("Club")
    assert not night.confirmation and night.unconfirmed == 0 and all(r.unconfirmed == 0 for r in rows)


def test_a_correction_makes_a_confirmed_deal_unconfirmed_again(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.confirm_deal(game, 1, by="Bea")
    store.confirm_deal(game, 2, by="Bea")
    store.replace_deal(game, 0, deal(cid="QD QS"), by="Cid", why="two queens")
    assert [c.state for c in store.deal_checks(game)] == ["unconfirmed", "confirmed"]
    assert store.deal_checks(game)[0].saved_by == "Cid"
    store.remove_deal(game, 0, by="Cid", why="dealt again")  # the confirmed deal becomes deal 1
    (check,) = store.deal_checks(game)
    assert (check.number, check.state, check.by) == (1, "confirmed", "Bea")


def test_a_dispute_kept_as_saved_by_the_director(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    totals = store.game(game).result.totals
    store.dispute_deal(game, 1, by="Bea", why="I had no ace")
    (check,) = store.deal_checks(game)
    assert (check.state, check.disputed_by, check.why, check.theirs) == (
        "disputed",
        "Bea",
        "I had no ace",
        None,
    )
    with _Refused("confirm.disputed"):
        store.confirm_deal(game, 1, by="Cid")
    with _Refused("confirm.why_needed"):
        store.resolve_dispute(game, 1, keep="saved", why=" ", by="Director")
    with _Refused("confirm.no_version"):
        store.resolve_dispute(game, 1, keep="theirs", why="Bea is right", by="Director")
    with _Refused("confirm.bad_keep"):
        store.resolve_dispute(game, 1, keep="mine", why="why not", by="Director")
    stored = store.resolve_dispute(game, 1, keep="saved", why="the ace was seen", by="Director")
    assert stored.result.totals == totals
    (check,) = store.deal_checks(game)
    assert (check.state, check.kept, check.by, check.why) == (
        "resolved",
        "saved",
        "Director",
        "the ace was seen",
    )
    event = store.events(game)[-1]
    assert (event.action, event.by, event.why) == ("resolved", "Director", "the ace was seen")
    with _Refused("confirm.not_disputed"):
        store.resolve_dispute(game, 1, keep="saved", why="again", by="Director")


def test_a_dispute_kept_as_theirs_is_a_correction_signed_by_the_director(store: Store) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    with _Refused("confirm.same_version"):
        store.dispute_deal(game, 1, by="Bea", why="same", deal=deal())
    store.dispute_deal(game, 1, by="Bea", why="no ace", deal=deal(bea="KS *"))
    assert store.deal_checks(game)[0].theirs == deal(bea="KS *")
    stored = store.resolve_dispute(game, 1, keep="theirs", why="Bea showed her hand", by="Director")
    assert stored.document["deals"][0] == deal(bea="KS *")
    assert (
        stored.result.totals
        == store.start_game(ruleset="rommi", players=FOUR).game.add(_parsed(deal(bea="KS *"))).result.totals
    )
    corrected, resolved = store.events(game)[-2:]
    assert (corrected.action, corrected.by, corrected.why) == ("corrected", "Director", "Bea showed her hand")
    assert corrected.was == deal()
    assert (resolved.action, resolved.by) == ("resolved", "Director")
    (check,) = store.deal_checks(game)
    assert (check.state, check.kept, check.deal) == ("resolved", "theirs", deal(bea="KS *"))


def _parsed(document: dict[str, Any]) -> Any:
    from scorer.gamefile import DealDocument

    return DealDocument.model_validate(document).to_deal()


def test_a_night_cannot_end_nor_be_over_with_a_dispute_open(store: Store) -> None:
    game = table_game(store, rounds=1, options={"target": 30})
    store.add_deal(game, deal(), by="Anna")  # ends the game: 30 reached
    store.dispute_deal(game, 1, by="Bea", why="miscounted")
    night = store.night("Club")
    assert not night.over and night.disputed == 1 and night.rounds[0].tables[0].disputed == 1
    open_night = store.start_night("Club", players=FOUR, ruleset="rommi", seed=2, options={"target": 30})
    other = open_night.rounds[0].tables[0].game
    store.add_deal(other, deal(), by="Anna")
    store.dispute_deal(other, 1, by="Cid", why="Dan's cards")
    with pytest.raises(ConfirmError) as caught:
        store.end_night("Club")
    assert caught.value.message.code == "confirm.night_disputed"
    assert str(caught.value) == (
        "the night cannot end with a dispute open: round 1, table 1, deal 1; "
        "the director keeps one version first"
    )
    assert caught.value.message.render("fi").startswith(
        "iltaa ei voi päättää, kun kiista on auki: kierros 1, pöytä 1"
    )
    store.resolve_dispute(other, 1, keep="saved", why="counted again", by="Director")
    assert store.end_night("Club").over
    store.resolve_dispute(game, 1, keep="saved", why="counted again", by="Director")
    assert store.night("Club", night.id).over


def test_the_night_standings_mark_the_deals_waiting(store: Store) -> None:
    night = store.start_night("Club", players=[*FOUR, "Eve", "Fay", "Gus", "Hal"], ruleset="rommi", seed=3)
    first, second = night.rounds[0].tables
    for table in (first, second):
        names = list(table.players)
        hands = dict(zip(names, ["", "KS AH *", "QD", "KH QH JH"], strict=True))
        store.add_deal(table.game, {"hands": hands, "out": names[0]}, by=names[0])
        store.add_deal(table.game, {"hands": hands, "out": names[0]}, by=names[0])
    store.confirm_deal(first.game, 1, by=first.players[1])
    store.dispute_deal(second.game, 2, by=second.players[1], why="no")
    night, rows = store.night_standings("Club")
    assert [(t.unconfirmed, t.disputed) for t in night.rounds[0].tables] == [(1, 0), (2, 1)]
    assert (night.unconfirmed, night.disputed) == (3, 1)
    ids = {p: i for t in night.rounds[0].tables for p, i in zip(t.players, t.ids, strict=True)}
    marks = {r.player: (r.unconfirmed, r.disputed) for r in rows}
    assert all(marks[ids[p]] == (1, 0) for p in first.players)
    assert all(marks[ids[p]] == (2, 1) for p in second.players)
    assert store.night_standings("Club") == reopen(store).night_standings("Club")


def test_confirmations_travel_with_the_leagues_facts(store: Store, tmp_path: Path) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.confirm_deal(game, 1, by="Bea")
    store.dispute_deal(game, 2, by="Cid", why="Bea had an ace", deal=deal(bea="KS AS"))
    path = tmp_path / "club.facts.json"
    path.write_text(json.dumps(store.export_facts("Club")))
    elsewhere = Store.memory()
    elsewhere.create_league("Club")
    elsewhere.import_files("Club", [path])
    assert elsewhere.deal_checks(game) == store.deal_checks(game)
    assert [c.state for c in elsewhere.deal_checks(game)] == ["confirmed", "disputed"]
    elsewhere.resolve_dispute(game, 2, keep="theirs", why="the ace", by="Director")
    assert elsewhere.game(game).document["deals"][1] == deal(bea="KS AS")


def test_a_league_export_carries_the_confirmations_too(store: Store, tmp_path: Path) -> None:
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    store.replace_deal(game, 0, deal(cid="QD QS"), by="Cid", why="two queens")  # a correction's was
    store.confirm_deal(game, 1, by="Bea")
    path = tmp_path / "club.json"
    path.write_text(json.dumps(store.export_league("Club")))
    elsewhere = Store.memory()
    elsewhere.create_league("Club")
    elsewhere.import_files("Club", [path])
    assert [(c.state, c.by) for c in elsewhere.deal_checks(game)] == [("confirmed", "Bea")]


# -- the property: a confirmed deal is never changed without a signed fact ----------------------

PHONES = ["Anna", "Bea", "Cid", "Director"]
HANDS = ["KS AH *", "KS", "KS *", "QS", "AH"]

_DISPUTE = st.tuples(
    st.just("dispute"), st.sampled_from(PHONES), st.integers(1, 3), st.none() | st.sampled_from(HANDS)
)
_RESOLVE = st.tuples(st.just("resolve"), st.sampled_from(PHONES), st.integers(1, 3), st.sampled_from(KEEPS))
operation = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(PHONES), st.sampled_from(HANDS)),
    st.tuples(st.just("confirm"), st.sampled_from(PHONES), st.integers(1, 3), st.booleans()),
    st.tuples(st.just("correct"), st.sampled_from(PHONES), st.integers(1, 3), st.sampled_from(HANDS)),
    st.tuples(st.just("remove"), st.sampled_from(PHONES), st.integers(1, 3)),
    _DISPUTE,
    _DISPUTE,  # twice as often: a dispute, then its resolution, are the paths the rules guard most
    _RESOLVE,
    _RESOLVE,
)


def _apply(store: Store, game: str, op: tuple[Any, ...]) -> None:
    kind, phone, *rest = op
    if kind == "save":
        store.add_deal(game, deal(bea=rest[0]), by=phone)
    elif kind == "confirm":
        store.confirm_deal(game, rest[0], by=phone, director=rest[1])
    elif kind == "correct":
        store.replace_deal(game, rest[0] - 1, deal(bea=rest[1]), by=phone, why="recounted")
    elif kind == "remove":
        store.remove_deal(game, rest[0] - 1, by=phone, why="dealt again")
    elif kind == "dispute":
        theirs = deal(bea=rest[1]) if rest[1] is not None else None
        store.dispute_deal(game, rest[0], by=phone, why="not so", deal=theirs)
    else:  # the director resolves the first dispute open, as the Disputes list shows it
        disputed = [c.number for c in store.deal_checks(game) if c.state == "disputed"]
        number = disputed[0] if disputed else rest[0]
        store.resolve_dispute(game, number, keep=rest[1], why="seen by the director", by=phone)


@settings(max_examples=120)
@given(st.lists(operation, min_size=4, max_size=16))
def test_a_confirmed_deal_is_never_changed_without_a_signed_fact(ops: list[tuple[Any, ...]]) -> None:
    store = Store.memory()
    store.create_league("Club")
    game = table_game(store)
    for phone, hand in zip(PHONES[:3], HANDS[:3], strict=True):  # three deals to begin with
        store.add_deal(game, deal(bea=hand), by=phone)
    ids = [-3, -2, -1]  # each deal now -> which deal it is (a removal renumbers the later ones)
    confirmed_as: dict[int, dict[str, Any]] = {}  # a deal -> its document when it was confirmed
    for step, op in enumerate(ops):
        before = dict(zip(ids, store.game(game).document.get("deals") or [], strict=True))
        confirmed = {ids[c.number - 1] for c in store.deal_checks(game) if c.state == "confirmed"}
        events = len(store.events(game))
        try:
            _apply(store, game, op)
        except (ScorerError, StoreInputError):  # refused (a ConfirmError, a finished game...)
            assert len(store.events(game)) == events  # a refusal writes nothing
            continue
        if op[0] == "save":
            ids.append(step)
        elif op[0] == "remove":
            ids.pop(op[2] - 1)
        after = dict(zip(ids, store.game(game).document.get("deals") or [], strict=True))
        new = store.events(game)[events:]
        for me in confirmed & after.keys():
            if after[me] != before[me]:
                number = ids.index(me) + 1
                signed = [e for e in new if e.action == "corrected" and e.deal == number and e.by and e.why]
                assert signed, (op, new)
        if op[0] == "confirm":
            confirmed_as[ids[op[2] - 1]] = dict(after[ids[op[2] - 1]])
        for check in store.deal_checks(game):
            if check.state == "confirmed":
                assert confirmed_as.get(ids[check.number - 1]) == dict(check.deal), (op, check)


# -- the command line: rummy league night confirm|dispute|resolve|deals (docs/cli.md) -------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Exit status, parsed JSON (when --json) or text, and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    out: Any = json.loads(captured.out) if "--json" in argv and captured.out else captured.out
    return status, out, captured.err


@pytest.fixture()
def db(tmp_path: Path) -> str:
    """A store of a night of one table of four with two deals saved by Anna's phone."""
    path = str(tmp_path / "db")
    store = Store.open(path)
    store.create_league("Club")
    game = table_game(store)
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.close()
    return path


def test_cli_the_director_confirms_and_resolves(capsys: pytest.CaptureFixture[str], db: str) -> None:
    night = ("league", "night")
    status, text, _ = run(capsys, *night, "deals", "--league", "Club", "--db", db)
    assert status == 0 and text.splitlines() == [
        "round 1, table 1, deal 1: unconfirmed (saved by Anna)",
        "round 1, table 1, deal 2: unconfirmed (saved by Anna)",
    ]
    deal_1 = ("--league", "Club", "--table", "1", "--deal", "1", "--db", db)
    status, out, _ = run(capsys, *night, "confirm", *deal_1, "--by", "Director", "--json")
    assert status == 0 and (out["state"], out["by"], out["saved_by"], out["deal"]) == (
        "confirmed",
        "Director",
        "Anna",
        1,
    )
    deal_2 = ("--league", "Club", "--table", "1", "--deal", "2", "--db", db)
    theirs = json.dumps(deal(bea="KS AS"))
    status, text, _ = run(
        capsys, *night, "dispute", *deal_2, "--by", "Bea", "--why", "an ace", "--cards", theirs
    )
    assert status == 0 and text == "deal 2 at table 1 disputed by Bea\n"
    status, text, _ = run(capsys, "--lang", "fi", *night, "deals", "--league", "Club", "--db", db)
    assert text == "kierros 1, pöytä 1, jako 2: kiistetty, kiisti Bea: an ace\n"
    status, out, _ = run(capsys, *night, "standings", "--league", "Club", "--db", db, "--json")
    assert (out["unconfirmed"], out["disputed"]) == (1, 1)
    assert all((r["unconfirmed"], r["disputed"]) == (1, 1) for r in out["rows"])
    status, text, _ = run(capsys, *night, "standings", "--league", "Club", "--db", db)
    assert "unconfirmed" in text.splitlines()[0] and "1!" in text.splitlines()[1]
    assert "disputed, waiting for the director: 1 (marked !)" in text
    status, text, _ = run(capsys, "--lang", "fi", *night, "standings", "--league", "Club", "--db", db)
    assert "vahvistamatta" in text.splitlines()[0] and "vahvistusta odottavia jakoja: 1" in text
    status, out, _ = run(
        capsys,
        *night,
        "resolve",
        *deal_2,
        "--keep",
        "theirs",
        "--why",
        "the ace",
        "--by",
        "Director",
        "--json",
    )
    assert status == 0 and (out["state"], out["kept"], out["entries"]) == (
        "resolved",
        "theirs",
        deal(bea="KS AS"),
    )
    status, text, _ = run(capsys, *night, "deals", "--league", "Club", "--db", db)
    assert text == "every deal of the night is confirmed\n"
    status, text, _ = run(capsys, "--lang", "fi", *night, "deals", "--league", "Club", "--db", db)
    assert text == "illan kaikki jaot on vahvistettu\n"
    assert Store.open(db).game(out["game"]).events[-2].by == "Director"


REFUSALS = {
    "confirm.already": (
        ("confirm", "--deal", "1", "--by", "Director"),  # the second time
        "deal 1 is confirmed already, by Director",
        "jako 1 on jo vahvistettu, vahvisti Director",
    ),
    "confirm.own_dispute": (
        ("dispute", "--deal", "1", "--by", "anna", "--why", "mine"),
        "deal 1 was saved by Anna: correct it instead of disputing it",
        "jaon 1 tallensi Anna: korjaa se kiistämisen sijaan",
    ),
    "confirm.not_disputed": (
        ("resolve", "--deal", "1", "--keep", "saved", "--why", "x"),
        "deal 1 is not disputed: there is nothing to resolve",
        "jakoa 1 ei kiistetä: ratkaistavaa ei ole",
    ),
    "confirm.no_deal": (
        ("confirm", "--deal", "3", "--by", "Bea"),
        "there is no deal 3: the game has 2 deals",
        "jakoa 3 ei ole: pelissä on 2 jakoa",
    ),
    "confirm.bad_cards": (
        ("dispute", "--deal", "2", "--by", "Bea", "--cards", "{hands"),
        "--cards '{hands': not a deal object in JSON (Expecting property name enclosed in double quotes)",
        "--cards '{hands': ei jako-olio JSON-muodossa (Expecting property name enclosed in double quotes)",
    ),
}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_cli_refusals_exit_2_in_one_line(capsys: pytest.CaptureFixture[str], db: str, code: str) -> None:
    argv, english, finnish = REFUSALS[code]
    command = ("league", "night", argv[0], "--league", "Club", "--table", "1", "--db", db, *argv[1:])
    if code == "confirm.already":
        assert run(capsys, *command)[0] == 0
    status, out, _ = run(capsys, *command, "--json")
    assert status == 2 and out["code"] == code and out["error"] == english
    status, _, err = run(capsys, *command)
    assert status == 2 and err == f"rummy league: {english}\n"
    status, _, err = run(capsys, "--lang", "fi", *command)
    assert status == 2 and err == f"rummy league: {finnish}\n"


def test_cli_a_table_the_round_does_not_have(capsys: pytest.CaptureFixture[str], db: str) -> None:
    argv = ("league", "night", "confirm", "--league", "Club", "--table", "4", "--deal", "1", "--db", db)
    status, _, err = run(capsys, *argv)
    assert status == 2 and err == "rummy league: round 1 has no table 4\n"
    status, _, err = run(capsys, *argv, "--round", "2")
    assert status == 2 and err == "rummy league: the night has no round 2\n"


def test_cli_end_refused_with_a_dispute_open(capsys: pytest.CaptureFixture[str], db: str) -> None:
    where = ("--league", "Club", "--db", db)
    run(
        capsys,
        "league",
        "night",
        "dispute",
        *where,
        "--table",
        "1",
        "--deal",
        "2",
        "--by",
        "Bea",
        "--why",
        "no",
    )
    status, out, _ = run(capsys, "league", "night", "end", *where, "--json")
    assert status == 2 and out["code"] == "confirm.night_disputed"
    status, _, err = run(capsys, "--lang", "fi", "league", "night", "end", *where)
    assert status == 2 and err == (
        "rummy league: iltaa ei voi päättää, kun kiista on auki: kierros 1, pöytä 1, jako 2; "
        "tuomari valitsee ensin kumpi versio jää\n"
    )
    status, out, _ = run(capsys, "league", "night", "start", *where, "--players", "A,B", "--ruleset", "gin",
                         "--no-confirmation", "--json")  # fmt: skip
    assert status == 0 and out["confirmation"] is False
    status, text, _ = run(capsys, "league", "night", "deals", *where)
    assert status == 0 and text == (
        "the night does not confirm its deals at the table (started with --no-confirmation)\n"
    )


# -- a league that confirms its ordinary games' deals --------------------------------------------


def test_a_league_turns_confirmation_on_for_its_games_started_from_then(store: Store) -> None:
    before = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    assert not store.league("Club").confirmation
    assert store.set_confirmation("Club", on=True, by="Director").confirmation
    position = store.position
    store.set_confirmation("Club", on=True, by="Director")  # already on: nothing written
    assert store.position == position
    after = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    elsewhere = store.start_game(ruleset="rommi", players=FOUR).id  # of no league
    for game in (before, after, elsewhere):
        store.add_deal(game, deal(), by="Anna")
    assert store.deal_checks(before) == () and store.deal_checks(elsewhere) == ()
    with _Refused("confirm.not_a_night"):
        store.confirm_deal(before, 1, by="Bea")
    with _Refused("confirm.own_deal"):
        store.confirm_deal(after, 1, by="Anna")
    store.confirm_deal(after, 1, by="Bea")
    assert [(c.state, c.by) for c in reopen(store).deal_checks(after)] == [("confirmed", "Bea")]
    assert reopen(store).league("Club").confirmation
    store.set_confirmation("Club", on=False)
    later = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(later, deal(), by="Anna")
    assert store.deal_checks(later) == () and len(store.deal_checks(after)) == 1  # each keeps its own


def test_a_leagues_confirmation_travels_with_its_facts(store: Store, tmp_path: Path) -> None:
    store.set_confirmation("Club", on=True)
    game = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(game, deal(), by="Anna")
    store.dispute_deal(game, 1, by="Bea", why="no ace")
    path = tmp_path / "club.facts.json"
    path.write_text(json.dumps(store.export_facts("Club")))
    elsewhere = Store.memory()
    elsewhere.create_league("Club")
    elsewhere.import_files("Club", [path])
    assert elsewhere.deal_checks(game) == store.deal_checks(game)


def test_cli_a_league_confirms_its_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "db")
    store = Store.open(db)
    store.create_league("Club")
    store.close()
    status, out, _ = run(capsys, "league", "confirmation", "--league", "Club", "on", "--db", db, "--json")
    assert status == 0 and out == {"league": "Club", "confirmation": True}
    status, text, _ = run(
        capsys, "--lang", "fi", "league", "confirmation", "--league", "Club", "on", "--db", db
    )
    assert text == "liiga Club: tästä lähtien alkavien pelien jaot vahvistetaan pöydässä\n"
    store = Store.open(db)
    game = store.start_game(ruleset="rommi", players=FOUR, league="Club").id
    store.add_deal(game, deal(), by="Anna")
    store.add_deal(game, deal(bea="KS"), by="Anna")
    store.close()
    status, text, _ = run(
        capsys, "league", "confirm", game[:8], "--deal", "1", "--by", "Director", "--db", db
    )
    assert status == 0 and text == f"deal 1 of game {game} confirmed by Director\n"
    asked = ("--deal", "2", "--by", "Bea", "--why", "no ace", "--cards", json.dumps(deal(bea="KS *")))
    status, out, _ = run(capsys, "league", "dispute", game, *asked, "--db", db, "--json")
    assert status == 0 and (out["state"], out["theirs"]) == ("disputed", deal(bea="KS *"))
    status, _, err = run(
        capsys, "league", "resolve", game, "--deal", "2", "--keep", "theirs", "--why", " ", "--db", db
    )
    assert status == 2 and err == "rummy league: resolving deal 2 needs a reason: say why\n"
    asked = ("--deal", "2", "--keep", "theirs", "--why", "Bea showed it", "--by", "Director")
    status, text, _ = run(capsys, "--lang", "fi", "league", "resolve", game, *asked, "--db", db)
    assert status == 0 and text == f"pelin {game} jako 2: Director säilytti kiistäjän version\n"
    assert Store.open(db).game(game).document["deals"][1] == deal(bea="KS *")
    status, out, _ = run(capsys, "league", "confirmation", "--league", "Club", "off", "--db", db, "--json")
    assert out == {"league": "Club", "confirmation": False}
    ordinary = Store.open(db).start_game(ruleset="rommi", players=FOUR, league="Club").id
    Store.open(db).add_deal(ordinary, deal(), by="Anna")
    status, _, err = run(capsys, "league", "confirm", ordinary, "--deal", "1", "--db", db)
    assert status == 2 and err.startswith(
        f"rummy league: game {ordinary} needs no confirmation: it is no table"
    )
