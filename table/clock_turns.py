"""The table clock's view of a live table (``hardware.runner.ClockRunner`` asks it): whose
turn it is, and what a seat's press means.

``MatchTurns`` is the game's side of the clock: the engine's hand says who acts, and a
press by the seat on turn commits the cards now in its zone as a play, or is a pass. The
clock's presses arrive on the serial driver's thread while frames arrive on the camera
loop's, so ``ClockTurns`` asks every question under the table's lock and of the table's
match as it stands — the clock never holds the match itself.

The clock hands every event it makes to a recorder: at a live table the runtime's
``record``; where no runtime keeps the match (a clock tried on a match alone, a tournament
node's test table) ``MatchRecorder``, so that what the press does to the game is done here,
in the table, never by the clock box.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from engine.events import Event, Pass, PlayCards
from engine.match import Match
from engine.phases import Awaiting
from engine.seats import Seat, seat_or_none
from table.mending import PlayFields


class MatchRecorder:
    """The record of a match no table runtime keeps, for the clock
    (``hardware.runner.ClockRunner``'s ``recorder``): each event takes the match's next seq
    and the time since the start, is pushed into the match, which judges it, and is handed
    to ``sink`` (a store, a list; None: the match alone keeps it)."""

    def __init__(self, match: Match, sink: Callable[[Event], None] | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.match = match
        self.sink = sink
        self.now = now
        self._start = now()

    def __call__(self, cls: type[Event], **fields: object) -> Event:
        event = cls(seq=self.match.next_seq, t=round(self.now() - self._start, 3), **fields)
        self.match.push(event)
        if self.sink is not None:
            self.sink(event)
        return event


class MatchTurns:
    """Turns from the engine's hand, for the clock (``hardware.runner.ClockRunner``).
    ``zone(seat)`` gives what the seat has newly laid in its play zone, as the play's fields
    the camera read (``TableRuntime.zone``), or None: nothing laid, a pass."""

    def __init__(self, match: Match, zone: Callable[[Seat], PlayFields | None],
                 deal: Callable[[Seat], bool] | None = None) -> None:
        self.match = match
        self.zone = zone
        #: a camera table has no deal button: a press with cards laid, when no hand is in
        #: play, deals it (``deal(seat)`` records the deal and says whether it did)
        self.deal = deal

    @property
    def over(self) -> bool:
        return self.match.over

    def awaiting(self) -> Awaiting:
        hand = self.match.hand
        if hand is None or hand.outcome is not None:
            return Awaiting("over", ())
        return hand.awaiting()

    def press(self, button: str, record: Callable[..., Event]) -> bool:
        seat = seat_or_none(button)
        if seat is None:
            return False
        action, seats = self.awaiting()
        if action == "over" and self.deal is not None and self.deal(seat):
            action, seats = self.awaiting()
        if seat not in seats or action in ("tribute", "return", "over"):
            return False  # the press alone is the record; the engine flags it if out of turn
        laid = self.zone(seat)
        if laid is None:
            record(Pass, seat=seat)  # the engine flags a pass on a lead
        else:
            record(PlayCards, **laid)
        return True


class LiveTable(Protocol):
    """What the clock needs of a live table (``table.runtime.TableRuntime``)."""

    match: Match
    lock: threading.RLock

    def zone(self, seat: Seat) -> PlayFields | None: ...

    def deal(self, seat: Seat) -> bool: ...

    def keep_evidence(self, seat: Seat, seq: int) -> None: ...


class ClockTurns:
    """Whose turn it is, a seat's press (its zone committed as a play, or a pass), whether
    the match is over."""

    def __init__(self, runtime: LiveTable) -> None:
        self.runtime = runtime

    def _turns(self) -> MatchTurns:
        return MatchTurns(self.runtime.match, self.runtime.zone, self.runtime.deal)

    def awaiting(self) -> Awaiting:
        with self.runtime.lock:
            return self._turns().awaiting()

    def press(self, seat: str, record: Callable[..., Event]) -> bool:
        """A seat's press; a play it commits keeps its evidence frame, as one committed when
        it settles does (the referee's console shows it)."""
        def kept(cls: type[Event], **fields: object) -> Event:
            event = record(cls, **fields)
            if isinstance(event, PlayCards):
                self.runtime.keep_evidence(event.seat, event.seq)
            return event

        with self.runtime.lock:
            return self._turns().press(seat, kept)

    @property
    def over(self) -> bool:
        with self.runtime.lock:
            return self.runtime.match.over
