"""Table presence from the retained status topics: online when a node connects, offline
by its last will when it dies without a goodbye, offline by its goodbye when it stops."""

from __future__ import annotations

import json
import queue
import subprocess
import sys

import paho.mqtt.client as mqtt

from hall import topics
from hall.node import Node
from hall.presence import Presence
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, match, state, wait_for


def retained_status(address, table: str) -> dict:
    """What a newcomer to the hall is told about the table (the retained message)."""
    got: queue.Queue = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"look-{table}")
    client.on_message = lambda c, u, m: got.put(json.loads(m.payload))
    client.connect(address.host, address.port)
    client.subscribe(topics.table_status(HALL, table), qos=1)
    client.loop_start()
    try:
        return got.get(timeout=5)
    finally:
        client.disconnect()
        client.loop_stop()


@needs_mosquitto
def test_a_node_that_dies_goes_offline_by_its_last_will(tmp_path, broker, address, store, start_ingest):
    ingest = start_ingest()
    record = tmp_path / "t7.jsonl"
    record.write_text("".join(json.dumps(e) + "\n" for e in match("t7")), encoding="utf-8")
    node = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "node", str(record), "--broker", broker.url,
                             "--hall", HALL, "--table", "t7", "--speed", "1", "--outbox", str(tmp_path / "o.db")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: store.has_table("t7"), 20, "the node to publish its header")
        wait_for(lambda: state(ingest, "t7") == "online", 10, "t7 online")
    finally:
        node.kill()  # no goodbye: the broker sees the connection drop
        node.wait()
    wait_for(lambda: state(ingest, "t7") == "offline", 10, "the last will")
    assert retained_status(address, "t7")["state"] == "offline"


@needs_mosquitto
def test_a_node_that_stops_says_goodbye_for_all_its_tables(address, outbox, start_ingest):
    ingest = start_ingest()
    node = Node(address, outbox, ["t1", "t2"], hall=HALL, name="pool").start()
    node.publish_many([("t1", match("t1")[0]), ("t2", match("t2")[0])])
    wait_for(lambda: ingest.presence.online() == 2, 20, "both tables online")
    assert ingest.presence.get("t1").node == "pool"
    node.stop()
    wait_for(lambda: ingest.presence.online() == 0, 10, "both tables offline")
    assert retained_status(address, "t2")["state"] == "offline"


def test_a_many_table_node_takes_its_tables_with_it():
    presence = Presence()
    for table in ("t1", "t2"):
        assert presence.table_status(table, json.dumps({"state": "online", "node": "pool", "last_seq": 9,
                                                        "acked": 7}).encode())
    presence.table_status("t3", b'{"state": "online", "node": "t3"}')
    assert presence.node_status("pool", b'{"state": "offline", "node": "pool"}')
    assert [presence.get(t).state for t in ("t1", "t2", "t3")] == ["offline", "offline", "online"]
    assert presence.get("t1").acked == 7  # what the node last said stays known


def test_unreadable_statuses_are_refused():
    presence = Presence()
    assert not presence.table_status("t1", b"online")
    assert not presence.table_status("t1", b'{"state": "dancing"}')
    assert not presence.node_status("n1", b"")
    assert presence.all() == {}
