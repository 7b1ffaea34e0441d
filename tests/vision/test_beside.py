"""Blank paper beside an index tells an ace, 2 or 3 from a 4 to a king (``vision.live.beside``)."""

import cv2
import numpy as np

from vision.live.beside import LEAST_SEEN, DeckBeside, blank_beside, with_blank_beside
from vision.live.detector import Detection

FELT, PAPER, INK = (40, 30, 110), (235, 238, 240), (30, 30, 30)


def zone_with(cards: list[tuple[float, bool]], step_cm: float = 2.0) -> tuple[np.ndarray, list[tuple]]:
    """A 10 px/cm zone with a row of cards laid ``step_cm`` apart, each drawn with its
    top-left index and, where asked, a pip beside it; the index boxes, left to right."""
    zone = np.full((260, 560, 3), FELT, np.uint8)
    boxes = []
    for x_cm, pip in cards:
        x = int(x_cm * 10)
        cv2.rectangle(zone, (x, 40), (x + 63, 128), PAPER, -1)
        cv2.line(zone, (x, 40), (x, 128), (150, 150, 150), 1)  # the card's edge over the one before
        cv2.rectangle(zone, (x + 3, 44), (x + 9, 52), INK, -1)  # the rank ...
        cv2.circle(zone, (x + 6, 57), 3, INK, -1)  # ... and the suit sign
        if pip:
            cv2.circle(zone, (x + 15, 60), 4, INK, -1)  # the first pip of a 4 to a 10
        boxes.append((x + 2.0, 43.0, x + 10.0, 62.0))
    return zone, boxes


def test_a_3_blurred_into_a_5_is_told_by_the_bare_paper_beside_its_index():
    """Seen in the stage world (diagnosis game 112): North's bomb of 3s read as 5s, each
    5 with its 3 as runner-up. A 3 prints its pips down the card's middle; beside its index
    lies bare paper, where a 5 has its first pip."""
    zone, boxes = zone_with([(20.0, False), (22.0, True), (24.0, False)])
    read = [Detection("S5", 0.34, boxes[0], (("S3", 0.17), ("C5", 0.15))),
            Detection("H5", 0.6, boxes[1], (("H3", 0.3),)),
            Detection("D5", 0.42, boxes[2], (("D3", 0.24), ("H5", 0.05)))]
    assert [blank_beside(zone, b, [o for o in boxes if o != b]) for b in boxes] == [True, False, True]
    after = {d.box: d for d in with_blank_beside(read, zone)}
    first, second, last = (after[b] for b in boxes)
    assert first.card == "S3" and abs(first.conf - 0.51) < 1e-9 and first.others[0] == ("S5", 0.34)
    assert second.card == "H5"  # a pip beside it: a 5 it stays
    assert last.card == "D3"  # the last card: its whole face beside its index, bare


def test_the_paper_says_nothing_where_it_is_not_the_cards_own_or_too_narrow():
    zone, boxes = zone_with([(20.0, False)])
    x1, y1, x2, y2 = boxes[0]
    # the cloth beside an index (a bottom-right corner's place): not the index's card
    corner = (x1 + 56, y1 + 60, x2 + 56, y2 + 60)
    zone[int(corner[1]):int(corner[3]), int(corner[0]):int(corner[2])] = PAPER
    assert blank_beside(zone, corner, []) is None
    # the next card's index 1.2 cm on leaves no strip to look at
    assert blank_beside(zone, boxes[0], [(x1 + 12, y1, x2 + 12, y2)]) is None
    # a 4 to a king read with no ace, 2 or 3 among its runners-up is left as it was
    lone = [Detection("S5", 0.4, boxes[0], (("S6", 0.2),))]
    assert with_blank_beside(lone, zone) == lone


def test_a_deck_that_prints_no_pips_beside_its_indices_is_read_as_the_reader_reads_it():
    """Seen in the first world (diagnosis game 123): a generated deck printing one big sign in
    each card's middle, its D4 and D9 with bare paper beside the index. Read as 3s wherever
    a 3 was a runner-up, a committed D4 came back as new. The table learns first from its
    sure 4s to 10s whether the deck prints pips there."""
    zone, boxes = zone_with([(20.0, False), (22.0, False), (24.0, False)])
    sure_fours = [Detection("D4", 0.8, b) for b in boxes]
    doubted = [Detection("D4", 0.5, boxes[0], (("D3", 0.2),)), *sure_fours[1:]]
    bare_deck = DeckBeside()
    for _ in range(LEAST_SEEN):
        bare_deck.learn(sure_fours, zone)
    assert not bare_deck.prints_pips_beside and bare_deck.settle(doubted, zone) == doubted
    inked, inked_boxes = zone_with([(20.0, True), (22.0, True), (24.0, True)])
    pips_deck = DeckBeside()
    assert not pips_deck.prints_pips_beside  # nothing learnt yet: nothing changes
    for _ in range(LEAST_SEEN):
        pips_deck.learn([Detection("D4", 0.8, b) for b in inked_boxes], inked)
    assert pips_deck.prints_pips_beside
    first = next(d for d in pips_deck.settle(doubted, zone) if d.box == boxes[0])
    assert first.card == "D3"  # on that deck, bare paper beside an index is a 3's
