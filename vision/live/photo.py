"""Corner indices in a whole photograph, whatever its size: the finder at several scales, tile by tile.

The finder learnt indices of about 10 to 40 pixels (seat zones at 6–20 px/cm). A photograph
letterboxed whole into its 640-pixel input keeps that only by luck: a 1920-pixel photo of a
table at 12–24 px/cm has 15–35-pixel indices, shrunk to 5–12, and a phone's 4032-pixel
close-up has indices of a hundred pixels. So the finder looks at the photo at each scale from
the whole photo in one input up to the photo's own pixels, each twice the one before, tile
by overlapping tile, and what the looks found is merged (``vision.live.turns.merge``: boxes that
overlap by the finder's NMS threshold are one index, at the surest look's confidence). The
photo is shrunk by area, never sampled (a plain resize of a 4K photo to 640 would alias its
indices away). The reader then reads every box in the photo itself, at full resolution.

A photo smaller than the input is enlarged by the letterbox: a 504-pixel phone photo of cards
held close has indices of 35 pixels, grown to 45, past what the finder learnt, and it found
nothing at all on cards as plain as a nine of clubs. Such a photo is also looked at shrunk to
``SHRUNK`` of its size (on a canvas of its own size, so the letterbox enlarges both alike).
Chosen on ``../shared/realphotos/edje/train`` (cards read at the right rank: as it is 473 of
527; also at 0.5 of its size 516, at 0.6 522, at 0.75 509).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.live.detector import CardDetector, Detection, find_tiled
from vision.live.turns import Found, merge

SHRUNK = 0.6


def scales(width: int, height: int, imgsz: int) -> list[float]:
    """The scales the finder looks at a ``width`` × ``height`` photo at: the whole photo in one
    input, then twice as fine each time, the last one the photo's own pixels (a step up to
    them of under 2^0.25, a fifth more, is left out: the look before sees nearly as much).
    A photo that fits one input is looked at once, as it is."""
    whole = min(1.0, imgsz / max(width, height))
    steps = max(0, math.ceil(math.log2(1.0 / whole) - 0.25)) if whole < 1.0 else 0
    return [min(1.0, whole * 2 ** k) for k in range(steps + 1)]


def find_photo(detector: CardDetector, image: np.ndarray, floor: float) -> Found:
    """The finder's boxes (pixels of ``image``) and confidences from ``floor``, at every
    scale of ``scales``, tile by tile (``vision.live.detector.find_tiled``, tiles overlapping by a
    quarter, so an index cut by one tile's edge lies whole in the next), merged; a photo
    smaller than the input as it is and shrunk (``SHRUNK``)."""
    height, width = image.shape[:2]
    tile = detector.imgsz
    if max(height, width) < tile:
        return merge([detector.find(image, floor), _shrunk_look(detector, image, floor)], detector.iou)
    looks: list[Found] = []
    for scale in scales(width, height, tile):
        shrunk = _shrink(image, scale)
        looks.append(_in_photo(find_tiled(detector, shrunk, floor, tile, tile // 4), image, shrunk))
    return merge(looks, detector.iou)


def _shrunk_look(detector: CardDetector, image: np.ndarray, floor: float) -> Found:
    """The finder's boxes (pixels of ``image``) in ``image`` shrunk to ``SHRUNK`` of its size
    and laid on a grey canvas of its own size."""
    small = _shrink(image, SHRUNK)
    canvas = np.full_like(image, 114)  # the letterbox's own grey
    canvas[:small.shape[0], :small.shape[1]] = small
    return _in_photo(detector.find(canvas, floor), image, small)


def _shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` at ``scale`` of its size, by area (a plain resize would alias small indices
    away); itself at 1."""
    if scale == 1.0:
        return image
    height, width = image.shape[:2]
    return cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                      interpolation=cv2.INTER_AREA)


def _in_photo(found: Found, image: np.ndarray, shrunk: np.ndarray) -> Found:
    """Boxes found in ``shrunk`` (``image`` made smaller) in ``image``'s pixels."""
    kx, ky = image.shape[1] / shrunk.shape[1], image.shape[0] / shrunk.shape[0]
    return [((x1 * kx, y1 * ky, x2 * kx, y2 * ky), f) for (x1, y1, x2, y2), f in found]


def detect_photo(detector: CardDetector, image: np.ndarray, conf: float | None = None) -> list[Detection]:
    """Detections in an image of any size, read at full resolution; ``conf`` overrides the
    detector's threshold. An image the size of the finder's input is looked at as
    ``CardDetector.detect`` looks (its views); a smaller one also shrunk, a bigger one at
    every scale (``find_photo``)."""
    if max(image.shape[:2]) == detector.imgsz:
        return detector.detect(image, conf)
    floor = detector.conf if conf is None else conf
    return detector.read(image, find_photo(detector, image, floor), floor)
