"""The JSON API and security, through Flask's test client."""

import json
import re

import pytest

from tests.web.conftest import PASSWORD, header_json


def login(client, user="li", password=PASSWORD):
    page = client.get("/referee/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/referee/login", data={"user": user, "password": password, "csrf_token": csrf}), csrf


def test_tables_and_snapshot_are_public(client):
    tables = client.get("/api/tables").get_json()
    assert [t["table"] for t in tables] == ["1"]
    assert tables[0]["levels"] and tables[0]["result"]["winner"] in ("EW", "NS")
    snap = client.get("/api/tables/1").get_json()
    assert snap["ready"] and snap["profile"] == "jiangsu"
    assert set(snap["hand"]["seats"]) == set("ESWN")
    assert snap["log"] and all({"zh", "en", "seq"} <= set(line) for line in snap["log"])
    assert snap["alerts"] and snap["alerts"][0]["status"] == "open"
    assert client.get("/api/tables/1/referee/sent").get_json() == []  # acts are stored at once here


def test_the_hall_summary_is_read_once_per_snapshot(app, client, token):
    hub = app.config["HUB"]
    first = hub.summary("1")
    assert hub.summary("1") is first  # every hall page after the first gets the parsed one
    assert client.get("/api/tables").get_json() == [first | {"profile": "jiangsu"}]
    alert = first["open_alerts"]
    r = client.post("/api/tables/1/referee/alert_done", headers={"Authorization": f"Bearer {token}"},
                    json={"alert": client.get("/api/tables/1").get_json()["alerts"][0]["id"], "action": "ack"})
    assert r.status_code == 201
    second = hub.summary("1")  # a new event: a new snapshot, read again
    assert second is not first and second["open_alerts"] == alert - 1 and second["id"] > first["id"]
    hub.frame_added()  # a new evidence frame: a new snapshot too
    assert hub.summary("1") is not second and hub.summary("1") == second
    assert hub.summary("nope") == {"table": "nope", "ready": False}

def test_errors_are_json_with_a_message(client):
    r = client.get("/api/tables/nope")
    assert r.status_code == 404 and r.get_json() == {"error": "没有牌桌 'nope' / no table 'nope'"}
    r = client.get("/api/tables/nope?lang=en")
    assert r.status_code == 404 and r.get_json() == {"error": "no table 'nope' / 没有牌桌 'nope'"}
    r = client.get("/api/tables/1/events?after=x")
    assert r.status_code == 400 and "after" in r.get_json()["error"]


def test_the_openapi_document_covers_every_api_route(app, client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)


def test_every_mutating_route_refuses_an_anonymous_request(app, client):
    writes = [(r, method) for r in app.url_map.iter_rules() for method in ("POST", "PUT", "DELETE")
              if method in r.methods and r.rule != "/referee/login"]
    # logout, act, tables, events, frames, referee acts, the referees' table assignments,
    # a tournament's results, their confirmation and its draws
    assert len(writes) == 10
    for rule, method in writes:
        url = re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: "1" if m.group(1) == "int" else "1", rule.rule)
        r = client.open(url, method=method, json={"events": []})
        if url.startswith("/api/"):
            assert r.status_code == 401, url
            assert "error" in r.get_json()
        else:
            assert r.status_code == 302 and "/referee/login" in r.headers["Location"], url


def test_a_table_node_publishes_with_a_bearer_token(client, token):
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth).status_code == 201
    events = [{"seq": 1, "t": 1, "type": "deal", "leader": "E"},
              {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S3", "D3"]}]
    r = client.post("/api/tables/t9/events", json={"events": events}, headers=auth)
    assert r.get_json() == {"stored": 2, "duplicates": 0}
    r = client.post("/api/tables/t9/events", json={"events": events}, headers=auth)  # a resend after a drop
    assert r.get_json() == {"stored": 0, "duplicates": 2}
    snap = client.get("/api/tables/t9").get_json()
    assert snap["hand"]["top"] == {"seat": "E", "play": ["Pair", "3", ["S3", "D3"]]}
    bad = client.post("/api/tables/t9/events", json={"events": [{"seq": 3, "t": 3, "type": "play", "seat": "N",
                                                                   "cards": ["X1"]}]}, headers=auth)
    assert bad.status_code == 400 and "not a card" in bad.get_json()["error"]
    wrong = client.post("/api/tables/t9/events", json={"events": []}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401


def test_a_referee_act_over_the_api_is_recorded_with_who(client, token):
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S6", "H8"]}]})
    assert client.get("/api/tables/t9").get_json()["alerts"][0]["code"] == "not_a_combination"
    r = client.post("/api/tables/t9/referee/correction", headers=auth,
                    json={"target": 2, "cards": ["S8", "H8"], "why": "the 6 was an 8"})
    assert r.status_code == 201 and r.get_json()["by"] == "li" and r.get_json()["seq"] == 3
    snap = client.get("/api/tables/t9").get_json()
    assert snap["hand"]["top"]["play"] == ["Pair", "8", ["S8", "H8"]]
    assert snap["alerts"] == []  # the misread was the camera's, not the player's
    body = client.get("/api/tables/t9/events").get_json()
    assert body[2]["cards"] == ["S6", "H8"]  # the original line is kept
    r = client.post("/api/tables/t9/referee/correction", headers=auth, json={"target": 1, "cards": ["S8"]})
    assert r.status_code == 400 and "not a play or a pass" in r.get_json()["error"]


def test_a_referee_puts_in_a_play_the_camera_missed(client, token):
    """North's 大王 on East's 5 went unread: West's pass looked out of turn. Put in before
    the pass, the alert goes; the original lines stay; a bad place is refused with why."""
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S5"]},
        {"seq": 3, "t": 3, "type": "pass", "seat": "W"}]})
    assert [a["code"] for a in client.get("/api/tables/t9").get_json()["alerts"]] == ["out_of_turn"]
    for wrong, why in (({"before": 1}, "not a play or a pass"), ({"before": 9}, "earlier event"),
                       ({"seat": "X"}, "'seat'"), ({"cards": ["ZZ"]}, "not a card")):
        r = client.post("/api/tables/t9/referee/missed", headers=auth,
                        json={"seat": "N", "cards": ["HR"], "why": "unread"} | wrong)
        assert r.status_code == 400 and why in r.get_json()["error"], (wrong, r.get_json())
    r = client.post("/api/tables/t9/referee/missed", headers=auth,
                    json={"seat": "N", "cards": ["HR"], "before": 3, "why": "unread"})
    assert r.status_code == 201 and r.get_json()["seq"] == 4 and r.get_json()["by"] == "li"
    snap = client.get("/api/tables/t9").get_json()
    assert snap["alerts"] == []
    assert [(p["seat"], p["cards"]) for p in snap["hand"]["trick"]] == [("E", ["S5"]), ("N", ["HR"]), ("W", [])]
    assert snap["hand"]["to_act"] == ["S"]
    assert "* referee put in #4, missed by the camera, before #3: North HR (li: unread)" in \
        sum((line["en"] for line in snap["log"]), [])
    r = client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 5, "t": 5, "type": "pass", "seat": "S"}]})  # the table goes on from the new story
    assert r.get_json() == {"stored": 1, "duplicates": 0}
    assert [e["type"] for e in client.get("/api/tables/t9/events").get_json()] == [
        "header", "deal", "play", "pass", "missed", "pass"]


def test_a_referee_voids_an_event_the_camera_made_up(client, token):
    """Cards knocked into South's zone were taken for a play, out of turn: voided, the alert
    goes, the play stays in the log struck out; a void with cards is refused."""
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S5"]},
        {"seq": 3, "t": 3, "type": "play", "seat": "S", "cards": ["D9"]}]})
    assert [a["code"] for a in client.get("/api/tables/t9").get_json()["alerts"]] == ["out_of_turn"]
    r = client.post("/api/tables/t9/referee/correction", headers=auth,
                    json={"target": 3, "void": True, "cards": ["D9"], "why": "knocked in"})
    assert r.status_code == 400 and "no cards" in r.get_json()["error"]
    r = client.post("/api/tables/t9/referee/correction", headers=auth,
                    json={"target": 3, "void": True, "why": "knocked in"})
    assert r.status_code == 201 and r.get_json()["void"] is True
    snap = client.get("/api/tables/t9").get_json()
    assert snap["alerts"] == [] and snap["hand"]["to_act"] == ["N"]
    assert snap["hand"]["seats"]["S"]["cards"] == 27
    log = sum((line["zh"] for line in snap["log"]), [])
    assert "  南  D9（已作废）" in log and "* 裁判作废第3条：此事件并未发生（li：knocked in）" in log


def test_login_needs_csrf_hashed_password_and_is_rate_limited(client, store):
    assert client.post("/referee/login", data={"user": "li", "password": PASSWORD}).status_code == 400  # no CSRF
    r, _ = login(client, password="wrong-one")
    assert r.status_code == 401
    with store._db.connection() as db:
        row = db.execute("SELECT password_hash FROM users WHERE name = 'li'").fetchone()[0]
    assert PASSWORD not in row and row.startswith(("scrypt:", "pbkdf2:"))
    for _ in range(5):
        r, _ = login(client, password="wrong-again")
    assert r.status_code == 429
    r, _ = login(client)  # blocked even with the right password, for a while
    assert r.status_code == 429


def test_session_cookie_is_http_only_and_same_site(client):
    r, _ = login(client)
    assert r.status_code == 302
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_referee_works_the_alert_queue_from_the_console(client):
    r, _ = login(client)
    console = client.get("/referee").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', console).group(1)
    alert = client.get("/api/tables/1").get_json()["alerts"][0]["id"]
    r = client.post("/referee/act", data={"csrf_token": csrf, "table": "1", "act": "dismiss", "alert": alert,
                                          "why": "reported in time, the camera missed the card"})
    assert r.status_code == 302
    done = [a for a in client.get("/api/tables/1").get_json()["alerts"] if a["id"] == alert][0]
    assert done["status"] == "dismissed" and done["by"] == "li"
    r = client.post("/referee/act", data={"table": "1", "act": "dismiss", "alert": alert, "why": "x"})
    assert r.status_code == 400  # no CSRF token
    # the demo match is over: its result is no longer changed from the console
    r = client.post("/referee/act", data={"csrf_token": csrf, "table": "1", "act": "level_adjust", "side": "NS",
                                          "levels": "-1", "why": "penalty"})
    assert r.status_code == 400 and "after the match ended" in r.get_data(as_text=True)
    assert client.get("/api/tables/1").get_json()["levels"]["NS"] == "5"


def test_the_stream_starts_with_a_snapshot_even_when_resuming(client):
    for headers in ({}, {"Last-Event-ID": "5"}):
        r = client.get("/api/tables/1/stream", headers=headers, buffered=False)
        first = next(r.response).decode()
        r.close()
        assert first.startswith("id: ") and "\nevent: snapshot\n" in first
        assert json.loads(first.split("data: ", 1)[1])["table"] == "1"


@pytest.mark.parametrize("url", ["/api/tables/1/stream?delay=-1", "/overlay/1?delay=abc", "/overlay/1?layout=x"])
def test_bad_url_options_are_refused(client, url):
    assert client.get(url).status_code == 400


@pytest.mark.parametrize("url, body, zh, en", [
    ("/api/tables", {"id": "t9", "header": header_json(profile="moon")},
     "moon：没有这个规则；内置规则为 jiangsu", "moon: no such profile; bundled profiles are jiangsu"),
    ("/api/tables", {"id": "桌 9", "header": header_json()},
     "牌桌编号须为1–40个字母、数字、- 或 _，不是 '桌 9'", "a table id is 1-40 letters, digits, - or _, got '桌 9'"),
    ("/api/tables/1/frames/8", b"GIF89a", "证据画面须为 JPEG 图像", "an evidence frame must be a JPEG image"),
])
def test_the_profiles_and_the_stores_refusals_in_chinese_then_english(client, token, url, body, zh, en):
    """What a node or a referee sends that the profile or the store refuses: 400 in both
    languages, Chinese first, English first with ``?lang=en``; nothing stored."""
    auth = {"Authorization": f"Bearer {token}"}

    def post(lang: str = ""):
        sent = {"json": body} if isinstance(body, dict) else {"data": body}
        return client.post(url + lang, headers=auth, **sent)

    chinese, english = post(), post("?lang=en")
    assert chinese.status_code == english.status_code == 400
    first, second = chinese.get_json()["error"].split(" / ")
    assert first.startswith(zh) and second.startswith(en)
    assert english.get_json()["error"] == f"{second} / {first}"
    assert [t["table"] for t in client.get("/api/tables").get_json()] == ["1"]
    assert client.get("/api/tables/1/frames/8.jpg").status_code == 404


def test_evidence_frames(client, token):
    auth = {"Authorization": f"Bearer {token}"}
    jpeg = b"\xff\xd8\xff\xe0" + b"0" * 100
    assert client.post("/api/tables/1/frames/7", data=jpeg, headers=auth).status_code == 201
    assert client.get("/api/tables/1/frames/7.jpg").data == jpeg
    assert client.post("/api/tables/1/frames/8", data=b"GIF89a", headers=auth).status_code == 400
    assert client.get("/api/tables/1/frames/8.jpg").status_code == 404
    assert client.get("/api/tables/1").get_json()["id"] > 0


def test_pages_in_both_languages(client):
    assert "赛场总览" in client.get("/").get_data(as_text=True)
    assert "Hall" in client.get("/?lang=en").get_data(as_text=True)
    assert client.get("/table/1").status_code == 200 and client.get("/table/zz").status_code == 404
    svg = client.get("/cards/HR.svg")
    assert svg.mimetype == "image/svg+xml" and "大王" in svg.get_data(as_text=True)
    assert client.get("/cards/XX.svg").status_code == 404


def test_a_low_confidence_read_is_an_alert_until_a_referee_settles_it(client, token):
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S9"], "confidence": 0.55},
        {"seq": 3, "t": 3, "type": "play", "seat": "N", "cards": ["SK"], "confidence": 0.97}]})
    (alert,) = client.get("/api/tables/t9").get_json()["alerts"]
    assert (alert["code"], alert["seat"], alert["detail"]["confidence"]) == ("low_confidence", "E", 0.55)
    assert alert["en"] == "low-confidence read: please check"
    client.post("/api/tables/t9/referee/alert_done", headers=auth, json={"alert": 2, "action": "ack"})
    assert client.get("/api/tables/t9").get_json()["alerts"][0]["status"] == "acknowledged"


def test_a_camera_taught_the_deck_is_doubted_below_its_own_threshold(client, token):
    """An enrolled deck's table writes its measured threshold in the header (``doubt``): a
    play read at 0.55 is no item for the referee there, one at 0.40 is."""
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t11", "header": {**header_json(), "doubt": 0.45}}, headers=auth)
    client.post("/api/tables/t11/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S9"], "confidence": 0.55},
        {"seq": 3, "t": 3, "type": "play", "seat": "N", "cards": ["SK"], "confidence": 0.40}]})
    (alert,) = client.get("/api/tables/t11").get_json()["alerts"]
    assert (alert["code"], alert["seat"], alert["detail"]["confidence"]) == ("low_confidence", "N", 0.4)


def test_a_camera_correction_puts_the_corrected_play_before_a_referee(client, token):
    """The table's camera read the hand again and corrected an earlier play (table.recount):
    the referee's queue shows that play, with its evidence frame, until someone settles it."""
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t10", "header": header_json()}, headers=auth)
    client.post("/api/tables/t10/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["CQ", "CQ"], "confidence": 0.92},
        {"seq": 3, "t": 3, "type": "correction", "target": 2, "cards": ["SQ", "SQ"], "by": "camera",
         "why": "recount"}]})
    (alert,) = client.get("/api/tables/t10").get_json()["alerts"]
    assert (alert["code"], alert["id"], alert["seq"], alert["seat"]) == ("camera_recount", 3, 2, "E")
    assert alert["detail"] == {"target": 2, "cards": ["SQ", "SQ"]} and alert["status"] == "open"
    assert "两副牌复核" in alert["zh"] and "corrected this play" in alert["en"]
    client.post("/api/tables/t10/referee/alert_done", headers=auth, json={"alert": 3, "action": "ack"})
    assert client.get("/api/tables/t10").get_json()["alerts"][0]["status"] == "acknowledged"


def test_the_cameras_notes_reach_the_referees_queue_and_can_be_acknowledged(client, token):
    """A card the camera cannot read lies in South's zone: the table's note is in the queue,
    worded as the operator heard it, in Chinese and English."""
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 1, "t": 1, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 2, "type": "camera_note", "code": "zone_covered", "values": {"seat": "S"}, "seat": "S"}]})
    alerts = client.get("/api/tables/t9").get_json()["alerts"]
    assert [(a["code"], a["seat"], a["status"]) for a in alerts] == [("zone_covered", "S", "open")]
    assert alerts[0]["zh"].startswith("南家：出牌区上有东西") and alerts[0]["en"].startswith("seat S: something lies")
    r = client.post("/api/tables/t9/referee/alert_done", headers=auth, json={"alert": 2, "action": "ack"})
    assert r.status_code == 201
    assert client.get("/api/tables/t9").get_json()["alerts"][0]["status"] == "acknowledged"
    bad = client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 3, "t": 3, "type": "camera_note", "values": {}}]})
    assert bad.status_code == 400 and "'code'" in bad.get_json()["error"]


def test_the_login_brings_a_referee_back_to_the_page_asked_for_with_its_language(client):
    r = client.get("/referee?lang=en")
    assert r.status_code == 302 and r.headers["Location"].endswith("next=/referee?lang%3Den")
    assert client.get("/referee").headers["Location"].endswith("next=/referee")  # no stray "?"


def demo_table(folder, first: int):
    """A store holding table "1" of the demo record with only its ``first`` events after the
    header, and every event of the record after the header (to write more of them)."""
    from engine.record import parse_lines
    from scorer.cli import DEMO_RECORD
    from store.event_store import Store

    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    events = [e.to_json() for e in record.events[1:]]
    store = Store(folder / "g.db")
    store.add_table("1", record.header.to_json())
    store.append("1", events[:first])
    return store, events


def test_a_stream_delivers_every_event_exactly_once_while_the_store_grows(tmp_path):
    """Events written while a stream is between its snapshot and its events went out twice
    before the hub read the two together (12,008 deliveries of 12,000 in benchmarks/web.py):
    here every event written after the stream opened is counted."""
    import threading

    from web import create_app

    store, events = demo_table(tmp_path, 2)
    app = create_app(store)
    try:
        stream = app.test_client().get("/api/tables/1/stream", buffered=False)
        chunks = iter(stream.response)
        assert "event: snapshot" in next(chunks).decode()

        def write() -> None:
            for event in events[2:]:
                store.append("1", [event])

        writer = threading.Thread(target=write)
        writer.start()
        seen: list[int] = []
        while len(seen) < len(events) - 2:
            chunk = next(chunks).decode()
            if "event: update" in chunk:
                seen += [e["seq"] for e in json.loads(chunk.split("data: ", 1)[1])["events"]]
        writer.join()
        stream.close()
        assert seen == [e["seq"] for e in events[2:]]  # each once, in order
    finally:
        app.config["HUB"].stop()


def test_the_hubs_update_gives_the_events_up_to_its_snapshot_and_no_further(tmp_path):
    """What a stream sends in one update: the snapshot and the events it stands on, read
    under one lock, so the next update starts where this one's snapshot stood."""
    from web.hub import Hub

    store, events = demo_table(tmp_path, 5)
    hub = Hub(store)
    first, text, sent = hub.update("1", 0)
    assert [e["seq"] for e in sent] == [0, 1, 2, 3, 4, 5] and json.loads(text)["table"] == "1"  # header first
    store.append("1", events[5:9])
    hub.catch_up()
    now, _, sent = hub.update("1", first)
    assert now > first and [e["seq"] for e in sent] == [6, 7, 8, 9]
    assert hub.update("1", now)[2] == [] and hub.update("nothing", 0) is None
