"""What a hand flags and how it goes on (engine/hand.py): illegal acts — out of turn,
not a combination, does not beat, pass on a lead, cards not held or seen too often — and
card-count reports (报牌), missed, wrong or repeated.
"""

from __future__ import annotations

import pytest

from engine.cards import card_order
from engine.events import Header, event_from_json
from tests.engine.table_driver import Table, codes, find, rig

# --- illegal acts ----------------------------------------------------------------------------

def test_out_of_turn_play_is_flagged_and_the_table_goes_on():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("W", "S9")  # N's turn
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.seat == "W" and v.detail["expected"] == "N"
    assert v.seq == t.seq
    assert t.hand.counts["W"] == 26  # the cards are laid
    assert t.hand.top.seat == "W"  # a legal play laid out of turn stands
    assert t.hand.turn == "S"


def test_an_illegal_play_out_of_turn_leaves_the_turn_where_it_was():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("S", "S5", "S7")  # N's turn; not a combination either
    assert codes(t.violations) == ["out_of_turn", "not_a_combination"]
    assert t.hand.counts["S"] == 25
    assert t.hand.top.seat == "E" and t.hand.turn == "N" and t.hand.passes == 0
    t.pass_("N")
    t.pass_("W")
    assert t.hand.top is not None  # S has not passed yet: its bad play was no pass
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"
    assert codes(t.violations) == ["out_of_turn", "not_a_combination"]


def test_out_of_turn_pass_is_flagged_and_changes_nothing():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.pass_("S")
    assert codes(t.violations) == ["out_of_turn"]
    assert t.hand.turn == "N" and t.hand.passes == 0


def test_out_of_turn_first_lead():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.pass_("N")
    assert codes(t.violations) == ["out_of_turn"]
    assert t.hand.turn == "E"


def test_not_a_combination_on_a_lead_passes_the_lead_to_the_next_player():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "S5")
    (v,) = t.violations
    assert v.code == "not_a_combination" and v.seat == "E" and v.detail["cards"] == ["S3", "S5"]
    assert t.hand.counts["E"] == 25  # laid cards are gone
    assert t.hand.top is None
    assert t.hand.turn == "N"  # 停止一轮出牌，由下家出牌
    t.play("N", "S4")
    assert t.hand.top.seat == "N" and len(t.violations) == 1


def test_not_a_combination_on_a_trick_counts_as_a_pass():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("N", "S5", "S7")
    assert codes(t.violations) == ["not_a_combination"]
    assert t.hand.counts["N"] == 25
    assert t.hand.top.seat == "E" and t.hand.turn == "W"
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"


def test_a_declared_reading_the_cards_do_not_have_is_not_a_combination():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "H3", reading=("Trips", "3"))
    (v,) = t.violations
    assert v.code == "not_a_combination" and v.detail["declared"] == ["Trips", "3"]


@pytest.mark.parametrize("lead, bad", [
    (("S9",), ("S5",)),                   # lower single
    (("S9",), ("S5", "H5")),              # a pair on a single
    (("S9", "H9"), ("ST",)),              # a single on a pair
    (("S9", "H9"), ("S3", "H3", "C3")),   # a triple on a pair
    (("SA", "HA", "CA", "DA"), ("S6", "S6", "H6", "H6")),  # a lower bomb of the same size
    (("S7", "S8", "C9", "DT", "SJ"), ("S6", "H7", "C8", "D9", "HT")),  # a lower straight
])
def test_does_not_beat(lead, bad):
    t = Table()
    t.deal(hidden=True, leader="E")
    lead_play = t.play("E", *lead)
    t.play("N", *bad)
    (v,) = t.violations
    assert v.code == "does_not_beat" and v.seat == "N"
    assert v.detail["on"] == lead_play.to_json()
    assert t.hand.counts["N"] == 27 - len(bad)
    # it counts as N's pass: two more passes end the trick for E
    assert t.hand.top.seat == "E"
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"


def test_the_level_card_beats_an_ace_and_a_smaller_bomb_does_not_beat_a_bigger():
    t = Table()
    t.deal(hidden=True, leader="E")  # level 2
    t.play("E", "SA")
    t.play("N", "S2")
    assert t.violations == []
    t.play("W", "S5", "H5", "C5", "D5", "S5")
    t.play("S", "S9", "H9", "C9", "D9")
    assert codes(t.violations) == ["does_not_beat"]
    assert t.hand.top.seat == "W"


def test_pass_on_lead_keeps_the_turn():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.pass_("E")
    (v,) = t.violations
    assert v.code == "pass_on_lead" and v.seat == "E"
    assert t.hand.turn == "E" and t.hand.top is None
    t.play("E", "S3")
    assert t.hand.turn == "N"


def test_pass_on_lead_after_a_trick():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.pass_("E")
    assert codes(t.violations) == ["pass_on_lead"]
    assert t.hand.turn == "E"


def test_card_not_held_with_known_hands():
    hands = rig(E=["S3"], N=["HR", "HR"])
    t = Table()
    t.deal(hands, leader="E")
    t.play("E", "HR")
    (v,) = t.violations
    assert v.code == "card_not_held" and v.seat == "E" and v.detail["cards"] == ["HR"]
    assert t.hand.counts["E"] == 26


def test_card_not_held_for_part_of_a_play():
    hands = rig(E=["S3"], N=["S3"])
    t = Table()
    t.deal(hands, leader="E")
    t.play("E", "S3", "S3")
    (v,) = t.violations
    assert v.code == "card_not_held" and v.detail["cards"] == ["S3"]


def test_duplicate_card_with_hidden_hands_a_third_copy():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")
    assert t.violations == []
    t.play("E", "S3")
    (v,) = t.violations
    assert v.code == "duplicate_card" and v.seat == "E" and v.detail["cards"] == ["S3"]


def test_a_third_copy_is_the_fault_of_the_play_that_shows_it_and_no_later_one():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")  # the third: flagged here
    t.lead_round("E", "H4")  # and not again with every later play
    t.lead_round("E", "S5", "S5")
    assert [(v.code, v.detail["cards"]) for v in t.violations] == [("duplicate_card", ["S3"])]


def test_duplicate_card_within_one_play_seen_with_earlier_plays():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "SA")
    t.play("E", "SA", "SA")
    assert codes(t.violations) == ["duplicate_card"]


def test_hidden_hand_playing_more_cards_than_held():
    t = Table()
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)])
    assert t.hand.counts["E"] == 3
    t.play("E", "S9", "H9", "C9", "D9")
    (v,) = find(t.violations, "card_count_mismatch")
    assert v.seat == "E" and v.detail == {"held": 3, "played": 4}
    assert t.hand.counts["E"] == 0 and t.hand.finished == ["E"]


# --- reports (报牌) ---------------------------------------------------------------------------

@pytest.mark.parametrize("profile, threshold", [("jiangsu", 10), ("linyi", 10), ("linquan", 7),
                                                ("linyi_notice", 10)])
def test_report_threshold_per_profile(profile, threshold):
    t = Table(profile)
    assert t.profile.report.threshold == threshold
    t.deal(leader="E")
    t.shed_to("E", threshold + 1, report=False)
    assert t.violations == []  # above the threshold nothing is due
    card = min(t.model["E"], key=lambda c: card_order(c, "2"))
    t.play("E", card)
    assert t.hand.report_due == {"E": threshold}
    t.pass_("N")
    (v,) = t.violations
    assert v.code == "missed_report" and v.seat == "E" and v.detail["count"] == threshold
    assert v.seq == t.seq  # flagged at the event that came before the report


def test_a_report_in_time_clears_the_duty():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 10)  # reports as it goes
    assert t.violations == []
    t.lead_round("E", min(t.model["E"], key=lambda c: card_order(c, "2")), report=True)
    assert t.violations == [] and t.hand.report_due == {}


def test_a_missed_report_is_flagged_at_the_next_players_pass():
    t = Table()
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)], report=False)
    # 27 - 24 = 3 left after the third bomb: a report was due before the first pass
    assert codes(t.violations) == ["missed_report"]
    assert t.violations[0].detail["count"] == 3


def test_a_camera_table_cannot_hear_reports_so_none_is_missed():
    t = Table(reports_heard=False)
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)], report=False)
    assert t.violations == [] and t.hand.report_due == {}
    assert event_from_json(t.match.header.to_json()).reports_heard is False  # kept in the record
    assert "reports_heard" not in Header(seq=0, t=0.0).to_json()  # records that hear them are as before


def test_a_late_report_does_not_excuse_the_missed_one():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 10, report=False)
    missed = find(t.violations, "missed_report")
    assert len(missed) == 1 and missed[0].detail["count"] == 10
    t.report("E", 10)  # late: after N's pass
    assert len(find(t.violations, "missed_report")) == 1
    assert find(t.violations, "wrong_report") == []


def test_wrong_report():
    t = Table("linquan")
    t.deal(leader="E")
    t.shed_to("E", 8)
    t.play("E", min(t.model["E"], key=lambda c: card_order(c, "2")))
    t.report("E", 6)
    (v,) = t.violations
    assert v.code == "wrong_report" and v.seat == "E" and v.detail == {"said": 6, "held": 7}
    t.pass_("N")
    assert codes(t.violations) == ["wrong_report"]  # a wrong report is not also a missed one


def test_linyi_reports_once_and_a_repeated_report_is_flagged():
    t = Table("linyi")
    t.deal(leader="E")
    t.shed_to("E", 10)  # reports once, at 10
    t.shed_to("E", 8, report=False)  # nothing more is due
    assert t.violations == [] and t.hand.report_due == {}
    t.report("E", 8)
    (v,) = t.violations
    assert v.code == "repeated_report" and v.seat == "E"


def test_jiangsu_reports_after_every_play_at_the_threshold():
    t = Table("jiangsu")
    t.deal(leader="E")
    t.shed_to("E", 10)
    t.shed_to("E", 9, report=False)
    assert codes(t.violations) == ["missed_report"]


def test_going_out_needs_no_report():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    assert t.hand.report_due == {}
    t.pass_("N")
    assert t.violations == []
