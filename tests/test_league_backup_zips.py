"""Backup zips are outside input: a hostile or damaged one is refused whole, before a byte is written.

A backup is the store's log, ``facts.jsonl``; one of the earlier layout (``index.json`` and
``games/``) still replaces the store, converted. Names other than the store's own files, links, sizes
absurd for a store (from the headers, and while reading when the headers lie), zip bombs, a
log that is not whole (a damaged, missing or foreign line, a fact this version cannot read or
apply) and earlier documents of the wrong shape are each refused with the reason; random and
mutated zips of both layouts are refused whole or put in place whole.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import stat
import struct
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import fingerprint, league_with_a_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.league.backup import MAX_BACKUP_BYTES, MAX_FILE_BYTES, MAX_FILES, read_backup
from scorer.league.errors import StoreInputError
from scorer.league.log import COPY_NAME, LOG_NAME, encode
from scorer.league.store import Store

#: A store folder of the earlier layout, as the code before the log of facts wrote it.
EARLIER = Path(__file__).parent / "data" / "earlier-layout"


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return league_with_a_game(tmp_path / "league")


@pytest.fixture()
def backup_files(store: Store, tmp_path: Path) -> dict[str, bytes]:
    """The files of a real backup of the store, by name (the log alone)."""
    path = store.backup(tmp_path / "backups")
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def earlier_files_of(folder: Path) -> dict[str, bytes]:
    """The files of a backup the earlier layout's Settings wrote: its documents, by name."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


@pytest.fixture()
def earlier_files() -> dict[str, bytes]:
    return earlier_files_of(EARLIER)


def zipped(tmp_path: Path, files: dict[str, bytes], *, name: str = "hostile.zip") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry, data in files.items():
            archive.writestr(entry, data)
    return path


def refused_whole(store: Store, path: Path, match: str) -> StoreInputError:
    """Replacing the store from ``path`` is refused with ``match`` in its message, and nothing was written."""
    assert store.location is not None
    before = fingerprint(store.location)
    with pytest.raises(StoreInputError, match=match) as refused:
        store.replace_from_backup(path)
    assert fingerprint(store.location) == before
    assert "\n" not in str(refused.value)
    return refused.value


def test_a_real_backup_replaces_the_store_whole(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    assert list(backup_files) == [LOG_NAME]
    path = zipped(tmp_path, backup_files)
    store.create_league("Later")
    assert store.replace_from_backup(path) == 1
    assert store.location is not None and Store.verify(store.location) == []
    assert (store.location / LOG_NAME).read_bytes() == backup_files[LOG_NAME]
    assert (store.location / COPY_NAME).read_bytes() == backup_files[LOG_NAME]
    assert [lg.name for lg in Store.open(store.location).leagues()] == ["Club"]


def test_a_real_backup_of_the_earlier_layout_replaces_the_store_whole(
    store: Store, tmp_path: Path, earlier_files: dict[str, bytes]
) -> None:
    path = zipped(tmp_path, earlier_files)
    assert store.replace_from_backup(path) == 1
    assert store.location is not None and Store.verify(store.location) == []
    reopened = Store.open(store.location)
    assert sorted(p.name for p in reopened.players()) == ["Anna", "Bea", "Cleo"]
    assert len(reopened.games()) == 2


# -- names ----------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "..\\index.json",
    "..\\facts.jsonl",
    "games\\ab\\index.json",
    "../index.json",
    "../facts.jsonl",
    "/index.json",
    "/facts.jsonl",
    "/etc/passwd",
    "games/ab/../../index.json",
    "games/../facts.jsonl",
    "./index.json",
    "./facts.jsonl",
    "notes.json",
    "index.json.1",
    "journal.jsonl",
    "facts-copy.jsonl",  # made again from the log: never in a backup
    "checkpoint.json",
    ".lock",
    "facts.jsonl.damaged",
    "facts.jsonl.replaced",
    "FACTS.JSONL",
    "earlier-layout-20260101-000000/index.json",
    "games/index.json",
    "games/abc/index.json",
    "games/AB/index.json",
    "games/ab/cd.json",  # a game id that is not in its shard folder
    "games/ab/ab12/x.json",
    "C:/index.json",
    "C:\\facts.jsonl",
    "games/ab/ab1\x00.json",
    "games/ab/ab 1.json",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_outside_the_stores_layout_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], name: str
) -> None:
    path = zipped(tmp_path, {**backup_files, name: backup_files[LOG_NAME]})
    refused_whole(store, path, "no file of a league store")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_outside_the_earlier_layout_is_refused(
    store: Store, tmp_path: Path, earlier_files: dict[str, bytes], name: str
) -> None:
    path = zipped(tmp_path, {**earlier_files, name: earlier_files["index.json"]})
    refused_whole(store, path, "no file of a league store")


def test_the_log_beside_the_earlier_layout_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], earlier_files: dict[str, bytes]
) -> None:
    """A zip of both layouts is no backup either has written: which would be the truth?"""
    refused_whole(store, zipped(tmp_path, {**earlier_files, **backup_files}), "not a backup of a league")
    game = next(n for n in earlier_files if n.startswith("games/") and not n.endswith("/index.json"))
    path = zipped(tmp_path, {**backup_files, game: earlier_files[game]})
    refused_whole(store, path, "not a backup of a league")


@pytest.mark.parametrize("layout", ["log", "earlier"])
def test_a_link_is_refused(
    store: Store,
    tmp_path: Path,
    backup_files: dict[str, bytes],
    earlier_files: dict[str, bytes],
    layout: str,
) -> None:
    files, target = (backup_files, LOG_NAME) if layout == "log" else (earlier_files, "index.json")
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for entry, data in files.items():
            if entry != target:
                archive.writestr(entry, data)
        link = zipfile.ZipInfo(target)
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    refused_whole(store, path, f"'{target}' is a link")


def test_an_encrypted_entry_is_refused(store: Store, tmp_path: Path, backup_files: dict[str, bytes]) -> None:
    path = zipped(tmp_path, backup_files)
    raw = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general purpose bit 0
        at = raw.find(signature)
        struct.pack_into("<H", raw, at + offset, struct.unpack_from("<H", raw, at + offset)[0] | 0x1)
    path.write_bytes(bytes(raw))
    refused_whole(store, path, "encrypted")


@pytest.mark.parametrize("layout", ["log", "earlier"])
def test_a_name_twice_is_refused(
    store: Store,
    tmp_path: Path,
    backup_files: dict[str, bytes],
    earlier_files: dict[str, bytes],
    layout: str,
) -> None:
    files, target = (backup_files, LOG_NAME) if layout == "log" else (earlier_files, "index.json")
    path = tmp_path / "twice.zip"
    with zipfile.ZipFile(path, "w") as archive, pytest.warns(UserWarning, match="Duplicate name"):
        for entry, data in files.items():
            archive.writestr(entry, data)
        archive.writestr(target, files[target])
    refused_whole(store, path, f"'{target}' twice")


def test_folder_entries_of_the_earlier_layout_are_allowed(
    store: Store, tmp_path: Path, earlier_files: dict[str, bytes]
) -> None:
    shard = next(name for name in earlier_files if name.endswith("/index.json")).removesuffix("index.json")
    path = zipped(tmp_path, {"games/": b"", shard: b"", **earlier_files})
    assert store.replace_from_backup(path) == 1
    assert store.location is not None and Store.verify(store.location) == []


def test_a_folder_entry_outside_the_layout_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    refused_whole(store, zipped(tmp_path, {"../": b"", **backup_files}), "no file of a league store")
    refused_whole(store, zipped(tmp_path, {"facts.jsonl/": b"", **backup_files}), "no file of a league store")


# -- sizes -----------------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_within_a_second(store: Store, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(LOG_NAME, b"\0" * (MAX_FILE_BYTES + 1))
    assert bomb.stat().st_size < 100_000
    started = time.monotonic()
    refused_whole(store, bomb, "bigger than any league file could be")
    assert time.monotonic() - started < 1.0


def test_a_game_file_bomb_of_the_earlier_layout_is_refused(
    store: Store, tmp_path: Path, earlier_files: dict[str, bytes]
) -> None:
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for entry, data in earlier_files.items():
            archive.writestr(entry, data)
        archive.writestr("games/00/00bomb.json", b"\0" * (MAX_FILE_BYTES + 1))
    started = time.monotonic()
    refused_whole(store, bomb, "bigger than any league file could be")
    assert time.monotonic() - started < 1.0


def test_a_file_that_expands_too_much_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], earlier_files: dict[str, bytes]
) -> None:
    padded = backup_files[LOG_NAME] + b" " * 2_000_000
    refused_whole(store, zipped(tmp_path, {LOG_NAME: padded}), "expands more than 100 times")
    packed = json.dumps({"meta": {"1": {"schema": 2, "kind": "game"}}, "pad": {"1": {"x": " " * 2_000_000}}})
    path = zipped(tmp_path, {**earlier_files, "games/00/00pad.json": packed.encode()})
    refused_whole(store, path, "expands more than 100 times")


def test_a_backup_too_big_in_all_is_refused_from_its_headers(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    path = tmp_path / "big.zip"
    each = MAX_FILE_BYTES - 1
    count = MAX_BACKUP_BYTES // each + 1
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for entry, data in backup_files.items():
            archive.writestr(entry, data)
        # Headers only: entries that claim their sizes without the bytes (a lie read never gets to).
        for n in range(count):
            info = zipfile.ZipInfo(f"games/0{n % 10}/0{n % 10}big{n}.json")
            archive.writestr(info, b"{}")
            info.file_size = each
            info.compress_size = each
    started = time.monotonic()
    refused_whole(store, path, "holds more than")
    assert time.monotonic() - started < 1.0


def test_too_many_files_are_refused(store: Store, tmp_path: Path, backup_files: dict[str, bytes]) -> None:
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for entry, data in backup_files.items():
            archive.writestr(entry, data)
        for n in range(MAX_FILES):
            archive.writestr(f"games/00/00f{n}.json", b"")
    refused_whole(store, path, f"a league backup holds at most {MAX_FILES:,}")


def _lie_about_size(path: Path, entry: str, size: int) -> None:
    """Rewrite the zip's headers so that ``entry`` claims ``size`` bytes unpacked."""
    raw = bytearray(path.read_bytes())
    name = entry.encode()
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.find(signature)
        while at != -1:
            header = 30 if signature == b"PK\x03\x04" else 46
            length = struct.unpack_from("<H", raw, at + header - (4 if header == 30 else 18))[0]
            if raw[at + header : at + header + length] == name:
                struct.pack_into("<I", raw, at + offset, size)
            at = raw.find(signature, at + 4)
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize("entry", [LOG_NAME, "games/00/00liar.json"])
def test_headers_that_lie_are_caught_while_reading(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], earlier_files: dict[str, bytes], entry: str
) -> None:
    path = tmp_path / "liar.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        if entry == LOG_NAME:
            archive.writestr(LOG_NAME, backup_files[LOG_NAME] + b"0123456789" * 200_000)
        else:
            for name, data in earlier_files.items():
                archive.writestr(name, data)
            big = {"meta": {"1": {"schema": 2, "kind": "game"}}, "x": {"1": {"y": "0123456789" * 200_000}}}
            archive.writestr(entry, json.dumps(big))
    _lie_about_size(path, entry, 100)
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo(entry).file_size == 100  # the lie is in place
    started = time.monotonic()
    refused_whole(store, path, f"'{entry}'")
    assert time.monotonic() - started < 1.0


# -- a log that is not whole -------------------------------------------------------------------


def _lines(log: bytes) -> list[bytes]:
    return log.splitlines(keepends=True)


def _body(line: bytes) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(line.rpartition(b"\t")[0])
    return body


def _resigned(body: dict[str, Any]) -> bytes:
    """A line holding ``body`` with a right checksum: whole as a line, wrong only inside."""
    line, _ = encode(body)
    return line


def _a_fact_changed(log: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    lines = _lines(log)
    body = _body(lines[-1])
    change(body["facts"][-1] if body["facts"][-1]["kind"] == "game.started" else body["facts"][0])
    return b"".join([*lines[:-1], _resigned(body)])


def _flip(log: bytes, line: int) -> bytes:
    lines = _lines(log)
    data = bytearray(lines[line])
    data[len(data) // 2] ^= 0x04
    lines[line] = bytes(data)
    return b"".join(lines)


def _head_changed(log: bytes, **fields: Any) -> bytes:
    lines = _lines(log)
    return b"".join([_resigned({**_body(lines[0]), **fields}), *lines[1:]])


def _foreign_line(log: bytes) -> bytes:
    """The log with a last line of another store's log (a line whole, but following nothing here)."""
    other = Path(tempfile.mkdtemp(prefix="rummy-other-"))
    try:
        league_with_a_game(other / "league")
        theirs = _lines((other / "league" / LOG_NAME).read_bytes())
    finally:
        shutil.rmtree(other)
    return log + theirs[-1]


LOGS_NOT_WHOLE: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "an empty log": (lambda log: b"", "its first line, which names the store, is damaged"),
    "a damaged first line": (lambda log: _flip(log, 0), "its first line, which names the store, is damaged"),
    "a first line naming no store": (
        lambda log: _head_changed(log, store=7),
        "its first line, which names the store, is damaged",
    ),
    "a newer store": (lambda log: _head_changed(log, v=99), "written by a newer Rummy Scorer"),
    "a damaged commit": (lambda log: _flip(log, 2), "line 3: the line is damaged"),
    "a last line cut short": (lambda log: log[:-7], r"line 4: the line is damaged"),
    "a last line without its newline": (lambda log: log[:-1], r"line 4: the line is damaged"),
    "a commit missing": (lambda log: b"".join(_lines(log)[:2] + _lines(log)[3:]), "line 3"),
    "two commits swapped": (
        lambda log: b"".join(_lines(log)[:2] + _lines(log)[3:4] + _lines(log)[2:3]),
        "line 3",
    ),
    "a commit twice": (lambda log: log + _lines(log)[-1], "line 5"),
    "another store's line": (_foreign_line, "line 5"),
    "text after the last line": (lambda log: log + b"garbage", "line 5"),
    "a fact of an unknown kind": (
        lambda log: _a_fact_changed(log, lambda f: f.update(kind="game.stolen")),
        "an unknown kind of fact 'game.stolen'",
    ),
    "a fact without its id": (
        lambda log: _a_fact_changed(log, lambda f: f.pop("id")),
        "a deal.recorded fact without its id",
    ),
    "a fact with a wrong field": (
        lambda log: _a_fact_changed(log, lambda f: f.update(number="two")),
        "a deal.recorded fact with a wrong or missing field number",
    ),
    "a fact with an unknown field": (
        lambda log: _a_fact_changed(log, lambda f: f.update(admin=True)),
        "a deal.recorded fact with a wrong or missing field admin",
    ),
    "a fact that is not an object": (
        lambda log: b"".join([*_lines(log)[:-1], _resigned({**_body(_lines(log)[-1]), "facts": [7]})]),
        "not a fact",
    ),
    "a commit without facts": (
        lambda log: b"".join([*_lines(log)[:-1], _resigned({**_body(_lines(log)[-1]), "facts": {}})]),
        "not a fact",
    ),
    "a game whose ruleset does not load": (
        lambda log: _a_fact_changed(  # the log up to the game's start, its ruleset broken
            b"".join(_lines(log)[:3]), lambda f: f.update(ruleset={"id": "gin", "decks": "many"})
        ),
        "no longer scores",
    ),
    "a deal that does not score": (
        lambda log: _a_fact_changed(log, lambda f: f.update(deal={"knocker": "Zed"})),
        "no longer scores",
    ),
    "a deal of a game never started": (
        lambda log: _a_fact_changed(log, lambda f: f.update(game="no-such-game")),
        "no-such-game",
    ),
}


@pytest.mark.parametrize("case", list(LOGS_NOT_WHOLE))
def test_a_log_that_is_not_whole_refuses_the_whole_backup(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], case: str
) -> None:
    assert len(_lines(backup_files[LOG_NAME])) == 4  # the store's name, a league, a game, a deal
    change, reason = LOGS_NOT_WHOLE[case]
    refused = refused_whole(store, zipped(tmp_path, {LOG_NAME: change(backup_files[LOG_NAME])}), reason)
    assert "'facts.jsonl'" in str(refused)


# -- documents of the earlier layout of the wrong shape ------------------------------------------


def _edit(files: dict[str, bytes], name: str, change: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    data = json.loads(files[name])
    change(data)
    return {**files, name: json.dumps(data).encode()}


def _game_name(files: dict[str, bytes]) -> str:
    return next(n for n in sorted(files) if n.startswith("games/") and not n.endswith("/index.json"))


def _shard_name(files: dict[str, bytes]) -> str:
    return next(n for n in sorted(files) if n.endswith("/index.json"))


def _first(table: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = next(iter(table.values()))
    return row


WRONG_SHAPES: dict[str, tuple[Callable[[dict[str, bytes]], dict[str, bytes]], str]] = {
    "a player without a name": (
        lambda f: _edit(f, "index.json", lambda d: _first(d["players"]).pop("name")),
        "'index.json': a player record, missing field 'name'",
    ),
    "a league name that is a number": (
        lambda f: _edit(f, "index.json", lambda d: _first(d["leagues"]).update(name=7)),
        "'index.json': a league record, name: 7 is not text",
    ),
    "an unknown field": (
        lambda f: _edit(f, "index.json", lambda d: _first(d["players"]).update(admin=True)),
        "'index.json': a player record, unknown field 'admin'",
    ),
    "an unknown table": (
        lambda f: _edit(f, "index.json", lambda d: d.update(secrets={"1": {}})),
        "an unknown table 'secrets'",
    ),
    "a newer store": (
        lambda f: _edit(f, "index.json", lambda d: d["meta"]["1"].update(schema=99)),
        "written by a newer Rummy Scorer",
    ),
    "a meta record of another kind": (
        lambda f: _edit(f, "index.json", lambda d: d["meta"]["1"].update(kind="game")),
        "meta record",
    ),
    "a record that is a list": (
        lambda f: _edit(f, "index.json", lambda d: d["players"].update({"9": [1, 2]})),
        "not a table of fields",
    ),
    "a game file holding another game": (
        lambda f: _edit(f, _game_name(f), lambda d: _first(d["game"]).update(id="other")),
        "does not hold the one game its name says",
    ),
    "a game file holding two games": (
        lambda f: _edit(f, _game_name(f), lambda d: d["game"].update({"2": _first(d["game"])})),
        "does not hold the one game its name says",
    ),
    "a game without players": (
        lambda f: _edit(f, _game_name(f), lambda d: _first(d["game"]).pop("players")),
        "a game record, missing field 'players'",
    ),
    "a shard entry with a bad revision": (
        lambda f: _edit(f, _shard_name(f), lambda d: _first(d["games"]).update(rev="two")),
        "a game list entry record, rev: 'two' is not a whole number",
    ),
    "a game whose ruleset does not load": (
        lambda f: _edit(f, _game_name(f), lambda d: _first(d["game"])["snapshot"].update(decks="many")),
        "no longer scores",
    ),
    "a deal that does not score": (
        lambda f: _edit(
            f, _game_name(f), lambda d: _first(d["game"])["document"]["deals"][0].update(knocker="Zed")
        ),
        "no longer scores",
    ),
    "a list instead of a document": (lambda f: {**f, "index.json": b"[]"}, "not a table of records"),
    "not JSON": (lambda f: {**f, "index.json": b"{nope}"}, "not JSON"),
    "not text": (lambda f: {**f, "index.json": b'{"players": "\xff"}'}, "not text"),
    "cut off": (lambda f: {**f, "index.json": f["index.json"][:-40]}, "the file ends too soon"),
}


@pytest.mark.parametrize("case", list(WRONG_SHAPES))
def test_a_document_of_the_wrong_shape_refuses_the_whole_backup(
    store: Store, tmp_path: Path, earlier_files: dict[str, bytes], case: str
) -> None:
    change, reason = WRONG_SHAPES[case]
    refused_whole(store, zipped(tmp_path, change(earlier_files)), reason)


def test_a_file_that_is_no_zip_is_refused(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "not.zip"
    path.write_bytes(b"PK\x03\x04 but not a zip at all")
    refused_whole(store, path, "not a zip file")


def test_an_empty_zip_is_refused(store: Store, tmp_path: Path) -> None:
    refused_whole(store, zipped(tmp_path, {}), "not a backup of a league")


# -- random and hostile zips: refused whole or put in place whole ----------------------------------


@pytest.fixture(scope="module")
def pristine() -> Iterator[tuple[Path, dict[str, dict[str, bytes]]]]:
    """A store and the files of its backup and of an earlier-layout backup, made once; each
    example works on a copy."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-zips-"))
    store = league_with_a_game(folder / "league")
    game = store.start_game(ruleset="rommi", players=["Anna", "Bea", "Cleo"], league="Club")
    store.add_deal(game.id, {"hands": {"Anna": "", "Bea": "KS AH *", "Cleo": "2C 3C"}, "out": "Anna"})
    path = store.backup(folder / "backups")
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    yield folder / "league", {"log": files, "earlier": earlier_files_of(EARLIER)}
    shutil.rmtree(folder)


def _mutate(files: dict[str, bytes], seed: int, steps: int) -> dict[str, bytes]:
    rng = random.Random(seed)
    files = dict(files)
    for _ in range(steps):
        name = rng.choice(sorted(files))
        data = bytearray(files[name])
        action = rng.randrange(8)
        if action == 0 and data:  # flip a byte
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            files[name] = bytes(data)
        elif action == 1:  # drop a file
            del files[name]
            if not files:
                files[rng.choice([LOG_NAME, "index.json"])] = b"{}"
        elif action == 2:  # cut a file short
            files[name] = bytes(data[: rng.randrange(len(data) + 1)])
        elif action == 3:  # a file under another name
            other = ["../x.json", "games/zz/zz9.json", "index.json", "games\\x.json", "a/b.json", LOG_NAME]
            files[rng.choice(other)] = bytes(data)
        elif action == 4:  # a value changed in a document
            try:
                document = json.loads(data)
                table = rng.choice(sorted(document))
                row = rng.choice(sorted(document[table]))
                field = rng.choice(sorted(document[table][row]))
                document[table][row][field] = rng.choice([None, 0, "", [], {}, "x" * 10, True])
                files[name] = json.dumps(document).encode()
            except (ValueError, IndexError, TypeError, KeyError, AttributeError):
                pass
        elif action == 5:  # a line of the log dropped, doubled or moved
            lines = bytes(data).splitlines(keepends=True)
            if lines:
                at = rng.randrange(len(lines))
                line = lines.pop(at)
                how = rng.randrange(3)
                if how:
                    lines.insert(rng.randrange(len(lines) + 1), line)
                if how == 2:
                    lines.insert(rng.randrange(len(lines) + 1), line)
                files[name] = b"".join(lines)
        elif action == 6:  # a value changed inside a commit, its checksum made right again
            lines = bytes(data).splitlines(keepends=True)
            if lines:
                at = rng.randrange(len(lines))
                try:
                    body = _body(lines[at])
                    key = rng.choice(sorted(body))
                    body[key] = rng.choice([None, 0, "", [], {}, "x" * 10, True, [{"kind": "x"}]])
                    lines[at] = _resigned(body)
                    files[name] = b"".join(lines)
                except (ValueError, IndexError, TypeError, KeyError, AttributeError):
                    pass
        # action 7: the file as it was
    return files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    layout=st.sampled_from(["log", "earlier"]),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 4),
    garbage=st.binary(max_size=200),
)
def test_random_and_hostile_zips_are_refused_whole_or_put_in_place_whole(
    pristine: tuple[Path, dict[str, dict[str, bytes]]], layout: str, seed: int, steps: int, garbage: bytes
) -> None:
    source, layouts = pristine
    with tempfile.TemporaryDirectory() as work:
        location = Path(work) / "league"
        shutil.copytree(source, location)
        store = Store.open(location)
        before = fingerprint(location)
        path = Path(work) / "backup.zip"
        if steps == 0 and garbage:
            path.write_bytes(garbage)  # not a zip, or a broken one
        else:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                for name, data in _mutate(layouts[layout], seed, steps).items():
                    archive.writestr(name, data)
            path.write_bytes(buffer.getvalue())
        try:
            read = read_backup(path)
        except StoreInputError as refused:
            assert "\n" not in str(refused)
            with pytest.raises(StoreInputError):
                store.replace_from_backup(path)
            assert fingerprint(location) == before  # refused whole: nothing written
            return
        store.replace_from_backup(path)  # put in place whole
        if LOG_NAME in read:  # both copies of the log as the zip has it
            assert (location / LOG_NAME).read_bytes() == read[LOG_NAME]
            assert (location / COPY_NAME).read_bytes() == read[LOG_NAME]
        assert Store.verify(location) == []
        reopened = Store.open(location)  # and it opens, every game read back
        for info in reopened.games(deleted=True):
            reopened.game(info.id)


def test_a_folder_or_a_pipe_in_place_of_the_zip_is_refused_at_once(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "folder.zip"
    folder.mkdir()
    refused_whole(store, folder, "a folder stands where a file should be")
    pipe = tmp_path / "pipe.zip"
    os.mkfifo(pipe)
    started = time.monotonic()
    refused_whole(store, pipe, "not a regular file")
    assert time.monotonic() - started < 1.0


def test_a_hostile_entry_name_is_shown_escaped(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    path = zipped(tmp_path, {**backup_files, "\x1b[2J\u202eevil.json": b"{}"})
    refused = refused_whole(store, path, "no file of a league store")
    assert "\x1b" not in str(refused) and "\u202e" not in str(refused)
    assert "\\x1b[2J\\u202eevil.json" in str(refused)
