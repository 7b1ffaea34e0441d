"""A camera table as a hall's node: its record as stored at the table — the camera's events
and the referee's acts at the table's console — reaches the hall's store seq for seq."""

from __future__ import annotations

from engine.events import event_from_json
from hall.node import Node
from hall.relay import Relay
from store.event_store import Store
from table.record_link import StoreLink
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, match, stored, wait_for
from web import create_app

pytestmark = needs_mosquitto


def test_the_tables_record_and_its_referees_acts_reach_the_hall(tmp_path, address, store, outbox, start_ingest):
    ingest = start_ingest()
    table = Store(tmp_path / "table.db")  # the table's own store (guandan run --db)
    table.add_user("li", "s3cret-pass")
    record = match("t1")
    write = StoreLink(table, "t1").append  # as the camera runtime writes
    for body in record[:6]:
        write(event_from_json(body))
    relay = Relay(table, "t1", Node(address, outbox, ["t1"], hall=HALL).start(), every=0.05).start()
    console = create_app(table, start_hub=False)
    r = console.test_client().post("/api/tables/t1/referee/penalty", json={
        "seat": "E", "penalty": "warning", "why": "slow"}, headers={"Authorization": f"Bearer {table.new_token('li')}"})
    assert r.status_code == 201 and r.get_json()["seq"] == 6
    for n, body in enumerate(record[6:20], start=7):
        table.append("t1", [{**body, "seq": n}])
    wait_for(lambda: len(stored(store, "t1")) == 21, what="the table's record at the hall")
    assert stored(store, "t1") == [s.body for s in table.events("t1")]
    assert [b["type"] for b in stored(store, "t1")][6] == "penalty"
    relay.close()
    assert outbox.count_unsent() == 0 and ingest.stats.duplicates == 0
    console.config["HUB"].stop()


def test_an_act_written_at_the_hall_server_that_takes_a_nodes_seq_is_told_not_lost_silently(
        address, store, outbox, start_ingest, caplog):
    """The reason acts belong at the table's console: written at the hall server, an act
    takes the next seq there while the node's own event of that seq is on its way. The
    node's event cannot be stored; that is counted and logged as an error, not taken for a
    resend (a resend of the same event still is one)."""
    ingest = start_ingest()
    record = match("t1")
    node = Node(address, outbox, ["t1"], hall=HALL).start()
    node.publish_many(("t1", body) for body in record[:5])
    wait_for(lambda: len(stored(store, "t1")) == 5, what="the first events")
    store.append("t1", [{"seq": 5, "t": 9.0, "type": "penalty", "seat": "E", "penalty": "warning", "by": "li",
                         "why": "slow"}])
    node.publish_many(("t1", body) for body in record[5:7])
    wait_for(lambda: ingest.stats.conflicts == 1 and len(stored(store, "t1")) == 7, what="the conflict")
    assert stored(store, "t1")[5]["type"] == "penalty" and stored(store, "t1")[6] == record[6]
    assert "the node's event 5" in caplog.text and "table's console" in caplog.text
    node.stop()
