"""The events of a game record (DESIGN §3; documented in docs/record-format.md).

Each event is one JSON object on one line with ``seq``, ``t`` and ``type``. Events say
what happened at the table — a deal, a tribute, a play, a pass, a report — and nothing
that can be derived: turn order, legality, levels and scores are recomputed on replay.

``Event.from_json`` checks shape and card names and raises ``RecordError`` for a broken
record (a tool's mistake); whether a player acted legally is the state machine's
question and never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import InvalidCard, parse_card, parse_cards, parse_level
from engine.plays import TYPES
from engine.seats import SEATS, SIDES

FORMAT = "guandan-record/1"


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


@dataclass(frozen=True)
class Header(Event):
    """First line: format version, rule profile, and who sits where."""

    profile: str = "jiangsu"
    table: str = ""
    players: dict = field(default_factory=dict)
    start_levels: dict = field(default_factory=lambda: {"EW": "2", "NS": "2"})
    #: whose level the first hand is played at (matters only when start levels differ,
    #: as when a match is resumed from a paper score sheet)
    declarers: str = "EW"
    #: whether the record can hold the players' spoken card counts (报牌): a camera table
    #: cannot hear them, so there a report not in the record is not a missed report
    reports_heard: bool = True
    type = "header"

    def _fields(self) -> dict:
        fields = {"format": FORMAT, "profile": self.profile, "table": self.table,
                  "players": dict(self.players), "start_levels": dict(self.start_levels),
                  "declarers": self.declarers}
        if not self.reports_heard:
            fields["reports_heard"] = False
        return fields


@dataclass(frozen=True)
class Deal(Event):
    """A hand is dealt. ``hands`` when known (bots, online play); ``None`` at a camera
    table, where hands are hidden. ``leader``: who leads the first hand (the holder of
    the turned card); later hands' leaders follow from the tribute."""

    hands: dict | None = None
    leader: str | None = None
    type = "deal"

    def _fields(self) -> dict:
        out: dict = {}
        if self.hands is not None:
            out["hands"] = {s: list(self.hands[s]) for s in SEATS}
        if self.leader is not None:
            out["leader"] = self.leader
        return out


@dataclass(frozen=True)
class _Handover(Event):
    """One card passed between two seats after the deal: ``seat`` gives ``card``; ``to``
    when the record knows the receiver. Tribute and its return are written alike."""

    seat: str = "E"
    card: str = ""
    to: str | None = None

    def _fields(self) -> dict:
        out = {"seat": self.seat, "card": self.card}
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

    seats: tuple[str, ...] = ()
    type = "resist"

    def _fields(self) -> dict:
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
    before a referee instead of being trusted silently."""

    seat: str = "E"
    cards: tuple[str, ...] = ()
    reading: tuple[str, str] | None = None
    confidence: float | None = None
    type = "play"

    def _fields(self) -> dict:
        out: dict = {"seat": self.seat, "cards": list(self.cards)}
        if self.reading is not None:
            out["reading"] = list(self.reading)
        if self.confidence is not None:
            out["confidence"] = self.confidence
        return out


@dataclass(frozen=True)
class Pass(Event):
    """过 / 不要: the seat passes (taps the table or presses its button)."""

    seat: str = "E"
    type = "pass"

    def _fields(self) -> dict:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Report(Event):
    """报牌: the seat says how many cards it holds."""

    seat: str = "E"
    count: int = 0
    type = "report"

    def _fields(self) -> dict:
        return {"seat": self.seat, "count": self.count}


@dataclass(frozen=True)
class TimeCalled(Event):
    """The referee calls time on the match (比赛时间到)."""

    type = "time_called"


@dataclass(frozen=True)
class Forfeit(Event):
    """A side forfeits the match (弃权), e.g. a no-show or a match-loss penalty."""

    side: str = "EW"
    reason: str = ""
    by: str = ""
    type = "forfeit"

    def _fields(self) -> dict:
        return {"side": self.side, "reason": self.reason, "by": self.by}


#: the ``by`` of a correction the table's camera made itself, reading a hand's plays again
#: together (``vision.recount``), not a referee
BY_CAMERA = "camera"


@dataclass(frozen=True)
class Correction(Event):
    """A referee's correction of a misread play or pass (event ``target``): the cards that
    were really laid (none: it was a pass), or with ``void`` that it never happened at all
    (the camera made it up: cards knocked into a zone, a hand's cards shown by mistake).
    The original line stays in the record; replay uses the latest correction in its place."""

    target: int = 0
    cards: tuple[str, ...] = ()
    by: str = ""
    why: str = ""
    void: bool = False
    type = "correction"

    def _fields(self) -> dict:
        out = {"target": self.target, "cards": list(self.cards), "by": self.by, "why": self.why}
        if self.void:
            out["void"] = True
        return out


@dataclass(frozen=True)
class Struck(Event):
    """A play or pass a correction voided, as replay takes it (``with_corrections``): kept
    in its place for the log, acting on nothing. Never a line of a record."""

    struck: Event | None = None
    type = "struck"

    @property
    def seat(self) -> str:
        return self.struck.seat


@dataclass(frozen=True)
class Missed(Event):
    """A play or pass the camera never recorded, put in by a referee: ``seat`` laid ``cards``
    (none: it passed) just before event ``before`` (a play or pass), or, with no ``before``,
    here, after everything recorded so far. Replay takes it in its place, as if the table's
    record had held it all along; its own line stays where it was written, with who put it
    in and why (``with_corrections``). A later correction may target it by its own seq."""

    seat: str = "E"
    cards: tuple[str, ...] = ()
    before: int | None = None
    by: str = ""
    why: str = ""
    type = "missed"

    def _fields(self) -> dict:
        out: dict = {"seat": self.seat, "cards": list(self.cards), "by": self.by, "why": self.why}
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

    side: str = "EW"
    levels: int = 0
    by: str = ""
    why: str = ""
    type = "level_adjust"

    def _fields(self) -> dict:
        return {"side": self.side, "levels": self.levels, "by": self.by, "why": self.why}


@dataclass(frozen=True)
class Penalty(Event):
    """A referee applies a penalty to a seat, usually the one an alert proposed."""

    seat: str = "E"
    penalty: str = "warning"
    alert: int | None = None
    by: str = ""
    why: str = ""
    type = "penalty"

    def _fields(self) -> dict:
        return {"seat": self.seat, "penalty": self.penalty, "alert": self.alert, "by": self.by, "why": self.why}


@dataclass(frozen=True)
class CameraNote(Event):
    """What a table's camera told its operator about a play or a zone, kept for the referee:
    ``code`` names the note (worded in each language by ``scorer.i18n.ALERTS``), ``values``
    fill its wording, ``seat`` is the seat it is about. Acts on nothing: the referee's
    queue shows it (a card it could not read, a reading it mended), with the means to act."""

    code: str = ""
    values: dict = field(default_factory=dict)
    seat: str | None = None
    type = "camera_note"

    def _fields(self) -> dict:
        out: dict = {"code": self.code, "values": dict(self.values)}
        if self.seat is not None:
            out["seat"] = self.seat
        return out


@dataclass(frozen=True)
class AlertDone(Event):
    """A referee acknowledges an alert (event ``alert``) or dismisses it with a reason."""

    alert: int = 0
    action: str = "ack"
    by: str = ""
    why: str = ""
    type = "alert_done"

    def _fields(self) -> dict:
        return {"alert": self.alert, "action": self.action, "by": self.by, "why": self.why}


@dataclass(frozen=True)
class Press(Event):
    """A button on the table clock: a seat's (E S W N) or the referee call button (R).
    What a press means — end of turn, out of turn, a call — is derived on replay."""

    seat: str = "E"
    type = "press"

    def _fields(self) -> dict:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Overrun(Event):
    """The clock saw ``seat`` run past its limit for ``action`` (读秒 overrun), and the
    profile's escalation made it ``penalty`` (the referee confirms or dismisses it)."""

    seat: str = "E"
    action: str = "play"
    limit: int = 0
    elapsed: float = 0.0
    penalty: str = "warning"
    type = "clock_overrun"

    def _fields(self) -> dict:
        return {"seat": self.seat, "action": self.action, "limit": self.limit,
                "elapsed": self.elapsed, "penalty": self.penalty}


@dataclass(frozen=True)
class Pause(Event):
    """The referee stops the clock."""

    reason: str = ""
    type = "pause"

    def _fields(self) -> dict:
        return {"reason": self.reason}


@dataclass(frozen=True)
class Resume(Event):
    """The referee restarts the clock."""

    type = "resume"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (Header, Deal, Tribute, Resist, GiveBack, PlayCards, Pass, Report, TimeCalled, Forfeit,
                Press, Overrun, Pause, Resume, Correction, Missed, LevelAdjust, Penalty, AlertDone, CameraNote)
}
CLOCK_ACTIONS = ("tribute", "return", "first_lead", "play")


def _seat(data: dict, key: str = "seat") -> str:
    value = data.get(key)
    if value not in SEATS:
        raise RecordError(f"{key!r} must be one of E, S, W, N, got {value!r}")
    return value


def _card(data: dict, key: str = "card") -> str:
    try:
        return parse_card(data.get(key))
    except InvalidCard as exc:
        raise RecordError(f"{key!r}: {exc}") from None


def _cards(value) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RecordError(f"cards must be a list, got {value!r}")
    try:
        return parse_cards(value)
    except InvalidCard as exc:
        raise RecordError(str(exc)) from None


def _target(data: dict, key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"{key!r} must be the seq of an earlier event, got {value!r}")
    return value


def _referee_act(cls, base: dict, data: dict) -> Event:
    """A referee's act: who (``by``, required) and why, and what it changes."""
    by = data.get("by")
    if not isinstance(by, str) or not by:
        raise RecordError(f"a {cls.type} must say which referee made it ('by')")
    who = {"by": by, "why": str(data.get("why", ""))}
    if cls is Correction:
        void = data.get("void", False)
        if not isinstance(void, bool):
            raise RecordError(f"'void' must be true or false, got {void!r}")
        cards = _cards(data.get("cards", []) if void else data.get("cards"))
        if void and cards:
            raise RecordError("a void correction takes the event back: it has no cards")
        return Correction(**base, target=_target(data, "target"), cards=cards, void=void, **who)
    if cls is Missed:
        before = data.get("before")
        if before is not None and (_target(data, "before") >= base["seq"]):
            raise RecordError(f"'before' must be the seq of an earlier event, got {before!r}")
        return Missed(**base, seat=_seat(data), cards=_cards(data.get("cards", [])), before=before, **who)
    if cls is LevelAdjust:
        side, levels = data.get("side"), data.get("levels")
        if side not in SIDES:
            raise RecordError(f"'side' must be EW or NS, got {side!r}")
        if isinstance(levels, bool) or not isinstance(levels, int) or not -12 <= levels <= 12 or not levels:
            raise RecordError(f"'levels' must be a non-zero whole number of levels, got {levels!r}")
        return LevelAdjust(**base, side=side, levels=levels, **who)
    if cls is Penalty:
        penalty = data.get("penalty")
        if not isinstance(penalty, str) or not penalty:
            raise RecordError("'penalty' must name the penalty")
        alert = data.get("alert")
        return Penalty(**base, seat=_seat(data), penalty=penalty,
                       alert=None if alert is None else _target(data, "alert"), **who)
    action = data.get("action")
    if action not in ("ack", "dismiss"):
        raise RecordError(f"'action' must be ack or dismiss, got {action!r}")
    if action == "dismiss" and not who["why"]:
        raise RecordError("dismissing an alert needs a reason ('why')")
    return AlertDone(**base, alert=_target(data, "alert"), action=action, **who)


def event_from_json(data: object) -> Event:
    """Build a typed event from a decoded JSON object, or raise ``RecordError``."""
    if not isinstance(data, dict):
        raise RecordError("each line must be a JSON object")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise RecordError(f"unknown event type {kind!r} (known: {', '.join(EVENT_TYPES)})")
    seq, t = data.get("seq"), data.get("t")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise RecordError(f"'seq' must be a whole number ≥ 0, got {seq!r}")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise RecordError(f"'t' must be seconds ≥ 0, got {t!r}")
    base = {"seq": seq, "t": float(t)}
    if cls is Header:
        if data.get("format") != FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r} (expected {FORMAT!r})")
        levels = data.get("start_levels", {"EW": "2", "NS": "2"})
        if not isinstance(levels, dict) or set(levels) != set(SIDES):
            raise RecordError("'start_levels' must give a level for EW and NS")
        try:
            levels = {s: parse_level(v) for s, v in levels.items()}
        except InvalidCard as exc:
            raise RecordError(str(exc)) from None
        profile = data.get("profile")
        if not isinstance(profile, str) or not profile:
            raise RecordError("'profile' must name a rule profile")
        players = data.get("players", {})
        if not isinstance(players, dict):
            raise RecordError("'players' must map seats to names")
        declarers = data.get("declarers", "EW")
        if declarers not in SIDES:
            raise RecordError(f"'declarers' must be EW or NS, got {declarers!r}")
        heard = data.get("reports_heard", True)
        if not isinstance(heard, bool):
            raise RecordError("'reports_heard' must be true or false")
        return Header(**base, profile=profile, table=str(data.get("table", "")),
                      players=players, start_levels=levels, declarers=declarers, reports_heard=heard)
    if cls is Deal:
        hands = data.get("hands")
        if hands is not None:
            if not isinstance(hands, dict) or set(hands) != set(SEATS):
                raise RecordError("'hands' must give the cards of E, S, W and N")
            hands = {s: _cards(hands[s]) for s in SEATS}
        leader = data.get("leader")
        if leader is not None:
            leader = _seat(data, "leader")
        return Deal(**base, hands=hands, leader=leader)
    if cls in (Tribute, GiveBack):
        to = _seat(data, "to") if data.get("to") is not None else None
        seat = _seat(data)
        if to == seat:
            raise RecordError(f"a {kind} cannot go to the seat that gives it ({seat})")
        return cls(**base, seat=seat, card=_card(data), to=to)
    if cls is Resist:
        seats = data.get("seats")
        if not isinstance(seats, list) or not seats or any(s not in SEATS for s in seats):
            raise RecordError("'seats' must list the resisting seats")
        return Resist(**base, seats=tuple(seats))
    if cls is PlayCards:
        cards = _cards(data.get("cards"))
        if not cards:
            raise RecordError("a play needs at least one card (a pass is its own event)")
        reading = data.get("reading")
        if reading is not None:
            if (not isinstance(reading, list) or len(reading) != 2 or reading[0] not in TYPES
                    or not isinstance(reading[1], str)):
                raise RecordError(f"'reading' must be [type, rank], got {reading!r}")
            reading = (reading[0], reading[1].upper())
        confidence = data.get("confidence")
        if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
                                       or not 0 <= confidence <= 1):
            raise RecordError(f"'confidence' must be between 0 and 1, got {confidence!r}")
        return PlayCards(**base, seat=_seat(data), cards=cards, reading=reading,
                         confidence=None if confidence is None else float(confidence))
    if cls is Pass:
        return Pass(**base, seat=_seat(data))
    if cls is Report:
        count = data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 27:
            raise RecordError(f"'count' must be a number of cards 0-27, got {count!r}")
        return Report(**base, seat=_seat(data), count=count)
    if cls is Forfeit:
        side = data.get("side")
        if side not in SIDES:
            raise RecordError(f"'side' must be EW or NS, got {side!r}")
        return Forfeit(**base, side=side, reason=str(data.get("reason", "")), by=str(data.get("by", "")))
    if cls in (Correction, Missed, LevelAdjust, Penalty, AlertDone):
        return _referee_act(cls, base, data)
    if cls is Press:
        seat = data.get("seat")
        if seat not in SEATS + ("R",):
            raise RecordError(f"'seat' must be one of E, S, W, N or R (referee), got {seat!r}")
        return Press(**base, seat=seat)
    if cls is Overrun:
        action, limit, elapsed = data.get("action"), data.get("limit"), data.get("elapsed")
        if action not in CLOCK_ACTIONS:
            raise RecordError(f"'action' must be one of {', '.join(CLOCK_ACTIONS)}, got {action!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise RecordError(f"'limit' must be whole seconds, got {limit!r}")
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or elapsed < 0:
            raise RecordError(f"'elapsed' must be seconds, got {elapsed!r}")
        return Overrun(**base, seat=_seat(data), action=action, limit=limit, elapsed=float(elapsed),
                       penalty=str(data.get("penalty", "warning")))
    if cls is CameraNote:
        code, values, seat = data.get("code"), data.get("values", {}), data.get("seat")
        if not isinstance(code, str) or not code:
            raise RecordError("a camera note needs its 'code'")
        if not isinstance(values, dict) or not all(
                isinstance(v, (str, int, float, bool)) or v is None for v in values.values()):
            raise RecordError(f"'values' must be an object of plain values, got {values!r}")
        if seat is not None and seat not in SEATS:
            raise RecordError(f"'seat' must be one of E, S, W, N, got {seat!r}")
        return CameraNote(**base, code=code, values=values, seat=seat)
    if cls is Pause:
        return Pause(**base, reason=str(data.get("reason", "")))
    if cls is Resume:
        return Resume(**base)
    return TimeCalled(**base)


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
            raise RecordError(f"the missed play at seq {missed.seq} is put before event {missed.before}, "
                              "which is not a play or pass of the record", seq=missed.seq)
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
