"""The hall server's word to a tournament's tables: each table told its seating — the pairs
drawn at it and where its result stands — and the results its players confirm with their
seat buttons taken in.

The post follows the tournament store's version (``TournamentStore.version``) as the live
pages do, so a round drawn anywhere (``guandan tournament draw``, the API, the tournament
page) and every result entered or confirmed reach the tables within ``POLL_S``. Each table's
seating is one retained message (``hall.seating``) on each name its node may go by — ``7``
for the latest round's table 7, ``2-7`` for round 2's — sent only when it changed; a table
number the latest round no longer has is cleared from ``7``. On start and on every
reconnection it all goes again (a broker that lost its state lost the retained messages),
so a draw made while the hall server was down reaches the tables when it starts. A database
without a tournament sends nothing.

The same seatings are kept in the hall's own store (``store.seatings``), under the same
names, so the hall's page for a table (``guandan hall serve --web``, ``/table/7``) shows the
pairs and the result as the table's own page does; the pages follow it whether or not the
broker is up.

A node whose players have confirmed a provisional result sends a retained confirmation
(``tables/<table>/confirm``: round, table, the entry they were shown); the post confirms it
through the tournament desk as a referee's confirmation is (``desk.SEAT_BUTTONS`` recorded
as who), then clears it. A confirmation of an entry that has changed since, or that is final
already, is refused by the desk and logged; it never stops the post.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque

import paho.mqtt.client as mqtt

from engine.tournament import Tournament
from hall import topics
from hall.seating import read_confirmation, seatings
from hall.tournament_db import HallTournament
from store import seatings as kept_seatings
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import Entry, StoreError, TournamentStore

log = logging.getLogger("guandan.hall.draws")

POLL_S = 0.5  # how often the tournament's version is read


class DrawPost:
    """Sends the tables their seatings over ``client`` (the hall server's connection) and
    takes their confirmations. ``step`` does one pass (tests call it); ``start`` runs it on
    a thread."""

    def __init__(self, store: Store, client: mqtt.Client, hall: str, poll: float = POLL_S) -> None:
        self.store = store
        self.client = client
        self.hall = hall
        self.poll = poll
        self._tournament = HallTournament(store.path, "sending the tables their seatings")
        self.confirmed: list[tuple[int, int, int]] = []  # (round, table, entry) confirmed by the seat buttons
        self._published: dict[str, bytes] = {}  # topic → the retained message it holds from us
        #: round → (its tables' entries and states, its tables' messages): a round none of whose
        #: tables changed is not made again (2,048 tables take 0.1 s; a change comes every poll)
        self._rounds: dict[int, tuple[tuple, dict[int, bytes]]] = {}
        self._version: str | None = None
        self._again = threading.Event()  # everything again at the next pass
        self._again.set()
        self._confirmations: deque[tuple[str, bytes]] = deque()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def tournament(self) -> TournamentStore | None:
        return self._tournament.store

    def start(self) -> DrawPost:
        self._thread = threading.Thread(target=self._run, name="hall-draws", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        self._tournament.close()

    # --- paho's thread ---------------------------------------------------------------------

    def republish(self) -> None:
        """The hall server (re)connected: send every seating again."""
        self._again.set()
        self._wake.set()

    def confirmation(self, table: str, payload: bytes) -> None:
        """A node's confirmation (an empty message is one cleared)."""
        if payload:
            self._confirmations.append((table, payload))
            self._wake.set()

    # --- the post's thread -----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception as exc:  # a store gone away: the post tries again, the intake goes on
                log.error("cannot send the tables their seatings (%s)", exc)
            self._wake.wait(self.poll)
            self._wake.clear()

    def step(self, now: float | None = None) -> int:
        """Take the confirmations in, keep the seatings for the hall's pages, then send every
        seating that changed; returns how many messages went out. Without the broker only the
        pages follow: the tables are sent everything again when it is back (``republish``)."""
        if self._tournament.open(time.monotonic() if now is None else now) is None:
            return 0
        connected = self.client.is_connected()
        while connected and self._confirmations:
            self._confirm(*self._confirmations.popleft())
        version = self.tournament.version()
        again = connected and self._again.is_set()
        if version == self._version and not again:
            return 0
        wanted = self._wanted()
        if version != self._version:
            self._keep(wanted)
            self._version = version
        if not connected:
            return 0
        self._again.clear()
        if again:
            self._published.clear()
        sent = 0
        for name, message in wanted.items():
            topic = topics.seating(self.hall, name)
            if self._published.get(topic) != message:
                self.client.publish(topic, message, qos=topics.QOS, retain=True)
                self._published[topic] = message
                sent += 1
        return sent

    def _keep(self, wanted: dict[str, bytes]) -> None:
        """The seatings in the hall's own store, by the names the tables go by, for the hall's
        table pages (``web.hub`` reads them); a name cleared has none."""
        kept_seatings.replace(self.store, {name: json.loads(m) for name, m in wanted.items() if m})

    def _wanted(self) -> dict[str, bytes]:
        """Every table's retained seating by the name a node goes by: ``R-N`` for each round's,
        ``N`` for the latest round's; ``N`` cleared (empty) for a number only earlier rounds
        had."""
        t = desk.load(self.tournament)
        latest = self.tournament.latest()
        wanted: dict[str, bytes] = {}
        numbers: set[int] = set()
        for round_no in sorted(t.draws):
            messages = self._round(t, round_no, latest)
            for number, message in messages.items():
                wanted[f"{round_no}-{number}"] = message
                if round_no == t.drawn:
                    wanted[str(number)] = message
            numbers.update(messages)
        for number in numbers:
            wanted.setdefault(str(number), b"")
        return wanted

    def _round(self, t: Tournament, round_no: int, latest: dict[tuple[int, int], Entry]) -> dict[int, bytes]:
        """A round's messages by table number, made again only if one of its tables changed."""
        key = tuple((tb.table, e.id, e.state) if (e := latest.get((round_no, tb.table))) else (tb.table,)
                    for tb in t.draws[round_no])
        kept = self._rounds.get(round_no)
        if kept is None or kept[0] != key:
            kept = self._rounds[round_no] = (key, {s.table: s.message() for s in seatings(t, round_no, latest)})
        return kept[1]

    def _confirm(self, table: str, payload: bytes) -> None:
        try:
            round_no, number, entry = read_confirmation(payload)
            named = desk.table_named(table)
            if named is None or named[1] != number or named[0] not in (None, round_no):
                raise ValueError(f"it names round {round_no}, table {number}")
        except ValueError as exc:
            log.warning("table %s: ignored a confirmation that cannot be read (%s)", table, exc)
        else:
            self._take(table, round_no, number, entry)
        self.client.publish(topics.confirm(self.hall, table), b"", qos=topics.QOS, retain=True)

    def _take(self, table: str, round_no: int, number: int, entry: int) -> None:
        try:
            desk.confirm(self.tournament, round_no, number, desk.SEAT_BUTTONS, entry)
        except desk.Refused as exc:  # changed since it was shown, final already (a confirmation delivered twice)
            (log.info if exc.key == "already_final" else log.warning)(
                "table %s: the seat buttons' confirmation is not taken: %s", table, exc.text("en"))
        except StoreError as exc:
            log.warning("table %s: the seat buttons' confirmation is not taken: %s", table, exc)
        else:
            self.confirmed.append((round_no, number, entry))
            log.info("round %d, table %d: result %d confirmed with the seat buttons", round_no, number, entry)
