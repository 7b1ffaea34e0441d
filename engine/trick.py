"""The trick on the table (一轮): who laid what in it, and the play that stands on top.

``Hand.trick`` lists a ``Turn`` for each seat that acted in the trick, in order, and
``Hand.top`` is the ``Top`` that the next play must beat. Named tuples: a hand makes one a
play, and readers (the pages' snapshot, bots, the win chance) name the fields they read.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import Card
from engine.plays import Play
from engine.seats import Seat


class Top(NamedTuple):
    """The play that stands on the table, and the seat that laid it."""

    seat: Seat
    play: Play


class Turn(NamedTuple):
    """What one seat did in a trick: its ``play`` (None for a pass, or cards that read as no
    combination), the cards it laid (none for a pass) and the record's ``seq`` of it."""

    seat: Seat
    play: Play | None
    cards: tuple[Card, ...]
    seq: int
