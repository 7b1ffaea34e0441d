"""The tournament store (store/tournament_store.py) on SQLite and on a real PostgreSQL
server: schema and migrations, corrections kept as new rows, whole-or-nothing draws, and a
writer killed mid-stream losing nothing it had committed."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from engine.tournament import Pair, Table, Tournament
from rulebook import profiles
from store.db import INTEGRITY_ERRORS, is_url
from store.tournament_store import MIGRATIONS, StoreError, TournamentStore
from tests.store.test_shared_database import old_scorer_opens

ROOT = Path(__file__).resolve().parents[2]


def new_store(target: str | Path, n: int = 4, profile: str = "linquan", rounds: int = 3) -> TournamentStore:
    pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, n + 1)]
    store = TournamentStore.open(target, create=True)
    store.save_tournament(Tournament("测试赛", "swiss", rounds, profiles.load(profile), 7, pairs), profile)
    return store


def raw_sql(target: str, *statements: str) -> None:
    """Run statements on the database behind the store's back (an old or a newer scorer)."""
    conn = psycopg.connect(target, autocommit=True) if is_url(target) else sqlite3.connect(target)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()


def count(store: TournamentStore, table: str) -> int:
    with store._db.connection() as db:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def test_a_new_store_is_at_the_latest_schema_and_reopens(db_target):
    with new_store(db_target) as store:
        assert store.schema_version == len(MIGRATIONS)
    with TournamentStore.open(db_target) as again:  # reopening applies nothing twice
        assert again.schema_version == len(MIGRATIONS)
        assert count(again, "schema_versions") == 1
        t = again.load(profiles.load)
    assert (t.name, t.format, t.rounds, t.seed, t.profile.name) == ("测试赛", "swiss", 3, 7, "linquan")
    assert t.pairs[0] == Pair("p1", "第1队", ("甲", "乙"), None)


def test_a_new_file_is_wal_and_fully_synced(tmp_path):
    with new_store(tmp_path / "t.db") as store, store._db.connection() as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_migrations_bring_an_old_store_up_to_date(db_target):
    old_scorer_opens(db_target, MIGRATIONS[:1])  # a store at version 1, as an older scorer left it
    with TournamentStore.open(db_target) as store:
        assert store.schema_version == len(MIGRATIONS)
        names = store._db.tables()
    assert {"tournament", "pairs", "rounds", "draws", "results", "evidence", "confirmations",
            "schema_versions"} <= names


def test_a_store_from_a_newer_scorer_is_refused(db_target):
    new_store(db_target).close()
    raw_sql(db_target, "UPDATE schema_versions SET version = 99 WHERE store = 'tournament'")
    with pytest.raises(StoreError, match="newer scorer .tournament schema 99"):
        TournamentStore.open(db_target)


def test_files_that_are_missing_taken_or_not_a_database(tmp_path):
    with pytest.raises(StoreError, match="no such tournament file"):
        TournamentStore.open(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    new_store(tmp_path / "t.db").close()
    with pytest.raises(StoreError, match="already holds a tournament"):
        TournamentStore.open(tmp_path / "t.db", create=True)
    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite at all " * 100)
    with pytest.raises(StoreError, match="not a tournament file"):
        TournamentStore.open(junk)
    empty = tmp_path / "empty.db"
    TournamentStore.open(empty, create=True).close()
    with TournamentStore.open(empty) as store, pytest.raises(StoreError, match="holds no tournament"):
        store.load(profiles.load)


def test_databases_that_are_empty_or_taken(pg_url, postgres):
    with pytest.raises(StoreError, match="no tournament in this database"):
        TournamentStore.open(pg_url)
    empty = postgres.new_database()
    TournamentStore.open(empty, create=True).close()
    with TournamentStore.open(empty) as store, pytest.raises(StoreError, match="holds no tournament"):
        store.load(profiles.load)
    new_store(pg_url).close()
    with pytest.raises(StoreError, match="already holds a tournament"):
        TournamentStore.open(pg_url, create=True)


def test_corrections_are_new_rows_and_the_latest_counts(db_target):
    with new_store(db_target) as store:
        t = store.load(profiles.load)
        tables = t.draw()
        store.add_draw(1, tables)
        t = store.load(profiles.load)
        first = tables[0]
        _, original = t.score_levels(1, first.table, first.ns, first.ew, "J", "5")
        _, corrected = t.score_levels(1, first.table, first.ns, first.ew, "5", "J")
        store.add_result(1, first.table, original)
        store.add_result(1, first.table, corrected, entered_by="裁判长")
        history = store.entries(1, first.table)
        assert [e.outcome for e in history] == [original, corrected]
        assert [e.entered_by for e in history] == ["cli", "裁判长"]
        assert all(e.entered_at.endswith("+00:00") for e in history)
        assert store.load(profiles.load).results[(1, first.table)] == corrected


def test_a_draw_is_written_whole_or_not_at_all(db_target):
    with new_store(db_target) as store:
        bad = [Table(1, "p1", "p2"), Table(2, "p3", "nobody")]  # the second line breaks a foreign key
        with pytest.raises(INTEGRITY_ERRORS):
            store.add_draw(1, bad)
        assert store.load(profiles.load).draws == {}
        assert count(store, "rounds") == 0
        store.add_draw(1, [Table(1, "p1", "p2"), Table(2, "p3", "p4")])
        with pytest.raises(StoreError, match="round 1 is already drawn"):
            store.add_draw(1, [Table(1, "p1", "p3"), Table(2, "p2", "p4")])
        assert store.load(profiles.load).draws[1] == [Table(1, "p1", "p2"), Table(2, "p3", "p4")]


def test_a_result_for_a_table_not_in_the_draw_is_refused_by_the_store(db_target):
    with new_store(db_target) as store:
        store.add_draw(1, [Table(1, "p1", "p2"), Table(2, "p3", "p4")])
        t = store.load(profiles.load)
        _, outcome = t.score_forfeit(1, 1, "p2")
        with pytest.raises(INTEGRITY_ERRORS):
            store.add_result(1, 9, outcome)


WRITER = r"""
import sys
from rulebook import profiles
from store.tournament_store import TournamentStore

store = TournamentStore.open(sys.argv[1])
while True:
    with store.transaction():
        t = store.load(profiles.load)
        missing = t.missing(t.drawn)
        if not missing:
            tables = t.draw()
            store.add_draw(t.drawn + 1, tables)
            print("draw", t.drawn + 1, len(tables), flush=True)
            continue
    r = t.drawn
    for number in missing:
        tb = next(x for x in t.draws[r] if x.table == number)
        _, outcome = t.score_levels(r, number, tb.ns, tb.ew, "23456789TJQKA"[number % 13], "5")
        row = store.add_result(r, number, outcome)
        print("result", row, r, number, flush=True)
"""


def run_writer_and_kill(target: str, lines_before_kill: int) -> list[list[str]]:
    """Start a writer, let it report ``lines_before_kill`` commits, SIGKILL it mid-stream;
    returns what it said it had committed."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, target], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    said = []
    try:
        while len(said) < lines_before_kill:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            said.append(line.split())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    return said


def test_a_writer_killed_mid_stream_loses_nothing_committed(db_target):
    new_store(db_target, n=61, rounds=1000).close()  # 30 tables and a bye a round
    committed: list[list[str]] = []
    for lines in (47, 83, 120):  # kill three times; each writer resumes where the last one died
        committed += run_writer_and_kill(db_target, lines)
        with TournamentStore.open(db_target) as store, store._db.connection() as conn:
            if not is_url(db_target):
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            t = store.load(profiles.load)
            rows = {e.id: e for e in store.entries()}
            for said in committed:
                if said[0] == "draw":
                    assert len(t.draws[int(said[1])]) == int(said[2])
                else:
                    entry = rows[int(said[1])]
                    assert (entry.round, entry.table) == (int(said[2]), int(said[3]))
            for tables in t.draws.values():  # no half-written round
                assert len(tables) == 31 and sum(tb.is_bye for tb in tables) == 1
            drawn = [r[0] for r in conn.execute("SELECT round FROM rounds ORDER BY round").fetchall()]
            assert drawn == sorted(t.draws) == list(range(1, len(drawn) + 1))
    assert sum(s[0] == "result" for s in committed) > 200
