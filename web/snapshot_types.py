"""The snapshot the pages are sent, as types: what ``TableView.snapshot`` makes of a table and
``Hub.summary`` makes of it for the hall, field by field.

The pages' script (``web/static/live.js``) reads these and nothing else, so they are the
contract between the Python that builds a snapshot and the JavaScript that draws it. They are
``TypedDict``s because a snapshot is JSON: a dict built once per change and dumped as it is.
``web.snapshot_schema`` writes them out as a JSON Schema (``web/static/snapshot.schema.json``)
for those who read the stream from elsewhere; the tests hold every snapshot of a played match
to it, and every field ``live.js`` reads (``tests/web/test_snapshot_schema.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from engine.card_count import TrackerSummary
from engine.cards import Card
from engine.highlights import HighlightJson, TopJson
from engine.match import ResultJson
from engine.phases import Action, Phase
from engine.seats import Seat, Side


class JsonSchema:
    """A schema of its own for a type JSON has no words for (``Annotated`` metadata, read by
    ``web.snapshot_schema``)."""

    def __init__(self, schema: dict[str, object]) -> None:
        self.schema = schema


#: a play as the platform writes it (DESIGN §3): ``[type, rank, cards]``, the PASS triple for a pass
PlayJson = Annotated[list[object], JsonSchema({"type": "array", "prefixItems": [
    {"enum": ["Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight", "StraightFlush",
              "Bomb", "PASS"]},
    {"type": "string"},
    {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Card"}}, {"const": "PASS"}]}],
    "minItems": 3, "maxItems": 3})]


class Words(TypedDict):
    """One text in each language of the pages."""

    zh: str
    en: str


class Lines(TypedDict):
    """Lines of text in each language."""

    zh: list[str]
    en: list[str]


class SeatState(TypedDict):
    """A seat in the hand: cards left, whether it is at or below the report (报牌) count and
    owes the report, and its finishing place once out."""

    cards: int
    report: bool
    report_due: bool
    place: int | None


class TrickTurn(TypedDict):
    """What a seat did in the trick on the table (``engine.trick.Turn``): its play (None: a
    pass, or cards that are no combination), the cards laid, the record's seq."""

    seat: Seat
    play: PlayJson | None
    cards: list[Card]
    seq: int


#: a tribute (进贡): who gave which card to whom (None until the receiver is known)
TributeJson = TypedDict("TributeJson", {"from": Seat, "to": Seat | None, "card": Card})
#: a return (还贡): the receiver gives a card back to its tributer
ReturnJson = TypedDict("ReturnJson", {"from": Seat, "to": Seat, "card": Card})


class HandState(TypedDict):
    """The hand in play, or the last one once over: level, whose action and its limit (s),
    the seats, the trick on the table (the last trick once it ended: ``trick_is_last``), the
    play on top, the tribute, the card tracker (记牌), the finishing order once over;
    ``since``: when the awaited action began (epoch seconds), while one is awaited."""

    number: int
    level: str
    declarers: Side
    phase: Phase
    action: Action
    to_act: list[Seat]
    limit: int
    seats: dict[Seat, SeatState]
    trick: list[TrickTurn]
    trick_is_last: bool
    top: TopJson | None
    tribute: list[TributeJson]
    returns: list[ReturnJson]
    resisted: bool
    tracker: TrackerSummary
    outcome: list[Seat] | None
    since: NotRequired[float | None]


class Swing(TypedDict):
    """The last play's swing of each side's win chance, and who made it."""

    seq: int
    seat: Seat
    EW: float
    NS: float


class ChanceJson(TypedDict):
    """The hand's win chance (胜率, ``engine.win_chance``): each side's chance to finish first,
    to go up by each number of levels, and the last play's swing."""

    win: dict[Side, float]
    levels: dict[Side, dict[str, float]]
    decided: bool
    hand: int
    swing: Swing | None


class AlertJson(TypedDict):
    """An alert for the referee: a violation, a call, a doubtful read or the camera's note,
    with the play it is about (``seq``), its words and where it stands (``status``; who
    dealt with it, why, and the penalty given)."""

    id: int
    seq: int
    t: float
    hand: int | None
    code: str
    seat: Seat | None
    rule: str
    detail: dict[str, object]
    zh: str
    en: str
    frame: bool
    status: Literal["open", "acknowledged", "dismissed", "penalised"]
    by: NotRequired[str]
    why: NotRequired[str]
    penalty: NotRequired[str]


class LogLine(TypedDict):
    """An event of the record as the log tells it, in each language."""

    seq: int
    t: float
    type: str
    zh: list[str]
    en: list[str]


class PageHighlight(HighlightJson):
    """A highlight (``engine.highlights``) with its title and line in each language."""

    title: Words
    line: Words


class TickerJson(TypedDict):
    """A line of the commentary ticker (``rulebook.commentary``)."""

    seq: int
    t: float
    hand: int | None
    kind: str
    zh: str
    en: str


class SeatedPair(TypedDict):
    """A pair the hall's draw seats at the table."""

    id: str
    name: str
    number: int


class SeatedResult(TypedDict):
    """The table's result as it counts now, per side (``levels`` empty for a forfeit)."""

    entry: int
    winner: Side | None
    reason: str
    levels: dict[Side, str]


class SeatingJson(TypedDict):
    """A tournament table's seating as the hall sent it (``hall.seating``, kept by
    ``store.seatings``); at a table node, the sides whose seat pressed to confirm."""

    event: str
    round: int
    rounds: int
    table: int
    pairs: dict[Side, SeatedPair]
    state: Literal["playing", "provisional", "final"]
    result: SeatedResult | None
    pressed: NotRequired[dict[Side, Seat]]


class WaitingSnapshot(TypedDict):
    """A table whose record has no match yet (or breaks at its header)."""

    table: str
    id: int
    error: str | None
    error_text: Words | None
    ready: Literal[False]
    seating: SeatingJson | None


class TableSnapshot(TypedDict):
    """A table's match as the pages show it (``TableView.snapshot``)."""

    table: str
    id: int
    ready: Literal[True]
    error: str | None
    error_text: Words | None
    name: str
    profile: str
    profile_title: Words
    players: dict[str, str]
    levels: dict[Side, str]
    declarers: Side
    match_minutes: int
    started: float
    time_called: bool
    hands: int
    result: ResultJson | None
    result_text: Lines | None
    seating: SeatingJson | None
    hand: HandState | None
    chance: ChanceJson | None
    alerts: list[AlertJson]
    log: list[LogLine]
    highlights: list[PageHighlight]
    ticker: list[TickerJson]


#: what the table's stream and ``/api/tables/<table>`` send
Snapshot = WaitingSnapshot | TableSnapshot


class HallCard(TypedDict):
    """What the hall shows of a table (``Hub.summary``), read from its snapshot."""

    table: str
    id: int
    ready: bool
    name: str | None
    levels: dict[Side, str] | None
    declarers: Side | None
    hand: int | None
    level: str | None
    action: Action | None
    to_act: list[Seat] | None
    since: float | None
    limit: int | None
    cards: dict[Seat, int]
    open_alerts: int
    result: ResultJson | None
    error: str | None
    pairs: dict[Side, SeatedPair] | None


class UnknownTable(TypedDict):
    """The hall's card of a table the hub does not follow (yet)."""

    table: str
    ready: Literal[False]


#: what the hall's stream sends of each table
HallSummary = HallCard | UnknownTable
