"""Statistics for commentators (engine.stats), from the replayed match."""

from __future__ import annotations

from engine.events import Pause, Resume
from engine.record import parse_lines, replay
from engine.stats import PlayerStats, match_stats, think_times
from rulebook import profiles
from scorer.cli import DEMO_RECORD
from tests.engine.table_driver import Table, play_hand


def test_think_time_runs_from_the_event_that_gave_the_turn_less_pauses():
    t = Table()
    t.deal(hidden=True, leader="E")  # t = 1
    t.play("E", "S3")  # t = 2: 1 s
    t.push(Pause, reason="a card on the floor")  # t = 3
    t.push(Resume)  # t = 4: a second paused
    t.pass_("N")  # t = 5: 3 s from E's play, 1 of them paused
    t.pass_("W")  # t = 6
    assert think_times(t.match) == [("E", 1.0, 2), ("N", 2.0, 5), ("W", 1.0, 6)]
    seats, table = match_stats(t.match)
    assert (seats["N"].timed, seats["N"].think_longest, seats["N"].passes) == (1, 2.0, 1)
    assert table.think_average == round(4.0 / 3, 1) and table.seconds == 6.0


def test_places_tributes_and_the_first_out_rate():
    t = Table()
    play_hand(t, "E", "N", "W", "S")
    play_hand(t, "S", "E", "N", "W")  # S, last before, pays E and leads; then goes out first
    seats, table = match_stats(t.match)
    assert seats["E"].places == [1, 1, 0, 0] and seats["E"].first_out_rate == 0.5
    assert seats["S"].first_out == 1 and seats["W"].first_out_rate == 0.0
    assert (seats["S"].tributes_paid, seats["E"].tributes_received, table.tributes) == (1, 1, 1)
    assert table.hands == 2 and seats["N"].hands == 2


def test_a_player_over_two_matches_adds_up():
    match = replay(parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines()), profiles.load)
    seats, table = match_stats(match)
    both = seats["S"] + seats["S"]
    assert both.matches == 2 and both.bombs == 2 * seats["S"].bombs
    assert both.places == [2 * p for p in seats["S"].places]
    assert both.think_longest == seats["S"].think_longest and both.think_average == seats["S"].think_average
    assert both.first_out_rate == seats["S"].first_out_rate
    assert (PlayerStats() + seats["S"]).to_json() == seats["S"].to_json()
    assert table.bombs == sum(s.bombs for s in seats.values()) and table.straight_flushes == 1
    assert table.double_downs == 2 and table.resists == 2 and table.jiefeng == sum(s.jiefeng for s in seats.values())
    json = seats["S"].to_json()
    assert json["first_out_rate"] == round(json["places"][0] / json["hands"], 3)
    assert 0 < json["think_average"] <= json["think_longest"]
