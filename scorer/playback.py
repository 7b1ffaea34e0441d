"""A finished record stored again as if it were being played now: for the demo, for
``guandan table load --speed``, and for watching or testing the live pages."""

from __future__ import annotations

import threading
import time

from engine.record import Record
from store.event_store import Store


def play_back(store: Store, table: str, record: Record, speed: float, stop: threading.Event | None = None) -> None:
    """Store the record's events (the table already made) as if they were happening now,
    ``speed`` times faster; ``stop`` ends it early."""
    stop = stop or threading.Event()
    start = time.monotonic()
    for event in record.events[1:]:
        wait = event.t / speed - (time.monotonic() - start)
        if wait > 0 and stop.wait(wait):
            return
        store.append(table, [event.to_json()])
