"""The referee console on a hall server, in headless Chromium: a doubt on a camera table is
decided with one key; the act goes down to the table's node over MQTT, the item stays off
the screen while it travels, and the table's own record holds the correction."""

from __future__ import annotations

import signal
import subprocess
import sys

from engine.events import event_from_json
from hall.acts import TableActs
from hall.broker import parse_broker
from hall.node import Node
from hall.outbox import Outbox
from hall.relay import Relay
from store.event_store import Store
from table.record_link import StoreLink
from tests.hall.broker import free_port, needs_mosquitto
from tests.hall.conftest import HALL, broker, wait_for  # noqa: F401 (broker: the fixture)
from tests.hall.test_cli import _listening
from tests.web.conftest import PASSWORD
from tests.web.test_referee_console import console

CAMERA_TABLE = [
    {"seq": 0, "t": 0.0, "type": "header", "format": "guandan-record/1", "profile": "linyi", "table": "t1",
     "reports_heard": False},
    {"seq": 1, "t": 1.0, "type": "deal", "leader": "E"},
    {"seq": 2, "t": 3.0, "type": "play", "seat": "E", "cards": ["S6", "H8"], "confidence": 0.5,
     "choices": [[["S6", 0.5], ["S8", 0.45]], [["H8", 0.93]]]},
]


@needs_mosquitto
def test_a_doubt_decided_at_the_hall_goes_down_to_the_camera_table(tmp_path, broker, browser):  # noqa: F811
    db, web = tmp_path / "hall.db", free_port()
    Store(db).add_user("li", PASSWORD)
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL, "--web", str(web)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    table = Store(tmp_path / "table.db")
    write = StoreLink(table, "t1").append
    for body in CAMERA_TABLE:
        write(event_from_json(body))
    node = Node(parse_broker(broker.url), Outbox(tmp_path / "outbox.db"), ["t1"], hall=HALL,
                acts=TableActs(table, "t1").take).start()
    relay = Relay(table, "t1", node, every=0.05).start()
    try:
        wait_for(lambda: _listening(web), 20, "the hall server's pages")
        hall = Store(db)
        wait_for(lambda: hall.next_seq("t1") == 3 if hall.has_table("t1") else False, 20, "the table at the hall")
        page = console(browser, f"http://127.0.0.1:{web}")
        item = page.locator('#queue > li[data-key="t1:2"]')
        assert item.get_attribute("class").split() == ["item", "kind-ruling", "selected"]
        page.keyboard.press("1")  # the runner-up: S8 H8
        page.wait_for_selector('#queue > li[data-key="t1:2"]', state="detached", timeout=5000)
        wait_for(lambda: table.next_seq("t1") >= 4, 20, "the act at the table")
        fix = table.body_at("t1", 3)
        assert (fix["type"], fix["target"], fix["cards"], fix["by"]) == ("correction", 2, ["S8", "H8"], "li")
        wait_for(lambda: hall.next_seq("t1") >= 4, 20, "the act back at the hall")
        page.reload()
        page.wait_for_selector("#more:text('暂无待处理事项')")  # the table's record is exact: nothing open
        assert page.locator("#queue > li").count() == 0
        page.close()
    finally:
        relay.close()
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
