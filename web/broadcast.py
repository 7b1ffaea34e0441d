"""What a broadcast reads beyond the table's snapshot (docs/broadcast.md): its highlights
and its commentary ticker, as JSON and as a Server-Sent Events stream other tools follow.

Derived from the table's replayed match (``engine.highlights``, ``rulebook.commentary``),
worked out once per change of the table and shared (``Hub.derived``).

The ticker's stream, ``/api/tables/<id>/ticker``: one ``line`` message per line, its data
``{"n", "seq", "t", "hand", "kind", "zh", "en"}`` (and ``text`` in the language ``?lang=``
asks for), its ``id`` the line's number ``n`` (from 1), so ``Last-Event-ID`` — or
``?after=N`` — resumes after line N; a new follower gets the last ``TICKER_BACKLOG`` lines
first. A keep-alive comment every ``KEEPALIVE_S``.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request, stream_with_context

from engine.highlights import highlights
from rulebook.commentary import TickerLine, highlight_json, ticker
from rulebook.i18n import LANGS
from web.i18n import refuse
from web.services import hub, known_table
from web.snapshot import TableView
from web.sse import KEEPALIVE, KEEPALIVE_S, sse

bp = Blueprint("broadcast", __name__)

TICKER_BACKLOG = 20




# --- derived once per change of a table (Hub.derived) ------------------------------------

def _ticker_of(view: TableView) -> list[TickerLine]:
    return ticker(view.match) if view.match is not None else []


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
    lines = hub().derived(table, _ticker_of) or []
    return jsonify([line.to_json() | {"n": n} for n, line in enumerate(lines, start=1)])


def _after(count: int) -> int:
    """Lines a follower has (``Last-Event-ID`` or ``?after=``), or the backlog's start."""
    asked = request.headers.get("Last-Event-ID") or request.args.get("after")
    if asked is None:
        return max(0, count - TICKER_BACKLOG)
    if not asked.isdigit():
        refuse(400, "after_not_id")
    return int(asked)


@bp.get("/api/tables/<table>/ticker")
def ticker_stream(table: str):
    """The commentary ticker as Server-Sent Events (the module's docstring)."""
    known_table(table)
    feed = hub()
    lang = request.args.get("lang")
    lang = lang if lang in LANGS else None
    sent = _after(len(feed.derived(table, _ticker_of) or []))

    def live():
        nonlocal sent
        while not feed.stopped:
            seen = feed.last_id
            lines = feed.derived(table, _ticker_of) or []
            sent = min(sent, len(lines))  # a correction took lines back: go on from there
            out = []
            for n in range(sent + 1, len(lines) + 1):
                data = lines[n - 1].to_json() | {"n": n}
                if lang:
                    data["text"] = data[lang]
                out.append(sse("line", json.dumps(data, ensure_ascii=False), n))
            sent = len(lines)
            if out:
                yield "".join(out)
            if feed.wait(seen, KEEPALIVE_S) <= seen and not feed.stopped:
                yield KEEPALIVE

    return Response(stream_with_context(live()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
