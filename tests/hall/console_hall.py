"""A hall server's console over a camera table, as the console tests at a hall need it:
``guandan hall serve --web`` on a real Mosquitto, and table ``t1`` at a node of its own
(its store, the node taking the hall's acts into it, the relay sending its record up).
The acts the node receives are kept in the order they came, to be counted."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from engine.events import event_from_json
from hall.acts import TableActs
from hall.broker import parse_broker
from hall.node import Node
from hall.outbox import Outbox
from hall.relay import Relay
from store.event_store import Store
from table.record_link import StoreLink
from tests.hall.broker import Mosquitto, free_port
from tests.hall.conftest import HALL, wait_for
from tests.hall.test_cli import _listening
from tests.web.conftest import PASSWORD

TABLE = "t1"


@dataclass
class CameraHall:
    """The hall server's pages at ``web``, its store, the camera table's own store, and the
    acts the table's node has received (each message as JSON)."""

    web: str
    hall: Store
    table: Store
    received: list[dict] = field(default_factory=list)


@pytest.fixture
def camera_hall(tmp_path, broker: Mosquitto) -> Iterator[Callable[[list[dict]], CameraHall]]:
    """Start the hall with table t1's record begun with ``events`` (JSON bodies, header
    first); returns once the hall holds them all and a referee ``li`` can log in."""
    started: list[tuple[subprocess.Popen, Relay]] = []

    def start(events: list[dict]) -> CameraHall:
        db, port = tmp_path / "hall.db", free_port()
        Store(db).add_user("li", PASSWORD)
        server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                                   "--db", str(db), "--hall", HALL, "--web", str(port)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        table = Store(tmp_path / "table.db")
        write = StoreLink(table, TABLE).append
        for body in events:
            write(event_from_json(body))
        at = CameraHall(f"http://127.0.0.1:{port}", Store(db), table)
        acts = TableActs(table, TABLE)

        def take(name: str, act_id: str, payload: bytes) -> dict:
            at.received.append(json.loads(payload))
            return acts.take(name, act_id, payload)

        node = Node(parse_broker(broker.url), Outbox(tmp_path / "outbox.db"), [TABLE], hall=HALL, acts=take).start()
        relay = Relay(table, TABLE, node, every=0.05).start()
        started.append((server, relay))
        wait_for(lambda: _listening(port), 20, "the hall server's pages")
        wait_for(lambda: at.hall.has_table(TABLE) and at.hall.next_seq(TABLE) == len(events), 20,
                 "the table at the hall")
        return at

    yield start
    for server, relay in started:
        relay.close()
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
