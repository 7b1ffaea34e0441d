"""What the table clock tells whoever runs it (hardware/runner.py ``Notice``) is a value read
by name, and ``guandan clock`` prints each in the reader's language (scorer/clock_cli.py)."""

from __future__ import annotations

from hardware.runner import OutOfTurn, TurnStarted
from scorer.clock_cli import describe


def test_a_turn_and_a_press_out_of_turn_are_printed_in_each_language():
    assert describe(TurnStarted("play", ("N",), 20), "en") == "North · play · 20 s"
    assert describe(TurnStarted("tribute", ("E", "W"), 0), "zh") == "东、西 · 进贡 · 不限时"
    assert describe(OutOfTurn("S"), "en") == "! South pressed out of turn"
    assert describe(OutOfTurn("S"), "zh") == "! 南 越序按键"
    assert describe(TurnStarted("over", (), 0), "en") is None  # nobody is on the clock
