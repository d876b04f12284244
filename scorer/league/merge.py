"""Applying an import to the store, and building an export from it.

:mod:`scorer.league.exchange` reads and checks the files; this module matches what they bring
with what the store holds (seasons by id then name, players by id then name, games by id)
and stages the changes inside the store's transaction, so that an import writes everything
or nothing. A game the store already has is compared deal by deal: the longer copy wins when
the other is its beginning, and two copies that differ are a conflict, reported and left as
they are here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorer.league.documents import (
    INDEX,
    GameRecord,
    LeagueDoc,
    PlayerDoc,
    SeasonDoc,
    game_name,
    now,
    shard_name,
)
from scorer.league.errors import ImportFileError, SeasonClosedError, UnknownPlayerError
from scorer.league.events import event
from scorer.league.exchange import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ImportBatch,
    ImportReport,
    IncomingGame,
    IncomingPlayer,
    IncomingSeason,
)
from scorer.league.repository import Documents, NewPlayers, different_people, replay
from scorer.messages import Message
from scorer.names import clean_name, name_key

# -- comparing a game with the stored one ------------------------------------------------------


def compare(stored: Mapping[str, Any], incoming: Mapping[str, Any]) -> tuple[str, Message | None]:
    """How an incoming game file relates to the stored one.

    ``("same", None)``, ``("longer", None)`` (the incoming one has more deals, the first ones the
    same: it is added), ``("shorter", None)`` (the stored one is ahead: nothing to do) or
    ``("conflict", reason)``.
    """
    head = ("ruleset", "options", "players", "first_dealer")
    for key in head:
        if stored.get(key) != incoming.get(key) and not (
            key == "options" and not stored.get(key) and not incoming.get(key)
        ):
            return "conflict", Message("store.copies_differ_in", field=key)
    ours: list[Any] = list(stored.get("deals") or [])
    theirs: list[Any] = list(incoming.get("deals") or [])
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1):
        if a != b:
            return "conflict", Message("store.copies_differ_deal", number=number)
    if len(theirs) > len(ours):
        return "longer", None
    if len(theirs) < len(ours):
        return "shorter", None
    return "same", None


# -- applying an import (inside the store's transaction) -----------------------------------------


class _Importer:
    """One import into one league: seasons, players and games matched, then written."""

    def __init__(
        self,
        docs: Documents,
        league: LeagueDoc,
        *,
        season: SeasonDoc | None,
        by: str = "",
        new_players: NewPlayers = (),
    ) -> None:
        self.docs = docs
        self.different = different_people(new_players)
        self.by = by
        self.league = league
        self.season = season
        self.report = ImportReport()
        self.seasons: dict[str, str] = {}
        self.players: dict[str, str] = {}  # incoming id or "name:<casefolded name>" -> player id

    def default_season(self) -> SeasonDoc:
        season = self.season or self.docs.open_season(self.league)
        if season.closed is not None:
            raise SeasonClosedError(Message("store.season_closed", value=repr(season.name)))
        return season

    def add_seasons(self, seasons: Iterable[IncomingSeason]) -> None:
        for incoming in seasons:
            if incoming.id in self.seasons:
                continue
            known = self.docs.index().seasons.get(incoming.id)
            if known is not None and known.league != self.league.id:
                raise ImportFileError(
                    Message("store.season_elsewhere", season=repr(incoming.name), id=incoming.id)
                )
            if known is None:
                ours = self.docs.seasons_of(self.league.id)
                known = next((s for s in ours if name_key(s.name) == name_key(incoming.name)), None)
            if known is None:
                ours = self.docs.seasons_of(self.league.id)
                closed: str | None = incoming.closed
                if closed is None and any(s.closed is None for s in ours):
                    closed = now()  # the league's own open season stays the one new games go to
                known = SeasonDoc(
                    id=incoming.id,
                    league=self.league.id,
                    name=clean_name(incoming.name, what="season"),
                    number=max((s.number for s in ours), default=0) + 1,
                    created=incoming.created,
                    changed=now(),
                    closed=closed,
                )
                self.docs.put(INDEX, "seasons", known.model_dump())
            self.seasons[incoming.id] = known.id

    def player(self, incoming: IncomingPlayer) -> str:
        keys = [k for k in (incoming.id, "name:" + name_key(incoming.name)) if k]
        for key in keys:
            if key in self.players:
                return self.players[key]
        found: PlayerDoc | None = None
        for wanted in (incoming.id, incoming.name):
            if not wanted:
                continue
            try:
                found = self.docs.player_doc(wanted)
                break
            except UnknownPlayerError:
                continue
        if found is None:
            new_id = incoming.id if incoming.id and incoming.id not in self.docs.index().players else None
            name = clean_name(incoming.name, what="player")
            found = self.docs.add_player(name, player_id=new_id, different=self.different(name))
            self.report.players_added += 1
        for key in keys:
            self.players[key] = found.id
        return found.id

    def add_game(self, incoming: IncomingGame) -> None:
        seats = [self.player(p) for p in incoming.seats]
        if len(set(seats)) != len(seats):
            self.conflict(incoming, Message("store.conflict_players_one"))
            return
        stored = self.docs.record_or_none(incoming.id)
        if stored is None:
            self.new_game(incoming, seats)
            return
        if stored.league != self.league.id:
            self.conflict(incoming, Message("store.conflict_other_league"))
            return
        relation, reason = compare(stored.document, incoming.document)
        if relation == "conflict" or (relation != "same" and stored.snapshot != incoming.snapshot):
            self.conflict(incoming, reason or Message("store.conflict_rules"))
            return
        if relation != "longer":
            self.report.games_unchanged += 1
            return
        try:
            self.docs.check_open(stored)
        except SeasonClosedError as exc:
            self.conflict(incoming, exc.message)
            return
        game = replay(incoming.document, incoming.snapshot)
        stamp = now()
        events = list(stored.events)
        for number in range(len(stored.document.get("deals") or []) + 1, incoming.deals + 1):
            events.append(event(events, stamp, self.by, "recorded", deal=number))
        updated = stored.model_copy(
            update={"document": incoming.document, "changed": stamp, "events": events}
        )
        self.docs.write_game(updated, rev=stored.rev + 1, game=game)
        self.report.deals_added += incoming.deals - len(stored.document.get("deals") or [])

    def new_game(self, incoming: IncomingGame, seats: list[str]) -> None:
        season = self.seasons[incoming.season] if incoming.season is not None else self.default_season().id
        stamp = now()
        record = GameRecord(
            id=incoming.id,
            created=incoming.created or stamp,
            changed=incoming.changed or stamp,
            league=self.league.id,
            season=season,
            played=incoming.played or stamp,
            rev=1,
            players=seats,
            document=incoming.document,
            snapshot=incoming.snapshot,
            origin=incoming.origin,
            status=incoming.status,
            events=[*incoming.events, event(incoming.events, stamp, self.by, "imported")],
        )
        game = replay(incoming.document, incoming.snapshot)
        self.docs.put(game_name(record.id), "game", record.model_dump())
        self.docs.put(shard_name(record.id), "games", self.docs.entry(record, game=game).model_dump())
        self.report.games_added += 1
        self.report.deals_added += incoming.deals

    def conflict(self, incoming: IncomingGame, reason: Message) -> None:
        said = reason.to_json()
        self.report.conflicts.append(
            {
                "game": incoming.id,
                "file": incoming.source,
                "reason": str(reason),
                "reason_code": said["code"],
                "reason_params": said["params"],
            }
        )


def apply_import(
    docs: Documents,
    *,
    league: str,
    batch: ImportBatch,
    season: str | None = None,
    by: str = "",
    new_players: NewPlayers = (),
) -> ImportReport:
    """Add a checked batch to a league (call inside a transaction: it writes all or nothing).

    A new name that looks like a player's already here is refused (:class:`LookAlikeError`)
    unless ``new_players`` says it is a different person (see :func:`different_people`).
    """
    league_doc = docs.league_doc(league)
    chosen = docs.season_doc(league_doc, season) if season is not None else None
    importer = _Importer(docs, league_doc, season=chosen, by=by, new_players=new_players)
    if chosen is not None and any(g.season is None for g in batch.games):
        importer.default_season()  # refuse a closed season before anything is staged
    importer.add_seasons(batch.seasons)
    for player in batch.players:
        importer.player(player)
    for game in batch.games:
        importer.add_game(game)
    return importer.report


# -- export ---------------------------------------------------------------------------------


def export_document(docs: Documents, *, league: str) -> dict[str, Any]:
    """Everything needed to rebuild the league elsewhere, ids kept (``--format json``)."""
    league_doc = docs.league_doc(league)
    entries = docs.select(league=league_doc.id, season=None)
    records = [docs.record(e.id) for e in entries]
    index = docs.index()
    player_ids = sorted({p for r in records for p in r.players})
    players = [index.players[p] for p in player_ids if p in index.players]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported": now(),
        "league": {"id": league_doc.id, "name": league_doc.name, "created": league_doc.created},
        "seasons": [
            {"id": s.id, "name": s.name, "number": s.number, "created": s.created, "closed": s.closed}
            for s in docs.seasons_of(league_doc.id)
        ],
        "players": [{"id": p.id, "name": p.name, "created": p.created} for p in players],
        "games": [
            {
                "id": r.id,
                "season": r.season,
                "played": r.played,
                "created": r.created,
                "changed": r.changed,
                "players": list(r.players),
                "origin": r.origin,
                "status": r.status,
                "events": list(r.events),
                "game": r.document,
                "snapshot": r.snapshot,
            }
            for r in records
        ],
    }


def export_rows(docs: Documents, *, league: str) -> list[dict[str, Any]]:
    """One row per deal per player (``--format csv``), games in the order played."""
    league_doc = docs.league_doc(league)
    index = docs.index()
    seasons = {s.id: s.name for s in docs.seasons_of(league_doc.id)}
    rows = []
    for entry in docs.select(league=league_doc.id, season=None):
        record = docs.record(entry.id)
        game = docs.replay(record)
        result = game.result
        ids = dict(zip(game.players, record.players, strict=True))
        for deal in result.deals:
            for name in game.players:
                player = index.players.get(ids[name])
                rows.append(
                    {
                        "league": league_doc.name,
                        "season": seasons.get(record.season or "", ""),
                        "game": record.id,
                        "played": record.played,
                        "ruleset": entry.ruleset,
                        "deal": deal.number,
                        "dealer": deal.dealer,
                        "player": player.name if player else name,
                        "score": deal.score.scores[name],
                        "total": deal.running[name],
                        "won": int(name in deal.score.winners),
                    }
                )
    return rows
