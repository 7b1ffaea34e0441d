"""The enrollment layout as a printable guide: 54 places in 6 rows of 9, each with its card,
North at the top, as the South seat sees them (``guandan enroll --guide FILE``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.enroll.layout import COLUMNS, LAYOUT

CELL, GAP, MARGIN = (150, 200), 20, 70
INKS = {"S": (0, 0, 0), "H": (0, 0, 200), "C": (0, 110, 0), "D": (0, 90, 220)}  # BGR, as a four-colour deck
SUITS = {"S": "spade", "H": "heart", "C": "club", "D": "diamond"}
JOKERS = {"SB": ("small", "joker"), "HR": ("big", "joker")}


def guide_picture() -> np.ndarray:
    """The guide (BGR, 1550 × 1480 pixels: an A4 page at about 130 dpi)."""
    (cw, ch), rows = CELL, len(LAYOUT) // COLUMNS
    width = COLUMNS * cw + (COLUMNS + 1) * GAP
    height = rows * ch + (rows + 1) * GAP + 2 * MARGIN
    page = np.full((height, width, 3), 255, np.uint8)
    _text(page, "NORTH", (width // 2 - 55, 48), 1.2, 2)
    _text(page, "SOUTH: every card upright as South sees it, 5 mm apart, inside the four markers",
          (GAP, height - 25), 0.75, 2)
    for i, card in enumerate(LAYOUT):
        row, column = divmod(i, COLUMNS)
        x, y = GAP + column * (cw + GAP), MARGIN + GAP + row * (ch + GAP)
        cv2.rectangle(page, (x, y), (x + cw, y + ch), (80, 80, 80), 2)
        _text(page, str(i + 1), (x + 8, y + 28), 0.7, 1, (120, 120, 120))
        if card in JOKERS:
            ink = INKS["S"] if card == "SB" else INKS["H"]
            for k, word in enumerate(JOKERS[card]):
                _text(page, word, (x + 25, y + 100 + 45 * k), 1.0, 2, ink)
            continue
        ink = INKS[card[0]]
        _text(page, "10" if card[1] == "T" else card[1], (x + 45, y + 110), 1.8, 4, ink)
        _text(page, SUITS[card[0]], (x + 25, y + 160), 0.9, 2, ink)
    return page


def _text(page: np.ndarray, text: str, at: tuple[int, int], scale: float, thickness: int,
          ink: tuple[int, int, int] = (0, 0, 0)) -> None:
    cv2.putText(page, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thickness, cv2.LINE_AA)
