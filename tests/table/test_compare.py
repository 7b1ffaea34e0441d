"""Comparing a camera's record with the truth, and the referee's acts that make it exact."""

import random

from engine.bots import self_play
from engine.events import Deal, Pass, PlayCards
from engine.record import Record, replay
from rulebook import profiles
from rulebook.i18n import term
from rulebook.narration import account
from table.compare import actions, matched_plays, plays_of, referee_fixes, with_fixes


def truth_hand(seed: int = 2):
    profile = profiles.load("linyi")
    played = self_play(profile, random.Random(seed), max_hands=1)
    return [Deal(seq=e.seq, t=e.t, leader=e.leader) if isinstance(e, Deal) else e for e in played]


def renumbered(events):
    return [type(e)(**{**e.__dict__, "seq": n}) for n, e in enumerate(events)]


def replayed(events):
    return replay(Record(events, list(range(1, len(events) + 1))), profiles.load)


def test_a_misread_play_a_missed_play_and_its_passes_are_put_right_by_the_fewest_acts():
    truth = truth_hand()
    plays = [n for n, e in enumerate(truth) if isinstance(e, PlayCards)]
    misread = next(n for n in plays[5:] if truth[n].cards[0] not in ("HR", "SB"))
    missed = next(n for n in plays if n > misread + 3)
    seen = list(truth)
    swap = {"S": "C", "C": "S", "H": "D", "D": "H"}
    first, *rest = truth[misread].cards  # a spade read for a club, or the like
    seen[misread] = PlayCards(seq=truth[misread].seq, t=truth[misread].t, seat=truth[misread].seat,
                              cards=(swap.get(first[0], "S") + first[1], *rest))
    del seen[missed]  # the camera never saw it
    seen = renumbered(seen)
    assert len(matched_plays(plays_of(truth), plays_of(seen))) == len(plays) - 2
    fixes = referee_fixes(truth, seen)
    assert [a["type"] for a in fixes] == ["correction", "missed"]
    assert fixes[0]["cards"] == list(truth[misread].cards) and not fixes[0].get("void")
    assert fixes[1]["seat"] == truth[missed].seat and fixes[1]["before"] == seen[missed].seq
    fixed = with_fixes(seen, fixes)
    key = [(type(e), e.seat, getattr(e, "cards", ())) for e in actions(truth)]
    assert [(type(e), e.seat, getattr(e, "cards", ())) for e in actions(fixed)] == key
    assert replayed(fixed).hand.outcome.order == replayed(truth).hand.outcome.order
    assert replayed(fixed).violations == [] and replayed(seen).violations != []


def test_events_the_camera_made_up_are_voided_and_the_record_replays_as_it_went():
    """A pass out of turn and a play of cards knocked into a zone, both made up: voided, the
    hand replays as it went (the struck events stay in the log, acting on nothing)."""
    truth = truth_hand()
    first, later = [n for n, e in enumerate(truth) if isinstance(e, PlayCards)][:2]
    ghost = PlayCards(seq=0, t=truth[later].t, seat=truth[later].seat, cards=("SB",))
    seen = renumbered(truth[:first + 1] + [Pass(seq=0, t=truth[first].t, seat="W")] + truth[first + 1:later + 1]
                      + [ghost] + truth[later + 1:])
    fixes = referee_fixes(truth, seen)
    assert fixes == [{"type": "correction", "target": first + 1, "cards": [], "void": True},
                     {"type": "correction", "target": later + 2, "cards": [], "void": True}]
    fixed = with_fixes(seen, fixes)
    match = replayed(fixed)
    assert match.violations == [] and match.hand.outcome.order == replayed(truth).hand.outcome.order
    assert [e.event.type for e in match.history].count("struck") == 2
    text = "\n".join(account(match, "en"))
    assert f"referee struck out #{first + 1}: it never happened (referee: )" in text
    assert "West  pass (struck out)" in text and f"{term(ghost.seat, 'en')}  SB (struck out)" in text
