"""The event store: every table's record, evidence frames and referee accounts, in SQLite.

One file, WAL mode, so the web server reads while a table node writes, and a process
killed mid-write loses nothing that was committed. Events are stored as the record's own
JSON lines, keyed by (table, seq): appending is idempotent, so a node that resends after a
lost connection duplicates nothing. A global autoincrement id numbers every event in the
store; live pages resume from it (SSE ``Last-Event-ID``).

Schema changes are numbered migrations, applied in order on open.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from werkzeug.security import check_password_hash, generate_password_hash

MIGRATIONS: list[str] = [
    # 1: tables, events, frames, users, tokens, settings
    """
    CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT NOT NULL, profile TEXT NOT NULL, created REAL NOT NULL);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        received REAL NOT NULL,
        UNIQUE (table_id, seq)
    );
    CREATE TABLE frames (table_id TEXT NOT NULL, seq INTEGER NOT NULL, jpeg BLOB NOT NULL,
                         PRIMARY KEY (table_id, seq));
    CREATE TABLE users (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, role TEXT NOT NULL,
                        created REAL NOT NULL);
    CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name),
                         created REAL NOT NULL);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
]


class StoreError(ValueError):
    """A request the store refuses (unknown table, bad user name, …); the message says why."""


@dataclass(frozen=True)
class StoredEvent:
    id: int
    table: str
    seq: int
    body: dict
    received: float


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        with self._tx() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (0)")
            for number, sql in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in filter(str.strip, sql.split(";")):
                    db.execute(statement)
                db.execute("UPDATE schema_version SET version = ?", (number,))

    # --- connections --------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives a killed process; only a power cut may
            # lose the last transactions, never corrupt the file
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def schema_version(self) -> int:
        return self._db().execute("SELECT version FROM schema_version").fetchone()[0]

    # --- tables and events --------------------------------------------------------------

    def add_table(self, table: str, header: dict) -> None:
        """A new table with its record's header as event 0 (idempotent for the same header)."""
        if not table or len(table) > 40 or not table.replace("-", "").replace("_", "").isalnum():
            raise StoreError(f"a table id is 1-40 letters, digits, - or _, got {table!r}")
        name = str(header.get("table") or table)
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO tables VALUES (?, ?, ?, ?)",
                       (table, name, header.get("profile", ""), time.time()))
            self._insert(db, table, header)

    def _insert(self, db: sqlite3.Connection, table: str, body: dict) -> int | None:
        cur = db.execute(
            "INSERT OR IGNORE INTO events (table_id, seq, type, body, received) VALUES (?, ?, ?, ?, ?)",
            (table, body["seq"], body["type"], json.dumps(body, ensure_ascii=False), time.time()))
        return cur.lastrowid if cur.rowcount else None

    def append(self, table: str, bodies: list[dict]) -> list[int | None]:
        """Append events (already checked by the caller); a (table, seq) already stored is
        skipped. Returns each event's global id, ``None`` for a duplicate."""
        with self._tx() as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table,)).fetchone() is None:
                raise StoreError(f"no table {table!r}")
            return [self._insert(db, table, body) for body in bodies]

    def append_many(self, batch: dict[str, list[dict]]) -> dict[str, list[int | None]]:
        """``append`` for several tables (each created already) in one transaction: a hall's
        events come from thousands of tables at once, and one commit per batch rather than
        per table lifts ingest from about 7,000 to 16,000 events/s (benchmarks/hall.py)."""
        with self._tx() as db:
            return {table: [self._insert(db, table, body) for body in bodies] for table, bodies in batch.items()}

    def tables(self) -> list[dict]:
        rows = self._db().execute("SELECT id, name, profile FROM tables ORDER BY created, id").fetchall()
        return [{"id": r[0], "name": r[1], "profile": r[2]} for r in rows]

    def has_table(self, table: str) -> bool:
        return self._db().execute("SELECT 1 FROM tables WHERE id = ?", (table,)).fetchone() is not None

    def events(self, table: str, after_id: int = 0) -> list[StoredEvent]:
        rows = self._db().execute(
            "SELECT id, table_id, seq, body, received FROM events WHERE table_id = ? AND id > ? ORDER BY seq",
            (table, after_id)).fetchall()
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def since(self, after_id: int, limit: int = 5000) -> list[StoredEvent]:
        """Every event stored after global id ``after_id``, oldest first."""
        rows = self._db().execute(
            "SELECT id, table_id, seq, body, received FROM events WHERE id > ? ORDER BY id LIMIT ?",
            (after_id, limit)).fetchall()
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def last_id(self) -> int:
        row = self._db().execute("SELECT MAX(id) FROM events").fetchone()
        return row[0] or 0

    def next_seq(self, table: str) -> int:
        row = self._db().execute("SELECT MAX(seq) FROM events WHERE table_id = ?", (table,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    # --- evidence frames ----------------------------------------------------------------

    def put_frame(self, table: str, seq: int, jpeg: bytes) -> None:
        if not jpeg.startswith(b"\xff\xd8"):
            raise StoreError("an evidence frame must be a JPEG image")
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO frames VALUES (?, ?, ?)", (table, seq, jpeg))

    def frame(self, table: str, seq: int) -> bytes | None:
        row = self._db().execute("SELECT jpeg FROM frames WHERE table_id = ? AND seq = ?", (table, seq)).fetchone()
        return row[0] if row else None

    def frames(self, table: str) -> set[int]:
        return {r[0] for r in self._db().execute("SELECT seq FROM frames WHERE table_id = ?", (table,))}

    # --- referees -----------------------------------------------------------------------

    def add_user(self, name: str, password: str, role: str = "referee") -> None:
        if not name or len(name) > 40 or not name.replace("_", "").replace("-", "").isalnum():
            raise StoreError(f"a user name is 1-40 letters, digits, - or _, got {name!r}")
        if len(password) < 8:
            raise StoreError("a password needs at least 8 characters")
        with self._tx() as db:
            if db.execute("SELECT 1 FROM users WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"user {name!r} exists already")
            db.execute("INSERT INTO users VALUES (?, ?, ?, ?)",
                       (name, generate_password_hash(password), role, time.time()))

    def check_password(self, name: str, password: str) -> bool:
        row = self._db().execute("SELECT password_hash FROM users WHERE name = ?", (name,)).fetchone()
        return bool(row) and check_password_hash(row[0], password)

    def new_token(self, user: str) -> str:
        """A bearer token for the API; only its hash is kept, so show it once."""
        if self._db().execute("SELECT 1 FROM users WHERE name = ?", (user,)).fetchone() is None:
            raise StoreError(f"no user {user!r}")
        token = secrets.token_urlsafe(32)
        with self._tx() as db:
            db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (_token_hash(token), user, time.time()))
        return token

    def user_for_token(self, token: str) -> str | None:
        row = self._db().execute("SELECT user FROM tokens WHERE token_hash = ?", (_token_hash(token),)).fetchone()
        return row[0] if row else None

    def secret_key(self) -> str:
        """The session-signing key: made once per store, never in the repository."""
        with self._tx() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'secret_key'").fetchone()
            if row:
                return row[0]
            key = secrets.token_hex(32)
            db.execute("INSERT INTO settings VALUES ('secret_key', ?)", (key,))
            return key


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
