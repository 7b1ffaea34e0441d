"""A camera table as a node of a hall: the table's record, as stored at the table, goes on
to the hall server.

``guandan run --hall BROKER`` keeps the table's own store — its dashboard and its referee
console go on working whatever the hall's network does — and relays every event of the
table's record, in seq order, to the node's outbox (``hall.node``), from where it
reaches the broker. Relaying what the store holds, rather than what the camera runtime
records, takes the referee's acts at the table's console along with the camera's events
(the runtime takes them in too: ``table.runtime``), so the hall's copy of the record
is the table's, seq for seq. A restart relays from the start again: the outbox ignores
what it already holds.
"""

from __future__ import annotations

import threading

from hall.node import Node
from store.event_store import Store, TableFeed

RELAY_EVERY_S = 0.2


class Relay:
    def __init__(self, store: Store, table: str, node: Node, every: float = RELAY_EVERY_S) -> None:
        self.table = table
        self.feed = TableFeed(store, table)
        self.node = node
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"relay-{table}", daemon=True)

    def start(self) -> Relay:
        self._thread.start()
        return self

    def relay(self) -> int:
        """Queue the events stored since the last call (none before the runtime has written
        the header); returns how many."""
        stored = self.feed.new()
        if stored:
            self.node.publish_many([(self.table, s.body) for s in stored])
        return len(stored)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.relay()

    def close(self, wait: float = 5.0) -> None:
        """Relay what is left, give the broker ``wait`` seconds to take it, and stop the
        node; what it has not taken stays in the outbox for the next start."""
        self._stop.set()
        self._thread.join()
        self.relay()
        self.node.wait_sent(wait)
        self.node.stop()
