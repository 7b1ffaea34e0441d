"""The seatings kept for the pages (store/seatings.py) on SQLite and on a real PostgreSQL
server: a row a table, only the changed ones written, and a reader that asks after its last
stamp gets what was written since — a hall's few changes, not its thousands of tables."""

from __future__ import annotations

from store import seatings


def seating(table: int, state: str = "playing") -> dict:
    return {"round": 1, "table": table, "state": state, "pairs": {"NS": {"id": f"p{table}"}, "EW": {"id": "对手"}}}


def test_the_pages_read_only_the_seatings_written_since_they_last_looked(store):
    kept = {str(n): seatings.text(seating(n)) for n in range(1, 201)}
    assert seatings.replace(store, kept)
    stamp, first = seatings.changed_since(store, 0)
    assert first == {name: seatings.read(store)[name] for name in kept} and len(first) == 200
    assert seatings.changed_since(store, stamp) == (stamp, {})

    assert not seatings.replace(store, kept)  # nothing changed: nothing written
    assert seatings.changed_since(store, stamp) == (stamp, {})

    moved = dict(kept, **{"7": seatings.text(seating(7, "provisional"))})
    del moved["9"]  # a table number the latest round no longer has
    assert seatings.replace(store, moved)
    later, written = seatings.changed_since(store, stamp)
    assert later > stamp and written == {"7": seating(7, "provisional"), "9": None}
    assert set(seatings.read(store)) == set(moved) and seatings.read(store)["7"]["state"] == "provisional"


def test_a_nodes_table_keeps_its_one_seating(store):
    seatings.put(store, "7", seating(7))
    assert seatings.read(store) == {"7": seating(7)}
    seatings.put(store, "7", None)
    assert seatings.read(store) == {} and seatings.changed_since(store, 0)[1] == {"7": None}
