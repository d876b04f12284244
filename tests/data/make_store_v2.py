"""Build ``tests/data/store-v2/``: two years of a club, written by the store as it is today.

The folder is the input of the differential test (``tests/test_store_conversion.py``): a store
written by this version of the code, which a later version converts on first open and must
then answer every public read of exactly as this version did (``tests/data/store-v2-reads.json``,
made here by :func:`store_reads.public_reads` from the folder just written).

What the history holds, all through ``Store``'s public methods:

- two leagues: "Friday club" (rommi, kalooki, basic rummy, block rummy, Carousel, rommi Stop)
  with three seasons (spring closed by a new season, autumn renamed, then 2026 open) and
  "Tuesday gin" (gin, Oklahoma, Hollywood and straight gin; renamed; its first season closed
  by ``close_season``, then a second);
- 13 player records for 12 people: "Jussi" renamed "Juho", "Beatrice" merged into "Bea", and
  Mikko, who comes in with an import;
- corrections (``replace_deal`` with why), a deal removed and put back, a deal removed for
  good, a conflict refused (``add_deal`` with a stale number, ``replace_deal`` with a stale
  ``expected``), an invalid deal refused; games abandoned and resumed, abandoned for good,
  deleted and undeleted, deleted for good, one left unfinished, one with no league, one
  started with no league and moved in, one moved from one league to the other;
- a league export of another device's league ("Cottage", a summer at the cottage) imported
  into Friday club (its season comes along), imported again (unchanged), a game file
  imported, and a copy of Friday club that a second device changed imported back: one game
  gains the deals recorded there, another, corrected differently there, is a conflict
  (this store's copy kept);
- two club nights of two rounds each: rommi at random, then swiss with a late arrival and an
  early leaver; then rommi balanced, two planned rounds of 30 minutes with handicap, tables
  that end by reaching the target and tables called at the deadline.

Changes are signed ``by=`` device names. The store's clock is injected (``Store.open(path,
clock=...)``): games, deals, their events and nights are stamped by it, minutes apart on the
club's evenings. Seeds are fixed (:data:`SEED`), so the same games, deals and seatings are
made every run; what the store stamps itself differs from run to run: ids, and the times
today's store takes from the real clock, not the injected one (leagues, seasons and players
made, closed or renamed; a merge; an import's ``imported`` events and a game file's start).
So the folder and its reads are made together and committed together, and each run makes
them anew: run it only with the code from before the store's rewrite (issue 23), whose
layout the folder is there to keep.

    PYTHONPATH=. .venv/bin/python tests/data/make_store_v2.py          # writes tests/data/...
    PYTHONPATH=. .venv/bin/python tests/data/make_store_v2.py --out /tmp/club   # elsewhere
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from scorer.league.errors import ConflictError
from scorer.league.exchange import ImportReport
from scorer.league.records import StoredGame
from scorer.league.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for store_reads
from store_reads import public_reads

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "store-v2"
READS = HERE / "store-v2-reads.json"
SEED = 20251205
FRIDAY = "Friday club"
TUESDAY = "Tuesday gin"
#: The devices that sign the changes.
LAPTOP, ANNA_PHONE, BEA_TABLET, TABLE_1, TABLE_2 = (
    "club-laptop",
    "anna-phone",
    "bea-tablet",
    "table-1-phone",
    "table-2-phone",
)
RANKS = "A23456789TJQK"
SUITS = "SHDC"


class Clock:
    """The store's clock: UTC ISO text, one minute on at every reading, set to each evening."""

    def __init__(self, start: datetime) -> None:
        self.moment = start

    def __call__(self) -> str:
        self.moment += timedelta(minutes=1)
        return self.moment.isoformat(timespec="microseconds")

    def evening(self, day: datetime) -> None:
        """Go on to ``day`` (never back: the store's stamps only go forward)."""
        self.moment = max(self.moment, day)

    def wait(self, minutes: int) -> None:
        self.moment += timedelta(minutes=minutes)


def evening(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 17, 0, tzinfo=UTC)  # 19.00 in Finland


class Club:
    """The club's store, its clock and the seeded dice that deal its games."""

    def __init__(self, store: Store, clock: Clock, rng: random.Random) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng

    # -- deals ------------------------------------------------------------------------

    def hands(self, players: Sequence[str], *, jokers: bool) -> dict[str, str]:
        """The cards left in each hand, one to four each, dealt from one deck (and a joker)."""
        deck = [r + s for r in RANKS for s in SUITS] + (["*"] if jokers else [])
        self.rng.shuffle(deck)
        return {p: " ".join(deck.pop() for _ in range(self.rng.randint(1, 4))) for p in players}

    def deal(self, ruleset: str, names: Sequence[str]) -> dict[str, Any]:
        """One deal's raw entry for ``ruleset``, by the players' names, from the dice."""
        rng = self.rng
        if ruleset.endswith("gin"):
            knocker, defender = rng.sample(list(names), 2)
            if rng.random() < 0.05:
                return {"dead": True}
            limit = 7 if ruleset == "oklahoma-gin" else 10
            gin = rng.random() < 0.25 or ruleset == "straight-gin"
            entry: dict[str, Any] = {
                "knocker": knocker,
                "deadwood": {knocker: 0 if gin else rng.randint(1, limit), defender: rng.randint(0, 60)},
            }
            if ruleset == "oklahoma-gin":
                entry["upcard"] = "7" + rng.choice(SUITS)
            return entry
        if ruleset == "carousel":
            knocker = rng.choice(list(names))
            return {
                "knocker": knocker,
                "points": {p: 0 if p == knocker else rng.randint(5, 70) for p in names},
            }
        out = rng.choice(list(names))
        losers = [p for p in names if p != out]
        if ruleset == "rommi-stop" and rng.random() < 0.3:
            return {"ended": "stop", "hands": self.hands(names, jokers=False)}
        if ruleset == "block-rummy" and rng.random() < 0.3:
            return {"ended": "block", "points": {p: rng.randint(2, 40) for p in names}}
        if rng.random() < 0.35:  # the cards left, as a phone at the table enters them
            jokers = ruleset != "basic-rummy"
            return {"out": out, "hands": self.hands(losers, jokers=jokers)}
        entry = {"out": out, "points": {p: rng.randint(3, 60) for p in losers}}
        if ruleset in {"kalooki", "basic-rummy"} and rng.random() < 0.1:
            entry["one_turn"] = True
        return entry

    def names(self, game: StoredGame) -> list[str]:
        return [str(name) for name in game.document["players"]]

    def play(self, game: StoredGame, *, by: str | None = None, most: int = 40) -> StoredGame:
        """Deal until the game ends, or for ``most`` deals (each with the number the device saw)."""
        ruleset = str(game.document["ruleset"])
        entries: list[dict[str, Any]] = []
        while not game.finished and len(entries) < most:
            entry = self.deal(ruleset, self.names(game))
            self.clock.wait(self.rng.randint(4, 9))
            game = self.store.add_deal(game.id, entry, by=by, number=len(game.game.deals) + 1)
            entries.append(entry)
        return game

    def game(
        self,
        ruleset: str,
        players: Sequence[str],
        *,
        league: str | None,
        by: str | None = LAPTOP,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> StoredGame:
        started = self.store.start_game(
            ruleset=ruleset,
            players=list(players),
            league=league,
            by=by,
            options=dict(options) if options else None,
            first_dealer=self.rng.randrange(len(players)),
            **kwargs,
        )
        return self.play(started, by=by)

    def table_games(self, night_rounds: Sequence[Any], *, by_table: Sequence[str]) -> list[StoredGame]:
        games = []
        for table in night_rounds[-1].tables:
            by = by_table[(table.table - 1) % len(by_table)]
            games.append(self.store.game(table.game))
            games[-1] = self.play(games[-1], by=by)
        return games


FRIDAY_PEOPLE = ["Anna", "Bea", "Cid", "Dan", "Eeva", "Frans", "Greta", "Hanna", "Ilkka", "Jussi", "Kaisa"]
TUESDAY_PEOPLE = ["Anna", "Dan", "Lauri", "Greta", "Ilkka", "Beatrice"]


def spring(club: Club) -> None:
    """Friday club's spring of 2025: the first season, closed by the next."""
    store, clock, rng = club.store, club.clock, club.rng
    store.create_league(FRIDAY, season="Spring 2025")
    rulesets = ["rommi", "kalooki", "basic-rummy", "carousel", "block-rummy"]
    for week, ruleset in enumerate(rulesets):
        clock.evening(evening(2025, 1, 10) + timedelta(days=7 * week))
        others = [p for p in FRIDAY_PEOPLE if p != "Bea"]
        # Bea, and twice under the name she first gave: never at a table with Bea
        seated = ["Beatrice" if week in {1, 3} else "Bea", *rng.sample(others, 2)]
        options = {"target": 150} if ruleset in {"rommi", "kalooki"} else None
        club.game(ruleset, seated, league=FRIDAY, options=options, by=[LAPTOP, ANNA_PHONE][week % 2])
    clock.evening(evening(2025, 3, 7))
    store.new_season(FRIDAY, "Autumn 2025")


def tuesdays(club: Club) -> dict[str, str]:
    """Tuesday gin: two seasons of the gin family; the game ids the later steps need."""
    store, clock, rng = club.store, club.clock, club.rng
    clock.evening(evening(2025, 2, 4))
    store.create_league(TUESDAY)
    kept: dict[str, str] = {}
    plan = [
        ("gin", None),
        ("oklahoma-gin", {"spade_doubles": True}),
        ("hollywood-gin", {"target": 50}),
        ("gin", {"undercut_bonus": 20}),
    ]
    for week, (ruleset, options) in enumerate(plan):
        clock.evening(evening(2025, 2, 4) + timedelta(days=7 * week))
        pair = rng.sample(TUESDAY_PEOPLE, 2)  # Bea plays no Tuesdays; Beatrice does
        club.game(ruleset, pair, league=TUESDAY, options=options, by=BEA_TABLET)
    store.close_season(TUESDAY)
    clock.evening(evening(2025, 9, 2))
    store.new_season(TUESDAY)
    # a friendly with no league, and one started with no league that is moved in later
    clock.evening(evening(2025, 9, 5))
    kept["no_league"] = club.game("gin", ["Lauri", "Kaisa"], league=None, by=ANNA_PHONE).id
    kept["moved_in"] = club.game("straight-gin", ["Ilkka", "Lauri"], league=None, by=ANNA_PHONE).id
    clock.evening(evening(2025, 9, 9))
    club.game("gin", ["Greta", "Lauri"], league=TUESDAY, by=BEA_TABLET)
    store.rename_league(TUESDAY, "Tuesday gin club")
    return kept


def autumn(club: Club, kept: dict[str, str]) -> None:
    """Friday club's autumn: corrections, conflicts, abandoned and deleted games."""
    store, clock, rng = club.store, club.clock, club.rng
    clock.evening(evening(2025, 9, 12))
    store.merge_players("Bea", "Beatrice")
    store.move_game(kept["moved_in"], league="Tuesday gin club", by=LAPTOP)

    # corrections: one deal corrected with a reason, one removed and put back, one removed
    game = store.start_game(
        ruleset="rommi",
        players=["Anna", "Bea", "Cid", "Dan"],
        league=FRIDAY,
        options={"target": 300},
        by=LAPTOP,
    )
    game = club.play(game, by=LAPTOP, most=4)
    first = dict(game.document["deals"][0])
    fixed = {
        "out": first.get("out", "Anna"),
        "points": {p: 12 for p in club.names(game) if p != first.get("out")},
    }
    game = store.replace_deal(
        game.id, 0, fixed, by=BEA_TABLET, why="Cid's joker counted as 50", expected=first
    )
    second = dict(game.document["deals"][1])
    game = store.remove_deal(game.id, 1, by=LAPTOP, why="entered twice", expected=second)
    game = store.put_back_deal(game.id, 1, second, by=LAPTOP)
    last = len(game.game.deals) - 1
    game = store.remove_deal(game.id, last, by=ANNA_PHONE, why="the deal was thrown in")
    game = club.play(game, by=ANNA_PHONE)

    # a conflict refused: two phones at one table, the second saves deal 3 after the first did
    clock.evening(evening(2025, 9, 19))
    game = store.start_game(
        ruleset="kalooki", players=["Eeva", "Frans", "Greta"], league=FRIDAY, by=ANNA_PHONE
    )
    for _ in range(2):
        game = store.add_deal(game.id, club.deal("kalooki", club.names(game)), by=ANNA_PHONE)
    seen = len(game.game.deals)
    game = store.add_deal(game.id, club.deal("kalooki", club.names(game)), by=ANNA_PHONE, number=seen + 1)
    refuse(
        lambda: store.add_deal(
            game.id, club.deal("kalooki", ["Eeva", "Frans", "Greta"]), by=BEA_TABLET, number=seen + 1
        ),
        ConflictError,
    )
    stale = dict(game.document["deals"][0])
    game = store.replace_deal(
        game.id,
        0,
        {"out": "Frans", "points": {"Eeva": 20, "Greta": 25}},
        by=ANNA_PHONE,
        why="Frans went out, not Eeva",
    )
    refuse(
        lambda: store.replace_deal(
            game.id,
            0,
            {"out": "Greta", "points": {"Eeva": 5, "Frans": 5}},
            by=BEA_TABLET,
            why="late",
            expected=stale,
        ),
        ConflictError,
    )
    refuse(
        lambda: store.add_deal(game.id, {"out": "Eeva", "points": {"Frans": -5}}, by=BEA_TABLET), ValueError
    )
    club.play(game, by=ANNA_PHONE)

    # abandoned and resumed; abandoned for good; deleted and undeleted; deleted for good
    clock.evening(evening(2025, 9, 26))
    game = store.start_game(
        ruleset="basic-rummy", players=["Hanna", "Ilkka", "Jussi"], league=FRIDAY, by=LAPTOP
    )
    game = club.play(game, by=LAPTOP, most=2)
    store.abandon_game(game.id, by=LAPTOP, why="Ilkka's bus")
    clock.evening(evening(2025, 10, 3))
    store.resume_game(game.id, by=LAPTOP)
    club.play(store.game(game.id), by=LAPTOP)
    game = store.start_game(
        ruleset="carousel", players=["Anna", "Kaisa", "Frans"], league=FRIDAY, by=ANNA_PHONE
    )
    game = club.play(game, by=ANNA_PHONE, most=2)
    store.abandon_game(game.id, by=ANNA_PHONE, why="the pub closed")
    clock.evening(evening(2025, 10, 10))
    deleted = club.game("block-rummy", ["Bea", "Dan", "Eeva"], league=FRIDAY)
    store.delete_game(deleted.id, by=LAPTOP, why="a test game")
    clock.wait(30)
    store.undelete_game(deleted.id, by=BEA_TABLET)
    gone = club.game("rommi-stop", ["Cid", "Greta"], league=FRIDAY, by=ANNA_PHONE)
    store.delete_game(gone.id, by=ANNA_PHONE, why="played for practice")
    clock.evening(evening(2025, 10, 17))
    club.game("rommi", rng.sample(FRIDAY_PEOPLE, 4), league=FRIDAY, options={"target": 150})
    store.rename_season(FRIDAY, "Autumn 2025", "Autumn and Christmas 2025")
    store.rename_player("Jussi", "Juho")
    clock.evening(evening(2026, 1, 2))
    store.new_season(FRIDAY, "2026")


def cottage(club: Club, folder: Path) -> Path:
    """Another device's league (a summer at the cottage), exported to a file."""
    device = Store.open(folder / "cottage-phone", clock=club.clock)
    other = Club(device, club.clock, club.rng)
    club.clock.evening(evening(2026, 1, 3))
    device.create_league("Cottage", season="Summer at the cottage")
    for ruleset, people in (
        ("rommi", ["Anna", "Cid", "Mikko"]),
        ("gin", ["Mikko", "Cid"]),
        ("kalooki", ["Anna", "Mikko"]),
    ):
        options = {"target": 150} if ruleset != "gin" else None
        game = other.game(ruleset, people, league="Cottage", by="mikko-phone", options=options)
        if ruleset == "rommi":
            device.replace_deal(
                game.id,
                0,
                {"out": "Mikko", "points": {"Anna": 9, "Cid": 14}},
                by="mikko-phone",
                why="the first deal was Mikko's",
            )
    path = folder / "cottage.json"
    path.write_text(json.dumps(device.export_league("Cottage")), encoding="utf-8")
    return path


def new_year(club: Club, folder: Path) -> None:
    """Friday club's 2026: imports, two club nights, a game moved to Tuesdays."""
    store, clock = club.store, club.clock
    export = cottage(club, folder)
    clock.evening(evening(2026, 1, 9))
    said(store.import_files(FRIDAY, [export], by=LAPTOP), games_added=3, players_added=1)
    said(store.import_files(FRIDAY, [export], by=LAPTOP), games_added=0, games_unchanged=3)  # again
    game_file = folder / "phone-game.json"
    game_file.write_text(
        json.dumps(
            {
                "format": 1,
                "ruleset": "rommi",
                "players": ["Kaisa", "Hanna"],
                "deals": [
                    {"out": "Kaisa", "hands": {"Hanna": "AH KS *"}},
                    {"out": "Hanna", "hands": {"Kaisa": "7H"}},
                ],
            }
        ),
        encoding="utf-8",
    )
    said(store.import_files(FRIDAY, [game_file], by=ANNA_PHONE), games_added=1)

    # a game started in the wrong league, moved to Tuesdays
    clock.evening(evening(2026, 1, 13))
    wrong = club.game("gin", ["Anna", "Lauri"], league=FRIDAY, by=ANNA_PHONE)
    store.move_game(wrong.id, league="Tuesday gin club", by=BEA_TABLET)

    # night 1: rommi, open-ended; random, then swiss with Lauri in for Kaisa
    clock.evening(evening(2026, 1, 16))
    eight = ["Anna", "Bea", "Cid", "Dan", "Eeva", "Frans", "Greta", "Kaisa"]
    night = store.start_night(
        FRIDAY, players=eight, ruleset="rommi", options={"target": 150}, seed=11, by=LAPTOP
    )
    club.table_games(night.rounds, by_table=[TABLE_1, TABLE_2])
    clock.wait(10)
    later = [p for p in eight if p != "Kaisa"] + ["Lauri"]
    night = store.next_round(FRIDAY, players=later, method="swiss", seed=12, by=LAPTOP)
    club.table_games(night.rounds, by_table=[TABLE_1, TABLE_2])

    # two phones of one league, apart for an evening: a copy from the second comes back
    clock.evening(evening(2026, 1, 20))
    open_game = store.start_game(
        ruleset="kalooki", players=["Hanna", "Juho", "Ilkka"], league=FRIDAY, by=LAPTOP
    )
    open_game = club.play(open_game, by=LAPTOP, most=2)
    corrected = club.game("basic-rummy", ["Frans", "Hanna"], league=FRIDAY, by=LAPTOP)
    copy_path = folder / "friday-copy.json"
    copy_path.write_text(json.dumps(store.export_league(FRIDAY)), encoding="utf-8")
    second = Store.open(folder / "bea-tablet", clock=clock)
    second.create_league(FRIDAY, season="2026")
    second.import_files(FRIDAY, [copy_path], by=BEA_TABLET)
    second.add_deal(open_game.id, club.deal("kalooki", club.names(open_game)), by=BEA_TABLET, number=3)
    second.replace_deal(
        corrected.id,
        0,
        {"out": "Frans", "points": {"Hanna": 1}},
        by=BEA_TABLET,
        why="one point, not the cards",
    )
    store.replace_deal(
        corrected.id, 0, {"out": "Frans", "points": {"Hanna": 4}}, by=LAPTOP, why="only four points"
    )
    copy_path.write_text(json.dumps(second.export_league(FRIDAY)), encoding="utf-8")
    back = store.import_files(FRIDAY, [copy_path], by=BEA_TABLET)  # a game gains a deal, one conflicts
    said(back, games_added=0, deals_added=1)
    if [c.get("game") for c in back.conflicts] != [corrected.id]:
        raise AssertionError(f"expected one conflict, on game {corrected.id}: {back.conflicts}")
    club.play(store.game(corrected.id), by=LAPTOP)

    # night 2: Kalooki, balanced, two planned rounds of 30 minutes, handicap
    clock.evening(evening(2026, 1, 23))
    nine = ["Anna", "Bea", "Cid", "Dan", "Eeva", "Frans", "Greta", "Hanna", "Juho"]
    night = store.start_night(
        FRIDAY,
        players=nine,
        ruleset="rommi",
        method="balanced",
        seed=21,
        rounds=2,
        timer=30,
        handicap=True,
        options={"target": 150},
        by=LAPTOP,
    )
    timed_round(club, night.rounds)
    night = store.next_round(FRIDAY, seed=22, by=LAPTOP)
    timed_round(club, night.rounds)


def timed_round(club: Club, rounds: Sequence[Any]) -> None:
    """Play a timed round, the tables' deals coming in turn, two minutes apart: a table ends
    at its target, or with the first deal saved once the time has run out."""
    store, clock = club.store, club.clock
    games = [store.game(t.game) for t in rounds[-1].tables]
    while not all(g.finished for g in games):
        for n, game in enumerate(games):
            if not game.finished:
                clock.wait(2)
                entry = club.deal(str(game.document["ruleset"]), club.names(game))
                games[n] = store.add_deal(game.id, entry, by=(TABLE_1, TABLE_2)[n % 2])


def said(report: ImportReport, **expected: int) -> None:
    """The import did what the history says it does."""
    found = {key: getattr(report, key) for key in expected}
    if found != expected:
        raise AssertionError(f"the import said {found}, not {expected}")


def refuse(call: Any, error: type[Exception]) -> None:
    """``call`` must be refused with ``error`` (and so write nothing)."""
    try:
        call()
    except error:
        return
    raise AssertionError(f"expected {error.__name__}")


def build(folder: Path) -> None:
    """Write the club's history into the empty (or missing) ``folder``."""
    clock = Clock(evening(2025, 1, 10))
    club = Club(Store.open(folder, clock=clock), clock, random.Random(SEED))
    with tempfile.TemporaryDirectory(prefix="rummy-store-v2-") as work:
        spring(club)
        kept = tuesdays(club)
        autumn(club, kept)
        new_year(club, Path(work))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FOLDER, help="the store folder to write (made anew)")
    parser.add_argument("--reads", type=Path, help="where to write its reads (default: beside it)")
    args = parser.parse_args()
    folder: Path = args.out
    reads: Path = args.reads or (READS if folder == FOLDER else folder.with_name(folder.name + "-reads.json"))
    if folder.exists():
        shutil.rmtree(folder)
    build(folder)
    answers = public_reads(Store.open(folder))
    reads.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    print(f"wrote {folder} ({size / 1000:.0f} kB) and {reads} ({reads.stat().st_size / 1000:.0f} kB)")


if __name__ == "__main__":
    main()
