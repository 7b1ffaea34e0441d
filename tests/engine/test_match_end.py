"""How a match ends (engine/match.py): time called, ties, forfeits, the scores a match
produces, and whole matches played by the bots (``engine.bots.self_play``).
"""

from __future__ import annotations

import random

import pytest

from engine.bots import self_play
from engine.events import Forfeit, Pass, RecordError, TimeCalled
from engine.hand import TRIBUTE
from engine.match import Match
from engine.seats import PLAY_ORDER
from rulebook import profiles
from tests.engine.table_driver import (
    NS_PARTNER_LAST,
    NS_PARTNER_THIRD,
    PARTNER_LAST,
    PARTNER_THIRD,
    Table,
    codes,
    play_hand,
)

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
