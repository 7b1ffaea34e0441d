"""The bots' mistakes: illegal plays that the record keeps and the engine alerts."""

import random
from collections import Counter

from engine.bots import self_play
from engine.match import Match
from rulebook import profiles


def test_mistakes_are_lower_singles_that_do_not_beat_and_the_game_goes_on():
    profile = profiles.load("linyi")
    events = self_play(profile, random.Random(8), max_hands=2, mistakes=0.3)
    match = Match(profile, events[0])
    for e in events[1:]:
        match.push(e)
    codes = Counter(v.code for v in match.violations)
    assert codes["does_not_beat"] >= 3 and set(codes) == {"does_not_beat"}
    assert match.over and all(h.outcome for h in match.hands)


def test_without_mistakes_a_game_is_clean():
    profile = profiles.load("linyi")
    events = self_play(profile, random.Random(8), max_hands=2)
    match = Match(profile, events[0])
    for e in events[1:]:
        match.push(e)
    assert match.violations == []
