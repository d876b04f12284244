"""The page's file picker: save dialogs for exports, open dialogs for imports.

One :class:`flet.FilePicker` service per page, added the first time a screen needs it. In
the browser a save is a download of the given bytes and a pick reads the chosen files'
bytes; on the desktop the dialogs are the system's and give paths.
"""

from __future__ import annotations

from pathlib import Path

import flet as ft

from scorer.ui.screens.exchange_model import ExportFile, PickedFile


def page_file_picker() -> ft.FilePicker:
    """The page's file picker (added to the page's services on first use)."""
    page = ft.context.page
    for service in page.services:
        if isinstance(service, ft.FilePicker):
            return service
    picker = ft.FilePicker()
    page.services.append(picker)
    page.update()
    return picker


async def save_export(export: ExportFile, *, title: str) -> str | None:
    """Offer ``export`` in a save dialog; the path chosen (None in the browser or if cancelled)."""
    picker = page_file_picker()
    path: str | None = await picker.save_file(
        dialog_title=title, file_name=export.name, src_bytes=export.data
    )
    return path


async def pick_json_files(*, title: str) -> list[PickedFile]:
    """Game files and league exports chosen by the player (none if cancelled)."""
    picker = page_file_picker()
    files = await picker.pick_files(
        dialog_title=title,
        file_type=ft.FilePickerFileType.CUSTOM,
        allowed_extensions=["json"],
        allow_multiple=True,
        with_data=ft.context.page.web,
    )
    return [PickedFile(name=f.name, data=f.bytes, path=f.path) for f in files]


async def pick_images(*, title: str) -> list[bytes]:
    """The bytes of each picture chosen by the player (on a phone, the picker offers its camera
    app); a picture that cannot be read is no bytes (none if cancelled)."""
    picker = page_file_picker()
    files = await picker.pick_files(
        dialog_title=title,
        file_type=ft.FilePickerFileType.IMAGE,
        allow_multiple=True,
        with_data=ft.context.page.web,
    )
    pictures = []
    for picked in files or []:
        try:
            pictures.append(
                picked.bytes if picked.bytes is not None else Path(picked.path or "").read_bytes()
            )
        except OSError:
            pictures.append(b"")
    return pictures
