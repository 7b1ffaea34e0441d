"""A card lying in a seat's zone whose corners the reader cannot name: what it likely is.

Every index style the reader was trained on it reads; what it cannot read is a corner unlike
any it saw, and of a competition deck's 54 cards the jokers' corners vary most (a strip of
ornaments, the word JOKER, 大王 in a seal). Such a card lying still in its seat's zone has
marks the finder sees, but the reader says "no index" there, so the zone looks covered and
the play would go unrecorded, with false alerts and a wrong result after it. Read again with
every mark the finder sees, the marks do say which card it likely is, once the cards the
hand has already shown twice are ruled out.

``unread_card`` looks at every mark the finder sees in the zone and takes, for each card,
the reader's surest reading of it on any mark, leaving out the cards of which the hand has
seen both copies. It names a card only when it clearly leads the next card (``LEAD``
times) and either something card-like is there (a mark of at least ``MARKS``: a hand over
an empty zone has none) and one mark reads it outright (at least ``LEAST``), or one mark,
however faint, reads it surely (``READ_ALONE``: a hand reads as no index). Summed over the marks
instead, the many faint readings of a patterned corner add up to a card no mark reads
surely. The runtime asks only for a zone that has lain covered when its seat may lay,
and records what it names as a play the referee is asked to check (``unread_card``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from engine.cards import ALL_CARDS
from vision.live.detector import CardDetector, Detection, find_tiled
from vision.live.grouping import on_own_side
from vision.live.reader import patch

#: a finder mark this sure says something index-like lies there (a hand: none)
MARKS = 0.3
#: the finder's floor for the marks weighed
FLOOR = 0.05
#: the card named must be read this surely on one of the marks ...
LEAST = 0.5
#: ... and this many times as surely as any other card
LEAD = 1.5
#: where no mark is ``MARKS`` sure, the card must be read this surely: a design's own joker
#: corner may be one the finder barely marks though the reader reads it surely, where a
#: hand or a cup reads as no index
READ_ALONE = 0.9


def unread_card(detector: CardDetector, zone: np.ndarray, seat: str, ruled_out: Iterable[str]) -> Detection | None:
    """The card that likely lies in ``zone`` (``seat``'s rectified zone, where nothing was
    read), or ``None``. Its confidence is the finder's times the reader's at its surest mark
    — low: a referee checks such a play — and its runners-up are the cards not ruled out that
    the marks read next. Only the marks on the seat's own side of the table are weighed
    (``vision.live.grouping.own_side``): a neighbour's card reaching into the zone's corner is
    that neighbour's, and an arm's shadow crossing the zone, which leaves it looking covered,
    must not make it this seat's play."""
    marks = find_tiled(detector, zone, FLOOR, whole=True)
    found = [mark for mark, mine in zip(marks, on_own_side(seat, [box for box, _ in marks]), strict=True) if mine]
    if not found:
        return None
    least = LEAST if max(f for _, f in found) >= MARKS else READ_ALONE
    boxes = [box for box, _ in found]
    probs = detector.reader.probabilities(np.stack([patch(zone, b, pad=detector.reader.pad) for b in boxes]))
    cards = probs[:, :len(ALL_CARDS)].copy()  # the last class is "no index"
    out = set(ruled_out)
    for c, name in enumerate(ALL_CARDS):
        if name in out:
            cards[:, c] = 0.0
    score = cards.max(axis=0)
    order = np.argsort(-score)
    best, second = int(order[0]), int(order[1])
    if score[best] < least or score[best] < LEAD * score[second]:
        return None
    finder = np.array([f for _, f in found])
    surest = int(np.argmax(finder * cards[:, best]))
    others = tuple((ALL_CARDS[int(c)], float(finder[surest] * cards[surest, c]))
                   for c in order[1:4] if score[c] > 0)
    return Detection(ALL_CARDS[best], float(finder[surest] * cards[surest, best]), boxes[surest], others)
