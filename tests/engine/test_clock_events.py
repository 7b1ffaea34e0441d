"""The table clock's events in the record: presses, overruns, pauses."""

import pytest

from engine.events import RecordError
from engine.record import parse_lines, replay
from rulebook import profiles
from rulebook.narration import account

HEADER = '{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"linyi"}'
DEAL = '{"seq":1,"t":1,"type":"deal","leader":"E"}'


def run(*lines):
    return replay(parse_lines([HEADER, DEAL, *lines]), profiles.load)


def test_a_press_on_turn_is_not_an_alert_and_out_of_turn_is():
    match = run('{"seq":2,"t":2,"type":"press","seat":"E"}',
                '{"seq":3,"t":3,"type":"play","seat":"E","cards":["S3"]}',
                '{"seq":4,"t":4,"type":"press","seat":"W"}')
    (v,) = match.violations
    assert (v.code, v.seat, v.seq) == ("out_of_turn", "W", 4)
    assert v.detail == {"button": True, "action": "play", "expected": ["N"]}


def test_the_referee_button_is_a_call():
    match = run('{"seq":2,"t":2,"type":"press","seat":"R"}')
    assert match.history[-1].referee_call and match.violations == []


def test_an_overrun_is_a_clock_overrun_violation_with_its_penalty():
    match = run('{"seq":2,"t":45,"type":"clock_overrun","seat":"E","action":"first_lead","limit":40,'
                '"elapsed":44.5,"penalty":"warning"}',
                '{"seq":3,"t":46,"type":"pause","reason":"dispute"}', '{"seq":4,"t":90,"type":"resume"}')
    (v,) = match.violations
    assert (v.code, v.seat) == ("clock_overrun", "E")
    assert v.detail == {"action": "first_lead", "limit": 40, "elapsed": 44.5, "penalty": "warning"}
    text = "\n".join(account(match, "zh"))
    assert "超时：首出限40秒" in text and "警告" in text and "裁判暂停计时" in text
    assert "over time: first lead limit 40 s" in "\n".join(account(match, "en"))


@pytest.mark.parametrize("line,message", [
    ('{"seq":2,"t":2,"type":"press","seat":"X"}', "E, S, W, N or R"),
    ('{"seq":2,"t":2,"type":"clock_overrun","seat":"E","action":"nap","limit":4,"elapsed":5}', "'action'"),
    ('{"seq":2,"t":2,"type":"clock_overrun","seat":"E","action":"play","limit":-1,"elapsed":5}', "'limit'"),
])
def test_bad_clock_lines(line, message):
    with pytest.raises(RecordError, match=message):
        parse_lines([HEADER, line])
