"""An evening of two variants whose points run in opposite directions, recorded in a store.

Kalooki (penalty points, the lowest total wins): Anna goes out twice; Bea 30 + 30 = 60, Cid
125 + 125 = 250 reaches the target: Anna wins on 0, Cid is last. Carousel (reward points, the
highest total wins): Cid knocks, Anna 80 and Bea 70 give him 150, + 100 game bonus + 25 box =
275: Cid wins, Anna and Bea 0. Added up, Cid's Kalooki penalty would count for him.
"""

from __future__ import annotations

from scorer.league.store import Store


def kalooki_and_carousel(store: Store, *, league: str = "Club") -> None:
    """Record the evening's two games in ``league``."""
    players = ["Anna", "Bea", "Cid"]
    game = store.start_game(ruleset="kalooki", players=players, league=league)
    for _ in range(2):
        store.add_deal(game.id, {"out": "Anna", "points": {"Anna": 0, "Bea": 30, "Cid": 125}})
    game = store.start_game(ruleset="carousel", players=players, league=league)
    store.add_deal(game.id, {"knocker": "Cid", "points": {"Anna": 80, "Bea": 70, "Cid": 0}})
