"""The win chance (胜率) in the table's snapshot, on the OBS overlay and on the table page, in
中文 and English: 东西 vs 南北 in percent, the favoured side's upgrades, the last play's swing."""

from __future__ import annotations

import pytest

from tests.web.conftest import ARTIFACTS, header_json
from tests.web.test_browser import post

#: a first hand at table t9: East leads a pair, North beats it, West and South pass, East passes
PLAYS = [
    {"seq": 2, "t": 2, "type": "play", "seat": "E", "cards": ["S3", "D3"]},
    {"seq": 3, "t": 3, "type": "play", "seat": "N", "cards": ["SK", "DK"]},
    {"seq": 4, "t": 4, "type": "pass", "seat": "W"},
    {"seq": 5, "t": 5, "type": "report", "seat": "N", "count": 25},  # a report moves nothing: the swing stays
]
#: the parts of the win chance's box that stick out of it, or whose text is cut off (an ellipsis)
INSIDE = """box => { const b = box.getBoundingClientRect();
  return [...box.querySelectorAll('*')].filter(el => { const r = el.getBoundingClientRect();
    return r.right > b.right + 0.5 || r.left < b.left - 0.5 || el.scrollWidth > el.clientWidth + 1; })
    .map(el => el.className); }"""


def table(client, token, events) -> dict:
    auth = {"Authorization": f"Bearer {token}"}
    client.post("/api/tables", json={"id": "t9", "header": header_json()}, headers=auth)
    client.post("/api/tables/t9/events", headers=auth, json={"events": events})
    return client.get("/api/tables/t9").get_json()


def test_the_snapshot_carries_the_hands_win_chance_and_the_last_plays_swing(client, token):
    c = table(client, token, [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}, *PLAYS])["chance"]
    assert c["hand"] == 1 and not c["decided"]
    assert c["win"]["EW"] + c["win"]["NS"] == pytest.approx(1.0, abs=1e-3)
    for side in ("EW", "NS"):
        assert list(c["levels"][side]) == ["3", "2", "1"]  # 双下 +3, then +2, +1 (the profile's upgrades)
        assert sum(c["levels"][side].values()) == pytest.approx(c["win"][side], abs=1e-3)
    swing = c["swing"]
    assert swing["seq"] == 4 and swing["seat"] == "W" and swing["EW"] == pytest.approx(-swing["NS"], abs=1e-3)


def test_a_correction_shows_no_swing_until_the_next_play(client, token):
    auth = {"Authorization": f"Bearer {token}"}
    table(client, token, [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}, *PLAYS[:2]])
    r = client.post("/api/tables/t9/referee/correction", headers=auth, json={"target": 3, "cards": ["SA", "DA"]})
    assert r.status_code == 201
    assert client.get("/api/tables/t9").get_json()["chance"]["swing"] is None
    client.post("/api/tables/t9/events", headers=auth, json={"events": [
        {"seq": 5, "t": 5, "type": "pass", "seat": "W"}]})
    assert client.get("/api/tables/t9").get_json()["chance"]["swing"]["seq"] == 5


def test_a_hand_that_is_over_is_certain(client):
    snap = client.get("/api/tables/1").get_json()  # the demo match, played to its end
    order = snap["hand"]["outcome"]
    winner = "EW" if order[0] in "EW" else "NS"
    c = snap["chance"]
    assert c["decided"] and c["win"][winner] == 1.0
    assert max(c["levels"][winner].values()) == 1.0


def test_the_overlay_and_the_table_page_show_the_bar_in_each_language(server, browser, token):
    post(server, "/api/tables", {"id": "t9", "header": header_json("t9")}, token)
    post(server, "/api/tables/t9/events", {"events": [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}]}, token)
    pages = {}
    for lang in ("zh", "en"):
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{server}/overlay/t9?lang={lang}")
        page.wait_for_selector("#o-winchance:not([hidden]) .wc-bar")
        pages[lang] = page
    table_page = browser.new_page(viewport={"width": 1400, "height": 900})
    table_page.goto(f"{server}/table/t9?lang=en")
    table_page.wait_for_selector("#winchance .wc-bar")
    post(server, "/api/tables/t9/events", {"events": PLAYS}, token)
    words_of = {"zh": ("胜率", "东西方", "南北方", "升3级"), "en": ("win chance", "East-West", "North-South", "+3")}
    for lang, words in words_of.items():
        page = pages[lang]
        page.wait_for_selector('#o-winchance .wc-swing[data-seat="W"]', timeout=5000)
        text = page.inner_text("#o-winchance")
        assert all(w in text for w in words), text
        ew, ns = (int(page.inner_text(f"#o-winchance .wc-{side}").rstrip("%")) for side in ("EW", "NS"))
        assert ew + ns == 100 and 0 <= ew <= 100
        swing = page.inner_text("#o-winchance .wc-swing")
        assert ("西" if lang == "zh" else "West") in swing and any(mark in swing for mark in "▲▼±")
        box = page.eval_on_selector("#o-winchance", "el => el.getBoundingClientRect().toJSON()")
        assert box["left"] >= 0 and box["top"] >= 0 and box["right"] <= 1920 and box["bottom"] <= 1080
        assert page.eval_on_selector("#o-winchance", INSIDE) == []  # nothing sticks out of the box or is cut
        page.screenshot(path=str(ARTIFACTS / f"overlay-winchance-{lang}.png"), omit_background=True)
        page.close()
    table_page.wait_for_selector('#winchance .wc-swing[data-seat="W"]', timeout=5000)
    assert "win chance" in table_page.inner_text("#winchance")
    table_page.screenshot(path=str(ARTIFACTS / "table-winchance.png"))
    table_page.close()
