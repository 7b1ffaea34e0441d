"""The rules' timing as a clock, with the time passed in (no waiting, no wall-clock luck)."""

import pytest

from engine import timing as c
from rulebook import profiles


def shows(outputs):
    return {o.seat: o.text for o in outputs if isinstance(o, c.Show)}


def of(outputs, kind):
    return [o for o in outputs if isinstance(o, kind)]


@pytest.mark.parametrize("profile,action,limit", [
    ("linyi", "tribute", 20), ("linyi", "return", 40), ("linyi", "first_lead", 40), ("linyi", "play", 20),
    ("linyi_notice", "first_lead", 20), ("linyi_notice", "play", 10),
    ("jiangsu", "return", 40), ("jiangsu", "first_lead", 30), ("jiangsu", "play", 30), ("jiangsu", "tribute", 0),
    ("linquan", "play", 0),
])
def test_limits_come_from_the_profile_time_table(profile, action, limit):
    assert c.TableClock(profiles.load(profile), 0.0).limit(action) == limit


def test_countdown_on_the_seat_on_turn_only():
    clock = c.TableClock(profiles.load("linyi"), 0.0)
    out = clock.start_action("play", ("N",), 100.0)
    assert shows(out) == {"N": " 0.20", "E": "    ", "S": "    ", "W": "    "}
    assert {o.seat: o.mode for o in of(out, c.Lamp)} == {"N": "ON", "E": "OFF", "S": "OFF", "W": "OFF"}
    assert shows(clock.tick(100.5)) == {}  # still in the 20th second: nothing to send
    assert shows(clock.tick(101.0)) == {"N": " 0.19"}


def test_both_tributers_are_on_the_clock_and_one_leaves_it():
    clock = c.TableClock(profiles.load("linyi"), 0.0)
    out = clock.start_action("tribute", ("N", "S"), 0.0)
    assert shows(out)["N"] == shows(out)["S"] == " 0.20"
    clock.finish_action("N")
    assert clock.seats == ("S",)


def test_last_seconds_beep_and_an_overrun_escalates_per_seat():
    clock = c.TableClock(profiles.load("linyi_notice"), 0.0)  # play 10 s; warning then match loss
    clock.start_action("play", ("E",), 0.0)
    beeps = [b for t in range(5, 10) for b in of(clock.tick(float(t) + 0.01), c.Beep)]
    assert len(beeps) == 5  # 5 … 1 seconds left
    out = clock.tick(10.5)
    (over,) = of(out, c.Overrun)
    assert (over.seat, over.action, over.limit, over.count, over.penalty) == ("E", "play", 10, 1, "warning")
    assert shows(out) == {"E": "-0.00"}
    assert of(clock.tick(12.0), c.Overrun) == []  # once per turn
    assert shows(clock.tick(12.0)) == {}  # shown by the tick just before
    assert shows(clock.tick(13.0)) == {"E": "-0.03"}
    assert shows(clock.tick(75.0)) == {"E": "-1.05"}
    clock.start_action("play", ("E",), 100.0)
    (second,) = of(clock.tick(111.0), c.Overrun)
    assert (second.count, second.penalty) == (2, "match_loss")
    clock.start_action("play", ("E",), 200.0)
    (third,) = of(clock.tick(211.0), c.Overrun)
    assert third.penalty == "match_loss"  # the ladder's last step repeats


def test_no_limit_counts_up_and_never_overruns():
    clock = c.TableClock(profiles.load("linquan"), 0.0)
    clock.start_action("play", ("W",), 0.0)
    out = clock.tick(3600.0)
    assert of(out, c.Overrun) == [] and shows(out) == {"W": "60.00"}


def test_pause_freezes_the_countdown_and_the_match_clock():
    clock = c.TableClock(profiles.load("linyi"), 0.0, match_minutes=1)
    clock.start_action("play", ("S",), 0.0)
    clock.tick(5.0)
    assert shows(clock.pause(5.0)) == {s: "----" for s in "ESWN"}
    assert clock.tick(500.0) == []  # paused: nothing moves
    out = clock.resume(500.0)
    assert shows(out)["S"] == " 0.15"
    assert of(clock.tick(510.0), c.Overrun) == []
    assert of(clock.tick(521.0), c.Overrun)
    assert of(clock.tick(554.0), c.TimeUp) == []  # 54 s of match time so far
    (up,) = of(clock.tick(555.5), c.TimeUp)
    assert up.elapsed == pytest.approx(60.5)
    assert of(clock.tick(600.0), c.TimeUp) == []  # said once


@pytest.mark.parametrize("seconds,text", [
    (30, " 0.30"), (29.2, " 0.30"), (0.01, " 0.01"), (0, " 0.00"), (-0.4, "-0.00"), (-65.3, "-1.05"),
    (-3600, "-9.59"), (3599, "59.59"), (6000, "99.59"), (125, " 2.05"),
])
def test_clock_text_fits_four_digits(seconds, text):
    from hardware.protocol import display_cells

    assert c.clock_text(seconds) == text
    assert display_cells(text) == 4


@pytest.mark.parametrize("profile,called_at_minutes", [("linyi", 30), ("jiangsu", 57), ("linquan", 50)])
def test_time_is_called_when_the_profile_says(profile, called_at_minutes):
    clock = c.TableClock(profiles.load(profile), 0.0)
    assert of(clock.tick(called_at_minutes * 60 - 1.0), c.TimeUp) == []
    assert of(clock.tick(called_at_minutes * 60 + 0.5), c.TimeUp)


def test_jiangsu_stalling_owes_the_opponents_levels():
    clock = c.TableClock(profiles.load("jiangsu"), 0.0)
    clock.start_action("play", ("S",), 0.0)
    penalties = []
    for t in range(0, 400, 5):
        penalties += [o.penalty for o in of(clock.tick(float(t)), c.Overrun)]
    assert penalties == ["warning", "opponents_up_1", "opponents_up_2", "opponents_up_3"]
