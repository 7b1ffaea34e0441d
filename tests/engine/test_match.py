"""The match state machine (engine/match.py): hands in sequence, upgrades, A (A必打),
time called, ties, forfeits, the scores a match produces, and broken records.

Hands are played to a chosen finishing order by the ``Table`` driver of
``test_hand.py``; whole bot matches come from ``engine.bots.self_play``.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import self_play
from engine.events import Deal, Forfeit, Header, Pass, PlayCards, RecordError, TimeCalled
from engine.hand import PLAY, TRIBUTE
from engine.match import Match
from engine.seats import PLAY_ORDER
from scorer import profiles
from tests.engine.test_hand import Table, codes, rig


def play_hand(t: Table, *order: str, hidden: bool = False, hands=None):
    """Deal (the first hand led by ``order[0]``) and play it out in ``order``; returns the
    match's entry for the hand's last event."""
    first = not t.match.hands
    t.deal(hands, hidden=hidden, leader=order[0] if first else None)
    return t.finish(*order)


DOUBLE_DOWN = ("E", "W", "N", "S")  # partner 2nd: +3
PARTNER_THIRD = ("E", "N", "W", "S")  # +2
PARTNER_LAST = ("E", "N", "S", "W")  # +1
NS_PARTNER_THIRD = ("N", "E", "S", "W")
NS_PARTNER_LAST = ("S", "E", "W", "N")


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


# --- time called -------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", ["jiangsu", "linquan"])
def test_time_called_after_the_deal_counts_the_hand(profile):
    t = Table(profile)
    assert t.profile.match.time_called_counts == "deal"
    t.deal(leader="E")
    t.push(TimeCalled)
    assert not t.match.over and t.match.time_called and t.match.hand is not None
    t.finish(*PARTNER_THIRD)
    r = t.match.result
    assert r.winner == "EW" and r.reason == "time"
    assert r.levels == {"EW": "4", "NS": "2"}
    assert r.points == {"EW": 2, "NS": 0}
    assert r.small_points == {"EW": 2, "NS": 0}
    assert r.level_points == {"EW": 15, "NS": 11}
    assert r.upgrades == {"EW": 2, "NS": 0}


@pytest.mark.parametrize("profile", ["jiangsu", "linquan"])
def test_time_called_in_the_tribute_counts_the_hand_when_dealt(profile):
    t = Table(profile)
    play_hand(t, *PARTNER_LAST)  # EW 3
    t.deal()
    assert t.hand.phase == TRIBUTE
    t.push(TimeCalled)
    assert not t.match.over
    t.finish(*NS_PARTNER_THIRD)  # NS 4 at EW's 3
    assert t.match.result.winner == "NS" and t.match.result.reason == "time"


@pytest.mark.parametrize("profile", ["linyi", "linyi_notice"])
def test_linyi_a_dealt_hand_with_no_card_played_does_not_count(profile):
    t = Table(profile)
    assert t.profile.match.time_called_counts == "first_play"
    play_hand(t, *PARTNER_LAST)  # EW 3
    t.deal()
    t.settle_tribute()  # tribute and return done, but no card played yet
    t.push(TimeCalled)
    assert t.match.over
    assert len(t.match.hands) == 1 and t.match.hand is None
    r = t.match.result
    assert r.winner == "EW" and r.reason == "time" and r.levels == {"EW": "3", "NS": "2"}


def test_linyi_a_hand_with_a_card_played_is_played_out():
    t = Table("linyi")
    play_hand(t, *PARTNER_LAST)  # EW 3
    t.deal()
    t.settle_tribute()
    seat = t.hand.turn
    t.play(seat, min(t.model[seat]))
    t.push(TimeCalled)
    assert not t.match.over
    t.finish(*NS_PARTNER_THIRD)
    assert t.match.result.winner == "NS" and t.match.result.levels == {"EW": "3", "NS": "4"}


def test_time_called_between_hands_ends_the_match_at_once():
    t = Table()
    play_hand(t, *NS_PARTNER_THIRD)
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner == "NS" and r.reason == "time"
    assert r.to_json()["winner"] == "NS"


@pytest.mark.parametrize("profile", ["jiangsu", "linyi"])
def test_a_tie_when_time_is_called_is_decided_by_one_more_hand(profile):
    t = Table(profile)
    play_hand(t, *PARTNER_THIRD)  # EW 4
    play_hand(t, *NS_PARTNER_THIRD)  # NS 4
    t.push(TimeCalled)
    assert not t.match.over and t.match.extra_hand
    entry = play_hand(t, *NS_PARTNER_LAST)  # NS 5
    assert entry.upgrade == ("NS", 1)
    r = t.match.result
    assert r.winner == "NS" and r.reason == "extra_hand"
    assert r.levels == {"EW": "4", "NS": "5"}
    assert r.small_points == {"NS": 1, "EW": 0}
    assert r.level_points == {"NS": 14, "EW": 12}


def test_a_tie_at_the_start_extra_hand_decides():
    t = Table("jiangsu")
    t.push(TimeCalled)
    assert not t.match.over
    play_hand(t, *PARTNER_LAST)
    assert t.match.result.winner == "EW" and t.match.result.reason == "extra_hand"


def test_a_tie_after_a_counted_hand_in_progress_goes_to_one_more_hand():
    t = Table("jiangsu")
    play_hand(t, *PARTNER_THIRD)  # EW 4
    t.deal()
    t.push(TimeCalled)
    t.finish(*NS_PARTNER_THIRD)  # NS 4: tie after the hand in progress
    assert not t.match.over and t.match.extra_hand
    play_hand(t, *PARTNER_LAST)
    assert t.match.result.reason == "extra_hand" and t.match.result.winner == "EW"


def test_linyi_notice_tie_goes_to_the_first_to_reach_the_level():
    t = Table("linyi_notice")
    play_hand(t, *NS_PARTNER_THIRD)  # NS 4 at hand 1
    play_hand(t, *PARTNER_THIRD)  # EW 4 at hand 2
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner == "NS" and r.reason == "first_to_level"
    assert r.points == {"NS": 2, "EW": 0}
    assert r.small_points == {"NS": 0, "EW": 0}
    assert r.level_points == {"NS": 13, "EW": 13}


def test_linyi_notice_tie_with_nobody_first_is_a_draw():
    t = Table("linyi_notice")
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner is None and r.reason == "draw"


def test_linquan_tie_is_a_draw():
    t = Table("linquan")
    play_hand(t, *PARTNER_THIRD)
    play_hand(t, *NS_PARTNER_THIRD)
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner is None and r.reason == "draw"
    assert r.points == {"EW": 1, "NS": 1}
    assert r.small_points == {"EW": 0, "NS": 0}
    assert r.level_points == {"EW": 13, "NS": 13}
    assert r.levels == {"EW": "4", "NS": "4"}


def test_time_called_and_then_a_pass_of_a():
    t = Table(levels={"EW": "A", "NS": "9"})
    t.deal(leader="E")
    t.push(TimeCalled)
    t.finish(*PARTNER_THIRD)
    assert t.match.result.reason == "passed_a" and t.match.result.winner == "EW"


# --- forfeit and scores -----------------------------------------------------------------------

@pytest.mark.parametrize("profile, level_points", [("jiangsu", 17), ("linyi", 17), ("linyi_notice", 14),
                                                   ("linquan", 0)])
def test_forfeit_awards(profile, level_points):
    t = Table(profile)
    t.push(Forfeit, side="NS", reason="no-show")
    r = t.match.result
    assert r.winner == "EW" and r.reason == "forfeit"
    assert r.points == {"EW": 2, "NS": 0}
    assert r.level_points == {"EW": level_points, "NS": 0}
    assert r.small_points == {"EW": 0, "NS": 0}


def test_forfeit_in_the_middle_of_a_hand():
    t = Table()
    play_hand(t, *PARTNER_THIRD)
    t.deal()
    t.push(Forfeit, side="EW", reason="match loss")
    assert t.match.result.winner == "NS" and t.match.result.upgrades == {"EW": 2, "NS": 0}
    with pytest.raises(RecordError):
        t.push(Pass, seat="S")


@pytest.mark.parametrize("ew, ns, small, level_points", [
    ("7", "4", 3, 16),
    ("K", "J", 2, 15),   # K = 13, J = 11
    ("Q", "T", 2, 15),
    ("A", "2", 12, 25),  # at A but not passed: 14 − 2
    ("3", "2", 1, 14),
])
def test_small_points_and_level_points_on_time(ew, ns, small, level_points):
    t = Table(levels={"EW": ew, "NS": ns})
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner == "EW" and r.reason == "time"
    assert r.small_points == {"EW": small, "NS": 0}
    assert r.level_points == {"EW": level_points, "NS": 26 - level_points}
    assert r.points == {"EW": 2, "NS": 0}


def test_scores_are_symmetric_for_ns():
    t = Table(levels={"EW": "4", "NS": "9"})
    t.push(TimeCalled)
    r = t.match.result
    assert r.winner == "NS" and r.small_points == {"NS": 5, "EW": 0}
    assert r.level_points == {"NS": 18, "EW": 8}


# --- whole matches by the bots -----------------------------------------------------------------

@pytest.mark.parametrize("profile, seed", [("jiangsu", 1), ("linyi", 4), ("linquan", 3), ("linyi_notice", 4)])
def test_self_play_matches_replay_cleanly(profile, seed):
    p = profiles.load(profile)
    events = self_play(p, random.Random(seed))
    assert [e.seq for e in events] == sorted({e.seq for e in events})
    m = Match(p, events[0])
    for e in events[1:]:
        m.push(e)
    assert m.over and m.violations == []
    r = m.result
    assert r.winner in ("EW", "NS") and r.points[r.winner] == 2
    # every hand ended with a finishing order of the four seats, and the tribute followed it
    for prev, hand in zip(m.hands, m.hands[1:], strict=False):
        assert sorted(prev.outcome.order) == sorted(PLAY_ORDER)
        assert hand.previous is prev.outcome
        owed = list(prev.outcome.order[2:]) if prev.outcome.double_down else [prev.outcome.order[3]]
        assert hand.tributers == owed
        first = next(e.event.seat for e in m.history if e.hand == hand.number and e.event.type == "play")
        if hand.resisted:
            assert first == prev.outcome.order[0] and not hand.tributes
        elif not prev.outcome.double_down:
            assert first == prev.outcome.order[3]
    # the same seed gives the same record
    again = self_play(p, random.Random(seed))
    assert [e.to_json() for e in again] == [e.to_json() for e in events]


def test_self_play_forgotten_reports_are_missed_reports():
    p = profiles.load("linquan")
    events = self_play(p, random.Random(7), max_hands=2, forget_report=1.0)
    m = Match(p, events[0])
    for e in events[1:]:
        m.push(e)
    found = set(codes(m.violations))
    assert found == {"missed_report"}
    assert all(1 <= v.detail["count"] <= 7 for v in m.violations)


def test_a_fork_goes_on_alone_and_ends_as_the_match_does():
    """``Match.fork`` shares the finished parts of a match (the web API checks new events on a
    fork): pushing onto the fork must leave the match as it was, at any point of it."""
    p = profiles.load("linyi")
    events = self_play(p, random.Random(2), max_hands=3, mistakes=0.2)

    def state(m: Match) -> tuple:
        return (m.levels, m.result, m.declarers, len(m.history), m.violations,
                [(h.number, h.phase, h.counts, h.awaiting(), h.outcome, dict(h.tracker.seen)) for h in m.hands])

    whole = Match(p, events[0])
    for e in events[1:]:
        whole.push(e)
    m = Match(p, events[0])
    for i, e in enumerate(events[1:], start=1):
        if i % 13 == 0:
            before = state(m)
            fork = m.fork()
            for later in events[i:]:
                fork.push(later)
            assert state(fork) == state(whole)
            assert state(m) == before
        m.push(e)
    assert whole.violations and len(whole.hands) == 3
