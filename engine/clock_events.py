"""The table clock's events: a button pressed, an action overrun (读秒), a pause and a
resume. What a press means — end of turn, out of turn, a call — is derived on replay
(``engine.match``); the clock itself is ``engine.timing``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.event_base import Event
from engine.seats import Seat

#: the actions the clock times (``Hand.awaiting`` names them alike)
ClockAction = Literal["tribute", "return", "first_lead", "play"]
CLOCK_ACTIONS: tuple[ClockAction, ...] = ("tribute", "return", "first_lead", "play")
#: a button of the table clock: a seat's, or the referee's call button ``R``
Button = Literal["E", "S", "W", "N", "R"]


@dataclass(frozen=True)
class Press(Event):
    """A button on the table clock: a seat's (E S W N) or the referee call button (R).
    What a press means — end of turn, out of turn, a call — is derived on replay."""

    seat: Button = "E"
    type = "press"

    def _fields(self) -> dict[str, object]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Overrun(Event):
    """The clock saw ``seat`` run past its limit for ``action`` (读秒 overrun), and the
    profile's escalation made it ``penalty`` (the referee confirms or dismisses it)."""

    seat: Seat = "E"
    action: ClockAction = "play"
    limit: int = 0
    elapsed: float = 0.0
    penalty: str = "warning"
    type = "clock_overrun"

    def _fields(self) -> dict[str, object]:
        return {"seat": self.seat, "action": self.action, "limit": self.limit,
                "elapsed": self.elapsed, "penalty": self.penalty}


@dataclass(frozen=True)
class Pause(Event):
    """The referee stops the clock."""

    reason: str = ""
    type = "pause"

    def _fields(self) -> dict[str, object]:
        return {"reason": self.reason}


@dataclass(frozen=True)
class Resume(Event):
    """The referee restarts the clock."""

    type = "resume"
