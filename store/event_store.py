"""The event store: every table's record, evidence frames and referee accounts.

A SQLite file by default, or a PostgreSQL database given as ``postgresql://…`` (a hall
whose store lives on a server; ``store.db`` holds what differs). SQLite runs in WAL mode,
so the web server reads while a table node writes; on either engine a commit survives a
process killed mid-write, and an uncommitted write leaves nothing behind. Events are
stored as the record's own JSON lines, keyed by (table, seq): appending is idempotent, so
a node that resends after a lost connection duplicates nothing. A global autoincrement id
numbers every event in the store; live pages resume from it (SSE ``Last-Event-ID``).

Schema changes are numbered migrations, applied in order on open and counted under the
store's own name, so one database holds this store and a tournament's (``store.db``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werkzeug.security import check_password_hash, generate_password_hash

from rulebook.tournament_live import Refusal
from store.db import DATABASE_ERRORS, Connection, Database, OpenError, display

#: the name this store's migrations are counted under (``Database.migrate``)
STORE = "events"
#: migration N (1-based) brings a store from version N-1 to N (tokens: ``store.db``)
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: tables, events, frames, users, tokens, settings
        "CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT NOT NULL, profile TEXT NOT NULL, "
        "created DOUBLE PRECISION NOT NULL)",
        """CREATE TABLE events (
            id {autoid},
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            received DOUBLE PRECISION NOT NULL,
            UNIQUE (table_id, seq))""",
        """CREATE TABLE frames (table_id TEXT NOT NULL, seq INTEGER NOT NULL, jpeg {blob} NOT NULL,
                                PRIMARY KEY (table_id, seq))""",
        """CREATE TABLE users (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, role TEXT NOT NULL,
                               created DOUBLE PRECISION NOT NULL)""",
        # "user" quoted: a reserved word in PostgreSQL
        """CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, "user" TEXT NOT NULL REFERENCES users(name),
                                created DOUBLE PRECISION NOT NULL)""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (  # 2: referee acts sent down from a hall server's console, taken once each
        """CREATE TABLE acts (id TEXT PRIMARY KEY, table_id TEXT NOT NULL, seq INTEGER, error TEXT,
                              taken DOUBLE PRECISION NOT NULL)""",
    ),
    (  # 3: each table's seating as its hall sent it (store.seatings), a row a name, stamped as written
        "CREATE TABLE seatings (name TEXT PRIMARY KEY, body TEXT NOT NULL, stamp BIGINT NOT NULL)",
        "CREATE INDEX seatings_by_stamp ON seatings (stamp)",
    ),
)


class StoreError(Refusal, ValueError):
    """A request the store refuses (unknown table, bad user name, …) or a store that cannot
    be opened (bad URL, server down), named by a code: the words say why in both languages,
    the asker's first (``text(lang)``; ``rulebook.tournament_live.REFUSALS``), since they
    reach a referee at the console or an organiser at a terminal."""


class SeqTaken(StoreError):
    """The table already holds an event under this seq: another writer (a referee at the
    console) took it first. The writer takes in what was written and tries the next seq."""


@dataclass(frozen=True)
class ActTaken:
    """What became of an act sent down from a hall server: stored as event ``seq``, or
    refused with ``error``."""

    table: str
    seq: int | None
    error: str | None


@dataclass(frozen=True)
class StoredEvent:
    id: int
    table: str
    seq: int
    body: dict
    received: float


class Store:
    """The store at ``path``: a SQLite file, or a ``postgresql://`` URL. Safe to share
    between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = Database(path)
            self._db.migrate(STORE, MIGRATIONS)
        except OpenError as exc:
            raise StoreError(exc.code, **exc.values) from None
        except DATABASE_ERRORS as exc:  # not a database, no permission …
            raise StoreError("store_unopenable", name=display(path), why=" ".join(str(exc).split())) from None

    def close(self) -> None:
        self._db.close()

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._db.connection() as db:
            return db.execute(sql, args).fetchall()

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        with self._db.connection() as db:
            return db.execute(sql, args).fetchone()

    def _value(self, sql: str, args: tuple = ()) -> Any:
        """The one value of an aggregate query (``MAX``: None over no rows)."""
        row = self._one(sql, args)
        return None if row is None else row[0]

    def schema_version(self) -> int:
        return self._db.schema_version(STORE)

    # --- tables and events --------------------------------------------------------------

    def add_table(self, table: str, header: dict) -> None:
        """A new table with its record's header as event 0 (idempotent for the same header)."""
        if not table or len(table) > 40 or not table.replace("-", "").replace("_", "").isalnum():
            raise StoreError("table_id", table=table)
        name = str(header.get("table") or table)
        with self._db.transaction() as db:
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                       (table, name, header.get("profile", ""), time.time()))
            self._insert(db, table, header)

    def _insert(self, db: Connection, table: str, body: dict) -> int | None:
        row = db.execute(
            "INSERT INTO events (table_id, seq, type, body, received) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING id",
            (table, body["seq"], body["type"], json.dumps(body, ensure_ascii=False), time.time())).fetchone()
        return row[0] if row else None

    def append(self, table: str, bodies: list[dict]) -> list[int | None]:
        """Append events (already checked by the caller); a (table, seq) already stored is
        skipped. Returns each event's global id, ``None`` for a duplicate."""
        with self._db.transaction() as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table,)).fetchone() is None:
                raise StoreError("unknown_table", table=table)
            return [self._insert(db, table, body) for body in bodies]

    def append_many(self, batch: dict[str, list[dict]]) -> dict[str, list[int | None]]:
        """``append`` for several tables (each created already) in one transaction: a hall's
        events come from thousands of tables at once, and one commit per batch rather than
        per table lifts ingest from about 7,000 to 16,000 events/s (benchmarks/hall.py)."""
        with self._db.transaction() as db:
            return {table: [self._insert(db, table, body) for body in bodies] for table, bodies in batch.items()}

    def tables(self) -> list[dict]:
        rows = self._all("SELECT id, name, profile FROM tables ORDER BY created, id")
        return [{"id": r[0], "name": r[1], "profile": r[2]} for r in rows]

    def has_table(self, table: str) -> bool:
        return self._one("SELECT 1 FROM tables WHERE id = ?", (table,)) is not None

    def events(self, table: str, after_id: int = 0) -> list[StoredEvent]:
        rows = self._all(
            "SELECT id, table_id, seq, body, received FROM events WHERE table_id = ? AND id > ? ORDER BY seq",
            (table, after_id))
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def since(self, after_id: int, limit: int = 5000) -> list[StoredEvent]:
        """Every event stored after global id ``after_id``, oldest first."""
        rows = self._all(
            "SELECT id, table_id, seq, body, received FROM events WHERE id > ? ORDER BY id LIMIT ?",
            (after_id, limit))
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def record_text(self, table: str, last_seq: int) -> str:
        """The table's record up to event ``last_seq``, one JSON line an event as a record
        file holds it, from the rows' own text: a hall's finished match is 1,250 events
        (125 KB), and parsing them to write them out again cost the hall server a third of
        its CPU while results came in at 2,048 tables."""
        rows = self._all("SELECT body FROM events WHERE table_id = ? AND seq <= ? ORDER BY seq", (table, last_seq))
        return "".join(r[0] + "\n" for r in rows)

    def last_id(self) -> int:
        return self._value("SELECT MAX(id) FROM events") or 0

    def body_at(self, table: str, seq: int) -> dict | None:
        """The stored event ``seq`` of ``table`` (None: none stored)."""
        row = self._one("SELECT body FROM events WHERE table_id = ? AND seq = ?", (table, seq))
        return None if row is None else json.loads(row[0])

    def next_seq(self, table: str) -> int:
        last = self._value("SELECT MAX(seq) FROM events WHERE table_id = ?", (table,))
        return 0 if last is None else last + 1

    # --- acts sent down from a hall server ----------------------------------------------

    def act_taken(self, act_id: str) -> ActTaken | None:
        """What became of the act ``act_id`` (None: not taken yet)."""
        row = self._one("SELECT table_id, seq, error FROM acts WHERE id = ?", (act_id,))
        return None if row is None else ActTaken(*row)

    def append_act(self, table: str, body: dict, act_id: str) -> ActTaken:
        """Store the act ``act_id`` as the event ``body`` — the event and the note that the
        act was taken in one transaction, so an act delivered again after a crash is never
        stored twice. Taken already: what became of it then, and ``body`` is not stored.
        Raises ``SeqTaken`` when another writer took the event's seq first."""
        with self._db.transaction() as db:
            row = db.execute("SELECT table_id, seq, error FROM acts WHERE id = ?", (act_id,)).fetchone()
            if row is not None:
                return ActTaken(*row)
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table,)).fetchone() is None:
                raise StoreError("unknown_table", table=table)
            if self._insert(db, table, body) is None:
                raise SeqTaken("seq_taken", table=table, seq=body["seq"])
            db.execute("INSERT INTO acts VALUES (?, ?, ?, NULL, ?)", (act_id, table, body["seq"], time.time()))
        return ActTaken(table, body["seq"], None)

    def refuse_act(self, table: str, act_id: str, error: str) -> ActTaken:
        """Note that the act ``act_id`` was refused (the record would break with it), so
        that it is refused once, for the reason given then. Taken already: what became of it."""
        with self._db.transaction() as db:
            db.execute("INSERT INTO acts VALUES (?, ?, NULL, ?, ?) ON CONFLICT DO NOTHING",
                       (act_id, table, error, time.time()))
            row = db.execute("SELECT table_id, seq, error FROM acts WHERE id = ?", (act_id,)).fetchone()
        return ActTaken(*row)

    # --- evidence frames ----------------------------------------------------------------

    def put_frame(self, table: str, seq: int, jpeg: bytes) -> None:
        if not jpeg.startswith(b"\xff\xd8"):
            raise StoreError("frame_not_jpeg")
        with self._db.transaction() as db:
            db.execute("INSERT INTO frames VALUES (?, ?, ?) "
                       "ON CONFLICT (table_id, seq) DO UPDATE SET jpeg = excluded.jpeg", (table, seq, jpeg))

    def frame(self, table: str, seq: int) -> bytes | None:
        row = self._one("SELECT jpeg FROM frames WHERE table_id = ? AND seq = ?", (table, seq))
        return row[0] if row else None

    def frames(self, table: str) -> set[int]:
        return {r[0] for r in self._all("SELECT seq FROM frames WHERE table_id = ?", (table,))}

    # --- referees -----------------------------------------------------------------------

    def add_user(self, name: str, password: str, role: str = "referee") -> None:
        if not name or len(name) > 40 or not name.replace("_", "").replace("-", "").isalnum():
            raise StoreError("user_name", name=name)
        if len(password) < 8:
            raise StoreError("password_short")
        with self._db.transaction() as db:
            if db.execute("SELECT 1 FROM users WHERE name = ?", (name,)).fetchone():
                raise StoreError("user_exists", name=name)
            db.execute("INSERT INTO users VALUES (?, ?, ?, ?)",
                       (name, generate_password_hash(password), role, time.time()))

    def check_password(self, name: str, password: str) -> bool:
        row = self._one("SELECT password_hash FROM users WHERE name = ?", (name,))
        return row is not None and check_password_hash(row[0], password)

    def new_token(self, user: str) -> str:
        """A bearer token for the API; only its hash is kept, so show it once."""
        if self._one("SELECT 1 FROM users WHERE name = ?", (user,)) is None:
            raise StoreError("unknown_user", name=user)
        token = secrets.token_urlsafe(32)
        with self._db.transaction() as db:
            db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (_token_hash(token), user, time.time()))
        return token

    def user_for_token(self, token: str) -> str | None:
        row = self._one('SELECT "user" FROM tokens WHERE token_hash = ?', (_token_hash(token),))
        return row[0] if row else None

    def setting(self, key: str) -> str | None:
        """A setting of the hall kept in the store (the referees' tables, …); None: not set."""
        row = self._one("SELECT value FROM settings WHERE key = ?", (key,))
        return row[0] if row else None

    def put_setting(self, key: str, value: str) -> None:
        with self._db.transaction() as db:
            db.execute("INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       (key, value))

    def seatings_since(self, stamp: int) -> tuple[int, dict[str, str]]:
        """The seatings' texts written after ``stamp`` ('' where a name has none any more)
        by name, and the stamp to ask after next time (``stamp`` when nothing changed)."""
        rows = self._all("SELECT name, body, stamp FROM seatings WHERE stamp > ?", (stamp,))
        return max((r[2] for r in rows), default=stamp), {r[0]: r[1] for r in rows}

    def put_seatings(self, texts: dict[str, str]) -> None:
        """Keep these seatings' texts ('' for none any more), in one transaction, stamped
        after everything written before: a reader asking after its last stamp sees them
        all or none (``seatings_since``)."""
        with self._db.transaction() as db:
            stamp = (db.execute("SELECT MAX(stamp) FROM seatings").fetchone()[0] or 0) + 1
            db.executemany("INSERT INTO seatings VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
                           "SET body = excluded.body, stamp = excluded.stamp",
                           [(name, text, stamp) for name, text in texts.items()])

    def secret_key(self) -> str:
        """The session-signing key: made once per store, never in the repository."""
        with self._db.transaction() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'secret_key'").fetchone()
            if row:
                return row[0]
            key = secrets.token_hex(32)
            db.execute("INSERT INTO settings VALUES ('secret_key', ?)", (key,))
            return key


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TableFeed:
    """A table's events as they are stored, a batch at a time: each ``new`` returns those
    stored (by any writer) since the last call, in seq order — none while the table does
    not exist yet. Shared by what follows one table's record: the camera runtime taking a
    referee's acts in, the relay sending the record on to a hall."""

    def __init__(self, store: Store, table: str, after_id: int = 0) -> None:
        self.store = store
        self.table = table
        self.seen = after_id  # the store's id of the last event returned

    def new(self) -> list[StoredEvent]:
        stored = self.store.events(self.table, after_id=self.seen)
        if stored:
            self.seen = max(s.id for s in stored)
        return stored
