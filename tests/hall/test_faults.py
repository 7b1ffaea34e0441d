"""The hall rides out failures without losing or doubling an event: the broker killed or
stopped mid-run and started again on the same port and state, a table's network cut."""

from __future__ import annotations

import threading
import time

import pytest

from hall.broker import parse_broker
from hall.node import Node
from tests.hall.broker import Cable, needs_mosquitto
from tests.hall.conftest import HALL, match, state, stored, wait_for

pytestmark = needs_mosquitto


def play(nodes: list[Node], records: dict[str, list[dict]], pause: float) -> threading.Thread:
    """Publish the records' events round the tables, one round every ``pause`` seconds."""
    by_table = {table: node for node in nodes for table in node.tables}

    def run() -> None:
        for k in range(max(map(len, records.values()))):
            for table, record in records.items():
                if k < len(record):
                    by_table[table].publish(table, record[k])
            time.sleep(pause)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.parametrize("how", ["kill", "stop"])
def test_the_broker_restarted_mid_run_loses_and_doubles_nothing(how, broker, address, store, outbox,
                                                                 start_ingest, nodes):
    ingest = start_ingest()
    records = {f"t{i}": match(f"t{i}", seed=i) for i in range(1, 4)}
    nodes += [Node(address, outbox, ["t1"], hall=HALL).start(),
              Node(address, outbox, ["t2", "t3"], hall=HALL, name="pool").start()]
    player = play(nodes, records, pause=0.02)
    wait_for(lambda: ingest.stats.stored > 60, what="the run to be under way")
    getattr(broker, how)()  # kill: SIGKILL, nothing saved; stop: SIGTERM, state saved
    time.sleep(0.3)
    broker.start()  # same port, same persistence
    player.join()
    total = sum(map(len, records.values()))
    wait_for(lambda: sum(len(store.events(t)) for t in records) == total, 30, "every event stored")
    for table, record in records.items():
        assert stored(store, table) == record
    assert ingest.stats.stored == total


def test_a_table_cut_off_catches_up(broker, store, outbox, start_ingest, nodes):
    ingest = start_ingest()
    cable = Cable(broker.port)
    record = match("t1")
    node = Node(parse_broker(cable.url), outbox, ["t1"], hall=HALL).start()
    nodes.append(node)
    node.publish_many(("t1", e) for e in record[:30])
    wait_for(lambda: len(store.events("t1")) == 30, what="the first events")
    cable.cut(2.0)
    wait_for(lambda: state(ingest, "t1") == "offline", 10, "the last will")
    started = time.monotonic()
    node.publish_many(("t1", e) for e in record[30:])  # the table scores on
    assert time.monotonic() - started < 1.0
    assert len(store.events("t1")) == 30
    wait_for(lambda: len(store.events("t1")) == len(record), 30, "the table to catch up")
    assert stored(store, "t1") == record
    wait_for(lambda: state(ingest, "t1") == "online", 10, "the table back online")
    assert ingest.stats.stored == len(record)
    cable.close()
