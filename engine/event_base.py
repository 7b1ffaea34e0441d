"""What every line of a game record is: an ``Event`` with its ``seq`` and ``t``, and the
``RecordError`` a line that cannot be understood raises.

The event kinds build on this: what happened at the table (``engine.table_events``), the
table clock's (``engine.clock_events``) and the referee's (``engine.referee_events``);
``engine.events`` names them all and reads them from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import InvalidCard
from engine.coded import Coded

#: the code of an error found at a known line of a record: ``line`` and the error as ``why``
AT_LINE = "at_line"


class RecordError(Coded, ValueError):
    """A record line that cannot be understood, or an event the match cannot take: a code
    and the values its words need (``engine.coded``), since a referee whose act is refused
    and an organiser whose record is broken read why in Chinese or English; ``str`` says it
    in English. ``seq`` may name the event at fault (for the caller that knows its line);
    an error found at a known line is ``at_line``, with ``line`` (1-based) and the error
    found there as ``why``. A card named wrong in a record keeps the card's own code.

    >>> error = RecordError(AT_LINE, line=3, why=RecordError("after_end", event="play"))
    >>> str(error), error.line, str(error.without_line)
    ("line 3: 'play' after the match ended", 3, "'play' after the match ended")
    """

    ENGLISH = {
        AT_LINE: "line {line}: {why}",
        # a line's shape (``engine.events.event_from_json``, ``engine.record``)
        "not_json": "not valid JSON ({why} at column {column})",
        "not_object": "each line must be a JSON object",
        "event_type": "unknown event type {got!r} (known: {known})",
        "field_seq": "'seq' must be a whole number ≥ 0, got {got!r}",
        "field_t": "'t' must be seconds ≥ 0, got {got!r}",
        "field_seat": "{key!r} must be one of E, S, W, N, got {got!r}",
        "field_side": "{key!r} must be EW or NS, got {got!r}",
        "field_card": "{key!r}: {why}",
        "field_target": "{key!r} must be the seq of an earlier event, got {got!r}",
        "cards_not_list": "cards must be a list, got {got!r}",
        "choices_count": "'choices' must be one list per card ({count}), got {got!r}",
        "choices_pairs": "each of 'choices' lists [card, confidence] pairs, got {got!r}",
        "record_format": "unsupported record format {got!r} (expected {expected!r})",
        "start_levels": "'start_levels' must give a level for EW and NS",
        "header_profile": "'profile' must name a rule profile",
        "header_players": "'players' must map seats to names",
        "reports_heard": "'reports_heard' must be true or false",
        "header_doubt": "'doubt' must be a confidence above 0 and at most 1, got {got!r}",
        "deal_hands": "'hands' must give the cards of E, S, W and N",
        "to_own_seat": "a {event} cannot go to the seat that gives it ({seat})",
        "resist_seats": "'seats' must list the resisting seats",
        "play_no_cards": "a play needs at least one card (a pass is its own event)",
        "play_reading": "'reading' must be [type, rank], got {got!r}",
        "play_confidence": "'confidence' must be between 0 and 1, got {got!r}",
        "report_count": "'count' must be a number of cards 0-27, got {got!r}",
        "press_seat": "'seat' must be one of E, S, W, N or R (referee), got {got!r}",
        "overrun_action": "'action' must be one of {actions}, got {got!r}",
        "overrun_limit": "'limit' must be whole seconds, got {got!r}",
        "overrun_elapsed": "'elapsed' must be seconds, got {got!r}",
        "note_code": "a camera note needs its 'code'",
        "note_values": "'values' must be an object of plain values, got {got!r}",
        # a referee's act as a line (``engine.events``)
        "act_by": "a {event} must say which referee made it ('by')",
        "void_bool": "'void' must be true or false, got {got!r}",
        "void_cards": "a void correction takes the event back: it has no cards",
        "adjust_levels": "'levels' must be a non-zero whole number of levels, got {got!r}",
        "penalty_named": "'penalty' must name the penalty",
        "alert_action": "'action' must be ack or dismiss, got {got!r}",
        "dismiss_why": "dismissing an alert needs a reason ('why')",
        # the record as a whole (``engine.record``, ``engine.match``, ``engine.referee_events``)
        "record_empty": "the record is empty",
        "header_first_line": 'the first line must be the header ("type": "header")',
        "seq_order": "seq {got} does not follow {last}",
        "second_header": "a second header line",
        "after_end": "{event!r} after the match ended",
        "no_hand": "{event!r} with no hand in progress (a deal comes first)",
        "missed_after_end": "a missed play after the match ended",
        "deal_in_hand": "a deal while the previous hand is still being played",
        "missed_before": "the missed play at seq {missed} is put before event {before}, which is not a play or "
                         "pass of the record",
        **InvalidCard.ENGLISH,
    }

    def __init__(self, code: str, /, **values: object) -> None:
        seq = values.pop("seq", None)  # not one of the words' values: where the fault lies
        super().__init__(code, **values)
        self.seq = seq if isinstance(seq, int) else None

    @property
    def line(self) -> int | None:
        """The record's line (1-based) the error was found at, when known."""
        line = self.values.get("line") if self.code == AT_LINE else None
        return line if isinstance(line, int) else None

    @property
    def without_line(self) -> RecordError:
        """What was wrong, without where: for a caller whose lines are not its reader's (the
        API checks events it was sent against the stored record)."""
        why = self.values.get("why") if self.code == AT_LINE else None
        return why if isinstance(why, RecordError) else self


@dataclass(frozen=True)
class Event:
    """Fields every event has: its number in the record and seconds since the start."""

    seq: int
    t: float

    type = ""  # each subclass names its JSON type

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"seq": self.seq, "t": self.t, "type": self.type}
        out.update(self._fields())
        return out

    def _fields(self) -> dict[str, object]:
        return {}
