"""The snapshot the pages are sent, held to its types (``web/snapshot_types.py``) as their JSON
Schema says them (``web/static/snapshot.schema.json``): every snapshot of a played match, built
by the hub from a store as the pages get it, fits; and every field the pages' script
(``web/static/live.js``) reads is one the schema has."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.record import parse_lines
from hall.seating import SeatedPair, SeatedResult, Seating
from rulebook import profiles
from scorer.cli import DEMO_RECORD
from store import seatings
from store.event_store import Store
from web.hub import Hub
from web.snapshot import TableView
from web.snapshot_schema import SCHEMA_FILE, schema, text

LIVE_JS = Path(__file__).parents[2] / "web" / "static" / "live.js"
SCHEMA = schema()


# --- a small validator: the parts of JSON Schema the snapshot's schema uses ----------------

def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _type_fits(value: object, kind: str) -> bool:
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "boolean": bool, "null": type(None), "object": dict,
                              "array": list}[kind])


def problems(value: object, node: dict, at: str = "$") -> list[str]:
    """Where ``value`` breaks the schema ``node``, one line per break (none: it fits)."""
    node = _resolve(node)
    if "anyOf" in node:
        each = [problems(value, option, at) for option in node["anyOf"]]
        return [] if any(not p for p in each) else [f"{at}: fits none of {len(each)}: " + "; ".join(
            min(each, key=len))]
    if "const" in node and value != node["const"]:
        return [f"{at}: {value!r} is not {node['const']!r}"]
    if "enum" in node and value not in node["enum"]:
        return [f"{at}: {value!r} not among {node['enum']}"]
    if "type" in node and not _type_fits(value, node["type"]):
        return [f"{at}: {value!r} is not {node['type']}"]
    if "pattern" in node and not re.search(node["pattern"], value):
        return [f"{at}: {value!r} does not match {node['pattern']}"]
    out: list[str] = []
    if isinstance(value, dict):
        props = node.get("properties", {})
        out += [f"{at}: no {key!r}" for key in node.get("required", ()) if key not in value]
        for key, item in value.items():
            if key in props:
                out += problems(item, props[key], f"{at}.{key}")
            elif node.get("additionalProperties") is False:
                out.append(f"{at}: {key!r} is not in the schema")
            elif isinstance(node.get("additionalProperties"), dict):
                out += problems(item, node["additionalProperties"], f"{at}.{key}")
            if "propertyNames" in node:
                out += problems(key, node["propertyNames"], f"{at} key {key!r}")
    if isinstance(value, list):
        if not node.get("minItems", 0) <= len(value) <= node.get("maxItems", len(value)):
            out.append(f"{at}: {len(value)} items")
        first = node.get("prefixItems", [])
        for i, item in enumerate(value):
            part = first[i] if i < len(first) else node.get("items")
            if part is not None:
                out += problems(item, part, f"{at}[{i}]")
    return out


def test_the_validator_finds_what_breaks_the_schema():
    """The checks below mean something only if a snapshot that breaks the schema is caught."""
    waiting = {"table": "1", "id": 0, "error": None, "error_text": None, "ready": False, "seating": None}
    assert problems(waiting, SCHEMA) == []
    assert problems(waiting | {"ready": "no"}, SCHEMA)
    assert problems(waiting | {"extra": 1}, SCHEMA)
    assert problems({k: v for k, v in waiting.items() if k != "id"}, SCHEMA)
    card = SCHEMA["$defs"]["TrickTurn"]
    assert problems({"seat": "E", "play": None, "cards": ["S5"], "seq": 3}, card) == []
    assert problems({"seat": "X", "play": None, "cards": ["S5"], "seq": 3}, card)
    assert problems({"seat": "E", "play": None, "cards": ["S10"], "seq": 3}, card)
    assert problems({"seat": "E", "play": ["Pair", "5", ["S5", "H5"]], "cards": ["S5", "H5"], "seq": 3}, card) == []
    assert problems({"seat": "E", "play": ["Pairs", "5", ["S5", "H5"]], "cards": ["S5", "H5"], "seq": 3}, card)


def test_the_committed_schema_is_the_one_the_types_make():
    """``python -m web.snapshot_schema`` writes it: a type changed without it fails here."""
    assert SCHEMA_FILE.read_text(encoding="utf-8") == text()


# --- real snapshots -------------------------------------------------------------------------

def _record_with_referee_acts() -> list[dict]:
    """The bundled demo match (its tributes, returns, missed reports and time called), with
    a referee's penalty and a dismissed alert put in after the third deal."""
    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    lines = [e.to_json() for e in record.events]
    at = next(i for i, line in enumerate(lines) if line["type"] == "deal" and line["seq"] > 200)
    acts = [{"type": "penalty", "seat": "E", "penalty": "warning", "alert": 68, "by": "li", "why": "told twice"},
            {"type": "alert_done", "alert": 203, "action": "dismiss", "by": "li", "why": "heard it"}]
    out = lines[:at] + [act | {"t": lines[at - 1]["t"]} for act in acts] + lines[at:]
    return [line | {"seq": seq} for seq, line in enumerate(out)]


def _seating() -> dict:
    """A tournament table's seating as its node keeps it: a result awaiting confirmation,
    one side pressed."""
    seating = Seating("杯", 2, 5, 1, {"NS": SeatedPair("p3", "第3队", 3), "EW": SeatedPair("p8", "第8队", 8)},
                      "provisional", SeatedResult(7, "NS", "time", {"NS": "9", "EW": "5"}))
    return seating.to_json() | {"pressed": {"NS": "N"}}


def test_every_snapshot_of_a_played_match_fits_the_schema(tmp_path):
    """The hub's snapshots (and the hall's cards) of a whole match, taken after every deal,
    tribute and return and the events around them, every 25th event and at the end: the
    first lead, tricks on the table and ended, tribute and return, hands over, a penalty, a
    dismissed alert, the result, a tournament seating."""
    lines = _record_with_referee_acts()
    store = Store(tmp_path / "hall.db")
    store.add_table("1", lines[0])
    seatings.put(store, "1", _seating())
    hub = Hub(store)
    hub.read_seatings()
    turns = {i + d for i, line in enumerate(lines) if line["type"] in ("deal", "tribute", "return", "penalty")
             for d in (0, 1, 2)}
    taken = sorted({i for i in turns if 0 < i < len(lines)} | set(range(25, len(lines), 25)) | {len(lines) - 1})
    seen, done = set(), 1
    for upto in taken:
        store.append("1", lines[done:upto + 1])
        done = upto + 1
        hub.catch_up()
        snap = json.loads(hub.snapshot("1")[1])
        assert problems(snap, SCHEMA) == [], upto
        assert problems(hub.summary("1"), SCHEMA["$defs"]["HallSummary"]) == [], upto
        hand = snap["hand"] or {}
        seen |= {hand.get("phase"), bool(hand.get("top")), hand.get("trick_is_last"),
                 bool(snap["result"]), bool(snap["chance"] and snap["chance"]["swing"])}
        seen |= {a["status"] for a in snap["alerts"]}
    assert {"tribute", "return", "play", "over", True, "open", "penalised", "dismissed"} <= seen
    assert snap["result"] is not None and snap["seating"]["pressed"] == {"NS": "N"}
    assert problems(hub.summary("none such"), SCHEMA["$defs"]["HallSummary"]) == []


def test_a_table_not_yet_started_fits_the_schema():
    view = TableView("9", profiles.load)
    assert problems(json.loads(json.dumps(view.snapshot())), SCHEMA) == []


# --- what live.js reads ------------------------------------------------------------------

#: each function of live.js, and the schema definition each of its names that hold snapshot
#: data stands for; a function that reads none maps nothing. A new function, or a new name
#: for snapshot data in one, is added here, so its reads are checked too
READS: dict[str, dict[str, str]] = {
    "esc": {}, "stream": {}, "levelName": {}, "rankName": {}, "cardImg": {}, "playName": {}, "clockText": {},
    "tickClock": {},
    "clockSpan": {"hand": "HandState"},
    "seatName": {"snap": "TableSnapshot"},
    "seatedPair": {"snap": "TableSnapshot"},
    "pairsHTML": {"pairs": "SeatingJson.pairs"},
    "hallCard": {"s": "HallCard"},
    "seatingHTML": {"st": "SeatingJson", "r": "SeatedResult"},
    "renderTable": {"s": "TableSnapshot", "hand": "HandState", "info": "SeatState", "pair": "SeatedPair",
                    "t": "TrickTurn", "x": "TributeJson ReturnJson", "a": "AlertJson", "l": "LogLine"},
    "trackerHTML": {"t": "TrackerSummary"},
    "winChanceHTML": {"c": "ChanceJson"},
    "renderOverlay": {"s": "TableSnapshot", "hand": "HandState", "info": "SeatState", "t": "TrickTurn",
                      "play": "TrickTurn"},
}
#: what JavaScript itself gives arrays and strings
BUILTINS = {"length", "map", "includes", "join", "slice", "reverse", "filter", "some", "forEach", "replace"}


def _functions(source: str) -> dict[str, str]:
    """Each top-level function of the script and its text."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"^function (\w+)\(", source, re.M)]
    return {name: source[start:end] for (start, name), (end, _) in zip(starts, starts[1:] + [(len(source), "")],
                                                                        strict=True)}


def _step(node: dict, key: str | None) -> list[dict]:
    """Where reading ``key`` (None: a key the script works out) of ``node`` leads; empty when
    the schema has no such field."""
    node = _resolve(node)
    if "anyOf" in node:
        return [found for option in node["anyOf"] for found in _step(option, key)]
    if node.get("type") == "null":
        return []
    if node.get("type") == "object":
        props, more = node.get("properties", {}), node.get("additionalProperties")
        if key is None:
            return list(props.values()) + ([more] if isinstance(more, dict) else [])
        if key in props:
            return [props[key]]
        named = _resolve(node.get("propertyNames", {})).get("enum")
        return [more] if isinstance(more, dict) and (named is None or key in named) else []
    if node.get("type") == "array" and key is None:
        return [node["items"]] if "items" in node else []
    return []


def _definition(path: str) -> dict:
    name, *keys = path.split(".")
    node = SCHEMA["$defs"][name]
    for key in keys:
        (node,) = _step(node, key)
    return node


def _unknown_reads(body: str, names: dict[str, str]) -> list[str]:
    out = []
    chain = r"((?:\??\.[A-Za-z_]\w*|\??\.?\[[^\]\[]*\])+)"
    for name, paths in names.items():
        for m in re.finditer(rf"(?<![\w.$]){name}{chain}", body):
            steps = re.findall(r"\??\.?(?:([A-Za-z_]\w*)|\[[^\]\[]*\])", m.group(1))
            nodes = [_definition(path) for path in paths.split()]
            for key in steps:
                kinds = {_resolve(n).get("type") for n in nodes}
                if key in BUILTINS and kinds & {"array", "string"}:
                    break
                nodes = [found for n in nodes for found in _step(n, key or None)]
                if not nodes:
                    out.append(f"{name}{m.group(1)}")
                    break
    return out


def test_every_field_live_js_reads_is_in_the_schema():
    """live.js is tested against the schema: every read of snapshot data in it, ``s.hand.top.seat``
    and ``hand?.seats?.[seat]`` alike, is a field the schema has, on every function of it."""
    functions = _functions(LIVE_JS.read_text(encoding="utf-8"))
    assert set(functions) == set(READS), "a function of live.js is not in READS"
    unknown = {name: _unknown_reads(body, READS[name]) for name, body in functions.items()}
    assert {name: reads for name, reads in unknown.items() if reads} == {}


def test_a_read_the_schema_lacks_is_caught():
    """The check above would see a page reading a field the snapshot does not have."""
    assert _unknown_reads("x = s.hand.top.seat + s.hand.trick.length + s.levels.EW", {"s": "TableSnapshot"}) == []
    assert _unknown_reads("x = s.hand.top.seats", {"s": "TableSnapshot"}) == ["s.hand.top.seats"]
    assert _unknown_reads("x = hand?.seats?.[seat].card", {"hand": "HandState"}) == ["hand?.seats?.[seat].card"]
    assert _unknown_reads("x = s.levels.NS + s.levels.SN", {"s": "TableSnapshot"}) == ["s.levels.SN"]
