"""The table clock at work: the driver, the rules' timing and whoever decides whose turn it is.

``ClockRunner`` reacts to a button press on the driver's I/O thread — the next seat's
countdown is on its display within milliseconds — and ticks the clock ten times a
second for countdowns, beeps, overruns and the match time. Whose turn it is, and what a
press means, comes from a turn source (``awaiting()``, ``press(seat, record)``):

* ``Rotation`` — the clock alone, a Guandan chess clock: seats act E → N → W → S and a
  press by the seat on turn ends its turn;
* a live table's (``table.clock_turns``): the engine's hand says who acts, and a press by
  the seat on turn commits the cards now in its zone as a play, or is a pass. That is the
  game's logic, kept with the table: this module is the box and its timing only.

Everything the clock sees that the record should keep (presses, overruns, pauses, time
called) is handed as an engine event to its ``recorder`` (``recorder(cls, **fields)``, which
gives back the event made): a live table's runtime, which numbers it, judges it and stores it
(``table.runtime.TableRuntime.record``); a match kept by whoever runs the clock
(``table.clock_turns.MatchRecorder``); or, for a clock alone, ``Numbering``. The runner
never touches a match: what an event does to the game is the recorder's. What whoever runs
the clock should hear (``on_notice``) is a ``Notice``: a turn started, a press out of turn,
an overrun, time up, the box connected or lost.

While no seat is on the clock (before the match, between hands, after it) a ``Standby`` may
have the displays (``hardware.board``: a tournament table's seating, a result to confirm)
and the first say on a seat's press (a confirmation); a press it does not take does what it
always does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine import timing as c
from engine.events import Event, Overrun, Pause, Press, Resume, TimeCalled
from engine.phases import Action, Awaiting
from engine.seats import SEATS, Seat, next_seat
from hardware.board import Board
from hardware.driver import ClockDriver, Connected, Lost, Pressed

TICK_S = 0.1


@dataclass(frozen=True)
class TurnStarted:
    """The clock has started an action: ``seats`` are on it for ``action``, ``limit`` seconds
    (0: no limit)."""

    action: Action
    seats: tuple[Seat, ...]
    limit: int


@dataclass(frozen=True)
class OutOfTurn:
    """``seat`` pressed its button when the clock did not wait for it."""

    seat: str


#: what the runner tells whoever runs the clock (``ClockRunner.on_notice``)
Notice = TurnStarted | OutOfTurn | c.Overrun | c.TimeUp | Connected | Lost


class Standby(Protocol):
    """What the displays show, and what a seat's press means, while no seat is on the clock."""

    def board(self) -> Board | None:
        """The displays and lamps now; None: blank."""

    def press(self, seat: str) -> bool:
        """A seat's press (already recorded): True if it was taken (a confirmation), False
        if it goes to the turns as any press does."""


class Rotation:
    """Seats act in play order, E → N → W → S; the first action is a first lead."""

    def __init__(self, first: Seat = "E") -> None:
        self.turn: Seat = first
        self.started = False

    def awaiting(self) -> Awaiting:
        return Awaiting("play" if self.started else "first_lead", (self.turn,))

    def press(self, seat: str, record) -> bool:
        """True when the press ended the turn."""
        if seat != self.turn:
            return False
        self.started = True
        self.turn = next_seat(self.turn)
        return True


class Numbering:
    """A clock alone's record: each event numbered in the order it came, timed from the
    start, and handed to ``sink`` (None: kept nowhere). No match judges it: who acts is the
    chess clock's ``Rotation``."""

    def __init__(self, sink: Callable[[Event], None] | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.sink = sink
        self.now = now
        self._start = now()
        self.count = 0

    def __call__(self, cls: type[Event], **fields) -> Event:
        self.count += 1
        event = cls(seq=self.count, t=round(self.now() - self._start, 3), **fields)
        if self.sink is not None:
            self.sink(event)
        return event


class ClockRunner:
    def __init__(self, driver: ClockDriver, profile, turns, recorder: Callable[..., Event] | None = None,
                 on_notice: Callable[[Notice], None] | None = None, now: Callable[[], float] = time.monotonic,
                 match_minutes: int | None = None) -> None:
        self.driver = driver
        self.turns = turns
        self.now = now
        self.clock = c.TableClock(profile, now(), match_minutes)
        #: whoever keeps the record takes every event (``recorder(cls, **fields)``); without
        #: one, the clock alone numbers its events and keeps none
        self.recorder: Callable[..., Event] = recorder if recorder is not None else Numbering(now=now)
        self.on_notice = on_notice
        #: events handed to the recorder so far. The events themselves are the recorder's
        #: to keep (a table's store); kept here too, a clock that runs all day would hold
        #: every press it ever had
        self.recorded = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._paused = False
        #: set by whoever has something to show between actions (``Standby``)
        self.standby: Standby | None = None
        self._standby_shown: dict[tuple[str, str], str] = {}  # (DSP|LED, seat) → what the box shows of it
        driver.on_event = self._on_driver_event

    # --- record -------------------------------------------------------------------------

    def record(self, cls, **fields) -> Event:
        """Hand an event to the recorder; the event it made comes back."""
        event = self.recorder(cls, **fields)
        self.recorded += 1
        return event

    # --- running ------------------------------------------------------------------------

    def start(self) -> ClockRunner:
        with self._lock:
            self._begin(self.now())
        self._thread = threading.Thread(target=self._tick_loop, name="clock-ticks", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread.ident is not None:  # Ctrl-C may come mid-start
            self._thread.join(timeout=5)

    def _tick_loop(self) -> None:
        while not self._stop.wait(TICK_S):
            with self._lock:
                now = self.now()
                self._apply(self.clock.tick(now))
                self._show_standby(now)

    def _on_driver_event(self, event: object) -> None:
        """On the driver's I/O thread: react at once."""
        if isinstance(event, Pressed):
            with self._lock:
                self._pressed(event.seat)
        elif isinstance(event, (Connected, Lost)):
            self._notice(event)

    def _pressed(self, seat: str) -> None:
        now = self.now()
        self.record(Press, seat=seat)
        if seat == "R":
            self._toggle_pause(now)
            return
        if self._paused:
            return
        if self.standby is not None and not self.clock.seats and self.standby.press(seat):
            self._show_standby(now)
            return
        if self.turns.press(seat, self.record):
            self._begin(now)
        else:
            self._notice(OutOfTurn(seat))

    def _toggle_pause(self, now: float) -> None:
        """The referee button: a call, which stops the clock; pressed again, it restarts."""
        self._paused = not self._paused
        if self._paused:
            self.record(Pause, reason="referee call")
            self._apply(self.clock.pause(now))
        else:
            self.record(Resume)
            self._apply(self.clock.resume(now))

    def new_action(self) -> None:
        """The engine moved on without a press (a tribute or return seen by the camera)."""
        with self._lock:
            self._begin(self.now())

    def _begin(self, now: float) -> None:
        action, seats = self.turns.awaiting()
        self._apply(self.clock.start_action(action, seats, now))
        self._show_standby(now)
        self._notice(TurnStarted(action, tuple(seats), self.clock.limit(action)))

    def _show_standby(self, now: float) -> None:
        """The standby's board (its page for ``now``) on the displays and lamps, sending only
        what differs from what the box shows; nothing while a seat is on the clock or the
        referee has it paused."""
        if self.standby is None or self.clock.seats or self._paused:
            return
        board = self.standby.board()
        texts = board.page(now) if board is not None else {}
        lamps = board.lamps if board is not None else {}
        for seat in SEATS:
            for kind, want, send in (("DSP", texts.get(seat, "    "), self.driver.display),
                                     ("LED", lamps.get(seat, "OFF"), self.driver.lamp)):
                if self._standby_shown.get((kind, seat)) != want:
                    self._standby_shown[(kind, seat)] = want
                    send(seat, want)

    def _apply(self, outputs: list) -> None:
        for out in outputs:
            if isinstance(out, (c.Show, c.Lamp)):
                self._standby_shown.clear()  # the clock has the displays: the standby shows all again
            if isinstance(out, c.Show):
                self.driver.display(out.seat, out.text)
            elif isinstance(out, c.Lamp):
                self.driver.lamp(out.seat, out.mode)
            elif isinstance(out, c.Beep):
                self.driver.beep(out.ms)
            elif isinstance(out, c.Overrun):
                self.record(Overrun, seat=out.seat, action=out.action, limit=out.limit,
                            elapsed=round(out.elapsed, 1), penalty=out.penalty)
                self._notice(out)
            elif isinstance(out, c.TimeUp):
                if not getattr(self.turns, "over", False):  # turns with no match never are
                    self.record(TimeCalled)
                self._notice(out)

    def _notice(self, what: Notice) -> None:
        if self.on_notice is not None:
            self.on_notice(what)

