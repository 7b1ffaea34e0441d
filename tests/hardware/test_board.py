"""The seat displays between actions (hardware/board.py): a tournament table's seating and a
result to confirm, in what four seven-segment digits can draw — and the clock runner showing
them over a real serial pair, a press taken only while its standby asks for one."""

import pytest

from engine.events import Header, Press
from engine.match import Match
from hardware import protocol
from hardware.board import Board, digits, level_text, pair_text, result_board, seating_board, table_text
from hardware.driver import ClockDriver
from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair
from hardware.runner import ClockRunner
from rulebook import profiles
from table.clock_turns import MatchRecorder, MatchTurns
from tests.hardware.waiting import until


def test_pairs_tables_and_levels_in_what_the_digits_can_draw():
    assert digits("p3") == "  P3" and digits("b12") == " b12" and digits("A.10") == " A.10"
    assert digits("公司1") is None and digits("x1") is None and digits("12345") is None and digits("") is None
    assert pair_text("p12", 12) == " P12" and pair_text("公司队", 7) == "   7" and pair_text("kk", 12345) == "2345"
    assert table_text(7) == "t  7" and table_text(128) == "t128" and table_text(2048) == "2048"
    assert [level_text(x) for x in ("2", "T", "J", "Q", "K", "A", "A+", None)] == [
        "2", "10", "11", "12", "13", "A", "PA", "-"]
    for text in ("  P3", "t  7", "2048", " A.10"):
        assert protocol.display_cells(text) == 4


def test_a_seating_shows_the_table_then_each_seats_own_pair():
    board = seating_board(7, "  P3", "  P9")
    assert board.page(0.0) == {s: "t  7" for s in "ESWN"}
    assert board.page(2.5) == {"N": "  P3", "S": "  P3", "E": "  P9", "W": "  P9"}
    assert board.page(4.0) == board.page(0.0) and set(board.lamps.values()) == {"OFF"}


def test_a_result_reads_from_each_seats_own_side_and_the_lamps_say_who_is_to_press():
    board = result_board({"NS": "A+", "EW": "K"}, {"EW"})
    assert board.page(0) == {"N": "PA.13", "S": "PA.13", "E": "13.PA", "W": "13.PA"}
    assert board.lamps == {"N": "BLINK", "S": "BLINK", "E": "ON", "W": "ON"}
    final = result_board({"NS": "T", "EW": "F"}, None)
    assert final.page(0)["N"] == " 10.F" and set(final.lamps.values()) == {"OFF"}


class Asking:
    """A standby with a result to confirm until each side has pressed once."""

    def __init__(self) -> None:
        self.pressed: list[str] = []
        self.asking = True

    def board(self) -> Board | None:
        return result_board({"NS": "A", "EW": "5"}, {"NS" if s in "NS" else "EW" for s in self.pressed})

    def press(self, seat: str) -> bool:
        if not self.asking:
            return False
        self.pressed.append(seat)
        return True


@pytest.fixture
def table():
    with PtyPair() as pair, DeviceEmulator(pair.device_end) as box, ClockDriver(pair.host_end) as driver:
        assert driver.wait_connected(5)
        yield box, driver


def test_the_standby_has_the_displays_while_no_seat_is_on_the_clock(table):
    box, driver = table
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi"))  # no hand dealt: nobody's turn
    recorded = []
    runner = ClockRunner(driver, match.profile, MatchTurns(match, lambda seat: None),
                         recorder=MatchRecorder(match, recorded.append))
    standby = runner.standby = Asking()
    runner.start()
    try:
        assert until(lambda: box.displays == {"N": "  A.5", "S": "  A.5", "E": "  5.A", "W": "  5.A"})
        assert until(lambda: set(box.lamps.values()) == {"BLINK"})
        box.press("W")  # taken as the East-West side's confirmation, and recorded as any press is
        assert until(lambda: box.lamps == {"E": "ON", "W": "ON", "N": "BLINK", "S": "BLINK"})
        assert standby.pressed == ["W"] and [type(e) for e in recorded] == [Press]
        standby.asking = False
        box.press("N")  # not taken: it goes to the turns as ever (no hand: out of turn)
        assert until(lambda: len(recorded) == 2)
        assert standby.pressed == ["W"]
        box.press("R")  # the referee's call has the displays, standby or not
        assert until(lambda: set(box.displays.values()) == {"----"})
        box.press("R")
        assert until(lambda: box.displays["N"] == "  A.5")
    finally:
        runner.stop()
