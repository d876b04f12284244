"""The Scan screen's and the slips' state (scorer/ui/screens/scan_model.py), with no browser:
codes taken in any order with repeats, refusals said by kind and nothing changed, the preview
and the merge with identical reads; a slip filling its player's hand, or refused."""

from __future__ import annotations

import sys

import pytest
from store_reads import public_reads
from sync_kit import play

from scorer.league.handoff import Part, Slip, encode_parts
from scorer.league.store import Store
from scorer.ui.camera import decode_picture
from scorer.ui.screens.scan_model import ScanModel, read_slip
from scorer.ui.screens.slips import slip_picture

PLAYERS = ["Anna", "Bea", "Cid"]


@pytest.fixture()
def handoff() -> tuple[Store, str, list[bytes]]:
    """Phone A: a game of 25 deals in league Club, and its three codes."""
    store = Store.memory()
    store.create_league("Club")
    game = play(store, "Club", PLAYERS, 25, seed=3)
    return store, game, encode_parts(store.export_facts("Club", game=game))


def phone_b() -> tuple[Store, str]:
    store = Store.memory()
    return store, store.create_league("Club").id


def test_codes_in_any_order_with_repeats_preview_then_merge_with_identical_reads(
    handoff: tuple[Store, str, list[bytes]],
) -> None:
    phone_a, game, parts = handoff
    assert len(parts) == 3
    store, league = phone_b()
    model = ScanModel(store=store, league=league)
    assert model.progress == (0, 0)
    assert not model.take([]) and model.refused == "scan.no_code"  # a photo with no code
    assert model.take([parts[2]]) and model.progress == (1, 3)
    assert not model.take([parts[2]])  # a repeat: ignored
    assert model.take([parts[0], parts[2]]) and model.progress == (2, 3)
    assert model.plan is None and store.games() == []
    assert model.take([parts[1]]) and model.complete
    assert model.plan is not None
    assert (model.plan.games_added, model.plan.deals_added, model.plan.players_added) == (1, 25, 3)
    assert store.games() == []  # a preview writes nothing
    assert not model.take([parts[0]])  # once whole, nothing more is taken
    assert model.confirm(by="phone B")
    assert model.done is not None and model.done.games_added == 1
    assert store.game(game).document == phone_a.game(game).document
    assert public_reads(store)["standings"] == public_reads(phone_a)["standings"]


@pytest.mark.parametrize(
    ("make", "refused"),
    [
        (lambda ours, theirs: Part.parse(ours[1]).format()[:-1] + b"\x00", "scan.damaged"),
        (lambda ours, theirs: theirs[0], "scan.foreign"),
        (lambda ours, theirs: b"https://example.org/", "scan.not_a_code"),
        (lambda ours, theirs: b"RSQ2 abc 1/2 00\nxx", "scan.newer_format"),
        (lambda ours, theirs: Slip(game="g", deal=1, player="Anna", cards="AS").format(), "scan.is_a_slip"),
    ],
    ids=["damaged", "foreign", "not-ours", "newer", "a-slip"],
)
def test_a_refused_code_is_said_by_kind_and_changes_nothing(
    handoff: tuple[Store, str, list[bytes]], make: object, refused: str
) -> None:
    phone_a, _, ours = handoff
    other = play(phone_a, "Club", PLAYERS, 2, seed=5)
    theirs = encode_parts(phone_a.export_facts("Club", game=other))
    store, league = phone_b()
    model = ScanModel(store=store, league=league)
    model.take([ours[0]])
    bad = make(ours, theirs)  # type: ignore[operator]
    if bad == ours[0]:
        pytest.skip("the damaged byte was already 0")
    assert not model.take([bad])
    assert model.refused == refused and model.detail
    assert model.progress == (1, 3) and model.plan is None
    said = (model.refused, model.detail)
    assert not model.take([ours[0]])  # a code held already (the codes go round): still said
    assert (model.refused, model.detail) == said
    model.take([ours[1]])  # the next new code clears the refusal
    assert model.refused == "" and model.progress == (2, 3)
    model.take([ours[2]])
    assert model.plan is not None
    model.restart()
    assert model.progress == (0, 0) and model.plan is None and store.games() == []


def test_a_merge_refused_by_the_store_is_said_and_nothing_written(
    handoff: tuple[Store, str, list[bytes]],
) -> None:
    _, _, parts = handoff
    store, league = phone_b()
    model = ScanModel(store=store, league="no-such-league")
    model.take(parts)
    assert model.plan is None and model.error
    assert store.games() == [] and league


def test_a_slip_fills_its_player_hand_or_is_refused() -> None:
    slip = Slip(game="g1", deal=2, player="Anna", cards="AH 2H 3H")
    picture = slip_picture(slip)
    codes = decode_picture(picture)  # what Show as slip shows reads back as the slip
    assert [Slip.parse(c) for c in codes] == [slip]
    taken = read_slip(codes, game="g1", deal=2, players=["Anna", "Bea"])
    assert taken is not None and (taken.player, taken.cards, taken.refused) == ("Anna", "AH 2H 3H", "")
    assert read_slip([], game="g1", deal=2, players=["Anna"]) is None
    other_deal = read_slip(codes, game="g1", deal=3, players=["Anna", "Bea"])
    assert other_deal is not None and other_deal.refused == "scan.slip_other_deal"
    other_game = read_slip(codes, game="g2", deal=2, players=["Anna", "Bea"])
    assert other_game is not None and other_game.refused == "scan.slip_other_deal"
    stranger = read_slip(codes, game="g1", deal=2, players=["Bea", "Cid"])
    assert stranger is not None and stranger.refused == "scan.slip_other_player"
    part = encode_parts({"facts": []})[0]
    not_slip = read_slip([part], game="g1", deal=2, players=["Anna"])
    assert not_slip is not None and not_slip.refused == "scan.not_a_slip"


def test_a_picture_with_no_code_or_no_picture_reads_as_none() -> None:
    import io

    from PIL import Image

    assert decode_picture(b"not a picture") == []
    white = io.BytesIO()
    Image.new("RGB", (200, 200), "white").save(white, format="JPEG")
    assert decode_picture(white.getvalue()) == []


def test_without_a_decoder_scan_is_shown_as_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the app with no decoder (zxing-cpp not installed) says so on the League screen
    instead of offering a scan that could read nothing."""
    import flet as ft

    from scorer.ui.camera import camera_available, scanning_available
    from scorer.ui.screens.leagues import scan_button

    assert scanning_available() and camera_available()
    assert isinstance(scan_button("L1", "en"), ft.OutlinedButton)
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "zxingcpp", None)  # its import raises ImportError
        assert not scanning_available() and not camera_available()
        shown = scan_button("L1", "en")
        assert isinstance(shown, ft.Text) and shown.value == (
            "This copy of the app cannot read codes: its QR decoder is not installed."
        )


def test_without_the_camera_package_scan_reads_photos(monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone build has a decoder but no camera package: Scan is offered (for photos)."""
    import flet as ft

    from scorer.ui.camera import camera_available, scanning_available
    from scorer.ui.screens.leagues import scan_button

    monkeypatch.setitem(sys.modules, "flet_camera", None)
    assert scanning_available() and not camera_available()
    assert isinstance(scan_button("L1", "en"), ft.OutlinedButton)


def test_the_browser_decoder_is_chosen_in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """In Pyodide (``sys.platform == "emscripten"``) the decoder is the worker's zxing-wasm:
    available only where the build's worker defines it, and called with the picture."""
    import asyncio
    import types
    from collections.abc import Coroutine
    from concurrent.futures import ThreadPoolExecutor

    from scorer.ui import decoder

    def run(job: Coroutine[object, object, list[bytes]]) -> list[bytes]:
        """In a thread of its own: a browser test of the session may hold an event loop in this one."""
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, job).result()

    class Uint8(bytes):
        def to_bytes(self) -> bytes:
            return bytes(self)

    async def rummy_decode_qr(picture: bytes) -> list[Uint8]:
        return [Uint8(b"code:" + picture[:3])]

    assert not decoder.in_browser()  # sys.platform is "emscripten" in Pyodide
    monkeypatch.setattr(decoder, "in_browser", lambda: True)
    js = types.ModuleType("js")
    monkeypatch.setitem(sys.modules, "js", js)
    assert not decoder.available()
    with pytest.raises(decoder.DecoderUnavailable):
        run(decoder.decode(b"png"))
    js.rummyDecodeQr = rummy_decode_qr  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.to_js = bytes  # type: ignore[attr-defined]
    ffi.JsException = RuntimeError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    assert decoder.available()
    assert run(decoder.decode(b"png...")) == [b"code:png"]


def test_a_decoder_that_cannot_load_is_said_and_the_codes_read_so_far_are_kept(
    handoff: tuple[Store, str, list[bytes]],
) -> None:
    """The phone build offline before it kept its decoder: the scan says so and keeps what it
    read; the next picture read clears it."""
    _, _, parts = handoff
    store, league = phone_b()
    model = ScanModel(store=store, league=league)
    model.take([parts[0]])
    model.cannot_decode()
    assert model.refused == "scan.decoder_failed" and model.progress == (1, 3)
    model.take([parts[1]])
    assert model.refused == "" and model.progress == (2, 3)


def test_photos_of_slips_fill_each_hand_and_one_with_none_is_said() -> None:
    from scorer.ui.screens.deal_model import DealModel
    from scorer.ui.screens.slips import SlipReader

    store = Store.memory()
    game = store.start_game(ruleset="gin", players=["Anna", "Bea"])
    reader = SlipReader(model=DealModel.load(store, game.id))
    reader.take_photo([])
    assert reader.last is not None and reader.last.refused == "scan.no_code"
    anna = Slip(game=game.id, deal=1, player="Anna", cards="AH 2H 3H").format().encode()
    bea = Slip(game=game.id, deal=1, player="Bea", cards="KS KD KC").format().encode()
    reader.take_photo([anna, bea])  # two phones side by side in one photo
    assert reader.model.cards["Anna"] == "AH 2H 3H" and reader.model.cards["Bea"] == "KS KD KC"
    reader.cannot_decode()
    assert reader.last.refused == "scan.decoder_failed"
