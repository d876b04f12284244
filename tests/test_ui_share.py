"""Share, the import's preview and Show as QR (issue 28) as view-models, with no Flet session.

- The share file of a game, a night and a league is what ``rummy league export`` writes, and
  on another phone it imports with identical reads.
- The preview names what a file adds (the league if new here, each game with its deals and
  players, the new players) and its conflicts, from the import run in the store's transaction
  and thrown away: before and after the preview every read of the store is the same, and Cancel
  writes nothing.
- Show as QR: the codes are handoff.py's parts (a Collector reads them back into the game's
  facts), each PNG decodes to its part, the cycle steps unless paused, Next steps by hand.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import flet as ft
import pytest
from conftest import reopen
from store_reads import differences, public_reads
from sync_kit import play, rommi_deal

from scorer.league.handoff import Collector, encode_parts
from scorer.league.store import Store
from scorer.ui.components.exchange_panel import preview_lines
from scorer.ui.screens.exchange_model import ImportModel, PickedFile
from scorer.ui.screens.league_import_model import LeagueImportModel
from scorer.ui.screens.share_model import QrShowModel, share_game, share_league, share_night

PLAYERS = ["Anna", "Bea", "Cid"]


def facts_of(data: bytes) -> list[object]:
    """A share file's facts (its ``exported`` time aside)."""
    document = json.loads(data)
    assert document["format"] == "rummy-league-facts"
    return list(document["facts"])


@pytest.fixture(params=["memory", "files"])
def phone(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The sharing phone's store (in memory, in a folder): league Club, one game of 12 deals."""
    store = Store.memory() if request.param == "memory" else Store.open(tmp_path / "phone")
    store.create_league("Club")
    play(store, "Club", PLAYERS, 12, seed=4)
    yield store


def received(tmp_path: Path, name: str = "other") -> Store:
    return Store.open(tmp_path / name)


def test_the_share_files_hold_what_rummy_league_export_writes(phone: Store) -> None:
    game = phone.games()[0].id
    night = phone.start_night("Club", players=[*PLAYERS, "Dora", "Eeva", "Frans"], ruleset="rommi", seed=1)
    league = phone.league("Club").id
    shared = share_game(phone, game)
    assert shared.name.startswith("club-rommi-") and shared.name.endswith(f"-{game[:8]}.rummy.json")
    assert facts_of(shared.data) == phone.export_facts(league, game=game)["facts"]
    assert facts_of(share_night(phone, night.id).data) == phone.export_facts(league, night=night.id)["facts"]
    whole = share_league(phone, "Club")
    assert whole.name == "club.rummy.json" and facts_of(whole.data) == phone.export_facts(league)["facts"]


def test_a_shared_game_previewed_then_added_on_a_new_phone_has_identical_reads(
    phone: Store, tmp_path: Path
) -> None:
    game = phone.games()[0].id
    shared = share_game(phone, game)
    other = received(tmp_path)
    before = public_reads(other)
    model = LeagueImportModel(store=other)
    assert model.prepare([PickedFile(name=shared.name, data=shared.data)])
    assert (model.league, model.new_league) == ("Club", True)
    plan = model.plan
    assert plan is not None and plan.preview is not None and plan.changes
    preview = plan.preview
    assert preview.league == "Club" and preview.new_league and preview.players == ("Anna", "Bea", "Cid")
    [added] = preview.games
    assert (added.id, added.deals, added.players, added.new, added.ruleset) == (
        game,
        12,
        tuple(PLAYERS),
        True,
        "rommi",
    )
    assert (preview.report.games_added, preview.report.deals_added, preview.report.conflicts) == (1, 12, [])
    lines = preview_lines(preview, "en")
    assert lines[0] == "the league Club (new here)"
    assert lines[1].startswith("a Rommi game (") and lines[1].endswith("), 12 deals: Anna, Bea, Cid")
    assert lines[2] == "new players: Anna, Bea, Cid"
    assert differences(before, public_reads(reopen(other))) == []  # the preview wrote nothing

    league_id = model.confirm()
    assert league_id is not None and model.done is not None and model.done.deals_added == 12
    here = reopen(other)
    assert [g.id for g in here.games(deleted=True)] == [game]
    assert here.game(game).document == phone.game(game).document
    assert here.events(game) == phone.events(game)
    assert here.standings("Club") == phone.standings("Club")


def test_cancel_writes_nothing(phone: Store, tmp_path: Path) -> None:
    shared = share_league(phone, "Club")
    other = received(tmp_path)
    other.create_league("Club")
    before = public_reads(other)
    model = ImportModel(store=other, league=other.league("Club").id)
    assert model.prepare([PickedFile(name=shared.name, data=shared.data)]) and model.plan is not None
    model.cancel()
    assert model.plan is None and model.confirm() is False  # nothing left to confirm
    assert differences(before, public_reads(reopen(other))) == []
    assert other.games() == []


def test_the_preview_names_deals_added_to_a_game_here_and_the_conflicts(phone: Store, tmp_path: Path) -> None:
    game = phone.games()[0].id
    other = received(tmp_path)
    other.create_league("Club")
    first = share_game(phone, game)
    league = other.league("Club").id
    importer = ImportModel(store=other, league=league)
    assert importer.prepare([PickedFile(name=first.name, data=first.data)]) and importer.confirm()
    for number in range(3):  # three more deals on the sharing phone
        phone.add_deal(game, rommi_deal(tuple(PLAYERS), 90 + number, [number, 9]))
    later = share_game(phone, game)
    assert importer.prepare([PickedFile(name=later.name, data=later.data)])
    assert importer.plan is not None and importer.plan.preview is not None
    preview = importer.plan.preview
    [more] = preview.games
    assert (more.id, more.deals, more.new, preview.players, preview.new_league) == (game, 3, False, (), False)
    assert preview_lines(preview, "en")[0].startswith("3 more deals to the Rommi game (")
    assert preview_lines(preview, "fi")[0].startswith("3 jakoa lisää Rommi-peliin (")

    # The same game changed apart on both phones: a conflict, named, and nothing added to it.
    other.add_deal(game, rommi_deal(tuple(PLAYERS), 50, [7, 7]))
    assert importer.prepare([PickedFile(name=later.name, data=later.data)])
    assert importer.plan is not None and importer.plan.preview is not None
    assert importer.plan.preview.games == () and importer.plan.conflicts
    assert later.name in importer.plan.conflicts[0] and game in importer.plan.conflicts[0]


def test_a_file_naming_a_league_here_goes_into_it(phone: Store, tmp_path: Path) -> None:
    other = received(tmp_path)
    other.create_league("club")  # the same league by name, any case
    shared = share_league(phone, "Club")
    model = LeagueImportModel(store=other)
    assert model.prepare([PickedFile(name=shared.name, data=shared.data)])
    assert (model.league, model.new_league) == ("club", False)
    assert model.plan is not None and model.plan.preview is not None and not model.plan.preview.new_league
    assert model.confirm() == other.league("club").id
    assert len(other.games()) == 1 and [lg.name for lg in other.leagues()] == ["club"]


def test_qr_codes_are_the_handoff_parts_and_each_png_decodes_to_its_part(phone: Store) -> None:
    import io

    import zxingcpp
    from PIL import Image

    game = phone.games()[0].id
    for number in range(14):  # a longer game (26 deals): more than one code
        phone.add_deal(game, rommi_deal(tuple(PLAYERS), 200 + number, [number, 3]))
    model = QrShowModel.of_game(phone, game)
    league = phone.league("Club").id
    expected = encode_parts(phone.export_facts(league, game=game))
    assert model.count == len(expected) >= 2
    # The same facts (the file's exported time differs, so the ids may).
    collector = Collector()
    for part in reversed(model.parts):
        collector.add(part)
    assert collector.document()["facts"] == phone.export_facts(league, game=game)["facts"]
    for index in range(model.count):
        assert model.place == (index + 1, model.count)
        with Image.open(io.BytesIO(model.png())) as picture:
            [code] = zxingcpp.read_barcodes(picture)
        assert bytes(code.bytes) == model.parts[index]
        model.next()
    assert model.place == (1, model.count)  # Next wraps to the first


def test_the_cycle_steps_unless_paused() -> None:
    noise = random.Random(1).randbytes(2000).hex()  # hardly compresses: 2,000 bytes, 3 codes
    model = QrShowModel(parts=encode_parts({"facts": [noise]}))
    one = QrShowModel(parts=encode_parts({"facts": []}))
    assert one.count == 1 and not one.cycles and one.tick() is False and one.place == (1, 1)
    assert model.cycles and model.tick() and model.place == (2, model.count)
    model.toggle_pause()
    assert model.tick() is False and model.place == (2, model.count)
    model.next()  # by hand while paused
    assert model.place == (3, model.count)
    model.toggle_pause()
    assert model.count == 3 and model.tick() and model.place == (1, 3)


def test_a_game_in_no_league_has_no_codes(tmp_path: Path) -> None:
    from scorer.errors import ScorerError

    store = Store.memory()
    game = store.start_game(ruleset="rommi", players=PLAYERS)
    with pytest.raises(ScorerError):
        QrShowModel.of_game(store, game.id)


class FakeShare:
    """Flet's share service as the web client answers it: a status, or an error where the
    browser has no share sheet."""

    def __init__(self, outcome: ft.ShareResultStatus | Exception) -> None:
        self.outcome = outcome
        self.asked: list[tuple[list[ft.ShareFile], dict[str, object]]] = []

    async def share_files(self, files: list[ft.ShareFile], **options: object) -> ft.ShareResult:
        self.asked.append((files, options))
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return ft.ShareResult(status=self.outcome, raw="")


@pytest.mark.parametrize(
    ("outcome", "said"),
    [
        # A share that went through: the browser does not say which app took it.
        (ft.ShareResultStatus.UNAVAILABLE, ft.ShareResultStatus.UNAVAILABLE),
        (ft.ShareResultStatus.DISMISSED, ft.ShareResultStatus.DISMISSED),
        (ft.ShareResultStatus.SUCCESS, ft.ShareResultStatus.SUCCESS),
        # No navigator.share (a desktop Linux Chromium, Firefox): the caller saves a download.
        (RuntimeError("Navigator.canShare() is unavailable"), None),
    ],
)
def test_share_hands_the_file_to_the_sheet_with_its_own_fallbacks_off(
    phone: Store, outcome: ft.ShareResultStatus | Exception, said: ft.ShareResultStatus | None
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from scorer.ui.screens.share import _shared

    file = share_game(phone, phone.games()[0].id)
    service = FakeShare(outcome)
    job = _shared(cast(ft.Share, service), file, subject="Rummy Scorer")
    assert ThreadPoolExecutor(1).submit(asyncio.run, job).result() == said
    [(files, options)] = service.asked
    assert [(f.name, f.data, f.mime_type) for f in files] == [(file.name, file.data, "application/json")]
    assert options["download_fallback_enabled"] is False and options["mail_to_fallback_enabled"] is False
    assert ThreadPoolExecutor(1).submit(asyncio.run, _shared(None, file, subject="")).result() is None
