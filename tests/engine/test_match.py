"""The match state machine (engine/match.py): broken records, hands in sequence,
upgrades, and A (A必打).

Hands are played to a chosen finishing order by the ``Table`` driver
(``table_driver.py``); time called, ties, scores and whole bot matches are in
``test_match_end.py``.
"""

from __future__ import annotations

import pytest

from engine.events import Deal, Forfeit, Header, Pass, PlayCards, RecordError, TimeCalled
from engine.hand import PLAY, TRIBUTE
from engine.match import Match
from rulebook import profiles
from tests.engine.table_driver import (
    DOUBLE_DOWN,
    NS_PARTNER_LAST,
    NS_PARTNER_THIRD,
    PARTNER_LAST,
    PARTNER_THIRD,
    Table,
    codes,
    play_hand,
    rig,
)

# --- broken records ---------------------------------------------------------------------------

def test_seq_must_increase():
    m = Match(profiles.load("jiangsu"))
    m.push(Deal(seq=5, t=1.0, hands=None, leader="E"))
    with pytest.raises(RecordError, match="seq 5"):
        m.push(PlayCards(seq=5, t=2.0, seat="E", cards=("S3",)))
    with pytest.raises(RecordError):
        m.push(PlayCards(seq=4, t=2.0, seat="E", cards=("S3",)))


def test_a_play_with_no_hand_in_progress():
    m = Match(profiles.load("jiangsu"))
    with pytest.raises(RecordError, match="no hand in progress"):
        m.push(PlayCards(seq=1, t=1.0, seat="E", cards=("S3",)))


def test_a_play_after_the_hand_ended_and_before_the_next_deal():
    t = Table()
    play_hand(t, *PARTNER_THIRD)
    with pytest.raises(RecordError, match="no hand in progress"):
        t.push(Pass, seat="E")


def test_a_second_header():
    m = Match(profiles.load("jiangsu"))
    with pytest.raises(RecordError, match="second header"):
        m.push(Header(seq=1, t=0.0))


def test_a_deal_while_a_hand_is_in_progress():
    t = Table()
    t.deal(leader="E")
    with pytest.raises(RecordError, match="still being played"):
        t.deal()


def test_events_after_the_match_ended():
    t = Table()
    t.push(Forfeit, side="NS")
    assert t.match.over
    with pytest.raises(RecordError, match="after the match ended"):
        t.deal(leader="E")
    with pytest.raises(RecordError):
        t.push(TimeCalled)


def test_the_header_defaults_and_history():
    m = Match(profiles.load("linyi"))
    assert m.header.profile == "linyi" and m.levels == {"EW": "2", "NS": "2"}
    assert m.events() == [m.header]


# --- hands in sequence and upgrades -----------------------------------------------------------

@pytest.mark.parametrize("order, gain", [(DOUBLE_DOWN, 3), (PARTNER_THIRD, 2), (PARTNER_LAST, 1)])
def test_upgrades_by_the_partners_place(order, gain):
    t = Table()
    entry = play_hand(t, *order)
    if order == DOUBLE_DOWN:
        assert entry.outcome.order[:2] == ("E", "W") and entry.outcome.double_down
    else:
        assert entry.outcome.order == order and not entry.outcome.double_down
    assert entry.upgrade == ("EW", gain)
    assert entry.levels == {"EW": "2345"[gain], "NS": "2"}
    assert t.match.levels == entry.levels and t.match.gained == {"EW": gain, "NS": 0}
    assert t.match.declarers == "EW" and not t.match.over
    assert t.match.violations == []


def test_the_next_hand_is_played_at_the_winners_level():
    t = Table()
    play_hand(t, *DOUBLE_DOWN)  # EW 5
    t.deal()
    assert t.hand.number == 2 and t.hand.level == "5" and t.hand.declarers == "EW"
    t.finish(*NS_PARTNER_THIRD)  # NS win at EW's level: NS 4
    assert t.match.levels == {"EW": "5", "NS": "4"}
    t.deal()
    assert t.hand.level == "4" and t.hand.declarers == "NS"
    assert [h.number for h in t.match.hands] == [1, 2, 3]


def test_history_records_each_event_with_its_hand_and_violations():
    t = Table()
    t.deal(rig(E=["S3", "S4"]), leader="E")
    t.play("E", "S3")
    entry = t.pass_("S")  # out of turn
    assert entry.hand == 1 and codes(entry.violations) == ["out_of_turn"]
    assert t.match.history[-1] is entry
    assert codes(t.match.violations) == ["out_of_turn"]
    assert t.match.history[0].event is t.match.header
    assert len(t.match.events()) == t.seq + 1


def test_a_full_second_hand_with_tribute_through_the_match():
    t = Table()
    play_hand(t, *PARTNER_THIRD)  # S is 下游
    t.deal(rig(S=["HR", "SB"], E=["HR"]))
    hand = t.hand
    assert hand.phase == TRIBUTE and hand.tributers == ["S"] and hand.previous.order == PARTNER_THIRD
    t.finish(*NS_PARTNER_THIRD)
    assert hand.tributes == {"S": "HR"} and hand.receivers == {"S": "E"}
    first = next(e.event for e in t.match.history if e.hand == 2 and e.event.type == "play")
    assert first.seat == "S"  # the tributer leads
    assert t.match.violations == []
    assert t.match.levels == {"EW": "4", "NS": "4"}


def test_a_double_down_makes_both_losers_pay_in_the_next_hand():
    t = Table()
    play_hand(t, *DOUBLE_DOWN)
    t.deal()
    assert sorted(t.hand.tributers) == ["N", "S"] and t.hand.phase == TRIBUTE
    t.finish(*PARTNER_LAST)
    assert len(t.hand.tributes) == 2 and t.match.violations == []


def test_a_resisted_tribute_in_the_match():
    t = Table()
    play_hand(t, *PARTNER_THIRD)
    t.deal(rig(S=["HR", "HR"]))
    assert t.hand.resisted and t.hand.phase == PLAY and t.hand.turn == "E"
    t.finish(*PARTNER_THIRD)
    assert t.match.levels == {"EW": "6", "NS": "2"}


def test_hidden_hands_through_a_match():
    t = Table()
    play_hand(t, *PARTNER_THIRD, hidden=True)
    play_hand(t, *NS_PARTNER_LAST, hidden=True)
    play_hand(t, *DOUBLE_DOWN, hidden=True)
    assert t.match.violations == []
    assert t.match.levels == {"EW": "7", "NS": "3"}


# --- upgrades stop at A, and A must be played -------------------------------------------------

@pytest.mark.parametrize("start, order, gained", [("Q", DOUBLE_DOWN, 2), ("K", DOUBLE_DOWN, 1),
                                                  ("K", PARTNER_LAST, 1), ("J", DOUBLE_DOWN, 3)])
def test_an_upgrade_stops_at_a(start, order, gained):
    t = Table(levels={"EW": start, "NS": "2"})
    entry = play_hand(t, *order)
    assert entry.upgrade == ("EW", gained)
    assert t.match.levels["EW"] == "A"
    assert not t.match.over and t.match.passed_a is None


def test_a_side_below_a_winning_at_the_others_a_stops_at_a():
    t = Table(levels={"EW": "A", "NS": "Q"})
    entry = play_hand(t, *NS_PARTNER_THIRD)  # NS win at EW's A: EW fail, NS Q → A
    assert entry.upgrade == ("NS", 2)
    assert t.match.levels == {"EW": "A", "NS": "A"}
    assert t.match.a_failures == {"EW": 1, "NS": 0}
    assert not t.match.over


@pytest.mark.parametrize("order", [DOUBLE_DOWN, PARTNER_THIRD])
def test_passing_a_with_the_partner_second_or_third_wins_the_match(order):
    t = Table(levels={"EW": "A", "NS": "5"})
    entry = play_hand(t, *order)
    assert entry.hand == 1 and t.hand.level == "A"
    r = t.match.result
    assert r is not None and r.winner == "EW" and r.reason == "passed_a"
    assert t.match.passed_a == "EW"
    assert r.levels == {"EW": "A", "NS": "5"}
    assert r.points == {"EW": 2, "NS": 0}
    assert r.small_points == {"EW": 15 - 5, "NS": 0}
    assert r.level_points == {"EW": 13 + (13 - 3), "NS": 26 - 23}
    assert r.upgrades == {"EW": 1, "NS": 0}
    with pytest.raises(RecordError):
        t.deal()


def test_passing_a_against_a_side_at_2_scores_the_whole_scale():
    t = Table(levels={"EW": "A", "NS": "2"})
    play_hand(t, *DOUBLE_DOWN)
    r = t.match.result
    assert r.small_points == {"EW": 13, "NS": 0}
    assert r.level_points == {"EW": 26, "NS": 0}


def test_winning_at_a_with_the_partner_last_fails_a():
    t = Table(levels={"EW": "A", "NS": "2"})
    entry = play_hand(t, *PARTNER_LAST)
    assert entry.upgrade == ("EW", 0)
    assert not t.match.over and t.match.passed_a is None
    assert t.match.a_failures["EW"] == 1 and t.match.levels["EW"] == "A"
    t.deal()
    assert t.hand.level == "A" and t.hand.declarers == "EW"


def test_losing_a_hand_at_a_is_a_failed_attempt():
    t = Table(levels={"EW": "A", "NS": "2"})
    entry = play_hand(t, *NS_PARTNER_THIRD)
    assert entry.upgrade == ("NS", 2)
    assert t.match.a_failures == {"EW": 1, "NS": 0}
    assert t.match.levels == {"EW": "A", "NS": "4"}
    t.deal()
    assert t.hand.level == "4" and t.hand.declarers == "NS"


def test_a_side_at_a_passes_only_at_its_own_level():
    t = Table(levels={"EW": "A", "NS": "5"})
    play_hand(t, *NS_PARTNER_LAST)  # NS win at A: NS 6, EW fail once
    assert t.match.levels == {"EW": "A", "NS": "6"}
    entry = play_hand(t, *DOUBLE_DOWN)  # EW win at NS's 6: no pass, no level
    assert t.hand.level == "6"
    assert entry.upgrade == ("EW", 0) and not t.match.over
    assert t.match.levels == {"EW": "A", "NS": "6"}
    play_hand(t, *DOUBLE_DOWN)  # now at EW's own A
    assert t.hand.level == "A"
    assert t.match.result.reason == "passed_a" and t.match.result.winner == "EW"


@pytest.mark.parametrize("profile, level_after, failures_after", [("linquan", "2", 0), ("jiangsu", "A", 3),
                                                                  ("linyi", "A", 3)])
def test_three_failures_at_a(profile, level_after, failures_after):
    t = Table(profile, levels={"EW": "A", "NS": "3"})
    play_hand(t, *PARTNER_LAST)
    play_hand(t, *PARTNER_LAST)
    assert t.match.levels["EW"] == "A" and t.match.a_failures["EW"] == 2
    play_hand(t, *PARTNER_LAST)
    assert t.match.levels["EW"] == level_after
    assert t.match.a_failures["EW"] == failures_after
    assert not t.match.over
    t.deal()
    assert t.hand.level == level_after


def test_linquan_failures_count_when_the_opponents_win_at_a():
    t = Table("linquan", levels={"EW": "A", "NS": "3"})
    play_hand(t, *PARTNER_LAST)
    play_hand(t, *PARTNER_LAST)
    play_hand(t, *NS_PARTNER_LAST)  # NS win the hand played at EW's A
    assert t.match.levels == {"EW": "2", "NS": "4"}
    assert t.match.a_failures == {"EW": 0, "NS": 0}
