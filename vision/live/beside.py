"""Blank paper beside an index: the card is an ace, a 2 or a 3.

A 4 to a 10 prints a column of pips a little right of its top-left index, and a court card
its picture; an ace, a 2 and a 3 print theirs down the card's middle, so beside their index
lies bare paper. In a row of cards laid 1.8–2.6 cm apart that strip is what shows between
one card's index and the next card's edge. The index reader sees the index alone, and where
the camera blurs it a 3 reads as a 5 (the anglo designs in the second world: a bomb of 3s
recorded as 5s). The strip is many pixels of plain evidence: ink there or none.

``blank_beside`` looks at the strip right of an index, up to the next index or the end of a
pip column's reach, and says blank, inked, or nothing where the strip is too narrow or is
not the index's own card stock (a bottom-right corner has the cloth beside it).
``with_blank_beside`` then takes, for an index read as a 4 to a king with blank paper beside
it, the reader's likeliest ace, 2 or 3 among its runners-up: the reader read the suit and
the shape, the paper says which shape. Where the reader named no such card nothing changes,
and ink beside an index changes nothing either (a neighbour's edge or shadow may be ink).

Not every deck prints its pips there: a jumbo-index deck may print one big sign in the
card's middle, and its 4s and 9s have bare paper beside the index too (a generated style in
the first world: a committed D4 renamed D3, then counted again as new). So the table learns
its deck first (``DeckBeside``), as it learns its inks: from the 4s to 10s it reads surely,
whether they show ink beside the index. Only a deck whose sure 4s to 10s all but always do
has its blank strips read as aces, 2s and 3s.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import cv2
import numpy as np

from engine.cards import rank_of
from vision.live.calibration import PX_PER_CM
from vision.live.detector import Detection

#: ranks whose top-left index has pips or a picture beside it, and those with bare paper
INKED_BESIDE = frozenset("456789TJQK")
BARE_BESIDE = frozenset("A23")
#: the ranks that tell whether a deck prints pips beside the index (a court's picture is
#: always there), read at least this surely
PIPS_BESIDE = frozenset("456789T")
SURE = 0.6
#: the deck prints its pips beside the index once this many sure 4s to 10s were looked at and
#: at most this share of them had bare paper there; the last ``MEMORY`` are kept
LEAST_SEEN, BLANK_AT_MOST, MEMORY = 6, 0.1, 60
#: the strip: from this far right of the index box, to this far right of its left edge, and
#: this far down from its top (cm): a pip column's reach on poker and bridge cards
GAP_CM, REACH_CM, DOWN_CM = 0.1, 2.2, 4.5
#: ... stopping this far short of the next index to its right (that card's edge lies there)
EDGE_CM = 0.4
#: a strip narrower than this says nothing
LEAST_WIDTH_CM = 0.3
#: a pixel absorbing this share of the paper's light is ink; a blob of ink this big is a mark
INK = 0.25
MARK_CM2 = 0.08
#: the strip is card stock where its paper is this bright beside the index's own: beside a
#: bottom-right corner lies the cloth (and where the strip is part cloth, the cloth is a mark)
PAPER_NEAR = 0.8


def _paper(pixels: np.ndarray) -> np.ndarray:
    """The paper's colour among ``pixels`` (N × 3): the brightest tenth's per channel."""
    return np.percentile(pixels, 90, axis=0)


def blank_beside(image: np.ndarray, box: tuple[float, float, float, float],
                 others: list[tuple[float, float, float, float]], px_per_cm: float = PX_PER_CM) -> bool | None:
    """Whether the strip right of the index in ``box`` is bare paper (True), holds a mark of
    ink (False), or says nothing (None: too narrow, or not the index's card)."""
    x1, y1, x2, y2 = box
    left, right = x2 + GAP_CM * px_per_cm, x1 + REACH_CM * px_per_cm
    top, bottom = y1, y1 + DOWN_CM * px_per_cm
    for ox1, oy1, _ox2, oy2 in others:
        if ox1 > x2 - 0.2 * px_per_cm and oy2 > top and oy1 < bottom:
            right = min(right, ox1 - EDGE_CM * px_per_cm)
    height, width = image.shape[:2]
    cols = slice(max(0, int(round(left))), min(width, int(round(right))))
    rows = slice(max(0, int(round(top))), min(height, int(round(bottom))))
    if cols.stop - cols.start < LEAST_WIDTH_CM * px_per_cm or rows.stop - rows.start < 0.5 * DOWN_CM * px_per_cm:
        return None
    strip = image[rows, cols].astype(np.float32)
    index = image[max(0, int(y1)):int(y2), max(0, int(x1)):int(x2)].reshape(-1, 3).astype(np.float32)
    if len(index) == 0:
        return None
    paper = _paper(strip.reshape(-1, 3))
    if float(paper.mean()) < PAPER_NEAR * float(_paper(index).mean()):
        return None
    absorbed = np.clip(1.0 - strip / np.maximum(paper, 1.0), 0.0, 1.0).mean(axis=2)
    _, _, stats, _ = cv2.connectedComponentsWithStats((absorbed >= INK).astype(np.uint8), connectivity=8)
    marks = stats[1:, cv2.CC_STAT_AREA] >= MARK_CM2 * px_per_cm ** 2
    return not bool(marks.any())


def with_blank_beside(detections: list[Detection], image: np.ndarray, px_per_cm: float = PX_PER_CM
                      ) -> list[Detection]:
    """``detections`` with each index read as a 4 to a king that has bare paper beside it
    read as the likeliest ace, 2 or 3 among its runners-up, at the reader's confidence in
    both; the name it had becomes a runner-up."""
    boxes = [d.box for d in detections]
    out = []
    for n, d in enumerate(detections):
        bare = [(name, conf) for name, conf in d.others if rank_of(name) in BARE_BESIDE]
        if rank_of(d.card) in INKED_BESIDE and bare and \
                blank_beside(image, d.box, boxes[:n] + boxes[n + 1:], px_per_cm):
            name, conf = bare[0]
            others = sorted([(d.card, d.conf), *((o, c) for o, c in d.others if o != name)], key=lambda kv: -kv[1])
            d = replace(d, card=name, conf=min(1.0, d.conf + conf), others=tuple(others))
        out.append(d)
    return sorted(out, key=lambda d: -d.conf)


class DeckBeside:
    """Whether this table's deck prints its pips beside the index, learnt from its reads."""

    def __init__(self) -> None:
        self.seen: deque[bool] = deque(maxlen=MEMORY)  # for each sure 4 to 10: bare paper beside it

    def learn(self, detections: list[Detection], image: np.ndarray, px_per_cm: float = PX_PER_CM) -> None:
        """Remember, for each 4 to 10 read surely in ``image``, whether paper beside it is bare."""
        boxes = [d.box for d in detections]
        for n, d in enumerate(detections):
            if d.conf >= SURE and rank_of(d.card) in PIPS_BESIDE:
                blank = blank_beside(image, d.box, boxes[:n] + boxes[n + 1:], px_per_cm)
                if blank is not None:
                    self.seen.append(blank)

    @property
    def prints_pips_beside(self) -> bool:
        return len(self.seen) >= LEAST_SEEN and sum(self.seen) <= BLANK_AT_MOST * len(self.seen)

    def settle(self, detections: list[Detection], image: np.ndarray, px_per_cm: float = PX_PER_CM
               ) -> list[Detection]:
        """``with_blank_beside`` where the deck prints its pips beside the index; else as read."""
        return with_blank_beside(detections, image, px_per_cm) if self.prints_pips_beside else detections
