"""Seats and sides: E S W N, partners opposite, play counter-clockwise E → N → W → S.

The next player (下家) is the one on your right; seen from above with North at the top,
play runs E → N → W → S → E (RULES.md, "Table and cards").
"""

from __future__ import annotations

SEATS = ("E", "S", "W", "N")
PLAY_ORDER = ("E", "N", "W", "S")
SIDES = ("EW", "NS")

_NEXT = {s: PLAY_ORDER[(i + 1) % 4] for i, s in enumerate(PLAY_ORDER)}
_PREV = {s: PLAY_ORDER[(i - 1) % 4] for i, s in enumerate(PLAY_ORDER)}
_PARTNER = {"E": "W", "W": "E", "N": "S", "S": "N"}
_SIDE = {"E": "EW", "W": "EW", "N": "NS", "S": "NS"}


def next_seat(seat: str) -> str:
    """下家: the player after ``seat``."""
    return _NEXT[seat]


def prev_seat(seat: str) -> str:
    """上家: the player before ``seat``."""
    return _PREV[seat]


def partner(seat: str) -> str:
    """对家: the partner opposite."""
    return _PARTNER[seat]


def side_of(seat: str) -> str:
    return _SIDE[seat]


def other_side(side: str) -> str:
    return "NS" if side == "EW" else "EW"


def seats_of(side: str) -> tuple[str, str]:
    return (side[0], side[1])
