"""A tournament table's seating as the hall sends it down: which pairs sit at the table, at
which seats, and where its result stands.

One retained message a table (``tables/<table>/seating``, ``hall.draw_post``), so a node
started after the draw, or reconnecting, is told at once; the hall sends it again whenever
the table's state changes (a provisional result entered, confirmed, corrected). The North-
South pair sits at N and S, the East-West pair at E and W, as the draw says (``Table.ns``,
``Table.ew``); a result is given per side, as the table's players see it.

``Seating`` is the message, read and written here and nowhere else: the hall builds it from
the tournament (``seatings``), the node reads it (``read``) and confirms its result
(``confirmation``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.tournament import Table, Tournament
from store.tournament_store import Entry

SIDES = ("NS", "EW")
STATES = ("playing", "provisional", "final")


@dataclass(frozen=True)
class SeatedPair:
    id: str
    name: str
    number: int  # its place in the tournament's list of pairs, 1-based: what a display shows if not its id


@dataclass(frozen=True)
class SeatedResult:
    """The table's result as it counts now, per side."""

    entry: int
    winner: str | None  # NS, EW, or None for a draw
    reason: str
    levels: dict[str, str]  # side → final level as on the score sheet (A+: passed A); empty for a forfeit


@dataclass(frozen=True)
class Seating:
    event: str
    round: int
    rounds: int
    table: int
    pairs: dict[str, SeatedPair]  # side → pair
    state: str  # playing, provisional (待确认), final (已确认)
    result: SeatedResult | None = None

    @property
    def awaiting(self) -> int | None:
        """The entry the players may confirm with their seat buttons, if one is provisional."""
        return self.result.entry if self.state == "provisional" and self.result is not None else None

    def to_json(self) -> dict:
        return {"event": self.event, "round": self.round, "rounds": self.rounds, "table": self.table,
                "pairs": {s: vars(p) for s, p in self.pairs.items()}, "state": self.state,
                "result": None if self.result is None else vars(self.result)}

    def message(self) -> bytes:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True).encode()

    def confirmation(self, seats: dict[str, str]) -> dict:
        """What the node sends when a player of each side (``seats``: side → the seat that
        pressed) has confirmed the provisional result: the entry they were shown, so a result
        changed meanwhile is not confirmed in their name."""
        return {"round": self.round, "table": self.table, "entry": self.awaiting, "seats": dict(seats)}


def seatings(t: Tournament, round_no: int, latest: dict[tuple[int, int], Entry]) -> list[Seating]:
    """Every table of a round drawn (byes have no table), with the result that counts for
    it (``latest``: ``TournamentStore.latest``)."""
    numbers = pair_numbers(t)
    return [seating(t, round_no, table, latest.get((round_no, table.table)), numbers)
            for table in t.draws.get(round_no, []) if not table.is_bye]


def pair_numbers(t: Tournament) -> dict[str, int]:
    """Each pair's place in the tournament's list, 1-based (``SeatedPair.number``)."""
    return {p.id: i for i, p in enumerate(t.pairs, start=1)}


def seating(t: Tournament, round_no: int, table: Table, entry: Entry | None, numbers: dict[str, int]) -> Seating:
    """One table's seating, with ``entry`` the result that counts for it (None: playing)."""
    sides = {"NS": table.ns, "EW": table.ew}
    pairs = {s: SeatedPair(p, t.pair(p).name, numbers[p]) for s, p in sides.items()}
    result = None
    if entry is not None:
        side_of = {pair: side for side, pair in sides.items()}
        result = SeatedResult(entry.id, side_of.get(entry.outcome.winner), entry.outcome.reason,
                              {side_of[p]: lv for p, lv in entry.outcome.levels.items() if p in side_of})
    return Seating(t.name, round_no, t.rounds, table.table, pairs, "playing" if entry is None else entry.state, result)


def read(payload: bytes) -> Seating:
    """The seating in a message, or ``ValueError`` saying what is wrong with it."""
    try:
        body = json.loads(payload)
        pairs = {s: SeatedPair(str(p["id"]), str(p["name"]), _whole(p["number"])) for s, p in body["pairs"].items()}
        result = body["result"]
        if result is not None:
            result = SeatedResult(_whole(result["entry"]), result["winner"], str(result["reason"]),
                                  {str(s): str(v) for s, v in result["levels"].items()})
        seating = Seating(str(body["event"]), _whole(body["round"]), _whole(body["rounds"]), _whole(body["table"]),
                          pairs, body["state"], result)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"not a seating message ({exc.__class__.__name__}: {exc})") from None
    if set(seating.pairs) != set(SIDES) or seating.state not in STATES or (
            seating.result is not None and seating.result.winner not in (*SIDES, None)):
        raise ValueError("not a seating message (its sides, state or winner)")
    return seating


def read_confirmation(payload: bytes) -> tuple[int, int, int]:
    """(round, table, entry) of a node's confirmation, or ``ValueError``."""
    try:
        body = json.loads(payload)
        return _whole(body["round"]), _whole(body["table"]), _whole(body["entry"])
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"not a confirmation ({exc.__class__.__name__}: {exc})") from None


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a whole number: {value!r}")
    return value
