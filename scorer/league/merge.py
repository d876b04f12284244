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

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorer.league.documents import GameRecord, NightDoc, PlayerDoc, SeasonDoc, now
from scorer.league.errors import ImportFileError, SeasonClosedError, StoreError, UnknownPlayerError
from scorer.league.exchange import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    FACTS_FORMAT,
    FACTS_VERSION,
    STORE_ONLY,
    ImportBatch,
    ImportReport,
    IncomingGame,
    IncomingNight,
    IncomingPlayer,
    IncomingSeason,
    night_players,
)
from scorer.league.facts import Fact, PlayerMerged, new_fact
from scorer.league.records import GameEvent
from scorer.league.state import NewPlayers, State, different_people, renamed_ids, replay, seat_ids
from scorer.messages import Message
from scorer.names import clean_name, name_key
from scorer.replacement import holder_at, holders

#: Where an import's facts go: the store's write under way (each applied as it is emitted).
Emit = Callable[[Fact], object]

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
    for a game: every field but the rounds and the coin flips (and the time of the last
    change) the same, then round by round and flip by flip. A copy may be ahead in rounds, in
    flips or in both; one ahead in rounds and behind in flips was changed apart (a conflict),
    and so is one whose flip differs (the coin is never flipped again to agree)."""
    ours = stored.model_dump(exclude={"changed"})
    theirs = incoming.model_dump(exclude={"changed"})
    rounds: list[Any] = ours.pop("rounds")
    theirs_rounds: list[Any] = theirs.pop("rounds")
    flips: list[Any] = ours.pop("flips")
    theirs_flips: list[Any] = theirs.pop("flips")
    for key in sorted(ours.keys() | theirs.keys()):
        if ours.get(key) != theirs.get(key):
            return "conflict", Message("store.night_copies_differ_in", field=key)
    by_round = _step_by_step(rounds, theirs_rounds, differs="store.night_copies_differ_round")
    if by_round[0] == "conflict":
        return by_round
    by_flip = _step_by_step(flips, theirs_flips, differs="store.night_copies_differ_flip")
    if by_flip[0] == "conflict" or by_flip[0] == "same":
        return by_flip if by_flip[0] == "conflict" else by_round
    if by_round[0] in ("same", by_flip[0]):
        return by_flip
    return "conflict", Message("store.night_copies_apart")


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


# -- applying an import (inside the store's transaction) -----------------------------------------


class _Importer:
    """One import into one league: seasons, players and games matched, then emitted as facts."""

    def __init__(
        self,
        state: State,
        emit: Emit,
        league: str,
        *,
        season: SeasonDoc | None,
        by: str = "",
        new_players: NewPlayers = (),
    ) -> None:
        self.state = state
        self._emit = emit
        self.different = different_people(new_players)
        self.by = by
        self.league_id = league
        self.season = season
        self.report = ImportReport()
        self.seasons: dict[str, str] = {}
        self.players: dict[str, str] = {}  # incoming id or "name:<casefolded name>" -> player id
        self._ids: tuple[int, dict[str, str]] = (0, {})  # file player id -> id here, for len(players)

    def emit(self, kind: str, *, at: str | None = None, **data: Any) -> None:
        self._emit(new_fact(kind, at=at or now(), by=self.by, **data))

    @property
    def league(self) -> Any:
        return self.state.index().leagues[self.league_id]

    def default_season(self) -> SeasonDoc:
        season = self.season or self.state.open_season(self.league)
        if season.closed is not None:
            raise SeasonClosedError(Message("store.season_closed", value=repr(season.name)))
        return season

    def add_seasons(self, seasons: Iterable[IncomingSeason]) -> None:
        for incoming in seasons:
            if incoming.id in self.seasons:
                continue
            known = self.state.index().seasons.get(incoming.id)
            if known is not None and known.league != self.league_id:
                raise ImportFileError(
                    Message("store.season_elsewhere", season=repr(incoming.name), id=incoming.id)
                )
            if known is None:
                ours = self.state.seasons_of(self.league_id)
                known = next((s for s in ours if name_key(s.name) == name_key(incoming.name)), None)
            if known is None:
                ours = self.state.seasons_of(self.league_id)
                closed: str | None = incoming.closed
                stamp = now()
                if closed is None and any(s.closed is None for s in ours):
                    closed = stamp  # the league's own open season stays the one new games go to
                self.emit(
                    "season.opened",
                    at=stamp,
                    league=self.league_id,
                    season=incoming.id,
                    name=clean_name(incoming.name, what="season"),
                    number=max((s.number for s in ours), default=0) + 1,
                    created=incoming.created,
                    closed=closed,
                )
                known = self.state.index().seasons[incoming.id]
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
                found = self.state.player_doc(wanted)
                break
            except UnknownPlayerError:
                continue
        if found is None:
            known = incoming.id and incoming.id in self.state.index().players
            player_id = incoming.id if incoming.id and not known else str(uuid.uuid4())
            name = clean_name(incoming.name, what="player")
            self.state.refuse_look_alike(name, different=self.different(name))
            self.emit("player.added", player=player_id, name=name)
            found = self.state.index().players[player_id]
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
        stored = self.state.record_or_none(incoming.id)
        if stored is None:
            self.new_game(incoming, seats)
            return
        if stored.league != self.league_id:
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
            self.state.check_open(stored)
        except SeasonClosedError as exc:
            if relation == "longer":
                self.conflict(incoming, exc.message)
            else:  # a closed season's games stay as they are
                self.report.games_unchanged += 1
            return
        if relation != "longer":
            self.emit("game.extended", game=stored.id, document=stored.document, tags=missing)
            self.report.games_unchanged += 1
            return
        replay(incoming.document, incoming.snapshot)  # it scores (checked when the file was read)
        self.emit("game.extended", game=stored.id, document=incoming.document, tags=missing)
        self.report.deals_added += incoming.deals - len(stored.document.get("deals") or [])

    def add_night(self, incoming: IncomingNight) -> None:
        """A night of the file: added, left as it is here, or given the rounds (and coin
        flips) it lacks here."""
        night = NightDoc.model_validate(
            self.local(incoming.night.model_dump())
            | {"league": self.league_id, "season": self.seasons[incoming.night.season]}
        )
        for round_doc in night.rounds:
            for table in round_doc.tables:
                record = self.state.record_or_none(table.game)
                if record is None or record.league != self.league_id:  # its game was a conflict
                    self.night_conflict(
                        incoming,
                        Message("store.night_game_missing", round=round_doc.number, table=table.table),
                    )
                    return
        found = self.state.get("nights", night.id)
        if found is None:
            self.emit("night.imported", night=night.id, record=night.model_dump())
            self.report.nights_added += 1
            return
        stored = self.state.parse(NightDoc, found, table="nights")
        if stored.league != self.league_id:
            self.night_conflict(incoming, Message("store.night_other_league"))
            return
        relation, reason = compare_nights(stored, night)
        if relation == "conflict" and reason is not None:
            self.night_conflict(incoming, reason)
        elif relation == "longer":
            added = night.rounds[len(stored.rounds) :]
            if added:
                self.emit("night.extended", night=night.id, rounds=[r.model_dump() for r in added])
            for flip in night.flips[len(stored.flips) :]:  # flips made on the other device
                self.emit("night.coin_flipped", night=night.id, players=list(flip))
            self.report.rounds_added += len(added)
        else:
            self.report.nights_unchanged += 1

    def new_game(self, incoming: IncomingGame, seats: list[str]) -> None:
        season = self.seasons[incoming.season] if incoming.season is not None else self.default_season().id
        stamp = now()
        seq = max((int(e.get("seq", 0)) for e in incoming.events), default=0) + 1
        imported = GameEvent(seq=seq, at=stamp, by=self.by, action="imported", deal=None, why=None)
        record = GameRecord(
            id=incoming.id,
            created=incoming.created or stamp,
            changed=incoming.changed or stamp,
            league=self.league_id,
            season=season,
            played=incoming.played or stamp,
            rev=1,
            players=seats,
            document=incoming.document,
            snapshot=incoming.snapshot,
            origin=incoming.origin,
            status=incoming.status,
            events=[*incoming.events, imported.to_dict()],
            **self.local(incoming.tags),
        )
        game = replay(incoming.document, incoming.snapshot)
        self.emit("game.imported", at=stamp, game=record.id, record=record.model_dump())
        self.state.summary(self.state.record(record.id), game=game)
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
    state: State,
    emit: Emit,
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
    league_doc = state.league_doc(league)
    chosen = state.season_doc(league_doc, season) if season is not None else None
    importer = _Importer(state, emit, league_doc.id, season=chosen, by=by, new_players=new_players)
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


def export_document(docs: State, *, league: str) -> dict[str, Any]:
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
    stored = docs.night_docs(league_doc.id)
    nights = [NightDoc.model_validate(renamed_ids(n.model_dump(), kept)) for n in stored]
    seated = {p for r in records for p in (*r.players, *r.substitutes)}  # a replacement too
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


def export_rows(docs: State, *, league: str) -> list[dict[str, Any]]:
    """One row per deal per player (``--format csv``), games in the order played."""
    league_doc = docs.league_doc(league)
    index = docs.index()
    seasons = {s.id: s.name for s in docs.seasons_of(league_doc.id)}
    rows = []
    for entry in docs.select(league=league_doc.id, season=None):
        record = docs.record(entry.id)
        game = docs.replay(record)
        result = game.result
        ids = seat_ids(game, record)
        seats = holders(game.players, game.replacements)  # a seat taken over: each deal's holder
        for deal in result.deals:
            for seat, name in enumerate(game.players):
                holder = holder_at(seats[seat], deal.number)
                player = index.players.get(ids[holder])
                rows.append(
                    {
                        "league": league_doc.name,
                        "season": seasons.get(record.season or "", ""),
                        "game": record.id,
                        "played": record.played,
                        "ruleset": entry.ruleset,
                        "deal": deal.number,
                        "dealer": deal.dealer,
                        "player": player.name if player else holder,
                        "score": deal.score.scores[name],
                        "total": deal.running[name],
                        "won": int(name in deal.score.winners),
                        "night": record.night or "",
                        "round": record.night_round if record.night_round is not None else "",
                    }
                )
    return rows


# -- facts from another device ------------------------------------------------------------------


def league_facts(facts: Iterable[Fact], state: State, *, league: str) -> list[Fact]:
    """The facts of one league, in order: its own and its seasons', every player's, and those
    of its games and nights (a game moved into it brings its whole history)."""
    league_id = state.league_doc(league).id
    seasons = {s.id for s in state.seasons_of(league_id)}
    games = {row.id for row in state.select(league=league_id, season=None)}
    nights = {n.id for n in state.night_docs(league_id)}
    subjects = games | nights
    kept: list[Fact] = []
    for fact in facts:
        data = fact.data
        if fact.kind.startswith("player."):
            kept.append(fact)
        elif fact.kind.startswith("league."):
            if data.league == league_id:
                kept.append(fact)
        elif fact.kind.startswith("season."):
            if getattr(data, "season", None) in seasons:
                kept.append(fact)
        elif fact.kind == "record.kept":
            record = data.record
            if data.table == "players" or record.get("id") in subjects | seasons | {league_id}:
                kept.append(fact)
        elif fact.subject in subjects:
            kept.append(fact)
    return kept


def shared_facts(facts: Iterable[Fact], *, subjects: set[str]) -> list[Fact]:
    """Of one league's facts (:func:`league_facts`), those a game or night handed over alone
    needs: the league's and its seasons' (so the game finds its league and season on the other
    store, mapped there by name), its players' (all of them: a few small facts, and a name
    kept there is mapped by name too), and every fact of ``subjects``, the game or the night
    and its games, with their whole history."""
    kept: list[Fact] = []
    for fact in facts:
        kind = fact.kind
        if kind.startswith(("player.", "league.", "season.")) or fact.subject in subjects:
            kept.append(fact)
        elif kind == "record.kept":
            table, record = fact.data.table, fact.data.record
            if table not in ("games", "nights") or record.get("id") in subjects:
                kept.append(fact)
    return kept


def facts_document(facts: Iterable[Fact], *, store: str) -> dict[str, Any]:
    """A file of facts, JSON-ready."""
    return {
        "format": FACTS_FORMAT,
        "version": FACTS_VERSION,
        "store": store,
        "exported": now(),
        "facts": [f.to_json() for f in facts],
    }


def twins_merged(added: Fact, here: PlayerDoc) -> Fact:
    """The fact that makes one person of a new player (``added``) and the player ``here`` of
    the same name: the greater id merged into the lesser, at the later of their two times, its
    id made from the two ids. Every store that meets the two makes this same fact, so it is
    one fact wherever it travels (skipped by id where it was made already).

    >>> from scorer.league.facts import new_fact
    >>> added = new_fact("player.added", at="2026-12-07T20:00:00+00:00", by="", player="p2", name="Dora")
    >>> here = PlayerDoc(id="p1", name="Dora", created="2026-12-07T19:00:00+00:00",
    ...                  changed="2026-12-07T19:00:00+00:00")
    >>> fact = twins_merged(added, here)
    >>> fact.data.player, fact.data.into, fact.at, fact.id == twins_merged(added, here).id
    ('p2', 'p1', '2026-12-07T20:00:00+00:00', True)
    """
    import base64
    import hashlib

    lesser, greater = sorted((here.id, added.data.player))
    digest = hashlib.sha256(f"player.merged {greater} {lesser}".encode()).digest()
    return Fact(
        id=base64.urlsafe_b64encode(digest[:12]).decode("ascii"),
        kind="player.merged",
        at=max(added.at, here.created),
        by="",
        why=None,
        data=PlayerMerged(player=greater, into=lesser),
    )


class _FactMerger:
    """Facts of another store's league brought into one league here: the ones this store lacks
    (by id) are applied in their order; the same player or league made on two devices apart
    (the same name, two ids) is one, named by this store's id from then on; and a game or
    night changed on both devices apart (a fact whose ``prev`` is not the last one here) is a
    conflict, reported and left as it is here, never merged in silence, until a join
    (``game.joined``, made by one of the three choices, :mod:`scorer.league.joins`) settles it
    by :meth:`join`'s rule."""

    def __init__(
        self,
        state: State,
        emit: Callable[..., object],
        *,
        league: str,
        source: str,
        keep_players: bool = False,
        held_before: Callable[[str], list[Fact]] | None = None,
    ) -> None:
        #: Sync's rule for a player made on two devices apart under one name (the same person):
        #: both facts kept, ids and all, and the two made one by a ``player.merged`` fact, the
        #: greater id into the lesser, so that every store that meets them merges them alike
        #: and a fact naming either id means the one person everywhere, in any later page.
        self.keep_players = keep_players
        self.twins: list[Fact] = []
        self.state = state
        self.emit = emit
        self.league = state.league_doc(league)
        self.source = source
        self.report = ImportReport()
        self.ids: dict[str, str] = {}
        self.blocked: set[str] = set()
        #: Facts not applied because their game or night is in conflict (and they, by subject).
        self.held_facts: dict[str, list[Fact]] = {}
        #: The facts of a game or night held back by an earlier sync (the store's, kept aside).
        self.held_before: Callable[[str], list[Fact]] = held_before or (lambda subject: [])
        #: The games a join settled in this page (their conflict over: their held facts taken in).
        self.settled: set[str] = set()

    @property
    def held(self) -> int:
        """How many facts are held back after the page."""
        return sum(len(found) for found in self.held_facts.values())

    def fact(self, raw: Mapping[str, Any], version: int) -> None:
        from scorer.league.facts import FactError, fact_from_json

        try:
            fact = fact_from_json(renamed_ids(dict(raw), self.ids) if self.ids else raw, version=version)
        except FactError as exc:
            raise ImportFileError(
                Message("store.import_bad_fact", path=repr(self.source), problem=exc.message)
            ) from None
        if fact.id in self.state.seen:
            return
        subject = fact.subject
        if subject is not None:
            if fact.kind == "game.joined" and self.join(fact):
                return
            if subject in self.blocked:
                self.held_facts[subject].append(fact)
                return
            here = self.state.heads.get(subject)
            if here != fact.prev and (here is not None or fact.prev is not None):
                self.blocked.add(subject)
                self.held_facts.setdefault(subject, []).append(fact)
                key = "game" if self.state.has_game(subject) or "game" in fact.kind else "night"
                reason = Message("store.conflict_apart")
                self.report.conflicts.append({key: subject, **_conflict(self.source, reason)})
                return
        if self.mapped(fact):
            return
        if fact.kind in ("game.started", "game.imported") and self.state.has_game(subject or ""):
            return
        twin = self.twin(fact)
        try:
            self.emit(fact, chained=False)
            if twin is not None:  # made one at the end of the page, after what names either
                self.twins.append(twins_merged(fact, self.state.index().players[twin]))
        except (StoreError, ValueError) as exc:
            raise self.refused(exc) from None
        self.count(fact)

    def refused(self, exc: StoreError | ValueError) -> ImportFileError:
        """A fact of the page the store could not apply, said naming the page's source."""
        problem = getattr(exc, "message", None) or Message("store.os_said", text=str(exc))
        return ImportFileError(Message("store.import_bad_fact", path=repr(self.source), problem=problem))

    def join(self, fact: Fact) -> bool:
        """Apply a join (``game.joined``) where its rule lets it (docs/app.md, "A game changed
        on both sides apart"): the last fact here is the head it keeps (``prev``), or one it
        sets aside (``retired``), and every fact of the history it keeps is here (in the log,
        or held back). The held facts of that history, then those it sets aside, go into the
        log first (kept, not folded: off the chain), then the join; the game's conflict is
        over. False: the join is not for this store's history (a new conflict, held)."""
        game = fact.data.game
        held = {f.id: f for f in [*self.held_before(game), *self.held_facts.get(game, [])]}
        kept: list[Fact] = []
        at = fact.prev
        while at is not None and at not in self.state.seen:
            found = held.get(at)
            if found is None:
                return False
            kept.append(found)
            at = found.prev
        here = self.state.heads.get(game)
        if here not in (fact.prev, at) and here not in set(fact.data.retired):
            return False
        taken = {f.id for f in kept}
        retired = {*fact.data.retired, *(i for f in kept if f.kind == "game.joined" for i in f.data.retired)}
        try:
            for found in [
                *reversed(kept),
                *(f for f in held.values() if f.id in retired and f.id not in taken),
            ]:
                if found.id not in self.state.seen:
                    self.emit(found, chained=False)
            self.emit(fact, chained=False)
        except (StoreError, ValueError) as exc:
            raise self.refused(exc) from None
        self.count(fact)
        self.blocked.discard(game)
        left = [f for f in self.held_facts.pop(game, []) if f.id not in self.state.seen]
        if left:  # a third history of the game: still held, still a conflict
            self.held_facts[game] = left
            self.blocked.add(game)
        else:
            self.report.conflicts[:] = [c for c in self.report.conflicts if c.get("game") != game]
        self.settled.add(game)
        return True

    def twin(self, fact: Fact) -> str | None:
        """Under :attr:`keep_players`, the player here of a new player's name (another id)."""
        if (
            not self.keep_players
            or fact.kind != "player.added"
            or fact.data.player in self.state.index().players
        ):
            return None
        try:
            return self.state.player_doc(fact.data.name).id
        except UnknownPlayerError:
            return None

    def mapped(self, fact: Fact) -> bool:
        """Whether the fact makes what this store has already under another id (then mapped)."""
        data = fact.data
        if fact.kind == "league.created":
            self.ids[data.league] = self.league.id
            ours = next(
                (
                    s
                    for s in self.state.seasons_of(self.league.id)
                    if name_key(s.name) == name_key(data.season_name)
                ),
                None,
            )
            if ours is not None:
                self.ids[data.season] = ours.id
            else:
                stamp = fact.at
                seasons = self.state.seasons_of(self.league.id)
                closed = stamp if any(s.closed is None for s in seasons) else None
                self.emit(
                    new_fact(
                        "season.opened",
                        at=stamp,
                        by=fact.by,
                        league=self.league.id,
                        season=data.season,
                        name=data.season_name,
                        number=max((s.number for s in seasons), default=0) + 1,
                        closed=closed,
                    )
                )
            return True
        if (
            fact.kind == "player.added"
            and not self.keep_players
            and data.player not in self.state.index().players
        ):
            try:
                player = self.state.player_doc(data.name)
            except UnknownPlayerError:
                return False
            self.ids[data.player] = player.id
            return True
        if fact.kind == "season.opened" and data.season not in self.state.index().seasons:
            ours = next(
                (s for s in self.state.seasons_of(self.league.id) if name_key(s.name) == name_key(data.name)),
                None,
            )
            if ours is not None:
                self.ids[data.season] = ours.id
                return True
        return False

    def count(self, fact: Fact) -> None:
        kind = fact.kind
        if kind in ("game.started", "game.imported"):
            self.report.games_added += 1
            if kind == "game.imported":
                self.report.deals_added += len(fact.data.record.get("document", {}).get("deals") or [])
        elif kind == "deal.recorded":
            self.report.deals_added += 1
        elif kind == "player.added":
            self.report.players_added += 1
        elif kind in ("night.started", "night.imported"):
            self.report.nights_added += 1
        elif kind == "night.round_seated":
            self.report.rounds_added += 1


def merge_facts(
    state: State,
    emit: Callable[..., object],
    *,
    league: str,
    document: Mapping[str, Any],
    source: str,
) -> ImportReport:
    """Bring a file of facts (:func:`facts_document`) into ``league`` (call inside a write)."""
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > FACTS_VERSION:
        raise ImportFileError(Message("store.import_facts_version", path=repr(source), version=repr(version)))
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise ImportFileError(Message("store.import_no_facts", path=repr(source)))
    merger = _FactMerger(state, emit, league=league, source=source)
    for raw in facts:
        merger.fact(raw, version)
    return merger.report


@dataclass(frozen=True, slots=True)
class PageApplied:
    """What one page of facts did (:meth:`scorer.league.store.Store.receive_facts`): the facts
    it added, the facts held back because their game or night is in conflict, the conflicts
    (as the import's report lists them)."""

    added: int
    held: int
    conflicts: list[dict[str, Any]]
    #: The facts held back, by their game or night (the other side's version of it).
    held_facts: dict[str, list[Fact]] = field(default_factory=dict)
    #: The games whose conflict a join in the page settled (``game.joined``).
    settled: frozenset[str] = frozenset()


def merge_page(
    state: State,
    emit: Callable[..., object],
    *,
    league: str,
    facts: Any,
    source: str,
    held_before: Callable[[str], list[Fact]] | None = None,
) -> PageApplied:
    """Bring one page of facts another device sent (``rummy league sync``) into ``league``
    (call inside a write: the page is applied whole or not at all), by the rules of
    :func:`merge_facts`. A league this store lacks is received whole, its ids kept, when the
    page holds the fact that made it (every store then has the same facts); without it the
    league is unknown here (:class:`~scorer.league.errors.UnknownLeagueError`)."""
    from scorer.league.facts import FACT_VERSION, FactError, fact_from_json

    if not isinstance(facts, list):
        raise ImportFileError(Message("store.import_no_facts", path=repr(source)))
    index = state.index()
    added = 0
    if league not in index.leagues:
        created = next(
            (
                raw
                for raw in facts
                if isinstance(raw, Mapping)
                and raw.get("kind") == "league.created"
                and raw.get("league") == league
            ),
            None,
        )
        if created is None:
            state.league_doc(league)  # a name, or unknown: refused naming the leagues here
        else:
            try:
                fact = fact_from_json(created, version=FACT_VERSION)
            except FactError as exc:
                raise ImportFileError(
                    Message("store.import_bad_fact", path=repr(source), problem=exc.message)
                ) from None
            taken = name_key(fact.data.name)
            if any(name_key(lg.name) == taken for lg in index.leagues.values()):
                raise ImportFileError(Message("store.league_exists", value=repr(fact.data.name)))
            emit(fact, chained=False)
            added = 1

    def counted(fact: Fact, *, chained: bool = True) -> object:
        nonlocal added
        added += 1
        return emit(fact, chained=chained)

    merger = _FactMerger(
        state, counted, league=league, source=source, keep_players=True, held_before=held_before
    )
    for raw in facts:
        merger.fact(raw, FACTS_VERSION)
    for merged in merger.twins:
        if merged.id not in state.seen:
            counted(merged, chained=False)
    return PageApplied(
        added=added,
        held=merger.held,
        conflicts=merger.report.conflicts,
        held_facts=merger.held_facts,
        settled=frozenset(merger.settled),
    )
