"""The event store (store/event_store.py) on SQLite and on a real PostgreSQL server: idempotent
appends by (table, seq), global ids that readers can follow, migrations applied exactly
once, a writer killed mid-write, clear errors for a store that cannot be opened, and the
commands with a URL."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from scorer.cli import DEMO_RECORD
from store.event_store import MIGRATIONS, ActTaken, SeqTaken, Store, StoreError
from store.tournament_store import StoreError as TournamentStoreError
from store.tournament_store import TournamentStore
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4


def header(table: str) -> dict:
    return {"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": "jiangsu", "table": table}


def events(first: int, last: int) -> list[dict]:
    return [{"seq": s, "t": s, "type": "note", "text": f"事件 {s}"} for s in range(first, last + 1)]


def guandan(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True, input=stdin,
                          timeout=60, cwd=ROOT)



def test_an_act_sent_down_from_a_hall_is_stored_with_the_note_that_it_was_taken(store):
    """``append_act``: the event and the act's id in one write; a second delivery returns
    what became of the first; a seq the camera took first stores neither."""
    store.add_table("t1", header("t1"))
    store.append("t1", events(1, 2))
    assert store.act_taken("a1") is None
    assert store.append_act("t1", events(3, 3)[0], "a1") == ActTaken("t1", 3, None)
    assert store.append_act("t1", events(4, 4)[0], "a1") == ActTaken("t1", 3, None) and store.next_seq("t1") == 4
    with pytest.raises(SeqTaken):
        store.append_act("t1", events(3, 3)[0], "a2")
    assert store.act_taken("a2") is None
    assert store.refuse_act("t1", "a2", "no such play") == ActTaken("t1", None, "no such play")
    assert store.refuse_act("t1", "a1", "late") == ActTaken("t1", 3, None)  # taken already: stays taken
    with pytest.raises(StoreError, match="no table"):
        store.append_act("t9", events(1, 1)[0], "a3")


def test_appending_is_idempotent_by_table_and_seq(store):
    store.add_table("t1", header("t1"))
    store.add_table("t1", header("t1"))  # the same header again: nothing new
    first = store.append("t1", events(1, 3))
    assert all(isinstance(i, int) for i in first) and first == sorted(first)
    again = store.append("t1", events(2, 5))  # a node resending 2-3 after a lost acknowledgement
    assert again[:2] == [None, None] and all(isinstance(i, int) for i in again[2:])
    store.add_table("t2", header("t2"))
    batch = store.append_many({"t1": events(5, 6), "t2": events(1, 2)})
    assert batch["t1"][0] is None and None not in batch["t1"][1:] + batch["t2"]
    assert [e.seq for e in store.events("t1")] == [0, 1, 2, 3, 4, 5, 6]
    assert store.events("t1")[3].body == events(3, 3)[0]  # the record's JSON, Chinese included
    assert store.next_seq("t1") == 7 and store.next_seq("nowhere") == 0
    ids = [e.id for e in store.since(0)]
    assert ids == sorted(ids) and len(ids) == len(set(ids)) == 7 + 3 and store.last_id() == ids[-1]
    assert [e.seq for e in store.since(ids[-3])] == [1, 2]
    assert [t["id"] for t in store.tables()] == ["t1", "t2"] and store.has_table("t2")
    with pytest.raises(StoreError, match="no table 'nowhere'"):
        store.append("nowhere", events(1, 1))
    with pytest.raises(StoreError, match="a table id is"):
        store.add_table("bad id!", header("x"))


def test_a_tables_record_text_up_to_an_event_is_its_events_as_a_record_file_holds_them(store):
    """``record_text``: what the hall's result feed enters as a finished match's evidence,
    one JSON line an event, Chinese as written, the events after ``last_seq`` left out."""
    store.add_table("t1", header("t1"))
    store.add_table("t2", header("t2"))
    store.append_many({"t1": events(1, 4), "t2": events(1, 2)})
    text = store.record_text("t1", 3)
    assert [json.loads(line) for line in text.splitlines()] == [header("t1"), *events(1, 3)]
    assert text.endswith("\n") and "事件 3" in text
    assert text == "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in [header("t1"), *events(1, 3)])
    assert store.record_text("nowhere", 3) == ""


def test_frames_users_tokens_and_the_session_key(store):
    store.add_table("t1", header("t1"))
    store.put_frame("t1", 4, JPEG)
    store.put_frame("t1", 4, JPEG + b"\x00")  # a resend replaces
    assert store.frame("t1", 4) == JPEG + b"\x00" and store.frames("t1") == {4} and store.frame("t1", 5) is None
    with pytest.raises(StoreError, match="JPEG"):
        store.put_frame("t1", 5, b"GIF89a")
    store.add_user("li", "s3cret-pass")
    with pytest.raises(StoreError, match="exists already"):
        store.add_user("li", "another-pass")
    assert store.check_password("li", "s3cret-pass") and not store.check_password("li", "wrong-pass")
    token = store.new_token("li")
    assert store.user_for_token(token) == "li" and store.user_for_token("forged") is None
    assert store.secret_key() == store.secret_key()


def test_reopening_applies_nothing_twice(db_target):
    first = Store(db_target)
    first.add_table("t1", header("t1"))
    first.close()
    again = Store(db_target)
    assert again.schema_version() == len(MIGRATIONS) and [e.seq for e in again.events("t1")] == [0]
    again.close()


def test_openers_at_once_apply_each_migration_once(db_target):
    """A migration applied twice would fail (CREATE TABLE of a table that exists)."""
    start = threading.Barrier(8)
    opened: list[Store] = []
    failed: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            opened.append(Store(db_target))
        except BaseException as exc:  # reported below, with the thread's error
            failed.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failed, failed
    with opened[0]._db.connection() as db:
        assert db.execute("SELECT store, version FROM schema_versions").fetchall() == [("events", len(MIGRATIONS))]
    for store in opened:
        store.close()


def test_threads_writing_while_a_reader_follows_the_global_id(store):
    """Ids become visible in order, so following ``since(last id)`` misses nothing, as the
    live pages do while the hall server and the API write from their own threads."""
    tables = [f"w{i}" for i in range(4)]
    for table in tables:
        store.add_table(table, header(table))
    done = threading.Event()
    seen: list[int] = []

    def follow() -> None:
        last = 0
        while True:
            finished = done.is_set()
            for stored in store.since(last):
                seen.append(stored.id)
                last = stored.id
            if finished:
                return

    def write(table: str) -> None:
        for seq in range(1, 61, 3):
            store.append(table, events(seq, seq + 2))

    reader = threading.Thread(target=follow)
    reader.start()
    writers = [threading.Thread(target=write, args=(t,)) for t in tables]
    for t in writers:
        t.start()
    for t in writers:
        t.join(120)
    done.set()
    reader.join(60)
    assert seen == [e.id for e in store.since(0)]
    assert len(seen) == 4 * 61


WRITER = r"""
import sys
from store.event_store import Store

store = Store(sys.argv[1])
batch = 0
while True:
    tables = {t: store.next_seq(t) for t in ("a", "b")}
    ids = store.append_many({t: [{"seq": s, "t": s, "type": "note", "text": "x" * 200} for s in range(n, n + 5)]
                             for t, n in tables.items()})
    print(" ".join(str(i) for t in ids.values() for i in t), flush=True)
"""


def test_a_writer_killed_mid_write_loses_nothing_committed(db_target):
    store = Store(db_target)
    for table in ("a", "b"):
        store.add_table(table, header(table))
    said: list[int] = []
    for lines in (40, 70):  # killed twice; the second writer goes on from what the first stored
        proc = subprocess.Popen([sys.executable, "-c", WRITER, db_target], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(lines):
                line = proc.stdout.readline()
                assert line, proc.stderr.read()
                said += [int(i) for i in line.split()]
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        stored = store.since(0, limit=100_000)
        ids = [e.id for e in stored]
        assert len(ids) == len(set(ids)) and set(said) <= set(ids)  # everything it said committed, once
        for table in ("a", "b"):  # whole batches only: 1 header + 5 events per batch, no gap
            seqs = [e.seq for e in store.events(table)]
            assert seqs == list(range(len(seqs))) and (len(seqs) - 1) % 5 == 0
            assert all(e.body["text"] == "x" * 200 for e in store.events(table)[1:])
    assert len(said) == 10 * 110
    store.close()


@pytest.mark.slow
def test_a_store_that_cannot_be_opened_is_one_clear_error(postgres):
    down = free_port()
    with pytest.raises(StoreError, match=r"li:\*\*\*@127.0.0.1:\d+/x: cannot connect to PostgreSQL \(.*refused") as e:
        Store(f"postgresql://li:secret@127.0.0.1:{down}/x")
    assert "secret" not in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL .*does not exist"):
        Store(postgres.url("no_such_database"))
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL"):
        Store("postgres://[bad/x")
    with pytest.raises(StoreError, match="unsupported URL"):
        Store("mysql://127.0.0.1/x")
    with pytest.raises(TournamentStoreError, match="cannot connect to PostgreSQL"):
        TournamentStore.open(f"postgresql://127.0.0.1:{down}/x")
    for args in (["serve"], ["user", "token", "li"], ["table", "load", str(DEMO_RECORD)], ["tournament", "standings"]):
        out = guandan(*args, "--db", f"postgresql://li:secret@127.0.0.1:{down}/x")
        assert out.returncode == 2, out
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr and "secret" not in out.stderr
        assert "cannot connect to PostgreSQL" in out.stderr
    assert not (ROOT / "postgresql:").exists()  # a URL is never taken for a SQLite file name


@pytest.mark.slow
def test_the_commands_on_a_postgresql_store(pg_url):
    """``table load``, ``user add``/``token`` and ``serve`` (waitress, many threads) with a URL."""
    out = guandan("table", "load", str(DEMO_RECORD), "--id", "1", "--db", pg_url)
    assert out.returncode == 0 and "events stored" in out.stdout, out.stderr
    assert guandan("user", "add", "li", "--password-stdin", "--db", pg_url, stdin="s3cret-pass\n").returncode == 0
    token = guandan("user", "token", "li", "--db", pg_url).stdout.strip()
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", pg_url, "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/api/tables"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                tables = json.loads(urllib.request.urlopen(base, timeout=5).read())
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, server.stdout.read()
                time.sleep(0.2)
        assert [t["table"] for t in tables] == ["1"] and tables[0]["ready"]
        body = json.dumps({"id": "2", "header": header("2")}).encode()
        request = urllib.request.Request(base, body, {"Content-Type": "application/json",
                                                      "Authorization": f"Bearer {token}"})
        assert urllib.request.urlopen(request, timeout=5).status == 201
        assert [t["table"] for t in json.loads(urllib.request.urlopen(base, timeout=5).read())] == ["1", "2"]
    finally:
        server.terminate()
        server.wait(10)
