"""Whether an index is the one that lay there: the zone's pixels decide what is new where the
names cannot (``vision.live.index_change``, ``ZoneTracker``'s places)."""

import zlib
from pathlib import Path

import cv2
import numpy as np

from rulebook.trace_words import decision_text
from vision.live.calibration import PX_PER_CM, zone_size
from vision.live.grouping import Laid
from vision.live.index_change import likeness, unchanged
from vision.live.tracker import ZoneTracker

CARD_CM = (6.3, 8.8)


def zone(cards: list[tuple[str, float, float]], light: float = 1.0) -> np.ndarray:
    """A rectified zone drawn with each card (name, top-left index centre in cm) laid in turn:
    a white card, its index a pattern of ink that only its name gives."""
    width, height = zone_size()
    picture = np.full((height, width, 3), 90, np.float32)
    for name, x, y in cards:
        left, top = int((x - 0.6) * PX_PER_CM), int((y - 1.2) * PX_PER_CM)
        picture[top:top + int(CARD_CM[1] * PX_PER_CM), left:left + int(CARD_CM[0] * PX_PER_CM)] = 235
        ink = np.random.default_rng(zlib.crc32(name.encode())).random((20, 10)) < 0.4
        cx, cy = int(x * PX_PER_CM), int(y * PX_PER_CM)
        picture[cy - 10:cy + 10, cx - 5:cx + 5][ink] = 30
    return np.clip(picture * light, 0, 255).astype(np.uint8)


def laid(cards: list[tuple[str, float, float]]) -> Laid:
    return Laid(tuple(c for c, _, _ in cards), (0.9,) * len(cards), places=tuple((x, y) for _, x, y in cards))


def settle(tracker: ZoneTracker, t: float, reading: Laid, picture: np.ndarray) -> tuple[str, ...]:
    """The new cards when the zone settles on ``reading``, committed."""
    tracker.update(t, reading, False, picture)
    (event,) = tracker.update(t + 0.5, reading, False, picture)
    return event.new


def test_an_index_is_the_same_under_other_light_and_not_under_another_card():
    before = zone([("S4", 24.6, 4.3), ("C5", 26.2, 4.3)])
    assert unchanged(before, zone([("S4", 24.6, 4.3), ("C5", 26.2, 4.3)], light=1.06), ((24.6, 4.3), (26.2, 4.3))) == (
        True, True)
    over = zone([("S4", 24.6, 4.3), ("C5", 26.2, 4.3), ("H5", 26.2, 4.3)])
    assert unchanged(before, over, ((24.6, 4.3), (26.2, 4.3))) == (True, False)
    # cloth before and a card's index now is a change; cloth both times is none
    assert likeness(before, over, (40.0, 15.0)) == 1.0
    assert likeness(before, zone([("S4", 24.6, 4.3), ("C5", 26.2, 4.3), ("D9", 40.0, 15.0)]), (40.0, 15.0)) == 0.0


def test_a_bomb_laid_square_over_a_straight_is_all_new():
    """A seat's second play of a trick laid square over its first, each card over one of the
    first's (the stage world lays second plays so): a bomb of fives over a straight from
    four, the straight's 8 still seen. The names say three cards are new — the straight's own
    C5 is committed, and no card read may be a hidden one misread — and the count one. The
    four indices are not the ones that lay there: four new cards."""
    first = [("S4", 22.0, 4.0), ("C5", 24.0, 4.0), ("D6", 26.0, 4.0), ("S7", 28.0, 4.0), ("H8", 30.0, 4.0)]
    bomb = [("S5", 22.1, 4.1), ("H5", 24.1, 4.0), ("C5", 26.0, 4.1), ("D5", 28.1, 4.0)]
    seen = [*bomb, ("H8", 30.0, 4.0)]
    tracker = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    assert settle(tracker, 0.0, laid(first), zone(first)) == ("S4", "C5", "D6", "S7", "H8")
    assert settle(tracker, 5.0, laid(seen), zone(first + bomb)) == ("S5", "H5", "C5", "D5")
    # without the pictures the names and the count speak, and lose the C5
    blind = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    settle(blind, 0.0, laid(first), None)
    assert settle(blind, 5.0, laid(seen), None) == ("S5", "H5", "D5")


def test_a_card_read_late_where_the_zone_did_not_change_is_not_a_play():
    """Seen in the stage world (diagnosis game 110): North's straight read without its SJ
    and committed so; seconds later a look read the SJ (a hand over two of the straight's
    cards, the rest read another way). By where it lies it is new; but the zone did not
    change there: it lay there all along."""
    row = [("H8", 20.0, 4.0), ("S9", 22.0, 4.0), ("CT", 24.0, 4.0), ("SJ", 26.0, 4.0), ("DQ", 28.0, 4.0)]
    tracker = ZoneTracker("N", settle_s=0.2, auto_commit=True)
    assert settle(tracker, 0.0, laid([c for c in row if c[0] != "SJ"]), zone(row)) == ("H8", "S9", "CT", "DQ")
    later = laid([("H6", 20.0, 4.0), ("CT", 24.0, 4.0), ("SJ", 26.0, 4.0)])  # H8 read H6; S9 and DQ unread
    tracker.update(10.0, later, False, zone(row))
    (event,) = tracker.update(10.5, later, False, zone(row))
    assert event.new == () and event.by_place  # the trace says it was told by the places
    assert "只是现在才认出" in decision_text("nothing_new_here", "zh", committed="H8 S9 CT DQ")
    assert "lay there already" in decision_text("nothing_new_here", "en", committed="H8 S9 CT DQ")
    # a card laid there is new
    laid_now = row + [("D3", 33.0, 12.0)]
    assert settle(tracker, 20.0, laid([*later_cards(later), ("D3", 33.0, 12.0)]), zone(laid_now)) == ("D3",)


def later_cards(reading: Laid) -> list[tuple[str, float, float]]:
    return [(c, x, y) for c, (x, y) in zip(reading.cards, reading.places, strict=True)]


def test_a_row_laid_afresh_as_it_grows_keeps_its_cards_by_their_names():
    """The first world lays a seat's second play into its row and centres the row again:
    every old card lies elsewhere now, read as before. Where every committed card is read
    by its name, the names decide, not the places."""
    first = [("SA", 24.0, 4.0), ("CA", 26.0, 4.0)]
    grown = [("SA", 20.0, 4.0), ("CA", 22.0, 4.0), ("S8", 24.0, 4.0), ("S8", 26.0, 4.0)]
    tracker = ZoneTracker("W", settle_s=0.2, auto_commit=True)
    settle(tracker, 0.0, laid(first), zone(first))
    assert settle(tracker, 5.0, laid(grown), zone(grown)) == ("S8", "S8")


def test_a_row_laid_afresh_with_an_old_card_read_another_way_is_not_all_new():
    """Seen in the first world under the corruption suite's motion blur (diagnosis game 120):
    South's row centred again as its second play went in, every old card 6 cm left of where
    it was committed, and its H5 read H8 now. A committed card not read by its name sent the
    question to the places, where every card lay somewhere new: twelve new cards. A row
    whose cards read by their names have most of them moved is a row laid afresh: the names
    and the count decide, and the new cards are the row's last six."""
    first = [("H3", 21.0, 8.5), ("C3", 23.0, 8.5), ("S4", 25.0, 8.5), ("C4", 27.0, 8.5), ("S8", 29.0, 8.5),
             ("H5", 31.0, 8.5)]
    names = ("H3", "C3", "S4", "C4", "S8", "H8", "SQ", "CQ", "HK", "HK", "HA", "CA")
    grown = [(name, 14.6 + 2.1 * n, 8.5) for n, name in enumerate(names)]
    reading = laid(grown)
    reading = Laid(reading.cards, reading.confidences, (), tuple(
        (("H5", 0.2),) if name == "H8" else () for name in names), reading.places)  # the 8 may be the 5
    tracker = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    settle(tracker, 0.0, laid(first), zone(first))
    assert settle(tracker, 5.0, reading, zone(grown)) == ("SQ", "CQ", "HK", "HK", "HA", "CA")


def test_an_arms_shadow_over_an_index_leaves_it_the_same():
    """The suite's shadow darkens a zone by up to 40 %, one side more than the other."""
    cards = [("S4", 24.6, 4.3), ("C5", 26.2, 4.3)]
    before = zone(cards)
    width = before.shape[1]
    shade = np.linspace(0.6, 1.0, width, dtype=np.float32)[None, :, None]
    shadowed = (before.astype(np.float32) * shade).astype(np.uint8)
    assert unchanged(before, shadowed, ((24.6, 4.3), (26.2, 4.3))) == (True, True)
    covered = (zone([*cards, ("H5", 26.2, 4.3)]).astype(np.float32) * shade).astype(np.uint8)
    assert unchanged(before, covered, ((26.2, 4.3),)) == (False,)  # a five laid over the C5 in the shade


def test_a_lone_card_pushed_along_its_row_and_read_another_way_is_not_new():
    """Seen in the first world under the suite's defocus (diagnosis game 122): North's single
    D4 of a trick that goes on, pushed 1.1 cm along as its next single went in and read D8
    now (D4 its runner-up). No committed card read by its name; by place the D8 was new, and
    North's DQ was recorded as D8 DQ. A card that may be a committed one, near that one's
    bare place, is that card."""
    tracker = ZoneTracker("N", settle_s=0.2, auto_commit=True)
    settle(tracker, 0.0, laid([("D4", 26.1, 8.4)]), zone([("D4", 26.1, 8.4)]))
    now = [("D8", 25.0, 8.4), ("DQ", 27.2, 8.5)]
    reading = laid(now)
    reading = Laid(reading.cards, reading.confidences, (), ((("D4", 0.09),), ()), reading.places)
    assert settle(tracker, 5.0, reading, zone([("D4", 25.0, 8.4), ("DQ", 27.2, 8.5)])) == ("DQ",)


def test_a_blurred_index_seen_again_is_the_same_index():
    """Seen in the stage world (diagnosis game 113): East's C3, under the stage's defocus,
    committed read C5 and read C3 three seconds later with nothing laid on it. Its strokes
    found again at 0.816 (the camera's noise on a faint index), under the line then drawn at
    0.82: the zone had 'changed' there, the name differed, and the C3 was recorded as a new
    play. The pictures are the loop's own, cut to the index's neighbourhood."""
    data = Path(__file__).parent / "data"
    before = cv2.imread(str(data / "blurred-index-before.png"))
    now = cv2.imread(str(data / "blurred-index-now.png"))
    place = (2.58, 2.81)  # the index's centre, cm, in the cut
    assert 0.79 < likeness(before, now, place) < 0.82
    assert unchanged(before, now, (place,)) == (True,)
    # the next card's index moved over the place is another index there
    other = now.copy()
    other[:, 16:36] = now[:, 33:53]
    assert unchanged(before, other, (place,)) == (False,)
