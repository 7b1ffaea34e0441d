"""One database for both stores (store/db.py): the event store (``guandan serve``, a hall)
and the tournament store (``guandan tournament``) count their migrations apart, so either
can open a database the other made, in either order, on SQLite and on a real PostgreSQL
server; a database written by a scorer that kept one ``schema_version`` for both is taken
over as it stands, nothing lost, and that scorer then refuses it instead of breaking it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.tournament import Pair, Table, Tournament
from rulebook import profiles
from store import event_store, tournament_store
from store.db import LEGACY_FENCE, Database, OpenError
from store.event_store import Store
from store.tournament_store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": "linquan", "table": "t1"}
NOTE = {"seq": 1, "t": 1, "type": "note", "text": "第一手"}


def old_scorer_opens(target: str, migrations) -> None:
    """What a scorer before per-store counts did on open: one ``schema_version`` for the
    whole database, trusted by whichever store opened it."""
    db = Database(target)
    try:
        with db.transaction() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(migrations):
                raise OpenError(f"written by a newer scorer (schema {version})")
            for statements in migrations[version:]:
                for sql in statements:
                    for token, text in db.dialect.tokens.items():
                        sql = sql.replace(token, text)
                    conn.execute(sql)
            if row is None:
                conn.execute("INSERT INTO schema_version VALUES (?)", (len(migrations),))
            else:
                conn.execute("UPDATE schema_version SET version = ?", (len(migrations),))
    finally:
        db.close()


#: what the scorer before per-store counts had of each store
OLD_EVENTS = event_store.MIGRATIONS[:2]
OLD_TOURNAMENT = tournament_store.MIGRATIONS[:1]


def old_tournament(target: str) -> None:
    """A tournament written by the old scorer: 4 pairs, round 1 drawn, table 1's result in."""
    old_scorer_opens(target, OLD_TOURNAMENT)
    old = TournamentStore(target, Database(target))  # its writes are the same SQL as today's
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    t = Tournament("老比赛", "swiss", 2, profiles.load("linquan"), 3, pairs)
    old.save_tournament(t, "linquan")
    t.draws[1] = [Table(1, "p1", "p2"), Table(2, "p3", "p4")]
    old.add_draw(1, t.draws[1])
    _, outcome = t.score_levels(1, 1, "p1", "p2", "J", "5")
    old.add_result(1, 1, outcome, "裁判长")
    old.close()


def old_events(target: str) -> None:
    """A table written by the old scorer's event store."""
    old_scorer_opens(target, OLD_EVENTS)
    db = Database(target)
    with db.transaction() as conn:
        conn.execute("INSERT INTO tables VALUES ('t1', 't1', 'linquan', 0)")
        conn.execute("INSERT INTO events (table_id, seq, type, body, received) VALUES ('t1', 0, 'header', ?, 0)",
                     (json.dumps(HEADER),))
    db.close()


def check_tournament(target: str, results: int) -> None:
    with TournamentStore.open(target) as t_store:
        assert t_store.schema_version == len(tournament_store.MIGRATIONS)
        t = t_store.load(profiles.load)
        assert t.name == "老比赛" and len(t.draws[1]) == 2 and len(t.results) == results
        assert all(not e.provisional for e in t_store.entries())


def check_events(target: str) -> None:
    store = Store(target)
    try:
        assert store.schema_version() == len(event_store.MIGRATIONS)
        assert [e.seq for e in store.events("t1")] == [0]
        store.append("t1", [NOTE])  # and it still takes writes
        assert [e.seq for e in store.events("t1")] == [0, 1]
    finally:
        store.close()


def new_tournament(target: str) -> None:
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(target, create=True) as t_store:
        t_store.save_tournament(Tournament("新比赛", "swiss", 2, profiles.load("jiangsu"), 1, pairs), "jiangsu")


def new_events(target: str) -> None:
    store = Store(target)
    store.add_table("t1", HEADER)
    store.close()


@pytest.mark.parametrize("first", ["events", "tournament"])
def test_both_stores_share_one_database_opened_in_either_order(db_target, first):
    makers = {"events": new_events, "tournament": new_tournament}
    makers[first](db_target)
    makers["tournament" if first == "events" else "events"](db_target)
    for _ in range(2):  # and reopening applies nothing twice
        store = Store(db_target)
        assert store.schema_version() == len(event_store.MIGRATIONS) and [e.seq for e in store.events("t1")] == [0]
        store.close()
        with TournamentStore.open(db_target) as t_store:
            assert t_store.schema_version == len(tournament_store.MIGRATIONS)
            assert t_store.load(profiles.load).name == "新比赛"
    db = Database(db_target)
    with db.connection() as conn:
        assert sorted(conn.execute("SELECT store, version FROM schema_versions").fetchall()) == [
            ("events", len(event_store.MIGRATIONS)), ("tournament", len(tournament_store.MIGRATIONS))]
    db.close()


def test_a_tournament_is_refused_where_there_is_none_and_made_beside_an_event_store(db_target):
    new_events(db_target)
    with pytest.raises(tournament_store.StoreError, match="no tournament in this database"):
        TournamentStore.open(db_target)
    new_tournament(db_target)  # beside the event store: allowed
    with pytest.raises(tournament_store.StoreError, match="already holds a tournament"):
        TournamentStore.open(db_target, create=True)


@pytest.mark.parametrize("first", ["events", "tournament"])
def test_an_old_tournament_database_is_taken_over_in_either_order(db_target, first):
    old_tournament(db_target)
    if first == "events":
        new_events(db_target)
        check_tournament(db_target, 1)
    else:
        check_tournament(db_target, 1)
        new_events(db_target)
    check_events(db_target)


@pytest.mark.parametrize("first", ["events", "tournament"])
def test_an_old_event_database_is_taken_over_in_either_order(db_target, first):
    old_events(db_target)
    if first == "events":
        check_events(db_target)
        new_tournament(db_target)
    else:
        new_tournament(db_target)
        check_events(db_target)
    with TournamentStore.open(db_target) as t_store:
        assert t_store.load(profiles.load).name == "新比赛"


def test_the_old_defect_left_half_an_event_store_and_it_is_mended(db_target):
    """The old defect itself: a tournament made first, then ``guandan serve`` on the same
    file counted the tournament's migration as its own first, made only its second
    (``acts``) and stopped with "no such table: events"."""
    old_tournament(db_target)
    old_scorer_opens(db_target, OLD_EVENTS)
    db = Database(db_target)
    assert "acts" in db.tables() and "events" not in db.tables()
    db.close()
    new_events(db_target)
    check_events(db_target)
    check_tournament(db_target, 1)


def test_the_old_scorer_refuses_a_database_this_one_has_opened(db_target):
    new_events(db_target)
    for migrations in (OLD_EVENTS, OLD_TOURNAMENT):
        with pytest.raises(OpenError, match=f"newer scorer .schema {LEGACY_FENCE}"):
            old_scorer_opens(db_target, migrations)


def test_openers_of_both_stores_at_once_apply_each_migration_once(db_target):
    """Eight threads open the two stores on one new database at the same moment."""
    start = threading.Barrier(8)
    failed: list[BaseException] = []

    def open_one(i: int) -> None:
        start.wait()
        try:
            if i % 2:
                Store(db_target).close()
            else:
                TournamentStore.open(db_target, create=True).close()
        except BaseException as exc:  # reported below, with the thread's error
            failed.append(exc)

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failed, failed
    db = Database(db_target)
    with db.connection() as conn:
        assert len(conn.execute("SELECT store FROM schema_versions").fetchall()) == 2
    db.close()


@pytest.mark.parametrize("order", [("tournament", "table"), ("table", "tournament")])
def test_the_commands_share_the_default_guandan_db(tmp_path, order):
    """The defect as users met it: ``tournament new`` and a table stored for ``serve`` in
    one folder, both on the default ``guandan.db``, in either order."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("id,name\np1,甲\np2,乙\n", encoding="utf-8")
    record = tmp_path / "r.jsonl"
    record.write_text(json.dumps(HEADER) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = {"tournament": ["tournament", "new", "杯赛", "--pairs", str(pairs), "--format", "swiss",
                               "--rounds", "1"],
                "table": ["table", "load", str(record), "--id", "t1"]}
    for name in order:
        out = subprocess.run([sys.executable, "-m", "scorer.cli", *commands[name]], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert [p.name for p in tmp_path.glob("*.db")] == ["guandan.db"]
    check = subprocess.run([sys.executable, "-m", "scorer.cli", "tournament", "draw", "--json"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
    store = Store(tmp_path / "guandan.db")
    assert [e.seq for e in store.events("t1")] == [0]
    store.close()
