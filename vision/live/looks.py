"""Several looks at a still zone pooled into one reading.

A zone that has just come to rest is seen again in the next frames: the same cards, but a
camera's sensor noise and its video compression differ from frame to frame, so an index
read on the edge between a spade and a club in one frame is not read from exactly the same
pixels in the next. Pooling the reader's confidences over a few looks reads such indices
more steadily than any one look. An index is the same in two looks when their boxes
overlap (``SAME_INDEX_IOU``); an index one look did not find counts as read nothing there,
so a flicker of a false detection fades instead of being kept.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from vision.live.detector import RUNNERS_UP, Detection

SAME_INDEX_IOU = 0.5


@dataclass
class _Place:
    """One index over the looks: where its surest reading found it, and per look its cards' confidences."""

    box: tuple[float, float, float, float]
    surest: float
    scores: list[dict[str, float]]


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def pool(looks: list[list[Detection]], least: float = 0.0) -> list[Detection]:
    """One reading of a still zone from its ``looks`` (each a frame's detections).

    Each index's cards are scored by their confidence (likeliest and runners-up) summed
    over the looks and divided by the number of looks; the best-scoring card is the
    reading, the next ones its runners-up, the box the surest look's. Indices scoring
    below ``least`` are dropped.
    Within one look an index read twice (the overlap of two tiles) counts once, at its
    surer reading."""
    if not looks:
        return []
    if len(looks) == 1:
        return [d for d in looks[0] if d.conf >= least]
    places: list[_Place] = []
    for n, look in enumerate(looks):
        for d in sorted(look, key=lambda d: -d.conf):
            place = next((p for p in places if iou(p.box, d.box) >= SAME_INDEX_IOU), None)
            if place is None:
                place = _Place(d.box, d.conf, [defaultdict(float) for _ in looks])
                places.append(place)
            elif d.conf > place.surest:
                place.box, place.surest = d.box, d.conf
            scores = place.scores[n]
            for card, conf in ((d.card, d.conf), *d.others):
                scores[card] = max(scores[card], conf)
    out = []
    for place in places:
        total: dict[str, float] = defaultdict(float)
        for scores in place.scores:
            for card, conf in scores.items():
                total[card] += conf / len(looks)
        ranked = sorted(total.items(), key=lambda kv: -kv[1])
        card, conf = ranked[0]
        if conf >= least:
            out.append(Detection(card, conf, place.box, tuple(ranked[1:RUNNERS_UP + 1])))
    return sorted(out, key=lambda d: -d.conf)
