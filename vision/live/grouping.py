"""Corner indices → physical cards, in the order their owner laid them.

The detector finds corner indices, not cards. In a rectified zone (``PX_PER_CM``, upright as
the player sees it) a play is a row of overlapping cards, each showing its top-left index;
the last card also shows its bottom-right index, upside down, about one card lower and to
the right. Some decks print all four corners (``four_index``): then every card also shows its
bottom-left index straight below the top-left one, and the last card its top-right index
beside it, in the top band like a card of its own. So: indices in the row's top band are
cards (two of the same name side by side are two cards — two decks hold two of each), except
a last one that is the card before it's top-right corner (in a four-index deck, one of the
same rank: a corner misread in its suit is still that corner); an index lower down, where one of
a card's other corners lies, is that corner. Every corner of a card is a reading of it: the
most confident one names the card, and corners that disagree make it doubtful (flagged for
the referee, not guessed). Reading the top band left to right gives the order the cards were
laid, which is what chooses a wildcard's reading (DESIGN §5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.cards import rank_of
from vision.live.calibration import PX_PER_CM, seat_of, zone_point_to_table
from vision.live.detector import CONFIDENCE, Detection

#: offsets between a card's index centres, cm (poker 6.3 × 8.8 and bridge 5.7 × 8.8 cards,
#: indices about 1 × 2 cm, small or jumbo): across (top-left → top-right) and down
#: (top-left → bottom-left); the bottom-right index is across and down
ACROSS_CM = (3.0, 5.6)
DOWN_CM = (5.0, 8.2)
TOP_BAND_CM = 3.0
#: where a card's top-left index lies from a lower corner read alone: the middle of the spans
_MID_ACROSS, _MID_DOWN = sum(ACROSS_CM) / 2, sum(DOWN_CM) / 2
SAME_CARD_CM = 0.8
#: two readings at one place across and this close down are one index read twice; further
#: down, both show (an index is about 2 cm tall, so the upper is not covered by the lower):
#: a card laid over the seat's earlier one, a little lower, shows its own index there
SAME_INDEX_DOWN_CM = 1.5
#: a row's last gap this much wider than its others is a corner of the last card, not a card
WIDE_GAP = 1.4


@dataclass(frozen=True)
class Laid:
    """A play as it lies in a zone: the cards left to right, each with its confidence."""

    cards: tuple[str, ...]
    confidences: tuple[float, ...]
    #: indices that fitted no card (a second row, or something misread): for the referee
    stray: tuple[str, ...] = ()
    #: for each card, what else its corners may show, likeliest first, as (card, confidence)
    others: tuple[tuple[tuple[str, float], ...], ...] = ()
    #: for each card, where its top-left index lies in the zone, cm (where that index went
    #: unread, where it would lie by the corner read): which card is which from look to look
    places: tuple[tuple[float, float], ...] = ()

    @property
    def confidence(self) -> float:
        return min(self.confidences) if self.confidences else 1.0

    def confidence_of(self, card: str) -> float:
        """How sure the row is of a card of this name (its surest copy here; 0 for none)."""
        return max((conf for name, conf in zip(self.cards, self.confidences, strict=True) if name == card),
                   default=0.0)

    def others_of(self, card: str) -> tuple[tuple[str, float], ...]:
        """What else a card of this name in the row may be (of all its copies here)."""
        return _likeliest((pair for name, others in zip(self.cards, self.others, strict=False) if name == card
                           for pair in others), card)


def _likeliest(readings, leave_out: str) -> tuple[tuple[str, float], ...]:
    """(name, confidence) readings merged by name at their surest, likeliest first, without
    ``leave_out`` (the name a card already has)."""
    best: dict[str, float] = {}
    for name, conf in readings:
        if name != leave_out:
            best[name] = max(conf, best.get(name, 0.0))
    return tuple(sorted(best.items(), key=lambda kv: -kv[1]))


def _centre_cm(d: Detection, px_per_cm: float) -> tuple[float, float]:
    x1, y1, x2, y2 = d.box
    return ((x1 + x2) / 2 / px_per_cm, (y1 + y2) / 2 / px_per_cm)


def _within(value: float, span: tuple[float, float]) -> bool:
    return span[0] <= value <= span[1]


def _reading(corners: list[Detection], rivals: list[Detection]
             ) -> tuple[str, float, tuple[tuple[str, float], ...]]:
    """One card's name and confidence from its corners (and ``rivals``: other names read on
    its top-left corner): the surest corner names it, other corners that agree add to it
    (each could have been the one that read it), and readings of another name take that
    much away. Last, the other names its corners may show, with how sure each is.

    A card read on one corner gives those as its reader gave them. A card read on several
    weighs every name alike: by its share of what all the corners read (each corner's
    likeliest and runners-up, averaged), scaled to the card's own confidence. Taken at its
    surest reading instead, a name only one corner read could outweigh the card's own name,
    which the other corner's doubt had already lowered, and the hand's recount
    (``table.recount``) would change a card read right: a 2 of spades read S2 on one
    corner and C2 on the other would keep C2 as a strong runner-up and be recounted to it
    (``tests/vision/test_grouping_tracker.py``)."""
    best = max(corners, key=lambda d: d.conf)
    doubt_for = doubt_against = 1.0
    for d in corners:
        if d.card == best.card:
            doubt_for *= 1.0 - d.conf
        else:
            doubt_against *= 1.0 - d.conf
    for d in rivals:
        if d.card != best.card:
            doubt_against *= 1.0 - d.conf
    conf = (1.0 - doubt_for) * doubt_against
    if len(corners) == 1:
        return best.card, conf, _likeliest(
            (pair for d in corners + rivals for pair in ((d.card, d.conf), *d.others)), best.card)
    share = _shares(corners, rivals)
    others = sorted(((name, conf * p / share[best.card]) for name, p in share.items() if name != best.card),
                    key=lambda kv: -kv[1])
    return best.card, conf, tuple(others)


def _shares(corners: list[Detection], rivals: list[Detection]) -> dict[str, float]:
    """Each name's confidence averaged over a card's corners (a corner's likeliest and its
    runners-up; the top-left corner's rival readings count as its own)."""
    total: dict[str, float] = {}
    for n, d in enumerate(corners):
        read = {name: conf for name, conf in d.others if name != d.card} | {d.card: d.conf}
        for rival in rivals if n == 0 else ():
            for name, conf in ((rival.card, rival.conf), *rival.others):
                read[name] = max(read.get(name, 0.0), conf)
        for name, conf in read.items():
            total[name] = total.get(name, 0.0) + conf / len(corners)
    return total


def own_side(seat: str, detections: list[Detection], px_per_cm: float = PX_PER_CM) -> list[Detection]:
    """The detections of a seat's rectified zone that lie on that seat's side of the table.

    Neighbouring zones overlap at their corners (DESIGN §5): a long row laid by East reaches
    into the corner of North's zone, turned a quarter round. Read there, its indices would
    make North lay cards it never touched. A point belongs to the seat whose direction from
    the table's centre it lies most along (``vision.live.calibration.seat_of``)."""
    return [d for d, mine in zip(detections, on_own_side(seat, [d.box for d in detections], px_per_cm),
                                 strict=True) if mine]


def on_own_side(seat: str, boxes: list[tuple[float, float, float, float]], px_per_cm: float = PX_PER_CM
                ) -> list[bool]:
    """For each box of a seat's rectified zone, whether its centre lies on that seat's side
    of the table (``own_side``)."""
    if not boxes:
        return []
    centres = np.array([((x1 + x2) / 2, (y1 + y2) / 2) for x1, y1, x2, y2 in boxes])
    return [seat_of((float(x), float(y))) == seat for x, y in zone_point_to_table(seat, centres, px_per_cm)]


#: a band holding less than this share of the strongest band's readings is no row of its own
ROW_SHARE = 0.5


def _row_top(detections: list[Detection], centres: list[tuple[float, float]]) -> float:
    """Where the row's top band starts: the highest band of ``TOP_BAND_CM`` that holds at
    least ``ROW_SHARE`` of what the strongest band holds (readings weighed by confidence).
    Not simply the highest index: a corner of a neighbour's card at the zone's edge, or one
    false reading above the row, would push the whole row out of the band. A four-index
    deck's bottom corners make a second band as strong as the first; the higher one is the
    row. And where that band holds one reading only, with an index a card's diagonal above
    and left of it, however weak, that reading is a bottom-right corner and the index above
    is the row: a card laid over the seat's earlier one hides all of it but its top-left
    index, and where the new card's own top-left index goes unread, taking its bottom-right
    corner for the row would leave the earlier card out as a stray, so the zone would hold
    as many cards as were committed and the new card would be no play."""
    weight = {}
    for _, y0 in centres:
        weight[y0] = sum(d.conf for d, (_, y) in zip(detections, centres, strict=True) if y0 <= y <= y0 + TOP_BAND_CM)
    strongest = max(weight.values())
    top = min(y0 for y0, w in weight.items() if w >= ROW_SHARE * strongest)
    band = [(x, y) for x, y in centres if top <= y <= top + TOP_BAND_CM]
    if len(band) == 1:
        (bx, by), = band
        above = [y for x, y in centres if _within(by - y, DOWN_CM) and _within(bx - x, CORNER_REACH_CM)]
        if above:
            return min(above)
    return top


def _lone_bottom_left(x: float, y: float, tops: list[tuple[float, float]]) -> bool:
    """Is an index at (x, y), cm, that no card owns, a four-index card's bottom-left corner
    whose top-left index went unread? It lies a card's height below the row, among its cards
    or just left of them (right of the last card lie that card's own corners), and not
    where a card of the row already stands."""
    if not tops:
        return False
    xs = [tx for tx, _ in tops]
    row = float(np.median([ty for _, ty in tops]))
    return (_within(y - row, DOWN_CM) and min(xs) - ACROSS_CM[0] <= x < max(xs)
            and all(abs(x - tx) >= SAME_CARD_CM for tx in xs))


#: how far right of the last card read the next card's top-left index may lie (cards are laid
#: 1.3–2.8 cm apart): a bottom-right corner beyond the last card's reach, within this of it,
#: is the corner of a card laid after it whose top-left index went unread
NEXT_CARD_CM = 3.0
#: a seat's second play of a trick may be laid beside its first rather than over it: a
#: card's width on from the last card (its corner up to this far beyond that card's reach),
#: level with the row or up to this much lower, as a hand lays it (a corner that far off and
#: higher than a card's middle height below the row is more likely no card at all)
BESIDE_CM = 6.5
BESIDE_LOWER_CM = 1.5


#: how far right of a top-left index a bottom-right corner may lie: its own card's, or (its
#: top-left index unread) that of a card laid up to one more step after it
CORNER_REACH_CM = (ACROSS_CM[0], ACROSS_CM[1] + NEXT_CARD_CM)


def _lone_bottom_right(x: float, y: float, tops: list[tuple[float, float]]) -> bool:
    """Is an index at (x, y), cm, that no card owns, the bottom-right corner of a card laid
    last whose top-left index went unread? It lies a card's height below the row and right of
    the last card read by more than a card's own corners lie apart (``ACROSS_CM``), by no more
    than one more card's step, or a card's width where the card was laid beside the row rather
    than over it (``BESIDE_CM``; a little lower, as a hand lays it). A design's joker star can
    be found on one corner and barely on the other, and a hot spot's glare may wash out the
    top-left index of a card laid beside the row; without this the play would be read
    without that card."""
    if not tops:
        return False
    row = float(np.median([ty for _, ty in tops]))
    beyond = x - max(tx for tx, _ in tops) - ACROSS_CM[1]
    if 0 < beyond <= NEXT_CARD_CM:
        return _within(y - row, DOWN_CM)
    return 0 < beyond <= BESIDE_CM and _within(y - row, (_MID_DOWN, DOWN_CM[1] + BESIDE_LOWER_CM))


#: how far a card may lie turned from square with its zone: a player lays cards by hand
TURN_DEG = 15.0
_TURNS = np.radians(np.linspace(-TURN_DEG, TURN_DEG, 13))
_COS, _SIN = np.cos(_TURNS), np.sin(_TURNS)


def _turned_diagonal(dx: float, dy: float) -> bool:
    """Is (dx, dy), cm, from a card's top-left index to another index, where that card's
    bottom-right corner lies when the card is laid turned by up to ``TURN_DEG``? A card
    turned a few degrees swings that corner out of the square card's reach
    (``ACROSS_CM``, ``DOWN_CM``): across by a sixth of its height for every 10°, so a
    lone card laid askew would otherwise read as two cards of its name. Only a corner read
    as the card itself is taken so: a corner of another name there is more likely a card
    laid after it whose top-left index went unread (``_lone_bottom_right``)."""
    across, down = _COS * dx + _SIN * dy, _COS * dy - _SIN * dx
    return bool(np.any((across >= ACROSS_CM[0]) & (across <= ACROSS_CM[1])
                       & (down >= DOWN_CM[0]) & (down <= DOWN_CM[1])))


#: rows read in one zone at most: a seat's plays of one trick, each laid apart from the last
ROWS = 3


def _heads_a_card(i: int, owner_card: str, lower: list[int], detections: list[Detection],
                  centres: list[tuple[float, float]]) -> bool:
    """Is lower index ``i``, lying where a row card's bottom-right corner would, rather the
    top-left index of a card laid apart? It names another rank than that card, and an index
    of its own rank lies a card's diagonal further on: that card's bottom-right corner."""
    rank = rank_of(detections[i].card)
    if rank == rank_of(owner_card):
        return False
    x, y = centres[i]
    return any(k != i and rank_of(detections[k].card) == rank and _within(centres[k][0] - x, ACROSS_CM)
               and _within(centres[k][1] - y, DOWN_CM) for k in lower)


def group_cards(detections: list[Detection], px_per_cm: float = PX_PER_CM) -> Laid:
    """The cards of one zone's detections: row by row, each left to right.

    A seat that plays twice in a trick may lay its second play apart from its first, lower
    in the zone or beside it, not on top of it. What fits no card of the first row is read
    as a row of its own where it is plainly cards: its last card read on two corners (a
    card's top-left index and its bottom-right one, a card's diagonal apart) and each card at
    ``CONFIDENCE`` or surer. A lone index elsewhere in the zone, a pip or a face's detail
    read as one, stays a stray for the referee, not a card nobody laid."""
    rows: list[Laid] = []
    left = list(detections)
    while left and len(rows) < ROWS:
        laid, unplaced, cornered = _one_row(left, px_per_cm)
        if rows and not (cornered and min(laid.confidences) >= CONFIDENCE):
            break
        rows.append(laid)
        left = unplaced
    if not rows:
        return Laid((), (), tuple(d.card for d in left))
    return Laid(tuple(c for row in rows for c in row.cards), tuple(p for row in rows for p in row.confidences),
                tuple(d.card for d in left), tuple(o for row in rows for o in row.others),
                tuple(p for row in rows for p in row.places))


def _one_row(detections: list[Detection], px_per_cm: float) -> tuple[Laid, list[Detection], bool]:
    """The top row's cards (its ``stray`` left empty), the detections that fit none of them,
    and whether its last card was read on more than one corner."""
    centres = [_centre_cm(d, px_per_cm) for d in detections]
    top = _row_top(detections, centres)
    band = [i for i, (_, y) in enumerate(centres) if top <= y <= top + TOP_BAND_CM]
    lower = [i for i, (_, y) in enumerate(centres) if y > top + TOP_BAND_CM]
    above = [i for i, (_, y) in enumerate(centres) if y < top]
    # two detections in one place are one index read twice (the next card would cover it):
    # the surer one stands, another name there is a doubt about it
    cards: list[int] = []
    rivals: dict[int, list[Detection]] = {}
    for i in sorted(band, key=lambda i: -detections[i].conf):
        same_place = next((j for j in cards if abs(centres[j][0] - centres[i][0]) < SAME_CARD_CM
                           and abs(centres[j][1] - centres[i][1]) < SAME_INDEX_DOWN_CM), None)
        if same_place is None:
            cards.append(i)
            rivals[i] = []
        elif detections[same_place].card != detections[i].card:
            rivals[same_place].append(detections[i])
    cards.sort(key=lambda i: centres[i][0])

    def below(i: int, j: int) -> bool:  # is lower index i straight below top index j?
        return abs(centres[i][0] - centres[j][0]) < SAME_CARD_CM and _within(centres[i][1] - centres[j][1], DOWN_CM)

    corners = {j: [detections[j]] for j in cards}
    under = {j: j for j in cards}  # top-band index → the card whose lower corner lies below it
    # a four-index deck's bottom-left corners read, most of them, as the rank above them;
    # indices straight below a row that read other ranks are a second play laid below it, a
    # card's step along (a bomb of fives below a straight from four)
    stacked = [rank_of(detections[i].card) == rank_of(detections[j].card)
               for i in lower for j in cards[:-1] if below(i, j)]
    four_index = any(stacked) and 2 * sum(stacked) >= len(stacked)
    if len(cards) >= 2:
        last, before = cards[-1], cards[-2]
        gap = centres[last][0] - centres[before][0]
        gaps = sorted(centres[b][0] - centres[a][0] for a, b in zip(cards[:-2], cards[1:-1], strict=True))
        # an index straight below the last one and none where that card's own bottom-right
        # corner would lie: the last is a four-index card's top-right corner over its
        # bottom-right one (the card's bottom-left corner was missed), not a card
        own_corner = any(_within(centres[i][0] - centres[last][0], ACROSS_CM)
                         and _within(centres[i][1] - centres[last][1], DOWN_CM) for i in lower)
        four_index = four_index or (any(below(i, last) for i in lower) and not own_corner)
        wide = bool(gaps) and gap >= WIDE_GAP * gaps[len(gaps) // 2]
        name, name_before = detections[last].card, detections[before].card
        # a four-index deck's top-right corner may be misread in its suit, as any index may
        alike = name == name_before or (four_index and rank_of(name) == rank_of(name_before))
        # ... or in its rank: in a four-index deck a card laid last would show its own
        # top-right corner further on, so a wide last gap is the corner whatever it reads
        if _within(gap, ACROSS_CM) and ((alike and (four_index or wide)) or (four_index and wide)):
            cards.pop()  # not a card: the last card's top-right corner
            corners[before].append(detections[last])
            under[last] = before
    stray = above
    unread: list[int] = []
    place = {j: centres[j] for j in cards}
    tops = [centres[j] for j in cards]
    for i in lower:
        x, y = centres[i]
        owner = next((card for j, card in under.items() if below(i, j)), None) if four_index else None
        if owner is None:  # a bottom-right corner, one card-diagonal from its top-left: of
            # the cards it could belong to, the rightmost, as the cards after a card cover its
            # bottom-right corner (with cards laid close, one before the last may fit as well)
            owner = next((j for j in reversed(cards) if _within(x - centres[j][0], ACROSS_CM)
                          and _within(y - centres[j][1], DOWN_CM)), None)
            if owner is not None and _heads_a_card(i, detections[owner].card, lower, detections, centres):
                owner = None  # the top-left index of a card laid apart, for a row of its own
        if owner is None:  # a card laid turned: its corner, read as it, a turned diagonal on
            owner = next((j for j in reversed(cards) if detections[j].card == detections[i].card
                          and _turned_diagonal(x - centres[j][0], y - centres[j][1])), None)
        if owner is None and four_index and _lone_bottom_left(x, y, tops):
            unread.append(i)  # a four-index card whose top-left index was not found
            place[i] = (x, y - _MID_DOWN)
        elif owner is None and _lone_bottom_right(x, y, tops):
            unread.append(i)  # the last card, its top-left index not found
            place[i] = (x - _MID_ACROSS, y - _MID_DOWN)
        elif owner is None:
            stray.append(i)
        else:
            corners[owner].append(detections[i])
    for i in unread:
        cards.append(i)
        corners[i], rivals[i] = [detections[i]], []
    cards.sort(key=lambda i: centres[i][0])
    readings = [_reading(corners[j], rivals[j]) for j in cards]
    return (Laid(tuple(c for c, _, _ in readings), tuple(p for _, p, _ in readings), (),
                 tuple(o for _, _, o in readings), tuple(place[j] for j in cards)), [detections[i] for i in stray],
            bool(cards) and len(corners[cards[-1]]) > 1)
