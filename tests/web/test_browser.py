"""The pages in a real headless Chromium against the real server (waitress, SSE)."""

import json
import re
import urllib.request

import cv2

from tests.web.conftest import ARTIFACTS, PASSWORD, header_json


def post(base: str, path: str, body: dict, token: str) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def new_table(base: str, token: str, table: str = "t9") -> None:
    post(base, "/api/tables", {"id": table, "header": header_json(table)}, token)
    post(base, f"/api/tables/{table}/events", {"events": [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}]}, token)


def referee_console(browser, server: str, start: str = "/referee", table: str = "t9"):
    """A page on the referee console, logged in as the fixture's referee from ``start`` (the
    console sends an anonymous visitor to the login form; the form's ``?lang=`` sets the
    session's language), once its table tools offer ``table``."""
    ref = browser.new_page(viewport={"width": 1200, "height": 900})
    ref.goto(server + start)
    assert "/referee/login" in ref.url
    ref.fill('input[name="user"]', "li")
    ref.fill('input[name="password"]', PASSWORD)
    ref.click('button[type="submit"]')
    ref.wait_for_selector(f'#tool-table option[value="{table}"]', state="attached")
    return ref


def table_tool(ref, table: str, kind: str):
    """The console's form for a ``kind`` of act (its table tools), aimed at ``table``."""
    if not ref.is_visible("#tools form.correction"):
        ref.click("#tools summary")
    ref.select_option("#tool-table", table)
    return ref.locator(f"#tools form.{kind}")


def test_overlay_is_1920x1080_transparent_without_scrollbars(server, browser):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(server + "/overlay/1?lang=zh")
    page.wait_for_selector("#o-N .o-count")
    page.wait_for_timeout(300)  # card images
    shot = ARTIFACTS / "overlay-1920x1080.png"
    page.screenshot(path=str(shot), omit_background=True)
    image = cv2.imread(str(shot), cv2.IMREAD_UNCHANGED)
    assert image.shape == (1080, 1920, 4)
    alpha = image[:, :, 3]
    assert alpha[540, 960] == 0 and alpha[5, 5] == 0 and alpha[1075, 5] == 0  # the video shows through
    assert (alpha > 0).mean() > 0.03  # and the panels are drawn
    sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert sizes == [1920, 1080]
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.close()


def test_a_live_event_reaches_the_table_page(server, browser, token):
    new_table(server, token)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(server + "/table/t9")
    page.wait_for_selector("#seat-E.acting")
    post(server, "/api/tables/t9/events", {"events": [
        {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S9", "H9", "D9", "C9"]}]}, token)
    page.wait_for_selector('#trick img[alt="C9"]', timeout=5000)
    assert "炸弹" in page.inner_text("#trick")
    assert page.inner_text("#seat-E .seat-cards b") == "23"
    page.wait_for_selector("#seat-N.acting")
    page.screenshot(path=str(ARTIFACTS / "table-live.png"))
    page.close()


def test_a_referee_logs_in_corrects_a_play_and_the_table_page_shows_it(server, browser, token):
    new_table(server, token)
    post(server, "/api/tables/t9/events", {"events": [
        {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S6", "H8"]}]}, token)  # a misread 8 as 6
    table = browser.new_page(viewport={"width": 1400, "height": 900})
    table.goto(server + "/table/t9?lang=en")
    table.wait_for_selector("#alerts li.open")
    assert "not a combination" in table.inner_text("#alerts")

    ref = referee_console(browser, server)
    form = table_tool(ref, "t9", "correction")
    form.locator('input[name="target"]').fill("2")
    form.locator('input[name="cards"]').fill("S8 H8")
    form.locator('input[name="why"]').fill("camera read the 8 as a 6")
    form.locator('button[type="submit"]').click()
    ref.wait_for_selector(".flash")
    ref.screenshot(path=str(ARTIFACTS / "referee-console.png"))

    table.wait_for_selector('#trick img[alt="S8"]', timeout=5000)
    assert "pair 8" in table.inner_text("#trick")
    log = table.inner_text("#log")
    assert re.search(r"referee corrected #2: S8 H8 \(li: camera read the 8 as a 6\)", log)
    assert table.locator("#alerts li.open").count() == 0
    table.screenshot(path=str(ARTIFACTS / "table-corrected.png"))
    ref.close()
    table.close()


def test_a_referee_puts_in_a_missed_play_from_the_console(server, browser, token):
    """The camera never read North's 大王 on East's 5, so West's pass was out of turn; the
    referee puts the play in before the pass with the console's form (Chinese page)."""
    new_table(server, token)
    post(server, "/api/tables/t9/events", {"events": [
        {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S5"]},
        {"seq": 3, "t": 5, "type": "pass", "seat": "W"}]}, token)
    table = browser.new_page(viewport={"width": 1400, "height": 900})
    table.goto(server + "/table/t9")
    table.wait_for_selector("#alerts li.open")
    ref = referee_console(browser, server)
    form = table_tool(ref, "t9", "missed")
    assert "补录漏记的出牌" in form.inner_text()
    form.locator('select[name="seat"]').select_option("N")
    form.locator('input[name="cards"]').fill("HR")
    form.locator('input[name="before"]').fill("3")
    form.locator('input[name="why"]').fill("摄像头没认出大王")
    form.locator('button[type="submit"]').click()
    ref.wait_for_selector(".flash")
    table.wait_for_selector('#trick img[alt="HR"]', timeout=5000)
    assert "单张 大王" in table.inner_text("#trick")
    assert "裁判补录第4条（摄像头漏记），补在第3条之前：北 HR（li：摄像头没认出大王）" in table.inner_text("#log")
    assert table.locator("#alerts li.open").count() == 0
    table.screenshot(path=str(ARTIFACTS / "table-missed-play.png"))
    # the camera then took cards knocked into East's zone for a play: the referee voids it
    post(server, "/api/tables/t9/events", {"events": [
        {"seq": 5, "t": 9, "type": "play", "seat": "E", "cards": ["D4"]}]}, token)
    table.wait_for_selector("#alerts li.open")
    ref.goto(server + "/referee")
    form = table_tool(ref, "t9", "correction")
    form.locator('input[name="target"]').fill("5")
    form.locator('input[name="void"]').check()
    form.locator('input[name="why"]').fill("牌碰进了出牌区")
    form.locator('button[type="submit"]').click()
    ref.wait_for_selector(".flash")
    table.wait_for_function("document.querySelectorAll('#alerts li.open').length === 0", timeout=5000)
    assert "裁判作废第5条：此事件并未发生（li：牌碰进了出牌区）" in table.inner_text("#log")
    ref.close()
    table.close()


def test_the_table_page_says_where_the_record_breaks_in_its_language(server, browser, token, store):
    """A writer that checks nothing stored a deal in the middle of East's hand."""
    new_table(server, token)
    store.append("t9", [{"seq": 2, "t": 2, "type": "deal", "leader": "E"}])
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    for lang, said in (("zh", "记录有误: 第2条：上一副牌还没打完，不能发牌"),
                       ("en", "record error: seq 2: a deal while the previous hand is still being played")):
        page.goto(server + f"/table/t9?lang={lang}")
        page.wait_for_selector("#scoreboard .error")
        assert page.inner_text("#scoreboard .error") == said
    page.close()


def test_the_hall_shows_every_table(server, browser, token):
    new_table(server, token, "t7")
    page = browser.new_page(viewport={"width": 1200, "height": 700})
    page.goto(server + "/?lang=en")
    page.wait_for_selector(".hall-card >> text=Table t7")
    assert page.locator(".hall-card").count() == 2
    assert "winner" in page.inner_text("#hall")
    page.screenshot(path=str(ARTIFACTS / "hall.png"))
    page.close()


def test_overlay_broadcast_delay_shows_events_late(server, browser, token):
    new_table(server, token)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(server + "/overlay/t9?delay=2&lang=en")
    page.wait_for_selector("#o-E")
    post(server, "/api/tables/t9/events", {"events": [
        {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["SA"]}]}, token)
    page.wait_for_timeout(800)
    assert page.locator('#o-E img[alt="SA"]').count() == 0  # not yet: the stream is 2 s behind
    page.wait_for_selector('#o-E img[alt="SA"]', timeout=6000)
    page.close()
