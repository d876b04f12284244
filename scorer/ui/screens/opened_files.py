"""Files opened with the app (issue 28): a share file another phone sent, opened with the
installed app from the phone's Files or a Bluetooth / Nearby Share notice.

The static build's worker puts them here (:mod:`scorer.web.launched`, from the browser's
``launchQueue``) and opens the Leagues screen, whose *Import a league* takes them as if they
had been picked: it shows what they add, and nothing is merged until the player says
``Import now``. One inbox per Python: the static build runs one Python per tab.

>>> inbox = OpenedFiles()
>>> inbox.deliver([PickedFile(name="club.rummy.json", data=b"{}")])
>>> [f.name for f in inbox.take()], inbox.take()
(['club.rummy.json'], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import flet as ft

from scorer.ui.screens.exchange_model import PickedFile


@dataclass(eq=False)
class OpenedFiles(ft.Observable):
    """The files opened with the app and not yet taken by the import."""

    files: list[PickedFile] = field(default_factory=list)

    def deliver(self, files: Sequence[PickedFile]) -> None:
        self.files = [*self.files, *files]

    def take(self) -> list[PickedFile]:
        """The files waiting, now taken (none the next time)."""
        taken, self.files = self.files, []
        return taken


#: The process's inbox.
OPENED = OpenedFiles()
