"""The tournament seating a table was last sent by its hall, kept where its pages are
served from (``web.hub`` reads it), whichever process serves them: in the table's own store
by its node (``hall.table_seating``), so a restarted node shows it before the hall has said
it again; and in the hall's store by the hall server (``hall.draw_post``), so the hall's own
page for a table shows what its node was told.

One setting holds every table's (a node has one table; a page server reads them all in
one query, however often it looks): table → the seating as the hall sent it
(``hall.seating``), at a node with the sides that have pressed to confirm its result.
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


def replace(store: Store, kept: dict[str, dict]) -> bool:
    """Keep ``kept`` as every table's seating (a hall server's: all it sends, thousands of
    tables at once, so one write rather than one a table); returns whether anything changed
    (nothing is written then)."""
    text = json.dumps(kept, ensure_ascii=False, sort_keys=True)
    with _lock:
        if text == (store.setting(KEY) or json.dumps({})):
            return False
        store.put_setting(KEY, text)
    return True
