"""Records: writing a game and replaying it gives the same state; broken records name the line."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import self_play
from engine.events import RecordError
from engine.record import dumps, parse_lines, replay, violation_line
from rulebook import profiles


def _state(match):
    return {
        "result": match.result.to_json() if match.result else None,
        "levels": match.levels,
        "hands": [(h.level, h.outcome.order if h.outcome else None, dict(h.counts)) for h in match.hands],
        "violations": [v.to_json() for v in match.violations],
        "readings": [e.reading.to_json() if e.reading else None for e in match.history],
    }


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["jiangsu", "linyi", "linyi_notice", "linquan"]),
       hands=st.integers(1, 6), forget=st.sampled_from([0.0, 0.3]))
def test_replaying_a_random_games_record_reproduces_it(seed, name, hands, forget):
    profile = profiles.load(name)
    events = self_play(profile, random.Random(seed), max_hands=hands, forget_report=forget)
    played = replay(parse_lines(dumps(events).splitlines()), profiles.load)
    # the bots' own match, pushed directly, is the reference
    from engine.match import Match
    direct = Match(profile, events[0])
    for e in events[1:]:
        direct.push(e)
    assert _state(played) == _state(direct)
    assert played.over
    assert dumps(played.events()) == dumps(events)


def test_every_line_has_seq_t_and_type_and_the_first_names_format_and_profile():
    events = self_play(profiles.load("linyi"), random.Random(3), max_hands=1)
    lines = [json.loads(x) for x in dumps(events).splitlines()]
    assert lines[0]["format"] == "guandan-record/1" and lines[0]["profile"] == "linyi"
    assert all({"seq", "t", "type"} <= set(x) for x in lines)
    assert [x["seq"] for x in lines] == sorted(x["seq"] for x in lines)


HEADER = '{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"jiangsu"}'


@pytest.mark.parametrize("lines,line,message", [
    ([HEADER, "{oops"], 2, "not valid JSON"),
    (['{"seq":0,"t":0,"type":"deal"}'], 1, "first line must be the header"),
    ([HEADER, '{"seq":1,"t":1,"type":"shout"}'], 2, "unknown event type"),
    ([HEADER, '{"seq":1,"t":1,"type":"play","seat":"X","cards":["S5"]}'], 2, "'seat' must be one of"),
    ([HEADER, '{"seq":1,"t":1,"type":"play","seat":"E","cards":["S5","S5","S5"]}'], 2, "appears 3 times"),
    ([HEADER, '{"seq":1,"t":1,"type":"play","seat":"E","cards":["Z9"]}'], 2, "not a card"),
    ([HEADER, "", '{"seq":1,"t":-1,"type":"pass","seat":"E"}'], 3, "'t' must be seconds"),
    (['{"seq":0,"t":0,"type":"header","format":"pgn","profile":"jiangsu"}'], 1, "unsupported record format"),
])
def test_broken_lines_name_their_line(lines, line, message):
    with pytest.raises(RecordError) as err:
        parse_lines(lines)
    assert err.value.line == line
    assert message in str(err.value)


@pytest.mark.parametrize("body,line,message", [
    (['{"seq":1,"t":1,"type":"pass","seat":"E"}'], 2, "no hand in progress"),
    (['{"seq":1,"t":1,"type":"deal","leader":"E"}', '{"seq":1,"t":2,"type":"pass","seat":"E"}'], 3,
     "does not follow"),
    (['{"seq":1,"t":1,"type":"deal","leader":"E"}', '{"seq":2,"t":2,"type":"deal"}'], 3, "still being played"),
    (['{"seq":1,"t":1,"type":"forfeit","side":"EW"}', '{"seq":2,"t":2,"type":"deal"}'], 3, "after the match ended"),
])
def test_events_out_of_place_name_their_line(body, line, message):
    record = parse_lines([HEADER, *body])
    with pytest.raises(RecordError) as err:
        replay(record, profiles.load)
    assert err.value.line == line and message in str(err.value)


def test_a_players_mistake_is_a_violation_not_an_error():
    record = parse_lines([
        HEADER,
        '{"seq":1,"t":1,"type":"deal","leader":"E"}',
        '{"seq":2,"t":2,"type":"play","seat":"N","cards":["S5"]}',
        '{"seq":3,"t":3,"type":"play","seat":"N","cards":["S5","D7"]}',
    ])
    match = replay(record, profiles.load)
    assert [(v.code, v.seat, v.seq) for v in match.violations] == [
        ("out_of_turn", "N", 2), ("out_of_turn", "N", 3), ("not_a_combination", "N", 3)]


def test_violation_lines_written_beside_events_are_read_past_and_found_again():
    lines = [HEADER, '{"seq":1,"t":1,"type":"deal","leader":"E"}',
             '{"seq":2,"t":2,"type":"play","seat":"N","cards":["S5"]}']
    first = replay(parse_lines(lines), profiles.load)
    annotated = lines + [json.dumps(violation_line(v, 2.0)) for v in first.violations]
    assert json.loads(annotated[-1]) == {"type": "violation", "code": "out_of_turn", "seat": "N", "seq": 2, "t": 2.0,
                                         "rule": first.violations[0].rule, "detail": first.violations[0].detail}
    again = replay(parse_lines(annotated), profiles.load)
    assert again.violations == first.violations and len(parse_lines(annotated).events) == 3


def test_the_documented_example_replays_cleanly():
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "record-format.md").read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    match = replay(parse_lines(block.splitlines()), profiles.load)
    assert match.violations == []
    hand = match.hand
    assert hand.top.seat == "N" and hand.top.play.type == "Bomb" and hand.counts["E"] == 18


def test_the_documented_camera_record_put_right_by_a_referee_replays_as_the_docs_say():
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "record-format.md").read_text(encoding="utf-8")
    block = text.split("A camera table's record, put right", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    head = ['{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"linyi","reports_heard":false}',
            '{"seq":1,"t":1,"type":"deal","leader":"E"}']
    match = replay(parse_lines(head + block.splitlines()), profiles.load)
    assert match.violations == [] and match.hand.turn == "S"
    assert [(seat, cards) for seat, _, cards, _ in match.hand.trick] == [("E", ("S5",)), ("N", ("HR",)), ("W", ())]
    assert [e.event.type for e in match.history[2:]] == ["play", "camera_note", "play", "pass", "struck",
                                                         "correction"]


def test_a_tribute_to_its_own_giver_is_a_broken_record():
    with pytest.raises(RecordError, match="cannot go to the seat that gives it"):
        parse_lines([HEADER, '{"seq":1,"t":1,"type":"tribute","seat":"S","card":"HR","to":"S"}'])


def test_a_resumed_match_starts_at_the_declarers_level():
    header = ('{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"jiangsu",'
              '"start_levels":{"EW":"5","NS":"9"},"declarers":"NS"}')
    match = replay(parse_lines([header, '{"seq":1,"t":1,"type":"deal","leader":"E"}']), profiles.load)
    assert match.hand.level == "9" and match.levels == {"EW": "5", "NS": "9"}
