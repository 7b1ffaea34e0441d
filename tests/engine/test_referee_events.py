"""Referee acts in the record: corrections, level changes, penalties, alerts — audited,
never overwriting the original."""

import random

import pytest

from engine.bots import self_play
from engine.events import Correction, Missed, RecordError
from engine.match import Match
from engine.record import parse_lines, replay
from rulebook import profiles
from rulebook.narration import account

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
    assert match.hand.top.play.type == "Pair" and match.hand.top.play.rank == "8"
    assert record.events[2].cards == ("S6", "H8")  # the original line is untouched
    text = "\n".join(account(match, "zh"))
    assert "裁判更正第2条：S8 H8（li：6 was 8）" in text


def test_the_latest_correction_counts_and_no_cards_make_it_a_pass():
    _, match = run('{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
                   '{"seq":3,"t":3,"type":"play","seat":"N","cards":["S4"]}',
                   '{"seq":4,"t":4,"type":"correction","target":3,"cards":["S5"],"by":"li"}',
                   '{"seq":5,"t":5,"type":"correction","target":3,"cards":[],"by":"wang","why":"a phantom"}')
    assert match.hand.top.seat == "E" and match.hand.turn == "W" and match.hand.counts["N"] == 27


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


def test_a_live_match_takes_a_correction_in_its_place():
    """A table runtime pushes its corrections as they come: what follows the corrected play
    must be judged as if it had been read right (here: no third 8 of spades)."""
    record = parse_lines([HEADER, DEAL, '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S8","S8"]}'])
    match = replay(record, profiles.load)
    for line in ('{"seq":3,"t":3,"type":"correction","target":2,"cards":["C8","C8"],"by":"camera"}',
                 '{"seq":4,"t":4,"type":"play","seat":"N","cards":["S9","S9"]}',
                 '{"seq":5,"t":5,"type":"play","seat":"W","cards":["ST","ST"]}',
                 '{"seq":6,"t":6,"type":"pass","seat":"S"}',
                 '{"seq":7,"t":7,"type":"pass","seat":"E"}',
                 '{"seq":8,"t":8,"type":"pass","seat":"N"}',
                 '{"seq":9,"t":9,"type":"play","seat":"W","cards":["S8"]}'):
        match.push(parse_lines([HEADER, line]).events[1])
    assert match.violations == []
    assert match.hand.tracker.seen["C8"] == 2 and match.hand.tracker.seen["S8"] == 1
    assert match.history[2].event.cards == ("C8", "C8") and match.history[3].event.type == "correction"
    back = '{"seq":10,"t":10,"type":"correction","target":2,"cards":["S8","S8"],"by":"li"}'
    match.push(parse_lines([HEADER, back]).events[1])
    assert [v.code for v in match.violations] == ["duplicate_card"]  # the third S8, at seq 9
    assert match.violations[0].seq == 9


def test_a_correction_already_in_place_is_only_logged():
    record = parse_lines([HEADER, DEAL, '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S8"]}',
                          '{"seq":3,"t":3,"type":"correction","target":2,"cards":["H8"],"by":"li"}'])
    match = replay(record, profiles.load)  # a replay applies corrections first, then logs them
    assert match.hand.tracker.seen["H8"] == 1 and match.hand.tracker.seen["S8"] == 0
    assert [e.event.type for e in match.history] == ["header", "deal", "play", "correction"]


def two_hands():
    """A bots' match of two hands pushed live, and the play that ended its first hand."""
    events = self_play(profiles.load("linquan"), random.Random(3), max_hands=2)
    match = Match(profiles.load("linquan"), events[0])
    for event in events[1:]:
        match.push(event)
    second_deal = [e.seq for e in events if e.type == "deal"][1]
    return events, match, [e for e in events if e.type == "play" and e.seq < second_deal][-1]


def test_a_correction_that_would_break_the_record_changes_nothing():
    """The play that ended the first hand corrected to a pass: the hand would still be on
    when the second deal came, so the correction is refused and the match stands."""
    events, match, last_play = two_hands()
    before = (len(match.history), len(match.hands), match.levels, match.result)
    with pytest.raises(RecordError, match="deal"):
        match.push(Correction(seq=events[-1].seq + 1, t=0.0, target=last_play.seq, cards=(), by="li"))
    assert (len(match.history), len(match.hands), match.levels, match.result) == before


# --- a play the camera missed, put in by a referee -------------------------------------

LEAD = '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S5"]}'
UNSEEN = '{"seq":3,"t":3,"type":"pass","seat":"W"}'  # North's 大王 on it was never read


def test_a_missed_play_is_replayed_in_its_place_and_its_line_stays():
    """North's 大王 was laid on East's 5 and never read; West's pass then looked out of
    turn. Put in before West's pass, the trick reads as it went."""
    bad = run(LEAD, UNSEEN)[1]
    assert [v.code for v in bad.violations] == ["out_of_turn"]
    record, match = run(LEAD, UNSEEN, '{"seq":4,"t":9,"type":"missed","seat":"N","cards":["HR"],"before":3,'
                                      '"by":"li","why":"camera missed it"}')
    assert match.violations == [] and match.hand.top.seat == "N" and match.hand.turn == "S"
    assert [(e.event.type, e.event.seq) for e in match.history] == [
        ("header", 0), ("deal", 1), ("play", 2), ("play", 4), ("pass", 3)]
    assert match.history[3].missed == record.events[4] and match.history[3].line.type == "missed"
    assert match.next_seq == 5
    text = "\n".join(account(match, "en"))
    assert "referee put in #4, missed by the camera, before #3: North HR (li: camera missed it)" in text


def test_a_live_match_takes_a_missed_play_in_its_place_and_goes_on():
    record = parse_lines([HEADER, DEAL, LEAD, UNSEEN])
    match = replay(record, profiles.load)
    for line in ('{"seq":4,"t":9,"type":"missed","seat":"N","cards":["HR"],"before":3,"by":"li"}',
                 '{"seq":5,"t":10,"type":"pass","seat":"S"}',
                 '{"seq":6,"t":11,"type":"pass","seat":"E"}'):
        match.push(parse_lines([HEADER, line]).events[1])
    assert match.violations == []
    assert match.hand.turn == "N" and match.hand.top is None  # North won the trick and leads
    assert match.next_seq == 7
    with pytest.raises(RecordError, match="does not follow"):
        match.push(parse_lines([HEADER, '{"seq":4,"t":12,"type":"pass","seat":"N"}']).events[1])
    # the whole record replays to the same match
    again = replay(parse_lines([HEADER, DEAL, LEAD, UNSEEN, *(
        '{"seq":4,"t":9,"type":"missed","seat":"N","cards":["HR"],"before":3,"by":"li"}',
        '{"seq":5,"t":10,"type":"pass","seat":"S"}', '{"seq":6,"t":11,"type":"pass","seat":"E"}')]), profiles.load)
    assert [e.event for e in again.history] == [e.event for e in match.history]


def test_a_missed_pass_and_one_at_the_end_and_a_correction_of_a_missed_play():
    _, match = run('{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
                   '{"seq":3,"t":3,"type":"play","seat":"W","cards":["S5"]}',
                   '{"seq":4,"t":4,"type":"missed","seat":"N","before":3,"by":"li","why":"tapped the table"}',
                   '{"seq":5,"t":5,"type":"missed","seat":"S","cards":["S6"],"by":"li"}',
                   '{"seq":6,"t":6,"type":"correction","target":5,"cards":["S7"],"by":"li","why":"a 7"}')
    assert match.violations == []
    assert [(seat, cards) for seat, _, cards, _ in match.hand.trick] == [
        ("E", ("S3",)), ("N", ()), ("W", ("S5",)), ("S", ("S7",))]
    assert match.history[5].event.cards == ("S7",) and match.history[5].missed is not None


def test_missed_plays_before_one_event_keep_their_order_and_may_be_placed_before_each_other():
    _, match = run('{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
                   '{"seq":3,"t":3,"type":"play","seat":"S","cards":["S9"]}',
                   '{"seq":4,"t":4,"type":"missed","seat":"W","cards":["S6"],"before":3,"by":"li"}',
                   '{"seq":5,"t":5,"type":"missed","seat":"N","cards":["S4"],"before":4,"by":"li"}')
    assert match.violations == []
    assert [e.event.seq for e in match.history] == [0, 1, 2, 5, 4, 3]
    assert match.next_seq == 6


@pytest.mark.parametrize("lines,message,line", [
    (['{"seq":3,"t":3,"type":"missed","seat":"N","cards":["S4"],"before":1,"by":"li"}'],
     "not a play or pass", 4),
    (['{"seq":3,"t":3,"type":"missed","seat":"N","cards":["S4"],"before":3,"by":"li"}'], "earlier event", 4),
    (['{"seq":3,"t":3,"type":"missed","seat":"N","cards":["S4"]}'], "which referee", 4),
    (['{"seq":5,"t":3,"type":"missed","seat":"N","cards":["S4"],"before":2,"by":"li"}',
      '{"seq":4,"t":3,"type":"pass","seat":"W"}'], "seq 4 does not follow 5", 5),
])
def test_a_missed_play_that_breaks_the_record_names_its_line(lines, message, line):
    with pytest.raises(RecordError, match=message) as caught:
        run('{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}', *lines)
    assert caught.value.line == line


def test_a_missed_play_that_would_break_the_record_changes_nothing():
    """Put in before the first hand's last play, a play by a seat already out breaks the
    hand's story (the hand ends earlier or the deal comes mid-hand): refused, the match stands."""
    events, match, last_play = two_hands()
    before = (len(match.history), len(match.hands), match.levels, match.result, match.next_seq)
    with pytest.raises(RecordError):
        match.push(Missed(seq=events[-1].seq + 1, t=0.0, seat=last_play.seat, cards=("HR", "HR", "SB", "SB"),
                          before=last_play.seq, by="li"))
    assert (len(match.history), len(match.hands), match.levels, match.result, match.next_seq) == before


# --- an event the camera made up, voided by a referee -----------------------------------

def test_a_voided_play_is_struck_out_and_a_later_correction_brings_it_back():
    """The camera took cards knocked into North's zone for a play: voided, the trick reads as
    it went (West to act after East); corrected again later, the play is back as corrected."""
    record = parse_lines([HEADER, DEAL, '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
                          '{"seq":3,"t":3,"type":"play","seat":"S","cards":["S4"]}',
                          '{"seq":4,"t":4,"type":"play","seat":"N","cards":["S5"]}'])
    match = replay(record, profiles.load)
    assert {v.code for v in match.violations} == {"out_of_turn"}  # South's S4 before North
    match.push(parse_lines([HEADER, '{"seq":5,"t":5,"type":"correction","target":3,"void":true,'
                                    '"by":"li","why":"knocked in"}']).events[1])
    assert match.violations == [] and match.hand.turn == "W" and match.hand.top.seat == "N"
    assert [e.event.type for e in match.history] == ["header", "deal", "play", "struck", "play", "correction"]
    assert "* referee struck out #3: it never happened (li: knocked in)" in "\n".join(account(match, "en"))
    again = replay(parse_lines([HEADER, DEAL, *(
        '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
        '{"seq":3,"t":3,"type":"play","seat":"S","cards":["S4"]}',
        '{"seq":4,"t":4,"type":"play","seat":"N","cards":["S5"]}',
        '{"seq":5,"t":5,"type":"correction","target":3,"void":true,"by":"li","why":"knocked in"}')]), profiles.load)
    assert [e.event for e in again.history] == [e.event for e in match.history]
    match.push(parse_lines([HEADER, '{"seq":6,"t":6,"type":"correction","target":3,"cards":["S4"],"by":"li",'
                                    '"why":"it was a play after all"}']).events[1])
    assert {v.code for v in match.violations} == {"out_of_turn"} and match.hand.counts["S"] == 26


@pytest.mark.parametrize("before", [None, 2])
def test_a_missed_play_put_in_by_mistake_can_be_voided_and_brought_back(before):
    """Put in at the end or before an event, voided, then corrected back: live and on
    replay alike."""
    place = "" if before is None else f',"before":{before}'
    seat = "N" if before is None else "S"
    lines = [HEADER, DEAL, '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S3"]}',
             f'{{"seq":3,"t":3,"type":"missed","seat":"{seat}","cards":["S9"]{place},"by":"li"}}']
    match = replay(parse_lines(lines), profiles.load)
    turn = match.hand.turn
    acts = ['{"seq":4,"t":4,"type":"correction","target":3,"void":true,"by":"li"}',
            '{"seq":5,"t":5,"type":"correction","target":3,"cards":["ST"],"by":"li"}']
    match.push(parse_lines([HEADER, acts[0]]).events[1])
    assert match.next_seq == 5 and "struck" in [e.event.type for e in match.history]
    assert match.hand.counts == {"E": 26, "S": 27, "W": 27, "N": 27}
    match.push(parse_lines([HEADER, acts[1]]).events[1])
    assert match.hand.turn == turn and "ST" in {c for _, _, cards, _ in match.hand.trick for c in cards}
    again = replay(parse_lines(lines + acts), profiles.load)
    assert [e.event for e in again.history] == [e.event for e in match.history] and again.next_seq == 6


@pytest.mark.parametrize("line,message", [
    ('{"seq":2,"t":2,"type":"correction","target":1,"void":true,"cards":["S5"],"by":"li"}', "no cards"),
    ('{"seq":2,"t":2,"type":"correction","target":1,"void":"yes","by":"li"}', "true or false"),
])
def test_a_void_correction_is_checked(line, message):
    with pytest.raises(RecordError, match=message):
        parse_lines([HEADER, line])
