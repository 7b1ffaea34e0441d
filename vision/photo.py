"""Corner indices in a whole photograph, whatever its size: the finder at several scales, tile by tile.

The finder learnt indices of about 10 to 40 pixels (seat zones at 6–20 px/cm). A photograph
letterboxed whole into its 640-pixel input keeps that only by luck: a 1920-pixel photo of a
table at 12–24 px/cm has 15–35-pixel indices, shrunk to 5–12, and a phone's 4032-pixel
close-up has indices of a hundred pixels. So the finder looks at the photo at each scale from
the whole photo in one input up to the photo's own pixels, each twice the one before, tile
by overlapping tile, and what the looks found is merged (``vision.turns.merge``: boxes that
overlap by the finder's NMS threshold are one index, at the surest look's confidence). The
photo is shrunk by area, never sampled (a plain resize of a 4K photo to 640 would alias its
indices away). The reader then reads every box in the photo itself, at full resolution.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.detector import CardDetector, Detection
from vision.turns import Found, merge

#: tiles overlap by this share of their side, so an index cut by one tile's edge lies whole in the next
OVERLAP = 0.25


def scales(width: int, height: int, imgsz: int) -> list[float]:
    """The scales the finder looks at a ``width`` × ``height`` photo at: the whole photo in one
    input, then twice as fine each time, the last one the photo's own pixels. A photo that
    fits one input is looked at once, as it is."""
    whole = min(1.0, imgsz / max(width, height))
    steps = max(0, math.ceil(math.log2(1.0 / whole) - 0.25)) if whole < 1.0 else 0
    return [min(1.0, whole * 2 ** k) for k in range(steps + 1)]


def starts(length: int, tile: int) -> list[int]:
    """Where tiles of ``tile`` pixels start along a side of ``length``: overlapping by
    ``OVERLAP``, the last one flush with the end."""
    if length <= tile:
        return [0]
    step = int(tile * (1 - OVERLAP))
    return list(range(0, length - tile, step)) + [length - tile]


def find_photo(detector: CardDetector, image: np.ndarray, floor: float) -> Found:
    """The finder's boxes (pixels of ``image``) and confidences from ``floor``, at every
    scale of ``scales`` and every tile, merged."""
    height, width = image.shape[:2]
    tile = detector.imgsz
    looks: list[Found] = []
    for scale in scales(width, height, tile):
        shrunk = image if scale == 1.0 else cv2.resize(
            image, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
        h, w = shrunk.shape[:2]
        kx, ky = width / w, height / h
        for y0 in starts(h, tile):
            for x0 in starts(w, tile):
                piece = shrunk[y0:y0 + tile, x0:x0 + tile]
                found = []
                for (x1, y1, x2, y2), f in detector.find(piece, floor):
                    inner_left, inner_top = x0 > 0 and x1 < 2, y0 > 0 and y1 < 2
                    inner_right = x0 + tile < w and x2 > piece.shape[1] - 2
                    inner_bottom = y0 + tile < h and y2 > piece.shape[0] - 2
                    if inner_left or inner_top or inner_right or inner_bottom:
                        continue  # cut by this tile's edge: the neighbouring tile sees it whole
                    found.append((((x1 + x0) * kx, (y1 + y0) * ky, (x2 + x0) * kx, (y2 + y0) * ky), f))
                looks.append(found)
    return merge(looks, detector.iou)


def detect_photo(detector: CardDetector, image: np.ndarray, conf: float | None = None) -> list[Detection]:
    """Detections in an image of any size, read at full resolution; ``conf`` overrides the
    detector's threshold. An image that fits the finder's input is looked at as
    ``CardDetector.detect`` looks (its views); a bigger one at every scale (``find_photo``)."""
    if max(image.shape[:2]) <= detector.imgsz:
        return detector.detect(image, conf)
    floor = detector.conf if conf is None else conf
    return detector.read(image, find_photo(detector, image, floor), floor)
