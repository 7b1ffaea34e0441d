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
