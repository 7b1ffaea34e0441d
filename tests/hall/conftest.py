"""Fixtures for the hall tests: a real Mosquitto per test, a fresh store, the hall server
(ingest) in this process, and bot matches to publish."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest

from engine.bots import self_play
from hall.broker import BrokerAddress, parse_broker
from hall.ingest import Ingest
from hall.outbox import Outbox
from rulebook import profiles
from store.event_store import Store
from tests.hall.broker import Mosquitto

HALL = "test"


def match(table: str, seed: int = 1) -> list[dict]:
    """A one-hand bot match as record JSON objects (about a hundred events)."""
    return [e.to_json() for e in self_play(profiles.load("jiangsu"), random.Random(seed), max_hands=1, table=table)]


def wait_for(check: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def state(ingest: Ingest, table: str) -> str | None:
    """The table's presence as the hall server sees it (None: never announced)."""
    status = ingest.presence.get(table)
    return status.state if status else None


def stored(store: Store, table: str) -> list[dict]:
    return [e.body for e in store.events(table)]


@pytest.fixture
def broker(tmp_path) -> Iterator[Mosquitto]:
    mosquitto = Mosquitto(tmp_path / "broker").start()
    yield mosquitto
    mosquitto.kill()


@pytest.fixture
def address(broker: Mosquitto) -> BrokerAddress:
    return parse_broker(broker.url)


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "hall.db")


@pytest.fixture
def outbox(tmp_path) -> Outbox:
    return Outbox(tmp_path / "outbox.db")


@pytest.fixture
def start_ingest(store, address) -> Iterator[Callable[[], Ingest]]:
    """Start the hall server on demand (some tests publish before it runs)."""
    started: list[Ingest] = []

    def start() -> Ingest:
        ingest = Ingest(store, address, HALL, repair_after=0.5).start()
        wait_for(ingest.client.is_connected, 10, "the hall server to connect")
        started.append(ingest)
        return ingest

    yield start
    for ingest in started:
        ingest.stop()


@pytest.fixture
def nodes() -> Iterator[list]:
    """Nodes a test starts; stopped at the end."""
    made: list = []
    yield made
    for node in made:
        node.stop(timeout=0.5)
