"""What the seat displays show while no seat is on the clock: a tournament table's seating
before its match, and after it the result the players confirm with their seat buttons.

Four seven-segment digits a seat (docs/clock-protocol.md) cannot spell a pair's name, so a
pair shows as its id where the digits can draw it (``p3`` as ``P3``), else as its number in
the tournament; the table as ``t  7``; a final level as its rank, with J Q K as 11 12 13 (the
digits have no J, Q or K) and passed A as ``PA``. A result reads from the seat's own side:
``10.13`` at a North-South seat is North-South at 10, East-West at K (the dot lights the
colon, as on a scoreboard). The seat lamps say who is to press: blinking, a side still to
confirm; steady, a side that has pressed; off, nothing to press.

Pure values: the clock runner shows a ``Board`` (``hardware.runner``), turning its pages
every ``PAGE_S``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seats import SEATS, side_of
from hardware.protocol import display_cells

PAGE_S = 2.0
CELLS = 4
#: letters the digits can draw, whatever their case in a pair's id
_LETTERS = {"a": "A", "b": "b", "c": "C", "d": "d", "e": "E", "f": "F", "h": "H", "l": "L", "o": "o", "p": "P",
            "r": "r", "t": "t", "u": "U"}
_LEVELS = {"T": "10", "J": "11", "Q": "12", "K": "13", "A+": "PA"}


@dataclass(frozen=True)
class Board:
    """Pages of seat texts (seat → at most four digits), turned every ``PAGE_S``, and the seat
    lamps (seat → ON, OFF or BLINK)."""

    pages: tuple[dict[str, str], ...]
    lamps: dict[str, str]

    def page(self, now: float) -> dict[str, str]:
        return self.pages[int(now // PAGE_S) % len(self.pages)]


def digits(text: str) -> str | None:
    """``text`` as the digits draw it, right-aligned on the four, or None where they cannot
    (a letter they have no shape for, more than four)."""
    drawn = "".join(_LETTERS.get(ch.lower(), ch) for ch in str(text))
    cells = display_cells(drawn)
    return None if cells is None or cells == 0 else " " * (CELLS - cells) + drawn


def pair_text(pair_id: str, number: int) -> str:
    """A pair on the digits: its id where they can draw it, else its number in the tournament."""
    return digits(pair_id) or digits(str(number % 10_000)) or "----"


def table_text(number: int) -> str:
    """``t  7``, ``t 12``, ``t128``; a table past 999 by its number alone."""
    return f"t{number:3d}" if number < 1000 else f"{number % 10_000:4d}"


def level_text(level: str | None) -> str:
    """A final level on two digits at most: ``2``…``10``, ``11``-``13`` for J Q K, ``A``, ``PA``
    for passed A; ``-`` for none (a forfeit has no levels)."""
    if not level:
        return "-"
    return _LEVELS.get(level, level)


def seating_board(table: int, ns: str, ew: str) -> Board:
    """Before the match: the table's number on every seat, then each seat's own pair."""
    return Board(({s: table_text(table) for s in SEATS}, {s: ns if side_of(s) == "NS" else ew for s in SEATS}),
                 {s: "OFF" for s in SEATS})


def result_board(levels: dict[str, str], pressed: set[str] | None) -> Board:
    """A result, each seat reading its own side's level first: ``levels`` per side (NS, EW;
    ``F`` for a side that forfeited). ``pressed``: the sides that have confirmed it, or None
    for a result that is final (nothing to press)."""
    texts = {}
    for seat in SEATS:
        own, other = side_of(seat), "EW" if side_of(seat) == "NS" else "NS"
        texts[seat] = digits(f"{level_text(levels.get(own))}.{level_text(levels.get(other))}") or "----"
    lamps = {s: "OFF" if pressed is None else "ON" if side_of(s) in pressed else "BLINK" for s in SEATS}
    return Board((texts,), lamps)
