"""The hall server's referee console in a real headless Chromium: an act on a camera table
goes down to the table's node, and the console shows it recorded at the table."""

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
from tests.hall.conftest import HALL, match, wait_for
from tests.hall.test_cli import _listening
from tests.web.conftest import ARTIFACTS, PASSWORD
from tests.web.test_browser import referee_console, table_tool


@needs_mosquitto
def test_a_referee_at_the_hall_adjusts_a_camera_tables_levels(tmp_path, broker, browser):
    db, web = tmp_path / "hall.db", free_port()
    Store(db).add_user("li", PASSWORD)
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL, "--web", str(web)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    table = Store(tmp_path / "table.db")
    write = StoreLink(table, "t1").append
    for body in match("t1")[:6]:
        write(event_from_json(body))
    node = Node(parse_broker(broker.url), Outbox(tmp_path / "outbox.db"), ["t1"], hall=HALL,
                acts=TableActs(table, "t1").take).start()
    relay = Relay(table, "t1", node, every=0.05).start()
    try:
        wait_for(lambda: _listening(web), 20, "the hall server's pages")
        hall = Store(db)
        wait_for(lambda: hall.next_seq("t1") == 6 if hall.has_table("t1") else False, 20, "the table at the hall")
        page = referee_console(browser, f"http://127.0.0.1:{web}", table="t1")
        form = table_tool(page, "t1", "level_adjust")
        form.locator('select[name="side"]').select_option("NS")
        form.locator('input[name="levels"]').fill("-1")
        form.locator('input[name="why"]').fill("迟到")
        form.locator('button[type="submit"]').click()
        page.wait_for_selector(".flash")
        assert "已发往牌桌节点" in page.inner_text(".flash")
        wait_for(lambda: table.next_seq("t1") == 7, 20, "the act at the table")
        body = table.body_at("t1", 6)
        assert (body["type"], body["side"], body["levels"], body["by"], body["why"]) == (
            "level_adjust", "NS", -1, "li", "迟到")

        def shown() -> bool:
            page.reload()
            return page.locator(".sent-acts .sent-recorded").count() == 1

        wait_for(shown, 20, "the console to show the act recorded")
        sent = page.inner_text(".sent-acts")
        assert "已记入第6条" in sent and "调整级数 南北方 -1" in sent and "li" in sent
        wait_for(lambda: hall.next_seq("t1") == 7, 20, "the act back at the hall")
        page.screenshot(path=str(ARTIFACTS / "hall-console-sent.png"))
        page.close()
    finally:
        relay.close()
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
