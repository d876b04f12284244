"""A temporary PostgreSQL cluster for the tests: Debian's ``postgresql``, run as an unprivileged user.

:class:`Cluster` runs ``initdb`` and ``pg_ctl`` from ``/usr/lib/postgresql/*/bin`` (or
``$RUMMY_PG_BIN``) into a folder of its own, listening only on a unix socket in that folder,
with durability turned off for the tests (``fsync=off``: a test cluster lost in a crash is
remade) and on for the benchmark. As root
it runs the server as ``nobody`` (PostgreSQL refuses to run as root); otherwise as the user
running the tests. :meth:`Cluster.database` makes a fresh empty database for one test
(``CREATE DATABASE ... TEMPLATE template0``, a tenth of a second).

When no PostgreSQL is installed, :func:`missing` says why; ``make test`` installs it
(``make postgres``), and in CI a missing PostgreSQL fails the tests that need one.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorer.league.store import Store

#: The superuser the cluster is made with (no password: the socket is the cluster's own).
SUPERUSER = "rummy"
START_TIMEOUT = 60


def bin_dir() -> Path | None:
    """The newest PostgreSQL's programs: ``$RUMMY_PG_BIN``, else ``/usr/lib/postgresql/N/bin``."""
    given = os.environ.get("RUMMY_PG_BIN")
    if given:
        return Path(given)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def missing() -> str | None:
    """Why the PostgreSQL tests cannot run here, or ``None`` when they can."""
    programs = bin_dir()
    if programs is None or not (programs / "initdb").is_file():
        return "PostgreSQL is not installed: 'make postgres' (or apt-get install -y postgresql) installs it"
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg is not installed: pip install -e '.[test,web,server]'"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "running as root, and no setpriv to run PostgreSQL as 'nobody'"
    return None


class Cluster:
    """One PostgreSQL server in a temporary folder, stopped by :meth:`stop`."""

    def __init__(self, *, durable: bool = False) -> None:
        """``durable``: commits synced to disk as on a real server (the benchmark's), else
        not (the tests')."""
        programs = bin_dir()
        assert programs is not None
        self.programs = programs
        # in /tmp: a unix socket's path is short, and nobody may enter it
        self.root = Path(tempfile.mkdtemp(prefix="rummy-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.data = self.root / "data"
        self.socket = self.root / "socket"
        self.log = self.root / "server.log"
        self._as: list[str] = []
        os.chmod(self.root, 0o755)
        self.data.mkdir()
        self.socket.mkdir()
        if os.geteuid() == 0:  # the server runs as nobody: its folders are nobody's
            import grp
            import pwd

            nobody = pwd.getpwnam("nobody")
            group = grp.getgrgid(nobody.pw_gid).gr_name
            for path in (self.data, self.socket):
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
            self._as = ["setpriv", "--reuid=nobody", f"--regid={group}", "--clear-groups"]
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        options = f"-k {self.socket} -c listen_addresses= -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._options = options
        self.start()

    def start(self) -> None:
        """Start the server (again, after :meth:`halt`)."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.socket / "server.log"), "-w",
                  "-t", str(START_TIMEOUT), "-o", self._options, "start")  # fmt: skip
        self.running = True

    def halt(self) -> None:
        """Stop the server as a crash or a power cut would (``immediate``), its data kept."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        self.running = False

    def _run(self, program: str, *arguments: str) -> None:
        command = [*self._as, str(self.programs / program), *arguments]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.root, check=False)
        if done.returncode != 0:
            log = self.socket / "server.log"
            said = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr or done.stdout}\n{said}")

    def address(self, database: str = "postgres") -> str:
        """The libpq address of ``database`` on this cluster (its unix socket)."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket}"

    def database(self) -> str:
        """A new empty database's address."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.address(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
        return self.address(name)

    def let_go(self, address: str) -> None:
        """End every session of the database of ``address`` (the stores a test left open);
        the database itself goes with the cluster (dropping it costs a checkpoint)."""
        import psycopg

        name = address.rsplit("/", 1)[1].split("?", 1)[0]
        with psycopg.connect(self.address(), autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            if self.running:
                self.halt()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def sql(address: str, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """``statement`` run on the database ``address`` in a connection of its own (committed):
    its rows, if it returns any."""
    import psycopg

    with psycopg.connect(address) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


@contextmanager
def opened(address: str) -> Iterator[Store]:
    """The store on the database ``address``, closed after (a process that opens it and ends)."""
    from scorer.league.store import Store

    store = Store.open(address)
    try:
        yield store
    finally:
        store.close()
