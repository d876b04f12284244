"""Every public read of a league store, as plain JSON data: the differential test's answers.

:func:`public_reads` asks a :class:`~scorer.league.store.Store` every question its public
methods answer (leagues, players, games and their events, standings of every kind, ratings,
player pages, head-to-heads, club nights, exports) and returns the answers as JSON-ready
data: every frozen value becomes a dict of its fields, tuples become lists, messages their
``{"code", "params"}``. Two stores that answer alike give equal dicts, so a store folder
written by one version of the code and converted by another can be compared read for read
(``tests/test_store_conversion.py``); :func:`differences` says where two answers part.

Lists keep the order the store gives (that order is part of the answer: standings best
first, games in the order played); dicts are keyed by name where the store keeps names
unique (leagues, a league's seasons), else by id, so the output is the same for the same
store. A read that refuses (a league with no club night has no latest night) is recorded as
``{"refused": ERROR CLASS, "message": {...}}``, so a later version must refuse alike. The
one answer that is not a read of the stored data, an export's ``exported`` time (the clock
at the time of the export), is recorded only as whether it is an ISO time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from itertools import combinations
from typing import Any

from scorer.errors import ScorerError
from scorer.league.night import Night, NightRow
from scorer.league.ratings import Ratings
from scorer.league.records import GameInfo, League, StoredGame
from scorer.league.store import Store
from scorer.league.tiebreaks import DEFAULT_ORDER
from scorer.messages import Message

#: The key of a read asked with no season (the league's whole history) or no ruleset.
ALL_SEASONS = "(every season)"
ALL_RULESETS = "(every ruleset)"
#: The key of the league's latest night (``night(league)`` with no key).
LATEST = "(latest)"
#: What an export's ``exported`` time is recorded as.
EXPORTED = "(an ISO time)"


#: Fields the public values gained after the data was made, each with the value that says
#: what the earlier version said by leaving it out: one holding it is no part of the earlier
#: answer (a correction's ``was``, kept since; a night's tie-break order, the one every night
#: had, and its coin flips, none; a night's bye points, 0, and a row's byes, 0, unless a bye
#: earned points). A field marked :data:`SAID_SINCE` said nothing the earlier
#: version said, whatever its value: which tie-break put a night's row above the next (the
#: order of the rows, which the tie-breaks decide, is still compared).
SAID_SINCE = object()
ADDED_SINCE: Mapping[str, Any] = {
    "was": None,
    "check": None,  # a club night deal's confirmation, on its event (scorer/league/confirm.py)
    "unconfirmed": 0,
    "disputed": 0,
    "confirmation": False,
    "tiebreaks": DEFAULT_ORDER,
    "flips": (),
    "tiebreak": SAID_SINCE,
    "bye_points": 0,
    "NightRow.byes": SAID_SINCE,  # a row's count of byes (a round's byes, its names, stay)
    # a director's penalties: none before
    "NightRow.penalties": 0,
    "GameResult.penalties": {},
    "Game.penalties": (),
    # replacements at a night's table (docs/rules.md, "Replacements") and late arrivals' byes:
    # none before
    "GameSummary.seated": {},
    "GameSummary.left": (),
    "NightRow.left_after": (),
    "NightRow.joined_after": (),
    "Game.replacements": (),
    "late_byes": False,
    "substitutes": (),  # a game record's ids of the players who took over a seat
}


def _added_since(value: object, name: str) -> bool:
    name = qualified if (qualified := f"{type(value).__name__}.{name}") in ADDED_SINCE else name
    if name not in ADDED_SINCE:
        return False
    since = ADDED_SINCE[name]
    return since is SAID_SINCE or bool(getattr(value, name.rpartition(".")[2]) == since)


def plain(value: Any) -> Any:
    """``value`` as JSON data: dataclasses as dicts of their fields, tuples and other sequences
    (a rating's history) as lists, messages as ``{"code", "params"}``, tuple keys joined with
    ``|``."""
    if isinstance(value, Message):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not _added_since(value, f.name)
        }
    if isinstance(value, Mapping):
        return {_key(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | Sequence) and not isinstance(value, str):
        return [plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"no plain form for {type(value).__name__}: {value!r}")


def _key(key: object) -> str:
    if isinstance(key, tuple):
        return "|".join(str(k) for k in key)
    return str(key)


def _attempt(call: Callable[[], Any], shape: Callable[[Any], Any] = plain) -> Any:
    """The answer, or how it was refused: the store's errors are answers too."""
    try:
        answer = call()
    except ScorerError as error:
        return {"refused": type(error).__name__, "message": error.message.to_json()}
    return shape(answer)


# -- the values the store hands out -------------------------------------------------------


def record(value: object) -> dict[str, Any]:
    """A frozen value (a dataclass) as the dict of its fields."""
    data = plain(value)
    if not isinstance(data, dict):
        raise TypeError(f"not a record: {value!r}")
    return data


def game_info(info: GameInfo) -> dict[str, Any]:
    """A game as listed; who holds each seat now only where someone took a seat over (the
    fields came with replacements: a game with none answers as an earlier version did)."""
    value = record(info)
    if not info.holders:
        del value["holders"], value["holder_names"]
    return value


def league_value(league: League) -> dict[str, Any]:
    value = record(league)
    value["season"] = league.season.id if league.season is not None else None  # the open one
    return value


def stored_game(game: StoredGame) -> dict[str, Any]:
    """A stored game less the replayed :class:`~scorer.game.Game` object (its document and
    its result say all of it)."""
    value = {f.name: plain(getattr(game, f.name)) for f in dataclasses.fields(game) if f.name != "game"}
    value["deals_played"] = len(game.game.deals)
    return value


def ratings_tables(ratings: Ratings) -> dict[str, Any]:
    """Each ruleset's ratings table (best first), by ruleset id."""
    rulesets = sorted({ruleset for _, ruleset in ratings.ratings})
    return {r: plain(ratings.table(r)) for r in rulesets}


def night_with_rows(pair: tuple[Night, list[NightRow]]) -> dict[str, Any]:
    return {"night": record(pair[0]), "rows": plain(pair[1])}


def export(document: Mapping[str, Any]) -> dict[str, Any]:
    """A league export, its ``exported`` time recorded as whether it is one."""
    value = dict(document)
    for part in ("nights", "games"):  # a night, a game's tags, travel whole: with the fields added since
        if isinstance(value.get(part), list):
            value[part] = [_as_before(n) for n in value[part]]
    if "exported" in value:
        value["exported"] = EXPORTED if _is_time(value["exported"]) else value["exported"]
    return value


def _as_before(night: Any) -> Any:
    """An exported night (or game) less the fields added since that hold what the earlier
    version meant."""
    if not isinstance(night, dict):
        return night
    meant = {k: plain(v) for k, v in ADDED_SINCE.items() if v is not SAID_SINCE}
    return {k: v for k, v in night.items() if not (k in meant and meant[k] == v)}


def _is_time(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


# -- every read ---------------------------------------------------------------------------


def public_reads(store: Store) -> dict[str, Any]:
    """Every public read of ``store``, as JSON data in a fixed order (see the module docstring)."""
    leagues = store.leagues()
    players = store.players()
    every_game = store.games(deleted=True)
    reads: dict[str, Any] = {}

    reads["leagues"] = [league_value(lg) for lg in leagues]
    reads["league"] = {
        lg.name: {"by name": league_value(store.league(lg.name)), "by id": league_value(store.league(lg.id))}
        for lg in leagues
    }

    reads["players"] = {
        "all": plain(players),
        "by league": {lg.name: plain(store.players(league=lg.name)) for lg in leagues},
        "by name": {p.name: store.player(p.name).id for p in players},
        "by id": {p.id: plain(store.player(p.id)) for p in players},
    }

    reads["games"] = {
        "all, deleted too": [game_info(g) for g in every_game],
        "listed": [g.id for g in store.games()],
        "finished": [g.id for g in store.games(finished=True)],
        "in progress": [g.id for g in store.games(finished=False)],
        "by league": {
            lg.name: {
                "all, deleted too": [game_info(g) for g in store.games(league=lg.name, deleted=True)],
                "listed": [g.id for g in store.games(league=lg.name)],
                "by season": {
                    s.name: [g.id for g in store.games(league=lg.name, season=s.id, deleted=True)]
                    for s in lg.seasons
                },
            }
            for lg in leagues
        },
    }
    reads["game"] = {g.id: stored_game(store.game(g.id)) for g in every_game}
    reads["events"] = {g.id: plain(store.events(g.id)) for g in every_game}
    reads["find game"] = {g.id[:8]: _attempt(partial(store.find_game, g.id[:8])) for g in every_game}

    reads["played games"] = {}
    reads["standings"] = {}
    reads["standings by ruleset"] = {}
    reads["ratings"] = {}
    for lg in leagues:
        seasons: dict[str, str | None] = {ALL_SEASONS: None, **{s.name: s.id for s in lg.seasons}}
        played = sorted({g.ruleset for g in every_game if g.league_id == lg.id})
        rulesets: dict[str, str | None] = {ALL_RULESETS: None, **{r: r for r in played}}
        reads["played games"][lg.name] = {
            key: plain(store.played_games(lg.name, season=s)) for key, s in seasons.items()
        }
        reads["standings"][lg.name] = {
            key: {rkey: plain(store.standings(lg.name, season=s, ruleset=r)) for rkey, r in rulesets.items()}
            for key, s in seasons.items()
        }
        reads["standings by ruleset"][lg.name] = {
            key: plain(store.standings_by_ruleset(lg.name, season=s)) for key, s in seasons.items()
        }
        reads["ratings"][lg.name] = {
            key: ratings_tables(store.ratings(lg.name, season=s)) for key, s in seasons.items()
        }

    reads["player stats"] = {
        lg.name: {p.id: record(store.player_stats(lg.name, p.id)) for p in players} for lg in leagues
    }
    reads["head to head"] = {
        lg.name: {
            f"{a}|{b}": record(store.head_to_head(lg.name, a, b))
            for a, b in _pairs(g.players for g in every_game if g.league_id == lg.id)
        }
        for lg in leagues
    }

    reads["nights"] = {lg.name: [record(n) for n in store.nights(lg.name)] for lg in leagues}
    reads["night"] = {}
    reads["night standings"] = {}
    for lg in leagues:
        keys: dict[str, str | None] = {LATEST: None}
        for n in store.nights(lg.name):
            keys[n.id] = n.id
            keys[n.id[:8]] = n.id[:8]
        reads["night"][lg.name] = {key: _attempt(partial(store.night, lg.name, k)) for key, k in keys.items()}
        reads["night standings"][lg.name] = {
            key: _attempt(partial(store.night_standings, lg.name, k), night_with_rows)
            for key, k in keys.items()
        }
    reads["night results"] = {
        lg.name: [night_with_rows(pair) for pair in store.night_results(lg.name)] for lg in leagues
    }
    every_night = [n for lg in leagues for n in store.nights(lg.name)]
    reads["find night"] = {
        key: _attempt(partial(store.find_night, key))
        for key in [k for n in every_night for k in (n.id, n.id[:8])]
    }
    reads["player nights"] = {
        p.id: [
            {"night": record(n), "place": place, "row": plain(row)}
            for n, place, row in store.player_nights(p.id)
        ]
        for p in players
    }

    reads["export"] = {lg.name: export(store.export_league(lg.name)) for lg in leagues}
    # RFC 4180 lines (CRLF): a list of lines, so that a difference names its row
    reads["export csv"] = {lg.name: store.export_csv(lg.name).split("\r\n") for lg in leagues}
    return reads


def _pairs(seatings: Iterable[tuple[str, ...]]) -> list[tuple[str, str]]:
    """Every two players who sat at one game, each pair once, in a fixed order."""
    return sorted({pair for seated in seatings for pair in combinations(sorted(seated), 2)})


# -- comparing two answers ----------------------------------------------------------------


def differences(expected: Any, actual: Any, *, path: str = "", limit: int = 50) -> list[str]:
    """Where ``actual`` parts from ``expected``: one line per difference, each with its path
    (``standings.Friday club.2026.(every ruleset)[2].points: 120 != 130``), at most ``limit``."""
    found: list[str] = []
    _differ(expected, actual, path, found, limit)
    return found


def _differ(expected: Any, actual: Any, path: str, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            if key not in actual:
                found.append(f"{path}.{key}: missing")
            else:
                _differ(expected[key], actual[key], f"{path}.{key}", found, limit)
        found.extend(f"{path}.{key}: not expected" for key in actual if key not in expected)
    elif isinstance(expected, list) and isinstance(actual, list):
        for index, (e, a) in enumerate(zip(expected, actual, strict=False)):
            _differ(e, a, f"{path}[{index}]", found, limit)
        if len(expected) != len(actual):
            found.append(f"{path}: {len(expected)} items expected, {len(actual)} found")
    elif type(expected) is not type(actual) or expected != actual:
        found.append(f"{path}: expected {expected!r}, found {actual!r}")
    del found[limit:]
