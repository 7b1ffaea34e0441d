"""A table node's outbox: every event is written here before anything goes on the wire.

The outbox is a SQLite file (WAL), so a node that loses the broker, or is restarted,
still has every event and sends it later, in the order it was written. A row is marked
sent only when the broker acknowledged it (PUBACK); rows stay after that, because the
hall server may ask for a range again (``resend``) when the broker lost what it had
acknowledged. Several nodes (MQTT connections) may share one file: each row names the
node that publishes it.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    node TEXT NOT NULL,
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    queued REAL NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0,
    UNIQUE (table_id, seq)
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (node, id) WHERE sent = 0
"""


@dataclass(frozen=True)
class Row:
    id: int
    table: str
    seq: int
    line: str


class Outbox:
    """One connection behind a lock: writes are short batches, so threads take turns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # a commit survives a killed process; only a power cut may lose the last ones
        self._db.execute("PRAGMA synchronous=NORMAL")
        with self._lock:
            for statement in SCHEMA.split(";"):
                self._db.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, node: str, rows: Iterable[tuple[str, int, str]]) -> None:
        """Write ``(table, seq, line)`` rows in one transaction; a (table, seq) already
        there is kept as it was (a node that replays its record duplicates nothing)."""
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR IGNORE INTO outbox (node, table_id, seq, line, queued) VALUES (?, ?, ?, ?, ?)",
                    [(node, table, seq, line, now) for table, seq, line in rows])
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def unsent(self, node: str, after_id: int, limit: int) -> list[Row]:
        """The node's rows not yet acknowledged, oldest first, after row ``after_id``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, table_id, seq, line FROM outbox WHERE node = ? AND sent = 0 AND id > ? "
                "ORDER BY id LIMIT ?", (node, after_id, limit)).fetchall()
        return [Row(*r) for r in rows]

    def mark_sent(self, keys: list[tuple[str, int]]) -> None:
        """The broker acknowledged these ``(table, seq)``."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("UPDATE outbox SET sent = 1 WHERE table_id = ? AND seq = ?", keys)
            self._db.execute("COMMIT")

    def rewind(self, table: str, from_seq: int) -> int | None:
        """Mark a table's rows from ``from_seq`` on as unsent again; returns the lowest
        row id that changed (where the node must read from), ``None`` if none did."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT MIN(id) FROM outbox WHERE table_id = ? AND seq >= ? AND sent = 1",
                                   (table, from_seq)).fetchone()
            self._db.execute("UPDATE outbox SET sent = 0 WHERE table_id = ? AND seq >= ? AND sent = 1",
                             (table, from_seq))
            self._db.execute("COMMIT")
        return row[0]

    def progress(self, node: str) -> dict[str, tuple[int, int]]:
        """Per table of the node: the last seq written and the last seq acknowledged
        (-1 for none), for the status a node announces when it starts."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id, MAX(seq), MAX(CASE WHEN sent = 1 THEN seq ELSE -1 END) FROM outbox "
                "WHERE node = ? GROUP BY table_id", (node,)).fetchall()
        return {table: (last, acked) for table, last, acked in rows}

    def count_unsent(self, node: str | None = None) -> int:
        with self._lock:
            if node is None:
                return self._db.execute("SELECT COUNT(*) FROM outbox WHERE sent = 0").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM outbox WHERE node = ? AND sent = 0", (node,)).fetchone()[0]
