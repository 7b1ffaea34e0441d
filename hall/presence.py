"""Which tables are present, from the retained status topics.

A node announces each of its tables as ``online`` (with its last seq and the last seq
the broker acknowledged) and the broker publishes the node's last will, ``offline``,
when the connection dies without a goodbye. A node serving one table has its will on
the table's own status; one serving several has it on ``nodes/<node>/status``, and its
tables go offline with it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, replace

log = logging.getLogger("guandan.hall.presence")


@dataclass(frozen=True)
class TableStatus:
    state: str  # "online" or "offline"
    node: str
    last_seq: int  # the last event the node wrote (-1: none yet)
    acked: int  # the last event the broker acknowledged to the node (-1: none)
    since: float  # time.time() of the change
    acts: bool = False  # the node takes referee acts sent down from the hall's console


class Presence:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, TableStatus] = {}

    def table_status(self, table: str, payload: bytes) -> bool:
        """Apply a table's status message; False if it cannot be read."""
        body = _decode(payload)
        if body is None:
            return False
        with self._lock:
            old = self._tables.get(table)
            # a will says only "offline": keep what the node last said about its events
            new = TableStatus(body["state"], str(body.get("node", "")),
                              _int(body.get("last_seq"), old.last_seq if old else -1),
                              _int(body.get("acked"), old.acked if old else -1), time.time(),
                              body.get("acts") is True if body["state"] == "online" else bool(old and old.acts))
            self._tables[table] = new
        if old is None or old.state != new.state:  # a hall starting up is 2,000 lines of "online"
            log.log(logging.INFO if new.state == "offline" else logging.DEBUG, "table %s is %s (node %s)",
                    table, new.state, new.node)
        return True

    def node_status(self, node: str, payload: bytes) -> bool:
        """Apply a node's own status: when it goes offline, so do the tables it served."""
        body = _decode(payload)
        if body is None:
            return False
        if body["state"] != "offline":
            return True  # its tables announce themselves
        with self._lock:
            gone = [t for t, s in self._tables.items() if s.node == node and s.state != "offline"]
            for table in gone:
                self._tables[table] = replace(self._tables[table], state="offline", since=time.time())
        if gone:
            log.info("node %s is offline: %d table(s) with it", node, len(gone))
        return True

    def get(self, table: str) -> TableStatus | None:
        with self._lock:
            return self._tables.get(table)

    def all(self) -> dict[str, TableStatus]:
        with self._lock:
            return dict(self._tables)

    def online(self) -> int:
        with self._lock:
            return sum(s.state == "online" for s in self._tables.values())


def _decode(payload: bytes) -> dict | None:
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("state") not in ("online", "offline"):
        return None
    return body


def _int(value: object, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
