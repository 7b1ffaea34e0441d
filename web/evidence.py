"""The evidence a referee looks at: the seat's zone out of an event's evidence frame, and a
close-up of the cards in it.

A table keeps, for each play, the camera's frame with the seat's zone drawn in its top-left
corner — rectified, upright, at ``PX_PER_CM``, its readings marked
(``vision.live.seat_reading.SeatReading.evidence``). The zone is 56 × 26 cm; the cards of a
play cover a part of it, and at 10 px/cm an index is about a dozen pixels tall: the
close-up cuts the zone to the cards (card faces are light, the felt is not) and enlarges
them up to ``ZOOM`` times, so the indices can be read on a phone.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.calibration import zone_size

#: the most a close-up enlarges (more shows the pixels, not the card)
ZOOM = 3.0
#: around the cards, pixels of the zone kept (a card's edge, the marks drawn on it)
MARGIN_PX = 12
#: fewer light pixels than this: no card face to cut to (a covered zone, a dark deck)
FACE_PX = 400


def _decoded(jpeg: bytes) -> np.ndarray | None:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        return None
    width, height = zone_size()
    return image[:height, :width]


def _jpeg(image: np.ndarray) -> bytes | None:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    return data.tobytes() if ok else None


def zone(jpeg: bytes) -> bytes | None:
    """The seat's zone out of an evidence frame (None: not a picture)."""
    image = _decoded(jpeg)
    return None if image is None else _jpeg(image)


def close_up(jpeg: bytes) -> bytes | None:
    """The cards in the seat's zone, cut out and enlarged to the zone's size at most ``ZOOM``
    times; the whole zone where no card face shows (None: not a picture)."""
    image = _decoded(jpeg)
    if image is None:
        return None
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    face = ((hsv[..., 2] > 150) & (hsv[..., 1] < 80)).astype(np.uint8)
    face = cv2.morphologyEx(face, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))  # specks and drawn text out
    ys, xs = np.nonzero(face)
    if len(xs) < FACE_PX:
        return _jpeg(image)
    height, width = image.shape[:2]
    x0, x1 = max(0, xs.min() - MARGIN_PX), min(width, xs.max() + 1 + MARGIN_PX)
    y0, y1 = max(0, ys.min() - MARGIN_PX), min(height, ys.max() + 1 + MARGIN_PX)
    cards = image[y0:y1, x0:x1]
    scale = min(ZOOM, width / cards.shape[1], height / cards.shape[0])
    if scale > 1:
        cards = cv2.resize(cards, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return _jpeg(cards)
