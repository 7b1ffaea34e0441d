"""Whether the live loop keeps up with its camera.

The loop takes only a live camera's newest frame (``vision.live.camera.LiveCamera``): while one
frame is read the camera's next ones are dropped, by design. But a table node too slow for
its camera reads so few frames that a play is recorded late — a still zone is read over
``LOOKS`` frames after its cards stop moving — and the operator would not know why. The
frames the loop takes say it: their numbers count what the camera sent, their times how
many the loop read a second. Only dropped frames make a slow pace the node's fault: a
recording of few frames a second read whole (``guandan scan``) is not behind.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

#: frames a second the loop must read for a play to show within 0.5 s of its cards lying
#: still (the median; ``benchmarks/table.py --every``, ``docs/benchmarks.md``): a still
#: zone's looks are frames apart, so fewer frames mean later plays and more false alerts
MIN_FPS = 10.0
#: seconds of camera time a pace is judged over: long enough that one slow read of a busy
#: zone is not a verdict
WINDOW_S = 10.0
#: read this much faster than ``MIN_FPS`` (or drop nothing) to count as caught up again, so
#: that a pace hovering at the limit does not flap
RECOVER = 1.25


#: what ``Pace`` reports, as alert codes (``rulebook.i18n.ALERTS``)
BEHIND, CAUGHT_UP, SLOW_CAMERA = "camera_behind", "camera_caught_up", "camera_slow"
CODES = (BEHIND, CAUGHT_UP, SLOW_CAMERA)
#: a frame this long after the one before it, numbered next, means the camera sent nothing
#: meanwhile (down, or reopened): the watch starts over rather than count the silence
GAP_S = 1.0


@dataclass(frozen=True)
class PaceReport:
    """A change the operator should hear of, as an alert code (``rulebook.i18n.ALERTS``):
    ``camera_behind`` (the loop drops frames and reads too few), ``camera_caught_up``, or
    ``camera_slow`` (the camera itself sends too few, none dropped); at ``fps`` frames read a
    second of the camera's ``camera_fps``, over the last ``seconds``."""

    code: str
    fps: float
    camera_fps: float
    seconds: float


@dataclass
class Pace:
    """Watches the frames the loop takes (``see``): reports when it falls behind its camera
    and when it catches up, once each, and once that a camera sends too few frames."""

    min_fps: float = MIN_FPS
    window_s: float = WINDOW_S
    behind: bool = False
    slow_told: bool = False
    _taken: deque[tuple[int, float]] = field(default_factory=deque)
    _since: float = 0.0  # the camera time watching began (again)

    def see(self, number: int, t: float) -> PaceReport | None:
        """Take the frame numbered ``number`` (the camera's count) at camera time ``t``; a
        ``PaceReport`` when there is something to say, else None. A number or time going
        back (the camera reopened), or a silence of ``GAP_S``, starts the watch over."""
        if self._taken:
            last_number, last_t = self._taken[-1]
            if number <= last_number or t < last_t or (number == last_number + 1 and t - last_t > GAP_S):
                self._taken.clear()
        if not self._taken:
            self._since = t
        self._taken.append((number, t))
        while t - self._taken[0][1] > self.window_s:
            self._taken.popleft()
        first_number, first_t = self._taken[0]
        span = t - first_t
        if t - self._since < self.window_s or span <= 0:  # not watched long enough, or no time between frames
            return None
        read = (len(self._taken) - 1) / span
        sent = (number - first_number) / span
        dropping = number - first_number > len(self._taken) - 1
        if not self.behind and dropping and read < self.min_fps:
            self.behind, code = True, BEHIND
        elif self.behind and (not dropping or read >= self.min_fps * RECOVER):
            self.behind, code = False, CAUGHT_UP
        elif not dropping and sent < self.min_fps and not self.slow_told:
            self.slow_told, code = True, SLOW_CAMERA
        else:
            return None
        return PaceReport(code, round(read, 1), round(sent, 1), self.window_s)
