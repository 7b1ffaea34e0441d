"""A referee's lines in a record, and how replay takes them.

A referee corrects a misread play or pass (``Correction``), puts in one the camera missed
(``Missed``), moves a side's level, applies a penalty, and works through the alerts; a
camera's notes wait in the same queue (``CameraNote``). The table's own lines are never
rewritten: ``with_corrections`` gives the events as the table really went, for replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from engine.cards import Card
from engine.event_base import Event, RecordError
from engine.seats import Seat, Side
from engine.table_events import Pass, PlayCards

#: the ``by`` of a correction the table's camera made itself, reading a hand's plays again
#: together (``table.recount``), not a referee
BY_CAMERA = "camera"
#: the ``why`` of a camera's correction that takes cards a seat added to its row, before anyone
#: acted, into the play it had just recorded (a row laid one card at a time)
GREW = "grew"


@dataclass(frozen=True)
class Correction(Event):
    """A referee's correction of a misread play or pass (event ``target``): the cards that
    were really laid (none: it was a pass), or with ``void`` that it never happened at all
    (the camera made it up: cards knocked into a zone, a hand's cards shown by mistake).
    The original line stays in the record; replay uses the latest correction in its place."""

    target: int = 0
    cards: tuple[Card, ...] = ()
    by: str = ""
    why: str = ""
    void: bool = False
    type = "correction"

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {"target": self.target, "cards": list(self.cards), "by": self.by, "why": self.why}
        if self.void:
            out["void"] = True
        return out


@dataclass(frozen=True)
class Struck(Event):
    """A play or pass a correction voided, as replay takes it (``with_corrections``): kept
    in its place for the log, acting on nothing. Never a line of a record."""

    struck: PlayCards | Pass | Missed | None = None
    type = "struck"

    @property
    def seat(self) -> Seat | None:
        return self.struck.seat if self.struck is not None else None


@dataclass(frozen=True)
class Missed(Event):
    """A play or pass the camera never recorded, put in by a referee: ``seat`` laid ``cards``
    (none: it passed) just before event ``before`` (a play or pass), or, with no ``before``,
    here, after everything recorded so far. Replay takes it in its place, as if the table's
    record had held it all along; its own line stays where it was written, with who put it
    in and why (``with_corrections``). A later correction may target it by its own seq."""

    seat: Seat = "E"
    cards: tuple[Card, ...] = ()
    before: int | None = None
    by: str = ""
    why: str = ""
    type = "missed"

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "cards": list(self.cards), "by": self.by, "why": self.why}
        if self.before is not None:
            out["before"] = self.before
        return out

    def as_event(self) -> PlayCards | Pass:
        """The play or pass as the table saw it, under this line's seq."""
        if self.cards:
            return PlayCards(seq=self.seq, t=self.t, seat=self.seat, cards=self.cards)
        return Pass(seq=self.seq, t=self.t, seat=self.seat)


@dataclass(frozen=True)
class LevelAdjust(Event):
    """A referee moves a side's level (降级 / 升级 as a penalty or a correction)."""

    side: Side = "EW"
    levels: int = 0
    by: str = ""
    why: str = ""
    type = "level_adjust"

    def _fields(self) -> dict[str, object]:
        return {"side": self.side, "levels": self.levels, "by": self.by, "why": self.why}


@dataclass(frozen=True)
class Penalty(Event):
    """A referee applies a penalty to a seat, usually the one an alert proposed."""

    seat: Seat = "E"
    penalty: str = "warning"
    alert: int | None = None
    by: str = ""
    why: str = ""
    type = "penalty"

    def _fields(self) -> dict[str, object]:
        return {"seat": self.seat, "penalty": self.penalty, "alert": self.alert, "by": self.by, "why": self.why}


@dataclass(frozen=True)
class CameraNote(Event):
    """What a table's camera told its operator about a play or a zone, kept for the referee:
    ``code`` names the note (worded in each language by ``rulebook.i18n.ALERTS``), ``values``
    fill its wording, ``seat`` is the seat it is about. Acts on nothing: the referee's
    queue shows it (a card it could not read, a reading it mended), with the means to act."""

    code: str = ""
    values: dict[str, str | int | float | bool | None] = field(default_factory=dict)
    seat: Seat | None = None
    type = "camera_note"

    def _fields(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "values": dict(self.values)}
        if self.seat is not None:
            out["seat"] = self.seat
        return out


@dataclass(frozen=True)
class AlertDone(Event):
    """A referee acknowledges an alert (event ``alert``) or dismisses it with a reason."""

    alert: int = 0
    action: Literal["ack", "dismiss"] = "ack"
    by: str = ""
    why: str = ""
    type = "alert_done"

    def _fields(self) -> dict[str, object]:
        return {"alert": self.alert, "action": self.action, "by": self.by, "why": self.why}


def with_corrections(events: list[Event]) -> list[Event]:
    """The events as the table really went. A referee's ``Missed`` play or pass moves from
    its own line to just before the event it names (several before one event keep their
    order); each play or pass a referee corrected is replaced, in its place, by the latest
    correction (no cards: a pass; ``void``: a ``Struck`` event). Correction lines stay
    where they were written, so the log shows who corrected what and why. A ``Missed``
    placed before an event that is not a play or pass of the record breaks the record."""
    placed = sorted((e for e in events if isinstance(e, Missed) and e.before is not None), key=lambda e: e.seq)
    latest = {e.target: e for e in events if isinstance(e, Correction)}
    if not placed and not latest:
        return list(events)
    out = [e for e in events if not (isinstance(e, Missed) and e.before is not None)]
    for missed in placed:
        at = next((i for i, e in enumerate(out) if e.seq == missed.before
                   and isinstance(e, (PlayCards, Pass, Missed))), None)
        if at is None:
            raise RecordError("missed_before", missed=missed.seq, before=missed.before, seq=missed.seq)
        out.insert(at, missed)
    return [_as_corrected(e, latest.get(e.seq)) for e in out]


def _as_corrected(event: Event, fix: Correction | None) -> Event:
    if fix is None:
        return event
    if fix.void and isinstance(event, (PlayCards, Pass, Missed)):
        return Struck(seq=event.seq, t=event.t, struck=event)
    if isinstance(event, Missed):
        return replace(event, cards=fix.cards)
    if isinstance(event, (PlayCards, Pass)):
        if fix.cards:  # the referee's cards: no longer the camera's doubtful read
            return PlayCards(seq=event.seq, t=event.t, seat=event.seat, cards=fix.cards)
        return Pass(seq=event.seq, t=event.t, seat=event.seat)
    return event
