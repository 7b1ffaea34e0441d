"""Highlights (精彩瞬间): the moments of a match a broadcast shows again — a bomb and its
size, a joker bomb (天王炸), a straight flush (同花顺), a partner taking the lead for a
player who went out (接风), a hand won by a double down (双下), a tribute resisted (抗贡),
a side passing A (过A).

Derived from the replayed match, never stored (DESIGN §3: the record is the source of
truth): ``highlights(match)`` reads ``Match.history``, so a referee's correction that
changes a play changes its highlight too. A highlight is named by its ``kind`` and the
event it happened at (``seq``, ``t``); ``rulebook.commentary`` words it.

>>> from engine.events import Deal, Pass, PlayCards
>>> from engine.match import Match
>>> match = Match(profile)
>>> for event in (Deal(seq=1, t=0.0, leader="E"),
...               PlayCards(seq=2, t=4.0, seat="E", cards=("S3", "H3")),
...               PlayCards(seq=3, t=9.5, seat="N", cards=("S8", "H8", "C8", "D8", "D8"))):
...     _ = match.push(event)
>>> [(h.kind, h.seat, h.size, h.t) for h in highlights(match)]
[('bomb', 'N', 5, 9.5)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from engine.events import Deal, PlayCards, Resist
from engine.match import Entry, Match
from engine.plays import JOKER_RANK, STRAIGHT_FLUSH, Play
from engine.seats import Seat, Side, partner, side_of
from engine.trick import Top

BOMB = "bomb"
JOKER_BOMB = "joker_bomb"  # 天王炸: the four jokers
STRAIGHT_FLUSH_KIND = "straight_flush"
JIEFENG = "jiefeng"  # 接风
DOUBLE_DOWN = "double_down"  # 双下
RESIST = "resist"  # 抗贡
PASS_A = "pass_a"  # 过A
KINDS = (BOMB, JOKER_BOMB, STRAIGHT_FLUSH_KIND, JIEFENG, DOUBLE_DOWN, RESIST, PASS_A)


class TopJson(TypedDict):
    """The play on the table as JSON: who laid it and the play's ``[type, rank, cards]``."""

    seat: Seat
    play: list[object]


class HighlightJson(TypedDict):
    """A highlight as the pages and the broadcast API have it (``Highlight.to_json``)."""

    kind: str
    seq: int
    t: float
    hand: int | None
    seat: Seat | None
    side: Side | None
    seats: list[Seat]
    size: int
    play: list[object] | None
    on: TopJson | None


@dataclass(frozen=True)
class Highlight:
    """One highlight: what (``kind``), when (the event's ``seq`` and ``t``, its ``hand``)
    and who. ``seat``: the player who bombed, or who took the lead (接风); ``side``: the side
    it is for (the bomber's, the winners of a double down, the side resisting or passing A);
    ``seats``: the others concerned (the partner who went out, the two who finished last,
    the seats resisting); ``play`` and ``on``: the bomb or straight flush and the play on the
    table it beat, None on a lead."""

    kind: str
    seq: int
    t: float
    hand: int | None
    seat: Seat | None = None
    side: Side | None = None
    seats: tuple[Seat, ...] = ()
    play: Play | None = None
    on: Top | None = None

    @property
    def size(self) -> int:
        """The cards of a bomb or straight flush (4-10; the joker bomb 4); 0 otherwise."""
        return len(self.play.cards) if self.play is not None else 0

    @property
    def key(self) -> tuple[str, int]:
        """What tells one highlight from another in a match: its kind and its event."""
        return self.kind, self.seq

    def to_json(self) -> HighlightJson:
        return {"kind": self.kind, "seq": self.seq, "t": self.t, "hand": self.hand, "seat": self.seat,
                "side": self.side, "seats": list(self.seats), "size": self.size,
                "play": self.play.to_json() if self.play is not None else None,
                "on": {"seat": self.on.seat, "play": self.on.play.to_json()} if self.on is not None else None}


class _At(TypedDict):
    """When a highlight happened: its event and hand."""

    seq: int
    t: float
    hand: int | None


def highlights(match: Match) -> list[Highlight]:
    """Every highlight of ``match``, in the record's order."""
    return [h for entry in match.history[1:] for h in entry_highlights(match, entry)]


def entry_highlights(match: Match, entry: Entry) -> list[Highlight]:
    """The highlights one event of the match makes (most make none; a hand's last play may
    make a bomb, a double down and a pass of A at once)."""
    ev = entry.event
    hand = match.hands[entry.hand - 1] if entry.hand and entry.hand <= len(match.hands) else None
    at = _At(seq=ev.seq, t=ev.t, hand=entry.hand)
    out: list[Highlight] = []
    if isinstance(ev, PlayCards) and entry.reading is not None and entry.reading.is_bomb and not entry.violations:
        play = entry.reading
        kind = (STRAIGHT_FLUSH_KIND if play.type == STRAIGHT_FLUSH
                else JOKER_BOMB if play.rank == JOKER_RANK else BOMB)
        out.append(Highlight(kind, **at, seat=ev.seat, side=side_of(ev.seat), play=play, on=entry.on))
    if entry.leads is not None and entry.on is not None and entry.leads == partner(entry.on.seat):
        out.append(Highlight(JIEFENG, **at, seat=entry.leads, side=side_of(entry.leads), seats=(entry.on.seat,)))
    if hand is not None and hand.resisted and hand.tributers:
        # known hands resist at the deal; hidden ones when the table says so (a ``resist`` line)
        resisted_here = (isinstance(ev, Deal) and hand.known) or (
            isinstance(ev, Resist) and not hand.known and not entry.violations)
        if resisted_here:
            seats = tuple(hand.tributers)
            out.append(Highlight(RESIST, **at, side=side_of(seats[0]), seats=seats))
    outcome = entry.outcome
    if outcome is not None:
        if outcome.double_down:
            out.append(Highlight(DOUBLE_DOWN, **at, side=outcome.winner_side, seats=tuple(outcome.order[2:])))
        side, gained = entry.upgrade or (None, 0)
        if hand is not None and hand.level == "A" and side == hand.declarers and gained > 0:
            out.append(Highlight(PASS_A, **at, side=side, seats=tuple(s for s in outcome.order if side_of(s) == side)))
    return out
