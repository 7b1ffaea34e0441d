"""Tribute (进贡) in a hand (engine/tribute.py): the card owed, who receives it in a
single or a double down (双下), equal tribute cards by each profile, and who leads after.
"""

from __future__ import annotations

import pytest

from engine.cards import wildcard
from engine.hand import PLAY, RETURN, TRIBUTE, correct_tributes
from engine.seats import PLAY_ORDER, next_seat, prev_seat
from tests.engine.table_driver import Table, codes, rig

# --- tribute (进贡) ---------------------------------------------------------------------------

def test_single_tribute_return_and_lead():
    hands = rig(S=["HR", "SB"], E=["HR", "S3"])
    t = Table.after(("E", "N", "W", "S"), hands)
    hand = t.hand
    assert hand.phase == TRIBUTE and hand.tributers == ["S"]
    assert hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    assert hand.phase == RETURN and hand.receivers == {"S": "E"}
    assert hand.awaiting() == ("return", ("E",))
    assert hand.holdings["E"]["HR"] == 2 and hand.holdings["S"]["HR"] == 0
    t.give_back("E", "S3")
    assert hand.phase == PLAY and hand.leader == "S" and hand.turn == "S"
    assert hand.awaiting() == ("first_lead", ("S",))
    assert hand.counts == {s: 27 for s in PLAY_ORDER}
    assert hand.holdings["S"]["S3"] >= 1
    assert t.violations == []


def test_single_tribute_must_be_the_highest_card():
    hands = rig(S=["SB", "DA"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert correct_tributes(hands["S"], "2") == ["SB"]
    t.tribute("S", "DA")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_highest"
    assert v.detail["expected"] == ["SB"]
    assert t.hand.phase == RETURN  # the table went on: DA was given


def test_tribute_is_never_the_heart_wildcard():
    # S holds no jokers; its highest are the level cards, one of them the heart wildcard
    hands = rig(S=["H5", "S5"], N=["SB", "SB", "HR", "HR"], E=["H5", "S5", "C5", "C5", "D5", "D5"])
    assert correct_tributes(hands["S"], "5") == ["S5"]
    t = Table.after(("E", "N", "W", "S"), hands, level="5")
    t.tribute("S", wildcard("5"))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["expected"] == ["S5"]


def test_tribute_when_only_the_wildcard_is_a_level_card():
    hands = rig(S=["H5", "SA"], N=["SB", "SB", "HR", "HR"],
                E=["H5", "S5", "S5", "C5", "C5", "D5", "D5"])
    assert "SA" in correct_tributes(hands["S"], "5") and "H5" not in correct_tributes(hands["S"], "5")
    t = Table.after(("E", "N", "W", "S"), hands, level="5")
    t.tribute("S", "SA")
    assert t.violations == []


def test_hidden_hands_tribute_of_the_wildcard_is_flagged_at_once():
    t = Table.after(("E", "N", "W", "S"), level="7", hidden=True)
    t.tribute("S", "H7")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_highest"


def test_tribute_by_a_player_who_owes_none():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.tribute("N", "HR")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_owed"
    assert t.hand.phase == TRIBUTE and t.hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    t.tribute("S", "HR")  # twice
    assert codes(t.violations) == ["wrong_tribute", "wrong_tribute"]


def test_tribute_of_a_card_not_held():
    hands = rig(S=["SB"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.tribute("S", "HR")
    assert codes(t.violations) == ["card_not_held"]


def test_double_down_unequal_higher_card_to_the_winner():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    hand = t.hand
    assert sorted(hand.tributers) == ["N", "S"]
    assert hand.awaiting() == ("tribute", ("N", "S"))
    t.tribute("N", "SB")
    assert hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    assert hand.receivers == {"S": "E", "N": "W"}
    assert sorted(hand.awaiting().seats) == ["E", "W"]
    t.give_back("W", "S3")
    assert hand.awaiting() == ("return", ("E",))
    t.give_back("E", "S4")
    assert hand.phase == PLAY and hand.leader == "S"  # gave the higher card
    assert t.violations == []


def test_double_down_unequal_with_the_lower_tributer_first_in_order():
    hands = rig(N=["HR", "DA"], S=["SB", "DK"], E=["HR", "S3"], W=["S4", "D4"])
    t = Table.after(("W", "E", "S", "N"), hands)
    t.tribute("S", "SB")
    t.tribute("N", "HR")
    assert t.hand.receivers == {"N": "W", "S": "E"}
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.leader == "N"
    assert t.violations == []


def test_double_down_wrong_receiver_declared():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["reason"] == "wrong_receiver"
    assert v.detail["expected"] == "W"


def test_double_down_tribute_to_a_partner_is_recorded_not_raised():
    """A tribute declared to a seat that cannot receive one (the tributer's own partner) is
    flagged and goes to the winner left over; the returns still complete."""
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="S")
    t.tribute("S", "HR", to="W")
    assert codes(t.violations) == ["wrong_tribute", "wrong_tribute"]
    assert t.hand.receivers == {"S": "W", "N": "E"}
    t.give_back("W", "S3")
    t.give_back("E", "S4")
    assert t.hand.phase == PLAY and t.hand.leader == "S"


def test_two_tributes_declared_to_one_winner_still_let_the_hand_go_on():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    assert sorted(t.hand.receivers.values()) == ["E", "W"]
    for _giver, receiver in dict(t.hand.receivers).items():
        t.give_back(receiver, "S3" if receiver == "W" else "S4")
    assert t.hand.phase == PLAY
    assert codes(t.violations) == ["wrong_tribute"]  # N's card belonged to W; S's to E


def _equal_double_down(profile: str, hidden: bool = False, **to):
    # winner E, partner W second; N and S both give a small joker (equal cards)
    hands = rig(N=["SB", "DA"], S=["SB", "DK"], E=["HR", "S3"], W=["HR", "S4"])
    t = Table.after(("E", "W", "N", "S"), hands, profile=profile, hidden=hidden)
    t.tribute("N", "SB", to=to.get("N"))
    t.tribute("S", "SB", to=to.get("S"))
    return t


def test_equal_double_down_jiangsu_counter_clockwise_and_winners_previous_leads():
    t = _equal_double_down("jiangsu")
    # each tributer gives to their next seat (下家): N → W, S → E
    assert t.hand.receivers == {"N": "W", "S": "E"}
    assert next_seat("N") == "W" and next_seat("S") == "E"
    # returns go the other way round, to the tributer
    t.give_back("W", "S4", to="N")
    t.give_back("E", "S3", to="S")
    assert t.hand.leader == prev_seat("E") == "S"  # 由上游的上家先出牌
    assert t.violations == []


def test_equal_double_down_linyi_clockwise_and_the_one_who_gave_to_the_winner_leads():
    t = _equal_double_down("linyi")
    # each tributer gives to their previous seat (上家): N → E, S → W
    assert t.hand.receivers == {"N": "E", "S": "W"}
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.leader == "N"
    assert t.violations == []


def test_equal_cards_are_equal_by_level_order_not_by_suit():
    # at level 2 the highest after the jokers and the 2s (all with E, or wildcards) is an A
    hands = rig(N=["SA", "H2"], S=["DA", "H2"], E=["HR", "HR", "SB", "SB", "S2", "S2", "C2", "C2", "D2", "D2"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linyi")
    t.tribute("N", "SA")
    t.tribute("S", "DA")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []


def test_equal_by_level_order_lets_linquan_tributers_choose():
    hands = rig(N=["SA", "H2"], S=["DA", "H2"], E=["HR", "HR", "SB", "SB", "S2", "S2", "C2", "C2", "D2", "D2"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linquan")
    t.tribute("N", "SA", to="E")
    t.tribute("S", "DA", to="W")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []


@pytest.mark.parametrize("to", [{"N": "W", "S": "E"}, {"N": "E", "S": "W"}])
def test_equal_double_down_linquan_tributers_choose(to):
    t = _equal_double_down("linquan", **to)
    assert t.hand.receivers == to
    assert t.violations == []
    for receiver in to.values():
        t.give_back(receiver, "S3" if receiver == "E" else "S4")
    assert t.violations == []
    assert t.hand.phase == PLAY and t.hand.turn is None
    assert t.hand.awaiting() == ("first_lead", ("N", "S"))
    t.play("S", "DK")
    assert t.hand.leader == "S" and t.hand.turn == "E"
    assert t.violations == []


def test_equal_double_down_linquan_a_winner_may_not_lead():
    t = _equal_double_down("linquan", N="W", S="E")
    t.give_back("W", "S4")
    t.give_back("E", "S3")
    t.play("E", "HR")
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.seat == "E" and v.detail["expected"] == ["N", "S"]


def test_equal_double_down_linquan_either_tributer_may_lead():
    t = _equal_double_down("linquan", N="E", S="W")
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    t.play("N", "DA")
    assert t.violations == [] and t.hand.leader == "N" and t.hand.turn == "W"


def test_equal_double_down_linquan_both_to_the_same_opponent_is_wrong():
    t = _equal_double_down("linquan", N="E", S="E")
    assert "wrong_tribute" in codes(t.violations)


def test_equal_double_down_linquan_to_a_partner_is_wrong():
    t = _equal_double_down("linquan", N="S", S="E")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["reason"] == "wrong_receiver"


def test_equal_double_down_linquan_one_declared_the_other_takes_the_other_opponent():
    t = _equal_double_down("linquan", N="E")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.phase == PLAY


def test_unequal_double_down_linquan_the_winner_takes_the_higher():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linquan")
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    assert codes(t.violations) == ["wrong_tribute"]  # no choosing with unequal cards
