"""Statistics for commentators: per player and per table, across a match or many.

Derived from the replayed match, as everything else (DESIGN §3): bombs played (a straight
flush and the joker bomb are bombs, and are counted apart too), first out (上游) and the
other places, tributes paid and received (进贡), partners' leads (接风), and think time:
for each play or pass, the seconds from the event that gave the seat its turn — the
deal, the last tribute or return, the last play or pass of the hand — to it, less any
time the referee paused the clock between. A play the camera missed and a referee put in
later (``Missed``) carries the referee's time, not the player's: it is counted as a play
but not timed.

``match_stats(match)`` gives each seat's ``PlayerStats`` and the ``TableStats``; ``+``
adds two players' or two tables' (a player over a tournament's matches).

>>> from engine.events import Deal, Pass, PlayCards
>>> from engine.match import Match
>>> match = Match(profile)
>>> for event in (Deal(seq=1, t=0.0, leader="E"), PlayCards(seq=2, t=4.0, seat="E", cards=("S3", "H3")),
...               PlayCards(seq=3, t=16.0, seat="N", cards=("S8", "H8", "C8", "D8")),
...               Pass(seq=4, t=17.5, seat="W")):
...     _ = match.push(event)
>>> seats, table = match_stats(match)
>>> seats["N"].bombs, seats["N"].think_longest, seats["E"].think_average, table.bombs
(1, 12.0, 4.0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Self

from engine.events import Deal, GiveBack, Pass, Pause, PlayCards, Resist, Resume, Tribute
from engine.highlights import DOUBLE_DOWN, JIEFENG, JOKER_BOMB, RESIST, STRAIGHT_FLUSH_KIND, highlights
from engine.match import Match
from engine.seats import PLAY_ORDER, Seat

#: the events that give the next seat its turn
_TURN_STARTS = (Deal, Tribute, GiveBack, Resist, PlayCards, Pass)


@dataclass
class _Counts:
    """Counters that add up field by field."""

    if TYPE_CHECKING:  # fields of every kind of counts (declared here, they would come first)
        timed: int = 0
        think_total: float = 0.0

    def __add__(self, other: Self) -> Self:
        out = type(self)()
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name.endswith("_longest"):
                value = max(a, b)
            elif isinstance(a, list):
                value = [x + y for x, y in zip(a, b, strict=True)]
            else:
                value = a + b
            setattr(out, f.name, value)
        return out

    @property
    def think_average(self) -> float | None:
        """Seconds a play or pass took on average; None with none timed."""
        return round(self.think_total / self.timed, 1) if self.timed else None

    def to_json(self) -> dict[str, object]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["think_total"] = round(self.think_total, 1)
        out["think_average"] = self.think_average
        return out


@dataclass
class PlayerStats(_Counts):
    """One player's (one seat's, in a match) figures."""

    matches: int = 0
    hands: int = 0  # hands finished
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # 上游, 二游, 三游, 下游
    plays: int = 0
    passes: int = 0
    bombs: int = 0  # every bomb: straight flushes and the joker bomb too
    straight_flushes: int = 0
    joker_bombs: int = 0
    tributes_paid: int = 0
    tributes_received: int = 0
    jiefeng: int = 0  # leads taken for a partner who went out
    timed: int = 0  # plays and passes timed
    think_total: float = 0.0
    think_longest: float = 0.0

    @property
    def first_out(self) -> int:
        return self.places[0]

    @property
    def first_out_rate(self) -> float | None:
        """Hands finished first (上游) of hands finished; None before any."""
        return round(self.places[0] / self.hands, 3) if self.hands else None

    def to_json(self) -> dict[str, object]:
        return super().to_json() | {"first_out": self.first_out, "first_out_rate": self.first_out_rate}


@dataclass
class TableStats(_Counts):
    """A table's (a match's, or many added up) figures."""

    matches: int = 0
    hands: int = 0
    bombs: int = 0
    straight_flushes: int = 0
    joker_bombs: int = 0
    double_downs: int = 0
    resists: int = 0
    jiefeng: int = 0
    tributes: int = 0
    timed: int = 0
    think_total: float = 0.0
    think_longest: float = 0.0
    seconds: float = 0.0  # from the record's start to its last event


def think_times(match: Match) -> list[tuple[Seat, float, int]]:
    """Each timed play or pass as (seat, seconds, seq), in the record's order."""
    out: list[tuple[Seat, float, int]] = []
    turn_from: float | None = None
    paused_at: float | None = None
    paused = 0.0
    for entry in match.history[1:]:
        ev = entry.event
        if isinstance(ev, Pause):
            paused_at = ev.t if paused_at is None else paused_at
        elif isinstance(ev, Resume) and paused_at is not None:
            paused += max(0.0, ev.t - paused_at)
            paused_at = None
        if not isinstance(ev, _TURN_STARTS) or entry.missed is not None:
            continue
        if isinstance(ev, (PlayCards, Pass)) and turn_from is not None:
            out.append((ev.seat, round(max(0.0, ev.t - turn_from - paused), 3), ev.seq))
        turn_from, paused = ev.t, 0.0
        if paused_at is not None:  # paused still: the pause goes on from here
            paused_at = ev.t
    return out


def match_stats(match: Match) -> tuple[dict[Seat, PlayerStats], TableStats]:
    """Each seat's figures and the table's, for one match."""
    seats: dict[Seat, PlayerStats] = {s: PlayerStats(matches=1) for s in PLAY_ORDER}
    table = TableStats(matches=1)
    for hand in match.hands:
        if hand.outcome is not None:
            table.hands += 1
            for place, seat in enumerate(hand.outcome.order):
                seats[seat].hands += 1
                seats[seat].places[place] += 1
        for giver in hand.tributes:
            seats[giver].tributes_paid += 1
            table.tributes += 1
            if giver in hand.receivers:
                seats[hand.receivers[giver]].tributes_received += 1
    for entry in match.history[1:]:
        ev = entry.event
        if isinstance(ev, PlayCards):
            seats[ev.seat].plays += 1
        elif isinstance(ev, Pass):
            seats[ev.seat].passes += 1
    for h in highlights(match):
        if h.play is not None and h.seat is not None:
            for who in (seats[h.seat], table):
                who.bombs += 1
                who.straight_flushes += h.kind == STRAIGHT_FLUSH_KIND
                who.joker_bombs += h.kind == JOKER_BOMB
        elif h.kind == JIEFENG and h.seat is not None:
            seats[h.seat].jiefeng += 1
            table.jiefeng += 1
        table.double_downs += h.kind == DOUBLE_DOWN
        table.resists += h.kind == RESIST
    for seat, seconds, _ in think_times(match):
        for who in (seats[seat], table):
            who.timed += 1
            who.think_total += seconds
            who.think_longest = max(who.think_longest, seconds)
    table.seconds = match.history[-1].event.t if len(match.history) > 1 else 0.0
    return seats, table
