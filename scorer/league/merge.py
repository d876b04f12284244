"""Applying an import to the store, and building an export from it.

:mod:`scorer.league.exchange` reads and checks the files; this module matches what they bring
with what the store holds (seasons by id then name, players by id then name, games and club
nights by id) and stages the changes inside the store's transaction, so that an import writes
everything or nothing. A game the store already has is compared deal by deal: the longer copy
wins when the other is its beginning, and two copies that differ are a conflict, reported and
left as they are here. A night is compared the same way round by round, and a game's tags
(its night and round) where both copies have them.

The file's player ids become this store's wherever a game's tags or a night name them: a
player matched here by name, or merged into another, is named by the id kept here. Ids are
UUIDs, so a text in a night or a tag equal to a file's player id is that player, whichever
field holds it (a field added to the night later is mapped too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorer.league.documents import (
    INDEX,
    GameRecord,
    LeagueDoc,
    NightDoc,
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
    STORE_ONLY,
    ImportBatch,
    ImportReport,
    IncomingGame,
    IncomingNight,
    IncomingPlayer,
    IncomingSeason,
    night_players,
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
    deals: list[Any] = list(stored.get("deals") or [])
    return _step_by_step(deals, list(incoming.get("deals") or []), differs="store.copies_differ_deal")


def compare_nights(stored: NightDoc, incoming: NightDoc) -> tuple[str, Message | None]:
    """How an incoming copy of a night relates to the stored one, as :func:`compare` says it
    for a game: every field but the rounds (and the time of the last change) the same, then
    round by round."""
    ours = stored.model_dump(exclude={"changed"})
    theirs = incoming.model_dump(exclude={"changed"})
    rounds: list[Any] = ours.pop("rounds")
    theirs_rounds: list[Any] = theirs.pop("rounds")
    for key in sorted(ours.keys() | theirs.keys()):
        if ours.get(key) != theirs.get(key):
            return "conflict", Message("store.night_copies_differ_in", field=key)
    return _step_by_step(rounds, theirs_rounds, differs="store.night_copies_differ_round")


def _step_by_step(ours: list[Any], theirs: list[Any], *, differs: str) -> tuple[str, Message | None]:
    """Two copies' deals (or rounds) compared in order: ``differs`` names the first that
    differs, else the longer copy is ahead."""
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1):
        if a != b:
            return "conflict", Message(differs, number=number)
    if len(theirs) > len(ours):
        return "longer", None
    if len(theirs) < len(ours):
        return "shorter", None
    return "same", None


def _said(tag: str, value: Any) -> bool:
    """Whether a game's tag says something: a copy without it has the record's default."""
    return bool(value != GameRecord.model_fields[tag].get_default(call_default_factory=True))


def renamed_ids(value: Any, ids: Mapping[str, str]) -> Any:
    """``value`` (JSON-like) with every text, and every key, found in ``ids`` replaced by its
    mapping.

    >>> renamed_ids({"players": ["p1", "p2"], "fixed": {"p1": 2}, "seed": 7}, {"p1": "q1"})
    {'players': ['q1', 'p2'], 'fixed': {'q1': 2}, 'seed': 7}
    """
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, dict):
        return {ids.get(k, k): renamed_ids(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed_ids(v, ids) for v in value]
    return value


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
        self._ids: tuple[int, dict[str, str]] = (0, {})  # file player id -> id here, for len(players)

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
                for other in keys:  # another file's id for a player matched by name: a night names it
                    self.players.setdefault(other, self.players[key])
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

    def local(self, value: Any) -> Any:
        """``value`` with the file's player ids replaced by this store's (see the module)."""
        if self._ids[0] != len(self.players):  # players were matched since (it only grows)
            ids = {key: found for key, found in self.players.items() if not key.startswith("name:")}
            self._ids = (len(self.players), ids)
        return renamed_ids(value, self._ids[1])

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
        tags: dict[str, Any] = self.local(incoming.tags)
        ours = {name: getattr(stored, name) for name in tags}
        clash = next((k for k, v in tags.items() if _said(k, v) and _said(k, ours[k]) and v != ours[k]), None)
        if clash is not None:
            self.conflict(incoming, Message("store.copies_differ_in", field=clash))
            return
        relation, reason = compare(stored.document, incoming.document)
        if relation == "conflict" or (relation != "same" and stored.snapshot != incoming.snapshot):
            self.conflict(incoming, reason or Message("store.conflict_rules"))
            return
        # tags this store's copy lacks (it came from an export without them) are taken
        missing = {k: v for k, v in tags.items() if _said(k, v) and not _said(k, ours[k])}
        if relation != "longer" and not missing:
            self.report.games_unchanged += 1
            return
        try:
            self.docs.check_open(stored)
        except SeasonClosedError as exc:
            if relation == "longer":
                self.conflict(incoming, exc.message)
            else:  # a closed season's games stay as they are
                self.report.games_unchanged += 1
            return
        stamp = now()
        if relation != "longer":
            self.docs.write_game(stored.model_copy(update={**missing, "changed": stamp}), rev=stored.rev + 1)
            self.report.games_unchanged += 1
            return
        game = replay(incoming.document, incoming.snapshot)
        events = list(stored.events)
        for number in range(len(stored.document.get("deals") or []) + 1, incoming.deals + 1):
            events.append(event(events, stamp, self.by, "recorded", deal=number))
        updated = stored.model_copy(
            update={"document": incoming.document, "changed": stamp, "events": events, **missing}
        )
        self.docs.write_game(updated, rev=stored.rev + 1, game=game)
        self.report.deals_added += incoming.deals - len(stored.document.get("deals") or [])

    def add_night(self, incoming: IncomingNight) -> None:
        """A night of the file: added, left as it is here, or given the rounds it lacks here."""
        night = NightDoc.model_validate(
            self.local(incoming.night.model_dump())
            | {"league": self.league.id, "season": self.seasons[incoming.night.season]}
        )
        for round_doc in night.rounds:
            for table in round_doc.tables:
                record = self.docs.record_or_none(table.game)
                if record is None or record.league != self.league.id:  # its game was a conflict
                    self.night_conflict(
                        incoming,
                        Message("store.night_game_missing", round=round_doc.number, table=table.table),
                    )
                    return
        rows = self.docs.rows(INDEX, "nights")
        found = next((r for r in rows if isinstance(r, dict) and r.get("id") == night.id), None)
        if found is None:
            self.docs.put(INDEX, "nights", night.model_dump())
            self.report.nights_added += 1
            return
        stored = self.docs.parse(NightDoc, found, name=INDEX)
        if stored.league != self.league.id:
            self.night_conflict(incoming, Message("store.night_other_league"))
            return
        relation, reason = compare_nights(stored, night)
        if relation == "conflict" and reason is not None:
            self.night_conflict(incoming, reason)
        elif relation == "longer":
            added = night.rounds[len(stored.rounds) :]
            longer = stored.model_copy(update={"rounds": [*stored.rounds, *added], "changed": now()})
            self.docs.put(INDEX, "nights", longer.model_dump())
            self.report.rounds_added += len(added)
        else:
            self.report.nights_unchanged += 1

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
            **self.local(incoming.tags),
        )
        game = replay(incoming.document, incoming.snapshot)
        self.docs.put(game_name(record.id), "game", record.model_dump())
        self.docs.put(shard_name(record.id), "games", self.docs.entry(record, game=game).model_dump())
        self.report.games_added += 1
        self.report.deals_added += incoming.deals

    def conflict(self, incoming: IncomingGame, reason: Message) -> None:
        self.report.conflicts.append({"game": incoming.id, **_conflict(incoming.source, reason)})

    def night_conflict(self, incoming: IncomingNight, reason: Message) -> None:
        self.report.conflicts.append({"night": incoming.night.id, **_conflict(incoming.source, reason)})


def _conflict(source: str, reason: Message) -> dict[str, Any]:
    """A conflict's file and reason, as the import's report lists them."""
    said = reason.to_json()
    return {
        "file": source,
        "reason": str(reason),
        "reason_code": said["code"],
        "reason_params": said["params"],
    }


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
    for night in batch.nights:
        importer.add_night(night)
    return importer.report


# -- export ---------------------------------------------------------------------------------


def league_nights(docs: Documents, league_id: str) -> list[NightDoc]:
    """The league's club nights, oldest first."""
    nights = [docs.parse(NightDoc, row, name=INDEX) for row in docs.rows(INDEX, "nights")]
    return sorted((n for n in nights if n.league == league_id), key=lambda n: (n.created, n.id))


def export_document(docs: Documents, *, league: str) -> dict[str, Any]:
    """Everything needed to rebuild the league elsewhere, ids kept (``--format json``): a
    game as its stored record less :data:`~scorer.league.exchange.STORE_ONLY` (its entries
    under ``game``), a night as stored (a merged player named as the player kept); the players
    are those of the games and the nights."""
    league_doc = docs.league_doc(league)
    entries = docs.select(league=league_doc.id, season=None)
    records = [docs.record(e.id) for e in entries]
    index = docs.index()
    # a night names a player merged since by the player kept, as the merge made the games do
    kept = {p.id: docs.player_doc(p.id).id for p in index.players.values() if p.merged_into is not None}
    stored = league_nights(docs, league_doc.id)
    nights = [NightDoc.model_validate(renamed_ids(n.model_dump(), kept)) for n in stored]
    seated = {p for r in records for p in r.players}
    player_ids = sorted(seated | {p for n in nights for p in night_players(n)})
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
        "games": [{**r.model_dump(exclude=set(STORE_ONLY)), "game": r.document} for r in records],
        "nights": [n.model_dump() for n in nights],
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
                        "night": record.night or "",
                        "round": record.night_round if record.night_round is not None else "",
                    }
                )
    return rows
