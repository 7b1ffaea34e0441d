"""Where a zone's picture changed, cell by cell, measured against this camera's own noise.

A zone's thumbnail (``vision.live.tracker.thumbnail``: 64 × 32 grey cells, each a little under
a centimetre of table) is compared cell by cell, not by its mean: one card slid into a row
with no hand over it changes a few dozen cells a lot and the mean of the whole zone hardly at
all, and a face-down pile at the zone's far edge changes cells the played cards never lay on.

A cell has changed when it differs by more than the zone's noise floor once the two pictures'
overall brightness is matched (a lamp flickering or a camera's exposure drifting lights every
cell alike; a card changes a few). The floor is not a constant: ``NoiseFloor`` learns it from
the zone itself, from how much its cells wander from one still frame to the next (sensor
noise, a codec's blocks), so a noisy webcam and a clean one each get their own.
"""

from __future__ import annotations

import numpy as np

#: a cell must change by at least this many grey levels, however clean the camera
LEAST_FLOOR = 6.0
#: ... and by this many times the cells' own wander between still frames (its upper tail)
FLOOR_TIMES = 3.0
#: how fast the floor follows the zone's wander (a share per still frame)
FLOOR_RATE = 0.05
#: the overall gain two pictures may differ by and still be matched: beyond it, it is no
#: lamp or exposure but the zone itself that changed
GAIN_RANGE = (0.6, 1.6)


def gain_matched_difference(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Each cell's absolute difference once ``before`` is scaled to ``after``'s overall
    brightness (the ratio of their medians: the cards a play adds are too few cells to move
    the median of a zone)."""
    b, a = before.astype(np.float32), after.astype(np.float32)
    gain = float(np.median(a)) / max(float(np.median(b)), 1.0)
    gain = min(max(gain, GAIN_RANGE[0]), GAIN_RANGE[1])
    return np.abs(a - b * gain)


def changed_cells(before: np.ndarray | None, after: np.ndarray, floor: float) -> np.ndarray:
    """The cells of ``after`` that differ from ``before`` by more than ``floor`` (all of them
    where there is no ``before`` to compare with, or it is of another shape)."""
    if before is None or before.shape != after.shape:
        return np.ones(after.shape, bool)
    return gain_matched_difference(before, after) > floor


class NoiseFloor:
    """A zone's noise floor, learnt from its still frames: how far a cell may wander between
    two pictures of the same scene. Fed every pair of consecutive frames in which nothing
    moved; the floor is ``FLOOR_TIMES`` the upper tail (95th percentile: a card sliding in too
    slowly to count as motion moves fewer cells than that) of that wander, never below
    ``LEAST_FLOOR``."""

    def __init__(self) -> None:
        self.wander: float | None = None

    def observe(self, previous: np.ndarray | None, current: np.ndarray) -> None:
        if previous is None or previous.shape != current.shape:
            return
        tail = float(np.percentile(gain_matched_difference(previous, current), 95))
        self.wander = tail if self.wander is None else self.wander + FLOOR_RATE * (tail - self.wander)

    @property
    def level(self) -> float:
        return max(LEAST_FLOOR, FLOOR_TIMES * (self.wander or 0.0))
