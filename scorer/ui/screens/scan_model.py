"""Scanning a hand-off into a league, and deal slips into a deal: the codes the camera (or a
photo) gave, taken one at a time, as plain Python over :mod:`scorer.league.handoff`.

A hand-off (``RSQ1`` codes, issue 28) is collected part by part in any order, repeats ignored;
a code of another hand-off, a damaged code or one that is no hand-off's is refused with a
reason the screen says in a player's words (:attr:`ScanModel.refused`), and nothing changes.
Once whole, the facts are previewed against the league (:meth:`~scorer.league.store.Store.preview_import`)
and merged only when the player confirms, as ``rummy league scan`` merges them.

>>> from scorer.league.handoff import encode_parts
>>> phone = Store.memory()
>>> _ = phone.create_league("Club")
>>> game = phone.start_game(ruleset="gin", players=["Anna", "Bea"], league="Club").id
>>> parts = encode_parts(phone.export_facts("Club", game=game))
>>> other = Store.memory()
>>> club = other.create_league("Club").id
>>> model = ScanModel(store=other, league=club)
>>> model.take([parts[0]]), model.progress, model.plan is None  # a new game is two codes
(True, (1, 2), True)
>>> model.take([parts[0]]), model.take([parts[1]]), model.plan is not None  # a repeat, the last
(False, True, True)
>>> model.confirm(), [g.id for g in other.games()] == [game]
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

import flet as ft

from scorer.errors import ScorerError
from scorer.league.exchange import ImportBatch
from scorer.league.handoff import SLIP_TAG, Collector, HandoffError, Slip
from scorer.league.store import Store
from scorer.ui.screens.exchange_model import ImportPlan

#: The kinds of refusal the screen words itself (a catalog key each), by the handoff message's
#: code; any other refusal is shown as the store says it.
REFUSALS: Final = {
    "handoff.mixed": "scan.foreign",
    "handoff.damaged": "scan.damaged",
    "handoff.not_a_part": "scan.not_a_code",
    "handoff.not_a_slip": "scan.not_a_slip",
    "handoff.newer_format": "scan.newer_format",
}


def refusal_of(exc: ScorerError) -> str:
    """The catalog key that says why a code was refused (``scan.refused`` for anything else)."""
    return REFUSALS.get(exc.message.code, "scan.refused")


def _is_slip(code: bytes | str) -> bool:
    tag = f"{SLIP_TAG} "
    return code.startswith(tag) if isinstance(code, str) else code.startswith(tag.encode("ascii"))


@dataclass(eq=False)
class ScanModel(ft.Observable):
    """One hand-off scanned into one league: codes taken until whole, a preview, a merge."""

    store: Store
    league: str  # the league's id
    refused: str = ""  # a catalog key: why the last code was refused ("" when it was taken)
    detail: str = ""  # the refused code's own message, for the curious
    plan: ImportPlan | None = None  # the preview, once the hand-off is whole
    done: ImportPlan | None = None
    error: str = ""  # the store's message when the preview or the merge failed
    _collector: Collector = field(default_factory=Collector, repr=False)
    _batch: ImportBatch | None = field(default=None, repr=False)

    @property
    def progress(self) -> tuple[int, int]:
        """(codes read, codes in the hand-off); (0, 0) before the first."""
        return len(self._collector.parts), self._collector.count

    @property
    def complete(self) -> bool:
        return self._collector.complete

    def take(self, codes: Iterable[bytes | str]) -> bool:
        """Take the codes one picture held (none: a picture with no code, said as such); ``True``
        if any was new. A refused code is said in
        :attr:`refused` and changes nothing; once the hand-off is whole, the preview is made."""
        if self.complete or self.done is not None:
            return False
        found = list(codes)
        if not found:  # a photo with no code in it (the camera reports only pictures with some)
            self._refuse("scan.no_code", "")
            return False
        new = False
        for code in found:
            if _is_slip(code):  # a slip held up by mistake: it belongs to deal entry
                shown = code if isinstance(code, str) else code.decode("utf-8", "replace")
                self._refuse("scan.is_a_slip", shown[:60])
                return new
            try:
                added = self._collector.add(code)
            except HandoffError as exc:
                self._refuse(refusal_of(exc), str(exc))
                return new
            if added:  # a code held already (the other phone's codes go round) leaves the
                # last refusal on the screen: it stays until the next new code
                self._refuse("", "")
            new = added or new
        if self.complete:
            self._preview()
        return new

    def _refuse(self, refused: str, detail: str) -> None:
        """Say ``refused`` (a catalog key; "": nothing) with ``detail``, changing nothing when it
        is already said: each change redraws the screen, and a redraw restarts the camera."""
        if (self.refused, self.detail) != (refused, detail):
            self.refused, self.detail = refused, detail

    def cannot_decode(self) -> None:
        """The decoder could not be loaded (the phone build, offline before it kept it): said
        as the last refusal; nothing is taken."""
        self.refused, self.detail = "scan.decoder_failed", ""

    def _preview(self) -> None:
        source = f"hand-off {self._collector.handoff}"
        try:
            document = self._collector.document()
            batch = ImportBatch(games=(), facts=((source, document),))
            report = self.store.preview_import(self.league, batch)
        except ScorerError as exc:
            self.error = str(exc)
            if isinstance(exc, HandoffError):  # whole but not as its id says: read it anew
                self.refused, self.detail = refusal_of(exc), str(exc)
                self._collector = Collector()
            return
        self._batch, self.error = batch, ""
        self.plan = ImportPlan.of([source], report, {})

    def confirm(self, *, by: str | None = None) -> bool:
        """Merge the previewed hand-off (checked again: the league may have changed since)."""
        if self._batch is None or self.plan is None:
            return False
        try:
            report = self.store.import_batch(self.league, self._batch, by=by)
        except ScorerError as exc:
            self.error = str(exc)
            return False
        self.done = ImportPlan.of(self.plan.files, report, {})
        self.plan, self._batch = None, None
        return True

    def restart(self) -> None:
        """Forget every code read: scan another hand-off."""
        self._collector, self._batch = Collector(), None
        self.plan = self.done = None
        self.refused = self.detail = self.error = ""


@dataclass(frozen=True, slots=True)
class SlipTaken:
    """What one scanned slip did to the deal: whose hand it filled, or why it was refused."""

    player: str = ""
    cards: str = ""
    refused: str = ""  # a catalog key
    detail: str = ""


def read_slip(
    codes: Iterable[bytes | str], *, game: str, deal: int, players: Iterable[str]
) -> SlipTaken | None:
    """The first deal slip among ``codes`` for this game's deal ``deal``; ``None`` if the
    picture held no code. A slip of another game or deal, or of a player not in the game, is
    refused (the scorer is filling this deal, not another).

    >>> slip = Slip(game="g1", deal=2, player="Dora", cards="AH 2H 3H").format()
    >>> read_slip([slip], game="g1", deal=2, players=["Dora", "Eve"])
    SlipTaken(player='Dora', cards='AH 2H 3H', refused='', detail='')
    >>> read_slip([slip], game="g1", deal=3, players=["Dora", "Eve"]).refused
    'scan.slip_other_deal'
    """
    found = list(codes)
    if not found:
        return None
    try:
        slip = Slip.parse(found[0])
    except HandoffError as exc:
        return SlipTaken(refused=refusal_of(exc), detail=str(exc))
    if slip.game != game or slip.deal != deal:
        return SlipTaken(refused="scan.slip_other_deal", detail=f"{slip.game} {slip.deal}")
    if slip.player not in set(players):
        return SlipTaken(refused="scan.slip_other_player", detail=slip.player)
    return SlipTaken(player=slip.player, cards=slip.cards)


def slip_text(*, game: str, deal: int, player: str, cards: str) -> str:
    """The slip's code text for one player's hand (what ``Show as slip`` shows)."""
    return Slip(game=game, deal=deal, player=player, cards=cards).format()
