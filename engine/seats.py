"""Seats and sides: E S W N, partners opposite, play counter-clockwise E → N → W → S.

The next player (下家) is the one on your right; seen from above with North at the top,
play runs E → N → W → S → E (RULES.md, "Table and cards").

A seat is its letter and a side its two (DESIGN §3), typed as ``Literal`` strings: the
type checker knows ``"X"`` is no seat, while the values stay the very strings that records,
bots and pages exchange. What comes from outside (a record line, a request) becomes a
``Seat`` through ``seat_or_none``, a look-up, never a cast.

>>> next_seat("E"), partner("E"), side_of("N"), seat_or_none("X")
('N', 'W', 'NS', None)
"""

from __future__ import annotations

from typing import Final, Literal

#: a seat: East, South, West, North
Seat = Literal["E", "S", "W", "N"]
#: a side: the partners East and West, or North and South
Side = Literal["EW", "NS"]

SEATS: Final[tuple[Seat, Seat, Seat, Seat]] = ("E", "S", "W", "N")
PLAY_ORDER: Final[tuple[Seat, Seat, Seat, Seat]] = ("E", "N", "W", "S")
SIDES: Final[tuple[Side, Side]] = ("EW", "NS")

_NEXT: dict[Seat, Seat] = {s: PLAY_ORDER[(i + 1) % 4] for i, s in enumerate(PLAY_ORDER)}
_PREV: dict[Seat, Seat] = {s: PLAY_ORDER[(i - 1) % 4] for i, s in enumerate(PLAY_ORDER)}
_PARTNER: dict[Seat, Seat] = {"E": "W", "W": "E", "N": "S", "S": "N"}
_SIDE: dict[Seat, Side] = {"E": "EW", "W": "EW", "N": "NS", "S": "NS"}
_SEATS_OF: dict[Side, tuple[Seat, Seat]] = {"EW": ("E", "W"), "NS": ("N", "S")}
_SEAT_OF: dict[str, Seat] = {s: s for s in SEATS}
_SIDE_NAMED: dict[str, Side] = {s: s for s in SIDES}


def seat_or_none(value: object) -> Seat | None:
    """``value`` as a seat, or None when it names none (a record line's field, a request's)."""
    return _SEAT_OF.get(value) if isinstance(value, str) else None


def side_or_none(value: object) -> Side | None:
    """``value`` as a side, or None when it names none."""
    return _SIDE_NAMED.get(value) if isinstance(value, str) else None


def next_seat(seat: Seat) -> Seat:
    """下家: the player after ``seat``."""
    return _NEXT[seat]


def prev_seat(seat: Seat) -> Seat:
    """上家: the player before ``seat``."""
    return _PREV[seat]


def partner(seat: Seat) -> Seat:
    """对家: the partner opposite."""
    return _PARTNER[seat]


def side_of(seat: Seat) -> Side:
    return _SIDE[seat]


def other_side(side: Side) -> Side:
    return "NS" if side == "EW" else "EW"


def seats_of(side: Side) -> tuple[Seat, Seat]:
    return _SEATS_OF[side]
