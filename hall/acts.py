"""Referee acts made at the hall server's console, travelling down to the table's node.

A record's seqs are its table's: at a camera table the runtime and the table's console
write one store, and the node relays it to the hall seq for seq. An act made at the hall
server therefore is not written there. It goes down to the node as a retained message,
``tables/<table>/acts/<id>`` (``{"id", "act", "fields", "by", "at"}``); the node builds it
against the table's own record, exactly as the table's console would (``store.referee_acts``),
stores it under the next free seq — the camera runtime takes it in from the store as it
takes the console's acts — and answers on ``tables/<table>/replies/<id>``: recorded as
which seq, or refused and why. Then it clears the retained message. The act comes back up
to the hall with the rest of the record.

Retained, the act waits at the broker for a node that is away, and reaches it when it
comes back; the node notes each act it took in the same transaction as its event
(``Store.append_act``), so an act delivered again — the node died before clearing it — is
answered again and never stored twice.

``TableActs`` is the node's side, ``SentActs`` what the hall server knows of the acts it
sent (the referee console lists them: waiting, recorded, refused).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.events import RecordError
from engine.profile import Profile
from engine.record import parse_lines, replay
from rulebook import profiles
from rulebook.tournament_live import Refusal, refusal
from store.event_store import ActTaken, SeqTaken, Store, StoreError
from store.referee_acts import build_act

log = logging.getLogger("guandan.hall.acts")

TRIES = 20  # seqs tried when the camera keeps taking the next one first
KEPT = 500  # sent acts the hall server remembers for its console


def act_message(act_id: str, act: str, fields: dict, by: str) -> bytes:
    return json.dumps({"id": act_id, "act": act, "fields": fields, "by": by, "at": time.time()},
                      ensure_ascii=False).encode()


def _read(act_id: str, payload: bytes) -> dict:
    """The act in a message, or a ``Refusal`` saying what is wrong with it."""
    try:
        body = json.loads(payload)
    except ValueError:
        raise Refusal("act_not_json") from None
    if not isinstance(body, dict) or body.get("id") != act_id:
        raise Refusal("act_without_id")
    if not isinstance(body.get("act"), str) or not isinstance(body.get("fields"), dict):
        raise Refusal("act_without_fields")
    if not isinstance(body.get("by"), str) or not body["by"]:
        raise Refusal("act_without_referee")
    return body


def _both_languages(refused: RecordError | Refusal) -> str:
    """Why an act was refused, as both languages say it: the reply goes to any console."""
    return refusal(refused.code, "zh", **refused.values)


class TableActs:
    """A table node's intake of acts sent down from the hall server's console, into the
    table's store."""

    def __init__(self, store: Store, table: str, profile_for: Callable[[str], Profile] = profiles.load) -> None:
        self.store = store
        self.table = table
        self.profile_for = profile_for

    def take(self, table: str, act_id: str, payload: bytes) -> dict:
        """Store the act (once), or refuse it; returns the reply for the hall server. The
        node's ``acts`` (``hall.node.ActTaker``), for a node of this one table."""
        if table != self.table:
            raise ValueError(f"acts for table {self.table} were handed one for table {table}")
        taken = self.store.act_taken(act_id)
        if taken is None:
            try:
                taken = self._store(act_id, _read(act_id, payload))
            except RecordError as exc:  # the act against the record (store.referee_acts, the engine)
                taken = self.store.refuse_act(self.table, act_id, _both_languages(exc.without_line))
            except Refusal as exc:  # the message, the store
                taken = self.store.refuse_act(self.table, act_id, _both_languages(exc))
        reply: dict = {"id": act_id, "table": self.table}
        if taken.seq is not None:
            reply |= {"state": "recorded", "seq": taken.seq}
            log.info("table %s: act %s from the hall stored as event %d", self.table, act_id, taken.seq)
        else:
            reply |= {"state": "refused", "error": taken.error}
            log.warning("table %s: refused act %s from the hall (%s)", self.table, act_id, taken.error)
        return reply

    def _store(self, act_id: str, body: dict) -> ActTaken:
        if not self.store.has_table(self.table):
            raise Refusal("no_record_yet", table=self.table)
        for _ in range(TRIES):
            stored = self.store.events(self.table)
            event = build_act(body["act"], body["fields"], body["by"], [s.body for s in stored],
                              stored[-1].seq + 1 if stored else 0)
            # the record with the act must still replay, as the table's console checks it
            replay(parse_lines(json.dumps(b) for b in [*(s.body for s in stored), event.to_json()]),
                   self.profile_for)
            try:
                return self.store.append_act(self.table, event.to_json(), act_id)
            except SeqTaken:
                continue  # the camera wrote an event meanwhile: build the act on top of it
        raise StoreError("no_free_seq", table=self.table, tries=TRIES)


@dataclass(frozen=True)
class SentAct:
    id: str
    table: str
    act: str = ""
    by: str = ""
    at: float = 0.0
    fields: dict | None = None
    state: str = "pending"  # pending → taken (cleared, no word yet) → recorded | refused
    seq: int | None = None
    error: str | None = None


_DONE = ("recorded", "refused")


class SentActs:
    """The acts the hall server sent down, as the broker and the nodes report them: its
    own retained messages (pending until the node clears them; after a restart they come
    back from the broker) and the nodes' replies. Newest first; the last ``KEPT``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._acts: OrderedDict[str, SentAct] = OrderedDict()

    def _put(self, act: SentAct) -> None:
        self._acts[act.id] = act
        self._acts.move_to_end(act.id)
        while len(self._acts) > KEPT:
            self._acts.popitem(last=False)

    def sent(self, table: str, act_id: str, payload: bytes) -> bool:
        """An act's retained message (sent now, or waiting since before a restart)."""
        try:
            body = _read(act_id, payload)
        except Refusal:
            return False
        with self._lock:
            old = self._acts.get(act_id)
            new = SentAct(act_id, table, body["act"], body["by"], float(body.get("at") or 0.0), body["fields"])
            if old is not None and old.state != "pending":
                new = replace(new, state=old.state, seq=old.seq, error=old.error)
            if old is None or old.act == "":
                self._put(new)
        return True

    def cleared(self, table: str, act_id: str) -> None:
        """The node cleared the act's retained message: it has taken it."""
        with self._lock:
            old = self._acts.get(act_id)
            if old is not None and old.state == "pending":
                self._acts[act_id] = replace(old, state="taken")

    def replied(self, table: str, act_id: str, payload: bytes) -> bool:
        try:
            body = json.loads(payload)
        except ValueError:
            return False
        if not isinstance(body, dict) or body.get("state") not in _DONE:
            return False
        with self._lock:
            old = self._acts.get(act_id) or SentAct(act_id, table)
            seq = body.get("seq") if isinstance(body.get("seq"), int) else None
            self._put(replace(old, state=body["state"], seq=seq, error=body.get("error")))
        if body["state"] == "refused":
            log.warning("table %s refused the act %s: %s", table, act_id, body.get("error"))
        return True

    def all(self, table: str | None = None) -> list[SentAct]:
        with self._lock:
            acts = list(reversed(self._acts.values()))
        return [a for a in acts if table is None or a.table == table]

    def get(self, act_id: str) -> SentAct | None:
        with self._lock:
            return self._acts.get(act_id)
