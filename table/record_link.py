"""A live table's connection to its record: where its events are written, what others
wrote there meanwhile, and where each play's evidence frame is kept.

A live table's record has other writers: a referee at the console corrects a misread play,
puts in one the camera missed, hands out a penalty. So the table writes each event under
the next seq it believes free and hears back whether another writer took that seq first
(``append`` is False); it then takes in what the others wrote (``others``) and tries again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import cv2
import numpy as np

from engine.events import Event, Header, event_from_json
from store.event_store import Store, TableFeed


class RecordLink(Protocol):
    def append(self, event: Event) -> bool:
        """Write ``event`` (the header makes the table); False where its seq is taken."""

    def others(self) -> list[Event]:
        """What other writers stored since the last call, in seq order."""

    def evidence(self, seq: int, draw: Callable[[], np.ndarray]) -> None:
        """Keep the frame that shows event ``seq``'s cards (``draw`` makes it, only if kept)."""


class StoreLink:
    """The record in the event store (``store.event_store``), where the web console and a
    hall write too."""

    def __init__(self, store: Store, table: str) -> None:
        self.store = store
        self.table = table
        self._feed = TableFeed(store, table, after_id=store.last_id())  # from now on
        self._written: set[int] = set()

    def stored(self) -> list[Event]:
        """The table's record as the store holds it now (a restarted table goes on from it)."""
        return [event_from_json(s.body) for s in self.store.events(self.table)]

    def append(self, event: Event) -> bool:
        if isinstance(event, Header):
            self.store.add_table(self.table, event.to_json())
        elif self.store.append(self.table, [event.to_json()]) == [None]:
            return False
        self._written.add(event.seq)
        return True

    def others(self) -> list[Event]:
        return [event_from_json(s.body) for s in self._feed.new() if s.seq not in self._written]

    def evidence(self, seq: int, draw: Callable[[], np.ndarray]) -> None:
        ok, jpeg = cv2.imencode(".jpg", draw(), [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            self.store.put_frame(self.table, seq, jpeg.tobytes())


class KeptInList:
    """The record as a list, the table its only writer, no evidence kept: a scan, a
    benchmark, a test."""

    def __init__(self, events: list[Event] | None = None) -> None:
        self.events: list[Event] = [] if events is None else events

    def append(self, event: Event) -> bool:
        self.events.append(event)
        return True

    def others(self) -> list[Event]:
        return []

    def evidence(self, seq: int, draw: Callable[[], np.ndarray]) -> None:
        pass
