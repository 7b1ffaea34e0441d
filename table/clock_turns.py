"""The table clock's view of a live table (``hardware.runner.ClockRunner`` asks it).

The clock's presses arrive on the serial driver's thread while frames arrive on the camera
loop's, so every question takes the table's lock and looks at the table's match as it
stands — the clock never holds the match itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from engine.events import Event, PlayCards
from engine.match import Match
from engine.phases import Awaiting
from engine.seats import Seat
from hardware.runner import MatchTurns
from table.mending import PlayFields


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
