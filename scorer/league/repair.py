"""Bringing damaged store files back from their backups: the second line of defence.

``rummy league restore`` (:mod:`scorer.league.integrity`) makes files again from the journal;
it comes here only when the journal itself cannot say what a file held.

A damaged file is never written over: it is moved aside as ``NAME.json.damaged`` and its
newest good backup takes its place (a missing file is brought back the same way). A shard
index holds nothing that its game files do not, so a damaged or missing one is rebuilt from
them instead. After a game file or the index has gone back to an older version, what refers
to it is checked again on the next read: the shard's entries are marked for checking, and
players that games name but the index lost are written back from the games. An index with
no good backup is made again from the games ("recovered"): their leagues and seasons come
back under stand-in names.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer.league.documents import INDEX, GameRecord, LeagueDoc, PlayerDoc, SeasonDoc, meta_table, now
from scorer.league.storage import (
    GENERATION_NAME,
    MISSING,
    json_problem,
    newest_good_backup,
    write_atomic,
)
from scorer.messages import Message
from scorer.oserrors import os_reason


@dataclass(frozen=True, slots=True)
class Repair:
    """What was done to one file."""

    path: str
    action: str  # "restored" | "rebuilt" | "checked" | "recovered" (with stand-in names) | "lost"
    message: Message

    @property
    def detail(self) -> str:
        """What was wrong and what was done, in English (``message`` is the same as a value)."""
        return str(self.message)


def _damaged(path: Path) -> Message | None:
    try:
        return json_problem(path.read_bytes())
    except OSError as exc:
        return Message("store.problem_unreadable", why=os_reason(exc))


def set_aside(path: Path, why: str = "damaged") -> Path:
    """Move ``path`` out of the store's way as ``NAME.<why>`` (``NAME.<why>2``, ... if taken)."""
    aside = path.with_name(f"{path.name}.{why}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{why}{n}")
    os.replace(path, aside)
    return aside


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_bytes())
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _records(folder: Path) -> list[GameRecord]:
    records = []
    for path in sorted(folder.glob("*.json")):
        if path.name == "index.json" or _damaged(path) is not None:
            continue
        rows = list((_load(path).get("game") or {}).values())
        if rows:
            try:
                records.append(GameRecord.model_validate(rows[0]))
            except ValueError:
                continue
    return records


def _unchecked_entry(record: GameRecord) -> dict[str, Any]:
    """An entry the store must rebuild from its record before trusting (no code version)."""
    return {
        "id": record.id,
        "created": record.created,
        "changed": record.changed,
        "league": record.league,
        "season": record.season,
        "played": record.played,
        "ruleset": str(record.snapshot.get("id", record.document.get("ruleset", ""))),
        "players": list(record.players),
        "rev": record.rev,
        "entries": "",
        "code": "",
        "summary": {},
        "pending": True,
        "origin": record.origin,
        "status": record.status,
    }


def restore_from_backups(location: Path) -> list[Repair]:
    """Repair every damaged file from its backups (call with the store's lock held)."""
    repairs: list[Repair] = []
    recheck: set[Path] = set()
    for folder in sorted(p for p in (location / "games").glob("*") if p.is_dir()):
        for path in sorted(folder.glob("*.json")):
            if path.name == "index.json":
                continue
            problem = _damaged(path)
            if problem is None:
                continue
            repairs.append(_from_backup(path, problem))
            recheck.add(folder)
        shard = folder / "index.json"
        problem = _damaged(shard) if shard.exists() else MISSING
        if problem is not None or folder in recheck:
            if problem is not None and shard.exists():
                set_aside(shard)
            entries = {str(n): _unchecked_entry(r) for n, r in enumerate(_records(folder), start=1)}
            _write(shard, {"meta": meta_table("shard"), "games": entries})
            action = "rebuilt" if problem is not None else "checked"
            detail = (
                Message("store.repair_shard_rebuilt", problem=problem, files=len(entries))
                if problem
                else Message("store.repair_shard_checked")
            )
            repairs.append(Repair(str(shard), action, detail))
    index = location / f"{INDEX}.json"
    problem = _damaged(index) if index.exists() else MISSING
    if problem is not None:
        repaired = _from_backup(index, problem)
        if repaired.action == "lost":
            repaired = _rebuild_index(location, index, problem)
        repairs.append(repaired)
    if index.exists() and _damaged(index) is None:
        added = _players_back(location, index)
        if added:
            repairs.append(
                Repair(str(index), "checked", Message("store.repair_players_back", players=", ".join(added)))
            )
    if repairs:  # programs that have the store open read it again
        (location / GENERATION_NAME).write_text(uuid.uuid4().hex, encoding="ascii")
    return repairs


def _from_backup(path: Path, problem: Message) -> Repair:
    backup = newest_good_backup(path)
    kept = Message("store.repair_kept", aside=f"'{set_aside(path)}'") if path.exists() else ""
    if backup is None:
        return Repair(str(path), "lost", Message("store.repair_no_backup", problem=problem, kept=kept))
    write_atomic(path, backup.read_bytes(), backup=False)
    restored = Message("store.repair_restored", problem=problem, backup=f"'{backup}'", kept=kept)
    return Repair(str(path), "restored", restored)


def _rebuild_index(location: Path, index: Path, problem: Message) -> Repair:
    """An index with no good backup, made again from the games.

    Their leagues and seasons come back under stand-in names (to be renamed), their players
    under the names they played as.
    """
    stamp = now()
    leagues: dict[str, dict[str, Any]] = {}
    seasons: dict[str, dict[str, Any]] = {}
    for folder in sorted(p for p in (location / "games").glob("*") if p.is_dir()):
        for record in _records(folder):
            if record.league is None:
                continue
            if record.league not in leagues:
                name = f"Recovered league {len(leagues) + 1}"
                doc = LeagueDoc(id=record.league, name=name, created=stamp, changed=stamp)
                leagues[record.league] = doc.model_dump()
            if record.season is not None and record.season not in seasons:
                number = 1 + sum(1 for s in seasons.values() if s["league"] == record.league)
                season = SeasonDoc(
                    id=record.season,
                    league=record.league,
                    name=f"Recovered season {number}",
                    number=number,
                    created=stamp,
                    changed=stamp,
                )
                seasons[record.season] = season.model_dump()
    data = {
        "meta": meta_table("index"),
        "players": {},
        "leagues": {str(n): row for n, row in enumerate(leagues.values(), start=1)},
        "seasons": {str(n): row for n, row in enumerate(seasons.values(), start=1)},
    }
    _write(index, data)
    detail = Message(
        "store.repair_index_recovered", problem=problem, leagues=len(leagues), seasons=len(seasons)
    )
    return Repair(str(index), "recovered", detail)


def _players_back(location: Path, index: Path) -> list[str]:
    """Players named in game files but missing from the index (an older index came back)."""
    data = _load(index)
    players = data.setdefault("players", {})
    known = {row.get("id") for row in players.values() if isinstance(row, dict)}
    added: list[str] = []
    for folder in sorted(p for p in (location / "games").glob("*") if p.is_dir()):
        for record in _records(folder):
            names = record.document.get("players") or []
            for player_id, name in zip(record.players, names, strict=False):
                if player_id in known:
                    continue
                stamp = now()
                doc = PlayerDoc(id=player_id, name=str(name), created=stamp, changed=stamp)
                players[str(max((int(k) for k in players), default=0) + 1)] = doc.model_dump()
                known.add(player_id)
                added.append(str(name))
    if added:
        _write(index, data)
    return added
