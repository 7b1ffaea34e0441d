"""The referee's queue through Flask's test client: kinds and their order, the play each item
is about, runner-ups from the record, tables assigned to referees, the evidence crop."""

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.events import Deal, Header, PlayCards, RecordError, event_from_json
from engine.match import Match
from engine.violations import RULES
from rulebook import profiles
from rulebook.rule_words import WORDS, rule_words
from table.mending import HandReading, choices
from tests.web.conftest import header_json
from vision.live.calibration import zone_size
from vision.live.grouping import Laid
from vision.live.seat_reading import SeatZone
from vision.live.tracker import ZoneTracker
from web.evidence import MARGIN_PX
from web.referee_queue import kind_of

RULES_DIR = Path(__file__).parents[3] / "shared" / "rules"
#: East's bomb of 8s read with the club 8 as a 6 (not a combination), the reader's runner-ups kept
MISREAD = {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S8", "H8", "C6", "D8"], "confidence": 0.52,
           "choices": [[["S8", 0.97]], [["H8", 0.95]], [["C6", 0.52], ["C8", 0.44]], [["D8", 0.96]]]}


@pytest.fixture
def auth(token):
    return {"Authorization": f"Bearer {token}"}


def table(client, auth, events, name="t9"):
    assert client.post("/api/tables", json={"id": name, "header": header_json(name)}, headers=auth).status_code == 201
    r = client.post(f"/api/tables/{name}/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"}, *events]})
    assert r.status_code == 200, r.get_json()


def items(client, **query):
    return client.get("/api/referee/queue", query_string=query).get_json()["items"]


def test_a_play_line_keeps_the_readers_runner_ups_and_old_lines_still_read():
    event = event_from_json(MISREAD)
    assert event.choices[2] == (("C6", 0.52), ("C8", 0.44))
    assert event.to_json() == MISREAD
    assert event_from_json({k: v for k, v in MISREAD.items() if k != "choices"}).choices is None
    with pytest.raises(RecordError, match="one list per card"):
        event_from_json(MISREAD | {"choices": [[["S8", 0.97]]]})
    with pytest.raises(RecordError, match=r"\[card, confidence\]"):
        event_from_json(MISREAD | {"choices": [[["S8", 1.5]], [], [], []]})


def test_the_table_writes_each_cards_runner_ups_and_what_a_mended_card_was_read_as():
    laid = Laid(("S8", "H9"), (0.9, 0.4), (), ((("S6", 0.3), ("S5", 0.1)), (("D9", 0.35),)))
    assert choices(("S8", "H9"), laid) == ((("S8", 0.9), ("S6", 0.3), ("S5", 0.1)), (("H9", 0.4), ("D9", 0.35)))
    # the 8 taken as its runner-up 6 (a third 8, say): the 8 that was read is offered back
    assert choices(("S6", "H9"), laid)[0] == (("S6", 0.3), ("S8", 0.9), ("S5", 0.1))
    assert choices(("HR",), laid) == ((("HR", 0.0),),)


def test_a_play_the_table_commits_carries_its_choices_into_the_record():
    match = Match(profiles.load("linyi"), Header(seq=0, t=0.0, profile="linyi", reports_heard=False))
    deal = Deal(seq=1, t=1.0, leader="E")
    match.push(deal)
    reading = HandReading()
    reading.recorded(deal, match)
    zone = SeatZone(ZoneTracker("E"))
    zone.tracker.stable = Laid(("S8", "H8"), (0.9, 0.55), (), ((("S6", 0.3),), (("H6", 0.41),)))
    recounted = reading.recount("E", ("S8", "H8"), zone.tracker.stable, match)
    fields = reading.play(recounted, zone, match, frozenset()).fields
    line = PlayCards(seq=2, t=2.0, **fields).to_json()
    assert line["choices"] == [[["S8", 0.9], ["S6", 0.3]], [["H8", 0.55], ["H6", 0.41]]]
    assert event_from_json(line).choices == fields["choices"]


def test_kinds_come_in_order_and_a_doubt_is_never_offered_a_penalty(client, auth):
    assert [kind_of(c) for c in ("out_of_turn", "clock_overrun", "low_confidence", "zone_covered", "referee_call")] \
        == ["ruling", "ruling", "doubt", "doubt", "notice"]
    table(client, auth, [
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S5"], "confidence": 0.6},
        {"seq": 3, "t": 3, "type": "camera_note", "code": "zone_covered", "values": {"seat": "N"}, "seat": "N"},
        {"seq": 4, "t": 4, "type": "pass", "seat": "W"}])
    mine = items(client, table="t9")
    assert [(i["key"], i["kind"], i["codes"]) for i in mine] == [
        ("t9:4", "ruling", ["out_of_turn"]), ("t9:2", "doubt", ["low_confidence"]), ("t9:3", "doubt", ["zone_covered"])]
    ruling, low, covered = mine
    assert ruling["penalty"]["proposed"] == "warning" and ruling["penalty"]["seat"] == "W"
    assert ruling["penalty"]["ladder"][0] == {"penalty": "violation", "count": 2, "becomes": "foul"}  # linyi
    assert ruling["rule"] == "RULES.md A hand §3 (越序出牌)" and ruling["text"]["zh"] == "越序出牌"
    assert "penalty" not in low and "penalty" not in covered
    assert low["play"]["cards"] == ["S5"] and low["play"]["confidence"] == 0.6
    assert covered["play"] is None and covered["missed_before"] == [4]
    everything = items(client)
    assert [i["kind"] for i in everything] == sorted((i["kind"] for i in everything),
                                                     key=["ruling", "doubt", "notice"].index)


def test_an_events_alerts_make_one_item_with_the_runner_ups_as_whole_plays(client, auth):
    table(client, auth, [MISREAD])
    (item,) = items(client, table="t9")
    assert (item["kind"], item["codes"]) == ("ruling", ["not_a_combination", "low_confidence"])
    assert item["alternatives"] == [{"cards": ["S8", "H8", "C8", "D8"], "confidence": 0.44}]
    assert item["play"]["violations"] == ["not_a_combination"] and item["play"]["reading"] is None
    r = client.post("/api/tables/t9/referee/correction", headers=auth,
                    json={"target": 2, "cards": item["alternatives"][0]["cards"], "why": ""})
    assert r.status_code == 201
    assert items(client, table="t9") == []  # the violation and the doubt went with the misread


def test_a_camera_note_is_about_the_seats_next_play_and_offers_what_was_read(client, auth):
    table(client, auth, [
        {"seq": 2, "t": 2, "type": "camera_note", "code": "third_copy", "seat": "E",
         "values": {"seat": "E", "read": "SA", "taken": "HA", "confidence": 0.41}},
        {"seq": 3, "t": 2, "type": "play", "seat": "E", "cards": ["HA"], "confidence": 0.41}])
    notes = {i["key"]: i for i in items(client, table="t9")}
    note = notes["t9:2"]
    assert note["play"]["seq"] == 3 and note["alternatives"] == [{"cards": ["SA"], "confidence": 0.41}]
    assert "两张SA都已出过" in note["text"]["zh"]


def test_each_referee_sees_their_own_tables_first(client, auth):
    for name in ("t9", "t8"):
        table(client, auth, [{"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S5"], "confidence": 0.6}], name)
    r = client.put("/api/referee/assignments", json={"referee": "li", "tables": ["t8"]}, headers=auth)
    assert r.get_json() == {"li": ["t8"]}
    assert client.put("/api/referee/assignments", json={"referee": "wang", "tables": ["t8", "t9"]},
                      headers=auth).get_json() == {"wang": ["t8", "t9"]}  # a table has one referee
    assert client.put("/api/referee/assignments", json={"referee": "li", "tables": ["t9"]},
                      headers=auth).get_json() == {"wang": ["t8"], "li": ["t9"]}
    assert client.get("/api/referee/assignments").get_json() == {"wang": ["t8"], "li": ["t9"]}
    first = items(client, referee="li")[0]
    assert (first["table"], first["mine"], first["referee"]) == ("t9", True, "li")
    assert items(client, referee="wang")[0]["table"] == "t8"
    assert client.put("/api/referee/assignments", json={"referee": "li", "tables": ["nope"]},
                      headers=auth).status_code == 400
    assert client.put("/api/referee/assignments", json={"referee": "li", "tables": []}).status_code == 401
    answer = client.get("/api/referee/queue", query_string={"limit": 1}).get_json()
    assert len(answer["items"]) == 1 and answer["total"] == sum(answer["counts"].values()) > 1
    assert client.get("/api/referee/queue?limit=x").status_code == 400
    assert client.get("/api/referee/queue?table=nope").status_code == 404


def test_the_evidence_is_the_seats_zone_from_the_frames_corner_and_a_close_up_of_its_cards(client, auth):
    table(client, auth, [{"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S5"], "confidence": 0.6}])
    frame = np.zeros((1080, 1920, 3), np.uint8)
    width, height = zone_size()
    frame[:height, :width] = (40, 200, 40)  # the zone the table drew there
    jpeg = cv2.imencode(".jpg", frame)[1].tobytes()
    assert client.post("/api/tables/t9/frames/2", data=jpeg, headers=auth).status_code == 201
    r = client.get("/api/tables/t9/frames/2/zone.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    zone = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert zone.shape == (height, width, 3) and abs(int(zone[..., 1].mean()) - 200) < 8
    assert client.get("/api/tables/t9/frames/3/zone.jpg").status_code == 404
    # a card face lying in the zone: the close-up is the card and a margin, three times bigger
    frame[100:160, 200:300] = 255
    assert client.post("/api/tables/t9/frames/2", data=cv2.imencode(".jpg", frame)[1].tobytes(),
                       headers=auth).status_code == 201
    r = client.get("/api/tables/t9/frames/2/zone.jpg?cards=1")
    close = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert close.shape == ((60 + 2 * MARGIN_PX) * 3, (100 + 2 * MARGIN_PX) * 3, 3)
    assert close[close.shape[0] // 2, close.shape[1] // 2].min() > 240  # the card in the middle


def test_a_ruling_quotes_the_events_rule_book(client, auth):
    table(client, auth, [{"seq": 2, "t": 2, "type": "pass", "seat": "N"}])  # East leads: North's pass is out of turn
    (item,) = items(client, table="t9")
    assert item["words"] == [{"source": "linyi-rules-zh.txt", "zh": "越序出牌予以收回，恢复出牌顺序记违例。",
                              "en": rule_words(["linyi-rules-zh.txt"], "out_of_turn")[0]["en"]}]
    assert "越序出牌" in item["words"][0]["en"]  # the English keeps the book's term


@pytest.mark.skipif(not RULES_DIR.is_dir(), reason="the rule documents (../shared/rules) are not beside this checkout")
def test_every_quoted_clause_is_in_its_rule_document():
    for source, clauses in WORDS.items():
        text = "".join((RULES_DIR / source).read_text(encoding="utf-8").split())
        for code, (zh, _en) in clauses.items():
            assert code in RULES, code
            assert all("".join(part.split()) in text for part in re.split("[：；]", zh)), (source, code)
