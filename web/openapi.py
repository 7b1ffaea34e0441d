"""The OpenAPI 3 description of the JSON API, served at ``/api/openapi.json``."""

from __future__ import annotations

from web.broadcast_openapi import broadcast_paths
from web.tournament_openapi import tournament_paths

_ERROR = {"description": "an error, in both languages (Chinese first; ?lang=en: English first)",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_TABLE = {"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}
_WRITE = [{"bearer": []}, {"session": []}]


def _op(summary: str, *, params=(), body=None, ok="OK", write=False, content="application/json") -> dict:
    op: dict = {"summary": summary, "parameters": list(params),
                "responses": {"200": {"description": ok, "content": {content: {}}}, "400": _ERROR, "404": _ERROR}}
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if write:
        op["security"] = _WRITE
        op["responses"]["401"] = _ERROR
        op["responses"]["201"] = {"description": "stored", "content": {"application/json": {}}}
    return op


def _sent_down(op: dict) -> dict:
    """A hall server's console sends an act on a camera table down to its node."""
    op["responses"] |= {
        "202": {"description": "on a hall server: sent down to the camera table's node, {sent, table, act, state, "
                               "open}; it shows in the record once the table has stored it; open: the ids of the "
                               "table's queue items the act will leave open",
                "content": {"application/json": {}}},
        "409": _ERROR | {"description": "on a hall server: the table's node takes no referee acts"},
        "503": _ERROR | {"description": "on a hall server: its broker did not take the act"}}
    return op


def openapi() -> dict:
    event = {"type": "object", "required": ["seq", "t", "type"],
             "description": "a game-record line (docs/record-format.md)"}
    act = {"type": "object", "description": "the act's fields; 'by' is the caller, 'seq' and 't' are assigned"}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Guandan table scorer", "version": "1",
                 "description": "Live tables, records and referee acts. Reads are public; writes need a bearer "
                                "token (guandan user token NAME) or a referee session with its CSRF token."},
        "paths": {
            "/api/tables": {
                "get": _op("every table with its summary"),
                "post": _op("create a table from its record header", write=True, body={
                    "type": "object", "required": ["id", "header"],
                    "properties": {"id": {"type": "string"}, "header": event}}),
            },
            "/api/tables/{table}": {"get": _op("the table's snapshot", params=[_TABLE])},
            "/api/tables/{table}/events": {
                "get": _op("the table's record", params=[_TABLE, {"name": "after", "in": "query",
                                                                   "schema": {"type": "integer"}}]),
                "post": _op("append record lines (idempotent by seq)", params=[_TABLE], write=True, body={
                    "type": "object", "required": ["events"],
                    "properties": {"events": {"type": "array", "items": event}}}),
            },
            "/api/tables/{table}/stream": {"get": _op(
                "Server-Sent Events: a snapshot, then an update per event and per change of the table's "
                "tournament seating (a table node's); Last-Event-ID resumes",
                params=[_TABLE, {"name": "delay", "in": "query", "schema": {"type": "number"}}],
                content="text/event-stream")},
            "/api/hall/stream": {"get": _op("Server-Sent Events: every table's summary, then changes",
                                            content="text/event-stream")},
            "/api/tables/{table}/frames/{seq}.jpg": {"get": _op(
                "the evidence frame of an event", content="image/jpeg",
                params=[_TABLE, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}}])},
            "/api/tables/{table}/frames/{seq}": {"post": _op(
                "upload an event's evidence frame (JPEG body)", write=True,
                params=[_TABLE, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}}])},
            "/api/tables/{table}/frames/{seq}/zone.jpg": {"get": _op(
                "the seat's play zone out of an event's evidence frame (rectified, upright, readings marked); "
                "cards=1: the cards in it, enlarged to read the indices", content="image/jpeg",
                params=[_TABLE, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}},
                        {"name": "cards", "in": "query", "schema": {"type": "integer", "enum": [0, 1]}}])},
            "/api/referee/queue": {"get": _op(
                "the referees' queue: every open item, the referee's own tables first, then rulings (with the "
                "profile's penalty ladder and the rule broken), the camera's doubts (with the play, its "
                "confidence and alternatives from the reader's runner-ups), notices; each kind oldest first. "
                "Items are decided with the referee acts below (alert_done, correction, missed, penalty)",
                params=[{"name": "referee", "in": "query", "schema": {"type": "string"},
                         "description": "whose tables come first (default: the logged-in referee)"},
                        {"name": "table", "in": "query", "schema": {"type": "string"}},
                        {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
                ok="{items: [...], counts: {ruling, doubt, notice}, total}")},
            "/api/referee/assignments": {
                "get": _op("which tables each referee looks after: {referee: [table, ...]}"),
                "put": _op("give a referee their tables (taken from whoever had them; [] takes theirs away)",
                           write=True, body={"type": "object", "required": ["referee", "tables"], "properties": {
                               "referee": {"type": "string"},
                               "tables": {"type": "array", "items": {"type": "string"}}}}),
            },
            "/api/tables/{table}/referee/sent": {"get": _op(
                "on a hall server: the referee acts sent down to the camera table's node, newest first, each with "
                "its state (pending, taken, recorded with seq, refused with error); elsewhere []", params=[_TABLE])},
            "/api/tables/{table}/referee/{act}": {"post": _sent_down(_op(
                "a referee's act: correction, missed (a play or pass the camera never recorded, put in before "
                "event 'before' or at the end), level_adjust, penalty, alert_done or forfeit", write=True, body=act,
                params=[_TABLE, {"name": "act", "in": "path", "required": True, "schema": {
                    "type": "string", "enum": ["correction", "missed", "level_adjust", "penalty", "alert_done",
                                       "forfeit"]}}]))},
            "/api/openapi.json": {"get": _op("this document")},
            **tournament_paths(),
            **broadcast_paths(),
        },
        "components": {
            "schemas": {"Error": {"type": "object", "required": ["error"],
                                  "properties": {"error": {"type": "string"}}}},
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                            "description": "a logged-in referee's session cookie plus the page's CSRF token"},
            },
        },
    }
