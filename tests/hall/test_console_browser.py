"""The hall server's referee console in a real headless Chromium: an act on a camera table
goes down to the table's node, and the console shows it recorded at the table."""

from __future__ import annotations

from tests.hall.conftest import broker, match, wait_for  # noqa: F401 (broker: the fixture)
from tests.hall.console_hall import camera_hall  # noqa: F401 (the fixture)
from tests.web.conftest import ARTIFACTS
from tests.web.test_browser import referee_console, table_tool


def test_a_referee_at_the_hall_adjusts_a_camera_tables_levels(camera_hall, browser):  # noqa: F811
    at = camera_hall(match("t1")[:6])
    page = referee_console(browser, at.web, table="t1")
    form = table_tool(page, "t1", "level_adjust")
    form.locator('select[name="side"]').select_option("NS")
    form.locator('input[name="levels"]').fill("-1")
    form.locator('input[name="why"]').fill("迟到")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector(".flash")
    assert "已发往牌桌节点" in page.inner_text(".flash")
    wait_for(lambda: at.table.next_seq("t1") == 7, 20, "the act at the table")
    body = at.table.body_at("t1", 6)
    assert (body["type"], body["side"], body["levels"], body["by"], body["why"]) == (
        "level_adjust", "NS", -1, "li", "迟到")

    def shown() -> bool:
        page.reload()
        return page.locator(".sent-acts .sent-recorded").count() == 1

    wait_for(shown, 20, "the console to show the act recorded")
    sent = page.inner_text(".sent-acts")
    assert "已记入第6条" in sent and "调整级数 南北方 -1" in sent and "li" in sent
    wait_for(lambda: at.hall.next_seq("t1") == 7, 20, "the act back at the hall")
    assert [a["act"] for a in at.received] == ["level_adjust"]
    page.screenshot(path=str(ARTIFACTS / "hall-console-sent.png"))
    page.close()
