"""Card faces printed from a font, for when no packaged deck design is installed, and the
patterned backs every stage deck wears.

The faces are plain on purpose: OpenCV's Hershey letters for the ranks, suit marks drawn
as shapes, the index in the top-left corner (and turned in the bottom-right) as on every
real deck, so the world still works on a machine without the Debian card packages.
"""

from __future__ import annotations

import cv2
import numpy as np

#: the pictures' size (width, height): a 6.3 × 8.8 cm card at about 46 px/cm
FACE_W, FACE_H = 288, 402
RED = (200, 24, 32)
BLACK = (22, 22, 26)
RANK_TEXT = {"T": "10"}


def suit_mark(image: np.ndarray, suit: str, centre: tuple[float, float], size: float, colour) -> None:
    """Draw a suit's mark (S H C D) of height ``size`` pixels at ``centre``, in place."""
    cx, cy = centre
    r = size / 2

    def pts(points) -> np.ndarray:
        return np.array([(cx + x * r, cy + y * r) for x, y in points], np.float32).round().astype(np.int32)

    def disc(x: float, y: float, radius: float) -> None:
        cv2.circle(image, (round(cx + x * r), round(cy + y * r)), round(radius * r), colour, -1, cv2.LINE_AA)

    if suit == "D":
        cv2.fillPoly(image, [pts([(0, -1), (0.72, 0), (0, 1), (-0.72, 0)])], colour, cv2.LINE_AA)
    elif suit == "H":
        for side in (-1, 1):
            disc(side * 0.45, -0.35, 0.5)
        cv2.fillPoly(image, [pts([(-0.93, -0.2), (0.93, -0.2), (0, 0.95)])], colour, cv2.LINE_AA)
    elif suit == "S":
        for side in (-1, 1):
            disc(side * 0.45, 0.2, 0.47)
        cv2.fillPoly(image, [pts([(-0.9, 0.12), (0.9, 0.12), (0, -1)])], colour, cv2.LINE_AA)
        cv2.fillPoly(image, [pts([(0, 0.3), (0.35, 1), (-0.35, 1)])], colour, cv2.LINE_AA)
    else:  # C
        for dx, dy in ((0, -0.5), (-0.5, 0.15), (0.5, 0.15)):
            disc(dx, dy, 0.42)
        cv2.fillPoly(image, [pts([(0, 0), (0.35, 1), (-0.35, 1)])], colour, cv2.LINE_AA)


def _index(image: np.ndarray, card: str, colour) -> None:
    """The corner index, top-left: the rank over the suit (jokers: JOKER down the side)."""
    if card in ("SB", "HR"):
        for i, letter in enumerate("JOKER"):
            cv2.putText(image, letter, (14, 44 + i * 34), cv2.FONT_HERSHEY_DUPLEX, 1.05, colour, 2, cv2.LINE_AA)
        return
    rank = RANK_TEXT.get(card[1], card[1])
    scale = 1.25 if len(rank) == 1 else 1.0
    cv2.putText(image, rank, (12 if len(rank) == 1 else 6, 50), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 3, cv2.LINE_AA)
    suit_mark(image, card[0], (30, 76), 30, colour)


def printed_face(card: str) -> np.ndarray:
    """A face for ``card`` (platform string) drawn from a font: RGBA bytes, FACE_H × FACE_W."""
    image = np.full((FACE_H, FACE_W, 3), 250, np.uint8)
    colour = RED if card[0] in "HD" or card == "HR" else BLACK
    cv2.rectangle(image, (3, 3), (FACE_W - 4, FACE_H - 4), (120, 120, 120), 2, cv2.LINE_AA)
    _index(image, card, colour)
    corner = image[:130, :70].copy()
    image[FACE_H - 130:, FACE_W - 70:] = corner[::-1, ::-1]
    if card in ("SB", "HR"):
        centre = (FACE_W // 2, FACE_H // 2)
        star = [(centre[0] + (90 if i % 2 == 0 else 38) * np.sin(i * np.pi / 5),
                 centre[1] - (90 if i % 2 == 0 else 38) * np.cos(i * np.pi / 5)) for i in range(10)]
        cv2.fillPoly(image, [np.array(star, np.float32).round().astype(np.int32)], colour, cv2.LINE_AA)
    else:
        suit_mark(image, card[0], (FACE_W / 2, FACE_H / 2), 120, colour)
    return np.dstack([image, np.full((FACE_H, FACE_W), 255, np.uint8)])


def back(colour: tuple[int, int, int], pattern: int) -> np.ndarray:
    """A card back: a white margin round a field of ``colour`` with a fine pattern
    (0 lattice, 1 checks, 2 rings); RGBA bytes, FACE_H × FACE_W."""
    image = np.full((FACE_H, FACE_W, 3), 246, np.uint8)
    y, x = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    if pattern == 0:
        field = (np.sin((x + y) * 0.35) * np.sin((x - y) * 0.35)) > 0
    elif pattern == 1:
        field = ((x // 9 + y // 9) % 2) > 0
    else:
        field = np.sin(np.hypot(x - FACE_W / 2, y - FACE_H / 2) * 0.5) > -0.2
    ink = np.array(colour, np.float32)
    light = ink * 0.55 + 255 * 0.45
    painted = np.where(field[..., None], ink, light).astype(np.uint8)
    margin = 16
    image[margin:-margin, margin:-margin] = painted[margin:-margin, margin:-margin]
    cv2.rectangle(image, (margin, margin), (FACE_W - margin - 1, FACE_H - margin - 1), tuple(int(c) for c in ink), 3)
    return np.dstack([image, np.full((FACE_H, FACE_W), 255, np.uint8)])
