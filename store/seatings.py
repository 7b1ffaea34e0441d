"""The tournament seating a table was last sent by its hall, kept where its pages are
served from (``web.hub`` reads it), whichever process serves them: in the table's own store
by its node (``hall.table_seating``), so a restarted node shows it before the hall has said
it again; and in the hall's store by the hall server (``hall.draw_post``), so the hall's own
page for a table shows what its node was told.

One row a table name (``Store.put_seatings``): the seating as the hall sent it
(``hall.seating``), at a node with the sides that have pressed to confirm its result, and a
stamp that grows with every write. A hall's results change a few seatings at a time among
thousands, so the pages read only the rows written since they last looked
(``changed_since``), and the hall writes only the rows that changed: kept as one setting
for all (3 MB at 2,048 tables) it was written, read and parsed whole twice a second, seconds
of both processes' time in a round.
"""

from __future__ import annotations

import json
import threading

from store.event_store import Store

_lock = threading.Lock()  # one read-and-write at a time in this process


def text(seating: dict) -> str:
    """A seating as it is kept: what ``read`` gives back."""
    return json.dumps(seating, ensure_ascii=False, sort_keys=True)


def read(store: Store) -> dict[str, dict]:
    """Every table's seating; empty where the hall sent none."""
    _, texts = store.seatings_since(0)
    return {name: json.loads(kept) for name, kept in texts.items() if kept}


def changed_since(store: Store, stamp: int) -> tuple[int, dict[str, dict | None]]:
    """The seatings written after ``stamp`` (None: the table has none any more), and the
    stamp to ask after next time."""
    now, texts = store.seatings_since(stamp)
    return now, {name: json.loads(kept) if kept else None for name, kept in texts.items()}


def put(store: Store, table: str, seating: dict | None) -> None:
    """Keep ``table``'s seating (None: the hall has none for it now)."""
    store.put_seatings({table: "" if seating is None else text(seating)})


def replace(store: Store, kept: dict[str, str]) -> bool:
    """Keep ``kept`` (name → ``text``) as every table's seating (a hall server's: all it
    sends), writing only the names whose seating changed and clearing the names it no
    longer has; returns whether anything changed (nothing is written then)."""
    with _lock:
        _, before = store.seatings_since(0)
        changed = {name: t for name, t in kept.items() if before.get(name) != t}
        changed.update({name: "" for name, t in before.items() if t and name not in kept})
        if changed:
            store.put_seatings(changed)
    return bool(changed)
