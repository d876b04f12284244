"""Backup zips are outside input: a hostile or damaged one is refused whole, before a byte is written.

Names other than the store's own layout, links, sizes absurd for a store (from the headers, and
while reading when the headers lie), zip bombs and documents of the wrong shape are each
refused with the reason; random and mutated zips are refused whole or restored whole.
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
from scorer.league.snapshot import MAX_BACKUP_BYTES, MAX_FILE_BYTES, MAX_FILES, read_backup

from scorer.league.errors import StoreInputError
from scorer.league.store import Store


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return league_with_a_game(tmp_path / "league")


@pytest.fixture()
def backup_files(store: Store, tmp_path: Path) -> dict[str, bytes]:
    """The files of a real backup of the store, by name."""
    path = store.backup(tmp_path / "backups")
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zipped(tmp_path: Path, files: dict[str, bytes], *, name: str = "hostile.zip") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry, data in files.items():
            archive.writestr(entry, data)
    return path


def refused_whole(store: Store, path: Path, match: str) -> StoreInputError:
    """The restore of ``path`` is refused with ``match`` in its message, and nothing was written."""
    assert store.location is not None
    before = fingerprint(store.location)
    with pytest.raises(StoreInputError, match=match) as refused:
        store.restore_backup(path)
    assert fingerprint(store.location) == before
    assert "\n" not in str(refused.value)
    return refused.value


def test_a_real_backup_is_restored_whole(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    path = zipped(tmp_path, backup_files)
    assert store.restore_backup(path) == len(backup_files)
    assert store.location is not None and Store.verify(store.location) == []


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "..\\index.json",
        "games\\ab\\index.json",
        "../index.json",
        "/index.json",
        "/etc/passwd",
        "games/ab/../../index.json",
        "./index.json",
        "notes.json",
        "index.json.1",
        "journal.jsonl",
        "games/index.json",
        "games/abc/index.json",
        "games/AB/index.json",
        "games/ab/cd.json",  # a game id that is not in its shard folder
        "games/ab/ab12/x.json",
        "C:/index.json",
        "games/ab/ab1\x00.json",
        "games/ab/ab 1.json",
    ],
)
def test_a_name_outside_the_stores_layout_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], name: str
) -> None:
    path = zipped(tmp_path, {**backup_files, name: backup_files["index.json"]})
    refused_whole(store, path, "no file of a league store")


def test_a_link_is_refused(store: Store, tmp_path: Path, backup_files: dict[str, bytes]) -> None:
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for entry, data in backup_files.items():
            if entry != "index.json":
                archive.writestr(entry, data)
        link = zipfile.ZipInfo("index.json")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    refused_whole(store, path, "'index.json' is a link")


def test_a_name_twice_is_refused(store: Store, tmp_path: Path, backup_files: dict[str, bytes]) -> None:
    path = tmp_path / "twice.zip"
    with zipfile.ZipFile(path, "w") as archive, pytest.warns(UserWarning, match="Duplicate name"):
        for entry, data in backup_files.items():
            archive.writestr(entry, data)
        archive.writestr("index.json", backup_files["index.json"])
    refused_whole(store, path, "'index.json' twice")


def test_folder_entries_of_the_layout_are_allowed(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    shard = next(name for name in backup_files if name.endswith("/index.json")).removesuffix("index.json")
    path = zipped(tmp_path, {"games/": b"", shard: b"", **backup_files})
    assert store.restore_backup(path) == len(backup_files)


# -- sizes -----------------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_within_a_second(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    bomb = tmp_path / "bomb.zip"
    zeros = b"\0" * (MAX_FILE_BYTES + 1)
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for entry, data in backup_files.items():
            archive.writestr(entry, data)
        archive.writestr("games/00/00bomb.json", zeros)
    assert bomb.stat().st_size < 100_000
    started = time.monotonic()
    refused_whole(store, bomb, "bigger than any league file could be")
    assert time.monotonic() - started < 1.0


def test_a_file_that_expands_too_much_is_refused(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    packed = json.dumps({"meta": {"1": {"schema": 2, "kind": "game"}}, "pad": {"1": {"x": " " * 2_000_000}}})
    path = zipped(tmp_path, {**backup_files, "games/00/00pad.json": packed.encode()})
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


def test_headers_that_lie_are_caught_while_reading(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes]
) -> None:
    big = json.dumps(
        {"meta": {"1": {"schema": 2, "kind": "game"}}, "x": {"1": {"y": "0123456789" * 200_000}}}
    )
    path = tmp_path / "liar.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for entry, data in backup_files.items():
            archive.writestr(entry, data)
        archive.writestr("games/00/00liar.json", big)
    _lie_about_size(path, "games/00/00liar.json", 100)
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo("games/00/00liar.json").file_size == 100  # the lie is in place
    started = time.monotonic()
    refused_whole(store, path, "'games/00/00liar.json'")
    assert time.monotonic() - started < 1.0


# -- documents of the wrong shape -----------------------------------------------------------------


def _edit(files: dict[str, bytes], name: str, change: Callable[[dict[str, Any]], None]) -> dict[str, bytes]:
    data = json.loads(files[name])
    change(data)
    return {**files, name: json.dumps(data).encode()}


def _game_name(files: dict[str, bytes]) -> str:
    return next(n for n in files if n.startswith("games/") and not n.endswith("/index.json"))


def _shard_name(files: dict[str, bytes]) -> str:
    return next(n for n in files if n.endswith("/index.json"))


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
    "a list instead of a document": (lambda f: {**f, "index.json": b"[]"}, "not a table of records"),
    "not JSON": (lambda f: {**f, "index.json": b"{nope}"}, "not JSON"),
    "not text": (lambda f: {**f, "index.json": b'{"players": "\xff"}'}, "not text"),
}


@pytest.mark.parametrize("case", list(WRONG_SHAPES))
def test_a_document_of_the_wrong_shape_refuses_the_whole_backup(
    store: Store, tmp_path: Path, backup_files: dict[str, bytes], case: str
) -> None:
    change, reason = WRONG_SHAPES[case]
    refused_whole(store, zipped(tmp_path, change(backup_files)), reason)


def test_a_file_that_is_no_zip_is_refused(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "not.zip"
    path.write_bytes(b"PK\x03\x04 but not a zip at all")
    refused_whole(store, path, "not a zip file")


# -- random and hostile zips: refused whole or restored whole --------------------------------------


@pytest.fixture(scope="module")
def pristine() -> Iterator[tuple[Path, dict[str, bytes]]]:
    """A store and its backup's files, made once; each example works on a copy."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-zips-"))
    store = league_with_a_game(folder / "league")
    path = store.backup(folder / "backups")
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    yield folder / "league", files
    shutil.rmtree(folder)


def _mutate(files: dict[str, bytes], seed: int, steps: int) -> dict[str, bytes]:
    rng = random.Random(seed)
    files = dict(files)
    for _ in range(steps):
        name = rng.choice(sorted(files))
        data = bytearray(files[name])
        action = rng.randrange(6)
        if action == 0 and data:  # flip a byte
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            files[name] = bytes(data)
        elif action == 1:  # drop a file
            del files[name]
            if not files:
                files["index.json"] = b"{}"
        elif action == 2:  # cut a file short
            files[name] = bytes(data[: rng.randrange(len(data) + 1)])
        elif action == 3:  # a file under another name
            files[
                rng.choice(["../x.json", "games/zz/zz9.json", "index.json", "games\\x.json", "a/b.json"])
            ] = bytes(data)
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
        # action 5: the file as it was
    return files


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 4), garbage=st.binary(max_size=200))
def test_random_and_hostile_zips_are_refused_whole_or_restored_whole(
    pristine: tuple[Path, dict[str, bytes]], seed: int, steps: int, garbage: bytes
) -> None:
    source, files = pristine
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
                for name, data in _mutate(files, seed, steps).items():
                    archive.writestr(name, data)
            path.write_bytes(buffer.getvalue())
        try:
            read = read_backup(path)
        except StoreInputError as refused:
            assert "\n" not in str(refused)
            with pytest.raises(StoreInputError):
                store.restore_backup(path)
            assert fingerprint(location) == before  # refused whole: nothing written
            return
        store.restore_backup(path)  # restored whole: every file as the zip has it
        for name, data in read.items():
            assert (location / name).read_bytes() == data


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
