"""The box refiner: a corner index's box drawn again, tightly, from a close look at it.

The finder (a one-class YOLO trained on two CPU cores) puts its boxes around an index
only roughly, and at 8 px/cm an index is a dozen pixels tall: one pixel off is a tenth of
it. The readings were right; only the boxes were loose, and a box is what a
stream overlay draws and what mAP50-95 scores (``models/README.md``).

The refiner looks at the same close patch the reader reads (``vision.live.reader.patch``: the
box's longer side plus a margin, scaled to 40×40) and says where the index's four edges
lie in it. Its answer is in units of the patch's side, from the patch's centre, so one
network fits every index size; the new box is mapped back to image pixels. Each patch is
also read turned a half turn, as the reader reads it, and the two answers averaged: a
card's two corners are half-turn copies, so the refiner learnt both views.

Trained by ``vision.training.box_train`` (``guandan train-boxes``) on patches cut around rendered
indices from the finder's own boxes and from boxes shaken as the finder's are; run by
OpenVINO.

A *second look* is a second refiner of the same shape that draws the box once more from a
patch cut around the first refiner's box, framed closer (``SECOND_LOOK_PAD``), and trained
on the first refiner's own boxes (``guandan train-boxes --after``): the first look's box is
within a pixel or so, so the second sees the index bigger and learns only the last
correction. The same refiner looking twice learnt no such thing (it was trained on the
finder's rougher boxes) and gained almost nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.live.reader import PAD, load_model, pad_of, patch, run

Box = tuple[float, float, float, float]
#: the most a refined edge may move, in patch sides: the finder's box found the index, so a
#: refinement that would move an edge further than this is a misreading of the patch
REACH = 0.35
#: a second look's margin around the first look's box (the first look's is ``PAD``): its box is
#: already close, so less margin puts more of the patch's pixels on the index
SECOND_LOOK_PAD = 0.1


def targets(found: np.ndarray, truth: np.ndarray, pad: float = PAD) -> np.ndarray:
    """What the refiner learns: ``truth`` boxes (N×4, x1 y1 x2 y2) in the patches cut around
    ``found`` boxes — each edge's offset from the patch's centre in patch sides."""
    side, cx, cy = _frame(found, pad)
    return np.stack([(truth[:, 0] - cx) / side, (truth[:, 1] - cy) / side,
                     (truth[:, 2] - cx) / side, (truth[:, 3] - cy) / side], axis=1).astype(np.float32)


def boxes_from(found: np.ndarray, edges: np.ndarray, pad: float = PAD) -> np.ndarray:
    """The boxes (N×4, pixels) that the refiner's ``edges`` describe in the patches cut around
    ``found``: ``targets``' inverse."""
    side, cx, cy = _frame(found, pad)
    return np.stack([cx + edges[:, 0] * side, cy + edges[:, 1] * side,
                     cx + edges[:, 2] * side, cy + edges[:, 3] * side], axis=1)


def turned(edges: np.ndarray) -> np.ndarray:
    """Edges read in a patch turned a half turn, as they lie in the patch itself."""
    return -edges[:, [2, 3, 0, 1]]


def _frame(boxes: np.ndarray, pad: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each box's patch: its side and centre in pixels (as ``vision.live.reader.patch`` frames it)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    side = np.maximum(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]), 1.0) * (1.0 + pad)
    return side, (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2


class BoxRefiner:
    """Refines the finder's boxes with the exported model (``models/boxes.onnx``)."""

    def __init__(self, path: str | Path) -> None:
        path = self.path = Path(path)
        model, self.request = load_model(path, 4, "box refiner")
        self.pad = pad_of(path, model)

    def edges(self, patches: np.ndarray) -> np.ndarray:
        """N×4 edges (x1 y1 x2 y2 from the patch's centre, in patch sides) for N patches,
        each the mean of the patch's reading and its half-turned copy's."""
        if len(patches) == 0:
            return np.zeros((0, 4), np.float32)
        both = np.concatenate([patches, patches[:, ::-1, ::-1]])
        out = run(self.request, both).astype(np.float64)
        return (out[:len(patches)] + turned(out[len(patches):])) / 2

    def refine(self, image: np.ndarray, boxes: list[Box]) -> list[Box]:
        """``boxes`` (pixels of ``image``) drawn again around the index each holds. An edge
        is moved at most ``REACH`` patch sides, and never across the opposite one."""
        if not boxes:
            return []
        found = np.asarray(boxes, np.float64)
        edges = self.edges(np.stack([patch(image, b, pad=self.pad) for b in boxes]))
        start = targets(found, found, self.pad)
        edges = np.clip(edges, start - REACH, start + REACH)
        out = boxes_from(found, edges, self.pad)
        bad = (out[:, 2] - out[:, 0] < 1.0) | (out[:, 3] - out[:, 1] < 1.0)
        out[bad] = found[bad]
        return [tuple(float(v) for v in row) for row in out]

