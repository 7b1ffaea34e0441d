"""The hand state machine (engine/hand.py) playing: deal checks, turn order, tricks, 接风,
the finishing order, ``Hand.awaiting`` and the legal plays of the seat on turn.

Illegal acts and reports are in ``test_hand_violations.py``, tribute and its return in
``test_tribute.py`` and ``test_resist_and_return.py``; all play with the ``Table`` driver
(``table_driver.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import card_order
from engine.events import Pass, PlayCards
from engine.hand import OVER, PLAY
from engine.seats import PLAY_ORDER, next_seat, side_of
from tests.engine.table_driver import Table, codes, find, rig

# --- deal checks ----------------------------------------------------------------------------

def test_a_full_known_deal_has_no_violations():
    t = Table()
    t.deal(leader="E")
    assert t.violations == []
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}
    assert t.hand.phase == PLAY and t.hand.known


def test_a_hidden_deal_starts_every_seat_at_27():
    t = Table()
    t.deal(hidden=True, leader="N")
    assert t.violations == [] and not t.hand.known
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}
    assert t.hand.awaiting() == ("first_lead", ("N",))


def test_wrong_card_counts_are_card_count_mismatch_per_seat():
    hands = dict(rig())
    moved = hands["E"][0]
    hands["E"] = hands["E"][1:]
    hands["N"] = hands["N"] + (moved,)
    t = Table()
    t.deal(hands, leader="E")
    bad = find(t.violations, "card_count_mismatch")
    assert {(v.seat, v.detail["held"]) for v in bad} == {("E", 26), ("N", 28)}
    assert all(v.seq == 1 for v in bad)
    # the deck as a whole is still the two decks: no deck-level flag
    assert all(v.seat is not None for v in bad)


def test_a_third_copy_in_the_deal_is_a_deck_mismatch():
    hands = dict(rig(E=["S3", "S3"]))
    n = list(hands["N"])
    swapped_out = n.pop()
    hands["N"] = tuple(n + ["S3"])  # a third S3, and one card missing from the deck
    t = Table()
    t.deal(hands, leader="E")
    (v,) = find(t.violations, "card_count_mismatch")
    assert v.seat is None
    assert v.detail["extra"] == ["S3"] and v.detail["missing"] == [swapped_out]


# --- turn order, passes, tricks -------------------------------------------------------------

def test_play_goes_counter_clockwise_from_the_leader():
    t = Table()
    t.deal(rig(E=["S3"]), leader="E")
    assert t.hand.awaiting() == ("first_lead", ("E",))
    seen = []
    t.play("E", "S3")
    for _ in range(3):
        seen.append(t.hand.turn)
        t.pass_(t.hand.turn)
    assert seen == ["N", "W", "S"]
    assert [next_seat(s) for s in PLAY_ORDER] == ["N", "W", "S", "E"]
    assert t.violations == []


def test_three_passes_end_the_trick_and_the_last_player_leads():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("N", "S5")
    t.pass_("W")
    assert t.hand.top.seat == "N" and t.hand.turn == "S"
    t.pass_("S")
    t.pass_("E")
    assert t.hand.top is None and t.hand.turn == "N" and t.hand.leader == "N"
    assert t.hand.awaiting() == ("play", ("N",))
    assert t.violations == []


def test_a_higher_play_resets_the_passes():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.pass_("N")
    t.pass_("W")
    t.play("S", "S9")
    t.pass_("E")
    t.pass_("N")
    assert t.hand.top is not None and t.hand.turn == "W"
    t.pass_("W")
    assert t.hand.top is None and t.hand.turn == "S"


def test_without_a_named_leader_anyone_may_lead_the_first_hand():
    t = Table()
    t.deal(hidden=True)
    assert t.hand.awaiting() == ("first_lead", PLAY_ORDER)
    t.play("W", "S4")
    assert t.hand.leader == "W" and t.hand.turn == "S"
    assert t.violations == []


def test_the_reading_taken_is_returned():
    t = Table()
    t.deal(hidden=True, leader="E")
    play = t.play("E", "S3", "H3")
    assert (play.type, play.rank) == ("Pair", "3")


def test_bombs_beat_other_types_and_bigger_bombs_beat_bombs():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "SA")
    t.play("N", "S4", "H4", "C4", "D4")
    t.play("W", "S5", "H5", "C5", "D5")
    t.play("S", "S3", "H3", "C3", "D3", "S3")  # 5 cards beat 4
    assert t.violations == []
    assert t.hand.top.seat == "S"


# --- 接风 ------------------------------------------------------------------------------------

def test_jiefeng_partner_leads_after_a_player_goes_out_and_all_pass():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    assert t.hand.finished == ["E"]
    assert t.hand.turn == "N"
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None
    assert t.hand.turn == "W" and t.hand.leader == "W"
    assert t.violations == []


def test_a_player_who_beats_the_last_card_of_a_player_out_leads():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", *["S3", "S3", "H3", "H3", "C3", "C3", "D3", "D3"])
    t.lead_round("E", *["S4", "S4", "H4", "H4", "C4", "C4", "D4", "D4"])
    t.lead_round("E", *["S5", "S5", "H5", "H5", "C5", "C5", "D5", "D5"])
    t.lead_round("E", "S6")
    t.lead_round("E", "H6")
    t.play("E", "C6")
    assert t.hand.counts["E"] == 0 and t.hand.finished == ["E"]
    t.pass_("N")
    t.play("W", "C7")  # the partner takes it the ordinary way
    t.play("S", "CA")
    t.pass_("N")
    t.pass_("W")
    assert t.hand.turn == "S" and t.hand.top is None
    assert t.violations == []


def test_finished_players_are_skipped_and_cannot_play():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    t.play("W", min(t.model["W"], key=lambda c: card_order(c, "2")))
    assert t.hand.turn == "S"
    t.pass_("S")
    t.pass_("N")  # E is out: N is after S
    assert t.hand.turn == "W" and t.hand.top is None
    t.push(PlayCards, seat="E", cards=("HR",))
    assert codes(t.violations) == ["play_after_out"]


# --- finishing order --------------------------------------------------------------------------

def test_both_of_one_side_out_ends_the_hand_double_down():
    t = Table()
    t.deal(leader="E")
    t.finish("E", "W")
    o = t.hand.outcome
    assert o.order[:2] == ("E", "W") and set(o.order[2:]) == {"N", "S"}
    assert o.winner_side == "EW" and o.partner_place == 2 and o.double_down
    assert t.hand.phase == OVER and t.hand.awaiting() == ("over", ())
    assert t.violations == []


@pytest.mark.parametrize("order, place", [(("E", "N", "W", "S"), 3), (("N", "E", "S", "W"), 3),
                                          (("S", "W", "E", "N"), 4), (("W", "N", "S", "E"), 4)])
def test_three_out_ends_the_hand(order, place):
    t = Table()
    t.deal(leader=order[0])
    t.finish(*order)
    o = t.hand.outcome
    assert o.order == order
    assert o.winner_side == side_of(order[0]) and o.partner_place == place and not o.double_down
    assert t.violations == []


def test_the_driver_works_on_hidden_hands_too():
    t = Table()
    t.deal(hidden=True, leader="N")
    t.finish("N", "E", "S", "W")
    assert t.hand.outcome.order == ("N", "E", "S", "W")
    assert t.violations == []


def test_events_after_the_hand_is_over_are_play_after_out():
    t = Table.after(("E", "N", "W", "S"))
    t.settle_tribute()
    t.finish("S", "N")
    t.push(Pass, seat="E")
    assert codes(t.violations)[-1] == "play_after_out"
    assert t.violations[-1].detail == {"reason": "hand_over"}


# --- awaiting and legal plays ----------------------------------------------------------------

def test_awaiting_through_a_hand():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert t.hand.awaiting() == ("tribute", ("S",))
    assert t.hand.legal_plays() == []
    t.tribute("S", "HR")
    assert t.hand.awaiting() == ("return", ("E",))
    t.give_back("E", "S3")
    assert t.hand.awaiting() == ("first_lead", ("S",))
    first = t.hand.legal_plays()
    assert first and all(p.cards for p in first)
    t.play("S", "S3")
    assert t.hand.awaiting() == ("play", ("E",))
    t.pass_("E")
    t.pass_("N")
    t.pass_("W")
    assert t.hand.awaiting() == ("play", ("S",))
    t.finish("S", "N")
    assert t.hand.awaiting() == ("over", ())
    assert t.hand.legal_plays() == []


def test_legal_plays_are_empty_for_hidden_hands():
    t = Table()
    t.deal(hidden=True, leader="E")
    assert t.hand.legal_plays() == []


def test_legal_plays_follow_the_play_on_the_table():
    t = Table()
    t.deal(rig(E=["S3"], N=["S9"]), leader="E")
    t.play("E", "S3")
    plays = t.hand.legal_plays()
    assert plays and all(p.is_bomb or (p.type == "Single" and card_order(p.cards[0], "2") > 3) for p in plays)


def test_conservation_holds_through_a_played_out_hand_with_tribute():
    for hidden in (False, True):
        t = Table.after(("E", "W", "N", "S"), hidden=hidden)
        t.finish("N", "E", "S", "W")
        assert t.violations == []
        played = sum(t.hand.played_by.values(), Counter())
        assert sum(played.values()) + sum(t.hand.counts.values()) == 108


def test_going_out_with_an_illegal_play_does_not_count_as_a_pass():
    """N lays its last card on E's higher single: the cards are gone (N is out) but the
    trick is not N's, and W and S still get their say before E leads again."""
    t = Table()
    t.deal(hidden=True, leader="N")
    for rank in "345":
        t.lead_round("N", *[s + rank for s in "SHCD" for _ in range(2)])
    t.play("N", "S6", "H6")  # 1 card left
    t.report("N")
    t.play("W", "S7", "H7")
    t.pass_("S")
    t.pass_("E")
    t.pass_("N")
    assert t.hand.turn == "W" and t.hand.top is None
    t.play("W", "ST")
    t.pass_("S")
    t.play("E", "SJ")
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    assert t.hand.turn == "E" and t.hand.top is None
    t.play("E", "S8")
    t.play("N", "S6")  # its last card, lower: does not beat
    assert codes(t.violations) == ["does_not_beat"]
    assert t.hand.finished == ["N"] and t.hand.counts["N"] == 0
    t.pass_("W")
    assert t.hand.top is not None and t.hand.turn == "S"  # S has not had its say yet
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"
    assert codes(t.violations) == ["does_not_beat"]
