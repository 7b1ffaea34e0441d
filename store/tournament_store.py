"""A tournament in one SQLite file (or a PostgreSQL database given by URL): the pairs,
every round's draw and every result entered.

Like a match record, the store keeps facts and the engine derives the rest
(``engine.tournament.Tournament``): standings are never stored, so they cannot drift.

Durability (SQLite; on PostgreSQL the server's commit gives the same)
    - WAL journal: readers (a standings page) never block the scorer's writes.
    - ``synchronous=FULL``: each commit is fsynced before it returns. Results are typed
      by a referee one at a time, so the cost (one fsync, milliseconds) is invisible, and
      a result the referee saw accepted survives even a power cut; ``NORMAL`` would only
      survive the process dying.
    - Every write is one transaction that takes the write lock first (``BEGIN IMMEDIATE``;
      an advisory lock on PostgreSQL, ``store.db``): a whole round's draw goes in
      together with its ``rounds`` row or not at all, so a process killed mid-draw leaves
      no half-written round; the round's primary key means two processes cannot both
      draw it.
    - Corrections are new rows: a result is never updated or deleted; the latest row for
      a (round, table) counts, and the earlier ones stay as the audit trail (who entered
      what, when).
    - A result that comes with evidence (the table's game record, kept with it) is
      provisional until a referee confirms it; the confirmation is a row of its own. A
      result typed by a referee is final as entered.

Schema changes are numbered migrations applied on open, counted under the store's own
name (``store.db``), so an old file is brought up to date the first time a newer scorer
opens it, and the database can be the event store's too (``guandan serve`` and
``guandan tournament`` on one ``guandan.db``). One database holds one tournament.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.profile import Profile
from engine.tournament import Outcome, Pair, Table, Tournament
from rulebook.tournament_live import Refusal
from store.db import DATABASE_ERRORS, INTEGRITY_ERRORS, Database, OpenError, display, is_url

#: the name this store's migrations are counted under (``Database.migrate``)
STORE = "tournament"
#: migration N (1-based) brings a file from version N-1 to N (tokens: ``store.db``)
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tournament (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            format TEXT NOT NULL CHECK (format IN ('swiss', 'roundrobin', 'knockout')),
            rounds INTEGER NOT NULL CHECK (rounds >= 1),
            profile TEXT NOT NULL,
            seed BIGINT NOT NULL,
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
            id {autoid},
            round INTEGER NOT NULL,
            tbl INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            entered_by TEXT NOT NULL DEFAULT 'cli',
            entered_at TEXT NOT NULL,
            FOREIGN KEY (round, tbl) REFERENCES draws (round, tbl))""",
        "CREATE INDEX results_by_table ON results (round, tbl, id)",
    ),
    (  # 2: a result's evidence (the table's record), its confirmation by a referee, withdrawals
        """CREATE TABLE evidence (
            entry BIGINT PRIMARY KEY REFERENCES results (id),
            source TEXT NOT NULL,
            digest TEXT NOT NULL,
            record TEXT NOT NULL)""",
        "CREATE INDEX evidence_by_digest ON evidence (digest)",
        """CREATE TABLE confirmations (
            entry BIGINT PRIMARY KEY REFERENCES results (id),
            confirmed_by TEXT NOT NULL,
            confirmed_at TEXT NOT NULL)""",
        """CREATE TABLE withdrawals (
            pair TEXT PRIMARY KEY REFERENCES pairs (id),
            round INTEGER NOT NULL,
            withdrawn_by TEXT NOT NULL,
            withdrawn_at TEXT NOT NULL)""",
    ),
)


class StoreError(Refusal):
    """The file or database is missing, is not a tournament, cannot be reached, or refuses
    a write: one line for the user, named by a code (``rulebook.tournament_live.REFUSALS``)
    so that it reads in both languages, the asker's first (``text(lang)``)."""


@dataclass(frozen=True)
class Evidence:
    """What a result was read from: a table's game record (its JSON lines) and where it
    came from (a file, a hall table). The digest names the record, so the same record
    delivered twice is seen to be the same."""

    source: str
    record: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.record.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One result row as entered: corrections are later entries for the same table. With
    evidence it is provisional until confirmed; typed by a referee it is final at once."""

    id: int
    round: int
    table: int
    outcome: Outcome
    entered_by: str
    entered_at: str
    source: str | None = None
    digest: str | None = None
    confirmed_by: str | None = None
    confirmed_at: str | None = None

    @property
    def provisional(self) -> bool:
        return self.digest is not None and self.confirmed_by is None

    @property
    def state(self) -> str:
        """``provisional`` or ``final`` (the words a page shows for a table with a result)."""
        return "provisional" if self.provisional else "final"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TournamentStore:
    """One open tournament. Use as a context manager, or call ``close``."""

    def __init__(self, name: str, db: Database) -> None:
        self.name = name  # for messages: a URL without its password
        self._db = db
        # rows never change once written: parsed once, not on every rebuild (a 4,096-pair
        # event rebuilds the tournament for each result entered)
        self._outcomes: dict[int, Outcome] = {}
        self._pairs: list[Pair] = []

    @classmethod
    def open(cls, target: str | Path, create: bool = False) -> TournamentStore:
        """Open an existing tournament (``create=False``) or make a new one (``create=True``,
        refused if the database holds one already, so ``new`` never overwrites an event).
        ``target``: a SQLite file, or a ``postgresql://`` URL; it may hold the event store
        too (a hall's database, ``guandan serve``'s file)."""
        name = display(target)
        if not is_url(target) and not create and not Path(target).is_file():
            raise StoreError("no_tournament_file", name=name)
        try:
            db = Database(target, synchronous="FULL")
        except OpenError as exc:
            raise StoreError(exc.code, **exc.values) from None
        except DATABASE_ERRORS as exc:
            raise StoreError("not_tournament_file", name=name, why=str(exc)) from None
        try:
            if create and _holds_tournament(db):
                raise StoreError("holds_tournament", name=name)
            if not create and not db.schema_version(STORE) and "tournament" not in db.tables():
                raise StoreError("no_tournament", name=name)
            db.migrate(STORE, MIGRATIONS)
        except OpenError as exc:
            db.close()
            raise StoreError(exc.code, **exc.values) from None
        except DATABASE_ERRORS as exc:
            db.close()
            raise StoreError("not_tournament_file", name=name, why=str(exc)) from None
        except StoreError:
            db.close()
            raise
        return cls(name, db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[None]:
        """One transaction; nested uses join the outer one. A write takes the write lock
        first, so what is read inside it (to check a draw) is still true when it commits;
        a read sees one snapshot and blocks no writer."""
        with self._db.transaction(write):
            yield

    @property
    def schema_version(self) -> int:
        return self._db.schema_version(STORE)

    # --- writes --------------------------------------------------------------------------

    def save_tournament(self, t: Tournament, profile_ref: str) -> None:
        """Store a new tournament: its settings and pairs (in seeding order, with groups).
        ``profile_ref`` is the profile name or file as the organiser gave it."""
        with self._db.transaction() as db:
            db.execute(
                "INSERT INTO tournament (id, name, format, rounds, profile, seed, created_at) "
                "VALUES (1, ?, ?, ?, ?, ?, ?)", (t.name, t.format, t.rounds, profile_ref, t.seed, _now()))
            db.executemany(
                "INSERT INTO pairs (position, id, name, players, grp) VALUES (?, ?, ?, ?, ?)",
                [(i, p.id, p.name, json.dumps(list(p.players), ensure_ascii=False), p.group)
                 for i, p in enumerate(t.pairs)])

    def add_draw(self, round_no: int, tables: list[Table]) -> None:
        """A round's whole draw, byes included, in one transaction."""
        with self._db.transaction() as db:
            try:
                db.execute("INSERT INTO rounds (round, drawn_at) VALUES (?, ?)", (round_no, _now()))
            except INTEGRITY_ERRORS:
                raise StoreError("drawn_already", round=round_no) from None
            db.executemany(
                "INSERT INTO draws (round, line, tbl, ns, ew, grp) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_no, i, t.table, t.ns, t.ew, t.group) for i, t in enumerate(tables)])

    def add_result(self, round_no: int, table_no: int, outcome: Outcome, entered_by: str = "cli",
                   evidence: Evidence | None = None) -> int:
        """Append a result (a first entry or a correction), with the record it was read from
        if any (then it is provisional); returns its row id."""
        with self._db.transaction() as db:
            entry = db.execute(
                "INSERT INTO results (round, tbl, outcome, entered_by, entered_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (round_no, table_no, json.dumps(outcome.to_json(), ensure_ascii=False), entered_by, _now())
            ).fetchone()[0]
            if evidence is not None:
                db.execute("INSERT INTO evidence (entry, source, digest, record) VALUES (?, ?, ?, ?)",
                           (entry, evidence.source, evidence.digest, evidence.record))
            return entry

    def confirm(self, entry: int, confirmed_by: str) -> None:
        """Make a provisional result final: a row of its own, so the entry stays as entered."""
        with self._db.transaction() as db:
            try:
                db.execute("INSERT INTO confirmations (entry, confirmed_by, confirmed_at) VALUES (?, ?, ?)",
                           (entry, confirmed_by, _now()))
            except INTEGRITY_ERRORS:
                raise StoreError("confirmed_already", entry=entry) from None

    def add_withdrawal(self, pair: str, round_no: int, withdrawn_by: str) -> None:
        """A pair leaves the event in ``round_no``; its tables from then on are its forfeits
        (entered by ``store.tournament_desk``)."""
        with self._db.transaction() as db:
            db.execute("INSERT INTO withdrawals (pair, round, withdrawn_by, withdrawn_at) VALUES (?, ?, ?, ?)",
                       (pair, round_no, withdrawn_by, _now()))

    # --- reads ---------------------------------------------------------------------------

    def version(self) -> str:
        """A word that changes whenever anything is entered (every table is append-only, so
        row counts only grow): live pages compare it instead of reloading the tournament."""
        with self._db.connection() as db:
            row = db.execute("SELECT (SELECT COUNT(*) FROM rounds), (SELECT COUNT(*) FROM results), "
                             "(SELECT COUNT(*) FROM confirmations), (SELECT COUNT(*) FROM withdrawals)").fetchone()
        return ".".join(map(str, row))

    def withdrawals(self) -> dict[str, int]:
        """Each withdrawn pair and the round it withdrew in."""
        with self._db.connection() as db:
            return dict(db.execute("SELECT pair, round FROM withdrawals").fetchall())

    def load(self, load_profile: Callable[[str], Profile]) -> Tournament:
        """Rebuild the tournament: settings, pairs, draws, and the latest result per table."""
        with self._db.transaction(write=False) as db:
            s = self._settings()
            if not self._pairs:  # written once, with the tournament
                self._pairs = [Pair(pid, name, tuple(json.loads(players)), grp) for pid, name, players, grp in
                               db.execute("SELECT id, name, players, grp FROM pairs ORDER BY position").fetchall()]
            pairs = list(self._pairs)
            draws: dict[int, list[Table]] = {}
            for round_no, tbl, ns, ew, grp in db.execute(
                    "SELECT round, tbl, ns, ew, grp FROM draws ORDER BY round, line").fetchall():
                draws.setdefault(round_no, []).append(Table(tbl, ns, ew, grp))
            # the outcomes alone (later rows win): not every entry's evidence and confirmation,
            # which a rebuild for each result entered into a 2,048-table round cannot afford
            results = {(r, t): self._outcome(i, o) for i, r, t, o in db.execute(
                "SELECT id, round, tbl, outcome FROM results ORDER BY id").fetchall()}
        return Tournament(s["name"], s["format"], s["rounds"], load_profile(s["profile"]), s["seed"],
                          pairs, draws, results)

    def entries(self, round_no: int | None = None, table_no: int | None = None,
                digest: str | None = None) -> list[Entry]:
        """Result rows in the order entered, optionally for one round or table, or read from
        one record (``digest``): the audit trail."""
        sql = ("SELECT r.id, r.round, r.tbl, r.outcome, r.entered_by, r.entered_at, e.source, e.digest, "
               "c.confirmed_by, c.confirmed_at FROM results r LEFT JOIN evidence e ON e.entry = r.id "
               "LEFT JOIN confirmations c ON c.entry = r.id")
        where: list[str] = []
        args: list[object] = []
        if round_no is not None:
            where.append("r.round = ?")
            args.append(round_no)
        if table_no is not None:
            where.append("r.tbl = ?")
            args.append(table_no)
        if digest is not None:
            where.append("e.digest = ?")
            args.append(digest)
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._db.connection() as db:
            rows = db.execute(sql + " ORDER BY r.id", args).fetchall()
        return [Entry(i, r, t, self._outcome(i, o), *rest) for i, r, t, o, *rest in rows]

    def _outcome(self, entry: int, text: str) -> Outcome:
        outcome = self._outcomes.get(entry)
        if outcome is None:
            outcome = self._outcomes[entry] = Outcome.from_json(json.loads(text))
        return outcome

    def latest(self, round_no: int | None = None) -> dict[tuple[int, int], Entry]:
        """The entry that counts for each (round, table) that has one: the latest entered."""
        return {(e.round, e.table): e for e in self.entries(round_no)}

    def latest_at(self, round_no: int, table_no: int) -> Entry | None:
        """The entry that counts for one table (None: no result yet). One table's rows, by
        their index: checking a result or a confirmation reads its own table, not the round's
        thousands."""
        found = self.entries(round_no, table_no)
        return found[-1] if found else None

    def evidence_record(self, entry: int) -> str | None:
        """The game record a result was read from (None: typed, no record)."""
        with self._db.connection() as db:
            row = db.execute("SELECT record FROM evidence WHERE entry = ?", (entry,)).fetchone()
        return row[0] if row else None

    def _settings(self) -> dict:
        with self._db.connection() as db:
            row = db.execute("SELECT name, format, rounds, profile, seed FROM tournament").fetchone()
        if row is None:
            raise StoreError("holds_no_tournament", name=self.name)
        return dict(zip(("name", "format", "rounds", "profile", "seed"), row, strict=True))


def _holds_tournament(db: Database) -> bool:
    """Whether the database holds a tournament already (not merely the empty tables)."""
    if "tournament" not in db.tables():
        return False
    with db.connection() as conn:
        return conn.execute("SELECT 1 FROM tournament").fetchone() is not None
