"""Deals the stateful store tests draw (folder damage, the folder beside PostgreSQL): a gin deal
by knocker and deadwood, a rommi deal by who went out and which hands the others hold."""

from __future__ import annotations

from typing import Any

#: Two hands for each of three seats that are not out, as a rommi deal's cards.
SEAT_HANDS = [["KS", "AH 2H *"], ["2C 3C", "9D"], ["5D 6D", "QH QD QC"]]


def gin_deal(players: tuple[str, ...], knocker: int, dead: int, other: int) -> dict[str, Any]:
    a, b = players[knocker % 2], players[(knocker + 1) % 2]
    return {"knocker": a, "deadwood": {a: dead, b: other}}


def rommi_deal(players: tuple[str, ...], out: int, hands: list[int]) -> dict[str, Any]:
    winner = players[out % len(players)]
    return {
        "hands": {
            p: ("" if p == winner else SEAT_HANDS[i % 3][hands[i % len(hands)] % 2])
            for i, p in enumerate(players)
        },
        "out": winner,
    }
