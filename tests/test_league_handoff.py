"""A hand-off between devices (issue 28): a game's facts as a sequence of QR codes read back in
any order, repeats ignored, another hand-off's refused; a deal slip round-trips exactly."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

import pytest
import segno
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sync_kit import play

from scorer.league.handoff import PART_BYTES, Collector, HandoffError, Part, Slip, encode_parts
from scorer.league.store import Store

PLAYERS = ["Anna", "Bea", "Cid"]


@functools.cache
def game_document(deals: int, seed: int) -> str:
    """The facts file of a real game of ``deals`` deals, as JSON (made once per shape)."""
    store = Store.open(Path(tempfile.mkdtemp()) / "phone")
    store.create_league("Club")
    game = play(store, "Club", PLAYERS, deals, seed=seed)
    return json.dumps(store.export_facts("Club", game=game))


def refusal(collector: Collector, raw: bytes, *, source: str = "") -> str:
    with pytest.raises(HandoffError) as caught:
        collector.add(raw, source=source)
    return caught.value.message.code


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deals=st.integers(0, 30),
    seed=st.integers(0, 3),
    data=st.data(),
)
def test_any_games_facts_read_back_in_any_order_with_repeats_and_gaps_filled_later(
    deals: int, seed: int, data: st.DataObject
) -> None:
    document = json.loads(game_document(deals, seed))
    parts = encode_parts(document)
    assert all(len(Part.parse(p).data) <= PART_BYTES for p in parts)
    order = data.draw(st.permutations(parts))
    withheld = data.draw(st.sets(st.sampled_from(range(len(parts))), max_size=len(parts) - 1))
    first = [p for i, p in enumerate(order) if i not in withheld]
    repeats = data.draw(st.lists(st.sampled_from(first), max_size=4))
    collector = Collector()
    for raw in [*first, *repeats]:
        collector.add(raw)
    if withheld:
        assert not collector.complete
        assert len(collector.missing) == len(withheld)
        with pytest.raises(HandoffError) as caught:
            collector.document()
        assert caught.value.message.code == "handoff.incomplete"
    later = [p for i, p in enumerate(order) if i in withheld]
    assert [collector.add(p) for p in later] == [True] * len(later)
    assert collector.complete and collector.missing == []
    assert collector.document() == document
    # a part of another hand-off is refused, naming both, and changes nothing
    other = encode_parts({**document, "store": "elsewhere"})[0]
    assert refusal(collector, other, source="other.png") == "handoff.mixed"
    assert collector.document() == document


def test_every_code_fits_a_version_25_qr_at_error_correction_m() -> None:
    document = json.loads(game_document(30, 1))
    parts = encode_parts(document)
    assert len(parts) > 1
    for part in parts:
        code = segno.make(part, error="m", boost_error=False, micro=False)
        assert code.version <= 25 and code.error == "M"


def test_a_damaged_or_foreign_part_is_refused_with_a_clear_message() -> None:
    part = encode_parts({"facts": list(range(50))})[0]
    collector = Collector()
    assert refusal(collector, part[:-1] + bytes([part[-1] ^ 1])) == "handoff.damaged"
    assert refusal(collector, b"hello") == "handoff.not_a_part"
    assert refusal(collector, b"RSQ2 abc 1/1 0\nx") == "handoff.newer_format"
    assert refusal(collector, b"RSQ1 abc\nx") == "handoff.damaged"
    assert collector.handoff is None  # nothing taken from any of them
    collector.add(part)
    head, _, body = part.partition(b"\n")
    recounted = head.replace(b" 1/1 ", b" 1/2 ") + b"\n" + body  # the same id, another count
    assert refusal(collector, recounted) == "handoff.damaged"
    assert collector.count == 1 and collector.complete
    with pytest.raises(HandoffError) as caught:
        Part.parse(b"hello", source="table.png")
    assert str(caught.value) == "'table.png': not a code of a hand-off (a hand-off's codes start 'RSQ1')"
    assert caught.value.message.render("fi").startswith("'table.png': ei luovutuksen koodi")


@given(
    game=st.text(min_size=1, max_size=30),
    deal=st.integers(1, 500),
    player=st.text(min_size=1, max_size=40),
    cards=st.text(max_size=120),
)
def test_a_slip_round_trips_exactly(game: str, deal: int, player: str, cards: str) -> None:
    slip = Slip(game=game, deal=deal, player=player, cards=cards)
    assert Slip.parse(slip.format()) == slip
    assert Slip.parse(slip.format().encode("utf-8")) == slip
    code = segno.make(slip.format(), error="m", micro=False)
    assert code.version <= 25


def test_a_slip_that_is_not_one_is_refused() -> None:
    good = Slip(game="g1", deal=2, player="Dora", cards="AH 2H 3H").format()
    for bad, code in (
        (encode_parts({"facts": []})[0], "handoff.not_a_slip"),
        (good.replace('"deal":2', '"deal":0'), "handoff.damaged"),
        (good.replace('"deal":2', '"deal":true'), "handoff.damaged"),
        (good[:-3], "handoff.damaged"),
        (good.replace("}", ',"extra":1}'), "handoff.damaged"),
    ):
        with pytest.raises(HandoffError) as caught:
            Slip.parse(bad)
        assert caught.value.message.code == code
