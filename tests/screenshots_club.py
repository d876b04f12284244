"""PNGs of the club's screens (a league's standings, a player, a club night) at phone (390 px)
and desktop width, a club night's TV view at phone size and on a 1080p wall screen, and a
night with a replacement mid-game (the director's screen and the table's Scoreboard) at phone
size and on a 1080p screen; each in English and Finnish.

Beside ``tests/screenshots.py`` (the table's screens): serves ``rummy app`` on a free
loopback port over a temporary league store with a season of games, opens each screen in
Debian's Chromium through Playwright and writes ``docs/screenshots/<screen>-<size>.png``.

    .venv/bin/python tests/screenshots_club.py [--out docs/screenshots]
"""

from __future__ import annotations

from pathlib import Path

from screenshot_kit import main, shoot

from scorer.league.store import Store

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
TV_SIZES = {"phone": (390, 844), "1080p": (1920, 1080)}
#: The TV's night: 32 players at eight rommi tables of four, a 45-minute round of three.
TV_PLAYERS = [
    *("Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jan", "Kai", "Lea"),
    *("Mia", "Nea", "Oli", "Pia", "Rex", "Sam", "Tea", "Uma", "Ville", "Wilma", "Aino", "Eino"),
    *("Ilona", "Juho", "Kerttu", "Leo", "Matti", "Noora", "Otto", "Pekka"),
]
GIN = {"target": 50}


def _gin(knocker: str, other: str, *, big: bool = False) -> dict[str, object]:
    if big:
        return {"knocker": knocker, "big_gin": True, "deadwood": {knocker: 0, other: 25}}
    return {"knocker": knocker, "deadwood": {knocker: 0, other: 45}}


def seed(folder: Path) -> dict[str, str]:
    """A league with a season of gin and rommi games among four players."""
    store = Store.open(folder)
    store.create_league("Friday club")
    table = [
        ("Anna", "Bea", False),
        ("Cid", "Anna", False),
        ("Anna", "Dan", True),
        ("Bea", "Cid", False),
        ("Anna", "Bea", False),
        ("Dan", "Bea", True),
        ("Anna", "Cid", False),
        ("Bea", "Anna", False),
        ("Anna", "Dan", False),
    ]
    for winner, loser, big in table:
        game = store.start_game(ruleset="gin", players=[winner, loser], options=GIN, league="Friday club")
        store.add_deal(game.id, _gin(winner, loser, big=big))
    for out, others in (("Anna", ("Bea", "Cid")), ("Cid", ("Anna", "Dan")), ("Bea", ("Anna", "Dan"))):
        players = [out, *others]
        game = store.start_game(
            ruleset="rommi", players=players, options={"target": 10}, league="Friday club"
        )
        hands = {out: "", others[0]: "KS QS *", others[1]: "5H 9D"}
        store.add_deal(game.id, {"hands": hands, "out": out})
    return {
        "league": store.league("Friday club").id,
        "player": store.player("Anna").id,
        "night": _night(store),
    }


def _night(store: Store) -> str:
    """A club night of six at two rommi tables: table 1 has ended, table 2 plays on."""
    players = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay"]
    night = store.start_night("Friday club", players=players, ruleset="rommi", seed=3, options={"target": 30})
    first, second = (t.players for t in night.rounds[0].tables)
    store.add_deal(
        night.rounds[0].tables[0].game,
        {"hands": dict(zip(first, ["", "KS AH *", "QD"], strict=True)), "out": first[0]},
    )
    store.add_deal(
        night.rounds[0].tables[1].game,
        {"hands": dict(zip(second, ["", "5H", "QD"], strict=True)), "out": second[0]},
    )
    return night.id


def seed_tv(folder: Path) -> dict[str, str]:
    """A club night of eight rommi tables with a round timer: three tables have ended, two have
    had a deal, three have not started."""
    store = Store.open(folder)
    store.create_league("Friday club")
    night = store.start_night(
        "Friday club",
        players=TV_PLAYERS,
        ruleset="rommi",
        seed=5,
        options={"target": 30},
        timer=45,
        rounds=3,
    )
    for number, table in enumerate(night.rounds[0].tables[:5]):
        ended = number % 2 == 0  # over 30: the game ends
        hands = ["", "KS AH *", "QD", "2C"] if ended else ["", "5H", "QD", "2C"]
        store.add_deal(
            table.game, {"hands": dict(zip(table.players, hands, strict=True)), "out": table.players[0]}
        )
    return {"night": night.id}


def seed_replaced(folder: Path) -> dict[str, str]:
    """A club night of eight at two rommi tables (to 100): after deal 1 at table 1, its second
    seat's player leaves and Zoe takes over (docs/rules.md, "Replacements"); deals 2 and 3 end
    the game, so the standings say who left and who took over."""
    store = Store.open(folder)
    store.create_league("Friday club")
    players = ["Anna", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    rules = {"target": 100}
    night = store.start_night("Friday club", players=players, ruleset="rommi", seed=3, options=rules)
    table = night.rounds[0].tables[0]
    seats = store.game(table.game).document["players"]
    hands = dict(zip(seats, ["", "KS AH *", "QD", "KH QH JH"], strict=True))
    store.add_deal(table.game, {"hands": hands, "out": seats[0]}, by="Table 1")
    store.replace_player(table.game, "2", "Zoe", why="a train to catch", by="Director")
    store.add_deal(table.game, {"hands": hands, "out": seats[0]}, by="Table 1")
    store.add_deal(table.game, {"hands": hands, "out": seats[0]}, by="Table 1")  # 108: it ends
    for number in (1, 2, 3):  # confirmed at the table: the board shows its deals
        store.confirm_deal(table.game, number, by="Table 1, Anna")
    return {"night": night.id, "game": table.game}


def _replaced_screens(ids: dict[str, str]) -> dict[str, str]:
    return {"night-replaced": f"/nights/{ids['night']}", "scoreboard-replaced": f"/game/{ids['game']}"}


def _screens(ids: dict[str, str]) -> dict[str, str]:
    return {
        "leagues": "/leagues",
        "league": f"/leagues/{ids['league']}",
        "player": f"/players/{ids['player']}",
        "night": f"/nights/{ids['night']}",
    }


def _tv_screens(ids: dict[str, str]) -> dict[str, str]:
    return {"tv": f"/nights/{ids['night']}/tv"}


def _shoot(out: Path) -> list[Path]:
    club = shoot(out=out, seed=seed, screens=_screens, sizes=SIZES)
    club += shoot(out=out, seed=seed_replaced, screens=_replaced_screens, sizes=TV_SIZES)
    return club + shoot(out=out, seed=seed_tv, screens=_tv_screens, sizes=TV_SIZES)


if __name__ == "__main__":
    main(description="PNGs of the league and player screens", shoot_into=_shoot)
