"""The tournament API's part of the OpenAPI document (``web/openapi.py`` merges it in):
reads are public; entering a result, confirming one and drawing a round need a bearer token
or a referee session with its CSRF header, as every write of the API does."""

from __future__ import annotations

_ERROR = {"description": "an error, in both languages",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_TID = {"name": "tid", "in": "path", "required": True, "schema": {"type": "integer", "enum": [1]},
        "description": "the tournament in the server's database (one a database: 1)"}
_ROUND = {"type": "integer", "minimum": 1, "description": "the round (default: the latest drawn)"}


def _read(summary: str, params: tuple = (), content: str = "application/json") -> dict:
    return {"summary": summary, "parameters": [_TID, *params],
            "responses": {"200": {"description": "OK", "content": {content: {}}}, "404": _ERROR}}


def _write(summary: str, body: dict, params: tuple = (), created: str = "stored") -> dict:
    return {"summary": summary, "parameters": [_TID, *params], "security": [{"bearer": []}, {"session": []}],
            "requestBody": {"required": False, "content": {"application/json": {"schema": body}}},
            "responses": {"201": {"description": created, "content": {"application/json": {}}},
                          "400": _ERROR | {"description": "refused (a table not in the round, a second result, a "
                                                          "record of another match or profile, results missing or "
                                                          "provisional …), in both languages; nothing entered"},
                          "401": _ERROR, "404": _ERROR}}


def tournament_paths() -> dict:
    result = {"type": "object", "required": ["table"], "properties": {
        "table": {"type": "integer", "minimum": 1}, "round": _ROUND,
        "pairs": {"type": "array", "items": {"type": "string"}, "description": "the table's two pairs, A then B"},
        "levels": {"type": "array", "items": {"type": "string"},
                   "description": "final levels of A and B (A+: passed A)"},
        "winner": {"type": "string", "description": "equal levels: the pair that won the extra hand"},
        "forfeit": {"type": "string", "description": "the pair or side (NS/EW) that forfeits"},
        "record": {"type": "string",
                   "description": "the table's game record (JSON lines): provisional until confirmed"},
        "source": {"type": "string", "description": "where the record comes from (kept as its evidence)"}},
        "description": "exactly one of levels (with pairs), forfeit, record"}
    enter = _write("enter a table's result: levels or a forfeit (final), or its record (provisional); 200 when the "
                   "same record was entered already", result)
    enter["responses"]["200"] = {"description": "the same record was entered already: that entry", "content": {
        "application/json": {}}}
    return {
        "/api/tournaments/{tid}": {"get": _read(
            "the tournament: settings, standings, the current round's draw with each table's state "
            "(playing, provisional, final, bye), pair names, withdrawals, version")},
        "/api/tournaments/{tid}/standings": {"get": _read(
            "the standings: columns (the profile's tie-break chain) and ranked rows")},
        "/api/tournaments/{tid}/draws": {"get": _read(
            "every round's draw (or one: ?round=N), each table with its state and the result that counts",
            ({"name": "round", "in": "query", "schema": {"type": "integer"}},)),
            "post": _write("draw the next round, once every result of the last one is in and final",
                           {"type": "object", "properties": {"round": _ROUND}}, created="drawn")},
        "/api/tournaments/{tid}/results": {"get": _read(
            "every entry in the order entered, corrections and confirmations included (the audit trail)"),
            "post": enter},
        "/api/tournaments/{tid}/results/{table}/confirm": {"post": _write(
            "a referee confirms the table's provisional result; 'entry' (optional) is the one shown, refused if the "
            "result has changed since",
            {"type": "object", "properties": {"round": _ROUND, "entry": {"type": "integer"}}},
            ({"name": "table", "in": "path", "required": True, "schema": {"type": "integer"}},), created="confirmed")},
        "/api/tournaments/{tid}/results/{entry}/record": {"get": _read(
            "the game record kept with a result entered from it, its evidence (JSON lines); 404 for a result "
            "typed by a referee",
            ({"name": "entry", "in": "path", "required": True, "schema": {"type": "integer"}},),
            content="application/x-ndjson")},
        "/api/tournaments/{tid}/stream": {"get": _read(
            "Server-Sent Events: the store's version now, then each time anything is entered",
            content="text/event-stream")},
    }
