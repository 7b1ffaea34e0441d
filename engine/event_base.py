"""What every line of a game record is: an ``Event`` with its ``seq`` and ``t``, and the
``RecordError`` a line that cannot be understood raises.

The event kinds build on this: what happened at the table (``engine.table_events``), the
table clock's (``engine.clock_events``) and the referee's (``engine.referee_events``);
``engine.events`` names them all and reads them from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass


class RecordError(ValueError):
    """A record line that cannot be understood; ``line`` is 1-based when known, else
    ``seq`` may name the event at fault (for the caller that knows its line)."""

    def __init__(self, message: str, line: int | None = None, seq: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message
        self.seq = seq


@dataclass(frozen=True)
class Event:
    """Fields every event has: its number in the record and seconds since the start."""

    seq: int
    t: float

    type = ""  # each subclass names its JSON type

    def to_json(self) -> dict:
        out: dict = {"seq": self.seq, "t": self.t, "type": self.type}
        out.update(self._fields())
        return out

    def _fields(self) -> dict:
        return {}
