"""A live table put together in one place: the camera's detector, the table runtime, the
record (the event store, or a list), the referee's acts from the console, the table clock
(a real box, or one emulated on a pseudo-terminal pair) and the web pages.

``guandan run``, ``guandan scan``, the camera demo and ``benchmarks/table.py`` all build
their table here, so each runs the same table the way the others do.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.events import Event
from engine.profile import Profile
from hardware.driver import ClockDriver
from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair
from hardware.runner import ClockRunner
from rulebook.alerts import Alert
from scorer.serve_cli import listening
from store.event_store import Store
from table.clock_turns import ClockTurns
from table.record_link import RecordLink, StoreLink
from table.runtime import TableRuntime
from vision.enroll.deck import Deck
from vision.live.detector import COMMITTED_DOUBT, CardDetector, committed_finder
from web import create_app


def table_detector(weights: Path | None = None, reader: Path | None = None,
                   deck: str | Path | None = None) -> CardDetector:
    """The detector as the live loop runs it: zones read at 320, cards read without the box
    refiner (its tighter boxes are for photos' and overlays' sake, not for naming cards);
    with ``deck`` (a folder from ``guandan enroll``), that deck's reader and finder (unless
    ``weights`` names a finder). Without either, the committed finder, and with the
    committed reader too, their referee threshold (``COMMITTED_DOUBT``) in the record."""
    if deck is not None:
        return Deck.open(deck).detector(weights, imgsz=320, boxes=False)
    committed = weights is None and reader is None
    return CardDetector(weights or committed_finder(), imgsz=320, boxes=False, reader=reader,
                        doubt=COMMITTED_DOUBT if committed else None)


@dataclass
class LiveTable:
    """A table's running parts. ``start`` starts its clock and web pages once the detector
    is warm (the first seat's time starts then); ``close`` stops what was started."""

    runtime: TableRuntime
    store: Store | None = None
    clock_port: str | None = None  # a serial port, or ``emulator``
    clock: ClockRunner | None = None
    box: DeviceEmulator | None = None  # the emulated clock box, whose ``press`` a script may use
    resumed: bool = False  # going on from a record the store already held

    def start(self, port: int | None = None, **web_options) -> LiveTable:
        """The clock, if the table has one, and with ``port`` the web pages of its store on
        localhost (``web_options`` go to waitress)."""
        if self.clock_port is not None:
            self.clock, self.box = start_clock(self.clock_port, self.runtime)
        if port is not None:
            serve_in_background(self.store, port, **web_options)
        return self

    def close(self) -> None:
        if self.clock is not None:
            self.clock.stop()


def build_table(detector: CardDetector, profile: Profile, *, table: str, store: Store | None = None,
                link: RecordLink | None = None, clock: str | None = None, alert: Callable[[Alert], None] | None = None,
                level: str = "2", resume: bool = False) -> LiveTable:
    """A live table over ``store`` (its record and evidence there, a referee's acts at the
    console taken in; with ``resume``, going on from what the store already holds of
    ``table``) or over ``link``; with ``clock`` (a serial port, or ``emulator``) the seats'
    presses commit plays, without one a play is committed once it lies still."""
    stored: list[Event] = []
    if store is not None:
        link = StoreLink(store, table)
        if resume and store.has_table(table):
            stored = link.stored()
    runtime = TableRuntime(detector, profile, table=table, link=link, alert=alert, auto_commit=clock is None,
                           resume=stored or None, level=level)
    return LiveTable(runtime, store, clock, resumed=bool(stored))


def start_clock(port: str, runtime: TableRuntime) -> tuple[ClockRunner, DeviceEmulator | None]:
    """The table clock on ``port`` (or on a device emulator over a pseudo-terminal pair, for
    ``emulator``) driving ``runtime``'s turns; returns the runner and the emulated box
    (None for a real one)."""
    box = None
    if port == "emulator":
        pair = PtyPair()
        pair.plug()
        atexit.register(pair.close)  # socat is a process of its own: it must not outlive us
        box = DeviceEmulator(pair.device_end).start()
        port = pair.host_end
    driver = ClockDriver(port)
    runner = ClockRunner(driver, runtime.match.profile, ClockTurns(runtime), recorder=runtime.record)
    driver.start()  # once the runner takes its events: from the first, every one goes to it
    return runner.start(), box


def serve_in_background(store: Store, port: int, **options) -> None:
    """The web pages of ``store`` on localhost from a daemon thread, while the calling thread
    runs the table (``options`` go to waitress)."""
    server = listening(create_app(store), "127.0.0.1", port, threads=64, **options)
    threading.Thread(target=server.run, name="web", daemon=True).start()
