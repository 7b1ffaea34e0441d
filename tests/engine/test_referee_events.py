"""Referee acts in the record: corrections, level changes, penalties, alerts — audited,
never overwriting the original."""

import pytest

from engine.events import RecordError
from engine.record import parse_lines, replay
from scorer import profiles
from scorer.account import account

HEADER = '{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"linquan"}'
DEAL = '{"seq":1,"t":1,"type":"deal","leader":"E"}'
MISREAD = '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S6","H8"]}'  # the camera read 6 for a 8


def run(*lines, header=HEADER):
    record = parse_lines([header, DEAL, *lines])
    return record, replay(record, profiles.load)


def test_a_corrected_play_is_replayed_as_corrected_and_the_original_stays():
    record, match = run(MISREAD,
                        '{"seq":3,"t":5,"type":"correction","target":2,"cards":["S8","H8"],"by":"li","why":"6 was 8"}')
    assert match.violations == []  # the misread pair S6 H8 was "not a combination"; corrected it is a pair
    assert match.hand.top[1].type == "Pair" and match.hand.top[1].rank == "8"
    assert record.events[2].cards == ("S6", "H8")  # the original line is untouched
    text = "\n".join(account(match, "zh"))
    assert "裁判更正第2条：S8 H8（li：6 was 8）" in text


def test_the_latest_correction_counts_and_no_cards_make_it_a_pass():
    _, match = run('{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
                   '{"seq":3,"t":3,"type":"play","seat":"N","cards":["S4"]}',
                   '{"seq":4,"t":4,"type":"correction","target":3,"cards":["S5"],"by":"li"}',
                   '{"seq":5,"t":5,"type":"correction","target":3,"cards":[],"by":"wang","why":"a phantom"}')
    assert match.hand.top[0] == "E" and match.hand.turn == "W" and match.hand.counts["N"] == 27


def test_level_adjust_moves_a_side_within_2_to_a():
    _, match = run('{"seq":2,"t":2,"type":"level_adjust","side":"NS","levels":3,"by":"li","why":"stalling"}',
                   '{"seq":3,"t":3,"type":"level_adjust","side":"EW","levels":-2,"by":"li","why":"x"}',
                   '{"seq":4,"t":4,"type":"level_adjust","side":"NS","levels":12,"by":"li","why":"y"}')
    assert match.levels == {"EW": "2", "NS": "A"}


@pytest.mark.parametrize("penalty,levels,winner", [
    ("opponents_up_2", {"EW": "4", "NS": "2"}, None),
    ("level_loss", {"EW": "2", "NS": "2"}, None),
    ("warning", {"EW": "2", "NS": "2"}, None),
    ("match_loss", {"EW": "2", "NS": "2"}, "EW"),
])
def test_penalties_that_change_the_score(penalty, levels, winner):
    _, match = run(f'{{"seq":2,"t":2,"type":"penalty","seat":"N","penalty":"{penalty}","by":"li","why":"w"}}')
    assert match.levels == levels
    assert (match.result.winner if match.result else None) == winner
    if winner:
        assert match.result.reason == "forfeit" and match.result.points == {"EW": 2, "NS": 0}


@pytest.mark.parametrize("line,message", [
    ('{"seq":2,"t":2,"type":"correction","target":1,"cards":["S5"]}', "which referee"),
    ('{"seq":2,"t":2,"type":"alert_done","alert":1,"action":"dismiss","by":"li"}', "needs a reason"),
    ('{"seq":2,"t":2,"type":"level_adjust","side":"EW","levels":0,"by":"li"}', "non-zero"),
    ('{"seq":2,"t":2,"type":"penalty","seat":"E","by":"li"}', "name the penalty"),
])
def test_referee_acts_must_say_who_and_what(line, message):
    with pytest.raises(RecordError, match=message):
        parse_lines([HEADER, line])
