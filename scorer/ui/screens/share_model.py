"""Share a game, a club night or a league, and show a game as QR codes (issue 28): plain
Python over the store, callable from a test with no Flet session.

- Share: the file another phone imports, the same bytes ``rummy league export --game/--night``
  writes (a league: every fact of it, ``--facts``), for the phone's share sheet or, where the
  browser has none, a download.
- Show as QR: the game's file of facts as the codes :mod:`scorer.league.handoff` cuts it
  into, drawn by segno as PNG pictures, one shown at a time and cycling while not paused.

>>> from scorer.league.store import Store
>>> store = Store.memory()
>>> _ = store.create_league("Friday club")
>>> file = share_league(store, "Friday club")
>>> file.name, file.data[:30]
('friday-club.rummy.json', b'{"format":"rummy-league-facts"')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import flet as ft

from scorer.league.handoff import encode_parts
from scorer.league.store import Store
from scorer.ui.screens.exchange_model import ExportFile, file_stem

#: The share file's type for the share sheet (a file of facts is JSON).
SHARE_MIME: Final = "application/json"
#: How long one code stays on screen while they cycle: 0.4 s, two and a half a second, which
#: a phone's camera reading another phone's screen catches (issue 28 asks 2-3 a second).
CYCLE_SECONDS: Final = 0.4
#: Pixels a module in the shown PNG: a version 25 code (117 modules + 2 x 4 quiet) is 500
#: pixels, sharp on a phone's screen when Flet scales it to the screen's width.
QR_SCALE: Final = 4
QR_BORDER: Final = 4


def _file(stem: str, document: dict[str, Any]) -> ExportFile:
    """The share file: compact JSON, as ``rummy league export --facts`` writes it, its name
    ending ``.rummy.json`` (the import's picker takes ``.json`` files; the installed app opens
    ``.rummy.json``)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return ExportFile(name=f"{stem}.rummy.json", data=text.encode("utf-8"))


def game_stem(store: Store, game_id: str) -> str:
    """``league-ruleset-2026-12-07-1f0c9a2e``: the league, the variant, the day and the id."""
    game = store.game(game_id)
    league = store.league(game.league_id).name if game.league_id else "game"
    variant = str(game.document.get("ruleset", "game"))
    return f"{file_stem(league)}-{file_stem(variant)}-{game.played[:10]}-{game.id[:8]}"


def share_game(store: Store, game_id: str) -> ExportFile:
    """A league game's share file: the game and what it needs on another store."""
    league = store.game_league(game_id)
    return _file(game_stem(store, game_id), store.export_facts(league, game=game_id))


def share_night(store: Store, night_id: str) -> ExportFile:
    """A club night's share file: the night and its games."""
    night = store.find_night(night_id)
    league = store.league(night.league_id)
    stem = f"{file_stem(league.name)}-night-{night.created[:10]}-{night.id[:8]}"
    return _file(stem, store.export_facts(league.id, night=night.id))


def share_league(store: Store, league: str) -> ExportFile:
    """A whole league's share file: every fact of it."""
    found = store.league(league)
    return _file(file_stem(found.name), store.export_facts(found.id))


@lru_cache(maxsize=256)  # a few games' codes: each shown again every cycle
def qr_png(part: bytes) -> bytes:
    """One code's PNG (segno, error correction M as ``rummy league qr`` makes it)."""
    import io

    import segno

    out = io.BytesIO()
    code = segno.make(part, error="m", boost_error=False, micro=False)
    code.save(out, kind="png", scale=QR_SCALE, border=QR_BORDER)
    return out.getvalue()


@dataclass(eq=False)
class QrShowModel(ft.Observable):
    """A game's codes, one shown at a time: it cycles on :meth:`tick` unless paused, and
    :meth:`next` steps by hand (a slow camera catches each)."""

    parts: list[bytes]
    shown: int = 0  # 0-based: the code on screen
    paused: bool = False

    @classmethod
    def of_game(cls, store: Store, game_id: str) -> QrShowModel:
        league = store.game_league(game_id)
        return cls(parts=encode_parts(store.export_facts(league, game=game_id)))

    @property
    def count(self) -> int:
        return len(self.parts)

    @property
    def cycles(self) -> bool:
        """More than one code: they take turns."""
        return self.count > 1

    @property
    def place(self) -> tuple[int, int]:
        """``(3, 7)``: the code shown is the third of seven."""
        return self.shown + 1, self.count

    def png(self) -> bytes:
        return qr_png(self.parts[self.shown])

    def tick(self) -> bool:
        """The cycle's step: the next code unless paused (or there is one); True if it moved."""
        if self.paused or not self.cycles:
            return False
        self.next()
        return True

    def next(self) -> None:
        self.shown = (self.shown + 1) % self.count

    def toggle_pause(self) -> None:
        self.paused = not self.paused
