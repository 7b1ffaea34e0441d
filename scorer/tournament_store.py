"""A tournament in one SQLite file: the pairs, every round's draw and every result entered.

Like a match record, the store keeps facts and the engine derives the rest
(``engine.tournament.Tournament``): standings are never stored, so they cannot drift.

Durability
    - WAL journal: readers (a standings page) never block the scorer's writes.
    - ``synchronous=FULL``: each commit is fsynced before it returns. Results are typed
      by a referee one at a time, so the cost (one fsync, milliseconds) is invisible, and
      a result the referee saw accepted survives even a power cut; ``NORMAL`` would only
      survive the process dying.
    - Every write is one transaction (``BEGIN IMMEDIATE``): a whole round's draw goes in
      together with its ``rounds`` row or not at all, so a process killed mid-draw leaves
      no half-written round; the round's primary key means two processes cannot both
      draw it.
    - Corrections are new rows: a result is never updated or deleted; the latest row for
      a (round, table) counts, and the earlier ones stay as the audit trail (who entered
      what, when).

Schema changes are numbered migrations applied on open; ``schema_version`` holds the
number applied, so an old file is brought up to date the first time a newer scorer
opens it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.profile import Profile
from engine.tournament import Outcome, Pair, Table, Tournament

#: migration N (1-based) brings a file from version N-1 to N
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tournament (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            format TEXT NOT NULL CHECK (format IN ('swiss', 'roundrobin', 'knockout')),
            rounds INTEGER NOT NULL CHECK (rounds >= 1),
            profile TEXT NOT NULL,
            seed INTEGER NOT NULL,
            created_at TEXT NOT NULL)""",
        """CREATE TABLE pairs (
            position INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            players TEXT NOT NULL,
            grp INTEGER)""",
        """CREATE TABLE rounds (
            round INTEGER PRIMARY KEY,
            drawn_at TEXT NOT NULL)""",
        """CREATE TABLE draws (
            round INTEGER NOT NULL REFERENCES rounds (round),
            line INTEGER NOT NULL,
            tbl INTEGER,
            ns TEXT NOT NULL REFERENCES pairs (id),
            ew TEXT REFERENCES pairs (id),
            grp INTEGER,
            PRIMARY KEY (round, line),
            UNIQUE (round, tbl))""",
        """CREATE TABLE results (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round INTEGER NOT NULL,
            tbl INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            entered_by TEXT NOT NULL DEFAULT 'cli',
            entered_at TEXT NOT NULL,
            FOREIGN KEY (round, tbl) REFERENCES draws (round, tbl))""",
        "CREATE INDEX results_by_table ON results (round, tbl, id)",
    ),
)


class StoreError(Exception):
    """The file is missing, is not a tournament, or refuses a write; one line for the user."""


@dataclass(frozen=True)
class Entry:
    """One result row as entered: corrections are later entries for the same table."""

    id: int
    round: int
    table: int
    outcome: Outcome
    entered_by: str
    entered_at: str


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TournamentStore:
    """One open tournament file. Use as a context manager, or call ``close``."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._depth = 0

    @classmethod
    def open(cls, path: str | Path, create: bool = False) -> TournamentStore:
        """Open an existing file (``create=False``) or make a new one (``create=True``,
        refused if the file exists, so ``new`` never overwrites an event)."""
        path = Path(path)
        if create and path.exists():
            raise StoreError(f"{path}: already exists (a new tournament needs a new --db file)")
        if not create and not path.is_file():
            raise StoreError(f"{path}: no such tournament file (create one with `guandan tournament new`)")
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        store = cls(path, conn)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            store._migrate()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{path}: not a tournament file ({exc})") from None
        except StoreError:
            conn.close()
            raise
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, mode: str = "IMMEDIATE") -> Iterator[None]:
        """One transaction; nested uses join the outer one. A write (``IMMEDIATE``) takes
        the write lock first, so what is read inside it (to check a draw) is still true
        when it commits; a read (``DEFERRED``) sees one snapshot and blocks no writer."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._conn.execute(f"BEGIN {mode}")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        else:
            self._conn.execute("COMMIT")
        finally:
            self._depth = 0

    def _migrate(self) -> None:
        with self.transaction():
            self._conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._conn.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(f"{self.path}: written by a newer scorer (schema {version})")
            for statements in MIGRATIONS[version:]:
                for sql in statements:
                    self._conn.execute(sql)
            if row is None:
                self._conn.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS),))
            else:
                self._conn.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))

    @property
    def schema_version(self) -> int:
        return self._conn.execute("SELECT version FROM schema_version").fetchone()[0]

    # --- writes --------------------------------------------------------------------------

    def save_tournament(self, t: Tournament, profile_ref: str) -> None:
        """Store a new tournament: its settings and pairs (in seeding order, with groups).
        ``profile_ref`` is the profile name or file as the organiser gave it."""
        with self.transaction():
            self._conn.execute(
                "INSERT INTO tournament (id, name, format, rounds, profile, seed, created_at) "
                "VALUES (1, ?, ?, ?, ?, ?, ?)", (t.name, t.format, t.rounds, profile_ref, t.seed, _now()))
            self._conn.executemany(
                "INSERT INTO pairs (position, id, name, players, grp) VALUES (?, ?, ?, ?, ?)",
                [(i, p.id, p.name, json.dumps(list(p.players), ensure_ascii=False), p.group)
                 for i, p in enumerate(t.pairs)])

    def add_draw(self, round_no: int, tables: list[Table]) -> None:
        """A round's whole draw, byes included, in one transaction."""
        with self.transaction():
            try:
                self._conn.execute("INSERT INTO rounds (round, drawn_at) VALUES (?, ?)", (round_no, _now()))
            except sqlite3.IntegrityError:
                raise StoreError(f"round {round_no} is already drawn") from None
            self._conn.executemany(
                "INSERT INTO draws (round, line, tbl, ns, ew, grp) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_no, i, t.table, t.ns, t.ew, t.group) for i, t in enumerate(tables)])

    def add_result(self, round_no: int, table_no: int, outcome: Outcome, entered_by: str = "cli") -> int:
        """Append a result (a first entry or a correction); returns its row id."""
        with self.transaction():
            cur = self._conn.execute(
                "INSERT INTO results (round, tbl, outcome, entered_by, entered_at) VALUES (?, ?, ?, ?, ?)",
                (round_no, table_no, json.dumps(outcome.to_json(), ensure_ascii=False), entered_by, _now()))
            return cur.lastrowid

    # --- reads ---------------------------------------------------------------------------

    def load(self, load_profile: Callable[[str], Profile]) -> Tournament:
        """Rebuild the tournament: settings, pairs, draws, and the latest result per table."""
        with self.transaction("DEFERRED"):
            s = self._settings()
            pairs = [Pair(pid, name, tuple(json.loads(players)), grp) for pid, name, players, grp in
                     self._conn.execute("SELECT id, name, players, grp FROM pairs ORDER BY position")]
            draws: dict[int, list[Table]] = {}
            for round_no, tbl, ns, ew, grp in self._conn.execute(
                    "SELECT round, tbl, ns, ew, grp FROM draws ORDER BY round, line"):
                draws.setdefault(round_no, []).append(Table(tbl, ns, ew, grp))
            results = {(e.round, e.table): e.outcome for e in self.entries()}  # later rows win
        return Tournament(s["name"], s["format"], s["rounds"], load_profile(s["profile"]), s["seed"],
                          pairs, draws, results)

    def entries(self, round_no: int | None = None, table_no: int | None = None) -> list[Entry]:
        """Result rows in the order entered, optionally for one round or table: the audit trail."""
        sql = "SELECT id, round, tbl, outcome, entered_by, entered_at FROM results"
        where, args = [], []
        if round_no is not None:
            where.append("round = ?")
            args.append(round_no)
        if table_no is not None:
            where.append("tbl = ?")
            args.append(table_no)
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._conn.execute(sql + " ORDER BY id", args)
        return [Entry(i, r, t, Outcome.from_json(json.loads(o)), by, at) for i, r, t, o, by, at in rows]

    def _settings(self) -> dict:
        row = self._conn.execute("SELECT name, format, rounds, profile, seed FROM tournament").fetchone()
        if row is None:
            raise StoreError(f"{self.path}: holds no tournament")
        return dict(zip(("name", "format", "rounds", "profile", "seed"), row, strict=True))
