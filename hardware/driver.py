"""The host driver for the table clock box (pyserial).

One I/O thread owns the port: it reads and checks sentences, acknowledges presses (and
ignores repeats it has seen), re-sends commands that got no answer, watches the heartbeat,
and reopens the port with backoff after an unplug — finding it again by USB VID:PID and
serial number when it comes back under another name. Nothing here blocks the caller:
commands are queued, and what the box does arrives as events through ``on_event``, called
on the I/O thread, for a consumer that reacts at once (``hardware.runner.ClockRunner``),
or, for a caller that gives none, on ``events``, a queue it reads. One or the other: a
queue nobody reads would keep every press of a table that runs all day.

A table runs for hours and its box may be unplugged for as long, so nothing here grows with
time: of the commands waiting for a box that is away only the latest display and lamp of
each seat, and the latest beep, are kept (it is shown where the table is when it is back,
not every second it missed); presses seen, commands unanswered and the refusals kept for a
person to look at are bounded.
"""

from __future__ import annotations

import os
import queue
import select
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import serial
from serial.tools import list_ports

from hardware import protocol as p
from hardware.port_thread import PortThread

LOST_AFTER_S = 3.0
ACK_TIMEOUT_S = 0.25
RETRIES = 5
BACKOFF_S = (0.05, 0.1, 0.2, 0.4, 0.8)
SEEN_PRESSES = 256
#: the box's latest refusals (NAK) kept in ``Stats.naks`` for a person looking into a box that
#: refuses commands; each one is also a ``CommandFailed`` event
NAKS_KEPT = 32
#: how long a press waits for an older one the box has not got through yet (three of the box's
#: 200 ms repeats): after an unplug the port can open between two of the box's repeated
#: presses, the older one's bytes lost and the newer one's heard first
HOLD_S = 0.6


@dataclass(frozen=True)
class PortMatch:
    """How to find the box among USB serial ports when its device name changes."""

    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None

    def find(self) -> str | None:
        for port in list_ports.comports():
            if self.vid is not None and port.vid != self.vid:
                continue
            if self.pid is not None and port.pid != self.pid:
                continue
            if self.serial_number is not None and port.serial_number != self.serial_number:
                continue
            return port.device
        return None


@dataclass(frozen=True)
class Pressed:
    """A button press: ``seat`` E/S/W/N, or R (referee); ``at`` the host's monotonic time
    when it was heard (a press held for an older one keeps its own)."""

    seat: str
    n: int
    device_ms: int
    at: float


@dataclass(frozen=True)
class Connected:
    port: str
    ready: p.Ready | None


@dataclass(frozen=True)
class Lost:
    reason: str


@dataclass(frozen=True)
class CommandFailed:
    sentence: str
    reason: str


@dataclass
class Stats:
    bad_sentences: int = 0
    repeats: int = 0
    resends: int = 0
    reconnects: int = 0
    received: int = 0
    naks: deque = field(default_factory=lambda: deque(maxlen=NAKS_KEPT))  # (n, reason), the latest


def _key(kind: str, args: tuple) -> tuple:
    """What a queued command replaces: the same seat's display or lamp, any beep."""
    return (kind, args[0]) if kind in ("DSP", "LED") else (kind,)


class ClockDriver(PortThread):
    name = "clock-driver"

    def __init__(self, port: str | None = None, match: PortMatch | None = None,
                 on_event: Callable[[object], None] | None = None, lost_after: float = LOST_AFTER_S) -> None:
        if port is None and match is None:
            raise ValueError("give the port, or how to find it (USB VID:PID / serial number)")
        super().__init__()
        self.port = port
        self.match = match
        #: the consumer of what the box does; without one the events wait on ``events``
        self.on_event = on_event
        self.lost_after = lost_after
        self.events: queue.Queue = queue.Queue()
        self.stats = Stats()
        self.connected = False
        self.ready: p.Ready | None = None
        self._framer = p.Framer()
        self._outbox: deque[tuple[str, tuple]] = deque()
        self._unanswered: OrderedDict[int, list] = OrderedDict()  # n → [bytes, sent_at, tries]
        self._shown: dict[tuple[str, str], tuple] = {}  # last DSP/LED per seat, restored on reconnect
        self._seen: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._expected: int | None = None  # the number of the press the box made next, in its order
        self._held: dict[int, tuple[p.Button, float]] = {}  # presses heard before an older one: (press, heard at)
        self._next_n = 0
        self._last_rx = 0.0
        self._lock = threading.Lock()

    # --- commands (never block) ---------------------------------------------------------

    def display(self, seat: str, text: str) -> None:
        self._queue("DSP", seat, text)

    def lamp(self, seat: str, mode: str) -> None:
        self._queue("LED", seat, mode)

    def beep(self, ms: int) -> None:
        self._queue("BEEP", ms)

    def _queue(self, kind: str, *args) -> None:
        """Queue a command for the I/O thread. A display's text or a lamp replaces one for the
        same seat still waiting, a beep one still waiting: while the box is away (a cable out
        for an hour, a clock ticking ten times a second) nothing piles up, and the box is
        shown the latest when it is back. Connected, the I/O thread sends at once, so nothing
        it would have shown is lost."""
        key = _key(kind, args)
        with self._lock:
            self._outbox = deque(c for c in self._outbox if _key(*c) != key)
            self._outbox.append((kind, args))
        self._wake()

    # --- life cycle ---------------------------------------------------------------------

    @property
    def port_open(self) -> bool:
        """The port is open (the box may not have spoken yet)."""
        return self._ser is not None

    def wait_connected(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected:
                return True
            time.sleep(0.005)
        return self.connected

    # --- the I/O thread -----------------------------------------------------------------

    def _emit(self, event: object) -> None:
        """The event to its consumer: ``on_event`` if there is one, else the ``events`` queue."""
        consumer = self.on_event
        if consumer is not None:
            consumer(event)
        else:
            self.events.put(event)

    def _open(self) -> bool:
        port = self.port
        if self.match is not None:
            port = self.match.find() or port
        if port is None:
            return False
        if not self._opened(port):
            return False
        self._framer = p.Framer()
        self._last_rx = time.monotonic()  # the box has lost_after to say READY (it resets on open)
        self._opened_port = port
        return True

    def _run(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            if self._ser is None:
                if self._open():
                    attempt = 0
                else:
                    self._stop.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                    attempt += 1
                    continue
            try:
                self._step()
            except (serial.SerialException, OSError, TypeError, ValueError) as exc:
                self._drop(f"port error: {exc}")

    def _drop(self, reason: str) -> None:
        self._close()
        if self.connected:
            self.connected = False
            self.stats.reconnects += 1
            self._emit(Lost(reason))

    def _step(self) -> None:
        fd = self._ser.fileno()
        ready, _, _ = select.select([fd, self._wake_r], [], [], 0.05)
        now = time.monotonic()
        if self._wake_r in ready:
            os.read(self._wake_r, 4096)
        if fd in ready:
            data = self._ser.read(4096)
            if not data:
                raise serial.SerialException("port closed")
            before = self._framer.dropped
            bodies = self._framer.feed(data)
            self.stats.bad_sentences += self._framer.dropped - before
            for body in bodies:
                self._receive(body, now)
        self._release(now)
        self._send_queued(now)
        self._resend(now)
        if now - self._last_rx > self.lost_after:
            self._drop(f"no sentence for {self.lost_after:.0f} s")

    def _press(self, s: p.Button, now: float) -> None:
        """Report a new press in the order the box made them: one numbered ahead of the next
        expected waits (``HOLD_S`` at most) for the older ones. The turn order hangs on it:
        two presses made while the cable was out must not arrive swapped. A number behind the
        expected one is a box that was reset (its numbers start again): reported at once."""
        ahead = None if self._expected is None else (s.n - self._expected) % 65536
        if ahead is not None and 0 < ahead < 32768:
            self._held[s.n] = (s, now)
            return
        self._report(s, now)
        self._release(now)

    def _report(self, s: p.Button, heard: float) -> None:
        self._expected = (s.n + 1) % 65536
        self._emit(Pressed(s.seat, s.n, s.ms, heard))

    def _release(self, now: float) -> None:
        """Report held presses whose turn has come, or that have waited ``HOLD_S`` for an
        older one that is not coming (the box dropped it, or was reset)."""
        while self._held:
            if self._expected in self._held:
                self._report(*self._held.pop(self._expected))
                continue
            first = min(self._held, key=lambda n: (n - self._expected) % 65536)
            if now - self._held[first][1] < HOLD_S:
                return
            self._report(*self._held.pop(first))

    def _receive(self, body: str, now: float) -> None:
        try:
            s = p.parse(body)
        except p.BadSentence:
            self.stats.bad_sentences += 1
            return
        self._last_rx = now
        self.stats.received += 1
        if isinstance(s, p.Ready):
            self.ready = s
            self._connect(s)
        elif not self.connected:
            self._connect(None)  # a box that did not reset on open: alive all the same
        if isinstance(s, p.Button):
            self._write(p.encode(p.Ack(s.n)))
            key = (s.n, s.ms)
            if key in self._seen:
                self.stats.repeats += 1
                return
            self._seen[key] = None
            while len(self._seen) > SEEN_PRESSES:
                self._seen.popitem(last=False)
            self._press(s, now)
        elif isinstance(s, (p.Ack, p.Nak)):
            entry = self._unanswered.pop(s.n, None)
            if isinstance(s, p.Nak):
                self.stats.naks.append((s.n, s.reason))
                self._emit(CommandFailed(entry[0].decode().strip() if entry else f"#{s.n}", s.reason))

    def _connect(self, ready: p.Ready | None) -> None:
        first = not self.connected
        self.connected = True
        if first or ready is not None:
            with self._lock:  # a reset box shows nothing: show it all again
                restore = list(self._shown.values())
                self._outbox.extendleft(reversed(restore))
            self._emit(Connected(self._opened_port, ready))

    def _send_queued(self, now: float) -> None:
        if not self.connected:
            return
        while True:
            with self._lock:
                if not self._outbox:
                    return
                kind, args = self._outbox.popleft()
            if kind in ("DSP", "LED"):
                self._shown[(kind, args[0])] = (kind, args)
            n = self._next_n
            self._next_n = (self._next_n + 1) % 65536
            data = p.frame(kind, n, *args)
            self._unanswered[n] = [data, now, 1]
            self._write(data)

    def _resend(self, now: float) -> None:
        for n, entry in list(self._unanswered.items()):
            data, sent, tries = entry
            if now - sent < ACK_TIMEOUT_S:
                continue
            if tries >= RETRIES:
                del self._unanswered[n]
                self._emit(CommandFailed(data.decode().strip(), "no answer"))
                continue
            entry[1], entry[2] = now, tries + 1
            self.stats.resends += 1
            self._write(data)

    def _write(self, data: bytes) -> None:
        self._ser.write(data)
