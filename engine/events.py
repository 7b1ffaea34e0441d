"""The events of a game record (DESIGN §3; documented in docs/record-format.md): the one
place that names them all, and reads each from its JSON line.

Each event is one JSON object on one line with ``seq``, ``t`` and ``type``. Events say
what happened at the table — a deal, a tribute, a play, a pass, a report — and nothing
that can be derived: turn order, legality, levels and scores are recomputed on replay.
They are defined by kind — the table's (``engine.table_events``), the clock's
(``engine.clock_events``), the referee's (``engine.referee_events``) — and gathered here,
so a caller names one module whatever the event.

``event_from_json`` checks shape and card names and raises ``RecordError`` for a broken
record (a tool's mistake); whether a player acted legally is the state machine's
question and never raises.

>>> event = event_from_json({"seq": 3, "t": 12.5, "type": "play", "seat": "N", "cards": ["s5", "H5"]})
>>> event
PlayCards(seq=3, t=12.5, seat='N', cards=('S5', 'H5'), reading=None, confidence=None, choices=None)
>>> event.to_json()
{'seq': 3, 't': 12.5, 'type': 'play', 'seat': 'N', 'cards': ['S5', 'H5']}
>>> event_from_json({"seq": 4, "t": 13, "type": "pass", "seat": "X"})
Traceback (most recent call last):
    ...
engine.event_base.RecordError: 'seat' must be one of E, S, W, N, got 'X'
"""

from __future__ import annotations

from typing import TypedDict, TypeVar

from engine.cards import Card, InvalidCard, parse_card, parse_cards, parse_level
from engine.clock_events import CLOCK_ACTIONS, Button, ClockAction, Overrun, Pause, Press, Resume
from engine.event_base import Event, RecordError
from engine.plays import Reading, play_type_or_none
from engine.referee_events import (
    BY_CAMERA,
    GREW,
    AlertDone,
    CameraNote,
    Correction,
    LevelAdjust,
    Missed,
    Penalty,
    Struck,
    with_corrections,
)
from engine.seats import SEATS, SIDES, Seat, Side, seat_or_none, side_or_none
from engine.table_events import (
    FORMAT,
    Deal,
    Forfeit,
    GiveBack,
    Header,
    Pass,
    PlayCards,
    Report,
    Resist,
    TimeCalled,
    Tribute,
)

__all__ = [
    "BY_CAMERA", "GREW", "CLOCK_ACTIONS", "EVENT_TYPES", "FORMAT",
    "AlertDone", "CameraNote", "Correction", "Deal", "Event", "Forfeit", "GiveBack", "Header",
    "LevelAdjust", "Missed", "Overrun", "Pass", "Pause", "Penalty", "PlayCards", "Press",
    "RecordError", "Report", "Resist", "Resume", "Struck", "TimeCalled", "Tribute",
    "event_from_json", "with_corrections",
]

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (Header, Deal, Tribute, Resist, GiveBack, PlayCards, Pass, Report, TimeCalled, Forfeit,
                Press, Overrun, Pause, Resume, Correction, Missed, LevelAdjust, Penalty, AlertDone, CameraNote)
}


T = TypeVar("T")


class _Base(TypedDict):
    """The fields every event has, read from its line."""

    seq: int
    t: float


def _seat(data: dict[str, object], key: str = "seat") -> Seat:
    value = data.get(key)
    seat = seat_or_none(value)
    if seat is None:
        raise RecordError("field_seat", key=key, got=value)
    return seat


def _side(data: dict[str, object], key: str = "side") -> Side:
    value = data.get(key)
    side = side_or_none(value)
    if side is None:
        raise RecordError("field_side", key=key, got=value)
    return side


def _card(data: dict[str, object], key: str = "card") -> Card:
    try:
        return parse_card(data.get(key))
    except InvalidCard as exc:
        raise RecordError("field_card", key=key, why=exc) from None


def _refused(exc: InvalidCard) -> RecordError:
    """A card or level refused in a record line, in the card's own words."""
    return RecordError(exc.code, **exc.values)


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError("cards_not_list", got=value)
    try:
        return parse_cards(value)
    except InvalidCard as exc:  # the card's own words
        raise _refused(exc) from None


def _choices(value: object, count: int) -> tuple[tuple[tuple[Card, float], ...], ...] | None:
    """A play's ``choices``: one list per card of ``[card, confidence]`` pairs (the card as
    recorded, then its runner-ups), or None when the line has none."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != count:
        raise RecordError("choices_count", count=count, got=value)
    out = []
    for slot in value:
        if not isinstance(slot, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], (int, float))
                and not isinstance(pair[1], bool) and 0 <= pair[1] <= 1 for pair in slot):
            raise RecordError("choices_pairs", got=slot)
        out.append(tuple((_card({"card": card}), float(conf)) for card, conf in slot))
    return tuple(out)


def _target(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError("field_target", key=key, got=value)
    return value


def _referee_act(cls: type[Event], base: _Base, data: dict[str, object]) -> Event:
    """A referee's act: who (``by``, required) and why, and what it changes."""
    by = data.get("by")
    if not isinstance(by, str) or not by:
        raise RecordError("act_by", event=cls.type)
    who = {"by": by, "why": str(data.get("why", ""))}
    if cls is Correction:
        void = data.get("void", False)
        if not isinstance(void, bool):
            raise RecordError("void_bool", got=void)
        cards = _cards(data.get("cards", []) if void else data.get("cards"))
        if void and cards:
            raise RecordError("void_cards")
        return Correction(**base, target=_target(data, "target"), cards=cards, void=void, **who)
    if cls is Missed:
        before = None if data.get("before") is None else _target(data, "before")
        if before is not None and before >= base["seq"]:
            raise RecordError("field_target", key="before", got=before)
        return Missed(**base, seat=_seat(data), cards=_cards(data.get("cards", [])), before=before, **who)
    if cls is LevelAdjust:
        side, levels = _side(data), data.get("levels")
        if isinstance(levels, bool) or not isinstance(levels, int) or not -12 <= levels <= 12 or not levels:
            raise RecordError("adjust_levels", got=levels)
        return LevelAdjust(**base, side=side, levels=levels, **who)
    if cls is Penalty:
        penalty = data.get("penalty")
        if not isinstance(penalty, str) or not penalty:
            raise RecordError("penalty_named")
        alert = data.get("alert")
        return Penalty(**base, seat=_seat(data), penalty=penalty,
                       alert=None if alert is None else _target(data, "alert"), **who)
    action = data.get("action")
    if action != "ack" and action != "dismiss":
        raise RecordError("alert_action", got=action)
    if action == "dismiss" and not who["why"]:
        raise RecordError("dismiss_why")
    return AlertDone(**base, alert=_target(data, "alert"), action=action, **who)


_REFEREE_ACTS: tuple[type[Event], ...] = (Correction, Missed, LevelAdjust, Penalty, AlertDone)
_BUTTONS: dict[str, Button] = {b: b for b in (*SEATS, "R")}
_CLOCK_ACTIONS: dict[str, ClockAction] = {a: a for a in CLOCK_ACTIONS}


def _named(names: dict[str, T], value: object) -> T | None:
    """The name ``value`` is among ``names``, typed as they are; None when it is none of them."""
    return names.get(value) if isinstance(value, str) else None


def event_from_json(data: object) -> Event:
    """Build a typed event from a decoded JSON object, or raise ``RecordError``."""
    if not isinstance(data, dict):
        raise RecordError("not_object")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError("event_type", got=kind, known=", ".join(EVENT_TYPES))
    seq, t = data.get("seq"), data.get("t")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise RecordError("field_seq", got=seq)
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise RecordError("field_t", got=t)
    base: _Base = {"seq": seq, "t": float(t)}
    if cls is Header:
        if data.get("format") != FORMAT:
            raise RecordError("record_format", got=data.get("format"), expected=FORMAT)
        levels = data.get("start_levels", {"EW": "2", "NS": "2"})
        if not isinstance(levels, dict) or set(levels) != set(SIDES):
            raise RecordError("start_levels")
        start_levels: dict[Side, str] = {}
        try:
            for key, value in levels.items():  # in the line's order, as it is written back
                side = side_or_none(key)
                if side is not None:
                    start_levels[side] = parse_level(value)
        except InvalidCard as exc:  # the level's own words
            raise _refused(exc) from None
        profile = data.get("profile")
        if not isinstance(profile, str) or not profile:
            raise RecordError("header_profile")
        players = data.get("players", {})
        if not isinstance(players, dict):
            raise RecordError("header_players")
        declarers = _side(data, "declarers") if "declarers" in data else "EW"
        heard = data.get("reports_heard", True)
        if not isinstance(heard, bool):
            raise RecordError("reports_heard")
        doubt = data.get("doubt")
        if doubt is not None and (isinstance(doubt, bool) or not isinstance(doubt, (int, float)) or not 0 < doubt <= 1):
            raise RecordError("header_doubt", got=doubt)
        return Header(**base, profile=profile, table=str(data.get("table", "")), players=players,
                      start_levels=start_levels, declarers=declarers, reports_heard=heard,
                      doubt=None if doubt is None else float(doubt))
    if cls is Deal:
        given = data.get("hands")
        hands = None
        if given is not None:
            if not isinstance(given, dict) or set(given) != set(SEATS):
                raise RecordError("deal_hands")
            hands = {s: _cards(given[s]) for s in SEATS}
        leader = _seat(data, "leader") if data.get("leader") is not None else None
        return Deal(**base, hands=hands, leader=leader)
    if cls is Tribute or cls is GiveBack:
        to = _seat(data, "to") if data.get("to") is not None else None
        seat = _seat(data)
        if to == seat:
            raise RecordError("to_own_seat", event=kind, seat=seat)
        return cls(**base, seat=seat, card=_card(data), to=to)
    if cls is Resist:
        named = data.get("seats")
        seats = tuple(seat_or_none(s) for s in named) if isinstance(named, list) else ()
        if not seats or any(s is None for s in seats):
            raise RecordError("resist_seats")
        return Resist(**base, seats=tuple(s for s in seats if s is not None))
    if cls is PlayCards:
        cards = _cards(data.get("cards"))
        if not cards:
            raise RecordError("play_no_cards")
        said, reading = data.get("reading"), None
        if said is not None:
            kind_read = play_type_or_none(said[0]) if isinstance(said, list) and len(said) == 2 else None
            if kind_read is None or not isinstance(said[1], str):
                raise RecordError("play_reading", got=said)
            reading = Reading(kind_read, said[1].upper())
        confidence = data.get("confidence")
        if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
                                       or not 0 <= confidence <= 1):
            raise RecordError("play_confidence", got=confidence)
        return PlayCards(**base, seat=_seat(data), cards=cards, reading=reading,
                         confidence=None if confidence is None else float(confidence),
                         choices=_choices(data.get("choices"), len(cards)))
    if cls is Pass:
        return Pass(**base, seat=_seat(data))
    if cls is Report:
        count = data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 27:
            raise RecordError("report_count", got=count)
        return Report(**base, seat=_seat(data), count=count)
    if cls is Forfeit:
        return Forfeit(**base, side=_side(data), reason=str(data.get("reason", "")), by=str(data.get("by", "")))
    if cls in _REFEREE_ACTS:
        return _referee_act(cls, base, data)
    if cls is Press:
        button = _named(_BUTTONS, data.get("seat"))
        if button is None:
            raise RecordError("press_seat", got=data.get("seat"))
        return Press(**base, seat=button)
    if cls is Overrun:
        action, limit, elapsed = _named(_CLOCK_ACTIONS, data.get("action")), data.get("limit"), data.get("elapsed")
        if action is None:
            raise RecordError("overrun_action", actions=", ".join(CLOCK_ACTIONS), got=data.get("action"))
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise RecordError("overrun_limit", got=limit)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or elapsed < 0:
            raise RecordError("overrun_elapsed", got=elapsed)
        return Overrun(**base, seat=_seat(data), action=action, limit=limit, elapsed=float(elapsed),
                       penalty=str(data.get("penalty", "warning")))
    if cls is CameraNote:
        code, values = data.get("code"), data.get("values", {})
        if not isinstance(code, str) or not code:
            raise RecordError("note_code")
        if not isinstance(values, dict) or not all(
                isinstance(v, (str, int, float, bool)) or v is None for v in values.values()):
            raise RecordError("note_values", got=values)
        about = _seat(data) if data.get("seat") is not None else None
        return CameraNote(**base, code=code, values=values, seat=about)
    if cls is Pause:
        return Pause(**base, reason=str(data.get("reason", "")))
    if cls is Resume:
        return Resume(**base)
    return TimeCalled(**base)
