"""The referee console on a hall server, in headless Chromium: doubts on a camera table are
decided with one key each; the acts go down to the table's node over MQTT, the items stay
off the screen while they travel, and the table's own record holds them — one act for a
correction that settles its item, the correction and an acknowledgement for one that leaves
a camera note open, never an acknowledgement the record does not need."""

from __future__ import annotations

from tests.hall.conftest import broker, wait_for  # noqa: F401 (broker: the fixture)
from tests.hall.console_hall import camera_hall  # noqa: F401 (the fixture)
from tests.web.test_referee_console import console

CAMERA_TABLE = [
    {"seq": 0, "t": 0.0, "type": "header", "format": "guandan-record/1", "profile": "linyi", "table": "t1",
     "reports_heard": False},
    {"seq": 1, "t": 1.0, "type": "deal", "leader": "E"},
    {"seq": 2, "t": 3.0, "type": "play", "seat": "E", "cards": ["S6", "H8"], "confidence": 0.5,
     "choices": [[["S6", 0.5], ["S8", 0.45]], [["H8", 0.93]]]},
    # the camera read a third 9 of hearts as it read North's play: a note, before the play
    {"seq": 3, "t": 4.0, "type": "camera_note", "code": "third_copy", "seat": "N",
     "values": {"seat": "N", "read": "C9", "taken": "H9", "confidence": 0.6}},
    {"seq": 4, "t": 4.0, "type": "play", "seat": "N", "cards": ["S9", "H9"]},
]


def test_doubts_decided_at_the_hall_go_down_to_the_camera_table_once(camera_hall, browser):  # noqa: F811
    at = camera_hall(CAMERA_TABLE)
    page = console(browser, at.web)
    item = page.locator('#queue > li[data-key="t1:2"]')
    assert item.get_attribute("class").split() == ["item", "kind-ruling", "selected"]
    page.keyboard.press("1")  # the runner-up: S8 H8, a pair; the ruling and the doubt go with it
    page.wait_for_selector('#queue > li[data-key="t1:2"]', state="detached", timeout=5000)
    assert page.get_attribute("#queue > li.selected", "data-key") == "t1:3"
    page.keyboard.press("1")  # the note's reading: S9 C9; the note stays open, so it is acknowledged
    page.wait_for_selector('#queue > li[data-key="t1:3"]', state="detached", timeout=5000)
    wait_for(lambda: at.table.next_seq("t1") >= 8, 20, "the acts at the table")
    wait_for(lambda: at.hall.next_seq("t1") >= 8, 20, "the acts back at the hall")
    page.wait_for_timeout(300)  # an act sent after them would be at the node by now
    assert [(a["act"], a["fields"].get("target", a["fields"].get("alert"))) for a in at.received] == [
        ("correction", 2), ("correction", 4), ("alert_done", 3)]
    assert at.table.next_seq("t1") == 8
    fix = at.table.body_at("t1", 5)
    assert (fix["type"], fix["target"], fix["cards"], fix["by"]) == ("correction", 2, ["S8", "H8"], "li")
    ack = at.table.body_at("t1", 7)
    assert (ack["type"], ack["alert"], ack["action"], ack["why"]) == ("alert_done", 3, "ack", "已更正第4条")
    page.reload()
    page.wait_for_selector("#more:text('暂无待处理事项')")  # the table's record is exact: nothing open
    assert page.locator("#queue > li").count() == 0
    page.close()
