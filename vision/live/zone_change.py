"""Where a zone's picture changed, cell by cell, measured against this camera's own noise.

A zone's thumbnail (``vision.live.tracker.thumbnail``: 64 × 32 grey cells, each a little under
a centimetre of table) is compared cell by cell, not by its mean: one card slid into a row
with no hand over it changes a few dozen cells a lot and the mean of the whole zone hardly at
all, and a face-down pile at the zone's far edge changes cells the played cards never lay on.

A cell has changed when it differs by more than the zone's noise floor once the two pictures'
light is matched (a lamp flickering or a camera's exposure drifting changes every cell a
little, smoothly over the zone; a card changes a few cells a lot). The floor is not a
constant: ``NoiseFloor`` learns it from the zone itself, from how much its cells wander from
one still frame to the next (sensor noise, a codec's blocks), so a noisy webcam and a clean
one each get their own.
"""

from __future__ import annotations

from functools import lru_cache

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


#: a cell this bright is at the sensor's top, or near enough that the codec's rounding clips it
SATURATED = 240.0
#: how far (grey levels) a cell may lie from what the light alone would make of it, at first
#: (flicker bands and a lamp's drift move a zone's light by a few per cent: a white card's
#: cell by 5–10 levels; a card laid on the cloth, or a hand over it, by tens)
LIT_AT_FIRST = 19.0
#: ... and then, once the light's shape is fitted, at least this many
LIT_AFTER = 5.0


@lru_cache(maxsize=8)
def _light_terms(shape: tuple[int, int]) -> np.ndarray:
    """Per cell, the terms of a smooth light field over the zone: 1, x, y, x², xy, y² (x, y in −1..1)."""
    y, x = np.mgrid[-1:1:shape[0] * 1j, -1:1:shape[1] * 1j]
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).reshape(-1, 6).astype(np.float32)


def light_field(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Per cell, the gain by which the light alone turns ``before`` into ``after``: smooth over
    the zone, fitted to the cells that only the light changed. A lamp's flicker seen through a
    rolling shutter lights a zone in bands, brighter at one end than the other and swapping
    from frame to frame; one gain for the whole zone would leave a band's cells changed in
    every frame and the zone never still. The cells a card or a hand changes lie far from the
    light's gain and are left out of the fit (first against the median gain, then against
    the fitted field).

    The gain is fitted in log brightness, but a camera's noise is in grey levels: a dark
    cloth's cell, a few levels of noise on forty, says little of the gain, and a white
    card's says much. So each cell weighs as its brightness squared, and is left out by how
    many grey levels it lies off; weighed alike, the cloth's many noisy cells set the field
    and left a card's white cells, changed by the light, 6–9 levels off it (a ±4 % flicker)."""
    ratio = np.log(after.astype(np.float32) + 1.0) - np.log(before.astype(np.float32) + 1.0)
    flat = ratio.ravel()
    level = (before.astype(np.float32) + after.astype(np.float32)).ravel() / 2.0 + 1.0
    weight = level * level
    low, high = np.log(GAIN_RANGE[0]), np.log(GAIN_RANGE[1])
    field = np.full(flat.shape, float(np.clip(np.median(flat), low, high)), np.float32)
    terms = _light_terms(tuple(ratio.shape))
    tolerance = LIT_AT_FIRST
    unclipped = (np.maximum(before, after) < SATURATED).ravel()  # a clipped cell's ratio is not the light's
    for _ in range(2):
        off = np.abs(flat - field) * level  # grey levels
        lit = (off < tolerance) & unclipped
        if lit.sum() < 4 * terms.shape[1]:
            break
        used = terms[lit]
        weighed = used * weight[lit, None]
        ridge = 1e-6 * float(weight[lit].mean()) * np.eye(terms.shape[1], dtype=np.float32)
        coef = np.linalg.solve(used.T @ weighed + ridge, weighed.T @ flat[lit])
        field = np.clip(terms @ coef, low, high).astype(np.float32)
        spread = 1.4826 * float(np.median(np.abs(flat[lit] - field[lit]) * level[lit]))
        tolerance = max(LIT_AFTER, 3.0 * spread)
    return np.exp(field).reshape(ratio.shape)


def _unclipped_difference(before: np.ndarray, after: np.ndarray, gain: np.ndarray | float) -> np.ndarray:
    """|after − before × gain|, except where the sensor's top clips it: a cell at the top in
    ``after`` that the light would make brighter still, or one at the top in ``before`` (its
    true brightness unknown, and so the light's effect) that is now brighter than predicted,
    has not changed. A white card under a lamp swinging a few per cent brighter is one."""
    expected = before * gain
    difference = np.abs(after - expected)
    difference[((after >= SATURATED) & (expected > after)) | ((before >= SATURATED) & (after > expected))] = 0.0
    return difference


def gain_matched_difference(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Each cell's absolute difference once ``before`` is lit as ``after`` is (``light_field``:
    the cards a play adds are too few cells to move the light's fit). Where one gain for the
    whole zone already leaves every cell within half the least noise floor — most frames of a
    still zone — that is the answer, and the fit is skipped: it could only lower them."""
    b, a = before.astype(np.float32), after.astype(np.float32)
    gain = min(max(float(np.median(a)) / max(float(np.median(b)), 1.0), GAIN_RANGE[0]), GAIN_RANGE[1])
    uniform = _unclipped_difference(b, a, gain)
    if float(uniform.max()) < LEAST_FLOOR / 2:
        return uniform
    return _unclipped_difference(b, a, light_field(before, after))


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
