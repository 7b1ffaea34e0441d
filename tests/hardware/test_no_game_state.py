"""The clock box is I/O and timing only (docs/architecture.md): what an event does to the
game is the table's. The import contracts keep ``hardware`` from importing the match; these
keep it from reaching one it is handed — a turn source's ``match``, found without an import,
pushed into by the runner — which no import contract sees."""

import ast
from pathlib import Path

from engine.events import Deal, Header, Press
from engine.match import Match
from hardware.driver import ClockDriver
from hardware.runner import ClockRunner, Numbering
from rulebook import profiles
from table.clock_turns import MatchRecorder, MatchTurns

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"

#: what only a match has: an event pushed into it, its next seq
MATCH_ONLY = {"push", "next_seq"}


def _reaches_a_match(node: ast.AST) -> str | None:
    """What in ``node`` reaches into a match, or None."""
    if isinstance(node, ast.Attribute):
        if node.attr in MATCH_ONLY:
            return f".{node.attr}"
        if node.attr == "match" and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            return "someone else's .match"  # a driver's own ``self.match`` is its port's USB ids
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
            and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "match"):
        return f'{node.func.id}(…, "match")'
    return None


def test_no_module_of_the_clock_box_reaches_into_a_match():
    files = sorted(HARDWARE.rglob("*.py"))
    assert files
    found = [f"{path.relative_to(HARDWARE.parent)}:{node.lineno}: {what}"
             for path in files for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if (what := _reaches_a_match(node)) is not None]
    assert found == []


def test_a_runner_given_no_recorder_numbers_its_events_and_leaves_the_match_alone():
    """Turn sources with a match in them do not make the runner record into it: without a
    recorder the clock numbers its own events, as a clock alone does."""
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))
    runner = ClockRunner(ClockDriver("/nonexistent/clock"), match.profile, MatchTurns(match, lambda seat: None))
    deal = runner.record(Deal, leader="E")
    assert deal.seq == 1 and runner.recorded == 1
    assert match.hand is None and match.next_seq == 1


def test_the_table_records_into_the_match_it_was_handed():
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))
    kept: list = []
    runner = ClockRunner(ClockDriver("/nonexistent/clock"), match.profile, MatchTurns(match, lambda seat: None),
                         recorder=MatchRecorder(match, kept.append))
    runner.record(Deal, leader="E")
    press = runner.record(Press, seat="E")
    assert [e.seq for e in kept] == [1, 2] and press.seq == 2
    assert match.hand is not None and match.next_seq == 3
    alone: list = []
    numbered = Numbering(alone.append)
    assert [numbered(Press, seat=s).seq for s in "EN"] == [1, 2] and len(alone) == 2
