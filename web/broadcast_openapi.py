"""The broadcast's part of the OpenAPI document (web/broadcast.py): highlights, the
commentary ticker, statistics."""

from __future__ import annotations

_TABLE = {"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}
_ERROR = {"description": "an error, in both languages (Chinese first; ?lang=en: English first)",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _get(summary: str, params=(), content: str = "application/json") -> dict:
    return {"get": {"summary": summary, "parameters": list(params),
                    "responses": {"200": {"description": "OK", "content": {content: {}}}, "400": _ERROR,
                                  "404": _ERROR}}}


def broadcast_paths() -> dict:
    after = {"name": "after", "in": "query", "schema": {"type": "integer"},
             "description": "the lines the follower has (Last-Event-ID too); default: the last 20 first"}
    lang = {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["zh", "en"]},
            "description": "also give each line's text in this language as 'text'"}
    return {
        "/api/tables/{table}/highlights": _get(
            "the match's highlights, oldest first: kind (bomb, joker_bomb, straight_flush, jiefeng, double_down, "
            "resist, pass_a), seq, t, hand, seat, side, seats, size, play, on, and title and line in zh and en",
            [_TABLE]),
        "/api/tables/{table}/ticker.json": _get(
            "the commentary ticker so far, oldest first: n, seq, t, hand, kind, zh, en", [_TABLE]),
        "/api/tables/{table}/ticker": _get(
            "Server-Sent Events: the commentary ticker, a 'line' message per line ({n, seq, t, hand, kind, zh, "
            "en[, text]}, id n); Last-Event-ID or after resumes", [_TABLE, after, lang], "text/event-stream"),
        "/api/tables/{table}/stats": _get(
            "the match's statistics: each seat's (bombs, first out 上游 and its rate, places, tributes paid and "
            "received, jiefeng, plays, passes, think time average and longest) and the table's, with the "
            "figures' names in zh and en (labels)", [_TABLE]),
        "/api/stats": _get(
            "every table's statistics and each player's over the tables they played (by the name in the "
            "records' headers), with the figures' names in zh and en"),
        "/api/tournaments/{tid}/stats": _get(
            "a tournament's statistics, its matches only: the records kept with its results (tables named R-N, "
            "round R's table N), each player's over them, the total, and how many results have no record "
            "(without_record: typed or forfeited, not counted)",
            [{"name": "tid", "in": "path", "required": True, "schema": {"type": "integer"}}]),
    }
