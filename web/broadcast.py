"""What a broadcast reads beyond the table's snapshot (docs/broadcast.md): its highlights
and its commentary ticker, as JSON and as a Server-Sent Events stream other tools follow.

Derived from the table's replayed match (``engine.highlights``, ``rulebook.commentary``),
worked out once per change of the table and shared (``Hub.derived``).

The ticker's stream, ``/api/tables/<id>/ticker``: one ``line`` message per line, its data
``{"n", "seq", "t", "hand", "kind", "zh", "en"}`` (and ``text`` in the language ``?lang=``
asks for), its ``id`` the line's number ``n`` (from 1), so ``Last-Event-ID`` — or
``?after=N`` — resumes after line N; a new follower gets the last ``web.feeds.TICKER_BACKLOG`` lines
first. A keep-alive comment every ``KEEPALIVE_S``. What it sends is ``web.feeds.TickerFeed``:
under ``guandan serve`` the stream loop serves it (``web.streams``), this route under Flask's
own server and where the loop leaves a request to waitress (an ``after`` that is no line's
number: 400).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from engine.highlights import highlights
from rulebook.commentary import highlight_json
from web.feeds import TickerFeed, served, ticker_after, ticker_of
from web.i18n import refuse
from web.services import hub, known_table
from web.snapshot import TableView

bp = Blueprint("broadcast", __name__)


# --- derived once per change of a table (Hub.derived) ------------------------------------

def _highlights_of(view: TableView) -> list[dict]:
    m = view.match
    return [highlight_json(m, h) for h in highlights(m)] if m is not None else []


# --- highlights and the ticker -----------------------------------------------------------

@bp.get("/api/tables/<table>/highlights")
def table_highlights(table: str):
    """Every highlight of the table's match, oldest first, with its title and line in
    both languages."""
    known_table(table)
    return jsonify(hub().derived(table, _highlights_of) or [])


@bp.get("/api/tables/<table>/ticker.json")
def ticker_lines(table: str):
    """The whole ticker so far, oldest first."""
    known_table(table)
    lines = hub().derived(table, ticker_of) or []
    return jsonify([line.to_json() | {"n": n} for n, line in enumerate(lines, start=1)])


@bp.get("/api/tables/<table>/ticker")
def ticker_stream(table: str):
    """The commentary ticker as Server-Sent Events (the module's docstring; ``web.feeds``)."""
    known_table(table)
    try:
        after = ticker_after(request.headers.get("Last-Event-ID"), request.args.get("after"))
    except ValueError:
        refuse(400, "after_not_id")
    return served(TickerFeed(hub(), table, request.args.get("lang")), after)
