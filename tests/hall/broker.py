"""A real Mosquitto for the hall tests and the hall benchmark, and a cable that can be cut.

``Mosquitto`` runs the broker as a subprocess on a loopback port from a generated config,
with persistence in a folder of its own, so a test can kill it and start it again on the
same port with the same state. ``Cable`` is a TCP relay between one node and the broker:
cutting it drops the node's connection and refuses new ones for a while, as a pulled
network cable would.
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.ports import free_port


def mosquitto_binary() -> str | None:
    """Debian installs it in /usr/sbin, which is not on every user's PATH."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


needs_mosquitto = pytest.mark.skipif(mosquitto_binary() is None,
                                     reason="needs mosquitto (scripts/system-packages.sh installs it)")


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Mosquitto:
    """A broker configured as docs/hall.md recommends for a hall."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            f"user {getpass.getuser()}\n"  # started as root it would drop to 'mosquitto' and lose its files
            "allow_anonymous true\n"
            "persistence true\n"
            f"persistence_location {self.folder}/\n"
            "autosave_interval 30\n"
            "max_inflight_messages 1000\n"
            "max_queued_messages 1000000\n"
            "set_tcp_nodelay true\n"
            f"log_dest file {self.folder}/mosquitto.log\n")
        self.process: subprocess.Popen | None = None

    def start(self) -> Mosquitto:
        binary = mosquitto_binary()
        if binary is None:
            raise RuntimeError("mosquitto is not installed (scripts/system-packages.sh installs it)")
        self.process = subprocess.Popen([binary, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        wait_port(self.port)
        return self

    def kill(self) -> None:
        """Die at once, without saving: what was queued since the last autosave is lost."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        """A clean shutdown: the broker saves its state first."""
        self._end(signal.SIGTERM)

    def _end(self, sig: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.process = None


class Cable:
    """A relay 127.0.0.1:port → the broker that can be cut for a while."""

    def __init__(self, broker_port: int) -> None:
        self.broker_port = broker_port
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self._cut_until = 0.0
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, seconds: float) -> None:
        with self._lock:
            self._cut_until = time.monotonic() + seconds
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if time.monotonic() < self._cut_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.broker_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(src, dst), daemon=True).start()

    def close(self) -> None:
        self._server.close()
        self.cut(0)


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
