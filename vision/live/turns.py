"""Looking at an image turned by quarter turns: the turned image, its boxes brought back, the views merged.

The finder was trained on indices lying at every angle, but it does not find them equally
well at every angle: some indices it scores too low as the zone lies score well in a turned
view. Looking at the same image turned by each quarter turn and merging what the four views
found reads more held-out indices right for four times the finder's time, so ``guandan
detect`` and ``eval-detector`` look at a 320×320 zone four ways by default. Whole photos at
640 gained nothing, so there they look once unless told. The live loop looks once: four
views of a busy zone would take it past the camera's pace on a 2-core table node, and
turning each of its pooled looks at a still zone a different way read no more plays and
raised false alerts (``docs/experiments.md``). Quarter turns lose no pixel (no
resampling), unlike any other angle.
"""

from __future__ import annotations

import numpy as np

from vision.live.boxes import iou_matrix

Box = tuple[float, float, float, float]
Found = list[tuple[Box, float]]

#: the quarter turns (counter-clockwise) each number of views looks at
VIEWS = {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}


def turned(image: np.ndarray, quarter: int) -> np.ndarray:
    """``image`` turned ``quarter`` quarter turns counter-clockwise (as ``np.rot90``)."""
    return np.ascontiguousarray(np.rot90(image, quarter % 4))


def boxes_back(boxes: np.ndarray, quarter: int, width: int, height: int) -> np.ndarray:
    """Boxes (N×4, x1 y1 x2 y2) found in the image turned ``quarter`` quarter turns, in
    pixels of the unturned image, which is ``width`` × ``height``. Box edges are continuous
    coordinates: the image spans 0..width, so a point (x, y) turned a quarter lands at
    (y, width - x)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    x1, y1, x2, y2 = b.T
    quarter %= 4
    if quarter == 0:
        return b.copy()
    if quarter == 1:
        return np.stack([width - y2, x1, width - y1, x2], axis=1)
    if quarter == 2:
        return np.stack([width - x2, height - y2, width - x1, height - y1], axis=1)
    return np.stack([y1, height - x2, y2, height - x1], axis=1)


def merge(views: list[Found], iou: float) -> Found:
    """What several views found, one entry per index: boxes overlapping by ``iou`` or more
    are the same index, found by more than one view. It keeps the surest view's confidence
    (a view that missed the index says nothing against it) and the views' boxes averaged,
    weighted by their confidences (each view's box errs its own way; the average is
    tighter than the surest box alone)."""
    found = [f for view in views for f in view]
    if len(views) == 1 or not found:
        return list(found)
    boxes = np.array([b for b, _ in found], np.float64)
    confs = np.array([c for _, c in found], np.float64)
    order = np.argsort(-confs, kind="stable")
    boxes, confs = boxes[order], confs[order]
    overlap = iou_matrix(boxes, boxes)
    taken = np.zeros(len(boxes), bool)
    out: Found = []
    for i in range(len(boxes)):
        if taken[i]:
            continue
        group = np.flatnonzero(~taken & (overlap[i] >= iou))
        taken[group] = True
        weights = confs[group][:, None]
        box = (boxes[group] * weights).sum(axis=0) / weights.sum()
        out.append((tuple(float(v) for v in box), float(confs[i])))
    return out
