"""A table node's publisher: the record goes to the outbox, and from there to the broker.

``Node.publish`` only writes the outbox (a local SQLite commit), so the table goes on
scoring whatever the network does: it never waits for the broker and never raises
because of it. A pump thread feeds the outbox to paho in order, at most ``window``
messages unacknowledged at a time, and marks each row sent when its PUBACK comes; paho
reconnects with backoff and resends what was in flight, and the pump carries on with
the rest. The hall server may ask for a range again (``resend``) after a broker lost
messages it had acknowledged; the node rewinds that table's rows and sends them again.

A camera table's node also takes referee acts made at the hall server's console
(``acts``, ``hall.acts``): the act arrives retained on ``tables/<table>/acts/<id>``,
the pump hands it to ``acts`` (which stores it in the table's record), publishes the reply
and clears the retained message. A node without ``acts`` says so in its status, and the
hall server keeps refusing acts for its tables.

A tournament table's node also takes its seating (``seating``, ``hall.table_seating``): the
retained ``tables/<table>/seating`` (the pairs drawn at it, its result's state) is handed to
it on every connect and change, and ``confirm`` sends the players' confirmation of a
provisional result back up, retained, for the hall server to take.

One node is one MQTT connection. A camera table has its own (``tables=[table]``), with
its last will on the table's status topic; the simulator lets one connection publish
for many tables, and then the will is on the node's own status topic.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence

import paho.mqtt.client as mqtt

from hall import topics
from hall.broker import BrokerAddress, connect, new_client
from hall.outbox import Outbox

log = logging.getLogger("guandan.hall.node")

WINDOW = 500  # messages unacknowledged at once: enough to fill the pipe, little to resend
STATUS_EVERY_S = 10.0  # how often a table's status (its last seq) is refreshed while it changes
CONNECT_STEP_S = 0.005  # after a connect, a node announces its tables at most 200 a second
IDLE_WAKE_S = 0.5

#: takes one act sent down from the hall server: (table, act id, the message) → the reply
ActTaker = Callable[[str, str, bytes], dict]
#: takes a table's seating sent down from the hall server: (table, the message; empty: none)
SeatingTaker = Callable[[str, bytes], None]


class Node:
    def __init__(self, broker: BrokerAddress, outbox: Outbox, tables: Sequence[str], *, hall: str = "main",
                 name: str | None = None, window: int = WINDOW, status_every: float = STATUS_EVERY_S,
                 acts: ActTaker | None = None, seating: SeatingTaker | None = None) -> None:
        if not tables:
            raise ValueError("a node publishes for at least one table")
        if name is None and len(tables) > 1:
            raise ValueError("a node that publishes for several tables needs a name")
        self.hall = topics.check_name("hall", hall)
        self.name = topics.check_name("node", name or tables[0])
        self.tables = frozenset(topics.check_name("table", t) for t in tables)
        self.broker = broker
        self.outbox = outbox
        self.window = window
        self.status_every = status_every
        self.acts = acts
        self.seating = seating
        self.solo = len(self.tables) == 1
        self.will_topic = (topics.table_status(hall, next(iter(self.tables))) if self.solo
                           else topics.node_status(hall, self.name))

        progress = outbox.progress(self.name)
        self._lock = threading.Lock()  # guards _last, _acked and _changed (callers write, the pump reads)
        self._last = {t: progress.get(t, (-1, -1))[0] for t in self.tables}
        self._acked = {t: progress.get(t, (-1, -1))[1] for t in self.tables}
        self._changed: set[str] = set()
        self._announce_all = False
        self._order = sorted(self.tables)  # statuses are refreshed round the tables, a few at a time
        self._turn = 0
        self._turned_at = 0.0
        self._lap = 0  # tables left to announce quickly after a connect

        self._wake = threading.Event()
        self._stopping = False
        self._connected = False
        self._acks: deque[int] = deque()
        self._rewinds: deque[tuple[str, int]] = deque()
        self._acts_in: deque[tuple[str, str, bytes]] = deque()  # (table, act id, message)
        self._seatings_in: deque[tuple[str, bytes]] = deque()  # (table, message)
        self._confirms_out: deque[tuple[str, bytes]] = deque()  # (table, message)
        self._inflight: dict[int, tuple[str, int]] = {}  # mid → (table, seq); pump thread only
        self._inflight_keys: set[tuple[str, int]] = set()
        self._cursor = 0  # last outbox row handed to paho

        self.client = new_client(f"guandan-{hall}-node-{self.name}")
        self.client.max_inflight_messages_set(window + 20)  # room for status messages too
        self.client.max_queued_messages_set(0)
        self.client.will_set(self.will_topic, self._status("offline"), qos=topics.QOS, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._pump = threading.Thread(target=self._run, name=f"node-{self.name}", daemon=True)

    # --- the caller's side -------------------------------------------------------------

    def start(self) -> Node:
        connect(self.client, self.broker)
        self._pump.start()
        return self

    def publish(self, table: str, event: dict) -> None:
        """Queue one record event (its JSON object) for the hall."""
        self.publish_many([(table, event)])

    def publish_many(self, events: Iterable[tuple[str, dict]]) -> None:
        """Queue events, in order, in one outbox transaction. Raises ``ValueError`` only
        for the caller's own mistake (a table this node does not serve, no seq)."""
        rows = []
        for table, event in events:
            if table not in self.tables:
                raise ValueError(f"node {self.name} does not publish for table {table!r}")
            seq = event.get("seq") if isinstance(event, dict) else None
            if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
                raise ValueError(f"an event needs a seq ≥ 0, got {event!r}")
            rows.append((table, seq, json.dumps(event, ensure_ascii=False)))
        self.outbox.put(self.name, rows)
        with self._lock:
            for table, seq, _ in rows:
                self._last[table] = max(self._last[table], seq)
                self._changed.add(table)
        self._wake.set()

    def confirm(self, table: str, body: dict) -> None:
        """Send the players' confirmation of ``table``'s provisional result up to the hall
        (``hall.seating``), retained until the hall server has taken it."""
        if table not in self.tables:
            raise ValueError(f"node {self.name} does not publish for table {table!r}")
        self._confirms_out.append((table, json.dumps(body, ensure_ascii=False).encode()))
        self._wake.set()

    def unsent(self) -> int:
        """Events written but not yet acknowledged by the broker."""
        return self.outbox.count_unsent(self.name)

    def wait_sent(self, timeout: float) -> bool:
        """Wait until the broker has acknowledged everything written so far."""
        deadline = time.monotonic() + timeout
        while self.unsent():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self, timeout: float = 2.0) -> None:
        """Say goodbye: the tables' status goes "offline" (a clean stop sends no will),
        then disconnect. Unsent events stay in the outbox for the next start."""
        self._stopping = True
        self._wake.set()
        if self._pump.is_alive():
            self._pump.join()
        if self._connected:
            infos = [self.client.publish(self.will_topic, self._status("offline"), qos=topics.QOS, retain=True)]
            if not self.solo:
                infos += [self.client.publish(topics.table_status(self.hall, t), self._status("offline", t),
                                              qos=topics.QOS, retain=True) for t in self.tables]
            deadline = time.monotonic() + timeout
            for info in infos:
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    break  # the connection went as we stopped (paho would raise); the will says offline
                info.wait_for_publish(max(0.0, deadline - time.monotonic()))
        self.client.disconnect()
        self.client.loop_stop()

    # --- paho's thread -------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            log.warning("node %s: the broker refused the connection (%s)", self.name, reason)
            return
        self._connected = True
        client.subscribe([(topics.resend(self.hall, t), topics.QOS) for t in sorted(self.tables)]
                         + [(topics.acts_filter(self.hall, t), topics.QOS) for t in sorted(self.tables) if self.acts]
                         + [(topics.seating(self.hall, t), topics.QOS) for t in sorted(self.tables) if self.seating])
        self._announce_all = True
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata, flags, reason, properties) -> None:
        if self._connected and not self._stopping:
            log.warning("node %s: lost the connection to the broker; events wait in the outbox", self.name)
        self._connected = False

    def _on_publish(self, client: mqtt.Client, userdata, mid: int, reason, properties) -> None:
        self._acks.append(mid)
        self._wake.set()

    def _on_message(self, client: mqtt.Client, userdata, message: mqtt.MQTTMessage) -> None:
        """The hall server asks for a table's events again from ``{"from": seq}``, sends a
        referee's act (an empty message is the act's topic cleared) or the table's seating."""
        parsed = topics.parse(self.hall, message.topic)
        if parsed is None or parsed[1] not in self.tables:
            return
        if parsed[0] == "act" and self.acts is not None and message.payload:
            self._acts_in.append((parsed[1], parsed[2], message.payload))
            self._wake.set()
        if parsed[0] == "seating" and self.seating is not None:
            self._seatings_in.append((parsed[1], message.payload))
            self._wake.set()
        if parsed[0] != "resend":
            return
        try:
            start = json.loads(message.payload)["from"]
        except (ValueError, TypeError, KeyError):
            start = None
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            log.warning("node %s: ignored a malformed resend request on %s", self.name, message.topic)
            return
        self._rewinds.append((parsed[1], start))
        self._wake.set()

    # --- the pump ------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            self._wake.wait(IDLE_WAKE_S)
            self._wake.clear()
            self._settle()
            if self._stopping:
                return
            self._apply_rewinds()
            if self._connected:
                self._take_acts()
                self._take_seatings()
                self._feed()
                self._announce()

    def _settle(self) -> None:
        """Mark what the broker acknowledged as sent."""
        keys = []
        while self._acks:
            key = self._inflight.pop(self._acks.popleft(), None)
            if key is not None:  # a status message's ack, otherwise
                keys.append(key)
                self._inflight_keys.discard(key)
        if keys:
            self.outbox.mark_sent(keys)
            with self._lock:
                for table, seq in keys:
                    if seq > self._acked[table]:
                        self._acked[table] = seq
                        self._changed.add(table)

    def _apply_rewinds(self) -> None:
        while self._rewinds:
            table, start = self._rewinds.popleft()
            first = self.outbox.rewind(table, start)
            log.info("node %s: the hall asked for table %s again from seq %d", self.name, table, start)
            if first is not None:
                self._cursor = min(self._cursor, first - 1)

    def _take_acts(self) -> None:
        """Store each act the hall sent, answer, and clear its retained message. An act that
        could not be taken (the store failed) stays retained and comes again at the next
        connect; one taken twice is answered from the store's note of it."""
        while self._acts_in:
            table, act_id, payload = self._acts_in.popleft()
            try:
                reply = self.acts(table, act_id, payload)
            except Exception:
                log.exception("node %s: could not take act %s for table %s", self.name, act_id, table)
                continue
            self.client.publish(topics.reply(self.hall, table, act_id), json.dumps(reply, ensure_ascii=False),
                                qos=topics.QOS)
            self.client.publish(topics.act(self.hall, table, act_id), b"", qos=topics.QOS, retain=True)

    def _take_seatings(self) -> None:
        """Hand the seatings the hall sent to ``seating``; send the confirmations made."""
        while self._seatings_in:
            table, payload = self._seatings_in.popleft()
            try:
                self.seating(table, payload)
            except Exception:
                log.exception("node %s: could not take the seating of table %s", self.name, table)
        while self._confirms_out:
            table, payload = self._confirms_out.popleft()
            self.client.publish(topics.confirm(self.hall, table), payload, qos=topics.QOS, retain=True)

    def _feed(self) -> None:
        """Hand the next unsent rows to paho, oldest first, up to the window."""
        while (room := self.window - len(self._inflight)) > 0:
            rows = self.outbox.unsent(self.name, self._cursor, room)
            for row in rows:
                self._cursor = row.id
                key = (row.table, row.seq)
                if key in self._inflight_keys:  # still in flight after a rewind
                    continue
                info = self.client.publish(topics.event(self.hall, row.table, row.seq), row.line, qos=topics.QOS)
                self._inflight[info.mid] = key
                self._inflight_keys.add(key)
            if len(rows) < room:
                return

    def _announce(self) -> None:
        """Retained status, round the tables so each is refreshed every ``status_every``
        seconds if it moved; the server reads ``acked`` to notice events it lacks. After a
        connect every table is announced, a few hundred a second: two thousand statuses
        at once hold up the events behind them for half a second."""
        now = time.monotonic()
        if self._announce_all:
            self._announce_all = False
            with self._lock:
                self._changed.update(self.tables)
            if not self.solo:
                self.client.publish(self.will_topic, self._status("online"), qos=topics.QOS, retain=True)
            self._lap = len(self._order)
            self._turned_at = now - CONNECT_STEP_S  # the first one at once
        step = self.status_every / len(self._order)
        if self._lap:
            step = min(step, CONNECT_STEP_S)
        turns = int((now - self._turned_at) / step)
        if not turns:
            return
        if turns >= len(self._order):
            turns = len(self._order)
            self._turned_at = now
        else:
            self._turned_at += turns * step
        self._lap = max(0, self._lap - turns)
        passed = [self._order[(self._turn + i) % len(self._order)] for i in range(turns)]
        self._turn = (self._turn + turns) % len(self._order)
        with self._lock:
            due = [t for t in passed if t in self._changed]
            self._changed.difference_update(due)
        for table in due:
            self.client.publish(topics.table_status(self.hall, table), self._status("online", table),
                                qos=topics.QOS, retain=True)

    def _status(self, state: str, table: str | None = None) -> str:
        body: dict = {"state": state, "node": self.name}
        if table is None and self.solo:
            table = next(iter(self.tables))
        if table is not None and state == "online":
            with self._lock:
                body.update(last_seq=self._last[table], acked=self._acked[table])
        if state == "online" and self.acts is not None:
            body["acts"] = True  # the hall server may send this table's referee acts down
        return json.dumps(body)
