"""Whether a card's index is the one that lay there before: the zone's own pixels, not names.

A seat that plays twice in a trick may lay its second play square over its first: a bomb of
fives over a straight from four, a second straight over the first. The new cards' indices
lie where the old ones' did, and their names alone cannot say whether the card there is the
committed one read another way (a reader's doubt between a 5 and a 6) or a new card over it.
Nor can a zone's coarse thumbnail (``vision.live.tracker.thumbnail``: cells of nearly a
centimetre): a five's ink over a four's averages out the same. The index itself can: the
patch of the zone around it, as it was when the cards were committed, is found again where
the same card still lies, a few pixels off at most (a card nudged, the warp's jitter), and
not where another index covers it. Normalised correlation makes it blind to the light's
level (a lamp's flicker, the exposure drifting).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.calibration import PX_PER_CM

#: the patch around an index's centre compared, half its width and height, cm: the index
#: and little else (a wider patch is mostly the card's edge, alike under any index)
HALF_CM = (0.45, 0.9)
#: the blur taken away first, px: what is compared is the index's strokes, not the light
#: over it (an arm's shadow darkens one end of a patch) nor the card's broad edge
DETAIL_SIGMA = 1.5
#: how far the index may have moved, px, and still be found (a nudge, the warp's jitter)
SHIFT_PX = 1
#: a patch whose grey levels spread less than this is blank (cloth, a card's white)
BLANK_SPREAD = 6.0
#: where the before patch is found again this well (normalised correlation), the index is the
#: same: on diagnosis games the same index scored 0.816-1.0 (a blurred stage index the least),
#: another index laid at its place 0.46-0.77; the line is drawn between them
SAME = 0.79


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def likeness(before: np.ndarray, now: np.ndarray, place: tuple[float, float],
             px_per_cm: float = PX_PER_CM) -> float:
    """How well the zone around ``place`` (cm) in ``before`` is found again in ``now`` within
    ``SHIFT_PX``: 1 the same, near 0 another picture. Two blank patches are the same; one
    blank and one not are not."""
    x, y = place[0] * px_per_cm, place[1] * px_per_cm
    hw, hh = HALF_CM[0] * px_per_cm, HALF_CM[1] * px_per_cm
    rows, cols = before.shape[:2]
    x0, x1 = int(round(x - hw)), int(round(x + hw))
    y0, y1 = int(round(y - hh)), int(round(y + hh))
    if x0 - SHIFT_PX < 0 or y0 - SHIFT_PX < 0 or x1 + SHIFT_PX > cols or y1 + SHIFT_PX > rows:
        return 0.0  # at the zone's edge: not to be told, so new
    patch = _grey(before[y0:y1, x0:x1]).astype(np.float32)
    around = _grey(now[y0 - SHIFT_PX:y1 + SHIFT_PX, x0 - SHIFT_PX:x1 + SHIFT_PX]).astype(np.float32)
    blank_before = float(patch.std()) < BLANK_SPREAD
    blank_now = float(around[SHIFT_PX:-SHIFT_PX, SHIFT_PX:-SHIFT_PX].std()) < BLANK_SPREAD
    if blank_before or blank_now:
        return 1.0 if blank_before and blank_now else 0.0
    return float(cv2.matchTemplate(_detail(around), _detail(patch), cv2.TM_CCOEFF_NORMED).max())


def _detail(patch: np.ndarray) -> np.ndarray:
    """A patch less its blur (``DETAIL_SIGMA``): strokes and edges, not the light's slope."""
    return patch - cv2.GaussianBlur(patch, (0, 0), DETAIL_SIGMA)


def unchanged(before: np.ndarray, now: np.ndarray, places: tuple[tuple[float, float], ...]) -> tuple[bool, ...]:
    """For each index place (cm), whether the zone shows there what it showed before."""
    return tuple(likeness(before, now, place) >= SAME for place in places)
