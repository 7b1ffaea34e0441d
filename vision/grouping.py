"""Corner indices → physical cards, in the order their owner laid them.

The detector finds corner indices, not cards. In a rectified zone (``PX_PER_CM``, upright as
the player sees it) a play is a row of overlapping cards, each showing its top-left index;
the last card also shows its bottom-right index, upside down, about one card lower and to
the right. So: indices in the row's top band are cards (two of the same name side by side
are two cards — two decks hold two of each), and an index that sits one card-diagonal
below and right of a top-band index of the same name is that card's other corner. Reading
the top band left to right gives the order the cards were laid, which is what chooses a
wildcard's reading (DESIGN §5).
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.calibration import PX_PER_CM
from vision.detector import Detection

#: top-left to bottom-right index offset on a card, cm (poker 6.3 × 8.8 and bridge 5.7 × 8.8
#: cards, indices about 1 × 2 cm): the bottom-right index's centre sits this far away
DIAGONAL_CM = ((3.6, 5.8), (5.6, 7.6))
TOP_BAND_CM = 3.0
SAME_CARD_CM = 0.8


@dataclass(frozen=True)
class Laid:
    """A play as it lies in a zone: the cards left to right, each with its confidence."""

    cards: tuple[str, ...]
    confidences: tuple[float, ...]
    #: indices that fitted no card (a second row, or something misread): for the referee
    stray: tuple[str, ...] = ()

    @property
    def confidence(self) -> float:
        return min(self.confidences) if self.confidences else 1.0


def _centre_cm(d: Detection, px_per_cm: float) -> tuple[float, float]:
    x1, y1, x2, y2 = d.box
    return ((x1 + x2) / 2 / px_per_cm, (y1 + y2) / 2 / px_per_cm)


def group_cards(detections: list[Detection], px_per_cm: float = PX_PER_CM) -> Laid:
    """The cards of one zone's detections, left to right."""
    if not detections:
        return Laid((), ())
    centres = [_centre_cm(d, px_per_cm) for d in detections]
    top = min(y for _, y in centres)
    band = [i for i, (_, y) in enumerate(centres) if y - top <= TOP_BAND_CM]
    lower = [i for i in range(len(detections)) if i not in band]
    # two detections of one index (same name, same place) are one card
    cards: list[int] = []
    for i in sorted(band, key=lambda i: -detections[i].conf):
        if not any(detections[j].card == detections[i].card
                   and abs(centres[j][0] - centres[i][0]) < SAME_CARD_CM for j in cards):
            cards.append(i)
    stray = []
    (dx_lo, dy_lo), (dx_hi, dy_hi) = DIAGONAL_CM
    for i in lower:
        x, y = centres[i]
        is_other_corner = any(detections[j].card == detections[i].card
                              and dx_lo <= x - centres[j][0] <= dx_hi and dy_lo <= y - centres[j][1] <= dy_hi
                              for j in cards)
        if not is_other_corner:
            stray.append(detections[i].card)
    cards.sort(key=lambda i: centres[i][0])
    return Laid(tuple(detections[i].card for i in cards), tuple(detections[i].conf for i in cards), tuple(stray))
