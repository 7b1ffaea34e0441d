"""The JSON API and the live streams (Server-Sent Events).

Reads are public. Writes — a table node publishing its record and evidence frames, a
referee's act — need a bearer token or a referee session (``auth.api_writer``). Every
error is JSON: ``{"error": "…"}``, in both languages, Chinese first (``?lang=en``: English
first; ``web.i18n.refuse``). The OpenAPI document is served at ``/api/openapi.json``.

Streams: ``/api/tables/<id>/stream`` sends the table's full snapshot first (on every
connect and reconnect: OBS reloads browser sources), then one numbered message per new
event (``id:`` is the store's global event id, so ``Last-Event-ID`` resumes); with
``?delay=S`` everything arrives S seconds late (a broadcast delay against cheating, which
hides nothing). ``/api/hall/stream`` sends every table's summary, then each change. What
each stream sends is its feed's (``web.feeds``); under ``guandan serve`` the stream loop
(``web.streams``) serves them, and these routes only under Flask's own server and where
the loop leaves a request to waitress.
"""

from __future__ import annotations

import dataclasses

from flask import Blueprint, Response, current_app, g, jsonify, request

from engine.events import Header, RecordError, event_from_json
from engine.profile import ProfileError
from hall.errors import HallError
from store.event_store import StoreError
from store.referee_acts import REFEREE_ACTS, act_fields, build_act
from web import evidence, referee_queue
from web.auth import api_writer, current_user
from web.feeds import DelayedFeed, HallFeed, TableFeed, served
from web.i18n import refuse
from web.openapi import openapi
from web.sse import MAX_DELAY_S

bp = Blueprint("api", __name__, url_prefix="/api")


def _store():
    return current_app.config["STORE"]


def _hub():
    return current_app.config["HUB"]


def _json_body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        refuse(400, "send_json")
    return data


def _table(table: str):
    if not _store().has_table(table):
        refuse(404, "unknown_table", table=table)
    _hub().catch_up()
    return _hub().view(table)


# --- reads ----------------------------------------------------------------------------------

@bp.get("/openapi.json")
def openapi_document():
    return jsonify(openapi())


@bp.get("/tables")
def tables():
    _hub().catch_up()
    return jsonify([_hub().summary(t["id"]) | {"profile": t["profile"]} for t in _store().tables()])


@bp.get("/tables/<table>")
def table_snapshot(table: str):
    _table(table)
    return Response(_hub().snapshot(table)[1], mimetype="application/json")


@bp.get("/tables/<table>/events")
def table_events(table: str):
    _table(table)
    after = request.args.get("after", "0")
    if not after.isdigit():
        refuse(400, "after_not_id")
    return jsonify([s.body | {"_id": s.id} for s in _store().events(table, int(after))])


@bp.get("/tables/<table>/frames/<int:seq>.jpg")
def frame(table: str, seq: int):
    jpeg = _store().frame(table, seq)
    if jpeg is None:
        refuse(404, "no_frame", table=table, seq=seq)
    return Response(jpeg, mimetype="image/jpeg")


@bp.get("/tables/<table>/frames/<int:seq>/zone.jpg")
def frame_zone(table: str, seq: int):
    """The seat's zone out of an event's evidence frame; ``?cards=1``: the cards in it,
    enlarged to read the indices (``web.evidence``)."""
    jpeg = _store().frame(table, seq)
    cut = evidence.close_up if request.args.get("cards") else evidence.zone
    picture = cut(jpeg) if jpeg is not None else None
    if picture is None:
        refuse(404, "no_frame", table=table, seq=seq)
    return Response(picture, mimetype="image/jpeg")


@bp.get("/referee/queue")
def referee_queue_items():
    """The referees' queue: open items, ``referee``'s tables first, then rulings, doubts,
    notices, oldest first (``web.referee_queue``)."""
    limit = request.args.get("limit", "")
    if limit and not limit.isdigit():
        refuse(400, "limit_not_count")
    table = request.args.get("table")
    if table is not None and not _store().has_table(table):
        refuse(404, "unknown_table", table=table)
    return jsonify(referee_queue.queue(_hub(), _store(), request.args.get("referee") or current_user(),
                                       None if table is None else [table], int(limit) if limit else None))


@bp.get("/referee/assignments")
def referee_assignments():
    return jsonify(referee_queue.assignments(_store()))


# --- streams --------------------------------------------------------------------------------

def broadcast_delay() -> float:
    """The ``delay`` URL option (a broadcast delay in seconds), or 400 when it is not one."""
    try:
        delay = float(request.args.get("delay", "0"))
        if not 0 <= delay <= MAX_DELAY_S:
            raise ValueError
    except ValueError:
        refuse(400, "delay_range")
    return delay


@bp.get("/tables/<table>/stream")
def table_stream(table: str):
    """A table's stream, or as it stood ``?delay=S`` seconds ago (``web.feeds``)."""
    _table(table)
    delay_s = broadcast_delay()
    return served(DelayedFeed(_hub(), table, delay_s) if delay_s else TableFeed(_hub(), table))


@bp.get("/hall/stream")
def hall_stream():
    """The hall's stream: every table's summary, then each change (``web.feeds``)."""
    return served(HallFeed(_hub()))


@bp.get("/tables/<table>/referee/sent")
def sent_acts(table: str):
    """On a hall server: the referee acts sent down to this camera table's node, newest
    first, with what became of each (pending, taken, recorded as ``seq``, refused with
    ``error``). Elsewhere acts are stored at once, and the list is empty."""
    _table(table)
    hall = current_app.config["HALL"]
    return jsonify([dataclasses.asdict(a) for a in hall.sent.all(table)] if hall is not None else [])


# --- writes ---------------------------------------------------------------------------------

@bp.post("/tables")
@api_writer
def create_table():
    data = _json_body()
    table, header = data.get("id"), data.get("header")
    if not isinstance(table, str) or not isinstance(header, dict):
        refuse(400, "table_body")
    try:
        event = event_from_json(header)
    except (RecordError, ValueError) as exc:
        refuse(400, "header_bad", why=exc)
    if not isinstance(event, Header):
        refuse(400, "header_first")
    try:
        current_app.config["PROFILE_FOR"](event.profile)
        _store().add_table(table, event.to_json())
    except (ProfileError, StoreError) as exc:  # the header's profile, the table's id: the rule books' words
        refuse(400, exc.code, **exc.values)
    _hub().catch_up()
    return jsonify({"table": table}), 201


@bp.post("/tables/<table>/events")
@api_writer
def append_events(table: str):
    _table(table)
    data = _json_body()
    bodies = data.get("events")
    if not isinstance(bodies, list) or not bodies:
        refuse(400, "events_body")
    checked = []
    for i, body in enumerate(bodies):
        try:
            event = event_from_json(body)
        except RecordError as exc:
            refuse(400, "event_bad", i=i, why=exc)
        if isinstance(event, Header):
            refuse(400, "event_header", i=i)
        checked.append(event.to_json())
    _check_replays(table, checked)
    try:
        ids = _store().append(table, checked)
    except StoreError as exc:
        refuse(400, exc.code, **exc.values)
    _hub().catch_up()
    return jsonify({"stored": sum(1 for i in ids if i is not None), "duplicates": sum(1 for i in ids if i is None)})


@bp.post("/tables/<table>/frames/<int:seq>")
@api_writer
def put_frame(table: str, seq: int):
    _table(table)
    try:
        _store().put_frame(table, seq, request.get_data())
    except StoreError as exc:
        refuse(400, exc.code, **exc.values)
    _hub().frame_added()
    return jsonify({"table": table, "seq": seq}), 201


@bp.post("/tables/<table>/referee/<act>")
@api_writer
def referee_act(table: str, act: str):
    """A referee's act on a table, recorded with who made it and why."""
    _table(table)
    if act not in REFEREE_ACTS:
        refuse(404, "no_act", act=act, acts=", ".join(REFEREE_ACTS))
    event = record_act(table, act, _json_body(), g.user)
    return jsonify(event), 202 if "sent" in event else 201


@bp.put("/referee/assignments")
@api_writer
def assign_tables():
    """Give a referee their tables (a table has one referee; none: take theirs away)."""
    data = _json_body()
    referee, tables = data.get("referee"), data.get("tables")
    if not isinstance(referee, str) or not referee or not isinstance(tables, list) or not all(
            isinstance(t, str) for t in tables):
        refuse(400, "assign_body")
    unknown = [t for t in tables if not _store().has_table(t)]
    if unknown:
        refuse(400, "unknown_table", table=unknown[0])
    return jsonify(referee_queue.assign(_store(), referee, tables))


def _check_replays(table: str, new: list[dict]) -> None:
    """Refuse what would break the table's record (400 with the reason): the stored events
    plus the new ones (minus those already stored) must still replay. ``Replays`` keeps the
    stored record replayed, so a write costs what it adds, not the record's length."""
    view = _hub().view(table)
    try:
        current_app.config["REPLAYS"].check(table, view.stored if view else [], new, current_app.config["PROFILE_FOR"])
    except RecordError as exc:
        refuse(400, "record_would_break", why=exc)


def record_act(table: str, act: str, fields: dict, user: str) -> dict:
    """Build, check and store a referee's act as the table's next event. On a hall server's
    console, an act on a table whose record comes from its node goes down to the node
    instead (``hall.acts``): the answer then is ``{"sent": id, …, "open": […]}`` (the
    table's items the act will leave open: ``referee_queue.open_after``), and the act
    appears in the record when the node has stored it."""
    hall = current_app.config["HALL"]
    route = hall.route(table) if hall is not None else None
    if route == "refuse":
        refuse(409, "node_takes_no_acts", table=table)
    store, hub = _store(), _hub()
    view = hub.view(table)
    stored = view.stored if view else []
    try:
        event = build_act(act, fields, user, [s.body for s in stored], store.next_seq(table))
    except RecordError as exc:
        refuse(400, "act_refused", table=table, why=exc)
    _check_replays(table, [event.to_json()])
    if route == "send":
        try:
            act_id = hall.send_act(table, act, act_fields(event), user)
        except HallError as exc:
            refuse(503, "act_not_sent", why=exc)
        return {"sent": act_id, "table": table, "act": act, "state": "pending",
                "open": referee_queue.open_after(view, event.to_json()) if view else []}
    try:
        store.append(table, [event.to_json()])
    except StoreError as exc:
        refuse(400, exc.code, **exc.values)
    except RecordError as exc:
        refuse(400, "act_refused", table=table, why=exc)
    hub.catch_up()
    return event.to_json()
