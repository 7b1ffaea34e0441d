"""The live streams as Flask's own routes serve them (``web.api``, ``web.tournament``): under
``guandan serve --debug``, and for whatever the stream loop leaves to waitress. They speak
what the loop speaks (``web.sse``): the hall's stream sends a table's new seating, a stream
ends when the hub stops, a delayed stream lets an event out the delay late."""

from __future__ import annotations

import json
import time

from store import seatings
from tests.web.conftest import header_json
from tests.web.test_streams import SEATING


def test_waitress_own_hall_stream_sends_a_tables_new_seating(app, client, store):
    """The Flask route of the hall's stream (``--debug``) too."""
    response = client.get("/api/hall/stream")
    chunks = response.response
    assert "event: hall" in next(chunks).decode()
    seatings.put(store, "1", SEATING)
    app.config["HUB"].read_seatings()  # what the hub's thread does twice a second
    update = next(chunks).decode()
    assert "event: table" in update and json.loads(update.split("data: ", 1)[1])["pairs"] == SEATING["pairs"]
    response.close()


def test_waitress_own_stream_ends_when_the_hub_stops(app, client):
    """The Flask route (a broadcast delay's, or under ``--debug``) ends too."""
    response = client.get("/api/tables/1/stream")
    chunks = response.response
    assert next(chunks).startswith(b"id: ")
    app.config["HUB"].stop()
    assert list(chunks) in ([], [b": keep-alive\n\n"])
    response.close()


def test_waitress_own_delayed_stream_lets_an_event_out_the_delay_late(app, client, store):
    """The Flask route of a delayed stream (``--debug``) holds events back as the loop does."""
    store.add_table("t9", header_json("t9"))
    time.sleep(0.6)  # the header falls due before the stream starts
    response = client.get("/api/tables/t9/stream?delay=0.5")
    chunks = response.response
    first = next(chunks).decode()
    assert "event: snapshot" in first and json.loads(first.split("data: ", 1)[1])["hand"] is None
    (deal,) = store.append("t9", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
    stored_at = time.time()
    update = next(chunks).decode()
    assert time.time() - stored_at >= 0.5 and f"id: {deal}\nevent: update" in update
    assert json.loads(update.split("data: ", 1)[1])["snapshot"]["hand"]["number"] == 1
    response.close()
