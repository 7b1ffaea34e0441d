"""A tournament on the hall (hall/results.py): each tournament table's finished match is
entered into the tournament in the same database as a provisional result, exactly once —
through a restarted feed, and end to end through a real Mosquitto with a table node killed
mid-match and started again — on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import pytest

from engine.tournament import Pair, Tournament
from hall.node import Node
from hall.outbox import Outbox
from hall.results import ResultFeed, tournament_table
from rulebook import profiles
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.hall.conftest import HALL, match, wait_for


def new_tournament(target: str) -> None:
    """Four pairs under jiangsu (the bot matches' profile), round 1 drawn: tables 1 and 2."""
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(target, create=True) as t_store:
        t_store.save_tournament(Tournament("厅赛", "swiss", 2, profiles.load("jiangsu"), 3, pairs), "jiangsu")
        desk.draw_next(t_store, None, "裁判长")


def play(store: Store, table: str, seed: int) -> None:
    record = match(table, seed)
    store.add_table(table, record[0])
    store.append(table, record[1:])


@pytest.fixture
def hall_db(db_target):
    store = Store(db_target)
    new_tournament(db_target)
    yield store
    store.close()


def test_tournament_tables_are_named_by_number_or_round_and_number():
    assert tournament_table("7") == (None, 7) and tournament_table("2-7") == (2, 7)
    assert tournament_table("demo") is None and tournament_table("t7") is None


def test_each_finished_match_is_entered_once_as_provisional(hall_db):
    feed = ResultFeed(hall_db)
    play(hall_db, "1", seed=1)
    play(hall_db, "demo", seed=2)  # not a tournament table: left alone
    play(hall_db, "1-2", seed=3)
    play(hall_db, "9", seed=4)  # no table 9 in round 1: refused, logged, the feed goes on
    intakes = {i.table: i for i in feed.step()}
    assert set(intakes) == {"1", "1-2", "9"}
    assert intakes["1"].entered.provisional and intakes["1-2"].entered.table.table == 2
    assert "round 1 has no table 9" in intakes["9"].refused and feed.refusals == [intakes["9"]]
    assert feed.step() == []
    restarted = ResultFeed(hall_db)  # a hall server started again reads the store from the start
    again = {i.table: i for i in restarted.step()}
    assert again["1"].entered.repeated and again["1-2"].entered.repeated
    with TournamentStore.open(hall_db.path) as t_store:
        entries = t_store.entries()
        assert [(e.table, e.state, e.source, e.entered_by) for e in entries] == [
            (1, "provisional", "hall:1", "hall"), (2, "provisional", "hall:1-2", "hall")]
        assert t_store.evidence_record(entries[0].id).splitlines()[0].startswith('{"seq": 0')
    feed.stop()
    restarted.stop()


def test_a_feed_started_on_a_round_under_way_reads_it_all_before_it_waits(hall_db):
    """A hall server restarted mid-round has more events to read than one read takes (5,000):
    it reads on until it has them all, so the results come in at once, not a poll apart."""
    for k in range(60):  # other tables' matches first: more than one read's worth
        play(hall_db, f"demo{k}", seed=10 + k)
    play(hall_db, "1", seed=1)
    play(hall_db, "2", seed=3)
    assert hall_db.last_id() > 5000
    feed = ResultFeed(hall_db, poll=60.0).start()
    try:
        wait_for(lambda: {i.table for i in feed.intakes} == {"1", "2"}, timeout=30, what="both results entered")
    finally:
        feed.stop()


def test_a_hall_without_a_tournament_is_left_alone(tmp_path):
    store = Store(tmp_path / "hall.db")
    play(store, "1", seed=1)
    feed = ResultFeed(store)
    assert feed.step(now=0.0) == [] and feed.tournament is None and feed.last_id == 0
    new_tournament(store.path)  # made while the hall runs: found at the next look
    assert feed.step(now=1.0) == []  # looked at again only every few seconds
    assert [i.table for i in feed.step(now=10.0)] == ["1"]
    feed.stop()
    store.close()


def test_a_node_killed_mid_match_and_restarted_yields_one_result(tmp_path, store, address, start_ingest):
    new_tournament(store.path)
    ingest = start_ingest()
    record = match("1", seed=5)
    outbox = Outbox(tmp_path / "node-outbox.db")
    node = Node(address, outbox, ["1"], hall=HALL).start()
    node.publish_many(("1", event) for event in record[: len(record) // 2])
    node.stop(timeout=0.2)  # killed mid-match (what it had not sent stays in its outbox)
    node = Node(address, Outbox(tmp_path / "node-outbox.db"), ["1"], hall=HALL).start()
    node.publish_many(("1", event) for event in record)  # from the start again: duplicates included
    wait_for(lambda: len(ingest.results.intakes) == 1, 30, "the result entered")
    node.stop(timeout=0.5)
    (intake,) = ingest.results.intakes
    assert intake.entered is not None and intake.entered.provisional
    with TournamentStore.open(store.path) as t_store:
        assert len(t_store.entries()) == 1


def test_the_feed_hands_the_desk_the_match_it_followed_unless_a_referee_corrected_the_record(hall_db, monkeypatch):
    # replaying a 1,250-event match again at the desk was most of what entering a hall's
    # result cost; a correction is applied in place by a replay only, so then the desk replays
    handed: dict[str, object] = {}
    enter = desk.enter_records

    def spy(store, records, by):
        handed.update((r.source, r.replayed) for r in records)
        return enter(store, records, by)

    monkeypatch.setattr(desk, "enter_records", spy)
    play(hall_db, "1", seed=1)
    record = match("2", seed=3)
    at = next(i for i, e in enumerate(record) if e["type"] == "play")
    same = {"seq": 0, "t": record[at]["t"], "type": "correction", "target": record[at]["seq"],
            "cards": record[at]["cards"], "by": "裁判", "why": "read again: the same cards"}
    record = [dict(e, seq=i) for i, e in enumerate([*record[:at + 1], same, *record[at + 1:]])]
    hall_db.add_table("2", record[0])
    hall_db.append("2", record[1:])
    intakes = {i.table: i for i in ResultFeed(hall_db).step()}
    assert intakes["1"].entered.provisional and intakes["2"].entered.provisional
    assert handed["hall:2"] is None and handed["hall:1"].result is not None
    with TournamentStore.open(hall_db.path) as t_store:
        first = t_store.latest_at(1, 1)
        assert first.outcome == t_store.load(profiles.load).score_result(
            1, 1, desk.replay_record(t_store.evidence_record(first.id)).result)[1]
