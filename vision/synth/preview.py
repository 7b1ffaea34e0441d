"""Pictures for people: a scene with its label boxes drawn on, and contact sheets of decks.

Used by the tests to save artifacts (``tests/artifacts/``) that a person should look at:
synthetic data that a human cannot read as cards on a table will not teach a model either.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.synth.deck import card_image, render_back
from vision.synth.labels import Label
from vision.synth.style import DeckStyle


def draw_labels(image: np.ndarray, labels: Sequence[Label], scale: int = 2) -> np.ndarray:
    """The image enlarged ``scale`` times with each label's box and card name."""
    out = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    for lab in labels:
        x0, y0, x1, y1 = (int(round(v * scale)) for v in lab.box)
        cv2.rectangle(out, (x0, y0), (x1, y1), (0, 255, 0), 1)
        cv2.putText(out, ALL_CARDS[lab.cls], (x0, max(8, y0 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 255, 255), 1,
                    cv2.LINE_AA)
    return out


def contact_sheet(styles: Sequence[DeckStyle], cards: Sequence[str], px_per_cm: float = 16.0,
                  boxes: bool = True) -> np.ndarray:
    """One row per style: the given cards then the back, index boxes outlined in green."""
    rows = []
    for style in styles:
        tiles = []
        for card in cards:
            img = card_image(card, style, px_per_cm)
            tile = img.bgr.copy()
            if boxes:
                for b in img.boxes:
                    cv2.rectangle(tile, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (0, 200, 0), 1)
            tiles.append(tile)
        tiles.append(render_back(style, px_per_cm))
        h = max(t.shape[0] for t in tiles) + 4
        w = int(6.3 * px_per_cm) + 4
        cells = []
        for t in tiles:
            cell = np.full((h, w, 3), 80, np.uint8)
            cell[2:2 + t.shape[0], 2:2 + t.shape[1]] = t
            cells.append(cell)
        rows.append(np.hstack(cells))
    return np.vstack(rows)
