"""The hall server's intake: every table's events from the broker into the store, once.

The server holds a persistent MQTT session (fixed client id, clean session off), so what
the tables publish while it is down waits at the broker, within the broker's queue
limits (docs/hall.md). Each message is acknowledged only after its event is committed
to the store, so a server killed mid-batch gets the rest again. Every payload is checked
with ``event_from_json``; a bad one is counted and logged, never fatal.

Each table's events are stored in seq order with no gaps — the live pages replay them
as they come — so an event that arrives early (before its table's header, or after a
gap) is held until the events before it arrive. Duplicates (a node resending after a
lost PUBACK, a broker redelivering) are counted and dropped. When a gap does not close,
or a node's status says the broker acknowledged events the server never got (a broker
killed before it saved its queue), the server asks the node to send them again.

Its console's referee acts on a node's table go down to the node (``send_act``,
``hall.acts``) and come back up with the table's record. When the database holds a
tournament, each tournament table's finished match is entered into it as a provisional
result (``hall.results``, on a thread of its own beside the intake), and each table is sent
its seating and may confirm its result with the seat buttons (``hall.draw_post``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
import uuid
from dataclasses import dataclass, field

import paho.mqtt.client as mqtt

from engine.events import Header, event_from_json
from hall import topics
from hall.acts import SentActs, act_message
from hall.broker import BrokerAddress, connect, new_client
from hall.draw_post import DrawPost
from hall.errors import HallError
from hall.presence import Presence
from hall.results import ResultFeed
from store.event_store import Store

log = logging.getLogger("guandan.hall.ingest")

BATCH = 2000  # messages per store round: bounds the time an acknowledgement waits
REPAIR_AFTER_S = 1.0  # a table with a gap and no progress this long is asked again
REPAIR_MAX_S = 60.0  # the longest wait between two requests for the same table
BUSY_BACKLOG = 5000  # while this much is queued here, gaps are probably just late
MAX_HELD = 10_000  # out-of-order events kept per table; more are asked for again later
MALFORMED_LOGGED = 100  # the first ones are logged one by one, then only counted
SEND_WAIT_S = 5.0  # how long a referee's act may wait for the broker to take it


@dataclass
class IngestStats:
    received: int = 0
    stored: int = 0
    duplicates: int = 0
    malformed: int = 0
    held: int = 0  # waiting now for an earlier event
    resend_requests: int = 0
    #: a node's event whose seq the store already held under another event (a referee's act
    #: written at the hall server took it): the node's is not stored, and is logged
    conflicts: int = 0

    def line(self) -> str:
        return (f"{self.stored} stored, {self.duplicates} duplicate(s), {self.malformed} malformed, "
                f"{self.held} held, {self.resend_requests} resend request(s), {self.conflicts} conflict(s)")


@dataclass
class _Table:
    next_seq: int  # the first seq not stored yet
    progress_at: float  # monotonic time of the last event stored (or first sight)
    backoff: float  # the wait after the next request for it
    held: dict[int, dict] = field(default_factory=dict)
    ask_at: float = 0.0


class Ingest:
    def __init__(self, store: Store, broker: BrokerAddress, hall: str = "main", *,
                 repair_after: float = REPAIR_AFTER_S) -> None:
        self.store = store
        self.broker = broker
        self.hall = topics.check_name("hall", hall)
        self.repair_after = repair_after
        self.stats = IngestStats()
        self.presence = Presence()
        self.sent = SentActs()
        self.failed: Exception | None = None  # set when the store cannot be written
        self._tables: dict[str, _Table] = {}
        self._queue: queue.SimpleQueue[tuple[str, str, bytes, int]] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self.client = new_client(f"guandan-{hall}-hall", persistent=True, manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name="hall-ingest", daemon=True)
        self.results = ResultFeed(store)
        self.draws = DrawPost(store, self.client, self.hall)

    def start(self) -> Ingest:
        connect(self.client, self.broker)
        self._thread.start()
        self.results.start()
        self.draws.start()
        return self

    def stop(self) -> None:
        """Finish the batch in hand, then leave; the session stays at the broker."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()
        self.results.stop()
        self.draws.stop()
        self.client.disconnect()
        self.client.loop_stop()

    # --- paho's thread -------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            log.warning("the broker refused the hall server (%s)", reason)
            return
        # subscribe every time: a broker that lost its state lost the session with it
        client.subscribe([(topics.events_filter(self.hall), topics.QOS),
                          (topics.table_status_filter(self.hall), topics.QOS),
                          (topics.node_status_filter(self.hall), topics.QOS),
                          (topics.acts_filter(self.hall), topics.QOS),
                          (topics.replies_filter(self.hall), topics.QOS),
                          (topics.confirm_filter(self.hall), topics.QOS)])
        self.draws.republish()  # the broker may have lost the retained seatings with its state
        log.info("connected to %s (session %s)", self.broker,
                 "resumed" if flags.session_present else "new")

    def _on_message(self, client: mqtt.Client, userdata, message: mqtt.MQTTMessage) -> None:
        parsed = topics.parse(self.hall, message.topic)
        if parsed is not None and parsed[0] == "event":
            self._queue.put((parsed[1], parsed[2], message.payload, message.mid))
            return  # acknowledged once stored
        if parsed is not None and parsed[0] == "table_status":
            ok = self.presence.table_status(parsed[1], message.payload)
        elif parsed is not None and parsed[0] == "node_status":
            ok = self.presence.node_status(parsed[1], message.payload)
        elif parsed is not None and parsed[0] == "act" and not message.payload:
            self.sent.cleared(parsed[1], parsed[2])  # the node took it
            ok = True
        elif parsed is not None and parsed[0] == "act":
            ok = self.sent.sent(parsed[1], parsed[2], message.payload)
        elif parsed is not None and parsed[0] == "reply":
            ok = self.sent.replied(parsed[1], parsed[2], message.payload)
        elif parsed is not None and parsed[0] == "confirm":
            self.draws.confirmation(parsed[1], message.payload)  # read (and its clearing ignored) there
            ok = True
        else:
            ok = False
        if not ok and message.payload:  # an empty retained message only clears a topic
            log.warning("ignored an unreadable message on %s", message.topic)
        client.ack(message.mid, message.qos)

    # --- the console's side ------------------------------------------------------------

    def route(self, table: str) -> str | None:
        """Where a referee's act on ``table`` goes: ``None`` — the table was made here (a
        paper score sheet's), store it; ``"send"`` — down to its node; ``"refuse"`` — its
        node takes no acts (a recorded match played back, the simulator)."""
        status = self.presence.get(table)
        if status is None:
            return None
        return "send" if status.acts else "refuse"

    def send_act(self, table: str, act: str, fields: dict, by: str) -> str:
        """Send a referee's act down to ``table``'s node; returns its id once the broker has
        it. Raises ``HallError`` when the broker cannot be reached or does not take it."""
        act_id = uuid.uuid4().hex
        payload = act_message(act_id, act, fields, by)
        if not self.client.is_connected():
            raise HallError("hall_offline")
        self.sent.sent(table, act_id, payload)
        info = self.client.publish(topics.act(self.hall, table, act_id), payload, qos=topics.QOS, retain=True)
        with contextlib.suppress(RuntimeError):  # paho: the connection went as it was sent
            info.wait_for_publish(SEND_WAIT_S)
        if not info.is_published():
            raise HallError("act_unconfirmed", seconds=f"{SEND_WAIT_S:.0f}")
        log.info("table %s: act %s (%s by %s) sent down to its node", table, act_id, act, by)
        return act_id

    # --- the writer ----------------------------------------------------------------------

    def _run(self) -> None:
        next_repair = time.monotonic() + 1.0
        while not self._stopping.is_set():
            batch = self._drain()
            try:
                if batch:
                    self._ingest(batch)
            except Exception as exc:  # the store cannot be written (disk full, file gone …)
                self.failed = exc
                log.error("cannot store events (%s); stopping, the broker keeps what was not stored", exc)
                self.client.disconnect()  # unacknowledged messages come again on the next start
                return
            now = time.monotonic()
            if now >= next_repair:
                self._repair(now)
                next_repair = now + 1.0

    def _drain(self) -> list[tuple[str, str, bytes, int]]:
        try:
            batch = [self._queue.get(timeout=0.2)]
        except queue.Empty:
            return []
        while len(batch) < BATCH:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return batch

    def _ingest(self, batch: list[tuple[str, str, bytes, int]]) -> None:
        headers: dict[str, dict] = {}
        ready: dict[str, list[dict]] = {}
        for table, seq_text, payload, _ in batch:
            self.stats.received += 1
            body = self._check(table, seq_text, payload)
            if body is not None:
                self._accept(table, body, headers, ready)
        for table, header in headers.items():
            self.store.add_table(table, header)
            self.stats.stored += 1
        for table, ids in self.store.append_many(ready).items():
            fresh = sum(i is not None for i in ids)
            self.stats.stored += fresh
            for body, stored_id in zip(ready[table], ids, strict=True):
                if stored_id is None:
                    self._stored_already(table, body)
        for *_, mid in batch:
            self.client.ack(mid, topics.QOS)
        if ready or headers:
            self.results.wake()  # a match may have ended: enter it now, not at the feed's next poll

    def _stored_already(self, table: str, body: dict) -> None:
        """The store held this seq already: a resend (the same event), or another event
        under the node's seq — a referee's act written here while the node's event was on
        its way (docs/hall.md) — which loses the node's event; that is told loudly."""
        if self.store.body_at(table, body["seq"]) == body:
            self.stats.duplicates += 1
            return
        self.stats.conflicts += 1
        log.error("table %s: the node's event %d (%s) was not stored: the hall's store holds another event "
                  "under that seq (an act written at the hall server? acts belong at the table's console)",
                  table, body["seq"], body.get("type"))

    def _check(self, table: str, seq_text: str, payload: bytes) -> dict | None:
        """The event as the record format defines it, or ``None`` (counted, logged)."""
        try:
            topics.check_name("table", table)
            event = event_from_json(json.loads(payload))
            if seq_text != str(event.seq):
                raise HallError("topic_seq", topic=seq_text, seq=event.seq)
            if (event.seq == 0) != isinstance(event, Header):
                raise HallError("header_seq")
            return event.to_json()
        except (ValueError, HallError) as exc:  # bad JSON, RecordError, bad table name or seq
            self.stats.malformed += 1
            if self.stats.malformed <= MALFORMED_LOGGED:
                log.warning("malformed event on table %s seq %s: %s%s", table, seq_text, exc,
                            " (further ones are only counted)" if self.stats.malformed == MALFORMED_LOGGED else "")
            return None

    def _state(self, table: str) -> _Table:
        state = self._tables.get(table)
        if state is None:
            start = self.store.next_seq(table) if self.store.has_table(table) else 0
            state = self._tables[table] = _Table(start, time.monotonic(), backoff=self.repair_after)
        return state

    def _accept(self, table: str, body: dict, headers: dict[str, dict], ready: dict[str, list[dict]]) -> None:
        """Store the event now if it is the next one, with any held ones it unblocks."""
        state = self._state(table)
        seq = body["seq"]
        if seq < state.next_seq or seq in state.held:
            self.stats.duplicates += 1
            return
        if seq > state.next_seq:
            if len(state.held) < MAX_HELD:
                state.held[seq] = body
                self.stats.held += 1
            return
        chain = [body]
        state.next_seq += 1
        while state.next_seq in state.held:
            chain.append(state.held.pop(state.next_seq))
            state.next_seq += 1
        self.stats.held -= len(chain) - 1
        state.progress_at = time.monotonic()
        state.backoff = self.repair_after
        if seq == 0:
            headers[table] = chain.pop(0)
        ready.setdefault(table, []).extend(chain)

    def _repair(self, now: float) -> None:
        """Ask online nodes for events that should be here by now."""
        if self._queue.qsize() > BUSY_BACKLOG:
            return
        statuses = self.presence.all()
        for table in set(self._tables) | set(statuses):
            status = statuses.get(table)
            if status is None or status.state != "online":
                continue  # nobody to ask; its status on reconnecting brings it back here
            state = self._tables.get(table)
            if state is None:
                if status.acked < 0:
                    continue
                state = self._state(table)
            lacking = state.held or status.acked >= state.next_seq
            if not lacking or now - state.progress_at < self.repair_after or now < state.ask_at:
                continue
            self.client.publish(topics.resend(self.hall, table), json.dumps({"from": state.next_seq}), qos=topics.QOS)
            self.stats.resend_requests += 1
            state.ask_at = now + state.backoff
            state.backoff = min(state.backoff * 2, REPAIR_MAX_S)
            log.info("table %s: asked its node for the events from seq %d again", table, state.next_seq)
