"""``guandan rules``: the engine as a JSON-lines service on stdin/stdout.

For bots, referee tools and conformance tests written in any language: one request a
line, one answer a line, in order. A bad request gets ``{"ok": false, "error": …}`` and
the service keeps going. An ``"id"`` in a request is echoed in its answer.
"""

from __future__ import annotations

import json
from typing import IO

from engine.cards import InvalidCard, parse_cards, parse_level
from engine.hand import correct_tributes
from engine.legal import legal_plays
from engine.plays import PASS_TYPE, TYPES, InvalidPlay, Play, beats, classify, parse_play, strength
from engine.profile import Profile, ProfileError
from rulebook import profiles


class BadRequest(ValueError):
    pass


def _field(req: dict, key: str):
    if key not in req:
        raise BadRequest(f"missing {key!r}")
    return req[key]


def _cards(req: dict, key: str) -> list[str]:
    value = _field(req, key)
    if not isinstance(value, list):
        raise BadRequest(f"{key!r} must be a list of cards")
    return list(parse_cards(value))


def _is_triple(value) -> bool:
    return (isinstance(value, list) and len(value) == 3 and value[0] in TYPES + (PASS_TYPE,)
            and (isinstance(value[2], list) or value[2] == PASS_TYPE))


def _prev(value, level: str, profile: Profile) -> Play | None:
    """The play on the table: null, a [type, rank, cards] triple, or bare cards (read the
    way the profile reads a lead with several readings)."""
    if value is None:
        return None
    if _is_triple(value):
        return parse_play(value, level)
    if not isinstance(value, list):
        raise BadRequest("'prev' must be null, a list of cards or [type, rank, cards]")
    readings = classify(value, level)
    if not readings:
        raise BadRequest(f"'prev' {value} is not a combination at level {level}")
    pick = max if profile.play.lead_reading == "highest" else min
    return pick(readings, key=lambda r: strength(r, level))


def handle(req: object) -> dict:
    """Answer one decoded request."""
    try:
        if not isinstance(req, dict):
            raise BadRequest("a request is a JSON object with an 'op'")
        answer = _answer(req)
    except (BadRequest, InvalidCard, InvalidPlay, ProfileError) as exc:
        answer = {"ok": False, "error": str(exc)}
    if isinstance(req, dict) and "id" in req:
        answer["id"] = req["id"]
    return answer


def _answer(req: dict) -> dict:
    op = _field(req, "op")
    profile = profiles.load(str(req.get("profile", profiles.DEFAULT)))
    level = parse_level(_field(req, "level"))
    if op == "classify":
        return {"ok": True, "readings": [p.to_json() for p in classify(_cards(req, "cards"), level)]}
    if op == "beats":
        prev = _prev(_field(req, "prev"), level, profile)
        play = _field(req, "play")
        readings = [parse_play(play, level)] if _is_triple(play) else classify(_cards(req, "play"), level)
        winning = [r for r in readings if beats(r, prev, level)]
        best = min(winning, key=lambda r: strength(r, level)) if winning else None
        return {"ok": True, "beats": best is not None, "reading": best.to_json() if best else None}
    if op == "legal":
        prev = _prev(req.get("prev"), level, profile)
        return {"ok": True, "plays": [p.to_json() for p in legal_plays(_cards(req, "hand"), prev, level)]}
    if op == "tribute":
        return {"ok": True, "cards": correct_tributes(_cards(req, "hand"), level)}
    raise BadRequest(f"unknown op {op!r} (classify, beats, legal, tribute)")


def serve(inp: IO[str], out: IO[str]) -> None:
    """Answer requests line by line until end of input."""
    for line in inp:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as exc:
            answer = {"ok": False, "error": f"not valid JSON: {exc.msg}"}
        else:
            answer = handle(req)
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
