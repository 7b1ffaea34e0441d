"""The referee's queue: every open alert of a hall's tables as an item decided at a glance.

An item is one of three kinds, in this order: a **ruling** (a player broke a rule the
engine names: the profile's penalty ladder and the rule broken come with it), a **doubt**
(the camera is unsure of what it read: a low confidence, a reading it mended, a zone it
could not read, so perhaps a play it missed — never offered a penalty), a **notice**
(everything else: a referee call, an act the table could not take). Each item carries what
deciding it needs: the play as recorded and as the camera read it, the whole-play
alternatives made from the reader's runner-ups (``choices`` of the play line) and from
what the camera read before it mended a reading, what the engine made of it, when, and
for a ruling the rule books' own words (``rulebook.rule_words``).

Deciding an item is an ordinary referee act (``store.referee_acts``, through
``api.record_act``): this module only reads. Items are worked out per table once per change
(``Hub.derived``), so a console over thousands of tables costs what changed. Tables may be
assigned to referees (a store setting); each referee's own tables come first.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable

from engine.events import Missed, Pass, Penalty, PlayCards
from engine.violations import RULES
from rulebook.rule_words import rule_words
from store.event_store import Store, StoredEvent
from web.hub import Hub
from web.snapshot import TableView

KINDS = ("ruling", "doubt", "notice")
#: what the camera was unsure of: a play it may have misread, a zone it could not read
DOUBTS = frozenset({"low_confidence", "camera_recount", "zone_covered", "unread_card", "third_copy",
                    "too_many_copies", "no_combination", "unlikely_flush", "would_not_beat", "recount_now"})
#: the penalties a referee may give (``engine.match`` knows each), mildest first
PENALTIES = ("warning", "violation", "foul", "level_loss", "match_loss")
#: whole-play alternatives offered for a doubt: keys 1–9 pick them
ALTERNATIVES = 9
#: plays and passes after a covered zone's note where its missed play may be put in
MISSED_PLACES = 4
ASSIGNMENTS = "referee_tables"  # the store setting: {referee: [table, …]}


def kind_of(code: str) -> str:
    """Which kind of item an alert ``code`` makes."""
    if code in RULES:
        return "ruling"
    return "doubt" if code in DOUBTS else "notice"


def table_items(view: TableView) -> list[dict]:
    """The open items of one table, oldest first (``Hub.derived`` keeps them per change).
    An event's alerts make one item, of its most pressing kind: a referee's act closes
    them together (``alert_done`` and ``penalty`` name the event)."""
    if view.match is None:
        return []
    lines = {s.seq: s for s in view.stored}
    entries = {e.event.seq: e for e in view.match.history}
    tally = _penalties_given(view)
    ladder = [{"penalty": s.penalty, "count": s.count, "becomes": s.becomes}
              for s in view.match.profile.penalties.ladder]
    by_event: dict[int, list[dict]] = {}
    for alert in view.alerts():
        if alert["status"] == "open":
            by_event.setdefault(alert["id"], []).append(alert)
    items = []
    for seq, alerts in by_event.items():
        alerts.sort(key=lambda a: KINDS.index(kind_of(a["code"])))
        first = alerts[0]
        codes = [a["code"] for a in alerts]
        rulings = [a for a in alerts if kind_of(a["code"]) == "ruling"]
        about = next((n for n in (_play_seq(a, lines) for a in alerts) if n is not None), None)
        line = lines[about].body if about in lines else None
        play = _play(line, entries.get(about)) if line and line.get("type") in ("play", "pass", "missed") else None
        seat = next((a["seat"] for a in alerts if a["seat"]), None)
        item = {
            "key": f"{view.table}:{seq}", "table": view.table, "name": view.match.header.table or view.table,
            "id": seq, "kind": kind_of(first["code"]), "codes": codes, "seat": seat, "hand": first["hand"],
            "received": lines[seq].received, "play": play,
            "text": {lang: ("；" if lang == "zh" else "; ").join(dict.fromkeys(a[lang] for a in alerts))
                     for lang in ("zh", "en")},
            "rule": "; ".join(dict.fromkeys(a["rule"] for a in rulings if a["rule"])),
            "words": [w for code in dict.fromkeys(a["code"] for a in rulings)
                      for w in rule_words(view.match.profile.profile.sources, code)],
        }
        alternatives = {tuple(alt["cards"]): alt for a in reversed(alerts) if play is not None
                        and kind_of(a["code"]) == "doubt" for alt in _alternatives(a, line, play["cards"])}
        item["alternatives"] = sorted(alternatives.values(), key=lambda alt: -alt["confidence"])[:ALTERNATIVES]
        if rulings and rulings[0]["seat"]:
            item["penalty"] = {"proposed": rulings[0]["detail"].get("penalty") or "warning", "ladder": ladder,
                               "given": tally.get(rulings[0]["seat"], {}), "seat": rulings[0]["seat"]}
        if "zone_covered" in codes:
            item["missed_before"] = [s.seq for s in view.stored if s.seq > seq
                                     and s.body.get("type") in ("play", "pass")][:MISSED_PLACES]
        items.append(item)
    return items


def open_after(view: TableView, event: dict) -> list[int]:
    """The items of the table still open once ``event`` (a referee's act) is recorded, by
    their ``id``. At a hall server an act on a camera table is recorded at the table's node
    a moment later, so the queue cannot tell yet whether a correction closed its item or
    left a camera note open for the referee to acknowledge: this tells it now, from the
    record as the hall has it with the act on top."""
    after = TableView(view.table, view.profile_for)
    for stored in [*view.stored, StoredEvent(view.last_id + 1, view.table, event["seq"], event, time.time())]:
        after.add(stored)
    return [item["id"] for item in table_items(after)]


def _play_seq(alert: dict, lines: dict) -> int | None:
    """The play or pass an alert is about: none for a covered zone (its play, if any, was
    missed); for a camera note, told as the play was being read and so written just before
    it, the seat's next play; else the alert's own (a violation's event, a low-confidence
    play, the play the camera corrected)."""
    if alert["code"] == "zone_covered":
        return None
    if lines[alert["id"]].body.get("type") == "camera_note":
        return next((seq for seq, s in lines.items() if seq > alert["id"] and s.body.get("type") == "play"
                     and s.body.get("seat") == alert["seat"]), None)
    shown = lines.get(alert["seq"])
    if alert["seat"] and shown is not None and shown.body.get("seat") not in (None, alert["seat"]):
        # found at another seat's turn (a card count not reported after the offender's play)
        return max((seq for seq, s in lines.items() if seq < alert["seq"] and s.body.get("seat") == alert["seat"]
                    and s.body.get("type") in ("play", "missed")), default=None)
    return alert["seq"]


def _play(line: dict, entry) -> dict:
    """A play as its line recorded it and as the match now holds it (a correction may have
    changed it): its cards, the camera's confidence and per-card choices, the engine's reading."""
    event = entry.event if entry is not None else None
    now = list(event.cards) if isinstance(event, (PlayCards, Missed)) else [] if isinstance(event, Pass) else None
    return {"seq": line["seq"], "seat": line.get("seat"), "cards": now if now is not None else line.get("cards", []),
            "read": line.get("cards", []), "confidence": line.get("confidence"), "choices": line.get("choices"),
            "reading": entry.reading.to_json() if entry is not None and entry.reading is not None else None,
            "violations": [v.code for v in entry.violations] if entry is not None else []}


def _alternatives(alert: dict, line: dict, cards: list[str]) -> list[dict]:
    """Other plays the cards may have been, likeliest first: one card swapped for its
    runner-up (the reader's ``choices``), or the reading the camera had before it mended it."""
    out: dict[tuple[str, ...], float] = {}
    read = tuple(line.get("cards", []))
    detail = alert["detail"]
    if alert["code"] == "third_copy" and detail.get("taken") in cards:
        swapped = [detail["read"] if c == detail["taken"] else c for c in cards]
        out[tuple(swapped)] = float(detail.get("confidence", 0.0))
    for key in ("read", "was"):
        if alert["code"] != "third_copy" and isinstance(detail.get(key), str) and detail[key].strip():
            out.setdefault(tuple(detail[key].split()), 0.0)
    if alert["code"] == "camera_recount" and read:
        out.setdefault(read, 0.0)
    for i, slot in enumerate(line.get("choices") or []):
        if i >= len(cards):
            break
        for name, conf in slot[1:]:
            play = (*cards[:i], name, *cards[i + 1:])
            out[play] = max(conf, out.get(play, 0.0))
    out.pop(tuple(cards), None)
    ranked = sorted(out.items(), key=lambda kv: -kv[1])[:ALTERNATIVES]
    return [{"cards": list(play), "confidence": conf} for play, conf in ranked]


def _penalties_given(view: TableView) -> dict[str, dict[str, int]]:
    """Each seat's penalties so far this match, by kind (the ladder counts them)."""
    tally: dict[str, dict[str, int]] = {}
    for e in view.match.history:
        if isinstance(e.event, Penalty):
            seat = tally.setdefault(e.event.seat, {})
            seat[e.event.penalty] = seat.get(e.event.penalty, 0) + 1
    return tally


# --- the hall's queue ---------------------------------------------------------------------

def assignments(store: Store) -> dict[str, list[str]]:
    """Which tables each referee looks after (none set: every referee sees every table alike)."""
    text = store.setting(ASSIGNMENTS)
    return json.loads(text) if text else {}


def assign(store: Store, referee: str, tables: Iterable[str]) -> dict[str, list[str]]:
    """Give ``referee`` these tables (none: takes them all away); a table has one referee,
    so a table given here is taken from whoever had it. Returns the assignments now."""
    given = list(dict.fromkeys(tables))
    now = {who: [t for t in mine if t not in given] for who, mine in assignments(store).items() if who != referee}
    if given:
        now[referee] = given
    now = {who: mine for who, mine in now.items() if mine}
    store.put_setting(ASSIGNMENTS, json.dumps(now, ensure_ascii=False))
    return now


def queue(hub: Hub, store: Store, referee: str | None, tables: Iterable[str] | None = None,
          limit: int | None = None) -> dict:
    """The open items of ``tables`` (all: every table) in the order a referee works them:
    ``referee``'s own tables first, then rulings, doubts, notices, each oldest first. With
    ``limit``, the first that many items and the count of every kind."""
    owner = {t: who for who, mine in assignments(store).items() for t in mine}
    names = [t["id"] for t in store.tables()] if tables is None else list(tables)
    hub.catch_up()
    found = []
    for table in names:
        who = owner.get(table)
        found.extend(item | {"referee": who, "mine": referee is not None and who == referee}
                     for item in hub.derived(table, table_items) or ())
    found.sort(key=lambda i: (not i["mine"], KINDS.index(i["kind"]), i["received"], i["table"], i["id"]))
    counts = {k: sum(1 for i in found if i["kind"] == k) for k in KINDS}
    return {"items": found if limit is None else found[:limit], "counts": counts, "total": len(found)}

