"""The referee console's tournament results in a real headless Chromium against the real
server (``guandan serve``, waitress, both streams) on a database holding the hall and a
tournament: the round's provisional results follow the hall's items and are confirmed from
the keyboard, a result confirmed at one console leaves another's, the next round's button
shows only once every result is final and draws it, and the desk's refusals show as one
line in both languages, the referee's first."""

from __future__ import annotations

import json
import time
import urllib.request

from store import tournament_desk as desk
from tests.web.conftest import ARTIFACTS
from tests.web.test_browser import post
from tests.web.test_referee_console import console
from tests.web.test_tournament import record, tournament  # noqa: F401 (the fixture)

#: the hall's items left open on the demo table (hall table 1, the fixture's store): they come first
HALL_ITEMS = 1


def settle_all_but_one(base: str, token: str) -> None:
    """The demo table's rulings acknowledged but the first (a hall's item beside the results)."""
    with urllib.request.urlopen(f"{base}/api/referee/queue", timeout=10) as r:
        items = json.loads(r.read())["items"]
    for it in items[HALL_ITEMS:]:
        post(base, f"/api/tables/{it['table']}/referee/alert_done", {"alert": it["id"], "action": "ack", "why": "seen"},
             token)


def provisional(t_store) -> list[int]:
    """Both tables of round 1 given their match's record: provisional results; their entries."""
    return [desk.enter_record(t_store, None, n, record(4 + n), f"hall:{n}", "hall").entry for n in (1, 2)]


def open_result(page, table: int) -> None:
    """Move down the queue with J to round 1's result of ``table``."""
    key = f"result:1:{table}"
    page.wait_for_selector(f'#queue > li[data-key="{key}"]')
    for _ in range(page.locator("#queue > li").count()):
        if page.get_attribute("#queue > li.selected", "data-key") == key:
            return
        page.keyboard.press("j")
    raise AssertionError(f"{key} is not in the queue")


def tables(base: str, round_no: int) -> list[dict]:
    with urllib.request.urlopen(f"{base}/api/tournaments/1/draws?round={round_no}", timeout=10) as r:
        return json.loads(r.read())[0]["tables"]


def test_results_are_confirmed_from_the_keyboard_and_the_next_round_drawn(server, browser, store, token,
                                                                         tournament):  # noqa: F811
    provisional(tournament)
    settle_all_but_one(server, token)
    store.add_user("wang", "s3cret-pass")
    li, wang = console(browser, server, size=(1920, 1080)), console(browser, server, "wang", size=(390, 844))
    for page in (li, wang):
        page.wait_for_selector("#queue > li.kind-result >> nth=1")
    keys = [li_.get_attribute("data-key") for li_ in li.query_selector_all("#queue > li")]
    assert keys[HALL_ITEMS:] == ["result:1:1", "result:1:2"]  # after the hall's items
    assert wang.evaluate("document.documentElement.scrollWidth") == 390  # nothing wider than a phone
    assert "待确认 2 桌，未完赛 0 桌" in li.inner_text("#round") and li.locator("#draw-next").count() == 0
    assert "待确认成绩 2" in li.inner_text("#counts")
    open_result(li, 1)
    item = li.locator("#queue > li.selected")
    text = item.inner_text()
    line = tables(server, 1)[0]
    assert "第1轮第1桌" in text and f"{line['ns']} 第{line['ns'][1]}队" in text and "确认成绩" in text
    assert f"本桌仍有{HALL_ITEMS}项待处理" in text  # hall table 1 is tournament table 1 here
    assert item.locator('a[href^="/table/1"]').count() == 1
    evidence = item.locator('a[href$="/record"]').get_attribute("href")
    with urllib.request.urlopen(server + evidence, timeout=10) as r:
        assert json.loads(r.readline())["type"] == "header"  # the record kept with the result
    li.screenshot(path=str(ARTIFACTS / "console-results-1920x1080.png"))
    open_result(wang, 1)
    wang.screenshot(path=str(ARTIFACTS / "console-results-phone.png"))
    wang.wait_for_timeout(300)  # its stream connected
    li.keyboard.press("Enter")
    start = time.monotonic()
    wang.wait_for_selector('#queue > li[data-key="result:1:1"]', state="detached", timeout=5000)
    print(f"gone from the second screen {time.monotonic() - start:.2f} s after the key press")
    li.wait_for_selector('#queue > li[data-key="result:1:1"]', state="detached")
    assert tables(server, 1)[0]["state"] == "final" and tables(server, 1)[0]["result"]["confirmed_by"] == "li"
    assert wang.locator("#draw-next").count() == 0  # table 2 is still provisional
    open_result(wang, 2)
    wang.keyboard.press("Enter")
    for page in (li, wang):
        page.wait_for_selector("#draw-next:text('编排第2轮')")
        assert "本轮成绩均已确认" in page.inner_text("#round")
        assert page.locator("#queue > li.kind-result").count() == 0
    li.click("#draw-next")
    li.wait_for_selector("#round h2:text('第2轮（共2轮）')")
    assert [t["state"] for t in tables(server, 2)] == ["playing", "playing"]
    assert "未完赛：第1桌、第2桌" in li.inner_text("#round") and li.locator("#draw-next").count() == 0
    wang.wait_for_selector("#round h2:text('第2轮（共2轮）')")
    li.close()
    wang.close()


def test_the_desks_refusals_show_in_both_languages(server, browser, token, tournament):  # noqa: F811
    """A console that has not heard of the changes (its tournament stream cut): a result
    corrected since it was shown is refused, then a round drawn meanwhile elsewhere."""
    entries = provisional(tournament)
    page = console(browser, server, lang="en")
    page.route("**/api/tournaments/1/stream", lambda route: route.abort())
    page.reload()
    open_result(page, 1)
    line = tables(server, 1)[0]
    fixed = post(server, "/api/tournaments/1/results", {"table": 1, "pairs": [line["ns"], line["ew"]],
                                                         "levels": ["A+", "9"]}, token)
    post(server, "/api/tournaments/1/results/2/confirm", {"entry": entries[1]}, token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#act-error:visible")
    assert page.inner_text("#act-error") == (
        f"not recorded: round 1, table 1's result has changed (now entry {fixed['entry']}): reload and confirm "
        f"again / 第1轮第1桌的成绩已变（现为第{fixed['entry']}条）：请刷新后再确认")
    page.wait_for_selector("#draw-next:text('Draw round 2')")  # the round as it stands now
    assert page.locator("#queue > li.kind-result").count() == 0
    post(server, "/api/tournaments/1/draws", {}, token)
    page.click("#draw-next")
    page.wait_for_function("document.querySelector('#act-error').textContent.includes('already drawn')")
    assert page.inner_text("#act-error") == "not recorded: round 2 is already drawn / 第2轮已编排"
    assert len(tables(server, 2)) == 2  # nothing more drawn
    page.close()
