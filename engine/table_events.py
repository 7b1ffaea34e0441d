"""The events of what happened at the table: the header, a deal, tribute and its return,
plays, passes, reports, time called and a forfeit (docs/record-format.md).

They say what happened and nothing that can be derived: turn order, legality, levels and
scores are recomputed on replay (``engine.match``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.event_base import Event
from engine.plays import Reading
from engine.seats import SEATS, Seat, Side

#: the version a record's header names (docs/record-format.md)
FORMAT = "guandan-record/1"


@dataclass(frozen=True)
class Header(Event):
    """First line: format version, rule profile, and who sits where."""

    profile: str = "jiangsu"
    table: str = ""
    players: dict[str, str] = field(default_factory=dict)
    start_levels: dict[Side, str] = field(default_factory=lambda: {"EW": "2", "NS": "2"})
    #: whose level the first hand is played at (matters only when start levels differ,
    #: as when a match is resumed from a paper score sheet)
    declarers: Side = "EW"
    #: whether the record can hold the players' spoken card counts (报牌): a camera table
    #: cannot hear them, so there a report not in the record is not a missed report
    reports_heard: bool = True
    #: a camera table's plays read below this confidence go to the referee: what its camera
    #: measured for the deck it was taught (``vision.enroll.doubt``); None, the console's own
    doubt: float | None = None
    type = "header"

    def _fields(self) -> dict[str, object]:
        fields: dict[str, object] = {"format": FORMAT, "profile": self.profile, "table": self.table,
                  "players": dict(self.players), "start_levels": dict(self.start_levels),
                  "declarers": self.declarers}
        if not self.reports_heard:
            fields["reports_heard"] = False
        if self.doubt is not None:
            fields["doubt"] = self.doubt
        return fields


@dataclass(frozen=True)
class Deal(Event):
    """A hand is dealt. ``hands`` when known (bots, online play); ``None`` at a camera
    table, where hands are hidden. ``leader``: who leads the first hand (the holder of
    the turned card); later hands' leaders follow from the tribute."""

    hands: dict[Seat, tuple[Card, ...]] | None = None
    leader: Seat | None = None
    type = "deal"

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.hands is not None:
            out["hands"] = {s: list(self.hands[s]) for s in SEATS}
        if self.leader is not None:
            out["leader"] = self.leader
        return out


@dataclass(frozen=True)
class _Handover(Event):
    """One card passed between two seats after the deal: ``seat`` gives ``card``; ``to``
    when the record knows the receiver. Tribute and its return are written alike."""

    seat: Seat = "E"
    card: Card = Card("")
    to: Seat | None = None

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "card": self.card}
        if self.to is not None:
            out["to"] = self.to
        return out


@dataclass(frozen=True)
class Tribute(_Handover):
    """进贡: ``seat`` gives ``card``; ``to`` when the record knows the receiver."""

    type = "tribute"


@dataclass(frozen=True)
class Resist(Event):
    """抗贡: the player(s) owing tribute show both big jokers and pay none."""

    seats: tuple[Seat, ...] = ()
    type = "resist"

    def _fields(self) -> dict[str, object]:
        return {"seats": list(self.seats)}


@dataclass(frozen=True)
class GiveBack(_Handover):
    """还贡: a receiver of tribute gives one card back."""

    type = "return"


@dataclass(frozen=True)
class PlayCards(Event):
    """A play laid on the table; ``cards`` in the order laid (left to right as the player
    sees them). ``reading`` is ``[type, rank]`` when declared or read from the layout.
    ``confidence`` (0–1) is the camera's, when a camera read the cards: a low one is put
    before a referee instead of being trusted silently. ``choices``, when a camera read
    them: for each card, what the reader made of it — the card as recorded and its
    runner-ups, each ``(card, confidence)`` — so a referee can settle a doubtful read by
    picking another, without walking to the table."""

    seat: Seat = "E"
    cards: tuple[Card, ...] = ()
    reading: Reading | None = None
    confidence: float | None = None
    choices: tuple[tuple[tuple[Card, float], ...], ...] | None = None
    type = "play"

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "cards": list(self.cards)}
        if self.reading is not None:
            out["reading"] = list(self.reading)
        if self.confidence is not None:
            out["confidence"] = self.confidence
        if self.choices is not None:
            out["choices"] = [[[card, conf] for card, conf in slot] for slot in self.choices]
        return out


@dataclass(frozen=True)
class Pass(Event):
    """过 / 不要: the seat passes (taps the table or presses its button)."""

    seat: Seat = "E"
    type = "pass"

    def _fields(self) -> dict[str, object]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Report(Event):
    """报牌: the seat says how many cards it holds."""

    seat: Seat = "E"
    count: int = 0
    type = "report"

    def _fields(self) -> dict[str, object]:
        return {"seat": self.seat, "count": self.count}


@dataclass(frozen=True)
class TimeCalled(Event):
    """The referee calls time on the match (比赛时间到)."""

    type = "time_called"


@dataclass(frozen=True)
class Forfeit(Event):
    """A side forfeits the match (弃权), e.g. a no-show or a match-loss penalty."""

    side: Side = "EW"
    reason: str = ""
    by: str = ""
    type = "forfeit"

    def _fields(self) -> dict[str, object]:
        return {"side": self.side, "reason": self.reason, "by": self.by}
