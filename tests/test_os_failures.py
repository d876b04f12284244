"""What the operating system refuses reaches the user as one line: the path, why, what to do.

The command line runs as an unprivileged user here: the tests run as root, who may write
anywhere, so each command runs as ``nobody`` (``setpriv``) in a folder it can reach. The store
folder holds the log of facts twice (``facts.jsonl``, ``facts-copy.jsonl``), a lock and a
checkpoint: each made unreadable, read-only or a folder in turn. A full disk is a small tmpfs
where the machine lets the test mount one, and ``ENOSPC`` injected at every write and fsync
of a commit (and of a Settings replacement from a backup) in any case: the store then verifies clean and holds
what it held before, and with room again the change is made."""

from __future__ import annotations

import errno
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import fingerprint, league_with_a_game

from scorer.league.checkpoint import CHECKPOINT_NAME
from scorer.league.log import COPY_NAME, LOG_NAME
from scorer.league.store import Store
from scorer.messages import Message, render
from scorer.oserrors import SystemRefusalError, os_failure

GIN_50 = {"target": 50}

SETPRIV = shutil.which("setpriv")
ROOT = os.geteuid() == 0


def _nobody() -> tuple[int, int] | None:
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


NOBODY = _nobody()
#: Running as root, the commands drop to ``nobody``; as anyone else they already are unprivileged.
if ROOT and (SETPRIV is None or NOBODY is None):
    pytestmark = pytest.mark.skip(reason="running as root with no setpriv or no 'nobody' user to drop to")


def _nobody_reaches_the_checkout() -> bool:
    """Whether ``nobody`` can start this checkout's Python with its packages (a checkout in a
    folder only root may enter, such as ``mktemp -d``'s, it cannot)."""
    assert SETPRIV is not None
    probe = [SETPRIV, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    probe += [sys.executable, "-c", "import scorer.cli"]
    return subprocess.run(probe, capture_output=True, timeout=60, check=False).returncode == 0


if ROOT and SETPRIV is not None and NOBODY is not None and not _nobody_reaches_the_checkout():
    pytestmark = pytest.mark.skip(
        reason=f"'nobody' cannot reach this checkout ({Path(__file__).parent.parent}): "
        "clone it into a folder others may enter to run these tests"
    )


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder the unprivileged user can reach (pytest's own tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-os-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:  # give back what the tests took away
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder)


def give_to_user(path: Path) -> None:
    """``path`` and all in it owned by the unprivileged user (nothing to do when not root)."""
    if not ROOT:
        return
    assert NOBODY is not None
    for item in [path, *path.rglob("*")]:
        os.chown(item, *NOBODY, follow_symlinks=False)


def rummy(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``rummy ARGS`` as the unprivileged user, in English."""
    command = [sys.executable, "-m", "scorer.cli", *args]
    if ROOT:
        assert SETPRIV is not None
        command = [SETPRIV, "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
    env = {**os.environ, "HOME": str(home), "RUMMY_LANG": "en"}
    env.pop("RUMMY_DB", None)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)


def said(kind: str) -> str:
    """What the catalog tells the user to do for a failure of ``kind``."""
    return render(Message(f"oserror.todo_{kind}"), "en")


def expect_one_line(result: subprocess.CompletedProcess[str], *, path: Path, kind: str) -> None:
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert f"'{path}'" in lines[0]
    assert said(kind) in lines[0]
    assert result.stdout == ""


def _read_only_folder(store: Path) -> tuple[Path, str]:
    store.chmod(0o555)
    return store, "denied"


def _everything_read_only(store: Path) -> tuple[Path, str]:
    for path in store.rglob("*"):
        path.chmod(0o444 if path.is_file() else 0o555)
    store.chmod(0o555)
    return store / ".lock", "denied"


def _unreadable_log(store: Path) -> tuple[Path, str]:
    (store / LOG_NAME).chmod(0o000)
    return store / LOG_NAME, "denied"


def _unreadable_copy(store: Path) -> tuple[Path, str]:
    (store / COPY_NAME).chmod(0o000)
    return store / COPY_NAME, "denied"


def _read_only_log(store: Path) -> tuple[Path, str]:
    (store / LOG_NAME).chmod(0o444)
    return store / LOG_NAME, "denied"


def _read_only_copy(store: Path) -> tuple[Path, str]:
    (store / COPY_NAME).chmod(0o444)
    return store / COPY_NAME, "denied"


def _unreadable_checkpoint(store: Path) -> tuple[Path, str]:
    Store.open(store)._ledger.save_checkpoint()  # type: ignore[attr-defined]
    checkpoint = store / CHECKPOINT_NAME
    checkpoint.chmod(0o000)
    return checkpoint, "denied"


def _unreadable_folder(store: Path) -> tuple[Path, str]:
    store.chmod(0o000)
    return store / ".lock", "denied"


def _lock_of_someone_else(store: Path) -> tuple[Path, str]:
    if not ROOT:
        pytest.skip("only root can give the lock file to another user")
    lock = store / ".lock"
    os.chown(lock, 0, 0)
    lock.chmod(0o600)
    return lock, "denied"


def _log_replaced_by_folder(store: Path) -> tuple[Path, str]:
    log = store / LOG_NAME
    log.unlink()
    log.mkdir()
    return log, "is_folder"


def _copy_replaced_by_folder(store: Path) -> tuple[Path, str]:
    copy = store / COPY_NAME
    copy.unlink()
    copy.mkdir()
    return copy, "is_folder"


#: Each case, and what ``league list`` and ``league create`` do: refused in one line naming
#: the path (``None``), or done (``"works"``).
HOSTILE: dict[str, tuple[Callable[[Path], tuple[Path, str]], dict[str, str | None]]] = {
    # reading needs no write to the folder, and appending to the log's two files none either
    "a read-only folder": (_read_only_folder, {"list": "works", "create": "works"}),
    "everything read-only": (_everything_read_only, {"list": None, "create": None}),
    "a log the user may not read": (_unreadable_log, {"list": None, "create": None}),
    "a log copy the user may not read": (_unreadable_copy, {"list": None, "create": None}),
    # reading both copies needs no write; the write refused before anything is appended
    "a read-only log": (_read_only_log, {"list": "works", "create": None}),
    "a read-only log copy": (_read_only_copy, {"list": "works", "create": None}),
    # the checkpoint is only a faster start: the log is read instead
    "a checkpoint the user may not read": (_unreadable_checkpoint, {"list": "works", "create": "works"}),
    "the store folder the user may not enter": (_unreadable_folder, {"list": None, "create": None}),
    "a lock file owned by someone else": (_lock_of_someone_else, {"list": None, "create": None}),
    # a folder in place of one copy is that copy damaged: set aside, and made again from the other
    "the log replaced by a folder": (_log_replaced_by_folder, {"list": "works", "create": "works"}),
    "the log copy replaced by a folder": (_copy_replaced_by_folder, {"list": "works", "create": "works"}),
}


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("command", ["list", "create"])
def test_a_store_the_system_refuses_is_one_line_naming_the_path(base: Path, case: str, command: str) -> None:
    location = base / "league"
    league_with_a_game(location)
    give_to_user(base)
    if not ROOT and case != "a lock file owned by someone else" and os.access("/", os.W_OK):
        pytest.skip("this user may write anywhere: permissions cannot refuse it")
    hurt, outcome = HOSTILE[case]
    named, kind = hurt(location)
    before = fingerprint(location) if os.access(location, os.R_OK | os.X_OK) else None
    args = ["league", "list"] if command == "list" else ["league", "create", "Second club"]
    result = rummy(*args, "--db", str(location), home=base)
    if outcome[command] == "works":
        assert result.returncode == 0, result
        assert "Traceback" not in result.stderr
        location.chmod(0o755)
        assert Store.verify(location) == []
        expected = ["Club", "Second club"] if command == "create" else ["Club"]
        assert sorted(league.name for league in Store.open(location).leagues()) == expected
        return
    expect_one_line(result, path=named, kind=kind)
    location.chmod(0o755)
    assert before is None or fingerprint(location) == before  # nothing half-written


def test_a_store_that_cannot_be_made_is_one_line(base: Path) -> None:
    (base / "root-only").mkdir(mode=0o755)
    (base / "a-file").write_text("x")
    give_to_user(base / "a-file")
    result = rummy("league", "create", "Club", "--db", str(base / "root-only" / "new" / "league"), home=base)
    if ROOT:
        expect_one_line(result, path=base / "root-only" / "new", kind="denied")
        assert not (base / "root-only" / "new").exists()
    result = rummy("league", "create", "Club", "--db", str(base / "a-file" / "league"), home=base)
    expect_one_line(result, path=base / "a-file" / "league", kind="not_folder")
    result = rummy("league", "list", "--db", str(base / "a-file"), home=base)
    expect_one_line(result, path=base / "a-file", kind="not_folder")


def test_an_export_into_a_folder_the_user_may_not_write_is_one_line(base: Path) -> None:
    location = base / "league"
    league_with_a_game(location)
    give_to_user(location)
    (base / "theirs").mkdir(mode=0o755)
    if not ROOT and os.access("/", os.W_OK):
        pytest.skip("this user may write anywhere")
    out = base / "theirs" / "club.json"
    args = ["league", "export", "--league", "Club", "--db", str(location), "--out", str(out)]
    result = rummy(*args, home=base)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and f"'{out}'" in result.stderr
    assert said("denied") in result.stderr
    assert list((base / "theirs").iterdir()) == []


def test_a_game_file_the_user_may_not_read_is_one_line(base: Path) -> None:
    game = base / "game.json"
    game.write_text("{}")
    game.chmod(0o600)  # root's alone
    if not ROOT:
        game.chmod(0o000)
    result = rummy("score", str(game), home=base)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and f"'{game}'" in result.stderr
    assert said("denied") in result.stderr


# -- a full disk ----------------------------------------------------------------------


def state(location: Path) -> Any:
    """What the store holds, as a reader sees it: leagues, players and every game's totals."""
    store = Store.open(location)
    return (
        sorted(league.name for league in store.leagues()),
        sorted(player.name for player in store.players()),
        sorted((g.id, tuple(sorted(store.game(g.id).result.totals.items()))) for g in store.games()),
    )


def _disk_full_at(call: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``os.write`` and file ``os.fsync`` from the ``call``-th on fails as a full disk does
    (a folder's fsync writes no data: a full disk lets it through)."""
    real_write, real_fsync = os.write, os.fsync
    count = 0

    def full() -> None:
        nonlocal count
        count += 1
        if count >= call:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def write(fd: int, data: Any) -> int:
        full()
        return real_write(fd, data)

    def fsync(fd: Any) -> None:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            full()
        real_fsync(fd)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "fsync", fsync)


def test_a_full_disk_at_any_write_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    """ENOSPC at each write and fsync of a transaction in turn: refused in one message, and the
    store verifies clean and holds what it held before; with room again, the change is made."""
    location = tmp_path / "league"
    store = league_with_a_game(location)
    game = store.start_game(ruleset="gin", players=["Anna", "Cleo"], options=GIN_50, league="Club")
    before = state(location)
    deal = {"knocker": "Cleo", "deadwood": {"Cleo": 0, "Anna": 30}}
    refusals = 0
    for call in range(1, 100):
        with pytest.MonkeyPatch.context() as patch:
            _disk_full_at(call, patch)
            try:
                Store.open(location).add_deal(game.id, deal)
            except SystemRefusalError as exc:
                refusals += 1
                assert exc.message.code == "oserror.failed"
                assert said("full") in str(exc)
            else:
                break
        assert Store.verify(location) == []
        assert state(location) == before, f"refused at write {call}, but the store changed"
        assert not list(location.rglob(".*.tmp"))
    assert refusals >= 4  # the log's write and fsync, then its copy's
    assert state(location) != before
    assert Store.verify(location) == []


@pytest.fixture
def small_disk(base: Path) -> Iterator[Path]:
    """A 512 kB tmpfs, where the machine lets the test mount one."""
    mount = base / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a small file system here ({done.stderr.decode().strip()}); "
            "test_a_full_disk_at_any_write_leaves_the_store_whole injects ENOSPC instead"
        )
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 1024)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_is_one_line_and_nothing_is_half_written(small_disk: Path) -> None:
    """An append fits in the room the log's last page has left, so a full disk refuses only a
    commit that needs a new page: commits are made until one is refused, each that returned
    is kept, the refused one leaves every file as it was, and the command line says it in one
    line."""
    location = small_disk / "league"
    store = league_with_a_game(location)
    filler = fill(small_disk)
    made = ["Club"]
    for number in range(1, 200):
        files = fingerprint(location)
        try:
            store.create_league(f"Club {number}")
        except SystemRefusalError as exc:
            assert said("full") in str(exc) and "\n" not in str(exc)
            break
        made.append(f"Club {number}")
    else:
        pytest.fail("the disk never filled")
    assert fingerprint(location) == files  # the refused commit: nothing of it kept
    assert sorted(lg.name for lg in Store.open(location).leagues()) == sorted(made)
    give_to_user(location)
    result = rummy("league", "create", "Second club", "--db", str(location), home=small_disk)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result
    assert len(result.stderr.splitlines()) == 1 and said("full") in result.stderr
    assert fingerprint(location) == files
    filler.unlink()
    assert Store.verify(location) == []
    assert sorted(lg.name for lg in Store.open(location).leagues()) == sorted(made)
    store.create_league("Second club")  # with room again, the change is made
    assert Store.verify(location) == []


def test_every_failure_the_system_reports_names_the_path_in_both_languages() -> None:
    for number, kind in [
        (errno.EACCES, "denied"),
        (errno.EROFS, "read_only"),
        (errno.ENOSPC, "full"),
        (errno.EISDIR, "is_folder"),
        (errno.ENOTDIR, "not_folder"),
        (errno.ENOENT, "missing"),
    ]:
        message = os_failure(OSError(number, os.strerror(number), "/x/league/index.json"))
        for language in ("en", "fi"):
            text = render(message, language)
            assert "'/x/league/index.json'" in text
            assert render(Message(f"oserror.todo_{kind}"), language) in text
            assert os.strerror(number) not in text  # the catalog's words, not the system's
    odd = os_failure(OSError(errno.EXDEV, os.strerror(errno.EXDEV)), path="/x")
    assert "'/x'" in str(odd) and os.strerror(errno.EXDEV) in str(odd)


def test_a_path_with_control_characters_is_shown_escaped(base: Path) -> None:
    hostile = base / "a\x1b[31mred\u202eevil\u200b"
    hostile.write_text("x")
    result = rummy("league", "list", "--db", str(hostile), home=base)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr and "\u200b" not in result.stderr
    assert "\\x1b[31mred\\u202eevil\\u200b" in result.stderr


# -- a closed pipe --------------------------------------------------------------------


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    """``rummy rulesets --options rommi --json | head -c 100``, with the reader gone first."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "scorer.cli", "rulesets", "--options", "rommi", "--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.stderr == b""
    assert result.returncode == 141  # as a shell reports a tool that the closed pipe stopped


def test_head_reads_the_start_and_nothing_else_is_said() -> None:
    shell = (
        f"'{sys.executable}' -m scorer.cli rulesets --options rommi --json | head -c 100 >/dev/null;"
        " echo ${PIPESTATUS[0]}"
    )
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60, check=False)
    assert result.stderr == ""
    assert result.stdout.strip() in ("0", "141")


# -- the app ----------------------------------------------------------------------------


def test_the_deal_entry_says_a_full_disk_in_one_line_and_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.cards import parse_cards
    from scorer.ui.screens.deal_model import DealModel

    location = tmp_path / "league"
    store = Store.open(location)
    game_id = store.start_game(ruleset="gin", players=["Anna", "Bea"]).id
    model = DealModel.load(store, game_id, None)
    model.set_knocker("Anna")
    hands = {"Anna": "7H 8H 9H 4C 4D 4S 2S 3S AS 5C", "Bea": "TH JH QH KC KD KS 5D 6D 7D AC"}
    for player, cards in hands.items():
        for card in parse_cards(cards):
            model.tap(player, card)
    before = fingerprint(location)
    _disk_full_at(1, monkeypatch)
    assert not model.save(store)
    monkeypatch.undo()
    shown = " ".join(model.errors.values())
    assert said("full") in shown and "\n" not in shown
    assert fingerprint(location) == before
    assert Store.open(location).game(game_id).document.get("deals", []) == []


def test_the_settings_replacement_from_a_backup_says_a_full_disk_in_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.ui.screens.exchange_model import BackupModel

    location = tmp_path / "league"
    store = league_with_a_game(location)
    model = BackupModel.load(store)
    backup = model.backup_now()
    assert backup is not None
    store.create_league("Later")
    before = fingerprint(location)
    for call in range(1, 100):  # the disk fills at each write of the replacement in turn
        _disk_full_at(call, monkeypatch)
        written = model.replace_from_backup(str(backup))
        monkeypatch.undo()
        if written is not None:
            break
        assert said("full") in model.error and "\n" not in model.error
        assert fingerprint(location) == before, f"refused at write {call}, but the store changed"
        assert Store.verify(location) == []
    assert call > 4  # each copy's write and fsync were each refused once
    assert [league.name for league in Store.open(location).leagues()] == ["Club"]
    assert Store.verify(location) == []
