"""The clock at a table: presses, the engine's turns, the rules' timing — over a real pty."""


import pytest

from engine.events import Deal, Header
from engine.match import Match
from hardware.driver import ClockDriver
from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair
from hardware.runner import ClockRunner, OutOfTurn, Rotation
from rulebook import profiles
from table.clock_turns import MatchRecorder, MatchTurns
from table.mending import PlayFields
from tests.hardware.waiting import until


def laid(seat: str, cards: list[str]) -> PlayFields | None:
    """What a camera table's zone gives the clock on a press: the play's fields, read
    surely, or None (nothing laid: a pass)."""
    return PlayFields(seat=seat, cards=tuple(cards), confidence=1.0, choices=()) if cards else None


@pytest.fixture
def table():
    with PtyPair() as pair, DeviceEmulator(pair.device_end) as box, ClockDriver(pair.host_end) as driver:
        assert driver.wait_connected(5)
        yield box, driver


@pytest.fixture
def quick(tmp_path):
    """linyi with a 1-second clock on every play, so overruns happen within a test."""
    path = tmp_path / "quick.toml"
    path.write_text('extends = "linyi"\n[time]\nfirst_lead = 1\nplay = 1\n', encoding="utf-8")
    return profiles.load(str(path))


def test_chess_clock_rotation(table):
    box, driver = table
    notices = []
    runner = ClockRunner(driver, profiles.load("linyi"), Rotation("E"), on_notice=notices.append).start()
    try:
        assert until(lambda: box.displays["E"] == " 0.40" and box.lamps["E"] == "ON")  # first lead: 40 s
        box.press("E")
        assert until(lambda: box.displays["N"] == " 0.20" and box.displays["E"] == "    ")
        assert box.lamps == {"E": "OFF", "S": "OFF", "W": "OFF", "N": "ON"}
        box.press("S")  # out of turn: nothing moves
        assert until(lambda: OutOfTurn("S") in notices)
        assert box.lamps["N"] == "ON"
    finally:
        runner.stop()


def test_presses_at_a_camera_table_become_plays_passes_and_alerts(table):
    box, driver = table
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))
    zones = {"E": ["S3", "H4", "C5", "D6", "S7"], "N": [], "W": [], "S": []}
    recorded = []
    turns = MatchTurns(match, lambda seat: laid(seat, zones[seat]))
    runner = ClockRunner(driver, match.profile, turns, recorder=MatchRecorder(match, recorded.append))
    runner.record(Deal, leader="E")
    runner.start()
    try:
        box.press("E")  # East's straight is in its zone: the press commits it
        assert until(lambda: match.hand.top is not None)
        assert match.hand.top.play.type == "Straight" and match.hand.counts["E"] == 22
        assert until(lambda: box.displays["N"] == " 0.20")
        box.press("N")  # nothing in North's zone: a pass
        assert until(lambda: match.hand.turn == "W")
        box.press("S")  # out of turn
        assert until(lambda: any(v.code == "out_of_turn" and v.detail.get("button") for v in match.violations))
        box.press("R")  # the referee's call stops the clock
        assert until(lambda: box.displays["W"] == "----")
        box.press("R")
        assert until(lambda: box.displays["W"].strip().startswith("0."))
    finally:
        runner.stop()
    kinds = [e.type for e in recorded]
    assert kinds[:5] == ["deal", "press", "play", "press", "pass"]
    assert "pause" in kinds and "resume" in kinds
    assert [e.seq for e in recorded] == sorted(e.seq for e in recorded)


def test_a_pass_on_a_lead_is_flagged(table):
    box, driver = table
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))
    runner = ClockRunner(driver, match.profile, MatchTurns(match, lambda seat: None), recorder=MatchRecorder(match))
    runner.record(Deal, leader="E")
    runner.start()
    try:
        box.press("E")
        assert until(lambda: any(v.code == "pass_on_lead" for v in match.violations))
    finally:
        runner.stop()


def test_an_overrun_is_recorded_with_the_profiles_escalation(table, quick):
    box, driver = table
    match = Match(quick, Header(seq=0, t=0.0, profile="quick"))
    runner = ClockRunner(driver, quick, MatchTurns(match, lambda seat: laid(seat, ["S9"])),
                         recorder=MatchRecorder(match))
    runner.record(Deal, leader="E")
    runner.start()
    try:
        assert until(lambda: any(v.code == "clock_overrun" for v in match.violations), timeout=4)
        (v,) = [v for v in match.violations if v.code == "clock_overrun"]
        assert v.seat == "E" and v.detail["action"] == "first_lead" and v.detail["limit"] == 1
        assert v.detail["penalty"] == "warning"
        assert until(lambda: box.displays["E"].startswith("-"))
        assert until(lambda: 600 in box.beeps)  # the buzz may follow the display by a moment
    finally:
        runner.stop()


def test_match_time_up_calls_time(table):
    box, driver = table
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))
    clock = {"now": 1000.0}
    def now() -> float:
        return clock["now"]

    runner = ClockRunner(driver, match.profile, MatchTurns(match, lambda seat: None),
                         recorder=MatchRecorder(match, now=now), now=now)
    runner.record(Deal, leader="E")
    runner.start()
    try:
        clock["now"] += 30 * 60 + 1  # linyi: 30 minutes
        assert until(lambda: match.time_called)
    finally:
        runner.stop()
