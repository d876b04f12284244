"""Other gin rummy engines, run by ``bench/solver.py`` on the same hands as ours.

Each peer answers the two questions the benchmark asks of a gin hand, in the way
its own code answers them, and returns the least deadwood as an int:

- ``best``: the least deadwood of the hand as it is (10 or 11 cards);
- ``best_discard``: the least deadwood of an 11-card hand after its best discard.

A peer turns our cards into its own card objects in :attr:`PeerTask.prepare`,
which the benchmark calls outside the timed region; only :attr:`PeerTask.run` is
timed. Both peers are optional (``pip install -e '.[bench]'``): a peer that
cannot be imported is reported by :func:`load_peers` and left out.

RLCard (``rlcard.games.gin_rummy``) is pure Python: it lists every meld and
every cluster of up to three disjoint melds, then scores each cluster.
OpenSpiel (``pyspiel.gin_rummy.GinRummyUtils``) is C++ behind pybind11: it
lists every meld group by a depth-first search over the melds.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorer.cards import SUIT_CHARS, Card

Task = Literal["best", "best_discard"]


@dataclass(frozen=True, slots=True)
class PeerTask:
    """How a peer answers one task: untimed conversion, then the timed call.

    ``name`` names the row in the benchmark's tables; ``label`` says which of
    the peer's functions answer.
    """

    name: str
    label: str
    prepare: Callable[[Sequence[Card]], Any]
    run: Callable[[Any], int]


@dataclass(frozen=True, slots=True)
class Peer:
    """An installed engine and its ways to answer each (task, hand size)."""

    name: str
    version: str
    tasks: dict[tuple[Task, int], tuple[PeerTask, ...]]

    def ways(self, task: Task, hand_size: int) -> tuple[PeerTask, ...]:
        return self.tasks.get((task, hand_size), ())


# -- RLCard -------------------------------------------------------------------------


def _rlcard() -> Peer:
    melding = importlib.import_module("rlcard.games.gin_rummy.utils.melding")
    utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
    get_best_meld_clusters = melding.get_best_meld_clusters
    get_meld_clusters = melding.get_meld_clusters
    get_deadwood_count = utils.get_deadwood_count
    get_deadwood_value = utils.get_deadwood_value
    card_from_text = utils.card_from_text

    def prepare(cards: Sequence[Card]) -> list[Any]:
        # Our text ('TH') is RLCard's text: ranks A23456789TJQK, suits SHDC.
        return [card_from_text(str(card)) for card in cards]

    def best10(hand: list[Any]) -> int:
        # As RLCard scores a player at the end of a deal (GinRummyRound.score_player_0).
        clusters = get_best_meld_clusters(hand=hand)
        return int(get_deadwood_count(hand=hand, meld_cluster=clusters[0] if clusters else []))

    def best11(hand: list[Any]) -> int:
        best: int = sum(get_deadwood_value(card) for card in hand)
        for cluster in get_meld_clusters(hand=hand):
            melded = [card for pile in cluster for card in pile]
            deadwood: int = sum(get_deadwood_value(card) for card in hand if card not in melded)
            best = min(best, deadwood)
        return best

    def best_discard11(hand: list[Any]) -> int:
        # One pass over the 11-card clusters, as RLCard's judge finds going-out
        # cards: the discard is the highest deadwood card left by a cluster.
        values: list[int] = [get_deadwood_value(card) for card in hand]
        best = sum(values) - max(values)
        for cluster in get_meld_clusters(hand=hand):
            melded = [card for pile in cluster for card in pile]
            left: list[int] = [get_deadwood_value(card) for card in hand if card not in melded]
            best = min(best, sum(left) - max(left) if left else 0)
        return best

    return Peer(
        name="rlcard",
        version=importlib.metadata.version("rlcard"),
        tasks={
            ("best", 10): (
                PeerTask("rlcard", "get_best_meld_clusters + get_deadwood_count", prepare, best10),
            ),
            ("best", 11): (PeerTask("rlcard", "get_meld_clusters, least deadwood", prepare, best11),),
            ("best_discard", 11): (
                PeerTask(
                    "rlcard", "get_meld_clusters, least deadwood less its top card", prepare, best_discard11
                ),
            ),
        },
    )


# -- OpenSpiel ----------------------------------------------------------------------

#: OpenSpiel's card int is suit * 13 + rank - 1 with suits in the order s c d h.
_OPENSPIEL_SUITS = "scdh"


def _openspiel() -> Peer:
    pyspiel = importlib.import_module("pyspiel")
    gin = pyspiel.gin_rummy
    # min_deadwood drops the highest-ranked deadwood card when the hand holds
    # hand_size + 1 cards (the card just drawn), so 'hand size 11' answers the
    # 11-card question with no discard and 'hand size 10' with one.
    utils10 = gin.GinRummyUtils(gin.DEFAULT_NUM_RANKS, gin.DEFAULT_NUM_SUITS, 10)
    utils11 = gin.GinRummyUtils(gin.DEFAULT_NUM_RANKS, gin.DEFAULT_NUM_SUITS, 11)
    to_ints = utils10.card_strings_to_card_ints

    def prepare(cards: Sequence[Card]) -> list[int]:
        text = [str(card)[0] + _OPENSPIEL_SUITS[SUIT_CHARS.index(str(card)[1])] for card in cards]
        return [int(i) for i in to_ints(text)]

    def best10(hand: list[int]) -> int:
        return int(utils10.min_deadwood(hand))

    def best11(hand: list[int]) -> int:
        return int(utils11.min_deadwood(hand))

    def best_discard11(hand: list[int]) -> int:
        return int(utils10.min_deadwood(hand))

    def best_discard11_each(hand: list[int]) -> int:
        return min(int(utils10.min_deadwood(hand[:i] + hand[i + 1 :])) for i in range(len(hand)))

    return Peer(
        name="openspiel",
        version=importlib.metadata.version("open_spiel"),
        tasks={
            ("best", 10): (PeerTask("openspiel", "GinRummyUtils(13, 4, 10).min_deadwood", prepare, best10),),
            ("best", 11): (PeerTask("openspiel", "GinRummyUtils(13, 4, 11).min_deadwood", prepare, best11),),
            ("best_discard", 11): (
                PeerTask(
                    "openspiel",
                    "GinRummyUtils(13, 4, 10).min_deadwood on 11 cards (drops its top deadwood card)",
                    prepare,
                    best_discard11,
                ),
                PeerTask(
                    "openspiel x11",
                    "GinRummyUtils(13, 4, 10).min_deadwood of each 10-card rest",
                    prepare,
                    best_discard11_each,
                ),
            ),
        },
    )


PEER_LOADERS: dict[str, Callable[[], Peer]] = {"rlcard": _rlcard, "openspiel": _openspiel}


def load_peers() -> tuple[list[Peer], list[str]]:
    """The peers that import here, and a sentence for each one that does not."""
    peers: list[Peer] = []
    missing: list[str] = []
    for name, loader in PEER_LOADERS.items():
        try:
            peers.append(loader())
        except Exception as exc:  # an optional peer may fail in any way; say how and go on
            missing.append(
                f"peer {name} not available ({type(exc).__name__}: {exc}); "
                "install the bench extra: .venv/bin/pip install -e '.[bench]'"
            )
    return peers, missing
