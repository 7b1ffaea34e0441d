"""The phases a hand goes through, and how it ends.

A hand after the first starts with tribute (进贡) and its return (还贡), then play; the
first hand of a match starts at play. ``Hand.phase`` holds one of these, ``Hand.awaiting``
names them to the table clock, and a hand that is over has an ``Outcome``, which the next
hand's tribute and the match's levels follow.
"""

from __future__ import annotations

from dataclasses import dataclass

TRIBUTE, RETURN, PLAY, OVER = "tribute", "return", "play", "over"


@dataclass(frozen=True)
class Outcome:
    """How a hand ended: finishing order (上游, 二游, 三游, 下游) and who goes up."""

    order: tuple[str, ...]
    winner_side: str
    partner_place: int
    #: true when both losers finished 3rd and 4th (双下): both owe tribute next hand
    double_down: bool
