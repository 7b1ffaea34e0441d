"""A tournament table's node and its seating: the pairs the hall drew at the table shown on
the table's pages and its clock's displays, and a result the hall entered as provisional
(待确认) confirmed by the players' seat buttons.

The hall sends the seating down retained (``hall.seating``, ``hall.draw_post``); the node
hands it here (``take``). It is kept in the table's store (``store.seatings``) for the pages,
and is the clock's standby (``hardware.runner.Standby``): while no seat is on the clock the
displays show the table and the pairs, or the result to confirm with the lamps blinking at
the seats still to press (``hardware.board``). A press by a player of each side — any seat
of it, once — confirms: the node sends the entry the players were shown up to the hall
(``Node.confirm``), which confirms it through the tournament desk and sends the seating
back final (已确认). One side alone confirms nothing; a result corrected meanwhile (a new
entry) starts the count again. While no result awaits confirmation a press is not taken
here and does what it always does.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable

from engine.seats import SEATS, side_of
from hall.seating import SIDES, Seating, read
from hardware.board import Board, pair_text, result_board, seating_board
from store import seatings
from store.event_store import Store

log = logging.getLogger("guandan.hall.seating")


class TableSeating:
    """One table's seating at its node. ``send`` (the node's ``confirm``) takes the players'
    confirmation up to the hall."""

    def __init__(self, store: Store, table: str) -> None:
        self.store = store
        self.table = table
        self.send: Callable[[str, dict], None] | None = None
        self._lock = threading.Lock()  # the node's thread hands seatings in, the clock's presses
        self._seating: Seating | None = None
        self._pressed: dict[str, str] = {}  # side → the seat that pressed, for the entry awaiting
        self._sent: int | None = None  # the entry whose confirmation went up
        kept = seatings.read(store).get(table)
        try:  # a restarted node shows what it had, presses included, until the hall says it again
            self._seating = read(json.dumps(kept).encode()) if kept is not None else None
            self._pressed = {side: seat for side, seat in (kept or {}).get("pressed", {}).items() if side in SIDES}
        except (ValueError, AttributeError) as exc:
            log.warning("table %s: the seating kept in its store is not read (%s)", table, exc)

    @property
    def seating(self) -> Seating | None:
        return self._seating

    def take(self, table: str, payload: bytes) -> None:
        """The hall's seating for ``table`` (an empty message: none any more)."""
        if table != self.table:
            raise ValueError(f"the seating of table {self.table} was handed one for table {table}")
        try:
            seating = read(payload) if payload else None
        except ValueError as exc:
            log.warning("table %s: ignored the hall's seating (%s)", table, exc)
            return
        with self._lock:
            before = self._seating
            if seating is None or before is None or seating.awaiting != before.awaiting:
                self._pressed = {}
            self._seating = seating
            self._save()
        if seating is not None:
            ns, ew = seating.pairs["NS"], seating.pairs["EW"]
            log.info("table %s: round %d, table %d, %s %s v %s %s (%s)", table, seating.round, seating.table,
                     ns.id, ns.name, ew.id, ew.name, seating.state)

    def press(self, seat: str) -> bool:
        """A seat's press (``Standby.press``): taken while a result awaits confirmation; the
        second side's first press sends the confirmation up."""
        with self._lock:
            seating = self._seating
            if seating is None or seating.awaiting is None or seat not in SEATS:
                return False
            side = side_of(seat)
            if side not in self._pressed:
                self._pressed[side] = seat
                self._save()
            ready = len(self._pressed) == len(SIDES) and self._sent != seating.awaiting
            if ready:
                self._sent = seating.awaiting
                body = seating.confirmation(self._pressed)
        if ready and self.send is not None:
            self.send(self.table, body)
            log.info("table %s: result %d confirmed at the table by %s; sent to the hall", self.table,
                     body["entry"], " and ".join(body["seats"].values()))
        return True

    def board(self) -> Board | None:
        """What the displays show (``Standby.board``): the seating, or the result."""
        with self._lock:
            seating, pressed = self._seating, set(self._pressed)
        if seating is None:
            return None
        result = seating.result
        if result is None:
            return seating_board(seating.table, *(pair_text(seating.pairs[s].id, seating.pairs[s].number)
                                                   for s in ("NS", "EW")))
        levels = result.levels or {s: "F" for s in SIDES if s != result.winner}  # a forfeit: no levels
        return result_board(levels, pressed if seating.awaiting is not None else None)

    def _save(self) -> None:
        """The seating as the pages show it (the caller holds the lock)."""
        kept = None if self._seating is None else self._seating.to_json() | {"pressed": dict(self._pressed)}
        seatings.put(self.store, self.table, kept)
