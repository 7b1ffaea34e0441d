"""The tournament seating a table node was last sent by its hall, kept in the table's own
store so its pages show it (``web.hub`` reads it) whichever process serves them, and a
restarted node shows it before the hall has said it again.

One setting holds every table's (a node has one table; a page server reads them all in
one query, however often it looks): table → the seating as the hall sent it
(``hall.seating``), with the sides that have pressed to confirm its result.
"""

from __future__ import annotations

import json
import threading

from store.event_store import Store

KEY = "seatings"
_lock = threading.Lock()  # one read-and-write at a time in this process


def read(store: Store) -> dict[str, dict]:
    """Every table's seating; empty where the hall sent none."""
    text = store.setting(KEY)
    return json.loads(text) if text else {}


def put(store: Store, table: str, seating: dict | None) -> None:
    """Keep ``table``'s seating (None: the hall has none for it now)."""
    with _lock:
        kept = read(store)
        if seating is None:
            kept.pop(table, None)
        else:
            kept[table] = seating
        store.put_setting(KEY, json.dumps(kept, ensure_ascii=False, sort_keys=True))
