"""A real PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``postgres``
on a free loopback port (its unix socket in that folder too), a fresh database per test.

PostgreSQL refuses to run as root, and the tests often do (CI, containers): then the
server runs as an unprivileged user — ``postgres`` when the Debian package made it,
else ``nobody``, else one made here — and the folder, outside pytest's root-only
temporary tree, belongs to that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

MISSING = ("the PostgreSQL server (initdb, postgres) is not installed; "
           "scripts/system-packages.sh installs the Debian package postgresql")
SERVICE_USER = "guandan-pg"


def bin_dir() -> Path | None:
    """The newest installed server's binaries (Debian keeps them off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("postgres", path=str(Path(initdb).parent)):
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> pwd.struct_passwd | None:
    """Whom to run the server as: ``None`` (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody", SERVICE_USER):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
                   check=True)
    return pwd.getpwnam(SERVICE_USER)


class Postgres:
    """One server for the test session. ``start``, then ``new_database`` per test, ``stop``."""

    def __init__(self, binaries: Path) -> None:
        self.bin = binaries
        self.user = _server_user()
        # /tmp when the server runs as another user: it must reach the folder, and TMPDIR may not let it
        self.folder = Path(tempfile.mkdtemp(prefix="guandan-pg-", dir="/tmp" if self.user else None))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.process: subprocess.Popen | None = None

    def _run_as(self) -> dict:
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def start(self) -> Postgres:
        if self.user is not None:
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"}
        done = subprocess.run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                               "--encoding=UTF8", "--no-instructions"], cwd=self.folder, env=env,
                              capture_output=True, text=True, **self._run_as())
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stdout}{done.stderr}")
        with open(self.folder / "postgres.log", "w") as log:  # the server keeps its own copy of the handle
            self.process = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.folder),
                 "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300",
                 # the tests kill clients, not the server: its own crash safety is not under test
                 "-c", "fsync=off"],
                cwd=self.folder, env=env, stdout=log, stderr=subprocess.STDOUT, **self._run_as())
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return self
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("postgres did not start: " + self.log()) from None
                time.sleep(0.1)

    def log(self) -> str:
        path = self.folder / "postgres.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: clients are disconnected
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)
