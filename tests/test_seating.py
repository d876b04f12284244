"""Seating a club night (scorer/seating.py): sizes, methods, fixed seats, errors."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.seating import (
    METHODS,
    SeatingError,
    TableSizes,
    opponents,
    parse_fixed,
    seat,
    spread_of,
    table_sizes,
)

RANGES = [(2, 2), (2, 4), (2, 6), (2, 7), (3, 4), (3, 6)]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=40),
    limits=st.sampled_from(RANGES),
    method=st.sampled_from(METHODS),
    seed=st.integers(0, 1000),
)
def test_every_present_player_seated_once_at_legal_tables(
    count: int, limits: tuple[int, int], method: str, seed: int
) -> None:
    low, high = limits
    players = [f"P{i}" for i in range(count)]
    if count < low:
        return
    seating = seat(players, low=low, high=high, method=method, seed=seed)  # type: ignore[arg-type]
    seated = [p for t in seating.tables for p in t]
    assert sorted(seated + list(seating.byes)) == sorted(players)
    assert len(set(seated)) == len(seated)
    sizes = [len(t) for t in seating.tables]
    assert all(low <= s <= high for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    # a bye only when no table sizes seat everyone
    if seating.byes:  # a bye only when no table sizes seat everyone
        assert not any(k * low <= count <= k * high for k in range(1, count + 1))


def test_random_is_reproducible_with_a_seed() -> None:
    players = [f"P{i}" for i in range(13)]
    one = seat(players, low=2, high=7, method="random", seed=7)
    assert one == seat(players, low=2, high=7, method="random", seed=7)
    assert one != seat(players, low=2, high=7, method="random", seed=8)


def _seatings_without_repeats(players: list[str], sizes: tuple[int, ...], met: dict[str, set[str]]) -> bool:
    """Brute force, independent of the engine's search: table by table, every choice of players."""

    def fits(table: tuple[str, ...]) -> bool:
        return not any(b in met.get(a, set()) for a, b in combinations(table, 2))

    def seat_rest(left: list[str], rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        return any(
            fits(table) and seat_rest([p for p in left if p not in table], rest[1:])
            for table in combinations(left, rest[0])
        )

    return seat_rest(players, sizes)


@settings(max_examples=80, deadline=None)
@given(count=st.integers(4, 12), limits=st.sampled_from(RANGES), seed=st.integers(0, 10_000))
def test_swiss_never_repeats_an_opponent_when_it_can_be_avoided(
    count: int, limits: tuple[int, int], seed: int
) -> None:
    low, high = limits
    players = [f"P{i}" for i in range(count)]
    first = seat(players, low=low, high=high, method="random", seed=seed)
    second = seat(players, low=low, high=high, method="random", seed=seed + 1)
    met = opponents([first.tables, second.tables])
    standing = random.Random(seed).sample(players, count)
    swiss = seat(players, low=low, high=high, method="swiss", standing=standing, met=met)
    present = [p for p in standing if p not in swiss.byes]
    sizes = tuple(len(t) for t in swiss.tables)
    repeats = sum(1 for t in swiss.tables for a, b in combinations(t, 2) if b in met.get(a, set()))
    assert repeats == swiss.repeats
    if _seatings_without_repeats(present, sizes, met):
        assert repeats == 0


def test_swiss_seats_similar_standing_together() -> None:
    players = [f"P{i}" for i in range(8)]
    swiss = seat(players, low=2, high=4, method="swiss", standing=players, met={})
    assert swiss.tables == (("P0", "P1", "P2", "P3"), ("P4", "P5", "P6", "P7"))


def test_swiss_on_a_big_night_avoids_repeats_by_greedy_and_repair() -> None:
    players = [f"P{i:03}" for i in range(60)]
    rounds = [seat(players, low=2, high=7, method="random", seed=s).tables for s in range(2)]
    swiss = seat(players, low=2, high=7, method="swiss", standing=players, met=opponents(rounds))
    assert not swiss.exact
    assert swiss.repeats == 0


@settings(max_examples=25, deadline=None)
@given(count=st.integers(5, 30), limits=st.sampled_from(RANGES[1:]), seed=st.integers(0, 10_000))
def test_balanced_is_at_least_as_even_as_the_median_random_seating(
    count: int, limits: tuple[int, int], seed: int
) -> None:
    low, high = limits
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(count)]
    ratings = {p: rng.gauss(25, 6) for p in players}
    balanced = seat(players, low=low, high=high, method="balanced", ratings=ratings, seed=seed)
    assert balanced.evenness is not None
    assert balanced.evenness.spread == pytest.approx(spread_of(balanced.tables, ratings))
    spreads = []
    for n in range(100):
        other = seat(players, low=low, high=high, method="random", seed=seed * 1000 + n)
        spreads.append(spread_of(other.tables, ratings))
    if not balanced.byes:  # with byes the seatings differ in who plays
        assert balanced.evenness.spread <= statistics.median(spreads) + 1e-9
    assert balanced.evenness.bound <= balanced.evenness.spread + 1e-9
    if balanced.exact:
        assert balanced.evenness.best == balanced.evenness.spread


def test_fixed_seats_are_kept_in_every_method() -> None:
    players = [f"P{i}" for i in range(12)]
    for method in METHODS:
        seating = seat(players, low=2, high=7, method=method, fixed={"P5": 3, "p0": 3}, seed=1)
        assert {"P5", "P0"} <= set(seating.tables[2])


def test_table_sizes_prefer_tables_of_four() -> None:
    assert table_sizes(12, low=2, high=7).sizes == (4, 4, 4)
    assert table_sizes(5, low=2, high=2).byes == 1
    assert table_sizes(5, low=3, high=6) == TableSizes(sizes=(5,), byes=0)  # not 4 and a bye


@pytest.mark.parametrize(
    ("players", "fixed", "code"),
    [
        (["A"], {}, "night.too_few"),
        (["A", "B", "C"], {"A": 2}, "night.no_such_table"),
        (["A", "B", "a"], {}, "night.player_twice"),
        (["A", "B", "C"], {"Z": 1}, "night.fixed_absent"),
        (["A", "B", "C", "D"], {"A": 1, "B": 1, "C": 1}, "night.table_full"),
        (["A", "B", "C", "D"], {"A": 1, "a": 2}, "night.fixed_twice"),  # one player, two tables
    ],
)
def test_impossible_requests_are_refused(players: list[str], fixed: dict[str, int], code: str) -> None:
    low, high = (2, 2) if code == "night.table_full" else (2, 7)
    with pytest.raises(SeatingError) as caught:
        seat(players, low=low, high=high, fixed=fixed)
    assert caught.value.message.code == code


def test_parse_fixed_reads_name_equals_table() -> None:
    assert parse_fixed(["Anna=2", " Bea = 1"]) == {"Anna": 2, "Bea": 1}
    with pytest.raises(SeatingError) as caught:
        parse_fixed(["Anna"])
    assert "Anna" in str(caught.value)


@pytest.mark.parametrize("items", [["Anna=1", "Anna=2"], ["Anna=1", "anna = 1"]])
def test_a_player_fixed_twice_is_refused_naming_both_items(items: list[str]) -> None:
    """Issue 24, 11: ``--fixed Anna=1 --fixed Anna=2`` was taken silently, the last winning."""
    with pytest.raises(SeatingError) as caught:
        parse_fixed(items)
    assert caught.value.message.code == "night.fixed_twice"
    assert all(repr(item) in str(caught.value) for item in items)


def test_an_unknown_method_is_refused_by_name() -> None:
    with pytest.raises(SeatingError) as caught:
        seat(["A", "B"], low=2, high=2, method="fair")  # type: ignore[arg-type]
    assert "'fair'" in str(caught.value) and "swiss" in str(caught.value)


@pytest.mark.parametrize("method", METHODS)
def test_byes_go_round_before_anyone_sits_out_twice(method: str) -> None:
    players = ["A", "B", "C", "D", "E"]  # gin: two tables and a bye, every round
    rested: list[str] = []
    for round_number in range(5):
        seating = seat(
            players,
            low=2,
            high=2,
            method=method,
            seed=round_number,
            standing=players,
            rested=rested,  # type: ignore[arg-type]
        )
        (bye,) = seating.byes
        assert bye not in rested
        rested.append(bye)
    assert sorted(rested) == players
    again = seat(players, low=2, high=2, method=method, seed=9, standing=players, rested=rested)  # type: ignore[arg-type]
    assert len(again.byes) == 1


@settings(max_examples=150, deadline=None)
@given(
    method=st.sampled_from(METHODS),
    nights=st.lists(
        st.tuples(
            st.lists(st.sampled_from("ABCDEFGHIJ"), min_size=3, max_size=10, unique=True),
            st.integers(0, 2**31 - 1),
            st.booleans(),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_byes_rotate_by_count_whoever_comes_and_goes(
    method: str, nights: list[tuple[list[str], int, bool]]
) -> None:
    """Round after round, with players arriving late and leaving (each round's own present list)
    and now and then one fixed to table 1: each bye goes to a player who has sat out no more
    often than any other player who could have (present, not fixed) — so nobody sits out a
    second time before everyone present has once."""
    sat_out: Counter[str] = Counter()
    for present, seed, pin in nights:
        fixed = {present[0]: 1} if pin else {}
        seating = seat(
            present, low=2, high=2, method=method, seed=seed, fixed=fixed, standing=present, rested=sat_out
        )
        could = [p for p in present if p not in fixed]
        for bye in seating.byes:
            assert bye in could
            assert all(sat_out[bye] <= sat_out[q] for q in could if q not in seating.byes), (bye, sat_out)
        seated = [p for table in seating.tables for p in table]
        assert sorted(seated + list(seating.byes)) == sorted(present)
        sat_out.update(seating.byes)
