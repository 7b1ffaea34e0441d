"""A follower of the tournament's live stream, as the page's script follows it: what
arrived and when, and which tables' results the standings it was pushed count.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time


class Follower(threading.Thread):
    """One viewer of ``/api/tournaments/1/stream?QUERY``, as the page's script follows it:
    every message's arrival time, name and id; the data kept only where ``keep``."""

    def __init__(self, port: int, query: str, keep: bool) -> None:
        super().__init__(name=f"follower-{query}", daemon=True)
        self.port = port
        self.query = query
        self.keep = keep
        self.got: list[tuple[float, str, str | None, str | None]] = []  # (arrived, event, id, data)
        self._sock = socket.create_connection(("127.0.0.1", port), timeout=30)

    def run(self) -> None:
        self._sock.sendall(f"GET /api/tournaments/1/stream?{self.query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Accept: text/event-stream\r\n\r\n".encode())
        self._sock.settimeout(None)
        reader = self._sock.makefile("rb")
        with contextlib.suppress(OSError, ValueError):
            while reader.readline().strip():  # the response's head
                pass
            event, ident, data = "message", None, None
            for line in reader:
                if line == b"\n":
                    self.got.append((time.monotonic(), event, ident, data if self.keep else None))
                    event, ident, data = "message", None, None
                elif line.startswith(b"event: "):
                    event = line[7:].decode().strip()
                elif line.startswith(b"id: "):
                    ident = line[4:].decode().strip()
                elif line.startswith(b"data: "):
                    data = line[6:].decode()

    def pushes(self, kind: str) -> list[tuple[float, str | None, str | None]]:
        return [(at, ident, data) for at, event, ident, data in list(self.got) if event == kind]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


def counted_in_standings(data: str, tables: dict[int, tuple[str, str]]) -> set[str]:
    """The tables whose result the standings count: both its pairs have played."""
    played = {row["pair"] for row in json.loads(data)["rows"] if row["played"]}
    return {str(n) for n, (ns, ew) in tables.items() if ns in played and ew in played}


def first_seen(pushes: list[tuple[float, set[str]]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for at, tables in pushes:
        for t in tables:
            out.setdefault(t, at)
    return out
