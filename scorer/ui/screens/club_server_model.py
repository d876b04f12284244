"""Settings -> *Club server*: the address, the token and the league this store syncs, *Save*,
*Sync now*, and what the last sync did, in words.

The token typed is sent to the store and never shown back: once saved, Settings shows its
last four characters (:attr:`ClubServerModel.token_tail`); saving with the token field empty
keeps the saved one. Every sync goes through the process's :class:`~scorer.ui.club_sync.ClubSync`
(one sync at a time, whoever asks), so what Settings shows is its last outcome.

>>> from scorer.league.sync import SyncReport
>>> report = SyncReport(league="lg", sent=12, received=30)
>>> result_text(SyncOutcome(at="2026-12-07T03:00:00+00:00", url="https://c.org", report=report), "en")
'Sent 12, received 30.'
>>> result_text(SyncOutcome(at="", url="https://c.org", report=report), "fi")
'Lähetetty 12, vastaanotettu 30.'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from scorer.errors import ScorerError
from scorer.league.club_server import ClubServer
from scorer.league.store import Store
from scorer.messages import Message, render
from scorer.ui.club_sync import ClubSync, SyncOutcome
from scorer.ui.i18n import Language, tr

#: The codes of a refusal that belongs under a field (the rest show under the buttons).
_URL_CODES = frozenset({"sync.club_bad_url"})
_TOKEN_CODES = frozenset({"sync.club_bad_token"})


def _message(said: Any) -> Message | None:
    return said.message if isinstance(said, ScorerError) else None


def distinct_conflicts(conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conflicts, one per game or club night (each side reports its own)."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for conflict in conflicts:
        seen.setdefault((str(conflict.get("game") or ""), str(conflict.get("night") or "")), conflict)
    return list(seen.values())


def conflict_names(store: Store, conflicts: list[dict[str, Any]], language: Language) -> list[str]:
    """Each conflict's game (its players, its day) or club night, as the table knows them; a
    game in conflict on both sides (the server's report and this store's) is named once."""
    names: list[str] = []
    for conflict in distinct_conflicts(conflicts):
        game_id = conflict.get("game")
        if game_id:
            try:
                game = store.game(str(game_id))
            except (ScorerError, OSError):
                names.append(tr("settings.club_game_unknown", language, game=str(game_id)[:8]))
                continue
            names.append(
                tr(
                    "settings.club_game",
                    language,
                    players=", ".join(game.document.get("players", [])),
                    day=game.played[:10],
                )
            )
        elif conflict.get("night"):
            names.append(tr("settings.club_night", language, night=str(conflict["night"])[:8]))
    return names


def result_text(outcome: SyncOutcome, language: Language, *, store: Store | None = None) -> str:
    """What the sync did, in words: ``Sent 12, received 30; 1 game changed on both sides apart:
    Anna, Bea (2026-12-06).``; or why it stopped (the sync's own message, in ``language``)."""
    if outcome.error is not None:
        return render(outcome.error, language)
    report = outcome.report
    if report is None:
        return ""
    text = tr("settings.club_sent", language, sent=report.sent, received=report.received)
    if report.conflicts:
        count = len(distinct_conflicts(report.conflicts))
        names = conflict_names(store, report.conflicts, language) if store is not None else []
        key = "settings.club_conflict" if count == 1 else "settings.club_conflicts"
        text += tr(key, language, count=count, games="; ".join(names) or "-")
    if report.not_applied:
        text += tr("settings.club_not_applied", language, count=report.not_applied)
    return text + "."


@dataclass(eq=False)
class ClubServerModel(ft.Observable):
    """The section's state: what is typed, what is saved, the last sync's outcome."""

    store: Store
    club: ClubSync | None = None
    url: str = ""
    token: str = ""
    league: str = ""
    url_problem: str = ""
    token_problem: str = ""
    problem: str = ""
    saved: ClubServer | None = None
    syncing: bool = False
    outcome: SyncOutcome | None = None
    #: The club server's settings cannot be kept here (a club server's own database).
    unavailable: bool = False

    @classmethod
    def load(cls, store: Store, club: ClubSync | None = None) -> ClubServerModel:
        model = cls(store=store, club=club)
        model.reload()
        return model

    def reload(self) -> None:
        """Read what is saved, and the last sync's outcome (a sync on its own may have ended)."""
        try:
            self.saved = self.store.club_server()
        except (ScorerError, OSError) as exc:
            self.problem = str(exc)
            self.saved = None
        if self.saved is not None:
            self.url = self.url or self.saved.url
            self.league = self.league or self.saved.league
        leagues = self.leagues()
        if not self.league and len(leagues) == 1:
            self.league = leagues[0][0]
        if self.club is not None:
            self.syncing = self.club.syncing
            self.outcome = self.club.last or self.outcome

    def leagues(self) -> list[tuple[str, str]]:
        """The store's leagues (id, name) to choose from."""
        try:
            return [(lg.id, lg.name) for lg in self.store.leagues()]
        except (ScorerError, OSError):
            return []

    @property
    def token_tail(self) -> str:
        """The saved token's last characters (what is shown of it); ``""``: none saved."""
        return self.saved.tail if self.saved is not None else ""

    def set_url(self, text: str) -> None:
        self.url, self.url_problem = text, ""

    def set_token(self, text: str) -> None:
        self.token, self.token_problem = text, ""

    def set_league(self, league: str) -> None:
        self.league = league

    def save(self) -> bool:
        """Keep the address, the token (the saved one if none is typed) and the league; a
        refusal is shown under its field. True when saved."""
        self.url_problem = self.token_problem = self.problem = ""
        token = self.token if self.token.strip() or self.saved is None else self.saved.token
        try:
            self.saved = self.store.set_club_server(self.url, token, self.league)
        except (ScorerError, OSError) as exc:
            code = message.code if (message := _message(exc)) is not None else ""
            if code in _URL_CODES:
                self.url_problem = str(exc)
            elif code in _TOKEN_CODES:
                self.token_problem = str(exc)
            else:
                self.problem = str(exc)
            return False
        self.url, self.token, self.league = self.saved.url, "", self.saved.league
        if self.club is not None:
            self.club.configured()
        return True

    def forget(self) -> None:
        """Sync with no club server any more."""
        try:
            self.store.clear_club_server()
        except (ScorerError, OSError) as exc:
            self.problem = str(exc)
            return
        self.saved, self.url, self.token, self.problem = None, "", "", ""

    async def sync_now(self, *, then: Callable[[], object] | None = None) -> SyncOutcome | None:
        """Sync now (Settings' *Sync now*), off the event loop; the outcome is kept to show.
        A sync under way already (on its own): its outcome is shown when it ends."""
        if self.club is None or self.saved is None:
            return None
        self.syncing, self.problem = True, ""
        try:
            outcome = await self.club.sync_off_loop()
        finally:
            self.syncing = self.club.syncing
        self.outcome = outcome or self.club.last or self.outcome
        if then is not None:
            then()
        return outcome


__all__ = ["ClubServerModel", "conflict_names", "distinct_conflicts", "result_text"]
