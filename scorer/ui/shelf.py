"""Where the app keeps its games: game-file documents, saved whole on every change.

:class:`GameShelf` has the league store's game methods (``start_game``, ``add_deal``,
``replace_deal``, ``remove_deal``, ``game``, ``games``), so the screens work the same over
either. Every change is replayed by the engine before it is written (an invalid deal is
refused and nothing is saved), and the file is replaced atomically (written beside it, then
renamed), so closing the app mid-write never leaves half a game.

>>> shelf = GameShelf.memory()
>>> saved = shelf.start_game(ruleset="rommi", players=["Anna", "Bea"])
>>> saved = shelf.add_deal(saved.id, {"hands": {"Anna": "", "Bea": "KS 5H"}, "out": "Anna"})
>>> saved.result.totals
{'Anna': 0, 'Bea': 15}
"""

from __future__ import annotations

import json
import os
import tempfile
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from scorer.errors import ScorerError
from scorer.game import Game, GameResult
from scorer.gamefile import GameFileError, game_document, parse_game

APP_NAME = "rummy-scorer"
DB_ENV = "RUMMY_DB"
DB_FILE = "games.json"


class ShelfError(ScorerError, ValueError):
    """A game the shelf cannot find or a data file it cannot read."""


def default_path() -> Path:
    """``$RUMMY_DB`` if set, else ``games.json`` in the per-user data folder."""
    named = os.environ.get(DB_ENV)
    if named:
        return Path(named)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_FILE


@dataclass(frozen=True)
class SavedGame:
    """One kept game: its document (raw entries) and what the engine makes of it."""

    id: str
    created: str
    changed: str
    league: str | None
    season: str | None
    document: dict[str, Any]
    game: Game
    result: GameResult

    @property
    def ruleset_id(self) -> str:
        return str(self.document["ruleset"])

    @property
    def finished(self) -> bool:
        return self.result.finished


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class GameShelf:
    """Games in one JSON file (or in memory); every method reads, changes and writes whole."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: dict[str, dict[str, Any]] = {}

    @classmethod
    def open(cls, path: str | Path | None = None) -> GameShelf:
        """The shelf at ``path`` (default :func:`default_path`); the file is made on first save."""
        shelf = cls(Path(path) if path is not None else default_path())
        shelf._read()  # a broken file is reported now, not at the first game
        return shelf

    @classmethod
    def memory(cls) -> GameShelf:
        return cls(None)

    @property
    def location(self) -> str:
        return str(self.path) if self.path is not None else "memory"

    # -- games -------------------------------------------------------------------------------

    def start_game(
        self,
        *,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        league: str | None = None,
        season: str | None = None,
        first_dealer: int = 0,
    ) -> SavedGame:
        options_used: dict[str, Any] = dict(options or {})
        document: dict[str, Any] = {
            "format": 1,
            "ruleset": ruleset,
            "options": options_used,
            "players": [p.strip() for p in players],
            "first_dealer": first_dealer,
            "deals": [],
        }
        game = self._parse(document)
        stamp = _now()
        record: dict[str, Any] = {
            "id": uuid.uuid4().hex[:10],
            "created": stamp,
            "changed": stamp,
            "league": league,
            "season": season,
            "document": game_document(game, ruleset_id=ruleset, options=options_used),
        }
        games = self._read()
        games[record["id"]] = record
        self._write(games)
        return self._saved(record, game)

    def add_deal(self, game_id: str, deal: Mapping[str, Any]) -> SavedGame:
        return self._change(game_id, lambda deals: [*deals, dict(deal)])

    def replace_deal(self, game_id: str, index: int, deal: Mapping[str, Any]) -> SavedGame:
        def change(deals: list[Any]) -> list[Any]:
            self._check_index(deals, index)
            return [*deals[:index], dict(deal), *deals[index + 1 :]]

        return self._change(game_id, change)

    def remove_deal(self, game_id: str, index: int) -> SavedGame:
        def change(deals: list[Any]) -> list[Any]:
            self._check_index(deals, index)
            return [*deals[:index], *deals[index + 1 :]]

        return self._change(game_id, change)

    def insert_deal(self, game_id: str, index: int, deal: Mapping[str, Any]) -> SavedGame:
        """Put a removed deal back at ``index`` (0-based): the undo of :meth:`remove_deal`."""
        return self._change(game_id, lambda deals: [*deals[:index], dict(deal), *deals[index:]])

    def delete_game(self, game_id: str) -> None:
        games = self._read()
        self._record(games, game_id)
        del games[game_id]
        self._write(games)

    def game(self, game_id: str) -> SavedGame:
        record = self._record(self._read(), game_id)
        return self._saved(record, self._parse(record["document"]))

    def games(self, *, finished: bool | None = None) -> list[SavedGame]:
        """Every kept game, the most recently changed first."""
        saved = [self._saved(r, self._parse(r["document"])) for r in self._read().values()]
        if finished is not None:
            saved = [s for s in saved if s.finished == finished]
        return sorted(saved, key=lambda s: (s.changed, s.created, s.id), reverse=True)

    # -- helpers -----------------------------------------------------------------------------

    def _change(self, game_id: str, change: Any) -> SavedGame:
        games = self._read()
        record = self._record(games, game_id)
        document = dict(record["document"])
        document["deals"] = change(list(document.get("deals", [])))
        game = self._parse(document)  # replayed first: an invalid change raises, nothing saved
        record = record | {
            "document": game_document(game, ruleset_id=document["ruleset"], options=document.get("options")),
            "changed": _now(),
        }
        games[game_id] = record
        self._write(games)
        return self._saved(record, game)

    @staticmethod
    def _check_index(deals: list[Any], index: int) -> None:
        if not 0 <= index < len(deals):
            raise ShelfError(f"deal {index + 1}: there is no such deal (the game has {len(deals)})")

    @staticmethod
    def _parse(document: Mapping[str, Any]) -> Game:
        return parse_game(dict(document))

    @staticmethod
    def _saved(record: Mapping[str, Any], game: Game) -> SavedGame:
        return SavedGame(
            id=record["id"],
            created=record["created"],
            changed=record["changed"],
            league=record.get("league"),
            season=record.get("season"),
            document=dict(record["document"]),
            game=game,
            result=game.result,
        )

    @staticmethod
    def _record(games: Mapping[str, dict[str, Any]], game_id: str) -> dict[str, Any]:
        try:
            return games[game_id]
        except KeyError:
            raise ShelfError(f"no game {game_id!r} in this data file") from None

    def _read(self) -> dict[str, dict[str, Any]]:
        if self.path is None:
            copy: dict[str, dict[str, Any]] = json.loads(json.dumps(self._memory))
            return copy  # a failed change leaves the kept games whole
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ShelfError(f"cannot read the data file '{self.path}': {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            where = f"{exc.msg} at line {exc.lineno}"
            raise ShelfError(f"the data file '{self.path}' is not JSON: {where}") from None
        games = data.get("games") if isinstance(data, dict) else None
        if not isinstance(games, dict):
            raise ShelfError(f"the data file '{self.path}' holds no games")
        return dict(games)

    def _write(self, games: dict[str, dict[str, Any]]) -> None:
        if self.path is None:
            self._memory = json.loads(json.dumps(games))
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"games": games}, ensure_ascii=False, indent=1)
        handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


__all__ = ["GameFileError", "GameShelf", "SavedGame", "ShelfError", "default_path"]
