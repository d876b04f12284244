"""``rummy league qr`` and ``rummy league scan``: a hand-off (:mod:`scorer.league.handoff`)
from the command line, so a laptop or a script can take part.

``qr GAME --out DIR`` writes the game's codes as PNG files, ``DIR/GAMEID-01-of-03.png`` ...
(segno: a quiet zone of 4 modules, 8 pixels a module, about 1,000 pixels for a version 25
code). ``scan --league L FILE...`` reads the codes from pictures
with zxing-cpp (any order, repeats ignored) and, once they make one whole hand-off, merges its
facts as ``rummy league import`` merges a file of facts. A picture with no code, a code of
another hand-off, a damaged code or a set with parts missing is refused in one line and
nothing is merged. docs/cli.md has the ``--json`` of each.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.league.cli_kit import DONE, Result, _common, _say, _store
from scorer.league.errors import StoreInputError
from scorer.league.handoff import Collector, HandoffError, encode_parts
from scorer.messages import Message

#: Pixels a module in the PNG: 8 makes a version 25 code (117 modules + 2 x 4 quiet) 1,000
#: pixels wide, twice what zxing-cpp needs, so it stays sharp when scaled or printed.
SCALE = 8
BORDER = 4


def write_codes(parts: list[bytes], *, out: Path, stem: str) -> list[Path]:
    """Each part as one PNG in ``out`` (made if need be): ``STEM-01-of-03.png`` ...; the paths."""
    import segno

    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for index, part in enumerate(parts, start=1):
        code = segno.make(part, error="m", boost_error=False, micro=False)
        path = out / f"{stem}-{index:02d}-of-{len(parts):02d}.png"
        code.save(str(path), kind="png", scale=SCALE, border=BORDER)
        paths.append(path)
    return paths


def read_codes(path: Path) -> list[bytes]:
    """The bytes of every QR code in the picture at ``path`` (zxing-cpp, Pillow)."""
    try:
        import zxingcpp
        from PIL import Image, UnidentifiedImageError
    except ImportError:  # the browser's build leaves both out: the phone reads with its camera
        raise HandoffError(Message("handoff.no_decoder")) from None
    try:
        with Image.open(path) as picture:
            picture.load()
            found = zxingcpp.read_barcodes(picture)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        from scorer.oserrors import os_reason

        why = os_reason(exc) if isinstance(exc, OSError) and exc.errno else type(exc).__name__
        raise HandoffError(Message("handoff.unreadable", source=repr(str(path)), why=why)) from None
    qr = zxingcpp.BarcodeFormat.QRCode
    return [bytes(code.bytes) for code in found if code.valid and code.format == qr]


def cmd_qr(args: argparse.Namespace) -> Result:
    store = _store(args)
    game = store.find_game(args.game)
    document = store.export_facts(store.game_league(game), game=game)
    parts = encode_parts(document)
    out = Path(args.out)
    try:
        paths = write_codes(parts, out=out, stem=game)
    except OSError as exc:
        from scorer.oserrors import os_reason

        raise StoreInputError(Message("store.out_unwritable", out=f"'{out}'", why=os_reason(exc))) from None
    data = {
        "game": game,
        "facts": len(document["facts"]),
        "codes": len(paths),
        "files": [str(p) for p in paths],
    }
    return data, _say(args, "handoff.written", count=len(paths), game=game, out=str(out)), DONE


def collect(files: list[str]) -> Collector:
    """Every code in ``files`` taken into one :class:`Collector`; :class:`HandoffError` for a
    picture with no code, a code of another hand-off or a damaged one, or a set not whole."""
    collector = Collector()
    for name in files:
        codes = read_codes(Path(name))
        if not codes:
            raise HandoffError(Message("handoff.no_code", source=repr(name)))
        for code in codes:
            collector.add(code, source=name)
    collector.document()  # raises unless whole and as its id says
    return collector


def cmd_scan(args: argparse.Namespace) -> Result:
    from scorer.league.cli import cmd_import_report
    from scorer.league.exchange import ImportBatch

    collector = collect(args.files)
    document = collector.document()
    handoff = str(collector.handoff)
    store = _store(args)
    source = f"hand-off {handoff}"
    report = store.import_batch(args.league, ImportBatch(games=(), facts=((source, document),)))
    data, text, status = cmd_import_report(args, report)
    heading = _say(args, "handoff.scanned", handoff=handoff, count=collector.count)
    return {"handoff": handoff, "codes": collector.count, **data}, f"{heading}\n{text}", status


def register(sub: Any, say: Callable[[str], str]) -> None:
    """Add ``rummy league qr`` and ``rummy league scan`` to ``rummy league``'s subcommands."""
    parser = sub.add_parser("qr", help=say("league.help_qr"))
    _common(parser, say, league=False)
    parser.add_argument("game", metavar="GAME", help=say("league.help_qr_game"))
    parser.add_argument("--out", required=True, metavar="DIR", help=say("league.help_qr_out"))
    parser.set_defaults(run=cmd_qr)

    parser = sub.add_parser("scan", help=say("league.help_scan"))
    _common(parser, say)
    parser.add_argument("files", nargs="+", metavar="FILE", help=say("league.help_scan_files"))
    parser.set_defaults(run=cmd_scan)
