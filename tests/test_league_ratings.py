"""Ratings: openskill Plackett-Luce per player per ruleset, game by game in the order played."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorer.league.ratings import PROVISIONAL_GAMES, History, RatingRun, played_order, rate, resume
from scorer.league.standings import PlayedGame
from scorer.league.summary import GameSummary, rank


def played(
    id: str, totals: dict[str, int], *, day: int = 1, ruleset: str = "basic-rummy", finished: bool = True
) -> PlayedGame:
    """A game whose final totals are given (highest wins)."""
    ranking = rank(totals, lowest_wins=False)
    leaders = [p for p, r in ranking.items() if r == 1]
    summary = GameSummary(
        ruleset=ruleset,
        players=tuple(totals),
        finished=finished,
        winner=leaders[0] if finished and len(leaders) == 1 else None,
        totals=totals,
        ranking=ranking,
        deals=1,
        deals_won={p: int(p == leaders[0]) for p in totals},
        best_deal=dict(totals),
        events={},
    )
    return PlayedGame(id=id, season="s1", played=f"2026-02-{day:02d}T19:30:00Z", summary=summary)


def test_ratings_are_openskill_updates_in_the_order_played() -> None:
    first = played("b", {"anna": 100, "bea": 20, "cid": 50}, day=1)
    second = played("a", {"anna": 0, "bea": 100, "cid": 50}, day=2)
    ratings = rate([second, first])  # given out of order
    model = PlackettLuce()
    anna, bea, cid = model.rating(), model.rating(), model.rating()
    [anna], [bea], [cid] = model.rate([[anna], [bea], [cid]], ranks=[1, 3, 2])
    [anna], [bea], [cid] = model.rate([[anna], [bea], [cid]], ranks=[3, 1, 2])
    for name, expected in (("anna", anna), ("bea", bea), ("cid", cid)):
        got = ratings.get(name, "basic-rummy")
        assert got is not None
        assert (got.mu, got.sigma, got.ordinal) == pytest.approx(
            (expected.mu, expected.sigma, expected.ordinal())
        )
        assert [p.game for p in got.history] == ["b", "a"]


def test_order_matters_and_same_start_time_is_ordered_by_id() -> None:
    win = played("x1", {"anna": 100, "bea": 0})
    loss = played("x2", {"anna": 0, "bea": 100})
    forward = rate([loss, win]).get("anna", "basic-rummy")
    assert forward is not None and [p.game for p in forward.history] == ["x1", "x2"]
    win_later = played("x3", {"anna": 100, "bea": 0})
    backward = rate([loss, win_later]).get("anna", "basic-rummy")
    assert backward is not None and [p.game for p in backward.history] == ["x2", "x3"]
    # Losing last leaves a lower rating than winning last.
    assert forward.ordinal < backward.ordinal


def test_ties_share_a_rank() -> None:
    ratings = rate([played("t", {"anna": 100, "bea": 100, "cid": 20})])
    anna, bea, cid = (ratings.get(p, "basic-rummy") for p in ("anna", "bea", "cid"))
    assert anna is not None and bea is not None and cid is not None
    assert anna.mu == bea.mu and anna.sigma == bea.sigma
    assert cid.mu < anna.mu


def test_history_records_each_game_and_the_current_rating_is_the_last() -> None:
    games = [played(f"g{d}", {"anna": 100, "bea": 0}, day=d) for d in range(1, 4)]
    anna = rate(games).get("anna", "basic-rummy")
    assert anna is not None and anna.games == 3
    assert [p.game for p in anna.history] == ["g1", "g2", "g3"]
    assert anna.history[-1].mu == anna.mu and anna.history[-1].ordinal == anna.ordinal
    mus = [p.mu for p in anna.history]
    assert mus == sorted(mus) and len(set(mus)) == 3  # three wins: up each time
    sigmas = [p.sigma for p in anna.history]
    assert sigmas == sorted(sigmas, reverse=True)  # more games: more certain


def test_provisional_until_five_rated_games() -> None:
    games = [played(f"g{d}", {"anna": 100, "bea": 0}, day=d) for d in range(1, PROVISIONAL_GAMES + 1)]
    before = rate(games[:-1]).get("anna", "basic-rummy")
    after = rate(games).get("anna", "basic-rummy")
    assert before is not None and before.games == PROVISIONAL_GAMES - 1 and before.provisional
    assert after is not None and after.games == PROVISIONAL_GAMES and not after.provisional
    assert rate(games, provisional_games=6).get("anna", "basic-rummy").provisional  # type: ignore[union-attr]


def test_unfinished_games_are_not_rated() -> None:
    ratings = rate(
        [played("u", {"anna": 100, "bea": 0}, finished=False), played("f", {"bea": 100, "cid": 0})]
    )
    assert ratings.get("anna", "basic-rummy") is None
    bea = ratings.get("bea", "basic-rummy")
    assert bea is not None and [p.game for p in bea.history] == ["f"]


def test_one_rating_per_ruleset() -> None:
    ratings = rate(
        [
            played("r", {"anna": 100, "bea": 0}, ruleset="basic-rummy"),
            played("g", {"anna": 0, "bea": 100}, ruleset="gin", day=2),
        ]
    )
    rummy, gin = ratings.get("anna", "basic-rummy"), ratings.get("anna", "gin")
    assert rummy is not None and gin is not None
    assert rummy.games == gin.games == 1
    assert rummy.ordinal > gin.ordinal
    assert sorted(ratings.of_player("anna")) == ["basic-rummy", "gin"]
    assert [r.player for r in ratings.table("gin")] == ["bea", "anna"]


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(
            st.dictionaries(st.sampled_from(("a", "b", "c", "d")), st.integers(0, 3), min_size=2, max_size=4),
            st.sampled_from(("gin", "rommi")),
            st.integers(1, 28),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_ratings_are_deterministic_and_count_rated_games(
    games: list[tuple[dict[str, int], str, int, bool]],
) -> None:
    league = [
        played(f"g{i}", totals, ruleset=ruleset, day=day, finished=finished)
        for i, (totals, ruleset, day, finished) in enumerate(games)
    ]
    ratings = rate(league)
    assert rate(list(reversed(league))) == ratings
    assert set(ratings.ratings) == {
        (player, g.summary.ruleset) for g in league if g.summary.finished for player in g.summary.players
    }
    for (player, ruleset), rating in ratings.ratings.items():
        rated = [
            g.id
            for g in sorted(league, key=lambda g: (g.played, g.id))
            if g.summary.finished and g.summary.ruleset == ruleset and player in g.summary.players
        ]
        assert [p.game for p in rating.history] == rated
        assert rating.provisional == (len(rated) < PROVISIONAL_GAMES)


def test_ratings_and_standings_share_played_game_from_its_one_home() -> None:
    """ratings.py and standings.py do not import each other: PlayedGame lives in summary.py."""
    import ast
    from pathlib import Path

    import scorer.league.standings as standings_module
    import scorer.league.summary as summary_module

    folder = Path(__file__).resolve().parent.parent / "scorer" / "league"
    imported = {
        node.module
        for node in ast.walk(ast.parse((folder / "ratings.py").read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
    }
    assert "scorer.league.standings" not in imported
    assert standings_module.PlayedGame is summary_module.PlayedGame is PlayedGame


# -- going on from ratings as far as they were rated (scorer.league.ratings.resume) ----------------

_NAMES = ["anna", "bea", "cid", "dan"]


@st.composite
def _games(draw: st.DrawFn) -> list[PlayedGame]:
    count = draw(st.integers(0, 14))
    games = []
    for n in range(count):
        seated = draw(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=4, unique=True))
        totals = {p: draw(st.integers(0, 3)) * 10 for p in seated}
        games.append(
            played(
                f"g{n:02d}",
                totals,
                day=draw(st.integers(1, 9)),
                ruleset=draw(st.sampled_from(["gin", "basic-rummy"])),
                finished=draw(st.booleans()) or n % 3 == 0,
            )
        )
    return games


@settings(max_examples=150, deadline=None)
@given(games=_games(), known=st.integers(0, 14), changed=st.integers(-1, 13), data=st.data())
def test_ratings_gone_on_from_a_kept_run_equal_rating_every_game_again(
    games: list[PlayedGame], known: int, changed: int, data: st.DataObject
) -> None:
    """Whatever was rated before (some of the games, in any order they came), and whatever
    changed since (a game's result, a game played earlier than the last one rated), going on
    from the kept run gives exactly, to the bit, what rating every game from the first gives;
    and the run kept survives its JSON form."""
    before = data.draw(st.permutations(games)).copy()[:known]
    _, run = resume(before, None)
    run = RatingRun.from_dict(json.loads(json.dumps(run.to_dict())))
    assert run is not None
    now = list(games)
    if 0 <= changed < len(now):  # one game's result changed since: its players' ranks reversed
        game = now[changed]
        flipped = {p: -t for p, t in game.summary.totals.items()}
        now[changed] = played(game.id, flipped, day=int(game.played[8:10]), ruleset=game.summary.ruleset)
    went_on, next_run = resume(now, run)
    assert went_on == rate(now)
    assert resume(now, next_run)[0] == went_on
    # told which games changed, were added or removed since (as the state's games table tells)
    was, is_now = {g.id: g for g in before}, {g.id: g for g in now}
    since = {i for i in was.keys() | is_now.keys() if was.get(i) != is_now.get(i)}
    told, told_run = resume(now, run, changed=since)
    assert told == went_on
    assert told_run.mark == next_run.mark  # the mark it computes when asked is the checked one
    assert resume(now, told_run, changed=set())[0] == went_on
    # given in the order played, as the store's list of a league's games is: not sorted again
    ordered = played_order(now)
    assert resume(ordered, run, changed=since, ordered=True)[0] == went_on
    assert resume(ordered, None, ordered=True)[0] == went_on


def test_a_run_goes_on_with_the_new_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [played(f"g{n}", {"anna": n * 10, "bea": 50}, day=n + 1) for n in range(6)]
    _, run = resume(games[:4], None)
    rated: list[int] = []
    real = PlackettLuce.rate

    def counted(self: PlackettLuce, teams: list[list[object]], **given: object) -> object:
        rated.append(1)
        return real(self, teams, **given)  # type: ignore[arg-type]

    monkeypatch.setattr(PlackettLuce, "rate", counted)
    ratings, _ = resume(games, run)
    assert len(rated) == 2  # the two games after the run's, not all six
    assert ratings == rate(games)
    earlier = played("g0a", {"anna": 0, "bea": 90}, day=1)  # came in from another device: played earlier
    rated.clear()
    went_on = resume([*games, earlier], run)[0]
    assert len(rated) == 7  # the run no longer holds: every game again
    assert went_on == rate([*games, earlier])


def test_a_run_told_nothing_changed_goes_on_without_any_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Told which games changed since the run (none of its own), going on from it computes no
    mark of thousands of games; told that one of its games changed, it checks, and a result
    changed since starts it again."""
    from scorer.league import ratings as ratings_module

    games = [played(f"g{n}", {"anna": n * 10, "bea": 50}, day=n + 1) for n in range(6)]
    _, run = resume(games[:4], None)
    run = RatingRun.from_dict(run.to_dict())  # as a checkpoint gives it back
    assert run is not None
    marked: list[int] = []
    real = ratings_module.mark
    monkeypatch.setattr(ratings_module, "mark", lambda g: marked.append(len(g)) or real(g))
    ratings, went_on = resume(games, run, changed={"g4", "g5"})  # two games added since
    assert marked == [] and ratings == rate(games)
    assert went_on.mark == real(games) and marked == [6]  # computed when first asked for
    marked.clear()
    changed = played("g1", {"anna": 90, "bea": 0}, day=2)  # a result changed since
    now = [changed if g.id == "g1" else g for g in games]
    assert resume(now, run, changed={"g1"})[0] == rate(now)
    assert marked[0] == 4  # the run's four games checked, and found changed


def test_a_run_of_another_form_is_not_gone_on_from() -> None:
    _, run = resume([played("g1", {"anna": 10, "bea": 0})], None)
    kept = run.to_dict()
    assert RatingRun.from_dict({**kept, "form": "0 an earlier form"}) is None
    assert (
        RatingRun.from_dict({**kept, "ratings": [["anna", "gin", "not a number", 1.0, 1.0, 1, "[]"]]}) is None
    )
    assert RatingRun.from_dict({**kept, "ratings": [["anna", "gin", 1.0, 1.0, 1.0, 1, []]]}) is None
    assert RatingRun.from_dict({**kept, "ratings": [["anna", "gin", 1.0, 1.0, 1.0, 1.5, "[]"]]}) is None
    assert RatingRun.from_dict({**kept, "ratings": [["anna", "gin", 1.0, 1.0, []]]}) is None  # form 1


def test_a_kept_runs_histories_are_read_only_when_asked_for() -> None:
    """Going on from a run read back, with no game since, reads no history: each rating's
    ordinal and count are kept beside it; a history read gives every point as rated."""
    games = [played(f"g{n}", {"anna": n * 10, "bea": 50, "cid": 20}, day=n + 1) for n in range(6)]
    right, run = resume(games, None)
    kept = RatingRun.from_dict(json.loads(json.dumps(run.to_dict())))
    assert kept is not None
    ratings, _ = resume(games, kept)
    anna = ratings.get("anna", "basic-rummy")
    assert anna is not None and anna.history._points is None  # type: ignore[attr-defined]
    expected = right.get("anna", "basic-rummy")
    assert expected is not None
    assert (anna.ordinal, anna.games, anna.provisional) == (expected.ordinal, 6, False)
    assert ratings == right  # every history read: the same points
    assert [p.game for p in anna.history] == [f"g{n}" for n in range(6)]


def test_a_history_whose_kept_text_is_not_points_says_so() -> None:
    with pytest.raises(ValueError, match="not a list of points"):
        _ = History(text='[["g1", "x"]]').points
