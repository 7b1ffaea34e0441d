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

import logging
import threading
import time
from collections import deque

import paho.mqtt.client as mqtt

from hall import topics
from hall.seating import pair_numbers, read_confirmation, seating
from hall.tournament_db import HallTournament
from store import seatings as kept_seatings
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore

log = logging.getLogger("guandan.hall.draws")

#: how often the tournament's version is read (four row counts: cheap). A round drawn at the
#: desk or over the API reaches every table this much later at most, of its 2 s (issue 44)
POLL_S = 0.1
#: how often at most the seatings kept for the hall's pages are looked over (every table's
#: compared with what the store holds, the changed ones written): the pages read them every 0.5 s
KEEP_EVERY_S = 0.5


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
        #: (round, table) → (its entry and state, its message, its text kept for the pages): only a table
        #: whose result changed is made again (a whole round's at a hall's size is too dear for
        #: every poll, and a change comes every poll while results come in)
        self._tables: dict[tuple[int, int], tuple[tuple, bytes, str]] = {}
        self._version: str | None = None  # the version sent
        self._kept_version: str | None = None  # the version kept for the pages, and when
        self._kept_at = float("-inf")
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
        now = time.monotonic() if now is None else now
        if self._tournament.open(now) is None:
            return 0
        connected = self.client.is_connected()
        if connected and self._confirmations:
            self._take_confirmations()
        version = self.tournament.version()
        again = connected and self._again.is_set()
        keep = version != self._kept_version and now - self._kept_at >= KEEP_EVERY_S
        if (version == self._version or not connected) and not again and not keep:
            return 0
        wanted, kept = self._wanted()
        if keep:
            kept_seatings.replace(self.store, kept)
            self._kept_version, self._kept_at = version, now
        if not connected:
            return 0
        self._version = version
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

    def _wanted(self) -> tuple[dict[str, bytes], dict[str, str]]:
        """Every table's retained seating by the name a node goes by: ``R-N`` for each round's,
        ``N`` for the latest round's; ``N`` cleared (empty) for a number only earlier rounds
        had. With it, what the hall's own pages keep (``store.seatings``): the same seatings
        as their kept text (``store.seatings.text``) under the same names, none for a name cleared."""
        t = desk.load(self.tournament)
        latest = self.tournament.latest()
        numbers = pair_numbers(t)
        wanted: dict[str, bytes] = {}
        kept: dict[str, str] = {}
        seen: set[int] = set()
        for round_no in sorted(t.draws):
            for table in t.draws[round_no]:
                if table.is_bye:
                    continue
                entry = latest.get((round_no, table.table))
                key = (entry.id, entry.state) if entry is not None else ()
                made = self._tables.get((round_no, table.table))
                if made is None or made[0] != key:
                    s = seating(t, round_no, table, entry, numbers)
                    made = self._tables[(round_no, table.table)] = (key, s.message(), kept_seatings.text(s.to_json()))
                names = [f"{round_no}-{table.table}"] + ([str(table.table)] if round_no == t.drawn else [])
                for name in names:
                    wanted[name], kept[name] = made[1], made[2]
                seen.add(table.table)
        for number in seen:
            wanted.setdefault(str(number), b"")
        return wanted, kept

    def _take_confirmations(self) -> None:
        """Every confirmation waiting, taken in one transaction of the tournament store
        (``desk.confirm_many``: one load of the tournament, one write lock and one commit for
        them all — at 2,048 tables they come by the dozen a second; one by one, each paid its
        own). Each table's message is cleared once they are committed; if the store fails,
        they wait for the next pass."""
        batch = []
        while self._confirmations:
            batch.append(self._confirmations.popleft())
        readable: list[tuple[str, tuple[int, int, int]]] = []
        for table, payload in batch:
            try:
                round_no, number, entry = read_confirmation(payload)
                named = desk.table_named(table)
                if named is None or named[1] != number or named[0] not in (None, round_no):
                    raise ValueError(f"it names round {round_no}, table {number}")
            except ValueError as exc:
                log.warning("table %s: ignored a confirmation that cannot be read (%s)", table, exc)
            else:
                readable.append((table, (round_no, number, entry)))
        try:
            taken = desk.confirm_many(self.tournament, [asked for _, asked in readable], desk.SEAT_BUTTONS)
        except BaseException:
            self._confirmations.extendleft(reversed(batch))
            raise
        for table, _ in batch:
            self.client.publish(topics.confirm(self.hall, table), b"", qos=topics.QOS, retain=True)
        for (table, (round_no, number, entry)), got in zip(readable, taken, strict=True):
            if isinstance(got, desk.Refused):  # changed since it was shown, final already (delivered twice)
                (log.info if got.key == "already_final" else log.warning)(
                    "table %s: the seat buttons' confirmation is not taken: %s", table, got.text("en"))
                continue
            self.confirmed.append((round_no, number, entry))
            log.info("round %d, table %d: result %d confirmed with the seat buttons", round_no, number, entry)
