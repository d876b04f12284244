"""A hand-off: facts carried from one device to another as a short sequence of QR codes.

A hand-off is a file of facts (:func:`scorer.league.merge.facts_document`: a game's, a
night's or a league's), its JSON compressed with zlib and cut into parts of at most
:data:`PART_BYTES` bytes, each one QR code. Every part opens with a one-line header::

    RSQ1 1f0c9a2e7b44 3/7 9c1d02aa

the format tag and its version (``RSQ1``), the hand-off's id (the first 12 hex digits of the
SHA-256 of the whole compressed payload), the part's place ("3 of 7") and the CRC-32 of the
part's own bytes. So the parts can be read in any order, a repeat is ignored, a part of
another hand-off is told apart by its id, and a damaged one is refused by its checksum (and
the whole by its digest) rather than merged.

The size: :data:`PART_BYTES` is 900 bytes of payload, with the header under 40 more. segno
makes that a version 25 code at error correction M (117 x 117 modules), which zxing-cpp reads
back from a PNG even at 4 pixels a module (measured); a 1,200-byte part needs version 29 (133
modules), denser for a camera to read off another phone's screen. A game is two codes when new
(its ruleset travels with it) and three after thirty deals.

A deal **slip** is one player's hand for one deal, one small code of its own tag::

    RSS1 {"cards":"AH 2H 3H","deal":2,"game":"g1","player":"Dora"}

Pure: no Flet, no store, no image library (the pictures are :mod:`scorer.league.handoff_cli`'s).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from scorer.league.errors import StoreInputError
from scorer.messages import Message

#: The hand-off's format tag and version: the first word of every part.
PART_TAG: Final = "RSQ1"
#: A deal slip's tag.
SLIP_TAG: Final = "RSS1"
#: The most payload bytes in one code (see the module's note on why 900).
PART_BYTES: Final = 900
#: The most codes in one hand-off: 99 parts of 900 bytes is ~89 kB compressed, a whole
#: season; more is a file to share, not codes to show one by one.
MAX_PARTS: Final = 99


class HandoffError(StoreInputError):
    """A part or slip that is not one (damaged, of another format), or parts that do not make
    one hand-off (another hand-off's, some missing)."""


def _digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()[:12]


def _crc(data: bytes) -> str:
    return f"{zlib.crc32(data):08x}"


@dataclass(frozen=True, slots=True)
class Part:
    """One code of a hand-off: ``Part.parse(part.format()) == part``."""

    handoff: str
    index: int  # 1-based: "3 of 7"
    count: int
    data: bytes

    def format(self) -> bytes:
        """The code's bytes: the header line, then the payload."""
        header = f"{PART_TAG} {self.handoff} {self.index}/{self.count} {_crc(self.data)}\n"
        return header.encode("ascii") + self.data

    @classmethod
    def parse(cls, raw: bytes | str, *, source: str = "") -> Part:
        """The part in ``raw`` (a code's bytes); :class:`HandoffError` if it is not one.

        >>> part = encode_parts({"facts": []})[0]
        >>> Part.parse(part).index, Part.parse(part).count
        (1, 1)
        >>> try:
        ...     Part.parse(b"hello")
        ... except HandoffError as exc:
        ...     print(exc)
        'hello': not a code of a hand-off (a hand-off's codes start 'RSQ1')
        """
        data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
        shown = repr(source or data[:24].decode("utf-8", "replace"))
        head, newline, body = data.partition(b"\n")
        words = head.decode("ascii", "replace").split(" ")
        if not newline or words[0] != PART_TAG:
            if words[0].startswith("RSQ") or words[0].startswith("RSS"):
                raise HandoffError(Message("handoff.newer_format", source=shown, tag=repr(words[0])))
            raise HandoffError(Message("handoff.not_a_part", source=shown, tag=repr(PART_TAG)))
        try:
            _, handoff, place, crc = words
            index_text, count_text = place.split("/")
            index, count = int(index_text), int(count_text)
        except ValueError:
            raise HandoffError(Message("handoff.damaged", source=shown, what=repr(head.decode()))) from None
        if not 1 <= index <= count <= MAX_PARTS or len(handoff) != 12 or crc != _crc(body):
            raise HandoffError(Message("handoff.damaged", source=shown, what=f"{index}/{count}"))
        return cls(handoff=handoff, index=index, count=count, data=body)


def encode_parts(document: Mapping[str, Any]) -> list[bytes]:
    """A file of facts as the bytes of its codes, in order (each :data:`PART_BYTES` or less).

    >>> parts = encode_parts({"format": "rummy-league-facts", "facts": ["x" * 5000]})
    >>> len(parts), parts[0][:4]
    (1, b'RSQ1')
    """
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    payload = zlib.compress(text.encode("utf-8"), 9)
    chunks = [payload[i : i + PART_BYTES] for i in range(0, len(payload), PART_BYTES)] or [b""]
    if len(chunks) > MAX_PARTS:
        raise HandoffError(Message("handoff.too_big", count=len(chunks), most=MAX_PARTS))
    handoff = _digest(payload)
    return [
        Part(handoff=handoff, index=i, count=len(chunks), data=chunk).format()
        for i, chunk in enumerate(chunks, start=1)
    ]


class Collector:
    """Parts taken one at a time, in any order, until the hand-off is whole.

    >>> parts = encode_parts({"facts": [1, 2, 3]})
    >>> collector = Collector()
    >>> collector.add(parts[0]), collector.complete, collector.missing
    (True, True, [])
    >>> collector.add(parts[0])  # a repeat: ignored
    False
    >>> collector.document()
    {'facts': [1, 2, 3]}
    """

    def __init__(self) -> None:
        self.handoff: str | None = None
        self.count = 0
        self.parts: dict[int, bytes] = {}
        #: Where the first part came from (a file's name), to name it when another's is refused.
        self.first_source = ""

    def add(self, raw: bytes | str, *, source: str = "") -> bool:
        """Take one part; ``True`` if it was new, ``False`` for a repeat. A part of another
        hand-off, or one that is not a part, raises :class:`HandoffError` and changes nothing."""
        part = Part.parse(raw, source=source)
        if self.handoff is None:
            self.handoff, self.count, self.first_source = part.handoff, part.count, source
        elif part.handoff == self.handoff and part.count != self.count:  # one id, two counts
            raise HandoffError(Message("handoff.damaged", source=repr(source or part.handoff), what="count"))
        elif part.handoff != self.handoff:
            raise HandoffError(
                Message(
                    "handoff.mixed",
                    source=repr(source or f"{part.index}/{part.count}"),
                    other=part.handoff,
                    first=self.handoff,
                )
            )
        if part.index in self.parts:
            return False
        self.parts[part.index] = part.data
        return True

    @property
    def missing(self) -> list[int]:
        """The parts not yet read, by their number (1-based); all of them before the first."""
        return [i for i in range(1, self.count + 1) if i not in self.parts]

    @property
    def complete(self) -> bool:
        return self.handoff is not None and not self.missing

    def progress(self) -> str:
        """``"3 of 7"``: how many parts are read, of how many."""
        return f"{len(self.parts)} of {self.count}"

    def document(self) -> dict[str, Any]:
        """The file of facts the parts make; :class:`HandoffError` if some are missing or the
        whole is not what the id says (a part damaged in a way its checksum missed)."""
        if self.handoff is None:
            raise HandoffError(Message("handoff.no_parts"))
        if self.missing:
            missing = ", ".join(str(i) for i in self.missing)
            raise HandoffError(
                Message("handoff.incomplete", handoff=self.handoff, missing=missing, count=self.count)
            )
        payload = b"".join(self.parts[i] for i in range(1, self.count + 1))
        if _digest(payload) != self.handoff:
            raise HandoffError(Message("handoff.damaged", source=repr(self.handoff), what="digest"))
        try:
            document = json.loads(zlib.decompress(payload).decode("utf-8"))
        except (zlib.error, UnicodeDecodeError, ValueError):
            raise HandoffError(
                Message("handoff.damaged", source=repr(self.handoff), what="payload")
            ) from None
        if not isinstance(document, dict):
            raise HandoffError(Message("handoff.damaged", source=repr(self.handoff), what="payload"))
        return document


# -- a deal slip ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slip:
    """One player's hand for one deal of one game: ``Slip.parse(slip.format()) == slip``.

    >>> slip = Slip(game="g1", deal=2, player="Dora", cards="AH 2H 3H")
    >>> slip.format()
    'RSS1 {"cards":"AH 2H 3H","deal":2,"game":"g1","player":"Dora"}'
    >>> Slip.parse(slip.format()) == slip
    True
    """

    game: str
    deal: int
    player: str
    cards: str

    def format(self) -> str:
        body = {"cards": self.cards, "deal": self.deal, "game": self.game, "player": self.player}
        return f"{SLIP_TAG} " + json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    @classmethod
    def parse(cls, raw: bytes | str, *, source: str = "") -> Slip:
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        shown = repr(source or text[:24])
        tag, _, body = text.partition(" ")
        if tag != SLIP_TAG:
            raise HandoffError(Message("handoff.not_a_slip", source=shown, tag=repr(SLIP_TAG)))
        try:
            data = json.loads(body)
            fields = {
                "game": data["game"],
                "deal": data["deal"],
                "player": data["player"],
                "cards": data["cards"],
            }
        except (ValueError, KeyError, TypeError):
            raise HandoffError(Message("handoff.damaged", source=shown, what="slip")) from None
        deal = fields["deal"]
        if (
            set(data) != set(fields)
            or not isinstance(deal, int)
            or isinstance(deal, bool)
            or deal < 1
            or not all(isinstance(fields[k], str) for k in ("game", "player", "cards"))
        ):
            raise HandoffError(Message("handoff.damaged", source=shown, what="slip"))
        return cls(game=fields["game"], deal=deal, player=fields["player"], cards=fields["cards"])
