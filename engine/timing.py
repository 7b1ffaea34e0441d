"""The rules' timing (读秒) as a clock: who is on the clock, for how long, and what an overrun costs.

Pure logic with the time passed in, so it is tested without waiting: ``TableClock`` is told
when a new action starts (which seats, which kind: tribute, return, first lead, play) and
is ticked; it answers with what the displays, lamps and buzzer should do and with
``Overrun`` notices carrying the profile's escalation (warning → violation → foul → …).
It also keeps the match clock and says when time is up, and pauses for the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.phases import Action
from engine.profile import Profile
from engine.seats import SEATS, Seat

#: action kinds (as ``Hand.awaiting`` names them) → the profile's time-table field
LIMIT_FIELD = {"tribute": "tribute", "return": "give_back", "first_lead": "first_lead", "play": "play"}
def action_limit(profile: Profile, action: str | None) -> int:
    """Seconds the profile allows for an action; 0 when it sets none (or for no action)."""
    return getattr(profile.time, LIMIT_FIELD[action]) if action in LIMIT_FIELD else 0


COUNTDOWN_BEEP_S = 5  # short beeps over the last seconds, the "counted down aloud" of the rules


@dataclass(frozen=True)
class Show:
    seat: Seat
    text: str


@dataclass(frozen=True)
class Lamp:
    seat: Seat
    mode: str


@dataclass(frozen=True)
class Beep:
    ms: int


@dataclass(frozen=True)
class Overrun:
    """A seat ran past its limit. ``penalty`` is the profile's escalation step for this
    seat's ``count``-th overrun in the match."""

    seat: Seat
    action: Action
    limit: int
    elapsed: float
    count: int
    penalty: str


@dataclass(frozen=True)
class TimeUp:
    """The match time is over (the referee calls time)."""

    elapsed: float


#: what the clock answers with: the displays, lamps and buzzer, an overrun, time up
Output = Show | Lamp | Beep | Overrun | TimeUp


def clock_text(seconds: float) -> str:
    """Four 7-segment digits as ``mm.ss`` (the dot lights the colon): " 0.30" is 0:30 to go;
    a minus sign in the first digit when the limit is passed ("-0.05": five seconds over)."""
    if seconds < 0:
        m, s = divmod(int(-seconds), 60)
        return f"-{m}.{s:02d}" if m < 10 else "-9.59"
    m, s = divmod(int(seconds + 0.999), 60)  # a countdown shows the second it is in
    return f"{m:2d}.{s:02d}" if m < 100 else "99.59"


class TableClock:
    def __init__(self, profile: Profile, now: float, match_minutes: int | None = None) -> None:
        self.profile = profile
        minutes = match_minutes if match_minutes is not None else profile.match.minutes
        #: time is called this long after the start (the profile may call it before the end)
        self.match_seconds = 60 * max(0, minutes - profile.match.call_minutes_before_end) if minutes else 0
        self.match_started = now
        self.paused_at: float | None = None
        self.paused_total = 0.0
        self._paused_at_start = 0.0
        self.action: Action | None = None
        self.seats: tuple[Seat, ...] = ()
        self.started = now
        self.overruns = {s: 0 for s in SEATS}
        self._overrun_reported: set[str] = set()
        self._shown: dict[Seat, str] = {}
        self._last_beep_second: int | None = None
        self.time_up = False

    # --- what the rules allow -----------------------------------------------------------

    def limit(self, action: Action | None = None) -> int:
        """Seconds allowed for an action; 0 when the profile sets none."""
        return action_limit(self.profile, action or self.action)

    def penalty(self, count: int) -> str:
        steps = self.profile.time.escalation
        return steps[min(count, len(steps)) - 1] if steps else "warning"

    # --- time ---------------------------------------------------------------------------

    def _running(self, now: float) -> float:
        """Seconds of the current action, pauses excluded."""
        paused = self.paused_total + ((now - self.paused_at) if self.paused_at is not None else 0.0)
        return max(0.0, now - self.started - (paused - self._paused_at_start))

    def match_elapsed(self, now: float) -> float:
        paused = self.paused_total + ((now - self.paused_at) if self.paused_at is not None else 0.0)
        return now - self.match_started - paused

    # --- events -------------------------------------------------------------------------

    def start_action(self, action: Action, seats: tuple[Seat, ...], now: float) -> list[Output]:
        """A new action is due from ``seats`` (the one on turn, or both tributers)."""
        self.action, self.seats, self.started = action, tuple(seats), now
        self._paused_at_start = self.paused_total + ((now - self.paused_at) if self.paused_at else 0.0)
        self._overrun_reported = set()
        self._last_beep_second = None
        out: list[Output] = [Lamp(s, "ON" if s in self.seats else "OFF") for s in SEATS]
        return out + self.tick(now, force=True)

    def pause(self, now: float) -> list[Output]:
        if self.paused_at is None:
            self.paused_at = now
        out: list[Output] = [Show(s, "----") for s in SEATS]
        return out + [Lamp(s, "BLINK") for s in SEATS]

    def resume(self, now: float) -> list[Output]:
        if self.paused_at is not None:
            self.paused_total += now - self.paused_at
            self.paused_at = None
        self._shown.clear()
        lamps: list[Output] = [Lamp(s, "ON" if s in self.seats else "OFF") for s in SEATS]
        return lamps + self.tick(now, force=True)

    def tick(self, now: float, force: bool = False) -> list[Output]:
        """Display updates (only when a text changes), beeps, overruns and time-up."""
        if self.paused_at is not None:
            return []
        out: list[Output] = []
        if not self.time_up and self.match_seconds and self.match_elapsed(now) >= self.match_seconds:
            self.time_up = True
            out.append(TimeUp(self.match_elapsed(now)))
        action = self.action
        if action is None:
            return out
        elapsed = self._running(now)
        limit = self.limit()
        left = limit - elapsed if limit else elapsed
        text = clock_text(left)
        for seat in SEATS:
            want = text if seat in self.seats else "    "
            if force or self._shown.get(seat) != want:
                self._shown[seat] = want
                out.append(Show(seat, want))
        if limit:
            whole = int(left + 0.999)
            if 0 < whole <= COUNTDOWN_BEEP_S and whole != self._last_beep_second:
                self._last_beep_second = whole
                out.append(Beep(60))
            if left < 0:
                for seat in self.seats:
                    if seat not in self._overrun_reported:
                        self._overrun_reported.add(seat)
                        self.overruns[seat] += 1
                        n = self.overruns[seat]
                        out.append(Overrun(seat, action, limit, elapsed, n, self.penalty(n)))
                        out.append(Beep(600))
        out += self._stalling(action, elapsed)
        return out

    def _stalling(self, action: Action, elapsed: float) -> list[Output]:
        """Deliberate stalling (jiangsu 2016): at each step of the profile's table the
        opponents are owed levels; reported once per step per turn."""
        out: list[Output] = []
        for step in self.profile.time.stalling:
            if elapsed >= step.seconds:
                for seat in self.seats:
                    key = f"{seat}:{step.seconds}"
                    if key not in self._overrun_reported:
                        self._overrun_reported.add(key)
                        out.append(Overrun(seat, action, self.limit(), elapsed, self.overruns[seat],
                                           f"opponents_up_{step.levels}"))
        return out

    def finish_action(self, seat: Seat) -> None:
        """``seat`` has acted (a tributer among two, say): it is off the clock."""
        self.seats = tuple(s for s in self.seats if s != seat)
