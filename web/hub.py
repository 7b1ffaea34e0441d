"""Live fan-out: one thread follows the store and wakes every page that is listening.

The store may be written by another process (a table node), so the hub polls it — a
cheap indexed query on the global event id every few milliseconds — and keeps each
table's ``TableView`` up to date. Listeners (one per SSE connection) wait on a condition
and read what changed; nothing is queued per client, so a slow client never holds up the
others or grows memory. A tournament table's seating (``store.seatings``: written by its node
in a table's store, by the hall server in the hall's) is read from the store every
``SEATINGS_POLL_S``; a change wakes the table's pages as an event does, and the hall's (whose
card for the table shows the pairs drawn at it: ``changed_since``). Besides the
listeners that wait, subscribers (``subscribe``: web.streams, which serves the streams of a
thousand viewers from one loop) are called once per change, from the thread that made it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from rulebook import profiles
from store import seatings
from store.event_store import Store
from web.snapshot import TableView
from web.snapshot_types import HallCard, HallSummary

POLL_S = 0.01
SEATINGS_POLL_S = 0.5  # a seating changes a few times a round: one query this often is plenty
T = TypeVar("T")


@dataclass
class _Snapshot:
    """A table's snapshot as shared by every listener, for one (event id, frames version,
    seating stamp) ``key``; ``summary`` is filled the first time a hall page asks for it."""

    key: tuple[int, int, int]
    text: str
    summary: HallCard | None = None


def _summary(table: str, s: dict) -> HallCard:
    """What the hall shows of a table, from its snapshot ``s``."""
    hand = s.get("hand") or {}
    return {"table": table, "id": s["id"], "ready": s["ready"], "name": s.get("name"),
            "levels": s.get("levels"), "declarers": s.get("declarers"), "hand": hand.get("number"),
            "level": hand.get("level"), "action": hand.get("action"), "to_act": hand.get("to_act"),
            "since": hand.get("since"), "limit": hand.get("limit"),
            "cards": {seat: v["cards"] for seat, v in (hand.get("seats") or {}).items()},
            "open_alerts": sum(1 for a in s.get("alerts", []) if a["status"] == "open"),
            "result": s.get("result"), "error": s.get("error"),
            "pairs": (s.get("seating") or {}).get("pairs")}  # a tournament's round: the pairs drawn at it


class Hub:
    def __init__(self, store: Store, poll: float = POLL_S) -> None:
        self.store = store
        self.poll = poll
        self.views: dict[str, TableView] = {}
        self.last_id = 0
        self.changed = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.RLock()
        self._snapshots: dict[str, _Snapshot] = {}
        self._derived: dict[tuple[str, Callable], tuple[int, object]] = {}
        self.frames_version = 0
        self.seatings: dict[str, dict] = {}
        self._seatings_stamp = 0  # the store's seatings read up to this stamp
        self.seated = 0  # how many times any table's seating changed: the hall's viewers' mark
        self._seated_at: dict[str, int] = {}  # table → ``seated`` when its seating last changed
        self._subscribers: list[Callable[[], None]] = []
        self.catch_up()
        self.read_seatings()

    def start(self) -> Hub:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="hub", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._notify()

    @property
    def stopped(self) -> bool:
        """Stopped: nothing more will change, and streams end."""
        return self._stop.is_set()

    def subscribe(self, call: Callable[[], None]) -> None:
        """Call ``call`` (quickly: it runs in the thread that changed something) after each
        change, and once when the hub stops."""
        self._subscribers = [*self._subscribers, call]

    def unsubscribe(self, call: Callable[[], None]) -> None:
        self._subscribers = [c for c in self._subscribers if c is not call]

    def _notify(self) -> None:
        with self.changed:
            self.changed.notify_all()
        for call in self._subscribers:
            call()

    def _run(self) -> None:
        seatings_at = time.monotonic() + SEATINGS_POLL_S
        while not self._stop.is_set():
            if not self.catch_up():
                self._stop.wait(self.poll)
            if time.monotonic() >= seatings_at:
                seatings_at = time.monotonic() + SEATINGS_POLL_S
                self.read_seatings()

    def read_seatings(self) -> bool:
        """Read the seatings the store has had written since the last look (a few of a
        hall's thousands at a time); wake listeners if one changed."""
        stamp, written = seatings.changed_since(self.store, self._seatings_stamp)
        if not written:
            return False
        with self._lock:
            self._seatings_stamp = stamp
            moved = [t for t, seating in written.items() if seating != self.seatings.get(t)]
            if not moved:
                return False
            now = dict(self.seatings)  # a new dict: a page may be reading the one it holds
            for table in moved:
                if written[table] is None:
                    now.pop(table, None)
                else:
                    now[table] = written[table]
            self.seated += 1
            for table in moved:
                self._seated_at[table] = self.seated
            self.seatings = now
        self._notify()
        return True

    def stamp(self, table: str) -> int:
        """The seatings' mark ``seated`` when ``table``'s seating last changed (0: never): a
        stream that saw another number has a new snapshot to send."""
        return self._seated_at.get(table, 0)

    def catch_up(self) -> bool:
        """Read what the store has beyond what we know; wake listeners. True if anything."""
        with self._lock:
            new = self.store.since(self.last_id)
            for stored in new:
                view = self.views.get(stored.table)
                if view is None:
                    view = self.views[stored.table] = TableView(stored.table, profiles.load)
                view.add(stored)
                self.last_id = stored.id
        if new:
            self._notify()
        return bool(new)

    def changed_since(self, after_id: int, seated: int) -> list[str]:
        """The tables with events stored after ``after_id``, or whose seating changed after
        the seatings' mark ``seated`` (a round drawn: the hall's card shows its pairs), sorted."""
        with self._lock:
            return sorted(t for t, view in self.views.items()
                          if view.last_id > after_id or self.stamp(t) > seated)

    def view(self, table: str) -> TableView | None:
        return self.views.get(table)

    def snapshot(self, table: str) -> tuple[int, str] | None:
        """The table's snapshot as JSON text and the event id it stands at; computed once
        per change and shared by every listener."""
        with self._lock:
            cached = self._cached(table)
            return None if cached is None else (cached.key[0], cached.text)

    def summary(self, table: str) -> HallSummary:
        """What the hall shows of a table. Every hall page asks for every table on each
        change, so it is read from the snapshot once per snapshot and shared: do not modify."""
        with self._lock:
            cached = self._cached(table)
            if cached is None:
                return {"table": table, "ready": False}
            if cached.summary is None:
                cached.summary = _summary(table, json.loads(cached.text))
            return cached.summary

    def _cached(self, table: str) -> _Snapshot | None:
        """The table's snapshot as it stands now (the caller holds the lock)."""
        view = self.views.get(table)
        if view is None:
            return None
        key = (view.last_id, self.frames_version, self.stamp(table))
        cached = self._snapshots.get(table)
        if cached is None or cached.key != key:
            text = json.dumps(view.snapshot(self.store.frames(table), self.seatings.get(table)), ensure_ascii=False)
            cached = self._snapshots[table] = _Snapshot(key, text)
        return cached

    def derived(self, table: str, build: Callable[[TableView], T]) -> T | None:
        """What ``build`` makes of the table's view (None: no such table), worked out under
        the hub's lock once per change of the table, as its snapshot is, and shared: do
        not modify. The referee's queue reads every table's items so (``web.referee_queue``),
        and a hall of thousands of tables changes a few at a time."""
        with self._lock:
            view = self.views.get(table)
            if view is None:
                return None
            hit = self._derived.get((table, build))
            if hit is None or hit[0] != view.last_id:
                hit = self._derived[(table, build)] = (view.last_id, build(view))
            return hit[1]

    def update(self, table: str, after_id: int) -> tuple[int, str, list[dict]] | None:
        """The table's snapshot (its event id and JSON text) and the bodies of its events
        stored after ``after_id`` up to that snapshot, read together under one lock. Read
        apart, events the store gained in between went out with this update and again with
        the next (the stream sent on from the snapshot's id): 12,008 deliveries of 12,000
        in ``benchmarks/web.py``."""
        with self._lock:
            cached = self._cached(table)
            if cached is None:
                return None
            now_id = cached.key[0]
            view = self.views[table]
            return now_id, cached.text, [s.body for s in view.stored if after_id < s.id <= now_id]

    def frame_added(self) -> None:
        with self._lock:
            self.frames_version += 1
        self._notify()

    def wait(self, after_id: int, timeout: float, table: str | None = None, stamp: int = 0,
             seated: int | None = None) -> int:
        """Block until the store holds events beyond ``after_id``, or ``table``'s seating
        has moved past ``stamp``, or (the hall's viewers) any table's past the seatings'
        mark ``seated`` (or ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while (self.last_id <= after_id and (table is None or self.stamp(table) == stamp)
                   and (seated is None or self.seated == seated) and not self._stop.is_set()):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
        return self.last_id
