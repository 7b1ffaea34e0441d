"""Things that move through a staged hand: cards and arms, each a track of key poses in
time, eased between them as a hand moves (it speeds up, then slows to a stop).

A pose is (x, y, z, yaw, flip): a point on or over the table (cm), a turn about the
vertical (radians), and for a card how far it is turned over (0 face up, 1 face down;
for an arm, how far its fingers are lifted).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

Pose = tuple[float, float, float, float, float]


@dataclass
class Track:
    """Key poses at times (seconds, not decreasing), shown from ``shown`` until ``hidden``
    (None: to the end); before the first key it holds the first pose, after the last the last."""

    times: list[float] = field(default_factory=list)
    poses: list[Pose] = field(default_factory=list)
    shown: float = 0.0
    hidden: float | None = None

    def key(self, t: float, pose: Pose) -> Track:
        """Add a key pose at ``t`` (not before the last one); returns the track."""
        if self.times and t < self.times[-1] - 1e-9:
            raise ValueError(f"key at {t:.3f} s before the last at {self.times[-1]:.3f} s")
        self.times.append(float(t))
        self.poses.append(tuple(float(v) for v in pose))
        return self

    def hold(self, t: float) -> Track:
        """Stay at the last pose until ``t``."""
        return self.key(t, self.poses[-1])

    @property
    def last(self) -> Pose:
        return self.poses[-1]

    @property
    def end(self) -> float:
        return self.times[-1]

    def visible(self, t: float) -> bool:
        return t >= self.shown and (self.hidden is None or t < self.hidden)

    def at(self, t: float) -> Pose:
        """The pose at ``t``, eased between the keys around it."""
        i = bisect.bisect_right(self.times, t)
        if i == 0:
            return self.poses[0]
        if i == len(self.times):
            return self.poses[-1]
        t0, t1 = self.times[i - 1], self.times[i]
        a, b = np.asarray(self.poses[i - 1]), np.asarray(self.poses[i])
        s = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
        s = s * s * (3 - 2 * s)
        return tuple(float(v) for v in a + (b - a) * s)

    def moving(self, t: float) -> bool:
        """Whether the pose at ``t`` is changing (between two different keys)."""
        i = bisect.bisect_right(self.times, t)
        return 0 < i < len(self.times) and self.poses[i - 1] != self.poses[i]


@dataclass
class CardActor:
    """A physical card: which face it shows and which back, how it is bent and glossed,
    and its track. ``owner`` laid it; ``seq`` is the play it belongs to."""

    card: str
    face: int
    back: int
    bend: tuple[float, float]
    gloss: float
    shininess: float
    track: Track
    owner: str
    seq: int


@dataclass
class ArmActor:
    """An arm reaching in from ``seat``: its shoulder stays put, its fingertips follow the
    track (flip: the fingers lifted, 0 to 1); ``left``: a left hand (thumb on the right)."""

    seat: str
    shoulder: tuple[float, float, float]
    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float]
    left: bool
    track: Track
