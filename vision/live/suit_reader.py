"""The suit reader: a card's suit from its index *and the pips beside and below it*.

The index reader (``vision.live.reader``) sees a corner index closely framed, and on some decks
the suit sign printed in the index is a blot of four or five pixels in a table camera's
zone: a spade and a club are then the same blot (``models/README.md``: most of its wrong
readings). The big pips of a 4–10 lie in the strip of the card that a row of overlapping
cards leaves visible, just right of or below the top-left index, at twice the index sign's
size. This reader looks at that area, anchored at the index box, and says only which suit
it shows; ``vision.live.suit_fold`` folds its opinion into the index reader's.

The area is the box's top-left corner extended right and down by multiples of the box's
longer side ``s`` (a ``View``'s reach; the committed reader's: about 2.5 × 3.5 cm of a
card), so one reader fits every index size. A reader carries its view (ONNX metadata
``reach``, and its input's size), so readers that look further can be trained and compared.
It assumes upright cards, as a rectified seat zone shows them (``vision.live.calibration``:
cards lie facing their owner); a card's other corners give it an area beside the card,
where it learnt to fall back on the index's own sign. Trained on rendered rows of cards
(``vision.training.suit_train``); run by OpenVINO, a small part of a busy zone's reading.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cards import SUITS
from vision.live.reader import ReaderError, load_model, run, said, softmax


@dataclass(frozen=True)
class View:
    """What a suit reader looks at: the area ``reach`` (left, top, right, bottom, in multiples
    of the index box's longer side from the box's top-left corner) at ``width``×``height``
    pixels (at least 8 each: the network halves them three times)."""

    reach: tuple[float, float, float, float] = (-0.15, -0.15, 1.35, 1.85)
    width: int = 36
    height: int = 48

    def check(self) -> None:
        left, top, right, bottom = self.reach
        if not (left < 0 < right and top < 0 < bottom):
            raise ValueError(f"a view's reach must hold the box's corner: {self.reach}")
        if min(self.width, self.height) < 8:
            raise ValueError(f"a view must be at least 8 pixels each way, not {self.width}×{self.height}")


VIEW = View()  # a reader without a stored view has this one


def suit_patch(image: np.ndarray, box: tuple[float, float, float, float], view: View = VIEW, angle: float = 0.0,
               shift: tuple[float, float] = (0.0, 0.0), scale: float = 1.0) -> np.ndarray:
    """The BGR patch of ``view``'s area around an index ``box``.

    ``angle`` (degrees, about the box centre), ``shift`` (fractions of the box's longer side)
    and ``scale`` are for training, where a finder's imperfect box and a card laid a little
    askew are imitated; live reading uses the defaults. Outside the image the border
    pixels are repeated."""
    x1, y1, x2, y2 = box
    s = max(x2 - x1, y2 - y1, 1.0) * scale
    left, top, right, bottom = view.reach
    # the area's corners in the image, before turning: a WIDTH×HEIGHT grid over them
    ox, oy = x1 + left * s + shift[0] * s, y1 + top * s + shift[1] * s
    kx, ky = view.width / ((right - left) * s), view.height / ((bottom - top) * s)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    a = math.radians(angle)
    cos, sin = math.cos(a), math.sin(a)
    # image → patch: turn about the box centre, then scale the area onto the patch
    turn = np.array([[cos, sin, cx - cos * cx - sin * cy], [-sin, cos, cy + sin * cx - cos * cy], [0, 0, 1]])
    fit = np.array([[kx, 0, -kx * (ox - 0.5) - 0.5], [0, ky, -ky * (oy - 0.5) - 0.5], [0, 0, 1]])
    m = (fit @ turn)[:2]
    flags = cv2.INTER_AREA if min(kx, ky) < 0.5 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (view.width, view.height), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def reach_of(path: Path, model=None) -> tuple[float, float, float, float]:
    """The reach a suit reader was trained with: its ONNX metadata, or what an 8-bit one
    carried over from it (``vision.live.reader.said``; ``model``: the reader already read)."""
    given = said(path, "reach", "", model)
    if not given:
        return VIEW.reach
    try:
        left, top, right, bottom = (float(v) for v in given.split())
    except ValueError:
        raise ReaderError(f"{path}: its reach metadata is not four numbers ({given!r})") from None
    return left, top, right, bottom


class SuitReader:
    """Reads suit patches with the exported model (``models/suits.onnx``)."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        model, self.request = load_model(path, len(SUITS), "suit reader")
        height, width = (d.get_length() for d in list(model.inputs[0].get_partial_shape())[2:])
        self.view = View(reach_of(path, model), width, height)
        self.path = path

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """N×4 suit probabilities (``SUITS`` order) for N suit patches."""
        if len(patches) == 0:
            return np.zeros((0, len(SUITS)), np.float32)
        return softmax(run(self.request, patches))

    def read(self, image: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
        """N×4 suit probabilities for the indices boxed in ``image``."""
        if not boxes:
            return np.zeros((0, len(SUITS)), np.float32)
        return self.probabilities(np.stack([suit_patch(image, b, self.view) for b in boxes]))

