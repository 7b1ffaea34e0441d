"""Corner indices into cards, and a zone over time: settled plays, new cards, cleared tricks."""

from collections import Counter

import numpy as np
import pytest

from vision.live.detector import Detection
from vision.live.grouping import Laid, group_cards, own_side
from vision.live.tracker import Cleared, Settled, ZoneTracker, motion, thumbnail

PX = 10.0  # rectified zones are 10 px/cm


def index(card: str, x_cm: float, y_cm: float, conf: float = 0.9) -> Detection:
    x, y = x_cm * PX, y_cm * PX
    return Detection(card, conf, (x - 5, y - 10, x + 5, y + 10))


def test_a_row_reads_left_to_right_whatever_order_the_detector_gives():
    dets = [index("S7", 14, 3), index("H2", 10, 3.2), index("D5", 12, 2.9), index("C6", 8, 3.1)]
    assert group_cards(dets).cards == ("C6", "H2", "D5", "S7")


def test_the_last_cards_bottom_right_index_is_not_another_card():
    # S7 is the rightmost card; its upside-down index lies one card-diagonal below-right
    dets = [index("C6", 8, 3), index("S7", 10, 3), index("S7", 10 + 4.6, 3 + 6.8, 0.7)]
    laid = group_cards(dets)
    assert laid.cards == ("C6", "S7") and laid.stray == ()


def test_the_bottom_right_index_belongs_to_the_last_card_when_the_one_before_fits_too():
    # cards laid 2.1 cm apart: the last card's bottom-right corner is also one card-diagonal
    # from the card before it, whose own bottom-right corner the last card covers (seen in
    # a rendered game: a C4 read as the D4 laid after it)
    dets = [index("S3", 8, 3), index("C4", 10.1, 3, 0.6), index("D4", 12.2, 3, 0.8),
            index("D4", 12.2 + 3.5, 3 + 5.8, 0.7)]
    laid = group_cards(dets)
    assert laid.cards == ("S3", "C4", "D4") and laid.stray == ()
    assert laid.confidences[1] == pytest.approx(0.6)  # nothing casts doubt on the C4
    assert laid.confidences[2] > 0.8  # the D4's two corners agree


def test_a_card_keeps_what_else_its_corners_may_show_likeliest_first():
    top = Detection("S7", 0.8, (95, 20, 105, 40), (("C7", 0.15), ("S1", 0.02)))
    corner = Detection("C7", 0.3, (141, 88, 151, 108), (("S7", 0.25),))  # the bottom-right one
    laid = group_cards([index("H2", 8, 3), top, corner])
    assert laid.cards == ("H2", "S7") and laid.confidences[1] == pytest.approx(0.56)
    # read on two corners, each other name is weighed as the card's own: its share of what
    # both corners read (C7 0.225 against S7's 0.525), at the card's confidence
    assert [name for name, _ in laid.others[1]] == ["C7", "S1"]
    assert laid.others[1][0][1] == pytest.approx(0.56 * 0.225 / 0.525)
    assert laid.others[1][1][1] == pytest.approx(0.56 * 0.01 / 0.525)
    assert laid.others_of("S7") == laid.others[1] and laid.others_of("D9") == ()
    # read on one corner, they are the reader's own runners-up
    assert group_cards([index("H2", 8, 3), top]).others[1] == (("C7", 0.15), ("S1", 0.02))


def test_a_card_read_right_on_one_corner_and_wrong_on_the_other_keeps_its_name_likeliest():
    """A single 2 of spades, its two corners read S2 0.51 (C2 0.34) and C2 0.43
    (S2 0.31). Named S2 at 0.51 × (1 − 0.43) = 0.29, it must not offer C2 at 0.43, more
    than itself: the hand's recount would take the card for a C2."""
    top = Detection("S2", 0.514, (75, 20, 85, 40), (("C2", 0.335),))
    corner = Detection("C2", 0.427, (121, 88, 131, 108), (("S2", 0.307),))
    laid = group_cards([top, corner])
    assert laid.cards == ("S2",) and laid.confidences[0] == pytest.approx(0.514 * 0.573)
    assert laid.others_of("S2")[0][0] == "C2" and laid.others_of("S2")[0][1] < laid.confidence_of("S2")


def test_a_four_index_deck_shows_each_card_twice_and_the_last_card_four_times():
    # top band: C6, H9, S7 and S7's top-right corner; below: each card's bottom-left corner
    # and S7's bottom-right one (under its top-right)
    dets = [index("C6", 8, 3), index("H9", 10, 3), index("S7", 12, 3), index("S7", 16.3, 3),
            index("C6", 8, 9.4), index("H9", 10, 9.4), index("S7", 12, 9.4), index("S7", 16.3, 9.4)]
    laid = group_cards(dets)
    assert laid.cards == ("C6", "H9", "S7") and laid.stray == ()
    # the same lay with the top-right corner not found at all: still three cards
    assert group_cards(dets[:3] + dets[4:]).cards == ("C6", "H9", "S7")
    # the top-right corner misread as a club: still S7's corner, which now casts doubt on it
    misread = group_cards(dets[:3] + [index("C7", 16.3, 3, 0.5)] + dets[4:])
    assert misread.cards == ("C6", "H9", "S7") and misread.confidences[2] < 0.9
    assert misread.others[2][0][0] == "C7"
    # ... or misread in its rank (a small index, seen in a rendered game: a 5's corner read
    # as an 8): a card laid there would show its own top-right corner further on
    misranked = group_cards(dets[:3] + [index("S8", 16.3, 3, 0.3)] + dets[4:])
    assert misranked.cards == ("C6", "H9", "S7") and misranked.others[2][0][0] == "S8"
    # a lone four-index card whose bottom-left corner was missed: its top-right corner stands
    # over its bottom-right one, and is no second card
    alone = [index("C7", 8, 3), index("C7", 12.6, 3), index("C7", 12.6, 9.4)]
    assert group_cards(alone).cards == ("C7",)
    # but a second copy laid a card's width on shows its own bottom-right corner: two cards
    pair = [index("C7", 8, 3), index("C7", 12.6, 3), index("C7", 12.6, 9.4), index("C7", 17.2, 9.4)]
    assert group_cards(pair).cards == ("C7", "C7")
    # in a two-index deck a same-rank card laid wide of the row is a card (a triple's last 7)
    assert group_cards([index("C7", 8, 3), index("H7", 10, 3), index("S7", 14.3, 3)]).cards == ("C7", "H7", "S7")


def test_a_last_gap_far_wider_than_the_rest_is_the_last_cards_top_right_corner():
    dets = [index("C6", 8, 3), index("H9", 10, 3), index("S7", 12, 3), index("S7", 16.5, 3)]
    assert group_cards(dets).cards == ("C6", "H9", "S7")
    # evenly laid, two identical cards stay two, even far apart in a two-index deck
    assert group_cards([index("S5", 8, 3), index("S5", 12, 3), index("S5", 16.6, 9.8)]).cards == ("S5", "S5")


def test_corners_of_one_card_vote_agreeing_ones_add_and_a_disagreeing_one_makes_it_doubtful():
    agree = group_cards([index("S2", 8, 3, 0.6), index("S2", 8, 9.4, 0.5), index("H9", 10, 3)])
    assert agree.cards == ("S2", "H9") and agree.confidences[0] == pytest.approx(0.8)
    # the bottom-left corner reads a club: the surer corner names the card, the other casts doubt
    clash = group_cards([index("S2", 8, 3, 0.6), index("C2", 8, 9.4, 0.5), index("H9", 10, 3)])
    assert clash.cards == ("S2", "H9") and clash.confidences[0] == pytest.approx(0.3)
    better_below = group_cards([index("S2", 8, 3, 0.4), index("C2", 8, 9.4, 0.9), index("H9", 10, 3)])
    assert better_below.cards == ("C2", "H9") and better_below.confidences[0] == pytest.approx(0.54)


def test_two_identical_cards_side_by_side_are_two_cards():
    dets = [index("S5", 8, 3), index("S5", 10.2, 3), index("H5", 12.4, 3), index("D5", 14.6, 3)]
    assert group_cards(dets).cards == ("S5", "S5", "H5", "D5")


def test_one_index_read_twice_is_one_card_and_the_confidence_is_the_weakest():
    dets = [index("S9", 8, 3, 0.95), index("S9", 8.2, 3.1, 0.6), index("HK", 10, 3, 0.7)]
    laid = group_cards(dets)
    assert laid.cards == ("S9", "HK") and laid.confidence == 0.7


def test_one_index_read_as_two_names_is_one_doubtful_card():
    dets = [index("H8", 8, 3, 0.6), index("D8", 8.1, 3, 0.5), index("S4", 10, 3)]
    laid = group_cards(dets)
    assert laid.cards == ("H8", "S4") and laid.confidences[0] == pytest.approx(0.3)


def test_an_index_that_fits_no_card_is_reported_as_stray():
    dets = [index("C6", 8, 3), index("DA", 20, 8)]
    assert group_cards(dets).stray == ("DA",)


def test_a_reading_above_the_row_does_not_push_the_row_out_of_its_band():
    # the corner of a neighbour's card at the zone's top edge, read as ST; the row lies lower
    row = [index(card, 16.7 + 2.1 * n, 8.4, 0.6) for n, card in enumerate(("D3", "S4", "C5", "C6", "S7", "S7"))]
    laid = group_cards([index("ST", 2.4, 1.3, 0.38), *row])
    assert laid.cards == ("D3", "S4", "C5", "C6", "S7", "S7") and laid.stray == ("ST",)


def test_a_neighbours_row_reaching_into_the_zones_corner_is_not_read():
    # North's zone: column c, row r (px) lie at table (28 - c/10, 10 + r/10) cm. East's long
    # row reaches (22, 15) cm, the zone's left corner; North's own cards lie further in.
    east = index("CA", 6, 5)  # table (22, 15): East's side
    north = [index("S3", 20, 9), index("S4", 22.1, 9)]  # table (8, 19) and (5.9, 19): North's
    assert own_side("N", [east, *north]) == north
    assert own_side("E", [east]) == []  # the same pixels mean another place in East's zone
    assert own_side("S", []) == []


def laid(*cards):
    return Laid(tuple(cards), tuple(0.9 for _ in cards))


def run(tracker, frames):
    out = []
    for t, cards, moving in frames:
        out += tracker.update(t, laid(*cards), moving)
    return out


def test_a_play_settles_only_after_the_hand_is_gone_and_it_lies_still():
    z = ZoneTracker("E", settle_s=0.3)
    events = run(z, [(0.0, (), False), (0.1, ("S3",), True), (0.2, ("S3", "S4"), True),
                     (0.3, ("S3", "S4"), False), (0.5, ("S3", "S4"), False)])
    assert events == []
    (e,) = run(z, [(0.65, ("S3", "S4"), False)])
    assert isinstance(e, Settled) and e.new == ("S3", "S4")


def test_a_committed_card_read_another_way_later_is_not_a_new_play():
    z = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("S5", "H9", "SK"), False), (0.3, ("S5", "H9", "SK"), False)])
    # knocked askew, the king now reads as a club: three cards lie there, three were committed
    (e,) = run(z, [(1.0, ("S5", "H9", "CK"), False), (1.3, ("S5", "H9", "CK"), False)])
    assert isinstance(e, Settled) and e.new == () and z.new_cards() == ()
    # a fourth card is a new play
    (e,) = run(z, [(2.0, ("S5", "H9", "SK", "D2"), False), (2.3, ("S5", "H9", "SK", "D2"), False)])
    assert e.new == ("D2",)


def test_when_an_old_card_reads_another_way_the_new_cards_are_the_last_of_the_row():
    z = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("C4",), False), (0.3, ("C4",), False)])
    # the king laid beside it, and the four now reads as a spade: one card was added, the king
    (e,) = run(z, [(1.0, ("S4", "SK"), False), (1.3, ("S4", "SK"), False)])
    assert e.new == ("SK",) and sum(z.on_table.values()) == 2
    # then the big joker: the zone holds three cards, two committed, so the joker is new
    (e,) = run(z, [(2.0, ("C4", "SK", "HR"), False), (2.3, ("C4", "SK", "HR"), False)])
    assert e.new == ("HR",)


def test_new_cards_laid_left_of_the_old_are_found_by_name_when_the_names_agree():
    z = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("SK",), False), (0.3, ("SK",), False)])
    (e,) = run(z, [(1.0, ("C4", "SK"), False), (1.3, ("C4", "SK"), False)])
    assert e.new == ("C4",)


def test_a_second_play_in_the_same_trick_is_only_the_new_cards_and_a_cleared_zone_ends_it():
    z = ZoneTracker("E", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("S3",), False), (0.3, ("S3",), False)])
    (e,) = run(z, [(1.0, ("S3", "SK"), False), (1.3, ("S3", "SK"), False)])
    assert e.new == ("SK",)
    (c,) = run(z, [(2.0, (), False), (2.3, (), False)])  # turned face down onto the pile
    assert isinstance(c, Cleared)
    (e,) = run(z, [(3.0, ("SK",), False), (3.3, ("SK",), False)])  # a new trick: the same name is a new card
    assert e.new == ("SK",)


def test_a_hand_over_committed_cards_is_not_a_change():
    z = ZoneTracker("N", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("D4", "D5", "D6", "D7", "D8"), False), (0.3, ("D4", "D5", "D6", "D7", "D8"), False)])
    events = run(z, [(1.0, ("D4", "D5"), False), (1.3, ("D4", "D5"), False)])
    assert [e.new for e in events] == [()]
    assert z.new_cards() == ()


def test_a_trick_swept_unseen_stops_counting_as_lying_in_the_zone():
    """The trick was turned onto the pile under an arm's shadow: the zone never read bare.
    Once a new trick has begun, the old cards are not seen again, and the seat's next cards
    are plays, even of the same names and ranks as the swept ones."""
    z = ZoneTracker("N", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("H7", "H7", "C8", "C8", "S9", "D9"), False), (0.3, ("H7", "H7", "C8", "C8", "S9", "D9"), False)])
    z.trick_over()  # another seat led the next trick
    (e,) = run(z, [(5.0, ("S4",), False), (5.3, ("S4",), False)])
    assert e.new == ("S4",)
    (e,) = run(z, [(9.0, ("S4", "D9"), False), (9.3, ("S4", "D9"), False)])
    assert e.new == ("D9",)  # a D9 was swept with the old trick: this one is new
    (e,) = run(z, [(12.0, ("C7",), False), (12.3, ("C7",), False)])  # swept unseen again
    assert e.new == ("C7",)
    z.trick_over(keep=("C7",))  # the seven led the next trick
    (e,) = run(z, [(15.0, ("C7", "CJ"), False), (15.3, ("C7", "CJ"), False)])
    assert e.new == ("CJ",) and z.on_table == Counter({"C7": 1, "CJ": 1})


def test_a_lone_card_after_a_bigger_trick_was_swept_is_a_play_of_a_swept_rank():
    """East's straight went to the pile under a shadow; after another seat's lead a lone six
    lies there: a card of five that are gone is not what one card lying there shows."""
    z = ZoneTracker("E", settle_s=0.2, auto_commit=True)
    straight = ("D2", "H3", "C4", "C5", "C6")
    run(z, [(0, straight, False), (0.3, straight, False)])
    z.trick_over()
    (e,) = run(z, [(9.0, ("S6",), False), (9.3, ("S6",), False)])
    assert e.new == ("S6",)


def test_a_lone_card_of_a_trick_that_is_over_read_another_way_is_not_a_play():
    z = ZoneTracker("S", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("SK",), False), (0.3, ("SK",), False)])
    z.trick_over()
    (e,) = run(z, [(1.0, ("CK",), False), (1.3, ("CK",), False)])  # a shadow, a closer look
    assert e.new == () and z.on_table == Counter({"SK": 1})


def test_a_trick_still_lying_in_the_zone_keeps_its_cards():
    """The next trick begun while the old cards still lie (a slow sweep), partly under a hand:
    half of them still seen, they are not taken for a new play."""
    z = ZoneTracker("E", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("D4", "D5", "D6", "D7"), False), (0.3, ("D4", "D5", "D6", "D7"), False)])
    z.trick_over()
    events = run(z, [(1.0, ("D4", "D5"), False), (1.3, ("D4", "D5"), False)])
    assert [e.new for e in events] == [()] and z.new_cards() == ()
    (e,) = run(z, [(2.0, ("D4", "D5", "D6", "D7", "SA"), False), (2.3, ("D4", "D5", "D6", "D7", "SA"), False)])
    assert e.new == ("SA",)


def test_with_a_clock_the_press_commits():
    z = ZoneTracker("W", settle_s=0.2)
    run(z, [(0, ("HA",), False), (0.3, ("HA",), False)])
    assert z.commit() == ("HA",)
    assert z.commit() == ()  # a second press with nothing new is a pass


def test_motion_of_a_zone():
    a = np.zeros((260, 560, 3), np.uint8)
    b = a.copy()
    assert motion(thumbnail(a), thumbnail(b)) == 0.0 and motion(None, thumbnail(b)) == 255.0
    b[:, :200] = 200
    assert motion(thumbnail(a), thumbnail(b)) > 50


def test_a_four_index_card_whose_top_left_index_went_unread_is_still_a_card():
    """Seen in a rendered game: the first of N's two 8s lost its top-left index to the
    finder, the row read one 8, and the tracker took an old card for a new one."""
    dets = [index("S8", 10, 3), index("DQ", 12, 3), index("DQ", 14, 3), index("DQ", 18.3, 3),
            index("S8", 8, 9.4), index("S8", 10, 9.4), index("DQ", 12, 9.4), index("DQ", 18.3, 9.4)]
    laid = group_cards(dets)
    assert laid.cards == ("S8", "S8", "DQ", "DQ") and laid.stray == ()
    # in a two-index deck an index below the row with no card above is no card
    two = [index("S8", 10, 3), index("DQ", 12, 3), index("DQ", 14, 3), index("S8", 8, 9.4)]
    assert group_cards(two).cards == ("S8", "DQ", "DQ") and group_cards(two).stray == ("S8",)


def test_a_rows_confidence_in_a_name_is_its_surest_copy():
    laid = Laid(("S8", "DQ", "S8"), (0.4, 0.9, 0.7))
    assert laid.confidence_of("S8") == 0.7 and laid.confidence_of("DQ") == 0.9 and laid.confidence_of("HA") == 0.0


def test_a_last_card_whose_top_left_index_went_unread_is_still_a_card():
    """A 大王 laid after an A, its top-left star scored too low to keep, its bottom-right
    corner read: the 大王 is the row's last card, not nothing new."""
    dets = [index("C8", 23.7, 8.8), index("HA", 25.7, 8.8), index("HR", 32.1, 15.4, 0.47)]
    laid = group_cards(dets)
    assert laid.cards == ("C8", "HA", "HR") and laid.stray == ()
    assert laid.confidences[2] == pytest.approx(0.47)
    # within the last card's own reach it is that card's corner, and far beyond it a stray
    assert group_cards([index("C8", 23.7, 8.8), index("HA", 25.7, 8.8), index("HA", 30.3, 15.4)]).cards == ("C8", "HA")
    far = group_cards([index("C8", 23.7, 8.8), index("HA", 25.7, 8.8), index("HR", 38.5, 15.4)])
    assert far.cards == ("C8", "HA") and far.stray == ("HR",)
    # and not where no card lies a card's height above it
    assert group_cards([index("C8", 23.7, 8.8), index("HA", 25.7, 8.8), index("HR", 32.1, 12.5)]).stray == ("HR",)


def test_a_card_laid_beside_the_seats_earlier_one_its_top_left_index_washed_out_is_a_card():
    """Seen on the stage (seed 111): N laid a D3 beside its C6, a card's width on and a
    little lower, under the lamp's hot spot; its top-left index went unread, its bottom-right
    one read D3. Beyond a next card's step from the C6, that corner was a stray and the D3 no
    play at all."""
    dets = [index("C6", 22.8, 4.8, 0.48), index("D3", 33.25, 13.05, 0.48)]
    laid = group_cards(dets)
    assert laid.cards == ("C6", "D3") and laid.stray == ()
    # where the card would have been laid further off than clear of the last card, or lower
    # than a hand lays a card beside the row, the corner stays a stray
    assert group_cards([index("C6", 22.8, 4.8), index("D3", 35.5, 13.05)]).stray == ("D3",)
    assert group_cards([index("C6", 22.8, 4.8), index("D3", 33.25, 14.8)]).stray == ("D3",)


def test_a_card_laid_over_the_seats_earlier_one_is_a_second_card_not_the_first_read_again():
    """An SK laid over the C8 its seat had played, hiding all of it but its faintly read
    top-left index; the SK's own top-left index unread, its bottom-right one read. Taken for
    the row, that corner would make the C8 a stray above it: one card in the zone, as many
    as committed, no play."""
    dets = [index("C8", 24.8, 8.8, 0.17), index("SK", 31.5, 15.2, 0.63)]
    laid = group_cards(dets)
    assert laid.cards == ("C8", "SK") and laid.stray == ()
    tracker = ZoneTracker("W")
    tracker.count_as_laid(["C8"])
    assert run(tracker, [(0.0, laid.cards, False), (0.5, laid.cards, False)])[-1].new == ("SK",)
    # a corner a card's diagonal below-right of a strong row stays that row's card's corner
    row = [index("C8", 24.8, 8.8, 0.9), index("SK", 26.9, 8.8, 0.9), index("SK", 31.5, 15.2, 0.63)]
    assert group_cards(row).cards == ("C8", "SK")
    # and where nothing lies above it, a lone index is a card of its own
    assert group_cards([index("SK", 31.5, 15.2, 0.63)]).cards == ("SK",)


def test_a_second_play_laid_over_the_first_covers_it_and_is_all_new():
    """West's pair of 2s laid over its pair of 4s in the same trick hides the 4s' indices:
    the zone reads two cards, as many as committed, yet none of them may be a 4 misread — a
    new play. A card that may be the hidden one misread (the same rank, or it among its
    runners-up) is not."""
    z = ZoneTracker("W", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("C4", "C4"), False), (0.3, ("C4", "C4"), False)])
    (e,) = run(z, [(1.0, ("S2", "S2"), False), (1.3, ("S2", "S2"), False)])
    assert e.new == ("S2", "S2") and z.on_table == Counter({"C4": 2, "S2": 2})
    z = ZoneTracker("W", settle_s=0.2, auto_commit=True)
    run(z, [(0, ("S5",), False), (0.3, ("S5",), False)])
    misread = Laid(("S6",), (0.6,), (), ((("S5", 0.3),),))  # read again as a 6, the 5 its runner-up
    assert [e.new for e in z.update(1.0, misread, False) + z.update(1.3, misread, False)] == [()]


def test_a_second_play_laid_apart_from_the_first_is_a_row_of_its_own():
    """Seen in the second world: South laid D8, then in the same trick CA lower in its zone,
    apart from the 8. Its top-left index and bottom-right corner fitted no card of the 8's
    row, were strays, and the A was no play."""
    first = [index("D8", 22.6, 2.9, 0.77)]
    apart = [index("SA", 24.3, 10.0, 0.59), index("CA", 29.4, 16.3, 0.44)]
    laid = group_cards(first + apart)
    assert laid.cards[0] == "D8" and laid.cards[1] in ("SA", "CA") and laid.stray == ()
    pair = [index("D5", 10, 13), index("D5", 12, 13), index("D5", 16.5, 19.4)]
    assert group_cards([index("C6", 8, 3), index("H9", 10, 3), index("S7", 12, 3), *pair]).cards == (
        "C6", "H9", "S7", "D5", "D5")
    # a lone index there, with no corner of its card read, stays a stray
    assert group_cards([*first, index("SA", 24.3, 10.0, 0.59)]).stray == ("SA",)
    # and so does a second row read too doubtfully to be cards
    doubtful = group_cards(first + [index("SA", 24.3, 10.0, 0.2), index("CA", 29.4, 16.3, 0.1)])
    assert doubtful.cards == ("D8",) and sorted(doubtful.stray) == ["CA", "SA"]


def test_a_card_laid_apart_where_a_row_card_s_corner_would_lie_is_a_card():
    """Seen in the second world: East's three singles of a trick laid as a stair, the third's
    top-left index where the first's hidden bottom-right corner would be. Taken for that
    corner, the third card was lost (its own bottom-right corner a stray)."""
    dets = [index("H5", 23.1, 3.0, 0.81), index("D9", 27.4, 4.6, 0.8),
            index("S2", 28.6, 10.1, 0.45), index("S2", 33.2, 17.0, 0.45)]
    laid = group_cards(dets)
    assert laid.cards == ("H5", "D9", "S2") and laid.stray == ()
    # an index there of the row card's own rank is still that card's corner
    assert group_cards([index("H5", 23.1, 3.0), index("D5", 28.6, 10.1), index("S5", 33.2, 17.0)]).cards == ("H5",)


def test_a_card_laid_turned_is_one_card_not_two_of_its_name():
    """Seen in the stage world (diagnosis game 111): a lone H7 laid some 8° askew; its
    bottom-right corner, read H7, lay 6.1 cm across from its top-left index, beyond a square
    card's reach, and the play was read H7 H7. So were a straight's last D7 and a pair's D3
    in game 110, their corners 5.7 cm across."""
    assert group_cards([index("H7", 23.0, 4.2), index("H7", 29.1, 10.0)]).cards == ("H7",)
    row = [index("C3", 21.9, 3.0), index("D3", 23.9, 3.5), index("D3", 29.5, 9.3)]
    assert group_cards(row).cards == ("C3", "D3") and group_cards(row).stray == ()
    # a corner of another name there is still a card laid after the last, its top-left unread
    assert group_cards([index("HA", 23.0, 4.2), index("HR", 29.1, 10.0)]).cards == ("HA", "HR")
    # and a corner far beyond any turn is no corner of the card
    assert group_cards([index("H7", 23.0, 4.2), index("H7", 31.5, 10.0)]).cards != ("H7",)


def test_a_play_laid_below_the_first_a_step_along_is_a_row_not_the_first_rows_corners():
    """Seen in the stage world (diagnosis game 111): South's bomb of fives laid below its
    straight from four, one card's step to the left, so that each five's index lay straight
    below a card of the straight. Taken for a four-index deck's bottom-left corners, the
    fives renamed the straight's cards and the bomb was no play. In a four-index deck
    those corners read, most of them, as the rank above them; these read other ranks."""
    straight = [index(card, x, 4.3) for card, x in
                (("S4", 24.6), ("C5", 26.2), ("D6", 27.9), ("S7", 29.3), ("H8", 31.3))]
    bomb = [index(card, x, 11.0) for card, x in (("S5", 22.1), ("H5", 24.6), ("C5", 26.2), ("D5", 27.9))]
    laid = group_cards(straight + bomb + [index("H8", 36.4, 10.1), index("D5", 33.1, 16.9)])
    assert laid.cards == ("S4", "C5", "D6", "S7", "H8", "S5", "H5", "C5", "D5") and laid.stray == ()
    assert laid.places[5] == pytest.approx((22.1, 11.0)) and laid.places[0] == pytest.approx((24.6, 4.3))


def test_a_card_laid_over_the_seats_earlier_one_an_index_lower_is_a_card_of_its_own():
    """Seen in the stage world (diagnosis game 111): West's 大王 laid over its H7, 0.7 cm
    right of it and 2.9 cm lower, so that both top-left indices showed in the row's top band
    one above the other. Taken for one index read twice, the 大王 was a doubt about the H7
    and the play read nothing. An index is about 2 cm tall: two readings that far apart down
    are two indices, wherever they lie across."""
    laid = group_cards([index("H7", 23.2, 4.3, 0.81), index("HR", 23.9, 7.2, 0.29)])
    assert laid.cards == ("H7", "HR") and laid.places[1] == pytest.approx((23.9, 7.2))
    # an index read twice, a little apart, is still one card and the other name a doubt
    twice = group_cards([index("H7", 23.2, 4.3, 0.81), index("D7", 23.5, 4.9, 0.3)])
    assert twice.cards == ("H7",) and twice.others[0][0][0] == "D7"
