"""The phases a hand goes through, and how it ends.

A hand after the first starts with tribute (进贡) and its return (还贡), then play; the
first hand of a match starts at play. ``Hand.phase`` holds one of these, ``Hand.awaiting``
names them to the table clock, and a hand that is over has an ``Outcome``, which the next
hand's tribute and the match's levels follow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from engine.seats import Seat, Side

#: what a hand is doing: taking tribute, its return, being played, or over
Phase = Literal["tribute", "return", "play", "over"]
#: what a hand waits for (``Hand.awaiting``): a phase, with the first lead told from a play,
#: as the table clock gives each its own time
Action = Literal["tribute", "return", "first_lead", "play", "over"]

TRIBUTE: Final = "tribute"
RETURN: Final = "return"
PLAY: Final = "play"
OVER: Final = "over"
FIRST_LEAD: Final = "first_lead"


class Awaiting(NamedTuple):
    """What a hand waits for and from whom: ``Awaiting("play", ("N",))``. The table clock
    runs on it; a tuple, so ``action, seats = hand.awaiting()`` still reads it."""

    action: Action
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Outcome:
    """How a hand ended: finishing order (上游, 二游, 三游, 下游) and who goes up."""

    order: tuple[Seat, ...]
    winner_side: Side
    partner_place: int
    #: true when both losers finished 3rd and 4th (双下): both owe tribute next hand
    double_down: bool
