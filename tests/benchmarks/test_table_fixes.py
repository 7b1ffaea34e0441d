"""benchmarks/table.py on a record the referee's console cannot make whole: said, not a crash."""

import random

from benchmarks.table import after_fixes
from engine.bots import self_play
from engine.events import Deal
from rulebook import profiles


def test_a_deal_the_camera_recorded_mid_hand_leaves_the_record_unfixable_and_says_why():
    truth = self_play(profiles.load("jiangsu"), random.Random(977), max_hands=1)
    cut = len(truth) // 2  # mid-hand: the camera took the hand for over and saw a new deal
    seen = [*truth[:cut], Deal(seq=truth[cut - 1].seq + 1, t=truth[cut - 1].t + 1.0, leader=None)]
    fixes, fixed_events, fixed, why = after_fixes(truth, seen)
    assert fixed is None and "deal" in why and len(fixed_events) >= len(seen)
    same = after_fixes(truth, truth)
    assert same[0] == [] and same[2] is not None and same[3] == ""


def test_flags_by_threshold_counts_plays_sent_to_the_referee_and_mistakes_left_unasked():
    from benchmarks.table import THRESHOLDS, flags_by_threshold
    from engine.events import PlayCards
    from engine.record import Record, replay

    events = self_play(profiles.load("jiangsu"), random.Random(5), max_hands=1, table="t")
    plays = [e for e in events if isinstance(e, PlayCards) and e.cards]
    rated = {p.seq: c for p, c in zip(plays[:4], (0.95, 0.55, 0.35, 0.1), strict=True)}
    events = [e.__class__(**{**e.__dict__, "confidence": rated[e.seq]}) if e.seq in rated else e for e in events]
    match = replay(Record(events, list(range(1, len(events) + 1))), profiles.load)
    wrong = {plays[0].seq, plays[2].seq}  # read wrong: one sure, one unsure
    exact = {e.seq for e in events} - wrong
    counts = flags_by_threshold(match, exact)
    assert set(counts) == set(THRESHOLDS)
    assert counts[0.8] == (3, 1)  # 0.55, 0.35, 0.1 flagged; the wrong one at 0.95 unasked
    assert counts[0.5] == (2, 1)
    assert counts[0.3] == (1, 2)  # the wrong one at 0.35 is no longer asked about
