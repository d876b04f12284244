"""Deal slips on the Deal screen (issue 28): ``Show as slip`` shows one player's hand as a QR
slip on their own phone; ``Scan slips`` on the scorer's phone fills each player's hand from the
slips the camera reads, or from photos of them (where the page has no camera, say).
A scanned hand goes into the entry as a typed one does, so the cross-hand checks (a card in
two hands, a hand's size) run before the deal is saved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import flet as ft

from scorer.league.handoff import Slip
from scorer.ui import decoder
from scorer.ui.camera import CodeCamera, camera_available, scanning_available
from scorer.ui.components.file_dialogs import pick_images
from scorer.ui.components.layout import error_text
from scorer.ui.i18n import Language, tr
from scorer.ui.screens.deal_model import DealModel
from scorer.ui.screens.scan_model import SlipTaken, read_slip

#: Pixels a module of a slip's code on screen: a slip is a version 5-8 code, ~250-300 px wide.
SLIP_SCALE: Final = 6


def slip_picture(slip: Slip) -> bytes:
    """The slip's QR code as a PNG (segno; a quiet zone of 4 modules)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(slip.format(), error="m", micro=False).save(out, kind="png", scale=SLIP_SCALE, border=4)
    return out.getvalue()


def _slip_view(model: DealModel, player: str, language: Language, close: Callable[[], None]) -> ft.Control:
    slip = Slip(game=model.saved.id, deal=model.deal_number, player=player, cards=model.cards.get(player, ""))
    return ft.Container(
        padding=12,
        border_radius=10,
        bgcolor=ft.Colors.WHITE,
        content=ft.Column(
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                ft.Text(
                    tr("scan.slip_title", language, name=player, number=model.deal_number),
                    color=ft.Colors.BLACK,
                    weight=ft.FontWeight.BOLD,
                ),
                ft.Image(src=slip_picture(slip), width=300, height=300, fit=ft.BoxFit.CONTAIN),
                ft.Text(tr("scan.slip_help", language), color=ft.Colors.BLACK),
                ft.TextButton(tr("scan.close", language), on_click=close),
            ],
        ),
    )


@dataclass(eq=False)
class SlipReader(ft.Observable):
    """The slips read into one deal entry: each fills its player's hand (:func:`read_slip`)."""

    model: DealModel
    last: SlipTaken | None = None  # what the last slip read did

    def take(self, codes: list[bytes]) -> None:
        """The codes the camera saw in one picture (it reports only pictures with some)."""
        model = self.model
        found = read_slip(codes, game=model.saved.id, deal=model.deal_number, players=model.players)
        if found is None:
            return
        self._took(found)

    def take_photo(self, codes: list[bytes]) -> None:
        """The codes of one photo, each slip in turn (several phones may lie side by side in
        it); a photo with none is said (``No code found in this picture.``)."""
        if not codes:
            self._took(SlipTaken(refused="scan.no_code"))
        for code in codes:
            self.take([code])

    def cannot_decode(self) -> None:
        """The decoder could not be loaded (the phone build, offline before it kept it)."""
        self._took(SlipTaken(refused="scan.decoder_failed"))

    def _took(self, found: SlipTaken) -> None:
        model = self.model
        if not found.refused and model.cards.get(found.player, "") != found.cards:
            model.set_cards(found.player, found.cards)
        if found != self.last:
            self.last = found


@ft.component
def SlipTools(*, model: DealModel, language: Language) -> ft.Control:
    """``Show as slip`` for each player whose cards are entered, and ``Scan slips``."""
    showing, set_showing = ft.use_state("")
    scanning, set_scanning = ft.use_state(False)
    trouble, set_trouble = ft.use_state("")
    state: tuple[SlipReader, Callable[[SlipReader], None]] = ft.use_state(lambda: SlipReader(model=model))
    reader = state[0]
    last = reader.last

    if model.entry != "cards":
        return ft.Column(controls=[])
    controls: list[ft.Control] = []
    buttons: list[ft.Control] = [
        ft.OutlinedButton(
            tr("scan.show_slip", language, name=player),
            icon=ft.Icons.QR_CODE_2,
            on_click=lambda _=None, p=player: set_showing("" if showing == p else p),
        )
        for player in model.players
        if model.cards.get(player, "").strip()
    ]

    async def from_photos() -> None:
        """Pictures of the slips chosen on the device (on a phone, it offers its camera app)."""
        for data in await pick_images(title=tr("scan.slips_photo_title", language)):
            try:
                reader.take_photo(await decoder.decode(data))
            except decoder.DecoderUnavailable:
                reader.cannot_decode()
                return

    if scanning_available():  # the camera where there is one, and photos of the slips
        buttons.append(
            ft.OutlinedButton(
                tr("scan.slips", language),
                icon=ft.Icons.QR_CODE_SCANNER,
                on_click=lambda: set_scanning(not scanning),
                style=ft.ButtonStyle(bgcolor=ft.Colors.SECONDARY_CONTAINER) if scanning else None,
            )
        )
    controls.append(ft.Row(wrap=True, spacing=8, run_spacing=8, controls=buttons))
    if showing and model.cards.get(showing, "").strip():
        controls.append(_slip_view(model, showing, language, lambda: set_showing("")))
    if scanning:
        camera = camera_available()
        controls.append(ft.Text(tr("scan.slips_help" if camera else "scan.slips_photo_help", language)))
        if trouble:
            controls.append(error_text(tr(trouble, language)))
        elif camera:
            controls.append(CodeCamera(on_codes=reader.take, on_trouble=set_trouble))
        controls.append(
            ft.OutlinedButton(tr("scan.photo", language), icon=ft.Icons.PHOTO_LIBRARY, on_click=from_photos)
        )
    if last is not None and scanning:
        if last.refused:
            controls.append(
                ft.Text(tr(last.refused, language), color=ft.Colors.ERROR, weight=ft.FontWeight.W_600)
            )
        else:
            controls.append(ft.Text(tr("scan.slip_taken", language, name=last.player)))
    return ft.Column(spacing=8, controls=controls)
