"""Resisting tribute (抗贡), the tribute checked after a hidden hand, and the return
(还贡) by each profile (engine/tribute.py).
"""

from __future__ import annotations

import pytest

from engine.events import GiveBack, Resist
from engine.hand import PLAY, TRIBUTE, correct_tributes
from engine.seats import PLAY_ORDER
from tests.engine.table_driver import Table, codes, rig

# --- resisting (抗贡) --------------------------------------------------------------------------

def test_known_hands_single_loser_with_both_big_jokers_resists_at_the_deal():
    hands = rig(S=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    hand = t.hand
    assert hand.resisted and hand.phase == PLAY
    assert hand.leader == "E" and hand.awaiting() == ("first_lead", ("E",))
    t.push(Resist, seats=("S",))  # the table's own declaration is accepted quietly
    assert t.violations == []
    t.tribute("S", "SB")
    assert codes(t.violations) == ["wrong_tribute"]


def test_known_hands_double_down_big_jokers_split_between_the_losers_resist():
    hands = rig(N=["HR"], S=["HR"])
    t = Table.after(("W", "E", "N", "S"), hands)
    assert t.hand.resisted and t.hand.leader == "W" and t.hand.phase == PLAY
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}


def test_known_hands_double_down_one_loser_with_both_big_jokers_resists():
    hands = rig(N=["HR", "HR"])
    t = Table.after(("S", "N", "E", "W"), hands)  # E and W the losers: N is no tributer
    assert not t.hand.resisted
    t = Table.after(("E", "W", "N", "S"), hands)
    assert t.hand.resisted and t.hand.leader == "E"


def test_a_winners_partner_with_a_big_joker_does_not_help_the_loser_resist():
    hands = rig(S=["HR"], N=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert not t.hand.resisted and t.hand.phase == TRIBUTE


def test_known_hands_resist_without_big_jokers_is_wrong():
    hands = rig(S=["HR"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.push(Resist, seats=("S",))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_without_big_jokers"
    assert t.hand.phase == TRIBUTE


def test_hidden_hands_resist_declared():
    t = Table.after(("E", "W", "N", "S"), hidden=True)
    assert t.hand.phase == TRIBUTE
    t.push(Resist, seats=("N", "S"))
    assert t.hand.resisted and t.hand.phase == PLAY and t.hand.leader == "E"
    assert t.violations == []


def test_hidden_hands_resist_by_a_player_who_owes_nothing():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.push(Resist, seats=("N",))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_not_owed"
    assert t.hand.phase == TRIBUTE


def test_hidden_resist_found_false_when_someone_else_plays_a_big_joker():
    hands = rig(S=["HR"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.push(Resist, seats=("S",))
    t.finish("E", "N", "W")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_without_big_jokers"


def test_hidden_honest_resist_is_not_flagged():
    hands = rig(S=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.push(Resist, seats=("S",))
    t.finish("E", "S", "N")
    assert t.violations == []


# --- hidden hands: tribute checked after the hand -------------------------------------------

def test_hidden_kept_higher_is_found_at_the_end():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.tribute("S", "SB")  # keeps back the big joker: nobody can tell yet
    t.give_back("E", "S3")
    assert t.violations == []
    t.finish("S", "E", "N")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "S" and v.detail["reason"] == "kept_higher"
    assert v.detail["card"] == "SB" and v.detail["kept"] == ["HR"]
    assert v.seq == t.seq


def test_hidden_the_card_given_back_is_not_kept_higher():
    hands = rig(S=["SB", "SA"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.tribute("S", "SB")
    t.give_back("E", "HR")  # any card to an opponent under jiangsu
    t.finish("S", "E", "N")
    assert "HR" in t.hand.played_by["S"]
    assert t.violations == []


def test_hidden_playing_the_wildcard_is_not_kept_higher():
    hands = rig(S=["SA", "H4", "H4"], N=["HR", "HR", "SB", "SB"],
                E=["S4", "S4", "C4", "C4", "D4", "D4", "S3"])
    t = Table.after(("E", "N", "W", "S"), hands, level="4", hidden=True)
    assert "SA" in correct_tributes(hands["S"], "4")
    t.tribute("S", "SA")
    t.give_back("E", "S3")
    t.finish("S", "E", "N")
    assert t.hand.played_by["S"]["H4"] == 2
    assert t.violations == []


def test_hidden_a_double_down_tributer_keeping_a_higher_card():
    hands = rig(N=["SB", "HR"], E=["HR", "SB"])
    t = Table.after(("E", "W", "N", "S"), hands, hidden=True)
    t.tribute("N", "SB")  # keeps back the big joker
    t.settle_tribute()  # S pays its real highest card, the returns follow
    t.finish("N", "S")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["kept"] == ["HR"]


# --- returns (还贡) ----------------------------------------------------------------------------

def _return_table(profile: str, level: str, previous, card: str):
    """A single tribute after ``previous``; the winner holds ``card`` to give back."""
    winner, loser = previous[0], previous[3]
    hands = rig(**{winner: [card] if card == "HR" else [card, "HR"], loser: ["HR", "SB"]})
    t = Table.after(previous, hands, profile=profile, level=level)
    t.tribute(loser, "HR")
    t.give_back(winner, card)
    return t


PARTNER_LAST = ("E", "N", "S", "W")  # W, the winner's partner, is 下游: E returns to a partner
OPPONENT_LAST = ("E", "N", "W", "S")  # S is 下游: E returns to an opponent


@pytest.mark.parametrize("profile, level, previous, card, ok", [
    # jiangsu: to a partner no jokers and no level cards; to an opponent anything
    ("jiangsu", "5", PARTNER_LAST, "SA", True),
    ("jiangsu", "5", PARTNER_LAST, "S5", False),
    ("jiangsu", "5", PARTNER_LAST, "H5", False),
    ("jiangsu", "5", PARTNER_LAST, "SB", False),
    ("jiangsu", "5", PARTNER_LAST, "HR", False),
    ("jiangsu", "5", OPPONENT_LAST, "HR", True),
    ("jiangsu", "5", OPPONENT_LAST, "S5", True),
    ("jiangsu", "5", OPPONENT_LAST, "SA", True),
    # linyi: any card of rank at most 10, either way (a level card of rank ≤ 10 too)
    ("linyi", "5", OPPONENT_LAST, "ST", True),
    ("linyi", "5", OPPONENT_LAST, "SJ", False),
    ("linyi", "5", OPPONENT_LAST, "S5", True),
    ("linyi", "5", OPPONENT_LAST, "SB", False),
    ("linyi", "5", PARTNER_LAST, "S2", True),
    ("linyi", "5", PARTNER_LAST, "SA", False),
    # linquan: at most 10 and not a level card
    ("linquan", "5", OPPONENT_LAST, "ST", True),
    ("linquan", "5", OPPONENT_LAST, "S5", False),
    ("linquan", "5", OPPONENT_LAST, "SQ", False),
    ("linquan", "5", PARTNER_LAST, "S9", True),
    ("linquan", "5", PARTNER_LAST, "H5", False),
    ("linquan", "5", PARTNER_LAST, "HR", False),
])
def test_return_rules_per_profile(profile, level, previous, card, ok):
    t = _return_table(profile, level, previous, card)
    assert t.hand.phase == PLAY and t.hand.leader == previous[3]
    if ok:
        assert t.violations == []
    else:
        (v,) = t.violations
        relation = "partner" if previous is PARTNER_LAST else "opponent"
        assert v.code == "wrong_return" and v.seat == "E"
        assert v.detail == {"reason": f"not_allowed_to_{relation}", "card": card}


def test_a_return_by_a_player_owed_nothing_and_to_the_wrong_seat():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"], N=["S4"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.push(GiveBack, seat="E", card="S3")  # before the tribute
    assert codes(t.violations) == ["wrong_return"]
    t.tribute("S", "HR")
    t.push(GiveBack, seat="N", card="S4")
    assert codes(t.violations) == ["wrong_return"] * 2
    t.give_back("E", "S3", to="W")
    v = t.violations[-1]
    assert v.code == "wrong_return" and v.detail == {"reason": "wrong_receiver", "to": "W", "expected": "S"}
    assert t.hand.phase == PLAY


def test_a_return_of_a_card_not_held():
    hands = rig(S=["HR", "SB"], W=["S3", "S3"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.tribute("S", "HR")
    t.push(GiveBack, seat="E", card="S3")
    assert codes(t.violations) == ["card_not_held"]


def test_a_play_before_tribute_is_out_of_turn_and_starts_play():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.play("N", "S3")
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.detail["reason"] == "tribute_not_finished"
    assert t.hand.phase == PLAY and t.hand.leader == "N" and t.hand.turn == "W"
