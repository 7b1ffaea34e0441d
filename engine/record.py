"""Game records in and out: JSON Lines text ↔ events ↔ a replayed ``Match``.

Pure functions over strings; reading and writing files is the caller's business. Every
error names the 1-based line it was found on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.event_base import AT_LINE
from engine.events import Event, Header, RecordError, event_from_json, with_corrections
from engine.match import Match
from engine.profile import Profile
from engine.violations import Violation


@dataclass(frozen=True)
class Record:
    """The events of a record and the line each came from."""

    events: list[Event]
    lines: list[int]

    @property
    def header(self) -> Header:
        header = self.events[0]
        if not isinstance(header, Header):  # parse_lines makes none so
            raise RecordError("header_first_line")
        return header


#: a derived line a scanner writes after the event that caused a violation; not an event
VIOLATION = "violation"


def violation_line(violation: Violation, t: float) -> dict:
    """The JSON of a violation line (docs/record-format.md)."""
    return {"type": VIOLATION, **violation.to_json(), "t": t}


def parse_lines(lines: Iterable[str]) -> Record:
    """Read a record; blank lines and violation lines (derived: replay finds them again) are
    skipped; the first event must be the header.

    >>> record = parse_lines([
    ...     '{"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": "jiangsu"}',
    ...     '{"seq": 1, "t": 1, "type": "deal", "leader": "E"}',
    ...     '',
    ...     '{"seq": 2, "t": 4, "type": "play", "seat": "E", "cards": ["S5", "H5"]}',
    ... ])
    >>> record.header.profile, [event.type for event in record.events], record.lines
    ('jiangsu', ['header', 'deal', 'play'], [1, 2, 4])
    >>> parse_lines(['{"seq": 0, "t": 0, "type": "deal"}'])
    Traceback (most recent call last):
        ...
    engine.event_base.RecordError: line 1: the first line must be the header ("type": "header")
    """
    events: list[Event] = []
    numbers: list[int] = []
    for number, text in enumerate(lines, start=1):
        try:
            event = read_line(text)
        except RecordError as exc:
            raise _at(exc, number) from None
        if event is None:
            continue
        if not events and not isinstance(event, Header):
            raise _at(RecordError("header_first_line"), number)
        events.append(event)
        numbers.append(number)
    if not events:
        raise RecordError("record_empty")
    return Record(events, numbers)


def read_line(text: str) -> Event | None:
    """One line of a record as ``parse_lines`` reads it, wherever it stands in the record:
    its event, or ``None`` for a line skipped. Shared with whatever reads a record's lines
    a few at a time (the web API's check of new events), so both read them alike."""
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("not_json", why=exc.msg, column=exc.colno) from None
    if isinstance(data, dict) and data.get("type") == VIOLATION:
        return None
    return event_from_json(data)


def replay(record: Record, profile_for: Callable[[str], Profile]) -> Match:
    """Rebuild the match; ``profile_for`` maps the header's profile name to a ``Profile``
    (``rulebook.profiles.load`` does). A ``RecordError`` carries the line of the event that
    broke the record.

    >>> record = parse_lines([
    ...     '{"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1", "profile": "jiangsu"}',
    ...     '{"seq": 1, "t": 1, "type": "deal", "leader": "E"}',
    ...     '{"seq": 2, "t": 4, "type": "play", "seat": "N", "cards": ["S5", "H5"]}',
    ... ])
    >>> match = replay(record, {"jiangsu": profile}.get)
    >>> match.violations
    [Violation(code='out_of_turn', seat='N', seq=2, detail={'expected': 'E'})]
    """
    line_of = {}
    last = record.header.seq
    for event, number in zip(record.events[1:], record.lines[1:], strict=True):
        if event.seq <= last:  # checked on the lines: replay takes a missed play out of line order
            raise _at(RecordError("seq_order", got=event.seq, last=last), number)
        line_of[event.seq] = number
        last = event.seq
    match = Match(profile_for(record.header.profile), record.header)
    try:
        in_place = with_corrections(record.events)[1:]
    except RecordError as exc:
        raise _at(exc, line_of.get(exc.seq) if exc.seq is not None else None) from None
    for event in in_place:
        try:
            match.push(event)
        except RecordError as exc:
            raise _at(exc, line_of[event.seq]) from None
    return match


def _at(error: RecordError, line: int | None) -> RecordError:
    """``error`` found at ``line`` of the record, where the line is known."""
    return error if line is None else RecordError(AT_LINE, line=line, why=error)


def dumps(events: Iterable[Event]) -> str:
    """The record as JSON Lines text (UTF-8, one event a line).

    >>> from engine.events import Deal, Pass
    >>> print(dumps([Deal(seq=1, t=1.0, leader="E"), Pass(seq=2, t=2.5, seat="N")]), end="")
    {"seq": 1, "t": 1.0, "type": "deal", "leader": "E"}
    {"seq": 2, "t": 2.5, "type": "pass", "seat": "N"}
    """
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in events)
