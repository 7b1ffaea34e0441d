"""The hall's MQTT topics, in one place so the nodes and the server cannot disagree.

Everything lives under ``guandan/<hall>/`` so one broker can carry several halls:

- ``tables/<table>/events/<seq>``: one record line per message, QoS 1, never retained.
  The seq is in the topic as well as the body so the server can reject a mismatch.
- ``tables/<table>/status``: retained JSON, ``{"state": "online"|"offline", "node": …,
  "last_seq": …, "acked": …}``; a node that serves one table leaves its last will here.
- ``nodes/<node>/status``: retained, the last will of a node that serves several tables
  (one connection can carry only one will).
- ``tables/<table>/resend``: the server asks a node to publish again from ``{"from": seq}``
  when it sees a gap the broker lost (a broker killed before it saved its queue).
- ``tables/<table>/acts/<id>``: a referee's act made at the hall server's console, for the
  table's node to store; retained until the node has taken it (it then clears the topic),
  so an act waits at the broker for a node that is away, however long.
- ``tables/<table>/replies/<id>``: the node's word on an act: stored as which seq, or
  refused and why (QoS 1, to the hall server's persistent session).
- ``tables/<table>/seating``: retained, the tournament's word to a tournament table — the
  pairs drawn at it and its result's state (``hall.seating``); a node started after the draw
  gets it on subscribing.
- ``tables/<table>/confirm``: retained, the table's players confirming its provisional
  result with their seat buttons; the hall server confirms it and clears the topic.
"""

from __future__ import annotations

import re
from typing import Literal

from hall.errors import HallError

QOS = 1
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def check_name(kind: Literal["hall", "node", "table"], name: str) -> str:
    """A hall, node or table name is 1-40 letters, digits, - or _ (the store's rule for
    table ids), which also keeps MQTT's ``/ + #`` out of the topics."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise HallError(f"name_{kind}", name=name)
    return name


def event(hall: str, table: str, seq: int) -> str:
    return f"guandan/{hall}/tables/{table}/events/{seq}"


def events_filter(hall: str) -> str:
    return f"guandan/{hall}/tables/+/events/+"


def table_status(hall: str, table: str) -> str:
    return f"guandan/{hall}/tables/{table}/status"


def table_status_filter(hall: str) -> str:
    return f"guandan/{hall}/tables/+/status"


def node_status(hall: str, node: str) -> str:
    return f"guandan/{hall}/nodes/{node}/status"


def node_status_filter(hall: str) -> str:
    return f"guandan/{hall}/nodes/+/status"


def resend(hall: str, table: str) -> str:
    return f"guandan/{hall}/tables/{table}/resend"


def act(hall: str, table: str, act_id: str) -> str:
    return f"guandan/{hall}/tables/{table}/acts/{act_id}"


def acts_filter(hall: str, table: str = "+") -> str:
    return f"guandan/{hall}/tables/{table}/acts/+"


def reply(hall: str, table: str, act_id: str) -> str:
    return f"guandan/{hall}/tables/{table}/replies/{act_id}"


def replies_filter(hall: str) -> str:
    return f"guandan/{hall}/tables/+/replies/+"


def seating(hall: str, table: str) -> str:
    return f"guandan/{hall}/tables/{table}/seating"


def confirm(hall: str, table: str) -> str:
    return f"guandan/{hall}/tables/{table}/confirm"


def confirm_filter(hall: str) -> str:
    return f"guandan/{hall}/tables/+/confirm"


def parse(hall: str, topic: str) -> tuple[str, str, str] | None:
    """Split a topic under the hall into ``(kind, name, key)``: kind is ``event``,
    ``table_status``, ``node_status``, ``resend``, ``act``, ``reply``, ``seating`` or
    ``confirm``; key is the seq of an event, the id of an act or reply, ``""`` otherwise.
    ``None`` for a topic that is not one of ours."""
    prefix = f"guandan/{hall}/"
    if not topic.startswith(prefix):
        return None
    parts = topic[len(prefix):].split("/")
    if len(parts) == 4 and parts[0] == "tables" and parts[2] in ("events", "acts", "replies"):
        return {"events": "event", "acts": "act", "replies": "reply"}[parts[2]], parts[1], parts[3]
    if len(parts) == 3 and parts[2] == "status" and parts[0] in ("tables", "nodes"):
        return ("table_status" if parts[0] == "tables" else "node_status"), parts[1], ""
    if len(parts) == 3 and parts[0] == "tables" and parts[2] in ("resend", "seating", "confirm"):
        return parts[2], parts[1], ""
    return None
