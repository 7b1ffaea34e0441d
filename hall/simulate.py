"""A hall under load: many tables playing bot matches through a few MQTT connections.

Two thousand tables must fit on a small machine, so tables share connections (``pool``:
one ``Node`` per connection, each publishing for many tables, all writing one outbox
file) and one scheduler thread paces every table at ``rate`` events a second, each with
its own random phase. The matches are bot matches (``engine.bots.self_play``); a few are
played up front and dealt round the tables, each table with its own header, because
playing one per table would cost more than the whole run.
"""

from __future__ import annotations

import heapq
import random
import threading
import time
from collections.abc import Sequence

from engine.bots import self_play
from hall.broker import BrokerAddress
from hall.node import Node
from hall.outbox import Outbox
from rulebook import profiles

TICK_S = 0.01


def table_names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}-{i:04d}" for i in range(1, count + 1)]


def pool(broker: BrokerAddress, outbox: Outbox, tables: Sequence[str], clients: int, hall: str,
         prefix: str) -> list[Node]:
    """Split the tables over ``clients`` connections, in contiguous runs."""
    clients = max(1, min(clients, len(tables)))
    size = -(-len(tables) // clients)
    chunks = [tables[i:i + size] for i in range(0, len(tables), size)]
    return [Node(broker, outbox, chunk, hall=hall, name=f"{prefix}-n{k}") for k, chunk in enumerate(chunks, 1)]


def bot_matches(profile: str, count: int, seed: int) -> list[list[dict]]:
    """``count`` bot matches (seeds ``seed``, ``seed+1`` …) as record JSON objects."""
    rules = profiles.load(profile)
    return [[e.to_json() for e in self_play(rules, random.Random(seed + k))] for k in range(count)]


class Simulation:
    def __init__(self, nodes: Sequence[Node], matches: Sequence[list[dict]], rate: float, seed: int = 1) -> None:
        if rate <= 0:
            raise ValueError("the rate must be more than 0 events a second")
        self.nodes = list(nodes)
        self.rate = rate
        self.published = 0
        self._rng = random.Random(seed)
        self._tables: list[tuple[str, Node, list[dict]]] = []
        for node in self.nodes:
            for table in sorted(node.tables):
                record = matches[len(self._tables) % len(matches)]
                header = dict(record[0], table=table)
                self._tables.append((table, node, [header, *record[1:]]))

    def start(self) -> Simulation:
        for node in self.nodes:
            node.start()
        return self

    def run(self, seconds: float, stop: threading.Event | None = None) -> int:
        """Play for ``seconds`` (or until ``stop``); returns the events published."""
        start = time.monotonic()
        end = start + seconds
        gap = 1.0 / self.rate
        due = [(start + self._rng.uniform(0, gap), i, 0) for i in range(len(self._tables))]
        heapq.heapify(due)
        while (now := time.monotonic()) < end and not (stop and stop.is_set()):
            batches: dict[Node, list[tuple[str, dict]]] = {}
            while due and due[0][0] <= now:
                when, i, k = heapq.heappop(due)
                table, node, record = self._tables[i]
                batches.setdefault(node, []).append((table, record[k]))
                if k + 1 < len(record):
                    heapq.heappush(due, (when + gap, i, k + 1))
            for node, events in batches.items():
                node.publish_many(events)
                self.published += len(events)
            time.sleep(TICK_S)
        return self.published

    def wait_sent(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        return all(node.wait_sent(max(0.0, deadline - time.monotonic())) for node in self.nodes)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
