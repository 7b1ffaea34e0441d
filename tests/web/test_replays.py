"""The API's check that a record still replays (web/replays.py): the same verdict and message
as replaying the whole record, without replaying it on every write, and never stale when
another writer (a table node, the hall ingester) adds to the store behind the server's back."""

import json

import pytest

from engine.events import RecordError
from engine.record import parse_lines, replay
from rulebook import profiles
from rulebook.tournament_live import refusal
from scorer.cli import DEMO_RECORD
from store.event_store import StoredEvent
from tests.web.conftest import header_json
from web import replays
from web.replays import Replays

DEMO = [e.to_json() for e in parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines()).events]


def full_replay(stored: list[dict], new: list[dict]) -> str | None:
    """The check as it was before the cache: replay every line; the message (without the
    line, which is the check's), or None."""
    have = {b["seq"] for b in stored}
    lines = [json.dumps(b) for b in stored + [b for b in new if b["seq"] not in have]]
    try:
        replay(parse_lines(lines), profiles.load)
    except RecordError as exc:
        return str(exc.without_line)
    return None


def cached(cache: Replays, stored: list[StoredEvent], new: list[dict]) -> str | None:
    try:
        cache.check("x", stored, new, profiles.load)
    except RecordError as exc:
        return str(exc)  # as the API words it: no line
    return None


def as_stored(bodies: list[dict], first_id: int = 1) -> list[StoredEvent]:
    return [StoredEvent(first_id + i, "x", b["seq"], b, 0.0) for i, b in enumerate(bodies)]


def candidates(k: int) -> list[list[dict]]:
    """Writes to try on the demo record's first ``k`` events: the true next event, a resend,
    a deal, a play with a gap in seq, a forfeit then a play, a correction, a missed play put
    before the last play (or after it), the last play voided, a repeated seq."""
    t = DEMO[k - 1]["t"]
    writes = [[DEMO[k - 1]],
              [{"seq": k, "t": t, "type": "deal", "leader": "E"}],
              [{"seq": k + 3, "t": t, "type": "play", "seat": "E", "cards": ["S3"]}],
              [{"seq": k, "t": t, "type": "forfeit", "side": "NS", "reason": ""},
               {"seq": k + 1, "t": t, "type": "play", "seat": "E", "cards": ["S3"]}]]
    if k < len(DEMO):
        writes += [[DEMO[k]], [DEMO[k], DEMO[k]]]
    plays = [b for b in DEMO[:k] if b["type"] == "play"]
    if plays:
        writes.append([{"seq": k, "t": t, "type": "correction", "target": plays[-1]["seq"], "cards": [],
                        "by": "li", "why": "a pass"}])
        seat = plays[-1]["seat"]
        writes += [[{"seq": k, "t": t, "type": "missed", "seat": seat, "cards": [], "before": plays[-1]["seq"],
                     "by": "li", "why": "a pass the camera missed"}],
                   [{"seq": k, "t": t, "type": "missed", "seat": seat, "cards": ["S3"], "by": "li", "why": ""}],
                   [{"seq": k, "t": t, "type": "correction", "target": plays[-1]["seq"], "void": True,
                     "by": "li", "why": "made up"}]]
    return writes


def test_every_verdict_is_the_full_replays_along_a_whole_match():
    cache = Replays()
    verdicts = set()
    for k in (2, 60, 115, 116, 117, 209, 300, 468, 650, 719, 720):
        stored = as_stored(DEMO[:k])
        for new in candidates(k):
            expected = full_replay(DEMO[:k], new)
            assert cached(cache, stored, new) == expected, (k, new)
            verdicts.add(expected)
    assert None in verdicts and len(verdicts) >= 4  # accepted, and refused for several reasons


def test_a_write_does_not_replay_the_stored_record(monkeypatch):
    calls = []
    monkeypatch.setattr(replays, "replay", lambda *a: calls.append(1) or replay(*a))
    cache = Replays()
    for k in range(100, 200):
        assert cached(cache, as_stored(DEMO[:k]), [DEMO[k]]) is None
    assert len(calls) == 1  # the first write replays the record; the rest push what is new


def test_a_stored_correction_by_another_writer_is_replayed_in_place():
    cache = Replays()
    stored = DEMO[:116]  # hand 1 is over
    assert cached(cache, as_stored(stored), [DEMO[116]]) is None
    last = stored[-1]  # the play that ended hand 1; as a pass, the hand goes on
    assert last["type"] == "play"
    fix = {"seq": 116, "t": last["t"], "type": "correction", "target": last["seq"], "cards": [], "by": "li", "why": ""}
    stored = stored + [fix]
    deal = dict(DEMO[116], seq=117)
    assert full_replay(stored, [deal]) == "a deal while the previous hand is still being played"
    assert cached(cache, as_stored(stored), [deal]) == full_replay(stored, [deal])


def test_a_record_broken_by_another_writer_refuses_every_write_as_before():
    cache = Replays()
    good = DEMO[:10]
    assert cached(cache, as_stored(good), [DEMO[10]]) is None
    for broken in (good + [DEMO[12], DEMO[11]],  # seq out of order
                   good + [{"seq": 10, "t": 9.0, "type": "bogus"}]):  # not an event
        new = [DEMO[13]]
        expected = full_replay(broken, new)
        assert expected is not None
        for _ in range(2):
            assert cached(cache, as_stored(broken), new) == expected
        cache = Replays()
        assert cached(cache, as_stored(broken), new) == expected


def test_another_view_of_the_table_is_replayed_afresh():
    cache = Replays()
    assert cached(cache, as_stored(DEMO[:300]), [DEMO[300]]) is None
    other = DEMO[:299] + [{"seq": 299, "t": DEMO[298]["t"], "type": "forfeit", "side": "NS", "reason": ""}]
    expected = full_replay(other, [DEMO[300]])
    assert expected == f"{DEMO[300]['type']!r} after the match ended"
    assert cached(cache, as_stored(other, first_id=1000), [DEMO[300]]) == expected  # as long, but not the same


@pytest.fixture
def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_the_api_sees_what_another_writer_stored_between_its_writes(client, store, auth):
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    r = client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S3", "D3"]}]})
    assert r.get_json() == {"stored": 2, "duplicates": 0}
    store.append("t9", [{"seq": 3, "t": 3, "type": "forfeit", "side": "NS", "reason": "left"}])  # a table node
    r = client.post("/api/tables/t9/events", headers=auth,
                    json={"events": [{"seq": 4, "t": 4, "type": "play", "seat": "N", "cards": ["S5"]}]})
    assert r.status_code == 400
    assert r.get_json()["error"] == refusal("record_would_break", why=RecordError("after_end", event="play"))
    assert "比赛已结束，之后不能再有 'play'" in r.get_json()["error"]
    r = client.post("/api/tables/t9/referee/alert_done", headers=auth, json={"alert": 2, "action": "ack"})
    assert r.status_code == 201  # alert handling goes on after the end


def test_the_api_refuses_writes_to_a_record_another_writer_broke(client, store, auth):
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [{"seq": 1, "t": 1, "type": "deal"}]})
    store.append("t9", [{"seq": 5, "t": 5, "type": "pass", "seat": "E"},  # a writer that checks nothing
                        {"seq": 4, "t": 4, "type": "pass", "seat": "N"}])
    for _ in range(2):
        r = client.post("/api/tables/t9/events", headers=auth,
                        json={"events": [{"seq": 6, "t": 6, "type": "pass", "seat": "W"}]})
        assert r.status_code == 400
        assert r.get_json()["error"] == refusal("record_would_break", why=RecordError("seq_order", got=4, last=5))


def test_violation_lines_are_read_past_as_a_replay_reads_them(monkeypatch):
    calls = []
    monkeypatch.setattr(replays, "replay", lambda *a: calls.append(1) or replay(*a))
    cache = Replays()
    assert cached(cache, as_stored(DEMO[:50]), [DEMO[50]]) is None
    line = {"type": "violation", "code": "wrong_report", "seat": "E", "seq": 49, "t": DEMO[49]["t"], "rule": "",
            "detail": {}}  # derived, written by a scanner after the event that caused it
    for new in ([DEMO[50]], [dict(line, seq=50), DEMO[50]]):
        assert cached(cache, as_stored(DEMO[:50] + [line]), new) == full_replay(DEMO[:50] + [line], new)
    assert len(calls) == 1  # read past, not replayed from the start
